// acl-cpu runtime API: contexts and their system parameters (acl_rt.h).
#include "acl/acl_rt.h"
#include "core/errors.hpp"
#include "core/runtime_state.hpp"

using aclcpu::detail::param_error;
using aclcpu::detail::Runtime;

extern "C" {

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
    if (context == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtCreateContext: context is null");
    return Runtime::instance().create_context(deviceId, context);
}

aclError aclrtDestroyContext(aclrtContext context) {
    if (context == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtDestroyContext: context is null");
    return Runtime::instance().destroy_context(context);
}

aclError aclrtSetCurrentContext(aclrtContext context) {
    if (context == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtSetCurrentContext: context is null");
    std::shared_ptr<aclcpu::detail::Context> found = Runtime::instance().find_context(context);
    if (!found) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "aclrtSetCurrentContext: %p is not a live context", context);
    }
    Runtime::instance().set_current_context(std::move(found));
    return ACL_SUCCESS;
}

aclError aclrtGetCurrentContext(aclrtContext* context) {
    if (context == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtGetCurrentContext: context is null");
    std::shared_ptr<aclcpu::detail::Context> current = Runtime::instance().current_context();
    if (!current) {
        return param_error(ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetCurrentContext: no current context; call aclrtSetDevice");
    }
    *context = current.get();
    return ACL_SUCCESS;
}

aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
    if (opt < ACL_OPT_DETERMINISTIC || opt > ACL_OPT_ENABLE_KERNEL_EARLY_START) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtCtxSetSysParamOpt: unknown option %d", static_cast<int>(opt));
    }
    std::shared_ptr<aclcpu::detail::Context> current = Runtime::instance().current_context();
    if (!current) return param_error(ACL_ERROR_RT_CONTEXT_NULL, "aclrtCtxSetSysParamOpt: no current context");
    current->set_option(opt, value);
    return ACL_SUCCESS;
}

aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t* value) {
    if (value == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtCtxGetSysParamOpt: value is null");
    std::shared_ptr<aclcpu::detail::Context> current = Runtime::instance().current_context();
    if (!current) return param_error(ACL_ERROR_RT_CONTEXT_NULL, "aclrtCtxGetSysParamOpt: no current context");
    if (!current->option(opt, *value)) {
        return param_error(ACL_ERROR_RT_SYSPARAMOPT_NOT_SET, "aclrtCtxGetSysParamOpt: option %d was never set",
                           static_cast<int>(opt));
    }
    return ACL_SUCCESS;
}

}  // extern "C"
