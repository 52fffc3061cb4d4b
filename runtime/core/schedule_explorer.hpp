// acl-cpu runtime: ScheduleExplorer, the seeded order in which the emulated
// devices start the ready work of their streams (ACLCPU_SCHEDULE).
#pragma once

#include "core/internal.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "core/lane.hpp"
#include "core/progress_counter.hpp"
#include "core/schedule_policy.hpp"

namespace aclcpu::detail {

/// How soon the adversarial policy picks an item, from what its submission
/// told observers: the higher, the sooner.
enum class Eagerness : uint8_t { kRecord, kWriter, kOther };

class SubmissionEagerness;

/// Under `random` and `adversarial`, replaces the devices' first-come order
/// with a seeded one that a program cannot tell from a device's own: only
/// what CANN leaves unordered -- the items of different streams -- is
/// permuted; stream order, events, notifies, value waits and host
/// synchronisation keep their meaning.
///
/// How: a lane hands its released items (in stream order) to the explorer
/// instead of its runner, and nothing runs until a host thread waits for
/// device work (any ProgressCounter wait: synchronisations, blocking copies,
/// teardown) or queries it.  The waiting thread then drives: it picks one
/// held item among the streams' first ones by the policy, forwards it to its
/// lane's runner, waits until it has finished (its completion actions
/// included), and goes on until its own wait is satisfied.  Items therefore
/// start and finish one at a time in an order that depends only on the
/// program's submissions and the seed: for a program whose host side is
/// single-threaded, the same seed gives the same device-side interleaving on
/// every run and for any worker count.  Work that finishes on other threads
/// (host callbacks, graph replays, value waits watched by a thread) joins
/// in when it is delivered, which can vary between runs.
///
///   random       every first item of a stream is equally likely next;
///   adversarial  three times in four the most eager item, otherwise a
///                random one.  Eagerness follows what the submission told
///                observers: readers, waiters and host calls go first, items
///                that write memory after them, event and notify records
///                last (waiting streams see their records as late as
///                possible); among equals, the item released last (the
///                consumer a missing event wait leaves unordered after its
///                producer goes before it).
///
/// An item that has not finished within kStepLimit (1 s: a task waiting for
/// the host) no longer holds the driver up; and held work no thread waits
/// for is driven by the explorer's own thread after kIdleLimit (1 s) without
/// submissions or waits, so a program that waits by other means than
/// AscendCL does not hang.  Both only matter for determinism, never for
/// correctness.
///
/// Thread-safety: every member may be called from any thread.
class ScheduleExplorer {
public:
    using Clock = ProgressCounter::Clock;

    /// The explorer of the current aclInit span; nullptr under fifo.
    static ScheduleExplorer* active() noexcept { return active_.load(std::memory_order_acquire); }
    /// Starts exploring with policy (nothing under fifo).  Call before any
    /// device exists.
    static void start(const SchedulePolicy& policy);
    /// Ends exploration.  Call once no device exists.
    static void stop();
    /// The policy of the current span: fifo when none is active.
    static SchedulePolicy current_policy();

    explicit ScheduleExplorer(const SchedulePolicy& policy);
    ~ScheduleExplorer();
    ScheduleExplorer(const ScheduleExplorer&) = delete;
    ScheduleExplorer& operator=(const ScheduleExplorer&) = delete;

    /// Takes an item lane released (in its stream order) until it is picked.
    void hold(StreamLane& lane, const LaneItem& item);
    /// lane has finished the item at place, completion actions included.
    void finished(const StreamLane& lane, uint64_t place);
    /// A host wait: drives held work until counter reaches target, the
    /// deadline passes or an abort ends the wait (ProgressCounter::wait).
    WaitEnd wait(const ProgressCounter& counter, uint64_t target, Clock::time_point deadline, uint64_t abortsSeen);
    /// A host query: drives one held item, if any.
    void step();
    /// Returns once no thread is forwarding an item: a forward hands the item
    /// to its device's arena and may still be inside the arena after the item
    /// has run, so a device drains and then quiesces before its arena goes.
    void quiesce();

private:
    /// Both limits only end waits that would otherwise never end; they are
    /// long so that a loaded machine (a starved worker, a stalled host
    /// thread) does not reach them and change the interleaving.
    static constexpr auto kStepLimit = std::chrono::seconds(1);
    static constexpr auto kIdleLimit = std::chrono::seconds(1);
    /// How long a waiter with nothing to drive sleeps before looking again
    /// (it wakes at once when its own counter advances).
    static constexpr auto kPollSlice = std::chrono::milliseconds(1);

    struct Held {
        LaneItem item;
        uint64_t sequence;  ///< Release order over all lanes.
        Eagerness eagerness;
    };

    /// Forwards one held item and waits for it (at most kStepLimit or until
    /// deadline); false when nothing is held, or when `driving` cannot be
    /// had at once (another thread drives) and was not taken yet.
    bool drive_one(Clock::time_point deadline, std::unique_lock<std::mutex> driving);
    /// A lane's first held item, as pick_locked weighs it.
    struct Candidate {
        uint64_t sequence;
        Eagerness eagerness;
        StreamLane* lane;
    };
    /// The lane whose first held item goes next; nullptr when none is held.
    StreamLane* pick_locked();
    void drive_when_idle();

    static std::atomic<ScheduleExplorer*> active_;

    const SchedulePolicy policy_;
    /// Under adversarial: the eagerness of each submitted item (an observer).
    std::shared_ptr<SubmissionEagerness> eagerness_;
    std::mutex driverMutex_;  ///< Held by the one thread driving.
    std::mutex mutex_;        ///< Guards everything below.
    std::condition_variable changed_;  ///< A step has finished.
    std::condition_variable stopWake_;  ///< The explorer stops (for the idle driver).
    std::map<StreamLane*, std::deque<Held>> held_;
    uint64_t nextSequence_ = 0;
    std::mt19937_64 random_;
    const StreamLane* stepLane_ = nullptr;  ///< The item being driven.
    uint64_t stepPlace_ = 0;
    bool stepDone_ = true;
    Clock::time_point lastActivity_;
    bool stopping_ = false;
    std::thread idleDriver_;
};

/// What a host query does first: under exploration, drives one held item
/// (a program that polls instead of waiting makes progress); nothing under fifo.
inline void explore_step() {
    if (ScheduleExplorer* explorer = ScheduleExplorer::active()) explorer->step();
}

}  // namespace aclcpu::detail
