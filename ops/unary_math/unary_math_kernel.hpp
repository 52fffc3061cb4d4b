// acl-cpu: the arithmetic of the unary math family (Abs, Neg, Sign, Exp,
// Log, Sqrt, Sin, Cos, Tanh) as the unary engine (common/unary.hpp) runs it:
// an fp32 vector block per operator (unary_math_kernel.cpp, one version per
// SIMD target) and its apply() per lane type of the typed path.
//
// The typed path computes in the compute dtype's own precision (double for
// DOUBLE, float for COMPLEX64, double for COMPLEX128, wrapping int64_t for
// the integers), as CANN's AICPU and integer kernels do.
#pragma once

#include "common/internal.hpp"

#include <cmath>
#include <complex>
#include <cstdint>

#include "common/elementwise.hpp"
#include "common/unary.hpp"

namespace aclcpu::ops {

/// The family's blocks (see ACLCPU_DECLARE_ELEMENTWISE_BLOCK), each the fp32
/// functor of unary_math_kernel.cpp.
#define ACLCPU_UNARY_MATH_BLOCKS(X)      \
    X(abs_block, 1, NoParams, AbsVector)   \
    X(neg_block, 1, NoParams, NegVector)   \
    X(sign_block, 1, NoParams, SignVector) \
    X(exp_block, 1, NoParams, ExpVector)   \
    X(log_block, 1, NoParams, LogVector)   \
    X(sqrt_block, 1, NoParams, SqrtVector) \
    X(sin_block, 1, NoParams, SinVector)   \
    X(cos_block, 1, NoParams, CosVector)   \
    X(tanh_block, 1, NoParams, TanhVector)
ACLCPU_UNARY_MATH_BLOCKS(ACLCPU_DECLARE_ELEMENTWISE_BLOCK)

/// |x|; an integer's minimum wraps to itself as on the device.  A complex
/// z gives (|z|, 0), whose real part the store keeps (Abs's out is real).
struct AbsOp : VectorOp<abs_block> {
    template <class T>
    static if_real<T> apply(T x, const Params&) { return std::abs(x); }
    template <class T>
    static if_complex<T> apply(T z, const Params&) { return T(std::abs(z), 0); }
    static int64_t apply(int64_t x, const Params&) {
        return x < 0 ? static_cast<int64_t>(0 - static_cast<uint64_t>(x)) : x;
    }
};

/// -x, wrapping for integers.
struct NegOp : VectorOp<neg_block> {
    template <class T>
    static if_real<T> apply(T x, const Params&) { return -x; }
    template <class T>
    static if_complex<T> apply(T z, const Params&) { return -z; }
    static int64_t apply(int64_t x, const Params&) { return static_cast<int64_t>(0 - static_cast<uint64_t>(x)); }
};

/// (x > 0) - (x < 0), as CANN's Sign kernel selects (op_kernel/arch35/sign.h):
/// a zero of either sign and NaN give +0.  A complex z gives z / |z| (0 at 0).
struct SignOp : VectorOp<sign_block> {
    template <class T>
    static if_real<T> apply(T x, const Params&) { return static_cast<T>((x > 0) - (x < 0)); }
    template <class T>
    static if_complex<T> apply(T z, const Params&) {
        const auto magnitude = std::abs(z);
        return magnitude == 0 ? T(0, 0) : z / magnitude;
    }
    static int64_t apply(int64_t x, const Params&) { return (x > 0) - (x < 0); }
};

/// An operator whose typed path is the standard library's function of the
/// same name over reals and complex numbers.
#define ACLCPU_UNARY_MATH_OP(Name, function)                                        \
    struct Name##Op : VectorOp<function##_block> {                                 \
        template <class T>                                                         \
        static if_real<T> apply(T x, const Params&) { return std::function(x); }   \
        template <class T>                                                         \
        static if_complex<T> apply(T z, const Params&) { return std::function(z); } \
    };
ACLCPU_UNARY_MATH_OP(Exp, exp)
ACLCPU_UNARY_MATH_OP(Log, log)
ACLCPU_UNARY_MATH_OP(Sqrt, sqrt)
ACLCPU_UNARY_MATH_OP(Sin, sin)
ACLCPU_UNARY_MATH_OP(Cos, cos)
ACLCPU_UNARY_MATH_OP(Tanh, tanh)
#undef ACLCPU_UNARY_MATH_OP

}  // namespace aclcpu::ops
