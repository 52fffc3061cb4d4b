// acl-cpu: tiling of SoftplusV2Grad (aclnnSoftplusBackward).
#pragma once

#include "common/internal.hpp"

#include <cstdint>

#include "aclcpu/soc_profile.hpp"
#include "common/elementwise.hpp"

namespace aclcpu::ops {

/// The elementwise flat tiling of SoftplusV2Grad: the kernel stages three
/// nodes (gradOutput, self, result) as fp32, so each gets a third of UB,
/// 32-byte aligned; blocks take ceil(N / vectorCoreCount) elements, at
/// least kMinBlockElements, rounded up to one 32-byte block of
/// computeDtype, the last block the rest.
/// No workspace.
ElementwiseTiling tile_softplus_backward(int64_t numel, aclDataType computeDtype, const SocProfile& soc);

}  // namespace aclcpu::ops
