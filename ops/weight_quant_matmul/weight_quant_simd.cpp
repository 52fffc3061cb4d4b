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

#if HWY_TARGET != HWY_SCALAR
/// The table path's block: 32 nibbles, 16 bytes, a group's table of 16
/// fp32 lanes.
constexpr int64_t kTableLanes = 16;
constexpr int64_t kBlock = 32;

/// Whether every block of the tile's columns starts at a byte, lies in one
/// group and in the tile: INT4 in groups of multiples of 32 (ggml's Q4_0).
bool table_path(const WeightQuantSpec& spec, const Tile& tile) {
    return spec.weightDtype == ACL_INT4 && spec.groupSize % kBlock == 0 && tile.k0 % kBlock == 0 &&
           tile.depth % kBlock == 0 && spec.weight.offset % 2 == 0 && spec.weight.colStride % 2 == 0;
}

/// The table path of accumulate: per group, lane j of a vector holds the
/// dequantised value of nibble j; per block of 32, the low nibbles (the
/// even elements) and the high ones (the odd) index it, and multiply x's
/// even and odd elements (xd: x deinterleaved per block).  kRows a
/// constant keeps the sums in registers.
template <int kRows>
void accumulate_by_table(const WeightQuantSpec& spec, const Sources& src, const Tile& tile, const float* xd,
                         float* acc) {
    const hn::ScalableTag<float> d;
    const hn::RebindToSigned<decltype(d)> di;
    const hn::RebindToUnsigned<decltype(d)> du;
    const hn::Rebind<uint8_t, decltype(d)> du8;
    const bool bf16 = spec.xDtype == ACL_BF16;
    const auto nibbles = hn::ConvertTo(d, hn::Sub(hn::Xor(hn::Iota(di, 0), hn::Set(di, 8)), hn::Set(di, 8)));
    const auto low = hn::Set(du8, 0x0F);
    for (int64_t c = 0; c < tile.cols; ++c) {
        const int64_t n = tile.n0 + c;
        const auto* bytes = reinterpret_cast<const uint8_t*>(src.weight) +
                            (spec.weight.offset + tile.k0 + n * spec.weight.colStride) / 2;
        prefetch_column(bytes + spec.weight.colStride / 2, tile.depth / 2);
        hn::Vec<decltype(d)> sums[2 * kRows];
        for (auto& sum : sums) sum = hn::Zero(d);
        auto table = hn::Zero(d);
        int64_t group = tile.k0 / spec.groupSize - 1;
        int64_t groupEnd = tile.k0;  // the first row of the next group
        for (int64_t kk = 0; kk < tile.depth; kk += kBlock) {
            if (tile.k0 + kk == groupEnd) {
                groupEnd = (++group + 1) * spec.groupSize;
                const float scale = parameter(spec, src.scale, spec.scale, group, n);
                const float offset = spec.hasOffset ? parameter(spec, src.offset, spec.offset, group, n) : 0.0f;
                table = antiquant(d, nibbles, bf16, spec.hasOffset, hn::Set(d, scale), hn::Set(d, offset));
            }
            const auto packed = hn::LoadU(du8, bytes + kk / 2);
            const auto even = hn::TableLookupLanes(
                table, hn::IndicesFromVec(d, hn::BitCast(di, hn::PromoteTo(du, hn::And(packed, low)))));
            const auto odd = hn::TableLookupLanes(
                table, hn::IndicesFromVec(d, hn::BitCast(di, hn::PromoteTo(du, hn::ShiftRight<4>(packed)))));
            for (int r = 0; r < kRows; ++r) {
                const float* x = xd + r * tile.depth + kk;
                sums[2 * r] = hn::MulAdd(even, hn::LoadU(d, x), sums[2 * r]);
                sums[2 * r + 1] = hn::MulAdd(odd, hn::LoadU(d, x + kBlock / 2), sums[2 * r + 1]);
            }
        }
        for (int r = 0; r < kRows; ++r) {
            acc[r * tile.cols + c] += hn::GetLane(hn::SumOfLanes(d, hn::Add(sums[2 * r], sums[2 * r + 1])));
        }
    }
}

/// x's rows deinterleaved per block for accumulate_by_table, then it.
void accumulate_by_table(const WeightQuantSpec& spec, const Sources& src, const Tile& tile, const float* xs,
                         int64_t rows, float* acc) {
    float xd[weight_quant::kMaxFewRows * kMaxRun];
    for (int64_t i = 0; i < rows * tile.depth; i += kBlock) {
        for (int64_t j = 0; j < kBlock / 2; ++j) {
            xd[i + j] = xs[i + 2 * j];
            xd[i + kBlock / 2 + j] = xs[i + 2 * j + 1];
        }
    }
    static_assert(weight_quant::kMaxFewRows == 4);
    switch (rows) {
        case 1: return accumulate_by_table<1>(spec, src, tile, xd, acc);
        case 2: return accumulate_by_table<2>(spec, src, tile, xd, acc);
        case 3: return accumulate_by_table<3>(spec, src, tile, xd, acc);
        default: return accumulate_by_table<4>(spec, src, tile, xd, acc);
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
#if HWY_TARGET != HWY_SCALAR
    if constexpr (HWY_LANES(float) == kTableLanes) {
        if (table_path(spec, tile)) return accumulate_by_table(spec, src, tile, xs, rows, acc);
    }
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
