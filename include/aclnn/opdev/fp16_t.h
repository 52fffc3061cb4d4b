/*
 * acl-cpu: op::fp16_t, the IEEE half-precision value type of CANN's opbase
 * (include/nnopbase/opdev/fp16_t.h, installed as aclnn/opdev/fp16_t.h), which
 * CANN's aclnn samples use to fill and print FLOAT16 buffers.  The same
 * public interface (names, signatures, the raw-bits uint16_t constructor),
 * implemented here inline so that it needs no library: every conversion
 * into fp16 rounds to nearest even, arithmetic is done in double and
 * rounded once (exact for + - * /), conversions to integers truncate
 * toward zero and saturate (NaN gives 0).  The bfloat16 members of
 * opbase's class (declared there against its bfloat16.h) are not provided.
 * C++11.
 */
#ifndef ACLCPU_ACLNN_OPDEV_FP16_T_H_
#define ACLCPU_ACLNN_OPDEV_FP16_T_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace op {

#define FP16_EXP_BIAS (15)
#define FP16_EXP_LEN (5)
#define FP16_MAN_LEN (10)
#define FP16_SIGN_INDEX (15)
#define FP16_SIGN_MASK (0x8000)
#define FP16_EXP_MASK (0x7C00)
#define FP16_MAN_MASK (0x03FF)
#define FP16_MAN_HIDE_BIT (0x0400)
#define FP16_MAX (0x7BFF)
#define FP16_MIN (0xFBFF)
#define FP16_ABS_MAX (0x7FFF)
#define FP16_MAX_EXP (0x001F)
#define FP16_MAX_VALID_EXP (0x001E)
#define FP16_MAX_MAN (0x03FF)
#define FP16_IS_ZERO(x) (((x) & FP16_ABS_MAX) == 0)
#define FP16_IS_DENORM(x) ((((x) & FP16_EXP_MASK) == 0))
#define FP16_IS_INF(x) (((x) & FP16_ABS_MAX) == FP16_ABS_MAX)
#define FP16_IS_NAN(x) ((((x) & FP16_EXP_MASK) == FP16_EXP_MASK) && ((x) & FP16_MAN_MASK))
#define FP16_IS_INVALID(x) (((x) & FP16_EXP_MASK) == FP16_EXP_MASK)

typedef enum tagFp16RoundMode {
    ROUND_TO_NEAREST = 0, /**< round to nearest even */
    ROUND_BY_TRUNCATED,   /**< round by truncated    */
    ROUND_MODE_RESERVED,
} fp16RoundMode_t;

namespace fp16_detail {

/// The half nearest to value (ties to even), overflow to infinity, NaN kept.
inline uint16_t from_double(double value) {
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    const uint16_t sign = static_cast<uint16_t>((bits >> 48) & 0x8000u);
    const double magnitude = std::fabs(value);
    if (value != value) return static_cast<uint16_t>(sign | 0x7E00u);
    if (magnitude >= 65520.0) return static_cast<uint16_t>(sign | 0x7C00u);  // rounds past FP16_MAX
    if (magnitude < 6.103515625e-05) {
        // Subnormal (or zero): a multiple of 2^-24, rounded to nearest even.
        const double units = std::nearbyint(magnitude * 16777216.0);
        return static_cast<uint16_t>(sign | static_cast<uint16_t>(units));
    }
    int exponent = 0;
    const double fraction = std::frexp(magnitude, &exponent);  // [0.5, 1)
    // 11 significant bits: the mantissa in [1024, 2048), rounded to nearest even.
    double mantissa = std::nearbyint(fraction * 2048.0);
    if (mantissa >= 2048.0) {
        mantissa /= 2.0;
        ++exponent;
    }
    const int biased = exponent - 1 + FP16_EXP_BIAS;
    if (biased >= FP16_MAX_EXP) return static_cast<uint16_t>(sign | 0x7C00u);
    return static_cast<uint16_t>(sign | (biased << FP16_MAN_LEN) | (static_cast<uint16_t>(mantissa) & FP16_MAN_MASK));
}

inline double to_double(uint16_t half) {
    const int exponent = (half & FP16_EXP_MASK) >> FP16_MAN_LEN;
    const int mantissa = half & FP16_MAN_MASK;
    double magnitude;
    if (exponent == FP16_MAX_EXP) {
        magnitude = mantissa != 0 ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    } else if (exponent == 0) {
        magnitude = std::ldexp(static_cast<double>(mantissa), -24);
    } else {
        magnitude = std::ldexp(static_cast<double>(mantissa | FP16_MAN_HIDE_BIT), exponent - 25);
    }
    return (half & FP16_SIGN_MASK) != 0 ? -magnitude : magnitude;
}

/// value truncated toward zero into [lowest, highest]; NaN gives 0.
template <typename Int>
Int to_integer(uint16_t half) {
    const double value = to_double(half);
    if (value != value) return 0;
    if (value <= static_cast<double>(std::numeric_limits<Int>::lowest())) return std::numeric_limits<Int>::lowest();
    if (value >= static_cast<double>(std::numeric_limits<Int>::max())) return std::numeric_limits<Int>::max();
    return static_cast<Int>(value);
}

}  // namespace fp16_detail

typedef struct tagFp16 {
    uint16_t val;

public:
    tagFp16(void) { val = 0x0u; }
    /// Any arithmetic value, converted (to nearest even).
    template <typename T>
    tagFp16(const T& value) {
        *this = value;
    }
    /// The raw bits of a half (not a value to convert), as in opbase.
    constexpr tagFp16(const uint16_t& uiVal) : val(uiVal) {}
    tagFp16(const tagFp16& fp) : val(fp.val) {}

    tagFp16 operator+(const tagFp16 fp) { return tagFp16(toDouble() + fp16_detail::to_double(fp.val)); }
    tagFp16 operator-(const tagFp16 fp) { return tagFp16(toDouble() - fp16_detail::to_double(fp.val)); }
    tagFp16 operator*(const tagFp16 fp) { return tagFp16(toDouble() * fp16_detail::to_double(fp.val)); }
    tagFp16 operator/(const tagFp16 fp) { return tagFp16(toDouble() / fp16_detail::to_double(fp.val)); }
    tagFp16 operator+=(const tagFp16 fp) { return *this = *this + fp; }
    tagFp16 operator-=(const tagFp16 fp) { return *this = *this - fp; }
    tagFp16 operator*=(const tagFp16 fp) { return *this = *this * fp; }
    tagFp16 operator/=(const tagFp16 fp) { return *this = *this / fp; }

    bool operator==(const tagFp16& fp) const { return value() == fp.value(); }
    bool operator!=(const tagFp16& fp) const { return value() != fp.value(); }
    bool operator>(const tagFp16& fp) const { return value() > fp.value(); }
    bool operator>=(const tagFp16& fp) const { return value() >= fp.value(); }
    bool operator<(const tagFp16& fp) const { return value() < fp.value(); }
    bool operator<=(const tagFp16& fp) const { return value() <= fp.value(); }

    tagFp16& operator=(const tagFp16& fp) {
        val = fp.val;
        return *this;
    }
    tagFp16& operator=(const float& fVal) { return assign(fVal); }
    tagFp16& operator=(const double& dVal) { return assign(dVal); }
    tagFp16& operator=(const int8_t& iVal) { return assign(iVal); }
    tagFp16& operator=(const uint8_t& uiVal) { return assign(uiVal); }
    tagFp16& operator=(const int16_t& iVal) { return assign(iVal); }
    tagFp16& operator=(const uint16_t& uiVal) { return assign(uiVal); }
    tagFp16& operator=(const int32_t& iVal) { return assign(iVal); }
    tagFp16& operator=(const uint32_t& uiVal) { return assign(uiVal); }
    tagFp16& operator=(const int64_t& iVal) { return assign(static_cast<double>(iVal)); }
    tagFp16& operator=(const uint64_t& uiVal) { return assign(static_cast<double>(uiVal)); }

    operator float() const { return static_cast<float>(value()); }
    operator double() const { return value(); }
    operator int8_t() const { return fp16_detail::to_integer<int8_t>(val); }
    operator uint8_t() const { return fp16_detail::to_integer<uint8_t>(val); }
    operator int16_t() const { return fp16_detail::to_integer<int16_t>(val); }
    operator uint16_t() const { return fp16_detail::to_integer<uint16_t>(val); }
    operator int32_t() const { return fp16_detail::to_integer<int32_t>(val); }
    operator uint32_t() const { return fp16_detail::to_integer<uint32_t>(val); }
    operator int64_t() const { return fp16_detail::to_integer<int32_t>(val); }  // as opbase: through int32
    operator uint64_t() const { return fp16_detail::to_integer<uint32_t>(val); }
    operator bool() const { return val != 0; }

    /// 1 for +infinity, -1 for -infinity, 0 otherwise.
    int IsInf() {
        if ((val & FP16_ABS_MAX) != FP16_EXP_MASK) return 0;
        return (val & FP16_SIGN_MASK) != 0 ? -1 : 1;
    }

    float toFloat() { return static_cast<float>(value()); }
    double toDouble() { return value(); }
    int8_t toInt8() { return static_cast<int8_t>(*this); }
    uint8_t toUInt8() { return static_cast<uint8_t>(*this); }
    int16_t toInt16() { return static_cast<int16_t>(*this); }
    uint16_t toUInt16() { return static_cast<uint16_t>(*this); }
    int32_t toInt32() { return static_cast<int32_t>(*this); }
    uint32_t toUInt32() { return static_cast<uint32_t>(*this); }

private:
    double value() const { return fp16_detail::to_double(val); }
    tagFp16& assign(double value) {
        val = fp16_detail::from_double(value);
        return *this;
    }
} fp16_t;

template <typename T>
bool operator<(T a, op::fp16_t b) {
    return a < static_cast<T>(b);
}

template <typename T>
bool operator>(T a, op::fp16_t b) {
    return a > static_cast<T>(b);
}

}  // namespace op

namespace std {
inline bool isnan(op::fp16_t value) { return FP16_IS_NAN(value.val); }
inline float abs(op::fp16_t value) { return std::abs(value.toFloat()); }
}  // namespace std

#endif  // ACLCPU_ACLNN_OPDEV_FP16_T_H_
