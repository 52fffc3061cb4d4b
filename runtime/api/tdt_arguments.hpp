// acl-cpu runtime API: argument checks shared by the TDT entry points
// (acl_tdt.h, acl_tdt_queue.h).
#pragma once

#include "core/internal.hpp"

#include <cstdint>
#include <memory>

#include "acl/acl_base.h"
#include "core/errors.hpp"
#include "core/handle_registry.hpp"
#include "core/tdt_wait.hpp"

namespace aclcpu::api {

/// The live object behind handle, or nullptr (reported as
/// ACL_ERROR_INVALID_PARAM naming what the handle should have been).
template <typename T>
std::shared_ptr<T> find_live(const detail::HandleRegistry<T>& registry, const void* handle, const char* api,
                             const char* what) {
    std::shared_ptr<T> object = handle == nullptr ? nullptr : registry.find(handle);
    if (!object)
        detail::param_error(ACL_ERROR_INVALID_PARAM, "%s: %s %p is null or already destroyed", api, what, handle);
    return object;
}

/// Removes and returns the live object behind handle, or reports as find_live
/// does: of two threads destroying one handle, exactly one succeeds.
template <typename T>
std::shared_ptr<T> remove_live(detail::HandleRegistry<T>& registry, const void* handle, const char* api,
                               const char* what) {
    std::shared_ptr<T> object = handle == nullptr ? nullptr : registry.remove(handle);
    if (!object)
        detail::param_error(ACL_ERROR_INVALID_PARAM, "%s: %s %p is null or already destroyed", api, what, handle);
    return object;
}

/// Destroys the live object behind handle (ACL_ERROR_INVALID_PARAM, reported, when there is none).
template <typename T>
aclError destroy_live(detail::HandleRegistry<T>& registry, const void* handle, const char* api, const char* what) {
    return remove_live(registry, handle, api, what) ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}

/// CANN's TDT timeouts (-1 for ever, 0 no wait, > 0 ms); ACL_ERROR_INVALID_PARAM otherwise.
inline aclError check_tdt_timeout(int32_t timeoutMs, const char* api) {
    if (detail::is_tdt_timeout(timeoutMs)) return ACL_SUCCESS;
    return detail::param_error(ACL_ERROR_INVALID_PARAM, "%s: timeout %d is not -1, 0 or a positive count of ms", api,
                               timeoutMs);
}

/// The largest channel capacity and queue depth (api_ref
/// 17-01_tensor_data_transfer.md, acltdtCreateChannelWithCapacity: [2, 8192]),
/// and the smallest.
inline constexpr size_t kMinTdtDepth = 2;
inline constexpr size_t kMaxTdtDepth = 8192;

/// Queue and channel names hold at most 127 characters and their terminator.
inline constexpr size_t kMaxTdtNameBytes = 128;

}  // namespace aclcpu::api
