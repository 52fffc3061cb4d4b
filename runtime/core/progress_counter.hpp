// acl-cpu runtime: ProgressCounter, how host threads wait for device work.
#pragma once

#include "core/internal.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>
#include <ctime>

namespace aclcpu::detail {

/// Tells the core a spin-wait is in progress.
inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/// How long the calling thread spins, at most, before it yields or sleeps on a
/// ProgressCounter.
///
/// A spin that reaches its target saves the futex wake-up (about 10 us on
/// the CI machine class: an idle 1 Ki-element round trip takes 3.3 us with a
/// 10 us spin, 13 us without).  But a spin that does not is worse than
/// wasted when the device's workers occupy every core: the spinning host
/// takes a core from them and delays the very work it waits for (beside a
/// 16 Mi-element job on another stream, the small operator's median round
/// trip is 21-22 us with a 10 us spin, 11-13 us with none).  So the budget
/// halves after each spin that ends with neither its target reached nor one
/// of the awaited items started (ProgressCounter::spin_until), goes back to
/// the full budget after one that sees either, and every kProbeInterval-th wait
/// spins the full budget, so that a thread whose budget has run down finds
/// out when spinning pays again.  Per thread, so that waiters never share a
/// cache line; one instance per thread (spin_budget()).
class SpinBudget {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr Clock::duration kFullBudget = std::chrono::microseconds(10);
    static constexpr uint32_t kProbeInterval = 16;

    /// The spin of the next wait.
    Clock::duration next() noexcept { return ++waits_ % kProbeInterval == 0 ? kFullBudget : budget_; }
    /// What that spin achieved.
    void record(bool reached) noexcept { budget_ = reached ? kFullBudget : budget_ / 2; }

private:
    Clock::duration budget_ = kFullBudget;
    uint32_t waits_ = 0;
};

/// The calling thread's SpinBudget.
inline SpinBudget& spin_budget() noexcept {
    thread_local SpinBudget budget;
    return budget;
}

class ProgressCounter;

/// Set while a ScheduleExplorer is active: host waits then drive the work it
/// holds back (schedule_explorer.hpp) instead of only blocking.
inline std::atomic<bool> explored_waits{false};

/// How a wait on a ProgressCounter ended.
enum class WaitEnd { kReached, kTimedOut, kAborted };

/// ProgressCounter::wait under schedule exploration (schedule_explorer.cpp).
WaitEnd explored_wait(const ProgressCounter& counter, uint64_t target, std::chrono::steady_clock::time_point deadline,
                      uint64_t abortsSeen) noexcept;

/// A monotonic count of completed work items that host threads can wait on.
///
/// The device side only advances it; a waiter spins briefly (a launch-to-sync
/// round trip of a tiny task is a few microseconds; see SpinBudget), yields
/// its core while a worker runs one of the counted items
/// (kRunningYieldBudget), and then sleeps on a futex, so neither side takes a
/// lock and an advance with nobody waiting costs no system call.
class ProgressCounter {
public:
    using Clock = std::chrono::steady_clock;

    /// How long a waiter yields, after its spin, while a counted item runs.
    ///
    /// A waiter asleep on the futex when an item ends wakes late: on the CI
    /// machine class (2 cores, 2 workers) the host woke 15-20 us after a
    /// 64 Ki- or 256 Ki-element kernel ended, because the workers that just
    /// finished it go on spinning in oneTBB's scheduler and hold both cores
    /// that long -- longer than the 64 Ki kernel itself (6-10 us).  A waiter
    /// that yields instead gives the workers its core while they compute and
    /// takes it back within a yield of the advance: the 64 Ki-element
    /// HardshrinkBackward and LogitGrad round trips fell from 24-27 us to
    /// 9.5-10 us in most runs, 15-25 us in the others (bench Op/, side by
    /// side); the small operator's round trip, idle or beside a long job, did
    /// not move.  Only while an item runs (RunningScope in lane.cpp): an item
    /// waiting for its turn may wait behind another stream's long job, and a
    /// waiter yielding all that time would compete with the busy workers for
    /// the cores.  Bounded, so that the waiter of a long kernel sleeps after
    /// all.
    static constexpr Clock::duration kRunningYieldBudget = std::chrono::microseconds(50);
    /// How long a waiter spins once it has seen a counted item run before it
    /// yields, and after the item ends before it sleeps.
    ///
    /// The yield phase above only helps a waiter that sees the item running.
    /// It missed twice (hand-placed timestamps, 64 Ki- to 1 Mi-element
    /// HardshrinkBackward, host back 20-23 us after the work ended): a spin
    /// budget run down by kernels longer than the spin ended before the
    /// worker took the item (about 2 us after the submit), and the flag
    /// clears just before the completion is published.  So the spin stops
    /// once an item has run this long and counts seeing it as a success, and
    /// the yield phase spins this long past an item's end; the gap fell to
    /// 4-7 us.
    static constexpr Clock::duration kRunningSpin = std::chrono::microseconds(2);

    uint64_t value() const noexcept { return value_.load(std::memory_order_acquire); }

    /// Tells waiters whether a worker is running one of the counted items now
    /// (a hint for how they wait: no ordering is implied).
    void set_items_running(bool running) noexcept { itemsRunning_.store(running, std::memory_order_relaxed); }

    /// Publishes that `value` items are complete and wakes the waiters.
    void advance_to(uint64_t value) noexcept {
        value_.store(value, std::memory_order_seq_cst);
        wake_all();
    }

    /// What a wait passes as abortsSeen to ignore aborts: a wait that must
    /// see the work end whatever happens (a stream's teardown).
    static constexpr uint64_t kIgnoresAborts = UINT64_MAX;
    /// How many times abort_waits() has been called: a waiter reads it as it
    /// begins, and the waits of a later abort end its wait.
    uint64_t aborts() const noexcept { return aborts_.load(std::memory_order_seq_cst); }
    /// Ends every wait begun before the call with WaitEnd::kAborted, as
    /// CANN's host waits end once their stream is in abort state
    /// (aclrtStreamAbort).  Waits begun afterwards wait as usual.
    void abort_waits() noexcept {
        aborts_.fetch_add(1, std::memory_order_seq_cst);
        wake_all();
    }

    /// Blocks until value() >= target, the deadline passes or (unless
    /// abortsSeen is kIgnoresAborts) aborts() moves past abortsSeen.
    /// Clock::time_point::max() waits forever.  Under schedule exploration
    /// the waiting thread drives the held work meanwhile.
    WaitEnd wait(uint64_t target, Clock::time_point deadline, uint64_t abortsSeen) const noexcept {
        if (explored_waits.load(std::memory_order_relaxed)) return explored_wait(*this, target, deadline, abortsSeen);
        return block(target, deadline, abortsSeen);
    }
    /// wait() ignoring aborts; true once value() >= target.
    bool wait_until(uint64_t target, Clock::time_point deadline) const noexcept {
        return wait(target, deadline, kIgnoresAborts) == WaitEnd::kReached;
    }

    /// wait() without driving anything: spins briefly, yields while a
    /// counted item runs, then sleeps.
    WaitEnd block(uint64_t target, Clock::time_point deadline, uint64_t abortsSeen) const noexcept {
        if (spin_until(target) || yield_while_running(target, deadline)) return WaitEnd::kReached;
        while (true) {
            sleepers_.fetch_add(1, std::memory_order_seq_cst);
            const uint32_t seen = wakeups_.load(std::memory_order_seq_cst);
            // abort_waits() counts before it wakes: a wait that missed the
            // count has read the wakeups before the wake-up, and is woken.
            const bool ended = value_.load(std::memory_order_seq_cst) >= target || aborted_since(abortsSeen);
            if (!ended) sleep(seen, deadline);
            sleepers_.fetch_sub(1, std::memory_order_seq_cst);
            // The abort first, as CANN's wait loops test the abort status before the task.
            if (aborted_since(abortsSeen)) return WaitEnd::kAborted;
            if (value() >= target) return WaitEnd::kReached;
            if (deadline != Clock::time_point::max() && Clock::now() >= deadline) return WaitEnd::kTimedOut;
        }
    }

    /// True when abort_waits() has been called since aborts() was abortsSeen.
    bool aborted_since(uint64_t abortsSeen) const noexcept {
        return abortsSeen != kIgnoresAborts && aborts() != abortsSeen;
    }

private:
    /// Wakes the sleeping waiters to test their conditions again.  Leaves
    /// value_ alone: a worker may be advancing it meanwhile.
    void wake_all() noexcept {
        wakeups_.fetch_add(1, std::memory_order_seq_cst);
        if (sleepers_.load(std::memory_order_seq_cst) != 0) {
            syscall(SYS_futex, &wakeups_, FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
        }
    }

    /// Spins until value() >= target (true), until one of the counted items
    /// has run for kRunningSpin, or until the budget runs out.  The spin
    /// counts as a success when it saw an item run: the workers are free for
    /// this counter's items, so its next wait is worth a spin too.
    bool spin_until(uint64_t target) const noexcept {
        SpinBudget& budget = spin_budget();
        const auto end = Clock::now() + budget.next();
        bool sawRunning = false;
        Clock::time_point runningSince;
        while (true) {
            for (int i = 0; i < 32; ++i) {
                if (value() >= target) {
                    budget.record(true);
                    return true;
                }
                cpu_relax();
            }
            const auto now = Clock::now();
            if (!sawRunning && itemsRunning_.load(std::memory_order_relaxed)) {
                sawRunning = true;
                runningSince = now;
            }
            if (now >= end || (sawRunning && now - runningSince >= kRunningSpin)) {
                budget.record(sawRunning);
                return false;
            }
        }
    }

    /// Yields while a counted item runs, and spins for up to kRunningSpin
    /// after one ends (its completion is about to be published, or the next
    /// item about to start); true once value() >= target.
    bool yield_while_running(uint64_t target, Clock::time_point deadline) const noexcept {
        if (!itemsRunning_.load(std::memory_order_relaxed)) return value() >= target;
        auto now = Clock::now();
        const auto end = std::min(deadline, now + kRunningYieldBudget);
        auto lastRunning = now;
        while (now < end && now - lastRunning <= kRunningSpin) {
            if (value() >= target) return true;
            if (itemsRunning_.load(std::memory_order_relaxed)) {
                lastRunning = now;
                sched_yield();
            } else {
                cpu_relax();
            }
            now = Clock::now();
        }
        return value() >= target;
    }

    void sleep(uint32_t seen, Clock::time_point deadline) const noexcept {
        timespec timeout{};
        timespec* timeoutPointer = nullptr;
        if (deadline != Clock::time_point::max()) {
            const auto left = deadline - Clock::now();
            if (left <= Clock::duration::zero()) return;
            const auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(left).count();
            timeout.tv_sec = static_cast<time_t>(nanos / 1000000000);
            timeout.tv_nsec = static_cast<long>(nanos % 1000000000);
            timeoutPointer = &timeout;
        }
        syscall(SYS_futex, &wakeups_, FUTEX_WAIT_PRIVATE, seen, timeoutPointer, nullptr, 0);
    }

    std::atomic<uint64_t> value_{0};
    std::atomic<bool> itemsRunning_{false};
    std::atomic<uint64_t> aborts_{0};
    mutable std::atomic<uint32_t> wakeups_{0};
    mutable std::atomic<uint32_t> sleepers_{0};
};

/// Deadline for an AscendCL timeout in milliseconds (-1: wait forever).
inline ProgressCounter::Clock::time_point deadline_after(int32_t timeoutMs) {
    if (timeoutMs < 0) return ProgressCounter::Clock::time_point::max();
    return ProgressCounter::Clock::now() + std::chrono::milliseconds(timeoutMs);
}

}  // namespace aclcpu::detail
