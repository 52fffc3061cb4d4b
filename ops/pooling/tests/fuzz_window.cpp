// Fuzzes phase 1 (and, for small tensors, phase 2) of the window engine
// through every operator on it; the first byte picks the entry point (b % 5):
//   0 Im2col:            tensor self, ints kernelSize, dilation, padding, stride, tensor out
//   1 AvgPool2d:         tensor self, ints kernel, stride, padding, bits ceilMode and
//                        countIncludePad, int divisorOverride, byte cubeMathType (b % 8 - 1),
//                        tensor out
//   2 MaxPool:           tensor self, ints kernelShape, strides, int autoPad, ints pads,
//                        dilations, int ceilMode, tensor out
//   3 UpsampleNearest2d: tensor self, ints outputSize, tensor out
//   4 Convolution:       tensors input, weight, bias, ints stride, padding, dilation,
//                        bit transposed, ints outputPadding, int groups, byte
//                        cubeMathType (b % 8 - 1), tensor output
// where ints is a count byte (% 10) and that many ints, int a byte (b % 32 - 10)
// or, for byte 255, a raw 8-byte word (fuzz_support.hpp).
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_im2col.h"
#include "aclnnop/aclnn_max_pool.h"
#include "aclnnop/aclnn_upsample_nearest_2d.h"
#include "fuzz_support.hpp"

namespace {

using aclcpu::fuzz::Decoder;
using aclcpu::fuzz::Ints;
using aclcpu::fuzz::OperatorCall;
using aclcpu::fuzz::int_of;

void fuzz_im2col(Decoder& in, OperatorCall& call) {
    const aclTensor* self = call.input(in.tensor());
    const Ints kernel(in), dilation(in), padding(in), stride(in);
    const aclTensor* out = call.output(in.tensor());
    call.run(ACLCPU_FUZZ_API(aclnnIm2col), in, self, kernel.get(), dilation.get(), padding.get(), stride.get(), out);
}

void fuzz_avg_pool(Decoder& in, OperatorCall& call) {
    const aclTensor* self = call.input(in.tensor());
    const Ints kernel(in), stride(in), padding(in);
    const bool ceilMode = in.bit(), countIncludePad = in.bit();
    const int64_t divisor = int_of(in);
    const auto cubeMathType = static_cast<int8_t>(in.byte() % 8 - 1);
    aclTensor* out = call.output(in.tensor());
    call.run(ACLCPU_FUZZ_API(aclnnAvgPool2d), in, self, kernel.get(), stride.get(), padding.get(), ceilMode,
             countIncludePad, divisor, cubeMathType, out);
}

void fuzz_max_pool(Decoder& in, OperatorCall& call) {
    const aclTensor* self = call.input(in.tensor());
    const Ints kernel(in), strides(in);
    const int64_t autoPad = int_of(in);
    const Ints pads(in), dilations(in);
    const int64_t ceilMode = int_of(in);
    aclTensor* out = call.output(in.tensor());
    call.run(ACLCPU_FUZZ_API(aclnnMaxPool), in, self, kernel.get(), strides.get(), autoPad, pads.get(),
             dilations.get(), ceilMode, out);
}

void fuzz_convolution(Decoder& in, OperatorCall& call) {
    const aclTensor* input = call.input(in.tensor());
    const aclTensor* weight = call.input(in.tensor());
    const aclTensor* bias = call.input(in.tensor());
    const Ints stride(in), padding(in), dilation(in);
    const bool transposed = in.bit();
    const Ints outputPadding(in);
    const int64_t groups = int_of(in);
    const auto cubeMathType = static_cast<int8_t>(in.byte() % 8 - 1);
    aclTensor* output = call.output(in.tensor());
    call.run(ACLCPU_FUZZ_API(aclnnConvolution), in, input, weight, bias, stride.get(), padding.get(), dilation.get(),
             transposed, outputPadding.get(), groups, output, cubeMathType);
}

}  // namespace

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    switch (in.byte() % 5) {
        case 0: fuzz_im2col(in, call); break;
        case 1: fuzz_avg_pool(in, call); break;
        case 2: fuzz_max_pool(in, call); break;
        case 4: fuzz_convolution(in, call); break;
        default: {
            const aclTensor* self = call.input(in.tensor());
            const Ints outputSize(in);
            aclTensor* out = call.output(in.tensor());
            call.run(ACLCPU_FUZZ_API(aclnnUpsampleNearest2d), in, self, outputSize.get(), out);
            break;
        }
    }
}
