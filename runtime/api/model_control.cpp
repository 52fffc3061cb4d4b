// acl-cpu runtime API: control flow inside a model built on persistent
// streams (acl_rt.h; 10_label_management.md, 06_stream_management.md) --
// labels, label lists and the tasks that jump to them
// (aclrtSwitchLabelByIndex) or to other streams (aclrtSwitchStream,
// aclrtActiveStream).  Each task becomes a control node of the model being
// built (GraphModel::append_control), decided at every replay.
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "acl/acl_rt.h"
#include "aclcpu/dtype.hpp"
#include "aclcpu/instrumentation.hpp"
#include "core/errors.hpp"
#include "core/graph_model.hpp"
#include "core/handle_registry.hpp"
#include "core/objects.hpp"
#include "core/runtime_state.hpp"

using aclcpu::detail::CapturedWork;
using aclcpu::detail::DevicePool;
using aclcpu::detail::GraphModel;
using aclcpu::detail::HandleRegistry;
using aclcpu::detail::param_error;
using aclcpu::detail::Runtime;
using aclcpu::detail::runtime_error;
using aclcpu::detail::Stream;
using aclcpu::instrument::ApiScope;
using aclcpu::instrument::MemoryAccess;

namespace {

/// Labels per process, and labels per list (10_label_management.md).
constexpr int kMaxLabels = 65535;
constexpr size_t kMaxLabelsPerList = 65535;

struct Label {
    char identity;  ///< Gives every label its own address, its handle.
};

struct LabelList {
    std::vector<std::shared_ptr<Label>> labels;
};

HandleRegistry<Label>& labels() {
    static HandleRegistry<Label> registry("label");
    return registry;
}

HandleRegistry<LabelList>& label_lists() {
    static HandleRegistry<LabelList> registry;
    return registry;
}

std::atomic<int> gLiveLabels{0};

/// Takes one of the process's label slots; false when all are taken.
bool try_reserve_label() {
    int count = gLiveLabels.load(std::memory_order_relaxed);
    do {
        if (count >= kMaxLabels) return false;
    } while (!gLiveLabels.compare_exchange_weak(count, count + 1, std::memory_order_relaxed));
    return true;
}

template <typename T>
T read_operand(const void* address) {
    T value;
    std::memcpy(&value, address, sizeof(T));
    return value;
}

int64_t read_signed(const void* address, size_t bytes) {
    return bytes == sizeof(int32_t) ? read_operand<int32_t>(address) : read_operand<int64_t>(address);
}

/// aclrtSwitchStream's comparison, by its aclrtCondition code.
bool compares(int64_t left, int64_t right, int64_t condition) {
    switch (condition) {
        case ACL_RT_EQUAL: return left == right;
        case ACL_RT_NOT_EQUAL: return left != right;
        case ACL_RT_GREATER: return left > right;
        case ACL_RT_GREATER_OR_EQUAL: return left >= right;
        case ACL_RT_LESS: return left < right;
        default: return left <= right;  // ACL_RT_LESS_OR_EQUAL
    }
}

/// Resolves a stream that a control task (api) may go on: a persistent
/// stream bound to a model whose build is open (CANN:
/// ACL_ERROR_RT_STREAM_MODEL, "the relationship between the model and stream
/// is incorrect", otherwise).
aclError resolve_model_stream(aclrtStream handle, const char* api, std::shared_ptr<Stream>& stream,
                              std::shared_ptr<GraphModel>& model) {
    if (handle == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: stream is null", api);
    if (aclError status = Runtime::instance().resolve_stream(handle, api, stream); status != ACL_SUCCESS) return status;
    model = stream->is_persistent() ? stream->capturing_model() : nullptr;
    if (model && model->origin() == GraphModel::Origin::kBuild) return ACL_SUCCESS;
    return runtime_error(ACL_ERROR_RT_STREAM_MODEL,
                         "%s: stream %p is not a persistent stream bound to a model being built (aclmdlRIBuildBegin, "
                         "aclmdlRIBindStream)",
                         api, handle);
}

/// Resolves `other`, a stream a control task on `stream` leads to: bound to
/// the same model.
aclError resolve_peer_stream(aclrtStream other, aclrtStream stream, const char* api, std::shared_ptr<Stream>& peer) {
    std::shared_ptr<Stream> origin;
    std::shared_ptr<GraphModel> model;
    if (aclError status = resolve_model_stream(stream, api, origin, model); status != ACL_SUCCESS) return status;
    std::shared_ptr<GraphModel> peerModel;
    if (aclError status = resolve_model_stream(other, api, peer, peerModel); status != ACL_SUCCESS) return status;
    if (peerModel == model) return ACL_SUCCESS;
    return runtime_error(ACL_ERROR_RT_STREAM_MODEL, "%s: streams %p and %p are bound to different models", api, other,
                         stream);
}

/// Adds a control node (api) to the model being built from stream.
aclError append_control(aclrtStream handle, const char* api, GraphModel::Control control, GraphModel::Decide decide,
                        std::vector<GraphModel::JumpTarget> targets, std::vector<MemoryAccess> reads) {
    std::shared_ptr<Stream> stream;
    std::shared_ptr<GraphModel> model;
    if (aclError status = resolve_model_stream(handle, api, stream, model); status != ACL_SUCCESS) return status;
    if (model->append_control(*stream, control, std::move(decide), std::move(targets),
                              CapturedWork{api, "control", std::move(reads), {}})) {
        return ACL_SUCCESS;
    }
    return runtime_error(ACL_ERROR_RT_STREAM_MODEL, "%s: the build of stream %p's model ended meanwhile", api, handle);
}

}  // namespace

extern "C" {

aclError aclrtCreateLabel(aclrtLabel* label) {
    if (label == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtCreateLabel: label is null");
    aclcpu::detail::Device* device = nullptr;
    if (aclError status = aclcpu::detail::current_device("aclrtCreateLabel", device); status != ACL_SUCCESS) {
        return status;
    }
    if (!try_reserve_label()) {
        return runtime_error(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "aclrtCreateLabel: the process already has %d labels",
                             kMaxLabels);
    }
    *label = labels().add(std::make_shared<Label>());
    return ACL_SUCCESS;
}

aclError aclrtDestroyLabel(aclrtLabel label) {
    if (label == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtDestroyLabel: label is null");
    if (aclError status = labels().retire(label, "aclrtDestroyLabel"); status != ACL_SUCCESS) return status;
    gLiveLabels.fetch_sub(1, std::memory_order_relaxed);
    return ACL_SUCCESS;
}

aclError aclrtCreateLabelList(aclrtLabel* labelArray, size_t num, aclrtLabelList* labelList) {
    constexpr const char* api = "aclrtCreateLabelList";
    if (labelArray == nullptr || labelList == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: labels and labelList must not be null", api);
    }
    // rtsLabelSwitchListCreate checks num, then every label's handle.
    if (num == 0 || num > kMaxLabelsPerList) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: num %zu is not in (0, %zu]", api, num, kMaxLabelsPerList);
    }
    auto list = std::make_shared<LabelList>();
    list->labels.reserve(num);
    for (size_t i = 0; i < num; ++i) {
        std::shared_ptr<Label> label;
        if (aclError status = labels().resolve(labelArray[i], api, label); status != ACL_SUCCESS) return status;
        list->labels.push_back(std::move(label));
    }
    *labelList = label_lists().add(std::move(list));
    return ACL_SUCCESS;
}

aclError aclrtDestroyLabelList(aclrtLabelList labelList) {
    if (labelList == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtDestroyLabelList: labelList is null");
    if (!label_lists().remove(labelList)) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "aclrtDestroyLabelList: %p is not a live label list (never created, or already destroyed)",
                           labelList);
    }
    return ACL_SUCCESS;
}

aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream) {
    constexpr const char* kApi = "aclrtSetLabel";
    const ApiScope scope(kApi);
    if (label == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: label is null", kApi);
    std::shared_ptr<Label> live;
    if (aclError status = labels().resolve(label, kApi, live); status != ACL_SUCCESS) return status;
    std::shared_ptr<Stream> target;
    std::shared_ptr<GraphModel> model;
    if (aclError status = resolve_model_stream(stream, kApi, target, model); status != ACL_SUCCESS) return status;
    return model->set_label(*target, label);
}

aclError aclrtSwitchLabelByIndex(void* ptr, uint32_t maxValue, aclrtLabelList labelList, aclrtStream stream) {
    constexpr const char* kApi = "aclrtSwitchLabelByIndex";
    const ApiScope scope(kApi);
    if (ptr == nullptr || labelList == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: ptr and labelList must not be null", kApi);
    }
    const std::shared_ptr<LabelList> list = label_lists().find(labelList);
    if (!list) return param_error(ACL_ERROR_INVALID_PARAM, "%s: %p is not a live label list", kApi, labelList);
    if (maxValue == 0 || maxValue > list->labels.size()) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: maxValue %u is not in [1, %zu], the labels of the list", kApi,
                           maxValue, list->labels.size());
    }
    if (aclError status = Runtime::instance().check_live_device_range(ptr, sizeof(uint32_t), kApi, "ptr");
        status != ACL_SUCCESS) {
        return status;
    }
    std::vector<GraphModel::JumpTarget> targets;
    for (uint32_t i = 0; i < maxValue; ++i) targets.push_back(GraphModel::JumpTarget{list->labels[i].get(), nullptr});
    const auto* index = static_cast<const uint32_t*>(ptr);
    // CANN: an index past the list jumps to its last label.
    auto decide = [index, maxValue] {
        return GraphModel::Flow{false, static_cast<int>(std::min(read_operand<uint32_t>(index), maxValue - 1))};
    };
    return append_control(stream, kApi, GraphModel::Control::kJump, std::move(decide), std::move(targets),
                          {MemoryAccess{ptr, sizeof(uint32_t), MemoryAccess::Kind::kRead, "ptr"}});
}

aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream) {
    constexpr const char* kApi = "aclrtActiveStream";
    const ApiScope scope(kApi);
    if (activeStream == nullptr || stream == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: activeStream and stream must not be null", kApi);
    }
    std::shared_ptr<Stream> activated;
    if (aclError status = resolve_peer_stream(activeStream, stream, kApi, activated); status != ACL_SUCCESS) {
        return status;
    }
    // Activation starts the other stream beside this one, which goes on.
    auto decide = [] { return GraphModel::Flow{true, 0}; };
    return append_control(stream, kApi, GraphModel::Control::kActivate, std::move(decide),
                          {GraphModel::JumpTarget{nullptr, activated.get()}}, {});
}

aclError aclrtSwitchStream(void* leftValue, aclrtCondition cond, void* rightValue, aclrtCompareDataType dataType,
                           aclrtStream trueStream, aclrtStream falseStream, aclrtStream stream) {
    constexpr const char* kApi = "aclrtSwitchStream";
    const ApiScope scope(kApi);
    if (leftValue == nullptr || rightValue == nullptr || trueStream == nullptr || stream == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: leftValue, rightValue, trueStream and stream must not be null",
                           kApi);
    }
    if (falseStream != nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: falseStream is reserved and must be null", kApi);
    }
    const int64_t condition = aclcpu::code_of(cond);
    const int64_t type = aclcpu::code_of(dataType);
    if (condition < ACL_RT_EQUAL || condition > ACL_RT_LESS_OR_EQUAL) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: cond %lld is not an aclrtCondition", kApi,
                           static_cast<long long>(condition));
    }
    if (type != ACL_RT_SWITCH_INT32 && type != ACL_RT_SWITCH_INT64) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: dataType %lld is not an aclrtCompareDataType", kApi,
                           static_cast<long long>(type));
    }
    const size_t bytes = type == ACL_RT_SWITCH_INT32 ? sizeof(int32_t) : sizeof(int64_t);
    for (const auto& [operand, name] : {std::make_pair(leftValue, "leftValue"), std::make_pair(rightValue, "rightValue")}) {
        if (aclError status = Runtime::instance().check_live_device_range(operand, bytes, kApi, name);
            status != ACL_SUCCESS) {
            return status;
        }
    }
    std::shared_ptr<Stream> target;
    if (aclError status = resolve_peer_stream(trueStream, stream, kApi, target); status != ACL_SUCCESS) return status;
    // Taken, the switch leaves this stream for trueStream; otherwise it goes on.
    auto decide = [leftValue, rightValue, condition, bytes] {
        const int64_t left = read_signed(leftValue, bytes);
        const int64_t right = read_signed(rightValue, bytes);
        return compares(left, right, condition) ? GraphModel::Flow{false, 0}
                                                : GraphModel::Flow{true, GraphModel::Flow::kNone};
    };
    return append_control(stream, kApi, GraphModel::Control::kBranch, std::move(decide),
                          {GraphModel::JumpTarget{nullptr, target.get()}},
                          {MemoryAccess{leftValue, bytes, MemoryAccess::Kind::kRead, "leftValue"},
                           MemoryAccess{rightValue, bytes, MemoryAccess::Kind::kRead, "rightValue"}});
}

aclError aclrtPersistentTaskClean(aclrtStream stream) {
    constexpr const char* kApi = "aclrtPersistentTaskClean";
    if (stream == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: stream is null", kApi);
    std::shared_ptr<Stream> target;
    if (aclError status = Runtime::instance().resolve_stream(stream, kApi, target); status != ACL_SUCCESS) {
        return status;
    }
    if (!target->is_persistent()) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: stream %p was not created with ACL_STREAM_PERSISTENT", kApi,
                           stream);
    }
    // The tasks a persistent stream took belong to the model that recorded
    // them, which keeps them until it is destroyed; an unbound stream holds
    // none.  A stream still recording for a model cannot drop its part.
    if (target->is_captured()) {
        return runtime_error(ACL_ERROR_RT_STREAM_MODEL,
                             "%s: stream %p is recording for a model being built; unbind it first "
                             "(aclmdlRIUnbindStream)",
                             kApi, stream);
    }
    return ACL_SUCCESS;
}

}  // extern "C"
