// Fuzzes phase 1 (and, for small tensors, phase 2) of aclnnHardshrinkBackward.
#include "aclnnop/aclnn_hardshrink_backward.h"
#include "fuzz_support.hpp"

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    const aclTensor* gradOutput = call.input(in.tensor());
    const aclTensor* self = call.input(in.tensor());
    aclTensor* gradInput = call.output(in.tensor());
    const Scalar lambd(in.scalar());
    call.run(ACLCPU_FUZZ_API(aclnnHardshrinkBackward), in, gradOutput, self, lambd.get(), gradInput);
}
