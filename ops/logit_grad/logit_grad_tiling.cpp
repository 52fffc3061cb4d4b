// acl-cpu: tiling of LogitGrad.
#include "logit_grad/logit_grad_tiling.hpp"

namespace aclcpu::ops {

LogitGradTiling tile_logit_grad(int64_t numel, const SocProfile& soc) {
    LogitGradTiling tiling;
    const int64_t chunks = ceil_div(numel, kLogitGradChunk);
    const BlockSplit chunksPerBlock = BlockSplit::front_loaded(chunks, soc.vectorCoreCount, kLogitGradChunk);
    const int64_t longerBlocks = chunksPerBlock.longer_blocks();
    const int64_t shortBlock = (longerBlocks != 0 ? longerBlocks : chunksPerBlock.count()) - 1;
    tiling.elementwise.blocks =
        chunksPerBlock.in_units_of(kLogitGradChunk, shortBlock, chunks * kLogitGradChunk - numel);
    tiling.elementwise.chunkElements = kLogitGradChunk;
    tiling.workspaceSize = kLogitGradWorkspace;
    tiling.stagingBytesPerBlock = elementwise_staging_bytes(2, kLogitGradChunk);
    return tiling;
}

}  // namespace aclcpu::ops
