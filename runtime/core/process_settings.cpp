// acl-cpu runtime: ProcessSettings.
#include <algorithm>

#include "aclcpu/testing.hpp"
#include "core/process_settings.hpp"

namespace aclcpu::detail {
namespace {

/// CANN's defaults of the aclrtDeviceLimit kinds (03/04 docs, aclrtDeviceLimit).
size_t default_device_limit(int64_t limit) {
    switch (limit) {
        case ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE: return 1152;
        case ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE: return 1024;
        case ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE: return 32 * 1024;
        case ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE: return 32 * 1024;
        case ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE: return 2 * 1024 * 1024;
        default: return 0;
    }
}

template <typename Registrations, typename Function>
void erase_registration(Registrations& registrations, int64_t type, Function function) {
    registrations.erase(std::remove_if(registrations.begin(), registrations.end(),
                                       [&](const auto& entry) { return entry.type == type && entry.function == function; }),
                        registrations.end());
}

/// Updates the user data of an existing registration; false if there is none.
template <typename Registrations, typename Function>
bool update_registration(Registrations& registrations, int64_t type, Function function, void* userData) {
    for (auto& entry : registrations) {
        if (entry.type == type && entry.function == function) {
            entry.userData = userData;
            return true;
        }
    }
    return false;
}

}  // namespace

ProcessSettings& ProcessSettings::instance() {
    static ProcessSettings* settings = new ProcessSettings();  // Never destroyed: usable from atexit handlers.
    return *settings;
}

void ProcessSettings::set_param(int64_t option, int64_t value) {
    std::lock_guard<std::mutex> lock(mutex_);
    params_[option] = value;
}

int64_t ProcessSettings::param(int64_t option) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = params_.find(option);
    return it == params_.end() ? 0 : it->second;
}

void ProcessSettings::set_device_limit(int64_t limit, size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    deviceLimits_[limit] = bytes;
}

size_t ProcessSettings::device_limit(int64_t limit) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = deviceLimits_.find(limit);
    return it == deviceLimits_.end() ? default_device_limit(limit) : it->second;
}

void ProcessSettings::set_res_limit(int32_t device, int64_t type, uint32_t cores) {
    std::lock_guard<std::mutex> lock(mutex_);
    DeviceState& state = devices_[device];
    (type == ACL_RT_DEV_RES_CUBE_CORE ? state.cubeCores : state.vectorCores) = cores;
}

uint32_t ProcessSettings::res_limit(int32_t device, int64_t type, const SocProfile& soc) const {
    std::lock_guard<std::mutex> lock(mutex_);
    const DeviceState& state = devices_[device];
    if (type == ACL_RT_DEV_RES_CUBE_CORE) return state.cubeCores.value_or(static_cast<uint32_t>(soc.aiCoreCount));
    return state.vectorCores.value_or(static_cast<uint32_t>(soc.vectorCoreCount));
}

void ProcessSettings::reset_res_limits(int32_t device) {
    std::lock_guard<std::mutex> lock(mutex_);
    devices_[device].cubeCores.reset();
    devices_[device].vectorCores.reset();
}

void ProcessSettings::set_saturation_mode(int32_t device, aclrtFloatOverflowMode mode) {
    std::lock_guard<std::mutex> lock(mutex_);
    devices_[device].saturationMode = mode;
}

aclrtFloatOverflowMode ProcessSettings::saturation_mode(int32_t device) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return devices_[device].saturationMode;
}

void ProcessSettings::raise_overflow(int32_t device) noexcept {
    overflow_[device].store(true, std::memory_order_release);
}

bool ProcessSettings::overflowed(int32_t device) const noexcept {
    return overflow_[device].load(std::memory_order_acquire);
}

void ProcessSettings::clear_overflow(int32_t device) noexcept {
    overflow_[device].store(false, std::memory_order_release);
}

aclError ProcessSettings::register_init_callback(int64_t type, aclInitCallbackFunc function, void* userData) {
    std::string config;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!update_registration(initCallbacks_, type, function, userData)) {
            initCallbacks_.push_back({type, function, userData});
        }
        if (!spanConfig_) return ACL_SUCCESS;
        config = *spanConfig_;
    }
    return function(config.c_str(), config.size(), userData);
}

void ProcessSettings::unregister_init_callback(int64_t type, aclInitCallbackFunc function) {
    std::lock_guard<std::mutex> lock(mutex_);
    erase_registration(initCallbacks_, type, function);
}

void ProcessSettings::register_finalize_callback(int64_t type, aclFinalizeCallbackFunc function, void* userData) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!update_registration(finalizeCallbacks_, type, function, userData)) {
        finalizeCallbacks_.push_back({type, function, userData});
    }
}

void ProcessSettings::unregister_finalize_callback(int64_t type, aclFinalizeCallbackFunc function) {
    std::lock_guard<std::mutex> lock(mutex_);
    erase_registration(finalizeCallbacks_, type, function);
}

aclError ProcessSettings::run_init_callbacks(const std::string& configText) {
    std::vector<Registration<aclInitCallbackFunc>> due;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (spanConfig_) return ACL_SUCCESS;
        spanConfig_ = configText;
        due = initCallbacks_;
    }
    aclError first = ACL_SUCCESS;
    for (const auto& entry : due) {
        const aclError status = entry.function(configText.c_str(), configText.size(), entry.userData);
        if (first == ACL_SUCCESS) first = status;
    }
    return first;
}

aclError ProcessSettings::run_finalize_callbacks() {
    std::vector<Registration<aclFinalizeCallbackFunc>> due;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        spanConfig_.reset();
        due = finalizeCallbacks_;
    }
    aclError first = ACL_SUCCESS;
    for (const auto& entry : due) {
        const aclError status = entry.function(entry.userData);
        if (first == ACL_SUCCESS) first = status;
    }
    return first;
}

}  // namespace aclcpu::detail

namespace aclcpu::testing {

void raise_float_overflow(int32_t deviceId) { detail::ProcessSettings::instance().raise_overflow(deviceId); }

}  // namespace aclcpu::testing
