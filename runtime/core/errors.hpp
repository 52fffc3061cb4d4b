// acl-cpu runtime: error reporting helpers for the API functions.
#pragma once

#include "core/internal.hpp"

#include <string>

#include "acl/acl_base.h"
#include "aclcpu/error_report.hpp"

namespace aclcpu::detail {

/// Reports a parameter error of a runtime API call and returns its code, so
/// that a check reads `if (!ptr) return param_error(code, "...")`.
aclError param_error(aclError code, const char* format, ...) __attribute__((format(printf, 2, 3)));

/// Reports a failure of the runtime itself (resources, execution) and returns its code.
aclError runtime_error(aclError code, const char* format, ...) __attribute__((format(printf, 2, 3)));

/// Records code as the calling thread's last error without a message.
void set_last_error(aclError code) noexcept;

/// Takes the calling thread's messages not yet read by aclGetRecentErrMsg
/// (newest first, one per line); "" when there are none.
std::string take_thread_messages();

/// aclGetRecentErrMsg: hands the calling thread's unread messages out (valid
/// until its next call) and marks them read; nullptr when there are none.
const char* hand_out_thread_messages();

/// The calling thread's last error code; clear resets it to ACL_SUCCESS.
aclError last_error(bool clear) noexcept;

}  // namespace aclcpu::detail
