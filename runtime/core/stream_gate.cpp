// acl-cpu runtime: gated stream places (aclcpu/stream_gate.hpp).
#include "core/stream_gate.hpp"

#include <shared_mutex>

#include "core/runtime_state.hpp"
#include "observe/runtime_hooks.hpp"

namespace aclcpu::detail {
namespace {

/// Held shared by every gate delivery, exclusively by quiesce: deliveries
/// never wait for each other.
std::shared_mutex& delivery_mutex() {
    static std::shared_mutex mutex;
    return mutex;
}

}  // namespace

void GateState::open(const GateState* by) {
    if (!settle()) return;
    if (by != nullptr && by != this && stream_ != nullptr && by->stream_ != nullptr && instrument::active()) {
        instrument::notify([&](instrument::Observer& o) {
            o.on_gate_opened_by(stream_, delivery_.place, by->stream_, by->delivery_.place);
        });
    }
    const std::shared_lock<std::shared_mutex> delivering(delivery_mutex());
    delivery_.deliver();
}

void GateState::fail(aclError code, const std::string& detail) {
    if (!settle()) return;
    const std::shared_lock<std::shared_mutex> delivering(delivery_mutex());
    delivery_.fail(code, task_, detail);
    delivery_.deliver();
}

void quiesce_gate_deliveries() { const std::unique_lock<std::shared_mutex> deliveriesDone(delivery_mutex()); }

}  // namespace aclcpu::detail

namespace aclcpu {

using detail::GateState;
using detail::LateDelivery;

void Gate::open() const { state_->open(nullptr); }

void Gate::open(const Gate& by) const { state_->open(by.state_.get()); }

void Gate::fail(aclError code, const std::string& detail) const { state_->fail(code, detail); }

aclError enqueue_gate(aclrtStream handle, std::shared_ptr<GateArming> arming) {
    std::shared_ptr<detail::Stream> stream;
    const char* name = arming->name();
    const aclError status = detail::Runtime::instance().resolve_work_stream(handle, name, stream);
    if (status != ACL_SUCCESS) return status;
    const auto arm = [arming, name](LateDelivery delivery, instrument::StreamId observed) {
        arming->arm(Gate(std::make_shared<GateState>(std::move(delivery), name, observed)));
    };
    if (stream->is_captured()) {
        const std::optional<aclError> captured = stream->capture_late(
            [arm](LateDelivery delivery) { arm(std::move(delivery), nullptr); },
            detail::CapturedWork{name, "gate", {}, {}});
        if (captured) return *captured;
    }
    detail::StreamLane& lane = stream->lane();
    const uint64_t place = lane.reserve();
    if (instrument::active()) stream->announce(place, detail::plain_work(name, "gate"));
    // Armed once the lane reaches the place, so that what the arming starts
    // sees everything the stream did before it.
    lane.progress()->when_reached(place, [arm, delivery = LateDelivery{&lane, place, nullptr}, id = stream.get()] {
        arm(delivery, id);
    });
    return ACL_SUCCESS;
}

}  // namespace aclcpu
