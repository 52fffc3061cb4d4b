// acl-cpu: the arithmetic of the arithmetic family (Add, Sub, Rsub, Mul, Div
// and their scalar, in-place and rounding forms) on the binary engine
// (common/binary.hpp): AxpyOp for the sums and differences with their alpha,
// MulOp and DivOp.  Each runs on the engine's fp32 vector blocks when the
// compute dtype is FLOAT, FLOAT16 or BF16 and on its typed lanes otherwise
// (DOUBLE, integers, BOOL, complex): integer lanes compute in wrapping 64-bit
// arithmetic, which the engine's rounding to the compute dtype then wraps
// as the device's narrower integers do.
#pragma once

#include "common/internal.hpp"

#include <cmath>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>

#include "common/binary.hpp"
#include "common/scalar_value.hpp"

namespace aclcpu::ops {

/// a op b; on integer lanes in unsigned arithmetic, wrapping instead of
/// overflowing.
template <class Op, class V>
V wrapping(V a, V b) noexcept {
    if constexpr (std::is_same_v<V, int64_t>) {
        return static_cast<int64_t>(Op{}(static_cast<uint64_t>(a), static_cast<uint64_t>(b)));
    } else {
        return Op{}(a, b);
    }
}

/// How Add, Sub and Rsub apply alpha on A2.
enum class AlphaStep : uint8_t {
    none,      ///< alpha is 1: one Add or Sub
    fused,     ///< Axpy: a +- alpha*b in fp32 with alpha a float attribute, rounded once to the compute dtype
    separate,  ///< Mul(b, alpha) rounded to the compute dtype, then Add or Sub
};

/// Add's, Sub's and Rsub's parameters: a + alpha*b or a - alpha*b, a and b
/// swapped for Rsub (other - alpha*self with the operands in declaration
/// order).
struct AxpyParams {
    aclDataType computeDtype = ACL_FLOAT;
    AlphaStep step = AlphaStep::none;
    bool subtract = false;
    bool swapOperands = false;
    /// The vector blocks' product rounds to the 16-bit compute dtype first
    /// (the separate step).
    bool roundProduct = false;
    /// What the vector blocks, and the fused step, multiply b by: alpha as a
    /// float (1 for no step), negated for a subtraction.
    float signedAlpha = 1;
    /// The separate step's alpha in the compute dtype.
    ComputeValue alpha;
};

/// The parameters of a sum (subtract false) or difference of the compute
/// dtype with alpha applied as CANN's A2 graphs apply it: nothing when `one`
/// (each operator's own test of alpha == 1), Axpy in fp32 when the compute
/// dtype is one of axpyDtypes, else Mul then Add or Sub.
AxpyParams axpy_params(aclDataType computeDtype, const aclScalar* alpha, bool one, DtypeList axpyDtypes,
                       bool subtract, bool swapOperands = false) noexcept;

/// aclnnDivMod's mode: the quotient as it is, rounded toward zero, or down.
enum class DivRounding : uint8_t { none = 0, trunc = 1, floor = 2 };

struct DivParams {
    DivRounding rounding = DivRounding::none;
    aclDataType computeDtype = ACL_FLOAT;  ///< whose limits an integer division by zero gives
};

/// The family's blocks (see ACLCPU_DECLARE_BINARY_BLOCKS), each the fp32
/// functor of arithmetic_kernel.cpp.
#define ACLCPU_ARITHMETIC_BLOCKS(X)          \
    X(axpy_blocks, AxpyParams, AxpyVector)   \
    X(mul_blocks, NoParams, MulVector)       \
    X(div_blocks, DivParams, DivVector)
ACLCPU_ARITHMETIC_BLOCKS(ACLCPU_DECLARE_BINARY_BLOCKS)

struct AxpyOp : VectorOp<axpy_blocks> {
    template <class V>
    static V apply(V a, V b, const Params& p) noexcept {
        if (p.swapOperands) std::swap(a, b);
        // Axpy's dtypes (FLOAT, FLOAT16, BF16) all have float lanes.
        if constexpr (std::is_same_v<V, float>) {
            if (p.step == AlphaStep::fused) return a + p.signedAlpha * b;
        }
        if (p.step == AlphaStep::separate) {
            b = round_lane(p.computeDtype, wrapping<std::multiplies<>>(lane_value<V>(p.alpha), b));
        }
        return p.subtract ? wrapping<std::minus<>>(a, b) : wrapping<std::plus<>>(a, b);
    }
};

struct MulOp : VectorOp<mul_blocks> {
    template <class V>
    static V apply(V a, V b, const Params&) noexcept { return wrapping<std::multiplies<>>(a, b); }
};

/// RealDiv, then Trunc or Floor for DivMod's modes 1 and 2; complex
/// quotients are never rounded (phase 1 refuses the modes).
struct DivOp : VectorOp<div_blocks> {
    template <class T>
    static if_real<T> apply(T a, T b, const Params& p) noexcept {
        const T quotient = a / b;
        if (p.rounding == DivRounding::trunc) return std::trunc(quotient);
        if (p.rounding == DivRounding::floor) return std::floor(quotient);
        return quotient;
    }
    template <class T>
    static if_complex<T> apply(T a, T b, const Params&) noexcept { return a / b; }
    /// Integer division rounded toward zero or down.  By zero, the result is
    /// what the floating-point quotient (+-inf, or NaN for 0/0) becomes when
    /// cast to the dtype: its max, its min, or 0.
    static int64_t apply(int64_t a, int64_t b, const Params& p) noexcept;
};

}  // namespace aclcpu::ops
