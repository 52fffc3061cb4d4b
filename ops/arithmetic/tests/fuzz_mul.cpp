// Fuzzes phase 1 (and, for small tensors, phase 2) of aclnnMul, aclnnMuls,
// aclnnInplaceMul and aclnnInplaceMuls; the first byte picks the entry point
// (fuzz_arithmetic.hpp has the grammar).
#include "aclnnop/aclnn_mul.h"
#include "fuzz_arithmetic.hpp"

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    using namespace arithmetic;
    switch (in.byte() % 4) {
        case 0: {
            const Tensors t = pair_and_out(in, call);
            call.run(ACLCPU_FUZZ_API(aclnnMul), in, t.self, t.other, t.out);
            break;
        }
        case 1: {
            const Tensors t = one_and_out(in, call);
            const Scalar other(in.scalar());
            call.run(ACLCPU_FUZZ_API(aclnnMuls), in, t.self, other.get(), t.out);
            break;
        }
        case 2: {
            const InplaceTensors t = inplace_pair(in, call);
            call.run(ACLCPU_FUZZ_API(aclnnInplaceMul), in, t.selfRef, t.other);
            break;
        }
        default: {
            aclTensor* selfRef = inplace_one(in, call);
            const Scalar other(in.scalar());
            call.run(ACLCPU_FUZZ_API(aclnnInplaceMuls), in, selfRef, other.get());
            break;
        }
    }
}
