// acl-cpu: the gated activations of the activation family (SwiGlu, GeGlu,
// GeGluV3) and SwiGlu's gradient (SwiGluGrad): x split in two halves along
// `dim`, read as two strided views of the one input.  Each is one launch of
// at most two elementwise passes over the executor's inputs:
//   SwiGlu, GeGlu: out = act(one half) * the other half, and for GeGlu
//     outGelu = act(the activated half);
//   SwiGluGrad: the lower half of out from (A, B, yGrad), then its upper half.
//
// The formulas are the A2 kernels' (hicann/ops-nn activation/swi_glu/
// op_kernel/swi_glu_impl.hpp and swi_glu_bf16.hpp with swi_glu_single.hpp's
// beta = -1; activation/swi_glu_grad/op_kernel/swi_glu_grad_float.hpp, whose
// bf16/fp16 kernels cast to fp32 and run the same steps;
// activation/ge_glu_v2/op_kernel/ge_glu_v2_base.h, ComputeGeluBase and
// ComputeGeluErf, and the per-dtype tanh/ and erf/ kernels), each step in
// fp32 as written there.
#pragma once

#include "common/internal.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

#include "aclcpu/nnopbase.hpp"
#include "common/elementwise.hpp"
#include "common/unary.hpp"

namespace aclcpu::ops {

/// How a gate kernel computes, from the dtype and the operator's attributes.
struct GateParams {
    /// SwiGlu of FLOAT: (1 / (1 + e^-a)) * a (swi_glu_impl.hpp: Div of 1,
    /// then Mul); FLOAT16 and BF16: a / (1 + e^-a) (swi_glu_bf16.hpp).
    bool sigmoidThenMultiply = false;
    /// GeGlu's approximate 0: ComputeGeluErf's form; 1: ComputeGeluBase's tanh form.
    bool erf = false;
    /// GeGlu of FLOAT16 rounds Gelu to FLOAT16 before its Mul (the tanh/ and
    /// erf/ fp16 kernels multiply the rounded gelu_out); BF16 and FLOAT do not.
    bool roundGeluToHalf = false;
};

/// The gates' blocks (see ACLCPU_DECLARE_ELEMENTWISE_BLOCK), compiled in
/// activation_kernel.cpp: swiglu and geglu take inputs (activated half,
/// other half) -> out; geglu_erf is outGelu of approximate 0
/// (ComputeGeluErf), approximate 1's is gelu_tanh_block; swiglu_grad_a and
/// swiglu_grad_b take (A, B, yGrad) -> the gradient of A, of B.
#define ACLCPU_GATED_BLOCKS(X)                          \
    X(swiglu_block, 2, GateParams, SwiGluVector)        \
    X(geglu_block, 2, GateParams, GeGluVector)          \
    X(geglu_erf_block, 1, NoParams, GeGluErfVector)     \
    X(swiglu_grad_a_block, 3, NoParams, SwiGluGradAVector) \
    X(swiglu_grad_b_block, 3, NoParams, SwiGluGradBVector)
ACLCPU_GATED_BLOCKS(ACLCPU_DECLARE_ELEMENTWISE_BLOCK)

/// One pass of a gated kernel: block over the executor's inputs
/// inputSlots (x's slot twice when both halves are read) into its output
/// outputSlot, through operands' layouts.  A null block is no pass.
template <size_t N, class Params>
struct GatedPass {
    ElementwiseOperands<N> operands;
    void (*block)(const ElementwiseJob<N>&, const BlockSlice&, const Params&) = nullptr;
    Params params{};
    std::array<uint8_t, N> inputSlots{};
    uint8_t outputSlot = 0;
};

using GateBlock = void (*)(const ElementwiseJob<2>&, const BlockSlice&, const GateParams&);
using GeluBlock = void (*)(const ElementwiseJob<1>&, const BlockSlice&, const NoParams&);

template <size_t N, class Params>
aclError run_gated_pass(const char* name, const ElementwiseTiling& tiling, const GatedPass<N, Params>& pass,
                        const LaunchArgs& args) noexcept {
    if (pass.block == nullptr) return ACL_SUCCESS;
    std::array<const void*, N> inputs{};
    for (size_t i = 0; i < N; ++i) inputs[i] = args.inputs[pass.inputSlots[i]];
    void* const out[1] = {args.outputs[pass.outputSlot]};
    const LaunchArgs passArgs{inputs.data(), out, args.workspace, args.workspaceSize};
    const ElementwiseJob<N> job{tiling, pass.operands, passArgs,
                                UbStaging::per_worker(elementwise_staging_bytes(N, tiling.chunkElements)),
                                pass.operands.streamed_dtype()};
    return run_elementwise(name, job, [&pass](const ElementwiseJob<N>& j, const BlockSlice& slice) {
        pass.block(j, slice, pass.params);
    });
}

/// One launch of a gated activation or its gradient: the first pass, then
/// the second, over the same tiling (the first pass's output elements).
/// Immutable; launch() may run concurrently.
template <size_t N1, class P1, size_t N2, class P2>
class GatedKernel final : public TiledKernel {
public:
    GatedKernel(const char* name, ElementwiseTiling tiling, GatedPass<N1, P1> first, GatedPass<N2, P2> second) noexcept
        : TiledKernel(name, tiling), first_(first), second_(second) {}

    aclError launch(const LaunchArgs& args) const noexcept override {
        const aclError status = run_gated_pass(name_, tiling_, first_, args);
        return status != ACL_SUCCESS ? status : run_gated_pass(name_, tiling_, second_, args);
    }

private:
    GatedPass<N1, P1> first_;
    GatedPass<N2, P2> second_;
};

}  // namespace aclcpu::ops
