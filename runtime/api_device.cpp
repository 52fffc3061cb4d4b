// acl-cpu runtime: initialisation, devices and contexts (acl.h, acl_rt.h).
#include <cstdarg>
#include <cstdio>

#include "acl/acl.h"
#include "aclcpu/init.hpp"
#include "aclcpu/instrumentation.hpp"
#include "detail/errors.hpp"
#include "detail/observed.hpp"
#include "detail/runtime_state.hpp"

using aclcpu::detail::param_error;
using aclcpu::detail::ProgressCounter;
using aclcpu::detail::Runtime;

namespace aclcpu {

aclError ensure_initialised(const char* configPath) { return Runtime::instance().initialise(configPath); }

const SocProfile& soc_profile(aclrtStream stream) {
    Runtime& runtime = Runtime::instance();
    if (stream != nullptr) {
        std::shared_ptr<detail::Stream> resolved;
        if (runtime.resolve_stream(stream, "soc_profile", resolved) == ACL_SUCCESS) return resolved->device().soc();
    } else if (auto context = runtime.current_context()) {
        return context->device().soc();
    }
    return runtime.config().soc.name != nullptr ? runtime.config().soc : *detail::find_soc_profile("Ascend910B2");
}

}  // namespace aclcpu

namespace {

aclError synchronize_current_device(int32_t timeoutMs, const char* api) {
    const aclcpu::instrument::ApiScope scope(api);
    aclcpu::detail::Device* device = nullptr;
    if (aclError status = aclcpu::detail::current_device(api, device); status != ACL_SUCCESS) return status;
    if (!device->synchronize(aclcpu::detail::deadline_after(timeoutMs))) {
        return aclcpu::detail::runtime_error(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "%s: device %d still busy after %d ms",
                                             api, device->id(), timeoutMs);
    }
    aclcpu::detail::observe_device_waited(device->id());
    return ACL_SUCCESS;
}

bool valid_timeout(int32_t timeoutMs) { return timeoutMs == -1 || timeoutMs > 0; }

}  // namespace

extern "C" {

aclError aclInit(const char* configPath) { return Runtime::instance().initialise(configPath); }

aclError aclFinalize() { return Runtime::instance().finalise(); }

aclError aclFinalizeReference(uint64_t* refCount) { return Runtime::instance().finalise(refCount); }

aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion) {
    if (majorVersion == nullptr || minorVersion == nullptr || patchVersion == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtGetVersion: an output pointer is null");
    }
    *majorVersion = ACL_MAJOR_VERSION;
    *minorVersion = ACL_MINOR_VERSION;
    *patchVersion = ACL_PATCH_VERSION;
    return ACL_SUCCESS;
}

aclError aclrtSetDevice(int32_t deviceId) { return Runtime::instance().set_device(deviceId); }

aclError aclrtResetDevice(int32_t deviceId) { return Runtime::instance().reset_device(deviceId, false); }

aclError aclrtResetDeviceForce(int32_t deviceId) { return Runtime::instance().reset_device(deviceId, true); }

aclError aclrtGetDevice(int32_t* deviceId) {
    if (deviceId == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtGetDevice: deviceId is null");
    aclcpu::detail::Device* device = nullptr;
    if (aclError status = aclcpu::detail::current_device("aclrtGetDevice", device); status != ACL_SUCCESS) {
        return status;
    }
    *deviceId = device->id();
    return ACL_SUCCESS;
}

aclError aclrtGetDeviceCount(uint32_t* count) {
    if (count == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount: count is null");
    if (!Runtime::instance().initialised()) {
        return param_error(ACL_ERROR_UNINITIALIZE, "aclrtGetDeviceCount: call aclInit first");
    }
    *count = static_cast<uint32_t>(Runtime::instance().config().deviceCount);
    return ACL_SUCCESS;
}

aclError aclrtGetRunMode(aclrtRunMode* runMode) {
    if (runMode == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtGetRunMode: runMode is null");
    *runMode = ACL_HOST;
    return ACL_SUCCESS;
}

aclError aclrtSynchronizeDevice(void) { return synchronize_current_device(-1, "aclrtSynchronizeDevice"); }

aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout) {
    if (!valid_timeout(timeout)) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeDeviceWithTimeout: timeout %d is neither -1 nor > 0",
                           timeout);
    }
    return synchronize_current_device(timeout, "aclrtSynchronizeDeviceWithTimeout");
}

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

const char* aclrtGetSocName() {
    Runtime& runtime = Runtime::instance();
    return runtime.initialised() ? runtime.config().soc.name : nullptr;
}

aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t* value) {
    Runtime& runtime = Runtime::instance();
    if (value == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclGetDeviceCapability: value is null");
    if (!runtime.initialised()) return param_error(ACL_ERROR_UNINITIALIZE, "aclGetDeviceCapability: call aclInit first");
    if (deviceId >= static_cast<uint32_t>(runtime.config().deviceCount)) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclGetDeviceCapability: device id %u does not exist", deviceId);
    }
    const aclcpu::SocProfile& soc = runtime.config().soc;
    switch (deviceInfo) {
        case ACL_DEVICE_INFO_AI_CORE_NUM: *value = soc.aiCoreCount; return ACL_SUCCESS;
        case ACL_DEVICE_INFO_VECTOR_CORE_NUM: *value = soc.vectorCoreCount; return ACL_SUCCESS;
        case ACL_DEVICE_INFO_L2_SIZE: *value = soc.l2Size; return ACL_SUCCESS;
        default:
            return param_error(ACL_ERROR_INVALID_PARAM, "aclGetDeviceCapability: unknown capability %d",
                               static_cast<int>(deviceInfo));
    }
}

void aclAppLog(aclLogLevel logLevel, const char* func, const char* file, uint32_t line, const char* fmt, ...) {
    static const char* const kLevelNames[] = {"DEBUG", "INFO", "WARNING", "ERROR"};
    if (logLevel < ACL_WARNING || logLevel > ACL_ERROR || fmt == nullptr) return;
    char text[1024];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    std::fprintf(stderr, "[%s] %s:%u %s: %s\n", kLevelNames[logLevel], file ? file : "?", line, func ? func : "?",
                 text);
}

}  // extern "C"
