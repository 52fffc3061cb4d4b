// acl-cpu fuzzing: what the runtime targets (fuzz_runtime_memory,
// fuzz_runtime_sync, fuzz_runtime_capture, fuzz_runtime_build) add to
// fuzz_support -- the invariant of an aclError entry point, bounded stream
// waits, the decoding of sizes, offsets, enum codes and handles the way a C
// caller may pass them, and tasks that count their runs.
//
//   every call returns 0 or one of CANN's documented aclError codes
//   (is_cann_error of tests/runtime), a failure leaves a message for
//   aclGetRecentErrMsg, and every wait ends.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

#include "acl/acl.h"
#include "aclcpu/device_task.hpp"
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

/// A handle argument (aclrtStream, aclrtEvent, aclmdlRI, aclrtLabel, ...):
/// mostly one of `live`, else a destroyed one from `stale`, a pointer that
/// never was a handle, or null.
template <class Handle>
Handle decode_handle(Decoder& in, const std::vector<Handle>& live, const std::vector<Handle>& stale) {
    const uint8_t choice = in.byte();
    if (choice < 200 && !live.empty()) return live[choice % live.size()];
    switch (choice % 3) {
        case 0: return stale.empty() ? nullptr : stale[choice % stale.size()];
        case 1: return static_cast<Handle>(never_issued_handle());
        default: return nullptr;
    }
}

/// Drops handle from a list of destroyed handles: the runtime handed the
/// address out again.
template <class Handle>
void forget_handle(std::vector<Handle>& stale, Handle handle) {
    stale.erase(std::remove(stale.begin(), stale.end(), handle), stale.end());
}

/// The invariant of a target that knows which codes its calls may fail
/// with: expect_acl_status, and a failure's code is one of `codes` (any
/// range of aclError).
template <class Codes>
aclError expect_status_among(const char* api, aclError status, const Codes& codes) {
    expect_acl_status(api, status);
    if (status != ACL_SUCCESS && std::find(std::begin(codes), std::end(codes), status) == std::end(codes)) {
        fail("%s returned %d, which is not among the codes this target expects", api, status);
    }
    return status;
}

/// A task for aclcpu::enqueue that counts its runs in `runs`, which must
/// outlive every stream and model that may run it: run once when enqueued
/// on an ordinary stream, once per replay that reaches it when a model took
/// it.
class RunCountingTask final : public aclcpu::DeviceTask {
public:
    explicit RunCountingTask(std::atomic<uint64_t>& runs) : runs_(runs) {}
    aclError run() noexcept override {
        runs_.fetch_add(1, std::memory_order_relaxed);
        return ACL_SUCCESS;
    }
    const char* name() const noexcept override { return "fuzz counting task"; }

private:
    std::atomic<uint64_t>& runs_;
};

/// The same count for aclrtLaunchHostFunc: userData is the std::atomic<uint64_t>.
inline void count_host_run(void* runs) {
    static_cast<std::atomic<uint64_t>*>(runs)->fetch_add(1, std::memory_order_relaxed);
}

/// The end of an input: aclrtSynchronizeDeviceWithTimeout (bounded) succeeds.
inline void expect_device_settles() {
    clear_error_message();
    const aclError synced = aclrtSynchronizeDeviceWithTimeout(kSettleTimeoutMs);
    if (synced != ACL_SUCCESS) {
        fail("aclrtSynchronizeDevice failed with %d after the input: %s", synced, aclGetRecentErrMsg());
    }
}

}  // namespace aclcpu::fuzz
