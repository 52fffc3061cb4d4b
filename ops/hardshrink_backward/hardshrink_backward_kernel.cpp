// acl-cpu: the HardShrinkGrad kernel, compiled for every SIMD target Highway
// dispatches to at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "hardshrink_backward/hardshrink_backward_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "common/elementwise-inl.h"
#include "hardshrink_backward/hardshrink_backward_kernel.hpp"

HWY_BEFORE_NAMESPACE();
namespace aclcpu::ops::HWY_NAMESPACE {
namespace {

struct HardshrinkGrad {
    float lambd;

    template <class D, class V>
    V operator()(D d, V gradOutput, V self) const {
        return hn::IfThenZeroElse(hn::Le(hn::Abs(self), hn::Set(d, lambd)), gradOutput);
    }
};

}  // namespace

void hardshrink_backward_block(const ElementwiseJob<2>& job, int64_t blockIdx, const HardshrinkBackwardParams& params) {
    elementwise_block(job, blockIdx, HardshrinkGrad{params.lambd});
}

}  // namespace aclcpu::ops::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace aclcpu::ops {

HWY_EXPORT(hardshrink_backward_block);

void hardshrink_backward_block(const ElementwiseJob<2>& job, int64_t blockIdx, const HardshrinkBackwardParams& params) {
    HWY_DYNAMIC_DISPATCH(hardshrink_backward_block)(job, blockIdx, params);
}

}  // namespace aclcpu::ops
#endif  // HWY_ONCE
