// acl-cpu runtime: the device memory checker (ACLCPU_MEMCHECK).
#pragma once

#include "core/internal.hpp"

#include <cstddef>

#include "aclcpu/memcheck.hpp"

namespace aclcpu::detail {

/// Switches the checks of memcheck_enabled() callers for the aclInit span.
void enable_memcheck(bool on) noexcept;

/// For ranges that may legitimately be host memory (the sides of a copy, a
/// memset): reports and returns ACL_ERROR_RT_AICORE_EXCEPTION when the range
/// strays into a guard zone or a freed device block, else ACL_SUCCESS.
aclError check_not_stray(const char* api, const DeviceAccess& access) noexcept;

}  // namespace aclcpu::detail
