// acl-cpu: MseLoss's and MseLossGrad's vector blocks, compiled for every
// SIMD target Highway dispatches to at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "loss/mse_loss_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "common/binary-inl.h"
#include "common/elementwise-inl.h"
#include "common/hwy_target.hpp"
#include "loss/mse_loss_kernel.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

/// loss/mse_loss/op_kernel/arch35/mse_loss_dag.h: Sub, then Mul of the
/// difference by itself, in the promoted fp32.
struct SquaredDifferenceVector : VectorFunction<NoParams> {
    V operator()(D /*d*/, V x, V t) const {
        const V difference = hn::Sub(x, t);
        return hn::Mul(difference, difference);
    }
};

/// loss/mse_loss_grad_v2/op_kernel/mse_loss_grad_v2.h, Compute: Sub, Muls
/// by cof, Mul by dy (FLOAT16 and BF16 cast to fp32 first).
struct MseGradVector : VectorFunction<MseGradParams> {
    V operator()(D d, V dy, V x, V t) const { return hn::Mul(hn::Mul(hn::Sub(x, t), hn::Set(d, p.cof)), dy); }
};

}  // namespace

ACLCPU_LOSS_BINARY_BLOCKS(ACLCPU_BINARY_TARGET_BLOCKS)
ACLCPU_LOSS_BLOCKS(ACLCPU_ELEMENTWISE_TARGET_BLOCK)

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
ACLCPU_LOSS_BINARY_BLOCKS(ACLCPU_BINARY_DISPATCH)
ACLCPU_LOSS_BLOCKS(ACLCPU_ELEMENTWISE_DISPATCH_BLOCK)
#endif
