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

/// The family's block (see ACLCPU_DECLARE_ELEMENTWISE_BLOCK), the fp32
/// functor of hardshrink_backward_kernel.cpp.
#define ACLCPU_HARDSHRINK_BACKWARD_BLOCKS(X) X(hardshrink_backward_block, 2, HardshrinkBackwardParams, HardshrinkGrad)
ACLCPU_HARDSHRINK_BACKWARD_BLOCKS(ACLCPU_DECLARE_ELEMENTWISE_BLOCK)

using HardshrinkBackwardKernel = ElementwiseKernel<2, HardshrinkBackwardParams, hardshrink_backward_block>;

}  // namespace aclcpu::ops
