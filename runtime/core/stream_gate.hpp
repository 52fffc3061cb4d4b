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

#include "aclcpu/stream_gate.hpp"
#include "core/lane.hpp"

namespace aclcpu::detail {

class GateState {
public:
    GateState(LateDelivery delivery, const char* task) : delivery_(std::move(delivery)), task_(task) {}

    void open();
    void fail(aclError code, const std::string& detail);

private:
    /// True for the first caller of open() or fail().
    bool settle() noexcept { return !settled_.exchange(true, std::memory_order_acq_rel); }

    const LateDelivery delivery_;
    const char* const task_;
    std::atomic<bool> settled_{false};
};

/// Returns once every gate delivery begun before the call is over.  A gate
/// is often opened by another device's worker, which still touches the
/// lane after its place may have run; a device whose work has all
/// completed calls this before tearing its lanes down.
void quiesce_gate_deliveries();

}  // namespace aclcpu::detail
