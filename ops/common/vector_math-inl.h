// acl-cpu ops/common: Highway's transcendental functions (hwy/contrib/math)
// with IEEE's values outside their valid input ranges, for the fp32 vector
// blocks of the unary families: each wrapper keeps its function's argument in
// range and selects IEEE's result for the rest (overflow to +inf, NaN kept).
//
// A Highway "-inl" header: include it after <hwy/highway.h> from a file
// compiled once per target through <hwy/foreach_target.h>; everything here
// lives in aclcpu::ops::HWY_NAMESPACE.

#include "common/internal.hpp"

#if defined(ACLCPU_OPS_COMMON_VECTOR_MATH_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLCPU_OPS_COMMON_VECTOR_MATH_INL_H_
#undef ACLCPU_OPS_COMMON_VECTOR_MATH_INL_H_
#else
#define ACLCPU_OPS_COMMON_VECTOR_MATH_INL_H_
#endif

#include <cfloat>
#include <cmath>

#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>

#include "common/hwy_target.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();

template <class D>
HWY_INLINE hn::Vec<D> infinity(D d) {
    return hn::Set(d, HUGE_VALF);
}

/// x where x is NaN, result elsewhere: for clamps (Min, Max), which x86's
/// min/max instructions do not make NaN-propagating, and for wrappers whose
/// clamped argument loses the NaN.
template <class D, class V>
HWY_INLINE V nan_through(D /*d*/, V x, V result) {
    return hn::IfThenElse(hn::IsNaN(x), x, result);
}

/// e^x: Highway's Exp holds on [-FLT_MAX, 104] (and gives 0 at -inf); above
/// 100 the result is +inf (e^x overflows fp32 from 88.73); NaN kept.
template <class D, class V>
HWY_INLINE V exp_ieee(D d, V x) {
    const V e = hn::Exp(d, hn::Min(x, hn::Set(d, 100.0f)));
    return nan_through(d, x, hn::IfThenElse(hn::Gt(x, hn::Set(d, 100.0f)), infinity(d), e));
}

/// e^x - 1, likewise: Highway's Expm1 holds on [-FLT_MAX, 104]; below -100
/// the result is -1 in fp32, above 100 +inf.
template <class D, class V>
HWY_INLINE V expm1_ieee(D d, V x) {
    const V e = hn::Expm1(d, hn::Min(hn::Max(x, hn::Set(d, -100.0f)), hn::Set(d, 100.0f)));
    return nan_through(d, x, hn::IfThenElse(hn::Gt(x, hn::Set(d, 100.0f)), infinity(d), e));
}

/// ln(1 + x) for x >= 0: Highway's Log1p holds on [0, FLT_MAX]; log1p(+inf)
/// is +inf, NaN kept.
template <class D, class V>
HWY_INLINE V log1p_nonnegative(D d, V x) {
    const V l = hn::Log1p(d, hn::Min(x, hn::Set(d, FLT_MAX)));
    return nan_through(d, x, hn::IfThenElse(hn::Eq(x, infinity(d)), x, l));
}

ACLCPU_END_TARGET_NAMESPACE();

#endif  // ACLCPU_OPS_COMMON_VECTOR_MATH_INL_H_
