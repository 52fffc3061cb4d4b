// acl-cpu HCCL: the full-mesh algorithms (see algorithms.hpp).
#include "core/algorithms.hpp"

#include <algorithm>
#include <sstream>

#include "core/reduction.hpp"

namespace aclcpu::hccl::detail {
namespace {

const char* byte_at(const void* base, uint64_t elements, HcclDataType dtype) {
    return static_cast<const char*>(base) + elements * element_bytes(dtype);
}

char* byte_at(void* base, uint64_t elements, HcclDataType dtype) {
    return static_cast<char*>(base) + elements * element_bytes(dtype);
}

Piece copy(void* dst, const void* src, uint64_t count) { return Piece{{dst}, {src}, count}; }

/// Every party's send buffer at element offset.
std::vector<const void*> sends_at(const Parties& parties, uint64_t offset, HcclDataType dtype) {
    std::vector<const void*> sources;
    sources.reserve(parties.size());
    for (const CallArgs* party : parties) sources.push_back(byte_at(party->send, offset, dtype));
    return sources;
}

/// Every party's receive buffer at element offset.
std::vector<void*> recvs_at(const Parties& parties, uint64_t offset, HcclDataType dtype) {
    std::vector<void*> targets;
    targets.reserve(parties.size());
    for (const CallArgs* party : parties) targets.push_back(byte_at(party->recv, offset, dtype));
    return targets;
}

/// ReduceScatterV: where every party's send buffer holds rank r's part.
std::vector<const void*> sends_for(const Parties& parties, uint32_t r) {
    std::vector<const void*> sources;
    sources.reserve(parties.size());
    for (const CallArgs* party : parties) sources.push_back(byte_at(party->send, party->sendDispls[r], party->dtype));
    return sources;
}

/// AllGatherV: where every party's receive buffer takes rank r's input.
std::vector<void*> recvs_for(const Parties& parties, uint32_t r) {
    std::vector<void*> targets;
    targets.reserve(parties.size());
    for (const CallArgs* party : parties) targets.push_back(byte_at(party->recv, party->recvDispls[r], party->dtype));
    return targets;
}

uint32_t rank_count(const Parties& parties) { return static_cast<uint32_t>(parties.size()); }

/// AllReduce and Reduce: party r reduces slice r of every input straight into
/// every receive buffer (or the root's), so the reduced slice is read from
/// memory once, by the rank that owns it.
void reduce_slice(const Parties& parties, uint32_t r, bool toEveryRank, Share& share) {
    const CallArgs& mine = *parties[r];
    const Slice slice = slice_of(mine.count, rank_count(parties), r);
    if (slice.count == 0) return;
    std::vector<void*> targets = toEveryRank ? recvs_at(parties, slice.begin, mine.dtype)
                                             : std::vector<void*>{byte_at(parties[mine.root]->recv, slice.begin,
                                                                          mine.dtype)};
    share.pieces.push_back(Piece{std::move(targets), sends_at(parties, slice.begin, mine.dtype), slice.count});
}

/// Broadcast: party r copies slice r of the root's buffer into the others'.
void broadcast_slice(const Parties& parties, uint32_t r, Share& share) {
    const CallArgs& mine = *parties[r];
    const Slice slice = slice_of(mine.count, rank_count(parties), r);
    if (slice.count == 0) return;
    std::vector<void*> targets = recvs_at(parties, slice.begin, mine.dtype);
    targets.erase(targets.begin() + mine.root);
    share.pieces.push_back(Piece{std::move(targets), {byte_at(parties[mine.root]->recv, slice.begin, mine.dtype)},
                                 slice.count});
}

/// AlltoAllV's and AlltoAllVC's transfer from rank i to rank r, as offsets
/// into i's send and r's receive buffers.
struct Transfer {
    uint64_t sendOffset, recvOffset, sendCount, recvCount;
};

Transfer v_transfer(const Parties& parties, uint32_t i, uint32_t r) {
    return Transfer{parties[i]->sendDispls[r], parties[r]->recvDispls[i], parties[i]->sendCounts[r],
                    parties[r]->recvCounts[i]};
}

Transfer vc_transfer(const Parties& parties, uint32_t i, uint32_t r) {
    const std::vector<uint64_t>& matrix = parties[r]->countMatrix;
    const uint32_t n = rank_count(parties);
    Transfer transfer{0, 0, matrix[uint64_t{i} * n + r], matrix[uint64_t{i} * n + r]};
    for (uint32_t j = 0; j < r; ++j) transfer.sendOffset += matrix[uint64_t{i} * n + j];
    for (uint32_t k = 0; k < i; ++k) transfer.recvOffset += matrix[uint64_t{k} * n + r];
    return transfer;
}

/// Party r pulls what every rank sends it.
template <typename TransferOf>
void gather_transfers(const Parties& parties, uint32_t r, TransferOf transfer_of, Share& share) {
    const CallArgs& mine = *parties[r];
    for (uint32_t i = 0; i < rank_count(parties); ++i) {
        const Transfer t = transfer_of(parties, i, r);
        if (t.recvCount == 0) continue;
        share.pieces.push_back(
            copy(byte_at(mine.recv, t.recvOffset, mine.recvType), byte_at(parties[i]->send, t.sendOffset, mine.dtype),
                 t.recvCount));
    }
}

/// ReduceScatterV's part of rank i's input that rank r reduces, and
/// AllGatherV's place of rank i's input in rank r's output.
Transfer reduce_scatter_v_transfer(const Parties& parties, uint32_t i, uint32_t r) {
    return Transfer{parties[i]->sendDispls[r], 0, parties[i]->sendCounts[r], parties[r]->count};
}

Transfer all_gather_v_transfer(const Parties& parties, uint32_t i, uint32_t r) {
    return Transfer{0, parties[r]->recvDispls[i], parties[i]->count, parties[r]->recvCounts[i]};
}

Transfer alltoall_transfer(const Parties& parties, uint32_t i, uint32_t r) {
    const uint64_t count = parties[r]->count;
    return Transfer{uint64_t{r} * count, uint64_t{i} * count, count, count};
}

template <typename TransferOf>
std::string first_size_mismatch(const Parties& parties, TransferOf transfer_of) {
    for (uint32_t i = 0; i < rank_count(parties); ++i) {
        for (uint32_t r = 0; r < rank_count(parties); ++r) {
            const Transfer t = transfer_of(parties, i, r);
            if (t.sendCount == t.recvCount) continue;
            std::ostringstream out;
            out << "rank " << i << " sends " << t.sendCount << " elements to rank " << r << ", which expects "
                << t.recvCount;
            return out.str();
        }
    }
    return {};
}

/// The first party whose `field` differs from party 0's.
template <typename Field>
std::string first_difference(const Parties& parties, const char* what, Field field) {
    for (uint32_t j = 1; j < rank_count(parties); ++j) {
        if (field(*parties[j]) == field(*parties[0])) continue;
        std::ostringstream out;
        out << what << " differs: " << +field(*parties[0]) << " on party 0, " << +field(*parties[j]) << " on party "
            << j;
        return out.str();
    }
    return {};
}

bool has_root(Kind kind) { return kind == Kind::kBroadcast || kind == Kind::kReduce || kind == Kind::kScatter; }

bool has_single_count(Kind kind) {
    return kind != Kind::kAlltoAllV && kind != Kind::kAlltoAllVC && kind != Kind::kReduceScatterV &&
           kind != Kind::kAllGatherV && kind != Kind::kBarrier;
}

}  // namespace

const char* kind_name(Kind kind) noexcept {
    switch (kind) {
        case Kind::kAllReduce: return "HcclAllReduce";
        case Kind::kBroadcast: return "HcclBroadcast";
        case Kind::kAllGather: return "HcclAllGather";
        case Kind::kAllGatherV: return "HcclAllGatherV";
        case Kind::kReduceScatter: return "HcclReduceScatter";
        case Kind::kReduceScatterV: return "HcclReduceScatterV";
        case Kind::kReduce: return "HcclReduce";
        case Kind::kScatter: return "HcclScatter";
        case Kind::kAlltoAll: return "HcclAlltoAll";
        case Kind::kAlltoAllV: return "HcclAlltoAllV";
        case Kind::kAlltoAllVC: return "HcclAlltoAllVC";
        case Kind::kBarrier: return "HcclBarrier";
        case Kind::kSend: return "HcclSend";
        case Kind::kRecv: return "HcclRecv";
    }
    return "?";
}

bool reduces(Kind kind) noexcept {
    return kind == Kind::kAllReduce || kind == Kind::kReduceScatter || kind == Kind::kReduceScatterV ||
           kind == Kind::kReduce;
}

Slice slice_of(uint64_t total, uint32_t slices, uint32_t index) noexcept {
    const uint64_t base = total / slices;
    const uint64_t longer = total % slices;
    return Slice{index * base + std::min<uint64_t>(index, longer), base + (index < longer ? 1 : 0)};
}

std::string disagreement(const Parties& parties) {
    const Kind kind = parties[0]->kind;
    if (kind != Kind::kSend && kind != Kind::kRecv) {
        for (uint32_t j = 1; j < rank_count(parties); ++j) {
            if (parties[j]->kind == kind) continue;
            return std::string("rank 0 called ") + kind_name(kind) + ", rank " + std::to_string(j) + " " +
                   kind_name(parties[j]->kind);
        }
    }
    std::string found = first_difference(parties, "the data type", [](const CallArgs& a) { return +a.dtype; });
    if (found.empty() && has_single_count(kind)) {
        found = first_difference(parties, "the count", [](const CallArgs& a) { return a.count; });
    }
    if (found.empty() && reduces(kind)) {
        found = first_difference(parties, "the reduce op", [](const CallArgs& a) { return +a.op; });
    }
    if (found.empty() && has_root(kind)) {
        found = first_difference(parties, "the root", [](const CallArgs& a) { return a.root; });
    }
    if (found.empty() && kind == Kind::kAlltoAllV) found = first_size_mismatch(parties, v_transfer);
    if (found.empty() && kind == Kind::kReduceScatterV) {
        found = first_size_mismatch(parties, reduce_scatter_v_transfer);
    }
    if (found.empty() && kind == Kind::kAllGatherV) found = first_size_mismatch(parties, all_gather_v_transfer);
    if (found.empty() && kind == Kind::kAlltoAllVC) {
        for (uint32_t j = 1; j < rank_count(parties) && found.empty(); ++j) {
            if (parties[j]->countMatrix != parties[0]->countMatrix) {
                found = "the send count matrix differs between rank 0 and rank " + std::to_string(j);
            }
        }
    }
    return found;
}

Share share_of(const Parties& parties, uint32_t r) {
    const CallArgs& mine = *parties[r];
    Share share{mine.dtype, mine.op, {}};
    switch (mine.kind) {
        case Kind::kAllReduce: reduce_slice(parties, r, true, share); break;
        case Kind::kReduce: reduce_slice(parties, r, false, share); break;
        case Kind::kBroadcast: broadcast_slice(parties, r, share); break;
        case Kind::kReduceScatter:
            if (mine.count != 0) {
                share.pieces.push_back(
                    Piece{{mine.recv}, sends_at(parties, uint64_t{r} * mine.count, mine.dtype), mine.count});
            }
            break;
        case Kind::kReduceScatterV:
            if (mine.count != 0) share.pieces.push_back(Piece{{mine.recv}, sends_for(parties, r), mine.count});
            break;
        case Kind::kAllGather:
            if (mine.count != 0) {
                share.pieces.push_back(
                    Piece{recvs_at(parties, uint64_t{r} * mine.count, mine.dtype), {mine.send}, mine.count});
            }
            break;
        case Kind::kAllGatherV:
            if (mine.count != 0) share.pieces.push_back(Piece{recvs_for(parties, r), {mine.send}, mine.count});
            break;
        case Kind::kScatter:
            if (mine.count != 0) {
                share.pieces.push_back(
                    copy(mine.recv, byte_at(parties[mine.root]->send, uint64_t{r} * mine.count, mine.dtype),
                         mine.count));
            }
            break;
        case Kind::kAlltoAll: gather_transfers(parties, r, alltoall_transfer, share); break;
        case Kind::kAlltoAllV: gather_transfers(parties, r, v_transfer, share); break;
        case Kind::kAlltoAllVC: gather_transfers(parties, r, vc_transfer, share); break;
        case Kind::kRecv:
            if (mine.count != 0) share.pieces.push_back(copy(mine.recv, parties[0]->send, mine.count));
            break;
        case Kind::kSend:
        case Kind::kBarrier: break;
    }
    return share;
}

}  // namespace aclcpu::hccl::detail
