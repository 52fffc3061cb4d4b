// acl-cpu runtime: DevicePool.
#include <cstdlib>
#include <new>

#include "detail/memory_pool.hpp"

namespace aclcpu::detail {
namespace {

constexpr size_t kAlignment = 64;
constexpr uint64_t kCanonPadding = 32;
/// Freed memory kept for reuse beyond this is given back to the system.
constexpr uint64_t kCacheLimit = uint64_t{1} << 30;

}  // namespace

DevicePool::~DevicePool() { release_all(); }

bool DevicePool::pads(aclrtMemMallocPolicy policy) noexcept {
    const int base = static_cast<int>(policy) & 0xff;
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
    if (bytes > capacity_) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    const size_t sizeClass = size_class(bytes);
    std::lock_guard<std::mutex> lock(mutex_);
    if (bytes > capacity_ - usedBytes_) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    void* ptr = take_cached(sizeClass);
    if (ptr == nullptr) ptr = std::aligned_alloc(kAlignment, sizeClass);
    if (ptr == nullptr) {
        drop_cache();
        ptr = std::aligned_alloc(kAlignment, sizeClass);
    }
    if (ptr == nullptr) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    live_.emplace(reinterpret_cast<uintptr_t>(ptr), Block{static_cast<size_t>(bytes), sizeClass});
    usedBytes_ += bytes;
    *block = ptr;
    return ACL_SUCCESS;
}

bool DevicePool::release(void* ptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = live_.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == live_.end()) return false;
    usedBytes_ -= it->second.size;
    const size_t sizeClass = it->second.sizeClass;
    live_.erase(it);
    cache_or_free(ptr, sizeClass);
    return true;
}

bool DevicePool::contains(const void* ptr, size_t bytes) const {
    const auto address = reinterpret_cast<uintptr_t>(ptr);
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = live_.upper_bound(address);
    if (it == live_.begin()) return false;
    --it;
    const uintptr_t offset = address - it->first;
    return offset < it->second.size && bytes <= it->second.size - offset;
}

uint64_t DevicePool::used() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return usedBytes_;
}

DevicePool::Usage DevicePool::live() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return Usage{live_.size(), usedBytes_};
}

void DevicePool::release_all() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [address, block] : live_) std::free(reinterpret_cast<void*>(address));
    live_.clear();
    usedBytes_ = 0;
    drop_cache();
}

void* DevicePool::take_cached(size_t sizeClass) {
    auto it = cache_.find(sizeClass);
    if (it == cache_.end() || it->second.empty()) return nullptr;
    void* ptr = it->second.back();
    it->second.pop_back();
    cachedBytes_ -= sizeClass;
    return ptr;
}

void DevicePool::cache_or_free(void* ptr, size_t sizeClass) {
    if (cachedBytes_ + sizeClass > kCacheLimit) {
        std::free(ptr);
        return;
    }
    cache_[sizeClass].push_back(ptr);
    cachedBytes_ += sizeClass;
}

void DevicePool::drop_cache() {
    for (auto& [sizeClass, blocks] : cache_) {
        for (void* ptr : blocks) std::free(ptr);
    }
    cache_.clear();
    cachedBytes_ = 0;
}

}  // namespace aclcpu::detail
