// acl-cpu: the arithmetic of the pow family (PowTensorScalar, PowScalarTensor,
// PowTensorTensor and their in-place forms).
//
// CANN's A2 graphs take three kernels (math/pow/op_api/aclnn_pow.cpp):
//   - Pows, for a FLOAT, FLOAT16 or BF16 self and an exponent of 0.5, 2, 3,
//     -0.5, -1 or -2 (math/pows/op_kernel/pows_base.h): Sqrt, Mul and Div in
//     fp32; Square for an exponent of 2 on the other dtypes (INT8, UINT8,
//     BOOL and INT16 cast to INT32 first), and nothing for an exponent of 1:
//     PowsOp, on the unary engine;
//   - Pow for everything else: PowOp, on the binary engine.
// The A2 AI Core Pow kernel (FLOAT, FLOAT16, BF16, INT32, INT8, UINT8) is not
// public; its floats follow C's pow here (IEEE 754's special values) and its
// integers the AICPU kernel's rules (op_kernel_aicpu/pow_aicpu.cpp, PowImpl):
// a negative exponent gives 1 for a base of 1, +-1 for -1 and 0 otherwise.
#pragma once

#include "common/internal.hpp"

#include <cmath>
#include <complex>
#include <cstdint>

#include "common/binary.hpp"
#include "common/unary.hpp"

namespace aclcpu::ops {

/// The one exponent of Pows, Square or the skipped kernel.
struct PowsParams {
    float exponent;
};

void pows_block(const ElementwiseJob<1>& job, const BlockSlice& slice, const PowsParams& params);
ACLCPU_DECLARE_BINARY_BLOCKS(pow_blocks, NoParams, PowVector)

/// base^exponent of two integers wrapped to 64 bits (the compute dtype's
/// rounding then wraps it to its width, as its multiplications would).
int64_t integer_pow(int64_t base, int64_t exponent) noexcept;

/// Whether CANN's PowTensorScalar takes Pows: self cast to FLOAT, FLOAT16 or
/// BF16 and the exponent, as a float, one of Pows' six (CheckSupportPows).
bool takes_pows(aclDataType computeDtype, float exponent) noexcept;

/// Pows (float lanes, pows_base.h's ComputePowsBase, each exponent
/// matched within 1e-9 as the kernel does), Square (x * x) and the identity
/// (exponent 1).
struct PowsOp : VectorOp<pows_block> {
    static float apply(float x, const Params& p);
    static int64_t apply(int64_t x, const Params& p) { return p.exponent == 1.0f ? x : integer_pow(x, 2); }
    template <class T>
    static T apply_square(T x, const Params& p) { return p.exponent == 1.0f ? x : x * x; }
    static double apply(double x, const Params& p) { return apply_square(x, p); }
    static complex64_t apply(complex64_t x, const Params& p) { return apply_square(x, p); }
    static complex128_t apply(complex128_t x, const Params& p) { return apply_square(x, p); }
};

/// base^exponent: C's pow for the floating types and the complex ones (as
/// the AICPU kernel's std::pow), integer_pow for the integers.
struct PowOp : VectorOp<pow_blocks> {
    template <class T>
    static if_real<T> apply(T base, T exponent, const Params&) { return std::pow(base, exponent); }
    template <class T>
    static if_complex<T> apply(T base, T exponent, const Params&) { return std::pow(base, exponent); }
    static int64_t apply(int64_t base, int64_t exponent, const Params&) { return integer_pow(base, exponent); }
};

}  // namespace aclcpu::ops
