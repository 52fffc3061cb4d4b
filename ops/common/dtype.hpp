// acl-cpu ops/common: the operators' dtype rules -- support lists, CANN's
// promotion and CanCast rules, and dispatch from an
// aclDataType to the C++ type that holds one element in device memory.
#pragma once

#include "common/internal.hpp"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>

#include "acl/acl_base.h"
#include "aclcpu/dtype.hpp"
#include "aclcpu/half.hpp"
#include "aclcpu/nnopbase.hpp"

namespace aclcpu::ops {

/// A dtype support list, e.g. `constexpr DtypeList kDtypes = {ACL_FLOAT, ACL_FLOAT16};`
/// at namespace scope (the backing array then has static storage duration).
using DtypeList = std::initializer_list<aclDataType>;

bool contains(DtypeList list, aclDataType dtype) noexcept;

/// "[DT_FLOAT,DT_FLOAT16,DT_BF16]"
std::string dtype_list_string(DtypeList list);

/// CANN's tensor-tensor promotion (PyTorch's table): the dtype both operands
/// are cast to, or ACL_DT_UNDEFINED when the pair does not promote (e.g.
/// UINT16/32/64 with anything but themselves).
aclDataType promote_types(aclDataType a, aclDataType b) noexcept;

/// CANN's CanCast: false for complex -> non-complex, floating -> integral or
/// BOOL, and any non-BOOL -> BOOL; true otherwise.
bool can_cast(aclDataType from, aclDataType to) noexcept;

/// One BOOL element as stored on the device: a byte that is 0 or not.
struct bool8_t {
    uint8_t value;
    constexpr explicit operator float() const noexcept { return value != 0 ? 1.0f : 0.0f; }
};

/// The dtypes a kernel loads, each X(dtype, element type).  The element
/// types have a float conversion that is CANN's Cast to FLOAT.
#define ACLCPU_LOADABLE_ELEMENTS(X) \
    X(ACL_FLOAT, float)             \
    X(ACL_FLOAT16, half_t)          \
    X(ACL_BF16, bf16_t)             \
    X(ACL_DOUBLE, double)           \
    X(ACL_INT8, int8_t)             \
    X(ACL_INT16, int16_t)           \
    X(ACL_INT32, int32_t)           \
    X(ACL_INT64, int64_t)           \
    X(ACL_UINT8, uint8_t)           \
    X(ACL_BOOL, bool8_t)

/// The switch cases of an element list: `case dtype: return visit(T{});`,
/// and the labels alone.
#define ACLCPU_VISIT_ELEMENT_CASE(dtype, T) \
    case dtype:                             \
        return visit(T{});
#define ACLCPU_ELEMENT_CASE_LABEL(dtype, T) case dtype:

/// Calls visit(T{}) with T the element type of dtype (ACLCPU_LOADABLE_ELEMENTS)
/// and returns its result; returns fallback() for any other dtype.
template <class Visit, class Fallback>
decltype(auto) visit_loadable(aclDataType dtype, Visit&& visit, Fallback&& fallback) {
    switch (dtype) {
        ACLCPU_LOADABLE_ELEMENTS(ACLCPU_VISIT_ELEMENT_CASE)
        default: return fallback();
    }
}

/// As visit_loadable, for the dtypes a kernel may store a result in: FLOAT,
/// FLOAT16, BF16, DOUBLE.
template <class Visit, class Fallback>
decltype(auto) visit_storable(aclDataType dtype, Visit&& visit, Fallback&& fallback) {
    return visit_loadable(
        dtype,
        [&](auto tag) -> decltype(auto) {
            using T = decltype(tag);
            if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half_t> || std::is_same_v<T, bf16_t>) {
                return visit(tag);
            } else {
                return fallback();
            }
        },
        fallback);
}

/// Calls visit(T{}) with T the element type a vector kernel computing in
/// `dtype` stores: half_t for FLOAT16, bf16_t for BF16, float otherwise.
template <class Visit>
decltype(auto) visit_compute_dtype(aclDataType dtype, Visit&& visit) {
    switch (dtype) {
        case ACL_FLOAT16: return visit(half_t{});
        case ACL_BF16: return visit(bf16_t{});
        default: return visit(float{});
    }
}

/// The element conversions a kernel uses: cast_to_float is CANN's Cast to FLOAT;
/// cast_from_float<T> is CANN's Cast from FLOAT with round-to-nearest-even.
template <class T>
constexpr float cast_to_float(T value) noexcept {
    return static_cast<float>(value);
}
template <class T>
constexpr T cast_from_float(float value) noexcept {
    if constexpr (std::is_same_v<T, half_t> || std::is_same_v<T, bf16_t>) {
        return T::from_float(value);
    } else {
        return static_cast<T>(value);
    }
}


}  // namespace aclcpu::ops
