// acl-cpu ops/common: transpose_tile, compiled for every SIMD target Highway
// dispatches to at run time (on 128-bit vectors, which each of them has).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "common/transpose_tiles.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <algorithm>

#include "common/hwy_target.hpp"
#include "common/transpose_tiles.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

#if HWY_TARGET == HWY_SCALAR
// The scalar fallback target has no 128-bit vectors: there every tile takes
// the caller's element-by-element path.
template <class T>
bool transpose_as(const void*, void*, int64_t, int64_t, int64_t, int64_t, bool) {
    return false;
}
#else

/// Transposes the kLanes x kLanes square v[i] = row i in place: a perfect
/// shuffle network, log2(kLanes) rounds each interleaving row i with row
/// i + kLanes / 2, vector by vector (a copy of the whole array may be one
/// wide aligned move, which ASan's fake stack frames do not align for).
template <class D, class V, size_t kLanes>
void transpose_square(D d, V (&v)[kLanes]) {
    for (size_t round = 1; round < kLanes; round *= 2) {
        V next[kLanes];
        for (size_t i = 0; i < kLanes / 2; ++i) {
            next[2 * i] = hn::InterleaveLower(d, v[i], v[i + kLanes / 2]);
            next[2 * i + 1] = hn::InterleaveUpper(d, v[i], v[i + kLanes / 2]);
        }
        for (size_t i = 0; i < kLanes; ++i) v[i] = next[i];
    }
}

/// transpose_tile for elements moved as T.
template <class T>
bool transpose_as(const void* source, void* destination, int64_t rows, int64_t columns, int64_t sourceStride,
                  int64_t rowStride, bool streaming) {
    const auto* from = static_cast<const T*>(source);
    auto* to = static_cast<T*>(destination);
    const hn::Full128<T> d;
    using V = hn::Vec<decltype(d)>;
    constexpr int64_t kLanes = 16 / sizeof(T);
    // A square's rows start kLanes elements apart along a destination row:
    // aligned wherever the first row and the row stride are.
    const bool stream = streaming && reinterpret_cast<uintptr_t>(to) % 16 == 0 && rowStride % kLanes == 0;
    // Columns go in groups of one cache line of the destination, so that each
    // destination row's line is written whole before the next group.
    constexpr int64_t kGroup = 64 / sizeof(T);
    const int64_t squareRows = rows - rows % kLanes;
    const int64_t squareColumns = columns - columns % kLanes;
    for (int64_t group = 0; group < squareColumns; group += kGroup) {
        const int64_t groupEnd = std::min(group + kGroup, squareColumns);
        for (int64_t r = 0; r < squareRows; r += kLanes) {
            for (int64_t c = group; c < groupEnd; c += kLanes) {
                V v[kLanes];
                for (int64_t i = 0; i < kLanes; ++i) v[i] = hn::LoadU(d, from + r + (c + i) * sourceStride);
                transpose_square(d, v);
                for (int64_t i = 0; i < kLanes; ++i) {
                    T* row = to + (r + i) * rowStride + c;
                    if (stream) {
                        hn::Stream(v[i], d, row);
                    } else {
                        hn::StoreU(v[i], d, row);
                    }
                }
            }
        }
    }
    for (int64_t r = 0; r < rows; ++r) {
        const int64_t firstColumn = r < squareRows ? squareColumns : 0;
        for (int64_t c = firstColumn; c < columns; ++c) to[r * rowStride + c] = from[r + c * sourceStride];
    }
    return true;
}
#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace

bool transpose_tile_on_target(size_t width, const void* from, void* to, int64_t rows, int64_t columns,
                              int64_t sourceStride, int64_t rowStride, bool streaming) {
    switch (width) {
        case 1: return transpose_as<uint8_t>(from, to, rows, columns, sourceStride, rowStride, streaming);
        case 2: return transpose_as<uint16_t>(from, to, rows, columns, sourceStride, rowStride, streaming);
        case 4: return transpose_as<uint32_t>(from, to, rows, columns, sourceStride, rowStride, streaming);
        case 8: return transpose_as<uint64_t>(from, to, rows, columns, sourceStride, rowStride, streaming);
        default: return false;
    }
}

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
namespace aclcpu::ops {

HWY_EXPORT(transpose_tile_on_target);

bool transpose_tile(size_t width, const void* from, void* to, int64_t rows, int64_t columns, int64_t sourceStride,
                    int64_t rowStride, bool streaming) noexcept {
    return HWY_DYNAMIC_DISPATCH(transpose_tile_on_target)(width, from, to, rows, columns, sourceStride, rowStride,
                                                          streaming);
}

}  // namespace aclcpu::ops
#endif
