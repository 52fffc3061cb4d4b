// acl-cpu HCCL: the collective and point-to-point entry points (hccl/hccl.h).
//
// Each checks its arguments in HCCL's order, describes the rank's part of
// the call, and submits it as three places of the stream (see group.hpp).
#include "hccl/hccl.h"

#include <algorithm>
#include <initializer_list>
#include <vector>

#include "aclcpu/device_task.hpp"
#include "aclcpu/dtype.hpp"
#include "aclcpu/instrumentation.hpp"
#include "aclcpu/stream_gate.hpp"
#include "api/arguments.hpp"
#include "core/reduction.hpp"
#include "net/network_rank.hpp"

namespace aclcpu::hccl::detail {
namespace {

/// The first and last gate of a call.
class CallGate final : public GateArming {
public:
    enum class Step { kArrive, kDepart };
    CallGate(std::shared_ptr<RankCall> call, Step step) : call_(std::move(call)), step_(step) {}

    void arm(Gate gate) override {
        if (step_ == Step::kArrive) {
            call_->arrive(std::move(gate));
        } else {
            call_->depart(std::move(gate));
        }
    }
    const char* name() const noexcept override { return call_->api(); }

private:
    const std::shared_ptr<RankCall> call_;
    const Step step_;
};

/// The rank's share of the data movement, between the gates.
class ShareTask final : public DeviceTask {
public:
    explicit ShareTask(std::shared_ptr<RankCall> call) : call_(std::move(call)) {}
    aclError run() override { return call_->move_shares(); }
    const char* name() const noexcept override { return call_->api(); }

private:
    const std::shared_ptr<RankCall> call_;
};

uint64_t bytes_of(uint64_t count, HcclDataType dtype) { return count * element_bytes(dtype); }

/// Elements of the largest extent `counts[i]` at `displs[i]` reach,
/// saturated so that check_buffer reports an overflow (a wrapped sum would
/// pass it and send the share to a wild address).
uint64_t extent(const std::vector<uint64_t>& counts, const std::vector<uint64_t>& displs) {
    uint64_t end = 0;
    for (size_t i = 0; i < counts.size(); ++i) {
        if (counts[i] == 0) continue;
        end = std::max(end, displs[i] > UINT64_MAX - counts[i] ? UINT64_MAX : displs[i] + counts[i]);
    }
    return end;
}

/// What the rank's own buffers see of the call, for the race checker: the
/// stream reads its input and writes its output.
void add_accesses(const CallArgs& a, uint32_t me, uint32_t ranks, std::vector<instrument::MemoryAccess>& out) {
    using Kind_ = instrument::MemoryAccess::Kind;
    const auto add = [&](const void* buffer, uint64_t count, Kind_ kind, const char* role) {
        if (count != 0) out.push_back(instrument::MemoryAccess{buffer, bytes_of(count, a.dtype), kind, role});
    };
    const bool root = me == a.root;
    switch (a.kind) {
        case Kind::kAllReduce:
            add(a.send, a.count, Kind_::kRead, "send"), add(a.recv, a.count, Kind_::kWrite, "recv");
            break;
        case Kind::kBroadcast: add(a.recv, a.count, root ? Kind_::kRead : Kind_::kWrite, "buf"); break;
        case Kind::kReduce:
            add(a.send, a.count, Kind_::kRead, "send");
            if (root) add(a.recv, a.count, Kind_::kWrite, "recv");
            break;
        case Kind::kAllGather:
            add(a.send, a.count, Kind_::kRead, "send"), add(a.recv, a.count * ranks, Kind_::kWrite, "recv");
            break;
        case Kind::kAllGatherV:
            add(a.send, a.count, Kind_::kRead, "send");
            add(a.recv, extent(a.recvCounts, a.recvDispls), Kind_::kWrite, "recv");
            break;
        case Kind::kReduceScatter:
            add(a.send, a.count * ranks, Kind_::kRead, "send"), add(a.recv, a.count, Kind_::kWrite, "recv");
            break;
        case Kind::kReduceScatterV:
            add(a.send, extent(a.sendCounts, a.sendDispls), Kind_::kRead, "send");
            add(a.recv, a.count, Kind_::kWrite, "recv");
            break;
        case Kind::kScatter:
            if (root) add(a.send, a.count * ranks, Kind_::kRead, "send");
            add(a.recv, a.count, Kind_::kWrite, "recv");
            break;
        case Kind::kAlltoAll:
            add(a.send, a.count * ranks, Kind_::kRead, "send"), add(a.recv, a.recvCount * ranks, Kind_::kWrite, "recv");
            break;
        case Kind::kAlltoAllV:
            add(a.send, extent(a.sendCounts, a.sendDispls), Kind_::kRead, "send");
            add(a.recv, extent(a.recvCounts, a.recvDispls), Kind_::kWrite, "recv");
            break;
        case Kind::kAlltoAllVC: {
            uint64_t sent = 0, received = 0;
            for (uint32_t j = 0; j < ranks; ++j) {
                sent += a.countMatrix[uint64_t{me} * ranks + j];
                received += a.countMatrix[uint64_t{j} * ranks + me];
            }
            add(a.send, sent, Kind_::kRead, "send"), add(a.recv, received, Kind_::kWrite, "recv");
            break;
        }
        case Kind::kSend: add(a.send, a.count, Kind_::kRead, "send"); break;
        case Kind::kRecv: add(a.recv, a.count, Kind_::kWrite, "recv"); break;
        case Kind::kBarrier: break;
    }
}

/// Enqueues task, described to observers as the calls' reads and writes of
/// the rank's buffers (their data is final once the place is reached);
/// args_of(call) is a call's CallArgs.  Builds nothing unless observed.
template <typename Calls, typename ArgsOf>
aclError enqueue_described(aclrtStream stream, std::unique_ptr<DeviceTask> task, const Rank& rank, const char* api,
                           const Calls& calls, ArgsOf args_of) {
    if (!instrument::active()) return enqueue(stream, std::move(task));
    std::vector<instrument::MemoryAccess> accesses;
    for (const auto& call : calls) add_accesses(args_of(call), rank.rank(), rank.group().ranks(), accesses);
    instrument::WorkInfo work;
    work.name = api;
    work.category = "collective";
    work.accesses = accesses.data();
    work.accessCount = accesses.size();
    return instrument::enqueue(stream, std::move(task), work);
}

/// A call of a networked rank: one gate, opened by the rank's communication
/// thread once the call's data has moved.
class NetworkGate final : public GateArming {
public:
    NetworkGate(std::shared_ptr<Rank> rank, const char* api, std::shared_ptr<const std::vector<CallArgs>> calls)
        : rank_(std::move(rank)), api_(api), calls_(std::move(calls)) {}
    void arm(Gate gate) override { rank_->network()->post(rank_, api_, calls_, std::move(gate)); }
    const char* name() const noexcept override { return api_; }

private:
    const std::shared_ptr<Rank> rank_;
    const char* const api_;
    const std::shared_ptr<const std::vector<CallArgs>> calls_;
};

/// What a networked call's buffers are, for observers, after its gate: the
/// place itself does nothing (the data moved while the gate was shut).
class DeclaredBuffers final : public DeviceTask {
public:
    explicit DeclaredBuffers(const char* api) : api_(api) {}
    aclError run() override { return ACL_SUCCESS; }
    const char* name() const noexcept override { return api_; }

private:
    const char* const api_;
};

HcclResult submit_networked(const std::shared_ptr<Rank>& rank, const char* api, const std::vector<Part>& parts,
                            aclrtStream stream) {
    auto calls = std::make_shared<std::vector<CallArgs>>();
    for (const Part& part : parts) calls->push_back(part.args);
    aclError status = enqueue_gate(stream, std::make_shared<NetworkGate>(rank, api, calls));
    if (status == ACL_SUCCESS && instrument::active()) {
        status = enqueue_described(stream, std::make_unique<DeclaredBuffers>(api), *rank, api, *calls,
                                   [](const CallArgs& args) -> const CallArgs& { return args; });
    }
    if (status != ACL_SUCCESS) {
        return refuse(HCCL_E_RUNTIME, api, "the stream refused the work (runtime error %d)", status);
    }
    return HCCL_SUCCESS;
}

HcclResult submit(const std::shared_ptr<Rank>& rank, const char* api, std::vector<Part> parts, aclrtStream stream) {
    if (rank->network() != nullptr) return submit_networked(rank, api, parts, stream);
    auto call = std::make_shared<RankCall>(rank, api, std::move(parts));
    aclError status = enqueue_gate(stream, std::make_shared<CallGate>(call, CallGate::Step::kArrive));
    if (status == ACL_SUCCESS) {
        status = enqueue_described(stream, std::make_unique<ShareTask>(call), *rank, api, call->parts(),
                                   [](const Part& part) -> const CallArgs& { return part.args; });
    }
    if (status == ACL_SUCCESS) status = enqueue_gate(stream, std::make_shared<CallGate>(call, CallGate::Step::kDepart));
    if (status != ACL_SUCCESS) {
        return refuse(HCCL_E_RUNTIME, api, "the stream refused the work (runtime error %d)", status);
    }
    return HCCL_SUCCESS;
}

Part collective_part(Rank& rank, CallArgs args) {
    Part part;
    part.args = std::move(args);
    part.key = MeetingKey{0, rank.next_collective(), 0};
    part.party = rank.rank();
    part.parties = rank.group().ranks();
    return part;
}

Part transfer_part(Rank& rank, CallArgs args) {
    const bool sending = args.kind == Kind::kSend;
    const uint32_t me = rank.rank(), peer = args.root, ranks = rank.group().ranks();
    Part part;
    part.args = std::move(args);
    part.key = sending ? MeetingKey{transfer_channel(me, peer, ranks), rank.next_send(peer), 0}
                       : MeetingKey{transfer_channel(peer, me, ranks), rank.next_recv(peer), 0};
    part.party = sending ? 0 : 1;
    part.parties = 2;
    return part;
}

/// A transfer's peer and buffer (its type checked by check_codes).
HcclResult check_transfer(const CallArgs& a, const Rank& rank) {
    HcclResult status = check_rank(a.root, rank, a.api, a.kind == Kind::kSend ? "destRank" : "srcRank");
    if (status == HCCL_SUCCESS && a.root == rank.rank()) {
        status = refuse(HCCL_E_PARA, a.api, "rank %u cannot transfer to itself", a.root);
    }
    if (status == HCCL_SUCCESS) {
        status = check_buffer(a.kind == Kind::kSend ? a.send : a.recv, a.count, a.dtype, a.api,
                              a.kind == Kind::kSend ? "sendBuf" : "recvBuf");
    }
    return status;
}

/// Checks every transfer (peer and buffer), then submits them as one call:
/// sequence numbers are taken only once all passed.
HcclResult submit_transfers(const std::shared_ptr<Rank>& rank, const char* api, std::vector<CallArgs> transfers,
                            aclrtStream stream) {
    for (CallArgs& args : transfers) {
        args.api = api;
        if (HcclResult status = check_transfer(args, *rank); status != HCCL_SUCCESS) return status;
    }
    std::vector<Part> parts;
    for (CallArgs& args : transfers) parts.push_back(transfer_part(*rank, std::move(args)));
    return submit(rank, api, std::move(parts), stream);
}

HcclResult submit_collective(const std::shared_ptr<Rank>& rank, CallArgs args, aclrtStream stream) {
    const char* api = args.api;
    std::vector<Part> parts;
    parts.push_back(collective_part(*rank, std::move(args)));
    return submit(rank, api, std::move(parts), stream);
}

CallArgs args_of(Kind kind, const void* send, void* recv, uint64_t count, HcclDataType dtype) {
    CallArgs args;
    args.kind = kind;
    args.api = kind_name(kind);
    args.send = send;
    args.recv = recv;
    args.count = count;
    args.dtype = dtype;
    args.recvType = dtype;
    return args;
}

/// The buffers of the calls whose ranks each send and receive `count`
/// elements of one type (checked by check_codes).
HcclResult check_uniform(const CallArgs& a, uint64_t sendCount, uint64_t recvCount) {
    HcclResult status = check_buffer(a.send, sendCount, a.dtype, a.api, "sendBuf");
    if (status == HCCL_SUCCESS) status = check_buffer(a.recv, recvCount, a.dtype, a.api, "recvBuf");
    return status;
}

/// The communicator, then the codes of the type and (for a reduction) the op.
HcclResult check_codes(HcclComm comm, const char* api, const HcclDataType& dtype, const HcclReduceOp* op,
                       std::shared_ptr<Rank>& rank) {
    HcclResult status = resolve(comm, api, rank);
    if (status == HCCL_SUCCESS) status = op != nullptr ? check_reduction(*op, dtype, api) : check_movable(dtype, api);
    return status;
}

/// HcclSend (kind kSend: buffer is the input) or HcclRecv.
HcclResult submit_transfer(Kind kind, void* buffer, uint64_t count, const HcclDataType& dtype, uint32_t peer,
                           HcclComm comm, aclrtStream stream) {
    const bool sending = kind == Kind::kSend;
    const char* api = kind_name(kind);
    std::shared_ptr<Rank> rank;
    if (HcclResult status = check_codes(comm, api, dtype, nullptr, rank); status != HCCL_SUCCESS) return status;
    CallArgs args = args_of(kind, sending ? buffer : nullptr, sending ? nullptr : buffer, count, dtype);
    args.root = peer;
    return submit_transfers(rank, api, {std::move(args)}, stream);
}

/// Copies a uint64_t[ranks] array of the caller's host memory.
HcclResult copy_counts(const void* array, uint32_t ranks, const char* api, const char* name,
                       std::vector<uint64_t>& out) {
    if (HcclResult status = require(array, api, name); status != HCCL_SUCCESS) return status;
    const auto* values = static_cast<const uint64_t*>(array);
    out.assign(values, values + ranks);
    return HCCL_SUCCESS;
}

/// One uint64_t[ranks] array argument of a V collective, and where its copy goes.
struct CountArray {
    const void* array;
    const char* name;
    std::vector<uint64_t>& copy;
};

/// Copies arrays in order; the first missing one fails the call.
HcclResult copy_count_arrays(uint32_t ranks, const char* api, std::initializer_list<CountArray> arrays) {
    for (const CountArray& a : arrays) {
        if (HcclResult status = copy_counts(a.array, ranks, api, a.name, a.copy); status != HCCL_SUCCESS) return status;
    }
    return HCCL_SUCCESS;
}

/// A V collective's entry for the calling rank itself (`array`[rank]) must
/// be its own count: the rank sends itself what it reduces or gathers.
HcclResult check_own_part(uint64_t entry, uint64_t count, const char* api, const char* array) {
    if (entry == count) return HCCL_SUCCESS;
    return refuse(HCCL_E_PARA, api, "%s names %llu elements for this rank, its count is %llu", array,
                  static_cast<unsigned long long>(entry), static_cast<unsigned long long>(count));
}

/// Rooted calls: the root, then check_uniform's checks of the buffers the
/// rank uses (Scatter reads the root's input only, Reduce writes the root's
/// output only).
HcclResult check_rooted(const CallArgs& a, uint64_t sendCount, uint64_t recvCount, const Rank& rank) {
    if (HcclResult status = check_rank(a.root, rank, a.api, "root"); status != HCCL_SUCCESS) return status;
    const bool root = a.root == rank.rank();
    return check_uniform(a, root || a.kind != Kind::kScatter ? sendCount : 0,
                         root || a.kind != Kind::kReduce ? recvCount : 0);
}

/// count elements from (to) every rank, saturated so that check_buffer
/// reports an overflow.
uint64_t times_ranks(uint64_t count, const Rank& rank) {
    const uint64_t ranks = rank.group().ranks();
    return count > UINT64_MAX / ranks ? UINT64_MAX : count * ranks;
}


/// The collectives whose ranks each send and receive `count` elements of one
/// type, or `count` from (to) every rank: the communicator and codes, then
/// the root of a rooted call, then the buffers the rank uses.
HcclResult submit_uniform(Kind kind, void* send, void* recv, uint64_t count, const HcclDataType& dtype,
                          const HcclReduceOp* op, uint32_t root, HcclComm comm, aclrtStream stream) {
    const char* api = kind_name(kind);
    std::shared_ptr<Rank> rank;
    if (HcclResult status = check_codes(comm, api, dtype, op, rank); status != HCCL_SUCCESS) return status;
    CallArgs args = args_of(kind, send, recv, count, dtype);
    if (op != nullptr) args.op = *op;
    args.root = root;
    const uint64_t fromAll = times_ranks(count, *rank);
    const uint64_t sendCount = kind == Kind::kReduceScatter || kind == Kind::kScatter ? fromAll : count;
    const uint64_t recvCount = kind == Kind::kAllGather ? fromAll : count;
    const HcclResult status = kind == Kind::kBroadcast || kind == Kind::kScatter || kind == Kind::kReduce
                                  ? check_rooted(args, sendCount, recvCount, *rank)
                                  : check_uniform(args, sendCount, recvCount);
    return status == HCCL_SUCCESS ? submit_collective(rank, std::move(args), stream) : status;
}

/// The all-to-all-v's first checks (communicator, types) and arguments.
HcclResult begin_alltoall(Kind kind, const void* send, const void* recv, const HcclDataType& sendType,
                          const HcclDataType& recvType, HcclComm comm, std::shared_ptr<Rank>& rank, CallArgs& args) {
    const char* api = kind_name(kind);
    HcclResult status = resolve(comm, api, rank);
    if (status == HCCL_SUCCESS) status = check_same_types(sendType, recvType, api);
    if (status == HCCL_SUCCESS) args = args_of(kind, send, const_cast<void*>(recv), 0, sendType);
    return status;
}

}  // namespace
}  // namespace aclcpu::hccl::detail

using namespace aclcpu::hccl::detail;

extern "C" {

HcclResult HcclAllReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType, HcclReduceOp op,
                         HcclComm comm, aclrtStream stream) {
    return submit_uniform(Kind::kAllReduce, sendBuf, recvBuf, count, dataType, &op, 0, comm, stream);
}

HcclResult HcclBroadcast(void* buf, uint64_t count, HcclDataType dataType, uint32_t root, HcclComm comm,
                         aclrtStream stream) {
    return submit_uniform(Kind::kBroadcast, buf, buf, count, dataType, nullptr, root, comm, stream);
}

HcclResult HcclReduceScatter(void* sendBuf, void* recvBuf, uint64_t recvCount, HcclDataType dataType,
                             HcclReduceOp op, HcclComm comm, aclrtStream stream) {
    return submit_uniform(Kind::kReduceScatter, sendBuf, recvBuf, recvCount, dataType, &op, 0, comm, stream);
}

HcclResult HcclReduceScatterV(void* sendBuf, const void* sendCounts, const void* sendDispls, void* recvBuf,
                              uint64_t recvCount, HcclDataType dataType, HcclReduceOp op, HcclComm comm,
                              aclrtStream stream) {
    const char* api = "HcclReduceScatterV";
    std::shared_ptr<Rank> rank;
    HcclResult status = check_codes(comm, api, dataType, &op, rank);
    if (status == HCCL_SUCCESS && op == HCCL_REDUCE_PROD) {
        status = refuse(HCCL_E_NOT_SUPPORT, api, "op prod is not offered (sum, max, min are)");
    }
    if (status != HCCL_SUCCESS) return status;
    CallArgs args = args_of(Kind::kReduceScatterV, sendBuf, recvBuf, recvCount, dataType);
    args.op = op;
    const uint32_t ranks = rank->group().ranks();
    status = copy_count_arrays(ranks, api, {{sendCounts, "sendCounts", args.sendCounts},
                                            {sendDispls, "sendDispls", args.sendDispls}});
    if (status == HCCL_SUCCESS) status = check_own_part(args.sendCounts[rank->rank()], recvCount, api, "sendCounts");
    if (status == HCCL_SUCCESS) status = check_uniform(args, extent(args.sendCounts, args.sendDispls), recvCount);
    return status == HCCL_SUCCESS ? submit_collective(rank, std::move(args), stream) : status;
}

HcclResult HcclScatter(void* sendBuf, void* recvBuf, uint64_t recvCount, HcclDataType dataType, uint32_t root,
                       HcclComm comm, aclrtStream stream) {
    return submit_uniform(Kind::kScatter, sendBuf, recvBuf, recvCount, dataType, nullptr, root, comm, stream);
}

HcclResult HcclAllGather(void* sendBuf, void* recvBuf, uint64_t sendCount, HcclDataType dataType, HcclComm comm,
                         aclrtStream stream) {
    return submit_uniform(Kind::kAllGather, sendBuf, recvBuf, sendCount, dataType, nullptr, 0, comm, stream);
}

HcclResult HcclAllGatherV(void* sendBuf, uint64_t sendCount, void* recvBuf, const void* recvCounts,
                          const void* recvDispls, HcclDataType dataType, HcclComm comm, aclrtStream stream) {
    const char* api = "HcclAllGatherV";
    std::shared_ptr<Rank> rank;
    if (HcclResult status = check_codes(comm, api, dataType, nullptr, rank); status != HCCL_SUCCESS) return status;
    CallArgs args = args_of(Kind::kAllGatherV, sendBuf, recvBuf, sendCount, dataType);
    const uint32_t ranks = rank->group().ranks();
    HcclResult status = copy_count_arrays(ranks, api, {{recvCounts, "recvCounts", args.recvCounts},
                                                       {recvDispls, "recvDispls", args.recvDispls}});
    if (status == HCCL_SUCCESS) status = check_own_part(args.recvCounts[rank->rank()], sendCount, api, "recvCounts");
    if (status == HCCL_SUCCESS) status = check_uniform(args, sendCount, extent(args.recvCounts, args.recvDispls));
    return status == HCCL_SUCCESS ? submit_collective(rank, std::move(args), stream) : status;
}

HcclResult HcclReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType, HcclReduceOp op,
                      uint32_t root, HcclComm comm, aclrtStream stream) {
    return submit_uniform(Kind::kReduce, sendBuf, recvBuf, count, dataType, &op, root, comm, stream);
}

HcclResult HcclAlltoAll(const void* sendBuf, uint64_t sendCount, HcclDataType sendType, const void* recvBuf,
                        uint64_t recvCount, HcclDataType recvType, HcclComm comm, aclrtStream stream) {
    const char* api = "HcclAlltoAll";
    std::shared_ptr<Rank> rank;
    HcclResult status = resolve(comm, api, rank);
    if (status == HCCL_SUCCESS) status = check_same_types(sendType, recvType, api);
    if (status == HCCL_SUCCESS && sendCount != recvCount) {
        status = refuse(HCCL_E_PARA, api, "sendCount %llu and recvCount %llu differ",
                        static_cast<unsigned long long>(sendCount), static_cast<unsigned long long>(recvCount));
    }
    if (status != HCCL_SUCCESS) return status;
    CallArgs args = args_of(Kind::kAlltoAll, sendBuf, const_cast<void*>(recvBuf), sendCount, sendType);
    args.recvCount = recvCount;
    status = check_uniform(args, times_ranks(sendCount, *rank), times_ranks(recvCount, *rank));
    return status == HCCL_SUCCESS ? submit_collective(rank, std::move(args), stream) : status;
}

HcclResult HcclAlltoAllV(const void* sendBuf, const void* sendCounts, const void* sdispls, HcclDataType sendType,
                         const void* recvBuf, const void* recvCounts, const void* rdispls, HcclDataType recvType,
                         HcclComm comm, aclrtStream stream) {
    const char* api = "HcclAlltoAllV";
    std::shared_ptr<Rank> rank;
    CallArgs args;
    HcclResult status = begin_alltoall(Kind::kAlltoAllV, sendBuf, recvBuf, sendType, recvType, comm, rank, args);
    if (status != HCCL_SUCCESS) return status;
    const uint32_t ranks = rank->group().ranks();
    status = copy_count_arrays(ranks, api, {{sendCounts, "sendCounts", args.sendCounts},
                                            {sdispls, "sdispls", args.sendDispls},
                                            {recvCounts, "recvCounts", args.recvCounts},
                                            {rdispls, "rdispls", args.recvDispls}});
    if (status == HCCL_SUCCESS) {
        status = check_buffer(args.send, extent(args.sendCounts, args.sendDispls), sendType, api, "sendBuf");
    }
    if (status == HCCL_SUCCESS) {
        status = check_buffer(args.recv, extent(args.recvCounts, args.recvDispls), recvType, api, "recvBuf");
    }
    return status == HCCL_SUCCESS ? submit_collective(rank, std::move(args), stream) : status;
}

HcclResult HcclAlltoAllVC(const void* sendBuf, const void* sendCountMatrix, HcclDataType sendType, const void* recvBuf,
                          HcclDataType recvType, HcclComm comm, aclrtStream stream) {
    const char* api = "HcclAlltoAllVC";
    std::shared_ptr<Rank> rank;
    CallArgs args;
    HcclResult status = begin_alltoall(Kind::kAlltoAllVC, sendBuf, recvBuf, sendType, recvType, comm, rank, args);
    if (status != HCCL_SUCCESS) return status;
    const uint32_t ranks = rank->group().ranks();
    if (status = copy_counts(sendCountMatrix, ranks * ranks, api, "sendCountMatrix", args.countMatrix);
        status != HCCL_SUCCESS) {
        return status;
    }
    uint64_t sent = 0, received = 0;
    for (uint32_t j = 0; j < ranks; ++j) {
        sent += args.countMatrix[uint64_t{rank->rank()} * ranks + j];
        received += args.countMatrix[uint64_t{j} * ranks + rank->rank()];
    }
    status = check_buffer(args.send, sent, sendType, api, "sendBuf");
    if (status == HCCL_SUCCESS) status = check_buffer(args.recv, received, recvType, api, "recvBuf");
    return status == HCCL_SUCCESS ? submit_collective(rank, std::move(args), stream) : status;
}

HcclResult HcclBarrier(HcclComm comm, aclrtStream stream) {
    std::shared_ptr<Rank> rank;
    if (HcclResult status = resolve(comm, "HcclBarrier", rank); status != HCCL_SUCCESS) return status;
    return submit_collective(rank, args_of(Kind::kBarrier, nullptr, nullptr, 0, HCCL_DATA_TYPE_INT8), stream);
}

HcclResult HcclSend(void* sendBuf, uint64_t count, HcclDataType dataType, uint32_t destRank, HcclComm comm,
                    aclrtStream stream) {
    return submit_transfer(Kind::kSend, sendBuf, count, dataType, destRank, comm, stream);
}

HcclResult HcclRecv(void* recvBuf, uint64_t count, HcclDataType dataType, uint32_t srcRank, HcclComm comm,
                    aclrtStream stream) {
    return submit_transfer(Kind::kRecv, recvBuf, count, dataType, srcRank, comm, stream);
}

HcclResult HcclBatchSendRecv(HcclSendRecvItem* sendRecvInfo, uint32_t itemNum, HcclComm comm, aclrtStream stream) {
    const char* api = "HcclBatchSendRecv";
    std::shared_ptr<Rank> rank;
    HcclResult status = resolve(comm, api, rank);
    if (status == HCCL_SUCCESS) status = require(sendRecvInfo, api, "sendRecvInfo");
    if (status == HCCL_SUCCESS && itemNum == 0) status = refuse(HCCL_E_PARA, api, "itemNum is 0");
    if (status != HCCL_SUCCESS) return status;
    std::vector<CallArgs> transfers;
    for (uint32_t i = 0; i < itemNum; ++i) {
        const HcclSendRecvItem& item = sendRecvInfo[i];
        const int64_t type = aclcpu::code_of(item.sendRecvType);
        if (type != HCCL_SEND && type != HCCL_RECV) {
            return refuse(HCCL_E_PARA, api, "item %u: sendRecvType %lld is neither HCCL_SEND nor HCCL_RECV", i,
                          static_cast<long long>(type));
        }
        if (status = check_movable(item.dataType, api); status != HCCL_SUCCESS) return status;
        const bool sending = type == HCCL_SEND;
        CallArgs args = args_of(sending ? Kind::kSend : Kind::kRecv, sending ? item.buf : nullptr,
                                sending ? nullptr : item.buf, item.count, item.dataType);
        args.root = item.remoteRank;
        transfers.push_back(std::move(args));
    }
    return submit_transfers(rank, api, std::move(transfers), stream);
}

}  // extern "C"
