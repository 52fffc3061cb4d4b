// acl-cpu runtime: ConditionWatcher, how a stream waits for a notify, a
// count notify, a device word or (with a timeout) an event.
#pragma once

#include "core/internal.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/lane.hpp"
#include "core/objects.hpp"
#include "core/progress_counter.hpp"

namespace aclcpu::detail {

/// What a waiting stream place waits for.
struct WaitCondition {
    /// Tests the condition and, when it holds, applies the wait's side effect
    /// (a notify's reset) in the same step.  Only the watcher thread calls it,
    /// so two waits on one notify never both consume the same record.
    std::function<bool()> try_pass;
    /// 0: no timeout.  Counted from the moment the stream reaches the wait, as
    /// a wait task on the device times out.
    std::chrono::milliseconds timeout{0};
    /// The condition reads device memory the host may write (aclrtMemcpy)
    /// without any runtime call telling the watcher: re-test it periodically.
    bool polls = false;
    const char* task = "wait";  ///< Names the failing task in a timeout's message.
    /// What observers are told the wait waits for, as an event: the latest
    /// enqueue_signal of the same key submitted before it (nullptr: none).
    /// The race checker orders the wait after that signal; a wait submitted
    /// before the signal that releases it is not modelled.
    const void* signalKey = nullptr;
};

/// The stream places that wait for a condition no lane's progress expresses.
///
/// Such a place is a late-delivered item of its lane (see StreamLane): once
/// every earlier place has completed, the condition is armed here, and one
/// runtime thread delivers the place when the condition holds.  No device
/// worker ever blocks on it.  Whatever can change a condition (a notify
/// record, a value write, an event's stream reaching the record) calls
/// poke(); memory conditions are also re-tested every kPollInterval.  A wait
/// whose timeout expires first fails its place with ACL_ERROR_RT_TASK_TIMEOUT,
/// the stream's sticky error, reported by the next synchronisation.  An
/// aclrtStreamAbort delivers the stream's wait places itself; the watcher
/// drops them unarmed or untested (a killed notify wait must not consume a
/// later record, nor a killed wait time out).
class ConditionWatcher {
public:
    using Clock = ProgressCounter::Clock;
    static constexpr auto kPollInterval = std::chrono::microseconds(500);

    static ConditionWatcher& instance();
    ~ConditionWatcher();

    /// Makes `place` of lane (reserved by the caller, who must not deliver it)
    /// wait for condition.
    void wait_at(StreamLane& lane, uint64_t place, WaitCondition condition);
    /// Delivers gate once condition holds (failing it at the timeout, counted
    /// from now): a replayed graph's wait, armed when the graph reaches it.
    void watch(WaitCondition condition, LateDelivery gate);
    /// Something a condition reads has changed: re-test the armed ones.
    void poke();
    /// Returns once a delivery the watcher has begun is over.  A delivery
    /// hands a place to its lane's flow graph from outside the device's
    /// arena and still touches the arena after the place may have run, so a
    /// device that has seen all its work complete calls this before tearing
    /// the arena down.
    void quiesce();
    /// Drops the armed waits on `lanes`, which a device tearing down is
    /// about to destroy.  Once its work has completed only waits an abort
    /// killed can be left, which nothing delivers and the watcher would test
    /// again at its next look; on return no look is testing them either.
    void forget_lanes(const std::vector<std::unique_ptr<StreamLane>>& lanes);
    /// While paused the watcher tests and delivers nothing (waits armed or
    /// poked meanwhile are tested on resume): aclcpu::testing's seam for what
    /// happens to armed waits between two of its looks.
    void pause(bool paused);

private:
    struct Armed {
        WaitCondition condition;
        Clock::time_point deadline;
        LateDelivery gate;
    };

    ConditionWatcher() = default;
    /// gate is a stream's wait that an abort has passed.
    static bool passed_by_abort(const LateDelivery& gate);
    void arm(Armed armed);
    void serve();
    /// Moves the armed waits whose condition holds into passed and those whose
    /// deadline is over into expired, and drops those an abort has passed;
    /// returns when to look again at the latest.
    Clock::time_point settle(std::vector<Armed>& passed, std::vector<Armed>& expired);
    /// Delivers the settled waits' places, failing the expired ones first; empties both.
    void deliver(std::vector<Armed>& passed, std::vector<Armed>& expired);

    std::mutex mutex_;
    std::mutex deliveryMutex_;  ///< Held while delivering settled waits.
    std::condition_variable changed_;
    bool dirty_ = false;
    bool stopping_ = false;
    bool paused_ = false;
    std::vector<Armed> armed_;
    std::thread thread_;
};

/// Enqueues on stream, behind everything submitted so far, a place that
/// waits for condition; `category` names it to observers.  On a captured
/// stream the wait becomes a node of the capturing model instead, armed when
/// a replay reaches it.
aclError enqueue_wait(Stream& stream, WaitCondition condition, const char* category);

/// Enqueues on stream a task that runs `signal` (a change of what waits
/// read: a notify record, a value write) and then pokes the watcher.
/// Observers see it as a record of the event `key` (see WaitCondition;
/// nullptr: a signal no wait is modelled on, such as a reset).  Returns the
/// submission's status (Stream::submit).
[[nodiscard]] aclError enqueue_signal(Stream& stream, const char* task, const char* category, const void* key,
                    std::function<void()> signal);

/// Makes waiter wait until the work event captured by its latest record has
/// completed (no wait if it was never recorded, or recorded on waiter itself),
/// failing the wait after timeout (0: none).  `task` names the wait to
/// observers and in a timeout's message.  An IPC event's wait is
/// enqueue_ipc_event_wait's (core/ipc_event.hpp).  When the waiter or the
/// event's record takes part in a graph capture, the wait becomes an edge of
/// the capturing model instead, or CANN's refusal (wait_event_in_capture).
aclError enqueue_event_wait(const std::shared_ptr<Stream>& waiter, const std::shared_ptr<Event>& event,
                            std::chrono::milliseconds timeout, const char* task);

/// aclrtSetOpWaitTimeout: the timeout of later waits, in seconds (0: none).
void set_op_wait_timeout(uint32_t seconds) noexcept;
std::chrono::milliseconds op_wait_timeout() noexcept;
/// The timeout of a wait given CANN's argument in seconds: 0 leaves it to
/// aclrtSetOpWaitTimeout.
std::chrono::milliseconds wait_timeout(uint32_t seconds) noexcept;

}  // namespace aclcpu::detail
