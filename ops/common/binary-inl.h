// acl-cpu ops/common: the per-target vector blocks of the binary engine
// (a Highway "-inl" header; include it after common/elementwise-inl.h from a
// kernel.cpp compiled per target through <hwy/foreach_target.h>).
//
// An operator writes one functor, `V operator()(D d, V a, V b) const`
// deriving from VectorFunction<Params>, and gets its three blocks (binary.hpp's
// BinaryBlocks): both operands tensors, and a scalar on either side, the
// scalar a broadcast vector of ScalarParams::scalar.
#include "common/internal.hpp"

#if defined(ACLCPU_OPS_COMMON_BINARY_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLCPU_OPS_COMMON_BINARY_INL_H_
#undef ACLCPU_OPS_COMMON_BINARY_INL_H_
#else
#define ACLCPU_OPS_COMMON_BINARY_INL_H_
#endif

#include "common/binary.hpp"
#include "common/elementwise-inl.h"

ACLCPU_BEGIN_TARGET_NAMESPACE();

/// op(d, x, scalar) for the tensor-scalar block, op(d, scalar, x) for the
/// scalar-tensor one.
template <class Op, bool kScalarOnLeft>
struct WithScalar {
    Op op;
    float scalar;
    template <class D, class V>
    V operator()(D d, V x) const {
        const V s = hn::Set(d, scalar);
        return kScalarOnLeft ? op(d, s, x) : op(d, x, s);
    }
};

ACLCPU_END_TARGET_NAMESPACE();

#endif  // ACLCPU_OPS_COMMON_BINARY_INL_H_

/// Inside HWY_NAMESPACE: the target's three blocks of `name`
/// (ACLCPU_DECLARE_BINARY_BLOCKS) computing with the functor Op{{params}}.
#ifndef ACLCPU_BINARY_TARGET_BLOCKS
#define ACLCPU_BINARY_TARGET_BLOCKS(name, Params, Op)                                             \
    ACLCPU_ELEMENTWISE_TARGET_BLOCK(name##_tensors, 2, Params, Op)                                \
    void name##_tensor_scalar(const ElementwiseJob<1>& job, const BlockSlice& slice,              \
                              const ScalarParams<Params>& params) {                               \
        elementwise_slice(job, slice, WithScalar<Op, false>{Op{{params.params}}, params.scalar}); \
    }                                                                                             \
    void name##_scalar_tensor(const ElementwiseJob<1>& job, const BlockSlice& slice,              \
                              const ScalarParams<Params>& params) {                               \
        elementwise_slice(job, slice, WithScalar<Op, true>{Op{{params.params}}, params.scalar});  \
    }
/// Inside `#if HWY_ONCE`, at global scope: the dispatchers of the three.
#define ACLCPU_BINARY_DISPATCH(name, Params, Op)                               \
    ACLCPU_ELEMENTWISE_DISPATCH(name##_tensors, 2, Params)                     \
    ACLCPU_ELEMENTWISE_DISPATCH(name##_tensor_scalar, 1, ScalarParams<Params>) \
    ACLCPU_ELEMENTWISE_DISPATCH(name##_scalar_tensor, 1, ScalarParams<Params>)
#endif
