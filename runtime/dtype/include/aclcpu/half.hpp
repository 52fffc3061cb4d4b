// acl-cpu dtype layer: IEEE binary16 and bfloat16 <-> float conversions, for
// the runtime's aclFloat16ToFloat/aclFloatToFloat16 and for the kernels.
//
// Header-only and free of dependencies.  Every conversion is constexpr and computes all its cases
// unconditionally, then picks one with a bit-mask select: no data-dependent
// branch and no floating-point operation under a condition (which GCC will
// not if-convert under -ftrapping-math), so a loop over a buffer vectorises.  The arithmetic never relies on float
// subnormals, so results do not change under flush-to-zero / denormals-are-zero.
#pragma once

#include <cstdint>

namespace aclcpu {

namespace detail {

constexpr uint32_t bits_of(float value) noexcept { return __builtin_bit_cast(uint32_t, value); }
constexpr float float_of(uint32_t bits) noexcept { return __builtin_bit_cast(float, bits); }

/// condition ? a : b, written as masks so that compilers keep it branch-free.
constexpr uint32_t select(bool condition, uint32_t a, uint32_t b) noexcept {
    const uint32_t mask = 0u - static_cast<uint32_t>(condition);
    return (a & mask) | (b & ~mask);
}

inline constexpr uint32_t kFloatMagnitude = 0x7FFFFFFFu;
inline constexpr uint32_t kFloatInf = 0x7F800000u;
/// half's exponent bias moved to float's (127 - 15), at float's exponent position.
inline constexpr uint32_t kRebias = 112u << 23;

/// A half's exponent and mantissa shifted to float's positions, with float's bias.
constexpr uint32_t rebiased_half(uint16_t bits) noexcept {
    return (static_cast<uint32_t>(bits & 0x7FFFu) << 13) + kRebias;
}
constexpr uint32_t half_sign_as_float(uint16_t bits) noexcept {
    return static_cast<uint32_t>(bits & 0x8000u) << 16;
}

/// Half subnormals (m * 2^-24): rebiased they read 2^-15 * (1 + m/1024); lifting
/// the exponent by one and subtracting 2^-14 leaves exactly m * 2^-24, computed
/// on normal floats only.
constexpr uint32_t half_subnormal_as_float(uint32_t rebiased) noexcept {
    return bits_of(float_of(rebiased + (1u << 23)) - float_of(113u << 23));
}

}  // namespace detail

/// IEEE binary16 -> float, exact.  Inf stays Inf; NaN stays NaN, made quiet,
/// keeping its payload.
constexpr float half_to_float(uint16_t bits) noexcept {
    const uint32_t rebiased = detail::rebiased_half(bits);
    const uint32_t exponent = bits & 0x7C00u;
    const uint32_t mantissa = bits & 0x03FFu;
    // Inf/NaN: half's exponent 31 becomes float's 255.
    const uint32_t special = (rebiased + (128u - 16u) * (1u << 23)) | detail::select(mantissa != 0, 0x00400000u, 0u);
    const uint32_t magnitude =
        detail::select(exponent == 0x7C00u, special,
                       detail::select(exponent == 0, detail::half_subnormal_as_float(rebiased), rebiased));
    return detail::float_of(magnitude | detail::half_sign_as_float(bits));
}

/// float -> IEEE binary16, rounding to nearest even.  Values from 65520 up
/// round to Inf (IEEE overflow); Inf stays Inf; NaN becomes a quiet NaN
/// keeping the top of its payload; results below half's range round to
/// subnormals or signed zero.
constexpr uint16_t float_to_half(float value) noexcept {
    const uint32_t bits = detail::bits_of(value);
    const uint32_t sign = (bits >> 16) & 0x8000u;
    const uint32_t magnitude = bits & detail::kFloatMagnitude;
    const uint32_t quiet_nan = 0x7E00u | ((magnitude >> 13) & 0x01FFu);
    // Below 2^-14 the result is subnormal: adding 0.5f, whose ulp is 2^-24
    // (half's subnormal step), lets the FPU round to nearest even; the
    // mantissa of the sum is the half's bit pattern.
    const uint32_t subnormal = detail::bits_of(detail::float_of(magnitude) + 0.5f) - detail::bits_of(0.5f);
    // Normal: add just under half an ulp of half (plus one when the kept
    // mantissa is odd) and truncate; a carry out of the mantissa bumps the
    // exponent, up to Inf, as IEEE rounding does.
    const uint32_t odd = (magnitude >> 13) & 1u;
    const uint32_t normal = (magnitude - detail::kRebias + 0x0FFFu + odd) >> 13;
    const uint32_t result =
        detail::select(magnitude > detail::kFloatInf, quiet_nan,
                       detail::select(magnitude >= 0x47800000u, 0x7C00u,                       // >= 2^16: Inf
                                      detail::select(magnitude < 0x38800000u, subnormal, normal)));  // < 2^-14
    return static_cast<uint16_t>(result | sign);
}

/// bfloat16 -> float, exact.
constexpr float bf16_to_float(uint16_t bits) noexcept {
    return detail::float_of(static_cast<uint32_t>(bits) << 16);
}

/// float -> bfloat16, rounding to nearest even (overflow rounds to Inf);
/// NaN becomes a quiet NaN keeping the top of its payload.
constexpr uint16_t float_to_bf16(float value) noexcept {
    const uint32_t bits = detail::bits_of(value);
    const uint32_t rounded = (bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16;
    const uint32_t quiet_nan = (bits >> 16) | 0x0040u;
    const bool nan = (bits & detail::kFloatMagnitude) > detail::kFloatInf;
    return static_cast<uint16_t>(detail::select(nan, quiet_nan, rounded));
}

/// CANN's aclFloat16ToFloat: as half_to_float, except that the all-ones
/// exponent is read as an ordinary binade (saturation-mode hardware has no
/// Inf/NaN): 0x7C00 -> 65536, 0x7E00 -> 98304.
constexpr float half_to_float_saturating(uint16_t bits) noexcept {
    const uint32_t rebiased = detail::rebiased_half(bits);
    const uint32_t magnitude =
        detail::select((bits & 0x7C00u) == 0, detail::half_subnormal_as_float(rebiased), rebiased);
    return detail::float_of(magnitude | detail::half_sign_as_float(bits));
}

/// CANN's aclFloatToFloat16: as float_to_half, except that every result
/// beyond half's range, Inf and NaN included, saturates to +/-65504
/// (0x7BFF / 0xFBFF, the sign taken from the input).
constexpr uint16_t float_to_half_saturating(float value) noexcept {
    const uint16_t ieee = float_to_half(value);
    return static_cast<uint16_t>(detail::select((ieee & 0x7C00u) == 0x7C00u, (ieee & 0x8000u) | 0x7BFFu, ieee));
}

/// A binary16 value as stored in device memory: a distinct type so that
/// dtype dispatch can tell it from uint16_t.  Layout-compatible with uint16_t.
struct half_t {
    uint16_t bits;

    static constexpr half_t from_float(float value) noexcept { return {float_to_half(value)}; }
    constexpr explicit operator float() const noexcept { return half_to_float(bits); }
};

/// A bfloat16 value as stored in device memory; see half_t.
struct bf16_t {
    uint16_t bits;

    static constexpr bf16_t from_float(float value) noexcept { return {float_to_bf16(value)}; }
    constexpr explicit operator float() const noexcept { return bf16_to_float(bits); }
};

static_assert(sizeof(half_t) == 2 && sizeof(bf16_t) == 2, "half_t and bf16_t must alias device elements");

}  // namespace aclcpu
