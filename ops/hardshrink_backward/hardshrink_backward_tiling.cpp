// acl-cpu: tiling of HardShrinkGrad.
#include "hardshrink_backward/hardshrink_backward_tiling.hpp"

namespace aclcpu::ops {

namespace {

/// UB reserved for the pipe's queues (8 KiB) and the Select temporary (8 KiB).
constexpr int64_t kReservedUb = 16 * 1024;
constexpr int64_t kDoubleBufferThreshold = 1024;

/// UB bytes one element costs: three queues, plus two fp32 temporaries for BF16.
int64_t bytes_per_element(aclDataType dtype, bool doubleBuffer) {
    switch (dtype) {
        case ACL_FLOAT16: return doubleBuffer ? 12 : 6;
        case ACL_BF16: return doubleBuffer ? 20 : 14;
        default: return doubleBuffer ? 24 : 12;
    }
}

}  // namespace

ElementwiseTiling tile_hardshrink_backward(int64_t numel, aclDataType computeDtype, const SocProfile& soc) {
    ElementwiseTiling tiling;
    const bool doubleBuffer = numel > kDoubleBufferThreshold;
    const int64_t alignment = computeDtype == ACL_FLOAT16 ? 128 : 64;
    tiling.chunkElements = ub_chunk_elements(
        soc.ubSize - kReservedUb, bytes_per_element(computeDtype, doubleBuffer), alignment, numel);
    tiling.blocks = BlockSplit::by_factor(numel, soc.vectorCoreCount);
    return tiling;
}

}  // namespace aclcpu::ops
