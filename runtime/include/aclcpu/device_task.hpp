// acl-cpu runtime interface: device work as the libraries above the runtime
// submit it to a stream.
#pragma once

#include <memory>

#include "acl/acl_base.h"
#include "aclcpu/export.hpp"

namespace aclcpu {

/// One unit of device work enqueued on a stream.
///
/// The runtime calls run() on a worker thread of the device's task arena,
/// after all work submitted earlier to the same stream (and all work it
/// waits on through events) has completed: once, or -- for a task a graph
/// capture took (aclmdlRICaptureBegin) -- once per replay of the model, so
/// run() must leave the task able to run again.  run() may use TBB
/// parallelism inside the arena but must not block on other streams.  A
/// non-zero result, or an exception escaping run(), becomes the stream's
/// sticky error.  The task is destroyed once it cannot run again: right
/// after run() returns, or with the model that captured it.
class DeviceTask {
public:
    virtual ~DeviceTask() = default;
    virtual aclError run() = 0;
    /// Short label for diagnostics ("aclnnSoftplusBackward", "memcpy", ...).
    virtual const char* name() const noexcept = 0;
    /// True for an operator's kernel launch (what CANN calls an AI Core
    /// task): the only work a captured task group may hold and an update
    /// may replace.
    virtual bool is_kernel() const noexcept { return false; }
};

/// Enqueues task on stream (nullptr: the current context's default stream).
/// The task takes its place in stream order when this call is made, whatever
/// thread makes it.  On failure the task is destroyed unrun, the error is
/// reported (see report_error) and its code returned.  Thread-safe.
ACLCPU_EXPORT aclError enqueue(aclrtStream stream, std::unique_ptr<DeviceTask> task);

}  // namespace aclcpu
