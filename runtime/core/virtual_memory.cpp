// acl-cpu runtime: VirtualMemory and PhysicalMemory.
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iterator>

#include "aclcpu/dtype.hpp"
#include "core/errors.hpp"
#include "core/runtime_state.hpp"
#include "core/virtual_memory.hpp"

namespace aclcpu::detail {
namespace {

constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kHuge1GPage = size_t{1} << 30;
/// Reservations start on a huge page, so that 2 MiB mappings at their base are aligned.
constexpr size_t kReservationAlignment = kHugePage;

size_t host_page() noexcept {
    static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    return page;
}

bool rounds_up(size_t size, size_t unit, size_t& rounded) noexcept {
    if (size > SIZE_MAX - (unit - 1)) return false;
    rounded = (size + unit - 1) / unit * unit;
    return true;
}

/// PROT_NONE address space with nothing behind it.
void* inaccessible(void* address, size_t size, int extraFlags) noexcept {
    return mmap(address, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | extraFlags, -1, 0);
}

int protection_of(uint64_t flags) noexcept {
    if (flags == ACL_RT_MEM_ACCESS_FLAGS_READWRITE) return PROT_READ | PROT_WRITE;
    return flags == ACL_RT_MEM_ACCESS_FLAGS_READ ? PROT_READ : PROT_NONE;
}

}  // namespace

DevicePool* pool_of_open_device(int32_t device) {
    Device* owner = device < 0 ? nullptr : Runtime::instance().open_device(device);
    return owner == nullptr ? nullptr : &owner->pool();
}

size_t mapping_granularity(int64_t memAttr) noexcept {
    switch (memAttr) {
        case ACL_MEM_NORMAL:
        case ACL_MEM_P2P_NORMAL:
        case ACL_DDR_MEM_NORMAL:
        case ACL_DDR_MEM_P2P_NORMAL:
            return host_page();
        case ACL_MEM_HUGE1G:
        case ACL_MEM_P2P_HUGE1G:
        case ACL_HBM_MEM_HUGE1G:
        case ACL_HBM_MEM_P2P_HUGE1G:
            return kHuge1GPage;
        default:  // Huge pages, and ACL_HBM_MEM_NORMAL, which CANN serves from huge pages.
            return kHugePage;
    }
}

PhysicalMemory::PhysicalMemory(int fd, size_t size, const aclrtPhysicalMemProp& prop, int32_t chargedDevice)
    : fd_(fd), size_(size), prop_(prop), chargedDevice_(chargedDevice) {}

PhysicalMemory::~PhysicalMemory() {
    close(fd_);
    if (DevicePool* pool = pool_of_open_device(chargedDevice_)) pool->refund(size_);
}

size_t PhysicalMemory::granularity() const noexcept { return mapping_granularity(code_of(prop_.memAttr)); }

VirtualMemory& VirtualMemory::instance() {
    static VirtualMemory memory;
    return memory;
}

aclError VirtualMemory::reserve(size_t size, size_t alignment, void* expected, void** address) {
    size_t bytes = 0;
    const size_t align = alignment > kReservationAlignment ? alignment : kReservationAlignment;
    if (!rounds_up(size, host_page(), bytes) || bytes > SIZE_MAX - align) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtReserveMemAddress: size %zu is too large", size);
    }
    void* base = nullptr;
    if (expected != nullptr) {
        if (reinterpret_cast<uintptr_t>(expected) % host_page() != 0) {
            return param_error(ACL_ERROR_INVALID_PARAM, "aclrtReserveMemAddress: expectPtr %p is not page aligned",
                               expected);
        }
        base = inaccessible(expected, bytes, MAP_FIXED_NOREPLACE);
        if (base == MAP_FAILED || base != expected) {
            if (base != MAP_FAILED) munmap(base, bytes);
            return runtime_error(ACL_ERROR_RT_MEMORY_ALLOCATION,
                                 "aclrtReserveMemAddress: [%p, +%zu) is not free address space", expected, bytes);
        }
    } else {
        // Over-reserve, then trim both ends to the alignment.
        void* raw = inaccessible(nullptr, bytes + align, 0);
        if (raw == MAP_FAILED) {
            return runtime_error(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtReserveMemAddress: cannot reserve %zu bytes: %s",
                                 bytes, std::strerror(errno));
        }
        const auto start = reinterpret_cast<uintptr_t>(raw);
        const uintptr_t aligned = (start + align - 1) / align * align;
        if (aligned > start) munmap(raw, aligned - start);
        munmap(reinterpret_cast<void*>(aligned + bytes), start + align - aligned);
        base = reinterpret_cast<void*>(aligned);
    }
    std::lock_guard<std::mutex> lock(mutex_);
    reservations_.emplace(reinterpret_cast<uintptr_t>(base), Reservation{bytes, {}});
    *address = base;
    return ACL_SUCCESS;
}

aclError VirtualMemory::release(void* address) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = reservations_.find(reinterpret_cast<uintptr_t>(address));
    if (it == reservations_.end()) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID,
                           "aclrtReleaseMemAddress: %p is not the start of a reservation of aclrtReserveMemAddress",
                           address);
    }
    if (!it->second.mappings.empty()) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID,
                           "aclrtReleaseMemAddress: %zu mapping(s) of [%p, +%zu) remain; aclrtUnmapMem them first",
                           it->second.mappings.size(), address, it->second.size);
    }
    munmap(address, it->second.size);
    reservations_.erase(it);
    return ACL_SUCCESS;
}

aclError VirtualMemory::allocate_physical(size_t size, const aclrtPhysicalMemProp& prop, aclrtDrvMemHandle* handle) {
    size_t bytes = 0;
    if (!rounds_up(size, host_page(), bytes)) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMallocPhysical: size %zu is too large", size);
    }
    const bool onDevice = code_of(prop.location.type) == ACL_MEM_LOCATION_TYPE_DEVICE;
    const int32_t device = onDevice ? static_cast<int32_t>(prop.location.id) : -1;
    DevicePool* pool = pool_of_open_device(device);
    if (onDevice && pool == nullptr) {
        return param_error(ACL_ERROR_RT_INVALID_DEVICEID,
                           "aclrtMallocPhysical: device %u is not open (call aclrtSetDevice first)", prop.location.id);
    }
    if (pool != nullptr && !pool->charge(bytes)) {
        return runtime_error(ACL_ERROR_RT_MEMORY_ALLOCATION,
                             "aclrtMallocPhysical: device %d is out of memory (%zu bytes)", device, bytes);
    }
    const int fd = memfd_create("aclcpu-physical", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
        const int error = errno;
        if (fd >= 0) close(fd);
        if (pool != nullptr) pool->refund(bytes);
        return runtime_error(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMallocPhysical: cannot allocate %zu bytes: %s",
                             bytes, std::strerror(error));
    }
    auto memory = std::make_shared<PhysicalMemory>(fd, bytes, prop, device);
    void* key = memory.get();
    std::lock_guard<std::mutex> lock(mutex_);
    handles_.emplace(key, PhysicalHandle{std::move(memory), 1});
    *handle = key;
    return ACL_SUCCESS;
}

aclError VirtualMemory::free_physical(aclrtDrvMemHandle handle) {
    std::shared_ptr<PhysicalMemory> last;  // Destroyed after the lock: it takes the runtime's.
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = handles_.find(handle);
    if (it == handles_.end()) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID,
                           "aclrtFreePhysical: %p is not a live physical memory handle (never allocated, or freed)",
                           handle);
    }
    if (--it->second.references == 0) {
        last = std::move(it->second.memory);
        handles_.erase(it);
    }
    return ACL_SUCCESS;
}

aclError VirtualMemory::properties(aclrtDrvMemHandle handle, aclrtPhysicalMemProp* prop) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = handles_.find(handle);
    if (it == handles_.end()) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID,
                           "aclrtMemGetAllocationPropertiesFromHandle: %p is not a live physical memory handle",
                           handle);
    }
    *prop = it->second.memory->properties();
    return ACL_SUCCESS;
}

std::map<uintptr_t, VirtualMemory::Reservation>::iterator VirtualMemory::reservation_of(uintptr_t address,
                                                                                        size_t size) {
    auto it = reservations_.upper_bound(address);
    if (it == reservations_.begin()) return reservations_.end();
    --it;
    const uintptr_t offset = address - it->first;
    return offset < it->second.size && size <= it->second.size - offset ? it : reservations_.end();
}

aclError VirtualMemory::map(void* address, size_t size, size_t offset, aclrtDrvMemHandle handle, bool accessible,
                            const char* api) {
    const auto begin = reinterpret_cast<uintptr_t>(address);
    std::lock_guard<std::mutex> lock(mutex_);
    auto physical = handles_.find(handle);
    if (physical == handles_.end()) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: %p is not a live physical memory handle", api, handle);
    }
    const std::shared_ptr<PhysicalMemory>& memory = physical->second.memory;
    if (offset != 0) return param_error(ACL_ERROR_INVALID_PARAM, "%s: offset %zu is not 0", api, offset);
    if (size != memory->size() || size % memory->granularity() != 0) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "%s: size %zu must equal the physical memory's %zu bytes, a multiple of its granularity %zu",
                           api, size, memory->size(), memory->granularity());
    }
    if (begin % memory->granularity() != 0) {
        return param_error(ACL_ERROR_RT_ADDR_UNALIGNED, "%s: %p is not aligned to the granularity %zu", api, address,
                           memory->granularity());
    }
    auto reservation = reservation_of(begin, size);
    if (reservation == reservations_.end()) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: [%p, +%zu) is not inside one aclrtReserveMemAddress range",
                           api, address, size);
    }
    auto& mappings = reservation->second.mappings;
    auto next = mappings.lower_bound(begin);
    const bool overlapsNext = next != mappings.end() && next->first < begin + size;
    const bool overlapsPrevious =
        next != mappings.begin() && std::prev(next)->first + std::prev(next)->second.size > begin;
    if (overlapsNext || overlapsPrevious) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: [%p, +%zu) overlaps a range that is already mapped", api,
                           address, size);
    }
    if (mmap(address, size, PROT_NONE, MAP_SHARED | MAP_FIXED, memory->fd(), 0) == MAP_FAILED) {
        return runtime_error(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: cannot map [%p, +%zu): %s", api, address, size,
                             std::strerror(errno));
    }
    Mapping& mapping = mappings.emplace(begin, Mapping{size, memory, {}}).first->second;
    if (!accessible) return ACL_SUCCESS;
    const AccessKey owner{memory->device() < 0 ? ACL_MEM_LOCATION_TYPE_HOST : ACL_MEM_LOCATION_TYPE_DEVICE,
                          static_cast<uint32_t>(memory->device() < 0 ? 0 : memory->device())};
    mapping.access[owner] = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
    return protect(begin, mapping, ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
}

aclError VirtualMemory::protect(uintptr_t address, Mapping& mapping, uint64_t flags) {
    auto* begin = reinterpret_cast<void*>(address);
    if (mprotect(begin, mapping.size, protection_of(flags)) != 0) {
        return runtime_error(ACL_ERROR_RT_INTERNAL_ERROR, "cannot change the access of [%p, +%zu): %s", begin,
                             mapping.size, std::strerror(errno));
    }
    if (DevicePool* pool = pool_of_open_device(mapping.physical->device())) {
        if (flags == ACL_RT_MEM_ACCESS_FLAGS_NONE) {
            pool->disown(begin);
        } else {
            pool->adopt(begin, mapping.size);
        }
    }
    return ACL_SUCCESS;
}

VirtualMemory::Mapping* VirtualMemory::mapping_at(uintptr_t address) {
    auto reservation = reservation_of(address, 1);
    if (reservation == reservations_.end()) return nullptr;
    auto it = reservation->second.mappings.find(address);
    return it == reservation->second.mappings.end() ? nullptr : &it->second;
}

const VirtualMemory::Mapping* VirtualMemory::mapping_at(uintptr_t address) const {
    return const_cast<VirtualMemory*>(this)->mapping_at(address);
}

aclError VirtualMemory::unmap(void* address) {
    const auto begin = reinterpret_cast<uintptr_t>(address);
    std::shared_ptr<PhysicalMemory> released;  // Destroyed after the lock: it takes the runtime's.
    std::lock_guard<std::mutex> lock(mutex_);
    Mapping* mapping = mapping_at(begin);
    if (mapping == nullptr) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "aclrtUnmapMem: %p is not the start of a mapped range", address);
    }
    if (DevicePool* pool = pool_of_open_device(mapping->physical->device())) pool->disown(address);
    inaccessible(address, mapping->size, MAP_FIXED);
    released = std::move(mapping->physical);
    reservation_of(begin, 1)->second.mappings.erase(begin);
    return ACL_SUCCESS;
}

aclError VirtualMemory::set_access(void* address, size_t size, const aclrtMemAccessDesc* desc, size_t count) {
    std::lock_guard<std::mutex> lock(mutex_);
    Mapping* mapping = mapping_at(reinterpret_cast<uintptr_t>(address));
    if (mapping == nullptr || mapping->size != size) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "aclrtMemSetAccess: [%p, +%zu) is not a range mapped by aclrtMapMem or aclrtMemMapNoAccess",
                           address, size);
    }
    for (size_t i = 0; i < count; ++i) {
        const int64_t flags = code_of(desc[i].flags);
        const int64_t type = code_of(desc[i].location.type);
        if (flags != ACL_RT_MEM_ACCESS_FLAGS_NONE && flags != ACL_RT_MEM_ACCESS_FLAGS_READ &&
            flags != ACL_RT_MEM_ACCESS_FLAGS_READWRITE) {
            return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMemSetAccess: desc[%zu] has unknown flags %lld", i,
                               static_cast<long long>(flags));
        }
        if (type != ACL_MEM_LOCATION_TYPE_HOST && type != ACL_MEM_LOCATION_TYPE_DEVICE) {
            return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMemSetAccess: desc[%zu] has location type %lld", i,
                               static_cast<long long>(type));
        }
    }
    uint64_t widest = ACL_RT_MEM_ACCESS_FLAGS_NONE;
    for (size_t i = 0; i < count; ++i) {
        const uint32_t id = code_of(desc[i].location.type) == ACL_MEM_LOCATION_TYPE_HOST ? 0 : desc[i].location.id;
        mapping->access[{code_of(desc[i].location.type), id}] = code_of(desc[i].flags);
    }
    // One address space serves host and devices: the mapping allows the widest access any location was given.
    for (const auto& [location, flags] : mapping->access) widest |= flags;
    return protect(reinterpret_cast<uintptr_t>(address), *mapping, widest);
}

aclError VirtualMemory::get_access(void* address, const aclrtMemLocation& location, uint64_t* flags) const {
    const int64_t type = code_of(location.type);
    if (type != ACL_MEM_LOCATION_TYPE_HOST && type != ACL_MEM_LOCATION_TYPE_DEVICE) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMemGetAccess: location type %lld is neither host nor device",
                           static_cast<long long>(type));
    }
    std::lock_guard<std::mutex> lock(mutex_);
    const Mapping* mapping = mapping_at(reinterpret_cast<uintptr_t>(address));
    if (mapping == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMemGetAccess: %p is not the start of a mapped range",
                           address);
    }
    auto it = mapping->access.find({type, type == ACL_MEM_LOCATION_TYPE_HOST ? 0 : location.id});
    *flags = it == mapping->access.end() ? uint64_t{ACL_RT_MEM_ACCESS_FLAGS_NONE} : it->second;
    return ACL_SUCCESS;
}

aclError VirtualMemory::retain(void* address, aclrtDrvMemHandle* handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    const Mapping* mapping = mapping_at(reinterpret_cast<uintptr_t>(address));
    if (mapping == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "aclrtMemRetainAllocationHandle: %p is not the start of a mapped range", address);
    }
    void* key = mapping->physical.get();
    auto it = handles_.find(key);
    // A handle freed while still mapped comes back to life: the memory behind it is still there.
    if (it == handles_.end()) it = handles_.emplace(key, PhysicalHandle{mapping->physical, 0}).first;
    it->second.references += 1;
    *handle = key;
    return ACL_SUCCESS;
}

bool VirtualMemory::mapped_range(const void* ptr, void** base, size_t* size) const {
    const auto address = reinterpret_cast<uintptr_t>(ptr);
    std::lock_guard<std::mutex> lock(mutex_);
    auto reservation = const_cast<VirtualMemory*>(this)->reservation_of(address, 1);
    if (reservation == reservations_.end()) return false;
    auto& mappings = reservation->second.mappings;
    auto it = mappings.upper_bound(address);
    if (it == mappings.begin()) return false;
    --it;
    if (address - it->first >= it->second.size) return false;
    *base = reinterpret_cast<void*>(it->first);
    *size = it->second.size;
    return true;
}

}  // namespace aclcpu::detail
