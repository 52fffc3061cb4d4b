// acl-cpu runtime API: streams (acl_rt.h) -- creation and configuration,
// priorities, failure modes, attributes, core limits, abort and the stream
// state callbacks.
#include <cstring>
#include <memory>

#include "acl/acl_rt.h"
#include "aclcpu/dtype.hpp"
#include "aclcpu/instrumentation.hpp"
#include "api/arguments.hpp"
#include "api/unsupported.hpp"
#include "core/condition_wait.hpp"
#include "core/errors.hpp"
#include "core/graph_capture.hpp"
#include "core/handle_registry.hpp"
#include "core/named_callbacks.hpp"
#include "core/runtime_state.hpp"
#include "observe/runtime_hooks.hpp"

using aclcpu::api::resolve_event_and_stream;
using aclcpu::api::check_timeout;
using aclcpu::api::not_supported;
using aclcpu::detail::current_device;
using aclcpu::detail::deadline_after;
using aclcpu::detail::register_named;
using aclcpu::detail::Device;
using aclcpu::detail::Event;
using aclcpu::detail::HandleRegistry;
using aclcpu::detail::kHighestStreamPriority;
using aclcpu::detail::kLowestStreamPriority;
using aclcpu::detail::NamedCallbacks;
using aclcpu::detail::param_error;
using aclcpu::detail::Runtime;
using aclcpu::detail::runtime_error;
using aclcpu::detail::Stream;
using aclcpu::instrument::ApiScope;

namespace {

/// Flags that make a stream serve AI CPU scheduling or device-side
/// launches, neither of which exists on the emulation.
constexpr uint32_t kUnsupportedStreamFlags = ACL_STREAM_CPU_SCHEDULE | ACL_STREAM_DEVICE_USE_ONLY;

constexpr char kNoPreemption[] =
    "a task already running on a CPU worker cannot be halted midway, and a stopped stream's kept tasks could only "
    "be resumed by the hardware's snapshot restore";

/// Every config handle aclrtCreateStreamConfigHandle has issued and not destroyed.
HandleRegistry<aclrtStreamConfigHandle>& config_handles() {
    static HandleRegistry<aclrtStreamConfigHandle> registry;
    return registry;
}

NamedCallbacks<aclrtStreamStateCallback>& stream_state_callbacks() {
    static NamedCallbacks<aclrtStreamStateCallback> callbacks;
    return callbacks;
}

/// A stream priority as CANN's runtime takes it: the value travels as
/// int32_t and is clamped silently to [0, 7] (ApiErrorDecorator::StreamCreate
/// and ::SetStreamPriorityValue), so 2^31 and above become 0.
uint32_t clamp_stream_priority(uint32_t priority) {
    const auto value = static_cast<int32_t>(priority);
    if (value < static_cast<int32_t>(kHighestStreamPriority)) return kHighestStreamPriority;
    return value > static_cast<int32_t>(kLowestStreamPriority) ? kLowestStreamPriority : priority;
}

aclError create_stream(const char* api, aclrtStream* stream, uint32_t flags, uint32_t priority) {
    if (stream == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: stream is null", api);
    if ((flags & kUnsupportedStreamFlags) != 0) {
        return runtime_error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                             "%s: flag 0x%x asks for an AI CPU scheduling or device-only stream, which serves "
                             "device-side launches that acl-cpu does not have",
                             api, flags & kUnsupportedStreamFlags);
    }
    if (aclError status = Runtime::instance().create_stream(flags, stream, clamp_stream_priority(priority));
        status != ACL_SUCCESS) {
        return status;
    }
    stream_state_callbacks().notify(*stream, ACL_RT_STREAM_STATE_CREATE_POST);
    return ACL_SUCCESS;
}

aclError destroy_stream(aclrtStream handle, const char* api) {
    if (handle == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: stream is null", api);
    std::shared_ptr<Stream> stream;
    if (aclError status = Runtime::instance().resolve_stream(handle, api, stream); status != ACL_SUCCESS) return status;
    if (stream->is_default()) {
        // CANN's runtime has no guard here (Context::StreamDestroy would tear
        // the context's default stream down and leave the context without
        // one); the emulation refuses instead.
        return param_error(ACL_ERROR_RT_PARAM_INVALID,
                           "%s: %p is a context's default stream (aclrtCtxGetCurrentDefaultStream), which lives "
                           "as long as its context",
                           api, handle);
    }
    if (aclError status = aclcpu::detail::refuse_captured_stream(*stream, api); status != ACL_SUCCESS) return status;
    stream_state_callbacks().notify(handle, ACL_RT_STREAM_STATE_DESTROY_PRE);
    return Runtime::instance().destroy_stream(handle);
}

/// Resolves handle (nullptr: the default stream) and checks out, the
/// pointer a query writes to.
template <typename Out>
aclError resolve_for_query(aclrtStream handle, const Out* out, const char* api, std::shared_ptr<Stream>& stream) {
    if (out == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: the output pointer is null", api);
    return Runtime::instance().resolve_stream(handle, api, stream);
}

aclError apply_failure_mode(Stream& stream, uint64_t mode, const char* api) {
    if (mode != ACL_CONTINUE_ON_FAILURE && mode != ACL_STOP_ON_FAILURE) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown failure mode %llu", api,
                           static_cast<unsigned long long>(mode));
    }
    stream.lane().set_stop_on_failure(mode == ACL_STOP_ON_FAILURE);
    return ACL_SUCCESS;
}

aclError set_failure_mode(aclrtStream handle, uint64_t mode, const char* api) {
    if (handle == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: not allowed on the default stream", api);
    std::shared_ptr<Stream> stream;
    if (aclError status = Runtime::instance().resolve_stream(handle, api, stream); status != ACL_SUCCESS) return status;
    return apply_failure_mode(*stream, mode, api);
}

NamedCallbacks<aclrtDeviceTaskAbortCallback>& device_task_abort_callbacks() {
    static NamedCallbacks<aclrtDeviceTaskAbortCallback> callbacks;
    return callbacks;
}

/// The longest wait aclrtDeviceTaskAbort accepts: 36 minutes.
constexpr uint32_t kMaxTaskAbortTimeoutMs = 36u * 60u * 1000u;

/// The stream whose core limits the calling thread uses (aclrtUseStreamResInCurrentThread).
thread_local std::weak_ptr<Stream> tResourceStream;

/// Reads an aclrtDevResLimitType argument as its index into a stream's limits.
/// code: an aclrtDevResLimitType read with code_of by the entry point (a
/// copy of the enum, as an argument, would already be a load of it).
aclError resource_kind(int64_t code, const char* api, size_t& kind) {
    if (code != ACL_RT_DEV_RES_CUBE_CORE && code != ACL_RT_DEV_RES_VECTOR_CORE) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown resource type %lld", api, static_cast<long long>(code));
    }
    kind = static_cast<size_t>(code);
    return ACL_SUCCESS;
}

/// The device's own count of the kind of core: the limit when no stream sets one.
uint32_t device_cores(const Device& device, size_t kind) {
    const int64_t cores = kind == ACL_RT_DEV_RES_CUBE_CORE ? device.soc().aiCoreCount : device.soc().vectorCoreCount;
    return static_cast<uint32_t>(cores);
}

/// The limit the stream sets for kind, else the device's core count.
uint32_t effective_limit(const Stream& stream, size_t kind) {
    const uint32_t limit = stream.resource_limit(kind);
    return limit != 0 ? limit : device_cores(stream.device(), kind);
}

/// Switches that take 0 (off) or 1 (on).
aclError apply_switch(Stream& stream, Stream::Setting which, uint32_t value, const char* api) {
    if (value > 1) return param_error(ACL_ERROR_INVALID_PARAM, "%s: switch value %u is neither 0 nor 1", api, value);
    stream.set_setting(which, value);
    return ACL_SUCCESS;
}

/// The priority attribute names its stream: CANN refuses a null handle
/// (ApiErrorDecorator::SetStreamPriorityValue and ::GetStreamPriorityValue
/// check the stream before ApiImpl would take the default one).  CANN also
/// refuses streams that carry AI CPU scheduling (ACL_STREAM_CPU_SCHEDULE)
/// with ACL_ERROR_RT_FEATURE_NOT_SUPPORT; acl-cpu never creates one.
aclError check_priority_stream(aclrtStream handle, const char* api) {
    if (handle != nullptr) return ACL_SUCCESS;
    return param_error(ACL_ERROR_RT_PARAM_INVALID,
                       "%s: the priority attribute needs a stream handle; NULL is refused (the default stream's "
                       "handle comes from aclrtCtxGetCurrentDefaultStream)",
                       api);
}

aclError unknown_attribute(int64_t code, const char* api) {
    // rtsStreamSetAttribute / rtsStreamGetAttribute: the default branch gives RT_ERROR_INVALID_VALUE.
    return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: unknown attribute %lld", api, static_cast<long long>(code));
}

aclError synchronize_stream(aclrtStream handle, int32_t timeoutMs, const char* api) {
    if (aclError status = check_timeout(timeoutMs, api); status != ACL_SUCCESS) return status;
    const ApiScope scope(api);
    std::shared_ptr<Stream> stream;
    if (aclError status = Runtime::instance().resolve_stream(handle, api, stream); status != ACL_SUCCESS) return status;
    if (aclError status = aclcpu::detail::refuse_captured_stream(*stream, api); status != ACL_SUCCESS) return status;
    return stream->synchronize_observed(deadline_after(timeoutMs), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
}

}  // namespace

extern "C" {

aclError aclrtCreateStream(aclrtStream* stream) {
    return create_stream("aclrtCreateStream", stream, 0, kHighestStreamPriority);
}

aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag) {
    return create_stream("aclrtCreateStreamWithConfig", stream, flag, priority);
}

aclrtStreamConfigHandle* aclrtCreateStreamConfigHandle(void) {
    auto handle = std::make_shared<aclrtStreamConfigHandle>();
    std::memset(handle.get(), 0, sizeof(aclrtStreamConfigHandle));
    return static_cast<aclrtStreamConfigHandle*>(config_handles().add(std::move(handle)));
}

aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle* handle) {
    if (handle == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtDestroyStreamConfigHandle: handle is null");
    if (!config_handles().remove(handle)) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "aclrtDestroyStreamConfigHandle: %p was not made by aclrtCreateStreamConfigHandle, or is "
                           "already destroyed",
                           static_cast<void*>(handle));
    }
    return ACL_SUCCESS;
}

aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle* handle, aclrtStreamConfigAttr attr, const void* attrValue,
                                 size_t valueSize) {
    constexpr const char* api = "aclrtSetStreamConfigOpt";
    if (handle == nullptr || attrValue == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: handle and attrValue must not be null", api);
    }
    const std::shared_ptr<aclrtStreamConfigHandle> config = config_handles().find(handle);
    if (!config) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: %p was not made by aclrtCreateStreamConfigHandle", api,
                           static_cast<void*>(handle));
    }
    const int64_t code = aclcpu::code_of(attr);
    if (code == ACL_RT_STREAM_WORK_ADDR_PTR) {
        if (valueSize != sizeof(void*)) {
            return param_error(ACL_ERROR_INVALID_PARAM, "%s: a work address takes %zu bytes, not %zu", api,
                               sizeof(void*), valueSize);
        }
        std::memcpy(&config->workptr, attrValue, sizeof(void*));
        return ACL_SUCCESS;
    }
    // The numbers come as 32- or 64-bit unsigned integers (CANN's samples use both).
    uint64_t number = 0;
    if (valueSize == sizeof(uint32_t)) {
        uint32_t narrow = 0;
        std::memcpy(&narrow, attrValue, sizeof narrow);
        number = narrow;
    } else if (valueSize == sizeof(uint64_t)) {
        std::memcpy(&number, attrValue, sizeof number);
    } else {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: valueSize %zu is neither 4 nor 8", api, valueSize);
    }
    switch (code) {
        case ACL_RT_STREAM_WORK_SIZE:
            config->workSize = static_cast<size_t>(number);
            return ACL_SUCCESS;
        case ACL_RT_STREAM_FLAG:
            if (number > UINT32_MAX) return param_error(ACL_ERROR_INVALID_PARAM, "%s: flag %llu exceeds 32 bits", api,
                                                        static_cast<unsigned long long>(number));
            config->flag = static_cast<size_t>(number);
            return ACL_SUCCESS;
        case ACL_RT_STREAM_PRIORITY:
            if (number > kLowestStreamPriority) {
                return param_error(ACL_ERROR_INVALID_PARAM, "%s: priority %llu is not in [0, %u]", api,
                                   static_cast<unsigned long long>(number), kLowestStreamPriority);
            }
            config->priority = static_cast<uint32_t>(number);
            return ACL_SUCCESS;
        default:
            return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown attribute %lld", api, static_cast<long long>(code));
    }
}

aclError aclrtCreateStreamV2(aclrtStream* stream, const aclrtStreamConfigHandle* handle) {
    if (handle == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtCreateStreamV2: handle is null");
    if (handle->flag > UINT32_MAX) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtCreateStreamV2: flag %zu exceeds 32 bits", handle->flag);
    }
    return create_stream("aclrtCreateStreamV2", stream, static_cast<uint32_t>(handle->flag), handle->priority);
}

aclError aclrtDestroyStream(aclrtStream stream) { return destroy_stream(stream, "aclrtDestroyStream"); }

aclError aclrtDestroyStreamForce(aclrtStream stream) { return destroy_stream(stream, "aclrtDestroyStreamForce"); }

aclError aclrtRegStreamStateCallback(const char* regName, aclrtStreamStateCallback callback, void* args) {
    return register_named("aclrtRegStreamStateCallback", stream_state_callbacks(), regName, callback, args);
}

aclError aclrtStreamGetId(aclrtStream stream, int32_t* streamId) {
    std::shared_ptr<Stream> resolved;
    if (aclError status = resolve_for_query(stream, streamId, "aclrtStreamGetId", resolved); status != ACL_SUCCESS) {
        return status;
    }
    *streamId = resolved->id();
    return ACL_SUCCESS;
}

aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t* flags) {
    std::shared_ptr<Stream> resolved;
    if (aclError status = resolve_for_query(stream, flags, "aclrtStreamGetFlags", resolved); status != ACL_SUCCESS) {
        return status;
    }
    *flags = resolved->flags();
    return ACL_SUCCESS;
}

aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t* priority) {
    std::shared_ptr<Stream> resolved;
    if (aclError status = resolve_for_query(stream, priority, "aclrtStreamGetPriority", resolved);
        status != ACL_SUCCESS) {
        return status;
    }
    *priority = resolved->priority();
    return ACL_SUCCESS;
}

aclError aclrtCtxGetCurrentDefaultStream(aclrtStream* stream) {
    if (stream == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtCtxGetCurrentDefaultStream: stream is null");
    const std::shared_ptr<aclcpu::detail::Context> context = Runtime::instance().current_context();
    if (!context) {
        return param_error(ACL_ERROR_RT_CONTEXT_NULL,
                           "aclrtCtxGetCurrentDefaultStream: no current context; call aclrtSetDevice first");
    }
    // The default stream's own handle (ApiImpl::CtxGetCurrentDefaultStream):
    // every stream API resolves it to the object a null handle stands for.
    *stream = context->default_stream().get();
    return ACL_SUCCESS;
}

aclError aclrtGetStreamAvailableNum(uint32_t* streamCount) {
    if (streamCount == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtGetStreamAvailableNum: streamCount is null");
    Device* device = nullptr;
    if (aclError status = current_device("aclrtGetStreamAvailableNum", device); status != ACL_SUCCESS) return status;
    *streamCount = static_cast<uint32_t>(device->available_streams());
    return ACL_SUCCESS;
}

aclError aclrtGetEventAvailNum(uint32_t* eventCount) {
    if (eventCount == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtGetEventAvailNum: eventCount is null");
    Device* device = nullptr;
    if (aclError status = current_device("aclrtGetEventAvailNum", device); status != ACL_SUCCESS) return status;
    *eventCount = static_cast<uint32_t>(device->available_events());
    return ACL_SUCCESS;
}

aclError aclrtSynchronizeStream(aclrtStream stream) { return synchronize_stream(stream, -1, "aclrtSynchronizeStream"); }

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
    return synchronize_stream(stream, timeout, "aclrtSynchronizeStreamWithTimeout");
}

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus* status) {
    if (status == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtStreamQuery: status is null");
    std::shared_ptr<Stream> resolved;
    if (aclError error = Runtime::instance().resolve_stream(stream, "aclrtStreamQuery", resolved); error != ACL_SUCCESS) {
        return error;
    }
    if (aclError error = aclcpu::detail::refuse_captured_stream(*resolved, "aclrtStreamQuery"); error != ACL_SUCCESS) {
        return error;
    }
    // A stream found complete is synchronised with, as by aclrtSynchronizeStream.
    const uint64_t target = resolved->lane().submitted();
    const aclError error = resolved->query(*status);
    if (*status == ACL_STREAM_STATUS_COMPLETE) aclcpu::detail::observe_stream_waited(&*resolved, target);
    return error;
}

aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode) {
    return set_failure_mode(stream, mode, "aclrtSetStreamFailureMode");
}

aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag) {
    std::shared_ptr<Stream> resolved;
    if (aclError status = Runtime::instance().resolve_stream(stream, "aclrtSetStreamOverflowSwitch", resolved);
        status != ACL_SUCCESS) {
        return status;
    }
    return apply_switch(*resolved, Stream::Setting::kOverflowCheck, flag, "aclrtSetStreamOverflowSwitch");
}

aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t* flag) {
    std::shared_ptr<Stream> resolved;
    if (aclError status = resolve_for_query(stream, flag, "aclrtGetStreamOverflowSwitch", resolved);
        status != ACL_SUCCESS) {
        return status;
    }
    *flag = resolved->setting(Stream::Setting::kOverflowCheck);
    return ACL_SUCCESS;
}

/// ACL_STREAM_ATTR_PRIORITY sets the stream's scheduling priority, clamped as
/// at creation (ApiErrorDecorator::SetStreamPriorityValue; CANN's driver
/// updates the priority of the stream's queue at the task scheduler): work
/// queued earlier keeps its order, and the stream's turns that start after
/// the call compete for the device's workers at the new priority.
/// aclrtStreamGetPriority keeps answering the creation priority;
/// aclrtGetStreamAttribute reads the scheduling priority back.
aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType, aclrtStreamAttrValue* value) {
    constexpr const char* api = "aclrtSetStreamAttribute";
    if (value == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: value is null", api);
    std::shared_ptr<Stream> resolved;
    if (aclError status = Runtime::instance().resolve_stream(stream, api, resolved); status != ACL_SUCCESS) return status;
    switch (const int64_t code = aclcpu::code_of(stmAttrType)) {
        case ACL_STREAM_ATTR_FAILURE_MODE:
            return apply_failure_mode(*resolved, value->failureMode, api);
        case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
            return apply_switch(*resolved, Stream::Setting::kOverflowCheck, value->overflowSwitch, api);
        case ACL_STREAM_ATTR_CACHE_OP_INFO:
            return apply_switch(*resolved, Stream::Setting::kCacheOpInfo, value->cacheOpInfoSwitch, api);
        case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
            resolved->set_setting(Stream::Setting::kUserCustomTag, value->userCustomTag);
            return ACL_SUCCESS;
        case ACL_STREAM_ATTR_PRIORITY:
            if (aclError status = check_priority_stream(stream, api); status != ACL_SUCCESS) return status;
            resolved->lane().set_scheduling_priority(clamp_stream_priority(value->streamPriority));
            return ACL_SUCCESS;
        default:
            return unknown_attribute(code, api);
    }
}

aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType, aclrtStreamAttrValue* value) {
    constexpr const char* api = "aclrtGetStreamAttribute";
    std::shared_ptr<Stream> resolved;
    if (aclError status = resolve_for_query(stream, value, api, resolved); status != ACL_SUCCESS) return status;
    aclrtStreamAttrValue answer;
    std::memset(&answer, 0, sizeof answer);
    switch (const int64_t code = aclcpu::code_of(stmAttrType)) {
        case ACL_STREAM_ATTR_FAILURE_MODE:
            answer.failureMode = resolved->lane().stops_on_failure() ? ACL_STOP_ON_FAILURE : ACL_CONTINUE_ON_FAILURE;
            break;
        case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
            answer.overflowSwitch = resolved->setting(Stream::Setting::kOverflowCheck);
            break;
        case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
            answer.userCustomTag = resolved->setting(Stream::Setting::kUserCustomTag);
            break;
        case ACL_STREAM_ATTR_CACHE_OP_INFO:
            answer.cacheOpInfoSwitch = resolved->setting(Stream::Setting::kCacheOpInfo);
            break;
        case ACL_STREAM_ATTR_PRIORITY:
            if (aclError status = check_priority_stream(stream, api); status != ACL_SUCCESS) return status;
            answer.streamPriority = resolved->lane().scheduling_priority();
            break;
        default:
            return unknown_attribute(code, api);
    }
    *value = answer;
    return ACL_SUCCESS;
}

aclError aclrtStreamAbort(aclrtStream stream) {
    constexpr const char* api = "aclrtStreamAbort";
    std::shared_ptr<Stream> resolved;
    if (aclError status = Runtime::instance().resolve_stream(stream, api, resolved); status != ACL_SUCCESS) return status;
    // CANN refuses a model's stream with RT_ERROR_STREAM_INVALID, which reaches the caller as 507000:
    // Context::StreamAbort checks the model binding, ApiImplDavid::StreamAbort the persistent flag;
    // here only persistent streams are bound.
    if (resolved->is_persistent()) {
        return runtime_error(ACL_ERROR_RT_INTERNAL_ERROR,
                             "%s: stream %p is persistent (ACL_STREAM_PERSISTENT, a model's stream) and cannot be "
                             "aborted",
                             api, stream);
    }
    resolved->abort();
    return ACL_SUCCESS;
}

aclError aclrtStreamStop(aclrtStream) { return not_supported(__func__, kNoPreemption); }

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
    const ApiScope scope("aclrtStreamWaitEvent");
    std::shared_ptr<Event> awaited;
    std::shared_ptr<Stream> waiter;
    if (aclError status = resolve_event_and_stream("aclrtStreamWaitEvent", event, stream, awaited, waiter);
        status != ACL_SUCCESS) {
        return status;
    }
    return aclcpu::detail::enqueue_event_wait(waiter, awaited, aclcpu::detail::op_wait_timeout(),
                                              "aclrtStreamWaitEvent");
}

}  // extern "C"

extern "C" {

aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t value) {
    constexpr const char* api = "aclrtSetStreamResLimit";
    size_t kind = 0;
    if (aclError status = resource_kind(aclcpu::code_of(type), api, kind); status != ACL_SUCCESS) return status;
    std::shared_ptr<Stream> resolved;
    if (aclError status = Runtime::instance().resolve_stream(stream, api, resolved); status != ACL_SUCCESS) return status;
    const uint32_t cores = device_cores(resolved->device(), kind);
    if (value == 0 || value > cores) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: limit %u is not in [1, %u], the device's cores of that type",
                           api, value, cores);
    }
    resolved->set_resource_limit(kind, value);
    return ACL_SUCCESS;
}

aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t* value) {
    constexpr const char* api = "aclrtGetStreamResLimit";
    size_t kind = 0;
    if (aclError status = resource_kind(aclcpu::code_of(type), api, kind); status != ACL_SUCCESS) return status;
    std::shared_ptr<Stream> resolved;
    if (aclError status = resolve_for_query(stream, value, api, resolved); status != ACL_SUCCESS) return status;
    *value = effective_limit(*resolved, kind);
    return ACL_SUCCESS;
}

aclError aclrtResetStreamResLimit(aclrtStream stream) {
    std::shared_ptr<Stream> resolved;
    if (aclError status = Runtime::instance().resolve_stream(stream, "aclrtResetStreamResLimit", resolved);
        status != ACL_SUCCESS) {
        return status;
    }
    for (size_t kind = 0; kind < Stream::kResourceKinds; ++kind) resolved->set_resource_limit(kind, 0);
    return ACL_SUCCESS;
}

aclError aclrtUseStreamResInCurrentThread(aclrtStream stream) {
    std::shared_ptr<Stream> resolved;
    if (aclError status = Runtime::instance().resolve_stream(stream, "aclrtUseStreamResInCurrentThread", resolved);
        status != ACL_SUCCESS) {
        return status;
    }
    tResourceStream = resolved;
    return ACL_SUCCESS;
}

aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream) {
    constexpr const char* api = "aclrtUnuseStreamResInCurrentThread";
    std::shared_ptr<Stream> resolved;
    if (aclError status = Runtime::instance().resolve_stream(stream, api, resolved); status != ACL_SUCCESS) return status;
    if (tResourceStream.lock() != resolved) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: the calling thread does not use the limits of stream %p", api,
                           stream);
    }
    tResourceStream.reset();
    return ACL_SUCCESS;
}

aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t* value) {
    constexpr const char* api = "aclrtGetResInCurrentThread";
    size_t kind = 0;
    if (aclError status = resource_kind(aclcpu::code_of(type), api, kind); status != ACL_SUCCESS) return status;
    if (value == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: value is null", api);
    if (const std::shared_ptr<Stream> used = tResourceStream.lock()) {
        *value = effective_limit(*used, kind);
        return ACL_SUCCESS;
    }
    Device* device = nullptr;
    if (aclError status = current_device(api, device); status != ACL_SUCCESS) return status;
    *value = device_cores(*device, kind);
    return ACL_SUCCESS;
}

aclError aclrtSetDeviceTaskAbortCallback(const char* regName, aclrtDeviceTaskAbortCallback callback, void* args) {
    return register_named("aclrtSetDeviceTaskAbortCallback", device_task_abort_callbacks(), regName, callback, args);
}

aclError aclrtDeviceTaskAbort(int32_t deviceId, uint32_t timeout) {
    constexpr const char* api = "aclrtDeviceTaskAbort";
    if (timeout > kMaxTaskAbortTimeoutMs) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: timeout %u ms exceeds the maximum of %u ms (36 minutes)", api,
                           timeout, kMaxTaskAbortTimeoutMs);
    }
    Runtime& runtime = Runtime::instance();
    Device* device = runtime.open_device(deviceId);
    if (device == nullptr) {
        return param_error(ACL_ERROR_RT_INVALID_DEVICEID, "%s: device %d is not set", api, deviceId);
    }
    device_task_abort_callbacks().notify(deviceId, ACL_RT_DEVICE_TASK_ABORT_PRE, timeout);
    for (const auto& stream : runtime.live_streams()) {
        if (&stream->device() == device) stream->abort();
    }
    // 0 waits for as long as the discarded work takes to drain.
    const bool drained = device->synchronize(timeout == 0 ? aclcpu::detail::ProgressCounter::Clock::time_point::max()
                                                          : deadline_after(static_cast<int32_t>(timeout)));
    device_task_abort_callbacks().notify(deviceId, ACL_RT_DEVICE_TASK_ABORT_POST, timeout);
    if (!drained) {
        return runtime_error(ACL_ERROR_RT_TIMEOUT, "%s: device %d still had work running after %u ms", api, deviceId,
                             timeout);
    }
    return ACL_SUCCESS;
}

}  // extern "C"
