// Fuzzes phase 1 (and, for small tensors, phase 2) of
// aclnnScaledMaskedSoftmaxBackward.
#include "aclnnop/aclnn_scaled_masked_softmax_backward.h"
#include "fuzz_support.hpp"

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    const TensorSpec gradOutputSpec = in.tensor();
    const aclTensor* gradOutput = call.input(gradOutputSpec);
    const aclTensor* y = call.input(in.tensor());
    const aclTensor* mask = call.input(in.tensor());
    // CANN writes out in gradOutput's dtype, whatever out's own dtype is.
    aclTensor* out = call.output(in.tensor(), gradOutputSpec.dtype);
    const double scale = in.real();
    const bool fixTriuMask = in.rare();
    call.run(ACLCPU_FUZZ_API(aclnnScaledMaskedSoftmaxBackward), in, gradOutput, y, mask, scale, fixTriuMask, out);
}
