// acl-cpu runtime: DevicePool.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <new>

#include "core/fault_injection.hpp"
#include "core/memory_pool.hpp"

namespace aclcpu::detail {
namespace {

/// CANN's runtime asks its driver for 512-byte aligned device memory
/// (MEM_SET_ALIGN_SIZE(9), src/runtime/driver/npu_driver_mem.cc); its
/// documentation promises 64, programs such as ggml's rely on more.
constexpr size_t kAlignment = 512;
constexpr uint64_t kCanonPadding = 32;
/// Freed memory kept for reuse beyond this is given back to the system.
constexpr uint64_t kCacheLimit = uint64_t{1} << 30;

static_assert(DevicePool::kGuardBytes % kAlignment == 0, "the front guard must keep blocks aligned");

bool holds_canary(uintptr_t begin, size_t bytes) {
    const auto* first = reinterpret_cast<const unsigned char*>(begin);
    return std::all_of(first, first + bytes, [](unsigned char byte) { return byte == DevicePool::kCanary; });
}

}  // namespace

DevicePool::~DevicePool() { release_all(); }

bool DevicePool::pads(int64_t policy) noexcept {
    const int64_t base = policy & 0xff;
    return base != ACL_MEM_MALLOC_HUGE1G_ONLY && base != ACL_MEM_MALLOC_HUGE1G_ONLY_P2P;
}

uint64_t DevicePool::rounded_size(size_t size, bool padded) noexcept {
    const uint64_t padding = padded ? kCanonPadding : 0;
    if (uint64_t{size} > UINT64_MAX - padding - 31) return UINT64_MAX;  // Saturates: no pool is that large.
    return (uint64_t{size} + padding + 31) / 32 * 32;
}

/// Size classes: four steps per power of two up to 2 MiB, then whole 2 MiB
/// pages, so a cached block is reused for requests within 25% of its size.
size_t DevicePool::size_class(uint64_t bytes) noexcept {
    constexpr uint64_t kPage = uint64_t{2} << 20;
    if (bytes >= kPage) return static_cast<size_t>((bytes + kPage - 1) / kPage * kPage);
    uint64_t power = kAlignment;
    while (power < bytes) power <<= 1;
    const uint64_t step = power / 4 < kAlignment ? kAlignment : power / 4;
    return static_cast<size_t>((bytes + step - 1) / step * step);
}

aclError DevicePool::allocate(uint64_t bytes, void** block) {
    if (bytes > capacity_ || FaultInjector::instance().fail_allocation()) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    const size_t sizeClass = size_class(bytes + 2 * guard_bytes());
    std::lock_guard<std::mutex> lock(mutex_);
    if (bytes > capacity_ - usedBytes_) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    void* base = take_cached(sizeClass);
    if (base == nullptr) base = std::aligned_alloc(kAlignment, sizeClass);
    if (base == nullptr) {
        drop_quarantine();
        drop_cache();
        base = std::aligned_alloc(kAlignment, sizeClass);
    }
    if (base == nullptr) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    const auto address = reinterpret_cast<uintptr_t>(base);
    const Block& created = blocks_.insert_or_assign(address, Block{bytes, sizeClass, false}).first->second;
    if (memcheck_) arm_guards(address, created);
    liveBlocks_ += 1;
    usedBytes_ += bytes;
    peakBytes_ = std::max(peakBytes_, usedBytes_);
    *block = reinterpret_cast<void*>(user_address(address));
    return ACL_SUCCESS;
}

bool DevicePool::release(void* ptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = find_live(ptr);
    if (it == blocks_.end()) return false;
    liveBlocks_ -= 1;
    usedBytes_ -= it->second.size;
    if (memcheck_) {
        quarantine(it);
        return true;
    }
    void* base = reinterpret_cast<void*>(it->first);
    const size_t sizeClass = it->second.sizeClass;
    blocks_.erase(it);
    cache_or_free(base, sizeClass);
    return true;
}

bool DevicePool::contains(const void* ptr, size_t bytes) const {
    return inspect(ptr, bytes).placement == Placement::kLive;
}

DevicePool::Lookup DevicePool::inspect(const void* ptr, size_t bytes) const {
    const auto address = reinterpret_cast<uintptr_t>(ptr);
    const uintptr_t end = bytes > UINTPTR_MAX - address ? UINTPTR_MAX : address + bytes;
    std::lock_guard<std::mutex> lock(mutex_);
    if (Lookup mapped{}; find_adopted(address, end, mapped)) return mapped;
    auto it = reservation_of(address);
    // A range that begins outside every reservation may still run into the next one.
    if (it == blocks_.end()) {
        it = blocks_.upper_bound(address);
        if (it == blocks_.end() || it->first >= end) return Lookup{Placement::kForeign, 0, 0};
    }
    const Block& block = it->second;
    const uintptr_t user = user_address(it->first);
    Placement placement = Placement::kGuard;
    if (block.freed) {
        placement = Placement::kFreed;
    } else if (address >= user && address - user < block.size && end - address <= block.size - (address - user)) {
        placement = Placement::kLive;
    }
    if (placement != Placement::kLive && !memcheck_) return Lookup{Placement::kForeign, 0, 0};
    return Lookup{placement, user, block.size};
}

DeviceReach DevicePool::reach(const void* ptr, uint64_t bytes) const {
    const auto address = reinterpret_cast<uintptr_t>(ptr);
    const uintptr_t end = bytes > UINTPTR_MAX - address ? UINTPTR_MAX : address + bytes;
    std::lock_guard<std::mutex> lock(mutex_);
    if (Lookup mapped{}; find_adopted(address, address + 1, mapped)) {
        return find_adopted(address, end, mapped) ? DeviceReach::kInBlock : DeviceReach::kPastReservation;
    }
    const auto it = reservation_of(address);
    if (it == blocks_.end() || it->second.freed) return DeviceReach::kNotDevice;
    const uintptr_t user = user_address(it->first);
    if (address < user || address - user >= it->second.size) return DeviceReach::kNotDevice;
    if (end - user <= it->second.size) return DeviceReach::kInBlock;
    return end - it->first <= it->second.sizeClass ? DeviceReach::kInReservation : DeviceReach::kPastReservation;
}

bool DevicePool::guards_intact(uintptr_t block) {
    if (!memcheck_) return true;
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = find_live(reinterpret_cast<void*>(block));
    if (it == blocks_.end()) return true;
    const uintptr_t back = block + it->second.size;
    if (holds_canary(it->first, kGuardBytes) && holds_canary(back, kGuardBytes)) return true;
    arm_guards(it->first, it->second);
    return false;
}

bool DevicePool::charge(uint64_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (bytes > capacity_ - usedBytes_) return false;
    usedBytes_ += bytes;
    peakBytes_ = std::max(peakBytes_, usedBytes_);
    return true;
}

/// Saturates: a device reset forgets every charge at once.
void DevicePool::refund(uint64_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    usedBytes_ -= std::min(bytes, usedBytes_);
}

void DevicePool::adopt(const void* begin, size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    adopted_[reinterpret_cast<uintptr_t>(begin)] = bytes;
}

void DevicePool::disown(const void* begin) {
    std::lock_guard<std::mutex> lock(mutex_);
    adopted_.erase(reinterpret_cast<uintptr_t>(begin));
}

bool DevicePool::find_adopted(uintptr_t address, uintptr_t end, Lookup& found) const {
    auto it = adopted_.upper_bound(address);
    if (it == adopted_.begin()) return false;
    --it;
    if (address - it->first >= it->second) return false;
    // Ranges mapped back to back (the physical pieces of one virtual
    // reservation) are one stretch of device memory, as on the device.
    const uintptr_t base = it->first;
    uintptr_t stretchEnd = it->first + it->second;
    for (auto next = std::next(it); stretchEnd < end && next != adopted_.end() && next->first == stretchEnd; ++next) {
        stretchEnd += next->second;
    }
    if (end > stretchEnd) return false;
    found = Lookup{Placement::kLive, base, stretchEnd - base};
    return true;
}

uint64_t DevicePool::used() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return usedBytes_;
}

uint64_t DevicePool::peak() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return peakBytes_;
}

DevicePool::Usage DevicePool::live() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return Usage{liveBlocks_, usedBytes_};
}

void DevicePool::release_all() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [base, block] : blocks_) std::free(reinterpret_cast<void*>(base));
    blocks_.clear();
    adopted_.clear();
    quarantine_.clear();
    quarantinedBytes_ = 0;
    liveBlocks_ = 0;
    usedBytes_ = 0;
    drop_cache();
}

DevicePool::BlockMap::iterator DevicePool::find_live(const void* ptr) {
    auto it = blocks_.find(reinterpret_cast<uintptr_t>(ptr) - guard_bytes());
    return it == blocks_.end() || it->second.freed ? blocks_.end() : it;
}

DevicePool::BlockMap::const_iterator DevicePool::reservation_of(uintptr_t address) const {
    auto it = blocks_.upper_bound(address);
    if (it == blocks_.begin()) return blocks_.end();
    --it;
    return address - it->first < it->second.sizeClass ? it : blocks_.end();
}

void DevicePool::arm_guards(uintptr_t base, const Block& block) const {
    std::memset(reinterpret_cast<void*>(base), kCanary, kGuardBytes);
    std::memset(reinterpret_cast<void*>(base + kGuardBytes + block.size), kCanary, kGuardBytes);
}

/// The block keeps its map entry, marked freed, so that late accesses are
/// recognised; the oldest quarantined blocks move on to the cache.
void DevicePool::quarantine(BlockMap::iterator it) {
    std::memset(reinterpret_cast<void*>(user_address(it->first)), kPoison, it->second.size);
    it->second.freed = true;
    quarantine_.push_back(it->first);
    quarantinedBytes_ += it->second.sizeClass;
    while (quarantinedBytes_ > kQuarantineBytes) {
        auto oldest = blocks_.find(quarantine_.front());
        quarantine_.pop_front();
        quarantinedBytes_ -= oldest->second.sizeClass;
        const size_t sizeClass = oldest->second.sizeClass;
        void* base = reinterpret_cast<void*>(oldest->first);
        blocks_.erase(oldest);
        cache_or_free(base, sizeClass);
    }
}

void* DevicePool::take_cached(size_t sizeClass) {
    auto it = cache_.find(sizeClass);
    if (it == cache_.end() || it->second.empty()) return nullptr;
    void* ptr = it->second.back();
    it->second.pop_back();
    cachedBytes_ -= sizeClass;
    return ptr;
}

void DevicePool::cache_or_free(void* base, size_t sizeClass) {
    if (cachedBytes_ + sizeClass > kCacheLimit) {
        std::free(base);
        return;
    }
    cache_[sizeClass].push_back(base);
    cachedBytes_ += sizeClass;
}

void DevicePool::drop_cache() {
    for (auto& [sizeClass, bases] : cache_) {
        for (void* base : bases) std::free(base);
    }
    cache_.clear();
    cachedBytes_ = 0;
}

void DevicePool::drop_quarantine() {
    for (uintptr_t base : quarantine_) {
        blocks_.erase(base);
        std::free(reinterpret_cast<void*>(base));
    }
    quarantine_.clear();
    quarantinedBytes_ = 0;
}

}  // namespace aclcpu::detail
