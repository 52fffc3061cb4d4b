// acl-cpu: the PreluBackward kernel; its update phase is compiled for every
// SIMD target Highway dispatches to at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "prelu_backward/prelu_backward_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <algorithm>
#include <cstddef>

#include <hwy/highway.h>

#include "common/block_launch.hpp"
#include "common/dtype.hpp"
#include "common/hwy_target.hpp"
#include "common/simd-inl.h"
#include "prelu_backward/prelu_backward_kernel.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

/// Running sums of one channel run (see PreluBackwardTiling).
constexpr size_t kRunSums = 16;

/// Computes gradInput of n consecutive elements of one channel run (weight
/// w) into dx, and adds their update values, rounded to R, to
/// sums[i % kRunSums].  Every element lands in the same sum, in the same
/// order, whatever the SIMD width (at most kRunSums lanes, a power of two).
template <class R, class T, class U>
HWY_INLINE void update_run(const T* x, const T* dy, U* dx, size_t n, float w, float* sums) {
    const hn::CappedTag<float, kRunSums> d;
    const size_t lanes = hn::Lanes(d);
    for (size_t i = 0; i < n; i += lanes) {
        const size_t count = std::min(lanes, n - i);
        const bool whole = count == lanes;
        const auto xv = whole ? load_f32(d, x + i) : load_f32_partial(d, x + i, count);
        const auto dyv = whole ? load_f32(d, dy + i) : load_f32_partial(d, dy + i, count);
        // NaN compares false, so NaN self takes the w * gradOutput branch.
        const auto positive = hn::Gt(xv, hn::Zero(d));
        const auto grad = hn::IfThenElse(positive, dyv, hn::Mul(hn::Set(d, w), dyv));
        const auto update = round_to<R>(d, hn::IfThenZeroElse(positive, hn::Mul(xv, dyv)));
        float* sum = sums + i % kRunSums;
        const auto before = hn::LoadU(d, sum);
        const auto after = hn::Add(before, update);
        hn::StoreU(whole ? after : hn::IfThenElse(hn::FirstN(d, count), after, before), d, sum);
        if (whole) {
            store_f32(d, grad, dx + i);
        } else {
            store_f32_partial(d, grad, dx + i, count);
        }
    }
}

/// The kRunSums sums added pairwise, level by level.
float sum_of_run(float* sums) {
    for (size_t count = kRunSums; count > 1; count /= 2) {
        for (size_t i = 0; i < count / 2; ++i) sums[i] = sums[2 * i] + sums[2 * i + 1];
    }
    return sums[0];
}

/// The update phase of one block with R the element type of the dtype.
template <class R>
void update_block(const PreluUpdateJob& job, int64_t blockIdx) {
    const PreluBackwardTiling& tiling = job.tiling;
    const PreluBackwardOperands& operands = job.operands;
    const PreluGeometry& g = tiling.geometry;
    std::byte* workspace = static_cast<std::byte*>(job.args.workspace);
    const auto* weight = reinterpret_cast<const float*>(workspace + tiling.weightOffset);
    float* partials = tiling.partials_of(job.args.workspace, blockIdx);
    std::fill(partials, partials + g.channels, 0.0f);

    const void* selfData = job.args.inputs[1];
    const void* gradOutputData = job.args.inputs[0];
    void* gradInputData = job.args.outputs[0];
    const bool dense = operands.self.is_linear() && operands.gradOutput.is_linear() && operands.gradInput.is_linear();
    const auto at = [](const void* data, const StridedLayout& layout, int64_t element) {
        return static_cast<R*>(const_cast<void*>(data)) + layout.offset() + element;
    };
    const UbStaging staging = UbStaging::in_workspace(workspace + tiling.stagingOffset, tiling.stagingBytesPerBlock);
    std::byte* ub = staging.for_block(blockIdx);
    const int64_t slot = UbStaging::workspace_stride(tiling.chunkElements * int64_t{sizeof(float)});
    float* x = reinterpret_cast<float*>(ub);
    float* dy = reinterpret_cast<float*>(ub + slot);
    float* dx = reinterpret_cast<float*>(ub + 2 * slot);

    const Range share = tiling.updateBlocks.block(blockIdx);
    for (int64_t first = share.begin; first < share.end;) {
        const int64_t end = std::min(share.end, first + g.inner - first % g.inner);
        const int64_t channel = g.channel_of(first);
        float sums[kRunSums] = {};
        for (int64_t begin = first; begin < end; begin += tiling.chunkElements) {
            const auto n = static_cast<size_t>(std::min(tiling.chunkElements, end - begin));
            if (dense) {
                update_run<R>(at(selfData, operands.self, begin), at(gradOutputData, operands.gradOutput, begin),
                              at(gradInputData, operands.gradInput, begin), n, weight[channel], sums);
            } else {
                gather(operands.self, selfData, begin, static_cast<int64_t>(n), x);
                gather(operands.gradOutput, gradOutputData, begin, static_cast<int64_t>(n), dy);
                update_run<R>(x, dy, dx, n, weight[channel], sums);
                scatter(dx, operands.gradInput, gradInputData, begin, static_cast<int64_t>(n));
            }
        }
        partials[channel] += sum_of_run(sums);
        first = end;
    }
}

}  // namespace

void prelu_update_block(const PreluUpdateJob& job, int64_t blockIdx) {
    visit_compute_dtype(job.tiling.dtype, [&](auto tag) { update_block<decltype(tag)>(job, blockIdx); });
}

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
namespace aclcpu::ops {

HWY_EXPORT(prelu_update_block);

aclError PreluBackwardKernel::launch(const LaunchArgs& args) const noexcept {
    if (aclError status = check_tensor_addresses(name(), args, 3, 2); status != ACL_SUCCESS) return status;
    gather(operands_.weight, args.inputs[2], 0, tiling_.geometry.channels,
           reinterpret_cast<float*>(static_cast<std::byte*>(args.workspace) + tiling_.weightOffset));
    const aclError updated = update(args);
    return updated != ACL_SUCCESS ? updated : reduce(args);
}

aclError PreluBackwardKernel::update(const LaunchArgs& args) const noexcept {
    const PreluUpdateJob job{tiling_, operands_, args};
    // gradOutput and self read, gradInput written.
    const int64_t bytesMoved = tiling_.updateBlocks.total() * 3 * element_size(tiling_.dtype);
    return launch_blocks(name(), tiling_.updateBlocks.count(), bytesMoved,
                         [&](int64_t blockIdx) { HWY_DYNAMIC_DISPATCH(prelu_update_block)(job, blockIdx); });
}

aclError PreluBackwardKernel::reduce(const LaunchArgs& args) const noexcept {
    const int64_t updateBlocks = tiling_.updateBlocks.count();
    // Block 0's partials accumulate the others', in block order.
    float* total = tiling_.partials_of(args.workspace, 0);
    const int64_t bytesMoved = tiling_.reduceBlocks.total() * updateBlocks * int64_t{sizeof(float)};
    return launch_blocks(name(), tiling_.reduceBlocks.count(), bytesMoved, [&](int64_t blockIdx) {
        const Range channels = tiling_.reduceBlocks.block(blockIdx);
        for (int64_t b = 1; b < updateBlocks; ++b) {
            const float* partials = tiling_.partials_of(args.workspace, b);
            for (int64_t c = channels.begin; c < channels.end; ++c) total[c] += partials[c];
        }
        scatter(total + channels.begin, operands_.gradWeight, args.outputs[1], channels.begin, channels.size());
    });
}

}  // namespace aclcpu::ops
#endif  // HWY_ONCE
