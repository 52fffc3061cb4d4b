// acl-cpu runtime API: operator execution timeouts (acl_rt.h; CANN's
// 12_execution_control.md).
//
// The timeout is kept as the hardware keeps it: a whole number of intervals,
// 1 to 254 of them, rounded up.  acl-cpu records it for the programs that set
// and read it back; its CPU workers cannot interrupt an operator midway, so
// no operator is cut short by it.
#include <algorithm>
#include <atomic>
#include <cstdint>

#include "acl/acl_rt.h"
#include "core/errors.hpp"

using aclcpu::detail::param_error;

namespace {

/// An Atlas A2's interval, 2^32 ns: its 254 steps make the documented 1091 s
/// default and maximum.
constexpr uint64_t kIntervalUs = 4294967;
constexpr uint64_t kMaxIntervals = 254;
constexpr uint64_t kMaxTimeoutUs = kIntervalUs * kMaxIntervals;

std::atomic<uint64_t> gExecuteTimeoutUs{kMaxTimeoutUs};

/// Sets the timeout to requestedUs rounded up to whole intervals (0: the
/// maximum) and returns what took effect.
uint64_t set_execute_timeout(uint64_t requestedUs) {
    const uint64_t intervals =
        requestedUs == 0 ? kMaxIntervals : std::min(kMaxIntervals, requestedUs / kIntervalUs + (requestedUs % kIntervalUs != 0));
    const uint64_t actual = intervals * kIntervalUs;
    gExecuteTimeoutUs.store(actual, std::memory_order_relaxed);
    return actual;
}

}  // namespace

extern "C" {

aclError aclrtGetOpTimeOutInterval(uint64_t* interval) {
    if (interval == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtGetOpTimeOutInterval: interval is null");
    *interval = kIntervalUs;
    return ACL_SUCCESS;
}

aclError aclrtSetOpExecuteTimeOut(uint32_t timeout) {
    set_execute_timeout(uint64_t{timeout} * 1000000);
    return ACL_SUCCESS;
}

aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t timeout) {
    set_execute_timeout(uint64_t{timeout} * 1000);
    return ACL_SUCCESS;
}

aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t* actualTimeout) {
    if (actualTimeout == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtSetOpExecuteTimeOutV2: actualTimeout is null");
    }
    *actualTimeout = set_execute_timeout(timeout);
    return ACL_SUCCESS;
}

aclError aclrtGetOpExecuteTimeout(uint32_t* const timeoutMs) {
    if (timeoutMs == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtGetOpExecuteTimeout: timeoutMs is null");
    *timeoutMs = static_cast<uint32_t>(gExecuteTimeoutUs.load(std::memory_order_relaxed) / 1000);
    return ACL_SUCCESS;
}

}  // extern "C"
