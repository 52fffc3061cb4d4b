// acl-cpu runtime: ExceptionHub, delivery of device task failures to the
// exception callbacks a program registers, and the calling thread's last task.
#pragma once

#include "core/internal.hpp"

#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include "acl/acl_rt.h"

/// What an exception callback receives about a failed task (aclrtExceptionInfo).
struct rtExceptionInfo {
    uint32_t taskId;    ///< The task's place in its stream's order (low 32 bits).
    uint32_t streamId;  ///< The stream id, as aclrtStreamGetId reports it.
    uint32_t threadId;  ///< The OS thread that ran the task and saw it fail.
    uint32_t deviceId;
    uint32_t errorCode;
};

namespace aclcpu::detail {

class Stream;

/// The exception callbacks of aclrtSetExceptionInfoCallback (one slot) and
/// aclrtExceptionInfoCallbackRegister (a set), called on the device worker
/// that saw a task fail, right after the failure became the stream's error.
class ExceptionHub {
public:
    static ExceptionHub& instance();

    /// The single callback of aclrtSetExceptionInfoCallback (null clears it).
    void set_legacy(aclrtExceptionInfoCallback callback);
    void add(aclrtExceptionInfoCallback callback);
    void remove(aclrtExceptionInfoCallback callback);

    /// Tells every callback that the task at `place` of stream failed with code.
    void notify(const Stream& stream, uint64_t place, aclError code) const;

private:
    mutable std::mutex mutex_;
    aclrtExceptionInfoCallback legacy_ = nullptr;
    std::vector<aclrtExceptionInfoCallback> registered_;
};

/// Records that the calling thread submitted task `taskId` to a stream it created.
void remember_thread_task(uint64_t taskId) noexcept;
/// The last task the calling thread submitted to a stream it created, if any.
std::optional<uint32_t> thread_last_task() noexcept;

}  // namespace aclcpu::detail
