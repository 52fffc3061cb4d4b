// common/gemv.hpp against a double-precision product computed here: one and
// a few rows, k on both sides of the 32 partials (1, 7, 31, 32, 33, 257),
// FLOAT, FLOAT16 and BF16 columns with a gap between them, both betas; dense
// rows of each dtype across whole and partial vectors; columns in runs (a
// FRACTAL_NZ weight) summing bit for bit as dense columns do; and the fixed
// summation order: a sum equals the pairwise fold of its 32 partials,
// written out here.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "aclcpu/half.hpp"
#include "common/gemv.hpp"

namespace aclcpu::ops {
namespace {

/// Small integers and halves: exact in every dtype, their products and sums
/// exact in fp32.
float value_at(int64_t i, int seed) { return static_cast<float>((i * 7 + seed) % 13 - 6) * 0.5f; }

template <class T>
T stored(float value) {
    if constexpr (std::is_same_v<T, half_t>) return half_t::from_float(value);
    else if constexpr (std::is_same_v<T, bf16_t>) return bf16_t::from_float(value);
    else return value;
}

template <class T>
void expect_gemv(aclDataType dtype, int64_t m, int64_t n, int64_t k, float beta) {
    SCOPED_TRACE(testing::Message() << "dtype " << dtype << " " << m << "x" << n << "x" << k << " beta " << beta);
    const int64_t columnStride = k + 3;  // a gap after each column
    std::vector<T> weight(static_cast<size_t>(n * columnStride), stored<T>(std::nanf("")));
    for (int64_t j = 0; j < n; ++j) {
        for (int64_t p = 0; p < k; ++p) weight[j * columnStride + p] = stored<T>(value_at(j * k + p, 2));
    }
    const int64_t aStride = k + 1;
    std::vector<float> a(static_cast<size_t>(m * aStride));
    for (size_t i = 0; i < a.size(); ++i) a[i] = value_at(static_cast<int64_t>(i), 1);
    std::vector<float> out(static_cast<size_t>(m * n), beta == 0 ? std::numeric_limits<float>::quiet_NaN() : 3.0f);
    gemv_f32({a.data(), m, k, aStride, 1}, {weight.data(), dtype, k, n, columnStride, false}, beta,
             {out.data(), m, n, n, 1});
    for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) {
            double expected = beta == 0 ? 0.0 : beta * 3.0;
            for (int64_t p = 0; p < k; ++p) {
                expected += double{a[i * aStride + p]} * double{value_at(j * k + p, 2)};
            }
            ASSERT_EQ(out[i * n + j], expected) << "at " << i << "," << j;
        }
    }
}

TEST(Gemv, EachDtypeRowsAndLengthsAgainstDouble) {
    for (const int64_t k : {1, 7, 31, 32, 33, 257}) {
        for (const int64_t m : {1, 2, 3, 4, 5}) {
            for (const float beta : {0.0f, 1.0f}) {
                // 5 and 70 columns: part of a register group, and spans of
                // 16, 32 and 64 columns with a partial one after them.
                for (const int64_t n : {5, 70}) {
                    expect_gemv<float>(ACL_FLOAT, m, n, k, beta);
                    expect_gemv<half_t>(ACL_FLOAT16, m, n, k, beta);
                    expect_gemv<bf16_t>(ACL_BF16, m, n, k, beta);
                }
            }
        }
    }
}

/// As expect_gemv, b in dense rows (element (p, j) at p * (n + 5) + j),
/// out with a column stride of 2.
template <class T>
void expect_gemv_rows(aclDataType dtype, int64_t m, int64_t n, int64_t k, float beta) {
    SCOPED_TRACE(testing::Message() << "rows, dtype " << dtype << " " << m << "x" << n << "x" << k << " beta " << beta);
    const int64_t rowStride = n + 5;
    std::vector<T> weight(static_cast<size_t>(k * rowStride), stored<T>(std::nanf("")));
    for (int64_t p = 0; p < k; ++p) {
        for (int64_t j = 0; j < n; ++j) weight[p * rowStride + j] = stored<T>(value_at(p * n + j, 3));
    }
    std::vector<float> a(static_cast<size_t>(m * k));
    for (size_t i = 0; i < a.size(); ++i) a[i] = value_at(static_cast<int64_t>(i), 4);
    std::vector<float> out(static_cast<size_t>(m * n * 2), beta == 0 ? std::numeric_limits<float>::quiet_NaN() : 3.0f);
    gemv_f32({a.data(), m, k, k, 1}, {weight.data(), dtype, k, n, rowStride, true}, beta, {out.data(), m, n, 2 * n, 2});
    for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) {
            double expected = beta == 0 ? 0.0 : beta * 3.0;
            for (int64_t p = 0; p < k; ++p) expected += double{a[i * k + p]} * double{value_at(p * n + j, 3)};
            ASSERT_EQ(out[i * 2 * n + 2 * j], expected) << "at " << i << "," << j;
        }
    }
}

TEST(Gemv, DenseRowsEachDtypeAndWidthAgainstDouble) {
    for (const int64_t n : {1, 15, 64, 65, 200}) {
        for (const float beta : {0.0f, 1.0f}) {
            expect_gemv_rows<float>(ACL_FLOAT, 2, n, 37, beta);
            expect_gemv_rows<half_t>(ACL_FLOAT16, 1, n, 37, beta);
            expect_gemv_rows<bf16_t>(ACL_BF16, 3, n, 37, beta);
        }
    }
}

TEST(Gemv, SumsItsThirtyTwoPartialsPairwise) {
    // Values whose fp32 sum depends on the order: 1 + 2^-24 rounds to 1.
    constexpr int64_t k = 70;
    std::vector<float> x(k);
    std::vector<float> w(k, 1.0f);
    for (int64_t p = 0; p < k; ++p) x[p] = p % 3 == 0 ? 1.0f : std::ldexp(1.0f, -24 + static_cast<int>(p % 5));
    float partials[32] = {};
    for (int64_t p = 0; p < k; ++p) partials[p % 32] = std::fma(x[p], w[p], partials[p % 32]);
    for (int n = 32; n > 1; n /= 2) {
        for (int i = 0; i < n / 2; ++i) partials[i] = partials[2 * i] + partials[2 * i + 1];
    }
    float out = 0;
    gemv_f32({x.data(), 1, k, k, 1}, {w.data(), ACL_FLOAT, k, 1, k, false}, 0.0f, {&out, 1, 1, 1, 1});
    EXPECT_EQ(out, partials[0]);
}

TEST(Gemv, ColumnsInRunsSumAsDenseColumnsBitForBit) {
    // FRACTAL_NZ's reading: column j's elements in runs of 16, the runs of
    // consecutive columns side by side, the next runs a column tile (here
    // with a gap) further.  Values whose fp32 sums depend on the order.
    constexpr int64_t k = 70;  // four whole runs and a partial one
    constexpr int64_t n = 100;
    constexpr int64_t run = 16;
    constexpr int64_t runStride = (n + 3) * run;
    const auto value = [](int64_t p, int64_t j) {
        return (p + j) % 3 == 0 ? 1.0f + static_cast<float>(j % 4) : std::ldexp(1.0f, -24 + static_cast<int>(p % 5));
    };
    std::vector<float> dense(static_cast<size_t>(n * k));
    std::vector<float> runs(static_cast<size_t>((k + run - 1) / run * runStride), std::nanf(""));
    for (int64_t j = 0; j < n; ++j) {
        for (int64_t p = 0; p < k; ++p) {
            dense[j * k + p] = value(p, j);
            runs[p / run * runStride + j * run + p % run] = value(p, j);
        }
    }
    for (const int64_t m : {1, 2, 3, 4}) {
        std::vector<float> x(static_cast<size_t>(m * k));
        for (int64_t i = 0; i < m * k; ++i) x[i] = i % 7 == 0 ? 1.0f : std::ldexp(1.0f, -20 + static_cast<int>(i % 3));
        std::vector<float> fromDense(static_cast<size_t>(m * n));
        std::vector<float> fromRuns(static_cast<size_t>(m * n));
        gemv_f32({x.data(), m, k, k, 1}, {dense.data(), ACL_FLOAT, k, n, k, false}, 0.0f, {fromDense.data(), m, n, n, 1});
        gemv_f32({x.data(), m, k, k, 1}, {runs.data(), ACL_FLOAT, k, n, run, false, ACL_FLOAT, run, runStride}, 0.0f,
                 {fromRuns.data(), m, n, n, 1});
        for (int64_t i = 0; i < m * n; ++i) ASSERT_EQ(fromRuns[i], fromDense[i]) << m << " rows, at " << i;
        // And the order itself, for the last column of the last row.
        float partials[32] = {};
        for (int64_t p = 0; p < k; ++p) {
            partials[p % 32] = std::fma(x[(m - 1) * k + p], value(p, n - 1), partials[p % 32]);
        }
        for (int width = 32; width > 1; width /= 2) {
            for (int i = 0; i < width / 2; ++i) partials[i] = partials[2 * i] + partials[2 * i + 1];
        }
        EXPECT_EQ(fromRuns[m * n - 1], partials[0]) << m << " rows";
    }
}

TEST(Gemv, RoundsFloatColumnsAsItIsTold) {
    // 1 + 2^-9 is a float, not a half (10 mantissa bits: it rounds to 1 +
    // 2^-10 * 0 or 2, to even: 1) nor a bf16 (7 bits: 1).
    const std::vector<float> w{1.0f + std::ldexp(1.0f, -9) + std::ldexp(1.0f, -11), 3.0f + std::ldexp(1.0f, -10)};
    const std::vector<float> x{1.0f, 1.0f};
    for (const aclDataType to : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        double expected = 0;
        for (const float v : w) {
            expected += to == ACL_FLOAT16 ? double{static_cast<float>(half_t::from_float(v))}
                        : to == ACL_BF16  ? double{static_cast<float>(bf16_t::from_float(v))}
                                          : double{v};
        }
        float out = 0;
        gemv_f32({x.data(), 1, 2, 2, 1}, {w.data(), ACL_FLOAT, 2, 1, 2, false, to}, 0.0f, {&out, 1, 1, 1, 1});
        EXPECT_EQ(out, expected) << "rounded to " << to;
    }
}

}  // namespace
}  // namespace aclcpu::ops
