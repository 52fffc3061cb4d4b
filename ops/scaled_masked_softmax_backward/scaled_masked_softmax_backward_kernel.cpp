// acl-cpu: the ScaledMaskedSoftmaxGradV2 kernel.
#include "scaled_masked_softmax_backward/scaled_masked_softmax_backward_kernel.hpp"

#include <algorithm>
#include <array>
#include <cstddef>

#include "common/block_launch.hpp"

namespace aclcpu::ops {
namespace {

constexpr int64_t kRepeatFloats = 64;
constexpr int64_t kUbBlockFloats = 8;
constexpr int64_t kMaxRowRepeats = 4096 / kRepeatFloats;  // S2 <= 4096 on A2

/// Adds values[0, count) as the vector unit's reduction tree does:
/// neighbours pairwise, level by level, a zero appended to a level of odd
/// length.  Overwrites values.
float tree_sum(float* values, int64_t count) {
    while (count > 1) {
        const int64_t pairs = count / 2;
        for (int64_t i = 0; i < pairs; ++i) values[i] = values[2 * i] + values[2 * i + 1];
        if (count % 2 != 0) values[pairs] = values[count - 1] + 0.0f;
        count = pairs + count % 2;
    }
    return values[0];
}

template <int64_t N>
float tree_sum_of(const float* values) {
    std::array<float, N> copy;
    std::copy_n(values, N, copy.data());
    return tree_sum(copy.data(), N);
}

/// The sum of a zero-padded row (padded a multiple of 64) in the A2
/// kernel's order.  kFoldedBlocksOf8 (SoftmaxGrad API): each 8-element block
/// summed as a tree, the k-th block of every 64-element repeat folded in
/// order into partial k, the 8 partials summed as a tree.  kBlocksOf64: each
/// repeat summed as a tree (WholeReduceSum), then the repeat sums as a tree.
float row_sum(const float* row, int64_t padded, RowReduction reduction) {
    const int64_t repeats = padded / kRepeatFloats;
    if (reduction == RowReduction::kBlocksOf64) {
        std::array<float, kMaxRowRepeats> sums;
        for (int64_t r = 0; r < repeats; ++r) sums[r] = tree_sum_of<kRepeatFloats>(row + r * kRepeatFloats);
        return tree_sum(sums.data(), repeats);
    }
    std::array<float, kRepeatFloats / kUbBlockFloats> partials;
    for (int64_t k = 0; k < kRepeatFloats / kUbBlockFloats; ++k) {
        float partial = tree_sum_of<kUbBlockFloats>(row + k * kUbBlockFloats);
        for (int64_t r = 1; r < repeats; ++r) {
            partial += tree_sum_of<kUbBlockFloats>(row + r * kRepeatFloats + k * kUbBlockFloats);
        }
        partials[k] = partial;
    }
    return tree_sum(partials.data(), static_cast<int64_t>(partials.size()));
}

/// One row: gradOutput (zero-padded to padded) is replaced by the result in
/// its first length elements.
void softmax_grad_row(float* grad, const float* y, const float* mask, int64_t length, int64_t padded, float scale,
                      RowReduction reduction) {
    for (int64_t i = 0; i < padded; ++i) grad[i] *= y[i];
    const float sum = row_sum(grad, padded, reduction);
    for (int64_t i = 0; i < length; ++i) {
        const float ySum = y[i] * sum;
        grad[i] = grad[i] - ySum;
    }
    if (scale != 1.0f) {
        for (int64_t i = 0; i < length; ++i) grad[i] *= scale;
    }
    for (int64_t i = 0; i < length; ++i) {
        if (mask[i] != 0.0f) grad[i] = 0.0f;
    }
}

/// Loads row `line` of layout into dst and zero-fills dst up to padded.
void stage_row(const StridedLayout& layout, const void* data, int64_t line, int64_t length, int64_t padded,
               float* dst) {
    gather(layout, data, line * length, length, dst);
    std::fill(dst + length, dst + padded, 0.0f);
}

}  // namespace

aclError ScaledMaskedSoftmaxBackwardKernel::launch(const LaunchArgs& args) const noexcept {
    const aclError status = check_tensor_addresses(name(), args, 3, 1);
    if (status != ACL_SUCCESS) return status;
    const int64_t length = tiling_.shape.length;
    const int64_t padded = tiling_.paddedLength;
    const int64_t slot = UbStaging::workspace_stride(tiling_.linesPerLoop * padded * int64_t{sizeof(float)});
    const UbStaging staging = UbStaging::in_workspace(args.workspace, tiling_.stagingBytesPerBlock);
    const int64_t blockDim = static_cast<int64_t>(tiling_.blocks.size());
    return launch_blocks(name(), blockDim, [&](int64_t blockIdx) {
        std::byte* ub = staging.for_block(blockIdx);
        float* grad = reinterpret_cast<float*>(ub);
        float* y = reinterpret_cast<float*>(ub + slot);
        float* mask = reinterpret_cast<float*>(ub + 2 * slot);
        const Range lines = tiling_.blocks[static_cast<size_t>(blockIdx)];
        for (int64_t first = lines.begin; first < lines.end; first += tiling_.linesPerLoop) {
            const int64_t count = std::min(tiling_.linesPerLoop, lines.end - first);
            for (int64_t r = 0; r < count; ++r) {
                stage_row(operands_.gradOutput, args.inputs[0], first + r, length, padded, grad + r * padded);
                stage_row(operands_.y, args.inputs[1], first + r, length, padded, y + r * padded);
                stage_row(operands_.mask, args.inputs[2], first + r, length, padded, mask + r * padded);
            }
            for (int64_t r = 0; r < count; ++r) {
                softmax_grad_row(grad + r * padded, y + r * padded, mask + r * padded, length, padded,
                                 tiling_.scale, tiling_.reduction);
            }
            for (int64_t r = 0; r < count; ++r) {
                scatter(grad + r * padded, operands_.out, args.outputs[0], (first + r) * length, length);
            }
        }
    });
}

}  // namespace aclcpu::ops
