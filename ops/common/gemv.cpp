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

/// sum_p x[p] * w[p] for p < k (w rounded to R), in the fixed order above.
template <class R, class T>
float dot(const float* x, const T* w, int64_t k) {
    const DotTag d;
    hn::Vec<DotTag> partials[kDotVectors];
    for (auto& partial : partials) partial = hn::Zero(d);
    int64_t p = 0;
    for (; p + kPartials <= k; p += kPartials) {
        HWY_UNROLL(4)
        for (size_t v = 0; v < kDotVectors; ++v) {
            const int64_t at = p + static_cast<int64_t>(v * kDotLanes);
            partials[v] = hn::MulAdd(hn::LoadU(d, x + at), weights<R>(d, w + at, kDotLanes), partials[v]);
        }
    }
    for (size_t v = 0; v < kDotVectors; ++v) {
        const int64_t at = p + static_cast<int64_t>(v * kDotLanes);
        if (at >= k) break;
        const size_t count = std::min(kDotLanes, static_cast<size_t>(k - at));
        // Lanes past the row are zero in both loads: they add nothing.
        const auto xv = count == kDotLanes ? hn::LoadU(d, x + at) : load_f32_partial(d, x + at, count);
        partials[v] = hn::MulAdd(xv, weights<R>(d, w + at, count), partials[v]);
    }
    float sums[kPartials];
    for (size_t v = 0; v < kDotVectors; ++v) hn::StoreU(partials[v], d, sums + v * kDotLanes);
    for (int64_t n = kPartials; n > 1; n /= 2) {
        for (int64_t i = 0; i < n / 2; ++i) sums[i] = sums[2 * i] + sums[2 * i + 1];
    }
    return sums[0];
}

template <class R, class T>
void gemv_as(const StridedMatrix<const float>& a, const DenseColumns& b, float beta, const StridedMatrix<float>& c) {
    const auto* w = static_cast<const T*>(b.data);
    for (int64_t j = 0; j < c.cols; ++j) {
        const T* column = w + j * b.columnStride;
        for (int64_t i = 0; i < c.rows; ++i) {
            float& out = c.data[i * c.rowStride + j * c.colStride];
            const float sum = dot<R>(a.data + i * a.rowStride, column, b.rows);
            out = beta == 0.0f ? sum : sum + beta * out;
        }
    }
}

}  // namespace

void gemv_on_target(const StridedMatrix<const float>& a, const DenseColumns& b, float beta,
                    const StridedMatrix<float>& c) {
    switch (b.dtype) {
        case ACL_FLOAT16: return gemv_as<float, half_t>(a, b, beta, c);
        case ACL_BF16: return gemv_as<float, bf16_t>(a, b, beta, c);
        default:
            switch (b.roundedTo) {
                case ACL_FLOAT16: return gemv_as<half_t, float>(a, b, beta, c);
                case ACL_BF16: return gemv_as<bf16_t, float>(a, b, beta, c);
                default: return gemv_as<float, float>(a, b, beta, c);
            }
    }
}

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
namespace aclcpu::ops {

HWY_EXPORT(gemv_on_target);

void gemv_f32(const StridedMatrix<const float>& a, const DenseColumns& b, float beta,
              const StridedMatrix<float>& c) noexcept {
    HWY_DYNAMIC_DISPATCH(gemv_on_target)(a, b, beta, c);
}

}  // namespace aclcpu::ops
#endif
