// Fuzzes phase 1 (and, for small tensors, phase 2) of the row engine
// through every entry point of the norm family, and TriangularSolve (a
// per-matrix kernel beside it); the first byte picks the entry point (b % 8):
//   0 Softmax, 1 LogSoftmax: one + out (tests/fuzz/fuzz_elementwise.hpp), int dim
//   2 RmsNorm:  tensors x, gamma, real epsilon, tensors yOut, rstdOut
//   3 LayerNormWithImplMode: tensor input, ints normalizedShape, tensors
//               weight, bias, real eps, tensors out, mean, rstd, int implMode
//   4 AddRmsNorm: tensors x1, x2, gamma, real epsilon, tensors yOut, rstdOut, xOut
//   5 GroupNorm: tensors self, gamma, beta, ints N, C, HxW, group, real eps,
//               tensors out, meanOut, rstdOut
//   6 SoftmaxCrossEntropyWithLogits: tensors features, labels, loss, backprop
//   7 TriangularSolve: tensors self, A, bits upper, transpose, unitriangular,
//               tensors xOut, mOut
// where int is a byte (b % 32 - 10) or, for byte 255, a raw 8-byte word,
// ints a count byte (%10) and that many ints, then rare(): a null array, and
// any tensor may be null (the Decoder's null tensor).

#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_softmax_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_triangular_solve.h"
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

void fuzz_add_rms_norm(Decoder& in, aclcpu::fuzz::OperatorCall& call) {
    const aclTensor* x1 = call.input(in.tensor());
    const aclTensor* x2 = call.input(in.tensor());
    const aclTensor* gamma = call.input(in.tensor());
    const double epsilon = in.real();
    aclTensor* y = call.output(in.tensor());
    aclTensor* rstd = call.output(in.tensor());
    aclTensor* xOut = call.output(in.tensor());
    call.run(ACLCPU_FUZZ_API(aclnnAddRmsNorm), in, x1, x2, gamma, epsilon, y, rstd, xOut);
}

void fuzz_group_norm(Decoder& in, aclcpu::fuzz::OperatorCall& call) {
    const aclTensor* self = call.input(in.tensor());
    const aclTensor* gamma = call.input(in.tensor());
    const aclTensor* beta = call.input(in.tensor());
    const int64_t n = int_of(in);
    const int64_t c = int_of(in);
    const int64_t hxw = int_of(in);
    const int64_t group = int_of(in);
    const double eps = in.real();
    aclTensor* out = call.output(in.tensor());
    aclTensor* mean = call.output(in.tensor());
    aclTensor* rstd = call.output(in.tensor());
    call.run(ACLCPU_FUZZ_API(aclnnGroupNorm), in, self, gamma, beta, n, c, hxw, group, eps, out, mean, rstd);
}

void fuzz_cross_entropy(Decoder& in, aclcpu::fuzz::OperatorCall& call) {
    const aclTensor* features = call.input(in.tensor());
    // Declared non-const, read only.
    auto* labels = const_cast<aclTensor*>(call.input(in.tensor()));
    aclTensor* loss = call.output(in.tensor());
    aclTensor* backprop = call.output(in.tensor());
    call.run(ACLCPU_FUZZ_API(aclnnSoftmaxCrossEntropyWithLogits), in, features, labels, loss, backprop);
}

void fuzz_triangular_solve(Decoder& in, aclcpu::fuzz::OperatorCall& call) {
    const aclTensor* self = call.input(in.tensor());
    const aclTensor* a = call.input(in.tensor());
    const bool upper = in.bit();
    const bool transpose = in.bit();
    const bool unitriangular = in.bit();
    aclTensor* xOut = call.output(in.tensor());
    aclTensor* mOut = call.output(in.tensor());
    call.run(ACLCPU_FUZZ_API(aclnnTriangularSolve), in, self, a, upper, transpose, unitriangular, xOut, mOut);
}

}  // namespace

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    using namespace elementwise;
    switch (in.byte() % 8) {
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
        case 4: fuzz_add_rms_norm(in, call); break;
        case 5: fuzz_group_norm(in, call); break;
        case 6: fuzz_cross_entropy(in, call); break;
        case 7: fuzz_triangular_solve(in, call); break;
    }
}
