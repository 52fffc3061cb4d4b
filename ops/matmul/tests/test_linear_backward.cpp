// nn.Linear's forward and backward as a PyTorch port writes them in aclnn:
//   y  = Addmm(b, x, W^T)        (W stored [out, in], W^T a transposed view)
//   dx = Mm(dy, W)
//   dW = Mm(dy^T, x)             (dy^T a transposed view of dy)
//   db = ReduceSum(dy, dims {0})
// each against its double-precision definition, in FLOAT (KEEP_DTYPE) and in
// FLOAT16 (ALLOW_FP32_DOWN_PRECISION: fp32 accumulation, a product rounded
// once to fp16).
#include <cstdint>
#include <vector>

#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

constexpr int64_t kBatch = 6, kIn = 5, kOut = 4;

/// a [m, k] times b [k, n], row-major, in double.
std::vector<double> product(const std::vector<double>& a, const std::vector<double>& b, int64_t m, int64_t k,
                            int64_t n) {
    std::vector<double> c(static_cast<size_t>(m * n), 0.0);
    for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) {
            for (int64_t p = 0; p < k; ++p) c[i * n + j] += a[i * k + p] * b[p * n + j];
        }
    }
    return c;
}

std::vector<double> transposed(const std::vector<double>& a, int64_t rows, int64_t cols) {
    std::vector<double> t(a.size());
    for (int64_t i = 0; i < rows; ++i) {
        for (int64_t j = 0; j < cols; ++j) t[j * rows + i] = a[i * cols + j];
    }
    return t;
}

std::vector<double> rounded(std::vector<double> values, aclDataType dtype) {
    for (double& v : values) v = representable(v, dtype);
    return values;
}

/// The transposed view [cols, rows] of a row-major [rows, cols] matrix.
TensorSpec transposed_view(int64_t rows, int64_t cols, aclDataType dtype) {
    return TensorSpec({cols, rows}, dtype, {1, cols}, 0, {rows * cols});
}

class LinearBackward : public AclTest {
protected:
    void check(aclDataType dtype, int8_t cubeMathType) {
        SCOPED_TRACE(name(dtype));
        const std::vector<double> x = representable(uniform(kBatch * kIn, -1, 1, 1), dtype);
        const std::vector<double> w = representable(uniform(kOut * kIn, -1, 1, 2), dtype);
        const std::vector<double> b = representable(uniform(kOut, -1, 1, 3), dtype);
        const std::vector<double> dy = representable(uniform(kBatch * kOut, -1, 1, 4), dtype);
        const Tolerance tol = tolerance_for(dtype);

        const DeviceTensor xT({{kBatch, kIn}, dtype}, x), wT({{kOut, kIn}, dtype}, w), bT({{kOut}, dtype}, b);
        // W^T and dy^T: views with swapped strides over storages laid out as W and dy.
        const DeviceTensor wTransposed(transposed_view(kOut, kIn, dtype), transposed(w, kOut, kIn));
        const DeviceTensor dyT({{kBatch, kOut}, dtype}, dy);
        const DeviceTensor dyTransposed(transposed_view(kBatch, kOut, dtype), transposed(dy, kBatch, kOut));
        const Scalar one(1.0);

        auto y = DeviceTensor::output({{kBatch, kOut}, dtype});
        ASSERT_EQ(run_aclnn(stream_, aclnnAddmmGetWorkspaceSize, aclnnAddmm, bT.get(), xT.get(), wTransposed.get(),
                            one.get(), one.get(), y->get(), cubeMathType),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        // Addmm rounds the product to the Cube's result dtype before adding
        // beta * self (test_addmm.cpp's model): fp16 rounds twice.
        std::vector<double> expectedY = rounded(product(x, transposed(w, kOut, kIn), kBatch, kIn, kOut), dtype);
        for (int64_t i = 0; i < kBatch * kOut; ++i) expectedY[i] += b[i % kOut];
        expect_close(y->read(), rounded(expectedY, dtype), tol);

        auto dx = DeviceTensor::output({{kBatch, kIn}, dtype});
        ASSERT_EQ(run_aclnn(stream_, aclnnMmGetWorkspaceSize, aclnnMm, dyT.get(), wT.get(), dx->get(), cubeMathType),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        expect_close(dx->read(), rounded(product(dy, w, kBatch, kOut, kIn), dtype), tol);

        auto dw = DeviceTensor::output({{kOut, kIn}, dtype});
        ASSERT_EQ(run_aclnn(stream_, aclnnMmGetWorkspaceSize, aclnnMm, dyTransposed.get(), xT.get(), dw->get(),
                            cubeMathType),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        expect_close(dw->read(), rounded(product(transposed(dy, kBatch, kOut), x, kOut, kBatch, kIn), dtype), tol);

        auto db = DeviceTensor::output({{kOut}, dtype});
        const IntArray dims{0};
        ASSERT_EQ(run_aclnn(stream_, aclnnReduceSumGetWorkspaceSize, aclnnReduceSum, dyT.get(), dims.get(), false,
                            dtype, db->get()),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        std::vector<double> expectedDb(kOut, 0.0);
        for (int64_t i = 0; i < kBatch * kOut; ++i) expectedDb[i % kOut] += dy[i];
        expect_close(db->read(), rounded(expectedDb, dtype), tol);
    }
};

TEST_F(LinearBackward, ForwardAndEachGradientInFloat) { check(ACL_FLOAT, 0); }

TEST_F(LinearBackward, ForwardAndEachGradientInFloat16) { check(ACL_FLOAT16, 1); }

}  // namespace
