// acl-cpu ops/common: transposes of tiles of elements moved bitwise, in
// registers.
#pragma once

#include "common/internal.hpp"

#include <cstddef>
#include <cstdint>

namespace aclcpu::ops {

/// Copies a tile of `rows` x `columns` elements of `width` bytes (1, 2, 4 or
/// 8) bitwise, transposing it: to[r * rowStride + c] = from[r + c *
/// sourceStride] (strides in elements).  Squares of one 128-bit vector's
/// lanes are transposed in registers; the edges that do not fill one are
/// copied element by element.  With `streaming`, the squares are stored with
/// streaming stores where the destination's rows are aligned to 16 bytes
/// (the caller fences them, see streaming_stores.hpp).  Returns false,
/// copying nothing, for another width.  The tile's source and destination
/// must not overlap.
bool transpose_tile(size_t width, const void* from, void* to, int64_t rows, int64_t columns, int64_t sourceStride,
                    int64_t rowStride, bool streaming) noexcept;

}  // namespace aclcpu::ops
