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

ACLCPU_DECLARE_BINARY_BLOCKS(equal_blocks, NoParams)
ACLCPU_DECLARE_BINARY_BLOCKS(greater_blocks, NoParams)

struct EqualOp {
    using Params = NoParams;
    static constexpr BinaryBlocks<NoParams> vector = equal_blocks;
    template <class V>
    static V apply(V a, V b, const Params&) { return V(a == b ? 1 : 0); }
};

struct GreaterOp {
    using Params = NoParams;
    static constexpr BinaryBlocks<NoParams> vector = greater_blocks;
    template <class V>
    static if_real<V> apply(V a, V b, const Params&) { return V(a > b ? 1 : 0); }
    static int64_t apply(int64_t a, int64_t b, const Params&) { return a > b ? 1 : 0; }
};

}  // namespace aclcpu::ops
