// acl-cpu runtime: StreamLane, the ordered oneTBB flow-graph queue behind a stream.
#pragma once

#include "core/internal.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include <oneapi/tbb/flow_graph.h>

#include "aclcpu/device_task.hpp"
#include "core/progress_counter.hpp"

namespace aclcpu::detail {

/// CANN's stream priorities: a smaller number is a higher priority; streams
/// are created (and the default stream lives) at the highest.
inline constexpr uint32_t kHighestStreamPriority = 0;
inline constexpr uint32_t kLowestStreamPriority = 7;

/// How far a lane has got: a count of completed items that outlives the lane,
/// so events recorded on a stream stay queryable after it is destroyed.
class LaneProgress {
public:
    const ProgressCounter& counter() const noexcept { return counter_; }
    /// See ProgressCounter::set_items_running.
    void set_items_running(bool running) noexcept { counter_.set_items_running(running); }
    uint64_t completed() const noexcept { return counter_.value(); }
    /// See ProgressCounter::abort_waits.
    void abort_waits() noexcept { counter_.abort_waits(); }

    /// Runs action once `count` items have completed: at once (on the calling
    /// thread) if they have, otherwise on the device worker that completes
    /// item count-1.  The action must be short and must not block.
    void when_reached(uint64_t count, std::function<void()> action);

    /// Publishes `count` completed items and runs the actions now due.
    void complete(uint64_t count);

private:
    void run_due_actions();

    ProgressCounter counter_;
    std::mutex mutex_;
    std::multimap<uint64_t, std::function<void()>> actions_;
    std::atomic<uint64_t> earliestAction_{UINT64_MAX};
};

/// The flow-graph priority of the work of a stream of CANN priority
/// `streamPriority`: a stream's lane runner, and the nodes of a captured
/// graph replayed on it.
tbb::flow::node_priority_t stream_node_priority(uint32_t streamPriority) noexcept;

/// Runs task on the calling worker: its result, or ACL_ERROR_RT_INTERNAL_ERROR
/// for an exception escaping it; on failure `detail` gets what the task
/// reported on this thread (report_error) or the exception's message.
aclError run_reporting(DeviceTask& task, std::string& detail) noexcept;

/// One entry of a lane.  A null task is a marker: it runs nothing and exists
/// to be delivered late, which is how a lane waits for an event or a
/// callback without blocking a worker.
struct LaneItem {
    uint64_t place;
    DeviceTask* task;  ///< Owned by the item until it runs.
};

class StreamLane;
class DevicePool;
class Stream;

/// The node of a replayed graph that waits, as a lane's late place does,
/// for something outside the device: a host call to return, a condition to
/// hold (see GraphModel).
class NodeGate {
public:
    virtual ~NodeGate() = default;
    /// The node completes; called once.
    virtual void open() = 0;
    /// The wait failed: the replay fails with code (before open()).
    virtual void fail(aclError code, const char* task, const std::string& detail) = 0;
};

/// A place reserved in a lane whose (empty) item someone delivers later:
/// work behind it waits until then -- or, in a replayed graph, the node
/// that waits instead.  A default-constructed one is inert.
struct LateDelivery {
    StreamLane* lane = nullptr;
    uint64_t place = 0;
    std::shared_ptr<NodeGate> node;
    /// The place is a wait the lane knows of (StreamLane::mark_wait): an
    /// abort may have passed it, and then delivering or failing it does nothing.
    bool wait = false;

    void deliver() const;
    /// Makes the waiting work fail with code (its stream's sticky error, or
    /// the replay's), to be delivered still.
    void fail(aclError code, const char* task, const std::string& detail) const;
};

/// The execution queue of a stream.
///
/// Work takes its place with reserve() at the API call (an atomic counter,
/// so places reflect the order in which the calls happened, whatever thread
/// made them).  deliver() releases items strictly in place order, straight
/// from the delivering thread, into the lane's ready queue; an item
/// delivered before its predecessors waits in the lane until they are.  A
/// place whose item is delivered later (an event wait, a blocking callback)
/// holds back everything after it without occupying a worker.
///
/// Ready items run in turns: the first item ready on an idle lane puts one
/// message to the lane's runner node, and the turn that message starts
/// runs ready items in order -- those released meanwhile too -- until the
/// queue is empty or kItemsPerTurn have run, then hands the rest to a new
/// turn.  At most one turn is pending or running, so items run one at a
/// time in place order; a busy stream costs one flow-graph message per
/// turn instead of one per item.
///
/// Priorities: a turn is a task of the runner's node priority (its
/// stream's), so among the lanes of a device that have ready items when a
/// worker becomes free, the worker serves one of the highest-priority
/// stream; a lane with a long backlog yields after each turn.  A lane is
/// built for its stream's creation priority; set_scheduling_priority()
/// moves the turns that start afterwards to another priority (a flow-graph
/// node's priority is fixed, so the lane keeps one runner per priority it
/// has been given).
///
/// Lanes are pooled by their device and reused by later streams: flow-graph
/// nodes cannot be destroyed while the graph may still touch them, and
/// reuse keeps the cost of an idle stream to one parked lane.
class StreamLane {
public:
    /// A lane of graph whose tasks access memory of pool.  `id` names it
    /// among the device's lanes; `priority` (CANN's, 0 highest) sets the
    /// flow-graph priority of the lane's runner.
    StreamLane(tbb::flow::graph& graph, DevicePool& pool, int32_t id, uint32_t priority);
    StreamLane(const StreamLane&) = delete;
    StreamLane& operator=(const StreamLane&) = delete;

    /// Names the stream this lane now serves to observers (on_work_begin/end).
    /// Call while the lane is idle, before submitting to it.
    void bind(const Stream* stream) noexcept { stream_ = stream; }
    /// The stream the lane serves (see bind).
    const Stream* stream() const noexcept { return stream_; }

    /// Takes the next `count` consecutive places and returns the first; every
    /// place must be delivered exactly once.
    uint64_t reserve(uint64_t count = 1) noexcept { return next_.fetch_add(count, std::memory_order_acq_rel); }
    void deliver(uint64_t place, std::unique_ptr<DeviceTask> task);
    /// Queues a released item to run: what deliver() does, unless a
    /// ScheduleExplorer holds the item back until it picks it.
    void forward(const LaneItem& item);

    /// Items a turn runs at most before the lane yields its worker.
    static constexpr int kItemsPerTurn = 16;

    /// Places taken so far: when progress reaches it, the lane is idle.
    uint64_t submitted() const noexcept { return next_.load(std::memory_order_acquire); }
    const std::shared_ptr<LaneProgress>& progress() const noexcept { return progress_; }
    DevicePool& pool() const noexcept { return pool_; }
    int32_t id() const noexcept { return id_; }
    /// The priority the lane was built for: its stream's creation priority.
    uint32_t priority() const noexcept { return priority_; }
    /// The priority the lane's turns run at (CANN's, 0 highest).
    uint32_t scheduling_priority() const noexcept { return schedulingPriority_.load(std::memory_order_relaxed); }
    /// Makes the turns that start from now on run at `priority` (at most
    /// kLowestStreamPriority): a turn already queued or running keeps the
    /// priority it was queued at, and the items keep their order.
    void set_scheduling_priority(uint32_t priority);

    /// The lane whose task the calling thread is running (nullptr outside tasks).
    static StreamLane* running() noexcept;
    /// The name of the task this lane is running, or nullptr between tasks.
    const char* running_task() const noexcept { return runningTask_.load(std::memory_order_acquire); }

    /// With stop-on-failure, items after a failure are skipped until the
    /// sticky error has been taken.
    void set_stop_on_failure(bool stop) noexcept { stopOnFailure_.store(stop, std::memory_order_relaxed); }
    bool stops_on_failure() const noexcept { return stopOnFailure_.load(std::memory_order_relaxed); }
    /// Notes that `place` (reserved, to be delivered late) is a wait -- for
    /// an event, a notify, a device word: an abort passes it (discard_queued).
    /// Call before anything can deliver the place.
    void mark_wait(uint64_t place);
    /// Delivers the wait at place unless an abort has passed it.
    void pass_wait(uint64_t place);
    /// fail() for the wait at place unless an abort has passed it.
    void fail_wait(aclError code, uint64_t place, const char* task, const std::string& detail);
    /// Whether the wait at place is still to be delivered.
    bool wait_pending(uint64_t place);
    /// aclrtStreamAbort: the host waits in progress on the lane's progress
    /// end (ProgressCounter::abort_waits), every place taken so far whose
    /// item has not started yet completes without running it, and the waits
    /// among them pass at once (a task already running, a host function for
    /// one, still ends on its own); if there was any such place, the
    /// stream's next synchronisation reports ACL_ERROR_RT_STREAM_ABORT.
    void discard_queued();
    /// Drops the sticky error if it is an abort's: a host wait the abort
    /// ended has reported it (Stream::synchronize).
    void forget_abort_error();
    /// Makes code the sticky error unless one is pending: `task`, the item at
    /// `place`, failed; `detail` says how (may be empty).
    void fail(aclError code, uint64_t place, const char* task, const std::string& detail);
    /// The first failure since the last call (ACL_SUCCESS if none), with its
    /// message, once its item is among the `completed` ones: a query never
    /// hands out an error while the stream still reports the failing item as
    /// running.
    aclError take_error(std::string& message, uint64_t completed);
    /// Makes the lane fresh for a new stream (it must be idle).
    void recycle();

private:
    /// What the runner node receives: take a turn.
    struct Turn {};
    /// The lane's running state for the run of one task (lane.cpp).
    class RunningScope;

    using Runner = tbb::flow::function_node<Turn>;
    /// The runner of the lane's turns at `priority`, made on first use (releaseMutex_ held).
    Runner& runner_at(uint32_t priority);

    /// Passes the next item in place order on (releaseMutex_ held).
    void release(const LaneItem& item);
    /// Queues item and starts a turn unless one is pending (releaseMutex_ held).
    void enqueue_ready(const LaneItem& item);
    /// fail() with errorMutex_ held.
    void record_failure(aclError code, uint64_t place, const char* task, const std::string& detail);
    void take_turn() noexcept;
    void run(const LaneItem& item) noexcept;
    void run_task(DeviceTask& task, uint64_t place) noexcept;

    std::atomic<uint64_t> next_{0};
    std::atomic<uint64_t> discardBefore_{0};  ///< Places below it are skipped.
    const int32_t id_;
    const uint32_t priority_;
    const Stream* stream_ = nullptr;
    std::shared_ptr<LaneProgress> progress_ = std::make_shared<LaneProgress>();
    DevicePool& pool_;
    std::atomic<const char*> runningTask_{nullptr};
    std::atomic<bool> stopOnFailure_{false};
    std::atomic<bool> failed_{false};
    uint64_t failedPlace_ = 0;  ///< Guarded by errorMutex_.
    std::mutex errorMutex_;
    aclError error_ = ACL_SUCCESS;
    std::string errorMessage_;
    std::mutex releaseMutex_;
    uint64_t nextRelease_ = 0;                ///< Guarded by releaseMutex_.
    std::map<uint64_t, DeviceTask*> early_;  ///< Delivered ahead of nextRelease_; guarded by releaseMutex_.
    std::set<uint64_t> waits_;               ///< Marked waits not yet delivered; guarded by releaseMutex_.
    std::deque<LaneItem> ready_;             ///< Released, to run in order; guarded by releaseMutex_.
    bool turnPending_ = false;               ///< A turn is queued or running; guarded by releaseMutex_.
    tbb::flow::graph& graph_;
    /// Runners by priority, made on first use; guarded by releaseMutex_.
    std::array<std::unique_ptr<Runner>, kLowestStreamPriority + 1> runners_;
    Runner* runner_ = nullptr;  ///< The runner at schedulingPriority_; guarded by releaseMutex_.
    std::atomic<uint32_t> schedulingPriority_;
};

inline void LateDelivery::deliver() const {
    if (node) {
        node->open();
    } else if (lane != nullptr && wait) {
        lane->pass_wait(place);
    } else if (lane != nullptr) {
        lane->deliver(place, nullptr);
    }
}

inline void LateDelivery::fail(aclError code, const char* task, const std::string& detail) const {
    if (node) {
        node->fail(code, task, detail);
    } else if (lane != nullptr && wait) {
        lane->fail_wait(code, place, task, detail);
    } else if (lane != nullptr) {
        lane->fail(code, place, task, detail);
    }
}

}  // namespace aclcpu::detail
