// What the arithmetic family's four fuzz targets (fuzz_add, fuzz_sub,
// fuzz_mul, fuzz_div) share: the forms with alpha and DivMod's rounding
// mode.  Each target's fuzz_operator() reads one byte that selects the
// entry point, then the tensors through one of fuzz_elementwise.hpp's
// functions, then its scalars (in.scalar(), in parameter order), then the mode,
// then OperatorCall::run's flags.  The grammar, which
// tests/fuzz/make_seeds.py encodes (keep the two in step):
//
//   the tensors: fuzz_elementwise.hpp's pair + out, one + out, in-place pair, in-place one
//   mode:        b < 240: b%3 (0 none, 1 trunc, 2 floor), else kSpecialModes[b-240],
//                the last of which reads a raw 8-byte word (its low 32 bits)
//
// A tensor the operator writes -- out, selfRef, or self/other when out
// aliases it -- is made with OperatorCall::output, so that phase 2 may
// write it and only through its view.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#include "fuzz_elementwise.hpp"
#include "fuzz_support.hpp"

namespace aclcpu::fuzz::arithmetic {

using namespace elementwise;

/// DivMod's rounding mode: mostly 0-2, sometimes out of range.
inline int rounding_mode(Decoder& in) {
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
    aclcpu::fuzz::arithmetic::Api<decltype(&op##GetWorkspaceSize)> { ACLCPU_FUZZ_API(op) }

/// The four forms Add and Sub share, each with an alpha: `form` 0 tensor
/// pair, 1 tensor and scalar, 2 in-place pair, 3 in-place scalar.
template <class Pair, class WithScalar, class InplacePair, class InplaceScalar>
void fuzz_alpha_forms(int form, Decoder& in, OperatorCall& call, const Api<Pair>& pair,
                      const Api<WithScalar>& withScalar, const Api<InplacePair>& inplacePair,
                      const Api<InplaceScalar>& inplaceScalar) {
    switch (form) {
        case 0: {
            const Tensors t = pair_and_out(in, call);
            const Scalar alpha(in.scalar());
            call.run(pair.name, pair.phase1, pair.phase2, in, t.self, t.other, alpha.get(), t.out);
            break;
        }
        case 1: {
            const Tensors t = one_and_out(in, call);
            const Scalar other(in.scalar());
            const Scalar alpha(in.scalar());
            call.run(withScalar.name, withScalar.phase1, withScalar.phase2, in, t.self, other.get(), alpha.get(),
                     t.out);
            break;
        }
        case 2: {
            const InplaceTensors t = inplace_pair(in, call);
            const Scalar alpha(in.scalar());
            call.run(inplacePair.name, inplacePair.phase1, inplacePair.phase2, in, t.selfRef, t.other, alpha.get());
            break;
        }
        default: {
            aclTensor* selfRef = inplace_one(in, call);
            const Scalar other(in.scalar());
            const Scalar alpha(in.scalar());
            call.run(inplaceScalar.name, inplaceScalar.phase1, inplaceScalar.phase2, in, selfRef, other.get(),
                     alpha.get());
            break;
        }
    }
}

}  // namespace aclcpu::fuzz::arithmetic
