// Fuzzes phase 1 (and, for small tensors, phase 2) of aclnnSoftplusBackward.
#include "aclnnop/aclnn_softplus_backward.h"
#include "fuzz_support.hpp"

using namespace aclcpu::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Decoder in(data, size);
    OperatorCall call(in);
    const aclTensor* gradOutput = call.input(in.tensor());
    const aclTensor* self = call.input(in.tensor());
    aclTensor* gradInput = call.output(in.tensor());
    const Scalar beta(in.scalar());
    const Scalar threshold(in.scalar());
    call.run("aclnnSoftplusBackwardGetWorkspaceSize", in,
             [&](uint64_t* workspaceSize, aclOpExecutor** executor) {
                 return aclnnSoftplusBackwardGetWorkspaceSize(gradOutput, self, beta.get(), threshold.get(), gradInput,
                                                              workspaceSize, executor);
             },
             aclnnSoftplusBackward);
    return 0;
}
