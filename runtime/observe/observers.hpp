// acl-cpu runtime: the observers and checks an aclInit span's configuration
// asks for (ACLCPU_TRACE, ACLCPU_CHECK, ACLCPU_MEMCHECK).
#pragma once

#include "core/internal.hpp"

#include <memory>
#include <vector>

#include "aclcpu/instrumentation.hpp"
#include "core/config.hpp"
#include "observe/trace_writer.hpp"

namespace aclcpu::observe {

/// Runtime::initialise's AttachObservers: switches device-memory checking to
/// config.memcheck and appends to `observers` the timeline trace writer (when
/// config.tracePath is set) and the stream race checker (when
/// config.raceCheck).  A trace file that cannot be written is reported and
/// fails with ACL_ERROR_INVALID_FILE.
aclError attach_configured(const detail::RuntimeConfig& config,
                           std::vector<std::shared_ptr<instrument::Observer>>& observers);

/// The ACLCPU_TRACE writer that attach_configured attached last, or nullptr
/// when there is none or the runtime has let it go.  Any thread.
std::shared_ptr<detail::TraceWriter> configured_trace();

}  // namespace aclcpu::observe
