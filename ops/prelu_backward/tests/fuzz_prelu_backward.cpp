// Fuzzes phase 1 (and, for small tensors, phase 2) of aclnnPreluBackward.
#include "aclnnop/aclnn_prelu_backward.h"
#include "fuzz_support.hpp"

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    const aclTensor* gradOutput = call.input(in.tensor());
    const aclTensor* self = call.input(in.tensor());
    const aclTensor* weight = call.input(in.tensor());
    aclTensor* gradInput = call.output(in.tensor());
    aclTensor* gradWeight = call.output(in.tensor());
    call.run(ACLCPU_FUZZ_API(aclnnPreluBackward), in, gradOutput, self, weight, gradInput, gradWeight);
}
