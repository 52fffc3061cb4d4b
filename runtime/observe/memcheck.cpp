// acl-cpu runtime: the device memory checker.
//
// A device task's accesses are checked against the pools before it runs and
// its blocks' guard zones after: a fault the device would raise becomes
// ACL_ERROR_RT_AICORE_EXCEPTION on the stream, with a message naming the
// task, the access and the block, and memory is left as it was.
#include <atomic>
#include <cstdio>

#include "core/lane.hpp"
#include "aclcpu/error_report.hpp"
#include "observe/memcheck.hpp"
#include "core/runtime_state.hpp"

namespace aclcpu {
namespace detail {
namespace {

std::atomic<bool> gMemcheck{false};

using Placement = DevicePool::Placement;

/// Where a range lies: in the pool of the device running the calling task
/// first (which holds the pools of a device being reset, too), then in
/// every open device's.
DevicePool::Lookup locate(const DeviceAccess& access, DevicePool*& pool) {
    if (StreamLane* lane = StreamLane::running()) {
        pool = &lane->pool();
        const DevicePool::Lookup found = pool->inspect(access.address, access.bytes);
        if (found.placement != Placement::kForeign) return found;
    }
    Device* owner = nullptr;
    const DevicePool::Lookup found = Runtime::instance().locate_device_range(access.address, access.bytes, owner);
    pool = owner != nullptr ? &owner->pool() : nullptr;
    return found;
}

/// "input 1", "workspace".
struct RoleName {
    explicit RoleName(const DeviceAccess& access) {
        if (access.index < 0) {
            std::snprintf(text, sizeof text, "%s", access.role);
        } else {
            std::snprintf(text, sizeof text, "%s %d", access.role, access.index);
        }
    }
    char text[48];
};

aclError report_fault(const char* task, const DeviceAccess& access, const DevicePool::Lookup& where) {
    const RoleName role(access);
    const auto bytes = static_cast<unsigned long long>(access.bytes);
    const auto block = reinterpret_cast<const void*>(where.block);
    const auto blockSize = static_cast<unsigned long long>(where.blockSize);
    switch (where.placement) {
        case Placement::kFreed:
            report_error(ACL_ERROR_RT_AICORE_EXCEPTION, kRuntimeInnerTag,
                         "%s: %s [%p, +%llu) touches device block %p (%llu bytes), which aclrtFree has released "
                         "(use after free)",
                         task, role.text, access.address, bytes, block, blockSize);
            break;
        case Placement::kGuard:
            report_error(ACL_ERROR_RT_AICORE_EXCEPTION, kRuntimeInnerTag,
                         "%s: %s [%p, +%llu) runs outside device block %p (%llu bytes) into its guard zone", task,
                         role.text, access.address, bytes, block, blockSize);
            break;
        default:
            report_error(ACL_ERROR_RT_AICORE_EXCEPTION, kRuntimeInnerTag,
                         "%s: %s [%p, +%llu) is not device memory: no live aclrtMalloc block holds it", task,
                         role.text, access.address, bytes);
            break;
    }
    return ACL_ERROR_RT_AICORE_EXCEPTION;
}

}  // namespace

void enable_memcheck(bool on) noexcept { gMemcheck.store(on, std::memory_order_relaxed); }

aclError check_not_stray(const char* api, const DeviceAccess& access) noexcept {
    DevicePool* pool = nullptr;
    const DevicePool::Lookup where = locate(access, pool);
    if (where.placement == Placement::kGuard || where.placement == Placement::kFreed) {
        return report_fault(api, access, where);
    }
    return ACL_SUCCESS;
}

}  // namespace detail

bool memcheck_enabled() noexcept { return detail::gMemcheck.load(std::memory_order_relaxed); }

aclError check_device_accesses(const char* task, const DeviceAccess* accesses, size_t count) noexcept {
    for (size_t i = 0; i < count; ++i) {
        const DeviceAccess& access = accesses[i];
        if (access.bytes == 0) continue;
        detail::DevicePool* pool = nullptr;
        const detail::DevicePool::Lookup where = detail::locate(access, pool);
        if (where.placement != detail::Placement::kLive) return detail::report_fault(task, access, where);
    }
    return ACL_SUCCESS;
}

DeviceReach device_reach(const void* address, uint64_t bytes) noexcept {
    return detail::Runtime::instance().device_reach(address, bytes);
}

aclError check_device_guards(const char* task, const DeviceAccess* accesses, size_t count) noexcept {
    aclError result = ACL_SUCCESS;
    for (size_t i = 0; i < count; ++i) {
        const DeviceAccess& access = accesses[i];
        if (access.bytes == 0) continue;
        detail::DevicePool* pool = nullptr;
        const detail::DevicePool::Lookup where = detail::locate(access, pool);
        if (where.placement != detail::Placement::kLive || pool->guards_intact(where.block)) continue;
        const detail::RoleName role(access);
        report_error(ACL_ERROR_RT_AICORE_EXCEPTION, kRuntimeInnerTag,
                     "%s wrote outside device block %p (%llu bytes), its %s: the block's guard zone was overwritten",
                     task, reinterpret_cast<const void*>(where.block),
                     static_cast<unsigned long long>(where.blockSize), role.text);
        result = ACL_ERROR_RT_AICORE_EXCEPTION;
    }
    return result;
}

}  // namespace aclcpu
