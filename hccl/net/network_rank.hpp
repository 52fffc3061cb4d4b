// acl-cpu HCCL: NetworkRank -- one rank of a communicator whose ranks live
// in several processes (or hosts), moving data over Gloo.
//
// CPU mapping: such a rank's call takes one gated place of its stream (and
// a place that declares its buffers to observers).  When the stream reaches
// the gate, the call is handed to the rank's communication thread -- the
// part of an NPU's HCCL that drives the network -- which runs the rank's
// calls one after another in the order their gates were reached, and opens
// the gate once this rank's buffers are final.  No device worker waits.
//
// Every collective first exchanges a small signature with each peer, so
// that ranks that disagree on what the call is (kind, counts, type, op,
// root) all fail it with HCCL_E_PARA instead of misreading each other's
// bytes (a transfer whose sizes differ fails in the transport instead).
// The data then moves as point-to-point messages over Gloo's TCP pairs
// (unbound buffers), by the same full-mesh algorithm as in one process: a
// reduction sends slice j of every input to rank j, which combines the
// ranks' values in rank order with the same code as in one process and
// sends the reduced slice to every rank that needs it -- so the results are
// the same bits as an in-process run of the same program.
#pragma once

#include "core/internal.hpp"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gloo/context.h>
#include <gloo/transport/unbound_buffer.h>

#include "aclcpu/stream_gate.hpp"
#include "core/call.hpp"

namespace aclcpu::hccl::detail {

class Rank;

/// How a networked call failed.
struct NetworkFailure {
    aclError streamCode = ACL_SUCCESS;
    HcclResult hcclCode = HCCL_SUCCESS;
    std::string message;
};

/// Thread-safe.
class NetworkRank {
public:
    /// context: this rank's connected Gloo context (rendezvous done);
    /// timeout: how long one call may wait for its peers (hcclExecTimeOut).
    NetworkRank(std::shared_ptr<gloo::Context> context, std::chrono::milliseconds timeout);
    ~NetworkRank();
    NetworkRank(const NetworkRank&) = delete;
    NetworkRank& operator=(const NetworkRank&) = delete;

    /// Queues one arming of a call: `parts` run after every call posted
    /// before; then `gate` opens, or fails with the failure's stream code
    /// (and rank notes its HCCL code).  Calls posted after shutdown() fail.
    void post(std::shared_ptr<Rank> rank, const char* api, std::shared_ptr<const std::vector<CallArgs>> parts,
              Gate gate);
    /// HcclCommDestroy: queued calls fail, a running one is aborted, and
    /// the communication thread ends (once it has, the context may go and
    /// close the connections: the peers' pending calls fail then).  Not on
    /// the communication thread; the destructor calls it.
    void shutdown();

private:
    struct Job {
        std::shared_ptr<Rank> rank;
        const char* api;
        std::shared_ptr<const std::vector<CallArgs>> parts;
        Gate gate;
    };
    class Exchange;

    void serve();
    void run(const Job& job);
    /// One call: a collective, or a batch of transfers.
    void execute(const std::vector<CallArgs>& calls);
    void execute_collective(const CallArgs& args);
    /// Sends this rank's signature of args to every peer in `peers` and
    /// checks theirs; throws a failure naming the first disagreement.
    void agree(const CallArgs& args, const std::vector<uint32_t>& peers);

    const std::shared_ptr<gloo::Context> context_;
    const std::chrono::milliseconds timeout_;
    const uint32_t me_;
    const uint32_t ranks_;
    std::vector<uint64_t> sendSlots_, recvSlots_;  ///< The next message's slot, per peer (the thread's).
    std::optional<NetworkFailure> broken_;  ///< The transport failed: every later call fails (the thread's).

    std::mutex mutex_;  ///< Guards the members below.
    std::condition_variable wake_;
    std::deque<Job> queue_;
    bool stopping_ = false;
    Exchange* running_ = nullptr;  ///< The exchange the thread waits in, to abort it.
    std::thread thread_;           ///< Last: starts once everything above exists.
};

}  // namespace aclcpu::hccl::detail
