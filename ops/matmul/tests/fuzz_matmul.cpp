// Fuzzes phase 1 (and, for small tensors, phase 2) of the matmul engine
// through every entry point of ops/matmul; the first byte picks the entry
// point (b % 12): 0 Mm, 1 BatchMatMul, 2 Matmul, 3 Mv, 4 MatmulWeightNz,
// 5 BatchMatMulWeightNz, each as
//   tensor self, tensor mat2 (vec), tensor out, int cubeMathType;
// 6 Addmm, 7 Baddbmm, 8 AddmmWeightNz as
//   tensor self, tensor mat1, tensor mat2, scalar beta, scalar alpha, tensor out, int cubeMathType;
// 9 InplaceAddmm, 10 InplaceBaddbmm as the same without out (self is written);
// 11 WeightQuantBatchMatmulV2 (its own kernel, ops/weight_quant_matmul) as
// the first form with self as x, mat2 as weight, out as y, then tensor
// antiquantScale, bit + tensor antiquantOffset, bit + tensor bias, bit +
// tensor quantScale, int groupSize / 16.
// int is a byte (b % 32 - 10: every cubeMathType, valid or not) or, for
// byte 255, a raw 8-byte word.
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_baddbmm.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mv.h"
#include "aclnnop/aclnn_weight_quant_batch_matmul_v2.h"
#include "fuzz_support.hpp"

namespace {

using aclcpu::fuzz::Decoder;
using aclcpu::fuzz::OperatorCall;
using aclcpu::fuzz::Scalar;

/// Addmm and Baddbmm: self (written in place when inplace), mat1, mat2,
/// beta, alpha, out.
void fuzz_add_product(int entry, Decoder& in, OperatorCall& call) {
    const bool inplace = entry >= 9;
    aclTensor* selfRef = inplace ? call.output(in.tensor()) : nullptr;
    const aclTensor* self = inplace ? selfRef : call.input(in.tensor());
    const aclTensor* mat1 = call.input(in.tensor());
    const aclTensor* mat2 = call.input(in.tensor());
    const Scalar beta(in.scalar());
    const Scalar alpha(in.scalar());
    aclTensor* out = inplace ? nullptr : call.output(in.tensor());
    const auto cmt = static_cast<int8_t>(aclcpu::fuzz::int_of(in));
    switch (entry) {
        case 6: call.run(ACLCPU_FUZZ_API(aclnnAddmm), in, self, mat1, mat2, beta.get(), alpha.get(), out, cmt); break;
        case 7: call.run(ACLCPU_FUZZ_API(aclnnBaddbmm), in, self, mat1, mat2, beta.get(), alpha.get(), out, cmt); break;
        case 8:
            call.run(ACLCPU_FUZZ_API(aclnnAddmmWeightNz), in, self, mat1, mat2, beta.get(), alpha.get(), out, cmt);
            break;
        case 9: call.run(ACLCPU_FUZZ_API(aclnnInplaceAddmm), in, self, mat1, mat2, beta.get(), alpha.get(), cmt); break;
        default:
            call.run(ACLCPU_FUZZ_API(aclnnInplaceBaddbmm), in, self, mat1, mat2, beta.get(), alpha.get(), cmt);
            break;
    }
}

}  // namespace

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    const int entry = in.byte() % 12;
    if (entry >= 6 && entry <= 10) {
        fuzz_add_product(entry, in, call);
        return;
    }
    const aclTensor* self = call.input(in.tensor());
    const aclTensor* mat2 = call.input(in.tensor());
    aclTensor* out = call.output(in.tensor());
    const auto cubeMathType = static_cast<int8_t>(int_of(in));
    switch (entry) {
        case 0: call.run(ACLCPU_FUZZ_API(aclnnMm), in, self, mat2, out, cubeMathType); break;
        case 1: call.run(ACLCPU_FUZZ_API(aclnnBatchMatMul), in, self, mat2, out, cubeMathType); break;
        case 2: call.run(ACLCPU_FUZZ_API(aclnnMatmul), in, self, mat2, out, cubeMathType); break;
        case 3: call.run(ACLCPU_FUZZ_API(aclnnMv), in, self, mat2, out, cubeMathType); break;
        case 4: call.run(ACLCPU_FUZZ_API(aclnnMatmulWeightNz), in, self, mat2, out, cubeMathType); break;
        case 5: call.run(ACLCPU_FUZZ_API(aclnnBatchMatMulWeightNz), in, self, mat2, out, cubeMathType); break;
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
