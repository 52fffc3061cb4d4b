// Fuzzes phase 1 (and, for small tensors, phase 2) of
// aclnnRotaryPositionEmbedding: tensor x, tensor cos, tensor sin, int mode,
// tensor out, where int is a byte (b % 32 - 10) or, for byte 255, a raw
// 8-byte word.  cos and sin as copies or broadcast variants of x reach the
// layouts the tilings accept (tests/fuzz/make_seeds.py, rope_seeds).
#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "fuzz_support.hpp"

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    const aclTensor* x = call.input(in.tensor());
    const aclTensor* cos = call.input(in.tensor());
    const aclTensor* sin = call.input(in.tensor());
    const int64_t mode = int_of(in);
    const aclTensor* out = call.output(in.tensor());
    call.run(ACLCPU_FUZZ_API(aclnnRotaryPositionEmbedding), in, x, cos, sin, mode, out);
}
