// acl-cpu: the HardShrinkGrad kernel, compiled for every SIMD target Highway
// dispatches to at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "hardshrink_backward/hardshrink_backward_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "common/elementwise-inl.h"
#include "common/hwy_target.hpp"
#include "hardshrink_backward/hardshrink_backward_kernel.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

struct HardshrinkGrad : VectorFunction<HardshrinkBackwardParams> {
    V operator()(D d, V gradOutput, V self) const {
        return hn::IfThenZeroElse(hn::Le(hn::Abs(self), hn::Set(d, p.lambd)), gradOutput);
    }
};

}  // namespace

ACLCPU_HARDSHRINK_BACKWARD_BLOCKS(ACLCPU_ELEMENTWISE_TARGET_BLOCK)

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
ACLCPU_HARDSHRINK_BACKWARD_BLOCKS(ACLCPU_ELEMENTWISE_DISPATCH_BLOCK)
#endif  // HWY_ONCE
