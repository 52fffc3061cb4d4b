// Fuzzes phase 1 (and, for small tensors, phase 2) of aclnnSub, aclnnSubs,
// aclnnInplaceSub, aclnnInplaceSubs, aclnnRsub and aclnnRsubs; the first
// byte picks the entry point (fuzz_arithmetic.hpp has the grammar).
#include "aclnnop/aclnn_rsub.h"
#include "aclnnop/aclnn_sub.h"
#include "fuzz_arithmetic.hpp"

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    using namespace arithmetic;
    const int form = in.byte() % 6;
    if (form < 4) {
        fuzz_alpha_forms(form, in, call, ACLCPU_ARITHMETIC_API(aclnnSub), ACLCPU_ARITHMETIC_API(aclnnSubs),
                         ACLCPU_ARITHMETIC_API(aclnnInplaceSub), ACLCPU_ARITHMETIC_API(aclnnInplaceSubs));
        return;
    }
    switch (form) {
        case 4: {
            const Tensors t = pair_and_out(in, call);
            const Scalar alpha(in.scalar());
            call.run(ACLCPU_FUZZ_API(aclnnRsub), in, t.self, t.other, alpha.get(), t.out);
            break;
        }
        default: {
            const Tensors t = one_and_out(in, call);
            const Scalar other(in.scalar());
            const Scalar alpha(in.scalar());
            call.run(ACLCPU_FUZZ_API(aclnnRsubs), in, t.self, other.get(), alpha.get(), t.out);
            break;
        }
    }
}
