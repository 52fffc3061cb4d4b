// acl-cpu ops/common: CANN's FRACTAL_NZ storage of matmul weights, as
// TransData lays it out (ops-math conversion/trans_data).  The last two
// dims [rows, cols] of each matrix are cut into fractals of 16 rows x c0
// columns -- c0 = 32 bytes of elements: 16 for a 2-byte dtype, 32 for a
// 1-byte one -- padded with zeros to whole fractals and stored column tile
// by column tile: storage shape [..., ceil(cols / c0), ceil(rows / 16), 16,
// c0].  Within a column tile each row is one run of c0 elements, so a tile
// is the strided matrix [rows, c0] with row stride c0: a matmul reads an NZ
// weight one column tile at a time.
#pragma once

#include "common/internal.hpp"

#include <cstdint>

#include "aclcpu/dims.hpp"

namespace aclcpu::ops {

struct NzLayout {
    static constexpr int64_t kFractalRows = 16;
    static constexpr int64_t kFractalBytes = 32;  ///< Of one fractal row.

    int64_t rows = 0;      ///< Of each matrix, before padding.
    int64_t cols = 0;
    int64_t c0 = 0;        ///< Columns of a fractal.
    int64_t rowTiles = 0;  ///< ceil(rows / 16)
    int64_t colTiles = 0;  ///< ceil(cols / c0)

    /// Precondition: rows, cols > 0; elementSize 1 or 2.
    static NzLayout of(int64_t rows, int64_t cols, int64_t elementSize) noexcept {
        return with_c0(rows, cols, kFractalBytes / elementSize);
    }
    /// The layout with fractals c0 columns wide: the matmul operators read
    /// every dtype with c0 16 (GetWeightNzShape's NZ_K0_VALUE_16), FLOAT too.
    static NzLayout with_c0(int64_t rows, int64_t cols, int64_t c0) noexcept {
        return {rows, cols, c0, (rows + kFractalRows - 1) / kFractalRows, (cols + c0 - 1) / c0};
    }
    /// Elements of one padded matrix.
    int64_t matrix_elements() const noexcept { return colTiles * column_tile_elements(); }
    int64_t column_tile_elements() const noexcept { return rowTiles * kFractalRows * c0; }
    /// Where element (row, col) of a matrix lies from the matrix's start;
    /// rows and cols up to the padded sizes address the padding.
    int64_t element(int64_t row, int64_t col) const noexcept {
        return (col / c0) * column_tile_elements() + row * c0 + col % c0;
    }
    /// The storage shape of a batch of such matrices with leading dims batch.
    Dims storage_shape(const Dims& batch) const {
        Dims shape = batch;
        for (const int64_t d : {colTiles, rowTiles, kFractalRows, c0}) shape.push_back(d);
        return shape;
    }
};

}  // namespace aclcpu::ops
