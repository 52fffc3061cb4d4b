// acl-cpu ops/common: a tensor of rank >= 2 read as a batch of matrices.
#pragma once

#include "common/internal.hpp"

#include <cstdint>

#include "aclcpu/nnopbase.hpp"
#include "common/strided_layout.hpp"

namespace aclcpu::ops {

/// A batch of matrices, the last two dims of a view: where matrix b starts
/// (b over the batch shape, the view's leading dims broadcast to it) and
/// its row and column strides, in elements.
struct MatrixBatch {
    StridedLayout batch;
    int64_t rowStride = 0;
    int64_t colStride = 0;

    /// Precondition: view's rank >= 2, its leading dims broadcast to batchShape.
    static MatrixBatch of(const TensorView& view, const Dims& batchShape) {
        TensorView batchView = view;
        const size_t rank = view.shape.size();
        batchView.shape.resize(rank - 2);
        batchView.strides.resize(rank - 2);
        return {StridedLayout::broadcast_to(batchView, batchShape), view.strides[rank - 2], view.strides[rank - 1]};
    }
    /// Matrix b's element (row, col) is at start(b) + element(row, col).
    int64_t start(int64_t b) const noexcept { return batch.position_of(b); }
    int64_t element(int64_t row, int64_t col) const noexcept { return row * rowStride + col * colStride; }
};

}  // namespace aclcpu::ops
