// acl-cpu runtime: removing an observer that a C API call installed.
#pragma once

#include "core/internal.hpp"

#include "aclcpu/instrumentation.hpp"

namespace aclcpu::observe {

/// Waits until every open device has run the work submitted so far -- so
/// that no device worker is inside one of its hooks -- then uninstalls
/// observer.  As for aclFinalize, no other host thread may be inside an API
/// call meanwhile (see instrument::uninstall).
void remove_when_idle(const instrument::Observer* observer);

}  // namespace aclcpu::observe
