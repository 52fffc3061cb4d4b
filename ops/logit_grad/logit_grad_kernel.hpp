// acl-cpu: the LogitGrad kernel (aclnnLogitGrad).
#pragma once

#include "aclcpu/nnopbase.hpp"
#include "common/elementwise.hpp"
#include "logit_grad/logit_grad_tiling.hpp"

namespace aclcpu::ops {

/// LogitGrad as the A2 kernel computes it, in fp32 with eps held as a
/// float: lo = eps >= 0 ? eps : 0, hi = 1 - lo;
/// out = lo <= x <= hi ? dy / (x * (1 - x)) : (eps >= 0 ? 0 : NaN).
/// So NaN x gives 0 when eps >= 0, NaN eps acts as a negative one, and
/// eps > 1 gives 0 everywhere.  Operands: inputs {x, dy}, output out, all
/// of one shape and dtype.  Each block stages in its own slice of the
/// phase-2 workspace.
class LogitGradKernel final : public OpKernel {
public:
    LogitGradKernel(LogitGradTiling tiling, ElementwiseOperands<2> operands, float eps) noexcept
        : tiling_(std::move(tiling)), operands_(operands), eps_(eps) {}

    const char* name() const noexcept override { return "aclnnLogitGrad"; }
    aclError launch(const LaunchArgs& args) const noexcept override;
    void describe(std::string& details) const override {
        append_trace_arg(details, "blockDim", tiling_.elementwise.blocks.count());
    }

private:
    LogitGradTiling tiling_;
    ElementwiseOperands<2> operands_;
    float eps_;
};

}  // namespace aclcpu::ops
