// acl-cpu runtime interface: device work as the libraries above the runtime
// submit it to a stream.
#pragma once

#include <memory>

#include "acl/acl_base.h"
#include "aclcpu/export.hpp"

namespace aclcpu {

/// One unit of device work enqueued on a stream.
///
/// The runtime calls run() exactly once, on a worker thread of the device's
/// task arena, after all work submitted earlier to the same stream (and all
/// work it waits on through events) has completed.  run() may use TBB
/// parallelism inside the arena but must not block on other streams.  A
/// non-zero result, or an exception escaping run(), becomes the stream's
/// sticky error; the task is destroyed right after run() returns.
class DeviceTask {
public:
    virtual ~DeviceTask() = default;
    virtual aclError run() = 0;
    /// Short label for diagnostics ("aclnnSoftplusBackward", "memcpy", ...).
    virtual const char* name() const noexcept = 0;
};

/// Enqueues task on stream (nullptr: the current context's default stream).
/// The task takes its place in stream order when this call is made, whatever
/// thread makes it.  On failure the task is destroyed unrun, the error is
/// reported (see report_error) and its code returned.  Thread-safe.
ACLCPU_EXPORT aclError enqueue(aclrtStream stream, std::unique_ptr<DeviceTask> task);

}  // namespace aclcpu
