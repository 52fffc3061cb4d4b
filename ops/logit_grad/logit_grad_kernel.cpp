// acl-cpu: the LogitGrad kernel, compiled for every SIMD target Highway
// dispatches to at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "logit_grad/logit_grad_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <limits>

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

void logit_grad_block(const ElementwiseJob<2>& job, int64_t blockIdx, float lo, float hi, float invalid) {
    elementwise_block(job, blockIdx, LogitGradOp{lo, hi, invalid});
}

}  // namespace aclcpu::ops::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace aclcpu::ops {

HWY_EXPORT(logit_grad_block);

// run_executor guarantees a workspace of the tiling's 16 MiB, and phase 1
// checked that every block's staging fits in it.
aclError LogitGradKernel::launch(const LaunchArgs& args) const noexcept {
    const bool bounded = eps_ >= 0.0f;
    const float lo = bounded ? eps_ : 0.0f;
    const float hi = 1.0f - lo;
    const float invalid = bounded ? 0.0f : std::numeric_limits<float>::quiet_NaN();
    const ElementwiseJob<2> job{tiling_.elementwise, operands_, args,
                                UbStaging::in_workspace(args.workspace, tiling_.stagingBytesPerBlock)};
    return run_elementwise(name(), job, [=](const ElementwiseJob<2>& j, int64_t blockIdx) {
        HWY_DYNAMIC_DISPATCH(logit_grad_block)(j, blockIdx, lo, hi, invalid);
    });
}

}  // namespace aclcpu::ops
#endif  // HWY_ONCE
