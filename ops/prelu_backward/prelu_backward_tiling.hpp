// acl-cpu: the tiling of aclnnPreluBackward (PReluGradUpdate + PReluGradReduce).
#pragma once

#include "common/internal.hpp"

#include <cstdint>

#include "acl/acl_base.h"
#include "aclcpu/soc_profile.hpp"
#include "common/tiling.hpp"

namespace aclcpu::ops {

/// self seen as [outer, channels, inner]: channels is weight's element count
/// (dim 1 of self, or 1 when weight has one element, in which case every
/// element belongs to that one channel).
struct PreluGeometry {
    int64_t elements;
    int64_t channels;
    int64_t inner;  ///< consecutive elements sharing a channel

    int64_t channel_of(int64_t element) const noexcept { return element / inner % channels; }
};

/// No A2 tiling of PReluGradUpdate/Reduce is public; this one follows the A2
/// elementwise pattern.
///
/// Update phase: self's elements in block-factor shares (whole 32-byte UB
/// blocks, at least kMinBlockElements) over at most vectorCoreCount
/// blocks.  A block walks its share one channel run (consecutive elements
/// of one channel) at a time, each run chunkElements at a time; it sums a
/// run's update values into 16 running sums (element j of the run into sum
/// j % 16, added in order), adds those as a fixed tree and the result to
/// its own fp32 partial sum of the channel in the workspace.
///
/// Reduce phase: channels in block-factor shares of whole 64-channel
/// repeats, each share (but the last) at least kMinBlockElements partials
/// to add (a channel has one per update block); a block adds, per channel,
/// the partials of update blocks 0, 1, ... in that order.  Both phases
/// depend on sizes and the SoC only, so gradWeight is bitwise the same for
/// any number of worker threads.
///
/// Workspace: weight as fp32 [channels], the partials
/// [updateBlocks][channels], then each update block's UB staging.
struct PreluBackwardTiling {
    PreluGeometry geometry;
    aclDataType dtype;
    BlockSplit updateBlocks;          ///< element ranges
    BlockSplit reduceBlocks;          ///< channel ranges
    int64_t chunkElements;            ///< a multiple of 64
    int64_t stagingBytesPerBlock;     ///< x, gradOutput and gradInput chunks, fp32
    uint64_t weightOffset;
    uint64_t partialsOffset;
    uint64_t stagingOffset;
    uint64_t workspaceSize;

    /// The partial sums of update block b (channels floats) in a workspace.
    float* partials_of(void* workspace, int64_t block) const noexcept;
};

/// Tiles a non-empty problem for soc.
PreluBackwardTiling tile_prelu_backward(const PreluGeometry& geometry, aclDataType dtype, const SocProfile& soc);

}  // namespace aclcpu::ops
