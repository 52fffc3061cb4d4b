// acl-cpu: aclScalar, a host value of any dtype CANN's aclScalar accepts,
// copied at creation.
#include <cmath>
#include <array>
#include <complex>
#include <cstring>
#include <limits>
#include <new>

#include "aclcpu/dtype.hpp"
#include "aclcpu/half.hpp"
#include "aclcpu/nnopbase.hpp"
#include "arguments.hpp"

struct aclScalar {
    aclDataType dtype;
    /// The value's bytes as the caller passed them; COMPLEX128 is the widest.
    alignas(8) unsigned char bytes[16];
};

namespace {

/// Bytes aclCreateScalar copies for dtype; 0 for a dtype it refuses (the
/// sub-byte, 6- and 4-bit float, string and unknown types).
size_t scalar_size(int64_t dtypeCode) noexcept {
    switch (dtypeCode) {
        case ACL_BOOL: case ACL_INT8: case ACL_UINT8: case ACL_INT16: case ACL_UINT16: case ACL_INT32:
        case ACL_UINT32: case ACL_INT64: case ACL_UINT64: case ACL_FLOAT16: case ACL_BF16: case ACL_FLOAT:
        case ACL_DOUBLE: case ACL_COMPLEX64: case ACL_COMPLEX128: case ACL_HIFLOAT8: case ACL_FLOAT8_E5M2:
        case ACL_FLOAT8_E4M3FN: case ACL_FLOAT8_E8M0:
            return aclcpu::cann_dtype_size(dtypeCode);
        default:
            return 0;
    }
}

template <typename T>
T stored(const aclScalar* scalar) noexcept {
    T value;
    std::memcpy(&value, scalar->bytes, sizeof value);
    return value;
}

// OCP 8-bit floats.  E5M2 is the upper byte of an IEEE half.
double float8_e5m2(uint8_t bits) noexcept { return aclcpu::half_to_float(static_cast<uint16_t>(bits << 8)); }

/// E4M3FN: bias 7, no Inf, S.1111.111 is NaN.
double float8_e4m3fn(uint8_t bits) noexcept {
    const int exponent = (bits >> 3) & 0xF;
    const int mantissa = bits & 0x7;
    const double sign = (bits & 0x80) != 0 ? -1.0 : 1.0;
    if (exponent == 0xF && mantissa == 0x7) return std::numeric_limits<double>::quiet_NaN();
    const double magnitude =
        exponent == 0 ? std::ldexp(mantissa, -9) : std::ldexp(8 + mantissa, exponent - 10);
    return sign * magnitude;
}

/// E8M0: an unsigned power of two, 2^(e - 127); 0xFF is NaN.
double float8_e8m0(uint8_t bits) noexcept {
    return bits == 0xFF ? std::numeric_limits<double>::quiet_NaN() : std::ldexp(1.0, bits - 127);
}

/// CANN's aclScalar::To<T> for a real T: one conversion from the stored type
/// (so 64-bit integers round once to T).  FLOAT16 reads as CANN's fp16_t
/// does, the all-ones exponent being an ordinary binade.  CANN has no
/// conversion from complex (nor from HiFloat8) to a real, and answers 0.
template <typename T>
T convert(const aclScalar* scalar) noexcept {
    switch (scalar->dtype) {
        case ACL_FLOAT: return static_cast<T>(stored<float>(scalar));
        case ACL_DOUBLE: return static_cast<T>(stored<double>(scalar));
        case ACL_FLOAT16: return static_cast<T>(aclcpu::half_to_float_saturating(stored<uint16_t>(scalar)));
        case ACL_BF16: return static_cast<T>(aclcpu::bf16_to_float(stored<uint16_t>(scalar)));
        case ACL_INT8: return static_cast<T>(stored<int8_t>(scalar));
        case ACL_UINT8: return static_cast<T>(stored<uint8_t>(scalar));
        case ACL_INT16: return static_cast<T>(stored<int16_t>(scalar));
        case ACL_UINT16: return static_cast<T>(stored<uint16_t>(scalar));
        case ACL_INT32: return static_cast<T>(stored<int32_t>(scalar));
        case ACL_UINT32: return static_cast<T>(stored<uint32_t>(scalar));
        case ACL_INT64: return static_cast<T>(stored<int64_t>(scalar));
        case ACL_UINT64: return static_cast<T>(stored<uint64_t>(scalar));
        // CANN keeps a bool as the byte it was given.
        case ACL_BOOL: return static_cast<T>(stored<int8_t>(scalar));
        case ACL_FLOAT8_E5M2: return static_cast<T>(float8_e5m2(stored<uint8_t>(scalar)));
        case ACL_FLOAT8_E4M3FN: return static_cast<T>(float8_e4m3fn(stored<uint8_t>(scalar)));
        case ACL_FLOAT8_E8M0: return static_cast<T>(float8_e8m0(stored<uint8_t>(scalar)));
        default: return T(0);
    }
}

}  // namespace

namespace aclcpu {

aclDataType dtype_of(const aclScalar* scalar) noexcept { return scalar->dtype; }
float to_float(const aclScalar* scalar) noexcept { return convert<float>(scalar); }
double to_double(const aclScalar* scalar) noexcept { return convert<double>(scalar); }

int64_t to_int64(const aclScalar* scalar) noexcept {
    double value = 0;
    switch (scalar->dtype) {
        case ACL_INT64: return stored<int64_t>(scalar);
        case ACL_UINT64: return static_cast<int64_t>(stored<uint64_t>(scalar));
        case ACL_COMPLEX64: case ACL_COMPLEX128: value = to_complex(scalar).real(); break;
        default: value = to_double(scalar); break;
    }
    // Saturate instead of the undefined conversion of NaN or an out-of-range double.
    if (!(value == value)) return 0;
    if (value >= 0x1p63) return std::numeric_limits<int64_t>::max();
    if (value < -0x1p63) return std::numeric_limits<int64_t>::min();
    return static_cast<int64_t>(value);
}

std::complex<double> to_complex(const aclScalar* scalar) noexcept {
    switch (scalar->dtype) {
        case ACL_COMPLEX64: {
            const auto parts = stored<std::array<float, 2>>(scalar);
            return {parts[0], parts[1]};
        }
        case ACL_COMPLEX128: {
            const auto parts = stored<std::array<double, 2>>(scalar);
            return {parts[0], parts[1]};
        }
        default: return {to_double(scalar), 0.0};
    }
}

}  // namespace aclcpu

extern "C" {

aclScalar* aclCreateScalar(void* value, aclDataType dataType) {
    if (aclcpu::null_argument("aclCreateScalar", value == nullptr)) return nullptr;
    const int64_t dtypeCode = aclcpu::code_of(dataType);
    const size_t size = scalar_size(dtypeCode);
    if (size == 0) {
        aclcpu::report_error(ACLNN_ERR_PARAM_INVALID, aclcpu::kAclnnParamTag,
                             "aclCreateScalar: no supported data type[%lld].", static_cast<long long>(dtypeCode));
        return nullptr;
    }
    auto* scalar = new (std::nothrow) aclScalar{aclcpu::dtype_from_code(dtypeCode), {}};
    if (scalar == nullptr) {
        aclcpu::report_error(ACLNN_ERR_INNER, aclcpu::kAclnnInnerTag, "aclCreateScalar error: out of host memory.");
        return nullptr;
    }
    std::memcpy(scalar->bytes, value, size);
    return scalar;
}

aclnnStatus aclDestroyScalar(const aclScalar* scalar) {
    delete scalar;
    return ACLNN_SUCCESS;
}

}  // extern "C"
