// acl-cpu runtime API: events (acl_rt.h).
#include <chrono>

#include "acl/acl_rt.h"
#include "aclcpu/instrumentation.hpp"
#include "api/arguments.hpp"
#include "core/condition_wait.hpp"
#include "core/errors.hpp"
#include "core/graph_capture.hpp"
#include "core/ipc_event.hpp"
#include "core/runtime_state.hpp"
#include "observe/runtime_hooks.hpp"

using aclcpu::DeviceTask;
using aclcpu::api::resolve_event_and_stream;
using aclcpu::api::check_timeout;
using aclcpu::detail::deadline_after;
using aclcpu::detail::enqueue_event_wait;
using aclcpu::detail::Event;
using aclcpu::detail::IpcEventState;
using aclcpu::detail::param_error;
using aclcpu::detail::plain_work;
using aclcpu::detail::refuse_captured_event;
using aclcpu::detail::ProgressCounter;
using aclcpu::detail::Runtime;
using aclcpu::detail::Stream;
using aclcpu::detail::wait_timeout;
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

/// Returns an event to the "not recorded" state once the stream reaches it:
/// the record current at the reset's submission, or -- for a captured reset
/// of an ACL_EVENT_EXTERNAL event, which each replay runs -- whichever record
/// is latest when it runs.
class ResetEventTask final : public DeviceTask {
public:
    static constexpr uint64_t kLatestRecord = UINT64_MAX;
    ResetEventTask(std::shared_ptr<Event> event, uint64_t generation)
        : event_(std::move(event)), generation_(generation) {}
    aclError run() noexcept override {
        const uint64_t generation = generation_ == kLatestRecord ? event_->capture().generation : generation_;
        if (event_->reset(generation) && aclcpu::instrument::active()) {
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

/// Waits for the latest record of an IPC event, whichever process issued it.
aclError synchronize_ipc_event(const Event& event, aclrtEvent handle, int32_t timeoutMs, const char* api) {
    IpcEventState& state = *event.ipc_state();
    switch (state.wait(state.latest(), deadline_after(timeoutMs))) {
    case IpcEventState::WaitResult::kComplete:
        observe_event_waited(event);
        return ACL_SUCCESS;
    case IpcEventState::WaitResult::kTimedOut:
        return aclcpu::detail::runtime_error(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
                                             "%s: event %p not reached within %d ms", api, handle, timeoutMs);
    case IpcEventState::WaitResult::kAbandoned:
        break;
    }
    return aclcpu::detail::runtime_error(ACL_ERROR_RT_IPC_ERROR,
                                         "%s: the process that recorded IPC event %p exited before the record "
                                         "completed",
                                         api, handle);
}

aclError synchronize_event(aclrtEvent handle, int32_t timeoutMs, const char* api) {
    if (aclError status = check_timeout(timeoutMs, api); status != ACL_SUCCESS) return status;
    const ApiScope scope(api);
    std::shared_ptr<Event> event;
    if (aclError status = Runtime::instance().resolve_event(handle, api, event); status != ACL_SUCCESS) return status;
    if (aclError status = refuse_captured_event(*event, api); status != ACL_SUCCESS) return status;
    if (event->ipc_state()) return synchronize_ipc_event(*event, handle, timeoutMs, api);
    const Event::Capture capture = event->capture();
    if (capture.progress) {
        // CANN's Event::Synchronize waits on the recording stream, and that wait ends in its abort state.
        const aclcpu::detail::ProgressCounter& counter = capture.progress->counter();
        switch (counter.wait(capture.count, deadline_after(timeoutMs), counter.aborts())) {
            case aclcpu::detail::WaitEnd::kReached:
                break;
            case aclcpu::detail::WaitEnd::kTimedOut:
                return aclcpu::detail::runtime_error(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
                                                     "%s: event %p not reached within %d ms", api, handle, timeoutMs);
            case aclcpu::detail::WaitEnd::kAborted:
                return aclcpu::detail::runtime_error(ACL_ERROR_RT_STREAM_ABORT,
                                                     "%s: aclrtStreamAbort of the stream that recorded event %p ended "
                                                     "the wait",
                                                     api, handle);
        }
    }
    observe_event_waited(*event);
    return ACL_SUCCESS;
}

/// CANN refuses IPC events (ACL_EVENT_IPC, created or opened) in reset,
/// aclrtQueryEvent, wait status, elapsed time, timestamps and ids
/// (07_event_management.md, aclrtCreateEventExWithFlag).
aclError reject_ipc(const Event& event, const char* api) {
    if (!event.ipc_state()) return ACL_SUCCESS;
    return aclcpu::detail::runtime_error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                         "%s: event %p is an IPC event (ACL_EVENT_IPC), which this call does not take",
                                         api, static_cast<const void*>(&event));
}

/// Resolves handle as an event that is not an IPC event.
aclError resolve_non_ipc_event(aclrtEvent handle, const char* api, std::shared_ptr<Event>& event) {
    if (aclError status = Runtime::instance().resolve_event(handle, api, event); status != ACL_SUCCESS) return status;
    return reject_ipc(*event, api);
}

/// Resolves handle as an event whose state the host may read now: not an
/// IPC event, and not recorded in a capture that is still running.
aclError resolve_observable_event(aclrtEvent handle, const char* api, std::shared_ptr<Event>& event) {
    if (aclError status = resolve_non_ipc_event(handle, api, event); status != ACL_SUCCESS) return status;
    return refuse_captured_event(*event, api);
}

aclError record_event(aclrtEvent event, aclrtStream stream, const char* api) {
    const ApiScope scope(api);
    std::shared_ptr<Event> recorded;
    std::shared_ptr<Stream> target;
    if (aclError status = resolve_event_and_stream(api, event, stream, recorded, target); status != ACL_SUCCESS) {
        return status;
    }
    bool captured = false;
    if (aclError status = aclcpu::detail::record_event_in_capture(*recorded, target, api, captured); captured) {
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

/// CANN's flags of a record or a wait: the default one, or the external
/// one (`external` set), which graph captures take (04-03_task_update.md).
aclError read_flag(uint32_t flag, uint32_t defaultFlag, uint32_t externalFlag, const char* api, bool& external) {
    external = flag == externalFlag;
    if (external || flag == defaultFlag) return ACL_SUCCESS;
    return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown flag 0x%x", api, flag);
}

aclError stream_wait_event(aclrtStream stream, aclrtEvent event, std::chrono::milliseconds timeout, const char* api) {
    const ApiScope scope(api);
    std::shared_ptr<Event> awaited;
    std::shared_ptr<Stream> waiter;
    if (aclError status = resolve_event_and_stream(api, event, stream, awaited, waiter); status != ACL_SUCCESS) {
        return status;
    }
    return enqueue_event_wait(waiter, awaited, timeout, api);
}

aclError create_event(aclrtEvent* event, uint32_t flag, const char* api) {
    if (event == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: event is null", api);
    if ((flag & ~kKnownEventFlags) != 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown flag bits 0x%x", api, flag & ~kKnownEventFlags);
    }
    if ((flag & ACL_EVENT_IPC) == 0) return Runtime::instance().create_event(flag, event);
    if (flag != ACL_EVENT_IPC) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID,
                           "%s: flag 0x%x: ACL_EVENT_IPC cannot be combined with other flags", api, flag);
    }
    std::shared_ptr<IpcEventState> shared;
    if (aclError status = IpcEventState::create(api, shared); status != ACL_SUCCESS) return status;
    return Runtime::instance().create_event(flag, event, std::move(shared));
}

}  // namespace

extern "C" {

aclError aclrtCreateEvent(aclrtEvent* event) { return create_event(event, 0, "aclrtCreateEvent"); }

aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag) {
    return create_event(event, flag, "aclrtCreateEventWithFlag");
}

aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag) {
    constexpr const char* kApi = "aclrtCreateEventExWithFlag";
    if (aclError status = create_event(event, flag, kApi); status != ACL_SUCCESS) return status;
    // CANN's captures record only these events.
    std::shared_ptr<Event> created;
    if (aclError status = Runtime::instance().resolve_event(*event, kApi, created); status != ACL_SUCCESS) return status;
    created->set_capturable();
    return ACL_SUCCESS;
}

aclError aclrtDestroyEvent(aclrtEvent event) {
    if (event == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtDestroyEvent: event is null");
    std::shared_ptr<Event> destroyed;
    if (aclError status = Runtime::instance().resolve_event(event, "aclrtDestroyEvent", destroyed);
        status != ACL_SUCCESS) {
        return status;
    }
    // Pending records may keep the event alive a while longer; its handle
    // stops opening now.
    if (destroyed->ipc_state()) destroyed->ipc_state()->withdraw();
    return Runtime::instance().destroy_event(event);
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
    return record_event(event, stream, "aclrtRecordEvent");
}

aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag) {
    constexpr const char* kApi = "aclrtRecordEventWithFlag";
    bool external = false;
    if (aclError status = read_flag(flag, ACL_EVENT_RECORD_DEFAULT, ACL_EVENT_RECORD_EXTERNAL, kApi, external);
        status != ACL_SUCCESS || !external) {
        return status != ACL_SUCCESS ? status : record_event(event, stream, kApi);
    }
    const ApiScope scope(kApi);
    std::shared_ptr<Event> recorded;
    std::shared_ptr<Stream> target;
    if (aclError status = resolve_event_and_stream(kApi, event, stream, recorded, target); status != ACL_SUCCESS) {
        return status;
    }
    return aclcpu::detail::record_external_in_capture(recorded, *target, kApi);
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
    const ApiScope scope("aclrtResetEvent");
    std::shared_ptr<Event> reset;
    std::shared_ptr<Stream> target;
    if (aclError status = resolve_event_and_stream("aclrtResetEvent", event, stream, reset, target);
        status != ACL_SUCCESS) {
        return status;
    }
    if (aclError status = reject_ipc(*reset, "aclrtResetEvent"); status != ACL_SUCCESS) return status;
    bool refused = false;
    if (aclError status = aclcpu::detail::check_reset_in_capture(*reset, *target, "aclrtResetEvent", refused);
        refused) {
        return status;
    }
    const bool replayed = target->is_captured() && (reset->flags() & ACL_EVENT_EXTERNAL) != 0;
    const uint64_t generation = replayed ? ResetEventTask::kLatestRecord : reset->capture().generation;
    return target->submit(std::make_unique<ResetEventTask>(reset, generation),
                          [] { return plain_work("aclrtResetEvent", "event_reset"); });
}

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status) {
    if (status == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtQueryEvent: status is null");
    std::shared_ptr<Event> queried;
    if (aclError error = resolve_observable_event(event, "aclrtQueryEvent", queried); error != ACL_SUCCESS) {
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
    if (aclError error = refuse_captured_event(*queried, "aclrtQueryEventStatus"); error != ACL_SUCCESS) return error;
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
    std::shared_ptr<Event> start;
    std::shared_ptr<Event> end;
    if (aclError status = resolve_observable_event(startEvent, "aclrtEventElapsedTime", start); status != ACL_SUCCESS) {
        return status;
    }
    if (aclError status = resolve_observable_event(endEvent, "aclrtEventElapsedTime", end); status != ACL_SUCCESS) {
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

aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus* status) {
    if (status == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtQueryEventWaitStatus: status is null");
    std::shared_ptr<Event> queried;
    if (aclError error = resolve_observable_event(event, "aclrtQueryEventWaitStatus", queried); error != ACL_SUCCESS) {
        return error;
    }
    *status = queried->waits_complete() ? ACL_EVENT_WAIT_STATUS_COMPLETE : ACL_EVENT_WAIT_STATUS_NOT_READY;
    return ACL_SUCCESS;
}

aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t* timestamp) {
    if (timestamp == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtEventGetTimestamp: timestamp is null");
    std::shared_ptr<Event> queried;
    if (aclError error = resolve_observable_event(event, "aclrtEventGetTimestamp", queried); error != ACL_SUCCESS) {
        return error;
    }
    if (!queried->capture().progress) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "aclrtEventGetTimestamp: event %p has not been recorded", event);
    }
    const int64_t nanoseconds = queried->timestamp();
    if (nanoseconds < 0) {
        return aclcpu::detail::runtime_error(ACL_ERROR_RT_EVENT_NOT_COMPLETE,
                                             "aclrtEventGetTimestamp: event %p has not completed; synchronize first",
                                             event);
    }
    *timestamp = static_cast<uint64_t>(nanoseconds / 1000);
    return ACL_SUCCESS;
}

aclError aclrtGetEventId(aclrtEvent event, uint32_t* eventId) {
    if (eventId == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtGetEventId: eventId is null");
    std::shared_ptr<Event> queried;
    if (aclError error = resolve_non_ipc_event(event, "aclrtGetEventId", queried); error != ACL_SUCCESS) {
        return error;
    }
    *eventId = queried->id();
    return ACL_SUCCESS;
}

aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout) {
    if (timeout < 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtStreamWaitEventWithTimeout: timeout %d is negative",
                           timeout);
    }
    return stream_wait_event(stream, event, wait_timeout(static_cast<uint32_t>(timeout)),
                             "aclrtStreamWaitEventWithTimeout");
}

aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout, uint32_t flag) {
    constexpr const char* kApi = "aclrtStreamWaitEventWithFlag";
    bool external = false;
    if (aclError status = read_flag(flag, ACL_EVENT_WAIT_DEFAULT, ACL_EVENT_WAIT_EXTERNAL, kApi, external);
        status != ACL_SUCCESS || !external) {
        return status != ACL_SUCCESS ? status : stream_wait_event(stream, event, wait_timeout(timeout), kApi);
    }
    const ApiScope scope(kApi);
    std::shared_ptr<Event> awaited;
    std::shared_ptr<Stream> waiter;
    if (aclError status = resolve_event_and_stream(kApi, event, stream, awaited, waiter); status != ACL_SUCCESS) {
        return status;
    }
    return aclcpu::detail::wait_external_in_capture(waiter, awaited, kApi);
}

aclError aclrtSetOpWaitTimeout(uint32_t timeout) {
    aclcpu::detail::set_op_wait_timeout(timeout);
    return ACL_SUCCESS;
}

aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle* handle) {
    if (handle == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtIpcGetEventHandle: handle is null");
    std::shared_ptr<Event> shared;
    if (aclError error = Runtime::instance().resolve_event(event, "aclrtIpcGetEventHandle", shared);
        error != ACL_SUCCESS) {
        return error;
    }
    if (!shared->ipc_state()) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "aclrtIpcGetEventHandle: event %p was not created with ACL_EVENT_IPC", event);
    }
    // An opened event gives back the handle it was opened with, as on CANN.
    *handle = shared->ipc_state()->handle();
    return ACL_SUCCESS;
}

aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent* event) {
    constexpr const char* kApi = "aclrtIpcOpenEventHandle";
    if (event == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: event is null", kApi);
    std::shared_ptr<IpcEventState> shared;
    if (aclError error = IpcEventState::open(handle, kApi, shared); error != ACL_SUCCESS) return error;
    return Runtime::instance().open_event(std::move(shared), event);
}

}  // extern "C"
