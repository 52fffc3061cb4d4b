// acl-cpu runtime API: initialisation and its callbacks (acl.h, acl_rt.h).
#include <fstream>
#include <iterator>
#include <string>

#include "acl/acl.h"
#include "aclcpu/dtype.hpp"
#include "aclcpu/init.hpp"
#include "core/errors.hpp"
#include "core/process_settings.hpp"
#include "core/runtime_state.hpp"
#include "observe/data_dump.hpp"
#include "observe/observers.hpp"

using aclcpu::detail::param_error;
using aclcpu::detail::ProcessSettings;
using aclcpu::detail::Runtime;

namespace {

/// The JSON text init callbacks receive, as aclInit read it ("" without a file).
std::string config_text(const char* configPath) {
    if (configPath == nullptr) return {};
    std::ifstream file(configPath);
    return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

/// Reads type as an integer into code; a null function or an unknown type is reported.
aclError check_callback_type(aclRegisterCallbackType type, const void* function, const char* api, int64_t& code) {
    if (function == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: the callback is null", api);
    code = aclcpu::code_of(type);
    if ((code < ACL_REG_TYPE_ACL_MODEL || code > ACL_REG_TYPE_ACL_RETR) && code != ACL_REG_TYPE_OTHER) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown callback type %lld", api,
                           static_cast<long long>(code));
    }
    return ACL_SUCCESS;
}

/// Drops one aclInit reference; the span's last one runs the finalize callbacks.
aclError finalise(uint64_t* refCount) {
    uint64_t remaining = 0;
    if (aclError status = Runtime::instance().finalise(&remaining); status != ACL_SUCCESS) return status;
    if (refCount != nullptr) *refCount = remaining;
    if (remaining > 0) return ACL_SUCCESS;
    aclcpu::observe::DataDump::instance().finalize_at_finalize();
    return ProcessSettings::instance().run_finalize_callbacks();
}

}  // namespace

namespace aclcpu {

aclError ensure_initialised(const char* configPath) {
    if (aclError status = Runtime::instance().initialise(configPath, observe::attach_configured);
        status != ACL_SUCCESS) {
        return status;
    }
    if (aclError status = observe::DataDump::instance().configure_at_init(configPath); status != ACL_SUCCESS) {
        finalise(nullptr);
        return status;
    }
    return ProcessSettings::instance().run_init_callbacks(config_text(configPath));
}

}  // namespace aclcpu

extern "C" {

aclError aclInit(const char* configPath) { return aclcpu::ensure_initialised(configPath); }

aclError aclFinalize() { return finalise(nullptr); }

aclError aclFinalizeReference(uint64_t* refCount) { return finalise(refCount); }

aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion) {
    if (majorVersion == nullptr || minorVersion == nullptr || patchVersion == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtGetVersion: an output pointer is null");
    }
    *majorVersion = ACL_MAJOR_VERSION;
    *minorVersion = ACL_MINOR_VERSION;
    *patchVersion = ACL_PATCH_VERSION;
    return ACL_SUCCESS;
}

aclError aclInitCallbackRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc, void* userData) {
    int64_t code = 0;
    if (aclError status = check_callback_type(type, reinterpret_cast<const void*>(cbFunc), __func__, code);
        status != ACL_SUCCESS) {
        return status;
    }
    return ProcessSettings::instance().register_init_callback(code, cbFunc, userData);
}

aclError aclInitCallbackUnRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc) {
    int64_t code = 0;
    if (aclError status = check_callback_type(type, reinterpret_cast<const void*>(cbFunc), __func__, code);
        status != ACL_SUCCESS) {
        return status;
    }
    ProcessSettings::instance().unregister_init_callback(code, cbFunc);
    return ACL_SUCCESS;
}

aclError aclFinalizeCallbackRegister(aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc, void* userData) {
    int64_t code = 0;
    if (aclError status = check_callback_type(type, reinterpret_cast<const void*>(cbFunc), __func__, code);
        status != ACL_SUCCESS) {
        return status;
    }
    ProcessSettings::instance().register_finalize_callback(code, cbFunc, userData);
    return ACL_SUCCESS;
}

aclError aclFinalizeCallbackUnRegister(aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc) {
    int64_t code = 0;
    if (aclError status = check_callback_type(type, reinterpret_cast<const void*>(cbFunc), __func__, code);
        status != ACL_SUCCESS) {
        return status;
    }
    ProcessSettings::instance().unregister_finalize_callback(code, cbFunc);
    return ACL_SUCCESS;
}

}  // extern "C"
