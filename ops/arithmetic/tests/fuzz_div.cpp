// Fuzzes phase 1 (and, for small tensors, phase 2) of aclnnDiv, aclnnDivs,
// aclnnInplaceDiv, aclnnInplaceDivs, aclnnDivMod, aclnnDivMods,
// aclnnInplaceDivMod and aclnnInplaceDivMods, the rounding mode any int; the
// first byte picks the entry point (fuzz_arithmetic.hpp has the grammar).
#include "aclnnop/aclnn_div.h"
#include "fuzz_arithmetic.hpp"

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    using namespace arithmetic;
    switch (in.byte() % 8) {
        case 0: {
            const Tensors t = pair_and_out(in, call);
            call.run(ACLCPU_FUZZ_API(aclnnDiv), in, t.self, t.other, t.out);
            break;
        }
        case 1: {
            const Tensors t = one_and_out(in, call);
            const Scalar other(in.scalar());
            call.run(ACLCPU_FUZZ_API(aclnnDivs), in, t.self, other.get(), t.out);
            break;
        }
        case 2: {
            const InplaceTensors t = inplace_pair(in, call);
            call.run(ACLCPU_FUZZ_API(aclnnInplaceDiv), in, t.selfRef, t.other);
            break;
        }
        case 3: {
            aclTensor* selfRef = inplace_one(in, call);
            const Scalar other(in.scalar());
            call.run(ACLCPU_FUZZ_API(aclnnInplaceDivs), in, selfRef, other.get());
            break;
        }
        case 4: {
            const Tensors t = pair_and_out(in, call);
            const int mode = rounding_mode(in);
            call.run(ACLCPU_FUZZ_API(aclnnDivMod), in, t.self, t.other, mode, t.out);
            break;
        }
        case 5: {
            const Tensors t = one_and_out(in, call);
            const Scalar other(in.scalar());
            const int mode = rounding_mode(in);
            call.run(ACLCPU_FUZZ_API(aclnnDivMods), in, t.self, other.get(), mode, t.out);
            break;
        }
        case 6: {
            const InplaceTensors t = inplace_pair(in, call);
            const int mode = rounding_mode(in);
            call.run(ACLCPU_FUZZ_API(aclnnInplaceDivMod), in, t.selfRef, t.other, mode);
            break;
        }
        default: {
            aclTensor* selfRef = inplace_one(in, call);
            const Scalar other(in.scalar());
            const int mode = rounding_mode(in);
            call.run(ACLCPU_FUZZ_API(aclnnInplaceDivMods), in, selfRef, other.get(), mode);
            break;
        }
    }
}
