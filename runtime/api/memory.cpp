// acl-cpu runtime: device and host memory, copies and sets (acl_rt.h).
#include <sched.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "aclcpu/dtype.hpp"
#include "aclcpu/instrumentation.hpp"
#include "api/unsupported.hpp"
#include "core/errors.hpp"
#include "core/graph_capture.hpp"
#include "core/host_registration.hpp"
#include "core/managed_memory.hpp"
#include "core/peer_access.hpp"
#include "core/runtime_state.hpp"
#include "core/stream_ordered_pool.hpp"
#include "core/virtual_memory.hpp"
#include "observe/memcheck.hpp"
#include "observe/runtime_hooks.hpp"

using aclcpu::DeviceAccess;
using aclcpu::DeviceTask;
using aclcpu::api::not_supported;
using aclcpu::detail::Device;
using aclcpu::detail::DevicePool;
using aclcpu::detail::HostRegistrations;
using aclcpu::detail::ManagedMemory;
using aclcpu::detail::MemoryKind;
using aclcpu::detail::param_error;
using aclcpu::detail::PeerAccess;
using aclcpu::detail::Runtime;
using aclcpu::detail::Stream;
using aclcpu::instrument::ApiScope;
using aclcpu::instrument::MemoryAccess;
using aclcpu::instrument::WorkInfo;

namespace {

constexpr char kNoEcc[] =
    "uncorrectable ECC errors (UCE) are reported by the HBM of a real device; the host memory behind an emulated "
    "device has no such error records to read or repair";

constexpr uint32_t kNormalPageBytes = 4096;
constexpr uint32_t kHugePageBytes = uint32_t{2} << 20;

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

/// The bytes a copy moves: `height` rows of `width` bytes, `dpitch` and
/// `spitch` bytes apart (a plain copy is one row).
struct CopyShape {
    size_t width;
    size_t height;
    size_t dpitch;
    size_t spitch;
    static CopyShape linear(size_t count) { return CopyShape{count, 1, count, count}; }
    void copy(void* dst, const void* src) const {
        auto* to = static_cast<unsigned char*>(dst);
        const auto* from = static_cast<const unsigned char*>(src);
        for (size_t row = 0; row < height; ++row) std::memmove(to + row * dpitch, from + row * spitch, width);
    }
};

/// A copy as the device's DMA engine performs it: when the stream reaches it.
class MemcpyTask final : public DeviceTask {
public:
    MemcpyTask(const char* api, void* dst, const void* src, const CopyShape& shape, const DeviceRanges& ranges)
        : api_(api), dst_(dst), src_(src), shape_(shape), ranges_(ranges) {}
    aclError run() noexcept override {
        if (aclError fault = ranges_.check(name()); fault != ACL_SUCCESS) return fault;
        shape_.copy(dst_, src_);
        return ACL_SUCCESS;
    }
    const char* name() const noexcept override { return api_; }

private:
    const char* api_;
    void* dst_;
    const void* src_;
    CopyShape shape_;
    DeviceRanges ranges_;
};

/// A fill with a 1- or 4-byte pattern (aclrtMemset, aclrtMemsetD32).
struct Fill {
    uint32_t value;
    size_t elementBytes;
    size_t elements;
    size_t bytes() const { return elementBytes * elements; }
    void apply(void* dst) const {
        if (elementBytes == 1) {
            std::memset(dst, static_cast<int>(value), elements);
            return;
        }
        auto* words = static_cast<unsigned char*>(dst);
        for (size_t i = 0; i < elements; ++i) std::memcpy(words + i * elementBytes, &value, elementBytes);
    }
};

class MemsetTask final : public DeviceTask {
public:
    MemsetTask(const char* api, void* dst, const Fill& fill, const DeviceRanges& ranges)
        : api_(api), dst_(dst), fill_(fill), ranges_(ranges) {}
    aclError run() noexcept override {
        if (aclError fault = ranges_.check(name()); fault != ACL_SUCCESS) return fault;
        fill_.apply(dst_);
        return ACL_SUCCESS;
    }
    const char* name() const noexcept override { return api_; }

private:
    const char* api_;
    void* dst_;
    Fill fill_;
    DeviceRanges ranges_;
};

/// A copy whose addresses are read from device memory when the stream
/// reaches it (aclrtMemcpyAsyncWithOffset, aclrtMemcpyAsyncWithDesc): the
/// device DMA faults, as the stream's error, when they are not device memory.
class IndirectCopyTask final : public DeviceTask {
public:
    struct Copy {
        void* dst;
        const void* src;
        size_t count;
    };
    IndirectCopyTask(const char* api, std::function<Copy()> resolve) : api_(api), resolve_(std::move(resolve)) {}
    aclError run() noexcept override {
        const Copy copy = resolve_();
        Runtime& runtime = Runtime::instance();
        if (runtime.classify(copy.dst, copy.count) != MemoryKind::kDevice ||
            runtime.classify(copy.src, copy.count) != MemoryKind::kDevice) {
            aclcpu::report_error(ACL_ERROR_RT_SYS_DMA, aclcpu::kRuntimeInnerTag,
                                 "%s: the copy of %zu bytes from %p to %p does not lie in device memory", api_,
                                 copy.count, copy.src, copy.dst);
            return ACL_ERROR_RT_SYS_DMA;
        }
        std::memmove(copy.dst, copy.src, copy.count);
        return ACL_SUCCESS;
    }
    const char* name() const noexcept override { return api_; }

private:
    const char* api_;
    std::function<Copy()> resolve_;
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
    bool touches_pageable_host() const { return dst == MemoryKind::kPageableHost || src == MemoryKind::kPageableHost; }
};

bool is_known_kind(int64_t kind) { return kind >= ACL_MEMCPY_HOST_TO_HOST && kind <= ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE; }

/// Whether peer access is enabled between two devices, in either direction.
bool peers_enabled(int32_t device, int32_t peer) {
    const PeerAccess& peers = PeerAccess::instance();
    return peers.enabled(device, peer) || peers.enabled(peer, device);
}

/// A copy between the memory of two emulated devices needs peer access
/// between them, as on CANN: its FAQ 跨DeviceP2P数据交互配置失败.md shows
/// such a copy failing until aclrtDeviceEnablePeerAccess.  The driver refuses
/// it, so CANN documents no code: 107000, as its runtime's parameter checks.
aclError check_peer_copy(const void* dst, const void* src, const char* api) {
    Device* dstOwner = nullptr;
    Device* srcOwner = nullptr;
    Runtime& runtime = Runtime::instance();
    runtime.locate_device_range(dst, 1, dstOwner);
    runtime.locate_device_range(src, 1, srcOwner);
    if (dstOwner == nullptr || srcOwner == nullptr || dstOwner == srcOwner) return ACL_SUCCESS;
    if (peers_enabled(dstOwner->id(), srcOwner->id())) return ACL_SUCCESS;
    return param_error(ACL_ERROR_RT_PARAM_INVALID,
                       "%s: the copy from device %d's memory to device %d's needs peer access between the two devices "
                       "(aclrtDeviceEnablePeerAccess)",
                       api, srcOwner->id(), dstOwner->id());
}

/// The sides of a copy that passed the argument checks: the direction comes
/// from the addresses; a side `kind` (an aclrtMemcpyKind code) names as
/// device memory must lie inside live device memory.
aclError check_sides(void* dst, size_t dstBytes, const void* src, size_t srcBytes, int64_t kind, const char* api,
                     CopySides& sides) {
    if (aclError fault = check_stray(api, dst, dstBytes, "dst"); fault != ACL_SUCCESS) return fault;
    if (aclError fault = check_stray(api, src, srcBytes, "src"); fault != ACL_SUCCESS) return fault;
    Runtime& runtime = Runtime::instance();
    sides = CopySides{runtime.classify(dst, dstBytes), runtime.classify(src, srcBytes)};
    if (names_device_destination(kind) && sides.dst != MemoryKind::kDevice) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: dst range [%p, +%zu) is not inside device memory", api, dst,
                           dstBytes);
    }
    if (names_device_source(kind) && sides.src != MemoryKind::kDevice) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: src range [%p, +%zu) is not inside device memory", api, src,
                           srcBytes);
    }
    if (sides.dst == MemoryKind::kDevice && sides.src == MemoryKind::kDevice) return check_peer_copy(dst, src, api);
    return ACL_SUCCESS;
}

/// CANN's checks of a copy with count > 0.
aclError check_copy(void* dst, size_t destMax, const void* src, size_t count, int64_t kind, const char* api,
                    CopySides& sides) {
    if (dst == nullptr || src == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: dst or src is null", api);
    if (count > destMax) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: count %zu exceeds destMax %zu", api, count, destMax);
    }
    if (!is_known_kind(kind)) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: unsupported copy kind %lld", api,
                           static_cast<long long>(kind));
    }
    return check_sides(dst, count, src, count, kind, api, sides);
}

/// aclrtMemcpy2d's limits on a copy of `height` rows of `width` bytes.
constexpr size_t kMax2dWidth = 5000000;
constexpr size_t kMax2dHeight = size_t{5} << 20;

/// The direction of a copy between sides of these kinds, for ACL_MEMCPY_DEFAULT.
int64_t direction_of(const CopySides& sides) {
    const bool toDevice = sides.dst == MemoryKind::kDevice;
    const bool fromDevice = sides.src == MemoryKind::kDevice;
    if (toDevice) return fromDevice ? ACL_MEMCPY_DEVICE_TO_DEVICE : ACL_MEMCPY_HOST_TO_DEVICE;
    return fromDevice ? ACL_MEMCPY_DEVICE_TO_HOST : ACL_MEMCPY_HOST_TO_HOST;
}

/// CANN's checks of a 2-D copy of a non-empty shape.  The acl layer
/// (src/acl/aclrt_impl/memory.cpp, CheckMemcpy2dParam: 100000) refuses null
/// addresses, a width above a pitch and kinds other than host to device,
/// device to host, device to device and default; the rts layer
/// (src/runtime/api/impl/api_error.cc, ApiErrorDecorator::MemCopy2DCheckParam:
/// 107000) the shapes above its limits.  ApiErrorDecorator::MemCopy2DSync
/// does not copy device to device (207000); a default copy takes its
/// direction from the memory, and must come out host to device or device to
/// host (asynchronously also device to device: MemCopy2DAsync), else 107000.
aclError check_copy_2d(void* dst, const void* src, const CopyShape& shape, int64_t kind, bool async, const char* api,
                       CopySides& sides) {
    if (dst == nullptr || src == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: dst or src is null", api);
    if (shape.width > shape.dpitch || shape.width > shape.spitch) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: width %zu exceeds dpitch %zu or spitch %zu", api, shape.width,
                           shape.dpitch, shape.spitch);
    }
    if (kind != ACL_MEMCPY_HOST_TO_DEVICE && kind != ACL_MEMCPY_DEVICE_TO_HOST && kind != ACL_MEMCPY_DEVICE_TO_DEVICE &&
        kind != ACL_MEMCPY_DEFAULT) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: copy kind %lld is not supported for 2-D copies", api,
                           static_cast<long long>(kind));
    }
    if (shape.width > kMax2dWidth || shape.height > kMax2dHeight) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: width %zu or height %zu exceeds CANN's limits (%zu, %zu)",
                           api, shape.width, shape.height, kMax2dWidth, kMax2dHeight);
    }
    if (!async && kind == ACL_MEMCPY_DEVICE_TO_DEVICE) {
        return param_error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s copies host to device or device to host only", api);
    }
    // The last row ends at (height - 1) * pitch + width: widths and heights are bounded, pitches are not.
    const size_t rows = shape.height - 1;
    if (shape.dpitch != 0 && rows > (SIZE_MAX - shape.width) / shape.dpitch) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: dpitch %zu overflows the address space", api, shape.dpitch);
    }
    if (shape.spitch != 0 && rows > (SIZE_MAX - shape.width) / shape.spitch) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: spitch %zu overflows the address space", api, shape.spitch);
    }
    if (aclError status = check_sides(dst, rows * shape.dpitch + shape.width, src, rows * shape.spitch + shape.width,
                                      kind, api, sides);
        status != ACL_SUCCESS) {
        return status;
    }
    const int64_t direction = direction_of(sides);
    if (direction == ACL_MEMCPY_HOST_TO_HOST || (!async && direction == ACL_MEMCPY_DEVICE_TO_DEVICE)) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: a copy from %s memory to %s memory is not supported", api,
                           sides.src == MemoryKind::kDevice ? "device" : "host",
                           sides.dst == MemoryKind::kDevice ? "device" : "host");
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
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "%s: [%p, +%zu) is neither device memory nor aclrtMallocHost memory", api, devPtr, count);
    }
    return ACL_SUCCESS;
}

/// Why a free refuses devPtr, found at `where`: with memory checking on,
/// a block freed before is still known, so a double free is named as such.
aclError reject_free(void* devPtr, const DevicePool::Lookup& where, const char* api) {
    if (where.placement == DevicePool::Placement::kFreed && where.block == reinterpret_cast<uintptr_t>(devPtr)) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: %p was already freed (double free)", api, devPtr);
    }
    return param_error(ACL_ERROR_RT_PARAM_INVALID,
                       "%s: %p is not the start of a live device block (never allocated, or already freed)", api,
                       devPtr);
}

void observe_pool_usage(const Device& device) {
    if (!aclcpu::instrument::active()) return;
    const uint64_t used = device.pool().used();
    aclcpu::instrument::notify([&](aclcpu::instrument::Observer& o) { o.on_pool_usage(device.id(), used); });
}

/// aclrtFree, and aclrtFreeWithDevSync, which first waits until the owning
/// device has run everything submitted to it.
aclError free_device(void* devPtr, bool synchronizeFirst, const char* api) {
    const ApiScope scope(api);
    if (devPtr == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: devPtr is null", api);
    Device* device = nullptr;
    const DevicePool::Lookup block = Runtime::instance().locate_device_range(devPtr, 1, device);
    if (block.placement != DevicePool::Placement::kLive || block.block != reinterpret_cast<uintptr_t>(devPtr)) {
        return reject_free(devPtr, block, api);
    }
    if (aclcpu::detail::StreamOrderedPools::instance().owns(devPtr)) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: %p belongs to a memory pool: use aclrtMemPoolFreeAsync",
                           api, devPtr);
    }
    if (synchronizeFirst) device->synchronize(aclcpu::detail::ProgressCounter::Clock::time_point::max());
    // Before the release: once released, another thread may be handed the block.
    if (aclcpu::instrument::active()) {
        aclcpu::instrument::notify([&](aclcpu::instrument::Observer& o) { o.on_free(devPtr, block.blockSize); });
    }
    // A concurrent free of the same block may have won since the lookup.
    // Before the release too: a managed allocation may take the address again at once.
    ManagedMemory::instance().forget(devPtr);
    if (!device->pool().release(devPtr)) return reject_free(devPtr, device->pool().inspect(devPtr, 1), api);
    observe_pool_usage(*device);
    return ACL_SUCCESS;
}

aclError allocate_on(Device& device, void** devPtr, size_t size, bool padded, const char* api) {
    const uint64_t bytes = DevicePool::rounded_size(size, padded);
    if (device.pool().allocate(bytes, devPtr) != ACL_SUCCESS) {
        return aclcpu::detail::runtime_error(
            ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: device %d is out of memory: %llu bytes requested, %llu of %llu free",
            api, device.id(), static_cast<unsigned long long>(bytes),
            static_cast<unsigned long long>(device.pool().capacity() - device.pool().used()),
            static_cast<unsigned long long>(device.pool().capacity()));
    }
    observe_pool_usage(device);
    return ACL_SUCCESS;
}

aclError allocate_device(void** devPtr, size_t size, bool padded, const char* api) {
    const ApiScope scope(api);
    if (devPtr == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: devPtr is null", api);
    if (size == 0) return param_error(ACL_ERROR_INVALID_PARAM, "%s: size is 0", api);
    Device* device = nullptr;
    if (aclError status = aclcpu::detail::current_device(api, device); status != ACL_SUCCESS) return status;
    return allocate_on(*device, devPtr, size, padded, api);
}

/// The device an aclrtMallocConfig asks for (ACL_RT_MEM_ATTR_DEVICE_ID), or
/// nullptr for the current one; module ids and VA flags only label memory.
aclError check_malloc_config(const aclrtMallocConfig* cfg, const char* api, Device*& requested) {
    requested = nullptr;
    if (cfg == nullptr || cfg->numAttrs == 0) return ACL_SUCCESS;
    if (cfg->attrs == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: cfg->attrs is null", api);
    for (size_t i = 0; i < cfg->numAttrs; ++i) {
        const int64_t attr = aclcpu::code_of(cfg->attrs[i].attr);
        if (attr < ACL_RT_MEM_ATTR_RSV || attr > ACL_RT_MEM_ATTR_VA_FLAG) {
            return param_error(ACL_ERROR_INVALID_PARAM, "%s: cfg->attrs[%zu] has unknown type %lld", api, i,
                               static_cast<long long>(attr));
        }
        if (attr != ACL_RT_MEM_ATTR_DEVICE_ID) continue;
        const uint32_t id = cfg->attrs[i].value.deviceId;
        requested = Runtime::instance().open_device(static_cast<int32_t>(id));
        if (requested == nullptr) {
            return param_error(ACL_ERROR_RT_INVALID_DEVICEID, "%s: device %u of cfg is not open (aclrtSetDevice it)",
                               api, id);
        }
    }
    return ACL_SUCCESS;
}

/// `policy` is the aclrtMemMallocPolicy code (code_of): a C caller may pass any integer.
aclError allocate_with_config(void** devPtr, size_t size, int64_t policy, const aclrtMallocConfig* cfg,
                              const char* api) {
    const ApiScope scope(api);
    if (devPtr == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: devPtr is null", api);
    if (size == 0) return param_error(ACL_ERROR_INVALID_PARAM, "%s: size is 0", api);
    Device* device = nullptr;
    if (aclError status = check_malloc_config(cfg, api, device); status != ACL_SUCCESS) return status;
    if (device == nullptr) {
        if (aclError status = aclcpu::detail::current_device(api, device); status != ACL_SUCCESS) return status;
    }
    return allocate_on(*device, devPtr, size, DevicePool::pads(policy), api);
}


/// The stream of an asynchronous call, resolved (null: the default stream).
aclError resolve(aclrtStream stream, const char* api, std::shared_ptr<Stream>& target) {
    return Runtime::instance().resolve_work_stream(stream, api, target);
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

/// CANN's capture rules for a copy touching pageable host memory, which the
/// device cannot reach later: refused on a captured stream (only
/// aclrtMallocHost memory can be replayed), and done synchronously -- an
/// unsafe call in capture terms -- otherwise.
aclError check_pageable_copy(const Stream& target, const char* api) {
    if (target.is_captured() && !target.is_persistent()) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID,
                           "%s: stream %p is being captured, and a captured copy can only use host memory from "
                           "aclrtMallocHost, not pageable memory",
                           api, static_cast<const void*>(&target));
    }
    return aclcpu::detail::check_unsafe_call(api, ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
}

/// Puts a checked copy on target's stream.  Pageable host memory cannot be
/// read or written by the device later: as on CANN, such a copy is complete
/// when the call returns.  On a model's stream (aclmdlRIBindStream) CANN's
/// ApiErrorDecorator::MemcpyAsync synchronises the stream, which holds no
/// work of its own, and copies at once: the copy is not part of the model.
aclError submit_copy(Stream& target, const char* api, void* dst, const void* src, const CopyShape& shape,
                     const CopySides& sides, size_t dstBytes, size_t srcBytes) {
    if (sides.touches_pageable_host()) {
        if (aclError status = check_pageable_copy(target, api); status != ACL_SUCCESS) return status;
    }
    DeviceRanges ranges;
    if (sides.dst == MemoryKind::kDevice) ranges.add(dst, dstBytes, "dst");
    if (sides.src == MemoryKind::kDevice) ranges.add(src, srcBytes, "src");
    if (sides.touches_pageable_host() && target.is_persistent()) {
        return MemcpyTask(api, dst, src, shape, ranges).run();
    }
    uint64_t place = aclcpu::detail::kNoPlace;
    const aclError status = target.submit(
        std::make_unique<MemcpyTask>(api, dst, src, shape, ranges),
        [&] {
            return ObservedTransfer(api, "memcpy", shape.width * shape.height,
                                    {reading(src, srcBytes, "src"), writing(dst, dstBytes, "dst")});
        },
        &place);
    if (status != ACL_SUCCESS || !sides.touches_pageable_host()) return status;
    target.lane().progress()->counter().wait_until(place + 1,
                                                   aclcpu::detail::ProgressCounter::Clock::time_point::max());
    if (aclcpu::instrument::active()) {
        aclcpu::instrument::notify([&](aclcpu::instrument::Observer& o) { o.on_host_waited_stream(&target, place); });
    }
    return ACL_SUCCESS;
}

aclError copy_async(void* dst, size_t destMax, const void* src, size_t count, int64_t kind, aclrtStream stream,
                    const char* api) {
    const ApiScope scope(api);
    std::shared_ptr<Stream> target;
    if (aclError status = resolve(stream, api, target); status != ACL_SUCCESS) return status;
    if (count == 0) return ACL_SUCCESS;
    CopySides sides{};
    if (aclError status = check_copy(dst, destMax, src, count, kind, api, sides); status != ACL_SUCCESS) return status;
    return submit_copy(*target, api, dst, src, CopyShape::linear(count), sides, count, count);
}

void observe_host_write(void* dst, size_t bytes, const char* api) {
    if (aclcpu::instrument::active()) {
        aclcpu::detail::observe_host_access(dst, bytes, MemoryAccess::Kind::kWrite, "dst", api);
    }
}

/// A fill done by the calling thread (aclrtMemset, aclrtMemsetD32, and
/// aclrtMemsetD32Async of host memory).
aclError fill_now(void* devPtr, size_t maxCount, const Fill& fill, const char* api) {
    if (fill.elements == 0) return ACL_SUCCESS;
    MemoryKind kind{};
    if (aclError status = check_set(devPtr, maxCount, fill.bytes(), api, kind); status != ACL_SUCCESS) return status;
    observe_host_write(devPtr, fill.bytes(), api);
    fill.apply(devPtr);
    return ACL_SUCCESS;
}

/// A fill put on the stream; with `hostNow`, a fill of host memory is done
/// by the calling thread instead (aclrtMemsetD32Async).
aclError fill_async(void* devPtr, size_t maxCount, const Fill& fill, aclrtStream stream, bool hostNow,
                    const char* api) {
    std::shared_ptr<Stream> target;
    if (aclError status = resolve(stream, api, target); status != ACL_SUCCESS) return status;
    if (fill.elements == 0) return ACL_SUCCESS;
    MemoryKind kind{};
    if (aclError status = check_set(devPtr, maxCount, fill.bytes(), api, kind); status != ACL_SUCCESS) return status;
    if (hostNow && kind != MemoryKind::kDevice) {
        observe_host_write(devPtr, fill.bytes(), api);
        fill.apply(devPtr);
        return ACL_SUCCESS;
    }
    DeviceRanges ranges;
    if (kind == MemoryKind::kDevice) ranges.add(devPtr, fill.bytes(), "devPtr");
    return target->submit(std::make_unique<MemsetTask>(api, devPtr, fill, ranges), [&] {
        return ObservedTransfer(api, "memset", fill.bytes(), {writing(devPtr, fill.bytes(), "dst")});
    });
}

/// Bytes of the fill of N elements of elementBytes, or false when it overflows.
bool fill_of(uint32_t value, size_t elementBytes, size_t elements, Fill& fill) {
    if (elements > SIZE_MAX / elementBytes) return false;
    fill = Fill{value, elementBytes, elements};
    return true;
}

/// `kind` is the aclrtMemcpyKind code (code_of): a C caller may pass any integer.
aclError copy_2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, int64_t kind,
                 aclrtStream stream, bool async, const char* api) {
    const ApiScope scope(api);
    std::shared_ptr<Stream> target;
    if (async) {
        if (aclError status = resolve(stream, api, target); status != ACL_SUCCESS) return status;
    }
    if (width == 0 || height == 0) return ACL_SUCCESS;
    const CopyShape shape{width, height, dpitch, spitch};
    CopySides sides{};
    if (aclError status = check_copy_2d(dst, src, shape, kind, async, api, sides); status != ACL_SUCCESS) {
        return status;
    }
    const size_t dstBytes = (height - 1) * dpitch + width;
    const size_t srcBytes = (height - 1) * spitch + width;
    if (async) return submit_copy(*target, api, dst, src, shape, sides, dstBytes, srcBytes);
    if (aclError status = aclcpu::detail::check_unsafe_call(api, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
        status != ACL_SUCCESS) {
        return status;
    }
    if (aclcpu::instrument::active()) {
        aclcpu::detail::observe_host_access(src, srcBytes, MemoryAccess::Kind::kRead, "src", api);
        aclcpu::detail::observe_host_access(dst, dstBytes, MemoryAccess::Kind::kWrite, "dst", api);
    }
    shape.copy(dst, src);
    return ACL_SUCCESS;
}

/// The argument checks of the copies between device addresses held in device
/// memory (aclrtMemcpyAsyncWithOffset, aclrtMemcpyAsyncWithDesc): only
/// ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, and a holder that is device memory.
aclError check_indirect(const void* holder, size_t holderBytes, int64_t kind, const char* role, const char* api) {
    if (holder == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: %s is null", api, role);
    if (kind != ACL_MEMCPY_INNER_DEVICE_TO_DEVICE) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: kind %lld is not ACL_MEMCPY_INNER_DEVICE_TO_DEVICE", api,
                           static_cast<long long>(kind));
    }
    if (Runtime::instance().classify(holder, holderBytes) != MemoryKind::kDevice) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: %s [%p, +%zu) is not device memory", api, role, holder,
                           holderBytes);
    }
    return ACL_SUCCESS;
}

/// What aclrtSetMemcpyDesc writes into device memory for aclrtMemcpyAsyncWithDesc.
struct MemcpyDescriptor {
    void* dst;
    const void* src;
    size_t count;
    uint64_t reserved;
};

/// CANN's rule for the index arrays of batches (attrsIndexes, prefetchLocIdxs):
/// the first is 0, each is above the one before, all are below `count`.  Both
/// batches check it in the rts layer (src/runtime/api/impl/api_error.cc,
/// ApiErrorDecorator::MemcpyBatch, MemcpyBatchAsync; api_error_uvm.cc,
/// MemManagedPrefetchBatchAsync): RT_ERROR_INVALID_VALUE, 107000.
aclError check_segment_starts(const size_t* starts, size_t numStarts, size_t count, const char* api) {
    for (size_t k = 0; k < numStarts; ++k) {
        const bool ordered = k == 0 ? starts[k] == 0 : starts[k] > starts[k - 1];
        if (!ordered || starts[k] >= count) {
            return param_error(ACL_ERROR_RT_PARAM_INVALID,
                               "%s: index %zu of the segment starts is %zu (they must start at 0, increase, and stay "
                               "below %zu)",
                               api, k, starts[k], count);
        }
    }
    return ACL_SUCCESS;
}

/// The end of segment k of a batch whose segments start at `starts`.
size_t segment_end(const size_t* starts, size_t numStarts, size_t k, size_t count) {
    return k + 1 < numStarts ? starts[k + 1] : count;
}

/// One batch of copies (aclrtMemcpyBatch and its variants) as the caller's arrays give it.
struct CopyBatch {
    void** dsts;
    size_t* destMaxs;
    void** srcs;
    size_t* sizes;
    size_t count;
    aclrtMemcpyBatchAttr* attrs;
    size_t* attrsIndexes;
    size_t numAttrs;
};

/// The most copies one synchronous batch takes (CANN's DEVMM_MEMCPY_BATCH_MAX_COUNT).
constexpr size_t kMaxSyncBatchCopies = 4096;

bool has_reserved_bytes(const aclrtMemcpyBatchAttr& attr) {
    return std::any_of(std::begin(attr.rsv), std::end(attr.rsv), [](uint8_t byte) { return byte != 0; });
}

/// The acl layer's checks of a batch (src/acl/aclrt_impl/memory.cpp,
/// MemcpyBatchImpl and ValidateMemcpyBatchParams): ACL_ERROR_INVALID_PARAM.
/// `empty` tells a batch whose copies are all empty, which CANN accepts
/// before any other check.  `failIndex` receives the copy a destMax check
/// failed on.
aclError check_batch_arguments(const CopyBatch& batch, bool& empty, size_t& failIndex, const char* api) {
    if (batch.sizes == nullptr || batch.count == 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: sizes is null or numBatches is 0", api);
    }
    empty = std::all_of(batch.sizes, batch.sizes + batch.count, [](size_t size) { return size == 0; });
    if (empty) return ACL_SUCCESS;
    if (batch.dsts == nullptr || batch.destMaxs == nullptr || batch.srcs == nullptr || batch.attrs == nullptr ||
        batch.attrsIndexes == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: an array argument is null", api);
    }
    for (size_t i = 0; i < batch.count; ++i) {
        if (batch.sizes[i] > batch.destMaxs[i]) {
            failIndex = i;
            return param_error(ACL_ERROR_INVALID_PARAM, "%s: copy %zu of %zu bytes exceeds its destMax %zu", api, i,
                               batch.sizes[i], batch.destMaxs[i]);
        }
    }
    for (size_t k = 0; k < batch.numAttrs; ++k) {
        if (has_reserved_bytes(batch.attrs[k])) {
            return param_error(ACL_ERROR_INVALID_PARAM, "%s: the rsv bytes of attrs[%zu] must be 0", api, k);
        }
    }
    return ACL_SUCCESS;
}

/// The rts layer's checks of a batch's shape (ApiErrorDecorator::MemcpyBatch,
/// MemcpyBatchAsync): 107000.  Only the synchronous batch has a size limit.
aclError check_batch_shape(const CopyBatch& batch, bool async, const char* api) {
    if (batch.numAttrs == 0 || batch.numAttrs > batch.count) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: numAttrs %zu must satisfy 0 < numAttrs <= numBatches %zu",
                           api, batch.numAttrs, batch.count);
    }
    if (!async && batch.count > kMaxSyncBatchCopies) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: numBatches %zu exceeds %zu", api, batch.count,
                           kMaxSyncBatchCopies);
    }
    return check_segment_starts(batch.attrsIndexes, batch.numAttrs, batch.count, api);
}

/// Where one side of a batch copy lies, as CANN's batch checks see it
/// (ApiImpl::CheckMemCpyAttr): device memory and its device, or host
/// memory, registered or not.
struct BatchSide {
    bool device;
    int32_t deviceId;
};

BatchSide side_of(const void* ptr) {
    Device* owner = nullptr;
    if (Runtime::instance().locate_device_range(ptr, 1, owner).placement == DevicePool::Placement::kLive) {
        return BatchSide{true, owner->id()};
    }
    return BatchSide{false, 0};
}

/// Whether an attribute's location names `side`: host memory is HOST or
/// HOST_NUMA, device memory DEVICE with its own device id.
bool declares(const aclrtMemLocation& declared, const BatchSide& side) {
    const int64_t type = aclcpu::code_of(declared.type);
    if (side.device) return type == ACL_MEM_LOCATION_TYPE_DEVICE && declared.id == static_cast<uint32_t>(side.deviceId);
    return type == ACL_MEM_LOCATION_TYPE_HOST || type == ACL_MEM_LOCATION_TYPE_HOST_NUMA;
}

/// The rts layer's checks of copy i under `attr` (ApiImpl::CheckMemCpyAttr;
/// asynchronously ApiImpl::ValidateMemCpyParamsAndAttributes first refuses
/// an empty copy and null addresses): 107000.  `kind` receives its direction.
aclError check_batch_copy(const CopyBatch& batch, size_t i, const aclrtMemcpyBatchAttr& attr, bool async,
                          int64_t& kind, const char* api) {
    void* dst = batch.dsts[i];
    const void* src = batch.srcs[i];
    if (async && (batch.sizes[i] == 0 || dst == nullptr || src == nullptr)) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: copy %zu is empty or has a null address", api, i);
    }
    const BatchSide dstSide = side_of(dst);
    const BatchSide srcSide = side_of(src);
    if (!declares(attr.dstLoc, dstSide) || !declares(attr.srcLoc, srcSide)) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID,
                           "%s: copy %zu: its attribute's locations do not say where dst %p and src %p lie", api, i,
                           dst, src);
    }
    if (dstSide.device == srcSide.device) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID,
                           "%s: copy %zu is neither host to device nor device to host, the only directions of a batch",
                           api, i);
    }
    kind = dstSide.device ? ACL_MEMCPY_HOST_TO_DEVICE : ACL_MEMCPY_DEVICE_TO_HOST;
    return ACL_SUCCESS;
}

/// The rts layer's checks of a batch; `failIndex` receives the copy a check
/// failed on (SIZE_MAX when the failure is not about one copy).
aclError check_batch(const CopyBatch& batch, bool async, size_t& failIndex, const char* api) {
    failIndex = SIZE_MAX;
    if (aclError status = check_batch_shape(batch, async, api); status != ACL_SUCCESS) return status;
    for (size_t k = 0; k < batch.numAttrs; ++k) {
        for (size_t i = batch.attrsIndexes[k]; i < segment_end(batch.attrsIndexes, batch.numAttrs, k, batch.count);
             ++i) {
            int64_t kind = 0;
            aclError status = check_batch_copy(batch, i, batch.attrs[k], async, kind, api);
            CopySides sides{};
            if (status == ACL_SUCCESS && batch.sizes[i] != 0) {
                status = check_sides(batch.dsts[i], batch.sizes[i], batch.srcs[i], batch.sizes[i], kind, api, sides);
            }
            if (status != ACL_SUCCESS) {
                failIndex = i;
                return status;
            }
        }
    }
    return ACL_SUCCESS;
}

/// Both layers' checks of a batch, in CANN's order; `empty` tells a batch
/// with nothing to copy.  A stream (`stream`, when asynchronous) is resolved
/// between the layers, as rtsMemcpyBatchAsync does.
aclError check_batch_call(const CopyBatch& batch, bool async, aclrtStream stream, bool& empty, size_t* failIndex,
                          std::shared_ptr<Stream>& target, const char* api) {
    // An error that concerns no particular copy leaves failIndex SIZE_MAX (11-03).
    size_t failed = SIZE_MAX;
    aclError status = check_batch_arguments(batch, empty, failed, api);
    if (status == ACL_SUCCESS && !empty && async) status = resolve(stream, api, target);
    if (status == ACL_SUCCESS && !empty) status = check_batch(batch, async, failed, api);
    if (failIndex != nullptr) *failIndex = failed;
    return status;
}

aclError copy_batch(const CopyBatch& batch, size_t* failIndex, const char* api) {
    const ApiScope scope(api);
    bool empty = false;
    std::shared_ptr<Stream> unused;
    if (aclError status = check_batch_call(batch, false, nullptr, empty, failIndex, unused, api);
        status != ACL_SUCCESS || empty) {
        return status;
    }
    for (size_t i = 0; i < batch.count; ++i) {
        // An empty copy's addresses may be null, which memmove must not get.
        if (batch.sizes[i] == 0) continue;
        if (aclcpu::instrument::active()) {
            aclcpu::detail::observe_host_access(batch.srcs[i], batch.sizes[i], MemoryAccess::Kind::kRead, "src", api);
            aclcpu::detail::observe_host_access(batch.dsts[i], batch.sizes[i], MemoryAccess::Kind::kWrite, "dst", api);
        }
        std::memmove(batch.dsts[i], batch.srcs[i], batch.sizes[i]);
    }
    return ACL_SUCCESS;
}

aclError copy_batch_async(const CopyBatch& batch, size_t* failIndex, aclrtStream stream, const char* api) {
    const ApiScope scope(api);
    bool empty = false;
    std::shared_ptr<Stream> target;
    if (aclError status = check_batch_call(batch, true, stream, empty, failIndex, target, api);
        status != ACL_SUCCESS || empty) {
        return status;
    }
    Runtime& runtime = Runtime::instance();
    for (size_t i = 0; i < batch.count; ++i) {
        const size_t bytes = batch.sizes[i];
        const CopySides sides{runtime.classify(batch.dsts[i], bytes), runtime.classify(batch.srcs[i], bytes)};
        if (aclError status =
                submit_copy(*target, api, batch.dsts[i], batch.srcs[i], CopyShape::linear(bytes), sides, bytes, bytes);
            status != ACL_SUCCESS) {
            return status;
        }
    }
    return ACL_SUCCESS;
}

/// A device id below the configured device count.
aclError check_device_id(int64_t deviceId, const char* api) {
    if (deviceId >= 0 && deviceId < Runtime::instance().config().deviceCount) return ACL_SUCCESS;
    return param_error(ACL_ERROR_RT_INVALID_DEVICEID, "%s: device %lld does not exist", api,
                       static_cast<long long>(deviceId));
}

/// Two existing, different devices (CANN's peer access functions).
aclError check_peer_pair(int32_t deviceId, int32_t peerDeviceId, const char* api) {
    if (aclError status = check_device_id(deviceId, api); status != ACL_SUCCESS) return status;
    if (aclError status = check_device_id(peerDeviceId, api); status != ACL_SUCCESS) return status;
    if (deviceId == peerDeviceId) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: device and peer are both %d", api, deviceId);
    }
    return ACL_SUCCESS;
}

/// aclrtHostRegister(V2): a page-aligned, non-empty range, registered for the current device.
aclError register_host(void* ptr, uint64_t size, bool mapped, const char* api) {
    if (ptr == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: ptr is null", api);
    if (size == 0 || size > UINTPTR_MAX - reinterpret_cast<uintptr_t>(ptr)) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: size %llu is 0 or runs past the address space", api,
                           static_cast<unsigned long long>(size));
    }
    if (reinterpret_cast<uintptr_t>(ptr) % kNormalPageBytes != 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: %p is not aligned to a 4 KB page", api, ptr);
    }
    Device* device = nullptr;
    if (aclError status = aclcpu::detail::current_device(api, device); status != ACL_SUCCESS) return status;
    return HostRegistrations::instance().add(ptr, static_cast<size_t>(size), device->id(), mapped, api);
}

/// A location of the managed memory functions, as ManagedMemory records it.
aclError check_managed_location(const aclrtMemManagedLocation& location, const char* api,
                                ManagedMemory::Location& recorded) {
    const int64_t type = aclcpu::code_of(location.type);
    switch (type) {
        case ACL_MEM_LOCATIONTYPE_DEVICE:
            if (aclError status = check_device_id(location.id, api); status != ACL_SUCCESS) return status;
            recorded = {type, location.id};
            return ACL_SUCCESS;
        case ACL_MEM_LOCATIONTYPE_HOST:
            recorded = {type, -1};
            return ACL_SUCCESS;
        case ACL_MEM_LOCATIONTYPE_HOST_NUMA:
            if (location.id < 0) return param_error(ACL_ERROR_INVALID_PARAM, "%s: NUMA id %d", api, location.id);
            recorded = {type, location.id};
            return ACL_SUCCESS;
        case ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT: {
            unsigned cpu = 0;
            unsigned node = 0;
            if (getcpu(&cpu, &node) != 0) node = 0;
            recorded = {ACL_MEM_LOCATIONTYPE_HOST_NUMA, static_cast<int32_t>(node)};
            return ACL_SUCCESS;
        }
        default:
            return param_error(ACL_ERROR_INVALID_PARAM, "%s: location type %lld is not a valid location", api,
                               static_cast<long long>(type));
    }
}

/// A range of managed memory; `pageAligned` for the functions whose size CANN wants 2 MiB aligned.
aclError check_managed_range(const void* ptr, size_t size, bool pageAligned, const char* api) {
    if (ptr == nullptr || size == 0) return param_error(ACL_ERROR_INVALID_PARAM, "%s: ptr is null or size is 0", api);
    if (pageAligned && size % ManagedMemory::kPageBytes != 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: size %zu is not a multiple of 2 MiB", api, size);
    }
    if (!ManagedMemory::instance().contains(ptr, size)) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: [%p, +%zu) is not inside one aclrtMemAllocManaged allocation",
                           api, ptr, size);
    }
    return ACL_SUCCESS;
}

int32_t location_answer(const ManagedMemory::Location& location, int64_t attribute) {
    const bool wantsType = attribute == ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE ||
                           attribute == ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE;
    return wantsType ? static_cast<int32_t>(location.first) : location.second;
}

/// One attribute of aclrtMemManagedGetAttr(s) into data (dataSize bytes).
aclError managed_attribute(int64_t attribute, const void* ptr, size_t size, void* data, size_t dataSize,
                           const char* api) {
    if (data == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: data is null", api);
    const ManagedMemory& memory = ManagedMemory::instance();
    if (attribute == ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY) {
        if (dataSize == 0 || dataSize % sizeof(int32_t) != 0) {
            return param_error(ACL_ERROR_INVALID_PARAM, "%s: dataSize %zu is not a multiple of 4", api, dataSize);
        }
        const std::vector<ManagedMemory::Location> locations = memory.accessed_by(ptr, size);
        for (size_t i = 0; i < dataSize / sizeof(int32_t); ++i) {
            const int32_t id = i < locations.size() ? locations[i].second : ManagedMemory::kNoLocation;
            std::memcpy(static_cast<unsigned char*>(data) + i * sizeof id, &id, sizeof id);
        }
        return ACL_SUCCESS;
    }
    if (dataSize != sizeof(int32_t)) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: dataSize %zu must be 4 for attribute %lld", api, dataSize,
                           static_cast<long long>(attribute));
    }
    int32_t answer = 0;
    switch (attribute) {
        case ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY:
            answer = memory.read_mostly(ptr, size) ? 1 : 0;
            break;
        case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION:
        case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE:
        case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID:
            answer = location_answer(memory.preferred(ptr, size), attribute);
            break;
        case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION:
        case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE:
        case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID:
            answer = location_answer(memory.last_prefetch(ptr, size), attribute);
            break;
        default:
            return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown attribute %lld", api,
                               static_cast<long long>(attribute));
    }
    std::memcpy(data, &answer, sizeof answer);
    return ACL_SUCCESS;
}

/// Prefetches as the stream reaches them: the memory is where it is needed
/// already, so a prefetch only becomes the ranges' last prefetch location.
class PrefetchTask final : public DeviceTask {
public:
    struct Range {
        const void* ptr;
        size_t size;
        ManagedMemory::Location location;
    };
    PrefetchTask(const char* api, std::vector<Range> ranges) : api_(api), ranges_(std::move(ranges)) {}
    aclError run() noexcept override {
        for (const Range& range : ranges_) {
            ManagedMemory::instance().record_prefetch(range.ptr, range.size, range.location);
        }
        return ACL_SUCCESS;
    }
    const char* name() const noexcept override { return api_; }

private:
    const char* api_;
    std::vector<Range> ranges_;
};

aclError submit_prefetch(aclrtStream stream, std::vector<PrefetchTask::Range> ranges, const char* api) {
    std::shared_ptr<Stream> target;
    if (aclError status = resolve(stream, api, target); status != ACL_SUCCESS) return status;
    return target->submit(std::make_unique<PrefetchTask>(api, std::move(ranges)),
                          [api] { return aclcpu::detail::plain_work(api, "memory"); });
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

aclError aclrtMallocWithCfg(void** devPtr, size_t size, aclrtMemMallocPolicy policy, aclrtMallocConfig* cfg) {
    return allocate_with_config(devPtr, size, aclcpu::code_of(policy), cfg, "aclrtMallocWithCfg");
}

// The task scheduler of an emulated device is the host: it reads ordinary device memory.
aclError aclrtMallocForTaskScheduler(void** devPtr, size_t size, aclrtMemMallocPolicy policy, aclrtMallocConfig* cfg) {
    return allocate_with_config(devPtr, size, aclcpu::code_of(policy), cfg, "aclrtMallocForTaskScheduler");
}

aclError aclrtFree(void* devPtr) { return free_device(devPtr, false, "aclrtFree"); }

aclError aclrtFreeWithDevSync(void* devPtr) { return free_device(devPtr, true, "aclrtFreeWithDevSync"); }

aclError aclrtMallocHost(void** hostPtr, size_t size) {
    const ApiScope scope("aclrtMallocHost");
    if (hostPtr == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: hostPtr is null");
    if (size == 0) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: size is 0");
    return Runtime::instance().allocate_host(size, hostPtr);
}

aclError aclrtMallocHostWithCfg(void** ptr, uint64_t size, aclrtMallocConfig* cfg) {
    const ApiScope scope("aclrtMallocHostWithCfg");
    if (ptr == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMallocHostWithCfg: ptr is null");
    if (size == 0) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMallocHostWithCfg: size is 0");
    Device* ignored = nullptr;  // Pinned host memory belongs to no device.
    if (aclError status = check_malloc_config(cfg, "aclrtMallocHostWithCfg", ignored); status != ACL_SUCCESS) {
        return status;
    }
    static_assert(sizeof(size_t) == sizeof(uint64_t), "a 64-bit host");
    return Runtime::instance().allocate_host(static_cast<size_t>(size), ptr);
}

aclError aclrtFreeHost(void* hostPtr) {
    const ApiScope scope("aclrtFreeHost");
    if (hostPtr == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtFreeHost: hostPtr is null");
    return Runtime::instance().free_host(hostPtr);
}

aclError aclrtFreeHostWithDevSync(void* hostPtr) {
    const ApiScope scope("aclrtFreeHostWithDevSync");
    if (hostPtr == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtFreeHostWithDevSync: hostPtr is null");
    Device* device = nullptr;
    if (aclError status = aclcpu::detail::current_device("aclrtFreeHostWithDevSync", device); status != ACL_SUCCESS) {
        return status;
    }
    device->synchronize(aclcpu::detail::ProgressCounter::Clock::time_point::max());
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
    if (aclError status = aclcpu::detail::check_unsafe_call("aclrtMemcpy", ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
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
    return copy_async(dst, destMax, src, count, aclcpu::code_of(kind), stream, "aclrtMemcpyAsync");
}

aclError aclrtMemcpyAsyncWithCondition(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                                       aclrtStream stream) {
    return copy_async(dst, destMax, src, count, aclcpu::code_of(kind), stream, "aclrtMemcpyAsyncWithCondition");
}

aclError aclrtMemcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                       aclrtMemcpyKind kind) {
    return copy_2d(dst, dpitch, src, spitch, width, height, aclcpu::code_of(kind), nullptr, false, "aclrtMemcpy2d");
}

aclError aclrtMemcpy2dAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                            aclrtMemcpyKind kind, aclrtStream stream) {
    return copy_2d(dst, dpitch, src, spitch, width, height, aclcpu::code_of(kind), stream, true,
                   "aclrtMemcpy2dAsync");
}

aclError aclrtMemcpyAsyncWithOffset(void** dst, size_t destMax, size_t dstDataOffset, const void** src, size_t count,
                                    size_t srcDataOffset, aclrtMemcpyKind kind, aclrtStream stream) {
    constexpr const char* kApi = "aclrtMemcpyAsyncWithOffset";
    const ApiScope scope(kApi);
    std::shared_ptr<Stream> target;
    if (aclError status = resolve(stream, kApi, target); status != ACL_SUCCESS) return status;
    const int64_t code = aclcpu::code_of(kind);
    if (aclError status = check_indirect(dst, sizeof(void*), code, "dst", kApi); status != ACL_SUCCESS) return status;
    if (aclError status = check_indirect(src, sizeof(void*), code, "src", kApi); status != ACL_SUCCESS) return status;
    if (count > destMax) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: count %zu exceeds destMax %zu", kApi, count, destMax);
    }
    if (count == 0) return ACL_SUCCESS;
    // The base addresses are read when the stream reaches the copy: earlier work may still write them.
    auto resolveCopy = [dst, dstDataOffset, src, srcDataOffset, count] {
        return IndirectCopyTask::Copy{static_cast<unsigned char*>(*dst) + dstDataOffset,
                                      static_cast<const unsigned char*>(*src) + srcDataOffset, count};
    };
    return target->submit(std::make_unique<IndirectCopyTask>(kApi, resolveCopy), [&] {
        return ObservedTransfer(kApi, "memcpy", count,
                                {reading(src, sizeof(void*), "src"), reading(dst, sizeof(void*), "dst")});
    });
}

aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind, size_t* descSize) {
    if (descSize == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtGetMemcpyDescSize: descSize is null");
    if (aclcpu::code_of(kind) != ACL_MEMCPY_INNER_DEVICE_TO_DEVICE) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "aclrtGetMemcpyDescSize: kind %lld is not ACL_MEMCPY_INNER_DEVICE_TO_DEVICE",
                           static_cast<long long>(aclcpu::code_of(kind)));
    }
    *descSize = sizeof(MemcpyDescriptor);
    return ACL_SUCCESS;
}

aclError aclrtSetMemcpyDesc(void* desc, aclrtMemcpyKind kind, void* srcAddr, void* dstAddr, size_t count,
                            void* config) {
    constexpr const char* kApi = "aclrtSetMemcpyDesc";
    const ApiScope scope(kApi);
    if (aclError status = check_indirect(desc, sizeof(MemcpyDescriptor), aclcpu::code_of(kind), "desc", kApi);
        status != ACL_SUCCESS) {
        return status;
    }
    if (srcAddr == nullptr || dstAddr == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: srcAddr or dstAddr is null", kApi);
    }
    if (config != nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: config is reserved and must be null", kApi);
    const MemcpyDescriptor descriptor{dstAddr, srcAddr, count, 0};
    observe_host_write(desc, sizeof descriptor, kApi);
    std::memcpy(desc, &descriptor, sizeof descriptor);
    return ACL_SUCCESS;
}

aclError aclrtMemcpyAsyncWithDesc(void* desc, aclrtMemcpyKind kind, aclrtStream stream) {
    constexpr const char* kApi = "aclrtMemcpyAsyncWithDesc";
    const ApiScope scope(kApi);
    std::shared_ptr<Stream> target;
    if (aclError status = resolve(stream, kApi, target); status != ACL_SUCCESS) return status;
    if (aclError status = check_indirect(desc, sizeof(MemcpyDescriptor), aclcpu::code_of(kind), "desc", kApi);
        status != ACL_SUCCESS) {
        return status;
    }
    auto resolveCopy = [desc] {
        MemcpyDescriptor descriptor{};
        std::memcpy(&descriptor, desc, sizeof descriptor);
        return IndirectCopyTask::Copy{descriptor.dst, descriptor.src, descriptor.count};
    };
    return target->submit(std::make_unique<IndirectCopyTask>(kApi, resolveCopy), [&] {
        return ObservedTransfer(kApi, "memcpy", sizeof(MemcpyDescriptor),
                                {reading(desc, sizeof(MemcpyDescriptor), "desc")});
    });
}

aclError aclrtMemcpyBatch(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t numBatches,
                          aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes, size_t numAttrs, size_t* failIndex) {
    if (failIndex == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMemcpyBatch: failIndex is null");
    return copy_batch(CopyBatch{dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs}, failIndex,
                      "aclrtMemcpyBatch");
}

aclError aclrtMemcpyBatchV2(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t numBatches,
                            aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes, size_t numAttrs) {
    return copy_batch(CopyBatch{dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs}, nullptr,
                      "aclrtMemcpyBatchV2");
}

aclError aclrtMemcpyBatchAsync(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t numBatches,
                               aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes, size_t numAttrs, size_t* failIndex,
                               aclrtStream stream) {
    if (failIndex == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMemcpyBatchAsync: failIndex is null");
    return copy_batch_async(CopyBatch{dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs},
                            failIndex, stream, "aclrtMemcpyBatchAsync");
}

aclError aclrtMemcpyBatchAsyncV2(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t numBatches,
                                 aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes, size_t numAttrs,
                                 aclrtStream stream) {
    return copy_batch_async(CopyBatch{dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs}, nullptr,
                            stream, "aclrtMemcpyBatchAsyncV2");
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
    const ApiScope scope("aclrtMemset");
    if (aclError status = aclcpu::detail::check_unsafe_call("aclrtMemset", ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
        status != ACL_SUCCESS) {
        return status;
    }
    return fill_now(devPtr, maxCount, Fill{static_cast<uint32_t>(value), 1, count}, "aclrtMemset");
}

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
    const ApiScope scope("aclrtMemsetAsync");
    return fill_async(devPtr, maxCount, Fill{static_cast<uint32_t>(value), 1, count}, stream, false,
                      "aclrtMemsetAsync");
}

aclError aclrtMemsetD32(void* ptr, size_t memSize, uint32_t value, size_t N) {
    const ApiScope scope("aclrtMemsetD32");
    Fill fill{};
    if (!fill_of(value, sizeof(uint32_t), N, fill)) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMemsetD32: N %zu overflows the byte count", N);
    }
    return fill_now(ptr, memSize, fill, "aclrtMemsetD32");
}

aclError aclrtMemsetD32Async(void* ptr, size_t memSize, uint32_t value, size_t N, aclrtStream stream) {
    const ApiScope scope("aclrtMemsetD32Async");
    Fill fill{};
    if (!fill_of(value, sizeof(uint32_t), N, fill)) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMemsetD32Async: N %zu overflows the byte count", N);
    }
    return fill_async(ptr, memSize, fill, stream, true, "aclrtMemsetD32Async");
}

// Host and emulated devices share one coherent memory: there is no cache
// between them to write back or drop, so a flush or invalidate of a valid
// range has nothing left to do.
aclError aclrtMemFlush(void* devPtr, size_t size) {
    if (devPtr == nullptr || size == 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMemFlush: devPtr is null or size is 0");
    }
    return ACL_SUCCESS;
}

aclError aclrtMemInvalidate(void* devPtr, size_t size) {
    if (devPtr == nullptr || size == 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMemInvalidate: devPtr is null or size is 0");
    }
    return ACL_SUCCESS;
}

aclError aclrtPointerGetAttributes(const void* ptr, aclrtPtrAttributes* attributes) {
    if (ptr == nullptr || attributes == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtPointerGetAttributes: ptr or attributes is null");
    }
    *attributes = aclrtPtrAttributes{};
    Device* device = nullptr;
    const DevicePool::Lookup block = Runtime::instance().locate_device_range(ptr, 1, device);
    if (block.placement == DevicePool::Placement::kLive) {
        attributes->location = aclrtMemLocation{static_cast<uint32_t>(device->id()), ACL_MEM_LOCATION_TYPE_DEVICE};
        // CANN serves blocks of 2 MiB and more from huge pages, smaller ones from normal pages.
        attributes->pageSize = block.blockSize >= kHugePageBytes ? kHugePageBytes : kNormalPageBytes;
        return ACL_SUCCESS;
    }
    const bool pinned = Runtime::instance().classify(ptr, 1) == MemoryKind::kPinnedHost;
    attributes->location =
        aclrtMemLocation{0, pinned ? ACL_MEM_LOCATION_TYPE_HOST : ACL_MEM_LOCATION_TYPE_UNREGISTERED};
    attributes->pageSize = kNormalPageBytes;
    return ACL_SUCCESS;
}

aclError aclrtMemGetAddressRange(void* ptr, void** pbase, size_t* psize) {
    if (ptr == nullptr || pbase == nullptr || psize == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMemGetAddressRange: ptr, pbase or psize is null");
    }
    Device* device = nullptr;
    const DevicePool::Lookup block = Runtime::instance().locate_device_range(ptr, 1, device);
    if (block.placement == DevicePool::Placement::kLive) {
        *pbase = reinterpret_cast<void*>(block.block);
        *psize = static_cast<size_t>(block.blockSize);
        return ACL_SUCCESS;
    }
    if (aclcpu::detail::VirtualMemory::instance().mapped_range(ptr, pbase, psize)) return ACL_SUCCESS;
    if (Runtime::instance().pinned_range(ptr, pbase, psize)) return ACL_SUCCESS;
    return param_error(ACL_ERROR_INVALID_PARAM,
                       "aclrtMemGetAddressRange: %p is in no device block, pinned host block or mapped range", ptr);
}

aclError aclrtCheckMemType(void** addrList, uint32_t size, uint32_t memType, uint32_t* checkResult, uint32_t reserve) {
    if (addrList == nullptr || checkResult == nullptr || size == 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtCheckMemType: addrList or checkResult is null, or size is 0");
    }
    if (memType == 0 || (memType & ~(ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP)) != 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtCheckMemType: memType 0x%x is not DEV and/or DVPP", memType);
    }
    if (reserve != 0) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtCheckMemType: reserve %u is not 0", reserve);
    // Every device address here is ordinary device memory: there is no separate DVPP memory.
    const bool acceptsDevice = (memType & ACL_RT_MEM_TYPE_DEV) != 0;
    Runtime& runtime = Runtime::instance();
    *checkResult = 1;
    for (uint32_t i = 0; i < size; ++i) {
        if (!acceptsDevice || runtime.classify(addrList[i], 1) != MemoryKind::kDevice) *checkResult = 0;
    }
    return ACL_SUCCESS;
}

aclError aclrtGetMemUsageInfo(int32_t deviceId, aclrtMemUsageInfo* memUsageInfo, size_t inputNum, size_t* outputNum) {
    if (memUsageInfo == nullptr || outputNum == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtGetMemUsageInfo: memUsageInfo or outputNum is null");
    }
    if (deviceId < 0 || deviceId >= Runtime::instance().config().deviceCount) {
        return param_error(ACL_ERROR_RT_INVALID_DEVICEID, "aclrtGetMemUsageInfo: device %d does not exist", deviceId);
    }
    // One component holds device memory here: the runtime's pool (aclrtMalloc and physical memory).
    *outputNum = 0;
    if (inputNum == 0) return ACL_SUCCESS;
    Device* device = Runtime::instance().open_device(deviceId);
    memUsageInfo[0] = aclrtMemUsageInfo{};
    std::snprintf(memUsageInfo[0].name, sizeof memUsageInfo[0].name, "%s", "runtime");
    memUsageInfo[0].curMemSize = device == nullptr ? 0 : device->pool().used();
    memUsageInfo[0].memPeakSize = device == nullptr ? 0 : device->pool().peak();
    *outputNum = 1;
    return ACL_SUCCESS;
}

aclError aclrtHostRegister(void* ptr, uint64_t size, aclrtHostRegisterType type, void** devPtr) {
    constexpr const char* kApi = "aclrtHostRegister";
    const ApiScope scope(kApi);
    if (devPtr == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: devPtr is null", kApi);
    if (aclcpu::code_of(type) != ACL_HOST_REGISTER_MAPPED) {
        return aclcpu::detail::runtime_error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                             "%s: only ACL_HOST_REGISTER_MAPPED is supported, not type %lld", kApi,
                                             static_cast<long long>(aclcpu::code_of(type)));
    }
    if (aclError status = register_host(ptr, size, true, kApi); status != ACL_SUCCESS) return status;
    *devPtr = ptr;  // One address space: the device reaches the host bytes at their own address.
    return ACL_SUCCESS;
}

aclError aclrtHostRegisterV2(void* ptr, uint64_t size, uint32_t flag) {
    constexpr const char* kApi = "aclrtHostRegisterV2";
    const ApiScope scope(kApi);
    constexpr uint64_t kReservedFlags = ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY;
    constexpr uint64_t kKnownFlags = ACL_HOST_REG_MAPPED | ACL_HOST_REG_PINNED | kReservedFlags;
    if (flag == 0 || (flag & ~kKnownFlags) != 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: flag 0x%x is not a combination of ACL_HOST_REG_*", kApi, flag);
    }
    if ((flag & kReservedFlags) != 0) {
        return aclcpu::detail::runtime_error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                             "%s: ACL_HOST_REG_IOMEMORY and ACL_HOST_REG_READONLY are reserved", kApi);
    }
    if ((flag & ACL_HOST_REG_PINNED) != 0 && Runtime::instance().classify(ptr, 1) == MemoryKind::kPinnedHost) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: ACL_HOST_REG_PINNED of %p, which is already page-locked", kApi,
                           ptr);
    }
    return register_host(ptr, size, (flag & ACL_HOST_REG_MAPPED) != 0, kApi);
}

aclError aclrtHostGetDevicePointer(void* pHost, void** pDevice, uint32_t flag) {
    if (pHost == nullptr || pDevice == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtHostGetDevicePointer: pHost or pDevice is null");
    }
    if (flag != 0) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtHostGetDevicePointer: flag %u is not 0", flag);
    return HostRegistrations::instance().device_pointer(pHost, pDevice);
}

aclError aclrtHostUnregister(void* ptr) {
    const ApiScope scope("aclrtHostUnregister");
    if (ptr == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtHostUnregister: ptr is null");
    return HostRegistrations::instance().remove(ptr);
}

// Every accelerator of an emulated device is the host CPU, which reaches registered memory.
aclError aclrtHostMemMapCapabilities(uint32_t deviceId, aclrtHacType hacType, aclrtHostMemMapCapability* capabilities) {
    if (capabilities == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtHostMemMapCapabilities: capabilities is null");
    }
    if (aclError status = check_device_id(static_cast<int64_t>(deviceId), "aclrtHostMemMapCapabilities");
        status != ACL_SUCCESS) {
        return status;
    }
    const int64_t hac = aclcpu::code_of(hacType);
    if (hac < ACL_RT_HAC_TYPE_STARS || hac > ACL_RT_HAC_TYPE_CCU) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtHostMemMapCapabilities: unknown hacType %lld",
                           static_cast<long long>(hac));
    }
    *capabilities = ACL_RT_HOST_MEM_MAP_SUPPORTED;
    return ACL_SUCCESS;
}

// Emulated devices share the host's memory: any two can exchange data.
aclError aclrtDeviceCanAccessPeer(int32_t* canAccessPeer, int32_t deviceId, int32_t peerDeviceId) {
    constexpr const char* kApi = "aclrtDeviceCanAccessPeer";
    if (canAccessPeer == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: canAccessPeer is null", kApi);
    if (aclError status = check_peer_pair(deviceId, peerDeviceId, kApi); status != ACL_SUCCESS) return status;
    *canAccessPeer = 1;
    return ACL_SUCCESS;
}

aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags) {
    constexpr const char* kApi = "aclrtDeviceEnablePeerAccess";
    // The reserved flags come first, with their own code (aclrtDeviceEnablePeerAccessImpl).
    if (flags != 0) return param_error(ACL_ERROR_FEATURE_UNSUPPORTED, "%s: flags %u is not 0", kApi, flags);
    Device* device = nullptr;
    if (aclError status = aclcpu::detail::current_device(kApi, device); status != ACL_SUCCESS) return status;
    if (aclError status = check_peer_pair(device->id(), peerDeviceId, kApi); status != ACL_SUCCESS) return status;
    PeerAccess::instance().enable(device->id(), peerDeviceId);  // Enabling twice leaves it enabled.
    return ACL_SUCCESS;
}

aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId) {
    constexpr const char* kApi = "aclrtDeviceDisablePeerAccess";
    Device* device = nullptr;
    if (aclError status = aclcpu::detail::current_device(kApi, device); status != ACL_SUCCESS) return status;
    if (aclError status = check_peer_pair(device->id(), peerDeviceId, kApi); status != ACL_SUCCESS) return status;
    if (!PeerAccess::instance().disable(device->id(), peerDeviceId)) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: access from device %d to device %d is not enabled", kApi,
                           device->id(), peerDeviceId);
    }
    return ACL_SUCCESS;
}

aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId, int32_t* status) {
    constexpr const char* kApi = "aclrtDevicePeerAccessStatus";
    if (status == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: status is null", kApi);
    if (aclError result = check_device_id(deviceId, kApi); result != ACL_SUCCESS) return result;
    if (aclError result = check_device_id(peerDeviceId, kApi); result != ACL_SUCCESS) return result;
    *status = PeerAccess::instance().enabled(deviceId, peerDeviceId) ? 1 : 0;
    return ACL_SUCCESS;
}

// Every emulated device already reaches every other's memory: the mapping
// needs no page tables, only CANN's preconditions.
aclError aclrtMemP2PMap(void* devPtr, size_t size, int32_t dstDevId, uint64_t flags) {
    constexpr const char* kApi = "aclrtMemP2PMap";
    if (devPtr == nullptr || size == 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: devPtr is null or size is 0", kApi);
    }
    if (flags != 0) return param_error(ACL_ERROR_INVALID_PARAM, "%s: flags is not 0", kApi);
    if (aclError status = check_device_id(dstDevId, kApi); status != ACL_SUCCESS) return status;
    Device* owner = nullptr;
    if (Runtime::instance().locate_device_range(devPtr, size, owner).placement != DevicePool::Placement::kLive) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: [%p, +%zu) is not device memory", kApi, devPtr, size);
    }
    if (aclError status = check_peer_pair(owner->id(), dstDevId, kApi); status != ACL_SUCCESS) return status;
    if (!peers_enabled(owner->id(), dstDevId)) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID,
                           "%s: peer access between devices %d and %d is not enabled (aclrtDeviceEnablePeerAccess)",
                           kApi, owner->id(), dstDevId);
    }
    return ACL_SUCCESS;
}

aclError aclrtGetMemUceInfo(int32_t, aclrtMemUceInfo*, size_t, size_t*) { return not_supported(__func__, kNoEcc); }

aclError aclrtMemUceRepair(int32_t, aclrtMemUceInfo*, size_t) { return not_supported(__func__, kNoEcc); }

// Managed memory is device memory the host may use as well: host and
// emulated devices share one coherent memory, so nothing ever migrates.
aclError aclrtMemAllocManaged(void** ptr, uint64_t size, uint32_t flag) {
    constexpr const char* kApi = "aclrtMemAllocManaged";
    const ApiScope scope(kApi);
    if (ptr == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: ptr is null", kApi);
    if (size == 0 || size > SIZE_MAX - ManagedMemory::kPageBytes) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: size %llu is 0 or too large", kApi,
                           static_cast<unsigned long long>(size));
    }
    if (flag != ACL_RT_MEM_ATTACH_GLOBAL) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: flag %u is not ACL_RT_MEM_ATTACH_GLOBAL", kApi, flag);
    }
    Device* device = nullptr;
    if (aclError status = aclcpu::detail::current_device(kApi, device); status != ACL_SUCCESS) return status;
    // CANN rounds managed allocations up to whole 2 MiB pages.
    const size_t bytes = static_cast<size_t>((size + ManagedMemory::kPageBytes - 1) / ManagedMemory::kPageBytes *
                                             ManagedMemory::kPageBytes);
    if (aclError status = allocate_on(*device, ptr, bytes, false, kApi); status != ACL_SUCCESS) return status;
    ManagedMemory::instance().add(*ptr, bytes);
    return ACL_SUCCESS;
}

aclError aclrtMemManagedAdvise(const void* const ptr, uint64_t size, aclrtMemManagedAdviseType advise,
                               aclrtMemManagedLocation location) {
    constexpr const char* kApi = "aclrtMemManagedAdvise";
    if (aclError status = check_managed_range(ptr, static_cast<size_t>(size), true, kApi); status != ACL_SUCCESS) {
        return status;
    }
    const int64_t advice = aclcpu::code_of(advise);
    if (advice < ACL_MEM_ADVISE_SET_READ_MOSTLY || advice > ACL_MEM_ADVISE_UNSET_ACCESSED_BY) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown advice %lld", kApi, static_cast<long long>(advice));
    }
    // Read-mostly advice ignores the location, and unsetting it may name none (the host).
    const bool readMostly = advice == ACL_MEM_ADVISE_SET_READ_MOSTLY || advice == ACL_MEM_ADVISE_UNSET_READ_MOSTLY;
    ManagedMemory::Location recorded{ACL_MEM_LOCATIONTYPE_HOST, -1};
    if (!readMostly) {
        if (aclError status = check_managed_location(location, kApi, recorded); status != ACL_SUCCESS) return status;
    }
    ManagedMemory::instance().advise(ptr, static_cast<size_t>(size), advice, recorded);
    return ACL_SUCCESS;
}

aclError aclrtMemManagedGetAttr(aclrtMemManagedRangeAttribute attribute, const void* ptr, size_t size, void* data,
                                size_t dataSize) {
    constexpr const char* kApi = "aclrtMemManagedGetAttr";
    if (aclError status = check_managed_range(ptr, size, false, kApi); status != ACL_SUCCESS) return status;
    return managed_attribute(aclcpu::code_of(attribute), ptr, size, data, dataSize, kApi);
}

aclError aclrtMemManagedGetAttrs(aclrtMemManagedRangeAttribute* attributes, size_t numAttributes, const void* ptr,
                                 size_t size, void** data, size_t* dataSizes) {
    constexpr const char* kApi = "aclrtMemManagedGetAttrs";
    if (attributes == nullptr || data == nullptr || dataSizes == nullptr || numAttributes == 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: an array is null or numAttributes is 0", kApi);
    }
    if (aclError status = check_managed_range(ptr, size, false, kApi); status != ACL_SUCCESS) return status;
    for (size_t i = 0; i < numAttributes; ++i) {
        if (aclError status = managed_attribute(aclcpu::code_of(attributes[i]), ptr, size, data[i], dataSizes[i], kApi);
            status != ACL_SUCCESS) {
            return status;
        }
    }
    return ACL_SUCCESS;
}

aclError aclrtMemManagedPrefetchAsync(const void* ptr, size_t size, aclrtMemManagedLocation location, uint32_t flags,
                                      aclrtStream stream) {
    constexpr const char* kApi = "aclrtMemManagedPrefetchAsync";
    const ApiScope scope(kApi);
    if (aclError status = check_managed_range(ptr, size, true, kApi); status != ACL_SUCCESS) return status;
    if (flags != 0) return param_error(ACL_ERROR_INVALID_PARAM, "%s: flags %u is not 0", kApi, flags);
    ManagedMemory::Location recorded;
    if (aclError status = check_managed_location(location, kApi, recorded); status != ACL_SUCCESS) return status;
    return submit_prefetch(stream, {PrefetchTask::Range{ptr, size, recorded}}, kApi);
}

aclError aclrtMemManagedPrefetchBatchAsync(const void** ptrs, size_t* sizes, size_t count,
                                           aclrtMemManagedLocation* prefetchLocs, size_t* prefetchLocIdxs,
                                           size_t numPrefetchLocs, uint64_t flags, aclrtStream stream) {
    constexpr const char* kApi = "aclrtMemManagedPrefetchBatchAsync";
    const ApiScope scope(kApi);
    if (ptrs == nullptr || sizes == nullptr || prefetchLocs == nullptr || prefetchLocIdxs == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: an array argument is null", kApi);
    }
    if (count == 0 || numPrefetchLocs == 0 || numPrefetchLocs > count) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: count %zu and numPrefetchLocs %zu must satisfy 0 < %s", kApi,
                           count, numPrefetchLocs, "numPrefetchLocs <= count");
    }
    if (flags != 0) return param_error(ACL_ERROR_INVALID_PARAM, "%s: flags is not 0", kApi);
    if (aclError status = check_segment_starts(prefetchLocIdxs, numPrefetchLocs, count, kApi); status != ACL_SUCCESS) {
        return status;
    }
    std::vector<PrefetchTask::Range> ranges;
    for (size_t k = 0; k < numPrefetchLocs; ++k) {
        ManagedMemory::Location recorded;
        if (aclError status = check_managed_location(prefetchLocs[k], kApi, recorded); status != ACL_SUCCESS) {
            return status;
        }
        for (size_t i = prefetchLocIdxs[k]; i < segment_end(prefetchLocIdxs, numPrefetchLocs, k, count); ++i) {
            if (aclError status = check_managed_range(ptrs[i], sizes[i], true, kApi); status != ACL_SUCCESS) {
                return status;
            }
            ranges.push_back(PrefetchTask::Range{ptrs[i], sizes[i], recorded});
        }
    }
    return submit_prefetch(stream, std::move(ranges), kApi);
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
