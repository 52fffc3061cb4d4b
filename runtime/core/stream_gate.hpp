// acl-cpu runtime: GateState, what a Gate (aclcpu/stream_gate.hpp) settles.
//
// CPU mapping: a gated place is a late-delivered item of its stream's lane
// (see StreamLane), exactly as an event wait is; arming happens in the
// lane's progress action for the place, so no thread waits for the gate.
// The library above settles it from whatever thread completes what it
// waits for -- often a worker of another device.
#pragma once

#include "core/internal.hpp"

#include <atomic>
#include <string>

#include "aclcpu/instrumentation.hpp"
#include "aclcpu/stream_gate.hpp"
#include "core/lane.hpp"

namespace aclcpu::detail {

class GateState {
public:
    /// `stream` names the gate's stream to observers (nullptr for a gate of a
    /// graph's replay, whose place is a node, not a stream place).
    GateState(LateDelivery delivery, const char* task, instrument::StreamId stream)
        : delivery_(std::move(delivery)), task_(task), stream_(stream) {}

    /// Opens the gate; `by` (may be nullptr) is the gate whose arming opens it.
    void open(const GateState* by);
    void fail(aclError code, const std::string& detail);

private:
    /// True for the first caller of open() or fail().
    bool settle() noexcept { return !settled_.exchange(true, std::memory_order_acq_rel); }

    const LateDelivery delivery_;
    const char* const task_;
    const instrument::StreamId stream_;
    std::atomic<bool> settled_{false};
};

/// Returns once every gate delivery begun before the call is over.  A gate
/// is often opened by another device's worker, which still touches the
/// lane after its place may have run; a device whose work has all
/// completed calls this before tearing its lanes down.
void quiesce_gate_deliveries();

}  // namespace aclcpu::detail
