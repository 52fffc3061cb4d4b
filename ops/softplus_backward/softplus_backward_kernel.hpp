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

void softplus_backward_block(const ElementwiseJob<2>& job, const BlockSlice& slice,
                             const SoftplusBackwardParams& params);

using SoftplusBackwardKernel = ElementwiseKernel<2, SoftplusBackwardParams, softplus_backward_block>;

}  // namespace aclcpu::ops
