// acl-cpu runtime API: events (acl_rt.h).
#include <chrono>

#include "acl/acl_rt.h"
#include "aclcpu/instrumentation.hpp"
#include "api/arguments.hpp"
#include "core/errors.hpp"
#include "core/runtime_state.hpp"
#include "observe/runtime_hooks.hpp"

using aclcpu::DeviceTask;
using aclcpu::api::resolve_event_and_stream;
using aclcpu::api::check_timeout;
using aclcpu::detail::deadline_after;
using aclcpu::detail::Event;
using aclcpu::detail::param_error;
using aclcpu::detail::plain_work;
using aclcpu::detail::ProgressCounter;
using aclcpu::detail::Runtime;
using aclcpu::detail::Stream;
using aclcpu::instrument::ApiScope;
using aclcpu::instrument::Observer;

namespace {

constexpr uint32_t kKnownEventFlags = ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS | ACL_EVENT_TIME_LINE |
                                      ACL_EVENT_DEVICE_USE_ONLY | ACL_EVENT_EXTERNAL | ACL_EVENT_IPC;

int64_t steady_nanoseconds() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(ProgressCounter::Clock::now().time_since_epoch())
        .count();
}

/// Stores the device time at which a stream reached an event's record.
class RecordEventTask final : public DeviceTask {
public:
    RecordEventTask(std::shared_ptr<Event> event, uint64_t generation)
        : event_(std::move(event)), generation_(generation) {}
    aclError run() noexcept override {
        event_->stamp(generation_, steady_nanoseconds());
        return ACL_SUCCESS;
    }
    const char* name() const noexcept override { return "aclrtRecordEvent"; }

private:
    std::shared_ptr<Event> event_;
    uint64_t generation_;
};

/// Returns an event to the "not recorded" state once the stream reaches it.
class ResetEventTask final : public DeviceTask {
public:
    ResetEventTask(std::shared_ptr<Event> event, uint64_t generation)
        : event_(std::move(event)), generation_(generation) {}
    aclError run() noexcept override {
        if (event_->reset(generation_) && aclcpu::instrument::active()) {
            aclcpu::instrument::notify([this](Observer& o) { o.on_event_reset(event_.get()); });
        }
        return ACL_SUCCESS;
    }
    const char* name() const noexcept override { return "aclrtResetEvent"; }

private:
    std::shared_ptr<Event> event_;
    uint64_t generation_;
};

void observe_event_waited(const Event& event) {
    if (!aclcpu::instrument::active()) return;
    aclcpu::instrument::notify([&](Observer& o) { o.on_host_waited_event(&event); });
}

aclError synchronize_event(aclrtEvent handle, int32_t timeoutMs, const char* api) {
    if (aclError status = check_timeout(timeoutMs, api); status != ACL_SUCCESS) return status;
    const ApiScope scope(api);
    std::shared_ptr<Event> event;
    if (aclError status = Runtime::instance().resolve_event(handle, api, event); status != ACL_SUCCESS) return status;
    const Event::Capture capture = event->capture();
    if (capture.progress && !capture.progress->counter().wait_until(capture.count, deadline_after(timeoutMs))) {
        return aclcpu::detail::runtime_error(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, "%s: event %p not reached within %d ms",
                                             api, handle, timeoutMs);
    }
    observe_event_waited(*event);
    return ACL_SUCCESS;
}

aclError create_event(aclrtEvent* event, uint32_t flag, const char* api) {
    if (event == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: event is null", api);
    if ((flag & ~kKnownEventFlags) != 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown flag bits 0x%x", api, flag & ~kKnownEventFlags);
    }
    return Runtime::instance().create_event(flag, event);
}

}  // namespace

extern "C" {

aclError aclrtCreateEvent(aclrtEvent* event) { return create_event(event, 0, "aclrtCreateEvent"); }

aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag) {
    return create_event(event, flag, "aclrtCreateEventWithFlag");
}

aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag) {
    return create_event(event, flag, "aclrtCreateEventExWithFlag");
}

aclError aclrtDestroyEvent(aclrtEvent event) {
    if (event == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtDestroyEvent: event is null");
    return Runtime::instance().destroy_event(event);
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
    const ApiScope scope("aclrtRecordEvent");
    std::shared_ptr<Event> recorded;
    std::shared_ptr<Stream> target;
    if (aclError status = resolve_event_and_stream("aclrtRecordEvent", event, stream, recorded, target);
        status != ACL_SUCCESS) {
        return status;
    }
    const uint64_t place = target->lane().reserve();
    const Event::Capture capture = recorded->record(*target, place);
    if (aclcpu::instrument::active()) {
        target->announce(place, plain_work("aclrtRecordEvent", "event_record"));
        aclcpu::instrument::notify([&](Observer& o) { o.on_event_record(recorded.get(), target.get(), place); });
    }
    target->lane().deliver(place, std::make_unique<RecordEventTask>(recorded, capture.generation));
    return ACL_SUCCESS;
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
    const ApiScope scope("aclrtResetEvent");
    std::shared_ptr<Event> reset;
    std::shared_ptr<Stream> target;
    if (aclError status = resolve_event_and_stream("aclrtResetEvent", event, stream, reset, target);
        status != ACL_SUCCESS) {
        return status;
    }
    target->submit(std::make_unique<ResetEventTask>(reset, reset->capture().generation),
                   [] { return plain_work("aclrtResetEvent", "event_reset"); });
    return ACL_SUCCESS;
}

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status) {
    if (status == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtQueryEvent: status is null");
    std::shared_ptr<Event> queried;
    if (aclError error = Runtime::instance().resolve_event(event, "aclrtQueryEvent", queried); error != ACL_SUCCESS) {
        return error;
    }
    *status = queried->is_complete() ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
    // An event found complete is synchronised with, as by aclrtSynchronizeEvent.
    if (*status == ACL_EVENT_STATUS_COMPLETE) observe_event_waited(*queried);
    return ACL_SUCCESS;
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status) {
    if (status == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtQueryEventStatus: status is null");
    std::shared_ptr<Event> queried;
    if (aclError error = Runtime::instance().resolve_event(event, "aclrtQueryEventStatus", queried);
        error != ACL_SUCCESS) {
        return error;
    }
    *status = queried->is_complete() ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
    if (*status == ACL_EVENT_RECORDED_STATUS_COMPLETE) observe_event_waited(*queried);
    return ACL_SUCCESS;
}

aclError aclrtSynchronizeEvent(aclrtEvent event) { return synchronize_event(event, -1, "aclrtSynchronizeEvent"); }

aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout) {
    return synchronize_event(event, timeout, "aclrtSynchronizeEventWithTimeout");
}

aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent) {
    if (ms == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtEventElapsedTime: ms is null");
    Runtime& runtime = Runtime::instance();
    std::shared_ptr<Event> start;
    std::shared_ptr<Event> end;
    if (aclError status = runtime.resolve_event(startEvent, "aclrtEventElapsedTime", start); status != ACL_SUCCESS) {
        return status;
    }
    if (aclError status = runtime.resolve_event(endEvent, "aclrtEventElapsedTime", end); status != ACL_SUCCESS) {
        return status;
    }
    if (!start->capture().progress || !end->capture().progress) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "aclrtEventElapsedTime: both events must have been recorded");
    }
    const int64_t startTime = start->timestamp();
    const int64_t endTime = end->timestamp();
    if (startTime < 0 || endTime < 0) {
        return aclcpu::detail::runtime_error(ACL_ERROR_RT_EVENT_NOT_COMPLETE,
                                             "aclrtEventElapsedTime: an event has not completed; synchronize first");
    }
    *ms = static_cast<float>(static_cast<double>(endTime - startTime) / 1e6);
    return ACL_SUCCESS;
}

}  // extern "C"
