// acl-cpu ops/common: the host side of the unary engine shared with the
// binary one.
#include "common/unary.hpp"

namespace aclcpu::ops {

bool gathers_as_cast(aclDataType dtype, aclDataType computeDtype) noexcept {
    if (dtype == computeDtype) return true;
    if (computeDtype == ACL_FLOAT) return dtype != ACL_COMPLEX64 && dtype != ACL_COMPLEX128;
    const bool halfLanes = computeDtype == ACL_FLOAT16 || computeDtype == ACL_BF16;
    // 8-bit integers and BOOL fit the 8-bit significand of both.
    return halfLanes && (dtype == ACL_BOOL || dtype == ACL_INT8 || dtype == ACL_UINT8);
}

}  // namespace aclcpu::ops
