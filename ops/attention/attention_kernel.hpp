// acl-cpu: the flash-attention kernel of aclnnFusedInferAttentionScoreV2.
//
// out[b, n, i] = sum_j P[i, j] V[b, n2, j] / sum_j P[i, j] over the keys j
// row i may see, with s[i, j] = scale * (Q[b, n, i] . K[b, n2, j]) +
// pse[b, n, i, j] (CANN's order: Muls by scaleValue, then the pse add) and
// P = e^(s - rowmax), n2 = n / (N / N2) (grouped KV heads).  A key is seen
// when the mask (if any) is 0 there, j is below the batch's actual KV
// length, and j - i lies in [bandLow, bandHigh] (counted from the batch's
// right-down corner, actual KV length - actual query length, when
// fromCorner).  Rows from the batch's actual query length on see nothing.
//
// The work is units of kQueryTile query rows of one (b, n); a unit walks the
// keys in tiles of kKeyTile with an online softmax in fp32 (running max and
// sum per row, the accumulator rescaled when the max grows), so its memory
// is O(tile) whatever S2 is.  Q . K^T and P . V go through gemm_f32 on fp32
// tiles staged in the worker's UB staging; P is rounded to the Cube's input
// dtype (query's) before P . V, as the Cube reads it.  A unit's result
// depends only on the operands, never on the worker that runs it: results
// are bitwise identical for any worker count.
//
// Rows that see no key (masked out entirely, or S2 = 0) give 0 in out (the
// doc's innerPrecise "row-invalid correction", which acl-cpu applies always)
// and -inf in softmaxLse (log of an empty sum).
#pragma once

#include "common/internal.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

#include "aclcpu/nnopbase.hpp"
#include "aclcpu/soc_profile.hpp"
#include "common/block_launch.hpp"
#include "common/strided_layout.hpp"
#include "common/tiling.hpp"

namespace aclcpu::ops {

inline constexpr int64_t kQueryTile = 128;
inline constexpr int64_t kKeyTile = 512;

/// Sizes, parameters and the split of units over blocks.
struct AttentionPlan {
    int64_t batch = 0;
    int64_t heads = 0;    ///< N
    int64_t kvHeads = 0;  ///< N2, dividing N
    int64_t s1 = 0;
    int64_t s2 = 0;
    int64_t dk = 0;  ///< D of query and key
    int64_t dv = 0;  ///< D of value and out
    float scale = 1.0f;
    int64_t bandLow = INT64_MIN;   ///< the least j - i a row sees (bounded by +-(S1 + S2))
    int64_t bandHigh = INT64_MAX;  ///< the greatest
    bool fromCorner = false;       ///< the band counts from the right-down corner
    std::vector<int64_t> queryLengths;  ///< per batch, in [0, S1]; empty: S1
    std::vector<int64_t> kvLengths;     ///< per batch, in [0, S2]; empty: S2
    aclDataType cubeInput = ACL_FLOAT16;  ///< what P is rounded to before P . V
    BlockSplit blocks;                    ///< units (b, n, query tile) over blocks

    int64_t query_tiles() const noexcept { return (s1 + kQueryTile - 1) / kQueryTile; }
};

/// The operands as 4-D iteration spaces: query [B, N, S1, Dk], key
/// [B, N2, S2, Dk], value [B, N2, S2, Dv], pse and mask [B, N, S1, S2]
/// (broadcast), out [B, N, S1, Dv], lse [B, N, S1].  pse and mask are the
/// inputs pseInput and maskInput (-1: absent); lse the output 1 when hasLse.
struct AttentionOperands {
    StridedLayout query;
    StridedLayout key;
    StridedLayout value;
    StridedLayout pse;
    StridedLayout mask;
    StridedLayout out;
    StridedLayout lse;
    size_t inputCount = 3;  ///< the inputs the executor holds (a mask it does not read too)
    int pseInput = -1;
    int maskInput = -1;
    bool hasLse = false;
};

AttentionPlan plan_attention(AttentionPlan sizes, const SocProfile& soc);

class AttentionKernel final : public TiledKernelOf<AttentionPlan, AttentionOperands> {
public:
    using TiledKernelOf::TiledKernelOf;
    aclError launch(const LaunchArgs& args) const noexcept override;
};

}  // namespace aclcpu::ops
