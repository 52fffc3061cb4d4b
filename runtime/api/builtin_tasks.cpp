// acl-cpu runtime: the built-in device tasks (acl_rt.h): reductions, random
// numbers and cache maintenance, submitted to a stream and run in its order
// like any task, without user code (dev_guide 03-04_system_tasks.md).
//
// Cache maintenance: on an NPU, CMO tasks move lines between HBM and the
// L2 cache that AI Cores and DMA engines do not keep coherent by
// themselves.  acl-cpu's device memory is host memory behind coherent CPU
// caches: every worker already sees every write, so no prefetch, write-back,
// invalidation or flush can change what any later task reads.  A CMO task
// here is therefore exactly its argument checks and its place in stream
// order (work after it still waits for it, an event recorded after it
// completes after it); that is the whole of its observable meaning.
#include "core/builtin_tasks.hpp"

#include <array>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "aclcpu/dtype.hpp"
#include "aclcpu/instrumentation.hpp"
#include "aclcpu/memcheck.hpp"
#include "api/unsupported.hpp"
#include "core/errors.hpp"
#include "core/runtime_state.hpp"
#include "observe/runtime_hooks.hpp"

using aclcpu::DeviceAccess;
using aclcpu::detail::Device;
using aclcpu::detail::DevicePool;
using aclcpu::detail::param_error;
using aclcpu::detail::RandomDistribution;
using aclcpu::detail::RandomRequest;
using aclcpu::detail::RandomValue;
using aclcpu::detail::ReduceOp;
using aclcpu::detail::Runtime;
using aclcpu::detail::Stream;
using aclcpu::instrument::ApiScope;
using aclcpu::instrument::MemoryAccess;

namespace {

constexpr char kTaskUpdateWhy[] =
    "it rewrites a task already captured in a model runtime instance's stream (aclmdlRIBindStream); acl-cpu runs "
    "each task once and keeps no captured task to update";

/// A built-in task: `work` runs when the stream reaches it, after the device
/// ranges it touches passed the memory check (when memory checking is on).
class BuiltinTask final : public aclcpu::DeviceTask {
public:
    BuiltinTask(const char* name, std::vector<DeviceAccess> ranges, std::function<aclError()> work)
        : name_(name), ranges_(std::move(ranges)), work_(std::move(work)) {}
    aclError run() noexcept override {
        if (aclcpu::memcheck_enabled() && !ranges_.empty()) {
            if (aclError fault = aclcpu::check_device_accesses(name_, ranges_.data(), ranges_.size());
                fault != ACL_SUCCESS) {
                return fault;
            }
        }
        return work_();
    }
    const char* name() const noexcept override { return name_; }

private:
    const char* name_;
    std::vector<DeviceAccess> ranges_;
    std::function<aclError()> work_;
};

/// Submits a built-in task touching the device ranges `accesses` names:
/// observers see it as a "task" with them, the memory check checks them.
/// Returns the submission's status (Stream::submit).
aclError submit(Stream& stream, const char* name, std::vector<MemoryAccess> accesses, std::function<aclError()> work) {
    std::vector<DeviceAccess> ranges;
    for (const MemoryAccess& access : accesses) {
        ranges.push_back(DeviceAccess{access.begin, access.bytes, access.role, -1});
    }
    return stream.submit(std::make_unique<BuiltinTask>(name, std::move(ranges), std::move(work)), [&] {
        aclcpu::instrument::WorkInfo work = aclcpu::detail::plain_work(name, "task");
        work.accesses = accesses.data();
        work.accessCount = accesses.size();
        return work;
    });
}

MemoryAccess reading(const void* begin, uint64_t bytes, const char* role) {
    return MemoryAccess{begin, bytes, MemoryAccess::Kind::kRead, role};
}

MemoryAccess writing(const void* begin, uint64_t bytes, const char* role) {
    return MemoryAccess{begin, bytes, MemoryAccess::Kind::kWrite, role};
}

/// [address, +bytes) must lie inside one live aclrtMalloc block of device:
/// built-in tasks run on the engines of their stream's device.
aclError check_device_range(const Device& device, const void* address, uint64_t bytes, const char* api,
                            const char* role) {
    if (address == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: %s is null", api, role);
    // The device's own pool, not the runtime's lookup: tasks run this check too,
    // and a worker must not take the runtime's lock a draining host thread may hold.
    if (device.pool().inspect(address, bytes).placement != DevicePool::Placement::kLive) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: %s [%p, +%llu) is not inside device memory of device %d", api,
                           role, address, static_cast<unsigned long long>(bytes), device.id());
    }
    return ACL_SUCCESS;
}

aclError check_reserved_null(const void* reserve, const char* api) {
    if (reserve == nullptr) return ACL_SUCCESS;
    return param_error(ACL_ERROR_INVALID_PARAM, "%s: the reserved argument must be NULL", api);
}

// ---- reductions ----------------------------------------------------------------

/// CANN's reduce kinds; EQUAL has no documented result, so it is refused as
/// CANN refuses a kind the SoC's DMA engine lacks.
aclError reduce_op_of(int64_t kind, ReduceOp& op) {
    switch (kind) {
        case ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM:
            op = ReduceOp::kSum;
            return ACL_SUCCESS;
        case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX:
            op = ReduceOp::kMax;
            return ACL_SUCCESS;
        case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN:
            op = ReduceOp::kMin;
            return ACL_SUCCESS;
        case ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL:
            return aclcpu::detail::runtime_error(
                ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "aclrtReduceAsync: ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL has no documented result; acl-cpu "
                "supports SUM, MAX and MIN");
        default:
            return param_error(ACL_ERROR_INVALID_PARAM, "aclrtReduceAsync: unknown reduce kind %lld",
                               static_cast<long long>(kind));
    }
}

/// A reducible dtype, a whole number of its elements, both ends aligned to one.
aclError check_reduce_layout(const void* dst, const void* src, uint64_t count, int64_t type) {
    constexpr const char* api = "aclrtReduceAsync";
    if (!aclcpu::is_dtype_code(type)) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown data type %lld", api, static_cast<long long>(type));
    }
    const aclDataType dtype = aclcpu::dtype_from_code(type);
    if (!aclcpu::detail::is_reducible(dtype)) {
        return aclcpu::detail::runtime_error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                             "%s: %s is not reducible (an Atlas A2 reduces int8, int16, int32, "
                                             "float16, float and bfloat16)",
                                             api, aclcpu::dtype_name(type));
    }
    const auto size = static_cast<uint64_t>(aclcpu::element_size(dtype));
    if (count == 0 || count % size != 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: count %llu bytes is not a positive multiple of %s's %llu", api,
                           static_cast<unsigned long long>(count), aclcpu::dtype_name(type),
                           static_cast<unsigned long long>(size));
    }
    if (reinterpret_cast<uintptr_t>(dst) % size != 0 || reinterpret_cast<uintptr_t>(src) % size != 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: dst %p or src %p is not aligned to %s's %llu bytes", api, dst,
                           src, aclcpu::dtype_name(type), static_cast<unsigned long long>(size));
    }
    return ACL_SUCCESS;
}

// ---- random numbers --------------------------------------------------------------

/// Philox's 128-bit counter, read from randomCounterAddr.
constexpr uint64_t kPhiloxCounterBytes = 16;

/// One aclrtRandomParaInfo: its value now, or the device address it is
/// read from when the task runs.
struct RandomParameter {
    const void* address = nullptr;  ///< Non-null: read `bytes` from here when the task runs.
    RandomValue value = 0;
    uint8_t bytes = 0;

    RandomValue read() const {
        if (address == nullptr) return value;
        RandomValue loaded = 0;
        std::memcpy(&loaded, address, bytes);
        return loaded;
    }
};

bool is_random_dtype(int64_t code) {
    return code == ACL_INT32 || code == ACL_INT64 || code == ACL_UINT32 || code == ACL_UINT64 || code == ACL_BF16 ||
           code == ACL_FLOAT16 || code == ACL_FLOAT;
}

/// Reads info as a value of `bytes` bytes (isAddr 0: the value's first bytes;
/// isAddr 1: an address of device memory holding it).
aclError parse_parameter(const Device& device, const aclrtRandomParaInfo& info, uint8_t bytes, const char* role,
                         RandomParameter& parameter) {
    constexpr const char* api = "aclrtRandomNumAsync";
    parameter.bytes = bytes;
    if (info.isAddr == 0) {
        std::memcpy(&parameter.value, info.valueOrAddr, bytes);
        return ACL_SUCCESS;
    }
    if (info.isAddr != 1) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: %s.isAddr is %u, neither 0 nor 1", api, role, info.isAddr);
    }
    std::memcpy(&parameter.address, info.valueOrAddr, sizeof parameter.address);
    return check_device_range(device, parameter.address, bytes, api, role);
}

aclError distribution_of(int64_t funcType, aclDataType dtype, RandomDistribution& distribution) {
    constexpr const char* api = "aclrtRandomNumAsync";
    switch (funcType) {
        case ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS:
            distribution = RandomDistribution::kUniform;
            return ACL_SUCCESS;
        case ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK:
            distribution = RandomDistribution::kDropoutBitmask;
            break;
        case ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS:
            distribution = RandomDistribution::kNormal;
            break;
        case ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS:
            distribution = RandomDistribution::kTruncatedNormal;
            break;
        default:
            return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown funcType %lld", api,
                               static_cast<long long>(funcType));
    }
    if (aclcpu::is_floating(dtype)) return ACL_SUCCESS;
    return param_error(ACL_ERROR_INVALID_PARAM,
                       "%s: funcType %lld takes a floating data type (float, float16, bfloat16), not %s", api,
                       static_cast<long long>(funcType), aclcpu::dtype_name(dtype));
}

/// Everything a random-number task needs, its parameters possibly still in device memory.
struct RandomTask {
    RandomDistribution distribution;
    aclDataType dtype;
    RandomParameter first;
    RandomParameter second;
    RandomParameter seed;
    RandomParameter count;
    const void* counter;
    void* result;

    /// The request with its parameters read (from device memory, for those
    /// given by address); the counter is read by request().
    RandomRequest parameters() const {
        return RandomRequest{distribution, dtype, first.read(), second.read(), seed.read(), {}, count.read(), result};
    }
    RandomRequest request() const {
        RandomRequest request = parameters();
        std::memcpy(request.counter.data(), counter, sizeof request.counter);
        return request;
    }
    /// The parameters' and the result range's checks, once their values are known.
    aclError check(const RandomRequest& request, const Device& device) const {
        constexpr const char* api = "aclrtRandomNumAsync";
        if (const char* problem = aclcpu::detail::random_parameter_problem(request); *problem != '\0') {
            return param_error(ACL_ERROR_INVALID_PARAM, "%s: %s", api, problem);
        }
        if (request.count == 0 || request.count > (UINT64_MAX >> 4)) {
            return param_error(ACL_ERROR_INVALID_PARAM, "%s: randomNum %llu is 0 or too large", api,
                               static_cast<unsigned long long>(request.count));
        }
        return check_device_range(device, result,
                                  aclcpu::detail::random_result_bytes(distribution, dtype, request.count), api,
                                  "randomResultAddr");
    }
    bool known_now() const {
        return first.address == nullptr && second.address == nullptr && seed.address == nullptr &&
               count.address == nullptr;
    }
};

aclError parse_random_task(const Device& device, const aclrtRandomNumTaskInfo& info, RandomTask& task) {
    constexpr const char* api = "aclrtRandomNumAsync";
    const int64_t type = aclcpu::code_of(info.dataType);
    if (!is_random_dtype(type)) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "%s: data type %lld is not one of int32, int64, uint32, uint64, bfloat16, float16, float",
                           api, static_cast<long long>(type));
    }
    task.dtype = aclcpu::dtype_from_code(type);
    const aclrtRandomNumFuncParaInfo& function = info.randomNumFuncParaInfo;
    if (aclError status = distribution_of(aclcpu::code_of(function.funcType), task.dtype, task.distribution);
        status != ACL_SUCCESS) {
        return status;
    }
    // The union's members share their layout: the first parameter is min,
    // mean or the ratio, the second max or stddev.
    const aclrtRandomParaInfo& first = function.paramInfo.normalDisInfo.mean;
    const aclrtRandomParaInfo& second = function.paramInfo.normalDisInfo.stddev;
    const auto valueBytes = static_cast<uint8_t>(aclcpu::element_size(task.dtype));
    const bool hasSecond = task.distribution != RandomDistribution::kDropoutBitmask;
    if (aclError status = parse_parameter(device, first, valueBytes, "the first parameter", task.first);
        status != ACL_SUCCESS) {
        return status;
    }
    if (hasSecond) {
        if (aclError status = parse_parameter(device, second, valueBytes, "the second parameter", task.second);
            status != ACL_SUCCESS) {
            return status;
        }
    }
    if (aclError status = parse_parameter(device, info.randomSeed, sizeof(uint64_t), "randomSeed", task.seed);
        status != ACL_SUCCESS) {
        return status;
    }
    if (aclError status = parse_parameter(device, info.randomNum, sizeof(uint64_t), "randomNum", task.count);
        status != ACL_SUCCESS) {
        return status;
    }
    task.counter = info.randomCounterAddr;
    task.result = info.randomResultAddr;
    if (aclError status = check_device_range(device, task.counter, kPhiloxCounterBytes, api, "randomCounterAddr");
        status != ACL_SUCCESS) {
        return status;
    }
    if (info.randomParaAddr != nullptr) {
        return check_device_range(device, info.randomParaAddr, 1, api, "randomParaAddr");
    }
    return ACL_SUCCESS;
}

// ---- cache maintenance ---------------------------------------------------------

/// What aclrtCmoSetDesc records in device memory and aclrtCmoAsyncWithDesc
/// reads back when its task runs.
struct CmoDescriptor {
    void* src;
    uint64_t size;
};

aclError check_cmo_type(int64_t type, const char* api) {
    if (type >= ACL_RT_CMO_TYPE_PREFETCH && type <= ACL_RT_CMO_TYPE_FLUSH) return ACL_SUCCESS;
    return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown cmoType %lld", api, static_cast<long long>(type));
}

/// aclrtCmoAsync and aclrtCmoAsyncWithDesc take prefetches only (11-06_CMO_memory_operation.md).
aclError check_prefetch(int64_t type, const char* api) {
    if (aclError status = check_cmo_type(type, api); status != ACL_SUCCESS) return status;
    if (type == ACL_RT_CMO_TYPE_PREFETCH) return ACL_SUCCESS;
    return aclcpu::detail::runtime_error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                         "%s: cmoType %lld; only ACL_RT_CMO_TYPE_PREFETCH is supported", api,
                                         static_cast<long long>(type));
}

aclError check_cmo_range(const Device& device, const void* src, size_t size, const char* api) {
    if (size == 0) return param_error(ACL_ERROR_INVALID_PARAM, "%s: size is 0", api);
    return check_device_range(device, src, size, api, "src");
}

/// A CMO task: its place in stream order and the range it names (see the top of this file).
aclError submit_cmo(Stream& stream, const char* api, const void* src, size_t size) {
    return submit(stream, api, {reading(src, size, "src")}, [] { return ACL_SUCCESS; });
}

}  // namespace

extern "C" {

aclError aclrtReduceAsync(void* dst, const void* src, uint64_t count, aclrtReduceKind kind, aclDataType type,
                          aclrtStream stream, void* reserve) {
    constexpr const char* api = "aclrtReduceAsync";
    const ApiScope scope(api);
    if (aclError status = check_reserved_null(reserve, api); status != ACL_SUCCESS) return status;
    if (dst == nullptr || src == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: dst or src is null", api);
    ReduceOp op{};
    if (aclError status = reduce_op_of(aclcpu::code_of(kind), op); status != ACL_SUCCESS) return status;
    const int64_t typeCode = aclcpu::code_of(type);
    if (aclError status = check_reduce_layout(dst, src, count, typeCode); status != ACL_SUCCESS) return status;
    std::shared_ptr<Stream> target;
    if (aclError status = Runtime::instance().resolve_work_stream(stream, api, target); status != ACL_SUCCESS) {
        return status;
    }
    if (aclError status = check_device_range(target->device(), dst, count, api, "dst"); status != ACL_SUCCESS)
        return status;
    if (aclError status = check_device_range(target->device(), src, count, api, "src"); status != ACL_SUCCESS)
        return status;
    const aclDataType dtype = aclcpu::dtype_from_code(typeCode);
    const uint64_t elements = count / static_cast<uint64_t>(aclcpu::element_size(dtype));
    return submit(*target, api, {reading(src, count, "src"), writing(dst, count, "dst")}, [=] {
        aclcpu::detail::reduce_into(dst, src, elements, dtype, op);
        return ACL_SUCCESS;
    });
}

aclError aclrtRandomNumAsync(const aclrtRandomNumTaskInfo* taskInfo, const aclrtStream stream, void* reserve) {
    constexpr const char* api = "aclrtRandomNumAsync";
    const ApiScope scope(api);
    if (aclError status = check_reserved_null(reserve, api); status != ACL_SUCCESS) return status;
    if (taskInfo == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: taskInfo is null", api);
    std::shared_ptr<Stream> target;
    if (aclError status = Runtime::instance().resolve_work_stream(stream, api, target); status != ACL_SUCCESS) {
        return status;
    }
    RandomTask task{};
    if (aclError status = parse_random_task(target->device(), *taskInfo, task); status != ACL_SUCCESS) return status;
    std::vector<MemoryAccess> accesses{reading(task.counter, kPhiloxCounterBytes, "randomCounterAddr")};
    // Parameters given by value are checked now; those in device memory when the stream reads them.
    if (task.known_now()) {
        const RandomRequest parameters = task.parameters();
        if (aclError status = task.check(parameters, target->device()); status != ACL_SUCCESS) return status;
        accesses.push_back(writing(task.result,
                                   aclcpu::detail::random_result_bytes(task.distribution, task.dtype, parameters.count),
                                   "randomResultAddr"));
    }
    const Device* device = &target->device();
    return submit(*target, api, std::move(accesses), [task, device] {
        const RandomRequest request = task.request();
        if (aclError status = task.check(request, *device); status != ACL_SUCCESS) return status;
        aclcpu::detail::generate_random(request);
        return ACL_SUCCESS;
    });
}

aclError aclrtCmoAsync(void* src, size_t size, aclrtCmoType cmoType, aclrtStream stream) {
    constexpr const char* api = "aclrtCmoAsync";
    const ApiScope scope(api);
    if (aclError status = check_prefetch(aclcpu::code_of(cmoType), api); status != ACL_SUCCESS) return status;
    std::shared_ptr<Stream> target;
    if (aclError status = Runtime::instance().resolve_work_stream(stream, api, target); status != ACL_SUCCESS) {
        return status;
    }
    if (aclError status = check_cmo_range(target->device(), src, size, api); status != ACL_SUCCESS) return status;
    return submit_cmo(*target, api, src, size);
}

aclError aclrtCmoAsyncWithBarrier(void* src, size_t size, aclrtCmoType cmoType, uint32_t barrierId,
                                  aclrtStream stream) {
    constexpr const char* api = "aclrtCmoAsyncWithBarrier";
    const ApiScope scope(api);
    const int64_t type = aclcpu::code_of(cmoType);
    if (aclError status = check_cmo_type(type, api); status != ACL_SUCCESS) return status;
    // Only an invalidation carries a barrier (a positive id); every other type passes 0.
    if ((type == ACL_RT_CMO_TYPE_INVALID) != (barrierId > 0)) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "%s: barrierId %u; an ACL_RT_CMO_TYPE_INVALID task takes a barrierId > 0, any other "
                           "type 0",
                           api, barrierId);
    }
    std::shared_ptr<Stream> target;
    if (aclError status = Runtime::instance().resolve_work_stream(stream, api, target); status != ACL_SUCCESS) {
        return status;
    }
    if (aclError status = check_cmo_range(target->device(), src, size, api); status != ACL_SUCCESS) return status;
    return submit_cmo(*target, api, src, size);
}

/// The invalidations it waits for precede it on the stream, so stream order
/// already completes them first.
aclError aclrtCmoWaitBarrier(aclrtBarrierTaskInfo* taskInfo, aclrtStream stream, uint32_t flag) {
    constexpr const char* api = "aclrtCmoWaitBarrier";
    const ApiScope scope(api);
    if (taskInfo == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: taskInfo is null", api);
    if (flag != 0) return param_error(ACL_ERROR_INVALID_PARAM, "%s: flag %u is reserved and must be 0", api, flag);
    if (taskInfo->barrierNum == 0 || taskInfo->barrierNum > ACL_RT_CMO_MAX_BARRIER_NUM) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: barrierNum %zu is not in [1, %u]", api, taskInfo->barrierNum,
                           ACL_RT_CMO_MAX_BARRIER_NUM);
    }
    for (size_t i = 0; i < taskInfo->barrierNum; ++i) {
        const aclrtBarrierCmoInfo& barrier = taskInfo->cmoInfo[i];
        if (aclcpu::code_of(barrier.cmoType) != ACL_RT_CMO_TYPE_INVALID || barrier.barrierId == 0) {
            return param_error(ACL_ERROR_INVALID_PARAM,
                               "%s: cmoInfo[%zu] must name an ACL_RT_CMO_TYPE_INVALID barrier with an id > 0", api, i);
        }
    }
    std::shared_ptr<Stream> target;
    if (aclError status = Runtime::instance().resolve_work_stream(stream, api, target); status != ACL_SUCCESS) {
        return status;
    }
    return submit(*target, api, {}, [] { return ACL_SUCCESS; });
}

aclError aclrtCmoGetDescSize(size_t* size) {
    constexpr const char* api = "aclrtCmoGetDescSize";
    if (size == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: size is null", api);
    aclcpu::detail::Device* device = nullptr;
    if (aclError status = aclcpu::detail::current_device(api, device); status != ACL_SUCCESS) return status;
    *size = sizeof(CmoDescriptor);
    return ACL_SUCCESS;
}

aclError aclrtCmoSetDesc(void* cmoDesc, void* src, size_t size) {
    constexpr const char* api = "aclrtCmoSetDesc";
    const ApiScope scope(api);
    Device* device = nullptr;
    if (aclError status = aclcpu::detail::current_device(api, device); status != ACL_SUCCESS) return status;
    if (aclError status = check_device_range(*device, cmoDesc, sizeof(CmoDescriptor), api, "cmoDesc");
        status != ACL_SUCCESS) {
        return status;
    }
    if (aclError status = check_cmo_range(*device, src, size, api); status != ACL_SUCCESS) return status;
    const CmoDescriptor descriptor{src, size};
    std::memcpy(cmoDesc, &descriptor, sizeof descriptor);
    return ACL_SUCCESS;
}

/// The descriptor is read when the task runs (CANN's "second-level
/// pointer"): a later aclrtCmoSetDesc on the host, or a copy into it on the
/// stream, changes the range the task names.
aclError aclrtCmoAsyncWithDesc(void* cmoDesc, aclrtCmoType cmoType, aclrtStream stream, const void* reserve) {
    constexpr const char* api = "aclrtCmoAsyncWithDesc";
    const ApiScope scope(api);
    if (aclError status = check_reserved_null(reserve, api); status != ACL_SUCCESS) return status;
    if (aclError status = check_prefetch(aclcpu::code_of(cmoType), api); status != ACL_SUCCESS) return status;
    std::shared_ptr<Stream> target;
    if (aclError status = Runtime::instance().resolve_work_stream(stream, api, target); status != ACL_SUCCESS) {
        return status;
    }
    if (aclError status = check_device_range(target->device(), cmoDesc, sizeof(CmoDescriptor), api, "cmoDesc");
        status != ACL_SUCCESS) {
        return status;
    }
    const Device* device = &target->device();
    return submit(*target, api, {reading(cmoDesc, sizeof(CmoDescriptor), "cmoDesc")}, [cmoDesc, device] {
        CmoDescriptor descriptor{};
        std::memcpy(&descriptor, cmoDesc, sizeof descriptor);
        return check_cmo_range(*device, descriptor.src, descriptor.size, "aclrtCmoAsyncWithDesc");
    });
}

/// The host's caches are coherent with every worker: there is nothing to
/// write back (see the top of this file), only the call's own checks.
aclError aclrtDeviceL2CacheFlush(void* rsv) {
    constexpr const char* api = "aclrtDeviceL2CacheFlush";
    if (aclError status = check_reserved_null(rsv, api); status != ACL_SUCCESS) return status;
    Device* device = nullptr;
    return aclcpu::detail::current_device(api, device);
}

aclError aclrtTaskUpdateAsync(aclrtStream, uint32_t, aclrtTaskUpdateInfo*, aclrtStream) {
    return aclcpu::api::not_supported(__func__, kTaskUpdateWhy);
}

}  // extern "C"
