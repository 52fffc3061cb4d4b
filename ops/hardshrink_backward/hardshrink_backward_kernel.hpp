// acl-cpu: the HardShrinkGrad kernel (aclnnHardshrinkBackward).
#pragma once

#include "aclcpu/nnopbase.hpp"
#include "common/elementwise.hpp"
#include "hardshrink_backward/hardshrink_backward_tiling.hpp"

namespace aclcpu::ops {

/// gradInput = |self| <= lambd ? 0 : gradOutput, in fp32, so self = +-lambd
/// gives 0 and NaN self passes gradOutput through.  Operands: inputs
/// {gradOutput, self} read over gradInput's (the broadcast) shape.
class HardshrinkBackwardKernel final : public OpKernel {
public:
    HardshrinkBackwardKernel(HardshrinkBackwardTiling tiling, ElementwiseOperands<2> operands, float lambd) noexcept
        : tiling_(std::move(tiling)), operands_(operands), lambd_(lambd) {}

    const char* name() const noexcept override { return "aclnnHardshrinkBackward"; }
    aclError launch(const LaunchArgs& args) const noexcept override;
    void describe(std::string& details) const override {
        append_trace_arg(details, "blockDim", tiling_.elementwise.blocks.count());
    }

private:
    HardshrinkBackwardTiling tiling_;
    ElementwiseOperands<2> operands_;
    float lambd_;
};

}  // namespace aclcpu::ops
