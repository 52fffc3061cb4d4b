// Fuzzes phase 1 (and, for small tensors, phase 2) of the layout engine
// through every entry point of the layout family; the first byte picks the
// entry point (b % 12):
//   0 Cast:           one + out (tests/fuzz/fuzz_elementwise.hpp), dtype
//   1 InplaceCopy:    tensor selfRef, then byte%8: 7 src is selfRef, else tensor src
//   2 Permute:        one + out, ints dims
//   3 Repeat:         one + out, ints repeats
//   4 Cat:            count byte (%9), that many tensors, int dim, tensor out;
//                     rare(): a null list
//   5 Slice:          one + out, int dim, start, end, step
//   6 ConstantPadNd:  one + out, ints pad, scalar value
//   7 ReflectionPad1d: one + out, ints padding
//   8 Roll:           one + out, ints shifts, ints dims
//   9 Tril, 10 Triu:  bit: in place (tensor selfRef) or one + out; int diagonal
//  11 TransMatmulWeight: bit: tensor mmWeightRef (relaid in place), or
//                     CalculateMatmulWeightSize(V2) (bit) of ints and a dtype
// where int is a byte (b % 32 - 10) or, for byte 255, a raw 8-byte word, and
// ints are a count byte (%10) and that many ints, then rare(): a null array.
#include <vector>

#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_reflection_pad1d.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_roll.h"
#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_trans_matmul_weight.h"
#include "aclnnop/aclnn_tril.h"
#include "aclnnop/aclnn_triu.h"
#include "aclcpu_testkit/tensor_copy.hpp"
#include "fuzz_elementwise.hpp"

namespace {

using aclcpu::fuzz::Decoder;
using aclcpu::fuzz::int_of;
using aclcpu::fuzz::Ints;

/// Permute, Repeat or ReflectionPad1d (named as ACLCPU_FUZZ_API names it):
/// one + out, and ints between them.
template <class Phase1>
void fuzz_one_ints_out(Decoder& in, aclcpu::fuzz::OperatorCall& call, const char* api, Phase1 phase1,
                       aclcpu::fuzz::OperatorCall::Phase2 phase2) {
    const aclcpu::fuzz::elementwise::Tensors t = aclcpu::fuzz::elementwise::one_and_out(in, call);
    const Ints ints(in);
    call.run(api, phase1, phase2, in, t.self, ints.get(), t.out);
}

/// Cat's tensors and out; the list owns copies of the inputs' descriptors.
void fuzz_cat(Decoder& in, aclcpu::fuzz::OperatorCall& call) {
    std::vector<const aclTensor*> inputs(in.byte() % 9);
    for (const aclTensor*& tensor : inputs) tensor = call.input(in.tensor());
    const int64_t dim = int_of(in);
    aclTensor* out = call.output(in.tensor());
    std::vector<const aclTensor*> copies;
    for (const aclTensor* tensor : inputs) copies.push_back(aclcpu::testkit::copy_tensor(tensor));
    aclTensorList* list = in.rare() ? nullptr : aclCreateTensorList(copies.data(), copies.size());
    call.run(ACLCPU_FUZZ_API(aclnnCat), in, static_cast<const aclTensorList*>(list), dim, out);
    if (list != nullptr) {
        aclDestroyTensorList(list);
    } else {
        for (const aclTensor* copy : copies) aclDestroyTensor(copy);
    }
}

/// Tril or Triu, out of place or in place.
void fuzz_triangle(Decoder& in, aclcpu::fuzz::OperatorCall& call, bool lower) {
    using namespace aclcpu::fuzz::elementwise;
    if (in.bit()) {
        aclTensor* selfRef = call.output(in.tensor());
        const int64_t diagonal = int_of(in);
        if (lower) {
            call.run(ACLCPU_FUZZ_API(aclnnInplaceTril), in, static_cast<const aclTensor*>(selfRef), diagonal);
        } else {
            call.run(ACLCPU_FUZZ_API(aclnnInplaceTriu), in, selfRef, diagonal);
        }
        return;
    }
    const Tensors t = one_and_out(in, call);
    const int64_t diagonal = int_of(in);
    if (lower) {
        call.run(ACLCPU_FUZZ_API(aclnnTril), in, t.self, diagonal, t.out);
    } else {
        call.run(ACLCPU_FUZZ_API(aclnnTriu), in, t.self, diagonal, t.out);
    }
}

/// TransMatmulWeight, or the single-phase size functions (their answer
/// only checked to come with a message on failure).
void fuzz_matmul_weight(Decoder& in, aclcpu::fuzz::OperatorCall& call) {
    if (in.bit()) {
        aclTensor* weight = call.relaid_output(in.tensor());
        call.run(ACLCPU_FUZZ_API(aclnnTransMatmulWeight), in, weight);
        return;
    }
    const bool v2 = in.bit();
    const Ints shape(in);
    const aclDataType dtype = in.dtype();
    uint64_t size = 0;
    uint64_t* out = in.rare() ? nullptr : &size;
    aclcpu::fuzz::clear_error_message();
    const aclnnStatus status = v2 ? aclnnCalculateMatmulWeightSizeV2(shape.get(), dtype, out)
                                  : aclnnCalculateMatmulWeightSize(shape.get(), out);
    aclcpu::fuzz::expect_aclnn_status("aclnnCalculateMatmulWeightSize", status);
}

}  // namespace

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    using namespace elementwise;
    switch (in.byte() % 12) {
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
        case 2: fuzz_one_ints_out(in, call, ACLCPU_FUZZ_API(aclnnPermute)); break;
        case 3: fuzz_one_ints_out(in, call, ACLCPU_FUZZ_API(aclnnRepeat)); break;
        case 4: fuzz_cat(in, call); break;
        case 5: {
            const Tensors t = one_and_out(in, call);
            const int64_t dim = int_of(in);
            const int64_t start = int_of(in);
            const int64_t end = int_of(in);
            const int64_t step = int_of(in);
            call.run(ACLCPU_FUZZ_API(aclnnSlice), in, t.self, dim, start, end, step, t.out);
            break;
        }
        case 6: {
            const Tensors t = one_and_out(in, call);
            const Ints pad(in);
            const Scalar value(in.scalar());
            call.run(ACLCPU_FUZZ_API(aclnnConstantPadNd), in, t.self, pad.get(), value.get(), t.out);
            break;
        }
        case 7: fuzz_one_ints_out(in, call, ACLCPU_FUZZ_API(aclnnReflectionPad1d)); break;
        case 8: {
            const Tensors t = one_and_out(in, call);
            const Ints shifts(in);
            const Ints dims(in);
            call.run(ACLCPU_FUZZ_API(aclnnRoll), in, t.self, shifts.get(), dims.get(), t.out);
            break;
        }
        case 9: fuzz_triangle(in, call, true); break;
        case 10: fuzz_triangle(in, call, false); break;
        default: fuzz_matmul_weight(in, call); break;
    }
}
