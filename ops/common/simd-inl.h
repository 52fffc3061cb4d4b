// acl-cpu ops/common: per-target SIMD building blocks (Highway) shared by the
// kernels -- fp32 vectors loaded from and stored to device elements of any
// kernel dtype, converted in registers, and whole-or-partial vector access.
//
// A Highway "-inl" header: include it after <hwy/highway.h> from a file
// compiled once per target through <hwy/foreach_target.h>; everything here
// lives in aclcpu::ops::HWY_NAMESPACE.
//
// The conversions are bitwise those of aclcpu/half.hpp on every target:
// fp16/bf16 -> fp32 exact; fp32 -> fp16/bf16 round to nearest even, Inf kept,
// NaN made quiet keeping the top of its payload.  Targets with F16C use it
// for fp16 (same results); the others, and bf16 everywhere, use integer ops,
// because Highway's own emulations truncate.

#include "common/internal.hpp"

#if defined(ACLCPU_OPS_COMMON_SIMD_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLCPU_OPS_COMMON_SIMD_INL_H_
#undef ACLCPU_OPS_COMMON_SIMD_INL_H_
#else
#define ACLCPU_OPS_COMMON_SIMD_INL_H_
#endif

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <hwy/highway.h>

#include "aclcpu/half.hpp"
#include "common/hwy_target.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();

#undef ACLCPU_SIMD_F16C
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2 && !defined(HWY_DISABLE_F16C)
#define ACLCPU_SIMD_F16C 1
#else
#define ACLCPU_SIMD_F16C 0
#endif

/// Most fp32 lanes of any target's vector: the size of on-stack tail buffers.
inline constexpr size_t kMaxFloatLanes = HWY_MAX_BYTES / sizeof(float);

namespace detail {

/// Lanes of 16-bit elements as the u32 lanes of the fp32 vector type D.
template <class D>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<D>> load_u16_as_u32(D /* d */, const uint16_t* p) {
    const hn::RebindToUnsigned<D> du;
    return hn::PromoteTo(du, hn::LoadU(hn::Rebind<uint16_t, D>(), p));
}

template <class D>
HWY_INLINE hn::Vec<D> half_bits_to_float(D d, hn::Vec<hn::RebindToUnsigned<D>> bits) {
    const hn::RebindToUnsigned<D> du;
    using VU = hn::Vec<decltype(du)>;
    const VU rebias = hn::Set(du, 112u << 23);
    const VU rebiased = hn::Add(hn::ShiftLeft<13>(hn::And(bits, hn::Set(du, 0x7FFFu))), rebias);
    const VU exponent = hn::And(bits, hn::Set(du, 0x7C00u));
    const VU mantissa = hn::And(bits, hn::Set(du, 0x03FFu));
    // Inf/NaN: half's exponent 31 becomes float's 255; NaN is made quiet.
    const VU quiet = hn::IfThenElseZero(hn::Ne(mantissa, hn::Zero(du)), hn::Set(du, 0x00400000u));
    const VU special = hn::Or(hn::Add(rebiased, rebias), quiet);
    // Subnormal m * 2^-24, on normal floats only (see half.hpp).
    const VU subnormal = hn::BitCast(du, hn::Sub(hn::BitCast(d, hn::Add(rebiased, hn::Set(du, 1u << 23))),
                                                 hn::BitCast(d, hn::Set(du, 113u << 23))));
    const VU magnitude = hn::IfThenElse(hn::Eq(exponent, hn::Set(du, 0x7C00u)), special,
                                        hn::IfThenElse(hn::Eq(exponent, hn::Zero(du)), subnormal, rebiased));
    return hn::BitCast(d, hn::Or(magnitude, hn::ShiftLeft<16>(hn::And(bits, hn::Set(du, 0x8000u)))));
}

template <class D>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<D>> float_to_half_bits(D d, hn::Vec<D> value) {
    const hn::RebindToUnsigned<D> du;
    using VU = hn::Vec<decltype(du)>;
    const VU bits = hn::BitCast(du, value);
    const VU sign = hn::And(hn::ShiftRight<16>(bits), hn::Set(du, 0x8000u));
    const VU magnitude = hn::And(bits, hn::Set(du, 0x7FFFFFFFu));
    const VU quietNan = hn::Or(hn::Set(du, 0x7E00u), hn::And(hn::ShiftRight<13>(magnitude), hn::Set(du, 0x01FFu)));
    // Below 2^-14: adding 0.5f lets the FPU round on half's subnormal grid.
    const VU half = hn::Set(du, 0x3F000000u);
    const VU subnormal = hn::Sub(hn::BitCast(du, hn::Add(hn::BitCast(d, magnitude), hn::BitCast(d, half))), half);
    const VU odd = hn::And(hn::ShiftRight<13>(magnitude), hn::Set(du, 1u));
    const VU normal = hn::ShiftRight<13>(hn::Add(hn::Sub(magnitude, hn::Set(du, 112u << 23)), hn::Add(hn::Set(du, 0x0FFFu), odd)));
    // Unsigned compares through the sign-free magnitude as signed int32.
    const hn::RebindToSigned<D> di;
    const auto above = [&](uint32_t limit) { return hn::RebindMask(du, hn::Gt(hn::BitCast(di, magnitude), hn::Set(di, static_cast<int32_t>(limit)))); };
    const VU finite = hn::IfThenElse(above(0x477FFFFFu), hn::Set(du, 0x7C00u),
                                     hn::IfThenElse(above(0x387FFFFFu), normal, subnormal));
    return hn::Or(hn::IfThenElse(above(0x7F800000u), quietNan, finite), sign);
}

template <class D>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<D>> float_to_bf16_bits(D /* d */, hn::Vec<D> value) {
    const hn::RebindToUnsigned<D> du;
    const hn::RebindToSigned<D> di;
    using VU = hn::Vec<decltype(du)>;
    const VU bits = hn::BitCast(du, value);
    const VU upper = hn::ShiftRight<16>(bits);
    const VU rounded = hn::ShiftRight<16>(hn::Add(bits, hn::Add(hn::Set(du, 0x7FFFu), hn::And(upper, hn::Set(du, 1u)))));
    const auto nan = hn::RebindMask(du, hn::Gt(hn::BitCast(di, hn::And(bits, hn::Set(du, 0x7FFFFFFFu))),
                                               hn::Set(di, 0x7F800000)));
    return hn::IfThenElse(nan, hn::Or(upper, hn::Set(du, 0x0040u)), rounded);
}

}  // namespace detail

/// Lanes(d) elements at p as fp32.  T: float, half_t or bf16_t.
template <class D>
HWY_INLINE hn::Vec<D> load_f32(D d, const float* p) {
    return hn::LoadU(d, p);
}
template <class D>
HWY_INLINE hn::Vec<D> load_f32(D d, const half_t* p) {
#if ACLCPU_SIMD_F16C
    return hn::PromoteTo(d, hn::LoadU(hn::Rebind<hwy::float16_t, D>(), reinterpret_cast<const hwy::float16_t*>(p)));
#else
    return detail::half_bits_to_float(d, detail::load_u16_as_u32(d, reinterpret_cast<const uint16_t*>(p)));
#endif
}
template <class D>
HWY_INLINE hn::Vec<D> load_f32(D d, const bf16_t* p) {
    return hn::BitCast(d, hn::ShiftLeft<16>(detail::load_u16_as_u32(d, reinterpret_cast<const uint16_t*>(p))));
}

namespace detail {

/// The lane type in which T is stored from fp32 vectors.
template <class T>
using storage_lane_t = std::conditional_t<std::is_same_v<T, float>, float,
                                          std::conditional_t<std::is_same_v<T, half_t> && ACLCPU_SIMD_F16C,
                                                             hwy::float16_t, uint16_t>>;

/// The values of v rounded to T (nearest even), as the vector of
/// storage_lane_t<T> that holds them.
template <class T, class D>
HWY_INLINE auto stored_lanes(D d, hn::Vec<D> v) {
    if constexpr (std::is_same_v<T, float>) {
        return v;
    } else if constexpr (std::is_same_v<storage_lane_t<T>, hwy::float16_t>) {
        return hn::DemoteTo(hn::Rebind<hwy::float16_t, D>(), v);
    } else {
        const hn::RebindToSigned<D> di;
        const hn::Rebind<uint16_t, D> du16;
        if constexpr (std::is_same_v<T, bf16_t>) return hn::DemoteTo(du16, hn::BitCast(di, float_to_bf16_bits(d, v)));
        else return hn::DemoteTo(du16, hn::BitCast(di, float_to_half_bits(d, v)));
    }
}

}  // namespace detail

/// Stores the Lanes(d) values of v at p, rounded to T (nearest even).
template <class D, class T>
HWY_INLINE void store_f32(D d, hn::Vec<D> v, T* p) {
    using Lane = detail::storage_lane_t<T>;
    hn::StoreU(detail::stored_lanes<T>(d, v), hn::Rebind<Lane, D>(), reinterpret_cast<Lane*>(p));
}

/// Bytes of the vector that stores Lanes(d) values as T: the alignment
/// stream_f32 needs.
template <class D, class T>
HWY_INLINE size_t stored_vector_bytes(D d, const T* /*p*/) {
    return hn::Lanes(d) * sizeof(T);
}

/// store_f32 with a streaming store (streaming_stores.hpp), to p aligned to
/// stored_vector_bytes.
template <class D, class T>
HWY_INLINE void stream_f32(D d, hn::Vec<D> v, T* p) {
    using Lane = detail::storage_lane_t<T>;
    hn::Stream(detail::stored_lanes<T>(d, v), hn::Rebind<Lane, D>(), reinterpret_cast<Lane*>(p));
}

/// v rounded to T and back, in registers: what a T result holds.
template <class T, class D>
HWY_INLINE hn::Vec<D> round_to(D d, hn::Vec<D> v) {
    if constexpr (std::is_same_v<T, bf16_t>) {
        return hn::BitCast(d, hn::ShiftLeft<16>(detail::float_to_bf16_bits(d, v)));
    } else if constexpr (std::is_same_v<T, half_t>) {
#if ACLCPU_SIMD_F16C
        return hn::PromoteTo(d, hn::DemoteTo(hn::Rebind<hwy::float16_t, D>(), v));
#else
        return detail::half_bits_to_float(d, detail::float_to_half_bits(d, v));
#endif
    } else {
        return v;
    }
}

/// The first count (< Lanes(d)) elements at p as fp32; the other lanes 0.
/// Out of line: tails are rare and must not crowd the loops around them.
template <class D, class T>
HWY_NOINLINE hn::Vec<D> load_f32_partial(D d, const T* p, size_t count) {
    T padded[kMaxFloatLanes] = {};
    std::memcpy(padded, p, count * sizeof(T));
    return load_f32(d, padded);
}

/// Stores the first count (< Lanes(d)) lanes of v at p, rounded to T.
template <class D, class T>
HWY_NOINLINE void store_f32_partial(D d, hn::Vec<D> v, T* p, size_t count) {
    T values[kMaxFloatLanes];
    store_f32(d, v, values);
    std::memcpy(p, values, count * sizeof(T));
}

/// out[i..i+n) = value(i, n) for i < count, value giving an fp32 vector of
/// which the first n lanes are elements i.. (n = Lanes(d) but in the tail),
/// stored rounded to Out: whole vectors, then one partial.
template <class D, class Value, class Out>
HWY_INLINE void store_values(D d, const Value& value, size_t count, Out* out) {
    const size_t lanes = hn::Lanes(d);
    size_t i = 0;
    for (; i + lanes <= count; i += lanes) store_f32(d, value(i, lanes), out + i);
    if (i < count) store_f32_partial(d, value(i, count - i), out + i, count - i);
}

/// store_values, with the whole vectors from out's first vector boundary on
/// written by streaming stores (streaming_stores.hpp).
template <class D, class Value, class Out>
HWY_INLINE void store_values_streaming(D d, const Value& value, size_t count, Out* out) {
    const size_t vectorBytes = stored_vector_bytes(d, out);
    const size_t misalignment = reinterpret_cast<uintptr_t>(out) % vectorBytes;
    // Out's elements are aligned to their size, so the head is whole elements.
    const size_t head = std::min(count, misalignment == 0 ? 0 : (vectorBytes - misalignment) / sizeof(Out));
    store_values(d, value, head, out);
    const size_t lanes = hn::Lanes(d);
    size_t i = head;
    for (; i + lanes <= count; i += lanes) stream_f32(d, value(i, lanes), out + i);
    const size_t tail = i;
    store_values(d, [&](size_t j, size_t n) { return value(tail + j, n); }, count - tail, out + tail);
}

ACLCPU_END_TARGET_NAMESPACE();

#endif  // ACLCPU_OPS_COMMON_SIMD_INL_H_
