// acl-cpu runtime interface: initialisation on behalf of aclnnInit.
#pragma once

#include "acl/acl_base.h"
#include "aclcpu/export.hpp"

namespace aclcpu {

/// Ensures the runtime is initialised enough for aclnnInit, reading the
/// aclInit configuration at configPath (may be null).  Idempotent; thread-safe.
ACLCPU_EXPORT aclError ensure_initialised(const char* configPath);

}  // namespace aclcpu
