// acl-cpu HCCL: the checks every entry point shares, with HCCL's codes and
// a message for aclGetRecentErrMsg.
#pragma once

#include "core/internal.hpp"

#include <memory>

#include "core/group.hpp"

namespace aclcpu::hccl::detail {

/// Reports `api: <message>` for aclGetRecentErrMsg and returns code.
HcclResult refuse(HcclResult code, const char* api, const char* format, ...) __attribute__((format(printf, 3, 4)));

/// The rank comm stands for: HCCL_E_PTR for null, HCCL_E_PARA for a handle
/// that is not a live communicator.
HcclResult resolve(HcclComm comm, const char* api, std::shared_ptr<Rank>& rank);

/// HCCL_E_PTR when `pointer` is null (named `name` in the message).
HcclResult require(const void* pointer, const char* api, const char* name);

// The codes of enum arguments are read as integers (aclcpu::code_of) and
// checked before the value is used as the enum: a C caller may pass any
// integer, and loading one outside the enumeration's range is undefined.

/// A type acl-cpu moves: HCCL_E_PARA for a value outside the enumeration,
/// HCCL_E_NOT_SUPPORT for one without a CPU layout (INT128, the fp8 types).
HcclResult check_movable(const HcclDataType& dtype, const char* api);

/// op over dtype as an Atlas A2 reduces: sum, prod, max and min over int8,
/// int16, int32, int64, fp16, fp32 and bf16, but prod not over int16 or bf16.
HcclResult check_reduction(const HcclReduceOp& op, const HcclDataType& dtype, const char* api);

/// The all-to-alls' types: both movable, and the same.
HcclResult check_same_types(const HcclDataType& sendType, const HcclDataType& recvType, const char* api);

/// `rank` names a rank of the group (`what`: "root", "destRank", ...).
HcclResult check_rank(uint32_t rank, const Rank& self, const char* api, const char* what);

/// count elements of dtype fit in a device's memory (HCCL_E_PARA if not); a
/// buffer of `count` > 0 elements must not be null.
HcclResult check_buffer(const void* buffer, uint64_t count, HcclDataType dtype, const char* api, const char* name);

}  // namespace aclcpu::hccl::detail
