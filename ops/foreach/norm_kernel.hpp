// acl-cpu: the kernel of aclnnForeachNorm (ops-nn foreach/foreach_norm):
// out[i] = the norm of x[i], in one launch over the list's concatenation.
// The A2 kernel (op_kernel/foreach_norm.cpp) knows two norms: int(p) == 1
// gives sum |x|, every other p the Euclidean sqrt(sum x^2).
//
// Blocks split the total element count as the tensor-list engine tiles it
// and each block adds, per tensor it touches, its elements into one fp32
// partial sum in the workspace (a row of T per block); after the last block
// the launch adds each tensor's partials in block order and stores the
// norm.  The tiling depends on the sizes only, so any worker count gives the
// same bits.
#pragma once

#include "common/internal.hpp"

#include <cstdint>
#include <vector>

#include "aclcpu/nnopbase.hpp"
#include "common/strided_layout.hpp"
#include "common/tensor_lists.hpp"

namespace aclcpu::ops {

/// Executor inputs: the x list's non-empty tensors; outputs: every out
/// tensor, one per x tensor (empty ones included: their norm is 0).
/// Immutable; launch() may run concurrently.
class ForeachNormKernel final : public TiledKernel {
public:
    /// inputs: one input list over x's non-empty tensors; outs: out's
    /// layouts; xIndex[t]: the x tensor input tensor t is (its out).
    ForeachNormKernel(const char* name, TensorListOperands inputs, std::vector<StridedLayout> outs,
                      std::vector<int64_t> xIndex, bool taxicab);

    /// The workspace a launch over inputs needs: one fp32 partial per block
    /// and tensor.
    static int64_t workspace_bytes(const TensorListOperands& inputs);

    aclError launch(const LaunchArgs& args) const noexcept override;

private:
    /// Block b's partial sums of |x| (taxicab) or x^2, one per tensor, into row b of partials.
    void sum_block(const LaunchArgs& args, int64_t b, float* partials) const noexcept;

    TensorListOperands inputs_;
    std::vector<StridedLayout> outs_;
    std::vector<int64_t> xIndex_;
    bool taxicab_;
};

}  // namespace aclcpu::ops
