// acl-cpu runtime API: devices and the emulated SoC (acl_base.h, acl_rt.h).
#include "acl/acl.h"
#include "aclcpu/dtype.hpp"
#include "aclcpu/instrumentation.hpp"
#include "aclcpu/soc_profile.hpp"
#include "api/arguments.hpp"
#include "core/errors.hpp"
#include "core/graph_capture.hpp"
#include "core/process_settings.hpp"
#include "core/runtime_state.hpp"
#include "observe/runtime_hooks.hpp"

using aclcpu::api::check_timeout;
using aclcpu::detail::param_error;
using aclcpu::detail::ProcessSettings;
using aclcpu::detail::Runtime;

namespace aclcpu {

const SocProfile& soc_profile(aclrtStream stream) {
    Runtime& runtime = Runtime::instance();
    if (stream != nullptr) {
        std::shared_ptr<detail::Stream> resolved;
        if (runtime.resolve_stream(stream, "soc_profile", resolved) == ACL_SUCCESS) return resolved->device().soc();
    }
    // Every device of an initialisation emulates its configured SoC, so the
    // current context's device need not be looked up: that lookup (a weak_ptr
    // lock, two atomic read-modify-writes) sat on every operator's phase 1.
    return runtime.config().soc.name != nullptr ? runtime.config().soc : detail::default_soc_profile();
}

}  // namespace aclcpu

namespace {

/// Runs change between the device state callbacks of aclrtRegDeviceStateCallback:
/// `before` for a device that exists, `after` only when the change succeeded.
template <typename Change>
aclError with_state_callbacks(int32_t deviceId, aclrtDeviceState before, aclrtDeviceState after, Change change) {
    Runtime& runtime = Runtime::instance();
    if (!runtime.initialised() || deviceId < 0 || deviceId >= runtime.config().deviceCount) return change();
    ProcessSettings& settings = ProcessSettings::instance();
    settings.device_state_callbacks().notify(deviceId, before);
    const aclError status = change();
    if (status == ACL_SUCCESS) settings.device_state_callbacks().notify(deviceId, after);
    return status;
}

aclError synchronize_current_device(int32_t timeoutMs, const char* api) {
    if (aclError status = check_timeout(timeoutMs, api); status != ACL_SUCCESS) return status;
    const aclcpu::instrument::ApiScope scope(api);
    aclcpu::detail::Device* device = nullptr;
    if (aclError status = aclcpu::detail::current_device(api, device); status != ACL_SUCCESS) return status;
    if (aclError status = aclcpu::detail::refuse_device_capturing(*device, api); status != ACL_SUCCESS) return status;
    switch (device->synchronize_abortable(aclcpu::detail::deadline_after(timeoutMs))) {
        case aclcpu::detail::WaitEnd::kReached:
            break;
        case aclcpu::detail::WaitEnd::kTimedOut:
            return aclcpu::detail::runtime_error(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                                                 "%s: device %d still busy after %d ms", api, device->id(), timeoutMs);
        case aclcpu::detail::WaitEnd::kAborted:
            return aclcpu::detail::runtime_error(ACL_ERROR_RT_STREAM_ABORT,
                                                 "%s: aclrtStreamAbort of a stream of device %d ended the wait", api,
                                                 device->id());
    }
    aclcpu::detail::observe_device_waited(device->id());
    return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtSetDevice(int32_t deviceId) {
    return with_state_callbacks(deviceId, ACL_RT_DEVICE_STATE_SET_PRE, ACL_RT_DEVICE_STATE_SET_POST,
                                [deviceId] { return Runtime::instance().set_device(deviceId); });
}

aclError aclrtResetDevice(int32_t deviceId) {
    return with_state_callbacks(deviceId, ACL_RT_DEVICE_STATE_RESET_PRE, ACL_RT_DEVICE_STATE_RESET_POST,
                                [deviceId] { return Runtime::instance().reset_device(deviceId, false); });
}

aclError aclrtResetDeviceForce(int32_t deviceId) {
    return with_state_callbacks(deviceId, ACL_RT_DEVICE_STATE_RESET_PRE, ACL_RT_DEVICE_STATE_RESET_POST,
                                [deviceId] { return Runtime::instance().reset_device(deviceId, true); });
}

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
    return synchronize_current_device(timeout, "aclrtSynchronizeDeviceWithTimeout");
}

const char* aclrtGetSocName() {
    Runtime& runtime = Runtime::instance();
    return runtime.initialised() ? runtime.config().soc.name : aclcpu::detail::default_soc_profile().name;
}

aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t* value) {
    Runtime& runtime = Runtime::instance();
    if (value == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclGetDeviceCapability: value is null");
    if (!runtime.initialised()) return param_error(ACL_ERROR_UNINITIALIZE, "aclGetDeviceCapability: call aclInit first");
    if (deviceId >= static_cast<uint32_t>(runtime.config().deviceCount)) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclGetDeviceCapability: device id %u does not exist", deviceId);
    }
    const aclcpu::SocProfile& soc = runtime.config().soc;
    const int64_t info = aclcpu::code_of(deviceInfo);
    switch (info) {
        case ACL_DEVICE_INFO_AI_CORE_NUM: *value = soc.aiCoreCount; return ACL_SUCCESS;
        case ACL_DEVICE_INFO_VECTOR_CORE_NUM: *value = soc.vectorCoreCount; return ACL_SUCCESS;
        case ACL_DEVICE_INFO_L2_SIZE: *value = soc.l2Size; return ACL_SUCCESS;
        default:
            return param_error(ACL_ERROR_INVALID_PARAM, "aclGetDeviceCapability: unknown capability %d",
                               static_cast<int>(info));
    }
}

}  // extern "C"
