// aclnnMm, aclnnBatchMatMul and aclnnMatmul against double-precision
// products computed here: the operands rounded as the Cube rounds them
// (FLOAT16 under USE_FP16, HF32 under ALLOW_FP32_DOWN_PRECISION and
// USE_HF32), the tolerance fp32 accumulation's error bound plus the output
// rounding; transposed, strided and offset views, broadcast batches, odd
// and empty sizes, mixed dtypes, every error path and results independent
// of the worker count.
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mv.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"
#include "matmul_test_support.hpp"

namespace {

using namespace optest;

using MatmulEntry = aclnnStatus (*)(const aclTensor*, const aclTensor*, aclTensor*, int8_t, uint64_t*,
                                    aclOpExecutor**);

class Matmuls : public AclTest {
protected:
    /// Runs entry on a and b with values from seeds, compares out (of
    /// outShape, outDtype) with the emulated product.  aMatrix / bMatrix
    /// are the operands as [batch..., rows, cols] (a vector unsqueezed).
    void expect_product(MatmulEntry entry, aclnnStatus (*phase2)(void*, uint64_t, aclOpExecutor*, aclrtStream),
                        const MatrixOperand& a, const MatrixOperand& b, const Shape& outShape, aclDataType outDtype,
                        int8_t cubeMathType, const Emulation& emulation, const Shape& aMatrix = {},
                        const Shape& bMatrix = {}, double low = -2, double high = 2) {
        SCOPED_TRACE("cubeMathType " + std::to_string(cubeMathType) + " dtypes " + std::to_string(a.dtype) + "," +
                     std::to_string(b.dtype) + "->" + std::to_string(outDtype));
        DeviceTensor x(TensorSpec(a.shape, a.dtype, a.strides, a.offset, a.storage));
        DeviceTensor y(TensorSpec(b.shape, b.dtype, b.strides, b.offset, b.storage));
        x.write(uniform(static_cast<size_t>(numel(a.shape)), low, high, 11));
        y.write(uniform(static_cast<size_t>(numel(b.shape)), low, high, 12));
        auto out = DeviceTensor::output(TensorSpec(outShape, outDtype));
        ASSERT_EQ(run_aclnn(stream_, entry, phase2, x.get(), y.get(), out->get(), cubeMathType), ACLNN_SUCCESS);
        const Shape am = aMatrix.empty() ? a.shape : aMatrix;
        const Shape bm = bMatrix.empty() ? b.shape : bMatrix;
        const int64_t m = am[am.size() - 2];
        const int64_t k = am.back();
        const int64_t n = bm.back();
        const Shape batch = batch_shape_of(am, bm);
        const std::vector<double> xs = x.read();
        const std::vector<double> ys = y.read();
        const std::vector<double> actual = out->read();
        ASSERT_EQ(static_cast<int64_t>(actual.size()), numel(batch) * m * n);
        for (int64_t bt = 0; bt < numel(batch); ++bt) {
            for (int64_t i = 0; i < m; ++i) {
                for (int64_t j = 0; j < n; ++j) {
                    const auto [sum, magnitude] = emulated_dot(emulation, xs, am, ys, bm, batch, bt, i, j);
                    const double tol = 2.0 * static_cast<double>(k) * std::ldexp(magnitude, -24) +
                                       (relative_ulp(emulation.result) + relative_ulp(outDtype)) * std::fabs(sum);
                    const double got = actual[static_cast<size_t>((bt * m + i) * n + j)];
                    ASSERT_LE(std::fabs(got - sum), tol) << "at batch " << bt << " (" << i << "," << j << ")";
                }
            }
        }
    }

    void mm(const MatrixOperand& a, const MatrixOperand& b, aclDataType outDtype, int8_t cmt, const Emulation& e) {
        expect_product(aclnnMmGetWorkspaceSize, aclnnMm, a, b, {a.shape[0], b.shape[1]}, outDtype, cmt, e);
    }
};

// Odd sizes, the sizes of several tiles, K beyond one chunk.
TEST_F(Matmuls, MmFloatOddSizes) {
    for (const int64_t size : {1, 7, 257}) {
        mm({{size, size + 2}}, {{size + 2, size + 1}}, ACL_FLOAT, 0, {});
    }
    mm({{530, 1100}}, {{1100, 1030}}, ACL_FLOAT, 0, {});
}

// ggml's weight views: mat2 a [K, N] transpose of an [N, K] storage; self
// transposed with an offset; a strided row step; a negative-free general
// stride (rows 3 apart).
TEST_F(Matmuls, MmTransposedStridedAndOffsetViews) {
    mm({{9, 5}}, {{5, 13}, ACL_FLOAT, {1, 5}}, ACL_FLOAT, 0, {});
    mm({{9, 5}, ACL_FLOAT, {1, 9}, 4, {60}}, {{5, 13}, ACL_FLOAT16, {1, 5}}, ACL_FLOAT, 0, {});
    mm({{6, 4}, ACL_FLOAT16, {12, 3}, 1, {80}}, {{4, 7}, ACL_FLOAT16, {7, 1}}, ACL_FLOAT16, 0,
       {[](double v) { return v; }, ACL_FLOAT16});
    mm({{600, 70}, ACL_BF16, {1, 600}}, {{70, 530}, ACL_BF16, {1, 70}}, ACL_BF16, 0,
       {[](double v) { return v; }, ACL_BF16});
}

// Dav2201MatMulRule: FP16 and BF16 pairs compute in themselves (the sum
// rounded to them unless out is FLOAT); mixed pairs in FLOAT.
TEST_F(Matmuls, MmDtypePairs) {
    const Emulation none;
    for (const int8_t cmt : {0, 1, 3, 4, -1}) {
        mm({{17, 33}, ACL_FLOAT16}, {{33, 9}, ACL_FLOAT16}, ACL_FLOAT16, cmt, {[](double v) { return v; },
                                                                             cmt == -1 ? ACL_FLOAT : ACL_FLOAT16});
        mm({{17, 33}, ACL_FLOAT16}, {{33, 9}, ACL_FLOAT16}, ACL_FLOAT, cmt, none);
        mm({{17, 33}, ACL_BF16}, {{33, 9}, ACL_BF16}, ACL_BF16, cmt, {[](double v) { return v; },
                                                                     cmt == -1 ? ACL_FLOAT : ACL_BF16});
    }
    mm({{17, 33}, ACL_FLOAT}, {{33, 9}, ACL_FLOAT16}, ACL_FLOAT, 0, none);
    mm({{17, 33}, ACL_FLOAT16}, {{33, 9}, ACL_BF16}, ACL_FLOAT16, 0, none);
    mm({{17, 33}, ACL_BF16}, {{33, 9}, ACL_FLOAT}, ACL_BF16, 0, none);
    mm({{17, 33}, ACL_FLOAT}, {{33, 9}, ACL_FLOAT}, ACL_FLOAT16, 0, none);
}

// USE_FP16 rounds FLOAT (and BF16 beside FLOAT) inputs to FLOAT16 and the
// sum to FLOAT16 (UpdateOutputDtype keeps FP16 under USE_FP16); HF32 for
// fp32 inputs under ALLOW_FP32_DOWN_PRECISION and USE_HF32.
TEST_F(Matmuls, MmCubeMathTypes) {
    mm({{20, 300}}, {{300, 11}}, ACL_FLOAT, 2, fp16_inputs(ACL_FLOAT16));
    mm({{20, 300}, ACL_BF16}, {{300, 11}}, ACL_FLOAT, 2, fp16_inputs(ACL_FLOAT16));
    mm({{20, 300}}, {{300, 11}}, ACL_FLOAT, 1, hf32_inputs());
    mm({{20, 300}}, {{300, 11}, ACL_FLOAT16}, ACL_FLOAT, 3, hf32_inputs());
}

// Values that tell the precisions apart: 1 + 2^-11 + 2^-13 is exact in fp32,
// 1 + 2^-11 in HF32, 1 + 2^-10 in fp16; four of them summed.
TEST_F(Matmuls, MmPrecisionOfEachCubeMathTypeExactly) {
    const double v = 1 + std::ldexp(1, -11) + std::ldexp(1, -13);
    const std::vector<std::pair<int8_t, double>> cases = {
        {0, 4 * v}, {4, 4 * v}, {1, 4 + std::ldexp(1, -9)}, {3, 4 + std::ldexp(1, -9)}, {2, 4 + std::ldexp(1, -8)}};
    for (const auto& [cmt, expected] : cases) {
        DeviceTensor a(TensorSpec({1, 4}, ACL_FLOAT), std::vector<double>(4, v));
        DeviceTensor b(TensorSpec({4, 1}, ACL_FLOAT), std::vector<double>(4, 1));
        auto out = DeviceTensor::output(TensorSpec({1, 1}, ACL_FLOAT));
        ASSERT_EQ(run_aclnn(stream_, aclnnMmGetWorkspaceSize, aclnnMm, a.get(), b.get(), out->get(), cmt),
                  ACLNN_SUCCESS);
        EXPECT_EQ(out->read()[0], expected) << "cubeMathType " << int(cmt);
    }
}

// BatchMatMul: equal batches, a batch of 1 broadcast on either side,
// transposed mat2.
TEST_F(Matmuls, BatchMatMulBroadcastAndTransposes) {
    const auto bmm = [&](const MatrixOperand& a, const MatrixOperand& b, aclDataType outDtype, int8_t cmt, const Emulation& e) {
        const Shape out = {std::max(a.shape[0], b.shape[0]), a.shape[1], b.shape[2]};
        expect_product(aclnnBatchMatMulGetWorkspaceSize, aclnnBatchMatMul, a, b, out, outDtype, cmt, e);
    };
    bmm({{3, 7, 5}}, {{3, 5, 9}}, ACL_FLOAT, 0, {});
    bmm({{1, 7, 5}}, {{4, 5, 9}, ACL_FLOAT, {45, 1, 5}}, ACL_FLOAT, 0, {});
    bmm({{4, 7, 5}, ACL_FLOAT16}, {{1, 5, 9}, ACL_FLOAT16}, ACL_FLOAT, 0, {});
    bmm({{2, 7, 5}}, {{2, 5, 9}}, ACL_FLOAT, 4, {});  // USE_FP32_ADD routed to KEEP_DTYPE
    bmm({{2, 7, 300}}, {{2, 300, 9}}, ACL_FLOAT, 2, fp16_inputs(ACL_FLOAT16));
}

// Matmul: torch.matmul's ranks -- vectors as a row or a column, dropped
// from out; N-D batch dims broadcast (zero-stride broadcast views too).
TEST_F(Matmuls, MatmulRanks) {
    const auto run = [&](const MatrixOperand& a, const MatrixOperand& b, const Shape& out, const Shape& am, const Shape& bm) {
        expect_product(aclnnMatmulGetWorkspaceSize, aclnnMatmul, a, b, out, ACL_FLOAT, 0, {}, am, bm);
    };
    run({{5}}, {{5}}, {}, {1, 5}, {5, 1});
    run({{3, 5}}, {{5}}, {3}, {3, 5}, {5, 1});
    run({{5}}, {{5, 4}}, {4}, {1, 5}, {5, 4});
    run({{5}}, {{2, 5, 4}}, {2, 4}, {1, 5}, {2, 5, 4});
    run({{2, 3, 5}}, {{5}}, {2, 3}, {2, 3, 5}, {5, 1});
    run({{2, 3, 5}}, {{5, 4}}, {2, 3, 4}, {2, 3, 5}, {5, 4});
    run({{2, 1, 3, 5}}, {{4, 5, 6}}, {2, 4, 3, 6}, {2, 1, 3, 5}, {4, 5, 6});
    // ggml's broadcast: mat2's batch a zero-stride view of one matrix.
    run({{3, 2, 7}}, {{3, 7, 5}, ACL_FLOAT, {0, 5, 1}}, {3, 2, 5}, {3, 2, 7}, {3, 7, 5});
}

// Mv: self [n, m] (a transposed view too) times vec [m] (strided).
TEST_F(Matmuls, MvAndItsErrors) {
    const auto mv = [&](const MatrixOperand& a, const MatrixOperand& v, aclDataType outDtype, int8_t cmt, const Emulation& e) {
        expect_product(aclnnMvGetWorkspaceSize, aclnnMv, a, v, {a.shape[0]}, outDtype, cmt, e, a.shape,
                       {v.shape[0], 1});
    };
    mv({{7, 300}}, {{300}}, ACL_FLOAT, 0, {});
    mv({{257, 9}, ACL_FLOAT16, {1, 257}}, {{9}, ACL_FLOAT16, {3}, 0, {27}}, ACL_FLOAT16, 4,
       {[](double v) { return v; }, ACL_FLOAT16});
    mv({{5, 40}}, {{40}}, ACL_FLOAT, 2, fp16_inputs(ACL_FLOAT16));
    DeviceTensor a(TensorSpec({3, 4}, ACL_FLOAT), std::vector<double>(12, 1));
    DeviceTensor v(TensorSpec({4}, ACL_FLOAT), std::vector<double>(4, 1));
    auto out = DeviceTensor::output(TensorSpec({3}, ACL_FLOAT));
    expect_each_null_is_161001(aclnnMvGetWorkspaceSize, a.get(), v.get(), out->get(), int8_t{0});
    const auto phase1 = [](const DeviceTensor& x, const DeviceTensor& y, const DeviceTensor& o) {
        return phase1_of(aclnnMvGetWorkspaceSize, x.get(), y.get(), o.get(), int8_t{0});
    };
    auto outHalf = DeviceTensor::output(TensorSpec({3}, ACL_FLOAT16));
    expect_error_naming(phase1(a, v, *outHalf), ACLNN_ERR_PARAM_INVALID, "out");
    DeviceTensor vHalf(TensorSpec({4}, ACL_FLOAT16), std::vector<double>(4, 1));
    expect_error_naming(phase1(a, vHalf, *outHalf), ACLNN_ERR_PARAM_INVALID, "self");
    DeviceTensor v5(TensorSpec({5}, ACL_FLOAT), std::vector<double>(5, 1));
    expect_error_naming(phase1(a, v5, *out), ACLNN_ERR_PARAM_INVALID, "vec");
    expect_error_naming(phase1(a, a, *out), ACLNN_ERR_PARAM_INVALID, "Expected 1 dimension input, but got vec");
    auto out4 = DeviceTensor::output(TensorSpec({4}, ACL_FLOAT));
    expect_error_naming(phase1(a, v, *out4), ACLNN_ERR_PARAM_INVALID, "out");
    // self empty: out of zeros (ZerosLike), self's dtype unchecked.
    DeviceTensor none(TensorSpec({3, 0}, ACL_FLOAT16));
    DeviceTensor v0(TensorSpec({0}, ACL_FLOAT));
    ASSERT_EQ(run_aclnn(stream_, aclnnMvGetWorkspaceSize, aclnnMv, none.get(), v0.get(), out->get(), int8_t{0}),
              ACLNN_SUCCESS);
    EXPECT_EQ(out->read(), std::vector<double>(3, 0.0));
}

// K == 0 writes zeros (HandleEmptyTensor); M or N == 0 writes nothing.
TEST_F(Matmuls, EmptyDims) {
    DeviceTensor a(TensorSpec({3, 0}, ACL_FLOAT));
    DeviceTensor b(TensorSpec({0, 4}, ACL_FLOAT));
    auto out = DeviceTensor::output(TensorSpec({3, 4}, ACL_FLOAT16));
    ASSERT_EQ(run_aclnn(stream_, aclnnMmGetWorkspaceSize, aclnnMm, a.get(), b.get(), out->get(), int8_t{0}),
              ACLNN_SUCCESS);
    EXPECT_EQ(out->read(), std::vector<double>(12, 0.0));
    DeviceTensor none(TensorSpec({0, 5}, ACL_FLOAT));
    DeviceTensor five(TensorSpec({5, 4}, ACL_FLOAT), std::vector<double>(20, 1));
    auto empty = DeviceTensor::output(TensorSpec({0, 4}, ACL_FLOAT));
    EXPECT_EQ(run_aclnn(stream_, aclnnMmGetWorkspaceSize, aclnnMm, none.get(), five.get(), empty->get(), int8_t{0}),
              ACLNN_SUCCESS);
    DeviceTensor batchA(TensorSpec({2, 3, 0}, ACL_FLOAT));
    DeviceTensor batchB(TensorSpec({2, 0, 4}, ACL_FLOAT));
    auto batchOut = DeviceTensor::output(TensorSpec({2, 3, 4}, ACL_FLOAT));
    ASSERT_EQ(run_aclnn(stream_, aclnnBatchMatMulGetWorkspaceSize, aclnnBatchMatMul, batchA.get(), batchB.get(),
                        batchOut->get(), int8_t{0}),
              ACLNN_SUCCESS);
    EXPECT_EQ(batchOut->read(), std::vector<double>(24, 0.0));
    // A batch of 0 beside one of 1 passes CheckShape with out's batch 1:
    // nothing is written.
    DeviceTensor noBatch(TensorSpec({0, 3, 4}, ACL_FLOAT));
    DeviceTensor oneBatch(TensorSpec({1, 4, 2}, ACL_FLOAT), std::vector<double>(8, 1));
    auto untouched = DeviceTensor::output(TensorSpec({1, 3, 2}, ACL_FLOAT));
    ASSERT_EQ(run_aclnn(stream_, aclnnBatchMatMulGetWorkspaceSize, aclnnBatchMatMul, noBatch.get(), oneBatch.get(),
                        untouched->get(), int8_t{0}),
              ACLNN_SUCCESS);
    EXPECT_EQ(untouched->read(), std::vector<double>(6, -7.0));
    DeviceTensor vector(TensorSpec({0}, ACL_FLOAT));
    auto scalar = DeviceTensor::output(TensorSpec({}, ACL_FLOAT));
    ASSERT_EQ(run_aclnn(stream_, aclnnMatmulGetWorkspaceSize, aclnnMatmul, vector.get(), vector.get(), scalar->get(),
                        int8_t{0}),
              ACLNN_SUCCESS);
    EXPECT_EQ(scalar->read(), std::vector<double>{0.0});
}

TEST_F(Matmuls, MmErrorPaths) {
    DeviceTensor a(TensorSpec({3, 4}, ACL_FLOAT), std::vector<double>(12, 1));
    DeviceTensor b(TensorSpec({4, 5}, ACL_FLOAT), std::vector<double>(20, 1));
    auto out = DeviceTensor::output(TensorSpec({3, 5}, ACL_FLOAT));
    // CheckNotNull: out, self, mat2 -> 161001; then the out-parameters.
    expect_each_null_is_161001_naming(aclnnMmGetWorkspaceSize, {}, a.get(), b.get(), out->get(), int8_t{0});
    const auto phase1 = [](const DeviceTensor& x, const DeviceTensor& y, const DeviceTensor& o, int8_t cmt = 0) {
        return phase1_of(aclnnMmGetWorkspaceSize, x.get(), y.get(), o.get(), cmt);
    };
    DeviceTensor doubles(TensorSpec({3, 4}, ACL_DOUBLE), std::vector<double>(12, 1));
    DeviceTensor ints(TensorSpec({4, 5}, ACL_INT32), std::vector<double>(20, 1));
    auto outInt = DeviceTensor::output(TensorSpec({3, 5}, ACL_INT8));
    expect_error_naming(phase1(doubles, b, *out), ACLNN_ERR_PARAM_INVALID, "Tensor matA not implemented for DT_DOUBLE");
    expect_error_naming(phase1(a, ints, *out), ACLNN_ERR_PARAM_INVALID, "matB");
    expect_error_naming(phase1(a, b, *outInt), ACLNN_ERR_PARAM_INVALID, "out");
    for (const int8_t cmt : {5, -2, 127}) {
        expect_error_naming(phase1(a, b, *out, cmt), ACLNN_ERR_PARAM_INVALID,
                            "The value of cubeMathType only support {0: KEEP_DTYPE, 1: ALLOW_FP32_DOWN_PRECISION, 2: "
                            "USE_FP16, 3: USE_HF32, 4: USE_FP32_ADD}, but got " + std::to_string(cmt));
    }
    DeviceTensor batch(TensorSpec({1, 3, 4}, ACL_FLOAT), std::vector<double>(12, 1));
    expect_error_naming(phase1(a, batch, *out), ACLNN_ERR_PARAM_INVALID,
                        "Expected 2 dimension input, but got mat2 with sizes [1,3,4].");
    expect_error_naming(phase1(batch, b, *out), ACLNN_ERR_PARAM_INVALID, "but got self with sizes");
    DeviceTensor wrongK(TensorSpec({5, 5}, ACL_FLOAT), std::vector<double>(25, 1));
    expect_error_naming(phase1(a, wrongK, *out), ACLNN_ERR_PARAM_INVALID,
                        "The k-axis of the two inputs are different, self Kdim[4], mat2 Kdim[5].");
    auto outBatch = DeviceTensor::output(TensorSpec({1, 3, 5}, ACL_FLOAT));
    expect_error_naming(phase1(a, b, *outBatch), ACLNN_ERR_PARAM_INVALID, "but got out with sizes");
    auto outWide = DeviceTensor::output(TensorSpec({3, 6}, ACL_FLOAT));
    expect_error_naming(phase1(a, b, *outWide), ACLNN_ERR_PARAM_INVALID,
                        "output's shape is not match input, out_m[3] must be same with self_m[3], out_n[6] must be "
                        "same with mat2_n[5].");
    // An NZ mat2 whose storage is not the NZ image of [4, 5]
    // (CheckWeightNzStorageShape: the element counts differ).
    TensorSpec nzSpec({4, 5}, ACL_FLOAT);
    nzSpec.format = ACL_FORMAT_FRACTAL_NZ;
    DeviceTensor nz(nzSpec, std::vector<double>(20, 1));
    expect_error_naming(phase1(a, nz, *out), ACLNN_ERR_PARAM_INVALID,
                        "mat2's format only supports NZ, but now mat2's format is not NZ");
}

TEST_F(Matmuls, BatchMatMulAndMatmulErrorPaths) {
    DeviceTensor a(TensorSpec({2, 3, 4}, ACL_FLOAT), std::vector<double>(24, 1));
    DeviceTensor b(TensorSpec({2, 4, 5}, ACL_FLOAT), std::vector<double>(40, 1));
    auto out = DeviceTensor::output(TensorSpec({2, 3, 5}, ACL_FLOAT));
    expect_each_null_is_161001(aclnnBatchMatMulGetWorkspaceSize, a.get(), b.get(), out->get(), int8_t{0});
    expect_each_null_is_161001(aclnnMatmulGetWorkspaceSize, a.get(), b.get(), out->get(), int8_t{0});
    const auto bmm = [](const DeviceTensor& x, const DeviceTensor& y, const DeviceTensor& o) {
        return phase1_of(aclnnBatchMatMulGetWorkspaceSize, x.get(), y.get(), o.get(), int8_t{0});
    };
    DeviceTensor matrix(TensorSpec({4, 5}, ACL_FLOAT), std::vector<double>(20, 1));
    expect_error_naming(bmm(a, matrix, *out), ACLNN_ERR_PARAM_INVALID, "otherTensor with sizes [4,5]");
    DeviceTensor wrongK(TensorSpec({2, 5, 5}, ACL_FLOAT), std::vector<double>(50, 1));
    expect_error_naming(bmm(a, wrongK, *out), ACLNN_ERR_PARAM_INVALID,
                        "self's last dim and mat2's penultimate dim shoule be same, self [4], mat2 [5].");
    DeviceTensor three(TensorSpec({3, 4, 5}, ACL_FLOAT), std::vector<double>(60, 1));
    expect_error_naming(bmm(a, three, *out), ACLNN_ERR_PARAM_INVALID, "Now self [2], mat2 [3].");
    auto outWrong = DeviceTensor::output(TensorSpec({2, 3, 6}, ACL_FLOAT));
    expect_error_naming(bmm(a, b, *outWrong), ACLNN_ERR_PARAM_INVALID, "out_n[6] must be same with other_n[5]");
    const auto mat = [](const DeviceTensor& x, const DeviceTensor& y, const DeviceTensor& o) {
        return phase1_of(aclnnMatmulGetWorkspaceSize, x.get(), y.get(), o.get(), int8_t{0});
    };
    DeviceTensor scalar(TensorSpec({}, ACL_FLOAT), {1});
    expect_error_naming(mat(scalar, b, *out), ACLNN_ERR_PARAM_INVALID, "Matmul not support [], [2,4,5]");
    expect_error_naming(mat(a, wrongK, *out), ACLNN_ERR_PARAM_INVALID, "The k-axis of the two inputs are different");
    expect_error_naming(mat(a, three, *out), ACLNN_ERR_PARAM_INVALID, "Broadcast [2,3,4] and [3,4,5] failed.");
    DeviceTensor seven(TensorSpec({1, 1, 1, 1, 1, 3, 4}, ACL_FLOAT), std::vector<double>(12, 1));
    expect_error_naming(mat(seven, b, *out), ACLNN_ERR_PARAM_INVALID, "The self tensor cannot be larger than 6");
    expect_error_naming(mat(a, b, *outWrong), ACLNN_ERR_PARAM_INVALID, "out");
}

// Many tiles over several blocks: every worker count gives the same bits.
TEST_F(Matmuls, BitwiseIdenticalForAnyWorkerCount) {
    std::vector<std::vector<double>> results;
    for (const int threads : {1, 2, 8}) {
        restart_with_worker_threads(threads);
        for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16}) {
            DeviceTensor a(TensorSpec({2, 600, 700}, dtype));
            DeviceTensor b(TensorSpec({2, 700, 1100}, dtype, {770000, 1, 700}));
            a.fill_pattern(-1, 1);
            b.write(uniform(2 * 700 * 1100, -1, 1, 5));
            auto out = DeviceTensor::output(TensorSpec({2, 600, 1100}, ACL_FLOAT));
            ASSERT_EQ(run_aclnn(stream_, aclnnBatchMatMulGetWorkspaceSize, aclnnBatchMatMul, a.get(), b.get(),
                                out->get(), int8_t{0}),
                      ACLNN_SUCCESS);
            results.push_back(out->read());
        }
    }
    for (size_t r = 2; r < results.size(); ++r) EXPECT_EQ(results[r], results[r % 2]) << "run " << r;
}

}  // namespace

// Decode-shaped products (a few rows of self against a weight's dense
// columns, as ggml passes its [K, N] views of [N, K] weights, or its dense
// rows) take the
// engine's gemv path: FLOAT16 and BF16 weights read as they are, FLOAT and
// BF16 weights rounded in registers under USE_FP16, across several column tiles
// and K chunks; a transposed self is staged in dense rows; HF32 keeps the
// GEMM path. The references are the same Cube emulations.
TEST_F(Matmuls, MmDecodeShapedProductsOnDenseWeightColumns) {
    for (const int64_t m : {1, 3}) {
        for (const int64_t k : {33, 600}) {
            const Shape weight = {k, 600};
            const Shape columns = {1, k};
            mm({{m, k}}, {weight, ACL_FLOAT16, columns}, ACL_FLOAT, 2, fp16_inputs(ACL_FLOAT16));
            mm({{m, k}}, {weight, ACL_FLOAT16, columns}, ACL_FLOAT, 0, {});
            mm({{m, k}, ACL_BF16}, {weight, ACL_BF16, columns}, ACL_BF16, 0, {[](double v) { return v; }, ACL_BF16});
            mm({{m, k}}, {weight, ACL_FLOAT, columns}, ACL_FLOAT, 2, fp16_inputs(ACL_FLOAT16));
            mm({{m, k}}, {weight, ACL_FLOAT, columns}, ACL_FLOAT, 0, {});
            mm({{m, k}, ACL_FLOAT, {1, m}}, {weight, ACL_FLOAT16, columns}, ACL_FLOAT, 0, {});
            mm({{m, k}}, {weight, ACL_BF16, columns}, ACL_FLOAT, 2, fp16_inputs(ACL_FLOAT16));
            mm({{m, k}}, {weight, ACL_FLOAT16}, ACL_FLOAT, 2, fp16_inputs(ACL_FLOAT16));  // dense rows
            mm({{m, k}}, {weight}, ACL_FLOAT, 0, {});
            mm({{m, k}}, {weight, ACL_FLOAT, columns}, ACL_FLOAT, 1, hf32_inputs());
        }
    }
}
