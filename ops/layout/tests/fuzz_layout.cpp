// Fuzzes phase 1 (and, for small tensors, phase 2) of the layout engine
// through every entry point of the layout family; the first byte picks the
// entry point:
//   0 Cast:        one + out (tests/fuzz/fuzz_elementwise.hpp), dtype
//   1 InplaceCopy: tensor selfRef, then byte%8: 7 src is selfRef, else tensor src
//   2 Permute:     one + out, dims: count byte (%10), then each dim a byte
//                  (-5 .. 10) or, for byte 255, a raw 8-byte word; rare(): null dims
#include <vector>

#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_permute.h"
#include "fuzz_elementwise.hpp"

namespace {

/// Permute's dims: a few small values, sometimes a wild one.
std::vector<int64_t> dims_of(aclcpu::fuzz::Decoder& in) {
    std::vector<int64_t> dims(in.byte() % 10);
    for (int64_t& dim : dims) {
        const uint8_t choice = in.byte();
        dim = choice == 255 ? static_cast<int64_t>(in.word()) : static_cast<int64_t>(choice % 16) - 5;
    }
    return dims;
}

}  // namespace

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    using namespace elementwise;
    switch (in.byte() % 3) {
        case 0: {
            const Tensors t = one_and_out(in, call);
            const aclDataType dtype = in.dtype();
            call.run(ACLCPU_FUZZ_API(aclnnCast), in, t.self, dtype, t.out);
            break;
        }
        case 1: {
            aclTensor* selfRef = call.output(in.tensor());
            const aclTensor* src = in.byte() % 8 == 7 ? selfRef : call.input(in.tensor());
            call.run(ACLCPU_FUZZ_API(aclnnInplaceCopy), in, selfRef, src);
            break;
        }
        default: {
            const Tensors t = one_and_out(in, call);
            const std::vector<int64_t> values = dims_of(in);
            aclIntArray* dims = in.rare() ? nullptr : aclCreateIntArray(values.data(), values.size());
            call.run(ACLCPU_FUZZ_API(aclnnPermute), in, t.self, static_cast<const aclIntArray*>(dims), t.out);
            if (dims != nullptr) aclDestroyIntArray(dims);
            break;
        }
    }
}
