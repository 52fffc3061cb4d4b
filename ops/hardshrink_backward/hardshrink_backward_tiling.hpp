// acl-cpu: tiling of HardShrinkGrad (aclnnHardshrinkBackward).
#pragma once

#include "common/internal.hpp"

#include <cstdint>

#include "aclcpu/soc_profile.hpp"
#include "common/elementwise.hpp"

namespace aclcpu::ops {

/// HardShrinkGrad's tiling: blockFactor = ceil(N / vectorCoreCount)
/// elements per block, at least kMinBlockElements (the last block the
/// rest); UB chunks of
/// ubFactor = floor((UB - 16 KiB) / bytesPerElement) elements, where
/// bytesPerElement is fp16 12, fp32 24, bf16 20 when double-buffered
/// (N > 1024) and 6 / 12 / 14 otherwise, aligned down to 128 (fp16) or 64
/// elements and capped at N rounded up to that alignment.  No workspace.
ElementwiseTiling tile_hardshrink_backward(int64_t numel, aclDataType computeDtype, const SocProfile& soc);

}  // namespace aclcpu::ops
