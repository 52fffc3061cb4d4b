// acl-cpu: the arithmetic of MseLoss and MseLossBackward (ops-nn loss/
// mse_loss, loss/mse_loss_grad_v2).  MseLoss's elementwise part, (x - t)^2
// in fp32, is a binary-engine block; its mean and sum reduce those squares
// (held as fp32, as the kernel's DAG holds them) on the reduction engine.
// MseLossGrad is a three-input elementwise block.
#pragma once

#include "common/internal.hpp"

#include "common/binary.hpp"
#include "common/elementwise.hpp"
#include "common/unary.hpp"

namespace aclcpu::ops {

/// MseLossGrad's coefficient (mse_loss_grad_v2_tiling.cpp): 2 / N for
/// "mean" (1.0f / N * 2.0f in fp32, N the numel of self), 2 otherwise.
struct MseGradParams {
    float cof;
};

#define ACLCPU_LOSS_BINARY_BLOCKS(X) X(squared_difference_blocks, NoParams, SquaredDifferenceVector)
ACLCPU_LOSS_BINARY_BLOCKS(ACLCPU_DECLARE_BINARY_BLOCKS)
#define ACLCPU_LOSS_BLOCKS(X) X(mse_grad_block, 3, MseGradParams, MseGradVector)
ACLCPU_LOSS_BLOCKS(ACLCPU_DECLARE_ELEMENTWISE_BLOCK)

/// mse_loss_dag.h: (x - t) * (x - t) in fp32.  Its dtypes are FLOAT,
/// FLOAT16 and BF16, with an out among them: the vector blocks store it.
using SquaredDifferenceOp = VectorOp<squared_difference_blocks>;

/// mse_loss_grad_v2.h: ((x - t) * cof) * dy in fp32.
using MseGradOp = VectorOp<mse_grad_block>;

}  // namespace aclcpu::ops
