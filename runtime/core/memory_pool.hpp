// acl-cpu runtime: DevicePool, the emulated HBM of one device.
#pragma once

#include "core/internal.hpp"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "acl/acl_rt.h"
#include "aclcpu/memcheck.hpp"

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
///
/// With memory checking on, every block sits between two guard zones
/// holding a canary, and a freed block is poisoned and quarantined (kept
/// out of reuse, and still known as freed) until kQuarantineBytes of later
/// frees push it out.  inspect() then tells a range that strays into a
/// guard zone or a freed block apart from one that is merely not device
/// memory.  Guards and quarantine cost host memory only: they never count
/// against the capacity.
class DevicePool {
public:
    struct Usage {
        size_t blocks;
        uint64_t bytes;
    };

    /// Where an address range lies, as the memory checker sees it.
    enum class Placement {
        kLive,     ///< Inside the usable bytes of one live block.
        kGuard,    ///< Starts in or next to a live block but runs into one of its guard zones.
        kFreed,    ///< Touches a freed (quarantined) block: a use after free.
        kForeign,  ///< Touches no block of this pool.
    };

    /// The block a range was found in (zero address for kForeign).
    struct Lookup {
        Placement placement;
        uintptr_t block;     ///< The address aclrtMalloc returned for it.
        uint64_t blockSize;  ///< Its usable bytes (CANN's rounded size).
    };

    /// Bytes of each guard zone (a multiple of the 512-byte block alignment).
    static constexpr size_t kGuardBytes = 512;
    /// Freed bytes kept poisoned before their blocks are reused.
    static constexpr uint64_t kQuarantineBytes = uint64_t{256} << 20;
    static constexpr unsigned char kCanary = 0xFD;
    static constexpr unsigned char kPoison = 0xDD;

    DevicePool(uint64_t capacity, bool memcheck) : capacity_(capacity), memcheck_(memcheck) {}
    ~DevicePool();
    DevicePool(const DevicePool&) = delete;
    DevicePool& operator=(const DevicePool&) = delete;

    /// CANN's size for a request of `size` bytes: rounded up to 32, plus 32
    /// bytes of padding when `padded` (aclrtMalloc outside the 1 GiB page
    /// policies; aclrtMallocAlign32 never pads).
    static uint64_t rounded_size(size_t size, bool padded) noexcept;
    static bool pads(int64_t policy) noexcept;

    bool memcheck() const noexcept { return memcheck_; }

    /// A block of `bytes` (a rounded_size) or ACL_ERROR_RT_MEMORY_ALLOCATION
    /// (also when fault injection chooses this allocation to fail).
    aclError allocate(uint64_t bytes, void** block);
    /// Returns a block to the pool; false if ptr is not the start of a live block.
    bool release(void* ptr);
    /// True when [ptr, ptr+bytes) lies inside one live block.
    bool contains(const void* ptr, size_t bytes) const;
    /// True when ptr points into a live block.
    bool owns(const void* ptr) const { return contains(ptr, 1); }
    /// Where [ptr, ptr+bytes) lies (bytes > 0).  Without memory checking a
    /// range is only ever kLive or kForeign.
    Lookup inspect(const void* ptr, size_t bytes) const;
    /// Where [ptr, ptr+bytes) reaches from the live block or mapped range
    /// ptr lies in (bytes > 0); the back guard and the size class's slack
    /// count as the block's reservation.
    DeviceReach reach(const void* ptr, uint64_t bytes) const;
    /// With memory checking, true when both guard zones of the live block
    /// starting at `block` still hold their canary; a damaged zone is
    /// re-armed so that one overrun is reported once.  True otherwise.
    bool guards_intact(uintptr_t block);

    /// Physical memory of the virtual memory API (aclrtMallocPhysical):
    /// counted against the capacity like blocks, but handed out elsewhere.
    /// charge() is false when the bytes do not fit.
    bool charge(uint64_t bytes);
    void refund(uint64_t bytes);
    /// A range the virtual memory API mapped onto this device's physical
    /// memory: inspect() reports it live, as one block, so copies, operators
    /// and memcheck take it for device memory; aclrtFree still refuses it.
    void adopt(const void* begin, size_t bytes);
    void disown(const void* begin);

    uint64_t capacity() const noexcept { return capacity_; }
    uint64_t used() const;
    /// The most bytes ever in use at once (aclrtGetMemUsageInfo).
    uint64_t peak() const;
    Usage live() const;
    /// Frees every block, live, quarantined or cached (device reset).
    void release_all();

private:
    /// One reservation: [base, base + reserved) holds the front guard, the
    /// usable bytes and the back guard (the guards are empty without memcheck).
    struct Block {
        uint64_t size;      ///< Bytes usable by the caller (CANN's rounded size).
        size_t sizeClass;   ///< Bytes actually reserved.
        bool freed;         ///< Quarantined: released by the user, not yet reusable.
    };
    using BlockMap = std::map<uintptr_t, Block>;  ///< Keyed by the reservation's base.

    static size_t size_class(uint64_t bytes) noexcept;
    size_t guard_bytes() const noexcept { return memcheck_ ? kGuardBytes : 0; }
    uintptr_t user_address(uintptr_t base) const noexcept { return base + guard_bytes(); }
    /// The reservation whose usable bytes begin at ptr, or blocks_.end().
    BlockMap::iterator find_live(const void* ptr);
    /// The reservation containing address, or blocks_.end().
    BlockMap::const_iterator reservation_of(uintptr_t address) const;
    void arm_guards(uintptr_t base, const Block& block) const;
    void quarantine(BlockMap::iterator it);
    void* take_cached(size_t sizeClass);
    void cache_or_free(void* base, size_t sizeClass);
    void drop_cache();
    void drop_quarantine();
    /// The stretch of adopted ranges holding [address, end), if any: ranges
    /// adopted back to back count as one (found.block is the first).
    bool find_adopted(uintptr_t address, uintptr_t end, Lookup& found) const;

    const uint64_t capacity_;
    const bool memcheck_;
    mutable std::mutex mutex_;
    BlockMap blocks_;
    size_t liveBlocks_ = 0;
    uint64_t usedBytes_ = 0;
    uint64_t peakBytes_ = 0;
    std::deque<uintptr_t> quarantine_;  ///< Bases of freed blocks, oldest first.
    uint64_t quarantinedBytes_ = 0;
    std::unordered_map<size_t, std::vector<void*>> cache_;
    uint64_t cachedBytes_ = 0;
    std::map<uintptr_t, uint64_t> adopted_;  ///< Mapped ranges: base -> bytes.
};

}  // namespace aclcpu::detail
