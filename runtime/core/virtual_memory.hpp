// acl-cpu runtime: the virtual memory API (aclrtReserveMemAddress,
// aclrtMallocPhysical, aclrtMapMem, ...) on real address reservations.
#pragma once

#include "core/internal.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "acl/acl_rt.h"
#include "core/memory_pool.hpp"

namespace aclcpu::detail {

/// Physical memory of aclrtMallocPhysical: an anonymous memory file (memfd)
/// of whole host pages, counted against its device's capacity while it
/// lives.  A mapping keeps it alive, so aclrtFreePhysical of a mapped
/// handle only gives the memory back once the last mapping is gone, as on
/// CANN.
class PhysicalMemory {
public:
    PhysicalMemory(int fd, size_t size, const aclrtPhysicalMemProp& prop, int32_t chargedDevice);
    ~PhysicalMemory();
    PhysicalMemory(const PhysicalMemory&) = delete;
    PhysicalMemory& operator=(const PhysicalMemory&) = delete;

    int fd() const noexcept { return fd_; }
    size_t size() const noexcept { return size_; }
    const aclrtPhysicalMemProp& properties() const noexcept { return prop_; }
    /// The device whose memory this is, or -1 for host memory.
    int32_t device() const noexcept { return chargedDevice_; }
    /// The smallest mapping unit of its memory attribute.
    size_t granularity() const noexcept;

private:
    const int fd_;
    const size_t size_;
    const aclrtPhysicalMemProp prop_;
    const int32_t chargedDevice_;
};

/// The pool of device `device` if it is open (nullptr otherwise): where
/// mapped and registered ranges are adopted as device memory.
DevicePool* pool_of_open_device(int32_t device);

/// The smallest unit of physical memory and mappings for a memory attribute:
/// the host page for normal pages, 2 MiB for huge pages, 1 GiB for HUGE1G.
size_t mapping_granularity(int64_t memAttr) noexcept;

/// Every reservation, mapping and physical handle of the process.
///
/// A reservation is a PROT_NONE mmap of address space (no memory behind
/// it); mapping a physical handle replaces part of it with a MAP_SHARED view
/// of the handle's memfd, which the device's pool then counts as device
/// memory; unmapping puts PROT_NONE address space back.  So a stray access
/// to a reserved but unmapped address faults on the host as it would on the
/// device, and two mappings of one handle see the same bytes.
class VirtualMemory {
public:
    static VirtualMemory& instance();

    aclError reserve(size_t size, size_t alignment, void* expected, void** address);
    aclError release(void* address);

    aclError allocate_physical(size_t size, const aclrtPhysicalMemProp& prop, aclrtDrvMemHandle* handle);
    /// Drops one reference taken by aclrtMallocPhysical or aclrtMemRetainAllocationHandle.
    aclError free_physical(aclrtDrvMemHandle handle);
    aclError properties(aclrtDrvMemHandle handle, aclrtPhysicalMemProp* prop) const;

    /// Maps handle at address; accessible (aclrtMapMem) or not yet (aclrtMemMapNoAccess).
    aclError map(void* address, size_t size, size_t offset, aclrtDrvMemHandle handle, bool accessible, const char* api);
    aclError unmap(void* address);
    aclError set_access(void* address, size_t size, const aclrtMemAccessDesc* desc, size_t count);
    aclError get_access(void* address, const aclrtMemLocation& location, uint64_t* flags) const;
    /// One more reference to the handle mapped at address.
    aclError retain(void* address, aclrtDrvMemHandle* handle);
    /// The mapping holding ptr: false when ptr is in none.
    bool mapped_range(const void* ptr, void** base, size_t* size) const;

private:
    /// Which location may access a mapping, and how (ACL_RT_MEM_ACCESS_FLAGS_*).
    using AccessKey = std::pair<int64_t, uint32_t>;
    struct Mapping {
        size_t size;
        std::shared_ptr<PhysicalMemory> physical;
        std::map<AccessKey, uint64_t> access;
    };
    struct Reservation {
        size_t size;
        std::map<uintptr_t, Mapping> mappings;  ///< Keyed by address.
    };
    struct PhysicalHandle {
        std::shared_ptr<PhysicalMemory> memory;
        uint64_t references;
    };

    VirtualMemory() = default;
    /// The reservation holding [address, address + size), or reservations_.end().
    std::map<uintptr_t, Reservation>::iterator reservation_of(uintptr_t address, size_t size);
    /// The mapping starting at address, or nullptr.
    Mapping* mapping_at(uintptr_t address);
    const Mapping* mapping_at(uintptr_t address) const;
    /// Makes the mapping at address readable/writable per flags (and device memory when it is).
    aclError protect(uintptr_t address, Mapping& mapping, uint64_t flags);

    mutable std::mutex mutex_;
    std::map<uintptr_t, Reservation> reservations_;  ///< Keyed by base address.
    std::map<const void*, PhysicalHandle> handles_;
};

}  // namespace aclcpu::detail
