// acl-cpu runtime: device and host memory, copies and sets (acl_rt.h).
#include <algorithm>
#include <array>
#include <cstring>
#include <initializer_list>

#include <string>

#include "acl/acl_rt.h"
#include "aclcpu/dtype.hpp"
#include "aclcpu/instrumentation.hpp"
#include "core/errors.hpp"
#include "core/runtime_state.hpp"
#include "observe/memcheck.hpp"
#include "observe/runtime_hooks.hpp"

using aclcpu::DeviceAccess;
using aclcpu::DeviceTask;
using aclcpu::detail::Device;
using aclcpu::detail::DevicePool;
using aclcpu::detail::MemoryKind;
using aclcpu::detail::param_error;
using aclcpu::detail::Runtime;
using aclcpu::detail::Stream;
using aclcpu::instrument::ApiScope;
using aclcpu::instrument::MemoryAccess;
using aclcpu::instrument::WorkInfo;

namespace {

/// The device ranges of a copy or set, checked again when its task runs
/// (with memory checking on): the user may free a buffer between the call
/// and the moment the stream reaches the task.
class DeviceRanges {
public:
    void add(const void* address, size_t bytes, const char* role) {
        if (aclcpu::memcheck_enabled()) ranges_[count_++] = DeviceAccess{address, bytes, role, -1};
    }
    aclError check(const char* task) const {
        return count_ == 0 ? ACL_SUCCESS : aclcpu::check_device_accesses(task, ranges_.data(), count_);
    }

private:
    std::array<DeviceAccess, 2> ranges_{};
    size_t count_ = 0;
};

/// A copy as the device's DMA engine performs it: when the stream reaches it.
class MemcpyTask final : public DeviceTask {
public:
    MemcpyTask(void* dst, const void* src, size_t count, const DeviceRanges& ranges)
        : dst_(dst), src_(src), count_(count), ranges_(ranges) {}
    aclError run() noexcept override {
        if (aclError fault = ranges_.check(name()); fault != ACL_SUCCESS) return fault;
        std::memmove(dst_, src_, count_);
        return ACL_SUCCESS;
    }
    const char* name() const noexcept override { return "aclrtMemcpyAsync"; }

private:
    void* dst_;
    const void* src_;
    size_t count_;
    DeviceRanges ranges_;
};

class MemsetTask final : public DeviceTask {
public:
    MemsetTask(void* dst, int value, size_t count, const DeviceRanges& ranges)
        : dst_(dst), value_(value), count_(count), ranges_(ranges) {}
    aclError run() noexcept override {
        if (aclError fault = ranges_.check(name()); fault != ACL_SUCCESS) return fault;
        std::memset(dst_, value_, count_);
        return ACL_SUCCESS;
    }
    const char* name() const noexcept override { return "aclrtMemsetAsync"; }

private:
    void* dst_;
    int value_;
    size_t count_;
    DeviceRanges ranges_;
};

/// With memory checking on, a range that strays into a guard zone or a freed
/// block is a fault even where host memory would be accepted.
aclError check_stray(const char* api, const void* address, size_t bytes, const char* role) {
    if (!aclcpu::memcheck_enabled()) return ACL_SUCCESS;
    return aclcpu::detail::check_not_stray(api, DeviceAccess{address, bytes, role, -1});
}

bool names_device_destination(int64_t kind) {
    return kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE ||
           kind == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE;
}

bool names_device_source(int64_t kind) {
    return kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
}

/// The memory kinds of both sides of a copy that passed CANN's checks.
struct CopySides {
    MemoryKind dst;
    MemoryKind src;
    bool touches_pageable_host() const {
        return dst == MemoryKind::kPageableHost || src == MemoryKind::kPageableHost;
    }
};

/// CANN's checks of a copy with count > 0.  The direction comes from the
/// addresses; `kind` (an aclrtMemcpyKind code) only has to be a known one, and a side it names as
/// device memory must lie inside a live device block.
aclError check_copy(void* dst, size_t destMax, const void* src, size_t count, int64_t kind, const char* api,
                    CopySides& sides) {
    if (dst == nullptr || src == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: dst or src is null", api);
    if (count > destMax) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: count %zu exceeds destMax %zu", api, count, destMax);
    }
    if (kind < ACL_MEMCPY_HOST_TO_HOST || kind > ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: unsupported copy kind %lld", api, static_cast<long long>(kind));
    }
    if (aclError fault = check_stray(api, dst, count, "dst"); fault != ACL_SUCCESS) return fault;
    if (aclError fault = check_stray(api, src, count, "src"); fault != ACL_SUCCESS) return fault;
    Runtime& runtime = Runtime::instance();
    sides = CopySides{runtime.classify(dst, count), runtime.classify(src, count)};
    if (names_device_destination(kind) && sides.dst != MemoryKind::kDevice) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: dst range [%p, +%zu) is not inside device memory", api, dst,
                           count);
    }
    if (names_device_source(kind) && sides.src != MemoryKind::kDevice) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: src range [%p, +%zu) is not inside device memory", api, src,
                           count);
    }
    return ACL_SUCCESS;
}

/// CANN's checks of a memset with count > 0: the range must be device memory
/// or host memory from aclrtMallocHost.
aclError check_set(void* devPtr, size_t maxCount, size_t count, const char* api, MemoryKind& kind) {
    if (devPtr == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: devPtr is null", api);
    if (count > maxCount) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: count %zu exceeds maxCount %zu", api, count, maxCount);
    }
    if (aclError fault = check_stray(api, devPtr, count, "devPtr"); fault != ACL_SUCCESS) return fault;
    kind = Runtime::instance().classify(devPtr, count);
    if (kind == MemoryKind::kPageableHost) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: [%p, +%zu) is neither device memory nor aclrtMallocHost memory",
                           api, devPtr, count);
    }
    return ACL_SUCCESS;
}

/// Why aclrtFree refuses devPtr, found at `where`: with memory checking on,
/// a block freed before is still known, so a double free is named as such.
aclError reject_free(void* devPtr, const DevicePool::Lookup& where) {
    if (where.placement == DevicePool::Placement::kFreed && where.block == reinterpret_cast<uintptr_t>(devPtr)) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "aclrtFree: %p was already freed (double free)", devPtr);
    }
    return param_error(ACL_ERROR_RT_PARAM_INVALID,
                       "aclrtFree: %p is not the start of a live device block (never allocated, or already freed)",
                       devPtr);
}

void observe_pool_usage(const Device& device) {
    if (!aclcpu::instrument::active()) return;
    const uint64_t used = device.pool().used();
    aclcpu::instrument::notify([&](aclcpu::instrument::Observer& o) { o.on_pool_usage(device.id(), used); });
}

aclError allocate_device(void** devPtr, size_t size, bool padded, const char* api) {
    const ApiScope scope(api);
    if (devPtr == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: devPtr is null", api);
    if (size == 0) return param_error(ACL_ERROR_INVALID_PARAM, "%s: size is 0", api);
    Device* device = nullptr;
    if (aclError status = aclcpu::detail::current_device(api, device); status != ACL_SUCCESS) return status;
    const uint64_t bytes = DevicePool::rounded_size(size, padded);
    if (device->pool().allocate(bytes, devPtr) != ACL_SUCCESS) {
        return aclcpu::detail::runtime_error(
            ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: device %d is out of memory: %llu bytes requested, %llu of %llu free",
            api, device->id(), static_cast<unsigned long long>(bytes),
            static_cast<unsigned long long>(device->pool().capacity() - device->pool().used()),
            static_cast<unsigned long long>(device->pool().capacity()));
    }
    observe_pool_usage(*device);
    return ACL_SUCCESS;
}

/// What observers see of an asynchronous copy or set: the ranges it reads and
/// writes (host sides included: the host must not touch them before the
/// stream is done) and its size.  Neither copied nor moved, so the WorkInfo
/// keeps pointing at the accesses it holds.
class ObservedTransfer {
public:
    ObservedTransfer(const char* name, const char* category, size_t bytes, std::initializer_list<MemoryAccess> accesses)
        : work_(aclcpu::detail::plain_work(name, category)) {
        std::copy(accesses.begin(), accesses.end(), accesses_.begin());
        work_.accesses = accesses_.data();
        work_.accessCount = accesses.size();
        work_.details = "\"bytes\":" + std::to_string(bytes);
    }
    ObservedTransfer(const ObservedTransfer&) = delete;
    ObservedTransfer& operator=(const ObservedTransfer&) = delete;

    operator const WorkInfo&() const noexcept { return work_; }

private:
    std::array<MemoryAccess, 2> accesses_{};
    WorkInfo work_;
};

MemoryAccess reading(const void* begin, size_t bytes, const char* role) {
    return MemoryAccess{begin, bytes, MemoryAccess::Kind::kRead, role};
}

MemoryAccess writing(const void* begin, size_t bytes, const char* role) {
    return MemoryAccess{begin, bytes, MemoryAccess::Kind::kWrite, role};
}

bool is_hbm(int64_t attr) {
    return attr == ACL_HBM_MEM || attr == ACL_HBM_MEM_HUGE || attr == ACL_HBM_MEM_NORMAL ||
           attr == ACL_HBM_MEM_P2P_HUGE || attr == ACL_HBM_MEM_P2P_NORMAL || attr == ACL_HBM_MEM_HUGE1G ||
           attr == ACL_HBM_MEM_P2P_HUGE1G;
}

}  // namespace

extern "C" {

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
    return allocate_device(devPtr, size, DevicePool::pads(aclcpu::code_of(policy)), "aclrtMalloc");
}

aclError aclrtMallocCached(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
    return allocate_device(devPtr, size, DevicePool::pads(aclcpu::code_of(policy)), "aclrtMallocCached");
}

aclError aclrtMallocAlign32(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
    (void)policy;
    return allocate_device(devPtr, size, false, "aclrtMallocAlign32");
}

aclError aclrtFree(void* devPtr) {
    const ApiScope scope("aclrtFree");
    if (devPtr == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtFree: devPtr is null");
    Device* device = nullptr;
    const DevicePool::Lookup block = Runtime::instance().locate_device_range(devPtr, 1, device);
    if (block.placement != DevicePool::Placement::kLive || block.block != reinterpret_cast<uintptr_t>(devPtr)) {
        return reject_free(devPtr, block);
    }
    // Before the release: once released, another thread may be handed the block.
    if (aclcpu::instrument::active()) {
        aclcpu::instrument::notify([&](aclcpu::instrument::Observer& o) { o.on_free(devPtr, block.blockSize); });
    }
    // A concurrent free of the same block may have won since the lookup.
    if (!device->pool().release(devPtr)) return reject_free(devPtr, device->pool().inspect(devPtr, 1));
    observe_pool_usage(*device);
    return ACL_SUCCESS;
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
    const ApiScope scope("aclrtMallocHost");
    if (hostPtr == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: hostPtr is null");
    if (size == 0) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: size is 0");
    return Runtime::instance().allocate_host(size, hostPtr);
}

aclError aclrtFreeHost(void* hostPtr) {
    const ApiScope scope("aclrtFreeHost");
    if (hostPtr == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtFreeHost: hostPtr is null");
    return Runtime::instance().free_host(hostPtr);
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
    const ApiScope scope("aclrtMemcpy");
    if (count == 0) return ACL_SUCCESS;
    CopySides sides{};
    if (aclError status = check_copy(dst, destMax, src, count, aclcpu::code_of(kind), "aclrtMemcpy", sides);
        status != ACL_SUCCESS) {
        return status;
    }
    if (aclcpu::instrument::active()) {
        aclcpu::detail::observe_host_access(src, count, MemoryAccess::Kind::kRead, "src", "aclrtMemcpy");
        aclcpu::detail::observe_host_access(dst, count, MemoryAccess::Kind::kWrite, "dst", "aclrtMemcpy");
    }
    std::memmove(dst, src, count);
    return ACL_SUCCESS;
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
    const ApiScope scope("aclrtMemcpyAsync");
    std::shared_ptr<Stream> target;
    if (aclError status = Runtime::instance().resolve_stream(stream, "aclrtMemcpyAsync", target);
        status != ACL_SUCCESS) {
        return status;
    }
    if (count == 0) return ACL_SUCCESS;
    CopySides sides{};
    if (aclError status = check_copy(dst, destMax, src, count, aclcpu::code_of(kind), "aclrtMemcpyAsync", sides);
        status != ACL_SUCCESS) {
        return status;
    }
    DeviceRanges ranges;
    if (sides.dst == MemoryKind::kDevice) ranges.add(dst, count, "dst");
    if (sides.src == MemoryKind::kDevice) ranges.add(src, count, "src");
    const uint64_t place = target->submit(std::make_unique<MemcpyTask>(dst, src, count, ranges), [&] {
        return ObservedTransfer("aclrtMemcpyAsync", "memcpy", count,
                                {reading(src, count, "src"), writing(dst, count, "dst")});
    });
    // Pageable host memory cannot be read or written by the device later: as
    // on CANN, such a copy is complete when the call returns.
    if (sides.touches_pageable_host()) {
        target->lane().progress()->counter().wait_until(place + 1, aclcpu::detail::ProgressCounter::Clock::time_point::max());
        if (aclcpu::instrument::active()) {
            aclcpu::instrument::notify(
                [&](aclcpu::instrument::Observer& o) { o.on_host_waited_stream(target.get(), place); });
        }
    }
    return ACL_SUCCESS;
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
    const ApiScope scope("aclrtMemset");
    if (count == 0) return ACL_SUCCESS;
    MemoryKind kind{};
    if (aclError status = check_set(devPtr, maxCount, count, "aclrtMemset", kind); status != ACL_SUCCESS) {
        return status;
    }
    if (aclcpu::instrument::active()) {
        aclcpu::detail::observe_host_access(devPtr, count, MemoryAccess::Kind::kWrite, "dst", "aclrtMemset");
    }
    std::memset(devPtr, value, count);
    return ACL_SUCCESS;
}

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
    const ApiScope scope("aclrtMemsetAsync");
    std::shared_ptr<Stream> target;
    if (aclError status = Runtime::instance().resolve_stream(stream, "aclrtMemsetAsync", target);
        status != ACL_SUCCESS) {
        return status;
    }
    if (count == 0) return ACL_SUCCESS;
    MemoryKind kind{};
    if (aclError status = check_set(devPtr, maxCount, count, "aclrtMemsetAsync", kind); status != ACL_SUCCESS) {
        return status;
    }
    DeviceRanges ranges;
    if (kind == MemoryKind::kDevice) ranges.add(devPtr, count, "devPtr");
    target->submit(std::make_unique<MemsetTask>(devPtr, value, count, ranges), [&] {
        return ObservedTransfer("aclrtMemsetAsync", "memset", count, {writing(devPtr, count, "dst")});
    });
    return ACL_SUCCESS;
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total) {
    if (free == nullptr || total == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtGetMemInfo: free or total is null");
    }
    const int64_t attribute = aclcpu::code_of(attr);
    if (attribute < ACL_DDR_MEM || attribute > ACL_HBM_MEM_P2P_HUGE1G) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtGetMemInfo: unknown attribute %lld",
                           static_cast<long long>(attribute));
    }
    Device* device = nullptr;
    if (aclError status = aclcpu::detail::current_device("aclrtGetMemInfo", device); status != ACL_SUCCESS) {
        return status;
    }
    // An Atlas A2 has HBM and exposes no DDR to the host: DDR queries give 0/0.
    const bool hbm = is_hbm(attribute);
    *total = hbm ? static_cast<size_t>(device->pool().capacity()) : 0;
    *free = hbm ? static_cast<size_t>(device->pool().capacity() - device->pool().used()) : 0;
    return ACL_SUCCESS;
}

}  // extern "C"
