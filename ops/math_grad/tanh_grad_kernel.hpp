// acl-cpu: TanhGrad (ops-math math/tanh_grad) on the binary engine:
// gradInput = (1 - y * y) * dy, y being Tanh's output.  The fp32 block is
// tanh_grad_kernel.cpp's; DOUBLE runs on AICPU (op_kernel_aicpu/
// tanh_grad_aicpu.cpp: dy * (1 - y * y)) in double, which apply computes.
#pragma once

#include "common/internal.hpp"

#include "common/binary.hpp"
#include "common/unary.hpp"

namespace aclcpu::ops {

#define ACLCPU_MATH_GRAD_BLOCKS(X) X(tanh_grad_blocks, NoParams, TanhGradVector)
ACLCPU_MATH_GRAD_BLOCKS(ACLCPU_DECLARE_BINARY_BLOCKS)

struct TanhGradOp : VectorOp<tanh_grad_blocks> {
    template <class V>
    static if_real<V> apply(V dy, V y, const Params&) { return dy * (V(1) - y * y); }
};

}  // namespace aclcpu::ops
