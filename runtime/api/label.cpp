// acl-cpu runtime API: labels (acl_rt.h).
//
// Labels and label lists are real objects with CANN's limits, but the jumps
// they serve (aclrtSetLabel, aclrtSwitchLabelByIndex) act on streams bound
// to a model runtime instance, which acl-cpu does not build.
#include <atomic>
#include <memory>
#include <vector>

#include "acl/acl_rt.h"
#include "api/unsupported.hpp"
#include "core/errors.hpp"
#include "core/handle_registry.hpp"
#include "core/runtime_state.hpp"

using aclcpu::api::not_supported;
using aclcpu::detail::HandleRegistry;
using aclcpu::detail::param_error;
using aclcpu::detail::runtime_error;

namespace {

/// Labels per process, and labels per list (10_label_management.md).
constexpr int kMaxLabels = 65535;
constexpr size_t kMaxLabelsPerList = 65535;

constexpr char kNoModelStreams[] =
    "labels mark positions in streams bound to a model runtime instance (aclmdlRIBindStream), which acl-cpu does "
    "not build";

struct Label {
    char identity;  ///< Gives every label its own address, its handle.
};

struct LabelList {
    std::vector<std::shared_ptr<Label>> labels;
};

HandleRegistry<Label>& labels() {
    static HandleRegistry<Label> registry;
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
    if (!labels().remove(label)) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "aclrtDestroyLabel: %p is not a live label (never created, or already destroyed)", label);
    }
    gLiveLabels.fetch_sub(1, std::memory_order_relaxed);
    return ACL_SUCCESS;
}

aclError aclrtCreateLabelList(aclrtLabel* labelArray, size_t num, aclrtLabelList* labelList) {
    constexpr const char* api = "aclrtCreateLabelList";
    if (labelArray == nullptr || labelList == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: labels and labelList must not be null", api);
    }
    if (num == 0 || num > kMaxLabelsPerList) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: num %zu is not in (0, %zu]", api, num, kMaxLabelsPerList);
    }
    auto list = std::make_shared<LabelList>();
    list->labels.reserve(num);
    for (size_t i = 0; i < num; ++i) {
        std::shared_ptr<Label> label = labels().find(labelArray[i]);
        if (!label) {
            return param_error(ACL_ERROR_INVALID_PARAM, "%s: labels[%zu] = %p is not a live label", api, i,
                               labelArray[i]);
        }
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

aclError aclrtSetLabel(aclrtLabel, aclrtStream) { return not_supported(__func__, kNoModelStreams); }

aclError aclrtSwitchLabelByIndex(void*, uint32_t, aclrtLabelList, aclrtStream) {
    return not_supported(__func__, kNoModelStreams);
}

}  // extern "C"
