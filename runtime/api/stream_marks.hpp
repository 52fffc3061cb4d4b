// acl-cpu runtime API: marks in a stream's order, for the profiling entry
// points (acl_prof.h, mstx, aclrtProfTrace).
#pragma once

#include "core/internal.hpp"

#include <string>

#include "acl/acl_base.h"

namespace aclcpu::api {

/// Enqueues on stream an item that does nothing but take its place in the
/// stream's order, seen by observers (the trace) as a "task" named `name`
/// with `details` (JSON members, may be empty).  The stream's usual errors
/// (destroyed, of another device, sticky failure) are returned.
aclError enqueue_mark(aclrtStream stream, const std::string& name, std::string details);

}  // namespace aclcpu::api
