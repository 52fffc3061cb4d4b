// acl-cpu: the RotaryPositionEmbedding kernel (aclnnRotaryPositionEmbedding).
#pragma once

#include "common/internal.hpp"

#include <cstdint>
#include <string>

#include "aclcpu/nnopbase.hpp"
#include "aclcpu/soc_profile.hpp"
#include "common/block_launch.hpp"
#include "common/strided_layout.hpp"
#include "common/tiling.hpp"

namespace aclcpu::ops {

/// The rotations of the A2 kernels (op_kernel/rotate_half*.h,
/// rotate_interleaved_*.h), h = D / 2:
///   kHalf        y[i] = x[i] c[i] - x[i+h] s[i],  y[i+h] = x[i+h] c[i+h] + x[i] s[i+h]   (i < h)
///   kInterleave  y[2i] = x[2i] c[2i] - x[2i+1] s[2i],  y[2i+1] = x[2i+1] c[2i+1] + x[2i] s[2i+1]
/// in fp32 (FLOAT16 and BF16 cast up exactly), two products and one sum,
/// rounded once to the output dtype (CAST_RINT).
enum class RopeMode : uint8_t { kHalf = 0, kInterleave = 1 };

/// Rows of D elements over blocks: the rows are x's (B, S, N) positions.
struct RopePlan {
    RopeMode mode = RopeMode::kHalf;
    int64_t length = 0;  ///< D
    BlockSplit blocks;   ///< rows over blocks
};

/// x and out over x's 4-D shape; cos and sin broadcast to it.
struct RopeOperands {
    StridedLayout x;
    StridedLayout cos;
    StridedLayout sin;
    StridedLayout y;
};

RopePlan plan_rope(RopeMode mode, int64_t rows, int64_t length, const SocProfile& soc);

class RopeKernel final : public TiledKernelOf<RopePlan, RopeOperands> {
public:
    using TiledKernelOf::TiledKernelOf;
    aclError launch(const LaunchArgs& args) const noexcept override;
};

}  // namespace aclcpu::ops
