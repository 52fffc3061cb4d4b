// acl-cpu: tiling of the arithmetic family.
#pragma once

#include "common/internal.hpp"

#include <cstdint>

#include "aclcpu/soc_profile.hpp"
#include "common/elementwise.hpp"

namespace aclcpu::ops {

/// The flat elementwise tiling CANN's binary vector operators use: blocks
/// take ceil(N / vectorCoreCount) elements, at least kMinBlockElements,
/// rounded up to one 32-byte UB block of the output, the last block the
/// rest; each stages its two
/// operands and its result, a third of UB each, in UB chunks of laneBytes
/// per element (4 for the fp32 vector path, up to 16 for COMPLEX128).  No
/// workspace.
ElementwiseTiling tile_arithmetic(int64_t numel, aclDataType outDtype, int64_t laneBytes, const SocProfile& soc);

}  // namespace aclcpu::ops
