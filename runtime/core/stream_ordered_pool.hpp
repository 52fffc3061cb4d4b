// acl-cpu runtime: stream-ordered memory pools (acl/acl_rt_memory_soma.h).
#pragma once

#include "core/internal.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "acl/acl_rt_memory_soma.h"

namespace aclcpu::detail {

/// One aclrtMemPool: blocks of its device's pool, handed out by
/// aclrtMemPoolMallocAsync and returned by aclrtMemPoolFreeAsync.
///
/// A block comes back to the pool when the stream reaches its free, not
/// when the free is called: work queued before the free can no longer touch
/// it, so a later allocation on any stream may reuse it without waiting --
/// which is what CANN's reuse policies arrange with event dependencies.
/// Reuse takes the smallest idle block that fits.  Idle bytes above the
/// release threshold go back to the device as soon as a free completes (CANN
/// trims at the next stream synchronisation); aclrtMemPoolTrimTo trims on
/// demand.  A destroyed pool lives on until its last block is freed.
class StreamOrderedPool {
public:
    StreamOrderedPool(int32_t device, uint64_t maxSize) : device_(device), maxSize_(maxSize) {}
    ~StreamOrderedPool();
    StreamOrderedPool(const StreamOrderedPool&) = delete;
    StreamOrderedPool& operator=(const StreamOrderedPool&) = delete;

    /// An idle block of at least size bytes, or a new one from the device.
    aclError allocate(size_t size, void** ptr);
    /// Marks ptr as being freed (false when it is not a block in use here).
    bool begin_free(void* ptr);
    /// The stream reached the free: the block is idle and may be reused.
    void complete_free(void* ptr);
    void trim_to(uint64_t bytesToKeep);
    void destroy();

    aclError set_attribute(int64_t attr, const void* value);
    aclError get_attribute(int64_t attr, void* value) const;

private:
    enum class State { kUsed, kFreeing, kIdle };
    struct Block {
        uint64_t size;
        State state;
    };
    /// Gives idle blocks back to the device until at most bytesToKeep stay reserved.
    void trim_locked(uint64_t bytesToKeep);
    void release_block(void* ptr);

    const int32_t device_;
    const uint64_t maxSize_;
    mutable std::mutex mutex_;
    std::unordered_map<void*, Block> blocks_;
    std::multimap<uint64_t, void*> idle_;  ///< By size, for best fit.
    uint64_t reserved_ = 0;
    uint64_t reservedHigh_ = 0;
    uint64_t used_ = 0;
    uint64_t usedHigh_ = 0;
    uint64_t releaseThreshold_ = 0;
    uint32_t reuse_[3] = {1, 1, 1};  ///< The three ACL_RT_MEM_POOL_REUSE_* switches.
    bool destroyed_ = false;
};

/// Every live pool and every block handed out, so that aclrtMemPoolFreeAsync
/// finds the pool of a pointer.
class StreamOrderedPools {
public:
    static StreamOrderedPools& instance();

    aclrtMemPool create(int32_t device, uint64_t maxSize);
    bool destroy(aclrtMemPool pool);
    std::shared_ptr<StreamOrderedPool> find(aclrtMemPool pool) const;

    aclError allocate(const std::shared_ptr<StreamOrderedPool>& pool, size_t size, void** ptr);
    /// The pool ptr came from, with the block marked as being freed (nullptr:
    /// not a block in use).
    std::shared_ptr<StreamOrderedPool> begin_free(void* ptr);
    /// Forgets ptr once its free completed.
    void forget(void* ptr);
    /// True when ptr is a block of some pool (aclrtFree must refuse it).
    bool owns(const void* ptr) const;

private:
    StreamOrderedPools() = default;

    mutable std::mutex mutex_;
    std::unordered_map<const void*, std::shared_ptr<StreamOrderedPool>> pools_;
    std::unordered_map<const void*, std::shared_ptr<StreamOrderedPool>> owners_;  ///< Block -> its pool.
};

}  // namespace aclcpu::detail
