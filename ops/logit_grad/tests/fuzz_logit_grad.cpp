// Fuzzes phase 1 (and, for small tensors, phase 2) of aclnnLogitGrad.
#include "aclnnop/aclnn_logit_grad.h"
#include "fuzz_support.hpp"

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    const aclTensor* x = call.input(in.tensor());
    const aclTensor* dy = call.input(in.tensor());
    aclTensor* out = call.output(in.tensor());
    const double eps = in.real();
    call.run(ACLCPU_FUZZ_API(aclnnLogitGrad), in, x, dy, eps, out);
}
