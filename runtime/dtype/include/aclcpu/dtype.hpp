// acl-cpu dtype layer: the facts about CANN's data types that the runtime
// and the operators share -- element sizes, CANN's spellings, categories --
// and the safe reading of enumeration codes that C callers pass.
//
// Header-only, below both libraries: it knows acl/acl_base.h and nothing
// else of ours.  Every function is noexcept and thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "acl/acl_base.h"

namespace aclcpu {

/// The integer a caller passed for an enumeration parameter, read as bytes.
///
/// A C caller may pass any integer where CANN's API takes an enum (data type
/// 99, memcpy kind -5).  Loading such a value through an lvalue of the enum
/// type is undefined behaviour when it lies outside the enum's range, so
/// entry points read the code with code_of and test it before the value is
/// used as the enum.
template <class Enum>
inline int64_t code_of(const Enum& value) noexcept {
    static_assert(std::is_enum_v<Enum>, "code_of reads enumeration parameters");
    std::underlying_type_t<Enum> raw;
    std::memcpy(&raw, &value, sizeof raw);
    return static_cast<int64_t>(raw);
}

namespace dtype_detail {

/// What acl-cpu knows of one of CANN's data type codes.
struct DtypeFacts {
    aclDataType dtype;
    const char* name;       ///< CANN's spelling in messages.
    uint8_t cannSize;       ///< What aclDataTypeSize answers.
    uint8_t elementBytes;   ///< Bytes an operator addresses per element; 0: not addressable.
};

inline constexpr DtypeFacts kFacts[] = {
    {ACL_DT_UNDEFINED, "DT_UNDEFINED", 0, 0},
    {ACL_FLOAT, "DT_FLOAT", 4, 4},
    {ACL_FLOAT16, "DT_FLOAT16", 2, 2},
    {ACL_INT8, "DT_INT8", 1, 1},
    {ACL_INT32, "DT_INT32", 4, 4},
    {ACL_UINT8, "DT_UINT8", 1, 1},
    {ACL_INT16, "DT_INT16", 2, 2},
    {ACL_UINT16, "DT_UINT16", 2, 2},
    {ACL_UINT32, "DT_UINT32", 4, 4},
    {ACL_INT64, "DT_INT64", 8, 8},
    {ACL_UINT64, "DT_UINT64", 8, 8},
    {ACL_DOUBLE, "DT_DOUBLE", 8, 8},
    {ACL_BOOL, "DT_BOOL", 1, 1},
    {ACL_STRING, "DT_STRING", 0, 0},
    {ACL_COMPLEX64, "DT_COMPLEX64", 8, 8},
    {ACL_COMPLEX128, "DT_COMPLEX128", 16, 16},
    {ACL_BF16, "DT_BF16", 2, 2},
    // Sub-byte integers: CANN counts one byte per element.
    {ACL_INT4, "DT_INT4", 1, 0},
    {ACL_UINT1, "DT_UINT1", 1, 0},
    {ACL_COMPLEX32, "DT_COMPLEX32", 4, 4},
    // The 8-bit floats: operators move their bytes (a copy, a permute).
    {ACL_HIFLOAT8, "DT_HIFLOAT8", 1, 1},
    {ACL_FLOAT8_E5M2, "DT_FLOAT8_E5M2", 1, 1},
    {ACL_FLOAT8_E4M3FN, "DT_FLOAT8_E4M3FN", 1, 1},
    {ACL_FLOAT8_E8M0, "DT_FLOAT8_E8M0", 1, 1},
    // CANN has no size of its own for the 6- and 4-bit floats: eight bytes.
    {ACL_FLOAT6_E3M2, "DT_FLOAT6_E3M2", 8, 0},
    {ACL_FLOAT6_E2M3, "DT_FLOAT6_E2M3", 8, 0},
    {ACL_FLOAT4_E2M1, "DT_FLOAT4_E2M1", 8, 0},
    {ACL_FLOAT4_E1M2, "DT_FLOAT4_E1M2", 8, 0},
};

constexpr const DtypeFacts* facts_of_code(int64_t code) noexcept {
    for (const DtypeFacts& facts : kFacts) {
        if (facts.dtype == code) return &facts;
    }
    return nullptr;
}

}  // namespace dtype_detail

/// True when code is one of aclDataType's enumerators.
constexpr bool is_dtype_code(int64_t code) noexcept { return dtype_detail::facts_of_code(code) != nullptr; }

/// code as an aclDataType: itself when it is an enumerator, ACL_DT_UNDEFINED otherwise.
constexpr aclDataType dtype_from_code(int64_t code) noexcept {
    const dtype_detail::DtypeFacts* facts = dtype_detail::facts_of_code(code);
    return facts != nullptr ? facts->dtype : ACL_DT_UNDEFINED;
}

/// CANN's spelling of a dtype in messages ("DT_FLOAT", "DT_BF16", ...);
/// "DT_UNDEFINED" for a code that is no enumerator.
constexpr const char* dtype_name(int64_t code) noexcept {
    const dtype_detail::DtypeFacts* facts = dtype_detail::facts_of_code(code);
    return facts != nullptr ? facts->name : "DT_UNDEFINED";
}

/// aclDataTypeSize's answer: 0 for STRING and UNDEFINED, 1 for the sub-byte
/// integers, 8 for any code without a size of its own (unknown codes too).
constexpr size_t cann_dtype_size(int64_t code) noexcept {
    const dtype_detail::DtypeFacts* facts = dtype_detail::facts_of_code(code);
    return facts != nullptr ? facts->cannSize : 8;
}

/// Bytes one element of dtype occupies where an operator can address it;
/// 0 for dtypes no operator addresses element by element (strings, sub-byte
/// and 8-bit-or-narrower floats, unknown codes).
constexpr int64_t element_size(aclDataType dtype) noexcept {
    const dtype_detail::DtypeFacts* facts = dtype_detail::facts_of_code(dtype);
    return facts != nullptr ? facts->elementBytes : 0;
}

constexpr bool is_floating(aclDataType dtype) noexcept {  ///< FLOAT16, BF16, FLOAT, DOUBLE
    return dtype == ACL_FLOAT16 || dtype == ACL_BF16 || dtype == ACL_FLOAT || dtype == ACL_DOUBLE;
}

constexpr bool is_complex(aclDataType dtype) noexcept {  ///< COMPLEX32/64/128
    return dtype == ACL_COMPLEX32 || dtype == ACL_COMPLEX64 || dtype == ACL_COMPLEX128;
}

constexpr bool is_integral(aclDataType dtype) noexcept {  ///< signed and unsigned integers, not BOOL
    switch (dtype) {
        case ACL_INT8: case ACL_INT16: case ACL_INT32: case ACL_INT64:
        case ACL_UINT8: case ACL_UINT16: case ACL_UINT32: case ACL_UINT64:
            return true;
        default:
            return false;
    }
}

}  // namespace aclcpu
