// acl-cpu: argument checks shared by the libnnopbase entry points.  Private
// to ops/base.
#pragma once

#if !defined(ACLCPU_NNOPBASE_INTERNAL)
#error Do not #include this internal file directly; it is private to libnnopbase.
#endif

#include "aclcpu/nnopbase.hpp"

namespace aclcpu {

/// Reports 161001 for api when anyNull and returns anyNull: CANN's object
/// functions answer ACLNN_ERR_PARAM_NULLPTR when any pointer argument is null.
inline bool null_argument(const char* api, bool anyNull) {
    if (anyNull) report_error(ACLNN_ERR_PARAM_NULLPTR, kAclnnParamTag, "%s: an argument is nullptr.", api);
    return anyNull;
}

}  // namespace aclcpu
