// Fuzzes phase 1 (and, for small tensors, phase 2) of the row engine
// through every entry point of the norm family; the first byte picks the
// entry point (b % 3):
//   0 Softmax, 1 LogSoftmax: one + out (tests/fuzz/fuzz_elementwise.hpp), int dim
//   2 RmsNorm:  tensors x, gamma, real epsilon, tensors yOut, rstdOut
// where int is a byte (b % 32 - 10) or, for byte 255, a raw 8-byte word.
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_softmax.h"
#include "fuzz_elementwise.hpp"

namespace {

using aclcpu::fuzz::Decoder;

/// A small int, sometimes a wild one.
int64_t int_of(Decoder& in) {
    const uint8_t choice = in.byte();
    return choice == 255 ? static_cast<int64_t>(in.word()) : static_cast<int64_t>(choice % 32) - 10;
}

}  // namespace

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    using namespace elementwise;
    switch (in.byte() % 3) {
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
    }
}
