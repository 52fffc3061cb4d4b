// acl-cpu: the launch of a gated activation (gated_kernel.hpp); its vector
// blocks are compiled with the family's others in activation_kernel.cpp.
#include "activation/gated_kernel.hpp"

namespace aclcpu::ops {

aclError GatedKernel::launch(const LaunchArgs& args) const noexcept {
    // The gate reads x twice, one half through each of its two layouts.
    const void* const halves[2] = {args.inputs[0], args.inputs[0]};
    void* const out[1] = {args.outputs[0]};
    const LaunchArgs gateArgs{halves, out, args.workspace, args.workspaceSize};
    const int64_t chunk = tiling_.chunkElements;
    const ElementwiseJob<2> gateJob{tiling_, gate_, gateArgs,
                                    UbStaging::per_worker(elementwise_staging_bytes(2, chunk)),
                                    gate_.streamed_dtype()};
    const aclError status = run_elementwise(name_, gateJob, [this](const ElementwiseJob<2>& job,
                                                                   const BlockSlice& slice) {
        gateBlock_(job, slice, params_);
    });
    if (status != ACL_SUCCESS || geluBlock_ == nullptr) return status;
    void* const outGelu[1] = {args.outputs[1]};
    const LaunchArgs geluArgs{args.inputs, outGelu, args.workspace, args.workspaceSize};
    const ElementwiseJob<1> geluJob{tiling_, gelu_, geluArgs,
                                    UbStaging::per_worker(elementwise_staging_bytes(1, chunk)),
                                    gelu_.streamed_dtype()};
    return run_elementwise(name_, geluJob, [this](const ElementwiseJob<1>& job, const BlockSlice& slice) {
        geluBlock_(job, slice, NoParams{});
    });
}

}  // namespace aclcpu::ops
