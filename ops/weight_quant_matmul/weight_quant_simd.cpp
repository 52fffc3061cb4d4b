// acl-cpu ops/weight_quant_matmul: dequantising weight tiles and the
// few-row product, compiled for every SIMD target Highway dispatches to.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "weight_quant_matmul/weight_quant_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "aclcpu/half.hpp"
#include "common/dtype.hpp"
#include "common/hwy_target.hpp"
#include "common/simd-inl.h"
#include "weight_quant_matmul/weight_quant_kernel.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

using weight_quant::kMaxRun;
using weight_quant::Sources;
using weight_quant::Tile;

/// Integer weight element e (INT4: nibble e, the low nibble first, two's
/// complement) of the bytes at base.
int32_t weight_int(const std::byte* base, bool int4, int64_t e) {
    if (!int4) return static_cast<int8_t>(base[e]);
    const auto byte = static_cast<uint8_t>(base[e >> 1]);
    const int32_t nibble = (e & 1) != 0 ? byte >> 4 : byte & 0x0F;
    return (nibble ^ 8) - 8;
}

/// load_ints for count (<= Lanes(d)) elements from any element on; the
/// other lanes 0.  Out of line: tails and odd nibbles are rare.
template <class D>
HWY_NOINLINE hn::Vec<D> load_ints_partial(D d, const std::byte* base, bool int4, int64_t e, size_t count) {
    int32_t ints[kMaxFloatLanes] = {};
    for (size_t i = 0; i < count; ++i) ints[i] = weight_int(base, int4, e + static_cast<int64_t>(i));
    return hn::ConvertTo(d, hn::LoadU(hn::Rebind<int32_t, D>(), ints));
}

/// Lanes(d) integer weight elements from element e on, as fp32.  INT4 from
/// an even nibble: the bytes split into low and high nibbles, interleaved.
template <class D>
HWY_INLINE hn::Vec<D> load_ints(D d, const std::byte* base, bool int4, int64_t e) {
    const hn::Rebind<int32_t, D> di32;
    const hn::Rebind<int8_t, D> di8;
    if (!int4) return hn::ConvertTo(d, hn::PromoteTo(di32, hn::LoadU(di8, reinterpret_cast<const int8_t*>(base + e))));
#if HWY_TARGET == HWY_SCALAR
    return load_ints_partial(d, base, int4, e, 1);
#else
    const hn::Rebind<uint8_t, D> du8;
    const hn::Half<decltype(du8)> dh;
    const auto bytes = hn::ZeroExtendVector(du8, hn::LoadU(dh, reinterpret_cast<const uint8_t*>(base + (e >> 1))));
    const auto nibbles = hn::InterleaveLower(hn::And(bytes, hn::Set(du8, 0x0F)), hn::ShiftRight<4>(bytes));
    const auto signedNibbles = hn::Sub(hn::BitCast(di8, hn::Xor(nibbles, hn::Set(du8, 8))), hn::Set(di8, 8));
    return hn::ConvertTo(d, hn::PromoteTo(di32, signedNibbles));
#endif
}

/// The scale and offset of a run: one value for the run (broadcast) or one
/// per element (arrays of fp32).
struct RunParams {
    const float* scales = nullptr;  ///< per element; null: scale
    const float* offsets = nullptr;
    float scale = 0;
    float offset = 0;
};

/// ANTIQUANT of the ints in v as the device's vector unit computes it: for
/// an fp16 x, w + offset rounded to fp16, times scale rounded to fp16; for
/// a bf16 x, both in fp32 and the product rounded to bf16.
template <class D>
HWY_INLINE hn::Vec<D> antiquant(D d, hn::Vec<D> v, bool bf16, bool hasOffset, hn::Vec<D> scale, hn::Vec<D> offset) {
    if (hasOffset) {
        v = hn::Add(v, offset);
        if (!bf16) v = round_to<half_t>(d, v);
    }
    v = hn::Mul(v, scale);
    return bf16 ? round_to<bf16_t>(d, v) : round_to<half_t>(d, v);
}

/// out[i] = ANTIQUANT(weight element e + i) for i < count (<= kMaxRun).
void dequantise_run(const WeightQuantSpec& spec, const std::byte* base, int64_t e, int64_t count,
                    const RunParams& params, float* out) {
    const hn::ScalableTag<float> d;
    const auto lanes = static_cast<int64_t>(hn::Lanes(d));
    const bool int4 = spec.weightDtype == ACL_INT4;
    const bool bf16 = spec.xDtype == ACL_BF16;
    const bool aligned = !int4 || (e & 1) == 0;  // the vector loads of INT4 start at a byte
    const auto scaleAt = [&](int64_t i) {
        return params.scales != nullptr ? hn::LoadU(d, params.scales + i) : hn::Set(d, params.scale);
    };
    const auto offsetAt = [&](int64_t i) {
        return params.offsets != nullptr ? hn::LoadU(d, params.offsets + i) : hn::Set(d, params.offset);
    };
    int64_t i = 0;
    if (aligned) {
        for (; i + lanes <= count; i += lanes) {
            const auto v = load_ints(d, base, int4, e + i);
            hn::StoreU(antiquant(d, v, bf16, spec.hasOffset, scaleAt(i), offsetAt(i)), d, out + i);
        }
    }
    for (; i < count; i += lanes) {
        const auto n = static_cast<size_t>(std::min(lanes, count - i));
        float scales[kMaxFloatLanes] = {};
        float offsets[kMaxFloatLanes] = {};
        for (size_t j = 0; j < n; ++j) {
            scales[j] = params.scales != nullptr ? params.scales[i + j] : params.scale;
            offsets[j] = params.offsets != nullptr ? params.offsets[i + j] : params.offset;
        }
        const auto v = load_ints_partial(d, base, int4, e + i, n);
        const auto w = antiquant(d, v, bf16, spec.hasOffset, hn::LoadU(d, scales), hn::LoadU(d, offsets));
        float values[kMaxFloatLanes];
        hn::StoreU(w, d, values);
        std::copy(values, values + n, out + i);
    }
}

/// Element (row, col) of a [groups, n] parameter of x's dtype, as fp32.
HWY_INLINE float parameter(const WeightQuantSpec& spec, const std::byte* data, const QuantOperand& at, int64_t row,
                           int64_t col) {
    const int64_t index = at.offset + row * at.rowStride + col * at.colStride;
    const hn::CappedTag<float, 1> d1;  // F16C's conversion where the target has it
    if (spec.xDtype == ACL_BF16) return hn::GetLane(load_f32(d1, reinterpret_cast<const bf16_t*>(data) + index));
    return hn::GetLane(load_f32(d1, reinterpret_cast<const half_t*>(data) + index));
}

/// Dequantises column n0 + c over the tile's rows into out (a K-contiguous
/// weight), a run per group.
void dequantise_column(const WeightQuantSpec& spec, const Sources& src, const Tile& tile, int64_t c, float* out) {
    // tile.depth <= kMaxRun: out holds the column's segment.
    const int64_t n = tile.n0 + c;
    for (int64_t kk = 0; kk < tile.depth;) {
        const int64_t row = tile.k0 + kk;
        const int64_t group = row / spec.groupSize;
        const int64_t count = std::min({tile.depth - kk, (group + 1) * spec.groupSize - row, kMaxRun});
        RunParams params;
        params.scale = parameter(spec, src.scale, spec.scale, group, n);
        if (spec.hasOffset) params.offset = parameter(spec, src.offset, spec.offset, group, n);
        const int64_t e = spec.weight.offset + row + n * spec.weight.colStride;
        dequantise_run(spec, src.weight, e, count, params, out + kk);
        kk += count;
    }
}

/// The scale (and offset) row of `group` over the tile's columns, as fp32.
void stage_parameters(const WeightQuantSpec& spec, const Sources& src, const Tile& tile, int64_t group,
                      float* scales, float* offsets) {
    for (int64_t c = 0; c < tile.cols; ++c) {
        scales[c] = parameter(spec, src.scale, spec.scale, group, tile.n0 + c);
        if (spec.hasOffset) offsets[c] = parameter(spec, src.offset, spec.offset, group, tile.n0 + c);
    }
}

/// Calls run(kk, row values) for each row kk of the tile (an N-contiguous
/// weight), its columns dequantised at out + kk * outStride (tile.cols <=
/// kMaxRun).
template <class Run>
void for_rows(const WeightQuantSpec& spec, const Sources& src, const Tile& tile, float* out, int64_t outStride,
              const Run& run) {
    float scales[kMaxRun];
    float offsets[kMaxRun];
    int64_t staged = -1;
    for (int64_t kk = 0; kk < tile.depth; ++kk) {
        const int64_t row = tile.k0 + kk;
        const int64_t group = row / spec.groupSize;
        if (group != staged) stage_parameters(spec, src, tile, staged = group, scales, offsets);
        RunParams params;
        params.scales = scales;
        params.offsets = offsets;
        const int64_t e = spec.weight.offset + row * spec.weight.rowStride + tile.n0;
        float* values = out + kk * outStride;
        dequantise_run(spec, src.weight, e, tile.cols, params, values);
        run(kk, values);
    }
}

/// Asks for the cache lines of the next column's bytes: a column's chunk
/// is a few lines, too few for the hardware's stream prefetch.
void prefetch_column(const uint8_t* bytes, int64_t count) {
    for (int64_t i = 0; i < count; i += 64) hwy::Prefetch(bytes + i);
}

#if HWY_TARGET <= HWY_AVX3 && HWY_ARCH_X86
// The block path (AVX-512's 16 fp32 lanes): K in blocks of 32 weight
// elements inside a group, each dequantised in registers and dotted with
// x's rows.  INT4: per block (16 bytes) a vector holds the 16 values a
// nibble dequantises to; the low nibbles (the even elements) and the high
// ones (the odd) index it and multiply x's even and odd elements (x
// deinterleaved per block).  Without an offset, ANTIQUANT(v) = round(v *
// s) with s = m 2^e equals round(v * m) 2^e while v * s stays in the
// rounding dtype's normal range: the block's table is then a static row
// per mantissa m with e added to its lanes' exponent bits, sparing the
// conversions that round a computed table -- they would cost as much as
// the block's products.
constexpr int64_t kTableLanes = 16;
constexpr int64_t kBlock = 32;
constexpr int64_t kMaxBlocks = kMaxRun / kBlock;
using TableTag = hn::Full512<float>;
using Table = hn::Vec<TableTag>;

/// Whether every block of 32 of the tile's columns lies in one group and in
/// the tile and, INT4, starts at a byte: groups of multiples of 32 (ggml's
/// Q4_0 and Q8_0).
bool block_path(const WeightQuantSpec& spec, const Tile& tile) {
    const bool bytes = spec.weightDtype == ACL_INT8 || (spec.weight.offset % 2 == 0 && spec.weight.colStride % 2 == 0);
    return bytes && spec.groupSize % kBlock == 0 && tile.k0 % kBlock == 0 && tile.depth % kBlock == 0;
}

/// Lane i of table at the low 4 bits of each lane of nibbles: vpermps reads
/// no other bits, so the nibbles need no masking.
HWY_INLINE Table lookup(Table table, hn::Vec<hn::RebindToUnsigned<TableTag>> nibbles) {
    return Table{_mm512_permutexvar_ps(nibbles.raw, table.raw)};
}

/// Keeps v in a register: its uses must not each fold a load of it (a
/// 512-bit load a cycle is the loop's other bound).
template <class V>
HWY_INLINE void keep_in_register(V& v) {
    __asm__("" : "+v"(v.raw));
}

/// Row j, lane n: round(((n ^ 8) - 8) * (1 + j / 2^10)) to fp16 (half) or
/// round(... * (1 + j / 2^7)) to bf16 -- the tables of the scales 1 <= s < 2.
struct MantissaTables {
    alignas(64) float half[1 << 10][kTableLanes];
    alignas(64) float bf16[1 << 7][kTableLanes];
};

const MantissaTables& mantissa_tables() {
    static const MantissaTables tables = [] {
        MantissaTables t{};
        for (int64_t n = 0; n < kTableLanes; ++n) {
            const auto v = static_cast<float>((n ^ 8) - 8);
            for (int64_t j = 0; j < (1 << 10); ++j) {
                t.half[j][n] = static_cast<float>(half_t::from_float(v * (1.0f + static_cast<float>(j) / 1024)));
            }
            for (int64_t j = 0; j < (1 << 7); ++j) {
                t.bf16[j][n] = static_cast<float>(bf16_t::from_float(v * (1.0f + static_cast<float>(j) / 128)));
            }
        }
        return t;
    }();
    return tables;
}

/// How many columns ahead stage_per_block prefetches a column's parameters.
constexpr int64_t kParameterLead = 4;

/// out[b] = the parameter at (the group of block b of the tile, column n) as
/// fp32, for the tile's blocks.
void stage_per_block(const WeightQuantSpec& spec, const std::byte* data, const QuantOperand& at, const Tile& tile,
                     int64_t n, float* out) {
    const int64_t blocks = tile.depth / kBlock;
    int64_t b = 0;
    if (spec.groupSize == kBlock && at.rowStride == 1) {  // ggml's: a column's groups are contiguous
        const TableTag d;
        const int64_t first = at.offset + tile.k0 / kBlock + n * at.colStride;
        // A miss here stalls the column's products: ask for a later column's.
        const std::byte* later = data + (first + kParameterLead * at.colStride) * 2;
        for (int64_t i = 0; i < blocks * 2; i += 64) hwy::Prefetch(later + i);
        // Whole vectors, then the rest through one partial vector (short
        // columns -- a K of 256 is 8 blocks -- would otherwise convert
        // each scale alone, which cost more than the column's products).
        for (; b < blocks; b += kTableLanes) {
            const auto count = static_cast<size_t>(std::min(kTableLanes, blocks - b));
            const auto load = [&](const auto* p) {
                return count == kTableLanes ? load_f32(d, p) : load_f32_partial(d, p, count);
            };
            const auto v = spec.xDtype == ACL_BF16 ? load(reinterpret_cast<const bf16_t*>(data) + first + b)
                                                    : load(reinterpret_cast<const half_t*>(data) + first + b);
            HWY_ALIGN float values[kTableLanes];
            hn::Store(v, d, values);
            std::copy(values, values + count, out + b);
        }
    }
    while (b < blocks) {
        const int64_t group = (tile.k0 + b * kBlock) / spec.groupSize;
        const int64_t end = std::min(blocks, ((group + 1) * spec.groupSize - tile.k0) / kBlock);
        std::fill(out + b, out + end, parameter(spec, data, at, group, n));
        b = end;
    }
}

/// A column's tables from its blocks' scales: the row of mantissa_tables
/// (floats from the dtype's table) and what to add to its lanes' bits (the
/// exponent and sign).  Built by scaled() when every scale allows it.
struct ScaledRows {
    alignas(64) int32_t row[kMaxBlocks];
    alignas(64) int32_t delta[kMaxBlocks];

    /// False when a scale (fp32 of the x dtype, one per block, blocks
    /// rounded up to 16 readable) lies outside the range where the scaled
    /// table is exact: a subnormal or zero scale, and fp16's |s| >= 2^12
    /// (|8 s| could round to Inf).
    bool scaled(const float* scales, int64_t blocks, bool bf16) {
        const TableTag d;
        const hn::RebindToSigned<decltype(d)> di;
        const auto lowest = hn::Set(di, bf16 ? 1 : 127 - 14);
        const auto highest = hn::Set(di, bf16 ? 250 : 127 + 11);
        for (int64_t b = 0; b < blocks; b += kTableLanes) {
            const auto bits = hn::BitCast(di, hn::LoadU(d, scales + b));
            const auto exponent = hn::And(hn::ShiftRight<23>(bits), hn::Set(di, 0xFF));
            if (!hn::AllFalse(di, hn::Or(hn::Lt(exponent, lowest), hn::Gt(exponent, highest)))) return false;
            const auto mantissa = bf16 ? hn::ShiftRight<16>(bits) : hn::ShiftRight<13>(bits);
            const auto row = hn::And(mantissa, hn::Set(di, bf16 ? 0x7F : 0x3FF));
            hn::Store(hn::ShiftLeft<4>(row), di, this->row + b);
            const auto delta = hn::Sub(hn::And(bits, hn::Set(di, static_cast<int32_t>(0xFF800000u))),
                                       hn::Set(di, 0x3F800000));
            hn::Store(delta, di, this->delta + b);
        }
        return true;
    }
};

/// Block b's table of a column: the scaled row (lane 0, nibble 0, stays 0).
struct ScaledTables {
    const float* rows;  ///< mantissa_tables' of the x dtype
    const ScaledRows* columns;

    HWY_INLINE Table operator()(int c, int64_t b) const {
        const __m512i row = _mm512_load_si512(rows + columns[c].row[b]);
        const __m512i delta = _mm512_set1_epi32(columns[c].delta[b]);
        return Table{_mm512_castsi512_ps(_mm512_maskz_add_epi32(0xFFFE, row, delta))};
    }
};

/// The staged parameters of a column group's blocks: column c's block b's
/// scale and offset.
struct BlockParameters {
    const float (*scales)[kMaxBlocks];
    const float (*offsets)[kMaxBlocks];
    bool bf16;
    bool hasOffset;

    /// ANTIQUANT of the weight values in v with column c's block b's parameters.
    HWY_INLINE Table antiquant_block(Table v, int c, int64_t b) const {
        const TableTag d;
        const float offset = hasOffset ? offsets[c][b] : 0.0f;
        return antiquant(d, v, bf16, hasOffset, hn::Set(d, scales[c][b]), hn::Set(d, offset));
    }
};

/// Block b's table of a column computed from its scale and offset.
struct ComputedTables {
    BlockParameters parameters;

    HWY_INLINE Table operator()(int c, int64_t b) const {
        const TableTag d;
        const hn::RebindToSigned<decltype(d)> di;
        const auto nibbles = hn::ConvertTo(d, hn::Sub(hn::Xor(hn::Iota(di, 0), hn::Set(di, 8)), hn::Set(di, 8)));
        return parameters.antiquant_block(nibbles, c, b);
    }
};

/// An INT4 block (16 bytes) dequantised: its table at the low nibbles (the
/// even elements) and at the high ones (the odd).
template <class Tables>
struct NibbleBlocks {
    static constexpr int64_t kBytes = kBlock / 2;
    Tables tables;

    HWY_INLINE void operator()(int c, int64_t b, const uint8_t* bytes, Table& first, Table& second) const {
        const hn::RebindToUnsigned<TableTag> du;
        const auto low = hn::PromoteTo(du, hn::LoadU(hn::Rebind<uint8_t, TableTag>(), bytes));
        const Table table = tables(c, b);
        first = lookup(table, low);
        second = lookup(table, hn::ShiftRight<4>(low));
    }
};

/// An INT8 block (32 bytes) dequantised: elements 0-15 and 16-31.
struct ByteBlocks {
    static constexpr int64_t kBytes = kBlock;
    BlockParameters parameters;

    HWY_INLINE void operator()(int c, int64_t b, const uint8_t* bytes, Table& first, Table& second) const {
        const TableTag d;
        const hn::Rebind<int8_t, TableTag> d8;
        const hn::RebindToSigned<TableTag> di;
        const auto* ints = reinterpret_cast<const int8_t*>(bytes);
        first = parameters.antiquant_block(hn::ConvertTo(d, hn::PromoteTo(di, hn::LoadU(d8, ints))), c, b);
        second = parameters.antiquant_block(hn::ConvertTo(d, hn::PromoteTo(di, hn::LoadU(d8, ints + 16))), c, b);
    }
};

/// Where dot_columns reads: the kCols columns' bytes (column c at bytes +
/// c * columnBytes) and x's rows staged per block as the blocks' values
/// come (row r at xs + r * depth).
struct DotSources {
    const uint8_t* bytes;
    int64_t columnBytes;
    const float* xs;
    int64_t depth;
};

/// Block b of dot_columns into sums.  The next kCols columns are prefetched
/// as these are read: the hardware's prefetch loses interleaved streams.
template <int kRows, int kCols, class Blocks>
HWY_INLINE void dot_block(const Blocks& blocks, const DotSources& at, int64_t b, Table (&sums)[kRows][kCols][2]) {
    const TableTag d;
    const int64_t first = b * Blocks::kBytes;
    if (first % 64 == 0) {
        HWY_UNROLL(4) for (int c = 0; c < kCols; ++c) hwy::Prefetch(at.bytes + (kCols + c) * at.columnBytes + first);
    }
    Table x[kRows][2];
    HWY_UNROLL(4) for (int r = 0; r < kRows; ++r) {
        x[r][0] = hn::LoadU(d, at.xs + r * at.depth + b * kBlock);
        x[r][1] = hn::LoadU(d, at.xs + r * at.depth + b * kBlock + kTableLanes);
        if constexpr (kCols > 1) {
            keep_in_register(x[r][0]);
            keep_in_register(x[r][1]);
        }
    }
    HWY_UNROLL(4) for (int c = 0; c < kCols; ++c) {
        Table w[2];
        blocks(c, b, at.bytes + c * at.columnBytes + first, w[0], w[1]);
        HWY_UNROLL(4) for (int r = 0; r < kRows; ++r) {
            sums[r][c][0] = hn::MulAdd(w[0], x[r][0], sums[r][c][0]);
            sums[r][c][1] = hn::MulAdd(w[1], x[r][1], sums[r][c][1]);
        }
    }
}

/// acc[r * accStride + c] += x's row r dotted with column c < kCols over
/// count blocks, blocks(c, b, ...) dequantising column c's block b.  Block
/// parities sum apart when the chains would wait on the FMA's latency.
template <int kRows, int kCols, class Blocks>
void dot_columns(const Blocks& blocks, const DotSources& at, int64_t count, float* acc, int64_t accStride) {
    constexpr int kChains = kRows * kCols < 4 ? 2 : 1;
    const TableTag d;
    Table sums[kChains][kRows][kCols][2];
    for (auto& chain : sums) {
        for (auto& row : chain) {
            for (auto& column : row) column[0] = column[1] = hn::Zero(d);
        }
    }
    int64_t b = 0;
    for (; b + kChains <= count; b += kChains) {
        HWY_UNROLL(4) for (int k = 0; k < kChains; ++k) dot_block<kRows, kCols>(blocks, at, b + k, sums[k]);
    }
    if (b < count) dot_block<kRows, kCols>(blocks, at, b, sums[0]);
    for (int r = 0; r < kRows; ++r) {
        for (int c = 0; c < kCols; ++c) {
            auto sum = hn::Add(sums[0][r][c][0], sums[0][r][c][1]);
            if constexpr (kChains == 2) sum = hn::Add(sum, hn::Add(sums[1][r][c][0], sums[1][r][c][1]));
            acc[r * accStride + c] += hn::GetLane(hn::SumOfLanes(d, sum));
        }
    }
}

/// The tile's columns c0 .. c0 + kCols - 1 through dot_columns: their
/// blocks' parameters staged; INT4 looks up scaled static tables if every
/// scale allows them, else computed ones.
template <int kRows, int kCols>
void block_columns(const WeightQuantSpec& spec, const Sources& src, const Tile& tile, int64_t c0, const float* xs,
                   float* acc) {
    const int64_t count = tile.depth / kBlock;
    const bool bf16 = spec.xDtype == ACL_BF16;
    alignas(64) float scales[kCols][kMaxBlocks];
    alignas(64) float offsets[kCols][kMaxBlocks];
    for (int c = 0; c < kCols; ++c) {
        // ScaledRows reads whole vectors: the last one's lanes past count.
        std::fill(scales[c] + count, scales[c] + std::min(kMaxBlocks, (count + kTableLanes - 1) / kTableLanes * kTableLanes), 1.0f);
        stage_per_block(spec, src.scale, spec.scale, tile, tile.n0 + c0 + c, scales[c]);
        if (spec.hasOffset) stage_per_block(spec, src.offset, spec.offset, tile, tile.n0 + c0 + c, offsets[c]);
    }
    const bool int4 = spec.weightDtype == ACL_INT4;
    const int64_t columnBytes = int4 ? spec.weight.colStride / 2 : spec.weight.colStride;
    const int64_t first = spec.weight.offset + tile.k0 + (tile.n0 + c0) * spec.weight.colStride;
    const DotSources at{reinterpret_cast<const uint8_t*>(src.weight) + (int4 ? first / 2 : first), columnBytes, xs,
                        tile.depth};
    float* out = acc + c0;
    const BlockParameters parameters{scales, offsets, bf16, spec.hasOffset};
    if (!int4) return dot_columns<kRows, kCols>(ByteBlocks{parameters}, at, count, out, tile.cols);
    if (!spec.hasOffset) {
        ScaledRows rows[kCols];
        bool scaled = true;
        for (int c = 0; c < kCols; ++c) scaled = scaled && rows[c].scaled(scales[c], count, bf16);
        if (scaled) {
            const MantissaTables& tables = mantissa_tables();
            const ScaledTables scaledTables{bf16 ? &tables.bf16[0][0] : &tables.half[0][0], rows};
            return dot_columns<kRows, kCols>(NibbleBlocks<ScaledTables>{scaledTables}, at, count, out, tile.cols);
        }
    }
    dot_columns<kRows, kCols>(NibbleBlocks<ComputedTables>{{parameters}}, at, count, out, tile.cols);
}

/// The block path of accumulate for kRows rows: pairs of columns while one
/// or two rows leave the FMAs idle, single columns after.
template <int kRows>
void accumulate_by_blocks(const WeightQuantSpec& spec, const Sources& src, const Tile& tile, const float* xs,
                          float* acc) {
    constexpr int kCols = kRows <= 2 ? 2 : 1;
    int64_t c = 0;
    for (; c + kCols <= tile.cols; c += kCols) block_columns<kRows, kCols>(spec, src, tile, c, xs, acc);
    for (; c < tile.cols; ++c) block_columns<kRows, 1>(spec, src, tile, c, xs, acc);
}

/// The block path of accumulate; x's rows deinterleaved per block for INT4
/// (its blocks come as even and odd elements).
void accumulate_by_blocks(const WeightQuantSpec& spec, const Sources& src, const Tile& tile, const float* xs,
                          int64_t rows, float* acc) {
    alignas(64) float xd[weight_quant::kMaxFewRows * kMaxRun];
    if (spec.weightDtype == ACL_INT4) {
        const TableTag d;
        for (int64_t i = 0; i < rows * tile.depth; i += kBlock) {
            const auto lo = hn::LoadU(d, xs + i);
            const auto hi = hn::LoadU(d, xs + i + kTableLanes);
            hn::Store(hn::ConcatEven(d, hi, lo), d, xd + i);
            hn::Store(hn::ConcatOdd(d, hi, lo), d, xd + i + kTableLanes);
        }
        xs = xd;
    }
    static_assert(weight_quant::kMaxFewRows == 4);
    switch (rows) {
        case 1: return accumulate_by_blocks<1>(spec, src, tile, xs, acc);
        case 2: return accumulate_by_blocks<2>(spec, src, tile, xs, acc);
        case 3: return accumulate_by_blocks<3>(spec, src, tile, xs, acc);
        default: return accumulate_by_blocks<4>(spec, src, tile, xs, acc);
    }
}
#endif

float dot(const float* a, const float* b, int64_t count) {
    const hn::ScalableTag<float> d;
    const auto lanes = static_cast<int64_t>(hn::Lanes(d));
    auto sum0 = hn::Zero(d);
    auto sum1 = hn::Zero(d);
    int64_t i = 0;
    for (; i + 2 * lanes <= count; i += 2 * lanes) {
        sum0 = hn::MulAdd(hn::LoadU(d, a + i), hn::LoadU(d, b + i), sum0);
        sum1 = hn::MulAdd(hn::LoadU(d, a + i + lanes), hn::LoadU(d, b + i + lanes), sum1);
    }
    for (; i + lanes <= count; i += lanes) sum0 = hn::MulAdd(hn::LoadU(d, a + i), hn::LoadU(d, b + i), sum0);
    float sum = hn::GetLane(hn::SumOfLanes(d, hn::Add(sum0, sum1)));
    for (; i < count; ++i) sum += a[i] * b[i];
    return sum;
}

/// acc[i] += a * w[i] for i < count.
void axpy(float a, const float* w, int64_t count, float* acc) {
    const hn::ScalableTag<float> d;
    const auto lanes = static_cast<int64_t>(hn::Lanes(d));
    const auto va = hn::Set(d, a);
    int64_t i = 0;
    for (; i + lanes <= count; i += lanes) hn::StoreU(hn::MulAdd(va, hn::LoadU(d, w + i), hn::LoadU(d, acc + i)), d, acc + i);
    for (; i < count; ++i) acc[i] += a * w[i];
}

}  // namespace

void dequantise_on_target(const WeightQuantSpec& spec, const Sources& src, const Tile& tile, float* out) {
    if (weight_quant::k_major(spec)) {
        for (int64_t c = 0; c < tile.cols; ++c) dequantise_column(spec, src, tile, c, out + c * tile.depth);
    } else {
        for_rows(spec, src, tile, out, tile.cols, [](int64_t, const float*) {});
    }
}

void accumulate_on_target(const WeightQuantSpec& spec, const Sources& src, const Tile& tile, const float* xs,
                          int64_t rows, float* acc) {
    float buffer[kMaxRun];
    if (!weight_quant::k_major(spec)) {
        for_rows(spec, src, tile, buffer, 0, [&](int64_t kk, const float* w) {
            for (int64_t r = 0; r < rows; ++r) axpy(xs[r * tile.depth + kk], w, tile.cols, acc + r * tile.cols);
        });
        return;
    }
#if HWY_TARGET <= HWY_AVX3 && HWY_ARCH_X86
    if (block_path(spec, tile)) return accumulate_by_blocks(spec, src, tile, xs, rows, acc);
#endif
    // The column's chunk whole, then one dot per row: a horizontal sum
    // per group would cost as much as the group's products.
    const int64_t bits = spec.weightDtype == ACL_INT4 ? 4 : 8;
    for (int64_t c = 0; c < tile.cols; ++c) {
        const int64_t next = spec.weight.offset + tile.k0 + (tile.n0 + c + 1) * spec.weight.colStride;
        prefetch_column(reinterpret_cast<const uint8_t*>(src.weight) + next * bits / 8, tile.depth * bits / 8);
        dequantise_column(spec, src, tile, c, buffer);
        for (int64_t r = 0; r < rows; ++r) acc[r * tile.cols + c] += dot(xs + r * tile.depth, buffer, tile.depth);
    }
}

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
namespace aclcpu::ops::weight_quant {

HWY_EXPORT(dequantise_on_target);
HWY_EXPORT(accumulate_on_target);

void dequantise(const WeightQuantSpec& spec, const Sources& sources, const Tile& tile, float* out) noexcept {
    HWY_DYNAMIC_DISPATCH(dequantise_on_target)(spec, sources, tile, out);
}

void accumulate(const WeightQuantSpec& spec, const Sources& sources, const Tile& tile, const float* xs, int64_t rows,
                float* acc) noexcept {
    HWY_DYNAMIC_DISPATCH(accumulate_on_target)(spec, sources, tile, xs, rows, acc);
}

}  // namespace aclcpu::ops::weight_quant
#endif
