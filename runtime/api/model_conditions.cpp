// acl-cpu runtime API: conditional tasks of captured models
// (aclmdlRICondHandleCreate, aclmdlRICondHandleGetCondPtr,
// aclmdlRIAddCondTask; acl_rt.h).  The checks and their order are CANN's:
// the acl layer (src/acl/aclrt_impl/model_ri.cpp) refuses null pointers
// with ACL_ERROR_INVALID_PARAM, the rts layer's handle check
// (RT_VALIDATE_AND_UNWRAP_OBJECT) an unknown handle with
// ACL_ERROR_RT_INVALID_HANDLE, ApiErrorDecorator
// (src/runtime/feature/aclgraph/api_error_aclgraph.cc) and ApiImpl
// (src/runtime/feature/aclgraph/v100/api_impl_aclgraph.cc) the rest.
#include <map>
#include <mutex>

#include "acl/acl_rt.h"
#include "aclcpu/dtype.hpp"
#include "core/errors.hpp"
#include "core/graph_condition.hpp"
#include "core/graph_model.hpp"
#include "core/objects.hpp"
#include "core/runtime_state.hpp"

using aclcpu::detail::CondHandle;
using aclcpu::detail::GraphModel;
using aclcpu::detail::param_error;
using aclcpu::detail::Runtime;
using aclcpu::detail::Stream;

namespace {

/// The handles given out: each owned by the model it was made for, and
/// gone with it.
class CondHandles {
public:
    static CondHandles& instance() {
        static CondHandles handles;
        return handles;
    }

    void add(const std::shared_ptr<CondHandle>& handle) {
        std::lock_guard<std::mutex> lock(mutex_);
        for (auto it = handles_.begin(); it != handles_.end();) {
            it = it->second.expired() ? handles_.erase(it) : std::next(it);
        }
        handles_[handle.get()] = handle;
    }

    /// ACL_ERROR_RT_INVALID_HANDLE (reported) for a handle never made, or
    /// whose model was destroyed.
    aclError resolve(aclmdlRICondHandle handle, const char* api, std::shared_ptr<CondHandle>& found) const {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            const auto it = handles_.find(handle);
            if (it != handles_.end()) found = it->second.lock();
        }
        if (found && found->parent()) return ACL_SUCCESS;
        found.reset();
        return param_error(ACL_ERROR_RT_INVALID_HANDLE,
                           "%s: %p is not a live condition handle (never made, or its model was destroyed)", api,
                           handle);
    }

private:
    mutable std::mutex mutex_;
    std::map<const void*, std::weak_ptr<CondHandle>> handles_;
};

/// CheckCondTaskParamsSize (src/runtime/core/src/task/task_info/cond_op/
/// aclgraph_cond_task.cc): an IF takes 1 or 2 branches, a WHILE 1, a
/// SWITCH at least 1.
bool branch_count_fits(int64_t type, uint32_t size) {
    if (type == ACL_MODEL_RI_COND_TYPE_IF) return size == 1 || size == 2;
    if (type == ACL_MODEL_RI_COND_TYPE_WHILE) return size == 1;
    return size > 0;
}

/// ApiErrorDecorator::StreamAddCondTask's checks of the arguments.
aclError check_cond_task_arguments(const aclmdlRICondTaskParams& params, uint32_t flags, const char* api) {
    const int64_t type = aclcpu::code_of(params.type);
    if (type < ACL_MODEL_RI_COND_TYPE_IF || type > ACL_MODEL_RI_COND_TYPE_SWITCH) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: params.type %lld is not an aclmdlRICondTaskType", api,
                           static_cast<long long>(type));
    }
    if (flags != 0) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: flags %u is reserved and must be 0", api, flags);
    }
    if (params.handle == nullptr) return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: params.handle is null", api);
    if (params.modelRIArray == nullptr) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: params.modelRIArray is null", api);
    }
    return ACL_SUCCESS;
}

/// ApiImpl::StreamAddCondTaskParasCheck: a handle without a task, made for
/// the model that captures stream, and a branch count that fits the type.
aclError check_cond_task_target(const CondHandle& handle, const aclmdlRICondTaskParams& params, const Stream& stream,
                                const char* api) {
    if (handle.has_task()) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID,
                           "%s: the condition handle has a conditional task already; make a new handle for another",
                           api);
    }
    const std::shared_ptr<aclcpu::detail::Context> context = Runtime::instance().current_context();
    if (context && &context->device() != &stream.device()) {
        return param_error(ACL_ERROR_RT_STREAM_CONTEXT, "%s: stream %p is not on the current context's device", api,
                           static_cast<const void*>(&stream));
    }
    const std::shared_ptr<GraphModel> capturing = stream.is_persistent() ? nullptr : stream.capturing_model();
    if (!capturing) {
        return param_error(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                           "%s: stream %p must be captured (aclmdlRICaptureBegin) before it takes a conditional task",
                           api, static_cast<const void*>(&stream));
    }
    if (capturing != handle.parent()) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID,
                           "%s: the condition handle was made for another model than the one capturing stream %p", api,
                           static_cast<const void*>(&stream));
    }
    if (!branch_count_fits(aclcpu::code_of(params.type), params.size)) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID,
                           "%s: params.size %u does not fit the task (IF: 1 or 2, WHILE: 1, SWITCH: at least 1)", api,
                           params.size);
    }
    return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue, aclmdlRICondHandleFlag flag,
                                  aclmdlRICondHandle* handle) {
    constexpr const char* kApi = "aclmdlRICondHandleCreate";
    if (modelRI == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: modelRI is null", kApi);
    if (handle == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: handle is null", kApi);
    std::shared_ptr<GraphModel> model;
    if (aclError status = Runtime::instance().resolve_model(modelRI, kApi, model); status != ACL_SUCCESS) return status;
    const int64_t flagCode = aclcpu::code_of(flag);
    if (flagCode < 0 || flagCode > ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID,
                           "%s: flag %lld is not 0 or ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT", kApi,
                           static_cast<long long>(flagCode));
    }
    if (model->origin() != GraphModel::Origin::kCapture) {
        return param_error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                           "%s: model %p was built (aclmdlRIBuildBegin); condition handles belong to captured models",
                           kApi, modelRI);
    }
    if (!model->is_capturing() || model->status() != GraphModel::Status::kCapturing) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: model %p is not being captured (or its capture is invalid)",
                           kApi, modelRI);
    }
    std::shared_ptr<CondHandle> made;
    const bool assignDefault = flagCode == ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT;
    if (aclError status = CondHandle::create(model->device(), model, defaultLaunchValue, assignDefault, made);
        status != ACL_SUCCESS) {
        return status;
    }
    model->add_condition(made);
    CondHandles::instance().add(made);
    *handle = made.get();
    return ACL_SUCCESS;
}

aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t** ptr) {
    constexpr const char* kApi = "aclmdlRICondHandleGetCondPtr";
    if (handle == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: handle is null", kApi);
    if (ptr == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: ptr is null", kApi);
    std::shared_ptr<CondHandle> found;
    if (aclError status = CondHandles::instance().resolve(handle, kApi, found); status != ACL_SUCCESS) return status;
    *ptr = found->word();
    return ACL_SUCCESS;
}

aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags) {
    constexpr const char* kApi = "aclmdlRIAddCondTask";
    if (stream == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: stream is null", kApi);
    std::shared_ptr<CondHandle> handle;
    if (params.handle != nullptr) {
        if (aclError status = CondHandles::instance().resolve(params.handle, kApi, handle); status != ACL_SUCCESS) {
            return status;
        }
    }
    std::shared_ptr<Stream> target;
    if (aclError status = Runtime::instance().resolve_stream(stream, kApi, target); status != ACL_SUCCESS) {
        return status;
    }
    if (aclError status = check_cond_task_arguments(params, flags, kApi); status != ACL_SUCCESS) return status;
    if (aclError status = check_cond_task_target(*handle, params, *target, kApi); status != ACL_SUCCESS) return status;

    const std::shared_ptr<GraphModel> parent = target->capturing_model();
    std::vector<std::shared_ptr<GraphModel>> branches;
    for (uint32_t i = 0; i < params.size; ++i) {
        branches.push_back(parent->make_branch());
        params.modelRIArray[i] = Runtime::instance().add_model(branches.back());
    }
    // The task is a node of the capture: each replay that reaches it runs
    // the branch its word chooses before the stream's next node.
    const auto arm = [handle](aclcpu::detail::LateDelivery gate) { handle->run(std::move(gate)); };
    const std::optional<aclError> captured =
        target->capture_late(arm, aclcpu::detail::CapturedWork{kApi, "condition", {}, {}});
    if (!captured || *captured != ACL_SUCCESS) {
        // CANN destroys the branches and clears the array (Context::StreamAddCondTask).
        for (uint32_t i = 0; i < params.size; ++i) {
            Runtime::instance().remove_model(params.modelRIArray[i]);
            params.modelRIArray[i] = nullptr;
        }
        if (captured) return *captured;
        return param_error(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "%s: the capture of stream %p ended meanwhile", kApi,
                           stream);
    }
    handle->set_task(static_cast<aclmdlRICondTaskType>(aclcpu::code_of(params.type)), std::move(branches));
    return ACL_SUCCESS;
}

}  // extern "C"
