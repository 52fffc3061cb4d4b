// acl-cpu: the SoftplusV2Grad kernel (aclnnSoftplusBackward).
#pragma once

#include "common/internal.hpp"

#include "common/elementwise.hpp"

namespace aclcpu::ops {

/// gradInput = t > threshold ? gradOutput : gradOutput / (1 + exp(-t)),
/// t = beta * self, in fp32; NaN t takes the exp path.  Operands: inputs
/// {gradOutput, self}, output gradInput, all of one shape.
struct SoftplusBackwardParams {
    float beta;
    float threshold;
};

/// The family's block (see ACLCPU_DECLARE_ELEMENTWISE_BLOCK), the fp32
/// functor of softplus_backward_kernel.cpp.
#define ACLCPU_SOFTPLUS_BACKWARD_BLOCKS(X) X(softplus_backward_block, 2, SoftplusBackwardParams, SoftplusGrad)
ACLCPU_SOFTPLUS_BACKWARD_BLOCKS(ACLCPU_DECLARE_ELEMENTWISE_BLOCK)

using SoftplusBackwardKernel = ElementwiseKernel<2, SoftplusBackwardParams, softplus_backward_block>;

}  // namespace aclcpu::ops
