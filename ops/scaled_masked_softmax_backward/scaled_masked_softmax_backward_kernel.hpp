// acl-cpu: the ScaledMaskedSoftmaxGradV2 kernel (aclnnScaledMaskedSoftmaxBackward).
#pragma once

#include "common/internal.hpp"

#include "aclcpu/nnopbase.hpp"
#include "common/block_launch.hpp"
#include "common/strided_layout.hpp"
#include "scaled_masked_softmax_backward/scaled_masked_softmax_backward_tiling.hpp"

namespace aclcpu::ops {

/// The layouts of the operands over [B, N, S1, S2]: the mask broadcast on
/// dims 0-1, out with gradOutput's dtype (CANN overwrites out's dtype).
struct SoftmaxBackwardOperands {
    StridedLayout gradOutput;
    StridedLayout y;
    StridedLayout mask;
    StridedLayout out;

    /// Whether every operand's rows of `length` elements are contiguous, so
    /// that rows are computed in place rather than staged.
    bool rows_contiguous(int64_t length) const noexcept {
        return gradOutput.has_contiguous_runs_of(length) && y.has_contiguous_runs_of(length) &&
               mask.has_contiguous_runs_of(length) && out.has_contiguous_runs_of(length);
    }
};

/// Per row of S2, all in fp32 as the A2 kernel computes it:
///   p = gradOutput * y;  s = sum(p) in the kernel's order (RowReduction);
///   out = p - y * s;  out *= scale unless scale == 1;  out = mask ? 0 : out,
/// then rounded to the dtype (nearest even).  Masked positions are exactly 0
/// whatever the inputs.  Operands: inputs {gradOutput, y, mask}, output out.
/// Rows whose operands are all contiguous are computed straight from device
/// memory, the blocks cut into slices of rows (launch_block_slices); the
/// others are staged, a row at a time, in the block's slot of the system
/// workspace, the blocks whole.
class ScaledMaskedSoftmaxBackwardKernel final
    : public TiledKernelOf<ScaledMaskedSoftmaxBackwardTiling, SoftmaxBackwardOperands> {
public:
    using TiledKernelOf::TiledKernelOf;
    aclError launch(const LaunchArgs& args) const noexcept override;
};

}  // namespace aclcpu::ops
