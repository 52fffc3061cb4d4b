// acl-cpu: TanhGrad's vector blocks, compiled for every SIMD target Highway
// dispatches to at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "math_grad/tanh_grad_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "common/binary-inl.h"
#include "common/elementwise-inl.h"
#include "common/hwy_target.hpp"
#include "math_grad/tanh_grad_kernel.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

/// math/tanh_grad/op_kernel/arch35/tanh_grad_f32_nddma_without_loops.h:
/// (1 + (y * -1) * y) * dy.  The arch35 kernel fuses the product into the
/// sum (MulAddDst); acl-cpu rounds it, as the A2 kernel's separate vector
/// multiply and add do.
struct TanhGradVector : VectorFunction<NoParams> {
    V operator()(D d, V dy, V y) const { return hn::Mul(hn::Sub(hn::Set(d, 1.0f), hn::Mul(y, y)), dy); }
};

}  // namespace

ACLCPU_MATH_GRAD_BLOCKS(ACLCPU_BINARY_TARGET_BLOCKS)

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
ACLCPU_MATH_GRAD_BLOCKS(ACLCPU_BINARY_DISPATCH)
#endif
