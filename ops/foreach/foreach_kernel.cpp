// acl-cpu: the foreach family's fp32 functions, compiled for every SIMD
// target Highway dispatches to at run time.  Each follows its A2 kernel's
// order of operations (foreach/<op>/op_kernel/*.cpp of ops-nn); Axpy rounds
// its product before the sum (no contraction in this build).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "foreach/foreach_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <array>

#include "common/dtype.hpp"
#include "common/float_runs.hpp"
#include "common/hwy_target.hpp"
#include "common/tensor_lists-inl.h"
#include "foreach/foreach_kernel.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

struct MulScalarVector : VectorFunction<ForeachScalar> {
    std::array<V, 1> operator()(D d, V x) const { return {hn::Mul(x, hn::Set(d, p.value))}; }
};

/// foreach_addcmul_scalar.cpp: Mul(x2, x3), then Axpy(x1, product, scalar).
struct AddcmulScalarVector : VectorFunction<ForeachScalar> {
    std::array<V, 1> operator()(D d, V x1, V x2, V x3) const {
        return {hn::Add(x1, hn::Mul(hn::Mul(x2, x3), hn::Set(d, p.value)))};
    }
};

/// foreach_addcdiv_scalar.cpp: Div(x2, x3), then Axpy(x1, quotient, scalar).
struct AddcdivScalarVector : VectorFunction<ForeachScalar> {
    std::array<V, 1> operator()(D d, V x1, V x2, V x3) const {
        return {hn::Add(x1, hn::Mul(hn::Div(x2, x3), hn::Set(d, p.value)))};
    }
};

struct SqrtVector : VectorFunction<ForeachNoScalar> {
    std::array<V, 1> operator()(D, V x) const { return {hn::Sqrt(x)}; }
};

/// foreach_lerp_scalar.h: the difference x2 - x1, then an Axpy onto x1
/// for a weight inside (-0.5, 0.5), onto x2 with weight - 1 otherwise.
struct LerpScalarVector : VectorFunction<ForeachScalar> {
    std::array<V, 1> operator()(D d, V x1, V x2) const {
        const V difference = hn::Sub(x2, x1);
        if (p.value < 0.5f && p.value > -0.5f) return {hn::Add(x1, hn::Mul(difference, hn::Set(d, p.value)))};
        return {hn::Add(x2, hn::Mul(difference, hn::Set(d, p.value - 1.0f)))};
    }
};

}  // namespace

ACLCPU_TENSOR_LIST_TARGET_BLOCK(foreach_mul_scalar_block, 1, 1, ForeachScalar, MulScalarVector)
ACLCPU_TENSOR_LIST_TARGET_BLOCK(foreach_addcmul_scalar_block, 3, 1, ForeachScalar, AddcmulScalarVector)
ACLCPU_TENSOR_LIST_TARGET_BLOCK(foreach_addcdiv_scalar_block, 3, 1, ForeachScalar, AddcdivScalarVector)
ACLCPU_TENSOR_LIST_TARGET_BLOCK(foreach_sqrt_block, 1, 1, ForeachNoScalar, SqrtVector)
ACLCPU_TENSOR_LIST_TARGET_BLOCK(foreach_lerp_scalar_block, 2, 1, ForeachScalar, LerpScalarVector)

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
ACLCPU_TENSOR_LIST_DISPATCH(foreach_mul_scalar_block, ForeachScalar)
ACLCPU_TENSOR_LIST_DISPATCH(foreach_addcmul_scalar_block, ForeachScalar)
ACLCPU_TENSOR_LIST_DISPATCH(foreach_addcdiv_scalar_block, ForeachScalar)
ACLCPU_TENSOR_LIST_DISPATCH(foreach_sqrt_block, ForeachNoScalar)
ACLCPU_TENSOR_LIST_DISPATCH(foreach_lerp_scalar_block, ForeachScalar)

namespace aclcpu::ops {

ForeachScalar ForeachScalar::at_launch(const void* const* extraInputs) const noexcept {
    if (deviceDtype == ACL_DT_UNDEFINED) return *this;
    ForeachScalar resolved = *this;
    resolved.value = visit_loadable(
        deviceDtype,
        [&](auto tag) { return cast_to_float(static_cast<const decltype(tag)*>(extraInputs[0])[devicePosition]); },
        [] { return 0.0f; });
    if (roundToHalf) round_through(ACL_FLOAT16, &resolved.value, 1);
    return resolved;
}

}  // namespace aclcpu::ops
#endif
