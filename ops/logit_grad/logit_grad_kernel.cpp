// acl-cpu: the LogitGrad kernel, compiled for every SIMD target Highway
// dispatches to at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "logit_grad/logit_grad_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "common/elementwise-inl.h"
#include "logit_grad/logit_grad_kernel.hpp"

HWY_BEFORE_NAMESPACE();
namespace aclcpu::ops::HWY_NAMESPACE {
namespace {

/// dy / (x * (1 - x)) inside [lo, hi], `invalid` outside it and for NaN x.
struct LogitGradOp {
    float lo;
    float hi;
    float invalid;

    template <class D, class V>
    V operator()(D d, V x, V dy) const {
        const V grad = hn::Div(dy, hn::Mul(x, hn::Sub(hn::Set(d, 1.0f), x)));
        const auto inside = hn::And(hn::Ge(x, hn::Set(d, lo)), hn::Le(x, hn::Set(d, hi)));
        return hn::IfThenElse(inside, grad, hn::Set(d, invalid));
    }
};

}  // namespace

void logit_grad_block(const ElementwiseJob<2>& job, int64_t blockIdx, const LogitGradParams& params) {
    elementwise_block(job, blockIdx, LogitGradOp{params.lo, params.hi, params.invalid});
}

}  // namespace aclcpu::ops::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace aclcpu::ops {

HWY_EXPORT(logit_grad_block);

void logit_grad_block(const ElementwiseJob<2>& job, int64_t blockIdx, const LogitGradParams& params) {
    HWY_DYNAMIC_DISPATCH(logit_grad_block)(job, blockIdx, params);
}

}  // namespace aclcpu::ops
#endif  // HWY_ONCE
