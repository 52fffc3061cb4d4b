// acl-cpu ops/common: transpose_tile, compiled for every SIMD target Highway
// dispatches to at run time.
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
// The scalar fallback target has no vectors: there every tile takes the
// caller's element-by-element path.
template <class T>
bool transpose_as(const void*, void*, int64_t, int64_t, int64_t, int64_t, bool) {
    return false;
}
#else

/// Transposes the kLanes x kLanes square v[i] = row i in place: log2(kLanes)
/// rounds, each taking the even lanes of rows 2i and 2i + 1 into row i and
/// their odd lanes into row i + kLanes / 2 (a copy of the whole array may be
/// one wide aligned move, which ASan's fake stack frames do not align for).
template <class D, class V, size_t kLanes>
void transpose_square(D d, V (&v)[kLanes]) {
    for (size_t round = 1; round < kLanes; round *= 2) {
        V next[kLanes];
        for (size_t i = 0; i < kLanes / 2; ++i) {
            next[i] = hn::ConcatEven(d, v[2 * i + 1], v[2 * i]);
            next[i + kLanes / 2] = hn::ConcatOdd(d, v[2 * i + 1], v[2 * i]);
        }
        for (size_t i = 0; i < kLanes; ++i) v[i] = next[i];
    }
}

/// Transposes the squares of D's lanes that fill rows x columns (from the
/// top left corner), each square's rows stored with streaming stores when
/// `stream`.
template <class D, class T>
void transpose_squares(D d, const T* from, T* to, int64_t rows, int64_t columns, int64_t sourceStride,
                       int64_t rowStride, bool stream) {
    constexpr int64_t kLanes = hn::MaxLanes(d);
    using V = hn::Vec<D>;
    for (int64_t c = 0; c + kLanes <= columns; c += kLanes) {
        for (int64_t r = 0; r + kLanes <= rows; r += kLanes) {
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

/// The lanes of the squares of a line block: at most 16 (32 x 32 squares of
/// 16-bit lanes in 512-bit vectors spill the registers: measured 5 times
/// slower per element than four 16 x 16 squares of 256-bit vectors).
template <class T>
using SquareTag = hn::CappedTag<T, 16>;

/// Elements of a line block's side: one 64-byte cache line of them, or one
/// square where a square is wider.
template <class T>
constexpr int64_t line_elements() {
    return std::max<int64_t>(64 / sizeof(T), hn::MaxLanes(SquareTag<T>()));
}

/// The vector of DL's lanes made of parts[0], parts[1], ... (vectors of D's
/// lanes, lowest first; DL has a power-of-two multiple of D's lanes).
template <class DL, class D>
hn::Vec<DL> joined(DL dl, D d, const hn::Vec<D>* parts) {
    constexpr size_t kParts = hn::MaxLanes(dl) / hn::MaxLanes(d);
    if constexpr (kParts == 1) {
        return parts[0];
    } else {
        const hn::Half<DL> half;
        return hn::Combine(dl, joined(half, d, parts + kParts / 2), joined(half, d, parts));
    }
}

/// transpose_line_block for 16-bit elements where a line is a vector of 16
/// 32-bit lanes (AVX-512): each source line read as 16 pairs of elements,
/// the two 16 x 16 squares of pairs transposed, then each pair of
/// destination rows split from the even and the odd elements: about half
/// the permutes of four 16 x 16 squares of 16-bit lanes (fp16 [1024, 1024]
/// on 1 worker: 175-190 us against 196-216; at 16 Mi elements memory
/// bounds both).
template <class T>
constexpr bool kLinesOfPairs = sizeof(T) == 2 && hn::MaxLanes(hn::CappedTag<uint32_t, 16>()) == 16;

template <class T>
void transpose_line_block_of_pairs(const T* from, T* to, int64_t sourceStride, int64_t rowStride, bool stream) {
    const hn::CappedTag<uint32_t, 16> dp;
    const hn::Repartition<T, decltype(dp)> d;
    using VP = hn::Vec<decltype(dp)>;
    constexpr int64_t kPairs = 16;
    VP halves[2][kPairs];  // [half of the source lines][line]
    for (int64_t h = 0; h < 2; ++h) {
        for (int64_t i = 0; i < kPairs; ++i) {
            halves[h][i] = hn::BitCast(dp, hn::LoadU(d, from + (h * kPairs + i) * sourceStride));
        }
        transpose_square(dp, halves[h]);
    }
    for (int64_t k = 0; k < kPairs; ++k) {
        const auto low = hn::BitCast(d, halves[0][k]);
        const auto high = hn::BitCast(d, halves[1][k]);
        T* even = to + 2 * k * rowStride;
        if (stream) {
            hn::Stream(hn::ConcatEven(d, high, low), d, even);
            hn::Stream(hn::ConcatOdd(d, high, low), d, even + rowStride);
        } else {
            hn::StoreU(hn::ConcatEven(d, high, low), d, even);
            hn::StoreU(hn::ConcatOdd(d, high, low), d, even + rowStride);
        }
    }
}

/// Transposes one block of kLine x kLine elements (kLine = line_elements):
/// its source lines loaded whole one after another, its squares transposed
/// in registers, its destination lines stored in vectors as wide as the
/// target has up to a line (one streaming store of a whole line costs
/// less than two of its halves: fp16 0.55 -> 0.7 of the triad).
template <class T>
void transpose_line_block(const T* from, T* to, int64_t sourceStride, int64_t rowStride, bool stream) {
    const SquareTag<T> d;
    using V = hn::Vec<decltype(d)>;
    constexpr int64_t kLanes = hn::MaxLanes(d);
    constexpr int64_t kLine = line_elements<T>();
    constexpr int64_t kSquares = kLine / kLanes;  // along each side
    const hn::CappedTag<T, kLine> dl;
    constexpr int64_t kStoreLanes = hn::MaxLanes(dl);
    constexpr int64_t kParts = kStoreLanes / kLanes;
    V squares[kSquares][kSquares][kLanes];  // [row square][column square][row]
    for (int64_t j = 0; j < kSquares; ++j) {
        for (int64_t i = 0; i < kLanes; ++i) {
            const T* line = from + (j * kLanes + i) * sourceStride;
            for (int64_t k = 0; k < kSquares; ++k) squares[k][j][i] = hn::LoadU(d, line + k * kLanes);
        }
    }
    for (int64_t k = 0; k < kSquares; ++k) {
        for (int64_t j = 0; j < kSquares; ++j) transpose_square(d, squares[k][j]);
    }
    for (int64_t k = 0; k < kSquares; ++k) {
        for (int64_t i = 0; i < kLanes; ++i) {
            T* row = to + (k * kLanes + i) * rowStride;
            for (int64_t j = 0; j < kSquares; j += kParts) {
                V parts[kParts];
                for (int64_t p = 0; p < kParts; ++p) parts[p] = squares[k][j + p][i];
                const auto v = joined(dl, d, parts);
                if (stream) {
                    hn::Stream(v, dl, row + j * kLanes);
                } else {
                    hn::StoreU(v, dl, row + j * kLanes);
                }
            }
        }
    }
}

/// transpose_tile for elements moved as T.  Line blocks cover what they
/// fill, a column panel of them at a time down all rows: each source line is
/// read once, whole, the panel's source rows read on in step, and each
/// destination line written once, whole (streamed where the destination's
/// lines are aligned).  The edges go through squares of 128-bit vectors,
/// then element by element.
template <class T>
bool transpose_as(const void* source, void* destination, int64_t rows, int64_t columns, int64_t sourceStride,
                  int64_t rowStride, bool streaming) {
    const auto* from = static_cast<const T*>(source);
    auto* to = static_cast<T*>(destination);
    constexpr int64_t kLine = line_elements<T>();
    const auto aligned = [&](int64_t bytes) {
        return streaming && reinterpret_cast<uintptr_t>(to) % bytes == 0 &&
               rowStride * static_cast<int64_t>(sizeof(T)) % bytes == 0;
    };
    const int64_t blockRows = rows - rows % kLine;
    const int64_t blockColumns = columns - columns % kLine;
    const bool streamLines = aligned(64);
    constexpr int64_t kPrefetchBlocks = 4;
    for (int64_t c = 0; c < blockColumns; c += kLine) {
        for (int64_t r = 0; r < blockRows; r += kLine) {
            // Each source row of the panel is fetched into L2 four lines
            // ahead: a core's misses in flight, not the memory's bandwidth,
            // bound a transpose (1 worker takes twice as long as 2), and the
            // panel's 16 to 64 rows are more streams than the hardware
            // prefetchers follow.  Measured on [1024, 16384], 2 workers,
            // against the triad: fp32 0.6-0.85 without, 1.0 with; fp16 0.44
            // without, 0.6 one block ahead into L1, 0.7-0.8 four into L2.
            if (r + kPrefetchBlocks * kLine < blockRows) {
                for (int64_t i = 0; i < kLine; ++i) {
                    __builtin_prefetch(from + r + kPrefetchBlocks * kLine + (c + i) * sourceStride, 0, 2);
                }
            }
            const T* block = from + r + c * sourceStride;
            if constexpr (kLinesOfPairs<T>) {
                transpose_line_block_of_pairs(block, to + r * rowStride + c, sourceStride, rowStride, streamLines);
            } else {
                transpose_line_block(block, to + r * rowStride + c, sourceStride, rowStride, streamLines);
            }
        }
    }
    // The edges: the right strip of every row, the bottom one under the blocks.
    const hn::Full128<T> d128;
    constexpr int64_t kLanes = hn::MaxLanes(d128);
    const bool stream128 = aligned(16);
    const int64_t restColumns = columns - blockColumns;
    transpose_squares(d128, from + blockColumns * sourceStride, to + blockColumns, rows, restColumns, sourceStride,
                      rowStride, stream128);
    transpose_squares(d128, from + blockRows, to + blockRows * rowStride, rows - blockRows, blockColumns,
                      sourceStride, rowStride, stream128);
    // What no 128-bit square fills: the right strip's last columns, and the
    // bottom strip's last rows.
    const int64_t squareColumns = columns - columns % kLanes;
    const int64_t squareRows = rows - rows % kLanes;
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
