// acl-cpu: tiling of the arithmetic family.
#include "arithmetic/arithmetic_tiling.hpp"

namespace aclcpu::ops {

namespace {
constexpr int64_t kStagedNodes = 3;
}  // namespace

ElementwiseTiling tile_arithmetic(int64_t numel, aclDataType outDtype, int64_t laneBytes, const SocProfile& soc) {
    ElementwiseTiling tiling;
    const int64_t nodeBytes = align_down(soc.ubSize / kStagedNodes, kUbBlockBytes);
    tiling.chunkElements = ub_chunk_elements(nodeBytes, laneBytes, kUbBlockBytes / laneBytes, numel);
    tiling.blocks = BlockSplit::by_factor(numel, soc.vectorCoreCount, kUbBlockBytes / element_size(outDtype));
    return tiling;
}

}  // namespace aclcpu::ops
