// acl-cpu runtime interface: how a failing call leaves its message for
// aclGetRecentErrMsg and its code for aclrtGetLastError.
#pragma once

#include <cstdarg>

#include "acl/acl_base.h"
#include "aclcpu/export.hpp"

namespace aclcpu {

/// Records a failed call for aclGetRecentErrMsg (the message, formatted as
/// CANN formats it, with tag e.g. "AclNN_Parameter_Error(EZ1001)") and for
/// aclrtGetLastError (the code).  Thread-safe; per calling thread.
ACLCPU_EXPORT void report_error(aclError code, const char* tag, const char* format, ...)
    __attribute__((format(printf, 3, 4)));
ACLCPU_EXPORT void vreport_error(aclError code, const char* tag, const char* format, va_list args)
    __attribute__((format(printf, 3, 0)));

/// Records a message for aclGetRecentErrMsg alone: the failure of a library
/// whose codes are not the runtime's (HCCL), which leaves aclrtGetLastError
/// as it was.  Thread-safe; per calling thread.
ACLCPU_EXPORT void report_message(const char* tag, const char* format, ...) __attribute__((format(printf, 2, 3)));
ACLCPU_EXPORT void vreport_message(const char* tag, const char* format, va_list args)
    __attribute__((format(printf, 2, 0)));

/// Message tags used with report_error.
inline constexpr const char* kAclnnParamTag = "AclNN_Parameter_Error(EZ1001)";
inline constexpr const char* kAclnnInnerTag = "AclNN_Inner_Error(EZ9999)";
inline constexpr const char* kRuntimeParamTag = "Runtime_Parameter_Error(EE1001)";
inline constexpr const char* kRuntimeInnerTag = "Runtime_Inner_Error(EE9999)";
inline constexpr const char* kHcclParamTag = "HCCL_Parameter_Error(EI0001)";
inline constexpr const char* kHcclInnerTag = "HCCL_Inner_Error(EI9999)";

}  // namespace aclcpu
