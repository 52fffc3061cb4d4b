// acl-cpu: the SoftplusV2Grad kernel (aclnnSoftplusBackward).
#pragma once

#include "aclcpu/nnopbase.hpp"
#include "common/elementwise.hpp"
#include "softplus_backward/softplus_backward_tiling.hpp"

namespace aclcpu::ops {

/// gradInput = t > threshold ? gradOutput : gradOutput / (1 + exp(-t)),
/// t = beta * self, in fp32; NaN t takes the exp path.  Operands: inputs
/// {gradOutput, self}, output gradInput, all of one shape.
class SoftplusBackwardKernel final : public OpKernel {
public:
    SoftplusBackwardKernel(SoftplusBackwardTiling tiling, ElementwiseOperands<2> operands, float beta,
                           float threshold) noexcept
        : tiling_(std::move(tiling)), operands_(operands), beta_(beta), threshold_(threshold) {}

    const char* name() const noexcept override { return "aclnnSoftplusBackward"; }
    aclError launch(const LaunchArgs& args) const noexcept override;
    void describe(std::string& details) const override {
        append_trace_arg(details, "blockDim", tiling_.elementwise.blocks.count());
    }

private:
    SoftplusBackwardTiling tiling_;
    ElementwiseOperands<2> operands_;
    float beta_;
    float threshold_;
};

}  // namespace aclcpu::ops
