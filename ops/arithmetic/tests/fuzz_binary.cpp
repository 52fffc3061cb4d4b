// The binary engine's fuzz target: phase 1 (and, for small tensors, phase
// 2) of every entry point on it.  One byte selects the entry point, in the
// order of tests/fuzz/make_seeds.py's BINARY_ENTRIES (keep the two in step):
//   0-23  the arithmetic family: Add, Adds, InplaceAdd, InplaceAdds, AddV3,
//         InplaceAddV3; Sub, Subs, InplaceSub, InplaceSubs, Rsub, Rsubs; Mul,
//         Muls, InplaceMul, InplaceMuls; Div, Divs, InplaceDiv, InplaceDivs,
//         DivMod, DivMods, InplaceDivMod, InplaceDivMods (the rounding mode
//         any int);
//   24-32 the pow family's PowTensorTensor, PowTensorScalar,
//         InplacePowTensorTensor, InplacePowTensorScalar, PowScalarTensor,
//         and the comparison family's EqTensor, GtScalar, InplaceEqTensor,
//         InplaceGtScalar;
//   33    the fill family's InplaceMaskedFillScalar (selfRef, mask, value);
//   34-39 the gradients GeluBackward, GeluBackwardV2 (then its approximate),
//         SiluBackward, SigmoidBackward, ThresholdBackward (then its
//         threshold scalar), TanhBackward, on (gradOutput, x, gradInput);
//   40-43 the dropout family: DropoutDoMask (self, mask, out, then prob as a
//         raw double), DropoutBackward (gradOutput, mask, out, then scale),
//         Dropout (input, out, maskOut, p, train bit, seed and offset words),
//         and a GenMask (a byte % 3: GenMask, V2, V2Tensor; Ints shape, prob,
//         seed and offset words, probDataType, out, and V2Tensor's seed and
//         offset tensors).
// Then come the tensors through one of fuzz_elementwise.hpp's functions
// (pair + out, one + out, in-place pair, in-place one), the scalars
// (in.scalar(), in parameter order), DivMod's mode, and OperatorCall::run's
// flags.  The mode's grammar:
//
//   mode:        b < 240: b%3 (0 none, 1 trunc, 2 floor), else kSpecialModes[b-240],
//                the last of which reads a raw 8-byte word (its low 32 bits)
//   approximate: b%4: "none", "tanh", "erf" (refused), null
//
// A tensor the operator writes -- out, selfRef, or self/other when out
// aliases it -- is made with OperatorCall::output, so that phase 2 may
// write it and only through its view.

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_add_v3.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_dropout.h"
#include "aclnnop/aclnn_dropout_backward.h"
#include "aclnnop/aclnn_dropout_do_mask.h"
#include "aclnnop/aclnn_dropout_gen_mask.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_gelu_backward.h"
#include "aclnnop/aclnn_gelu_backward_v2.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_masked_fill_scalar.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "aclnnop/aclnn_rsub.h"
#include "aclnnop/aclnn_sigmoid_backward.h"
#include "aclnnop/aclnn_silu_backward.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_tanh_backward.h"
#include "aclnnop/aclnn_threshold_backward.h"
#include "fuzz_elementwise.hpp"
#include "fuzz_support.hpp"

namespace aclcpu::fuzz::binary {
namespace {

using namespace elementwise;

/// DivMod's rounding mode: mostly 0-2, sometimes out of range.
int rounding_mode(Decoder& in) {
    static constexpr int kSpecialModes[16] = {-1, 3, 4, -2, INT_MIN, INT_MAX, 255, 256, -256, 65536, INT_MIN + 1,
                                              INT_MAX - 1, 100, -100, 7, 0};
    const uint8_t choice = in.byte();
    if (choice < 240) return choice % 3;
    if (choice < 255) return kSpecialModes[choice - 240];
    return static_cast<int>(static_cast<uint32_t>(in.word()));
}

/// One entry point as OperatorCall::run takes it: its name, phase 1 and phase 2.
template <class Phase1>
struct Api {
    const char* name;
    Phase1 phase1;
    OperatorCall::Phase2 phase2;
};
#define ACLCPU_ARITHMETIC_API(op) \
    aclcpu::fuzz::binary::Api<decltype(&op##GetWorkspaceSize)> { ACLCPU_FUZZ_API(op) }

/// The out-of-place forms Add, Sub and Rsub share, each with an alpha:
/// `form` 0 tensor pair, 1 tensor and scalar.
template <class Pair, class WithScalar>
void fuzz_alpha_out_forms(int form, Decoder& in, OperatorCall& call, const Api<Pair>& pair,
                          const Api<WithScalar>& withScalar) {
    if (form == 0) {
        const Tensors t = pair_and_out(in, call);
        const Scalar alpha(in.scalar());
        call.run(pair.name, pair.phase1, pair.phase2, in, t.self, t.other, alpha.get(), t.out);
    } else {
        const Tensors t = one_and_out(in, call);
        const Scalar other(in.scalar());
        const Scalar alpha(in.scalar());
        call.run(withScalar.name, withScalar.phase1, withScalar.phase2, in, t.self, other.get(), alpha.get(), t.out);
    }
}

/// The four forms Add and Sub share, each with an alpha: `form` 0 tensor
/// pair, 1 tensor and scalar, 2 in-place pair, 3 in-place scalar.
template <class Pair, class WithScalar, class InplacePair, class InplaceScalar>
void fuzz_alpha_forms(int form, Decoder& in, OperatorCall& call, const Api<Pair>& pair,
                      const Api<WithScalar>& withScalar, const Api<InplacePair>& inplacePair,
                      const Api<InplaceScalar>& inplaceScalar) {
    if (form < 2) {
        fuzz_alpha_out_forms(form, in, call, pair, withScalar);
    } else if (form == 2) {
        const InplaceTensors t = inplace_pair(in, call);
        const Scalar alpha(in.scalar());
        call.run(inplacePair.name, inplacePair.phase1, inplacePair.phase2, in, t.selfRef, t.other, alpha.get());
    } else {
        aclTensor* selfRef = inplace_one(in, call);
        const Scalar other(in.scalar());
        const Scalar alpha(in.scalar());
        call.run(inplaceScalar.name, inplaceScalar.phase1, inplaceScalar.phase2, in, selfRef, other.get(),
                 alpha.get());
    }
}

/// Add, Adds, InplaceAdd, InplaceAdds, AddV3, InplaceAddV3.
void fuzz_add(int form, Decoder& in, OperatorCall& call) {
    if (form < 4) {
        fuzz_alpha_forms(form, in, call, ACLCPU_ARITHMETIC_API(aclnnAdd), ACLCPU_ARITHMETIC_API(aclnnAdds),
                         ACLCPU_ARITHMETIC_API(aclnnInplaceAdd), ACLCPU_ARITHMETIC_API(aclnnInplaceAdds));
    } else if (form == 4) {
        // AddV3's tensor is other: it takes one_and_out's self role.
        const Tensors t = one_and_out(in, call);
        const Scalar self(in.scalar());
        const Scalar alpha(in.scalar());
        call.run(ACLCPU_FUZZ_API(aclnnAddV3), in, self.get(), t.self, alpha.get(), t.out);
    } else {
        // InplaceAddV3 writes its tensor, other.
        aclTensor* other = inplace_one(in, call);
        const Scalar selfRef(in.scalar());
        const Scalar alpha(in.scalar());
        call.run(ACLCPU_FUZZ_API(aclnnInplaceAddV3), in, selfRef.get(), other, alpha.get());
    }
}

/// Sub, Subs, InplaceSub, InplaceSubs, Rsub, Rsubs.
void fuzz_sub(int form, Decoder& in, OperatorCall& call) {
    if (form < 4) {
        fuzz_alpha_forms(form, in, call, ACLCPU_ARITHMETIC_API(aclnnSub), ACLCPU_ARITHMETIC_API(aclnnSubs),
                         ACLCPU_ARITHMETIC_API(aclnnInplaceSub), ACLCPU_ARITHMETIC_API(aclnnInplaceSubs));
    } else {
        fuzz_alpha_out_forms(form - 4, in, call, ACLCPU_ARITHMETIC_API(aclnnRsub), ACLCPU_ARITHMETIC_API(aclnnRsubs));
    }
}

/// The four forms Mul, Div, Pow and the comparisons share (tensor pair,
/// tensor and scalar, in-place pair, in-place scalar), each with DivMod's
/// mode when withMode.
template <class Pair, class WithScalar, class InplacePair, class InplaceScalar, class... Mode>
void fuzz_plain_forms(int form, Decoder& in, OperatorCall& call, const Api<Pair>& pair,
                      const Api<WithScalar>& withScalar, const Api<InplacePair>& inplacePair,
                      const Api<InplaceScalar>& inplaceScalar, Mode (*... mode)(Decoder&)) {
    switch (form) {
        case 0: {
            const Tensors t = pair_and_out(in, call);
            call.run(pair.name, pair.phase1, pair.phase2, in, t.self, t.other, mode(in)..., t.out);
            break;
        }
        case 1: {
            const Tensors t = one_and_out(in, call);
            const Scalar other(in.scalar());
            call.run(withScalar.name, withScalar.phase1, withScalar.phase2, in, t.self, other.get(), mode(in)...,
                     t.out);
            break;
        }
        case 2: {
            const InplaceTensors t = inplace_pair(in, call);
            call.run(inplacePair.name, inplacePair.phase1, inplacePair.phase2, in, t.selfRef, t.other, mode(in)...);
            break;
        }
        default: {
            aclTensor* selfRef = inplace_one(in, call);
            const Scalar other(in.scalar());
            call.run(inplaceScalar.name, inplaceScalar.phase1, inplaceScalar.phase2, in, selfRef, other.get(),
                     mode(in)...);
            break;
        }
    }
}

/// Pow's four plain forms (PowTensorTensor, PowTensorScalar,
/// InplacePowTensorTensor, InplacePowTensorScalar), PowScalarTensor, then
/// the comparisons' (EqTensor, GtScalar, InplaceEqTensor, InplaceGtScalar).
void fuzz_pow_and_comparison(int entry, Decoder& in, OperatorCall& call) {
    if (entry < 4) {
        fuzz_plain_forms(entry, in, call, ACLCPU_ARITHMETIC_API(aclnnPowTensorTensor),
                         ACLCPU_ARITHMETIC_API(aclnnPowTensorScalar),
                         ACLCPU_ARITHMETIC_API(aclnnInplacePowTensorTensor),
                         ACLCPU_ARITHMETIC_API(aclnnInplacePowTensorScalar));
    } else if (entry == 4) {
        // PowScalarTensor's tensor is its exponent: one_and_out's self role.
        const Tensors t = one_and_out(in, call);
        const Scalar self(in.scalar());
        call.run(ACLCPU_FUZZ_API(aclnnPowScalarTensor), in, self.get(), t.self, t.out);
    } else {
        fuzz_plain_forms(entry - 5, in, call, ACLCPU_ARITHMETIC_API(aclnnEqTensor),
                         ACLCPU_ARITHMETIC_API(aclnnGtScalar), ACLCPU_ARITHMETIC_API(aclnnInplaceEqTensor),
                         ACLCPU_ARITHMETIC_API(aclnnInplaceGtScalar));
    }
}

/// GeluBackwardV2's approximate (see the grammar).
char* approximate(Decoder& in) {
    static char none[] = "none";
    static char tanh[] = "tanh";
    static char erf[] = "erf";
    char* const modes[4] = {none, tanh, erf, nullptr};
    return modes[in.byte() % 4];
}

/// The activation gradients and TanhBackward (entries 34-39).
void fuzz_gradient(int entry, Decoder& in, OperatorCall& call) {
    const Tensors t = pair_and_out(in, call);
    switch (entry) {
        case 0: call.run(ACLCPU_FUZZ_API(aclnnGeluBackward), in, t.self, t.other, t.out); break;
        case 1: {
            char* mode = approximate(in);
            call.run(ACLCPU_FUZZ_API(aclnnGeluBackwardV2), in, t.self, t.other, mode, t.out);
            break;
        }
        case 2: call.run(ACLCPU_FUZZ_API(aclnnSiluBackward), in, t.self, t.other, t.out); break;
        case 3: call.run(ACLCPU_FUZZ_API(aclnnSigmoidBackward), in, t.self, t.other, t.out); break;
        case 4: {
            const Scalar threshold(in.scalar());
            call.run(ACLCPU_FUZZ_API(aclnnThresholdBackward), in, t.self, t.other, threshold.get(), t.out);
            break;
        }
        default: call.run(ACLCPU_FUZZ_API(aclnnTanhBackward), in, t.self, t.other, t.out); break;
    }
}

/// The dropout family (entries 40-43; see the grammar).
void fuzz_dropout(int entry, Decoder& in, OperatorCall& call) {
    if (entry < 2) {
        const Tensors t = pair_and_out(in, call);
        const double probOrScale = in.real();
        if (entry == 0) call.run(ACLCPU_FUZZ_API(aclnnDropoutDoMask), in, t.self, t.other, probOrScale, t.out);
        else call.run(ACLCPU_FUZZ_API(aclnnDropoutBackward), in, t.self, t.other, probOrScale, t.out);
    } else if (entry == 2) {
        const aclTensor* input = call.input(in.tensor());
        const auto [out, maskOut] = call.outputs<2>(in);
        const double p = in.real();
        const bool train = in.bit();
        const auto seed = static_cast<int64_t>(in.word());
        const auto offset = static_cast<int64_t>(in.word());
        call.run(ACLCPU_FUZZ_API(aclnnDropout), in, input, p, train, seed, offset, out, maskOut);
    } else {
        const int form = in.byte() % 3;
        const Ints shape(in);
        const double prob = in.real();
        const auto seed = static_cast<int64_t>(in.word());
        const auto offset = static_cast<int64_t>(in.word());
        const aclDataType probDataType = in.dtype();
        aclTensor* out = call.output(in.tensor());
        if (form == 0) {
            call.run(ACLCPU_FUZZ_API(aclnnDropoutGenMask), in, shape.get(), prob, seed, offset, out);
        } else if (form == 1) {
            call.run(ACLCPU_FUZZ_API(aclnnDropoutGenMaskV2), in, shape.get(), prob, seed, offset, probDataType, out);
        } else {
            const auto [seedTensor, offsetTensor] = call.inputs<2>(in);
            call.run(ACLCPU_FUZZ_API(aclnnDropoutGenMaskV2Tensor), in, shape.get(), prob, seedTensor, offsetTensor,
                     offset, probDataType, out);
        }
    }
}

}  // namespace

/// One byte selects the entry point: 0-5 Add's, 6-11 Sub's, 12-15 Mul's,
/// 16-19 Div's, 20-23 DivMod's, 24-32 the pow and comparison families',
/// 33 InplaceMaskedFillScalar, 34-39 the gradients, 40-43 the dropout family.
void fuzz_entry(Decoder& in, OperatorCall& call) {
    const int entry = in.byte() % 44;
    if (entry < 6) {
        fuzz_add(entry, in, call);
    } else if (entry < 12) {
        fuzz_sub(entry - 6, in, call);
    } else if (entry < 16) {
        fuzz_plain_forms(entry - 12, in, call, ACLCPU_ARITHMETIC_API(aclnnMul), ACLCPU_ARITHMETIC_API(aclnnMuls),
                         ACLCPU_ARITHMETIC_API(aclnnInplaceMul), ACLCPU_ARITHMETIC_API(aclnnInplaceMuls));
    } else if (entry < 20) {
        fuzz_plain_forms(entry - 16, in, call, ACLCPU_ARITHMETIC_API(aclnnDiv), ACLCPU_ARITHMETIC_API(aclnnDivs),
                         ACLCPU_ARITHMETIC_API(aclnnInplaceDiv), ACLCPU_ARITHMETIC_API(aclnnInplaceDivs));
    } else if (entry < 24) {
        fuzz_plain_forms(entry - 20, in, call, ACLCPU_ARITHMETIC_API(aclnnDivMod),
                         ACLCPU_ARITHMETIC_API(aclnnDivMods), ACLCPU_ARITHMETIC_API(aclnnInplaceDivMod),
                         ACLCPU_ARITHMETIC_API(aclnnInplaceDivMods), &rounding_mode);
    } else if (entry < 33) {
        fuzz_pow_and_comparison(entry - 24, in, call);
    } else if (entry == 33) {
        const InplaceTensors t = inplace_pair(in, call);
        const Scalar value(in.scalar());
        call.run(ACLCPU_FUZZ_API(aclnnInplaceMaskedFillScalar), in, t.selfRef, t.other, value.get());
    } else if (entry < 40) {
        fuzz_gradient(entry - 34, in, call);
    } else {
        fuzz_dropout(entry - 40, in, call);
    }
}

}  // namespace aclcpu::fuzz::binary

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) { binary::fuzz_entry(in, call); }
