// acl-cpu runtime API: model runtime instances (aclmdlRI) made by capturing
// streams or built on persistent streams, and their replay (acl_rt.h;
// 15_model_running_instance__management.md).
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

#include "acl/acl_rt.h"
#include "aclcpu/dtype.hpp"
#include "aclcpu/instrumentation.hpp"
#include "api/arguments.hpp"
#include "api/unsupported.hpp"
#include "core/graph_capture.hpp"
#include "core/errors.hpp"
#include "core/graph_model.hpp"
#include "core/objects.hpp"
#include "core/runtime_state.hpp"

using aclcpu::api::not_supported;
using aclcpu::detail::GraphModel;
using aclcpu::detail::param_error;
using aclcpu::detail::Runtime;
using aclcpu::detail::runtime_error;
using aclcpu::detail::Stream;
using aclcpu::instrument::ApiScope;

namespace {

/// How long aclmdlRIDestroy waits for a model's replays before CANN's
/// ACL_ERROR_RT_MODEL_RUNNING.
constexpr auto kDestroyWaitLimit = std::chrono::seconds(10);

constexpr char kNoTaskEditing[] =
    "editing the tasks of a captured model (aclmdlRIGetTasksByStream and the aclmdlRITask calls) is not implemented "
    "yet";

bool is_capture_mode(int64_t code) {
    return code == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL || code == ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL ||
           code == ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
}

/// Resolves a stream a capture may use: a live stream that is not a default
/// stream (CANN: null is refused as a bad argument, the default stream's
/// own handle as unsupported).
aclError resolve_capture_stream(aclrtStream handle, const char* api, std::shared_ptr<Stream>& stream) {
    if (handle == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: stream is null; the default stream cannot be captured", api);
    }
    if (aclError status = Runtime::instance().resolve_stream(handle, api, stream); status != ACL_SUCCESS) return status;
    if (!stream->is_default()) return ACL_SUCCESS;
    return param_error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                       "%s: the default stream cannot be captured; create a stream (aclrtCreateStream)", api);
}

/// Resolves stream and the model capturing it (ACL_ERROR_RT_STREAM_NOT_CAPTURED if none).
aclError resolve_capturing(aclrtStream handle, const char* api, std::shared_ptr<Stream>& stream,
                           std::shared_ptr<GraphModel>& model) {
    if (handle == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: stream is null", api);
    if (aclError status = Runtime::instance().resolve_stream(handle, api, stream); status != ACL_SUCCESS) return status;
    model = stream->capturing_model();
    if (model) return ACL_SUCCESS;
    return param_error(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "%s: stream %p is not being captured", api, handle);
}

/// Resolves a stream that may update a task group: not captured itself.
aclError resolve_updating_stream(aclrtStream handle, const char* api, std::shared_ptr<Stream>& stream) {
    if (aclError status = Runtime::instance().resolve_stream(handle, api, stream); status != ACL_SUCCESS) return status;
    return aclcpu::detail::refuse_captured_stream(*stream, api);
}

/// Resolves a model that capture or build has finished.
aclError resolve_built_model(aclmdlRI handle, const char* api, std::shared_ptr<GraphModel>& model) {
    if (aclError status = Runtime::instance().resolve_model(handle, api, model); status != ACL_SUCCESS) return status;
    if (model->status() == GraphModel::Status::kReady) return ACL_SUCCESS;
    if (model->origin() == GraphModel::Origin::kBuild) {
        // CANN: RT_ERROR_MODEL_NOT_END, "end graph must be called before execution".
        return param_error(ACL_ERROR_RT_MODEL_EXECUTE, "%s: model %p is still being built; call aclmdlRIBuildEnd first",
                           api, handle);
    }
    return param_error(ACL_ERROR_RT_MODEL_CAPTURED,
                       "%s: model %p is still being captured; call aclmdlRICaptureEnd first", api, handle);
}

/// Resolves a model that aclmdlRIBuildBegin made (CANN refuses the build
/// calls on a captured model: "ACL Graph mode is not supported").
aclError resolve_build(aclmdlRI handle, const char* api, std::shared_ptr<GraphModel>& model) {
    if (handle == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: modelRI is null", api);
    if (aclError status = Runtime::instance().resolve_model(handle, api, model); status != ACL_SUCCESS) return status;
    if (model->origin() == GraphModel::Origin::kBuild) return ACL_SUCCESS;
    return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: model %p was made by stream capture (ACL Graph), not built",
                       api, handle);
}

/// Resolves a model that aclmdlRIBuildBegin made and a stream bound to it
/// by aclmdlRIBindStream.
aclError resolve_bound_stream(aclmdlRI modelHandle, aclrtStream streamHandle, const char* api,
                              std::shared_ptr<GraphModel>& model, std::shared_ptr<Stream>& stream) {
    if (aclError status = resolve_build(modelHandle, api, model); status != ACL_SUCCESS) return status;
    if (streamHandle == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: stream is null", api);
    if (aclError status = Runtime::instance().resolve_stream(streamHandle, api, stream); status != ACL_SUCCESS) {
        return status;
    }
    if (stream->bound_model() == model) return ACL_SUCCESS;
    return param_error(ACL_ERROR_RT_STREAM_MODEL, "%s: stream %p is not bound to model %u", api, streamHandle,
                       model->id());
}

/// CANN's refusals of a stream for aclmdlRIBindStream (api_error.cc's
/// ModelBindStream): streams being captured, failure modes, fast launch,
/// streams that are not persistent, streams bound already.
aclError check_bindable(const Stream& stream, aclrtStream handle, const char* api) {
    if (stream.is_captured() && !stream.is_persistent()) {
        return param_error(ACL_ERROR_RT_STREAM_CAPTURED, "%s: stream %p is being captured", api, handle);
    }
    if ((stream.flags() & ACL_STREAM_FAST_LAUNCH) != 0) {
        return param_error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                           "%s: stream %p has ACL_STREAM_FAST_LAUNCH and cannot be bound to a model", api, handle);
    }
    if (!stream.is_persistent()) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID,
                           "%s: stream %p is not persistent; create it with aclrtCreateStreamWithConfig and "
                           "ACL_STREAM_PERSISTENT",
                           api, handle);
    }
    if (const std::shared_ptr<GraphModel> bound = stream.bound_model()) {
        return param_error(ACL_ERROR_RT_STREAM_MODEL, "%s: stream %p is already bound to model %u", api, handle,
                           bound->id());
    }
    return ACL_SUCCESS;
}

/// `mode` is the aclmdlRICaptureMode code (code_of): a C caller may pass
/// any integer.  The capture goes into `into` (aclmdlRICaptureToModelRIBegin:
/// a conditional task's branch), or a new model when it is null.
aclError capture_begin(aclrtStream stream, int64_t mode, std::shared_ptr<GraphModel> into, const char* kApi) {
    const ApiScope scope(kApi);
    std::shared_ptr<Stream> origin;
    if (aclError status = resolve_capture_stream(stream, kApi, origin); status != ACL_SUCCESS) return status;
    if (!is_capture_mode(mode)) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: mode %lld is not an aclmdlRICaptureMode", kApi,
                           static_cast<long long>(mode));
    }
    const std::shared_ptr<aclcpu::detail::Context> context = Runtime::instance().current_context();
    if (context && &context->device() != &origin->device()) {
        return param_error(ACL_ERROR_RT_STREAM_CONTEXT,
                           "%s: stream %p belongs to device %d, the current context to device %d", kApi, stream,
                           origin->device().id(), context->device().id());
    }
    if (origin->is_persistent()) {
        return param_error(ACL_ERROR_RT_STREAM_MODEL,
                           "%s: stream %p is persistent; its work belongs to a model it is bound to "
                           "(aclmdlRIBindStream), not to a capture",
                           kApi, stream);
    }
    if (origin->is_captured()) {
        return param_error(ACL_ERROR_RT_STREAM_CAPTURED, "%s: stream %p is already being captured", kApi, stream);
    }
    if (into) {
        into->begin(origin, static_cast<aclmdlRICaptureMode>(mode));
        return ACL_SUCCESS;
    }
    auto model = std::make_shared<GraphModel>(origin->device(), static_cast<aclmdlRICaptureMode>(mode));
    Runtime::instance().add_model(model);
    model->begin(origin, static_cast<aclmdlRICaptureMode>(mode));
    return ACL_SUCCESS;
}

/// The model aclmdlRICaptureToModelRIBegin captures into: a branch that
/// aclmdlRIAddCondTask made and no capture has taken yet -- CANN's
/// Context::StreamBeginCapture refuses a model whose capture status is not
/// NONE with ACL_ERROR_RT_MODEL_CAPTURED (CheckCaptureModelIsCaptured).
aclError resolve_branch(aclmdlRI handle, const char* api, std::shared_ptr<GraphModel>& model) {
    if (aclError status = Runtime::instance().resolve_model(handle, api, model); status != ACL_SUCCESS) return status;
    if (model->origin() != GraphModel::Origin::kCapture) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: model %p was built (aclmdlRIBuildBegin), not captured", api,
                           handle);
    }
    if (!model->capture_begun()) return ACL_SUCCESS;
    return param_error(ACL_ERROR_RT_MODEL_CAPTURED,
                       "%s: model %p is captured already; capture into the models aclmdlRIAddCondTask made", api,
                       handle);
}

aclError capture_end(aclrtStream stream, aclmdlRI* modelRI) {
    constexpr const char* kApi = "aclmdlRICaptureEnd";
    const ApiScope scope(kApi);
    std::shared_ptr<Stream> origin;
    if (aclError status = resolve_capture_stream(stream, kApi, origin); status != ACL_SUCCESS) return status;
    if (modelRI == nullptr) return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: modelRI is null", kApi);
    const std::shared_ptr<GraphModel> model = origin->capturing_model();
    if (!model) {
        return param_error(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "%s: stream %p is not being captured", kApi, stream);
    }
    if (!model->is_origin(*origin)) {
        return param_error(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED,
                           "%s: stream %p joined a capture through an event; end the capture on the stream that "
                           "began it",
                           kApi, stream);
    }
    if (model->mode() != ACL_MODEL_RI_CAPTURE_MODE_RELAXED && model->owner() != std::this_thread::get_id()) {
        // CANN ends the capture without a model.
        model->abandon_capture();
        Runtime::instance().remove_model(model.get());
        *modelRI = nullptr;
        return param_error(ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD,
                           "%s: a capture begun in a mode other than RELAXED must end on the thread that began it; "
                           "the capture is discarded",
                           kApi);
    }
    if (aclError status = model->end(*origin); status != ACL_SUCCESS) {
        Runtime::instance().remove_model(model.get());
        *modelRI = nullptr;
        return status;
    }
    *modelRI = model.get();
    return ACL_SUCCESS;
}

aclError execute_async(aclmdlRI modelRI, aclrtStream stream) {
    constexpr const char* kApi = "aclmdlRIExecuteAsync";
    const ApiScope scope(kApi);
    std::shared_ptr<GraphModel> model;
    if (aclError status = resolve_built_model(modelRI, kApi, model); status != ACL_SUCCESS) return status;
    std::shared_ptr<Stream> target;
    if (aclError status = Runtime::instance().resolve_stream(stream, kApi, target); status != ACL_SUCCESS) {
        return status;
    }
    if (aclError status = aclcpu::detail::refuse_captured_stream(*target, kApi); status != ACL_SUCCESS) return status;
    if (target->is_persistent()) {
        // CANN: "the current stream cannot be the same as the model stream".
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: stream %p is persistent; execute models on another stream",
                           kApi, stream);
    }
    if (&target->device() != &model->device()) {
        return param_error(ACL_ERROR_RT_STREAM_CONTEXT, "%s: stream %p is on device %d, model %p on device %d", kApi,
                           stream, target->device().id(), modelRI, model->device().id());
    }
    model->assign_condition_defaults();
    model->enqueue_replay(*target);
    return ACL_SUCCESS;
}

aclError destroy_model(aclmdlRI modelRI) {
    constexpr const char* kApi = "aclmdlRIDestroy";
    std::shared_ptr<GraphModel> model;
    if (aclError status = Runtime::instance().resolve_model(modelRI, kApi, model); status != ACL_SUCCESS) {
        return status;
    }
    if (model->is_capturing()) {
        return param_error(ACL_ERROR_RT_MODEL_CAPTURED, "%s: model %p is being captured; call aclmdlRICaptureEnd first",
                           kApi, modelRI);
    }
    model->abandon_capture();  // A build still open: its streams stop recording.
    if (!model->wait_idle(kDestroyWaitLimit)) {
        return param_error(ACL_ERROR_RT_MODEL_RUNNING,
                           "%s: model %p still has replays queued or running after %lld s; synchronize their streams "
                           "first",
                           kApi, modelRI, static_cast<long long>(kDestroyWaitLimit.count()));
    }
    if (!Runtime::instance().remove_model(modelRI)) return ACL_SUCCESS;  // Another thread destroyed it meanwhile.
    // The branches of its conditional tasks go with it, as on CANN.
    for (const std::shared_ptr<GraphModel>& branch : model->branches()) Runtime::instance().remove_model(branch.get());
    model->run_destroy_callbacks();
    return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode) {
    return capture_begin(stream, aclcpu::code_of(mode), nullptr, "aclmdlRICaptureBegin");
}

aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus* status, aclmdlRI* modelRI) {
    constexpr const char* kApi = "aclmdlRICaptureGetInfo";
    if (stream == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: stream is null", kApi);
    if (status == nullptr && modelRI == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: status and modelRI are both null", kApi);
    }
    std::shared_ptr<Stream> target;
    if (aclError error = Runtime::instance().resolve_stream(stream, kApi, target); error != ACL_SUCCESS) return error;
    const std::shared_ptr<GraphModel> model = target->is_persistent() ? nullptr : target->capturing_model();
    aclmdlRICaptureStatus found = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    if (model) {
        found = model->status() == GraphModel::Status::kInvalidated ? ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED
                                                                     : ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
    }
    if (status != nullptr) *status = found;
    if (modelRI != nullptr) *modelRI = model.get();
    return ACL_SUCCESS;
}

aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI* modelRI) { return capture_end(stream, modelRI); }

aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode* mode) {
    constexpr const char* kApi = "aclmdlRICaptureThreadExchangeMode";
    if (mode == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: mode is null", kApi);
    if (!is_capture_mode(aclcpu::code_of(*mode))) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: mode %lld is not an aclmdlRICaptureMode", kApi,
                           static_cast<long long>(aclcpu::code_of(*mode)));
    }
    if (!Runtime::instance().current_context()) {
        return param_error(ACL_ERROR_RT_CONTEXT_NULL, "%s: no current context; call aclrtSetDevice first", kApi);
    }
    *mode = aclcpu::detail::exchange_thread_capture_mode(static_cast<aclmdlRICaptureMode>(aclcpu::code_of(*mode)));
    return ACL_SUCCESS;
}

aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream) {
    constexpr const char* kApi = "aclmdlRICaptureTaskGrpBegin";
    std::shared_ptr<Stream> target;
    std::shared_ptr<GraphModel> model;
    if (aclError status = resolve_capturing(stream, kApi, target, model); status != ACL_SUCCESS) return status;
    return model->begin_group(*target);
}

aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp* handle) {
    constexpr const char* kApi = "aclmdlRICaptureTaskGrpEnd";
    if (handle == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: handle is null", kApi);
    *handle = nullptr;
    std::shared_ptr<Stream> target;
    std::shared_ptr<GraphModel> model;
    if (aclError status = resolve_capturing(stream, kApi, target, model); status != ACL_SUCCESS) return status;
    auto group = std::make_shared<aclcpu::detail::TaskGroup>();
    if (aclError status = model->end_group(*target, group->nodes); status != ACL_SUCCESS) return status;
    group->model = model;
    *handle = Runtime::instance().add_task_group(std::move(group));
    return ACL_SUCCESS;
}

aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle) {
    constexpr const char* kApi = "aclmdlRICaptureTaskUpdateBegin";
    if (stream == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: stream is null", kApi);
    std::shared_ptr<Stream> updater;
    if (aclError status = resolve_updating_stream(stream, kApi, updater); status != ACL_SUCCESS) return status;
    if (updater->task_update()) {
        return param_error(ACL_ERROR_STREAM_TASK_GROUP_STATUS, "%s: stream %p is already updating a task group", kApi,
                           stream);
    }
    std::shared_ptr<aclcpu::detail::TaskGroup> group;
    if (aclError status = Runtime::instance().resolve_task_group(handle, kApi, group); status != ACL_SUCCESS) {
        return status;
    }
    std::shared_ptr<GraphModel> model = group->model.lock();
    if (!model) return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: the group's model was destroyed", kApi);
    if (group->updating.exchange(true)) {
        return param_error(ACL_ERROR_STREAM_TASK_GROUP_STATUS, "%s: task group %p is already being updated", kApi,
                           handle);
    }
    auto update = std::make_shared<aclcpu::detail::TaskUpdate>();
    update->group = std::move(group);
    update->model = std::move(model);
    updater->set_task_update(std::move(update));
    return ACL_SUCCESS;
}

aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream) {
    constexpr const char* kApi = "aclmdlRICaptureTaskUpdateEnd";
    if (stream == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: stream is null", kApi);
    std::shared_ptr<Stream> updater;
    if (aclError status = resolve_updating_stream(stream, kApi, updater); status != ACL_SUCCESS) return status;
    const std::shared_ptr<aclcpu::detail::TaskUpdate> update = updater->task_update();
    if (!update) {
        return param_error(ACL_ERROR_STREAM_TASK_GROUP_STATUS, "%s: stream %p is not updating a task group", kApi,
                           stream);
    }
    updater->set_task_update(nullptr);
    update->group->updating.store(false);
    return update->finish();
}

aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI, aclmdlRICaptureMode mode) {
    constexpr const char* kApi = "aclmdlRICaptureToModelRIBegin";
    if (stream == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: stream is null", kApi);
    if (modelRI == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: modelRI is null", kApi);
    std::shared_ptr<GraphModel> branch;
    if (aclError status = resolve_branch(modelRI, kApi, branch); status != ACL_SUCCESS) return status;
    return capture_begin(stream, aclcpu::code_of(mode), std::move(branch), kApi);
}

aclError aclmdlRITaskGetParams(aclmdlRITask /*task*/, aclmdlRITaskParams* /*params*/) {
    return not_supported(__func__, kNoTaskEditing);
}

aclError aclmdlRITaskSetParams(aclmdlRITask /*task*/, aclmdlRITaskParams* /*params*/) {
    return not_supported(__func__, kNoTaskEditing);
}

aclError aclmdlRIKernelTaskGetAttribute(aclmdlRITask /*task*/, aclrtLaunchKernelAttrId /*attrId*/,
                                        aclrtLaunchKernelAttrValue* /*attrValue*/) {
    return not_supported(__func__, kNoTaskEditing);
}

aclError aclmdlRIUpdate(aclmdlRI modelRI) {
    constexpr const char* kApi = "aclmdlRIUpdate";
    std::shared_ptr<GraphModel> model;
    if (aclError status = Runtime::instance().resolve_model(modelRI, kApi, model); status != ACL_SUCCESS) return status;
    if (model->status() != GraphModel::Status::kReady) {
        return param_error(ACL_ERROR_RT_MODEL_UPDATE_FAILED, "%s: model %p is not fully captured", kApi, modelRI);
    }
    // Task-group updates take effect in their updating stream's order; no
    // task of a ready model awaits anything else (aclmdlRITaskSetParams is
    // not offered).
    return ACL_SUCCESS;
}

aclError aclmdlRITaskDisable(aclmdlRITask /*task*/) { return not_supported(__func__, kNoTaskEditing); }

aclError aclmdlRIDebugPrint(aclmdlRI modelRI) {
    std::shared_ptr<GraphModel> model;
    if (aclError status = resolve_built_model(modelRI, "aclmdlRIDebugPrint", model); status != ACL_SUCCESS) {
        return status;
    }
    std::fputs(model->describe_json().c_str(), stdout);
    std::fflush(stdout);
    return ACL_SUCCESS;
}

aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char* path, uint32_t flags) {
    constexpr const char* kApi = "aclmdlRIDebugJsonPrint";
    if (modelRI == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: modelRI is null", kApi);
    if (path == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: path is null", kApi);
    if (flags != ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY && flags != ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: unknown flags 0x%x", kApi, flags);
    }
    std::shared_ptr<GraphModel> model;
    if (aclError status = resolve_built_model(modelRI, kApi, model); status != ACL_SUCCESS) return status;
    std::FILE* file = std::fopen(path, "w");
    if (file == nullptr) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: cannot open %s for writing: %s", kApi, path,
                           std::strerror(errno));
    }
    const std::string json = model->describe_json();
    const bool written = std::fwrite(json.data(), 1, json.size(), file) == json.size();
    if (std::fclose(file) != 0 || !written) {
        return runtime_error(ACL_ERROR_RT_FILE_WRITE, "%s: writing %s failed", kApi, path);
    }
    return ACL_SUCCESS;
}

aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream) { return execute_async(modelRI, stream); }

aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout) {
    constexpr const char* kApi = "aclmdlRIExecute";
    const ApiScope scope(kApi);
    if (aclError status = aclcpu::api::check_timeout(timeout, kApi); status != ACL_SUCCESS) return status;
    std::shared_ptr<GraphModel> model;
    if (aclError status = resolve_built_model(modelRI, kApi, model); status != ACL_SUCCESS) return status;
    if (model->origin() == GraphModel::Origin::kCapture) {
        // CANN executes a model made by capture only with aclmdlRIExecuteAsync.
        return param_error(ACL_ERROR_RT_PARAM_INVALID,
                           "%s: model %p was made by stream capture (ACL Graph), which this call does not execute; "
                           "use aclmdlRIExecuteAsync",
                           kApi, modelRI);
    }
    // The model runs on the current context's default stream, and the call
    // returns when that stream has finished it.
    std::shared_ptr<Stream> stream;
    if (aclError status = Runtime::instance().resolve_stream(nullptr, kApi, stream); status != ACL_SUCCESS) {
        return status;
    }
    if (&stream->device() != &model->device()) {
        return param_error(ACL_ERROR_RT_STREAM_CONTEXT, "%s: model %p is on device %d, the current context on %d",
                           kApi, modelRI, model->device().id(), stream->device().id());
    }
    model->enqueue_replay(*stream);
    return stream->synchronize_observed(aclcpu::detail::deadline_after(timeout), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
}

aclError aclmdlRIDestroy(aclmdlRI modelRI) { return destroy_model(modelRI); }

aclError aclmdlRIBuildBegin(aclmdlRI* modelRI, uint32_t flag) {
    constexpr const char* kApi = "aclmdlRIBuildBegin";
    if (modelRI == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: modelRI is null", kApi);
    if (flag != 0) return param_error(ACL_ERROR_INVALID_PARAM, "%s: flag %u is reserved and must be 0", kApi, flag);
    aclcpu::detail::Device* device = nullptr;
    if (aclError status = aclcpu::detail::current_device(kApi, device); status != ACL_SUCCESS) return status;
    *modelRI = Runtime::instance().add_model(std::make_shared<GraphModel>(*device));
    return ACL_SUCCESS;
}

aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag) {
    constexpr const char* kApi = "aclmdlRIBindStream";
    std::shared_ptr<GraphModel> model;
    if (aclError status = resolve_build(modelRI, kApi, model); status != ACL_SUCCESS) return status;
    if (stream == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: stream is null", kApi);
    std::shared_ptr<Stream> target;
    if (aclError status = Runtime::instance().resolve_stream(stream, kApi, target); status != ACL_SUCCESS) return status;
    if (aclError status = check_bindable(*target, stream, kApi); status != ACL_SUCCESS) return status;
    if (&target->device() != &model->device()) {
        return param_error(ACL_ERROR_RT_STREAM_CONTEXT, "%s: stream %p is on device %d, model %p on device %d", kApi,
                           stream, target->device().id(), modelRI, model->device().id());
    }
    // CANN: ACL_MODEL_STREAM_FLAG_HEAD (0) starts with the model; any other
    // flag (ACL_MODEL_STREAM_FLAG_DEFAULT) waits to be activated.
    if (aclError status = model->bind(target, flag == 0); status != ACL_SUCCESS) return status;
    target->set_bound_model(model);
    return ACL_SUCCESS;
}

aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream) {
    constexpr const char* kApi = "aclmdlRIEndTask";
    std::shared_ptr<GraphModel> model;
    std::shared_ptr<Stream> target;
    if (aclError status = resolve_bound_stream(modelRI, stream, kApi, model, target); status != ACL_SUCCESS) {
        return status;
    }
    // The end task stops its stream: nothing after it runs unless a jump leads there.
    auto stop = [] { return GraphModel::Flow{false, GraphModel::Flow::kNone}; };
    if (!model->append_control(*target, GraphModel::Control::kEnd, stop, {},
                               aclcpu::detail::CapturedWork{kApi, "end_task", {}, {}})) {
        return param_error(ACL_ERROR_RT_STREAM_MODEL, "%s: model %p's build has ended", kApi, modelRI);
    }
    return ACL_SUCCESS;
}

aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void* reserve) {
    constexpr const char* kApi = "aclmdlRIBuildEnd";
    if (reserve != nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: reserve must be null", kApi);
    std::shared_ptr<GraphModel> model;
    if (aclError status = resolve_build(modelRI, kApi, model); status != ACL_SUCCESS) return status;
    return model->finish_build();
}

aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream) {
    constexpr const char* kApi = "aclmdlRIUnbindStream";
    std::shared_ptr<GraphModel> model;
    std::shared_ptr<Stream> target;
    if (aclError status = resolve_bound_stream(modelRI, stream, kApi, model, target); status != ACL_SUCCESS) {
        return status;
    }
    model->unbind(*target);
    target->set_bound_model(nullptr);
    return ACL_SUCCESS;
}

aclError aclmdlRISetName(aclmdlRI modelRI, const char* name) {
    if (name == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclmdlRISetName: name is null");
    std::shared_ptr<GraphModel> model;
    if (aclError status = Runtime::instance().resolve_model(modelRI, "aclmdlRISetName", model); status != ACL_SUCCESS) {
        return status;
    }
    model->set_name(name);
    return ACL_SUCCESS;
}

aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char* name) {
    constexpr const char* kApi = "aclmdlRIGetName";
    if (name == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: name is null", kApi);
    if (maxLen == 0) return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: maxLen is 0", kApi);
    std::shared_ptr<GraphModel> model;
    if (aclError status = Runtime::instance().resolve_model(modelRI, kApi, model); status != ACL_SUCCESS) return status;
    const std::string stored = model->name();
    if (stored.size() >= maxLen) {
        return runtime_error(ACL_ERROR_RT_INTERNAL_ERROR, "%s: the name takes %zu bytes with its terminator, maxLen is %u",
                             kApi, stored.size() + 1, maxLen);
    }
    std::memcpy(name, stored.c_str(), stored.size() + 1);
    return ACL_SUCCESS;
}

aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t* modelRIId) {
    if (modelRIId == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclmdlRIGetId: modelRIId is null");
    std::shared_ptr<GraphModel> model;
    if (aclError status = Runtime::instance().resolve_model(modelRI, "aclmdlRIGetId", model); status != ACL_SUCCESS) {
        return status;
    }
    *modelRIId = model->id();
    return ACL_SUCCESS;
}

aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func, void* userData) {
    constexpr const char* kApi = "aclmdlRIDestroyRegisterCallback";
    if (func == nullptr) return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: func is null", kApi);
    std::shared_ptr<GraphModel> model;
    if (aclError status = Runtime::instance().resolve_model(modelRI, kApi, model); status != ACL_SUCCESS) return status;
    if (!model->add_destroy_callback(func, userData)) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: func is already registered on model %p", kApi, modelRI);
    }
    return ACL_SUCCESS;
}

aclError aclmdlRIDestroyUnregisterCallback(aclmdlRI modelRI, aclrtCallback func) {
    constexpr const char* kApi = "aclmdlRIDestroyUnregisterCallback";
    if (func == nullptr) return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: func is null", kApi);
    std::shared_ptr<GraphModel> model;
    if (aclError status = Runtime::instance().resolve_model(modelRI, kApi, model); status != ACL_SUCCESS) return status;
    if (!model->remove_destroy_callback(func)) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: func was not registered on model %p", kApi, modelRI);
    }
    return ACL_SUCCESS;
}

aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream* streams, uint32_t* numStreams) {
    constexpr const char* kApi = "aclmdlRIGetStreams";
    if (numStreams == nullptr) return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: numStreams is null", kApi);
    std::shared_ptr<GraphModel> model;
    if (aclError status = resolve_built_model(modelRI, kApi, model); status != ACL_SUCCESS) return status;
    const std::vector<aclrtStream> captured = model->streams();
    const auto count = static_cast<uint32_t>(captured.size());
    if (streams == nullptr) {
        *numStreams = count;
        return ACL_SUCCESS;
    }
    const uint32_t filled = std::min(*numStreams, count);
    std::copy_n(captured.begin(), filled, streams);
    std::fill(streams + filled, streams + *numStreams, nullptr);
    const uint32_t capacity = *numStreams;
    *numStreams = filled;
    if (capacity < count) {
        return param_error(ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY, "%s: the array holds %u streams, the model has %u",
                           kApi, capacity, count);
    }
    return ACL_SUCCESS;
}

aclError aclmdlRIGetTasksByStream(aclrtStream /*stream*/, aclmdlRITask* /*tasks*/, uint32_t* /*numTasks*/) {
    return not_supported(__func__, kNoTaskEditing);
}

aclError aclmdlRITaskGetType(aclmdlRITask /*task*/, aclmdlRITaskType* /*type*/) {
    return not_supported(__func__, kNoTaskEditing);
}

aclError aclmdlRITaskGetSeqId(aclmdlRITask /*task*/, uint32_t* /*id*/) {
    return not_supported(__func__, kNoTaskEditing);
}

aclError aclmdlRIAbort(aclmdlRI /*modelRI*/) {
    return not_supported(__func__, "CANN does not support aborting a model made by stream capture");
}

}  // extern "C"
