// acl-cpu runtime: host memory registered for device access (aclrtHostRegister).
#pragma once

#include "core/internal.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

#include "acl/acl_base.h"

namespace aclcpu::detail {

/// Host ranges registered with aclrtHostRegister(V2).
///
/// Host and emulated devices share one address space, so the device address
/// of a registered range is the host address itself: registering adopts the
/// range into the registering device's pool (DevicePool::adopt), which makes
/// operators and memcheck accept it as device memory, and asynchronous copies
/// treat it as page-locked.  Unregistering gives that up again.
class HostRegistrations {
public:
    static HostRegistrations& instance();

    /// Registers [ptr, ptr + size) for `device`; `mapped` says whether a
    /// device pointer may be asked for (ACL_HOST_REG_MAPPED).
    aclError add(void* ptr, size_t size, int32_t device, bool mapped, const char* api);
    aclError remove(void* ptr);
    /// The device address of host address ptr inside a mapped registration.
    aclError device_pointer(void* ptr, void** device) const;

private:
    struct Registration {
        size_t size;
        int32_t device;
        bool mapped;
    };
    HostRegistrations() = default;
    /// The registration holding address, or registrations_.end().
    std::map<uintptr_t, Registration>::const_iterator holding(uintptr_t address) const;

    mutable std::mutex mutex_;
    std::map<uintptr_t, Registration> registrations_;  ///< Keyed by host address.
};

}  // namespace aclcpu::detail
