// Fuzzes phase 1 (and, for small tensors, phase 2) of the matmul engine
// through every entry point of ops/matmul; the first byte picks the entry
// point (b % 5): 0 Mm, 1 BatchMatMul, 2 Matmul, 3 Mv, each as
//   tensor self, tensor mat2 (vec), tensor out, int cubeMathType
// where int is a byte (b % 32 - 10: every cubeMathType, valid or not) or,
// for byte 255, a raw 8-byte word; 4 WeightQuantBatchMatmulV2 (its own
// kernel, ops/weight_quant_matmul) with self as x, mat2 as weight, out as
// y, then tensor antiquantScale, bit + tensor antiquantOffset, bit +
// tensor bias, bit + tensor quantScale, int groupSize / 16.
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mv.h"
#include "aclnnop/aclnn_weight_quant_batch_matmul_v2.h"
#include "fuzz_support.hpp"

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    const int entry = in.byte() % 5;
    const aclTensor* self = call.input(in.tensor());
    const aclTensor* mat2 = call.input(in.tensor());
    aclTensor* out = call.output(in.tensor());
    const auto cubeMathType = static_cast<int8_t>(int_of(in));
    switch (entry) {
        case 0: call.run(ACLCPU_FUZZ_API(aclnnMm), in, self, mat2, out, cubeMathType); break;
        case 1: call.run(ACLCPU_FUZZ_API(aclnnBatchMatMul), in, self, mat2, out, cubeMathType); break;
        case 2: call.run(ACLCPU_FUZZ_API(aclnnMatmul), in, self, mat2, out, cubeMathType); break;
        case 3: call.run(ACLCPU_FUZZ_API(aclnnMv), in, self, mat2, out, cubeMathType); break;
        default: {
            const aclTensor* scale = call.input(in.tensor());
            const aclTensor* offset = in.bit() ? call.input(in.tensor()) : nullptr;
            const aclTensor* bias = in.bit() ? call.input(in.tensor()) : nullptr;
            const aclTensor* quantScale = in.bit() ? call.input(in.tensor()) : nullptr;
            const auto groupSize = static_cast<int>(static_cast<uint64_t>(int_of(in)) * 16u);
            call.run(ACLCPU_FUZZ_API(aclnnWeightQuantBatchMatmulV2), in, self, mat2, scale, offset, quantScale,
                     nullptr, bias, groupSize, out);
        }
    }
}
