// acl-cpu: the PreluBackward kernel (aclnnPreluBackward).
#pragma once

#include "common/internal.hpp"

#include "aclcpu/nnopbase.hpp"
#include "common/block_launch.hpp"
#include "common/strided_layout.hpp"
#include "prelu_backward/prelu_backward_tiling.hpp"

namespace aclcpu::ops {

/// The layouts of PreluBackward's operands: gradOutput read over self's
/// shape (broadcast), weight and gradWeight over their own shapes.
struct PreluBackwardOperands {
    StridedLayout gradOutput;
    StridedLayout self;
    StridedLayout weight;
    StridedLayout gradInput;
    StridedLayout gradWeight;
};

/// One launch's update phase (the weight is already fp32 in the workspace).
using PreluUpdateJob = KernelJob<PreluBackwardTiling, PreluBackwardOperands>;

/// PReluGradUpdate then PReluGradReduce, with w = weight[channel]:
///   gradInput = self > 0 ? gradOutput : w * gradOutput   (NaN self: w * gradOutput)
///   update    = self > 0 ? 0 : self * gradOutput, rounded to self's dtype
///               (PReluGradUpdate's output tensor has that dtype)
///   gradWeight[c] = the fp32 sum of update over channel c, rounded to the dtype.
/// Operands: inputs {gradOutput, self, weight}, outputs {gradInput,
/// gradWeight}.  The workspace holds weight in fp32, the update blocks'
/// partial sums and their UB staging (see PreluBackwardTiling).
class PreluBackwardKernel final : public OpKernel {
public:
    PreluBackwardKernel(PreluBackwardTiling tiling, PreluBackwardOperands operands) noexcept
        : tiling_(std::move(tiling)), operands_(operands) {}

    const char* name() const noexcept override { return "aclnnPreluBackward"; }
    aclError launch(const LaunchArgs& args) const noexcept override;
    /// Two launches: the update blocks, then the reduce blocks.
    void describe(std::string& details) const override {
        append_trace_arg(details, "blockDim", tiling_.updateBlocks.count());
        append_trace_arg(details, "reduceBlockDim", tiling_.reduceBlocks.count());
    }

private:
    aclError update(const LaunchArgs& args) const noexcept;
    aclError reduce(const LaunchArgs& args) const noexcept;

    PreluBackwardTiling tiling_;
    PreluBackwardOperands operands_;
};

}  // namespace aclcpu::ops
