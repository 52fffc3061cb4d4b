// acl-cpu runtime: ConditionWatcher.
#include "core/condition_wait.hpp"

#include <algorithm>
#include <atomic>
#include <string>

#include "core/graph_capture.hpp"
#include "core/graph_model.hpp"
#include "core/ipc_event.hpp"
#include "aclcpu/testing.hpp"
#include "observe/runtime_hooks.hpp"

namespace aclcpu::detail {

namespace {

std::atomic<uint32_t> gOpWaitTimeoutSeconds{0};

/// A change of what waits read, made in stream order; the watcher re-tests
/// the armed waits after it.
class SignalTask final : public DeviceTask {
public:
    SignalTask(const char* name, std::function<void()> signal) : name_(name), signal_(std::move(signal)) {}
    aclError run() noexcept override {
        signal_();
        ConditionWatcher::instance().poke();
        return ACL_SUCCESS;
    }
    const char* name() const noexcept override { return name_; }

private:
    const char* name_;
    std::function<void()> signal_;
};

}  // namespace

aclError enqueue_wait(Stream& stream, WaitCondition condition, const char* category) {
    // On a captured stream the wait becomes a node of the model, armed at each replay.
    if (stream.is_captured()) {
        const auto arm = [condition](LateDelivery gate) { ConditionWatcher::instance().watch(condition, std::move(gate)); };
        const std::optional<aclError> captured =
            stream.capture_late(arm, CapturedWork{condition.task, category, {}, {}});
        if (captured) return *captured;
    }
    const uint64_t place = stream.lane().reserve();
    if (instrument::active()) {
        stream.announce(place, plain_work(condition.task, category));
        if (const void* key = condition.signalKey) {
            instrument::notify([&](instrument::Observer& o) { o.on_event_wait(&stream, place, key); });
        }
    }
    ConditionWatcher::instance().wait_at(stream.lane(), place, std::move(condition));
    return ACL_SUCCESS;
}

aclError enqueue_signal(Stream& stream, const char* task, const char* category, const void* key,
                    std::function<void()> signal) {
    uint64_t place = kNoPlace;
    const aclError status = stream.submit(std::make_unique<SignalTask>(task, std::move(signal)),
                                          [task, category] { return plain_work(task, category); }, &place);
    if (key != nullptr && place != kNoPlace && instrument::active()) {
        instrument::notify([&](instrument::Observer& o) { o.on_event_record(key, &stream, place); });
    }
    return status;
}

void set_op_wait_timeout(uint32_t seconds) noexcept {
    gOpWaitTimeoutSeconds.store(seconds, std::memory_order_relaxed);
}

std::chrono::milliseconds op_wait_timeout() noexcept {
    return std::chrono::seconds(gOpWaitTimeoutSeconds.load(std::memory_order_relaxed));
}

std::chrono::milliseconds wait_timeout(uint32_t seconds) noexcept {
    return seconds != 0 ? std::chrono::milliseconds(std::chrono::seconds(seconds)) : op_wait_timeout();
}

aclError enqueue_event_wait(const std::shared_ptr<Stream>& waiterStream, const std::shared_ptr<Event>& event,
                            std::chrono::milliseconds timeout, const char* task) {
    bool captured = false;
    if (aclError status = wait_event_in_capture(waiterStream, event, task, captured); captured) return status;
    Stream& waiter = *waiterStream;
    if (event->ipc_state()) {
        enqueue_ipc_event_wait(waiter, event, timeout, task);
        return ACL_SUCCESS;
    }
    const Event::Capture capture = event->capture();
    if (!capture.progress || capture.progress == waiter.lane().progress()) return ACL_SUCCESS;
    const uint64_t place = waiter.lane().reserve();
    if (instrument::active()) {
        waiter.announce(place, plain_work(task, "event_wait"));
        instrument::notify([&](instrument::Observer& o) { o.on_event_wait(&waiter, place, event.get()); });
    }
    event->add_wait(waiter.lane().progress(), place + 1);
    if (timeout.count() == 0) {
        // An edge between the two queues: the recording lane's progress
        // delivers the waiting place, no worker blocks and no thread looks.
        // The lane and place, not a LateDelivery: small enough for the action's inline storage.
        waiter.lane().mark_wait(place);
        capture.progress->when_reached(capture.count, [lane = &waiter.lane(), place] { lane->pass_wait(place); });
        return ACL_SUCCESS;
    }
    WaitCondition condition;
    condition.try_pass = [progress = capture.progress, count = capture.count] { return progress->completed() >= count; };
    condition.timeout = timeout;
    condition.task = task;
    ConditionWatcher::instance().wait_at(waiter.lane(), place, std::move(condition));
    capture.progress->when_reached(capture.count, [] { ConditionWatcher::instance().poke(); });
    return ACL_SUCCESS;
}

ConditionWatcher& ConditionWatcher::instance() {
    static ConditionWatcher watcher;
    return watcher;
}

ConditionWatcher::~ConditionWatcher() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_one();
    if (thread_.joinable()) thread_.join();
}

void ConditionWatcher::wait_at(StreamLane& lane, uint64_t place, WaitCondition condition) {
    const LateDelivery gate{&lane, place, nullptr, true};
    lane.mark_wait(place);
    // Armed only once the lane reaches the place: the condition must see what
    // the stream's earlier work did (a value write before a value wait).
    lane.progress()->when_reached(place, [this, gate, condition = std::move(condition)]() mutable {
        watch(std::move(condition), gate);
    });
}

void ConditionWatcher::watch(WaitCondition condition, LateDelivery gate) {
    const Clock::time_point deadline =
        condition.timeout.count() == 0 ? Clock::time_point::max() : Clock::now() + condition.timeout;
    arm(Armed{std::move(condition), deadline, std::move(gate)});
}

bool ConditionWatcher::passed_by_abort(const LateDelivery& gate) {
    return gate.wait && !gate.lane->wait_pending(gate.place);
}

void ConditionWatcher::arm(Armed armed) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (passed_by_abort(armed.gate)) return;
        if (!thread_.joinable()) thread_ = std::thread([this] { serve(); });
        armed_.push_back(std::move(armed));
        dirty_ = true;
    }
    changed_.notify_one();
}

void ConditionWatcher::poke() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (armed_.empty()) return;
        dirty_ = true;
    }
    changed_.notify_one();
}

void ConditionWatcher::forget_lanes(const std::vector<std::unique_ptr<StreamLane>>& lanes) {
    const auto onLanes = [&lanes](const Armed& armed) {
        return std::any_of(lanes.begin(), lanes.end(), [&armed](const auto& lane) { return lane.get() == armed.gate.lane; });
    };
    std::lock_guard<std::mutex> lock(mutex_);
    armed_.erase(std::remove_if(armed_.begin(), armed_.end(), onLanes), armed_.end());
}

void ConditionWatcher::pause(bool paused) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        paused_ = paused;
        dirty_ = true;
    }
    changed_.notify_one();
}

void ConditionWatcher::quiesce() { const std::lock_guard<std::mutex> waitForDelivery(deliveryMutex_); }

void ConditionWatcher::serve() {
    std::vector<Armed> passed;
    std::vector<Armed> expired;
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stopping_) {
        if (paused_) {
            changed_.wait(lock, [this] { return !paused_ || stopping_; });
            continue;
        }
        dirty_ = false;
        const Clock::time_point next = settle(passed, expired);
        if (!passed.empty() || !expired.empty()) {
            // Delivering runs flow-graph code: never under our lock.
            lock.unlock();
            deliver(passed, expired);
            lock.lock();
            continue;
        }
        const auto woken = [this] { return dirty_ || stopping_; };
        if (next == Clock::time_point::max()) {
            changed_.wait(lock, woken);
        } else {
            changed_.wait_until(lock, next, woken);
        }
    }
}

void ConditionWatcher::deliver(std::vector<Armed>& passed, std::vector<Armed>& expired) {
    const std::lock_guard<std::mutex> delivering(deliveryMutex_);
    for (const Armed& wait : expired) {
        const std::string detail = "not satisfied within " + std::to_string(wait.condition.timeout.count()) + " ms";
        wait.gate.fail(ACL_ERROR_RT_TASK_TIMEOUT, wait.condition.task, detail);
        wait.gate.deliver();
    }
    for (const Armed& wait : passed) wait.gate.deliver();
    passed.clear();
    expired.clear();
}

ConditionWatcher::Clock::time_point ConditionWatcher::settle(std::vector<Armed>& passed, std::vector<Armed>& expired) {
    const Clock::time_point now = Clock::now();
    Clock::time_point next = Clock::time_point::max();
    // In arming order, so that of two waits on one notify the earlier consumes it.
    auto kept = armed_.begin();
    for (auto it = armed_.begin(); it != armed_.end(); ++it) {
        if (passed_by_abort(it->gate)) continue;  // Killed: it must not consume what a later wait awaits.
        if (it->condition.try_pass()) {
            passed.push_back(std::move(*it));
        } else if (now >= it->deadline) {
            expired.push_back(std::move(*it));
        } else {
            next = std::min(next, it->deadline);
            if (it->condition.polls) next = std::min(next, now + kPollInterval);
            if (kept != it) *kept = std::move(*it);
            ++kept;
        }
    }
    armed_.erase(kept, armed_.end());
    return next;
}

}  // namespace aclcpu::detail

namespace aclcpu::testing {

void pause_condition_watcher(bool paused) { detail::ConditionWatcher::instance().pause(paused); }

}  // namespace aclcpu::testing
