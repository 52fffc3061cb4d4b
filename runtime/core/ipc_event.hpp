// acl-cpu runtime: IpcEventState, the state an ACL_EVENT_IPC event shares
// with other processes (aclrtIpcGetEventHandle, aclrtIpcOpenEventHandle).
#pragma once

#include "core/internal.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "acl/acl_rt.h"

namespace aclcpu::detail {

class LaneProgress;
class Stream;
class Event;

/// The records of one IPC event, in a POSIX shared-memory object that the
/// creating process (the exporter) and every process that opened the event's
/// handle map.
///
/// Each aclrtRecordEvent, in whichever process, takes the next record
/// generation at the call; the event is complete when its latest generation
/// is (an event never recorded is complete).  A generation completes when
/// its stream passes the record, as any event's record does; the completion
/// is published with atomics in the mapping, which makes it visible to every
/// process, and wakes host threads sleeping on the mapping's futex word in
/// any process.  Generations complete in any order (two processes' streams
/// run independently): each maps to one of kSlots slots holding the highest
/// generation completed there, so a pending generation reads as pending as
/// long as fewer than kSlots later records of the event are in flight.
///
/// Ownership: the exporter's state names the object and unlinks it when the
/// event is destroyed (withdraw) or, failing that, when the process exits;
/// a mapping lives as long as its IpcEventState, which an Event and its
/// pending records share, so opened events keep working after the exporter
/// is gone.  All members are safe to call from any thread.
class IpcEventState : public std::enable_shared_from_this<IpcEventState> {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr uint64_t kSlots = 1024;

    /// What aclrtIpcEventHandle carries: the exporter's process id, a serial
    /// number among its IPC events and a random nonce; the shared object's
    /// name is made of them.
    struct Key {
        int32_t pid = 0;
        uint32_t serial = 0;
        uint64_t nonce = 0;
    };

    /// Creates the shared object of a new IPC event; on failure reports the
    /// error (as `api`) and returns it.
    static aclError create(const char* api, std::shared_ptr<IpcEventState>& state);
    /// Maps the shared object of an exported event.  A handle that is not
    /// one of aclrtIpcGetEventHandle's, or whose event was destroyed or whose
    /// exporter has exited, fails with ACL_ERROR_RT_PARAM_INVALID (reported).
    static aclError open(const aclrtIpcEventHandle& handle, const char* api, std::shared_ptr<IpcEventState>& state);

    ~IpcEventState();
    IpcEventState(const IpcEventState&) = delete;
    IpcEventState& operator=(const IpcEventState&) = delete;

    /// The handle that opens this event in any process.
    aclrtIpcEventHandle handle() const;
    bool is_exporter() const noexcept { return exporter_; }

    /// Takes the next record generation; the caller's stream record is
    /// `place` of the lane whose progress is given: the generation completes
    /// when that lane passes the place, whether its item runs or is discarded.
    uint64_t record(LaneProgress& progress, uint64_t place);
    /// The generation of the latest record issued by any process (0: none).
    uint64_t latest() const noexcept;
    bool is_complete(uint64_t generation) const noexcept;
    /// False once the process that issued `generation` has exited without
    /// completing it: nothing will ever complete it.
    bool may_complete(uint64_t generation) const noexcept;

    enum class WaitResult { kComplete, kTimedOut, kAbandoned };
    /// Blocks the calling host thread until `generation` completes, the
    /// deadline passes (Clock::time_point::max(): never) or the generation
    /// is abandoned (see may_complete).
    WaitResult wait(uint64_t generation, Clock::time_point deadline) const;

    /// The exporter's aclrtDestroyEvent: later opens of the handle fail.
    /// Idempotent; a no-op for an opened event.
    void withdraw();

    /// The shared object's layout (ipc_event.cpp).
    struct Shared;

private:
    IpcEventState(const Key& key, Shared* shared, bool exporter) : key_(key), shared_(shared), exporter_(exporter) {}
    void complete(uint64_t generation) noexcept;

    const Key key_;
    Shared* const shared_;
    const bool exporter_;
};

/// aclrtStreamWaitEvent on an IPC event: the next place of waiter waits
/// until the event's latest record (issued by any process) completes; no
/// wait if it was never recorded.  The wait is armed on the ConditionWatcher,
/// which re-tests it periodically (another process's completion pokes no
/// thread of this one); a timeout (0: none) or an abandoned record (see
/// IpcEventState::may_complete) fails the waiting place.
void enqueue_ipc_event_wait(Stream& waiter, const std::shared_ptr<Event>& event, std::chrono::milliseconds timeout,
                            const char* task);

}  // namespace aclcpu::detail
