// acl-cpu ops/common: reading and writing the elements of a (possibly
// strided, offset or broadcast) tensor view in UB-sized chunks, without
// materialising a contiguous copy of the tensor.
//
// A kernel iterates over a row-major "iteration shape" (the output shape).
// Each operand is described by a StridedLayout that maps the iteration's
// linear index i to the operand's element; gather() stages a run of such
// elements into a contiguous fp32 buffer (CANN's Contiguous + Cast), and
// scatter() writes a buffer back through the output's view (CANN's Cast +
// ViewCopy), touching only elements of that view.
#pragma once

#include "common/internal.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#include "aclcpu/nnopbase.hpp"

namespace aclcpu::ops {

/// Where element i of an iteration space lives in an operand: at
/// offset + sum(index_d * strides[d]) elements from the data pointer, with
/// index the row-major multi-index of i.  Built in phase 1; immutable.
///
/// Dimensions are coalesced on construction (size-1 dims dropped, adjacent
/// dims merged where the outer stride equals inner stride times inner size),
/// so a dense view, however it was described, becomes linear: element i at
/// offset + i, which gather/scatter serve with a plain loop.
class StridedLayout {
public:
    /// The view as it is read over iterationShape: trailing-aligned, with the
    /// view's size-1 and missing leading dims broadcast (stride 0).
    /// Precondition: view.shape broadcasts to iterationShape, rank <= kMaxDims.
    static StridedLayout broadcast_to(const TensorView& view, const Dims& iterationShape) noexcept;
    /// The view over its own shape.  Precondition: rank <= kMaxDims.
    static StridedLayout of(const TensorView& view) noexcept { return broadcast_to(view, view.shape); }
    /// count dense elements of dtype from the data pointer.
    static StridedLayout linear(int64_t count, aclDataType dtype) noexcept {
        StridedLayout layout;
        layout.dtype_ = dtype;
        layout.numel_ = count;
        if (count != 1) {
            layout.rank_ = 1;
            layout.sizes_[0] = count;
            layout.strides_[0] = 1;
        }
        return layout;
    }

    aclDataType dtype() const noexcept { return dtype_; }
    /// Elements of the iteration space.
    int64_t numel() const noexcept { return numel_; }
    /// True when element i is at offset() + i.
    bool is_linear() const noexcept { return rank_ == 0 || (rank_ == 1 && strides_[0] == 1); }
    int64_t offset() const noexcept { return offset_; }
    /// True when every run of length elements starting at a multiple of
    /// length is contiguous (consecutive elements of the operand).
    bool has_contiguous_runs_of(int64_t length) const noexcept {
        return rank_ == 0 || (strides_[rank_ - 1] == 1 && sizes_[rank_ - 1] % length == 0);
    }
    /// True when each run along the innermost dimension is contiguous in
    /// the operand and at least minLength long (a linear layout is one run).
    bool runs_contiguously(int64_t minLength) const noexcept {
        return is_linear() || (strides_[rank_ - 1] == 1 && sizes_[rank_ - 1] >= minLength);
    }
    /// Elements from element i of the iteration space to the end of its run
    /// along the innermost dimension (to the end of the space when linear).
    int64_t run_length_at(int64_t i) const noexcept {
        if (is_linear()) return numel_ - i;
        return sizes_[rank_ - 1] - i % sizes_[rank_ - 1];
    }
    /// Where element i of the iteration space is, counted from the data pointer.
    int64_t position_of(int64_t i) const noexcept {
        int64_t position = offset_;
        for (int d = rank_ - 1; d >= 0; --d) {
            position += i % sizes_[d] * strides_[d];
            i /= sizes_[d];
        }
        return position;
    }
    /// Coalesced rank, sizes and strides (0 for broadcast dims).
    int rank() const noexcept { return rank_; }
    int64_t size(int d) const noexcept { return sizes_[d]; }
    int64_t stride(int d) const noexcept { return strides_[d]; }
    const int64_t* sizes() const noexcept { return sizes_; }
    const int64_t* strides() const noexcept { return strides_; }

private:
    aclDataType dtype_ = ACL_DT_UNDEFINED;
    int rank_ = 0;
    int64_t numel_ = 1;
    int64_t offset_ = 0;
    int64_t sizes_[kMaxDims] = {};
    int64_t strides_[kMaxDims] = {};
};

/// Where element `begin` of the row-major space `sizes` (rank dims) lies in
/// each of N operands: start[k] + sum(index_d * strides[k][d]), with its
/// multi-index written to index[0, rank).
template <size_t N>
std::array<int64_t, N> strided_positions(int rank, const int64_t* sizes, const std::array<const int64_t*, N>& strides,
                                         std::array<int64_t, N> start, int64_t begin, int64_t* index) {
    int64_t rest = begin;
    for (int d = rank - 1; d >= 0; --d) {
        index[d] = rest % sizes[d];
        rest /= sizes[d];
        for (size_t k = 0; k < N; ++k) start[k] += index[d] * strides[k][d];
    }
    return start;
}

/// The odometer every strided walk shares: for each maximal run of elements
/// [begin, begin + count) of the row-major space `sizes` (rank dims) that
/// lies along its innermost dim, calls run(positions, length, done):
/// positions[k] is where the run starts in operand k (start[k] +
/// sum(index_d * strides[k][d])), whose elements step by
/// strides[k][rank - 1], and the run is elements begin + done + j of the
/// space.  The multi-index is decomposed once per call, not per element.  A
/// space of rank 0 is one element, at start.
template <size_t N, class Run>
void for_each_strided_run(int rank, const int64_t* sizes, const std::array<const int64_t*, N>& strides,
                          std::array<int64_t, N> start, int64_t begin, int64_t count, Run&& run) {
    if (rank == 0) {
        if (count > 0) run(start, count, int64_t{0});
        return;
    }
    const int inner = rank - 1;
    int64_t index[2 * kMaxDims];
    std::array<int64_t, N> positions = strided_positions<N>(rank, sizes, strides, start, begin, index);
    const int64_t innerSize = sizes[inner];
    int64_t done = 0;
    while (done < count) {
        const int64_t length = std::min(innerSize - index[inner], count - done);
        run(positions, length, done);
        done += length;
        index[inner] += length;
        for (size_t k = 0; k < N; ++k) positions[k] += length * strides[k][inner];
        if (index[inner] < innerSize) continue;
        // Carry into the outer dims.
        for (size_t k = 0; k < N; ++k) positions[k] -= innerSize * strides[k][inner];
        index[inner] = 0;
        for (int d = inner - 1; d >= 0; --d) {
            for (size_t k = 0; k < N; ++k) positions[k] += strides[k][d];
            if (++index[d] < sizes[d]) break;
            for (size_t k = 0; k < N; ++k) positions[k] -= sizes[d] * strides[k][d];
            index[d] = 0;
        }
    }
}

/// Calls run(position, length, stride, done) for each maximal run of
/// elements [begin, begin + count) that lies along the innermost dimension:
/// the run's elements are at position + j * stride (j < length) and are
/// elements begin + done + j of the iteration space.
template <class Run>
void for_each_run(const StridedLayout& layout, int64_t begin, int64_t count, Run&& run) {
    if (layout.is_linear()) {
        run(layout.offset() + begin, count, int64_t{1}, int64_t{0});
        return;
    }
    const int64_t innerStride = layout.stride(layout.rank() - 1);
    for_each_strided_run<1>(layout.rank(), layout.sizes(), {layout.strides()}, {layout.offset()}, begin, count,
                            [&](const std::array<int64_t, 1>& position, int64_t length, int64_t done) {
                                run(position[0], length, innerStride, done);
                            });
}

/// Loads elements [begin, begin + count) of the iteration space from an
/// operand laid out as layout at data (the tensor's data pointer, before the
/// view offset) into dst[0, count), converted to float as CANN's Cast does.
/// Precondition: layout.dtype() is visit_loadable, and the range is inside
/// the iteration space.
void gather(const StridedLayout& layout, const void* data, int64_t begin, int64_t count, float* dst) noexcept;

/// Stores src[0, count) into elements [begin, begin + count) of the output
/// laid out as layout at data, converted with round-to-nearest-even.  Writes
/// exactly those elements of the view and nothing else.
/// Precondition: layout.dtype() is visit_storable; the range is inside the
/// iteration space; layout has no broadcast dims.
void scatter(const float* src, const StridedLayout& layout, void* data, int64_t begin, int64_t count) noexcept;

}  // namespace aclcpu::ops
