// acl-cpu ops/common: the lines along one dim of two views -- what a scan
// (reduction.hpp's hand_back_scan) and a sort (ops/sort) walk.
#pragma once

#include "common/internal.hpp"

#include <array>
#include <cstdint>

#include "common/strided_layout.hpp"

namespace aclcpu::ops {

/// The lines along one dim of two views of one shape (a scan's self and out,
/// a sort's self and out): every index but along dim, row-major, its size-1
/// dims dropped and none merged (the two views may differ); each line
/// `length` elements stepping by `steps`.
struct LinesAlongDim {
    int rank = 0;
    int64_t sizes[kMaxDims] = {};
    int64_t strides[2][kMaxDims] = {};
    std::array<int64_t, 2> offsets = {};
    int64_t length = 1;
    std::array<int64_t, 2> steps = {};
    int64_t count = 1;

    /// dim in [0, rank), or any dim for 0-d views (one line of one element).
    static LinesAlongDim of(const TensorView& a, const TensorView& b, int64_t dim) noexcept {
        LinesAlongDim lines;
        lines.offsets = {a.offset, b.offset};
        for (size_t d = 0; d < a.shape.size(); ++d) {
            if (static_cast<int64_t>(d) == dim) {
                lines.length = a.shape[d];
                lines.steps = {a.strides[d], b.strides[d]};
            } else if (a.shape[d] != 1) {
                lines.sizes[lines.rank] = a.shape[d];
                lines.strides[0][lines.rank] = a.strides[d];
                lines.strides[1][lines.rank] = b.strides[d];
                lines.count *= a.shape[d];
                ++lines.rank;
            }
        }
        return lines;
    }

    /// Where line `line` starts in either view.
    std::array<int64_t, 2> starts(int64_t line) const noexcept {
        int64_t index[2 * kMaxDims];
        return strided_positions<2>(rank, sizes, {strides[0], strides[1]}, offsets, line, index);
    }
};

}  // namespace aclcpu::ops
