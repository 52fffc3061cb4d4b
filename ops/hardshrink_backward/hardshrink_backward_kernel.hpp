// acl-cpu: the HardShrinkGrad kernel (aclnnHardshrinkBackward).
#pragma once

#include "common/internal.hpp"

#include "common/elementwise.hpp"

namespace aclcpu::ops {

/// gradInput = |self| <= lambd ? 0 : gradOutput, in fp32, so self = +-lambd
/// gives 0 and NaN self passes gradOutput through.  Operands: inputs
/// {gradOutput, self} read over gradInput's (the broadcast) shape.
struct HardshrinkBackwardParams {
    float lambd;
};

void hardshrink_backward_block(const ElementwiseJob<2>& job, const BlockSlice& slice,
                               const HardshrinkBackwardParams& params);

using HardshrinkBackwardKernel = ElementwiseKernel<2, HardshrinkBackwardParams, hardshrink_backward_block>;

}  // namespace aclcpu::ops
