// acl-cpu runtime: tensor data transfer (acl_tdt.h).  On an Atlas A2 a
// channel created with a capacity is a memory queue between host and device;
// on the CPU it is an in-process FIFO of datasets that one host thread sends
// and another (or the same) receives.
#pragma once

#include "core/internal.hpp"

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_tdt.h"
#include "core/handle_registry.hpp"

namespace aclcpu::detail {

/// One tensor (acltdtDataItem).  An item the user creates borrows the
/// user's data; an item a receive creates owns a copy of the sent bytes.
struct TdtDataItem {
    acltdtTensorType tensorType = ACL_TENSOR_DATA_UNDEFINED;
    std::vector<int64_t> dims;
    aclDataType dataType = ACL_DT_UNDEFINED;
    void* data = nullptr;  ///< ownedBytes.data() when the item owns its bytes.
    size_t size = 0;
    size_t sliceNum = 0;  ///< Slices exist only in device outfeed data: 0 here.
    size_t sliceId = 0;
    std::vector<uint8_t> ownedBytes;
    bool ownedByDataset = false;  ///< Created by a receive: freed with its dataset only.

    /// A copy owning its bytes: what a channel carries, so that the sender
    /// may reuse its buffer as soon as acltdtSendTensor returns.
    std::shared_ptr<TdtDataItem> owning_copy() const;
};

/// What one acltdtSendTensor puts into a channel: owning copies of the
/// dataset's items, in the dataset's order.
using TdtMessage = std::vector<std::shared_ptr<TdtDataItem>>;

/// An ordered list of items (acltdtDataset).  A dataset filled by
/// acltdtReceiveTensor owns its items; one the user fills holds references to
/// the user's items.  Not synchronised: like CANN's, a dataset is used by one
/// thread at a time.
struct TdtDataset {
    std::vector<std::shared_ptr<TdtDataItem>> items;
    bool received = false;
    std::string name;  ///< CANN names datasets only on the device side: always "".
};

/// A channel (acltdtChannelHandle): a FIFO of at most capacity messages.
/// Thread-safe.  Messages leave in the order they entered (FIFO across all
/// senders).  send waits while the channel is full, receive while it is
/// empty, each at most its timeout; stop wakes both and makes every later
/// send or receive fail.
class TdtChannel {
public:
    TdtChannel(std::string name, size_t capacity, bool createdWithCapacity)
        : name_(std::move(name)), capacity_(capacity), createdWithCapacity_(createdWithCapacity) {}

    /// ACL_ERROR_RT_QUEUE_FULL when the timeout passes on a full channel,
    /// ACL_ERROR_FAILURE when the channel is (or gets) stopped; reported.
    aclError send(TdtMessage message, int32_t timeoutMs, const char* api);
    /// ACL_ERROR_RT_QUEUE_EMPTY when the timeout passes on an empty channel,
    /// ACL_ERROR_FAILURE when the channel is (or gets) stopped; reported.
    aclError receive(TdtMessage& message, int32_t timeoutMs, const char* api);

    size_t size() const;
    /// Drops every message not yet received.
    void clean();
    void stop();

    const std::string& name() const noexcept { return name_; }
    /// acltdtQueryChannelSize and acltdtCleanChannel serve only channels
    /// created by acltdtCreateChannelWithCapacity.
    bool created_with_capacity() const noexcept { return createdWithCapacity_; }

private:
    aclError stopped_error(const char* api) const;

    const std::string name_;
    const size_t capacity_;
    const bool createdWithCapacity_;
    mutable std::mutex mutex_;
    std::condition_variable notFull_;
    std::condition_variable notEmpty_;
    std::deque<TdtMessage> messages_;
    bool stopped_ = false;
};

/// The live items, datasets and channels, by handle (process-wide, like host memory).
HandleRegistry<TdtDataItem>& tdt_data_items();
HandleRegistry<TdtDataset>& tdt_datasets();
HandleRegistry<TdtChannel>& tdt_channels();

}  // namespace aclcpu::detail
