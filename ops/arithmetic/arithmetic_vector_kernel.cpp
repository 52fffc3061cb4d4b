// acl-cpu: the arithmetic family's vector kernel, compiled for every SIMD
// target Highway dispatches to at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "arithmetic/arithmetic_vector_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <utility>

#include "arithmetic/arithmetic_kernel.hpp"
#include "common/elementwise-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclcpu::ops::HWY_NAMESPACE {

/// v rounded to the 16-bit compute dtype (a no-op for FLOAT).
template <class D, class V>
V round_to_compute(D d, V v, aclDataType computeDtype) {
    if (computeDtype == ACL_FLOAT16) return round_to<half_t>(d, v);
    if (computeDtype == ACL_BF16) return round_to<bf16_t>(d, v);
    return v;
}

/// CANN's Axpy a + alpha*b, or Mul then Add when the product rounds first.
struct AxpyOp {
    VectorArithmeticParams p;
    template <class D, class V>
    V operator()(D d, V a, V b) const {
        if (p.swapOperands) std::swap(a, b);
        V product = hn::Mul(hn::Set(d, p.alpha), b);
        if (p.roundProduct) product = round_to_compute(d, product, p.computeDtype);
        return hn::Add(a, product);
    }
};

struct MulOp {
    VectorArithmeticParams p;
    template <class D, class V>
    V operator()(D /* d */, V a, V b) const {
        return hn::Mul(a, b);
    }
};

/// RealDiv, then Trunc or Floor for DivMod's modes 1 and 2.
struct DivOp {
    VectorArithmeticParams p;
    template <class D, class V>
    V operator()(D /* d */, V a, V b) const {
        if (p.swapOperands) std::swap(a, b);
        const V quotient = hn::Div(a, b);
        if (p.rounding == DivRounding::trunc) return hn::Trunc(quotient);
        if (p.rounding == DivRounding::floor) return hn::Floor(quotient);
        return quotient;
    }
};

/// Op with the scalar p.scalar as its second operand (first when
/// p.swapOperands, which Op itself applies).
template <class Op>
struct WithScalar {
    Op op;
    template <class D, class V>
    V operator()(D d, V x) const {
        return op(d, x, hn::Set(d, op.p.scalar));
    }
};

using AxpyScalarOp = WithScalar<AxpyOp>;
using MulScalarOp = WithScalar<MulOp>;
using DivScalarOp = WithScalar<DivOp>;

ACLCPU_ELEMENTWISE_TARGET_BLOCK(vector_axpy_block, 2, VectorArithmeticParams, AxpyOp)
ACLCPU_ELEMENTWISE_TARGET_BLOCK(vector_mul_block, 2, VectorArithmeticParams, MulOp)
ACLCPU_ELEMENTWISE_TARGET_BLOCK(vector_div_block, 2, VectorArithmeticParams, DivOp)
ACLCPU_ELEMENTWISE_TARGET_BLOCK(vector_axpy_scalar_block, 1, VectorArithmeticParams, AxpyScalarOp)
ACLCPU_ELEMENTWISE_TARGET_BLOCK(vector_mul_scalar_block, 1, VectorArithmeticParams, MulScalarOp)
ACLCPU_ELEMENTWISE_TARGET_BLOCK(vector_div_scalar_block, 1, VectorArithmeticParams, DivScalarOp)

}  // namespace aclcpu::ops::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
ACLCPU_ELEMENTWISE_DISPATCH(vector_axpy_block, 2, VectorArithmeticParams)
ACLCPU_ELEMENTWISE_DISPATCH(vector_mul_block, 2, VectorArithmeticParams)
ACLCPU_ELEMENTWISE_DISPATCH(vector_div_block, 2, VectorArithmeticParams)
ACLCPU_ELEMENTWISE_DISPATCH(vector_axpy_scalar_block, 1, VectorArithmeticParams)
ACLCPU_ELEMENTWISE_DISPATCH(vector_mul_scalar_block, 1, VectorArithmeticParams)
ACLCPU_ELEMENTWISE_DISPATCH(vector_div_scalar_block, 1, VectorArithmeticParams)
#endif  // HWY_ONCE
