// Fuzzes phase 1 (and, for small tensors, phase 2) of the index engine
// through every entry point of the index family; the first byte picks the
// entry point (b % 5):
//   0 IndexSelect: tensor self, int dim, index, tensor out
//   1 GatherV2:    tensor self, int dim, index, tensor out
//   2 Embedding:   tensor weight, index, tensor out
//   3 InplaceIndexCopy: tensor selfRef, int dim, index, tensor source
//   4 IndexCopy:   tensor selfRef, int dim, index, tensor source, tensor out
// where int is a byte (b % 32 - 10) or, for byte 255, a raw 8-byte word, and
// index is a tensor followed by its values: a count byte (%8) and that many
// ints (cycled over the index's storage when it is INT32 or INT64), so that
// values in range, negative and out of range all reach the kernel.
#include <vector>

#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_gather_v2.h"
#include "aclnnop/aclnn_index_copy.h"
#include "aclnnop/aclnn_index_select.h"
#include "fuzz_support.hpp"

namespace {

using aclcpu::fuzz::Decoder;
using aclcpu::fuzz::OperatorCall;
using aclcpu::fuzz::int_of;

/// An index tensor holding values the input chooses.
const aclTensor* index_of(Decoder& in, OperatorCall& call) {
    const aclcpu::fuzz::TensorSpec spec = in.tensor();
    std::vector<int64_t> values(in.byte() % 8);
    for (int64_t& value : values) value = int_of(in);
    return call.input(spec, values);
}

/// IndexSelect or GatherV2 (named as ACLCPU_FUZZ_API names it).
template <class Phase1>
void fuzz_select(Decoder& in, OperatorCall& call, const char* api, Phase1 phase1, OperatorCall::Phase2 phase2) {
    const aclTensor* self = call.input(in.tensor());
    const int64_t dim = int_of(in);
    const aclTensor* index = index_of(in, call);
    aclTensor* out = call.output(in.tensor());
    call.run(api, phase1, phase2, in, self, dim, index, out);
}

/// InplaceIndexCopy, or IndexCopy into an out of its own.
void fuzz_index_copy(Decoder& in, OperatorCall& call, bool inPlace) {
    aclTensor* self = inPlace ? call.output(in.tensor()) : const_cast<aclTensor*>(call.input(in.tensor()));
    const int64_t dim = int_of(in);
    const aclTensor* index = index_of(in, call);
    const aclTensor* source = call.input(in.tensor());
    if (inPlace) {
        call.run(ACLCPU_FUZZ_API(aclnnInplaceIndexCopy), in, self, dim, index, source);
        return;
    }
    aclTensor* out = call.output(in.tensor());
    call.run(ACLCPU_FUZZ_API(aclnnIndexCopy), in, self, dim, index, source, out);
}

}  // namespace

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    switch (in.byte() % 5) {
        case 0: fuzz_select(in, call, ACLCPU_FUZZ_API(aclnnIndexSelect)); break;
        case 1: fuzz_select(in, call, ACLCPU_FUZZ_API(aclnnGatherV2)); break;
        case 3: fuzz_index_copy(in, call, true); break;
        case 4: fuzz_index_copy(in, call, false); break;
        default: {
            const aclTensor* weight = call.input(in.tensor());
            const aclTensor* indices = index_of(in, call);
            const aclTensor* out = call.output(in.tensor());
            call.run(ACLCPU_FUZZ_API(aclnnEmbedding), in, weight, indices, out);
            break;
        }
    }
}
