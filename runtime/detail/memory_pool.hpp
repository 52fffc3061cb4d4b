// acl-cpu runtime: DevicePool, the emulated HBM of one device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "acl/acl_rt.h"

namespace aclcpu::detail {

/// Device memory: host memory handed out as CANN hands out HBM.
///
/// Guarantees: blocks start on 64-byte boundaries; a request of n bytes
/// takes CANN's rounded size (n rounded up to 32 plus 32 bytes of padding,
/// no padding for the 1 GiB page policies) out of a fixed capacity, and
/// aclrtGetMemInfo reports exactly capacity minus what live blocks take; a
/// request that does not fit fails with ACL_ERROR_RT_MEMORY_ALLOCATION and
/// leaves the pool usable.  Freed blocks are cached by size class and
/// reused, so steady-state allocation makes no system call.
class DevicePool {
public:
    struct Usage {
        size_t blocks;
        uint64_t bytes;
    };

    explicit DevicePool(uint64_t capacity) : capacity_(capacity) {}
    ~DevicePool();
    DevicePool(const DevicePool&) = delete;
    DevicePool& operator=(const DevicePool&) = delete;

    /// CANN's size for a request of `size` bytes: rounded up to 32, plus 32
    /// bytes of padding when `padded` (aclrtMalloc outside the 1 GiB page
    /// policies; aclrtMallocAlign32 never pads).
    static uint64_t rounded_size(size_t size, bool padded) noexcept;
    static bool pads(aclrtMemMallocPolicy policy) noexcept;

    /// A block of `bytes` (a rounded_size) or ACL_ERROR_RT_MEMORY_ALLOCATION.
    aclError allocate(uint64_t bytes, void** block);
    /// Returns a block to the pool; false if ptr is not the start of a live block.
    bool release(void* ptr);
    /// True when [ptr, ptr+bytes) lies inside one live block.
    bool contains(const void* ptr, size_t bytes) const;
    /// True when ptr points into a live block.
    bool owns(const void* ptr) const { return contains(ptr, 1); }

    uint64_t capacity() const noexcept { return capacity_; }
    uint64_t used() const;
    Usage live() const;
    /// Frees every block, live or cached (device reset).
    void release_all();

private:
    struct Block {
        size_t size;          ///< Bytes usable by the caller (CANN's rounded size).
        size_t sizeClass;     ///< Bytes actually reserved.
    };

    static size_t size_class(uint64_t bytes) noexcept;
    void* take_cached(size_t sizeClass);
    void cache_or_free(void* ptr, size_t sizeClass);
    void drop_cache();

    const uint64_t capacity_;
    mutable std::mutex mutex_;
    std::map<uintptr_t, Block> live_;
    uint64_t usedBytes_ = 0;
    std::unordered_map<size_t, std::vector<void*>> cache_;
    uint64_t cachedBytes_ = 0;
};

}  // namespace aclcpu::detail
