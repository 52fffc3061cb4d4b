// acl-cpu: tiling of LogitGrad (aclnnLogitGrad).
#pragma once

#include "common/internal.hpp"

#include <cstdint>

#include "aclcpu/soc_profile.hpp"
#include "common/elementwise.hpp"

namespace aclcpu::ops {

/// LogitGrad's A2 tiling.  The N elements are cut into ceil(N / 8192)
/// chunks of 8192; blockDim = clamp(chunks, 1, vectorCoreCount); block i
/// takes floor(chunks / blockDim) chunks, one more for the first
/// chunks % blockDim blocks, as one contiguous range.  The short remainder
/// chunk ends block (chunks % blockDim) - 1, or the last block when the
/// division is exact; later blocks' ranges shift by it (a chunk is at least
/// kMinBlockElements, so acl-cpu's minimum block never merges blocks here).
/// Workspace: a fixed 16 MiB, in which each block's UB staging is carved.
struct LogitGradTiling {
    ElementwiseTiling elementwise;
    uint64_t workspaceSize = 0;
    int64_t stagingBytesPerBlock = 0;
};

/// Elements per chunk (and per UB pass) of the LogitGrad kernel.
inline constexpr int64_t kLogitGradChunk = 8192;
/// The workspace LogitGrad's tiling requests, whatever the input.
inline constexpr uint64_t kLogitGradWorkspace = 16u * 1024u * 1024u;

LogitGradTiling tile_logit_grad(int64_t numel, const SocProfile& soc);

}  // namespace aclcpu::ops
