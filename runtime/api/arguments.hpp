// acl-cpu runtime API: argument checks shared by the C entry points.
#pragma once

#include "core/internal.hpp"

#include <cstdint>
#include <memory>

#include "acl/acl_base.h"
#include "core/errors.hpp"
#include "core/runtime_state.hpp"

namespace aclcpu::api {

/// CANN's timeouts: -1 waits for ever, a positive count of milliseconds
/// bounds the wait; anything else is reported as ACL_ERROR_INVALID_PARAM.
inline aclError check_timeout(int32_t timeoutMs, const char* api) {
    if (timeoutMs == -1 || timeoutMs > 0) return ACL_SUCCESS;
    return detail::param_error(ACL_ERROR_INVALID_PARAM, "%s: timeout %d is neither -1 nor > 0", api, timeoutMs);
}

/// Checks that aclInit has run and that id names one of its devices
/// (ACL_ERROR_UNINITIALIZE, ACL_ERROR_RT_INVALID_DEVICEID otherwise).
inline aclError check_device_id(int64_t id, const char* api) {
    detail::Runtime& runtime = detail::Runtime::instance();
    if (!runtime.initialised()) return detail::param_error(ACL_ERROR_UNINITIALIZE, "%s: call aclInit first", api);
    if (id < 0 || id >= runtime.config().deviceCount) {
        return detail::param_error(ACL_ERROR_RT_INVALID_DEVICEID, "%s: device id %lld is not in [0, %d)", api,
                                   static_cast<long long>(id), runtime.config().deviceCount);
    }
    return ACL_SUCCESS;
}

/// Resolves the event and stream handles of an event operation (a record,
/// wait or reset: work on the stream), reporting the first one that is not
/// live.
inline aclError resolve_event_and_stream(const char* api, aclrtEvent eventHandle, aclrtStream streamHandle,
                                         std::shared_ptr<detail::Event>& event,
                                         std::shared_ptr<detail::Stream>& stream) {
    detail::Runtime& runtime = detail::Runtime::instance();
    if (aclError status = runtime.resolve_event(eventHandle, api, event); status != ACL_SUCCESS) return status;
    return runtime.resolve_work_stream(streamHandle, api, stream);
}

}  // namespace aclcpu::api
