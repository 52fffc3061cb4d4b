// acl-cpu runtime: tensor data transfer channels (acl_tdt.h).
#include "core/tdt_channel.hpp"

#include <cstring>

#include "acl/error_codes/rt_error_codes.h"
#include "core/errors.hpp"
#include "core/tdt_wait.hpp"

namespace aclcpu::detail {

std::shared_ptr<TdtDataItem> TdtDataItem::owning_copy() const {
    auto copy = std::make_shared<TdtDataItem>();
    copy->tensorType = tensorType;
    copy->dims = dims;
    copy->dataType = dataType;
    copy->size = size;
    copy->sliceNum = sliceNum;
    copy->sliceId = sliceId;
    if (size > 0) {
        copy->ownedBytes.assign(static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
        copy->data = copy->ownedBytes.data();
    }
    return copy;
}

aclError TdtChannel::stopped_error(const char* api) const {
    return runtime_error(ACL_ERROR_FAILURE, "%s: channel \"%s\" is stopped (acltdtStopChannel or acltdtDestroyChannel)",
                         api, name_.c_str());
}

aclError TdtChannel::send(TdtMessage message, int32_t timeoutMs, const char* api) {
    std::unique_lock<std::mutex> lock(mutex_);
    const bool hasRoom =
        wait_with_timeout(lock, notFull_, timeoutMs, [this] { return stopped_ || messages_.size() < capacity_; });
    if (stopped_) return stopped_error(api);
    if (!hasRoom) {
        return runtime_error(ACL_ERROR_RT_QUEUE_FULL, "%s: channel \"%s\" is full (capacity %zu) after %d ms", api,
                             name_.c_str(), capacity_, timeoutMs);
    }
    messages_.push_back(std::move(message));
    notEmpty_.notify_all();
    return ACL_SUCCESS;
}

aclError TdtChannel::receive(TdtMessage& message, int32_t timeoutMs, const char* api) {
    std::unique_lock<std::mutex> lock(mutex_);
    const bool hasMessage =
        wait_with_timeout(lock, notEmpty_, timeoutMs, [this] { return stopped_ || !messages_.empty(); });
    if (stopped_) return stopped_error(api);
    if (!hasMessage) {
        return runtime_error(ACL_ERROR_RT_QUEUE_EMPTY, "%s: channel \"%s\" is empty after %d ms", api, name_.c_str(),
                             timeoutMs);
    }
    message = std::move(messages_.front());
    messages_.pop_front();
    notFull_.notify_all();
    return ACL_SUCCESS;
}

size_t TdtChannel::size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return messages_.size();
}

void TdtChannel::clean() {
    std::lock_guard<std::mutex> lock(mutex_);
    messages_.clear();
    notFull_.notify_all();
}

void TdtChannel::stop() {
    std::lock_guard<std::mutex> lock(mutex_);
    stopped_ = true;
    notFull_.notify_all();
    notEmpty_.notify_all();
}

HandleRegistry<TdtDataItem>& tdt_data_items() {
    static HandleRegistry<TdtDataItem> registry;
    return registry;
}

HandleRegistry<TdtDataset>& tdt_datasets() {
    static HandleRegistry<TdtDataset> registry;
    return registry;
}

HandleRegistry<TdtChannel>& tdt_channels() {
    static HandleRegistry<TdtChannel> registry;
    return registry;
}

}  // namespace aclcpu::detail
