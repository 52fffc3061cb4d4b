// acl-cpu HCCL: the algorithms -- which bytes each rank moves once every
// party of a collective has arrived.
//
// CPU mapping: the in-process algorithm is the full mesh of an Atlas A2
// server, whose eight NPUs all reach each other's memory: every rank owns a
// slice of the result and computes it by reading the peers' buffers
// directly, so no element is read or written by two ranks, and a reduction
// combines the ranks' values in rank order whichever rank computes it (the
// results are the same bits at any worker count and schedule).
#pragma once

#include "core/internal.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "core/call.hpp"

namespace aclcpu::hccl::detail {

/// Every one of `destinations` = sources combined with the share's op,
/// element by element (one source: a copy).  A destination is a source
/// exactly or overlaps none (in place: a rank's output slice is its input's).
struct Piece {
    std::vector<void*> destinations;
    std::vector<const void*> sources;
    uint64_t count = 0;
};

/// What one party computes: pieces of one element type, independent of
/// each other (they run in parallel, cut into blocks).
struct Share {
    HcclDataType dtype = HCCL_DATA_TYPE_INT8;
    HcclReduceOp op = HCCL_REDUCE_SUM;
    std::vector<Piece> pieces;
};

/// The parties of a meeting, in party order: ranks 0..n-1 for a collective;
/// sender then receiver for a point-to-point transfer.
using Parties = std::vector<const CallArgs*>;

/// Empty when the parties' calls agree on what the collective is; else a
/// sentence naming the first disagreement (kind, count, type, op, root, a
/// transfer size), for the failure's message.
std::string disagreement(const Parties& parties);

/// What party `party` computes (the parties agree).
Share share_of(const Parties& parties, uint32_t party);

/// Elements [begin, begin + count) of slice `index` when `total` elements
/// are split into `slices` near-equal slices (the first total % slices one
/// element longer).
struct Slice {
    uint64_t begin = 0;
    uint64_t count = 0;
};
Slice slice_of(uint64_t total, uint32_t slices, uint32_t index) noexcept;

}  // namespace aclcpu::hccl::detail
