// common/gemm.hpp against a double-precision product computed here, over
// the strides operators hand it: dense, transposed, general, broadcast
// (stride 0), single rows and columns, k == 0 and both betas.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "common/gemm.hpp"

namespace aclcpu::ops {
namespace {

struct Layout {
    int64_t rowStride;
    int64_t colStride;
};

/// A buffer of small integers (exact in fp32 products and sums) behind a
/// strided view.
struct Operand {
    std::vector<float> buffer;
    StridedMatrix<const float> view;
};

Operand make_operand(int64_t rows, int64_t cols, const Layout& layout, int seed) {
    int64_t last = 0;
    if (rows > 0 && cols > 0) {
        last += (rows - 1) * layout.rowStride + (cols - 1) * layout.colStride;
    }
    Operand operand;
    operand.buffer.resize(static_cast<size_t>(last + 1));
    for (size_t i = 0; i < operand.buffer.size(); ++i) operand.buffer[i] = static_cast<float>((i * 7 + seed) % 11) - 5;
    operand.view = {operand.buffer.data(), rows, cols, layout.rowStride, layout.colStride};
    return operand;
}

double at(const StridedMatrix<const float>& m, int64_t i, int64_t j) {
    return m.data[i * m.rowStride + j * m.colStride];
}

void expect_product(int64_t m, int64_t n, int64_t k, const Layout& a, const Layout& b, float beta) {
    SCOPED_TRACE(testing::Message() << m << "x" << n << "x" << k << " a strides " << a.rowStride << "," << a.colStride
                                    << " b strides " << b.rowStride << "," << b.colStride << " beta " << beta);
    const Operand left = make_operand(m, k, a, 1);
    const Operand right = make_operand(k, n, b, 2);
    std::vector<float> out(static_cast<size_t>(m * n), beta == 0 ? std::numeric_limits<float>::quiet_NaN() : 3.0f);
    // out is column-major: c's strides differ from both inputs' too.
    gemm_f32(left.view, right.view, beta, {out.data(), m, n, 1, m});
    for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) {
            double expected = beta == 0 ? 0.0 : beta * 3.0;
            for (int64_t p = 0; p < k; ++p) expected += at(left.view, i, p) * at(right.view, p, j);
            ASSERT_EQ(out[static_cast<size_t>(i + j * m)], expected) << "at " << i << "," << j;
        }
    }
}

TEST(Gemm, DenseAndTransposedOperandsOfOddSizes) {
    for (const int64_t size : {1, 7, 33, 257}) {
        const int64_t m = size, n = size + 2, k = size + 1;
        expect_product(m, n, k, {k, 1}, {n, 1}, 0.0f);
        expect_product(m, n, k, {1, m}, {1, k}, 0.0f);  // both transposed, as ggml's weight views
    }
}

TEST(Gemm, GeneralAndBroadcastStrides) {
    expect_product(5, 6, 4, {9, 2}, {13, 2}, 0.0f);
    expect_product(5, 6, 4, {0, 1}, {6, 0}, 0.0f);  // every row of a, every column of b the same
    expect_product(1, 6, 4, {0, 0}, {6, 1}, 0.0f);
    expect_product(5, 1, 4, {4, 1}, {0, 0}, 0.0f);
}

TEST(Gemm, BetaAccumulatesAndZeroIgnoresNaN) {
    expect_product(7, 9, 5, {5, 1}, {9, 1}, 1.0f);
    expect_product(7, 9, 5, {5, 1}, {9, 1}, 0.5f);
    expect_product(7, 9, 0, {1, 1}, {9, 1}, 0.0f);  // k == 0: zeros, the NaN gone
    expect_product(7, 9, 0, {1, 1}, {9, 1}, 2.0f);
}

}  // namespace
}  // namespace aclcpu::ops
