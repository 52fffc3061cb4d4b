// acl-cpu: the ScaledMaskedSoftmaxGradV2 kernel, compiled for every SIMD
// target Highway dispatches to at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "scaled_masked_softmax_backward/scaled_masked_softmax_backward_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <algorithm>
#include <cstddef>
#include <cstring>

#include <hwy/highway.h>

#include "common/block_launch.hpp"
#include "common/dtype.hpp"
#include "common/hwy_target.hpp"
#include "common/simd-inl.h"
#include "scaled_masked_softmax_backward/scaled_masked_softmax_backward_kernel.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

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

constexpr int64_t kUbBlockFloats = 8;
constexpr int64_t kRepeatBlocks = 8;  // 8-element blocks in a 64-element repeat
constexpr int64_t kMaxLength = 4096;  // S2 <= 4096 on A2

/// The row sum in the A2 kernel's order from the sums of the row's
/// 8-element blocks (each a tree), repeats of 64 elements in order.
/// kFoldedBlocksOf8 (SoftmaxGrad API): the k-th block of every repeat folded
/// in order into partial k, the 8 partials summed as a tree.  kBlocksOf64:
/// each repeat summed as a tree (WholeReduceSum), then the repeat sums as a
/// tree.  Overwrites blockSums.
float row_sum_of_blocks(float* blockSums, int64_t repeats, RowReduction reduction) {
    if (reduction == RowReduction::kBlocksOf64) {
        for (int64_t r = 0; r < repeats; ++r) {
            blockSums[r] = tree_sum(blockSums + r * kRepeatBlocks, kRepeatBlocks);
        }
        return tree_sum(blockSums, repeats);
    }
    for (int64_t r = 1; r < repeats; ++r) {
        for (int64_t k = 0; k < kRepeatBlocks; ++k) blockSums[k] += blockSums[r * kRepeatBlocks + k];
    }
    return tree_sum(blockSums, kRepeatBlocks);
}


/// The row sum's vectors: at most 8 lanes, so that a pairwise level never
/// needs more than the 16 elements of two vectors, whatever the target.
using RowTag = hn::CappedTag<float, 8>;
/// The elementwise pass after the sum: the target's full width.
using LaneTag = hn::ScalableTag<float>;

/// Lanes i.. of a row of length elements at p as fp32, zero past its end.
template <class D, class T>
HWY_INLINE hn::Vec<D> row_lanes(D d, const T* p, int64_t i, int64_t length) {
    const auto lanes = static_cast<int64_t>(hn::Lanes(d));
    if (HWY_LIKELY(i + lanes <= length)) return load_f32(d, p + i);
    if (i >= length) return hn::Zero(d);
    return load_f32_partial(d, p + i, static_cast<size_t>(length - i));
}

/// Lanes i.. of a mask row of length elements: true where masked.
template <class D>
HWY_INLINE hn::Mask<D> masked_lanes(D d, const uint8_t* mask, int64_t i, int64_t length) {
    const hn::RebindToUnsigned<D> du;
    const hn::Rebind<uint8_t, D> d8;
    const auto lanes = static_cast<int64_t>(hn::Lanes(d));
    uint8_t tail[kMaxFloatLanes] = {};
    const uint8_t* bytes = mask + i;
    if (i + lanes > length) bytes = static_cast<const uint8_t*>(std::memcpy(tail, bytes, static_cast<size_t>(length - i)));
    return hn::RebindMask(d, hn::Ne(hn::PromoteTo(du, hn::LoadU(d8, bytes)), hn::Zero(du)));
}
template <class D>
HWY_INLINE hn::Mask<D> masked_lanes(D d, const float* mask, int64_t i, int64_t length) {
    return hn::Ne(row_lanes(d, mask, i, length), hn::Zero(d));
}

/// One pairwise level of a reduction tree over the elements of lo then hi:
/// lane j of the result is element 2j plus element 2j + 1.
HWY_INLINE hn::Vec<RowTag> add_neighbours(hn::Vec<RowTag> lo, hn::Vec<RowTag> hi) {
#if HWY_TARGET == HWY_SCALAR
    return hn::Add(lo, hi);
#else
    const RowTag d;
    return hn::Add(hn::ConcatEven(d, hi, lo), hn::ConcatOdd(d, hi, lo));
#endif
}

/// The levels of the pairwise tree that sum each 8-element block.
constexpr int kBlockLevels = 3;
static_assert(int64_t{1} << kBlockLevels == kUbBlockFloats);

/// Level `Level` of the pairwise tree over a row's products gradOutput[i] *
/// y[i] (zero from `length` on): lane j holds node pos + j, the tree's sum
/// of the 2^Level products from (pos + j) * 2^Level on.  Built in registers
/// from the two vectors of the level below, whatever the lane count.
template <int Level, class T>
HWY_INLINE hn::Vec<RowTag> tree_level(const T* gradOutput, const T* y, int64_t pos, int64_t length) {
    const RowTag d;
    if constexpr (Level == 0) {
        return hn::Mul(row_lanes(d, gradOutput, pos, length), row_lanes(d, y, pos, length));
    } else {
        const auto lanes = static_cast<int64_t>(hn::Lanes(d));
        return add_neighbours(tree_level<Level - 1>(gradOutput, y, 2 * pos, length),
                              tree_level<Level - 1>(gradOutput, y, 2 * pos + lanes, length));
    }
}

/// One row (see ScaledMaskedSoftmaxBackwardKernel): gradOutput and y of
/// type T, mask of type M (bytes or staged 0/1 floats), out of type U (may
/// be gradOutput).
template <class T, class M, class U>
void softmax_grad_row(const T* gradOutput, const T* y, const M* mask, U* out,
                      const ScaledMaskedSoftmaxBackwardTiling& tiling) {
    const RowTag d;
    const auto lanes = static_cast<int64_t>(hn::Lanes(d));
    const int64_t length = tiling.shape.length;
    const int64_t padded = tiling.paddedLength;

    // The sums of the row's 8-element blocks, in order, over the
    // zero-padded products.
    float blockSums[kMaxLength / kUbBlockFloats];
    const int64_t blocks = padded / kUbBlockFloats;
    for (int64_t b = 0; b < blocks; b += lanes) {
        hn::StoreU(tree_level<kBlockLevels>(gradOutput, y, b, length), d, blockSums + b);
    }
    const float sum = row_sum_of_blocks(blockSums, blocks / kRepeatBlocks, tiling.reduction);

    const LaneTag dl;
    const auto fullLanes = static_cast<int64_t>(hn::Lanes(dl));
    const auto sums = hn::Set(dl, sum);
    const auto scale = hn::Set(dl, tiling.scale);
    for (int64_t i = 0; i < length; i += fullLanes) {
        const int64_t count = std::min(fullLanes, length - i);
        const auto yv = row_lanes(dl, y, i, length);
        auto grad = hn::Sub(hn::Mul(row_lanes(dl, gradOutput, i, length), yv), hn::Mul(yv, sums));
        if (tiling.scale != 1.0f) grad = hn::Mul(grad, scale);
        grad = hn::IfThenZeroElse(masked_lanes(dl, mask, i, length), grad);
        if (HWY_LIKELY(count == fullLanes)) {
            store_f32(dl, grad, out + i);
        } else {
            store_f32_partial(dl, grad, out + i, static_cast<size_t>(count));
        }
    }
}

/// Row `line` of an operand whose rows are contiguous, as E*.
template <class E>
E* row_of(const void* data, const StridedLayout& layout, int64_t line, int64_t length) {
    return static_cast<E*>(const_cast<void*>(data)) + layout.position_of(line * length);
}

/// The lines of one slice of a block with T the element type of the data's dtype.
template <class T>
void softmax_grad_slice(const ScaledMaskedSoftmaxBackwardKernel::Job& job, const BlockSlice& slice) {
    const ScaledMaskedSoftmaxBackwardTiling& tiling = job.tiling;
    const SoftmaxBackwardOperands& operands = job.operands;
    const void* const* inputs = job.args.inputs;
    void* outData = job.args.outputs[0];
    const int64_t length = tiling.shape.length;
    const Range lines = slice.units;
    if (operands.rows_contiguous(length)) {
        for (int64_t line = lines.begin; line < lines.end; ++line) {
            softmax_grad_row(row_of<const T>(inputs[0], operands.gradOutput, line, length),
                             row_of<const T>(inputs[1], operands.y, line, length),
                             row_of<const uint8_t>(inputs[2], operands.mask, line, length),
                             row_of<T>(outData, operands.out, line, length), tiling);
        }
        return;
    }
    const UbStaging staging = UbStaging::in_workspace(job.args.workspace, tiling.stagingBytesPerBlock);
    std::byte* ub = staging.for_block(slice.block);
    const int64_t slot = UbStaging::workspace_stride(length * int64_t{sizeof(float)});
    float* grad = reinterpret_cast<float*>(ub);
    float* y = reinterpret_cast<float*>(ub + slot);
    float* mask = reinterpret_cast<float*>(ub + 2 * slot);
    for (int64_t line = lines.begin; line < lines.end; ++line) {
        gather(operands.gradOutput, inputs[0], line * length, length, grad);
        gather(operands.y, inputs[1], line * length, length, y);
        gather(operands.mask, inputs[2], line * length, length, mask);
        softmax_grad_row(grad, y, mask, grad, tiling);
        scatter(grad, operands.out, outData, line * length, length);
    }
}

}  // namespace

void scaled_masked_softmax_backward_slice(const ScaledMaskedSoftmaxBackwardKernel::Job& job, const BlockSlice& slice) {
    visit_compute_dtype(job.operands.out.dtype(), [&](auto tag) { softmax_grad_slice<decltype(tag)>(job, slice); });
}

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
namespace aclcpu::ops {

HWY_EXPORT(scaled_masked_softmax_backward_slice);

aclError ScaledMaskedSoftmaxBackwardKernel::launch(const LaunchArgs& args) const noexcept {
    if (aclError status = check_tensor_addresses(name(), args, 3, 1); status != ACL_SUCCESS) return status;
    const Job job{tiling_, operands_, args};
    // gradOutput, y and out rows of the data's dtype, plus the mask's bytes.
    const int64_t bytesPerLine = tiling_.shape.length * (3 * element_size(operands_.gradOutput.dtype()) + 1);
    // Staged rows share their block's workspace slot.
    const int64_t granule = operands_.rows_contiguous(tiling_.shape.length) ? 1 : kUncutBlocks;
    return launch_block_slices(name(), tiling_.blocks, bytesPerLine, granule, [&](const BlockSlice& slice) {
        HWY_DYNAMIC_DISPATCH(scaled_masked_softmax_backward_slice)(job, slice);
    });
}

}  // namespace aclcpu::ops
#endif  // HWY_ONCE
