// acl-cpu ops/common: the index engine's kernel.
#include "common/index.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "aclcpu/soc_profile.hpp"
#include "common/block_launch.hpp"
#include "common/elementwise.hpp"
#include "common/phase1.hpp"
#include "common/typed_lanes.hpp"

namespace aclcpu::ops {
TensorView slice_of(const TensorView& view, size_t first, size_t count) {
    TensorView slice = view;
    slice.shape.resize(0);
    slice.strides.resize(0);
    for (size_t d = 0; d < view.shape.size(); ++d) {
        if (d >= first && d < first + count) continue;
        slice.shape.push_back(view.shape[d]);
        slice.strides.push_back(view.strides[d]);
    }
    return slice;
}

namespace {

/// The type an element scatter combines in: FLOAT for FLOAT16 and BF16 (the
/// kernel's CastInputToFloat, one rounding per line), an integer for BOOL
/// (add is or, mul is and, once cast back), else the element type itself
/// (integers wrap).
template <class T>
using ScatterAcc = std::conditional_t<std::is_same_v<T, half_t> || std::is_same_v<T, bf16_t>, float,
                                      std::conditional_t<std::is_same_v<T, bool8_t>, int64_t, T>>;

template <class A>
A combine(ScatterReduce reduce, A current, A update) {
    if constexpr (std::is_integral_v<A> && !std::is_same_v<A, uint64_t>) {
        // In uint64_t, then truncated: integers wrap, as the device's units
        // do (narrow ones would overflow int after promotion).
        return static_cast<A>(combine<uint64_t>(reduce, static_cast<uint64_t>(current), static_cast<uint64_t>(update)));
    }
    switch (reduce) {
        case ScatterReduce::kAdd: return static_cast<A>(current + update);
        case ScatterReduce::kMul: return static_cast<A>(current * update);
        case ScatterReduce::kNone: break;
    }
    return update;
}

/// Slot of each operand in ElementScatterKernel's strides_ and offsets_.
enum Operand { kIndexOperand, kOtherOperand, kTableOperand };

}  // namespace

IndexKernelBase::IndexKernelBase(const char* name, IndexSlots slots, int inputs, std::vector<CopyStep> baseSteps)
    : name_(name), slots_(slots), inputs_(inputs) {
    if (!baseSteps.empty()) base_.emplace(name, std::move(baseSteps), inputs);
}

aclError IndexKernelBase::write_base(const LaunchArgs& args) const noexcept {
    if (aclError status = check_tensor_addresses(name_, args, static_cast<size_t>(inputs_), 1);
        status != ACL_SUCCESS) {
        return status;
    }
    return base_ ? base_->launch(args) : ACL_SUCCESS;
}

IndexKernel::IndexKernel(const char* name, const IndexedCopy& copy, IndexSlots slots, int inputs,
                         std::vector<CopyStep> baseSteps)
    : IndexKernelBase(name, slots, inputs, std::move(baseSteps)), direction_(copy.direction) {
    const auto dim = static_cast<size_t>(copy.dim);
    const size_t positionRank = copy.index.shape.size();
    const TensorView tableSlice = slice_of(copy.table, dim, 1);
    const TensorView otherSlice = slice_of(copy.other, dim, positionRank);
    const bool gather = direction_ == IndexDirection::kGather;
    const StridedLayout table = StridedLayout::of(tableSlice);
    const StridedLayout other = StridedLayout::of(otherSlice);
    slice_ = gather ? CopyStep{0, table, other} : CopyStep{0, other, table};
    sliceJoint_ = JointLayout::of(slice_.source, slice_.destination);
    zeros_ = CopyStep::fill(slice_.destination, kZeroElement);
    zerosJoint_ = JointLayout::of(zeros_.source, zeros_.destination);
    sliceElements_ = tableSlice.numel();
    positions_ = copy.index.numel();
    rows_ = copy.table.shape[dim];
    elementBytes_ = element_size(copy.table.dtype);
    rowBytes_ = copy.table.strides[dim] * elementBytes_;
    positionRank_ = static_cast<int>(positionRank);
    for (size_t d = 0; d < positionRank; ++d) {
        positionSizes_[d] = copy.index.shape[d];
        indexStrides_[d] = copy.index.strides[d];
        otherStrides_[d] = copy.other.strides[dim + d];
    }
    indexOffset_ = copy.index.offset;
    indexDtype_ = copy.index.dtype;
    wrapsNegative_ = copy.wrapsNegative;
    // A gather splits the slices laid end to end (each element is written
    // once); a scatter splits the slice's elements, each block walking
    // every position in order, so that of repeated values the last wins in
    // every block whatever runs it.
    const int64_t total = gather ? positions_ * sliceElements_ : sliceElements_;
    const ElementwiseTiling tiling = tile_elementwise(total, 2, copy.table.dtype, elementBytes_, soc_profile());
    blocks_ = tiling.blocks;
    sliceUnit_ = tiling.chunkElements;
}

int64_t IndexKernel::row_of(const void* index, int64_t position) const noexcept {
    int64_t at = indexOffset_;
    for (int d = positionRank_ - 1; d >= 0; --d) {
        at += position % positionSizes_[d] * indexStrides_[d];
        position /= positionSizes_[d];
    }
    int64_t value = indexDtype_ == ACL_INT32 ? static_cast<const int32_t*>(index)[at]
                                             : static_cast<const int64_t*>(index)[at];
    if (value < 0 && wrapsNegative_) value += rows_;
    return value >= 0 && value < rows_ ? value : -1;
}

int64_t IndexKernel::other_offset(int64_t position) const noexcept {
    int64_t at = 0;
    for (int d = positionRank_ - 1; d >= 0; --d) {
        at += position % positionSizes_[d] * otherStrides_[d];
        position /= positionSizes_[d];
    }
    return at;
}

void IndexKernel::move_slice(const LaunchArgs& args, int64_t position, int64_t begin, int64_t end) const {
    const int64_t row = row_of(args.inputs[slots_.index], position);
    const auto* data = static_cast<const std::byte*>(args.inputs[slots_.data]);
    auto* written = static_cast<std::byte*>(args.outputs[0]);
    const int64_t otherBytes = other_offset(position) * elementBytes_;
    if (direction_ == IndexDirection::kGather) {
        if (row < 0) {
            copy_step(zerosJoint_, zeros_, zeros_.value.data(), written + otherBytes, begin, end - begin, false);
            return;
        }
        copy_step(sliceJoint_, slice_, data + row * rowBytes_, written + otherBytes, begin, end - begin, false);
        return;
    }
    if (row < 0) return;
    copy_step(sliceJoint_, slice_, data + otherBytes, written + row * rowBytes_, begin, end - begin, false);
}

void IndexKernel::gather_range(const LaunchArgs& args, int64_t begin, int64_t end) const {
    while (begin < end) {
        const int64_t position = begin / sliceElements_;
        const int64_t first = begin % sliceElements_;
        const int64_t last = std::min(sliceElements_, first + (end - begin));
        move_slice(args, position, first, last);
        begin += last - first;
    }
}

aclError IndexKernel::launch(const LaunchArgs& args) const noexcept {
    if (aclError status = write_base(args); status != ACL_SUCCESS) return status;
    return launch_block_slices(name_, blocks_, 2 * elementBytes_, sliceUnit_, [&](const BlockSlice& slice) {
        if (direction_ == IndexDirection::kGather) return gather_range(args, slice.units.begin, slice.units.end);
        for (int64_t position = 0; position < positions_; ++position) {
            move_slice(args, position, slice.units.begin, slice.units.end);
        }
    });
}

void IndexKernel::describe(std::string& details) const {
    append_trace_arg(details, "blockDim", blocks_.count());
    append_trace_arg(details, "positions", positions_);
}

ElementScatterKernel::ElementScatterKernel(const char* name, const IndexedCopy& copy, IndexSlots slots, int inputs,
                                           std::vector<CopyStep> baseSteps)
    : IndexKernelBase(name, slots, inputs, std::move(baseSteps)), reduce_(copy.reduce), value_(copy.value),
      dtype_(copy.table.dtype), indexDtype_(copy.index.dtype) {
    const TensorView* views[3] = {&copy.index, &copy.other, &copy.table};
    rank_ = static_cast<int>(copy.index.shape.size());
    for (int d = 0; d < rank_; ++d) lineSizes_[d] = d == copy.dim ? 1 : copy.index.shape[d];
    for (int op = 0; op < 3; ++op) {
        offsets_[op] = views[op]->offset;
        alongStrides_[op] = views[op]->strides[copy.dim];
        for (int d = 0; d < rank_; ++d) strides_[op][d] = views[op]->strides[d];
    }
    along_ = copy.index.shape[copy.dim];
    rows_ = copy.table.shape[copy.dim];
    lines_ = copy.index.numel() / along_;
    blocks_ = BlockSplit::by_factor(lines_, soc_profile().vectorCoreCount);
}

ElementScatterKernel::LineStart ElementScatterKernel::line_start(int64_t line) const noexcept {
    LineStart at{offsets_[kIndexOperand], offsets_[kOtherOperand], offsets_[kTableOperand]};
    for (int d = rank_ - 1; d >= 0; --d) {
        const int64_t i = line % lineSizes_[d];
        line /= lineSizes_[d];
        at.index += i * strides_[kIndexOperand][d];
        at.other += i * strides_[kOtherOperand][d];
        at.table += i * strides_[kTableOperand][d];
    }
    return at;
}

template <class T>
void ElementScatterKernel::scatter_lines(const LaunchArgs& args, int64_t begin, int64_t end) const {
    using A = ScatterAcc<T>;
    // A line's in-range hits (row, k), grouped by row in k order: each
    // target is loaded once, combined with its updates as the kernel does
    // in UB, and stored once.  Sized by the line, not by size(dim).
    std::vector<std::pair<int64_t, int64_t>> hits;
    auto* table = static_cast<T*>(args.outputs[0]);
    const auto* other = value_ ? reinterpret_cast<const T*>(value_->data()) : static_cast<const T*>(args.inputs[slots_.data]);
    const int64_t otherAlong = value_ ? 0 : alongStrides_[kOtherOperand];
    const int64_t tableAlong = alongStrides_[kTableOperand];
    const void* index = args.inputs[slots_.index];
    for (int64_t l = begin; l < end; ++l) {
        const LineStart at = line_start(l);
        const int64_t otherStart = value_ ? 0 : at.other;
        hits.clear();
        for (int64_t k = 0; k < along_; ++k) {
            const int64_t i = at.index + k * alongStrides_[kIndexOperand];
            int64_t row = indexDtype_ == ACL_INT32 ? static_cast<const int32_t*>(index)[i]
                                                   : static_cast<const int64_t*>(index)[i];
            // LinearIndex adds the size once to a negative value; the
            // kernel skips what is still outside [0, rows).
            if (row < 0) row += rows_;
            if (row >= 0 && row < rows_) hits.emplace_back(row, k);
        }
        std::stable_sort(hits.begin(), hits.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (size_t h = 0; h < hits.size();) {
            T& target = table[at.table + hits[h].first * tableAlong];
            A combined = cast_element<A>(target);
            const int64_t row = hits[h].first;
            for (; h < hits.size() && hits[h].first == row; ++h) {
                combined = combine(reduce_, combined, cast_element<A>(other[otherStart + hits[h].second * otherAlong]));
            }
            target = cast_element<T>(combined);
        }
    }
}

aclError ElementScatterKernel::launch(const LaunchArgs& args) const noexcept {
    if (aclError status = write_base(args); status != ACL_SUCCESS) return status;
    const int64_t lineBytes = along_ * 2 * element_size(dtype_);
    return launch_block_slices(name_, blocks_, lineBytes, 1, [&](const BlockSlice& slice) {
        visit_element(dtype_, [&](auto tag) {
            scatter_lines<decltype(tag)>(args, slice.units.begin, slice.units.end);
        });
    });
}

void ElementScatterKernel::describe(std::string& details) const {
    append_trace_arg(details, "blockDim", blocks_.count());
    append_trace_arg(details, "lines", lines_);
}

aclnnStatus hand_back_index(const char* api, const IndexedCopy& copy, IndexSlots slots, TensorSpan inputs,
                            const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor,
                            std::vector<CopyStep> baseSteps) {
    const int count = static_cast<int>(inputs.size());
    if (copy.direction == IndexDirection::kScatterElements) {
        return hand_back_kernel<ElementScatterKernel>(inputs, {out}, 0, workspaceSize, executor, api, copy, slots,
                                                      count, std::move(baseSteps));
    }
    return hand_back_kernel<IndexKernel>(inputs, {out}, 0, workspaceSize, executor, api, copy, slots, count,
                                         std::move(baseSteps));
}

}  // namespace aclcpu::ops
