// acl-cpu ops/common: gemv_f32, compiled for every SIMD target Highway
// dispatches to at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "common/gemv.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "common/gemv.hpp"
#include "common/hwy_target.hpp"
#include "common/simd-inl.h"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

/// Partial sums of a dot product: element p goes to partial p % kPartials,
/// kPartials / lanes vectors of at most 16 lanes, on every target.
constexpr int64_t kPartials = 32;
using DotTag = hn::CappedTag<float, 16>;
constexpr size_t kDotLanes = hn::MaxLanes(DotTag());
constexpr size_t kDotVectors = kPartials / kDotLanes;
static_assert(kDotVectors * kDotLanes == kPartials, "whole vectors of partials");

/// The elements of w as the product reads them: rounded to R.
template <class R, class T>
HWY_INLINE hn::Vec<DotTag> weights(DotTag d, const T* w, size_t count) {
    const auto widened = count == kDotLanes ? load_f32(d, w) : load_f32_partial(d, w, count);
    if constexpr (std::is_same_v<R, float> || std::is_same_v<R, T>) return widened;
    else return round_to<R>(d, widened);
}

/// The sum of kPartials partials, folded pairwise.
float folded(DotTag d, const hn::Vec<DotTag> (&partials)[kDotVectors]) {
    float sums[kPartials];
    for (size_t v = 0; v < kDotVectors; ++v) hn::StoreU(partials[v], d, sums + v * kDotLanes);
    for (int64_t n = kPartials; n > 1; n /= 2) {
        for (int64_t i = 0; i < n / 2; ++i) sums[i] = sums[2 * i] + sums[2 * i + 1];
    }
    return sums[0];
}

/// Where element p of a column lies from its first: in one run, or in runs
/// of `run` elements runStride apart (DenseMatrix).  A vector starting at a
/// multiple of its lanes never crosses a run (runs are multiples of 16).
struct ColumnRuns {
    int64_t run;
    int64_t runStride;
    int64_t offset(int64_t p) const { return run == 0 ? p : p / run * runStride + p % run; }
};

/// sums[c] = sum_p x[p] * w[c][p] for p < k and each of kColumns columns (w
/// rounded to R, laid out as runs says), each in the fixed order above.
/// Columns go kColumns at a time so that x's loads are shared and the
/// independent partials hide the multiply-adds' latency.
template <class R, size_t kColumns, class T>
void dots(const float* x, const T* const (&w)[kColumns], int64_t k, const ColumnRuns& runs,
          float (&sums)[kColumns]) {
    const DotTag d;
    hn::Vec<DotTag> partials[kColumns][kDotVectors];
    for (auto& column : partials) {
        for (auto& partial : column) partial = hn::Zero(d);
    }
    int64_t p = 0;
    for (; p + kPartials <= k; p += kPartials) {
        HWY_UNROLL(4)
        for (size_t v = 0; v < kDotVectors; ++v) {
            const int64_t at = p + static_cast<int64_t>(v * kDotLanes);
            const int64_t offset = runs.offset(at);
            const auto xv = hn::LoadU(d, x + at);
            for (size_t c = 0; c < kColumns; ++c) {
                partials[c][v] = hn::MulAdd(xv, weights<R>(d, w[c] + offset, kDotLanes), partials[c][v]);
            }
        }
    }
    for (size_t v = 0; v < kDotVectors; ++v) {
        const int64_t at = p + static_cast<int64_t>(v * kDotLanes);
        if (at >= k) break;
        const size_t count = std::min(kDotLanes, static_cast<size_t>(k - at));
        const int64_t offset = runs.offset(at);
        // Lanes past the row are zero in both loads: they add nothing.
        const auto xv = count == kDotLanes ? hn::LoadU(d, x + at) : load_f32_partial(d, x + at, count);
        for (size_t c = 0; c < kColumns; ++c) {
            partials[c][v] = hn::MulAdd(xv, weights<R>(d, w[c] + offset, count), partials[c][v]);
        }
    }
    for (size_t c = 0; c < kColumns; ++c) sums[c] = folded(d, partials[c]);
}

/// c's columns [j, j + kColumns) from b's.
template <class R, size_t kColumns, class T>
void column_group(const StridedMatrix<const float>& a, const DenseMatrix& b, float beta,
                  const StridedMatrix<float>& c, int64_t j) {
    const T* w[kColumns];
    for (size_t g = 0; g < kColumns; ++g) {
        w[g] = static_cast<const T*>(b.data) + (j + static_cast<int64_t>(g)) * b.stride;
    }
    const ColumnRuns runs{b.run, b.runStride};
    for (int64_t i = 0; i < c.rows; ++i) {
        float sums[kColumns];
        dots<R>(a.data + i * a.rowStride, w, b.rows, runs, sums);
        for (size_t g = 0; g < kColumns; ++g) {
            float& out = c.data[i * c.rowStride + (j + static_cast<int64_t>(g)) * c.colStride];
            out = beta == 0.0f ? sums[g] : sums[g] + beta * out;
        }
    }
}

template <class R, class T>
void columns_product(const StridedMatrix<const float>& a, const DenseMatrix& b, float beta,
                     const StridedMatrix<float>& c) {
    constexpr size_t kGroup = 4;
    int64_t j = 0;
    for (; j + static_cast<int64_t>(kGroup) <= c.cols; j += kGroup) column_group<R, kGroup, T>(a, b, beta, c, j);
    for (; j < c.cols; ++j) column_group<R, 1, T>(a, b, beta, c, j);
}

/// Row i of c, columns [j, j + count) (count <= kRowVectors lanes' worth),
/// from dense rows of b: one multiply-add chain per element, p increasing.
template <class R, class T>
void row_span(const float* x, const T* w, int64_t k, int64_t stride, float beta, float* out, int64_t colStride,
              int64_t count) {
    constexpr size_t kVectors = 4;
    const DotTag d;
    hn::Vec<DotTag> sums[kVectors];
    for (auto& sum : sums) sum = hn::Zero(d);
    const size_t vectors = (static_cast<size_t>(count) + kDotLanes - 1) / kDotLanes;
    for (int64_t p = 0; p < k; ++p) {
        const auto xp = hn::Set(d, x[p]);
        const T* row = w + p * stride;
        for (size_t v = 0; v < vectors; ++v) {
            const size_t lanes = std::min(kDotLanes, static_cast<size_t>(count) - v * kDotLanes);
            sums[v] = hn::MulAdd(xp, weights<R>(d, row + v * kDotLanes, lanes), sums[v]);
        }
    }
    float values[kVectors * kDotLanes];
    for (size_t v = 0; v < vectors; ++v) hn::StoreU(sums[v], d, values + v * kDotLanes);
    for (int64_t j = 0; j < count; ++j) {
        float& at = out[j * colStride];
        at = beta == 0.0f ? values[j] : values[j] + beta * at;
    }
}

template <class R, class T>
void rows_product(const StridedMatrix<const float>& a, const DenseMatrix& b, float beta,
                  const StridedMatrix<float>& c) {
    constexpr int64_t kSpan = 4 * static_cast<int64_t>(kDotLanes);
    const auto* w = static_cast<const T*>(b.data);
    for (int64_t i = 0; i < c.rows; ++i) {
        for (int64_t j = 0; j < c.cols; j += kSpan) {
            row_span<R>(a.data + i * a.rowStride, w + j, b.rows, b.stride, beta,
                        c.data + i * c.rowStride + j * c.colStride, c.colStride, std::min(kSpan, c.cols - j));
        }
    }
}

template <class R, class T>
void gemv_as(const StridedMatrix<const float>& a, const DenseMatrix& b, float beta, const StridedMatrix<float>& c) {
    if (b.denseRows) return rows_product<R, T>(a, b, beta, c);
    columns_product<R, T>(a, b, beta, c);
}

}  // namespace

template <class T>
void gemv_rounded(const StridedMatrix<const float>& a, const DenseMatrix& b, float beta,
                  const StridedMatrix<float>& c) {
    switch (b.roundedTo) {
        case ACL_FLOAT16: return gemv_as<half_t, T>(a, b, beta, c);
        case ACL_BF16: return gemv_as<bf16_t, T>(a, b, beta, c);
        default: return gemv_as<float, T>(a, b, beta, c);
    }
}

void gemv_on_target(const StridedMatrix<const float>& a, const DenseMatrix& b, float beta,
                    const StridedMatrix<float>& c) {
    switch (b.dtype) {
        case ACL_FLOAT16: return gemv_rounded<half_t>(a, b, beta, c);
        case ACL_BF16: return gemv_rounded<bf16_t>(a, b, beta, c);
        default: return gemv_rounded<float>(a, b, beta, c);
    }
}

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
namespace aclcpu::ops {

HWY_EXPORT(gemv_on_target);

void gemv_f32(const StridedMatrix<const float>& a, const DenseMatrix& b, float beta,
              const StridedMatrix<float>& c) noexcept {
    HWY_DYNAMIC_DISPATCH(gemv_on_target)(a, b, beta, c);
}

}  // namespace aclcpu::ops
#endif
