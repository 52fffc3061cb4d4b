// acl-cpu runtime: StreamOrderedPool and StreamOrderedPools.
#include <algorithm>
#include <cstring>
#include <iterator>

#include "core/errors.hpp"
#include "core/stream_ordered_pool.hpp"
#include "core/virtual_memory.hpp"

namespace aclcpu::detail {

StreamOrderedPool::~StreamOrderedPool() {
    for (const auto& [ptr, block] : blocks_) release_block(ptr);
}

aclError StreamOrderedPool::allocate(size_t size, void** ptr) {
    const uint64_t bytes = DevicePool::rounded_size(size, true);
    std::lock_guard<std::mutex> lock(mutex_);
    auto fit = idle_.lower_bound(bytes);
    if (fit != idle_.end()) {
        *ptr = fit->second;
        Block& block = blocks_.at(fit->second);
        idle_.erase(fit);
        block.state = State::kUsed;
        used_ += block.size;
        usedHigh_ = std::max(usedHigh_, used_);
        return ACL_SUCCESS;
    }
    if (maxSize_ != 0 && bytes > maxSize_ - std::min(maxSize_, reserved_)) {
        trim_locked(0);  // Idle blocks too small to reuse may make room.
        if (bytes > maxSize_ - std::min(maxSize_, reserved_)) {
            return runtime_error(ACL_ERROR_RT_MEMORY_ALLOCATION,
                                 "aclrtMemPoolMallocAsync: %llu bytes exceed what is left of the pool's maxSize %llu",
                                 static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(maxSize_));
        }
    }
    DevicePool* pool = pool_of_open_device(device_);
    if (pool == nullptr || pool->allocate(bytes, ptr) != ACL_SUCCESS) {
        return runtime_error(ACL_ERROR_RT_MEMORY_ALLOCATION,
                             "aclrtMemPoolMallocAsync: device %d cannot give %llu bytes", device_,
                             static_cast<unsigned long long>(bytes));
    }
    blocks_.emplace(*ptr, Block{bytes, State::kUsed});
    reserved_ += bytes;
    reservedHigh_ = std::max(reservedHigh_, reserved_);
    used_ += bytes;
    usedHigh_ = std::max(usedHigh_, used_);
    return ACL_SUCCESS;
}

bool StreamOrderedPool::begin_free(void* ptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = blocks_.find(ptr);
    if (it == blocks_.end() || it->second.state != State::kUsed) return false;
    it->second.state = State::kFreeing;
    return true;
}

void StreamOrderedPool::complete_free(void* ptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    Block& block = blocks_.at(ptr);
    block.state = State::kIdle;
    used_ -= block.size;
    idle_.emplace(block.size, ptr);
    const uint64_t keep = releaseThreshold_ > UINT64_MAX - used_ ? UINT64_MAX : used_ + releaseThreshold_;
    trim_locked(destroyed_ ? 0 : keep);
}

void StreamOrderedPool::trim_to(uint64_t bytesToKeep) {
    std::lock_guard<std::mutex> lock(mutex_);
    trim_locked(bytesToKeep);
}

void StreamOrderedPool::destroy() {
    std::lock_guard<std::mutex> lock(mutex_);
    destroyed_ = true;
    trim_locked(0);
}

void StreamOrderedPool::trim_locked(uint64_t bytesToKeep) {
    // Largest idle blocks first: the fewest releases reach the target.
    while (reserved_ > bytesToKeep && !idle_.empty()) {
        auto largest = std::prev(idle_.end());
        void* ptr = largest->second;
        reserved_ -= largest->first;
        idle_.erase(largest);
        blocks_.erase(ptr);
        release_block(ptr);
    }
}

/// A device reset has released the block already; then the device's new pool does not know it.
void StreamOrderedPool::release_block(void* ptr) {
    if (DevicePool* pool = pool_of_open_device(device_)) pool->release(ptr);
}

aclError StreamOrderedPool::set_attribute(int64_t attr, const void* value) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (attr >= ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES &&
        attr <= ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES) {
        uint32_t on = 0;
        std::memcpy(&on, value, sizeof on);
        if (on > 1)
            return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMemPoolSetAttr: reuse switch %u is not 0 or 1", on);
        reuse_[attr - ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES] = on;
        return ACL_SUCCESS;
    }
    uint64_t number = 0;
    std::memcpy(&number, value, sizeof number);
    switch (attr) {
        case ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD:
            releaseThreshold_ = number;
            return ACL_SUCCESS;
        case ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH:
        case ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH:
            if (number != 0) {
                return param_error(ACL_ERROR_INVALID_PARAM,
                                   "aclrtMemPoolSetAttr: a high-water mark can only be reset to 0");
            }
            // Resetting restarts the mark from what is reserved or used now.
            if (attr == ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH) {
                reservedHigh_ = reserved_;
            } else {
                usedHigh_ = used_;
            }
            return ACL_SUCCESS;
        default:
            return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMemPoolSetAttr: attribute %lld cannot be set",
                               static_cast<long long>(attr));
    }
}

aclError StreamOrderedPool::get_attribute(int64_t attr, void* value) const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (attr >= ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES &&
        attr <= ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES) {
        std::memcpy(value, &reuse_[attr - ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES], sizeof(uint32_t));
        return ACL_SUCCESS;
    }
    uint64_t number = 0;
    switch (attr) {
        case ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD:
            number = releaseThreshold_;
            break;
        case ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT:
            number = reserved_;
            break;
        case ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH:
            number = reservedHigh_;
            break;
        case ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT:
            number = used_;
            break;
        case ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH:
            number = usedHigh_;
            break;
        default:
            return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMemPoolGetAttr: unknown attribute %lld",
                               static_cast<long long>(attr));
    }
    std::memcpy(value, &number, sizeof number);
    return ACL_SUCCESS;
}

StreamOrderedPools& StreamOrderedPools::instance() {
    static StreamOrderedPools pools;
    return pools;
}

aclrtMemPool StreamOrderedPools::create(int32_t device, uint64_t maxSize) {
    auto pool = std::make_shared<StreamOrderedPool>(device, maxSize);
    aclrtMemPool handle = pool.get();
    std::lock_guard<std::mutex> lock(mutex_);
    pools_.emplace(handle, std::move(pool));
    return handle;
}

bool StreamOrderedPools::destroy(aclrtMemPool handle) {
    std::shared_ptr<StreamOrderedPool> pool;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = pools_.find(handle);
        if (it == pools_.end()) return false;
        pool = std::move(it->second);
        pools_.erase(it);
    }
    pool->destroy();
    return true;
}

std::shared_ptr<StreamOrderedPool> StreamOrderedPools::find(aclrtMemPool handle) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = pools_.find(handle);
    return it == pools_.end() ? nullptr : it->second;
}

aclError StreamOrderedPools::allocate(const std::shared_ptr<StreamOrderedPool>& pool, size_t size, void** ptr) {
    if (aclError status = pool->allocate(size, ptr); status != ACL_SUCCESS) return status;
    std::lock_guard<std::mutex> lock(mutex_);
    owners_[*ptr] = pool;
    return ACL_SUCCESS;
}

std::shared_ptr<StreamOrderedPool> StreamOrderedPools::begin_free(void* ptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = owners_.find(ptr);
    if (it == owners_.end() || !it->second->begin_free(ptr)) return nullptr;
    return it->second;
}

void StreamOrderedPools::forget(void* ptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    owners_.erase(ptr);
}

bool StreamOrderedPools::owns(const void* ptr) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return owners_.count(ptr) == 1;
}

}  // namespace aclcpu::detail
