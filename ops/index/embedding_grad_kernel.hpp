// acl-cpu: the kernel of aclnnEmbeddingDenseBackward (ops-nn index/
// embedding_dense_grad_v2): out[w] = the sum of the rows of grad whose index
// is w, w != paddingIdx, in fp32, each sum times 1 / (its row count) when
// scaleGradByFreq.
//
// Blocks own ranges of out's rows, so no two blocks add into one row, and
// every block walks the indices in order: a row's sum adds its grad rows in
// increasing position whatever the worker count or split, the order of
// CANN's deterministic kernel (stable-sorted indices,
// embedding_dense_grad_v2_determinist.h).  The sums and counts are fp32 in
// the workspace, as CANN's are when it casts grad to fp32; the scale is a
// pass after the sums (embedding_dense_grad_v2_scale.h: grad * (1 / count)).
#pragma once

#include "common/internal.hpp"

#include <cstdint>

#include "aclcpu/nnopbase.hpp"
#include "common/block_launch.hpp"
#include "common/strided_layout.hpp"
#include "common/tiling.hpp"

namespace aclcpu::ops {

struct EmbeddingGradTiling {
    /// out's rows (the weights) over blocks.
    BlockSplit blocks;
};

struct EmbeddingGradOperands {
    StridedLayout grad;     ///< over [rows * dim]
    StridedLayout indices;  ///< over [rows]; any dtype acl-cpu loads, cast to an integer as CANN's Cast does
    StridedLayout out;      ///< over [numWeights * dim]
    int64_t rows = 0;
    int64_t dim = 0;
    int64_t numWeights = 0;
    uint64_t paddingIdx = 0;
    bool scaleGradByFreq = false;
};

/// Workspace bytes of a launch: numWeights fp32 rows of sums and the counts.
int64_t embedding_grad_workspace_bytes(const EmbeddingGradOperands& operands) noexcept;

/// Inputs: grad, indices; output: out.  Indices outside [0, numWeights)
/// add nothing (they would address outside out on the device).  Immutable;
/// launch() may run concurrently.
class EmbeddingGradKernel final : public TiledKernelOf<EmbeddingGradTiling, EmbeddingGradOperands> {
public:
    using TiledKernelOf::TiledKernelOf;
    aclError launch(const LaunchArgs& args) const noexcept override;

private:
    /// Sums, scales and stores out's rows [range.begin, range.end).
    void run_block(const LaunchArgs& args, Range weights) const noexcept;
    /// The index at position r, or -1 when it names no row of out.
    int64_t index_at(const void* indices, int64_t r) const noexcept;
};

}  // namespace aclcpu::ops
