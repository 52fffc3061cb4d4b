// acl-cpu runtime: ProcessSettings, what a process configures for every
// device and keeps across aclInit spans.
#pragma once

#include "core/internal.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "aclcpu/soc_profile.hpp"
#include "core/named_callbacks.hpp"

namespace aclcpu::detail {

/// Device ids the configuration allows (device_count is at most 64).
inline constexpr int32_t kMaxDevices = 64;

/// Bytes of the overflow record aclrtGetOverflowStatus writes to device memory.
inline constexpr size_t kOverflowRecordBytes = 64;

/// Process-wide state that is not part of one aclInit span: the system
/// parameters of aclrtSetSysParamOpt, the device limits, per-device resource
/// limits, saturation modes and overflow flags, and the callbacks a program
/// registers around initialisation and device state changes.  Registrations
/// may come before aclInit, so none of this lives in Runtime.
class ProcessSettings {
public:
    static ProcessSettings& instance();

    // aclrtSetSysParamOpt: every option reads 0 until set.
    void set_param(int64_t option, int64_t value);
    int64_t param(int64_t option) const;

    // aclrtDeviceSetLimit: byte sizes shared by all devices.
    void set_device_limit(int64_t limit, size_t bytes);
    /// The value set, or the documented default when never set.
    size_t device_limit(int64_t limit) const;

    // aclrtSetDeviceResLimit: cores a device's kernels may use (type is
    // ACL_RT_DEV_RES_CUBE_CORE or ACL_RT_DEV_RES_VECTOR_CORE).
    void set_res_limit(int32_t device, int64_t type, uint32_t cores);
    /// The limit set, or the SoC's core count of that type.
    uint32_t res_limit(int32_t device, int64_t type, const SocProfile& soc) const;
    void reset_res_limits(int32_t device);

    // aclrtSetDeviceSatMode: ACL_RT_OVERFLOW_MODE_INFNAN until set.
    void set_saturation_mode(int32_t device, aclrtFloatOverflowMode mode);
    aclrtFloatOverflowMode saturation_mode(int32_t device) const;

    /// Float-overflow flag of a device's computations: set by work that
    /// overflows, read and cleared by the overflow-status tasks.
    void raise_overflow(int32_t device) noexcept;
    bool overflowed(int32_t device) const noexcept;
    void clear_overflow(int32_t device) noexcept;

    /// The callbacks of aclrtRegDeviceStateCallback, called as
    /// callback(device, state, args) around set and reset device.
    NamedCallbacks<aclrtDeviceStateCallback>& device_state_callbacks() noexcept { return deviceStateCallbacks_; }

    // Callbacks of aclInit and aclFinalize, by registration type.
    /// Registers (or updates the user data of) function; runs it at once when
    /// the current aclInit span has already run the others.
    aclError register_init_callback(int64_t type, aclInitCallbackFunc function, void* userData);
    void unregister_init_callback(int64_t type, aclInitCallbackFunc function);
    void register_finalize_callback(int64_t type, aclFinalizeCallbackFunc function, void* userData);
    void unregister_finalize_callback(int64_t type, aclFinalizeCallbackFunc function);
    /// Once per aclInit span: runs the init callbacks with the configuration
    /// text; the first failure is returned.
    aclError run_init_callbacks(const std::string& configText);
    /// At the end of a span: runs the finalize callbacks; the first failure is returned.
    aclError run_finalize_callbacks();

private:
    template <typename Function>
    struct Registration {
        int64_t type;
        Function function;
        void* userData;
    };
    struct DeviceState {
        std::optional<uint32_t> cubeCores;
        std::optional<uint32_t> vectorCores;
        aclrtFloatOverflowMode saturationMode = ACL_RT_OVERFLOW_MODE_INFNAN;
    };

    mutable std::mutex mutex_;
    std::map<int64_t, int64_t> params_;
    std::map<int64_t, size_t> deviceLimits_;
    std::array<DeviceState, kMaxDevices> devices_{};
    std::array<std::atomic<bool>, kMaxDevices> overflow_{};
    NamedCallbacks<aclrtDeviceStateCallback> deviceStateCallbacks_;
    std::vector<Registration<aclInitCallbackFunc>> initCallbacks_;
    std::vector<Registration<aclFinalizeCallbackFunc>> finalizeCallbacks_;
    std::optional<std::string> spanConfig_;  ///< Set while an aclInit span has run its init callbacks.
};

}  // namespace aclcpu::detail
