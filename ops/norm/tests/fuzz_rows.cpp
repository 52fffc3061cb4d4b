// Fuzzes phase 1 (and, for small tensors, phase 2) of the row engine
// through every entry point of the norm family, and TriangularSolve (a
// per-matrix kernel beside it), and ops/norm_grad's backward norms; the
// first byte picks the entry point (b % 12):
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
//   8 SoftmaxBackward, 9 LogSoftmaxBackward: gradOutput, output + out
//               (pair_and_out: out may be either input), int dim
//   10 LayerNormBackward: tensors gradOut, input, ints normalizedShape,
//               tensors mean, rstd, weight, bias, bools outputMask, tensors
//               gradInput, gradWeight, gradBias
//   11 RmsNormGrad: tensors dy, x, rstd, gamma, dxOut, dgammaOut
// where int is a byte (b % 32 - 10) or, for byte 255, a raw 8-byte word,
// ints a count byte (%10) and that many ints, then rare(): a null array, bools
// a count byte (%5) and that many bits, then rare(): a null array, and
// any tensor may be null (the Decoder's null tensor).

#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_layer_norm_backward.h"
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_logsoftmax_backward.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_rms_norm_grad.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_softmax_backward.h"
#include "aclnnop/aclnn_softmax_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_triangular_solve.h"
#include "fuzz_elementwise.hpp"

namespace {

using aclcpu::fuzz::Decoder;
using aclcpu::fuzz::int_of;
using aclcpu::fuzz::Ints;
using aclcpu::fuzz::elementwise::one_and_out;
using aclcpu::fuzz::elementwise::pair_and_out;
using aclcpu::fuzz::elementwise::Tensors;

/// Softmax or LogSoftmax: one + out, int dim.
void fuzz_softmax(Decoder& in, aclcpu::fuzz::OperatorCall& call, bool log) {
    const Tensors t = one_and_out(in, call);
    const int64_t dim = int_of(in);
    if (log) call.run(ACLCPU_FUZZ_API(aclnnLogSoftmax), in, t.self, dim, t.out);
    else call.run(ACLCPU_FUZZ_API(aclnnSoftmax), in, t.self, dim, t.out);
}

/// SoftmaxBackward or LogSoftmaxBackward: gradOutput, output + out, int dim.
void fuzz_softmax_backward(Decoder& in, aclcpu::fuzz::OperatorCall& call, bool log) {
    const Tensors t = pair_and_out(in, call);
    const int64_t dim = int_of(in);
    if (log) call.run(ACLCPU_FUZZ_API(aclnnLogSoftmaxBackward), in, t.self, t.other, dim, t.out);
    else call.run(ACLCPU_FUZZ_API(aclnnSoftmaxBackward), in, t.self, t.other, dim, t.out);
}

void fuzz_rms_norm(Decoder& in, aclcpu::fuzz::OperatorCall& call) {
    const auto [x, gamma] = call.inputs<2>(in);
    const double epsilon = in.real();
    const auto [y, rstd] = call.outputs<2>(in);
    call.run(ACLCPU_FUZZ_API(aclnnRmsNorm), in, x, gamma, epsilon, y, rstd);
}

void fuzz_layer_norm(Decoder& in, aclcpu::fuzz::OperatorCall& call) {
    const aclTensor* input = call.input(in.tensor());
    const Ints normalized(in);
    const auto [weight, bias] = call.inputs<2>(in);
    const double eps = in.real();
    const auto [out, mean, rstd] = call.outputs<3>(in);
    const auto implMode = static_cast<int32_t>(int_of(in));
    call.run(ACLCPU_FUZZ_API(aclnnLayerNormWithImplMode), in, input, normalized.get(), weight, bias, eps, out, mean,
             rstd, implMode);
}

void fuzz_add_rms_norm(Decoder& in, aclcpu::fuzz::OperatorCall& call) {
    const auto [x1, x2, gamma] = call.inputs<3>(in);
    const double epsilon = in.real();
    const auto [y, rstd, xOut] = call.outputs<3>(in);
    call.run(ACLCPU_FUZZ_API(aclnnAddRmsNorm), in, x1, x2, gamma, epsilon, y, rstd, xOut);
}

void fuzz_group_norm(Decoder& in, aclcpu::fuzz::OperatorCall& call) {
    const auto [self, gamma, beta] = call.inputs<3>(in);
    const int64_t n = int_of(in);
    const int64_t c = int_of(in);
    const int64_t hxw = int_of(in);
    const int64_t group = int_of(in);
    const double eps = in.real();
    const auto [out, mean, rstd] = call.outputs<3>(in);
    call.run(ACLCPU_FUZZ_API(aclnnGroupNorm), in, self, gamma, beta, n, c, hxw, group, eps, out, mean, rstd);
}

void fuzz_cross_entropy(Decoder& in, aclcpu::fuzz::OperatorCall& call) {
    const aclTensor* features = call.input(in.tensor());
    // Declared non-const, read only.
    auto* labels = const_cast<aclTensor*>(call.input(in.tensor()));
    const auto [loss, backprop] = call.outputs<2>(in);
    call.run(ACLCPU_FUZZ_API(aclnnSoftmaxCrossEntropyWithLogits), in, features, labels, loss, backprop);
}

void fuzz_triangular_solve(Decoder& in, aclcpu::fuzz::OperatorCall& call) {
    const auto [self, a] = call.inputs<2>(in);
    const bool upper = in.bit();
    const bool transpose = in.bit();
    const bool unitriangular = in.bit();
    const auto [xOut, mOut] = call.outputs<2>(in);
    call.run(ACLCPU_FUZZ_API(aclnnTriangularSolve), in, self, a, upper, transpose, unitriangular, xOut, mOut);
}

/// An aclBoolArray decoded as above (outputMask), destroyed with it.
class Bools {
public:
    explicit Bools(Decoder& in) {
        bool values[4] = {};
        const size_t count = in.byte() % 5;
        for (size_t i = 0; i < count; ++i) values[i] = in.bit();
        if (!in.rare()) array_ = aclCreateBoolArray(values, count);
    }
    ~Bools() {
        if (array_ != nullptr) aclDestroyBoolArray(array_);
    }
    Bools(const Bools&) = delete;
    Bools& operator=(const Bools&) = delete;
    const aclBoolArray* get() const { return array_; }

private:
    aclBoolArray* array_ = nullptr;
};

void fuzz_layer_norm_backward(Decoder& in, aclcpu::fuzz::OperatorCall& call) {
    const auto [gradOut, input] = call.inputs<2>(in);
    const Ints normalized(in);
    const auto [mean, rstd, weight, bias] = call.inputs<4>(in);
    const Bools mask(in);
    const auto [gradInput, gradWeight, gradBias] = call.outputs<3>(in);
    call.run(ACLCPU_FUZZ_API(aclnnLayerNormBackward), in, gradOut, input, normalized.get(), mean, rstd, weight, bias,
             mask.get(), gradInput, gradWeight, gradBias);
}

void fuzz_rms_norm_grad(Decoder& in, aclcpu::fuzz::OperatorCall& call) {
    const auto [dy, x, rstd, gamma] = call.inputs<4>(in);
    const auto [dx, dgamma] = call.outputs<2>(in);
    call.run(ACLCPU_FUZZ_API(aclnnRmsNormGrad), in, dy, x, rstd, gamma, dx, dgamma);
}

}  // namespace

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    const uint8_t entry = in.byte() % 12;
    switch (entry) {
        case 0:
        case 1: fuzz_softmax(in, call, entry == 1); break;
        case 2: fuzz_rms_norm(in, call); break;
        case 3: fuzz_layer_norm(in, call); break;
        case 4: fuzz_add_rms_norm(in, call); break;
        case 5: fuzz_group_norm(in, call); break;
        case 6: fuzz_cross_entropy(in, call); break;
        case 7: fuzz_triangular_solve(in, call); break;
        case 8:
        case 9: fuzz_softmax_backward(in, call, entry == 9); break;
        case 10: fuzz_layer_norm_backward(in, call); break;
        case 11: fuzz_rms_norm_grad(in, call); break;
    }
}
