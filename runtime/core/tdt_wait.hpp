// acl-cpu runtime: the timed waits of TDT channels and queues (acl_tdt.h,
// acl_tdt_queue.h).  They block the calling host thread only: channels and
// queues never enter a device's task arena.
#pragma once

#include "core/internal.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace aclcpu::detail {

/// CANN's TDT timeouts: -1 waits for ever, 0 does not wait, a positive count
/// of milliseconds bounds the wait.  Anything below -1 is invalid.
inline bool is_tdt_timeout(int32_t timeoutMs) noexcept { return timeoutMs >= -1; }

/// Waits on signal, whose mutex lock holds, until done() is true or
/// timeoutMs (a valid TDT timeout) passes, and returns done().  The deadline
/// is fixed at the call: wake-ups that leave done() false do not extend it.
template <typename Done>
bool wait_with_timeout(std::unique_lock<std::mutex>& lock, std::condition_variable& signal, int32_t timeoutMs,
                       Done done) {
    if (timeoutMs < 0) {
        signal.wait(lock, done);
        return true;
    }
    return signal.wait_for(lock, std::chrono::milliseconds(timeoutMs), done);
}

}  // namespace aclcpu::detail
