// acl-cpu HCCL: Group, Meeting and RankCall -- how the ranks' calls of one
// collective find each other.
//
// CPU mapping: a communicator is one rank of a Group shared by every rank
// in the process.  A rank's call takes three places on its stream (see
// RankCall): a gate that opens when every party of the call has reached
// it, the task that moves the rank's share of the data, and a gate that
// opens when every party has moved its share -- so each rank's buffers are
// final, and its peers' untouched by it, when its stream goes on.  No
// device worker waits at any of them: the last party to arrive (or to
// finish) opens everyone's gate.
#pragma once

#include "core/internal.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "aclcpu/stream_gate.hpp"
#include "core/algorithms.hpp"
#include "core/call.hpp"

namespace aclcpu::hccl::detail {

using Clock = std::chrono::steady_clock;

class Group;
class NetworkRank;

/// One rank's membership of a group: what an HcclComm points at.
class Rank {
public:
    /// network: set when the communicator's ranks live in several processes
    /// (the group then holds this rank only, for its size and name).
    Rank(std::shared_ptr<Group> group, uint32_t rank, std::chrono::milliseconds execTimeout,
         std::shared_ptr<NetworkRank> network = nullptr);

    Group& group() const noexcept { return *group_; }
    uint32_t rank() const noexcept { return rank_; }
    std::chrono::milliseconds exec_timeout() const noexcept { return execTimeout_; }
    /// The rank's network side; nullptr when every rank is in this process.
    NetworkRank* network() const noexcept { return network_.get(); }

    /// The place of this rank's next collective among its collectives, and
    /// of its next transfer to (from) peer among those; host threads.
    uint64_t next_collective() noexcept { return collectives_.fetch_add(1, std::memory_order_relaxed); }
    uint64_t next_send(uint32_t peer);
    uint64_t next_recv(uint32_t peer);

    /// The first failure of a collective of this rank (HcclGetCommAsyncError).
    HcclResult async_error() const noexcept { return asyncError_.load(std::memory_order_acquire); }
    void note_failure(HcclResult code) noexcept;

private:
    const std::shared_ptr<Group> group_;
    const uint32_t rank_;
    const std::chrono::milliseconds execTimeout_;
    std::atomic<uint64_t> collectives_{0};
    std::mutex transfersMutex_;
    std::vector<uint64_t> sends_, recvs_;
    std::atomic<HcclResult> asyncError_{HCCL_SUCCESS};
    /// Last: destroyed first, so that its thread ends while the rest stands.
    const std::shared_ptr<NetworkRank> network_;
};

/// How a collective (or one transfer) failed: the stream's error and the
/// communicator's asynchronous HCCL error.
struct Failure {
    aclError streamCode = ACL_SUCCESS;
    HcclResult hcclCode = HCCL_SUCCESS;
    std::string message;
};

/// A meeting's place among its group's: the channel (0: collectives; else
/// the transfers from one rank to another), the call's place among the
/// channel's calls, and the arming (a captured call meets again at every
/// replay).
struct MeetingKey {
    uint64_t channel = 0;
    uint64_t sequence = 0;
    uint64_t generation = 0;
    bool operator<(const MeetingKey& o) const noexcept {
        return std::tie(channel, sequence, generation) < std::tie(o.channel, o.sequence, o.generation);
    }
};

class RankCall;

/// The parties of one collective (or transfer) as they arrive and leave.
/// Guarded by its group's mutex.
struct Meeting {
    explicit Meeting(size_t partyCount) : calls(partyCount), args(partyCount, nullptr) {}

    std::vector<std::shared_ptr<RankCall>> calls;  ///< By party; null until it arrives.
    Parties args;
    uint32_t arrived = 0;
    uint32_t departed = 0;
    bool settled = false;            ///< Every party arrived, or it failed.
    Clock::time_point deadline;      ///< Of its watch (see Watchdog).
    uint64_t watch = 0;
    std::optional<Failure> failure;  ///< Set when it failed.
};

/// One part of a rank's call: one meeting it joins.  A collective has one;
/// HcclBatchSendRecv one per transfer.
struct Part {
    CallArgs args;
    MeetingKey key;      ///< The current arming's (generation: the arming's count).
    uint32_t party = 0;  ///< This rank's party index in the meeting.
    uint32_t parties = 0;
    std::shared_ptr<Meeting> meeting;  ///< The current arming's.
};

/// One rank's call, shared by its three stream places.  Armings of one
/// call never overlap (a stream runs its places in order, and replays of a
/// captured graph one after another), so the current arming's state needs
/// no lock of its own.
class RankCall : public std::enable_shared_from_this<RankCall> {
public:
    RankCall(std::shared_ptr<Rank> rank, const char* api, std::vector<Part> parts)
        : rank_(std::move(rank)), api_(api), parts_(std::move(parts)) {}

    const char* api() const noexcept { return api_; }
    Rank& rank() const noexcept { return *rank_; }
    std::vector<Part>& parts() noexcept { return parts_; }

    /// The first gate: join every part's meeting.
    void arrive(Gate gate);
    /// The task: move this rank's share of every part that did not fail;
    /// the first failure (memcheck's) is the task's.
    aclError move_shares();
    /// The last gate: leave every meeting.
    void depart(Gate gate);

private:
    friend class Group;

    const std::shared_ptr<Rank> rank_;
    const char* const api_;
    std::vector<Part> parts_;
    uint64_t armings_ = 0;
    // The current arming's gates and what they wait for (group's mutex).
    std::optional<Gate> arrival_, departure_;
    size_t unsettled_ = 0;
    size_t undeparted_ = 0;
    std::optional<Failure> failure_;
};

/// The ranks of one communicator in this process.
class Group : public std::enable_shared_from_this<Group> {
public:
    Group(uint32_t ranks, std::string name) : ranks_(ranks), name_(std::move(name)), destroyed_(ranks, false) {}

    uint32_t ranks() const noexcept { return ranks_; }
    const std::string& name() const noexcept { return name_; }

    /// RankCall's three steps (see there).
    void arrive(const std::shared_ptr<RankCall>& call, Gate gate);
    void depart(const std::shared_ptr<RankCall>& call, Gate gate);
    /// The watchdog: the meeting at key times out if some party is missing.
    void expire(const MeetingKey& key);
    /// HcclCommDestroy of rank: its pending meetings fail, for it and its peers.
    void destroy_rank(uint32_t rank);

private:
    /// A settled call's gate to open or fail, once the mutex is released.
    struct Settlement {
        Gate gate;
        std::optional<Failure> failure;
        std::shared_ptr<RankCall> call;
        /// The gate of the party whose coming settled it, shown to observers
        /// as what opened this one (none when the watchdog or a destroyed
        /// rank settled it).
        std::optional<Gate> openedBy;
    };
    using Settlements = std::vector<Settlement>;

    std::shared_ptr<Meeting> meeting_at(const MeetingKey& key, std::chrono::milliseconds timeout);
    /// Marks meeting settled (failed with failure, if given) and counts it
    /// down in every arrived party; `by`: the gate of the party that came last.
    void settle(Meeting& meeting, std::optional<Failure> failure, const std::optional<Gate>& by, Settlements& out);
    /// One of call's meetings settled (failure: it failed; by: as settle's).
    static void count_down_arrival(RankCall& call, const std::optional<Failure>& failure,
                                   const std::optional<Gate>& by, Settlements& out);
    /// Drops the meeting at key (every party has left it).
    void forget(const MeetingKey& key);
    /// The ranks that never came to meeting, for a failure's message.
    std::string missing_ranks(const MeetingKey& key, const Meeting& meeting) const;
    uint32_t rank_of_party(const MeetingKey& key, uint32_t party) const noexcept;
    bool has_destroyed_party(const MeetingKey& key, const Meeting& meeting) const;
    /// Every rank has destroyed its communicator.
    bool abandoned() const;
    static void apply(Settlements& settlements);

    const uint32_t ranks_;
    const std::string name_;
    std::mutex mutex_;
    std::map<MeetingKey, std::shared_ptr<Meeting>> meetings_;
    std::vector<bool> destroyed_;
};

/// The channel of the transfers from rank `from` to rank `to` of a group of `ranks`.
inline uint64_t transfer_channel(uint32_t from, uint32_t to, uint32_t ranks) noexcept {
    return 1 + uint64_t{from} * ranks + to;
}

}  // namespace aclcpu::hccl::detail
