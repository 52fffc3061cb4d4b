// acl-cpu: the gated activations of the activation family (SwiGlu, GeGlu,
// GeGluV3): x split in two halves along `dim`, read as two strided views of
// the one input, out = act(one half) * the other half -- a two-input
// elementwise kernel -- and, for GeGlu, outGelu = act(the activated half),
// a one-input kernel run by the same launch into the second output.
//
// The formulas are the A2 kernels' (hicann/ops-nn activation/swi_glu/
// op_kernel/swi_glu_impl.hpp and swi_glu_bf16.hpp with swi_glu_single.hpp's
// beta = -1; activation/ge_glu_v2/op_kernel/ge_glu_v2_base.h,
// ComputeGeluBase and ComputeGeluErf, and the per-dtype tanh/ and erf/
// kernels), each step in fp32 as written there.
#pragma once

#include "common/internal.hpp"


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
/// (ComputeGeluErf), approximate 1's is gelu_tanh_block.
#define ACLCPU_GATED_BLOCKS(X)                   \
    X(swiglu_block, 2, GateParams, SwiGluVector) \
    X(geglu_block, 2, GateParams, GeGluVector)   \
    X(geglu_erf_block, 1, NoParams, GeGluErfVector)
ACLCPU_GATED_BLOCKS(ACLCPU_DECLARE_ELEMENTWISE_BLOCK)

using GateBlock = void (*)(const ElementwiseJob<2>&, const BlockSlice&, const GateParams&);
using GeluBlock = void (*)(const ElementwiseJob<1>&, const BlockSlice&, const NoParams&);

/// One launch of a gated activation: its executor's input 0 is x (read
/// twice, as the two halves of gate.inputs), output 0 out and, when
/// geluBlock is set, output 1 outGelu (gelu.inputs[0] is the activated half).
/// Immutable; launch() may run concurrently.
class GatedKernel final : public TiledKernel {
public:
    GatedKernel(const char* name, ElementwiseTiling tiling, ElementwiseOperands<2> gate, GateBlock gateBlock,
                GateParams params, ElementwiseOperands<1> gelu, GeluBlock geluBlock) noexcept
        : TiledKernel(name, tiling), gate_(gate), gateBlock_(gateBlock), params_(params), gelu_(gelu),
          geluBlock_(geluBlock) {}

    aclError launch(const LaunchArgs& args) const noexcept override;

private:
    ElementwiseOperands<2> gate_;
    GateBlock gateBlock_;
    GateParams params_;
    ElementwiseOperands<1> gelu_;
    GeluBlock geluBlock_;
};

}  // namespace aclcpu::ops
