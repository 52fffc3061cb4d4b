// Fuzzes phase 1 (and, for small tensors, phase 2) of the row engine
// through every entry point of the norm family; the first byte picks the
// entry point (b % 4):
//   0 Softmax, 1 LogSoftmax: one + out (tests/fuzz/fuzz_elementwise.hpp), int dim
//   2 RmsNorm:  tensors x, gamma, real epsilon, tensors yOut, rstdOut
//   3 LayerNormWithImplMode: tensor input, ints normalizedShape, tensors
//               weight, bias, real eps, tensors out, mean, rstd, int implMode
// where int is a byte (b % 32 - 10) or, for byte 255, a raw 8-byte word,
// ints a count byte (%10) and that many ints, then rare(): a null array, and
// a tensor of LayerNorm may be null (the Decoder's null tensor).

#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_softmax.h"
#include "fuzz_elementwise.hpp"

namespace {

using aclcpu::fuzz::Decoder;
using aclcpu::fuzz::int_of;
using aclcpu::fuzz::Ints;

void fuzz_layer_norm(Decoder& in, aclcpu::fuzz::OperatorCall& call) {
    const aclTensor* input = call.input(in.tensor());
    const Ints normalized(in);
    const aclTensor* weight = call.input(in.tensor());
    const aclTensor* bias = call.input(in.tensor());
    const double eps = in.real();
    aclTensor* out = call.output(in.tensor());
    aclTensor* mean = call.output(in.tensor());
    aclTensor* rstd = call.output(in.tensor());
    const auto implMode = static_cast<int32_t>(int_of(in));
    call.run(ACLCPU_FUZZ_API(aclnnLayerNormWithImplMode), in, input, normalized.get(), weight, bias, eps, out, mean,
             rstd, implMode);
}

}  // namespace

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    using namespace elementwise;
    switch (in.byte() % 4) {
        case 0: {
            const Tensors t = one_and_out(in, call);
            call.run(ACLCPU_FUZZ_API(aclnnSoftmax), in, t.self, int_of(in), t.out);
            break;
        }
        case 1: {
            const Tensors t = one_and_out(in, call);
            call.run(ACLCPU_FUZZ_API(aclnnLogSoftmax), in, t.self, int_of(in), t.out);
            break;
        }
        case 2: {
            const aclTensor* x = call.input(in.tensor());
            const aclTensor* gamma = call.input(in.tensor());
            const double epsilon = in.real();
            const aclTensor* y = call.output(in.tensor());
            const aclTensor* rstd = call.output(in.tensor());
            call.run(ACLCPU_FUZZ_API(aclnnRmsNorm), in, x, gamma, epsilon, y, rstd);
            break;
        }
        case 3: fuzz_layer_norm(in, call); break;
    }
}
