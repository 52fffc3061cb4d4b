// aclnnEmbeddingDenseBackward against a double reference of its definition
// (out[w] = the sum of grad's rows whose index is w, none for paddingIdx,
// divided by their count when scaleGradByFreq), with the checks, codes and
// words of ops-nn index/embedding_dense_grad_v2/op_api/
// aclnn_embedding_dense_backward.cpp: every grad and out dtype, indices of
// every listed dtype (cast to INT32 as the op_api does: floats truncate),
// repeated and out-of-range indices, grad of any rank and strided, rows longer
// than the kernel's chunk, empty inputs (out all zeros), worker counts.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "aclnnop/aclnn_embedding_dense_backward.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

constexpr uint64_t kNoPadding = ~uint64_t{0};  // PyTorch's padding_idx -1

struct Case {
    TensorSpec grad;
    TensorSpec indices;
    std::vector<double> indexValues;
    uint64_t numWeights;
    uint64_t paddingIdx = kNoPadding;
    bool scale = false;
    aclDataType outDtype = ACL_FLOAT;
};

/// The definition in double; an index names row trunc(value) when that is in
/// [0, numWeights).
std::vector<double> reference(const Case& c, const std::vector<double>& grad) {
    const Shape& shape = c.grad.shape;
    const int64_t dim = shape.back();
    const int64_t rows = dim == 0 ? 0 : numel(shape) / dim;
    std::vector<double> sums(c.numWeights * dim, 0.0), counts(c.numWeights, 0.0);
    for (int64_t r = 0; r < rows; ++r) {
        const double w = std::trunc(c.indexValues[r]);
        if (w < 0 || w >= static_cast<double>(c.numWeights) || static_cast<uint64_t>(w) == c.paddingIdx) continue;
        const auto row = static_cast<size_t>(w);
        counts[row] += 1;
        for (int64_t k = 0; k < dim; ++k) sums[row * dim + k] += grad[r * dim + k];
    }
    for (size_t w = 0; w < counts.size(); ++w) {
        for (int64_t k = 0; k < dim; ++k) {
            double& v = sums[w * dim + k];
            if (c.scale && counts[w] > 0) v /= counts[w];
            v = representable(v, c.outDtype);
        }
    }
    return sums;
}

class EmbeddingDenseBackward : public AclTest {
protected:
    /// Runs the case; returns out's values.
    std::vector<double> run(const Case& c, const std::vector<double>& grad) {
        DeviceTensor gradTensor(c.grad, grad);
        DeviceTensor indices(c.indices, c.indexValues);
        const auto dim = static_cast<int64_t>(c.grad.shape.back());
        auto out = DeviceTensor::output(TensorSpec({static_cast<int64_t>(c.numWeights), dim}, c.outDtype));
        EXPECT_EQ(run_two_phases([&](uint64_t* s, aclOpExecutor** e) {
                      return aclnnEmbeddingDenseBackwardGetWorkspaceSize(gradTensor.get(), indices.get(), c.numWeights,
                                                                         c.paddingIdx, c.scale, out->get(), s, e);
                  }, aclnnEmbeddingDenseBackward, stream_, nullptr),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        return out->read();
    }

    void check(const Case& c) {
        SCOPED_TRACE(name(c.grad.dtype) + " -> " + name(c.outDtype) + ", indices " + name(c.indices.dtype));
        const std::vector<double> grad = representable(uniform(numel(c.grad.shape), -2, 2, 5), c.grad.dtype);
        Tolerance tol = tolerance_for(c.outDtype);
        tol.atol = std::max(tol.atol, 1e-5);  // fp32 sums of a few terms
        expect_close(run(c, grad), reference(c, grad), tol);
    }
};

TEST_F(EmbeddingDenseBackward, SumsTheRowsOfEachIndexInEveryDtype) {
    const std::vector<double> indices = {3, 0, 3, 5, 1, 3, 0, 2};
    for (aclDataType gradDtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        for (aclDataType outDtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
            check({{{8, 5}, gradDtype}, {{8}, ACL_INT64}, indices, 7, kNoPadding, false, outDtype});
        }
    }
}

TEST_F(EmbeddingDenseBackward, PaddingIdxAndScaleGradByFreq) {
    const std::vector<double> indices = {3, 0, 3, 5, 1, 3, 0, 2, 3, 5};
    for (bool scale : {false, true}) {
        SCOPED_TRACE(scale ? "scaled" : "summed");
        check({{{10, 6}, ACL_FLOAT}, {{10}, ACL_INT32}, indices, 6, kNoPadding, scale});
        check({{{10, 6}, ACL_FLOAT}, {{10}, ACL_INT32}, indices, 6, 3, scale});
        check({{{10, 6}, ACL_FLOAT}, {{10}, ACL_INT32}, indices, 6, 0, scale});
    }
}

// The op_api casts indices to INT32: floats truncate toward zero, BOOL is 0
// or 1; values outside [0, numWeights) land nowhere (the device would write
// outside out).
TEST_F(EmbeddingDenseBackward, IndicesOfEveryListedDtype) {
    const std::vector<double> small = {1, 0, 2, 1, 1, 0};
    for (aclDataType dtype : {ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_FLOAT,
                              ACL_DOUBLE}) {
        check({{{6, 4}, ACL_FLOAT}, {{6}, dtype}, small, 3});
    }
    check({{{6, 4}, ACL_FLOAT}, {{6}, ACL_BOOL}, {1, 0, 1, 1, 0, 0}, 3});
    check({{{6, 4}, ACL_FLOAT}, {{6}, ACL_FLOAT}, {1.7, -0.5, 2.9, 0.2, -3, 7}, 3});
    check({{{6, 4}, ACL_FLOAT}, {{6}, ACL_INT64}, {-1, 3, 100, 2, -100, 0}, 3});
}

// grad [2, 3, D] with indices [2, 3]; a transposed grad; rows of 1030
// elements (past the kernel's 1024-element chunk); more weights than blocks.
TEST_F(EmbeddingDenseBackward, AnyRankStridedAndLongRows) {
    check({{{2, 3, 4}, ACL_FLOAT}, {{2, 3}, ACL_INT32}, {4, 1, 4, 0, 2, 4}, 5});
    check({{{6, 5}, ACL_FLOAT, {1, 6}, 0, {30}}, {{6}, ACL_INT32}, {4, 1, 4, 0, 2, 4}, 5});
    check({{{6, 8}, ACL_FLOAT}, {{6}, ACL_INT64, {2}, 1, {13}}, {4, 1, 4, 0, 2, 4}, 5});
    check({{{5, 1030}, ACL_BF16}, {{5}, ACL_INT64}, {1, 0, 1, 1, 2}, 3, kNoPadding, true, ACL_FLOAT});
    std::vector<double> many(64);
    for (size_t i = 0; i < many.size(); ++i) many[i] = static_cast<double>((i * 37) % 100);
    check({{{64, 3}, ACL_FLOAT}, {{64}, ACL_INT64}, many, 100});
}

// The op_api's ZerosLike for an empty grad or indices; an empty out needs no work.
TEST_F(EmbeddingDenseBackward, EmptyInputsGiveZeros) {
    EXPECT_EQ(run({{{0, 4}, ACL_FLOAT}, {{0}, ACL_INT64}, {}, 3}, {}), std::vector<double>(12, 0.0));
    // grad's last dim 0: CheckDimension passes whatever indices hold.
    EXPECT_TRUE(run({{{2, 0}, ACL_FLOAT}, {{5}, ACL_INT64}, {0, 1, 2, 0, 1}, 3}, {}).empty());
    EXPECT_TRUE(run({{{2, 4}, ACL_FLOAT}, {{2}, ACL_INT64}, {0, 1}, 0}, std::vector<double>(8, 1)).empty());
}

// Blocks own rows of out and walk every index in order: each sum adds its
// rows in position order, whatever the worker count.
TEST_F(EmbeddingDenseBackward, SameBitsForAnyWorkerCount) {
    std::vector<double> indices(3000);
    for (size_t i = 0; i < indices.size(); ++i) indices[i] = static_cast<double>((i * 7919) % 50);
    const std::vector<double> grad = representable(uniform(3000 * 16, -1, 1, 3), ACL_FLOAT);
    expect_same_for_any_worker_count([&] {
        return std::vector<std::vector<double>>{
            run({{{3000, 16}, ACL_FLOAT}, {{3000}, ACL_INT32}, indices, 50, 7, true, ACL_FLOAT16}, grad)};
    });
}

TEST_F(EmbeddingDenseBackward, ErrorCodesAndWords) {
    const DeviceTensor grad({{4, 3}, ACL_FLOAT}), indices({{4}, ACL_INT64}, {0, 1, 2, 0});
    auto out = DeviceTensor::output({{5, 3}, ACL_FLOAT});
    expect_each_null_is_161001_naming(aclnnEmbeddingDenseBackwardGetWorkspaceSize, {"grad", "indices", "out"},
                                      grad.get(), indices.get(), uint64_t{5}, kNoPadding, false, out->get());
    const auto phase1 = [&](const aclTensor* g, const aclTensor* i, uint64_t numWeights, const aclTensor* o) {
        return phase1_of(aclnnEmbeddingDenseBackwardGetWorkspaceSize, g, i, numWeights, kNoPadding, false, o);
    };
    const DeviceTensor gradD({{4, 3}, ACL_DOUBLE}), indicesC({{4}, ACL_COMPLEX64}), outI({{5, 3}, ACL_INT32});
    expect_error_naming(phase1(gradD.get(), indices.get(), 5, out->get()), ACLNN_ERR_PARAM_INVALID, "DT_DOUBLE");
    expect_error_naming(phase1(grad.get(), indicesC.get(), 5, out->get()), ACLNN_ERR_PARAM_INVALID, "indices");
    expect_error_naming(phase1(grad.get(), indices.get(), 5, outI.get()), ACLNN_ERR_PARAM_INVALID, "out");
    const DeviceTensor deep({Shape(9, 1), ACL_FLOAT}), fewer({{3}, ACL_INT64}, {0, 1, 2}), scalar({{}, ACL_FLOAT});
    expect_error_naming(phase1(deep.get(), indices.get(), 5, out->get()), ACLNN_ERR_PARAM_INVALID, "grad");
    expect_error_naming(phase1(grad.get(), fewer.get(), 5, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "is not match with indices shape");
    expect_error_naming(phase1(scalar.get(), indices.get(), 5, out->get()), ACLNN_ERR_PARAM_INVALID, "grad");
    const DeviceTensor flat({{15}, ACL_FLOAT}), narrow({{5, 2}, ACL_FLOAT});
    expect_error_naming(phase1(grad.get(), indices.get(), 5, flat.get()), ACLNN_ERR_PARAM_INVALID,
                        "outDim shape is not equal to 2");
    expect_error_naming(phase1(grad.get(), indices.get(), 6, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "is not match with infershape");
    expect_error_naming(phase1(grad.get(), indices.get(), 5, narrow.get()), ACLNN_ERR_PARAM_INVALID,
                        "is not match with infershape");
    TensorSpec nzSpec({4, 3}, ACL_FLOAT);
    nzSpec.format = ACL_FORMAT_FRACTAL_NZ;
    const DeviceTensor nz(nzSpec);
    expect_error_naming(phase1(nz.get(), indices.get(), 5, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "Format only support ND.");
}

}  // namespace
