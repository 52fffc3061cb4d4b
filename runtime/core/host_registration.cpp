// acl-cpu runtime: HostRegistrations.
#include "core/errors.hpp"
#include "core/host_registration.hpp"
#include "core/virtual_memory.hpp"

namespace aclcpu::detail {

HostRegistrations& HostRegistrations::instance() {
    static HostRegistrations registrations;
    return registrations;
}

std::map<uintptr_t, HostRegistrations::Registration>::const_iterator HostRegistrations::holding(
    uintptr_t address) const {
    auto it = registrations_.upper_bound(address);
    if (it == registrations_.begin()) return registrations_.end();
    --it;
    return address - it->first < it->second.size ? it : registrations_.end();
}

aclError HostRegistrations::add(void* ptr, size_t size, int32_t device, bool mapped, const char* api) {
    const auto begin = reinterpret_cast<uintptr_t>(ptr);
    std::lock_guard<std::mutex> lock(mutex_);
    auto next = registrations_.lower_bound(begin);
    const bool overlapsNext = next != registrations_.end() && next->first - begin < size;
    if (overlapsNext || holding(begin) != registrations_.end()) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: [%p, +%zu) overlaps memory that is already registered", api,
                           ptr, size);
    }
    registrations_.emplace(begin, Registration{size, device, mapped});
    if (DevicePool* pool = pool_of_open_device(device)) pool->adopt(ptr, size);
    return ACL_SUCCESS;
}

aclError HostRegistrations::remove(void* ptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = registrations_.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == registrations_.end()) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtHostUnregister: %p is not the start of a registered range",
                           ptr);
    }
    if (DevicePool* pool = pool_of_open_device(it->second.device)) pool->disown(ptr);
    registrations_.erase(it);
    return ACL_SUCCESS;
}

aclError HostRegistrations::device_pointer(void* ptr, void** device) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = holding(reinterpret_cast<uintptr_t>(ptr));
    if (it == registrations_.end() || !it->second.mapped) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "aclrtHostGetDevicePointer: %p is not in a range registered with ACL_HOST_REG_MAPPED", ptr);
    }
    *device = ptr;
    return ACL_SUCCESS;
}

}  // namespace aclcpu::detail
