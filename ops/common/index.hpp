// acl-cpu ops/common: the index engine -- operators that move the slices of
// a tensor along one dim chosen by an index tensor (IndexSelect, GatherV2,
// Embedding gather them; IndexCopy scatters into them) -- and, as its
// element mode, the operators that move single elements along dim (Scatter:
// out[.., index[.., k, ..], ..] op= src[.., k, ..]).
//
// The index VALUES are device memory, read in phase 2, so phase 1 cannot
// list the copies as the layout engine does.  It plans one slice copy
// instead: a CopyStep over the dims other than `dim`, which the kernel
// replays once per index position, shifted by the index value along dim on
// the indexed side and by the position on the other.  The slice copy is the
// layout engine's strided copy (copy_step), so casts never happen and a
// slice moves run by run.
//
// Out-of-range values never reach memory: a gather writes zeros for them,
// as CANN's GatherV2 kernel does (index/gather_v2/op_kernel/arch35/
// gather_v2.h, GatherSimt: `idxOutOfBound ? 0 : x[xIndex]`), a scatter skips
// them.
#pragma once

#include "common/internal.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "aclcpu/nnopbase.hpp"
#include "common/layout.hpp"
#include "common/tiling.hpp"

namespace aclcpu::ops {

/// Which way the slices move.
enum class IndexDirection {
    /// other[.., p, ..] = table[.., index[p], ..]
    kGather,
    /// table[.., index[p], ..] = other[.., p, ..]; with repeated values the
    /// last position wins, whatever the worker count.
    kScatter,
    /// Element scatter (ScatterElements): index has table's rank, and
    /// table[a.., index[a.., k, b..], b..] op= other[a.., k, b..] for every
    /// element of index; of repeated targets the larger k comes later.
    kScatterElements,
};

/// How an element scatter combines a value with the element it lands on.
enum class ScatterReduce { kNone, kAdd, kMul };

/// An indexed copy as phase 1 plans it.
struct IndexedCopy {
    IndexDirection direction = IndexDirection::kGather;
    /// The tensor indexed along dim (rank >= 1; a 0-d tensor is passed as [1]).
    TensorView table;
    int64_t dim = 0;
    /// INT32 or INT64 values, one per position; its shape is the positions'.
    TensorView index;
    /// The positions' side: table's shape with dim replaced by index's shape.
    TensorView other;
    /// Whether a value v < 0 stands for v + table.shape[dim] (GatherV2's
    /// negative_index_support); otherwise it is out of range.
    bool wrapsNegative = false;
    /// kScatterElements only: the combine, and (ScatterValue) the element of
    /// table's dtype every position writes instead of reading other.
    ScatterReduce reduce = ScatterReduce::kNone;
    std::optional<ElementBytes> value;
};

/// Where the kernel finds its operands in a launch: the input holding the
/// data read (table for a gather, other for a scatter) and the one holding
/// index; the written tensor is output 0.
struct IndexSlots {
    int data = 0;
    int index = 1;
};

/// What the index engine's kernels share: their launch inputs and the
/// layout-engine steps that write the output before a scatter (IndexCopy's
/// and Scatter's copy of self into out; none in place).
class IndexKernelBase : public OpKernel {
public:
    const char* name() const noexcept override { return name_; }

protected:
    IndexKernelBase(const char* name, IndexSlots slots, int inputs, std::vector<CopyStep> baseSteps);
    /// Checks the launch's addresses, then runs the base steps.
    aclError write_base(const LaunchArgs& args) const noexcept;

    const char* name_;
    std::optional<LayoutKernel> base_;
    IndexSlots slots_;
    int inputs_;
};

/// The kernel of an index operator.  Immutable; launch() may run concurrently.
class IndexKernel final : public IndexKernelBase {
public:
    /// Precondition: the copy's views are inside their storage, none empty,
    /// table and other of one dtype, index INT32 or INT64.  baseSteps (a
    /// scatter's, may be empty): layout-engine steps that write the output
    /// before the scatter (IndexCopy's copy of self into out).
    IndexKernel(const char* name, const IndexedCopy& copy, IndexSlots slots, int inputs,
                std::vector<CopyStep> baseSteps = {});

    aclError launch(const LaunchArgs& args) const noexcept override;
    void describe(std::string& details) const override;

private:
    /// The slice position p reads or writes along dim: its index value
    /// wrapped, or -1 when out of range.
    int64_t row_of(const void* index, int64_t position) const noexcept;
    /// Where position p's slice starts on the other side (elements).
    int64_t other_offset(int64_t position) const noexcept;
    /// Copies elements [begin, end) of one slice for position p.
    void move_slice(const LaunchArgs& args, int64_t position, int64_t begin, int64_t end) const;
    /// Gather: elements [begin, end) of the positions' slices laid end to end.
    void gather_range(const LaunchArgs& args, int64_t begin, int64_t end) const;

    IndexDirection direction_;
    /// Position 0's slice copy, with the indexed side at row 0, and (gather)
    /// the zero fill of the destination for an out-of-range value.
    CopyStep slice_;
    JointLayout sliceJoint_;
    CopyStep zeros_;
    JointLayout zerosJoint_;
    int64_t sliceElements_ = 0;
    int64_t positions_ = 0;
    int64_t rows_ = 0;
    /// Bytes from one row of the table to the next along dim.
    int64_t rowBytes_ = 0;
    int64_t elementBytes_ = 0;
    /// The positions' dims: their sizes, and strides in index and other.
    int positionRank_ = 0;
    int64_t positionSizes_[kMaxDims] = {};
    int64_t indexStrides_[kMaxDims] = {};
    int64_t otherStrides_[kMaxDims] = {};
    int64_t indexOffset_ = 0;
    aclDataType indexDtype_ = ACL_INT64;
    bool wrapsNegative_ = false;
    BlockSplit blocks_;
    int64_t sliceUnit_ = 1;
};

/// The kernel of an element scatter (IndexDirection::kScatterElements).
/// Its work is index's lines along dim: each line owns one line of the
/// output, so blocks of lines never share an element, and a line walks k
/// upwards as CANN's ScatterElementsV2 kernel does (index/
/// scatter_elements_v2/op_kernel/scatter_elements_v2.h, ProcessScatter),
/// combining each target's updates before one store.
class ElementScatterKernel final : public IndexKernelBase {
public:
    /// Precondition: as IndexKernel's, with index of table's rank, each of
    /// its dims no longer than table's (but dim) and other's.
    ElementScatterKernel(const char* name, const IndexedCopy& copy, IndexSlots slots, int inputs,
                         std::vector<CopyStep> baseSteps);

    aclError launch(const LaunchArgs& args) const noexcept override;
    void describe(std::string& details) const override;

private:
    /// The operands' element offsets where line `line` starts (k = 0).
    struct LineStart {
        int64_t index = 0;
        int64_t other = 0;
        int64_t table = 0;
    };
    LineStart line_start(int64_t line) const noexcept;
    /// Lines [begin, end) in element type T.
    template <class T>
    void scatter_lines(const LaunchArgs& args, int64_t begin, int64_t end) const;

    ScatterReduce reduce_;
    std::optional<ElementBytes> value_;
    aclDataType dtype_;
    aclDataType indexDtype_;
    int rank_ = 0;
    /// index's shape with dim's size 1 (the lines), and each operand's
    /// strides; along: the k of a line, rows: table's size along dim.
    int64_t lineSizes_[kMaxDims] = {};
    int64_t strides_[3][kMaxDims] = {};
    int64_t offsets_[3] = {};
    int64_t alongStrides_[3] = {};
    int64_t along_ = 0;
    int64_t rows_ = 0;
    int64_t lines_ = 0;
    BlockSplit blocks_;
};

/// view without its dims [first, first + count): the slice an index
/// position moves.
TensorView slice_of(const TensorView& view, size_t first, size_t count);

/// Ends phase 1 of an index operator: an IndexKernel over copy (and
/// baseSteps), launched with inputs (in the operator's declaration order)
/// and out.
aclnnStatus hand_back_index(const char* api, const IndexedCopy& copy, IndexSlots slots, TensorSpan inputs,
                            const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor,
                            std::vector<CopyStep> baseSteps = {});

}  // namespace aclcpu::ops
