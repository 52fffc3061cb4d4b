// acl-cpu ops/common: Highway's transcendental functions (hwy/contrib/math)
// with IEEE's values outside their valid input ranges, for the fp32 vector
// blocks of the unary families: each wrapper keeps its function's argument in
// range and selects IEEE's result for the rest (overflow to +inf, NaN kept);
// and erf, which Highway lacks.
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
#include <cstddef>
#include <cstdint>

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

namespace detail {

/// Highway's Exp and Expm1 reduce x to r = x - q ln2 (q = x/ln2 rounded half
/// away from zero), approximate y = e^r - 1, and rebuild e^x = (y + 1) 2^q
/// with a saturating conversion and two multiplications, so that they hold
/// over all of fp32's range.  Below kExpFastRange in magnitude every factor
/// is a normal float and 2^q is one integer add to the exponent field: the
/// same bits as Highway's (ops/common/tests/vector_math_ranges.cpp checks
/// every float in range) at about 60% of the instructions.  The bitwise
/// equality is what lets a vector take this path only when all its lanes are
/// in range: a lane's result never depends on its neighbours.
inline constexpr float kExpFastRange = 87.0f;

/// Whether every lane of x is below limit in magnitude (NaN is not).
template <class D, class V>
HWY_INLINE bool all_below(D d, V x, float limit) {
    return hn::AllTrue(d, hn::Lt(hn::Abs(x), hn::Set(d, limit)));
}

/// y = e^r - 1 of x's reduction, from Highway's own pieces
/// (hn::impl::ExpImpl<float>, what its Exp and Expm1 are built from), and
/// qBits, a float whose low mantissa bits hold q.
template <class D, class V>
HWY_INLINE V reduce_exp(D d, V x, V& qBits) {
    const hn::RebindToSigned<D> di;
    const V kShifter = hn::Set(d, 12582912.0f);  // 1.5 * 2^23: integers up to 2^22 land in the low bits
    const V halfAwayFromZero = hn::Or(hn::Set(d, 0.5f), hn::And(x, hn::Set(d, -0.0f)));
    qBits = hn::Add(hn::Trunc(hn::MulAdd(x, hn::Set(d, 1.442695040888963407359924681f), halfAwayFromZero)), kShifter);
    const auto q = hn::Sub(hn::BitCast(di, qBits), hn::BitCast(di, kShifter));
    hn::impl::ExpImpl<float> impl;
    return impl.ExpPoly(d, impl.ExpReduce(d, x, q));
}

/// v * 2^q for the qBits of reduce_exp, while the product is a normal float.
template <class D, class V>
HWY_INLINE V times_two_to_q(D d, V v, V qBits) {
    const hn::RebindToSigned<D> di;
    return hn::BitCast(d, hn::Add(hn::BitCast(di, v), hn::ShiftLeft<23>(hn::BitCast(di, qBits))));
}

/// Highway's Exp(x) for |x| < kExpFastRange.
template <class D, class V>
HWY_INLINE V exp_in_fast_range(D d, V x) {
    V qBits;
    const V y = reduce_exp(d, x, qBits);
    return times_two_to_q(d, hn::Add(y, hn::Set(d, 1.0f)), qBits);
}

/// Highway's Expm1(x) for |x| < kExpFastRange.
template <class D, class V>
HWY_INLINE V expm1_in_fast_range(D d, V x) {
    V qBits;
    const V y = reduce_exp(d, x, qBits);
    const V one = hn::Set(d, 1.0f);
    return hn::IfThenElse(hn::Lt(hn::Abs(x), hn::Set(d, 0.346573590279972654708616f)), y,
                          hn::Sub(times_two_to_q(d, hn::Add(y, one), qBits), one));
}

}  // namespace detail

/// e^x: Highway's Exp holds on [-FLT_MAX, 104] (and gives 0 at -inf); above
/// 100 the result is +inf (e^x overflows fp32 from 88.73); NaN kept.
template <class D, class V>
HWY_INLINE V exp_ieee(D d, V x) {
    if (HWY_LIKELY(detail::all_below(d, x, detail::kExpFastRange))) return detail::exp_in_fast_range(d, x);
    const V e = hn::Exp(d, hn::Min(x, hn::Set(d, 100.0f)));
    return nan_through(d, x, hn::IfThenElse(hn::Gt(x, hn::Set(d, 100.0f)), infinity(d), e));
}

/// e^x - 1, likewise: Highway's Expm1 holds on [-FLT_MAX, 104]; below -100
/// the result is -1 in fp32, above 100 +inf.
template <class D, class V>
HWY_INLINE V expm1_ieee(D d, V x) {
    if (HWY_LIKELY(detail::all_below(d, x, detail::kExpFastRange))) return detail::expm1_in_fast_range(d, x);
    const V e = hn::Expm1(d, hn::Min(hn::Max(x, hn::Set(d, -100.0f)), hn::Set(d, 100.0f)));
    return nan_through(d, x, hn::IfThenElse(hn::Gt(x, hn::Set(d, 100.0f)), infinity(d), e));
}

/// tanh(x): Highway's Tanh, (e^2|x| - 1) / (e^2|x| + 1) through its Expm1
/// with the sign put back, and 1 from |x| > 18.71; NaN kept.
template <class D, class V>
HWY_INLINE V tanh_ieee(D d, V x) {
    if (HWY_LIKELY(detail::all_below(d, x, detail::kExpFastRange / 2))) {
        const V sign = hn::And(hn::SignBit(d), x);
        const V magnitude = hn::Xor(x, sign);
        const V y = detail::expm1_in_fast_range(d, hn::Add(magnitude, magnitude));
        const V z = hn::IfThenElse(hn::Gt(magnitude, hn::Set(d, 18.714973875f)), hn::Set(d, 1.0f),
                                   hn::Div(y, hn::Add(y, hn::Set(d, 2.0f))));
        return hn::Xor(z, sign);
    }
    return nan_through(d, x, hn::Tanh(d, x));
}

/// ln(x) for x > 0 and the IEEE values elsewhere: Highway's Log holds on
/// (0, FLT_MAX]; log(0) = -inf, log(+inf) = +inf, and a negative x or NaN
/// gives NaN.  Vectors of normal floats skip Highway's subnormal scaling
/// (hn::impl::Log without it), which changes nothing for them.
template <class D, class V>
HWY_INLINE V log_ieee(D d, V x) {
    const auto normal = hn::And(hn::Ge(x, hn::Set(d, FLT_MIN)), hn::Le(x, hn::Set(d, FLT_MAX)));
    if (HWY_LIKELY(hn::AllTrue(d, normal))) return hn::impl::Log<D, V, /*kAllowSubnormals=*/false>(d, x);
    const V zero = hn::Zero(d);
    V result = hn::Log(d, hn::Min(hn::IfThenElse(hn::Gt(x, zero), x, hn::Set(d, 1.0f)), hn::Set(d, FLT_MAX)));
    result = hn::IfThenElse(hn::Eq(x, infinity(d)), x, result);
    result = hn::IfThenElse(hn::Eq(x, zero), hn::Neg(infinity(d)), result);
    return hn::IfThenElse(hn::Or(hn::Lt(x, zero), hn::IsNaN(x)), hn::Set(d, std::nanf("")), result);
}

/// ln(1 + x) for x >= 0: Highway's Log1p holds on [0, FLT_MAX]; log1p(+inf)
/// is +inf, NaN kept.
template <class D, class V>
HWY_INLINE V log1p_nonnegative(D d, V x) {
    const V l = hn::Log1p(d, hn::Min(x, hn::Set(d, FLT_MAX)));
    return nan_through(d, x, hn::IfThenElse(hn::Eq(x, infinity(d)), x, l));
}

namespace detail {

/// result, with the lanes where outside is true computed one by one by
/// scalar (the IEEE function): for the rare inputs beyond a Highway
/// function's valid range, so that the common case stays one vector pass.
template <class D, class Scalar>
hn::Vec<D> with_scalar_outside(D d, hn::Vec<D> x, hn::Vec<D> result, hn::Mask<D> outside, Scalar scalar) {
    constexpr size_t kMaxLanes = hn::MaxLanes(D());
    HWY_ALIGN float in[kMaxLanes];
    HWY_ALIGN float out[kMaxLanes];
    uint8_t bits[(kMaxLanes + 7) / 8] = {};
    hn::Store(x, d, in);
    hn::Store(result, d, out);
    hn::StoreMaskBits(d, outside, bits);
    for (size_t i = 0; i < hn::Lanes(d); ++i) {
        if ((bits[i / 8] >> (i % 8)) & 1) out[i] = scalar(in[i]);
    }
    return hn::Load(d, out);
}

/// Highway's Sin and Cos hold on [-39000, 39000]; beyond it (and for the
/// non-finite inputs) the lanes are the standard library's.
inline constexpr float kTrigRange = 39000.0f;

template <bool kSine, class D, class V>
HWY_INLINE V trig_ieee(D d, V x) {
    const auto inside = hn::Le(hn::Abs(x), hn::Set(d, kTrigRange));
    if (HWY_LIKELY(hn::AllTrue(d, inside))) return kSine ? hn::Sin(d, x) : hn::Cos(d, x);
    const auto outside = hn::Not(inside);
    const V inRange = hn::IfThenZeroElse(outside, x);
    if constexpr (kSine) {
        return with_scalar_outside(d, x, hn::Sin(d, inRange), outside, [](float v) { return std::sin(v); });
    } else {
        return with_scalar_outside(d, x, hn::Cos(d, inRange), outside, [](float v) { return std::cos(v); });
    }
}

}  // namespace detail

/// sin(x), cos(x): Highway's within its range, the standard library's lanes
/// beyond it.
template <class D, class V>
HWY_INLINE V sin_ieee(D d, V x) {
    return detail::trig_ieee<true>(d, x);
}
template <class D, class V>
HWY_INLINE V cos_ieee(D d, V x) {
    return detail::trig_ieee<false>(d, x);
}

/// erf(x) in fp32, ours (Highway 1.0 has none), in two pieces fitted for
/// acl-cpu with mpmath's chebyfit (Chebyshev-node least squares, 40 digits)
/// and rounded to fp32:
///   |x| < 1:      x * P(x^2), P of degree 6 fitting erf(sqrt u) / sqrt u on
///                 [0, 1] (fit error 1.2e-9);
///   1 <= |x| < 4: 1 - e^(-x^2) * Q(t), t = (|x| - 2.5) * 2/3 in [-1, 1], Q of
///                 degree 11 fitting erfc(x) e^(x^2) (fit error 7e-8 relative);
///   |x| >= 4:     +-1 (erf(4) rounds to 1 in fp32), and +-1 for NaN too:
///                 its callers multiply by x, which keeps NaN.
/// Measured through GeluV2 against std::erf (test_activation.cpp,
/// GeluV2ErfIsAccurate): within 1.5e-7 of it, about one fp32 ulp at 1 (its odd
/// symmetry makes GeluV2 of negative x measure erf's absolute error directly).
template <class D, class V>
HWY_INLINE V erf_of(D d, V x) {
    const V a = hn::Abs(x);
    const V u = hn::Mul(x, x);
    V p = hn::Set(d, 7.875874871388078e-05f);
    for (float c : {-0.000801686430349946f, 0.005189087241888046f, -0.02685421146452427f, 0.11283594369888306f,
                    -0.3761262595653534f, 1.1283791065216064f}) {
        p = hn::Add(hn::Mul(p, u), hn::Set(d, c));
    }
    const V small = hn::Mul(x, p);

    const V t = hn::Mul(hn::Sub(hn::Min(a, hn::Set(d, 4.0f)), hn::Set(d, 2.5f)), hn::Set(d, 2.0f / 3.0f));
    V q = hn::Set(d, -3.5664179449668154e-05f);
    for (float c : {9.629120177123696e-05f, -0.00014741613995283842f, 0.00036815108614973724f,
                    -0.0010136625496670604f, 0.00242563895881176f, -0.005568837746977806f, 0.01248412299901247f,
                    -0.027005458250641823f, 0.05611094832420349f, -0.11152102053165436f, 0.21080635488033295f}) {
        q = hn::Add(hn::Mul(q, t), hn::Set(d, c));
    }
    const V boundedSquare = hn::Mul(hn::Min(a, hn::Set(d, 4.0f)), hn::Min(a, hn::Set(d, 4.0f)));
    const V erfcTimes = hn::Mul(detail::exp_in_fast_range(d, hn::Neg(boundedSquare)), q);
    const V one = hn::Set(d, 1.0f);
    const V large = hn::IfThenElse(hn::Lt(a, hn::Set(d, 4.0f)), hn::Sub(one, erfcTimes), one);
    return hn::IfThenElse(hn::Lt(a, one), small, hn::CopySign(large, x));
}

ACLCPU_END_TARGET_NAMESPACE();

#endif  // ACLCPU_OPS_COMMON_VECTOR_MATH_INL_H_
