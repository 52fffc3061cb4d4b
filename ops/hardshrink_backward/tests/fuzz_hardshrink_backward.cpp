// Fuzzes phase 1 (and, for small tensors, phase 2) of aclnnHardshrinkBackward.
#include "aclnnop/aclnn_hardshrink_backward.h"
#include "fuzz_support.hpp"

using namespace aclcpu::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Decoder in(data, size);
    OperatorCall call(in);
    const aclTensor* gradOutput = call.input(in.tensor());
    const aclTensor* self = call.input(in.tensor());
    aclTensor* gradInput = call.output(in.tensor());
    const Scalar lambd(in.scalar());
    call.run("aclnnHardshrinkBackwardGetWorkspaceSize", in,
             [&](uint64_t* workspaceSize, aclOpExecutor** executor) {
                 return aclnnHardshrinkBackwardGetWorkspaceSize(gradOutput, self, lambd.get(), gradInput,
                                                                workspaceSize, executor);
             },
             aclnnHardshrinkBackward);
    return 0;
}
