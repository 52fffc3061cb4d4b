// acl-cpu fuzzing: what the runtime targets (fuzz_runtime_memory,
// fuzz_runtime_sync) add to fuzz_support -- the invariant of an aclError
// entry point, bounded stream waits, and the decoding of sizes, offsets,
// enum codes and stream handles the way a C caller may pass them.
//
//   every call returns 0 or one of CANN's documented aclError codes
//   (is_cann_error of tests/runtime), a failure leaves a message for
//   aclGetRecentErrMsg, and every wait ends.
#pragma once

#include <cstddef>
#include <cstdint>

#include "acl/acl.h"
#include "fuzz_support.hpp"

namespace aclcpu::fuzz {

/// The invariant for an aclError status from api: 0, or a documented CANN
/// code with a non-empty aclGetRecentErrMsg.  Returns status.
aclError expect_acl_status(const char* api, aclError status);

/// Calls `call` on a clean error state and checks its status.
template <class Call>
aclError checked(const char* api, Call&& call) {
    clear_error_message();
    return expect_acl_status(api, static_cast<aclError>(call()));
}

/// Longest a fuzz target lets a stream take to finish work it knows can run:
/// far above what any input needs, so only a hang reaches it.
inline constexpr int32_t kSettleTimeoutMs = 5000;

/// Synchronises stream (bounded); the stream must finish, and any sticky
/// error it reports must be a CANN code with a message.  Returns the status.
aclError synchronize_bounded(aclrtStream stream);

/// A size, count, pitch or offset for a range whose natural extent is
/// `extent`: mostly inside it, sometimes exactly at or one past its end,
/// sometimes an edge of size_t or any 64-bit value.
size_t decode_extent(Decoder& in, size_t extent);

/// base + offset, computed on the integer address: a decoded offset may run
/// past the end of the address space, where pointer arithmetic is undefined.
inline void* address_at(const void* base, size_t offset) {
    return reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(base) + offset);
}

/// Any 32-bit code for an enum argument: mostly the valid range
/// [first, last], sometimes just outside it or any integer.
int32_t decode_code(Decoder& in, int32_t first, int32_t last);

/// An aclrtStream argument: one of `live` (count of them), the default
/// stream (nullptr), a destroyed stream's handle, or a pointer that never
/// was a stream.
aclrtStream decode_stream(Decoder& in, const aclrtStream* live, size_t count);

/// A handle that no create call ever returned (the address of a static).
void* never_issued_handle();

}  // namespace aclcpu::fuzz
