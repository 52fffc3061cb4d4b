// acl-cpu: erf(x) in fp32 vectors (a Highway "-inl" header, included after
// common/vector_math-inl.h by a kernel.cpp compiled per target).  The same
// fit as ops/activation/activation_kernel.cpp's erf_of (GeluV2's erf form),
// which should include this header in its place (the two are one function).
//
// Ours (Highway 1.0 has no erf), in two pieces fitted with mpmath's chebyfit
// (Chebyshev-node least squares, 40 digits) and rounded to fp32:
//   |x| < 1:      x * P(x^2), P of degree 6 fitting erf(sqrt u) / sqrt u on
//                 [0, 1] (fit error 1.2e-9);
//   1 <= |x| < 4: 1 - e^(-x^2) * Q(t), t = (|x| - 2.5) * 2/3 in [-1, 1], Q of
//                 degree 11 fitting erfc(x) e^(x^2) (fit error 7e-8 relative);
//   |x| >= 4:     +-1 (erf(4) rounds to 1 in fp32), and +-1 for NaN too:
//                 callers keep NaN through a product with x.
#include "common/internal.hpp"

#if defined(ACLCPU_OPS_ACTIVATION_GRAD_ERF_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLCPU_OPS_ACTIVATION_GRAD_ERF_INL_H_
#undef ACLCPU_OPS_ACTIVATION_GRAD_ERF_INL_H_
#else
#define ACLCPU_OPS_ACTIVATION_GRAD_ERF_INL_H_
#endif

#include <hwy/highway.h>

#include "common/hwy_target.hpp"
#include "common/vector_math-inl.h"

ACLCPU_BEGIN_TARGET_NAMESPACE();

template <class D, class V>
V erf_of(D d, V x) {
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

#endif  // include guard
