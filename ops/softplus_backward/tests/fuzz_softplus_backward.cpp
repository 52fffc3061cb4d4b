// Fuzzes phase 1 (and, for small tensors, phase 2) of aclnnSoftplusBackward.
#include "aclnnop/aclnn_softplus_backward.h"
#include "fuzz_support.hpp"

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    const aclTensor* gradOutput = call.input(in.tensor());
    const aclTensor* self = call.input(in.tensor());
    aclTensor* gradInput = call.output(in.tensor());
    const Scalar beta(in.scalar());
    const Scalar threshold(in.scalar());
    call.run(ACLCPU_FUZZ_API(aclnnSoftplusBackward), in, gradOutput, self, beta.get(), threshold.get(), gradInput);
}
