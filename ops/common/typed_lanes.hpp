// acl-cpu ops/common: the typed path of elementwise kernels -- element by
// element in the C++ type of the compute dtype (double, the complex types,
// int64_t for the integers and BOOL), for what the fp32 vector path cannot
// compute exactly as CANN does.
//
// A typed kernel loads a UB chunk of each operand into lanes of its lane
// type (CANN's Contiguous + Cast), computes lane by lane, and stores the
// lanes through the output's view (CANN's Cast + ViewCopy).
#pragma once

#include "common/internal.hpp"

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "common/dtype.hpp"
#include "common/strided_layout.hpp"

namespace aclcpu::ops {

using complex64_t = std::complex<float>;
using complex128_t = std::complex<double>;

template <class T>
inline constexpr bool is_complex_v = false;
template <class T>
inline constexpr bool is_complex_v<std::complex<T>> = true;

/// The dtypes an operator reads or writes beside the loadable ones
/// (ACLCPU_LOADABLE_ELEMENTS): the two complex ones, and the unsigned
/// integers an out may have.
#define ACLCPU_TYPED_ONLY_ELEMENTS(X) \
    X(ACL_COMPLEX64, complex64_t)     \
    X(ACL_COMPLEX128, complex128_t)   \
    X(ACL_UINT16, uint16_t)           \
    X(ACL_UINT32, uint32_t)           \
    X(ACL_UINT64, uint64_t)

/// Calls visit(T{}) with T the element type of a dtype an operator reads or
/// writes (both lists; phase 1 admits no other, and has_element_type is
/// false for the others, which would be visited as float).
template <class Visit>
decltype(auto) visit_element(aclDataType dtype, Visit&& visit) {
    return visit_loadable(dtype, visit, [&]() -> decltype(auto) {
        switch (dtype) {
            ACLCPU_TYPED_ONLY_ELEMENTS(ACLCPU_VISIT_ELEMENT_CASE)
            default: return visit(float{});
        }
    });
}

/// True for the dtypes visit_element visits as their own element type; it
/// would visit any other (an 8-bit float, COMPLEX32, a sub-byte integer) as
/// a float of the wrong width.
inline bool has_element_type(aclDataType dtype) noexcept {
    switch (dtype) {
        ACLCPU_LOADABLE_ELEMENTS(ACLCPU_ELEMENT_CASE_LABEL)
        ACLCPU_TYPED_ONLY_ELEMENTS(ACLCPU_ELEMENT_CASE_LABEL)
            return true;
        default:
            return false;
    }
}

/// A real element as the widest real that holds it.
template <class T>
auto real_value(T x) {
    if constexpr (std::is_same_v<T, half_t> || std::is_same_v<T, bf16_t>) return static_cast<float>(x);
    else if constexpr (std::is_same_v<T, bool8_t>) return int64_t{x.value != 0};
    else return x;
}

/// CANN's Cast of a floating value to an integer: toward zero, saturating,
/// NaN to 0.
template <class I>
I saturating_integer(double value) {
    if (std::isnan(value)) return 0;
    if (value <= static_cast<double>(std::numeric_limits<I>::lowest())) return std::numeric_limits<I>::lowest();
    if (value >= static_cast<double>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
    return static_cast<I>(value);
}

/// CANN's Cast of one element x to type To.  Integers narrow by wrapping,
/// floating values round to nearest even, anything to BOOL is x != 0, a real
/// to complex is (x, 0).  Complex to real keeps the real part (phase 1's
/// CanCast never asks for it).
template <class To, class From>
To cast_element(From x) {
    if constexpr (is_complex_v<From>) {
        if constexpr (is_complex_v<To>) {
            return To(static_cast<typename To::value_type>(x.real()), static_cast<typename To::value_type>(x.imag()));
        } else {
            return cast_element<To>(x.real());
        }
    } else if constexpr (is_complex_v<To>) {
        return To(static_cast<typename To::value_type>(real_value(x)), 0);
    } else if constexpr (std::is_same_v<To, bool8_t>) {
        return bool8_t{static_cast<uint8_t>(real_value(x) != 0)};
    } else if constexpr (std::is_same_v<To, half_t> || std::is_same_v<To, bf16_t>) {
        return To::from_float(static_cast<float>(real_value(x)));
    } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<decltype(real_value(x))>) {
        return saturating_integer<To>(static_cast<double>(real_value(x)));
    } else {
        return static_cast<To>(real_value(x));
    }
}

/// Calls visit(V{}) with V the lane type of computeDtype: float for FLOAT,
/// FLOAT16 and BF16, double, the two complex types, int64_t for the integers
/// and BOOL.
template <class Visit>
decltype(auto) visit_lane_type(aclDataType computeDtype, Visit&& visit) {
    switch (computeDtype) {
        case ACL_FLOAT: case ACL_FLOAT16: case ACL_BF16: return visit(float{});
        case ACL_DOUBLE: return visit(double{});
        case ACL_COMPLEX64: return visit(complex64_t{});
        case ACL_COMPLEX128: return visit(complex128_t{});
        default: return visit(int64_t{});
    }
}

inline int64_t lane_bytes(aclDataType computeDtype) {
    return visit_lane_type(computeDtype, [](auto tag) { return int64_t{sizeof(tag)}; });
}

/// v as the compute dtype holds it: a float lane rounded to FLOAT16 or
/// BF16, an int64_t lane wrapped to the narrower integer (BOOL: v != 0).
template <class V>
V round_lane(aclDataType computeDtype, V v) {
    if constexpr (std::is_same_v<V, float>) {
        if (computeDtype == ACL_FLOAT16) return static_cast<float>(half_t::from_float(v));
        if (computeDtype == ACL_BF16) return static_cast<float>(bf16_t::from_float(v));
        return v;
    } else if constexpr (std::is_same_v<V, int64_t>) {
        switch (computeDtype) {
            case ACL_INT8: return static_cast<int8_t>(v);
            case ACL_INT16: return static_cast<int16_t>(v);
            case ACL_INT32: return static_cast<int32_t>(v);
            case ACL_UINT8: return static_cast<uint8_t>(v);
            case ACL_BOOL: return v != 0;
            default: return v;
        }
    } else {
        return v;
    }
}

/// Loads elements [begin, begin + count) of the iteration space of an
/// operand laid out as layout at data into lanes, each cast to V by
/// CANN's Cast and passed through round(lane).
template <class V, class Round>
void load_lanes(const StridedLayout& layout, const void* data, int64_t begin, int64_t count, V* lanes,
                const Round& round) {
    visit_element(layout.dtype(), [&](auto tag) {
        using T = decltype(tag);
        const T* elements = static_cast<const T*>(data);
        for_each_run(layout, begin, count, [&](int64_t position, int64_t length, int64_t stride, int64_t done) {
            for (int64_t j = 0; j < length; ++j) {
                lanes[done + j] = round(cast_element<V>(elements[position + j * stride]));
            }
        });
    });
}

/// Stores lanes into elements [begin, begin + count) of the output laid out
/// as out at data, cast to the output's dtype.
template <class V>
void store_lanes(const V* lanes, const StridedLayout& out, void* data, int64_t begin, int64_t count) {
    visit_element(out.dtype(), [&](auto tag) {
        using T = decltype(tag);
        T* target = static_cast<T*>(data);
        for_each_run(out, begin, count, [&](int64_t position, int64_t length, int64_t stride, int64_t done) {
            for (int64_t j = 0; j < length; ++j) target[position + j * stride] = cast_element<T>(lanes[done + j]);
        });
    });
}

}  // namespace aclcpu::ops
