// acl-cpu runtime API: streams (acl_rt.h).
#include "acl/acl_rt.h"
#include "aclcpu/instrumentation.hpp"
#include "api/arguments.hpp"
#include "core/errors.hpp"
#include "core/runtime_state.hpp"
#include "observe/runtime_hooks.hpp"

using aclcpu::api::resolve_event_and_stream;
using aclcpu::api::check_timeout;
using aclcpu::detail::deadline_after;
using aclcpu::detail::Event;
using aclcpu::detail::LateDelivery;
using aclcpu::detail::param_error;
using aclcpu::detail::plain_work;
using aclcpu::detail::Runtime;
using aclcpu::detail::Stream;
using aclcpu::instrument::ApiScope;
using aclcpu::instrument::Observer;

namespace {

aclError synchronize_stream(aclrtStream handle, int32_t timeoutMs, const char* api) {
    if (aclError status = check_timeout(timeoutMs, api); status != ACL_SUCCESS) return status;
    const ApiScope scope(api);
    std::shared_ptr<Stream> stream;
    if (aclError status = Runtime::instance().resolve_stream(handle, api, stream); status != ACL_SUCCESS) return status;
    // synchronize() waits for at least the items submitted by now.
    const uint64_t target = stream->lane().submitted();
    const aclError status = stream->synchronize(deadline_after(timeoutMs), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    if (status != ACL_ERROR_RT_STREAM_SYNC_TIMEOUT) aclcpu::detail::observe_stream_waited(&*stream, target);
    return status;
}

}  // namespace

extern "C" {

aclError aclrtCreateStream(aclrtStream* stream) {
    if (stream == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtCreateStream: stream is null");
    return Runtime::instance().create_stream(0, stream);
}

aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag) {
    (void)priority;  // Reserved by CANN.
    if (stream == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtCreateStreamWithConfig: stream is null");
    return Runtime::instance().create_stream(flag, stream);
}

aclError aclrtDestroyStream(aclrtStream stream) { return Runtime::instance().destroy_stream(stream); }

aclError aclrtDestroyStreamForce(aclrtStream stream) { return Runtime::instance().destroy_stream(stream); }

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
    // A stream found complete is synchronised with, as by aclrtSynchronizeStream.
    const uint64_t target = resolved->lane().submitted();
    const aclError error = resolved->query(*status);
    if (*status == ACL_STREAM_STATUS_COMPLETE) aclcpu::detail::observe_stream_waited(&*resolved, target);
    return error;
}

aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode) {
    if (stream == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtSetStreamFailureMode: not allowed on the default stream");
    }
    if (mode != ACL_CONTINUE_ON_FAILURE && mode != ACL_STOP_ON_FAILURE) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtSetStreamFailureMode: unknown mode %llu",
                           static_cast<unsigned long long>(mode));
    }
    std::shared_ptr<Stream> resolved;
    if (aclError error = Runtime::instance().resolve_stream(stream, "aclrtSetStreamFailureMode", resolved);
        error != ACL_SUCCESS) {
        return error;
    }
    resolved->lane().set_stop_on_failure(mode == ACL_STOP_ON_FAILURE);
    return ACL_SUCCESS;
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
    const ApiScope scope("aclrtStreamWaitEvent");
    std::shared_ptr<Event> awaited;
    std::shared_ptr<Stream> waiter;
    if (aclError status = resolve_event_and_stream("aclrtStreamWaitEvent", event, stream, awaited, waiter);
        status != ACL_SUCCESS) {
        return status;
    }
    const Event::Capture capture = awaited->capture();
    if (!capture.progress || capture.progress == waiter->lane().progress()) return ACL_SUCCESS;
    // The wait is a place in the waiting lane whose (empty) item is delivered
    // by the recording lane's progress: an edge between the two queues, not
    // a worker blocked in a node.
    const LateDelivery gate{&waiter->lane(), waiter->lane().reserve()};
    if (aclcpu::instrument::active()) {
        waiter->announce(gate.place, plain_work("aclrtStreamWaitEvent", "event_wait"));
        aclcpu::instrument::notify([&](Observer& o) { o.on_event_wait(waiter.get(), gate.place, awaited.get()); });
    }
    capture.progress->when_reached(capture.count, [gate] { gate.deliver(); });
    return ACL_SUCCESS;
}

}  // extern "C"
