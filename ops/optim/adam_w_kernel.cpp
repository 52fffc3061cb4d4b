// acl-cpu: ApplyAdamWV2's fp32 update, compiled for every SIMD target
// Highway dispatches to at run time, in the order of its A2 kernel
// (optim/apply_adam_w_v2/op_kernel/apply_adam_w_v2_fp.h and _b16.h,
// Compute; the same order in both).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "optim/adam_w_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <array>
#include <cmath>
#include <cstdint>

#include "common/hwy_target.hpp"
#include "common/tensor_lists-inl.h"
#include "optim/adam_w_kernel.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

/// One AdamW step:
///   g = maximize ? -g : g
///   var' = var * (1 - lr * weightDecay)
///   m' = (g - m) * (1 - beta1) + m                 (exp_avg.lerp_)
///   v' = v * beta2 + (g * g) * (1 - beta2)
///   max' = max(maxGradNorm, v')                    (amsgrad)
///   denom = sqrt(v' or max') * biasCorrection2Sqrt + eps
///   var' = var' - (m' / denom) * stepSize
template <bool kAmsgrad>
struct AdamWVector : VectorFunction<AdamWParams> {
    template <class... Max>
    std::array<V, kAmsgrad ? 4 : 3> operator()(D d, V var, V m, V v, V grad, Max... maxGradNorm) const {
        const V g = p.maximize ? hn::Neg(grad) : grad;
        const V decayed = hn::Mul(var, hn::Set(d, p.decay));
        const V mOut = hn::Add(hn::Mul(hn::Sub(g, m), hn::Set(d, 1.0f - p.beta1)), m);
        const V vOut = hn::Add(hn::Mul(v, hn::Set(d, p.beta2)), hn::Mul(hn::Mul(g, g), hn::Set(d, 1.0f - p.beta2)));
        V second = vOut;
        if constexpr (kAmsgrad) second = hn::Max(maxGradNorm..., vOut);
        const V denom = hn::Add(hn::Mul(hn::Sqrt(second), hn::Set(d, p.biasCorrection2Sqrt)), hn::Set(d, p.eps));
        const V varOut = hn::Sub(decayed, hn::Mul(hn::Div(mOut, denom), hn::Set(d, p.stepSize)));
        if constexpr (kAmsgrad) {
            return {varOut, mOut, vOut, second};
        } else {
            return {varOut, mOut, vOut};
        }
    }
};

}  // namespace

ACLCPU_TENSOR_LIST_TARGET_BLOCK(adam_w_block, 4, 3, AdamWParams, AdamWVector<false>)
ACLCPU_TENSOR_LIST_TARGET_BLOCK(adam_w_amsgrad_block, 5, 4, AdamWParams, AdamWVector<true>)

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
ACLCPU_TENSOR_LIST_DISPATCH(adam_w_block, AdamWParams)
ACLCPU_TENSOR_LIST_DISPATCH(adam_w_amsgrad_block, AdamWParams)

namespace aclcpu::ops {

AdamWParams AdamWParams::at_launch(const void* const* extraInputs) const noexcept {
    AdamWParams resolved = *this;
    float step = 0;
    if (stepDtype == ACL_INT64) {
        step = static_cast<float>(static_cast<const int64_t*>(extraInputs[0])[stepOffset]);
    } else {
        step = static_cast<const float*>(extraInputs[0])[stepOffset];
    }
    step += 1.0f;
    resolved.stepSize = lr / (1.0f - std::pow(beta1, step));
    resolved.biasCorrection2Sqrt = 1.0f / std::sqrt(1.0f - std::pow(beta2, step));
    resolved.decay = 1.0f - lr * weightDecay;
    return resolved;
}

}  // namespace aclcpu::ops
#endif
