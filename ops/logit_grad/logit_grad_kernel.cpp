// acl-cpu: the LogitGrad kernel, compiled for every SIMD target Highway
// dispatches to at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "logit_grad/logit_grad_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "common/elementwise-inl.h"
#include "common/hwy_target.hpp"
#include "logit_grad/logit_grad_kernel.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

/// dy / (x * (1 - x)) inside [lo, hi], `invalid` outside it and for NaN x.
struct LogitGradOp : VectorFunction<LogitGradParams> {
    V operator()(D d, V x, V dy) const {
        const V grad = hn::Div(dy, hn::Mul(x, hn::Sub(hn::Set(d, 1.0f), x)));
        const auto inside = hn::And(hn::Ge(x, hn::Set(d, p.lo)), hn::Le(x, hn::Set(d, p.hi)));
        return hn::IfThenElse(inside, grad, hn::Set(d, p.invalid));
    }
};

}  // namespace

ACLCPU_LOGIT_GRAD_BLOCKS(ACLCPU_ELEMENTWISE_TARGET_BLOCK)

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
ACLCPU_LOGIT_GRAD_BLOCKS(ACLCPU_ELEMENTWISE_DISPATCH_BLOCK)
#endif  // HWY_ONCE
