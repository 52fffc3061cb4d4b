// aclnnNorm (hicann/ops-nn norm/lp_norm_v2/op_api/aclnn_norm.cpp) against a
// double reference computed here: p 0, 1, 2, inf, -inf and others, every
// dim subset with and without keepdim, FLOAT/FLOAT16/BF16 selfs and outs
// (and an INT32 self, which A2 casts to FLOAT), strided and offset views,
// 0-d and empty tensors, every error path, and bitwise-identical results
// for 1, 2 and 8 worker threads.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_norm.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"
#include "ops/reduction_reference.hpp"

namespace {

using namespace optest;

/// The p-norm of each output's elements (mask: the reduced dims of shape).
std::vector<double> norm_reference(const std::vector<double>& x, const Shape& shape, uint32_t mask, double p) {
    const auto outputs = static_cast<size_t>(numel(reduced(shape, mask, false)));
    std::vector<double> acc(outputs, std::isinf(p) ? (p > 0 ? 0.0 : INFINITY) : 0.0);
    for (int64_t i = 0; i < numel(shape); ++i) {
        const int64_t o = output_of(i, shape, mask);
        const double a = std::fabs(x[static_cast<size_t>(i)]);
        double& r = acc[static_cast<size_t>(o)];
        if (std::isinf(p)) r = p > 0 ? std::max(r, a) : std::min(r, a);
        else if (p == 0) r += a != 0 ? 1 : 0;
        else r += std::pow(a, p);
    }
    if (!std::isinf(p) && p != 0) {
        for (double& r : acc) r = std::pow(r, 1 / p);
    }
    return acc;
}

class LpNorm : public AclTest {
protected:
    aclnnStatus norm(const DeviceTensor& self, double p, const IntArray& dims, bool keep, const DeviceTensor& out,
                     uint64_t* workspace = nullptr) {
        const Scalar pScalar(p);
        return run_two_phases(
            [&](uint64_t* size, aclOpExecutor** executor) {
                return aclnnNormGetWorkspaceSize(self.get(), pScalar.get(), dims.get(), keep, out.get(), size,
                                                 executor);
            },
            aclnnNorm, stream_, workspace);
    }
};

const std::vector<double> kOrders = {0, 1, 2, INFINITY, -INFINITY, 3, 0.5, -1.5};

// Every p, every dim subset of a [3, 4, 5] tensor (an empty list is every
// dim), keepdim either way, contiguous and transposed-offset views; the
// fp32 result rounded once into out's dtype.
TEST_F(LpNorm, MatchesTheDoubleReferenceForEveryOrderAndDimSubset) {
    const Shape shape{3, 4, 5};
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        SCOPED_TRACE(name(dtype));
        std::vector<double> x = representable(uniform(60, -3, 3, 5), dtype);
        x[7] = 0;
        for (const TensorSpec& spec : {TensorSpec(shape, dtype), TensorSpec(shape, dtype, {1, 3, 12}, 5, {65})}) {
            DeviceTensor self(spec, x);
            for (double p : kOrders) {
                for (uint32_t mask = 0; mask < 8; ++mask) {
                    for (bool keep : {false, true}) {
                        SCOPED_TRACE("p " + std::to_string(p) + " mask " + std::to_string(mask));
                        const uint32_t reducedMask = mask == 0 ? 7u : mask;
                        auto out = DeviceTensor::output(TensorSpec(reduced(shape, reducedMask, keep), dtype));
                        ASSERT_EQ(norm(self, p, IntArray(dims_of(mask, 3)), keep, *out), ACLNN_SUCCESS)
                            << aclGetRecentErrMsg();
                        std::vector<double> expected = norm_reference(x, shape, reducedMask, p);
                        for (double& e : expected) e = representable(e, dtype);
                        const Tolerance tol = dtype == ACL_FLOAT ? Tolerance{2e-6, 1e-6} : tolerance_for(dtype);
                        expect_close(out->read(), expected, tol);
                    }
                }
            }
        }
    }
}

// ggml's L2_NORM: p 2 over dim 3 of a 4-D fp32 tensor, keepdim; an FP16
// self into a FLOAT out (computed in fp32); an INT32 self (cast to FLOAT on
// A2); INT_MAX as p is inf.
TEST_F(LpNorm, ServesGgmlAndCastsAsA2Does) {
    const std::vector<double> x = representable(uniform(2 * 3 * 4 * 9, -2, 2, 6), ACL_FLOAT);
    DeviceTensor self({{2, 3, 4, 9}, ACL_FLOAT}, x);
    auto out = DeviceTensor::output({{2, 3, 4, 1}, ACL_FLOAT});
    ASSERT_EQ(norm(self, 2, {3}, true, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(out->read(), norm_reference(x, {2, 3, 4, 9}, 8, 2), {2e-6, 1e-6});

    DeviceTensor half({{3}, ACL_FLOAT16}, {65504, 65504, 3});
    auto wide = DeviceTensor::output({{}, ACL_FLOAT});
    ASSERT_EQ(norm(half, 2, {}, false, *wide), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(wide->read(), {std::sqrt(2.0) * 65504}, {1e-6, 0});

    DeviceTensor ints({{2, 2}, ACL_INT32}, {3, -4, 0, 5});
    auto f = DeviceTensor::output({{2}, ACL_FLOAT});
    ASSERT_EQ(norm(ints, 1, {1}, false, *f), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(f->read(), {7, 5}, {0, 0});
    ASSERT_EQ(norm(ints, static_cast<double>(std::numeric_limits<int>::max()), {1}, false, *f), ACLNN_SUCCESS);
    expect_close(f->read(), {4, 5}, {0, 0});
}

// 0-d: |x| for every p but 0 (x != 0); empty: FillScalar(0), for inf too.
TEST_F(LpNorm, ZeroDAndEmptySelf) {
    DeviceTensor scalar({{}, ACL_FLOAT}, {-2.5});
    for (double p : {1.0, 2.0, double{INFINITY}, 0.0}) {
        auto out = DeviceTensor::output({{}, ACL_FLOAT});
        ASSERT_EQ(norm(scalar, p, {-1}, false, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        expect_close(out->read(), {p == 0 ? 1.0 : 2.5}, {0, 0});
    }
    DeviceTensor empty(TensorSpec({0, 3}, ACL_FLOAT));
    for (double p : {2.0, double{INFINITY}, -double{INFINITY}}) {
        auto zeros = DeviceTensor::output({{3}, ACL_FLOAT});
        ASSERT_EQ(norm(empty, p, {0}, false, *zeros), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        expect_close(zeros->read(), {0, 0, 0}, {0, 0});
    }
    auto none = DeviceTensor::output({{0}, ACL_FLOAT});
    uint64_t workspace = 1;
    ASSERT_EQ(norm(empty, 2, {1}, false, *none, &workspace), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(workspace, 0u);
}

// CheckParams' order and messages; OP_CHECK_COMM_INPUT comes first.
TEST_F(LpNorm, ErrorPaths) {
    DeviceTensor self({{2, 3}, ACL_FLOAT}, std::vector<double>(6, 1));
    auto out = DeviceTensor::output({{2}, ACL_FLOAT});
    const Scalar two(2.0);
    const auto phase1 = [&](const aclTensor* s, const IntArray& dims, const aclTensor* o) {
        return phase1_of(aclnnNormGetWorkspaceSize, s, two.get(), dims.get(), false, const_cast<aclTensor*>(o));
    };
    DeviceTensor u16({{2, 3}, ACL_UINT16}, std::vector<double>(6, 1));
    expect_error_naming(phase1(u16.get(), {1}, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "Input dtype DT_UINT16 and output dtype DT_FLOAT can not promote dtype.");
    expect_error_naming(phase1(self.get(), {2}, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "provided dim 2 not in the range of input tensor size 2.");
    expect_error_naming(phase1(self.get(), {1, -1}, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "Dim -1 appears multiple times in the list of dims");
    DeviceTensor nine(TensorSpec(Shape(9, 1), ACL_FLOAT), {1});
    expect_error_naming(phase1(nine.get(), {1}, out->get()), ACLNN_ERR_PARAM_INVALID, "8");
    expect_error_naming(phase1(self.get(), {0}, out->get()), ACLNN_ERR_PARAM_INVALID, "out");
    expect_each_null_is_161001_naming(aclnnNormGetWorkspaceSize, {"self", "pScalar", "dim", "out"}, self.get(),
                                      two.get(), IntArray{1}.get(), false, out->get());
    // A null workspaceSize is refused before a null self (OP_CHECK_COMM_INPUT first).
    aclOpExecutor* executor = nullptr;
    expect_error(aclnnNormGetWorkspaceSize(nullptr, two.get(), IntArray{1}.get(), false, out->get(), nullptr,
                                           &executor),
                 ACLNN_ERR_PARAM_NULLPTR);
}

// A full norm of 2^20 + 37 elements splits the reduced extent over blocks:
// bitwise identical for 1, 2 and 8 worker threads.
TEST_F(LpNorm, SplitNormsAreDeterministicAcrossWorkerCounts) {
    const int64_t n = (int64_t{1} << 20) + 37;
    const std::vector<double> x = representable(uniform(static_cast<size_t>(n), -1, 1, 12), ACL_FLOAT);
    std::vector<std::vector<uint8_t>> results;
    for (int threads : {1, 2, 8}) {
        restart_with_worker_threads(threads);
        DeviceTensor self({{n}, ACL_FLOAT}, x);
        for (double p : {2.0, 0.5}) {
            auto out = DeviceTensor::output({{}, ACL_FLOAT});
            uint64_t workspace = 0;
            ASSERT_EQ(norm(self, p, {0}, false, *out, &workspace), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            EXPECT_GT(workspace, 0u);
            results.push_back(out->bytes());
            if (threads == 1) expect_close(out->read(), norm_reference(x, {n}, 1, p), {1e-4, 0});
        }
    }
    for (size_t i = 2; i < results.size(); ++i) EXPECT_EQ(results[i], results[i % 2]);
}

}  // namespace
