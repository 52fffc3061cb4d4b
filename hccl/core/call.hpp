// acl-cpu HCCL: what one rank asked for in one collective or point-to-point
// call, as the API layer checked it.
#pragma once

#include "core/internal.hpp"

#include <cstdint>
#include <vector>

#include "hccl/hccl_types.h"

namespace aclcpu::hccl::detail {

enum class Kind : uint8_t {
    kAllReduce,
    kBroadcast,
    kAllGather,
    kAllGatherV,
    kReduceScatter,
    kReduceScatterV,
    kReduce,
    kScatter,
    kAlltoAll,
    kAlltoAllV,
    kAlltoAllVC,
    kBarrier,
    kSend,
    kRecv,
};

/// One rank's arguments.  Counts and displacements are in elements; the
/// per-peer arrays of the V variants are copied from the caller's host
/// memory at the call, as HCCL reads them then.
struct CallArgs {
    Kind kind = Kind::kBarrier;
    const char* api = "";
    const void* send = nullptr;
    void* recv = nullptr;
    /// The count the API names: elements per rank (AllReduce, Broadcast,
    /// Reduce, Send, Recv), sent by each rank (AllGather, AlltoAll; this
    /// rank's for AllGatherV) or received by each rank (ReduceScatter,
    /// Scatter; this rank's for ReduceScatterV).
    uint64_t count = 0;
    uint64_t recvCount = 0;  ///< AlltoAll: elements received from each rank.
    HcclDataType dtype = HCCL_DATA_TYPE_FP32;
    HcclDataType recvType = HCCL_DATA_TYPE_FP32;  ///< The all-to-alls' receive type.
    HcclReduceOp op = HCCL_REDUCE_SUM;
    uint32_t root = 0;  ///< Broadcast, Reduce, Scatter: the root rank; Send / Recv: the peer.
    /// AlltoAllV's; ReduceScatterV has the send side, AllGatherV the receive side.
    std::vector<uint64_t> sendCounts, sendDispls, recvCounts, recvDispls;
    std::vector<uint64_t> countMatrix;  ///< AlltoAllVC: element [i * ranks + j] goes from rank i to rank j.
};

const char* kind_name(Kind kind) noexcept;
/// True for the calls that combine elements with op.
bool reduces(Kind kind) noexcept;

}  // namespace aclcpu::hccl::detail
