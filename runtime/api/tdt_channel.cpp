// acl-cpu runtime: tensor data transfer (acl_tdt.h; api_ref
// 17-01_tensor_data_transfer.md and 25-03_Operation_APIs.md, acltdtDataItem
// and acltdtDataset).  Datasets of tensors go through an in-process channel:
// a send copies the dataset's tensors into the channel, a receive hands them
// to the receiving dataset, which owns them from then on.
#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>

#include "acl/acl_tdt.h"
#include "aclcpu/dtype.hpp"
#include "api/arguments.hpp"
#include "api/tdt_arguments.hpp"
#include "core/errors.hpp"
#include "core/tdt_channel.hpp"

using aclcpu::api::check_tdt_timeout;
using aclcpu::api::find_live;
using aclcpu::api::remove_live;
using aclcpu::detail::param_error;
using aclcpu::detail::tdt_channels;
using aclcpu::detail::tdt_data_items;
using aclcpu::detail::tdt_datasets;
using aclcpu::detail::TdtChannel;
using aclcpu::detail::TdtDataItem;
using aclcpu::detail::TdtDataset;
using aclcpu::detail::TdtMessage;

namespace {

/// acltdtCreateDataItem refuses more dimensions than this.
constexpr size_t kMaxDims = 128;

/// acltdtCreateChannel's channels have no documented capacity; they get the
/// largest one acltdtCreateChannelWithCapacity allows.
constexpr size_t kDefaultChannelCapacity = aclcpu::api::kMaxTdtDepth;

std::shared_ptr<TdtDataItem> find_item(const acltdtDataItem* handle, const char* api) {
    return find_live(tdt_data_items(), handle, api, "dataItem");
}

std::shared_ptr<TdtDataset> find_dataset(const acltdtDataset* handle, const char* api) {
    return find_live(tdt_datasets(), handle, api, "dataset");
}

std::shared_ptr<TdtChannel> find_channel(const acltdtChannelHandle* handle, const char* api) {
    return find_live(tdt_channels(), handle, api, "channel handle");
}

acltdtDataItem* item_handle(const std::shared_ptr<TdtDataItem>& item) {
    return reinterpret_cast<acltdtDataItem*>(item.get());
}

bool is_tensor_type(int64_t type) { return type >= ACL_TENSOR_DATA_TENSOR && type <= ACL_TENSOR_DATA_END_TENSOR; }

/// Why acltdtCreateDataItem refuses these arguments, or nullptr.  Only
/// ACL_TENSOR_DATA_TENSOR items carry a shape and data; the others are
/// markers (end of sequence, abnormal, ...) without dims.
const char* data_item_refusal(int64_t type, const int64_t* dims, size_t dimNum, int64_t dtype, const void* data,
                              size_t size) {
    if (!is_tensor_type(type)) return "tdtType is not an acltdtTensorType value";
    if (type == ACL_TENSOR_DATA_TENSOR && !aclcpu::is_dtype_code(dtype)) return "dataType is not an aclDataType value";
    if (dims == nullptr && dimNum != 0) return "dims is null but dimNum is not 0";
    if (dims != nullptr && dimNum == 0) return "dims is not null but dimNum is 0";
    if (dimNum > kMaxDims) return "dimNum is above 128";
    if (type != ACL_TENSOR_DATA_TENSOR && dims != nullptr) return "only ACL_TENSOR_DATA_TENSOR items have dims";
    if (type == ACL_TENSOR_DATA_TENSOR && data == nullptr && size != 0) return "data is null but size is not 0";
    return nullptr;
}

/// Removes a received dataset's items from the live items: they die with it.
void forget_received_items(const TdtDataset& dataset) {
    if (!dataset.received) return;
    for (const std::shared_ptr<TdtDataItem>& item : dataset.items) tdt_data_items().remove(item.get());
}

acltdtChannelHandle* create_channel(uint32_t deviceId, const char* name, size_t capacity, bool withCapacity,
                                    const char* api) {
    if (aclcpu::api::check_device_id(deviceId, api) != ACL_SUCCESS) return nullptr;
    if (name == nullptr) {
        param_error(ACL_ERROR_INVALID_PARAM, "%s: name is null", api);
        return nullptr;
    }
    if (std::strlen(name) + 1 > aclcpu::api::kMaxTdtNameBytes) {
        param_error(ACL_ERROR_INVALID_PARAM, "%s: name \"%s\" is longer than 127 characters", api, name);
        return nullptr;
    }
    if (capacity < aclcpu::api::kMinTdtDepth || capacity > aclcpu::api::kMaxTdtDepth) {
        param_error(ACL_ERROR_INVALID_PARAM, "%s: capacity %zu is not in [2, 8192]", api, capacity);
        return nullptr;
    }
    return static_cast<acltdtChannelHandle*>(
        tdt_channels().add(std::make_shared<TdtChannel>(name, capacity, withCapacity)));
}

/// Resolves a channel created by acltdtCreateChannelWithCapacity, the only
/// kind acltdtQueryChannelSize and acltdtCleanChannel serve.
aclError find_channel_with_capacity(const acltdtChannelHandle* handle, const char* api,
                                    std::shared_ptr<TdtChannel>& channel) {
    channel = find_channel(handle, api);
    if (!channel) return ACL_ERROR_INVALID_PARAM;
    if (!channel->created_with_capacity()) {
        return param_error(ACL_ERROR_FEATURE_UNSUPPORTED,
                           "%s: channel \"%s\" was not created by acltdtCreateChannelWithCapacity", api,
                           channel->name().c_str());
    }
    return ACL_SUCCESS;
}

}  // namespace

extern "C" {

// ---- data items ----------------------------------------------------------

acltdtDataItem* acltdtCreateDataItem(acltdtTensorType tdtType, const int64_t* dims, size_t dimNum, aclDataType dataType,
                                     void* data, size_t size) {
    // Enumeration arguments are read as the integers a C caller may pass.
    const int64_t type = aclcpu::code_of(tdtType);
    const int64_t dtype = aclcpu::code_of(dataType);
    if (const char* refusal = data_item_refusal(type, dims, dimNum, dtype, data, size)) {
        param_error(ACL_ERROR_INVALID_PARAM, "acltdtCreateDataItem: %s (tdtType %lld, dataType %lld, dimNum %zu, size %zu)",
                    refusal, static_cast<long long>(type), static_cast<long long>(dtype), dimNum, size);
        return nullptr;
    }
    auto item = std::make_shared<TdtDataItem>();
    item->tensorType = static_cast<acltdtTensorType>(type);
    if (type == ACL_TENSOR_DATA_TENSOR) {
        item->dims.assign(dims, dims + dimNum);
        item->dataType = aclcpu::dtype_from_code(dtype);
        item->data = data;
        item->size = size;
    }
    return static_cast<acltdtDataItem*>(tdt_data_items().add(std::move(item)));
}

aclError acltdtDestroyDataItem(acltdtDataItem* dataItem) {
    constexpr const char* api = "acltdtDestroyDataItem";
    const std::shared_ptr<TdtDataItem> item = find_item(dataItem, api);
    if (!item) return ACL_ERROR_INVALID_PARAM;
    if (item->ownedByDataset) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "%s: %p was received by acltdtReceiveTensor; destroying its dataset destroys it", api,
                           static_cast<void*>(dataItem));
    }
    tdt_data_items().remove(dataItem);
    return ACL_SUCCESS;
}

acltdtTensorType acltdtGetTensorTypeFromItem(const acltdtDataItem* dataItem) {
    const std::shared_ptr<TdtDataItem> item = find_item(dataItem, "acltdtGetTensorTypeFromItem");
    return item ? item->tensorType : ACL_TENSOR_DATA_UNDEFINED;
}

aclDataType acltdtGetDataTypeFromItem(const acltdtDataItem* dataItem) {
    const std::shared_ptr<TdtDataItem> item = find_item(dataItem, "acltdtGetDataTypeFromItem");
    return item ? item->dataType : ACL_DT_UNDEFINED;
}

void* acltdtGetDataAddrFromItem(const acltdtDataItem* dataItem) {
    const std::shared_ptr<TdtDataItem> item = find_item(dataItem, "acltdtGetDataAddrFromItem");
    return item ? item->data : nullptr;
}

size_t acltdtGetDataSizeFromItem(const acltdtDataItem* dataItem) {
    const std::shared_ptr<TdtDataItem> item = find_item(dataItem, "acltdtGetDataSizeFromItem");
    return item ? item->size : 0;
}

size_t acltdtGetDimNumFromItem(const acltdtDataItem* dataItem) {
    const std::shared_ptr<TdtDataItem> item = find_item(dataItem, "acltdtGetDimNumFromItem");
    return item ? item->dims.size() : 0;
}

aclError acltdtGetSliceInfoFromItem(const acltdtDataItem* dataItem, size_t* sliceNum, size_t* sliceId) {
    constexpr const char* api = "acltdtGetSliceInfoFromItem";
    if (sliceNum == nullptr || sliceId == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: sliceNum or sliceId is null", api);
    }
    const std::shared_ptr<TdtDataItem> item = find_item(dataItem, api);
    if (!item) return ACL_ERROR_INVALID_PARAM;
    *sliceNum = item->sliceNum;
    *sliceId = item->sliceId;
    return ACL_SUCCESS;
}

/// dims receives the item's dimensions; dimNum is its capacity, at least the item's dimension count.
aclError acltdtGetDimsFromItem(const acltdtDataItem* dataItem, int64_t* dims, size_t dimNum) {
    constexpr const char* api = "acltdtGetDimsFromItem";
    const std::shared_ptr<TdtDataItem> item = find_item(dataItem, api);
    if (!item) return ACL_ERROR_INVALID_PARAM;
    if ((dims == nullptr) != (dimNum == 0)) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: dims is %s but dimNum is %zu", api,
                           dims == nullptr ? "null" : "not null", dimNum);
    }
    if (dimNum < item->dims.size()) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: dimNum %zu is below the item's %zu dimensions", api, dimNum,
                           item->dims.size());
    }
    std::copy(item->dims.begin(), item->dims.end(), dims);
    return ACL_SUCCESS;
}

// ---- datasets ------------------------------------------------------------

acltdtDataset* acltdtCreateDataset() {
    return static_cast<acltdtDataset*>(tdt_datasets().add(std::make_shared<TdtDataset>()));
}

/// A received dataset destroys its items; a user-filled one leaves them to the user.
aclError acltdtDestroyDataset(acltdtDataset* dataset) {
    const std::shared_ptr<TdtDataset> target = remove_live(tdt_datasets(), dataset, "acltdtDestroyDataset", "dataset");
    if (!target) return ACL_ERROR_INVALID_PARAM;
    forget_received_items(*target);
    return ACL_SUCCESS;
}

aclError acltdtAddDataItem(acltdtDataset* dataset, acltdtDataItem* dataItem) {
    constexpr const char* api = "acltdtAddDataItem";
    const std::shared_ptr<TdtDataset> target = find_dataset(dataset, api);
    if (!target) return ACL_ERROR_INVALID_PARAM;
    const std::shared_ptr<TdtDataItem> item = find_item(dataItem, api);
    if (!item) return ACL_ERROR_INVALID_PARAM;
    if (target->received) {
        return param_error(ACL_ERROR_FEATURE_UNSUPPORTED,
                           "%s: the dataset was filled by acltdtReceiveTensor and owns its items; add to a new one",
                           api);
    }
    target->items.push_back(item);
    return ACL_SUCCESS;
}

acltdtDataItem* acltdtGetDataItem(const acltdtDataset* dataset, size_t index) {
    constexpr const char* api = "acltdtGetDataItem";
    const std::shared_ptr<TdtDataset> target = find_dataset(dataset, api);
    if (!target) return nullptr;
    if (index >= target->items.size()) {
        param_error(ACL_ERROR_INVALID_PARAM, "%s: index %zu is not below the dataset's size %zu", api, index,
                    target->items.size());
        return nullptr;
    }
    return item_handle(target->items[index]);
}

size_t acltdtGetDatasetSize(const acltdtDataset* dataset) {
    const std::shared_ptr<TdtDataset> target = find_dataset(dataset, "acltdtGetDatasetSize");
    return target ? target->items.size() : 0;
}

/// The name lives as long as the dataset.
const char* acltdtGetDatasetName(const acltdtDataset* dataset) {
    const std::shared_ptr<TdtDataset> target = find_dataset(dataset, "acltdtGetDatasetName");
    return target ? target->name.c_str() : nullptr;
}

// ---- channels ------------------------------------------------------------

acltdtChannelHandle* acltdtCreateChannel(uint32_t deviceId, const char* name) {
    return create_channel(deviceId, name, kDefaultChannelCapacity, false, "acltdtCreateChannel");
}

acltdtChannelHandle* acltdtCreateChannelWithCapacity(uint32_t deviceId, const char* name, size_t capacity) {
    return create_channel(deviceId, name, capacity, true, "acltdtCreateChannelWithCapacity");
}

/// Wakes the threads blocked in acltdtSendTensor / acltdtReceiveTensor on
/// the channel; they, and every later send or receive, fail.
aclError acltdtStopChannel(acltdtChannelHandle* handle) {
    const std::shared_ptr<TdtChannel> channel = find_channel(handle, "acltdtStopChannel");
    if (!channel) return ACL_ERROR_INVALID_PARAM;
    channel->stop();
    return ACL_SUCCESS;
}

/// Stops the channel first, so no thread stays blocked on a destroyed channel.
aclError acltdtDestroyChannel(acltdtChannelHandle* handle) {
    const std::shared_ptr<TdtChannel> channel =
        remove_live(tdt_channels(), handle, "acltdtDestroyChannel", "channel handle");
    if (!channel) return ACL_ERROR_INVALID_PARAM;
    channel->stop();
    return ACL_SUCCESS;
}

aclError acltdtCleanChannel(acltdtChannelHandle* handle) {
    std::shared_ptr<TdtChannel> channel;
    if (aclError status = find_channel_with_capacity(handle, "acltdtCleanChannel", channel); status != ACL_SUCCESS) {
        return status;
    }
    channel->clean();
    return ACL_SUCCESS;
}

aclError acltdtQueryChannelSize(const acltdtChannelHandle* handle, size_t* size) {
    constexpr const char* api = "acltdtQueryChannelSize";
    if (size == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: size is null", api);
    std::shared_ptr<TdtChannel> channel;
    if (aclError status = find_channel_with_capacity(handle, api, channel); status != ACL_SUCCESS) return status;
    *size = channel->size();
    return ACL_SUCCESS;
}

/// Copies the dataset's tensors into the channel: the caller may reuse its
/// buffers as soon as this returns.
aclError acltdtSendTensor(const acltdtChannelHandle* handle, const acltdtDataset* dataset, int32_t timeout) {
    constexpr const char* api = "acltdtSendTensor";
    const std::shared_ptr<TdtChannel> channel = find_channel(handle, api);
    if (!channel) return ACL_ERROR_INVALID_PARAM;
    const std::shared_ptr<TdtDataset> source = find_dataset(dataset, api);
    if (!source) return ACL_ERROR_INVALID_PARAM;
    if (aclError status = check_tdt_timeout(timeout, api); status != ACL_SUCCESS) return status;
    if (source->items.empty()) return param_error(ACL_ERROR_INVALID_PARAM, "%s: the dataset holds no data item", api);
    TdtMessage message;
    message.reserve(source->items.size());
    for (const std::shared_ptr<TdtDataItem>& item : source->items) message.push_back(item->owning_copy());
    return channel->send(std::move(message), timeout, api);
}

/// Fills an empty dataset (or replaces what an earlier receive put into it)
/// with the oldest dataset of the channel; the dataset owns the new items.
aclError acltdtReceiveTensor(const acltdtChannelHandle* handle, acltdtDataset* dataset, int32_t timeout) {
    constexpr const char* api = "acltdtReceiveTensor";
    const std::shared_ptr<TdtChannel> channel = find_channel(handle, api);
    if (!channel) return ACL_ERROR_INVALID_PARAM;
    const std::shared_ptr<TdtDataset> target = find_dataset(dataset, api);
    if (!target) return ACL_ERROR_INVALID_PARAM;
    if (aclError status = check_tdt_timeout(timeout, api); status != ACL_SUCCESS) return status;
    if (!target->items.empty() && !target->received) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "%s: the dataset holds the caller's items; receive into an empty dataset", api);
    }
    TdtMessage message;
    if (aclError status = channel->receive(message, timeout, api); status != ACL_SUCCESS) return status;
    forget_received_items(*target);
    for (const std::shared_ptr<TdtDataItem>& item : message) {
        item->ownedByDataset = true;
        tdt_data_items().add(item);
    }
    target->items = std::move(message);
    target->received = true;
    return ACL_SUCCESS;
}

}  // extern "C"
