#include "scaled_masked_softmax_backward/scaled_masked_softmax_backward_tiling.hpp"

#include <algorithm>

#include "common/block_launch.hpp"
#include "common/dtype.hpp"

namespace aclcpu::ops {
namespace {

constexpr int64_t kRepeatFloats = 64;       // one 256-byte vector repeat of fp32
constexpr int64_t kMaxFoldedLength = 1024;  // longest padded row the SoftmaxGrad API path takes
constexpr int64_t kSelectBufferBytes = 18 * 1024;
constexpr int64_t kFloatsPerUbBlock = kUbBlockBytes / 4;
constexpr int64_t kStagedRows = 3;          // gradOutput, y, mask

// fp16/bf16 rows get two fp32 cast buffers (gradOutput and y).
int64_t cast_bytes_per_element(aclDataType dtype) { return dtype == ACL_FLOAT ? 0 : 2 * 4; }

// AscendC::GetSoftMaxGradMaxTmpSize for one fp32 row, isFront = false.
int64_t softmax_grad_tmp_bytes(int64_t paddedLength) {
    return (2 * kFloatsPerUbBlock + paddedLength + kRepeatFloats) * 4;
}

// The SoftmaxGrad-API path: gradOutput, y and out queues, the cast buffers,
// the mask bytes and the API's temporary; the shared buffer is at least the
// select buffer.
int64_t folded_lines_per_loop(int64_t padded, aclDataType dtype, int64_t ub) {
    const int64_t tmp = softmax_grad_tmp_bytes(padded);
    const int64_t perLine = padded * (3 * element_size(dtype) + cast_bytes_per_element(dtype)) + padded + tmp;
    int64_t lines = ub / perLine;
    if (kSelectBufferBytes > tmp * lines) lines = (ub - kSelectBufferBytes) / (perLine - tmp);
    return lines;
}

// The manual-reduction path: two input buffers and the cast buffers, next to
// the select buffer.
int64_t block_lines_per_loop(int64_t padded, aclDataType dtype, int64_t ub) {
    const int64_t perLine = padded * (2 * element_size(dtype) + cast_bytes_per_element(dtype));
    return (ub - kSelectBufferBytes) / perLine;
}

}  // namespace

ScaledMaskedSoftmaxBackwardTiling tile_scaled_masked_softmax_backward(const SoftmaxBackwardShape& shape,
                                                                      aclDataType dtype, double scale,
                                                                      const SocProfile& soc) {
    ScaledMaskedSoftmaxBackwardTiling t{};
    t.shape = shape;
    t.blocks = BlockSplit::front_loaded(shape.batch * shape.heads * shape.rows, soc.vectorCoreCount, shape.length);
    t.paddedLength = align_up(shape.length, kRepeatFloats);
    t.reduction = t.paddedLength <= kMaxFoldedLength ? RowReduction::kFoldedBlocksOf8 : RowReduction::kBlocksOf64;
    const int64_t ubLines = t.reduction == RowReduction::kFoldedBlocksOf8
                                ? folded_lines_per_loop(t.paddedLength, dtype, soc.ubSize)
                                : block_lines_per_loop(t.paddedLength, dtype, soc.ubSize);
    t.linesPerLoop = std::max<int64_t>(1, std::min(ubLines, t.blocks.block(0).size()));
    t.scale = static_cast<float>(scale);
    t.stagingBytesPerBlock = kStagedRows * UbStaging::workspace_stride(t.linesPerLoop * t.paddedLength * 4);
    const uint64_t staging =
        static_cast<uint64_t>(UbStaging::workspace_bytes(t.blocks.count(), t.stagingBytesPerBlock));
    t.workspaceSize = std::max(kSystemWorkspaceBytes, staging);
    return t;
}

}  // namespace aclcpu::ops
