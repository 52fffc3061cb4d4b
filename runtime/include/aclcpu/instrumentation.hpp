// acl-cpu private interface: how the runtime tells observers (the timeline
// trace, the stream race checker) what a host program does.
//
// The runtime calls the hooks below at fixed points; with no observer
// installed each hook costs one well-predicted branch.  Observers are
// installed by the runtime at aclInit (from ACLCPU_TRACE / ACLCPU_CHECK or
// the aclInit JSON) and removed at the matching aclFinalize.
//
// Identities: a stream is named by its handle value (the default stream of a
// context by that context's default-stream object), an event by its handle;
// a "place" is the position of a work item in its stream (0, 1, 2, ...),
// which is also the stream-order timestamp the race checker needs.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "aclcpu/device_task.hpp"

namespace aclcpu::instrument {

using StreamId = const void*;
using EventId = const void*;

/// What a work item reads or writes: one contiguous byte range.
struct MemoryAccess {
    enum class Kind { kRead, kWrite };
    const void* begin = nullptr;
    uint64_t bytes = 0;
    Kind kind = Kind::kRead;
    const char* role = "";  ///< "input 0", "output 1", "workspace", "src", "dst", ...
};

/// A work item as submitted.  `accesses` are valid during the call only.
struct WorkInfo {
    const char* name = "";      ///< "aclnnSoftplusBackward", "aclrtMemcpyAsync", ...
    /// "op", "memcpy", "memset", "event_record", "event_wait", "event_reset",
    /// "callback", "host_func", "host_wait" (the place after a blocking
    /// callback or host function, reached when the host call returns), "task"
    /// (any other DeviceTask).
    const char* category = "";
    const MemoryAccess* accesses = nullptr;
    size_t accessCount = 0;
    /// Extra trace arguments as a JSON object body without braces (dtypes,
    /// shapes, bytes, blockDim, workspace size); may be empty.
    std::string details;
};

/// A node of a captured graph (an aclmdlRI) as observers see it.
struct GraphNodeInfo {
    WorkInfo work;                    ///< The node's work as its capture submitted it.
    int32_t stream = 0;               ///< The id of the stream it was captured on.
    const uint32_t* after = nullptr;  ///< The nodes it follows (indices into the model's nodes).
    size_t afterCount = 0;
    /// In a model with control flow (built on persistent streams): the
    /// control node whose choice alone leads to this node (-1: none) and
    /// which choice.  Nodes behind different choices of one control node
    /// never run in the same replay.
    int64_t choiceNode = -1;
    int32_t choice = -1;
};

/// Receives the runtime's events.  Hooks marked "host" run on the calling
/// host thread inside the API call; hooks marked "device" run on a device
/// worker.  Every hook may be called concurrently from several threads.
class Observer {
public:
    virtual ~Observer() = default;

    /// host: an API call starts / ends (the calls that enqueue, synchronise,
    /// allocate, free or copy).
    virtual void on_api_begin(const char* /*api*/) {}
    virtual void on_api_end(const char* /*api*/) {}

    /// host: work takes place `place` of stream `stream` on device `device`.
    virtual void on_submit(int32_t /*device*/, StreamId /*stream*/, uint64_t /*place*/, const WorkInfo& /*work*/) {}
    /// device: the item at `place` starts / ends running on the calling worker.
    virtual void on_work_begin(StreamId /*stream*/, uint64_t /*place*/) {}
    virtual void on_work_end(StreamId /*stream*/, uint64_t /*place*/) {}
    /// device: block `block` of `blockDim` of the running operator starts /
    /// ends on the calling worker.
    virtual void on_block_begin(const char* /*op*/, int64_t /*block*/, int64_t /*blockDim*/) {}
    virtual void on_block_end(const char* /*op*/, int64_t /*block*/, int64_t /*blockDim*/) {}

    /// host: `event` now captures `stream` up to and including `place`.
    virtual void on_event_record(EventId /*event*/, StreamId /*stream*/, uint64_t /*place*/) {}
    /// host: work after `place` on `waiter` waits for what `event` captured.
    virtual void on_event_wait(StreamId /*waiter*/, uint64_t /*place*/, EventId /*event*/) {}
    /// device: the event forgets its capture (the stream reached an
    /// aclrtResetEvent, and the event was not recorded again since).
    virtual void on_event_reset(EventId /*event*/) {}
    /// any: the gated place `place` of `stream` (category "gate") opens
    /// because `by` reached its gated place `byPlace` -- the last rank to come
    /// to a collective releases the others.  Called on the opening thread
    /// before the opened place runs; `by` may be on another device.
    virtual void on_gate_opened_by(StreamId /*stream*/, uint64_t /*place*/, StreamId /*by*/, uint64_t /*byPlace*/) {}

    /// host: aclmdlRICaptureEnd built `model` of device `device`: `count`
    /// nodes (valid during the call), replayed later as one work item of the
    /// executing stream (category "graph_launch", carrying every node's
    /// accesses) followed by a place the replay's end delivers ("graph").
    /// Replays of one model are ordered: each records the model as an event
    /// (on_event_record with the model as EventId) and the next waits for it.
    virtual void on_graph_built(int32_t /*device*/, const void* /*model*/, const GraphNodeInfo* /*nodes*/,
                                size_t /*count*/) {}
    /// host: `model` is destroyed (its replays are over).
    virtual void on_graph_destroyed(const void* /*model*/) {}
    /// device: node `node` of `model` starts / ends running on the calling worker.
    virtual void on_graph_node_begin(const void* /*model*/, uint32_t /*node*/) {}
    virtual void on_graph_node_end(const void* /*model*/, uint32_t /*node*/) {}

    /// host: the calling thread has waited for `stream` up to `place`
    /// (synchronize, a pageable copy), for an event, or for a whole device.
    virtual void on_host_waited_stream(StreamId /*stream*/, uint64_t /*place*/) {}
    virtual void on_host_waited_event(EventId /*event*/) {}
    virtual void on_host_waited_device(int32_t /*device*/) {}

    /// host: the calling thread itself reads or writes device memory
    /// (aclrtMemcpy, aclrtMemset) in API call `api`.
    virtual void on_host_access(const MemoryAccess& /*access*/, const char* /*api*/) {}
    /// host: device block [begin, begin+bytes) is freed.
    virtual void on_free(const void* /*begin*/, uint64_t /*bytes*/) {}
    /// any: device `device`'s pool now has `bytes` in use.
    virtual void on_pool_usage(int32_t /*device*/, uint64_t /*bytes*/) {}
    /// host: the runtime is finalising; flush everything.
    virtual void on_finalize() {}
};

namespace detail {
using ObserverList = std::vector<std::shared_ptr<Observer>>;
/// The installed list as the hooks read it (nullptr: none); see install().
ACLCPU_EXPORT extern std::atomic<const ObserverList*> gPublishedObservers;
}  // namespace detail

/// True when at least one observer is installed (the hooks' fast path: one
/// relaxed load, inlined).
inline bool active() noexcept {
    return detail::gPublishedObservers.load(std::memory_order_relaxed) != nullptr;
}

/// Where the calling thread works for a device: the device's id and the
/// thread's slot in the device's worker arena ("AI Core worker <slot>").
/// Known for threads of a device opened while an observer was installed;
/// false on host threads and otherwise.
ACLCPU_EXPORT bool calling_worker(int32_t& device, int& slot) noexcept;

/// aclcpu::enqueue for a task that observers see as `work` (its name,
/// category, accesses and details); build `work` only when active().
ACLCPU_EXPORT aclError enqueue(aclrtStream stream, std::unique_ptr<DeviceTask> task, const WorkInfo& work);

/// Calls fn(observer) for every installed observer.
template <typename Fn>
void notify(Fn&& fn);

/// Installs / removes an observer (the runtime does it at aclInit /
/// aclFinalize; tests may install their own).  Hooks read the observer list
/// without a lock, so uninstall() must not race with hooks that may still
/// reach the observer: call it while no device work is in flight and no
/// other host thread is inside an API call (aclFinalize drains every device
/// first).
ACLCPU_EXPORT void install(std::shared_ptr<Observer> observer);
ACLCPU_EXPORT void uninstall(const Observer* observer);

/// Scope of an API call: on_api_begin / on_api_end around it.
class ApiScope {
public:
    explicit ApiScope(const char* api) : api_(active() ? api : nullptr) {
        if (api_ != nullptr) notify([this](Observer& o) { o.on_api_begin(api_); });
    }
    ~ApiScope() {
        if (api_ != nullptr) notify([this](Observer& o) { o.on_api_end(api_); });
    }
    ApiScope(const ApiScope&) = delete;
    ApiScope& operator=(const ApiScope&) = delete;

private:
    const char* api_;
};

namespace detail {
/// The installed observers, as an immutable snapshot replaced on install.
ACLCPU_EXPORT std::shared_ptr<const ObserverList> observers() noexcept;
/// The current snapshot without taking ownership (one atomic load: the
/// hooks' path); nullptr when none is installed.  Valid until the next
/// install() or uninstall().
ACLCPU_EXPORT const ObserverList* current_observers() noexcept;
}  // namespace detail

template <typename Fn>
void notify(Fn&& fn) {
    const detail::ObserverList* snapshot = detail::current_observers();
    if (snapshot == nullptr) return;
    for (const auto& observer : *snapshot) fn(*observer);
}

}  // namespace aclcpu::instrument
