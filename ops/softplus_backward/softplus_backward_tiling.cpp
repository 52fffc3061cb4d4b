// acl-cpu: tiling of SoftplusV2Grad.
#include "softplus_backward/softplus_backward_tiling.hpp"

namespace aclcpu::ops {

namespace {
constexpr int64_t kStagedNodes = 3;
constexpr int64_t kStagedBytes = sizeof(float);
}  // namespace

ElementwiseTiling tile_softplus_backward(int64_t numel, aclDataType computeDtype, const SocProfile& soc) {
    ElementwiseTiling tiling;
    const int64_t nodeBytes = align_down(soc.ubSize / kStagedNodes, kUbBlockBytes);
    tiling.chunkElements =
        ub_chunk_elements(nodeBytes, kStagedBytes, kUbBlockBytes / kStagedBytes, numel);
    tiling.blocks =
        BlockSplit::by_factor(numel, soc.vectorCoreCount, kUbBlockBytes / element_size(computeDtype));
    return tiling;
}

}  // namespace aclcpu::ops
