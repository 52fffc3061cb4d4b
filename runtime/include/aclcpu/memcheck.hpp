// acl-cpu runtime interface: device-memory checking (ACLCPU_MEMCHECK) as the
// libraries that launch device work use it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "acl/acl_base.h"
#include "aclcpu/export.hpp"

namespace aclcpu {

/// A device address range a task is about to touch, named for fault reports
/// as `role` (and `index` unless it is negative): "input 1", "workspace".
struct DeviceAccess {
    const void* address;
    uint64_t bytes;
    const char* role;
    int index;
};

/// True when device memory checking is on for the current aclInit span
/// (ACLCPU_MEMCHECK=1/0; on by default in Debug builds).  Callers test it
/// first so that the checks below cost one branch when it is off.
ACLCPU_EXPORT bool memcheck_enabled() noexcept;

/// Memory check before `task` runs: each access with bytes > 0 must lie
/// inside the usable bytes of one live aclrtMalloc block.  An access that
/// strays into a guard zone, touches a freed block or is not device memory
/// is reported (naming task, role and buffer) and ACL_ERROR_RT_AICORE_EXCEPTION
/// returned, as the device would raise an AI Core exception; the task must
/// then leave memory untouched.
ACLCPU_EXPORT aclError check_device_accesses(const char* task, const DeviceAccess* accesses, size_t count) noexcept;

/// Where a byte range starting in device memory ends.
enum class DeviceReach {
    kNotDevice,        ///< Its start lies in no live aclrtMalloc block or mapped range of an open device.
    kInBlock,          ///< Inside the usable bytes of that block (or of back-to-back mapped ranges).
    kInReservation,    ///< Past the usable bytes, inside the memory reserved for the block (its 512-byte
                       ///< granule, as the device's allocator rounds): harmless to write, as on the device.
    kPastReservation,  ///< Beyond that: memory that is not the block's.
};

/// Where [address, address + bytes) reaches, bytes > 0, whether or not
/// memory checking is on.  Operators bound a tensor's view by it: the
/// storage a program declares can be smaller than the memory (ggml's
/// descriptors leave the view offset out of it) or larger (ggml's fused
/// ADD + RMS_NORM declares an rstd of uninitialised size; CANN's
/// SoftmaxCrossEntropyWithLogits example allocates its outputs at half
/// their size).  Any thread; it takes the runtime's device lock.
ACLCPU_EXPORT DeviceReach device_reach(const void* address, uint64_t bytes) noexcept;

/// Memory check after `task` ran: the guard zones of the blocks it accessed
/// still hold their canaries.  A damaged zone is reported, re-armed and
/// ACL_ERROR_RT_AICORE_EXCEPTION returned.
ACLCPU_EXPORT aclError check_device_guards(const char* task, const DeviceAccess* accesses, size_t count) noexcept;

}  // namespace aclcpu
