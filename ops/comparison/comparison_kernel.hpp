// acl-cpu: the arithmetic of the comparison family (EqTensor, GtScalar and
// their in-place forms) on the binary engine: 1 where the relation holds, 0
// elsewhere (CANN's Equal and Greater write BOOL, which Cast(out) turns into
// 1/0 of out's dtype).  NaN compares unequal and not greater, as IEEE 754
// and the AICPU kernels (math/equal/op_kernel_aicpu, math/greater/
// op_kernel_aicpu) say; complex numbers are equal when both parts are.
#pragma once

#include "common/internal.hpp"

#include <cstdint>

#include "common/binary.hpp"

namespace aclcpu::ops {

/// The family's blocks (see ACLCPU_DECLARE_BINARY_BLOCKS), each the fp32
/// functor of comparison_kernel.cpp.
#define ACLCPU_COMPARISON_BLOCKS(X)            \
    X(equal_blocks, NoParams, EqualVector)     \
    X(greater_blocks, NoParams, GreaterVector)
ACLCPU_COMPARISON_BLOCKS(ACLCPU_DECLARE_BINARY_BLOCKS)

struct EqualOp : VectorOp<equal_blocks> {
    template <class V>
    static V apply(V a, V b, const Params&) { return V(a == b ? 1 : 0); }
};

struct GreaterOp : VectorOp<greater_blocks> {
    template <class V>
    static if_real<V> apply(V a, V b, const Params&) { return V(a > b ? 1 : 0); }
    static int64_t apply(int64_t a, int64_t b, const Params&) { return a > b ? 1 : 0; }
};

}  // namespace aclcpu::ops
