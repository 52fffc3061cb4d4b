// aclnnAddmm, aclnnInplaceAddmm, aclnnBaddbmm, aclnnInplaceBaddbmm against
// beta * self + alpha * (a @ b) computed here in double: self broadcast
// from every shape the op_api allows, odd sizes (1, 7, 257, several tiles),
// transposed / strided / offset views, every dtype pair and cubeMathType,
// beta 0 ignoring NaN and Inf in self and Addmm's alpha 0 ignoring the
// product (Baddbmm has no alpha-0 graph: a NaN product stays), empty
// tensors, the in-place forms and every error path with its message.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_baddbmm.h"
#include "matmul_test_support.hpp"

namespace {

using namespace optest;

using AddEntry = aclnnStatus (*)(const aclTensor*, const aclTensor*, const aclTensor*, const aclScalar*,
                                 const aclScalar*, aclTensor*, int8_t, uint64_t*, aclOpExecutor**);

DeviceTensor device(const MatrixOperand& m) {
    return DeviceTensor(TensorSpec(m.shape, m.dtype, m.strides, m.offset, m.storage));
}

class AddProducts : public AclTest {
protected:
    /// Runs entry (phase 2 `phase2`) on self, a, b and checks out (outShape,
    /// outDtype) against beta * self + alpha * (a @ b), the operands rounded
    /// by emulation.round; the tolerance is fp32 accumulation's bound plus a
    /// rounding of each dtype involved.
    void expect_sum(AddEntry entry, Phase2 phase2, const MatrixOperand& self, const MatrixOperand& a,
                    const MatrixOperand& b, const Shape& outShape, aclDataType outDtype, double alpha, double beta,
                    int8_t cmt, const Emulation& emulation = {}) {
        SCOPED_TRACE("cubeMathType " + std::to_string(cmt) + " alpha " + std::to_string(alpha) + " beta " +
                     std::to_string(beta) + " self " + std::to_string(self.shape.size()) + "-d");
        DeviceTensor s = device(self);
        DeviceTensor x = device(a);
        DeviceTensor y = device(b);
        s.write(uniform(static_cast<size_t>(numel(self.shape)), -3, 3, 21));
        x.write(uniform(static_cast<size_t>(numel(a.shape)), -2, 2, 22));
        y.write(uniform(static_cast<size_t>(numel(b.shape)), -2, 2, 23));
        auto out = DeviceTensor::output(TensorSpec(outShape, outDtype));
        const Scalar betaScalar(beta);
        const Scalar alphaScalar(alpha);
        ASSERT_EQ(run_aclnn(stream_, entry, phase2, s.get(), x.get(), y.get(), betaScalar.get(), alphaScalar.get(),
                            out->get(), cmt),
                  ACLNN_SUCCESS);
        check(s.read(), self.shape, x.read(), a.shape, y.read(), b.shape, out->read(), outShape, alpha, beta,
              emulation, self.dtype, outDtype);
    }

    /// The comparison of expect_sum: out's batch dims broadcast a and b,
    /// self broadcast to out.
    static void check(const std::vector<double>& ss, const Shape& selfShape, const std::vector<double>& xs,
                      const Shape& am, const std::vector<double>& ys, const Shape& bm,
                      const std::vector<double>& actual, const Shape& outShape, double alpha, double beta,
                      const Emulation& emulation, aclDataType selfDtype, aclDataType outDtype) {
        const size_t rank = outShape.size();
        const Shape batch(outShape.begin(), outShape.end() - 2);
        const int64_t m = outShape[rank - 2];
        const int64_t n = outShape[rank - 1];
        const int64_t k = am.back();
        ASSERT_EQ(static_cast<int64_t>(actual.size()), numel(outShape));
        const double roundings = relative_ulp(emulation.result) + relative_ulp(outDtype) + relative_ulp(selfDtype);
        for (int64_t bt = 0; bt < numel(batch); ++bt) {
            for (int64_t i = 0; i < m; ++i) {
                for (int64_t j = 0; j < n; ++j) {
                    const auto [sum, magnitude] = emulated_dot(emulation, xs, am, ys, bm, batch, bt, i, j);
                    const int64_t at = (bt * m + i) * n + j;
                    const double scaled = beta * broadcast_value(ss, selfShape, outShape, at);
                    const double expected = scaled + alpha * sum;
                    const double tol = std::fabs(alpha) * 2.0 * static_cast<double>(k) * std::ldexp(magnitude, -24) +
                                       roundings * (std::fabs(alpha * sum) + std::fabs(scaled)) + 1e-30;
                    ASSERT_LE(std::fabs(actual[static_cast<size_t>(at)] - expected), tol)
                        << "at batch " << bt << " (" << i << "," << j << ")";
                }
            }
        }
    }

    void addmm(const MatrixOperand& self, const MatrixOperand& a, const MatrixOperand& b, aclDataType outDtype,
               double alpha, double beta, int8_t cmt = 0, const Emulation& e = {}) {
        expect_sum(aclnnAddmmGetWorkspaceSize, aclnnAddmm, self, a, b, {a.shape[0], b.shape[1]}, outDtype, alpha,
                   beta, cmt, e);
    }
    void baddbmm(const MatrixOperand& self, const MatrixOperand& a, const MatrixOperand& b, aclDataType outDtype,
                 double alpha, double beta, int8_t cmt = 0, const Emulation& e = {}) {
        const Shape out = {std::max(a.shape[0], b.shape[0]), a.shape[1], b.shape[2]};
        expect_sum(aclnnBaddbmmGetWorkspaceSize, aclnnBaddbmm, self, a, b, out, outDtype, alpha, beta, cmt, e);
    }

    /// Phase 1 of Addmm on the given tensors with beta 1, alpha 1.
    static aclnnStatus addmm_phase1(const DeviceTensor& self, const DeviceTensor& a, const DeviceTensor& b,
                                    const DeviceTensor& out, int8_t cmt = 0) {
        const Scalar one(1.0);
        return phase1_of(aclnnAddmmGetWorkspaceSize, self.get(), a.get(), b.get(), one.get(), one.get(), out.get(),
                         cmt);
    }
    static aclnnStatus baddbmm_phase1(const DeviceTensor& self, const DeviceTensor& a, const DeviceTensor& b,
                                      const DeviceTensor& out) {
        const Scalar one(1.0);
        return phase1_of(aclnnBaddbmmGetWorkspaceSize, self.get(), a.get(), b.get(), one.get(), one.get(), out.get(),
                         int8_t{0});
    }
};

// Odd sizes and several tiles; self of each shape that broadcasts to
// [m, n] (CheckBroadcast: at most 2 dims); alpha and beta 1 and not.
TEST_F(AddProducts, AddmmSizesAndSelfBroadcast) {
    for (const int64_t size : {1, 7, 257}) {
        const int64_t m = size;
        const int64_t n = size + 1;
        for (const Shape& self : {Shape{m, n}, Shape{n}, Shape{1, n}, Shape{m, 1}, Shape{1}}) {
            addmm({self}, {{m, size + 2}}, {{size + 2, n}}, ACL_FLOAT, 1, 1);
            addmm({self}, {{m, size + 2}}, {{size + 2, n}}, ACL_FLOAT, -1.5, 0.25);
        }
    }
    addmm({{1030}}, {{530, 600}}, {{600, 1030}}, ACL_FLOAT, 0.5, 2);
}

// ggml's transposed weight view, a transposed and offset mat1, a strided
// self, a 0-stride broadcast self.
TEST_F(AddProducts, AddmmViews) {
    addmm({{9, 13}, ACL_FLOAT, {20, 1}, 3, {200}}, {{9, 5}, ACL_FLOAT, {1, 9}, 4, {60}},
          {{5, 13}, ACL_FLOAT, {1, 5}}, ACL_FLOAT, 2, -1);
    addmm({{9, 13}, ACL_FLOAT16, {0, 1}}, {{9, 5}, ACL_FLOAT16}, {{5, 13}, ACL_FLOAT16, {1, 5}}, ACL_FLOAT16, 1, 1, 0,
          {[](double v) { return v; }, ACL_FLOAT16});
}

// The dtypes of Dav2201MatMulRule with self as the bias, each cubeMathType:
// 16-bit pairs into their own dtype or FLOAT (GemmV3WithAlphaBeta under
// USE_FP32_ADD), mixed pairs in FLOAT, USE_FP16 and HF32 rounding inputs.
TEST_F(AddProducts, AddmmDtypesAndCubeMathTypes) {
    const Emulation none;
    for (const int8_t cmt : {0, 1, 2, 3, 4, -1}) {
        for (const aclDataType low : {ACL_FLOAT16, ACL_BF16}) {
            const Emulation lowOut{[](double v) { return v; }, low};
            addmm({{17, 9}, low}, {{17, 33}, low}, {{33, 9}, low}, low, 1.5, 0.5, cmt, lowOut);
            addmm({{9}, low}, {{17, 33}, low}, {{33, 9}, low}, ACL_FLOAT, 1, 1, cmt, none);
            addmm({{17, 9}}, {{17, 33}, low}, {{33, 9}, low}, ACL_FLOAT, 2, 3, cmt, none);
        }
        const Emulation fp32 = cmt == 2 ? fp16_inputs(ACL_FLOAT16) : (cmt == 1 || cmt == 3) ? hf32_inputs() : none;
        addmm({{17, 9}}, {{17, 300}}, {{300, 9}}, ACL_FLOAT, 0.75, -2, cmt, fp32);
    }
    addmm({{17, 9}, ACL_BF16}, {{17, 33}, ACL_FLOAT16}, {{33, 9}}, ACL_FLOAT16, 1, 1, 0,
          {[](double v) { return v; }, ACL_BF16});
}

TEST_F(AddProducts, BaddbmmBatchesAndBroadcast) {
    for (const int64_t size : {1, 7, 257}) {
        const Shape a = {3, size, size + 2};
        const Shape b = {3, size + 2, size + 1};
        for (const Shape& self :
             {Shape{3, size, size + 1}, Shape{size + 1}, Shape{1, size, 1}, Shape{size, size + 1}}) {
            baddbmm({self}, {a}, {b}, ACL_FLOAT, 1, 1);
            baddbmm({self}, {a}, {b}, ACL_FLOAT, 0.5, -1.25);
        }
    }
    // batch2's batch of 1 broadcast (CheckBroadCast refuses batch1's beside
    // a larger out batch), transposed batch2, 16-bit dtypes.
    baddbmm({{4, 7, 9}}, {{4, 7, 5}}, {{1, 5, 9}, ACL_FLOAT, {45, 1, 5}}, ACL_FLOAT, 2, 1);
    baddbmm({{4, 7, 9}, ACL_FLOAT16}, {{4, 7, 5}, ACL_FLOAT16}, {{1, 5, 9}, ACL_FLOAT16}, ACL_FLOAT16, 1, 1, 4,
            {[](double v) { return v; }, ACL_FLOAT16});
    baddbmm({{2, 7, 9}, ACL_BF16}, {{2, 7, 300}, ACL_BF16}, {{2, 300, 9}, ACL_BF16}, ACL_FLOAT, 1, 0.5, 0, {});
    baddbmm({{2, 7, 9}}, {{2, 7, 300}}, {{2, 300, 9}}, ACL_FLOAT, 1, 1, 2, fp16_inputs(ACL_FLOAT16));
}

/// A 2 x 2 case with NaN and Inf planted: self, mat1 (3-d for Baddbmm).
struct Planted {
    std::vector<double> self = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                                1, 2};
    std::vector<double> ones = std::vector<double>(4, 1.0);
};

// beta 0 never reads self (torch's rule, the op_api's Beta0 graphs); Addmm's
// alpha 0 never computes the product (its Alpha0 graph); Baddbmm's alpha 0
// adds 0 * product, so a NaN product stays NaN.
TEST_F(AddProducts, ZeroBetaAndZeroAlpha) {
    const Planted planted;
    DeviceTensor self(TensorSpec({2, 2}, ACL_FLOAT), planted.self);
    DeviceTensor ones(TensorSpec({2, 2}, ACL_FLOAT), planted.ones);
    auto out = DeviceTensor::output(TensorSpec({2, 2}, ACL_FLOAT));
    const Scalar zero(0.0);
    const Scalar three(3.0);
    ASSERT_EQ(run_aclnn(stream_, aclnnAddmmGetWorkspaceSize, aclnnAddmm, self.get(), ones.get(), ones.get(),
                        zero.get(), three.get(), out->get(), int8_t{0}),
              ACLNN_SUCCESS);
    EXPECT_EQ(out->read(), std::vector<double>(4, 6.0));
    DeviceTensor nanMat(TensorSpec({2, 2}, ACL_FLOAT), planted.self);
    DeviceTensor finite(TensorSpec({2, 2}, ACL_FLOAT), {1, 2, 3, 4});
    ASSERT_EQ(run_aclnn(stream_, aclnnAddmmGetWorkspaceSize, aclnnAddmm, finite.get(), nanMat.get(), ones.get(),
                        three.get(), zero.get(), out->get(), int8_t{0}),
              ACLNN_SUCCESS);
    EXPECT_EQ(out->read(), (std::vector<double>{3, 6, 9, 12}));
    DeviceTensor self3(TensorSpec({1, 2, 2}, ACL_FLOAT), planted.self);
    DeviceTensor ones3(TensorSpec({1, 2, 2}, ACL_FLOAT), planted.ones);
    auto out3 = DeviceTensor::output(TensorSpec({1, 2, 2}, ACL_FLOAT));
    ASSERT_EQ(run_aclnn(stream_, aclnnBaddbmmGetWorkspaceSize, aclnnBaddbmm, self3.get(), ones3.get(), ones3.get(),
                        zero.get(), three.get(), out3->get(), int8_t{0}),
              ACLNN_SUCCESS);
    EXPECT_EQ(out3->read(), std::vector<double>(4, 6.0));
    DeviceTensor finite3(TensorSpec({1, 2, 2}, ACL_FLOAT), {1, 2, 3, 4});
    ASSERT_EQ(run_aclnn(stream_, aclnnBaddbmmGetWorkspaceSize, aclnnBaddbmm, finite3.get(), self3.get(), ones3.get(),
                        three.get(), zero.get(), out3->get(), int8_t{0}),
              ACLNN_SUCCESS);
    const std::vector<double> got = out3->read();
    EXPECT_TRUE(std::isnan(got[0]) && std::isnan(got[1])) << got[0] << " " << got[1];
    EXPECT_EQ(got[2], 9.0);
}

// The in-place forms write self (selfRef is out); a transposed selfRef.
TEST_F(AddProducts, InplaceForms) {
    DeviceTensor selfRef(TensorSpec({3, 2}, ACL_FLOAT, {1, 3}), {1, 2, 3, 4, 5, 6});
    DeviceTensor a(TensorSpec({3, 4}, ACL_FLOAT), std::vector<double>(12, 1));
    DeviceTensor b(TensorSpec({4, 2}, ACL_FLOAT), {1, 2, 1, 2, 1, 2, 1, 2});
    const Scalar beta(2.0);
    const Scalar alpha(0.5);
    ASSERT_EQ(run_aclnn(stream_, aclnnInplaceAddmmGetWorkspaceSize, aclnnInplaceAddmm, selfRef.get(), a.get(), b.get(),
                        beta.get(), alpha.get(), int8_t{0}),
              ACLNN_SUCCESS);
    EXPECT_EQ(selfRef.read(), (std::vector<double>{4, 8, 8, 12, 12, 16}));
    DeviceTensor batchRef(TensorSpec({2, 1, 2}, ACL_FLOAT16), {1, 2, 3, 4});
    DeviceTensor b1(TensorSpec({2, 1, 3}, ACL_FLOAT16), std::vector<double>(6, 1));
    DeviceTensor b2(TensorSpec({1, 3, 2}, ACL_FLOAT16), std::vector<double>(6, 2));
    ASSERT_EQ(run_aclnn(stream_, aclnnInplaceBaddbmmGetWorkspaceSize, aclnnInplaceBaddbmm, batchRef.get(), b1.get(),
                        b2.get(), beta.get(), alpha.get(), int8_t{0}),
              ACLNN_SUCCESS);
    EXPECT_EQ(batchRef.read(), (std::vector<double>{5, 7, 9, 11}));
}

// Empty: an empty product or self does nothing; K == 0 gives beta * self
// (Addmm's Alpha0 graph; Baddbmm's product of zeros).
TEST_F(AddProducts, EmptyTensors) {
    DeviceTensor self(TensorSpec({2}, ACL_FLOAT), {1, -2});
    DeviceTensor noK(TensorSpec({3, 0}, ACL_FLOAT));
    DeviceTensor noK2(TensorSpec({0, 2}, ACL_FLOAT));
    auto out = DeviceTensor::output(TensorSpec({3, 2}, ACL_FLOAT16));
    const Scalar beta(3.0);
    const Scalar alpha(2.0);
    ASSERT_EQ(run_aclnn(stream_, aclnnAddmmGetWorkspaceSize, aclnnAddmm, self.get(), noK.get(), noK2.get(), beta.get(),
                        alpha.get(), out->get(), int8_t{0}),
              ACLNN_SUCCESS);
    EXPECT_EQ(out->read(), (std::vector<double>{3, -6, 3, -6, 3, -6}));
    DeviceTensor noM(TensorSpec({0, 4}, ACL_FLOAT));
    DeviceTensor four(TensorSpec({4, 2}, ACL_FLOAT), std::vector<double>(8, 1));
    auto empty = DeviceTensor::output(TensorSpec({0, 2}, ACL_FLOAT));
    EXPECT_EQ(run_aclnn(stream_, aclnnAddmmGetWorkspaceSize, aclnnAddmm, self.get(), noM.get(), four.get(), beta.get(),
                        alpha.get(), empty->get(), int8_t{0}),
              ACLNN_SUCCESS);
    // self empty beside a non-empty product: nothing is written.
    DeviceTensor noSelf(TensorSpec({0}, ACL_FLOAT));
    DeviceTensor three(TensorSpec({3, 4}, ACL_FLOAT), std::vector<double>(12, 1));
    DeviceTensor column(TensorSpec({4, 1}, ACL_FLOAT), std::vector<double>(4, 1));
    auto untouched = DeviceTensor::output(TensorSpec({3, 1}, ACL_FLOAT));
    EXPECT_EQ(run_aclnn(stream_, aclnnAddmmGetWorkspaceSize, aclnnAddmm, noSelf.get(), three.get(), column.get(),
                        beta.get(), alpha.get(), untouched->get(), int8_t{0}),
              ACLNN_SUCCESS);
    EXPECT_EQ(untouched->read(), std::vector<double>(3, -7.0));
    DeviceTensor self3(TensorSpec({2, 3, 2}, ACL_FLOAT), std::vector<double>(12, 1));
    DeviceTensor b1(TensorSpec({2, 3, 0}, ACL_FLOAT));
    DeviceTensor b2(TensorSpec({2, 0, 2}, ACL_FLOAT));
    auto out3 = DeviceTensor::output(TensorSpec({2, 3, 2}, ACL_FLOAT));
    ASSERT_EQ(run_aclnn(stream_, aclnnBaddbmmGetWorkspaceSize, aclnnBaddbmm, self3.get(), b1.get(), b2.get(),
                        beta.get(), alpha.get(), out3->get(), int8_t{0}),
              ACLNN_SUCCESS);
    EXPECT_EQ(out3->read(), std::vector<double>(12, 3.0));
}

TEST_F(AddProducts, AddmmErrorPaths) {
    DeviceTensor self(TensorSpec({3, 5}, ACL_FLOAT), std::vector<double>(15, 1));
    DeviceTensor a(TensorSpec({3, 4}, ACL_FLOAT), std::vector<double>(12, 1));
    DeviceTensor b(TensorSpec({4, 5}, ACL_FLOAT), std::vector<double>(20, 1));
    auto out = DeviceTensor::output(TensorSpec({3, 5}, ACL_FLOAT));
    const Scalar one(1.0);
    expect_each_null_is_161001_naming(aclnnAddmmGetWorkspaceSize, {"self", "mat1", "mat2", "beta", "alpha", "out"},
                                      self.get(), a.get(), b.get(), one.get(), one.get(), out->get(), int8_t{0});
    expect_each_null_is_161001_naming(aclnnInplaceAddmmGetWorkspaceSize, {"self", "mat1", "mat2", "beta", "alpha"},
                                      self.get(), a.get(), b.get(), one.get(), one.get(), int8_t{0});
    DeviceTensor doubles(TensorSpec({3, 5}, ACL_DOUBLE), std::vector<double>(15, 1));
    expect_error_naming(addmm_phase1(doubles, a, b, *out), ACLNN_ERR_PARAM_INVALID,
                        "Tensor bias not implemented for DT_DOUBLE");
    expect_error_naming(addmm_phase1(self, a, b, *out, 5), ACLNN_ERR_PARAM_INVALID,
                        "The value of cubeMathType only support");
    DeviceTensor a3(TensorSpec({1, 3, 4}, ACL_FLOAT), std::vector<double>(12, 1));
    expect_error_naming(addmm_phase1(self, a3, b, *out), ACLNN_ERR_PARAM_INVALID, "but got mat1 with sizes [1,3,4]");
    DeviceTensor wrongK(TensorSpec({5, 5}, ACL_FLOAT), std::vector<double>(25, 1));
    expect_error_naming(addmm_phase1(self, a, wrongK, *out), ACLNN_ERR_PARAM_INVALID,
                        "The k-axis of the two inputs are different.");
    TensorSpec nzSpec({3, 5}, ACL_FLOAT);
    nzSpec.format = ACL_FORMAT_FRACTAL_NZ;
    DeviceTensor nz(nzSpec, std::vector<double>(15, 1));
    expect_error_naming(addmm_phase1(nz, a, b, *out), ACLNN_ERR_PARAM_INVALID,
                        "The formats of self should be ND, but the actual formats are [FRACTAL_NZ]");
    DeviceTensor self3(TensorSpec({1, 3, 5}, ACL_FLOAT), std::vector<double>(15, 1));
    expect_error_naming(addmm_phase1(self3, a, b, *out), ACLNN_ERR_PARAM_INVALID,
                        "The dim of self should be less than 3.");
    // A 0-d self whose storage has no dims (aclCreateTensor's storageDims 0).
    DeviceBuffer buffer(32);
    aclTensor* scalar = aclCreateTensor(nullptr, 0, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, buffer.get());
    expect_error_naming(phase1_of(aclnnAddmmGetWorkspaceSize, scalar, a.get(), b.get(), one.get(), one.get(),
                                  out->get(), int8_t{0}),
                        ACLNN_ERR_PARAM_INVALID, "Self can not be empty.");
    aclDestroyTensor(scalar);
    DeviceTensor four(TensorSpec({4}, ACL_FLOAT), std::vector<double>(4, 1));
    expect_error_naming(addmm_phase1(four, a, b, *out), ACLNN_ERR_PARAM_INVALID,
                        "The size of tensor self [4] must match the size [3,5].");
    auto outWide = DeviceTensor::output(TensorSpec({3, 6}, ACL_FLOAT));
    expect_error_naming(addmm_phase1(self, a, b, *outWide), ACLNN_ERR_PARAM_INVALID,
                        "Shape of out should be [3,5], but the current is [3,6].");
    DeviceTensor noN(TensorSpec({4, 0}, ACL_FLOAT));
    DeviceTensor single(TensorSpec({1}, ACL_FLOAT), {1});
    expect_error_naming(addmm_phase1(single, a, noN, *out), ACLNN_ERR_PARAM_INVALID, "Shape of out should be [3,0]");
    DeviceTensor tall(TensorSpec({6, 5}, ACL_FLOAT), std::vector<double>(30, 1));
    DeviceTensor a1(TensorSpec({1, 4}, ACL_FLOAT), std::vector<double>(4, 1));
    auto out1 = DeviceTensor::output(TensorSpec({1, 5}, ACL_FLOAT));
    expect_error_naming(addmm_phase1(tall, a1, b, *out1), ACLNN_ERR_PARAM_INVALID, "acl-cpu: self [6,5]");
}

TEST_F(AddProducts, BaddbmmErrorPaths) {
    DeviceTensor self(TensorSpec({2, 3, 5}, ACL_FLOAT), std::vector<double>(30, 1));
    DeviceTensor a(TensorSpec({2, 3, 4}, ACL_FLOAT), std::vector<double>(24, 1));
    DeviceTensor b(TensorSpec({2, 4, 5}, ACL_FLOAT), std::vector<double>(40, 1));
    auto out = DeviceTensor::output(TensorSpec({2, 3, 5}, ACL_FLOAT));
    const Scalar one(1.0);
    expect_each_null_is_161001_naming(aclnnBaddbmmGetWorkspaceSize,
                                      {"self", "batch1", "batch2", "beta", "alpha", "out"}, self.get(), a.get(), b.get(), one.get(), one.get(), out->get(), int8_t{0});
    expect_each_null_is_161001(aclnnInplaceBaddbmmGetWorkspaceSize, self.get(), a.get(), b.get(), one.get(), one.get(),
                               int8_t{0});
    DeviceTensor ints(TensorSpec({2, 4, 5}, ACL_INT32), std::vector<double>(40, 1));
    expect_error_naming(baddbmm_phase1(self, a, ints, *out), ACLNN_ERR_PARAM_INVALID, "matB");
    DeviceTensor matrix(TensorSpec({4, 5}, ACL_FLOAT), std::vector<double>(20, 1));
    expect_error_naming(baddbmm_phase1(self, a, matrix, *out), ACLNN_ERR_PARAM_INVALID,
                        "batch2Tensor with sizes [4,5]");
    DeviceTensor wrongK(TensorSpec({2, 5, 5}, ACL_FLOAT), std::vector<double>(50, 1));
    expect_error_naming(baddbmm_phase1(self, a, wrongK, *out), ACLNN_ERR_PARAM_INVALID,
                        "batch1's last dim and batch2's penultimate dim shoule be same, batch1 [4], batch2 [5].");
    DeviceTensor three(TensorSpec({3, 4, 5}, ACL_FLOAT), std::vector<double>(60, 1));
    expect_error_naming(baddbmm_phase1(self, a, three, *out), ACLNN_ERR_PARAM_INVALID,
                        "mat1's batch dim and mat2's batch dim can not broadcast");
    DeviceTensor noSelf(TensorSpec({0}, ACL_FLOAT));
    expect_error_naming(baddbmm_phase1(noSelf, a, b, *out), ACLNN_ERR_PARAM_INVALID,
                        "self and batch1@batch2 should be both empty tensors, or not, self is [1], batch1@batch2 "
                        "is [0].");
    DeviceTensor four(TensorSpec({4}, ACL_FLOAT), std::vector<double>(4, 1));
    expect_error_naming(baddbmm_phase1(four, a, b, *out), ACLNN_ERR_PARAM_INVALID,
                        "Shape of self and batch1@batch2 can't broadcast.");
    auto outWrong = DeviceTensor::output(TensorSpec({2, 3, 6}, ACL_FLOAT));
    expect_error_naming(baddbmm_phase1(self, a, b, *outWrong), ACLNN_ERR_PARAM_INVALID,
                        "Shape of out should be [2,3,5], but current is [2,3,6].");
    DeviceTensor a1(TensorSpec({2, 1, 4}, ACL_FLOAT), std::vector<double>(8, 1));
    expect_error_naming(baddbmm_phase1(self, a1, b, *out), ACLNN_ERR_PARAM_INVALID,
                        "batch1@batch2's shape should be same with broadcastShape, broadcastShape [[2,3,5]], "
                        "bmmShape [[2,1,5]]");
    TensorSpec nzSpec({2, 4, 5}, ACL_FLOAT);
    nzSpec.format = ACL_FORMAT_FRACTAL_NZ;
    DeviceTensor nz(nzSpec, std::vector<double>(40, 1));
    expect_error_naming(baddbmm_phase1(self, a, nz, *out), ACLNN_ERR_PARAM_INVALID,
                        "Format of all input and output should be equal, batch1 [ND], batch2 [FRACTAL_NZ], out [ND].");
}

}  // namespace
