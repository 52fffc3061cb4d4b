// acl-cpu ops/common: the row engine's vector pieces (see rows.hpp), per
// SIMD target.  Include after <hwy/highway.h> in a file compiled by
// foreach_target (a per-target include guard, as Highway's -inl headers).
#include "common/internal.hpp"

#if defined(ACLCPU_OPS_COMMON_ROWS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLCPU_OPS_COMMON_ROWS_INL_H_
#undef ACLCPU_OPS_COMMON_ROWS_INL_H_
#else
#define ACLCPU_OPS_COMMON_ROWS_INL_H_
#endif

#include <cstdint>
#include <cstring>

#include <hwy/highway.h>

#include "common/hwy_target.hpp"
#include "common/simd-inl.h"
#include "common/vector_math-inl.h"

ACLCPU_BEGIN_TARGET_NAMESPACE();

/// out[i] = e^(x[i] - shift) for i < n: Highway's Exp lane by lane (a
/// lane's result never depends on the target's width), 0 at -inf, NaN kept.
inline void exp_shifted(const float* x, float shift, float* out, int64_t n) {
    const hn::ScalableTag<float> d;
    const auto lanes = static_cast<int64_t>(hn::Lanes(d));
    const auto shiftV = hn::Set(d, shift);
    int64_t i = 0;
    for (; i + lanes <= n; i += lanes) hn::StoreU(exp_ieee(d, hn::Sub(hn::LoadU(d, x + i), shiftV)), d, out + i);
    if (i == n) return;
    float tail[kMaxFloatLanes] = {};
    std::memcpy(tail, x + i, static_cast<size_t>(n - i) * sizeof(float));
    hn::StoreU(exp_ieee(d, hn::Sub(hn::LoadU(d, tail), shiftV)), d, tail);
    std::memcpy(out + i, tail, static_cast<size_t>(n - i) * sizeof(float));
}

ACLCPU_END_TARGET_NAMESPACE();

#endif  // toggle guard
