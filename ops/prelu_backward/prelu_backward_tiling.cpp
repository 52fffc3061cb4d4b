#include "prelu_backward/prelu_backward_tiling.hpp"

#include <algorithm>
#include <cstddef>

#include "common/block_launch.hpp"
#include "common/dtype.hpp"
#include "common/elementwise.hpp"

namespace aclcpu::ops {
namespace {

constexpr int64_t kUbReservedBytes = 16 * 1024;  // pipe queues and compare masks
constexpr int64_t kRepeatElements = 64;          // one 256-byte vector repeat of fp32
constexpr int64_t kChannelsPerReduceRepeat = 64;

// x, gradOutput, gradInput and update in the storage dtype, plus fp32 copies
// of x, gradOutput and update for 2-byte dtypes.
int64_t ub_bytes_per_element(aclDataType dtype) {
    const int64_t size = element_size(dtype);
    return 4 * size + (size == 4 ? 0 : 3 * 4);
}

uint64_t slice(int64_t bytes) { return static_cast<uint64_t>(UbStaging::workspace_stride(bytes)); }

}  // namespace

float* PreluBackwardTiling::partials_of(void* workspace, int64_t block) const noexcept {
    auto* base = static_cast<std::byte*>(workspace) + partialsOffset;
    return reinterpret_cast<float*>(base) + block * geometry.channels;
}

PreluBackwardTiling tile_prelu_backward(const PreluGeometry& geometry, aclDataType dtype, const SocProfile& soc) {
    PreluBackwardTiling t{};
    t.geometry = geometry;
    t.dtype = dtype;
    const int64_t cores = std::max<int64_t>(soc.vectorCoreCount, 1);
    t.updateBlocks = BlockSplit::by_factor(geometry.elements, cores, kUbBlockBytes / element_size(dtype));
    // A channel's reduction adds one partial per update block.
    t.reduceBlocks = BlockSplit::by_factor(geometry.channels, cores, kChannelsPerReduceRepeat, t.updateBlocks.count());
    t.chunkElements = ub_chunk_elements(soc.ubSize - kUbReservedBytes, ub_bytes_per_element(dtype), kRepeatElements,
                                        t.updateBlocks.block(0).size());
    t.stagingBytesPerBlock = elementwise_staging_bytes(2, t.chunkElements);

    const int64_t blocks = t.updateBlocks.count();
    t.weightOffset = 0;
    t.partialsOffset = t.weightOffset + slice(geometry.channels * int64_t{sizeof(float)});
    t.stagingOffset = t.partialsOffset + slice(blocks * geometry.channels * int64_t{sizeof(float)});
    t.workspaceSize = t.stagingOffset + static_cast<uint64_t>(UbStaging::workspace_bytes(blocks, t.stagingBytesPerBlock));
    return t;
}

}  // namespace aclcpu::ops
