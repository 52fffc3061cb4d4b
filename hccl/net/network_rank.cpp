// acl-cpu HCCL: NetworkRank (see network_rank.hpp).
#include "net/network_rank.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

#include <gloo/common/error.h>

#include "core/algorithms.hpp"
#include "core/group.hpp"
#include "core/reduction.hpp"

namespace aclcpu::hccl::detail {
namespace {

/// What a rank tells each peer of its call, to find disagreements.
struct Signature {
    uint32_t kind = 0;
    uint32_t dtype = 0;
    uint32_t op = 0;
    uint32_t root = 0;
    uint64_t count = 0;
    uint64_t recvCount = 0;
    uint64_t sends = 0;     ///< Elements the rank sends to this peer (the all-to-all-v's).
    uint64_t receives = 0;  ///< Elements it expects from this peer.
};

bool rooted(Kind kind) { return kind == Kind::kBroadcast || kind == Kind::kReduce || kind == Kind::kScatter; }

Signature signature_for(const CallArgs& a, uint32_t me, uint32_t peer, uint32_t ranks) {
    Signature s;
    s.kind = static_cast<uint32_t>(a.kind);
    s.dtype = static_cast<uint32_t>(a.dtype);
    s.op = reduces(a.kind) ? static_cast<uint32_t>(a.op) : 0;
    s.root = rooted(a.kind) ? a.root : 0;
    switch (a.kind) {
        case Kind::kAlltoAllV: s.sends = a.sendCounts[peer], s.receives = a.recvCounts[peer]; break;
        case Kind::kReduceScatterV: s.sends = a.sendCounts[peer], s.receives = a.count; break;
        case Kind::kAllGatherV: s.sends = a.count, s.receives = a.recvCounts[peer]; break;
        case Kind::kAlltoAllVC:
            s.sends = a.countMatrix[uint64_t{me} * ranks + peer];
            s.receives = a.countMatrix[uint64_t{peer} * ranks + me];
            break;
        default: s.count = a.count, s.recvCount = a.recvCount; break;
    }
    return s;
}

/// The part of every rank's input that rank j reduces in a reducing call
/// of `ranks` ranks.
Slice reduced_slice(const CallArgs& a, uint32_t j, uint32_t ranks) {
    switch (a.kind) {
        case Kind::kReduceScatterV: return Slice{a.sendDispls[j], a.sendCounts[j]};
        case Kind::kReduceScatter: return Slice{j * a.count, a.count};
        default: return slice_of(a.count, ranks, j);
    }
}

bool agrees(const Signature& mine, const Signature& theirs) {
    return theirs.kind == mine.kind && theirs.dtype == mine.dtype && theirs.op == mine.op &&
           theirs.root == mine.root && theirs.count == mine.count && theirs.recvCount == mine.recvCount &&
           theirs.sends == mine.receives && theirs.receives == mine.sends;
}

std::string describe(uint32_t rank, const Signature& s) {
    char text[256];
    std::snprintf(text, sizeof text, "rank %u: %s count %llu/%llu type %u op %u root %u, sends %llu, expects %llu",
                  rank, kind_name(static_cast<Kind>(s.kind)), static_cast<unsigned long long>(s.count),
                  static_cast<unsigned long long>(s.recvCount), s.dtype, s.op, s.root,
                  static_cast<unsigned long long>(s.sends), static_cast<unsigned long long>(s.receives));
    return text;
}

char* at(void* base, uint64_t elements, size_t elementBytes) {
    return static_cast<char*>(base) + elements * elementBytes;
}

const char* at(const void* base, uint64_t elements, size_t elementBytes) {
    return static_cast<const char*>(base) + elements * elementBytes;
}

NetworkFailure transport_failure(const std::exception& error) {
    const bool timedOut = std::strstr(error.what(), "Timed out") != nullptr;
    return NetworkFailure{timedOut ? ACL_ERROR_RT_TASK_TIMEOUT : ACL_ERROR_RT_SUSPECT_REMOTE_ERROR,
                          timedOut ? HCCL_E_TIMEOUT : HCCL_E_REMOTE, error.what()};
}

}  // namespace

/// One round of messages: every receive posted, then every send, then all
/// awaited.  Empty messages are not sent (both sides know their sizes).
class NetworkRank::Exchange {
public:
    explicit Exchange(NetworkRank& owner) : owner_(owner) {}

    void send(uint32_t peer, const void* data, uint64_t bytes) {
        if (bytes != 0) sends_.push_back({peer, const_cast<void*>(data), bytes, nullptr});
    }
    void receive(uint32_t peer, void* data, uint64_t bytes) {
        if (bytes != 0) receives_.push_back({peer, data, bytes, nullptr});
    }

    /// Throws NetworkFailure: a timeout, a lost peer, or an abort.
    void run() {
        for (Message& m : receives_) post(m, false);
        for (Message& m : sends_) post(m, true);
        {
            const std::lock_guard<std::mutex> lock(owner_.mutex_);
            if (owner_.stopping_) throw NetworkFailure{ACL_ERROR_RT_SUSPECT_REMOTE_ERROR, HCCL_E_REMOTE, kDestroyed};
            owner_.running_ = this;
        }
        std::optional<NetworkFailure> failure;
        for (Message& m : receives_) await(m, false, failure);
        for (Message& m : sends_) await(m, true, failure);
        const std::lock_guard<std::mutex> lock(owner_.mutex_);
        owner_.running_ = nullptr;
        if (failure) throw *failure;
    }

    /// From another thread, under the owner's mutex: ends every wait.
    void abort() {
        for (Message& m : receives_) m.buffer->abortWaitRecv();
        for (Message& m : sends_) m.buffer->abortWaitSend();
    }

private:
    static constexpr const char* kDestroyed = "the communicator was destroyed with the call pending";

    struct Message {
        uint32_t peer;
        void* data;
        uint64_t bytes;
        std::unique_ptr<gloo::transport::UnboundBuffer> buffer;
    };

    void post(Message& m, bool sending) {
        m.buffer = owner_.context_->createUnboundBuffer(m.data, m.bytes);
        if (sending) {
            m.buffer->send(static_cast<int>(m.peer), owner_.sendSlots_[m.peer]++);
        } else {
            m.buffer->recv(static_cast<int>(m.peer), owner_.recvSlots_[m.peer]++);
        }
    }

    /// Waits for one message (after a failure: only aborts the rest).
    void await(Message& m, bool sending, std::optional<NetworkFailure>& failure) {
        if (failure) {
            sending ? m.buffer->abortWaitSend() : m.buffer->abortWaitRecv();
            return;
        }
        try {
            const bool done = sending ? m.buffer->waitSend(nullptr, owner_.timeout_)
                                      : m.buffer->waitRecv(nullptr, owner_.timeout_);
            if (!done) failure = NetworkFailure{ACL_ERROR_RT_SUSPECT_REMOTE_ERROR, HCCL_E_REMOTE, kDestroyed};
        } catch (const std::exception& error) {
            failure = transport_failure(error);
            failure->message = std::string(sending ? "sending to" : "receiving from") + " rank " +
                               std::to_string(m.peer) + ": " + failure->message;
        }
    }

    NetworkRank& owner_;
    std::vector<Message> sends_, receives_;
};

NetworkRank::NetworkRank(std::shared_ptr<gloo::Context> context, std::chrono::milliseconds timeout)
    : context_(std::move(context)),
      timeout_(timeout),
      me_(static_cast<uint32_t>(context_->rank)),
      ranks_(static_cast<uint32_t>(context_->size)),
      sendSlots_(ranks_, 0),
      recvSlots_(ranks_, 0),
      thread_([this] { serve(); }) {}

NetworkRank::~NetworkRank() { shutdown(); }

void NetworkRank::post(std::shared_ptr<Rank> rank, const char* api, std::shared_ptr<const std::vector<CallArgs>> parts,
                       Gate gate) {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (!stopping_) {
            queue_.push_back(Job{std::move(rank), api, std::move(parts), std::move(gate)});
            wake_.notify_one();
            return;
        }
    }
    rank->note_failure(HCCL_E_REMOTE);
    gate.fail(ACL_ERROR_RT_SUSPECT_REMOTE_ERROR, std::string(api) + ": the communicator was destroyed");
}

void NetworkRank::shutdown() {
    std::deque<Job> dropped;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
        dropped.swap(queue_);
        if (running_ != nullptr) running_->abort();
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
    for (Job& job : dropped) {
        job.rank->note_failure(HCCL_E_REMOTE);
        job.gate.fail(ACL_ERROR_RT_SUSPECT_REMOTE_ERROR,
                      std::string(job.api) + ": the communicator was destroyed with the call pending");
    }
}

void NetworkRank::serve() {
    for (;;) {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;
        Job job = std::move(queue_.front());
        queue_.pop_front();
        lock.unlock();
        run(job);
    }
}

void NetworkRank::run(const Job& job) {
    std::optional<NetworkFailure> failure;
    try {
        if (broken_) {
            throw NetworkFailure{broken_->streamCode, broken_->hcclCode,
                                 "an earlier call of the communicator failed: " + broken_->message};
        }
        execute(*job.parts);
    } catch (const NetworkFailure& thrown) {
        failure = thrown;
    } catch (const std::exception& error) {  // Gloo's, posting to a pair that is gone.
        failure = transport_failure(error);
    }
    if (!failure) {
        job.gate.open();
        return;
    }
    // A disagreement leaves the connections in step (every rank skipped the
    // data); anything else may not have.
    if (failure->hcclCode != HCCL_E_PARA && !broken_) broken_ = failure;
    job.rank->note_failure(failure->hcclCode);
    job.gate.fail(failure->streamCode, std::string(job.api) + ": " + failure->message);
}

void NetworkRank::agree(const CallArgs& args, const std::vector<uint32_t>& peers) {
    std::vector<Signature> mine(peers.size()), theirs(peers.size());
    Exchange exchange(*this);
    for (size_t i = 0; i < peers.size(); ++i) {
        mine[i] = signature_for(args, me_, peers[i], ranks_);
        exchange.receive(peers[i], &theirs[i], sizeof(Signature));
        exchange.send(peers[i], &mine[i], sizeof(Signature));
    }
    exchange.run();
    std::string disagreement;
    for (size_t i = 0; i < peers.size() && disagreement.empty(); ++i) {
        if (!agrees(mine[i], theirs[i])) {
            disagreement =
                "the ranks' calls disagree: " + describe(me_, mine[i]) + "; " + describe(peers[i], theirs[i]);
        }
    }
    // Equal fields agree transitively; the all-to-all-v's pairwise counts do
    // not (ranks 1 and 2 may disagree while rank 0 agrees with both), so
    // there every rank also tells every peer whether it found a
    // disagreement, and all fail if any did.
    const bool pairwise = args.kind == Kind::kAlltoAllV || args.kind == Kind::kAlltoAllVC ||
                          args.kind == Kind::kReduceScatterV || args.kind == Kind::kAllGatherV;
    if (pairwise) {
        const char verdict = disagreement.empty() ? 1 : 0;
        std::vector<char> verdicts(peers.size(), 1);
        Exchange votes(*this);
        for (size_t i = 0; i < peers.size(); ++i) {
            votes.receive(peers[i], &verdicts[i], 1);
            votes.send(peers[i], &verdict, 1);
        }
        votes.run();
        for (size_t i = 0; i < peers.size() && disagreement.empty(); ++i) {
            if (verdicts[i] == 0) {
                disagreement = "rank " + std::to_string(peers[i]) + " found the ranks' calls disagree";
            }
        }
    }
    if (!disagreement.empty()) throw NetworkFailure{ACL_ERROR_RT_PARAM_INVALID, HCCL_E_PARA, disagreement};
}

void NetworkRank::execute(const std::vector<CallArgs>& calls) {
    const bool transfers = calls.front().kind == Kind::kSend || calls.front().kind == Kind::kRecv;
    if (!transfers) return execute_collective(calls.front());
    // A batch's transfers move together (a ring of sends and receives only
    // completes that way).  The k-th send to a peer meets the peer's k-th
    // receive from this rank: each direction of a pair has its own slots.
    Exchange exchange(*this);
    for (const CallArgs& a : calls) {
        const uint64_t bytes = a.count * element_bytes(a.dtype);
        a.kind == Kind::kSend ? exchange.send(a.root, a.send, bytes) : exchange.receive(a.root, a.recv, bytes);
    }
    exchange.run();
}

void NetworkRank::execute_collective(const CallArgs& a) {
    std::vector<uint32_t> peers;
    for (uint32_t r = 0; r < ranks_; ++r) {
        if (r != me_) peers.push_back(r);
    }
    agree(a, peers);
    const size_t eb = element_bytes(a.dtype);
    const uint32_t n = ranks_;
    Exchange exchange(*this);
    switch (a.kind) {
        case Kind::kAllReduce:
        case Kind::kReduceScatter:
        case Kind::kReduceScatterV:
        case Kind::kReduce: {
            // Slice j of every input goes to rank j, which reduces it in rank order.
            const bool scatter = a.kind == Kind::kReduceScatter || a.kind == Kind::kReduceScatterV;
            const auto slice = [&](uint32_t j) { return reduced_slice(a, j, n); };
            const Slice own = slice(me_);
            std::vector<char> gathered(uint64_t{n} * own.count * eb);
            std::vector<const void*> sources(n);
            for (uint32_t r = 0; r < n; ++r) {
                if (r == me_) {
                    sources[r] = at(a.send, own.begin, eb);
                    continue;
                }
                sources[r] = gathered.data() + uint64_t{r} * own.count * eb;
                exchange.receive(r, gathered.data() + uint64_t{r} * own.count * eb, own.count * eb);
                exchange.send(r, at(a.send, slice(r).begin, eb), slice(r).count * eb);
            }
            exchange.run();
            const bool keep = a.kind != Kind::kReduce || a.root == me_;
            std::vector<char> reduced(keep ? 0 : own.count * eb);
            void* target = scatter ? a.recv : keep ? at(a.recv, own.begin, eb) : static_cast<void*>(reduced.data());
            if (own.count != 0) reduce(a.op, a.dtype, &target, 1, sources.data(), n, own.count);
            if (scatter) return;
            // The reduced slices go to every rank (AllReduce) or to the root.
            Exchange spread(*this);
            for (uint32_t r = 0; r < n; ++r) {
                if (r == me_) continue;
                if (a.kind == Kind::kAllReduce || a.root == me_) {
                    spread.receive(r, at(a.recv, slice(r).begin, eb), slice(r).count * eb);
                }
                if (a.kind == Kind::kAllReduce || a.root == r) spread.send(r, target, own.count * eb);
            }
            spread.run();
            return;
        }
        case Kind::kBroadcast:
            for (uint32_t r = 0; r < n; ++r) {
                if (a.root == me_ && r != me_) exchange.send(r, a.recv, a.count * eb);
            }
            if (a.root != me_) exchange.receive(a.root, a.recv, a.count * eb);
            break;
        case Kind::kAllGather:
        case Kind::kAllGatherV: {
            const bool v = a.kind == Kind::kAllGatherV;
            const auto place = [&](uint32_t r) { return at(a.recv, v ? a.recvDispls[r] : r * a.count, eb); };
            for (uint32_t r = 0; r < n; ++r) {
                if (r == me_) continue;
                exchange.send(r, a.send, a.count * eb);
                exchange.receive(r, place(r), (v ? a.recvCounts[r] : a.count) * eb);
            }
            std::memmove(place(me_), a.send, a.count * eb);
            break;
        }
        case Kind::kScatter:
            if (a.root == me_) {
                for (uint32_t r = 0; r < n; ++r) {
                    if (r != me_) exchange.send(r, at(a.send, r * a.count, eb), a.count * eb);
                }
                std::memmove(a.recv, at(a.send, me_ * a.count, eb), a.count * eb);
            } else {
                exchange.receive(a.root, a.recv, a.count * eb);
            }
            break;
        case Kind::kAlltoAll:
        case Kind::kAlltoAllV:
        case Kind::kAlltoAllVC: {
            std::vector<uint64_t> sendAt(n), sendCount(n), recvAt(n), recvCount(n);
            for (uint32_t r = 0; r < n; ++r) {
                if (a.kind == Kind::kAlltoAll) {
                    sendAt[r] = r * a.count, sendCount[r] = a.count, recvAt[r] = r * a.recvCount;
                    recvCount[r] = a.recvCount;
                } else if (a.kind == Kind::kAlltoAllV) {
                    sendAt[r] = a.sendDispls[r], sendCount[r] = a.sendCounts[r];
                    recvAt[r] = a.recvDispls[r], recvCount[r] = a.recvCounts[r];
                } else {
                    sendCount[r] = a.countMatrix[uint64_t{me_} * n + r];
                    recvCount[r] = a.countMatrix[uint64_t{r} * n + me_];
                    sendAt[r] = r == 0 ? 0 : sendAt[r - 1] + sendCount[r - 1];
                    recvAt[r] = r == 0 ? 0 : recvAt[r - 1] + recvCount[r - 1];
                }
            }
            for (uint32_t r = 0; r < n; ++r) {
                if (r == me_) continue;
                exchange.send(r, at(a.send, sendAt[r], eb), sendCount[r] * eb);
                exchange.receive(r, at(a.recv, recvAt[r], eb), recvCount[r] * eb);
            }
            std::memmove(at(a.recv, recvAt[me_], eb), at(a.send, sendAt[me_], eb), sendCount[me_] * eb);
            break;
        }
        case Kind::kBarrier: break;  // The signatures' exchange was the barrier.
        case Kind::kSend:
        case Kind::kRecv: break;  // execute()'s.
    }
    exchange.run();
}

}  // namespace aclcpu::hccl::detail
