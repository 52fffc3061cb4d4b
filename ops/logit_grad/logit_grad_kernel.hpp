// acl-cpu: the LogitGrad kernel (aclnnLogitGrad).
#pragma once

#include "common/internal.hpp"

#include <limits>

#include "common/elementwise.hpp"

namespace aclcpu::ops {

/// LogitGrad as the A2 kernel computes it, in fp32 with eps held as a
/// float: lo = eps >= 0 ? eps : 0, hi = 1 - lo;
/// out = lo <= x <= hi ? dy / (x * (1 - x)) : invalid, invalid being 0 for
/// eps >= 0 and NaN otherwise.  So NaN x gives 0 when eps >= 0, NaN eps acts
/// as a negative one, and eps > 1 gives 0 everywhere.  Operands: inputs
/// {x, dy}, output out, all of one shape and dtype.  Each block stages in its
/// own slice of the phase-2 workspace.
struct LogitGradParams {
    float lo;
    float hi;
    float invalid;

    static LogitGradParams for_eps(float eps) noexcept {
        const bool bounded = eps >= 0.0f;
        const float lo = bounded ? eps : 0.0f;
        return {lo, 1.0f - lo, bounded ? 0.0f : std::numeric_limits<float>::quiet_NaN()};
    }
};

/// The family's block (see ACLCPU_DECLARE_ELEMENTWISE_BLOCK), the fp32
/// functor of logit_grad_kernel.cpp.
#define ACLCPU_LOGIT_GRAD_BLOCKS(X) X(logit_grad_block, 2, LogitGradParams, LogitGradOp)
ACLCPU_LOGIT_GRAD_BLOCKS(ACLCPU_DECLARE_ELEMENTWISE_BLOCK)

using LogitGradKernel = ElementwiseKernel<2, LogitGradParams, logit_grad_block>;

}  // namespace aclcpu::ops
