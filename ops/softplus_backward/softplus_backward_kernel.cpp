// acl-cpu: the SoftplusV2Grad kernel, compiled for every SIMD target Highway
// dispatches to at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "softplus_backward/softplus_backward_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "common/elementwise-inl.h"
#include "common/hwy_target.hpp"
#include "softplus_backward/softplus_backward_kernel.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

/// 1 + e^u, in fewer instructions than Highway's Exp with the IEEE special
/// values added around it (42 against 50 in the AVX-512 fp32 loop of the
/// kernel, which is compute bound).
///
/// e^u = 2^n * e^r with n = round(u / ln 2): r = u - n ln 2 from a two-part
/// ln 2 (its high part has 15 significant bits, so n * high is exact), e^r
/// from its Taylor series to r^7 (|r| <= ln(2) / 2: truncation below
/// 4e-9), 2^n as two factors built in the exponent field, so that every n
/// here gives normal factors.  u is clamped to [-88, 89] first: below,
/// e^u < 2^-126 leaves 1 + e^u at 1; above, the product overflows to +Inf
/// as e^u itself would.  NaN stays NaN.
template <class D>
HWY_INLINE hn::Vec<D> one_plus_exp(D d, hn::Vec<D> u) {
    using V = hn::Vec<D>;
    const hn::RebindToSigned<D> di;
    const V x = hn::Min(hn::Max(u, hn::Set(d, -88.0f)), hn::Set(d, 89.0f));
    const V n = hn::Round(hn::Mul(x, hn::Set(d, 1.44269504088896341f)));
    const V high = hn::NegMulAdd(n, hn::Set(d, 0.693145751953125f), x);
    const V r = hn::NegMulAdd(n, hn::Set(d, 1.428606765330187e-6f), high);
    // Horner's rule over 1/k!, k = 7 down to 0.
    V p = hn::Set(d, 1.0f / 5040);
    for (const float coefficient : {1.0f / 720, 1.0f / 120, 1.0f / 24, 1.0f / 6, 0.5f, 1.0f, 1.0f}) {
        p = hn::MulAdd(p, r, hn::Set(d, coefficient));
    }
    const auto power = hn::ConvertTo(di, n);
    const auto half = hn::ShiftRight<1>(power);
    const auto pow2 = [&](hn::Vec<decltype(di)> e) {
        return hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(e, hn::Set(di, 127))));
    };
    const V e = hn::Mul(hn::Mul(p, pow2(half)), pow2(hn::Sub(power, half)));
    return hn::IfThenElse(hn::IsNaN(u), u, hn::Add(hn::Set(d, 1.0f), e));
}

struct SoftplusGrad : VectorFunction<SoftplusBackwardParams> {
    V operator()(D d, V gradOutput, V self) const {
        const V t = hn::Mul(hn::Set(d, p.beta), self);
        const V smooth = hn::Div(gradOutput, one_plus_exp(d, hn::Neg(t)));
        return hn::IfThenElse(hn::Gt(t, hn::Set(d, p.threshold)), gradOutput, smooth);
    }
};

}  // namespace

ACLCPU_SOFTPLUS_BACKWARD_BLOCKS(ACLCPU_ELEMENTWISE_TARGET_BLOCK)

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
ACLCPU_SOFTPLUS_BACKWARD_BLOCKS(ACLCPU_ELEMENTWISE_DISPATCH_BLOCK)
#endif  // HWY_ONCE
