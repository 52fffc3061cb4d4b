// acl-cpu runtime interface: gates, the stream places that wait for
// something the libraries above the runtime decide (a collective's peers).
#pragma once

#include <memory>
#include <string>

#include "acl/acl_base.h"
#include "aclcpu/export.hpp"

namespace aclcpu {

namespace detail {
class GateState;
}  // namespace detail

/// The opening of one arming of a gated place.  Copyable; any thread may
/// open or fail it, without holding a lock of the runtime's.  The first of
/// open() and fail() decides; later calls do nothing.  Dropping every copy
/// unopened leaves the stream waiting for good: the library that armed the
/// gate owns the duty to settle it (within its own timeout).
class Gate {
public:
    /// The work behind the place may run.
    ACLCPU_EXPORT void open() const;
    /// As open(), naming the gate whose arming is what opens this one (the
    /// last party of a meeting opening the others'): observers see the link
    /// (on_gate_opened_by) and the timeline draws it as an arrow.  Gates of
    /// a captured graph's replay open without the link.
    ACLCPU_EXPORT void open(const Gate& by) const;
    /// The work behind the place runs in the stream's failure mode: code
    /// becomes the stream's sticky error (or the replay's, in a captured
    /// graph), with `detail` as its message, and is reported by the next
    /// synchronisation.
    ACLCPU_EXPORT void fail(aclError code, const std::string& detail) const;

    explicit Gate(std::shared_ptr<detail::GateState> state) : state_(std::move(state)) {}

private:
    std::shared_ptr<detail::GateState> state_;
};

/// What a gated place does when its stream reaches it.
class GateArming {
public:
    virtual ~GateArming() = default;
    /// Called once every earlier place of the stream has completed -- on the
    /// thread that completed the last of them (a device worker), or on the
    /// thread of enqueue_gate when the stream was idle -- and again at every
    /// replay for a gate a graph capture took.  Must not block: keep the gate
    /// and settle it later, from any thread.
    virtual void arm(Gate gate) = 0;
    /// Names the place to observers and in failure messages.
    virtual const char* name() const noexcept = 0;
};

/// Enqueues on stream (nullptr: the current context's default stream) a
/// gated place: the work submitted to the stream after it runs once the gate
/// the arming received opens.  No device worker waits meanwhile.  On a
/// captured stream the place becomes a node of the capturing model, armed
/// at each replay.  Observers see the place as category "gate".  Returns
/// the stream's resolution error (reported) without arming.  Thread-safe.
ACLCPU_EXPORT aclError enqueue_gate(aclrtStream stream, std::shared_ptr<GateArming> arming);

}  // namespace aclcpu
