// acl-cpu runtime: the objects behind aclrtContext, aclrtStream and aclrtEvent.
#pragma once

#include "core/internal.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "aclcpu/instrumentation.hpp"
#include "core/device.hpp"
#include "core/exception_hub.hpp"
#include "core/ipc_event.hpp"
#include "core/lane.hpp"

namespace aclcpu::detail {

class GraphModel;
struct CapturedWork;
struct TaskUpdate;

/// What Stream::submit returns for work that took no place in the stream's
/// lane: a graph capture took it, or an update refused it.
inline constexpr uint64_t kNoPlace = UINT64_MAX;

/// An aclrtStream: a lane of its device's flow graph plus the stream's
/// attributes.  The default stream of a context is a Stream too; the user
/// addresses it as nullptr.
class Stream {
public:
    Stream(Device& device, StreamLane* lane, uint32_t flags, bool isDefault)
        : device_(device), lane_(lane), flags_(flags), isDefault_(isDefault) {
        lane_->bind(this);
    }
    ~Stream();
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;

    Device& device() const noexcept { return device_; }
    StreamLane& lane() const noexcept { return *lane_; }
    uint32_t flags() const noexcept { return flags_; }
    bool is_default() const noexcept { return isDefault_; }
    /// A stream made with ACL_STREAM_PERSISTENT: its work waits in a model
    /// (aclmdlRIBindStream) instead of running.
    bool is_persistent() const noexcept { return (flags_ & ACL_STREAM_PERSISTENT) != 0; }
    /// The stream id: unique among the device's live streams.
    int32_t id() const noexcept { return lane_->id(); }
    /// The creation priority (aclrtStreamGetPriority): aclrtSetStreamAttribute
    /// changes the scheduling priority only.
    uint32_t priority() const noexcept { return lane_->priority(); }

    /// Enqueues task behind everything submitted so far and stores its place
    /// in *placed (when given); while observers are installed they receive
    /// describe(), a WorkInfo (or a reference to one) built only then.  While
    /// the stream is captured the task becomes a node of the capturing model
    /// instead (*placed: kNoPlace), or is refused with CANN's code, reported
    /// (GraphModel::append); while it updates a task group, a kernel becomes
    /// the replacement of the group's next kernel (see redirect()).
    template <typename Describe>
    [[nodiscard]] aclError submit(std::unique_ptr<DeviceTask> task, Describe&& describe, uint64_t* placed = nullptr) {
        if (placed != nullptr) *placed = kNoPlace;
        if (redirect_.load(std::memory_order_acquire) != 0) {
            std::optional<aclError> redirected;
            if (!instrument::active()) {
                redirected = redirect(task, nullptr);
            } else {
                decltype(auto) described = describe();
                redirected = redirect(task, &static_cast<const instrument::WorkInfo&>(described));
            }
            if (redirected) return *redirected;
        }
        const uint64_t place = lane_->reserve();
        if (!isDefault_) remember_thread_task(place);  // aclrtGetThreadLastTaskId counts created streams only.
        if (instrument::active()) announce(place, describe());
        lane_->deliver(place, std::move(task));
        if (placed != nullptr) *placed = place;
        return ACL_SUCCESS;
    }
    /// Tells observers that `work` takes `place` (reserved, not yet delivered).
    void announce(uint64_t place, const instrument::WorkInfo& work) const;

    /// Waits for the work submitted before the call; on success returns the
    /// stream's sticky error (reporting its message), on timeout `timeoutCode`.
    aclError synchronize(ProgressCounter::Clock::time_point deadline, aclError timeoutCode);
    /// synchronize(), and then observers learn that the host waited for the
    /// work submitted before the call (aclrtSynchronizeStream's order).
    aclError synchronize_observed(ProgressCounter::Clock::time_point deadline, aclError timeoutCode);
    /// Waits for all work submitted so far and returns how many items that is.
    uint64_t drain();
    /// aclrtStreamAbort: the work queued so far is discarded and the waits
    /// among it pass (StreamLane::discard_queued), and the host waits in
    /// progress on the stream -- synchronisations of the stream, of its
    /// device, of events recorded on it -- return ACL_ERROR_RT_STREAM_ABORT,
    /// as CANN's wait loops do once the stream is in abort state.
    void abort();
    /// ACL_STREAM_STATUS_COMPLETE when idle; the sticky error if one is pending.
    aclError query(aclrtStreamStatus& status);

    /// True while a graph capture takes the stream's work (one relaxed load:
    /// the submission path's check).
    bool is_captured() const noexcept { return (redirect_.load(std::memory_order_acquire) & kCaptured) != 0; }
    /// The model capturing the stream (nullptr: none).
    std::shared_ptr<GraphModel> capturing_model() const;
    /// Work that waits for something outside the device (a host call, a
    /// condition) submitted while the stream is captured: becomes a late node
    /// of the capturing model, armed at each replay (GraphModel::append_late),
    /// and returns ACL_SUCCESS, or is refused with CANN's code (reported).
    /// Nothing when the stream is not captured, or its capture ended
    /// meanwhile: the caller then enqueues the work as usual.
    /// Any thread; the node takes its place in the order of the calls made
    /// on the stream, as submit() does.
    std::optional<aclError> capture_late(std::function<void(LateDelivery)> arm, CapturedWork work);
    /// Called by the model as the stream joins (model) or leaves (nullptr) a capture.
    void set_capturing_model(std::shared_ptr<GraphModel> model);
    /// The model a persistent stream is bound to (aclmdlRIBindStream ..
    /// aclmdlRIUnbindStream; nullptr: none).  While the model is being built
    /// it is also the stream's capturing_model().
    std::shared_ptr<GraphModel> bound_model() const;
    void set_bound_model(const std::shared_ptr<GraphModel>& model);
    /// The task-group update the stream is in (aclmdlRICaptureTaskUpdateBegin
    /// .. End; nullptr: none).
    std::shared_ptr<TaskUpdate> task_update() const;
    void set_task_update(std::shared_ptr<TaskUpdate> update);

    /// The thread bound by aclrtSubscribeReport (0: none).
    uint64_t report_thread() const noexcept { return reportThread_.load(std::memory_order_acquire); }
    void set_report_thread(uint64_t thread) noexcept { reportThread_.store(thread, std::memory_order_release); }
    /// The thread bound by aclrtSubscribeHostFunc (0: none).
    uint64_t host_func_thread() const noexcept { return hostFuncThread_.load(std::memory_order_acquire); }
    void set_host_func_thread(uint64_t thread) noexcept { hostFuncThread_.store(thread, std::memory_order_release); }

    /// Attributes kept for the programs that set and read them back; no
    /// emulated operator consults them (aclrtSetStreamAttribute).
    enum class Setting { kOverflowCheck, kUserCustomTag, kCacheOpInfo, kCount };
    uint32_t setting(Setting which) const noexcept {
        return settings_[static_cast<size_t>(which)].load(std::memory_order_relaxed);
    }
    void set_setting(Setting which, uint32_t value) noexcept {
        settings_[static_cast<size_t>(which)].store(value, std::memory_order_relaxed);
    }

    /// Core limits by aclrtDevResLimitType code (0: none set on the stream).
    static constexpr size_t kResourceKinds = 2;
    uint32_t resource_limit(size_t kind) const noexcept { return resourceLimits_.at(kind).load(std::memory_order_relaxed); }
    void set_resource_limit(size_t kind, uint32_t value) noexcept {
        resourceLimits_.at(kind).store(value, std::memory_order_relaxed);
    }

private:
    /// The sticky error if its failing item is among the first `completed`.
    aclError take_sticky_error(uint64_t completed);
    /// Work submitted while the stream is captured or updates a task group:
    /// the submission's status when the capturing model took task (observed
    /// as *work, or not observed) or refused it, or the update refused it;
    /// nothing to enqueue task as usual -- which an update has replaced by
    /// the task that installs it.
    std::optional<aclError> redirect(std::unique_ptr<DeviceTask>& task, const instrument::WorkInfo* work);
    /// Sets or clears a redirection bit (captureMutex_ held).
    void set_redirect(uint8_t bit, bool on) noexcept;

    Device& device_;
    StreamLane* lane_;
    const uint32_t flags_;
    const bool isDefault_;
    static constexpr uint8_t kCaptured = 1;
    static constexpr uint8_t kUpdating = 2;
    std::atomic<uint8_t> redirect_{0};  ///< kCaptured | kUpdating: one relaxed load on the submission path.
    mutable std::mutex captureMutex_;
    std::shared_ptr<GraphModel> capturingModel_;  ///< Guarded by captureMutex_.
    std::shared_ptr<TaskUpdate> taskUpdate_;      ///< Guarded by captureMutex_.
    std::weak_ptr<GraphModel> boundModel_;        ///< Guarded by captureMutex_.
    std::atomic<uint64_t> reportThread_{0};
    std::atomic<uint64_t> hostFuncThread_{0};
    std::array<std::atomic<uint32_t>, static_cast<size_t>(Setting::kCount)> settings_{};
    std::array<std::atomic<uint32_t>, kResourceKinds> resourceLimits_{};
};

/// An aclrtContext: a device and a default stream.  Each device has one
/// default context, shared by the threads that aclrtSetDevice it; more come
/// from aclrtCreateContext.
class Context {
public:
    Context(Device& device, bool isDefault) : device_(device), isDefault_(isDefault) {}

    Device& device() const noexcept { return device_; }
    bool is_default() const noexcept { return isDefault_; }
    const std::shared_ptr<Stream>& default_stream() const noexcept { return defaultStream_; }
    void set_default_stream(std::shared_ptr<Stream> stream) { defaultStream_ = std::move(stream); }

    /// Options by aclSysParamOpt code (checked by the caller when set).
    void set_option(int64_t option, int64_t value);
    bool option(int64_t option, int64_t& value) const;

private:
    Device& device_;
    const bool isDefault_;
    std::shared_ptr<Stream> defaultStream_;
    mutable std::mutex optionsMutex_;
    std::map<int64_t, int64_t> options_;
};

/// An aclrtEvent: the point of one stream's progress captured by its last
/// record, and the time at which the device reached it.
class Event {
public:
    /// What the last aclrtRecordEvent captured.
    struct Capture {
        std::shared_ptr<LaneProgress> progress;  ///< nullptr: never recorded (an empty set of work).
        uint64_t count = 0;                      ///< Complete once progress reaches count.
        uint64_t generation = 0;
    };

    /// An event; an IPC event (ACL_EVENT_IPC, created or opened from a
    /// handle) also gets the state it shares with other processes, which
    /// then holds its records instead of the capture.
    Event(Device& device, uint32_t flags, std::shared_ptr<IpcEventState> ipc = nullptr)
        : device_(device), flags_(flags), id_(next_id()), ipc_(std::move(ipc)) {}
    ~Event() { device_.release_event(); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;

    Device& device() const noexcept { return device_; }
    uint32_t flags() const noexcept { return flags_; }
    /// aclrtGetEventId: unique among the events of the process.
    uint32_t id() const noexcept { return id_; }
    /// Whether a graph capture may record the event: CANN's events made by
    /// aclrtCreateEventExWithFlag.
    bool capturable() const noexcept { return capturable_.load(std::memory_order_relaxed); }
    void set_capturable() noexcept { capturable_.store(true, std::memory_order_relaxed); }
    /// The cross-process state of an IPC event; nullptr for other events.
    const std::shared_ptr<IpcEventState>& ipc_state() const noexcept { return ipc_; }
    /// From now on the completion of each record of the event -- the latest
    /// one made so far included -- pokes the ConditionWatcher: a replayed
    /// graph's external wait for the event (graph_capture.cpp) is tested
    /// again then instead of polling.  Any thread; a record made concurrently
    /// pokes too.
    void poke_watcher_on_records();

    /// Notes that a stream waits for this event: its wait is done once that
    /// stream's progress reaches `count` (aclrtQueryEventWaitStatus).
    void add_wait(std::shared_ptr<LaneProgress> progress, uint64_t count);
    /// True when every wait noted so far is done.
    bool waits_complete() const;

    /// Captures the work of stream up to and including the record task at
    /// `place`; the returned generation identifies this record to its task.
    /// An IPC event's record becomes its shared state's latest generation
    /// instead (the returned capture is then not kept).
    Capture record(Stream& stream, uint64_t place);
    /// Notes the time the record `generation` ran (not kept for IPC events,
    /// whose timestamps CANN does not offer).
    void stamp(uint64_t generation, int64_t nanoseconds);
    /// Forgets the capture if generation is still the latest (aclrtResetEvent);
    /// true if it did.
    bool reset(uint64_t generation);
    /// The capture of the latest record; always empty for an IPC event.
    Capture capture() const;

    /// A record made on a stream under graph capture: the model and the
    /// nodes a wait for the record follows.  The latest record wins, whether
    /// captured or not.
    struct GraphRecord {
        std::weak_ptr<GraphModel> model;
        std::vector<uint32_t> nodes;
    };
    void record_in_graph(GraphRecord record);
    /// The latest record if it was made under capture by a model still capturing.
    std::shared_ptr<GraphModel> graph_record(std::vector<uint32_t>& nodes) const;
    /// For an IPC event: its latest record, in whichever process, has completed.
    bool is_complete() const;
    /// Nanosecond timestamp of the latest record, or -1 if it has not run.
    int64_t timestamp() const;

private:
    static uint32_t next_id() noexcept;
    /// Drops the waits that are done, so that waits_ stays small (mutex_ held).
    void forget_done_waits() const;

    Device& device_;
    const uint32_t flags_;
    const uint32_t id_;
    const std::shared_ptr<IpcEventState> ipc_;
    std::atomic<bool> capturable_{false};
    std::atomic<bool> pokesWatcher_{false};  ///< Set by poke_watcher_on_records().
    mutable std::mutex mutex_;
    Capture capture_;
    GraphRecord graphRecord_;
    int64_t timestamp_ = -1;
    /// Waits not yet seen done, as (waiting lane's progress, count).
    mutable std::vector<std::pair<std::shared_ptr<LaneProgress>, uint64_t>> waits_;
};

}  // namespace aclcpu::detail
