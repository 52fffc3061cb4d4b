// acl-cpu runtime: StreamLane and LaneProgress.
#include <exception>
#include <vector>

#include "aclcpu/instrumentation.hpp"
#include "core/errors.hpp"
#include "core/exception_hub.hpp"
#include "core/lane.hpp"
#include "core/schedule_explorer.hpp"

namespace aclcpu::detail {

void LaneProgress::when_reached(uint64_t count, std::function<void()> action) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (completed() < count) {
            actions_.emplace(count, std::move(action));
            earliestAction_.store(actions_.begin()->first, std::memory_order_seq_cst);
            action = nullptr;
        }
    }
    if (action) {
        action();
        return;
    }
    // The completing worker may have published the count between our check
    // and the store of earliestAction_ without seeing the new action; both
    // sides use seq_cst, so at least one of them sees the other.
    if (completed() >= earliestAction_.load(std::memory_order_seq_cst)) run_due_actions();
}

void LaneProgress::complete(uint64_t count) {
    counter_.advance_to(count);
    if (count >= earliestAction_.load(std::memory_order_seq_cst)) run_due_actions();
}

void LaneProgress::run_due_actions() {
    std::vector<std::function<void()>> due;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        const uint64_t done = completed();
        auto end = actions_.upper_bound(done);
        for (auto it = actions_.begin(); it != end; ++it) due.push_back(std::move(it->second));
        actions_.erase(actions_.begin(), end);
        earliestAction_.store(actions_.empty() ? UINT64_MAX : actions_.begin()->first, std::memory_order_seq_cst);
    }
    for (auto& action : due) action();
}

namespace {

/// Stream work is prioritised so that a worker busy with the blocks of a long
/// operator on one stream picks up another stream's turn at its next task
/// boundary (a block, or a slice of one) instead of after the whole
/// operator.  Above that floor a lane's node priority follows its stream's:
/// turns are put by the delivering thread itself (no forwarding task in
/// between), so every lane with ready items has its turn in the graph's
/// priority queue, which gives a free worker the one of the highest-priority
/// stream.
constexpr tbb::flow::node_priority_t kLowestStreamNodePriority = 1;

thread_local StreamLane* tRunningLane = nullptr;

}  // namespace

tbb::flow::node_priority_t stream_node_priority(uint32_t streamPriority) noexcept {
    return kLowestStreamNodePriority + (kLowestStreamPriority - streamPriority);
}

StreamLane* StreamLane::running() noexcept { return tRunningLane; }

/// Marks the calling worker as running task on the lane for the scope, and
/// tells the lane's waiters that an item runs
/// (ProgressCounter::set_items_running).  The scope ends before the item's
/// completion is published: a waiter woken by it may take the worker's core
/// at once, and if it found the item still marked running it would yield to
/// a worker that has nothing left to do for it (measured: beside a long job
/// on another stream, a small operator's round trip went from 7 us median,
/// 30 us p99 to 30 us and 4.6 ms).
class StreamLane::RunningScope {
public:
    RunningScope(StreamLane& lane, const char* task) noexcept : lane_(lane) {
        tRunningLane = &lane_;
        lane_.runningTask_.store(task, std::memory_order_release);
        lane_.progress_->set_items_running(true);
    }
    ~RunningScope() {
        lane_.progress_->set_items_running(false);
        lane_.runningTask_.store(nullptr, std::memory_order_release);
        tRunningLane = nullptr;
    }
    RunningScope(const RunningScope&) = delete;
    RunningScope& operator=(const RunningScope&) = delete;

private:
    StreamLane& lane_;
};

StreamLane::StreamLane(tbb::flow::graph& graph, DevicePool& pool, int32_t id, uint32_t priority)
    : id_(id), priority_(priority), pool_(pool), graph_(graph), schedulingPriority_(priority) {
    runner_ = &runner_at(priority);  // Not shared yet: no lock needed.
}

StreamLane::Runner& StreamLane::runner_at(uint32_t priority) {
    std::unique_ptr<Runner>& runner = runners_.at(priority);
    if (!runner) {
        // Unlimited: a lane never has two turns at once (turnPending_), and a
        // turn put by the one ending goes through the graph's priority queue
        // instead of waiting in a serial node's buffer for the same worker.
        runner = std::make_unique<Runner>(graph_, tbb::flow::unlimited, [this](Turn) { take_turn(); },
                                          stream_node_priority(priority));
    }
    return *runner;
}

void StreamLane::set_scheduling_priority(uint32_t priority) {
    std::lock_guard<std::mutex> lock(releaseMutex_);
    runner_ = &runner_at(priority);
    schedulingPriority_.store(priority, std::memory_order_relaxed);
}

void StreamLane::deliver(uint64_t place, std::unique_ptr<DeviceTask> task) {
    // Releasing under the mutex keeps the ready queue in place order;
    // try_put only spawns the runner's task, it never runs it here.
    std::lock_guard<std::mutex> lock(releaseMutex_);
    if (place != nextRelease_) {
        early_.emplace(place, task.release());
        return;
    }
    release(LaneItem{place, task.release()});
    for (auto next = early_.begin(); next != early_.end() && next->first == nextRelease_; next = early_.erase(next)) {
        release(LaneItem{next->first, next->second});
    }
}

void StreamLane::release(const LaneItem& item) {
    if (ScheduleExplorer* explorer = ScheduleExplorer::active()) {
        explorer->hold(*this, item);
    } else {
        enqueue_ready(item);
    }
    ++nextRelease_;
}

void StreamLane::forward(const LaneItem& item) {
    std::lock_guard<std::mutex> lock(releaseMutex_);
    enqueue_ready(item);
}

void StreamLane::enqueue_ready(const LaneItem& item) {
    ready_.push_back(item);
    if (turnPending_) return;
    turnPending_ = true;
    runner_->try_put(Turn{});
}

void StreamLane::take_turn() noexcept {
    for (int ran = 0;; ++ran) {
        LaneItem item{};
        {
            std::lock_guard<std::mutex> lock(releaseMutex_);
            if (ready_.empty()) {
                turnPending_ = false;
                return;
            }
            if (ran == kItemsPerTurn) {
                // The next turn may start on another worker at once; this one
                // touches nothing of the lane after the unlock.
                runner_->try_put(Turn{});
                return;
            }
            item = ready_.front();
            ready_.pop_front();
        }
        run(item);
    }
}

void StreamLane::run(const LaneItem& item) noexcept {
    using instrument::Observer;
    if (instrument::active()) instrument::notify([&](Observer& o) { o.on_work_begin(stream_, item.place); });
    std::unique_ptr<DeviceTask> task(item.task);
    const bool skip = (stopOnFailure_.load(std::memory_order_relaxed) && failed_.load(std::memory_order_acquire)) ||
                      item.place < discardBefore_.load(std::memory_order_acquire);
    if (task && !skip) run_task(*task, item.place);
    task.reset();
    // Before completion: once it is published the stream may be destroyed and the lane rebound.
    if (instrument::active()) instrument::notify([&](Observer& o) { o.on_work_end(stream_, item.place); });
    progress_->complete(item.place + 1);
    if (ScheduleExplorer* explorer = ScheduleExplorer::active()) explorer->finished(*this, item.place);
}

aclError run_reporting(DeviceTask& task, std::string& detail) noexcept {
    take_thread_messages();
    try {
        const aclError status = task.run();
        if (status != ACL_SUCCESS) detail = take_thread_messages();
        return status;
    } catch (const std::exception& error) {
        detail = error.what();
    } catch (...) {
        detail = "unknown exception";
    }
    return ACL_ERROR_RT_INTERNAL_ERROR;
}

void StreamLane::run_task(DeviceTask& task, uint64_t place) noexcept {
    const RunningScope scope(*this, task.name());
    std::string detail;
    const aclError status = run_reporting(task, detail);
    if (status == ACL_SUCCESS) return;
    fail(status, place, task.name(), detail);
    // The program's exception callbacks hear of every failing task, even
    // behind a sticky error still pending.
    ExceptionHub::instance().notify(*stream_, place, status);  // Alive: it drains before it goes.
}

void StreamLane::fail(aclError code, uint64_t place, const char* task, const std::string& detail) {
    std::lock_guard<std::mutex> lock(errorMutex_);
    record_failure(code, place, task, detail);
}

void StreamLane::record_failure(aclError code, uint64_t place, const char* task, const std::string& detail) {
    if (error_ != ACL_SUCCESS) return;
    error_ = code;
    failedPlace_ = place;
    errorMessage_ = std::string("task ") + task + " failed with error " + std::to_string(code);
    if (!detail.empty()) errorMessage_ += ": " + detail;
    failed_.store(true, std::memory_order_release);
}

aclError StreamLane::take_error(std::string& message, uint64_t completed) {
    if (!failed_.load(std::memory_order_acquire)) return ACL_SUCCESS;
    std::lock_guard<std::mutex> lock(errorMutex_);
    if (completed <= failedPlace_) return ACL_SUCCESS;
    const aclError error = error_;
    message = std::move(errorMessage_);
    error_ = ACL_SUCCESS;
    errorMessage_.clear();
    failed_.store(false, std::memory_order_release);
    return error;
}

void StreamLane::mark_wait(uint64_t place) {
    std::lock_guard<std::mutex> lock(releaseMutex_);
    waits_.insert(place);
}

bool StreamLane::wait_pending(uint64_t place) {
    std::lock_guard<std::mutex> lock(releaseMutex_);
    return waits_.count(place) != 0;
}

void StreamLane::pass_wait(uint64_t place) {
    {
        std::lock_guard<std::mutex> lock(releaseMutex_);
        if (waits_.erase(place) == 0) return;
    }
    deliver(place, nullptr);
}

void StreamLane::fail_wait(aclError code, uint64_t place, const char* task, const std::string& detail) {
    if (wait_pending(place)) fail(code, place, task, detail);
}

void StreamLane::discard_queued() {
    uint64_t taken = 0;
    {
        // Under the error mutex: a host wait the abort ends (forget_abort_error) finds the error set.
        std::lock_guard<std::mutex> lock(errorMutex_);
        // First, as CANN's Context::StreamAbort sets the abort status before it kills any task: the host
        // waits end before discarded work could let them see their target reached.
        progress_->abort_waits();
        taken = submitted();
        uint64_t before = discardBefore_.load(std::memory_order_relaxed);
        while (before < taken && !discardBefore_.compare_exchange_weak(before, taken, std::memory_order_acq_rel)) {
        }
        if (progress_->completed() < taken) {
            record_failure(ACL_ERROR_RT_STREAM_ABORT, taken - 1, "aclrtStreamAbort", "queued work was discarded unrun");
        }
    }
    // CANN's abort kills the wait task the stream is blocked on; here the wait's place is
    // delivered now, and whoever would have delivered it later finds it passed.
    std::vector<uint64_t> passed;
    {
        std::lock_guard<std::mutex> lock(releaseMutex_);
        passed.assign(waits_.begin(), waits_.lower_bound(taken));
        waits_.erase(waits_.begin(), waits_.lower_bound(taken));
    }
    for (const uint64_t place : passed) deliver(place, nullptr);
}

void StreamLane::forget_abort_error() {
    std::lock_guard<std::mutex> lock(errorMutex_);
    if (error_ != ACL_ERROR_RT_STREAM_ABORT) return;
    error_ = ACL_SUCCESS;
    errorMessage_.clear();
    failed_.store(false, std::memory_order_release);
}

void StreamLane::recycle() {
    std::string discarded;
    take_error(discarded, UINT64_MAX);
    set_stop_on_failure(false);
    set_scheduling_priority(priority_);
}

}  // namespace aclcpu::detail
