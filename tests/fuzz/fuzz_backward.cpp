// Fuzzes phase 1 (and, for small tensors, phase 2) of libopapi_nn's five
// backward operators: HardshrinkBackward, LogitGrad, SoftplusBackward,
// PreluBackward and ScaledMaskedSoftmaxBackward.  One target for them all,
// the first byte after the OperatorCall's picking the entry point (kEntries'
// order; tests/fuzz/make_seeds.py's BACKWARD_ENTRIES encodes the same),
// then that operator's arguments in the order of its signature.
//
// It lives here rather than in one of the five folders: it spans five
// operators of which none owns it, and they share no engine whose folder
// would (each runs its own kernel through hand_back_kernel).
#include <iterator>

#include "aclnnop/aclnn_hardshrink_backward.h"
#include "aclnnop/aclnn_logit_grad.h"
#include "aclnnop/aclnn_prelu_backward.h"
#include "aclnnop/aclnn_scaled_masked_softmax_backward.h"
#include "aclnnop/aclnn_softplus_backward.h"
#include "fuzz_support.hpp"

namespace aclcpu::fuzz {
namespace {

void hardshrink_backward(Decoder& in, OperatorCall& call) {
    const aclTensor* gradOutput = call.input(in.tensor());
    const aclTensor* self = call.input(in.tensor());
    aclTensor* gradInput = call.output(in.tensor());
    const Scalar lambd(in.scalar());
    call.run(ACLCPU_FUZZ_API(aclnnHardshrinkBackward), in, gradOutput, self, lambd.get(), gradInput);
}

void logit_grad(Decoder& in, OperatorCall& call) {
    const aclTensor* x = call.input(in.tensor());
    const aclTensor* dy = call.input(in.tensor());
    aclTensor* out = call.output(in.tensor());
    const double eps = in.real();
    call.run(ACLCPU_FUZZ_API(aclnnLogitGrad), in, x, dy, eps, out);
}

void softplus_backward(Decoder& in, OperatorCall& call) {
    const aclTensor* gradOutput = call.input(in.tensor());
    const aclTensor* self = call.input(in.tensor());
    aclTensor* gradInput = call.output(in.tensor());
    const Scalar beta(in.scalar());
    const Scalar threshold(in.scalar());
    call.run(ACLCPU_FUZZ_API(aclnnSoftplusBackward), in, gradOutput, self, beta.get(), threshold.get(), gradInput);
}

void prelu_backward(Decoder& in, OperatorCall& call) {
    const aclTensor* gradOutput = call.input(in.tensor());
    const aclTensor* self = call.input(in.tensor());
    const aclTensor* weight = call.input(in.tensor());
    aclTensor* gradInput = call.output(in.tensor());
    aclTensor* gradWeight = call.output(in.tensor());
    call.run(ACLCPU_FUZZ_API(aclnnPreluBackward), in, gradOutput, self, weight, gradInput, gradWeight);
}

void scaled_masked_softmax_backward(Decoder& in, OperatorCall& call) {
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

using Entry = void (*)(Decoder& in, OperatorCall& call);
constexpr Entry kEntries[] = {hardshrink_backward, logit_grad, softplus_backward, prelu_backward,
                              scaled_masked_softmax_backward};

}  // namespace

void fuzz_operator(Decoder& in, OperatorCall& call) { kEntries[in.byte() % std::size(kEntries)](in, call); }

}  // namespace aclcpu::fuzz
