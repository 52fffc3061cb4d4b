// Fuzzes phase 1 (and, for small tensors, phase 2) of aclnnAdd, aclnnAdds,
// aclnnInplaceAdd, aclnnInplaceAdds, aclnnAddV3 and aclnnInplaceAddV3; the
// first byte picks the entry point (fuzz_arithmetic.hpp has the grammar).
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_add_v3.h"
#include "fuzz_arithmetic.hpp"

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    using namespace arithmetic;
    const int form = in.byte() % 6;
    if (form < 4) {
        fuzz_alpha_forms(form, in, call, ACLCPU_ARITHMETIC_API(aclnnAdd), ACLCPU_ARITHMETIC_API(aclnnAdds),
                         ACLCPU_ARITHMETIC_API(aclnnInplaceAdd), ACLCPU_ARITHMETIC_API(aclnnInplaceAdds));
        return;
    }
    switch (form) {
        case 4: {
            // AddV3's tensor is other: it takes one_and_out's self role.
            const Tensors t = one_and_out(in, call);
            const Scalar self(in.scalar());
            const Scalar alpha(in.scalar());
            call.run(ACLCPU_FUZZ_API(aclnnAddV3), in, self.get(), t.self, alpha.get(), t.out);
            break;
        }
        default: {
            // InplaceAddV3 writes its tensor, other.
            aclTensor* other = inplace_one(in, call);
            const Scalar selfRef(in.scalar());
            const Scalar alpha(in.scalar());
            call.run(ACLCPU_FUZZ_API(aclnnInplaceAddV3), in, selfRef.get(), other, alpha.get());
            break;
        }
    }
}
