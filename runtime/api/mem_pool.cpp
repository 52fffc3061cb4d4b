// acl-cpu runtime: stream-ordered memory pools (acl/acl_rt_memory_soma.h).
#include "acl/acl_rt_memory_soma.h"
#include "aclcpu/device_task.hpp"
#include "aclcpu/dtype.hpp"
#include "aclcpu/instrumentation.hpp"
#include "core/errors.hpp"
#include "core/graph_model.hpp"
#include "core/runtime_state.hpp"
#include "core/stream_ordered_pool.hpp"
#include "observe/runtime_hooks.hpp"

using aclcpu::detail::param_error;
using aclcpu::detail::Runtime;
using aclcpu::detail::StreamOrderedPool;
using aclcpu::detail::StreamOrderedPools;
using aclcpu::instrument::ApiScope;

namespace {

/// Returns ptr, a block being freed, to its pool: it is idle and may be handed out again.
void finish_free(StreamOrderedPool& pool, void* ptr) {
    // Forgotten first: once idle, the block may be handed out (and owned) again.
    StreamOrderedPools::instance().forget(ptr);
    pool.complete_free(ptr);
}

/// The free of aclrtMemPoolFreeAsync, when the stream reaches it.
class PoolFreeTask final : public aclcpu::DeviceTask {
public:
    PoolFreeTask(std::shared_ptr<StreamOrderedPool> pool, void* ptr) : pool_(std::move(pool)), ptr_(ptr) {}
    aclError run() noexcept override {
        finish_free(*pool_, ptr_);
        return ACL_SUCCESS;
    }
    const char* name() const noexcept override { return "aclrtMemPoolFreeAsync"; }

private:
    std::shared_ptr<StreamOrderedPool> pool_;
    void* ptr_;
};

/// A free on a captured stream: the block stays the model's until the model
/// is destroyed, since every replay may still use it (CANN's source accepts
/// the call in a capture, api_impl_soma.cc; acl-cpu cannot hand the block
/// back at each replay, as another replay or the program may hold it by
/// then).  False when the stream is not captured.
bool capture_free(aclcpu::detail::Stream& stream, const std::shared_ptr<StreamOrderedPool>& pool, void* ptr) {
    const std::shared_ptr<aclcpu::detail::GraphModel> model = stream.capturing_model();
    if (!model) return false;
    model->keep_until_destroyed(std::shared_ptr<void>(ptr, [pool](void* block) { finish_free(*pool, block); }));
    return true;
}

aclError resolve_pool(aclrtMemPool memPool, const char* api, std::shared_ptr<StreamOrderedPool>& pool) {
    if (memPool == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: memPool is null", api);
    pool = StreamOrderedPools::instance().find(memPool);
    if (!pool) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: %p is not a live memory pool (never created, or destroyed)",
                           api, memPool);
    }
    return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtMemPoolCreate(aclrtMemPool* memPool, const aclrtMemPoolProps* poolProps) {
    constexpr const char* kApi = "aclrtMemPoolCreate";
    if (memPool == nullptr || poolProps == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: memPool or poolProps is null", kApi);
    }
    if (aclcpu::code_of(poolProps->allocType) != ACL_MEM_ALLOCATION_TYPE_PINNED ||
        aclcpu::code_of(poolProps->handleType) != ACL_MEM_HANDLE_TYPE_NONE) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "%s: allocType must be ACL_MEM_ALLOCATION_TYPE_PINNED, handleType ACL_MEM_HANDLE_TYPE_NONE",
                           kApi);
    }
    if (aclcpu::code_of(poolProps->location.type) != ACL_MEM_LOCATION_TYPE_DEVICE) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: a pool holds device memory (location type DEVICE)", kApi);
    }
    const auto device = static_cast<int32_t>(poolProps->location.id);
    if (Runtime::instance().open_device(device) == nullptr) {
        return param_error(ACL_ERROR_RT_INVALID_DEVICEID, "%s: device %d is not open (aclrtSetDevice it)", kApi,
                           device);
    }
    *memPool = StreamOrderedPools::instance().create(device, poolProps->maxSize);
    return ACL_SUCCESS;
}

aclError aclrtMemPoolDestroy(const aclrtMemPool memPool) {
    if (memPool == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMemPoolDestroy: memPool is null");
    if (!StreamOrderedPools::instance().destroy(memPool)) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemPoolDestroy: %p is not a live memory pool", memPool);
    }
    return ACL_SUCCESS;
}

aclError aclrtMemPoolSetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void* value) {
    std::shared_ptr<StreamOrderedPool> pool;
    if (aclError status = resolve_pool(memPool, "aclrtMemPoolSetAttr", pool); status != ACL_SUCCESS) return status;
    if (value == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMemPoolSetAttr: value is null");
    return pool->set_attribute(aclcpu::code_of(attr), value);
}

aclError aclrtMemPoolGetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void* value) {
    std::shared_ptr<StreamOrderedPool> pool;
    if (aclError status = resolve_pool(memPool, "aclrtMemPoolGetAttr", pool); status != ACL_SUCCESS) return status;
    if (value == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMemPoolGetAttr: value is null");
    return pool->get_attribute(aclcpu::code_of(attr), value);
}

// The block is handed out at once (its address is known to the caller now);
// blocks only come back to the pool in stream order, so none is in use by
// earlier work on any stream.  On a captured stream too: the block is
// allocated once, at the call, as CANN's source does (api_impl_soma.cc), and
// every replay uses it.
aclError aclrtMemPoolMallocAsync(void** ptr, size_t size, aclrtMemPool memPool, aclrtStream stream) {
    constexpr const char* kApi = "aclrtMemPoolMallocAsync";
    const ApiScope scope(kApi);
    if (ptr == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: ptr is null", kApi);
    if (size == 0) return param_error(ACL_ERROR_INVALID_PARAM, "%s: size is 0", kApi);
    std::shared_ptr<StreamOrderedPool> pool;
    if (aclError status = resolve_pool(memPool, kApi, pool); status != ACL_SUCCESS) return status;
    std::shared_ptr<aclcpu::detail::Stream> target;
    if (aclError status = Runtime::instance().resolve_work_stream(stream, kApi, target); status != ACL_SUCCESS) {
        return status;
    }
    return StreamOrderedPools::instance().allocate(pool, size, ptr);
}

aclError aclrtMemPoolFreeAsync(void* ptr, aclrtStream stream) {
    constexpr const char* kApi = "aclrtMemPoolFreeAsync";
    const ApiScope scope(kApi);
    if (ptr == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: ptr is null", kApi);
    std::shared_ptr<aclcpu::detail::Stream> target;
    if (aclError status = Runtime::instance().resolve_work_stream(stream, kApi, target); status != ACL_SUCCESS) {
        return status;
    }
    std::shared_ptr<StreamOrderedPool> pool = StreamOrderedPools::instance().begin_free(ptr);
    if (!pool) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID,
                           "%s: %p is not memory of aclrtMemPoolMallocAsync in use (never allocated, or freed)", kApi,
                           ptr);
    }
    if (target->is_captured() && capture_free(*target, pool, ptr)) return ACL_SUCCESS;
    return target->submit(std::make_unique<PoolFreeTask>(std::move(pool), ptr),
                          [] { return aclcpu::detail::plain_work("aclrtMemPoolFreeAsync", "memory"); });
}

aclError aclrtMemPoolTrimTo(aclrtMemPool memPool, size_t minBytesToKeep) {
    std::shared_ptr<StreamOrderedPool> pool;
    if (aclError status = resolve_pool(memPool, "aclrtMemPoolTrimTo", pool); status != ACL_SUCCESS) return status;
    pool->trim_to(minBytesToKeep);
    return ACL_SUCCESS;
}

}  // extern "C"
