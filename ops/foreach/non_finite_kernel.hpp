// acl-cpu: the kernel of aclnnForeachNonFiniteCheckAndUnscale (ops-nn
// foreach/foreach_non_finite_check_and_unscale): every element of the
// scaledGrads list multiplied in place by invScale (fp32, rounded into the
// list's dtype), and foundInf set to 1.0 when any element was Inf or NaN
// before (op_kernel/foreach_non_finite_check_and_unscale_n_d.h checks its
// input's max and min, then Muls).  One launch over the list's
// concatenation, tiled as the tensor-list engine tiles it.
#pragma once

#include "common/internal.hpp"

#include <cstdint>

#include "aclcpu/nnopbase.hpp"
#include "common/tensor_lists.hpp"

namespace aclcpu::ops {

/// Executor inputs: the list's tensors, then invScale; outputs: the list's
/// tensors (the same), then foundInf.  foundInf is written only when a
/// non-finite element is found.  Immutable; launch() may run concurrently.
class NonFiniteCheckKernel final : public TiledKernel {
public:
    /// operands: one input and one output list over the same tensors.
    /// The positions: invScale's and foundInf's element, from their data pointers.
    NonFiniteCheckKernel(const char* name, TensorListOperands operands, int64_t invScalePosition,
                         int64_t foundInfPosition);

    aclError launch(const LaunchArgs& args) const noexcept override;

private:
    /// Unscales the slice's elements; true when one was not finite.
    bool unscale_slice(const LaunchArgs& args, const BlockSlice& slice, float invScale) const noexcept;

    TensorListOperands operands_;
    int64_t invScalePosition_;
    int64_t foundInfPosition_;
};

}  // namespace aclcpu::ops
