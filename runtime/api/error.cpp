// acl-cpu runtime API: the calling thread's errors (acl_base.h, acl_rt.h).
#include "acl/acl_rt.h"
#include "aclcpu/dtype.hpp"
#include "core/errors.hpp"

namespace {

/// levelCode: the aclrtLastErrLevel read with code_of by the entry point (a
/// copy of the enum, as an argument, would already be a load of it).
aclError read_last_error(int64_t levelCode, bool clear, const char* api) {
    if (levelCode != ACL_RT_THREAD_LEVEL) {
        return aclcpu::detail::param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown level %lld", api,
                                           static_cast<long long>(levelCode));
    }
    return aclcpu::detail::last_error(clear);
}

}  // namespace

extern "C" {

const char* aclGetRecentErrMsg() { return aclcpu::detail::hand_out_thread_messages(); }

aclError aclrtGetLastError(aclrtLastErrLevel level) {
    return read_last_error(aclcpu::code_of(level), true, "aclrtGetLastError");
}

aclError aclrtPeekAtLastError(aclrtLastErrLevel level) {
    return read_last_error(aclcpu::code_of(level), false, "aclrtPeekAtLastError");
}

}  // extern "C"
