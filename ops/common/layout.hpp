// acl-cpu ops/common: the layout engine -- operators that move elements
// from views to views, casting on the way (Cast, InplaceCopy, Permute, and
// the concatenations, slices, repeats and pads built the same way).
//
// Such an operator's phase 1 reduces it to a list of copy steps: each copies
// an iteration space from one input, read through one StridedLayout, into
// the output, written through another (CANN's Contiguous + Transpose /
// Slice / BroadcastTo / ... + Cast + ViewCopy, without the intermediate
// tensors).  A permutation is a source layout whose strides are permuted, a
// broadcast one with zero strides; a concatenation is a step per input into
// the output's slice.  The steps' elements are split into blocks as one
// space, so a block may finish one step and start the next.
#pragma once

#include "common/internal.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "aclcpu/nnopbase.hpp"
#include "common/block_launch.hpp"
#include "common/elementwise.hpp"
#include "common/phase1.hpp"
#include "common/strided_layout.hpp"

namespace aclcpu::ops {

/// Copies every element of an iteration space from input `input` of the
/// launch, read through `source`, to the output, written through
/// `destination` (both over the same iteration space), cast from the
/// source's dtype to the destination's as CANN's Cast does.
struct CopyStep {
    int input = 0;
    StridedLayout source;
    StridedLayout destination;
};

/// A copy step's two layouts over one iteration space, on the coarsest dims
/// along which both are strided: each layout's dims split where the other's
/// boundaries fall, then neighbours merged where both allow.  A run along
/// the innermost dim is a run of both operands, so a step copies run by run
/// in one pass (a memcpy, a fill, a SIMD conversion or a strided loop), and
/// a transposing step tile by tile.
struct JointLayout {
    static constexpr int kMaxRank = 2 * static_cast<int>(kMaxDims);
    int rank = 0;
    int64_t sizes[kMaxRank] = {};
    int64_t sourceStrides[kMaxRank] = {};
    int64_t destinationStrides[kMaxRank] = {};

    /// Precondition: source and destination are over equal iteration spaces
    /// (their coalesced dims then nest).
    static JointLayout of(const StridedLayout& source, const StridedLayout& destination) noexcept;
    /// Whether the innermost dim writes densely while reading across rows
    /// that lie densely along the next dim out (a transpose): then rows are
    /// copied kTileRows at a time, tile by tile, so that each source cache
    /// line read serves them all.
    bool transposes() const noexcept {
        return rank >= 2 && destinationStrides[rank - 1] == 1 && sourceStrides[rank - 2] == 1 &&
               (sourceStrides[rank - 1] > 1 || sourceStrides[rank - 1] < -1);
    }
    static constexpr int64_t kTileRows = 64;
};

/// The kernel of a layout operator: its copy steps over one output, split
/// into blocks of the A2 elementwise tiling.  Immutable; launch() may run
/// concurrently.
class LayoutKernel final : public OpKernel {
public:
    /// Precondition: every step's layouts are over equal iteration spaces,
    /// of one dtype (moved bitwise) or both has_element_type (cast), and the
    /// destinations do not overlap one another.
    LayoutKernel(const char* name, std::vector<CopyStep> steps, int inputs);

    const char* name() const noexcept override { return name_; }
    aclError launch(const LaunchArgs& args) const noexcept override;
    void describe(std::string& details) const override;

private:
    /// Runs the steps over the blocks, step i reading its input at
    /// sources[i] (a snapshot), or at the launch's input when sources is null.
    aclError copy_steps(const void* const* sources, const LaunchArgs& args) const noexcept;
    /// When a step reads memory the launch overwrites elsewhere: the steps
    /// run from host copies of their sources, taken first, as CANN's graph
    /// runs from a contiguous copy.
    aclError copy_from_snapshots(const LaunchArgs& args) const noexcept;
    /// Copies elements [begin, end) of the steps' concatenated space.
    void copy_range(const void* const* sources, const LaunchArgs& args, int64_t begin, int64_t end) const;

    const char* name_;
    std::vector<CopyStep> steps_;
    /// joints_[i]: step i's layouts over their joint dims.
    std::vector<JointLayout> joints_;
    /// starts_[i]: where step i begins in the concatenated space; the last entry is its size.
    std::vector<int64_t> starts_;
    int inputs_;
    ElementwiseTiling tiling_;
    /// Slices of a block are cut at multiples of this many elements: whole
    /// tiles of a transposing step, else a UB chunk.
    int64_t sliceUnit_;
    /// The widest element of the steps: bytes per element moved, both sides.
    int64_t widestBytes_ = 1;
};

/// Ends phase 1 of a layout operator: CANN's empty executor when the steps
/// copy nothing, else a LayoutKernel over them (inputs and out as the
/// operator declares them).
aclnnStatus hand_back_layout(const char* api, std::vector<CopyStep> steps, TensorList inputs, const aclTensor* out,
                             uint64_t* workspaceSize, aclOpExecutor** executor);

}  // namespace aclcpu::ops
