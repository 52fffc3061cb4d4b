// Fuzzes phase 1 (and, for small tensors, phase 2) of the reduction engine
// through every entry point of the reduce family; the first byte picks the
// entry point (b % 8):
//   0 ReduceSum:  tensor self, ints dims, bit keepDims, dtype, tensor out
//   1 Mean:       tensor self, ints dim, bit keepDim, dtype, tensor out
//   2 MeanV2:     tensor self, ints dim, bit keepDim, bit noopWithEmptyAxes, tensor out
//   3 Amax, 4 Amin: tensor self, ints dim, bit keepDim, tensor out
//   5 ArgMax:     tensor self, int dim, bit keepdim, tensor out
//   6 Cumsum:     tensor self, int dim, dtype, tensor out
//   7 CumsumV2:   tensor self, int dim, bit exclusive, bit reverse, tensor out
// where int is fuzz_support.hpp's int_of, and ints a count byte (%10) and
// that many ints, then rare(): a null array (its Ints).
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "fuzz_support.hpp"

namespace {

/// The entries taking one int dim: ArgMax, Cumsum, CumsumV2.
void fuzz_one_dim(aclcpu::fuzz::Decoder& in, aclcpu::fuzz::OperatorCall& call, uint8_t entry,
                  const aclTensor* self) {
    const int64_t dim = aclcpu::fuzz::int_of(in);
    if (entry == 5) {
        const bool keepdim = in.bit();
        aclTensor* out = call.output(in.tensor());
        call.run(ACLCPU_FUZZ_API(aclnnArgMax), in, self, dim, keepdim, out);
    } else if (entry == 6) {
        const aclDataType dtype = in.dtype();
        aclTensor* out = call.output(in.tensor());
        call.run(ACLCPU_FUZZ_API(aclnnCumsum), in, self, dim, dtype, out);
    } else {
        const bool exclusive = in.bit();
        const bool reverse = in.bit();
        aclTensor* out = call.output(in.tensor());
        call.run(ACLCPU_FUZZ_API(aclnnCumsumV2), in, self, dim, exclusive, reverse, out);
    }
}

}  // namespace

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    const uint8_t entry = in.byte() % 8;
    const aclTensor* self = call.input(in.tensor());
    if (entry >= 5) {
        fuzz_one_dim(in, call, entry, self);
        return;
    }
    const Ints dims(in);
    const bool keepDim = in.bit();
    switch (entry) {
        case 0: {
            const aclDataType dtype = in.dtype();
            aclTensor* out = call.output(in.tensor());
            call.run(ACLCPU_FUZZ_API(aclnnReduceSum), in, self, dims.get(), keepDim, dtype, out);
            break;
        }
        case 1: {
            const aclDataType dtype = in.dtype();
            aclTensor* out = call.output(in.tensor());
            call.run(ACLCPU_FUZZ_API(aclnnMean), in, self, dims.get(), keepDim, dtype, out);
            break;
        }
        case 2: {
            const bool noop = in.bit();
            aclTensor* out = call.output(in.tensor());
            call.run(ACLCPU_FUZZ_API(aclnnMeanV2), in, self, dims.get(), keepDim, noop, out);
            break;
        }
        case 3: {
            aclTensor* out = call.output(in.tensor());
            call.run(ACLCPU_FUZZ_API(aclnnAmax), in, self, dims.get(), keepDim, out);
            break;
        }
        default: {
            aclTensor* out = call.output(in.tensor());
            call.run(ACLCPU_FUZZ_API(aclnnAmin), in, self, dims.get(), keepDim, out);
            break;
        }
    }
}
