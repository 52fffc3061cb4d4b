// acl-cpu runtime: OpRecord, the fixed-size record an operator subscription
// (aclprofModelSubscribe) writes into the user's pipe for each operator a
// subscribed model runs, and that aclprofGetOp* read back.
#pragma once

#include "core/internal.hpp"

#include <limits.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "acl/acl_prof.h"

namespace aclcpu::observe {

/// One operator run.  Everything a getter returns is in the record itself,
/// so a record can be read any number of times and by any thread; the
/// strings are NUL-terminated and as long as CANN's documented maxima
/// (ACL_PROF_MAX_OP_TYPE_LEN / ACL_PROF_MAX_OP_NAME_LEN, terminator included).
struct OpRecord {
    static constexpr size_t kTypeBytes = 65;
    static constexpr size_t kNameBytes = 257;

    /// A checksum of the bytes after it: the getters refuse a buffer that
    /// holds anything but whole records, as CANN's parser does.
    uint32_t seal = 0;
    uint32_t modelId = 0;
    uint32_t flag = ACL_SUBSCRIBE_OP;  ///< An aclprofSubscribeOpFlag.
    uint32_t reserved = 0;             ///< Zero: keeps the layout free of padding, so the seal covers defined bytes.
    /// Nanoseconds of CLOCK_MONOTONIC (CANN's records carry ns on the device's
    /// clock although its API reference says us); 0 when the subscription
    /// asked for no timing (timeInfoSwitch 0).
    uint64_t startNs = 0;
    uint64_t endNs = 0;
    char type[kTypeBytes] = {};
    char name[kNameBytes] = {};
    char padding[6] = {};  ///< Zero, as reserved.

    /// A sealed record of an operator of type opType named opName (each cut
    /// to its field).
    OpRecord(uint32_t model, const std::string& opType, const std::string& opName, uint64_t start, uint64_t end);
    /// An empty, unsealed record to copy one into.
    OpRecord() = default;

    /// True when seal matches the contents: the bytes are a record as made.
    bool sealed() const noexcept;
};

// A pipe takes a write of at most PIPE_BUF bytes whole, so a reader never
// sees part of a record as long as it reads multiples of the record size.
static_assert(sizeof(OpRecord) <= PIPE_BUF, "an OpRecord must fit one atomic pipe write");
static_assert(sizeof(OpRecord) % alignof(OpRecord) == 0 && sizeof(OpRecord) == 360,
              "OpRecord has no implicit padding");

}  // namespace aclcpu::observe
