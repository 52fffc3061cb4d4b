// acl-cpu: the PreluBackward kernel.
#include "prelu_backward/prelu_backward_kernel.hpp"

#include <algorithm>
#include <cstddef>

#include "common/block_launch.hpp"
#include "common/dtype.hpp"

namespace aclcpu::ops {
namespace {

/// One update block's UB: a chunk of self, gradOutput and gradInput in fp32,
/// and the chunk's per-run update sums.
struct ChunkBuffers {
    float* x;
    float* dy;
    float* dx;
    float* runSums;
};

ChunkBuffers carve(std::byte* ub, int64_t chunkElements) {
    const int64_t slot = UbStaging::workspace_stride(chunkElements * int64_t{sizeof(float)});
    const auto at = [&](int64_t k) { return reinterpret_cast<float*>(ub + k * slot); };
    return {at(0), at(1), at(2), at(3)};
}

/// Calls visit(run, begin, end) for the channel runs of elements
/// [first, first + count) of self, begin/end relative to first; run r has
/// channel (channel_of(first) + r) % channels.
template <class Visit>
int64_t for_each_run(const PreluGeometry& g, int64_t first, int64_t count, Visit&& visit) {
    int64_t run = 0;
    for (int64_t begin = 0; begin < count; ++run) {
        const int64_t end = std::min(count, begin + g.inner - (first + begin) % g.inner);
        visit(run, begin, end);
        begin = end;
    }
    return run;
}

/// Computes gradInput of a staged chunk into dx and adds the chunk's update
/// sums to the block's partials.  x is overwritten with update.
void update_chunk(const PreluGeometry& g, aclDataType dtype, const float* weight, int64_t first, int64_t count,
                  const ChunkBuffers& ub, float* partials) {
    const int64_t firstChannel = g.channel_of(first);
    const auto channel_of_run = [&](int64_t run) { return (firstChannel + run) % g.channels; };
    for_each_run(g, first, count, [&](int64_t run, int64_t begin, int64_t end) {
        const float w = weight[channel_of_run(run)];
        for (int64_t i = begin; i < end; ++i) {
            // NaN compares false, so NaN self takes the w * gradOutput branch.
            const bool positive = ub.x[i] > 0.0f;
            ub.dx[i] = positive ? ub.dy[i] : w * ub.dy[i];
            ub.x[i] = positive ? 0.0f : ub.x[i] * ub.dy[i];
        }
    });
    round_through(dtype, ub.x, count);
    // Runs r and r + channels share a channel: the first sets its sum, later ones add.
    const int64_t runs = for_each_run(g, first, count, [&](int64_t run, int64_t begin, int64_t end) {
        float sum = 0.0f;
        for (int64_t i = begin; i < end; ++i) sum += ub.x[i];
        if (run < g.channels) {
            ub.runSums[run] = sum;
        } else {
            ub.runSums[run % g.channels] += sum;
        }
    });
    for (int64_t r = 0; r < std::min(runs, g.channels); ++r) partials[channel_of_run(r)] += ub.runSums[r];
}

float* workspace_floats(void* workspace, uint64_t offset) {
    return reinterpret_cast<float*>(static_cast<std::byte*>(workspace) + offset);
}

}  // namespace

aclError PreluBackwardKernel::launch(const LaunchArgs& args) const noexcept {
    const aclError status = check_tensor_addresses(name(), args, 3, 2);
    if (status != ACL_SUCCESS) return status;
    gather(operands_.weight, args.inputs[2], 0, tiling_.geometry.channels,
           workspace_floats(args.workspace, tiling_.weightOffset));
    const aclError updated = update(args);
    return updated != ACL_SUCCESS ? updated : reduce(args);
}

aclError PreluBackwardKernel::update(const LaunchArgs& args) const noexcept {
    const PreluGeometry& g = tiling_.geometry;
    const float* weight = workspace_floats(args.workspace, tiling_.weightOffset);
    const UbStaging staging = UbStaging::in_workspace(static_cast<std::byte*>(args.workspace) + tiling_.stagingOffset,
                                                      tiling_.stagingBytesPerBlock);
    const int64_t blockDim = static_cast<int64_t>(tiling_.updateBlocks.size());
    return launch_blocks(name(), blockDim, [&](int64_t blockIdx) {
        const ChunkBuffers ub = carve(staging.for_block(blockIdx), tiling_.chunkElements);
        float* partials = tiling_.partials_of(args.workspace, blockIdx);
        std::fill(partials, partials + g.channels, 0.0f);
        const Range share = tiling_.updateBlocks[static_cast<size_t>(blockIdx)];
        for (int64_t first = share.begin; first < share.end; first += tiling_.chunkElements) {
            const int64_t count = std::min(tiling_.chunkElements, share.end - first);
            gather(operands_.self, args.inputs[1], first, count, ub.x);
            gather(operands_.gradOutput, args.inputs[0], first, count, ub.dy);
            update_chunk(g, tiling_.dtype, weight, first, count, ub, partials);
            scatter(ub.dx, operands_.gradInput, args.outputs[0], first, count);
        }
    });
}

aclError PreluBackwardKernel::reduce(const LaunchArgs& args) const noexcept {
    const int64_t updateBlocks = static_cast<int64_t>(tiling_.updateBlocks.size());
    // Block 0's partials accumulate the others', in block order.
    float* total = tiling_.partials_of(args.workspace, 0);
    const int64_t blockDim = static_cast<int64_t>(tiling_.reduceBlocks.size());
    return launch_blocks(name(), blockDim, [&](int64_t blockIdx) {
        const Range channels = tiling_.reduceBlocks[static_cast<size_t>(blockIdx)];
        for (int64_t b = 1; b < updateBlocks; ++b) {
            const float* partials = tiling_.partials_of(args.workspace, b);
            for (int64_t c = channels.begin; c < channels.end; ++c) total[c] += partials[c];
        }
        scatter(total + channels.begin, operands_.gradWeight, args.outputs[1], channels.begin, channels.size());
    });
}

}  // namespace aclcpu::ops
