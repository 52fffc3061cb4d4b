// Fuzzes phase 1 (and, for small tensors, phase 2) of
// aclnnScaledMaskedSoftmaxBackward.
#include "aclnnop/aclnn_scaled_masked_softmax_backward.h"
#include "fuzz_support.hpp"

using namespace aclcpu::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Decoder in(data, size);
    OperatorCall call(in);
    const TensorSpec gradOutputSpec = in.tensor();
    const aclTensor* gradOutput = call.input(gradOutputSpec);
    const aclTensor* y = call.input(in.tensor());
    const aclTensor* mask = call.input(in.tensor());
    // CANN writes out in gradOutput's dtype, whatever out's own dtype is.
    aclTensor* out = call.output(in.tensor(), gradOutputSpec.dtype);
    const double scale = in.real();
    const bool fixTriuMask = in.rare();
    call.run("aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize", in,
             [&](uint64_t* workspaceSize, aclOpExecutor** executor) {
                 return aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(gradOutput, y, mask, scale, fixTriuMask, out,
                                                                         workspaceSize, executor);
             },
             aclnnScaledMaskedSoftmaxBackward);
    return 0;
}
