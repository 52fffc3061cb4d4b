// Fuzzes phase 1 (and, for small tensors, phase 2) of aclnnLogitGrad.
#include "aclnnop/aclnn_logit_grad.h"
#include "fuzz_support.hpp"

using namespace aclcpu::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Decoder in(data, size);
    OperatorCall call(in);
    const aclTensor* x = call.input(in.tensor());
    const aclTensor* dy = call.input(in.tensor());
    aclTensor* out = call.output(in.tensor());
    const double eps = in.real();
    call.run("aclnnLogitGradGetWorkspaceSize", in,
             [&](uint64_t* workspaceSize, aclOpExecutor** executor) {
                 return aclnnLogitGradGetWorkspaceSize(x, dy, eps, out, workspaceSize, executor);
             },
             aclnnLogitGrad);
    return 0;
}
