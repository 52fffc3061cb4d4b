// acl-cpu runtime: host callbacks and host functions (acl_rt.h).
#include <pthread.h>

#include "acl/acl_rt.h"
#include "aclcpu/dtype.hpp"
#include "aclcpu/instrumentation.hpp"
#include "api/arguments.hpp"
#include "core/errors.hpp"
#include "core/graph_model.hpp"
#include "observe/runtime_hooks.hpp"
#include "core/runtime_state.hpp"

using aclcpu::DeviceTask;
using aclcpu::detail::param_error;
using aclcpu::detail::plain_work;
using aclcpu::detail::Runtime;
using aclcpu::detail::Stream;
using aclcpu::detail::StreamLane;

namespace {

using aclcpu::detail::HostCall;
using aclcpu::detail::LateDelivery;

/// Hands a host call to the thread that must run it once the stream reaches
/// this task; the worker itself never waits for the call.
class HostCallTask final : public DeviceTask {
public:
    using Dispatch = std::function<void(const HostCall&)>;

    HostCallTask(const char* api, Dispatch dispatch, const HostCall& call)
        : api_(api), dispatch_(std::move(dispatch)), call_(call) {}

    aclError run() noexcept override {
        dispatch_(call_);
        return ACL_SUCCESS;
    }
    const char* name() const noexcept override { return api_; }

private:
    const char* api_;
    Dispatch dispatch_;
    HostCall call_;
};

/// A host call on a captured stream becomes a late node of the model that
/// dispatches the call at each replay.  A blocking call's node completes
/// when the call returns; a non-blocking one's once the call is handed to
/// its thread, so the nodes after it do not wait for it -- CANN captures
/// both kinds (ApiImpl::CallbackLaunchWithoutEvent takes a capturing
/// stream).  The capture's answer (Stream::capture_late).
std::optional<aclError> capture_host_call(Stream& stream, const char* api, const char* category,
                                          const HostCallTask::Dispatch& dispatch, void (*function)(void*), void* data,
                                          bool blocking) {
    const HostCall call{function, data, &stream.device(), nullptr, api, LateDelivery{}};
    return stream.capture_late(
        [dispatch, call, blocking](LateDelivery node) {
            HostCall replayed = call;
            if (blocking) replayed.gate = node;
            dispatch(replayed);
            if (!blocking) node.deliver();
        },
        aclcpu::detail::CapturedWork{api, category, {}, {}});
}

/// Enqueues a host call; with `blocking`, later work on the stream waits for
/// it.  Observers see the call as `category`, and its gate as "host_wait".
/// On a captured stream the call is captured (capture_host_call).
aclError launch_host_call(Stream& stream, const char* api, const char* category, HostCallTask::Dispatch dispatch,
                          void (*function)(void*), void* data, bool blocking) {
    if (stream.is_captured()) {
        if (const std::optional<aclError> captured =
                capture_host_call(stream, api, category, dispatch, function, data, blocking)) {
            return *captured;
        }
    }
    StreamLane& lane = stream.lane();
    const uint64_t place = lane.reserve(blocking ? 2 : 1);
    const LateDelivery gate = blocking ? LateDelivery{&lane, place + 1, nullptr} : LateDelivery{};
    if (aclcpu::instrument::active()) {
        stream.announce(place, plain_work(api, category));
        if (blocking) stream.announce(gate.place, plain_work(api, "host_wait"));
    }
    const HostCall call{function, data, &stream.device(), &lane, api, gate};
    lane.deliver(place, std::make_unique<HostCallTask>(api, std::move(dispatch), call));
    return ACL_SUCCESS;
}

uint64_t this_thread_id() { return static_cast<uint64_t>(pthread_self()); }

/// Binds thread to serve the host functions launched on stream (never the default stream).
aclError subscribe_host_funcs(uint64_t thread, aclrtStream stream, bool subscribe, const char* api) {
    if (stream == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: exeStream must not be null", api);
    Runtime& runtime = Runtime::instance();
    std::shared_ptr<Stream> target;
    if (aclError status = runtime.resolve_stream(stream, api, target); status != ACL_SUCCESS) return status;
    if (subscribe) {
        if (target->host_func_thread() != 0) {
            return param_error(ACL_ERROR_REPEAT_SUBSCRIBE, "%s: stream %p already has a host function thread", api,
                               stream);
        }
        target->set_host_func_thread(thread);
        runtime.host_funcs().subscribe(thread);
        return ACL_SUCCESS;
    }
    if (target->host_func_thread() != thread) {
        return param_error(ACL_ERROR_STREAM_NOT_SUBSCRIBE, "%s: thread %llu does not serve stream %p", api,
                           static_cast<unsigned long long>(thread), stream);
    }
    target->set_host_func_thread(0);
    runtime.host_funcs().unsubscribe(thread);
    return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) {
    Runtime& runtime = Runtime::instance();
    std::shared_ptr<Stream> target;
    if (aclError status = runtime.resolve_stream(stream, "aclrtSubscribeReport", target); status != ACL_SUCCESS) {
        return status;
    }
    if (target->report_thread() != 0) {
        return param_error(ACL_ERROR_REPEAT_SUBSCRIBE, "aclrtSubscribeReport: stream %p already has a report thread",
                           stream);
    }
    target->set_report_thread(threadId);
    runtime.reports().subscribe(threadId);
    return ACL_SUCCESS;
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream) {
    Runtime& runtime = Runtime::instance();
    std::shared_ptr<Stream> target;
    if (aclError status = runtime.resolve_stream(stream, "aclrtUnSubscribeReport", target); status != ACL_SUCCESS) {
        return status;
    }
    if (target->report_thread() != threadId) {
        return param_error(ACL_ERROR_STREAM_NOT_SUBSCRIBE,
                           "aclrtUnSubscribeReport: thread %llu is not subscribed to stream %p",
                           static_cast<unsigned long long>(threadId), stream);
    }
    target->set_report_thread(0);
    runtime.reports().unsubscribe(threadId);
    return ACL_SUCCESS;
}

aclError aclrtProcessReport(int32_t timeout) {
    if (timeout != -1 && timeout <= 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtProcessReport: timeout %d is neither -1 nor > 0", timeout);
    }
    return Runtime::instance().reports().process(this_thread_id(), timeout);
}

aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType, aclrtStream stream) {
    const aclcpu::instrument::ApiScope scope("aclrtLaunchCallback");
    if (fn == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtLaunchCallback: fn is null");
    const int64_t blockCode = aclcpu::code_of(blockType);
    if (blockCode != ACL_CALLBACK_NO_BLOCK && blockCode != ACL_CALLBACK_BLOCK) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtLaunchCallback: unknown block type %d",
                           static_cast<int>(blockCode));
    }
    Runtime& runtime = Runtime::instance();
    std::shared_ptr<Stream> target;
    if (aclError status = runtime.resolve_work_stream(stream, "aclrtLaunchCallback", target); status != ACL_SUCCESS) {
        return status;
    }
    const uint64_t thread = target->report_thread();
    if (thread == 0) {
        return param_error(ACL_ERROR_RT_STREAM_NO_CB_REG,
                           "aclrtLaunchCallback: no thread is subscribed to stream %p; call aclrtSubscribeReport",
                           stream);
    }
    auto& hub = runtime.reports();
    return launch_host_call(
        *target, "aclrtLaunchCallback", "callback", [&hub, thread](const HostCall& call) { hub.post(thread, call); },
        fn, userData, blockCode == ACL_CALLBACK_BLOCK);
}

aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void* args) {
    const aclcpu::instrument::ApiScope scope("aclrtLaunchHostFunc");
    if (fn == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtLaunchHostFunc: fn is null");
    std::shared_ptr<Stream> target;
    if (aclError status = Runtime::instance().resolve_work_stream(stream, "aclrtLaunchHostFunc", target);
        status != ACL_SUCCESS) {
        return status;
    }
    HostCallTask::Dispatch dispatch;
    if (const uint64_t thread = target->host_func_thread(); thread != 0) {
        auto& hub = Runtime::instance().host_funcs();
        dispatch = [&hub, thread](const HostCall& call) { hub.post(thread, call); };
    } else {
        auto& worker = target->device().host_worker();
        dispatch = [&worker](const HostCall& call) { worker.post([call] { call.run(); }); };
    }
    return launch_host_call(*target, "aclrtLaunchHostFunc", "host_func", std::move(dispatch), fn, args, true);
}

aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream) {
    return subscribe_host_funcs(hostFuncThreadId, exeStream, true, "aclrtSubscribeHostFunc");
}

aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream) {
    return subscribe_host_funcs(hostFuncThreadId, exeStream, false, "aclrtUnSubscribeHostFunc");
}

aclError aclrtProcessHostFunc(int32_t timeout) {
    if (aclError status = aclcpu::api::check_timeout(timeout, "aclrtProcessHostFunc"); status != ACL_SUCCESS) {
        return status;
    }
    return Runtime::instance().host_funcs().process(this_thread_id(), timeout);
}

}  // extern "C"
