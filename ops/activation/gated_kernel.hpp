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

#include <string>

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

/// Inputs (activated half, other half) -> out.
void swiglu_block(const ElementwiseJob<2>& job, const BlockSlice& slice, const GateParams& params);
void geglu_block(const ElementwiseJob<2>& job, const BlockSlice& slice, const GateParams& params);
/// outGelu of approximate 0 (ComputeGeluErf); approximate 1 is gelu_tanh_block.
void geglu_erf_block(const ElementwiseJob<1>& job, const BlockSlice& slice, const NoParams& params);

using GateBlock = void (*)(const ElementwiseJob<2>&, const BlockSlice&, const GateParams&);
using GeluBlock = void (*)(const ElementwiseJob<1>&, const BlockSlice&, const NoParams&);

/// One launch of a gated activation: its executor's input 0 is x (read
/// twice, as the two halves of gate.inputs), output 0 out and, when
/// geluBlock is set, output 1 outGelu (gelu.inputs[0] is the activated half).
/// Immutable; launch() may run concurrently.
class GatedKernel final : public OpKernel {
public:
    GatedKernel(const char* name, ElementwiseTiling tiling, ElementwiseOperands<2> gate, GateBlock gateBlock,
                GateParams params, ElementwiseOperands<1> gelu, GeluBlock geluBlock) noexcept
        : name_(name), tiling_(tiling), gate_(gate), gateBlock_(gateBlock), params_(params), gelu_(gelu),
          geluBlock_(geluBlock) {}

    const char* name() const noexcept override { return name_; }
    aclError launch(const LaunchArgs& args) const noexcept override;
    void describe(std::string& details) const override {
        append_trace_arg(details, "blockDim", tiling_.blocks.count());
    }

private:
    const char* name_;
    ElementwiseTiling tiling_;
    ElementwiseOperands<2> gate_;
    GateBlock gateBlock_;
    GateParams params_;
    ElementwiseOperands<1> gelu_;
    GeluBlock geluBlock_;
};

}  // namespace aclcpu::ops
