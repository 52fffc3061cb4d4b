// acl-cpu runtime: capture rules.
#include "core/graph_capture.hpp"

#include <atomic>
#include <mutex>
#include <set>

#include "core/condition_wait.hpp"
#include "core/errors.hpp"
#include "core/graph_model.hpp"
#include "core/objects.hpp"
#include "core/runtime_state.hpp"

namespace aclcpu::detail {

namespace {

/// The running captures by mode and beginning thread.
struct CaptureCensus {
    std::atomic<int> running{0};  ///< Read without the mutex: the unsafe calls' fast path.
    std::mutex mutex;
    std::multiset<std::thread::id> globalOwners;
    std::multiset<std::thread::id> threadLocalOwners;

    /// The owners of the running captures begun in mode (none for RELAXED).
    std::multiset<std::thread::id>* owners(aclmdlRICaptureMode mode) {
        if (mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) return &globalOwners;
        if (mode == ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL) return &threadLocalOwners;
        return nullptr;
    }
};

CaptureCensus& census() {
    static CaptureCensus counts;
    return counts;
}

thread_local aclmdlRICaptureMode tThreadMode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;

}  // namespace

void count_capture(aclmdlRICaptureMode mode, std::thread::id owner) {
    CaptureCensus& counts = census();
    std::lock_guard<std::mutex> lock(counts.mutex);
    counts.running.fetch_add(1, std::memory_order_relaxed);
    if (auto* owners = counts.owners(mode)) owners->insert(owner);
}

void uncount_capture(aclmdlRICaptureMode mode, std::thread::id owner) {
    CaptureCensus& counts = census();
    std::lock_guard<std::mutex> lock(counts.mutex);
    counts.running.fetch_sub(1, std::memory_order_relaxed);
    if (auto* owners = counts.owners(mode)) owners->erase(owners->find(owner));
}

aclmdlRICaptureMode exchange_thread_capture_mode(aclmdlRICaptureMode mode) noexcept {
    const aclmdlRICaptureMode previous = tThreadMode;
    tThreadMode = mode;
    return previous;
}

aclError check_unsafe_call(const char* api, aclError code) {
    if (!any_capture_running() || tThreadMode == ACL_MODEL_RI_CAPTURE_MODE_RELAXED) return ACL_SUCCESS;
    CaptureCensus& counts = census();
    std::unique_lock<std::mutex> lock(counts.mutex);
    // CANN: a GLOBAL thread is refused while any GLOBAL capture runs or it
    // began a THREAD_LOCAL one; a THREAD_LOCAL thread while it began a
    // non-RELAXED one.
    const std::thread::id self = std::this_thread::get_id();
    const bool ownsThreadLocal = counts.threadLocalOwners.count(self) != 0;
    const bool refused = tThreadMode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL
                             ? !counts.globalOwners.empty() || ownsThreadLocal
                             : ownsThreadLocal || counts.globalOwners.count(self) != 0;
    lock.unlock();
    if (!refused) return ACL_SUCCESS;
    return runtime_error(code,
                         "%s: not permitted while a stream is captured and this thread's capture mode is not "
                         "relaxed (aclmdlRICaptureThreadExchangeMode)",
                         api);
}

bool any_capture_running() noexcept { return census().running.load(std::memory_order_relaxed) > 0; }

aclError refuse_captured_stream(const Stream& stream, const char* api) {
    // A persistent stream's recording is not a capture: CANN answers its
    // synchronisation and queries at once.
    if (!stream.is_captured() || stream.is_persistent()) return ACL_SUCCESS;
    return runtime_error(ACL_ERROR_RT_STREAM_CAPTURED,
                         "%s: stream %p is being captured into a graph; end the capture (aclmdlRICaptureEnd) first",
                         api, static_cast<const void*>(&stream));
}

aclError refuse_device_capturing(const Device& device, const char* api) {
    if (!any_capture_running()) return ACL_SUCCESS;
    for (const auto& stream : Runtime::instance().live_streams()) {
        if (&stream->device() != &device) continue;
        if (aclError status = refuse_captured_stream(*stream, api); status != ACL_SUCCESS) return status;
    }
    return ACL_SUCCESS;
}

aclError refuse_captured_event(const Event& event, const char* api) {
    std::vector<uint32_t> nodes;
    if (!any_capture_running() || !event.graph_record(nodes)) return ACL_SUCCESS;
    return runtime_error(ACL_ERROR_RT_EVENT_CAPTURED,
                         "%s: event %p was recorded in a capture that has not ended; end it (aclmdlRICaptureEnd) "
                         "first",
                         api, static_cast<const void*>(&event));
}

namespace {

/// A captured wait for an ACL_EVENT_EXTERNAL event (04-03's update pattern:
/// the model waits for an event another stream records between replays): a
/// late node that, at each replay, waits until the event's latest record has
/// completed -- a record made after the replay started included -- as the
/// device's wait on the event's flag does.  The completion of each record
/// pokes the watcher, which then tests the wait again.
aclError capture_external_wait(GraphModel& model, const std::shared_ptr<Stream>& waiter,
                               const std::shared_ptr<Event>& event, const char* api) {
    WaitCondition condition;
    condition.try_pass = [event] {
        const Event::Capture latest = event->capture();
        return latest.progress && latest.progress->completed() >= latest.count;
    };
    condition.timeout = op_wait_timeout();
    condition.task = api;
    const auto arm = [condition](LateDelivery gate) { ConditionWatcher::instance().watch(condition, std::move(gate)); };
    const std::optional<aclError> captured = model.append_late(*waiter, arm, CapturedWork{api, "event_wait", {}, {}});
    if (!captured) {
        return runtime_error(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "%s: the capture of stream %p ended meanwhile", api,
                             static_cast<void*>(waiter.get()));
    }
    if (*captured != ACL_SUCCESS) return *captured;
    event->poke_watcher_on_records();
    model.add_external_wait(event);
    return ACL_SUCCESS;
}

/// CANN's answer to an event and a stream captured by different models:
/// both captures are invalid from now on.
aclError capture_conflict(GraphModel& eventModel, GraphModel* streamModel, const char* api) {
    const char* why = "an event recorded in one capture met a stream of another capture";
    eventModel.invalidate(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, why);
    if (streamModel != nullptr) streamModel->invalidate(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, why);
    return runtime_error(ACL_ERROR_STREAM_CAPTURE_CONFLICT, "%s: %s; both captures are now invalid", api, why);
}

aclError refuse_default_stream(const char* api) {
    return runtime_error(ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
                         "%s: the default stream cannot take part in a capture; use a created stream", api);
}

/// CANN refuses IPC events (ACL_EVENT_IPC, created or opened from a handle)
/// in records and waits on a capturing stream (ApiErrorDecorator::EventRecord
/// and StreamWaitEvent, src/runtime/api/impl/api_error.cc).
aclError refuse_ipc_event(const Stream& stream, const Event& event, const char* api) {
    return runtime_error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                         "%s: stream %p is being captured, and event %p is an IPC event (ACL_EVENT_IPC), which a "
                         "capture does not take",
                         api, static_cast<const void*>(&stream), static_cast<const void*>(&event));
}

}  // namespace

aclError record_event_in_capture(Event& event, const std::shared_ptr<Stream>& stream, const char* api,
                                 bool& handled) {
    handled = false;
    if (!any_capture_running()) return ACL_SUCCESS;  // The path of every event call outside captures.
    std::vector<uint32_t> earlier;
    const std::shared_ptr<GraphModel> eventModel = event.graph_record(earlier);
    const std::shared_ptr<GraphModel> streamModel = stream->capturing_model();
    handled = eventModel || streamModel;
    if (!handled) return ACL_SUCCESS;
    if (stream->is_default()) return refuse_default_stream(api);
    if (event.ipc_state()) return refuse_ipc_event(*stream, event, api);
    if (eventModel && eventModel != streamModel) return capture_conflict(*eventModel, streamModel.get(), api);
    if (!event.capturable() && streamModel->origin() == GraphModel::Origin::kCapture) {
        return runtime_error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                             "%s: stream %p is being captured, and only events made by aclrtCreateEventExWithFlag "
                             "can be recorded in a capture",
                             api, static_cast<void*>(stream.get()));
    }
    std::vector<uint32_t> nodes;
    if (aclError refused = streamModel->record(*stream, nodes); refused != ACL_SUCCESS) return refused;
    event.record_in_graph(Event::GraphRecord{streamModel, std::move(nodes)});
    return ACL_SUCCESS;
}

aclError wait_event_in_capture(const std::shared_ptr<Stream>& waiter, const std::shared_ptr<Event>& event,
                               const char* api, bool& handled) {
    handled = false;
    if (!any_capture_running()) return ACL_SUCCESS;  // The path of every event call outside captures.
    std::vector<uint32_t> nodes;
    const std::shared_ptr<GraphModel> eventModel = event->graph_record(nodes);
    const std::shared_ptr<GraphModel> waiterModel = waiter->capturing_model();
    handled = eventModel || waiterModel;
    if (!handled) return ACL_SUCCESS;
    if (waiter->is_default()) return refuse_default_stream(api);
    if (eventModel) {
        if (eventModel->origin() == GraphModel::Origin::kBuild && waiterModel != eventModel) {
            return runtime_error(ACL_ERROR_RT_STREAM_MODEL,
                                 "%s: event %p was recorded on a stream of model %u, which is being built; only the "
                                 "streams bound to that model can wait for it",
                                 api, static_cast<void*>(event.get()), eventModel->id());
        }
        if (waiterModel && waiterModel != eventModel) return capture_conflict(*eventModel, waiterModel.get(), api);
        return eventModel->wait(waiter, nodes, api);
    }
    if (event->ipc_state()) return refuse_ipc_event(*waiter, *event, api);
    if ((event->flags() & ACL_EVENT_EXTERNAL) != 0) return capture_external_wait(*waiterModel, waiter, event, api);
    if (event->capture().progress) {
        return runtime_error(ACL_ERROR_RT_CAPTURE_DEPENDENCY,
                             "%s: stream %p is being captured and event %p was recorded outside the capture; a "
                             "captured wait needs its record in the same capture",
                             api, static_cast<void*>(waiter.get()), static_cast<void*>(event.get()));
    }
    if (!event->capturable() && waiterModel->origin() == GraphModel::Origin::kCapture) {
        return runtime_error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                             "%s: stream %p is being captured, and only events made by aclrtCreateEventExWithFlag "
                             "can be waited for in a capture",
                             api, static_cast<void*>(waiter.get()));
    }
    return ACL_SUCCESS;  // An event never recorded: nothing to wait for, as outside a capture.
}

aclError check_reset_in_capture(const Event& event, const Stream& stream, const char* api, bool& handled) {
    handled = false;
    if (!any_capture_running()) return ACL_SUCCESS;  // The path of every event call outside captures.
    std::vector<uint32_t> nodes;
    const std::shared_ptr<GraphModel> eventModel = event.graph_record(nodes);
    if (eventModel && stream.is_default()) {
        handled = true;
        return refuse_default_stream(api);
    }
    const bool external = (event.flags() & ACL_EVENT_EXTERNAL) != 0;
    if (!stream.is_captured() || external || eventModel == stream.capturing_model()) return ACL_SUCCESS;
    handled = true;
    return runtime_error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                         "%s: stream %p is being captured and event %p was not recorded in that capture", api,
                         static_cast<const void*>(&stream), static_cast<const void*>(&event));
}

namespace {

aclError refuse_uncaptured(const Stream& stream, const char* api) {
    return runtime_error(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                         "%s: the external flag is for streams being captured into a graph, and stream %p is not", api,
                         static_cast<const void*>(&stream));
}

}  // namespace

aclError record_external_in_capture(const std::shared_ptr<Event>& event, Stream& stream, const char* api) {
    const std::shared_ptr<GraphModel> model = stream.capturing_model();
    if (!model) return refuse_uncaptured(stream, api);
    model->add_external_record(event);
    return ACL_SUCCESS;
}

aclError wait_external_in_capture(const std::shared_ptr<Stream>& waiter, const std::shared_ptr<Event>& event,
                                  const char* api) {
    const std::shared_ptr<GraphModel> model = waiter->capturing_model();
    if (!model) return refuse_uncaptured(*waiter, api);
    if (!event->capturable() || (event->flags() & ACL_EVENT_SYNC) == 0) {
        return runtime_error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                             "%s: an external wait takes an event made by aclrtCreateEventExWithFlag with "
                             "ACL_EVENT_SYNC",
                             api);
    }
    return capture_external_wait(*model, waiter, event, api);
}

aclError refuse_idle_persistent(const Stream& stream, const char* api) {
    if (!stream.is_persistent() || stream.is_captured()) return ACL_SUCCESS;
    if (const std::shared_ptr<GraphModel> model = stream.bound_model()) {
        return runtime_error(ACL_ERROR_RT_STREAM_MODEL,
                             "%s: persistent stream %p belongs to model %u, whose build has ended "
                             "(aclmdlRIBuildEnd); CANN takes no more work on a model's streams after it",
                             api, static_cast<const void*>(&stream), model->id());
    }
    return runtime_error(ACL_ERROR_RT_STREAM_MODEL,
                         "%s: persistent stream %p is not bound to a model being built; its work would never run "
                         "(aclmdlRIBuildBegin, aclmdlRIBindStream)",
                         api, static_cast<const void*>(&stream));
}

}  // namespace aclcpu::detail
