// acl-cpu: the A2 tiling of ScaledMaskedSoftmaxGradV2 (aclnnScaledMaskedSoftmaxBackward).
#pragma once

#include "common/internal.hpp"

#include <cstdint>

#include "acl/acl_base.h"
#include "aclcpu/soc_profile.hpp"
#include "common/tiling.hpp"

namespace aclcpu::ops {

/// The data's [B, N, S1, S2].
struct SoftmaxBackwardShape {
    int64_t batch;
    int64_t heads;
    int64_t rows;    ///< S1
    int64_t length;  ///< S2, the reduced axis
};

/// How the A2 kernel reduces one row: padded rows of at most 1024 go through
/// the SoftmaxGrad high-level API (8-element blocks folded into 8 partials),
/// longer rows through a manual 64-element block reduction.
enum class RowReduction : uint8_t { kFoldedBlocksOf8, kBlocksOf64 };

/// Rows over cores as the A2 tiling splits them: B*N*S1 lines over
/// min(lines, vectorCoreCount) blocks -- fewer, at least one, where a block
/// would get under kMinBlockElements elements of whole lines -- each a
/// contiguous run, the first lines % blockDim blocks taking one line more;
/// a block walks its run linesPerLoop lines at a time (what fits in UB).
/// The workspace is sized for a loop's rows as fp32 (zero-padded to
/// paddedLength) per block, in the Ascend C system workspace; acl-cpu's
/// kernel stages there, a row at a time, only the rows of operands that are
/// not contiguous.
struct ScaledMaskedSoftmaxBackwardTiling {
    SoftmaxBackwardShape shape;
    BlockSplit blocks;            ///< line ranges
    int64_t paddedLength;         ///< S2 rounded up to one fp32 repeat (64)
    int64_t linesPerLoop;
    RowReduction reduction;
    float scale;                  ///< the attribute as the kernel holds it
    int64_t stagingBytesPerBlock; ///< gradOutput, y and mask rows of one loop, fp32
    uint64_t workspaceSize;
};

/// Bytes of the Ascend C system workspace (GetLibApiWorkSpaceSize) the A2
/// tiling requests; the staging is carved out of it.
inline constexpr uint64_t kSystemWorkspaceBytes = 16ull << 20;

/// Tiles a non-empty problem for soc; dtype is gradOutput's.
ScaledMaskedSoftmaxBackwardTiling tile_scaled_masked_softmax_backward(const SoftmaxBackwardShape& shape,
                                                                      aclDataType dtype, double scale,
                                                                      const SocProfile& soc);

}  // namespace aclcpu::ops
