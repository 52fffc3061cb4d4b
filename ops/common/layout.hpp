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

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "aclcpu/nnopbase.hpp"
#include "common/block_launch.hpp"
#include "common/elementwise.hpp"
#include "common/phase1.hpp"
#include "common/strided_layout.hpp"

namespace aclcpu::ops {

/// One element of a dtype as its bytes (the widest dtype, COMPLEX128, takes 16).
using ElementBytes = std::array<std::byte, 16>;

/// Copies every element of an iteration space from input `input` of the
/// launch, read through `source`, to the output, written through
/// `destination` (both over the same iteration space), cast from the
/// source's dtype to the destination's as CANN's Cast does.  A fill step
/// (input kFill, made by fill()) reads no input: it writes `value`, an
/// element of the destination's dtype, bitwise into every place.
struct CopyStep {
    static constexpr int kFill = -1;

    int input = 0;
    StridedLayout source;
    StridedLayout destination;
    ElementBytes value{};

    /// A step writing value into every element of destination: its source
    /// is value itself, read with stride 0.
    static CopyStep fill(const StridedLayout& destination, const ElementBytes& value);
    bool is_fill() const noexcept { return input == kFill; }
};

/// A scalar as one element of dtype, converted as CANN's ConvertToTensor
/// (a Cast) converts it.  Precondition: has_element_type(dtype).
ElementBytes element_of(const aclScalar* scalar, aclDataType dtype);
/// Zero in any dtype: every byte 0.
inline constexpr ElementBytes kZeroElement{};

/// One dimension of a step's iteration space: its size and the strides it
/// walks in the source and in the destination (elements).
struct StepDim {
    int64_t size;
    int64_t sourceStride;
    int64_t destinationStride;
};

/// Where a step starts in an operand (elements from its data pointer) and
/// the operand's dtype.
struct StepOrigin {
    aclDataType dtype;
    int64_t offset;
};

/// The dims of a step copying view `source` to view `destination` over the
/// destination's shape (the two of one rank and shape), outer first.
std::vector<StepDim> step_dims(const TensorView& source, const TensorView& destination);

/// Appends the steps copying the space `dims` (outer first, any number of
/// them) from input `input` at source to the output at destination.  Size-1
/// dims are dropped; when more dims remain than a StridedLayout holds, the
/// smallest ones are peeled into a step per index (steps_needed() steps).
/// Nothing for an empty space.
void append_copy(std::vector<CopyStep>& steps, int input, const std::vector<StepDim>& dims, StepOrigin source,
                 StepOrigin destination);
/// The same for fill steps writing value (sourceStride is not read).
void append_fill(std::vector<CopyStep>& steps, const std::vector<StepDim>& dims, StepOrigin destination,
                 const ElementBytes& value);

/// How many steps append_copy / append_fill make of dims.
int64_t steps_needed(const std::vector<StepDim>& dims);

/// The most steps a kernel holds: a step takes about 330 bytes of phase-1
/// memory, so this bounds it near 350 MB (only a view of a trillion
/// elements or more comes near it).
inline constexpr int64_t kMaxSteps = int64_t{1} << 20;

/// 561000 (reported) when an operator would need more than kMaxSteps steps.
aclnnStatus check_step_count(const char* api, int64_t count);


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
    /// that lie densely along the next dim out (a transpose).  Then each
    /// plane of the two inner dims is copied in stripes of kStripeRows rows
    /// (the last one shorter), a stripe column by column: a transposing
    /// step's elements go in the order (outer dims, stripe, column, row in
    /// the stripe), not row-major, and a range of them is a range of
    /// columns of a stripe, with pieces of columns at its ends.
    bool transposes() const noexcept {
        return rank >= 2 && destinationStrides[rank - 1] == 1 && sourceStrides[rank - 2] == 1 &&
               (sourceStrides[rank - 1] > 1 || sourceStrides[rank - 1] < -1);
    }
    /// A stripe's column is one dense run of the source: 4 KiB of fp32, 2 of
    /// fp16, read at once.  Measured on a [1024, 16384] fp32 output (2
    /// workers): runs of 64 rows 0.4 of the triad, 512 rows 0.8, 1024 rows
    /// 1.05; the stripe's destination rows, one page each, stay few enough
    /// for the TLB.
    static constexpr int64_t kStripeRows = 1024;
    /// The rows of the stripes of a transposing joint layout.
    int64_t stripe_rows() const noexcept { return std::min(kStripeRows, sizes[rank - 2]); }
    /// Blocks of a transposing step are whole stripes of this many columns,
    /// at least one cache line of any element.
    static constexpr int64_t kPanelColumns = 64;
};

/// Copies elements [begin, begin + count) of one step (its joint layout
/// `joint`), reading the step's source from input (a fill step's value) and
/// writing its destination into output, both data pointers its offsets
/// count from; dense runs with streaming stores when `streaming`.
void copy_step(const JointLayout& joint, const CopyStep& step, const void* input, void* output, int64_t begin,
               int64_t count, bool streaming);

/// op::IsPrivateFormat, which the copying operators (Cat, ReflectionPad1d,
/// IndexSelect) refuse: a layout of CANN's own (FRACTAL_NZ, NC1HWC0, ...),
/// not one of the public ND, NCHW, NHWC, HWCN, NDHWC, NCDHW, NCL.
bool is_private_format(aclFormat format) noexcept;

/// Bytes [first, last) counted from a tensor's data pointer; empty when first == last.
struct ByteRange {
    int64_t first = 0;
    int64_t last = 0;
    bool empty() const noexcept { return first == last; }
    /// The smallest range holding both.
    ByteRange joined(ByteRange other) const noexcept {
        if (empty()) return other;
        if (other.empty()) return *this;
        return {std::min(first, other.first), std::max(last, other.last)};
    }
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
    /// True when a step reads memory that the launch writes in another
    /// place: then a block could read what another block has already
    /// overwritten (CANN's graph reads from a contiguous copy, which cannot
    /// happen).
    bool reads_what_it_overwrites(const LaunchArgs& args) const noexcept;
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
    /// What step i reads, from its input's data pointer (empty for a fill),
    /// and whether it reads each element where it writes it.
    struct StepReads {
        ByteRange bytes;
        bool samePlaces = false;
    };
    std::vector<StepReads> reads_;
    /// Everything the steps write, from the output's data pointer.
    ByteRange written_;
    /// starts_[i]: where step i begins in the concatenated space; the last entry is its size.
    std::vector<int64_t> starts_;
    int inputs_;
    ElementwiseTiling tiling_;
    /// Slices of a block are cut at multiples of this many elements: whole
    /// tiles of a transposing step, else a UB chunk.
    int64_t sliceUnit_;
    /// Whether dense runs are written with streaming stores: the output
    /// spans at least kStreamingOutputBytes.
    bool streaming_ = false;
    /// The widest element of the steps: bytes per element moved, both sides.
    int64_t widestBytes_ = 1;
};

/// Ends phase 1 of a layout operator: CANN's empty executor when the steps
/// copy nothing, else a LayoutKernel over them (inputs and out as the
/// operator declares them: a braced list, or the tensors of a list).
aclnnStatus hand_back_layout(const char* api, std::vector<CopyStep> steps, TensorSpan inputs, const aclTensor* out,
                             uint64_t* workspaceSize, aclOpExecutor** executor);

}  // namespace aclcpu::ops
