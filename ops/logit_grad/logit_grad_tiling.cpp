// acl-cpu: tiling of LogitGrad.
#include "logit_grad/logit_grad_tiling.hpp"

namespace aclcpu::ops {

LogitGradTiling tile_logit_grad(int64_t numel, const SocProfile& soc) {
    LogitGradTiling tiling;
    const int64_t chunks = ceil_div(numel, kLogitGradChunk);
    const std::vector<Range> chunksPerBlock = split_front_loaded(chunks, soc.vectorCoreCount);
    const int64_t blockDim = static_cast<int64_t>(chunksPerBlock.size());
    const int64_t longerBlocks = chunks % blockDim;
    const size_t shortBlock = static_cast<size_t>((longerBlocks != 0 ? longerBlocks : blockDim) - 1);
    const int64_t shortfall = chunks * kLogitGradChunk - numel;
    int64_t begin = 0;
    for (size_t b = 0; b < chunksPerBlock.size(); ++b) {
        const int64_t size = chunksPerBlock[b].size() * kLogitGradChunk - (b == shortBlock ? shortfall : 0);
        tiling.elementwise.blocks.push_back({begin, begin + size});
        begin += size;
    }
    tiling.elementwise.chunkElements = kLogitGradChunk;
    tiling.workspaceSize = kLogitGradWorkspace;
    tiling.stagingBytesPerBlock = elementwise_staging_bytes(2, kLogitGradChunk);
    return tiling;
}

}  // namespace aclcpu::ops
