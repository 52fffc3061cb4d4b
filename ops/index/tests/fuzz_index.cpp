// Fuzzes phase 1 (and, for small tensors, phase 2) of the index engine
// through every entry point of the index family; the first byte picks the
// entry point (b % 12):
//   0 IndexSelect: tensor self, int dim, index, tensor out
//   1 GatherV2:    tensor self, int dim, index, tensor out
//   2 Embedding:   tensor weight, index, tensor out
//   3 InplaceIndexCopy: tensor selfRef, int dim, index, tensor source
//   4 IndexCopy:   tensor selfRef, int dim, index, tensor source, tensor out
//   5 Scatter:     tensor self, int dim, index, tensor src, int reduce, tensor out
//   6 InplaceScatter: tensor selfRef, int dim, index, tensor src, int reduce
//   7 ScatterValue: tensor self, int dim, index, scalar value, int reduce, tensor out
//   8 InplaceScatterValue: tensor selfRef, int dim, index, scalar value, int reduce
//   9 IndexFillTensor: tensor self, int dim, ints index, scalar value, tensor out
//  10 RepeatInterleave: a byte (even: IntWithDim, odd: Int), tensor self,
//     int repeats, (IntWithDim) int dim, int outputSize, tensor out
//  11 EmbeddingDenseBackward: tensor grad, index, int numWeights,
//     int paddingIdx, bit scaleGradByFreq, tensor out
// where int is a byte (b % 32 - 10) or, for byte 255, a raw 8-byte word, and
// index is a tensor followed by its values: a count byte (%8) and that many
// ints (cycled over the index's storage when it is INT32 or INT64), so that
// values in range, negative and out of range all reach the kernel.
#include <vector>

#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_embedding_dense_backward.h"
#include "aclnnop/aclnn_gather_v2.h"
#include "aclnnop/aclnn_index_copy.h"
#include "aclnnop/aclnn_index_fill_tensor.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_repeat_interleave.h"
#include "aclnnop/aclnn_scatter.h"
#include "fuzz_support.hpp"

namespace {

using aclcpu::fuzz::Decoder;
using aclcpu::fuzz::Ints;
using aclcpu::fuzz::OperatorCall;
using aclcpu::fuzz::Scalar;
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

/// Scatter or ScatterValue (value: a scalar instead of src), in place or
/// into an out of its own.
void fuzz_scatter(Decoder& in, OperatorCall& call, bool inPlace, bool value) {
    aclTensor* self = inPlace ? call.output(in.tensor()) : const_cast<aclTensor*>(call.input(in.tensor()));
    const int64_t dim = int_of(in);
    const aclTensor* index = index_of(in, call);
    if (value) {
        const Scalar scalar(in.scalar());
        const int64_t reduce = int_of(in);
        if (inPlace) {
            call.run(ACLCPU_FUZZ_API(aclnnInplaceScatterValue), in, self, dim, index, scalar.get(), reduce);
            return;
        }
        call.run(ACLCPU_FUZZ_API(aclnnScatterValue), in, self, dim, index, scalar.get(), reduce,
                 call.output(in.tensor()));
        return;
    }
    const aclTensor* src = call.input(in.tensor());
    const int64_t reduce = int_of(in);
    if (inPlace) {
        call.run(ACLCPU_FUZZ_API(aclnnInplaceScatter), in, self, dim, index, src, reduce);
        return;
    }
    call.run(ACLCPU_FUZZ_API(aclnnScatter), in, self, dim, index, src, reduce, call.output(in.tensor()));
}

void fuzz_index_fill(Decoder& in, OperatorCall& call) {
    const aclTensor* self = call.input(in.tensor());
    const int64_t dim = int_of(in);
    const Ints index(in);
    const Scalar value(in.scalar());
    call.run(ACLCPU_FUZZ_API(aclnnIndexFillTensor), in, self, dim, index.get(), value.get(),
             call.output(in.tensor()));
}

/// RepeatInterleaveIntWithDim, or (a first byte odd) RepeatInterleaveInt.
void fuzz_repeat(Decoder& in, OperatorCall& call) {
    const bool withDim = in.byte() % 2 == 0;
    const aclTensor* self = call.input(in.tensor());
    const int64_t repeats = int_of(in);
    const int64_t dim = withDim ? int_of(in) : 0;
    const int64_t outputSize = int_of(in);
    aclTensor* out = call.output(in.tensor());
    if (withDim) {
        call.run(ACLCPU_FUZZ_API(aclnnRepeatInterleaveIntWithDim), in, self, repeats, dim, outputSize, out);
        return;
    }
    call.run(ACLCPU_FUZZ_API(aclnnRepeatInterleaveInt), in, self, repeats, outputSize, out);
}

void fuzz_embedding_grad(Decoder& in, OperatorCall& call) {
    const aclTensor* grad = call.input(in.tensor());
    const aclTensor* indices = index_of(in, call);
    const auto numWeights = static_cast<uint64_t>(int_of(in));
    const auto paddingIdx = static_cast<uint64_t>(int_of(in));
    const bool scale = in.bit();
    const aclTensor* out = call.output(in.tensor());
    call.run(ACLCPU_FUZZ_API(aclnnEmbeddingDenseBackward), in, grad, indices, numWeights, paddingIdx, scale, out);
}

}  // namespace

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    switch (in.byte() % 12) {
        case 0: fuzz_select(in, call, ACLCPU_FUZZ_API(aclnnIndexSelect)); break;
        case 1: fuzz_select(in, call, ACLCPU_FUZZ_API(aclnnGatherV2)); break;
        case 3: fuzz_index_copy(in, call, true); break;
        case 4: fuzz_index_copy(in, call, false); break;
        case 5: fuzz_scatter(in, call, false, false); break;
        case 6: fuzz_scatter(in, call, true, false); break;
        case 7: fuzz_scatter(in, call, false, true); break;
        case 8: fuzz_scatter(in, call, true, true); break;
        case 9: fuzz_index_fill(in, call); break;
        case 10: fuzz_repeat(in, call); break;
        case 11: fuzz_embedding_grad(in, call); break;
        default: {
            const aclTensor* weight = call.input(in.tensor());
            const aclTensor* indices = index_of(in, call);
            const aclTensor* out = call.output(in.tensor());
            call.run(ACLCPU_FUZZ_API(aclnnEmbedding), in, weight, indices, out);
            break;
        }
    }
}
