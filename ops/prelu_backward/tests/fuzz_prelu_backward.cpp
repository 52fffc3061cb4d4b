// Fuzzes phase 1 (and, for small tensors, phase 2) of aclnnPreluBackward.
#include "aclnnop/aclnn_prelu_backward.h"
#include "fuzz_support.hpp"

using namespace aclcpu::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Decoder in(data, size);
    OperatorCall call(in);
    const aclTensor* gradOutput = call.input(in.tensor());
    const aclTensor* self = call.input(in.tensor());
    const aclTensor* weight = call.input(in.tensor());
    aclTensor* gradInput = call.output(in.tensor());
    aclTensor* gradWeight = call.output(in.tensor());
    call.run("aclnnPreluBackwardGetWorkspaceSize", in,
             [&](uint64_t* workspaceSize, aclOpExecutor** executor) {
                 return aclnnPreluBackwardGetWorkspaceSize(gradOutput, self, weight, gradInput, gradWeight,
                                                           workspaceSize, executor);
             },
             aclnnPreluBackward);
    return 0;
}
