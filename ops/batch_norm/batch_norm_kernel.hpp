// acl-cpu: BatchNorm's vector block (ops-nn norm/batch_norm_v3, BNInfer and
// BNTrainingUpdate): the normalisation folded into one multiply-add per
// element, y = x * scale[c] + shift[c] in fp32, scale and shift computed per
// channel beforehand (scale = weight * invstd, shift = bias - mean * scale).
#pragma once

#include "common/internal.hpp"

#include "common/elementwise.hpp"
#include "common/unary.hpp"

namespace aclcpu::ops {

#define ACLCPU_BATCH_NORM_BLOCKS(X) X(batch_norm_affine_block, 3, NoParams, BatchNormAffineVector)
ACLCPU_BATCH_NORM_BLOCKS(ACLCPU_DECLARE_ELEMENTWISE_BLOCK)

}  // namespace aclcpu::ops
