// acl-cpu runtime API: contexts and their system parameters (acl_rt.h).
#include "acl/acl_rt.h"
#include "aclcpu/dtype.hpp"
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
    const int64_t option = aclcpu::code_of(opt);
    if (option < ACL_OPT_DETERMINISTIC || option > ACL_OPT_ENABLE_KERNEL_EARLY_START) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtCtxSetSysParamOpt: unknown option %lld",
                           static_cast<long long>(option));
    }
    std::shared_ptr<aclcpu::detail::Context> current = Runtime::instance().current_context();
    if (!current) return param_error(ACL_ERROR_RT_CONTEXT_NULL, "aclrtCtxSetSysParamOpt: no current context");
    current->set_option(option, value);
    return ACL_SUCCESS;
}

aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t* value) {
    if (value == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtCtxGetSysParamOpt: value is null");
    std::shared_ptr<aclcpu::detail::Context> current = Runtime::instance().current_context();
    if (!current) return param_error(ACL_ERROR_RT_CONTEXT_NULL, "aclrtCtxGetSysParamOpt: no current context");
    const int64_t option = aclcpu::code_of(opt);
    if (!current->option(option, *value)) {
        return param_error(ACL_ERROR_RT_SYSPARAMOPT_NOT_SET, "aclrtCtxGetSysParamOpt: option %lld was never set",
                           static_cast<long long>(option));
    }
    return ACL_SUCCESS;
}

}  // extern "C"
