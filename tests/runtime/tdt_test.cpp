// Tensor data transfer channels and shared queues (acl/acl_tdt.h,
// acl/acl_tdt_queue.h): api_ref 17-01_tensor_data_transfer.md,
// 17-02_shared_queue_management.md, 17-03_shared_buffer_management.md and the
// acltdt* objects of 25-03_Operation_APIs.md.  Channels and queues work inside
// one process: what one thread sends or enqueues, another receives or dequeues.
#include <chrono>
#include <cstdint>
#include <cstring>
#include <future>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"
#include "runtime/c_enum_codes.h"
#include "runtime/runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

using TdtChannelTest = RuntimeTest;
using TdtQueueTest = RuntimeTest;

// ---- channels ------------------------------------------------------------

/// A channel from acltdtCreateChannelWithCapacity, destroyed at scope end.
class Channel {
public:
    explicit Channel(size_t capacity, const char* name = "tdt_test_channel")
        : handle_(acltdtCreateChannelWithCapacity(0, name, capacity)) {
        EXPECT_NE(nullptr, handle_) << take_error_message();
    }
    ~Channel() {
        if (handle_ != nullptr) {
            EXPECT_ACL_OK(acltdtDestroyChannel(handle_));
        }
    }
    Channel(const Channel&) = delete;
    Channel& operator=(const Channel&) = delete;
    acltdtChannelHandle* get() const { return handle_; }
    /// Gives up ownership (the test destroys the channel itself).
    acltdtChannelHandle* release() { return std::exchange(handle_, nullptr); }

private:
    acltdtChannelHandle* handle_;
};

/// A dataset of one ACL_FLOAT tensor of shape {1, n} over values (which must
/// outlive it), destroyed with its item at scope end.
class FloatDataset {
public:
    explicit FloatDataset(std::vector<float>& values) : dataset_(acltdtCreateDataset()) {
        const int64_t dims[] = {1, static_cast<int64_t>(values.size())};
        item_ = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 2, ACL_FLOAT, values.data(),
                                     values.size() * sizeof(float));
        EXPECT_NE(nullptr, item_) << take_error_message();
        EXPECT_ACL_OK(acltdtAddDataItem(dataset_, item_));
    }
    ~FloatDataset() {
        EXPECT_ACL_OK(acltdtDestroyDataItem(item_));
        EXPECT_ACL_OK(acltdtDestroyDataset(dataset_));
    }
    FloatDataset(const FloatDataset&) = delete;
    FloatDataset& operator=(const FloatDataset&) = delete;
    acltdtDataset* get() const { return dataset_; }

private:
    acltdtDataset* dataset_;
    acltdtDataItem* item_ = nullptr;
};

/// A dataset for acltdtReceiveTensor, destroyed (with the items it received) at scope end.
class ReceivedDataset {
public:
    ReceivedDataset() : dataset_(acltdtCreateDataset()) {}
    ~ReceivedDataset() { EXPECT_ACL_OK(acltdtDestroyDataset(dataset_)); }
    ReceivedDataset(const ReceivedDataset&) = delete;
    ReceivedDataset& operator=(const ReceivedDataset&) = delete;
    acltdtDataset* get() const { return dataset_; }

    /// The floats of item index.
    std::vector<float> floats(size_t index = 0) const {
        acltdtDataItem* item = acltdtGetDataItem(dataset_, index);
        EXPECT_NE(nullptr, item) << take_error_message();
        if (item == nullptr) return {};
        const auto* data = static_cast<const float*>(acltdtGetDataAddrFromItem(item));
        return {data, data + acltdtGetDataSizeFromItem(item) / sizeof(float)};
    }

private:
    acltdtDataset* dataset_;
};

// acltdtCreateDataItem and its getters: a tensor item keeps its type, shape,
// data type, address and size; acltdtGetDimsFromItem needs room for every
// dimension; slices exist only in device outfeed data (0 / 0).
TEST_F(TdtChannelTest, DataItemKeepsWhatItWasCreatedWith) {
    std::vector<float> values(6, 1.5f);
    const int64_t dims[] = {2, 3};
    acltdtDataItem* item = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 2, ACL_FLOAT, values.data(), 24);
    ASSERT_NE(nullptr, item) << take_error_message();
    EXPECT_EQ(ACL_TENSOR_DATA_TENSOR, acltdtGetTensorTypeFromItem(item));
    EXPECT_EQ(ACL_FLOAT, acltdtGetDataTypeFromItem(item));
    EXPECT_EQ(values.data(), acltdtGetDataAddrFromItem(item));
    EXPECT_EQ(24u, acltdtGetDataSizeFromItem(item));
    ASSERT_EQ(2u, acltdtGetDimNumFromItem(item));
    int64_t back[3] = {};
    ASSERT_ACL_OK(acltdtGetDimsFromItem(item, back, 3));
    EXPECT_EQ(2, back[0]);
    EXPECT_EQ(3, back[1]);
    EXPECT_ACL_FAILS(acltdtGetDimsFromItem(item, back, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(acltdtGetDimsFromItem(item, nullptr, 2), ACL_ERROR_INVALID_PARAM);
    size_t sliceNum = 9;
    size_t sliceId = 9;
    ASSERT_ACL_OK(acltdtGetSliceInfoFromItem(item, &sliceNum, &sliceId));
    EXPECT_EQ(0u, sliceNum);
    EXPECT_EQ(0u, sliceId);
    EXPECT_ACL_OK(acltdtDestroyDataItem(item));
}

// Only ACL_TENSOR_DATA_TENSOR items have a shape; markers such as
// ACL_TENSOR_DATA_END_OF_SEQUENCE carry none.
TEST_F(TdtChannelTest, MarkerItemsHaveNoShape) {
    acltdtDataItem* end = acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, nullptr, 0, ACL_FLOAT, nullptr, 0);
    ASSERT_NE(nullptr, end) << take_error_message();
    EXPECT_EQ(ACL_TENSOR_DATA_END_OF_SEQUENCE, acltdtGetTensorTypeFromItem(end));
    EXPECT_EQ(0u, acltdtGetDimNumFromItem(end));
    EXPECT_EQ(0u, acltdtGetDataSizeFromItem(end));
    EXPECT_ACL_OK(acltdtDestroyDataItem(end));
    const int64_t dims[] = {4};
    take_error_message();
    EXPECT_EQ(nullptr, acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, dims, 1, ACL_FLOAT, nullptr, 0));
    EXPECT_NE("", take_error_message());
}

// acltdtCreateDataItem refuses inconsistent shapes and more than 128 dimensions.
// 17-01 acltdtCreateDataItem, 17-02 acltdtSetQueueAttr: a C caller may pass
// any integer for tdtType, dataType or the attribute type; codes that are no
// enumerator are refused with a message, never loaded as the enum (the
// sanitizer build checks that).
TEST_F(TdtChannelTest, EnumerationCodesOfCCallersAreReadAsIntegers) {
    EXPECT_EQ(1, c_enum_tdt_data_item(ACL_TENSOR_DATA_TENSOR, ACL_FLOAT));
    EXPECT_EQ(0, c_enum_tdt_data_item(ACL_TENSOR_DATA_TENSOR, 99));
    EXPECT_NE("", take_error_message());
    EXPECT_EQ(0, c_enum_tdt_data_item(77, ACL_FLOAT));
    EXPECT_NE("", take_error_message());
    EXPECT_EQ(ACL_SUCCESS, c_enum_tdt_set_queue_attr(ACL_TDT_QUEUE_DEPTH_UINT32));
    EXPECT_EQ(ACL_ERROR_INVALID_PARAM, c_enum_tdt_set_queue_attr(99));
    EXPECT_NE("", take_error_message());
}

TEST_F(TdtChannelTest, CreateDataItemRefusesBadShapes) {
    float value = 0;
    std::vector<int64_t> dims(129, 1);
    for (size_t dimNum : {size_t{0}, size_t{129}}) {
        take_error_message();
        EXPECT_EQ(nullptr, acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims.data(), dimNum, ACL_FLOAT, &value, 4));
        EXPECT_NE("", take_error_message()) << dimNum;
    }
    EXPECT_EQ(nullptr, acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, nullptr, 2, ACL_FLOAT, &value, 4));
    EXPECT_NE("", take_error_message());
    EXPECT_EQ(nullptr, acltdtCreateDataItem(static_cast<acltdtTensorType>(42), nullptr, 0, ACL_FLOAT, &value, 4));
    EXPECT_NE("", take_error_message());
}

// acltdtDataset: items in the order they were added; acltdtGetDataItem
// refuses an index past the end; the name is a string (empty on the host).
TEST_F(TdtChannelTest, DatasetKeepsItemsInOrder) {
    std::vector<float> values = {1, 2};
    const int64_t dims[] = {1};
    acltdtDataItem* first = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, &values[0], 4);
    acltdtDataItem* second = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, &values[1], 4);
    acltdtDataset* dataset = acltdtCreateDataset();
    ASSERT_NE(nullptr, dataset);
    EXPECT_EQ(0u, acltdtGetDatasetSize(dataset));
    ASSERT_ACL_OK(acltdtAddDataItem(dataset, first));
    ASSERT_ACL_OK(acltdtAddDataItem(dataset, second));
    EXPECT_EQ(2u, acltdtGetDatasetSize(dataset));
    EXPECT_EQ(first, acltdtGetDataItem(dataset, 0));
    EXPECT_EQ(second, acltdtGetDataItem(dataset, 1));
    take_error_message();
    EXPECT_EQ(nullptr, acltdtGetDataItem(dataset, 2));
    EXPECT_NE("", take_error_message());
    ASSERT_NE(nullptr, acltdtGetDatasetName(dataset));
    EXPECT_STREQ("", acltdtGetDatasetName(dataset));
    EXPECT_ACL_OK(acltdtDestroyDataItem(first));
    EXPECT_ACL_OK(acltdtDestroyDataItem(second));
    EXPECT_ACL_OK(acltdtDestroyDataset(dataset));
}

// acltdtSendTensor / acltdtReceiveTensor: the received dataset holds the sent
// tensors byte for byte, with their shapes and types, in its own memory: the
// sender may overwrite its buffers once the send returned.
TEST_F(TdtChannelTest, SendAndReceiveRoundTripBytesExactly) {
    Channel channel(4);
    std::vector<float> floats = {1.25f, -2.5f, 3.0f, 1e-30f};
    std::vector<int8_t> bytes = {-128, 0, 127};
    const int64_t floatDims[] = {2, 2};
    const int64_t byteDims[] = {3};
    acltdtDataItem* floatItem =
        acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, floatDims, 2, ACL_FLOAT, floats.data(), 16);
    acltdtDataItem* byteItem = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, byteDims, 1, ACL_INT8, bytes.data(), 3);
    acltdtDataset* sent = acltdtCreateDataset();
    ASSERT_ACL_OK(acltdtAddDataItem(sent, floatItem));
    ASSERT_ACL_OK(acltdtAddDataItem(sent, byteItem));
    ASSERT_ACL_OK(acltdtSendTensor(channel.get(), sent, 0));
    const std::vector<float> expectedFloats = floats;
    floats.assign(floats.size(), 0.0f);

    ReceivedDataset received;
    ASSERT_ACL_OK(acltdtReceiveTensor(channel.get(), received.get(), 0));
    ASSERT_EQ(2u, acltdtGetDatasetSize(received.get()));
    acltdtDataItem* floatBack = acltdtGetDataItem(received.get(), 0);
    acltdtDataItem* byteBack = acltdtGetDataItem(received.get(), 1);
    EXPECT_NE(floats.data(), acltdtGetDataAddrFromItem(floatBack));
    EXPECT_EQ(0, std::memcmp(expectedFloats.data(), acltdtGetDataAddrFromItem(floatBack), 16));
    EXPECT_EQ(0, std::memcmp(bytes.data(), acltdtGetDataAddrFromItem(byteBack), 3));
    EXPECT_EQ(ACL_FLOAT, acltdtGetDataTypeFromItem(floatBack));
    EXPECT_EQ(ACL_INT8, acltdtGetDataTypeFromItem(byteBack));
    int64_t dims[2] = {};
    ASSERT_ACL_OK(acltdtGetDimsFromItem(floatBack, dims, 2));
    EXPECT_EQ(2, dims[0]);
    EXPECT_EQ(2, dims[1]);
    EXPECT_EQ(ACL_TENSOR_DATA_TENSOR, acltdtGetTensorTypeFromItem(byteBack));
    // Received items belong to their dataset, which destroys them.
    EXPECT_ACL_FAILS(acltdtDestroyDataItem(byteBack), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(acltdtAddDataItem(received.get(), floatItem), ACL_ERROR_FEATURE_UNSUPPORTED);

    EXPECT_ACL_OK(acltdtDestroyDataItem(floatItem));
    EXPECT_ACL_OK(acltdtDestroyDataItem(byteItem));
    EXPECT_ACL_OK(acltdtDestroyDataset(sent));
}

// A channel is a FIFO: datasets come out in the order they were sent, and a
// dataset that received once can receive again (its old items are replaced).
TEST_F(TdtChannelTest, ChannelIsFirstInFirstOut) {
    Channel channel(8);
    std::vector<std::vector<float>> values = {{1, 2}, {3, 4}, {5, 6}};
    for (std::vector<float>& tensor : values) {
        FloatDataset dataset(tensor);
        ASSERT_ACL_OK(acltdtSendTensor(channel.get(), dataset.get(), 0));
    }
    ReceivedDataset received;
    for (const std::vector<float>& tensor : values) {
        ASSERT_ACL_OK(acltdtReceiveTensor(channel.get(), received.get(), 0));
        EXPECT_EQ(tensor, received.floats());
    }
}

// acltdtCreateChannelWithCapacity: at most capacity datasets wait in the
// channel; timeout 0 on a full channel returns "queue full" at once, and so
// does a positive timeout once it passes.  acltdtQueryChannelSize counts the
// waiting datasets; acltdtCleanChannel drops them.
TEST_F(TdtChannelTest, FullChannelRefusesWithQueueFull) {
    Channel channel(2);
    std::vector<float> values = {7, 8};
    FloatDataset dataset(values);
    ASSERT_ACL_OK(acltdtSendTensor(channel.get(), dataset.get(), 0));
    ASSERT_ACL_OK(acltdtSendTensor(channel.get(), dataset.get(), 0));
    EXPECT_ACL_FAILS(acltdtSendTensor(channel.get(), dataset.get(), 0), ACL_ERROR_RT_QUEUE_FULL);
    EXPECT_ACL_FAILS(acltdtSendTensor(channel.get(), dataset.get(), kAbsenceWindowMs), ACL_ERROR_RT_QUEUE_FULL);
    size_t size = 0;
    ASSERT_ACL_OK(acltdtQueryChannelSize(channel.get(), &size));
    EXPECT_EQ(2u, size);
    ASSERT_ACL_OK(acltdtCleanChannel(channel.get()));
    ASSERT_ACL_OK(acltdtQueryChannelSize(channel.get(), &size));
    EXPECT_EQ(0u, size);
    EXPECT_ACL_OK(acltdtSendTensor(channel.get(), dataset.get(), 0));
}

// timeout 0 on an empty channel returns "queue empty" at once, and so does a
// positive timeout once it passes; the dataset stays empty.
TEST_F(TdtChannelTest, EmptyChannelRefusesWithQueueEmpty) {
    Channel channel(2);
    ReceivedDataset received;
    EXPECT_ACL_FAILS(acltdtReceiveTensor(channel.get(), received.get(), 0), ACL_ERROR_RT_QUEUE_EMPTY);
    EXPECT_ACL_FAILS(acltdtReceiveTensor(channel.get(), received.get(), kAbsenceWindowMs), ACL_ERROR_RT_QUEUE_EMPTY);
    EXPECT_EQ(0u, acltdtGetDatasetSize(received.get()));
}

// timeout -1 blocks the receiving thread until another thread sends.
TEST_F(TdtChannelTest, BlockedReceiveIsWokenBySendFromAnotherThread) {
    Channel channel(2);
    ReceivedDataset received;
    auto receiver =
        std::async(std::launch::async, [&] { return acltdtReceiveTensor(channel.get(), received.get(), -1); });
    std::vector<float> values = {42, 43};
    FloatDataset dataset(values);
    ASSERT_ACL_OK(acltdtSendTensor(channel.get(), dataset.get(), kBoundedWaitMs));
    ASSERT_EQ(std::future_status::ready, receiver.wait_for(std::chrono::milliseconds(kBoundedWaitMs)));
    ASSERT_ACL_OK(receiver.get());
    EXPECT_EQ(values, received.floats());
}

// acltdtStopChannel wakes a thread blocked in acltdtReceiveTensor; it fails,
// and so does every later send or receive on the stopped channel.
TEST_F(TdtChannelTest, BlockedReceiveIsWokenByStop) {
    Channel channel(2);
    ReceivedDataset received;
    // Messages are per thread: the receiving thread checks its own.
    auto receiver = std::async(std::launch::async, [&] {
        return failed_with(acltdtReceiveTensor(channel.get(), received.get(), -1), {ACL_ERROR_FAILURE});
    });
    ASSERT_ACL_OK(acltdtStopChannel(channel.get()));
    ASSERT_EQ(std::future_status::ready, receiver.wait_for(std::chrono::milliseconds(kBoundedWaitMs)));
    EXPECT_TRUE(receiver.get());
    std::vector<float> values = {1};
    FloatDataset dataset(values);
    EXPECT_ACL_FAILS(acltdtSendTensor(channel.get(), dataset.get(), 0), ACL_ERROR_FAILURE);
}

// acltdtDestroyChannel wakes a thread blocked in acltdtSendTensor on a full channel.
TEST_F(TdtChannelTest, BlockedSendIsWokenByDestroy) {
    Channel channel(2);
    std::vector<float> values = {1, 2, 3};
    FloatDataset dataset(values);
    ASSERT_ACL_OK(acltdtSendTensor(channel.get(), dataset.get(), 0));
    ASSERT_ACL_OK(acltdtSendTensor(channel.get(), dataset.get(), 0));
    acltdtChannelHandle* handle = channel.get();
    auto sender = std::async(std::launch::async, [&] { return acltdtSendTensor(handle, dataset.get(), -1); });
    ASSERT_ACL_OK(acltdtDestroyChannel(channel.release()));
    ASSERT_EQ(std::future_status::ready, sender.wait_for(std::chrono::milliseconds(kBoundedWaitMs)));
    const aclError status = sender.get();
    // The sender either blocked and was woken, or came after the destroy.
    EXPECT_TRUE(status == ACL_ERROR_FAILURE || status == ACL_ERROR_INVALID_PARAM) << status;
    EXPECT_ACL_FAILS(acltdtStopChannel(handle), ACL_ERROR_INVALID_PARAM);
}

// acltdtCreateChannelWithCapacity: a name, a device of aclrtGetDeviceCount
// and a capacity in [2, 8192]; nullptr and a message otherwise.
TEST_F(TdtChannelTest, CreateChannelRefusesBadArguments) {
    struct Case {
        uint32_t device;
        const char* name;
        size_t capacity;
    };
    const std::string longName(128, 'n');
    for (const Case& bad :
         {Case{0, "c", 1}, Case{0, "c", 8193}, Case{0, nullptr, 4}, Case{64, "c", 4}, Case{0, longName.c_str(), 4}}) {
        take_error_message();
        EXPECT_EQ(nullptr, acltdtCreateChannelWithCapacity(bad.device, bad.name, bad.capacity)) << bad.capacity;
        EXPECT_NE("", take_error_message());
    }
    take_error_message();
    EXPECT_EQ(nullptr, acltdtCreateChannel(0, nullptr));
    EXPECT_NE("", take_error_message());
}

// Send and receive check their handles, datasets and timeouts; a channel
// from acltdtCreateChannel cannot be queried or cleaned (those need
// acltdtCreateChannelWithCapacity).
TEST_F(TdtChannelTest, SendAndReceiveRefuseBadArguments) {
    Channel channel(2);
    std::vector<float> values = {1};
    FloatDataset dataset(values);
    ReceivedDataset received;
    acltdtDataset* empty = acltdtCreateDataset();
    EXPECT_ACL_FAILS(acltdtSendTensor(nullptr, dataset.get(), 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(acltdtSendTensor(channel.get(), nullptr, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(acltdtSendTensor(channel.get(), dataset.get(), -2), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(acltdtSendTensor(channel.get(), empty, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(acltdtReceiveTensor(channel.get(), received.get(), -5), ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(acltdtSendTensor(channel.get(), dataset.get(), 0));
    EXPECT_ACL_FAILS(acltdtReceiveTensor(channel.get(), dataset.get(), 0), ACL_ERROR_INVALID_PARAM);
    size_t size = 0;
    EXPECT_ACL_FAILS(acltdtQueryChannelSize(channel.get(), nullptr), ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(acltdtQueryChannelSize(channel.get(), &size));
    EXPECT_EQ(1u, size);

    acltdtChannelHandle* plain = acltdtCreateChannel(0, "tdt_test_plain");
    ASSERT_NE(nullptr, plain) << take_error_message();
    EXPECT_ACL_FAILS(acltdtQueryChannelSize(plain, &size), ACL_ERROR_FEATURE_UNSUPPORTED);
    EXPECT_ACL_FAILS(acltdtCleanChannel(plain), ACL_ERROR_FEATURE_UNSUPPORTED);
    ASSERT_ACL_OK(acltdtSendTensor(plain, dataset.get(), 0));
    ASSERT_ACL_OK(acltdtReceiveTensor(plain, received.get(), 0));
    EXPECT_EQ(values, received.floats());
    ASSERT_ACL_OK(acltdtStopChannel(plain));
    ASSERT_ACL_OK(acltdtDestroyChannel(plain));
    EXPECT_ACL_FAILS(acltdtDestroyChannel(plain), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_OK(acltdtDestroyDataset(empty));
    EXPECT_ACL_FAILS(acltdtDestroyDataset(empty), ACL_ERROR_INVALID_PARAM);
}

// ---- queues --------------------------------------------------------------

/// A queue from acltdtCreateQueue with the given depth (and name, if any),
/// destroyed at scope end.
class Queue {
public:
    explicit Queue(uint32_t depth, const char* name = nullptr) {
        acltdtQueueAttr* attr = acltdtCreateQueueAttr();
        EXPECT_ACL_OK(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof depth, &depth));
        if (name != nullptr) {
            EXPECT_ACL_OK(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof name, &name));
        }
        EXPECT_ACL_OK(acltdtCreateQueue(attr, &qid_));
        EXPECT_ACL_OK(acltdtDestroyQueueAttr(attr));
    }
    ~Queue() {
        if (owned_) {
            EXPECT_ACL_OK(acltdtDestroyQueue(qid_));
        }
    }
    Queue(const Queue&) = delete;
    Queue& operator=(const Queue&) = delete;
    uint32_t id() const { return qid_; }
    /// Gives up ownership (the test destroys the queue itself).
    uint32_t release() {
        owned_ = false;
        return qid_;
    }

private:
    uint32_t qid_ = UINT32_MAX;
    bool owned_ = true;
};

/// Enqueues the bytes of text with acltdtEnqueueData.
aclError enqueue_text(uint32_t qid, const std::string& text, int32_t timeout = 0) {
    return acltdtEnqueueData(qid, text.data(), text.size(), nullptr, 0, timeout, 0);
}

/// Dequeues with acltdtDequeueData into a 256-byte buffer; "" on failure.
std::string dequeue_text(uint32_t qid, int32_t timeout = 0) {
    char buffer[256];
    size_t size = 0;
    const aclError status = acltdtDequeueData(qid, buffer, sizeof buffer, &size, nullptr, 0, timeout);
    EXPECT_EQ(ACL_SUCCESS, status) << take_error_message();
    return status == ACL_SUCCESS ? std::string(buffer, size) : std::string();
}

/// A route list holding src -> dst, destroyed at scope end.
class RouteList {
public:
    RouteList() : list_(acltdtCreateQueueRouteList()) {}
    RouteList(uint32_t src, uint32_t dst) : RouteList() { add(src, dst); }
    ~RouteList() { EXPECT_ACL_OK(acltdtDestroyQueueRouteList(list_)); }
    RouteList(const RouteList&) = delete;
    RouteList& operator=(const RouteList&) = delete;
    acltdtQueueRouteList* get() const { return list_; }
    void add(uint32_t src, uint32_t dst) {
        acltdtQueueRoute* route = acltdtCreateQueueRoute(src, dst);
        EXPECT_ACL_OK(acltdtAddQueueRoute(list_, route));
        EXPECT_ACL_OK(acltdtDestroyQueueRoute(route));
    }
    /// The status acltdtGetQueueRouteParam reports for route index.
    int32_t status(size_t index) const {
        acltdtQueueRoute* route = acltdtCreateQueueRoute(0, 0);
        EXPECT_ACL_OK(acltdtGetQueueRoute(list_, index, route));
        int32_t status = -1;
        size_t size = 0;
        EXPECT_ACL_OK(acltdtGetQueueRouteParam(route, ACL_TDT_QUEUE_ROUTE_STATUS_INT32, sizeof status, &size, &status));
        EXPECT_ACL_OK(acltdtDestroyQueueRoute(route));
        return status;
    }

private:
    acltdtQueueRouteList* list_;
};

// acltdtSetQueueAttr / acltdtGetQueueAttr: the name travels as a const char*
// (len: a pointer's size), the depth as a uint32_t (len 4); a fresh attribute
// set has depth 8 (acltdtCreateQueue's default).
TEST_F(TdtQueueTest, QueueAttributesSetAndGet) {
    acltdtQueueAttr* attr = acltdtCreateQueueAttr();
    ASSERT_NE(nullptr, attr);
    uint32_t depth = 0;
    size_t size = 0;
    ASSERT_ACL_OK(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof depth, &size, &depth));
    EXPECT_EQ(8u, depth);
    char name[] = "attr_queue";
    const char* namePtr = name;
    ASSERT_ACL_OK(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof namePtr, &namePtr));
    name[0] = 'X';  // the attribute set keeps its own copy
    const uint32_t newDepth = 5;
    ASSERT_ACL_OK(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof newDepth, &newDepth));
    const char* back = nullptr;
    ASSERT_ACL_OK(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof back, &size, &back));
    EXPECT_EQ(sizeof back, size);
    EXPECT_STREQ("attr_queue", back);
    ASSERT_ACL_OK(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof depth, &size, &depth));
    EXPECT_EQ(5u, depth);
    EXPECT_ACL_FAILS(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 2, &size, &depth), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 8, &newDepth), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(acltdtSetQueueAttr(attr, static_cast<acltdtQueueAttrType>(7), 4, &newDepth),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, nullptr), ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(acltdtDestroyQueueAttr(attr));
    EXPECT_ACL_FAILS(acltdtDestroyQueueAttr(attr), ACL_ERROR_INVALID_PARAM);
}

// acltdtEnqueueData / acltdtDequeueData: the data and the private data come
// back byte for byte, first in first out.
TEST_F(TdtQueueTest, EnqueuedDataComesBackInOrder) {
    Queue queue(4);
    uint8_t context[96];
    std::iota(std::begin(context), std::end(context), uint8_t{1});
    const std::string first = "first", second = std::string(200, '\xA5');
    ASSERT_ACL_OK(acltdtEnqueueData(queue.id(), first.data(), first.size(), context, sizeof context, 0, 0));
    ASSERT_ACL_OK(enqueue_text(queue.id(), second));
    char data[256] = {};
    uint8_t contextBack[96] = {};
    size_t size = 0;
    ASSERT_ACL_OK(acltdtDequeueData(queue.id(), data, sizeof data, &size, contextBack, sizeof contextBack, 0));
    EXPECT_EQ(first, std::string(data, size));
    EXPECT_EQ(0, std::memcmp(context, contextBack, sizeof context));
    EXPECT_EQ(second, dequeue_text(queue.id()));
}

// acltdtDequeueData with too small a buffer fails; the data stays queued and
// retDataSize tells the size it needs.
TEST_F(TdtQueueTest, DequeueDataIntoTooSmallBufferKeepsTheData) {
    Queue queue(2);
    ASSERT_ACL_OK(enqueue_text(queue.id(), "0123456789"));
    char small[4];
    size_t size = 0;
    EXPECT_ACL_FAILS(acltdtDequeueData(queue.id(), small, sizeof small, &size, nullptr, 0, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(10u, size);
    EXPECT_EQ("0123456789", dequeue_text(queue.id()));
}

// A queue holds at most depth buffers: timeout 0 on a full queue returns
// "queue full", on an empty one "queue empty", at once; a positive timeout
// returns the same once it passes.
TEST_F(TdtQueueTest, FullAndEmptyQueuesRefuseAfterTheirTimeout) {
    Queue queue(2);
    ASSERT_ACL_OK(enqueue_text(queue.id(), "a"));
    ASSERT_ACL_OK(enqueue_text(queue.id(), "b"));
    EXPECT_ACL_FAILS(enqueue_text(queue.id(), "c"), ACL_ERROR_RT_QUEUE_FULL);
    EXPECT_ACL_FAILS(enqueue_text(queue.id(), "c", kAbsenceWindowMs), ACL_ERROR_RT_QUEUE_FULL);
    EXPECT_EQ("a", dequeue_text(queue.id()));
    EXPECT_EQ("b", dequeue_text(queue.id()));
    acltdtBuf buf = nullptr;
    EXPECT_ACL_FAILS(acltdtDequeue(queue.id(), &buf, 0), ACL_ERROR_RT_QUEUE_EMPTY);
    EXPECT_ACL_FAILS(acltdtDequeue(queue.id(), &buf, kAbsenceWindowMs), ACL_ERROR_RT_QUEUE_EMPTY);
    char data[4];
    size_t size = 0;
    EXPECT_ACL_FAILS(acltdtDequeueData(queue.id(), data, 4, &size, nullptr, 0, 0), ACL_ERROR_RT_QUEUE_EMPTY);
}

// acltdtEnqueue takes a buffer from acltdtAllocBuf: the queue owns it until
// acltdtDequeue hands it back, with its data, valid length and private data.
TEST_F(TdtQueueTest, EnqueuedBufferBelongsToTheQueueUntilDequeued) {
    Queue queue(2);
    acltdtBuf buf = nullptr;
    ASSERT_ACL_OK(acltdtAllocBuf(64, ACL_TDT_NORMAL_MEM, &buf));
    void* data = nullptr;
    size_t size = 0;
    ASSERT_ACL_OK(acltdtGetBufData(buf, &data, &size));
    std::memcpy(data, "payload", 7);
    ASSERT_ACL_OK(acltdtSetBufDataLen(buf, 7));
    const uint32_t tag = 0xC0FFEE;
    ASSERT_ACL_OK(acltdtSetBufUserData(buf, &tag, sizeof tag, 8));
    ASSERT_ACL_OK(acltdtEnqueue(queue.id(), buf, 0));
    size_t len = 0;
    EXPECT_ACL_FAILS(acltdtGetBufDataLen(buf, &len), ACL_ERROR_INVALID_PARAM);  // the queue owns it

    acltdtBuf back = nullptr;
    ASSERT_ACL_OK(acltdtDequeue(queue.id(), &back, 0));
    ASSERT_ACL_OK(acltdtGetBufDataLen(back, &len));
    EXPECT_EQ(7u, len);
    ASSERT_ACL_OK(acltdtGetBufData(back, &data, &size));
    EXPECT_EQ(0, std::memcmp("payload", data, 7));
    uint32_t tagBack = 0;
    ASSERT_ACL_OK(acltdtGetBufUserData(back, &tagBack, sizeof tagBack, 8));
    EXPECT_EQ(tag, tagBack);
    EXPECT_ACL_OK(acltdtFreeBuf(back));
    EXPECT_ACL_FAILS(acltdtEnqueue(queue.id(), back, 0), ACL_ERROR_INVALID_PARAM);  // freed
}

// A failed acltdtEnqueue leaves the buffer with the caller.
TEST_F(TdtQueueTest, RefusedBufferStaysWithTheCaller) {
    Queue queue(2);
    ASSERT_ACL_OK(enqueue_text(queue.id(), "a"));
    ASSERT_ACL_OK(enqueue_text(queue.id(), "b"));
    acltdtBuf buf = nullptr;
    ASSERT_ACL_OK(acltdtAllocBuf(8, ACL_TDT_NORMAL_MEM, &buf));
    EXPECT_ACL_FAILS(acltdtEnqueue(queue.id(), buf, 0), ACL_ERROR_RT_QUEUE_FULL);
    EXPECT_ACL_OK(acltdtFreeBuf(buf));
}

// acltdtCreateQueue: nullptr attributes give depth 8 and a generated name;
// names are unique among live queues; depths below 2 are refused.
TEST_F(TdtQueueTest, CreateQueueChecksNameAndDepth) {
    uint32_t qid = 0;
    ASSERT_ACL_OK(acltdtCreateQueue(nullptr, &qid));
    for (int i = 0; i < 8; ++i) ASSERT_ACL_OK(enqueue_text(qid, "x"));
    EXPECT_ACL_FAILS(enqueue_text(qid, "x"), ACL_ERROR_RT_QUEUE_FULL);
    EXPECT_ACL_OK(acltdtDestroyQueue(qid));
    EXPECT_ACL_FAILS(acltdtDestroyQueue(qid), ACL_ERROR_RT_PARAM_INVALID);

    Queue named(2, "tdt_test_unique");
    acltdtQueueAttr* attr = acltdtCreateQueueAttr();
    const char* name = "tdt_test_unique";
    ASSERT_ACL_OK(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof name, &name));
    EXPECT_ACL_FAILS(acltdtCreateQueue(attr, &qid), ACL_ERROR_INVALID_PARAM);
    const uint32_t depth = 1;
    name = "tdt_test_shallow";
    ASSERT_ACL_OK(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof name, &name));
    ASSERT_ACL_OK(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof depth, &depth));
    EXPECT_ACL_FAILS(acltdtCreateQueue(attr, &qid), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(acltdtCreateQueue(attr, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_OK(acltdtDestroyQueueAttr(attr));
}

// Queue calls check their arguments: unknown queues, null data, private data
// above 96 bytes, timeouts below -1.
TEST_F(TdtQueueTest, QueueCallsRefuseBadArguments) {
    Queue queue(2);
    const uint32_t missing = queue.id() + 1000;
    char data[97] = {};
    size_t size = 0;
    acltdtBuf buf = nullptr;
    EXPECT_ACL_FAILS(enqueue_text(missing, "a"), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(acltdtDequeue(missing, &buf, 0), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(acltdtEnqueueData(queue.id(), nullptr, 4, nullptr, 0, 0, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(acltdtEnqueueData(queue.id(), data, 0, nullptr, 0, 0, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(acltdtEnqueueData(queue.id(), data, 4, data, 97, 0, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(acltdtEnqueueData(queue.id(), data, 4, nullptr, 4, 0, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(acltdtEnqueueData(queue.id(), data, 4, nullptr, 0, -2, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(acltdtDequeueData(queue.id(), data, 4, nullptr, nullptr, 0, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(acltdtDequeueData(queue.id(), data, 4, &size, data, 97, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(acltdtDequeue(queue.id(), nullptr, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(acltdtEnqueue(queue.id(), nullptr, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(acltdtAllocBuf(8, 7, &buf), ACL_ERROR_INVALID_PARAM);
}

// timeout -1 blocks the dequeuing thread until another thread enqueues.
TEST_F(TdtQueueTest, BlockedDequeueIsWokenByEnqueueFromAnotherThread) {
    Queue queue(2);
    auto consumer = std::async(std::launch::async, [&] { return dequeue_text(queue.id(), -1); });
    ASSERT_ACL_OK(enqueue_text(queue.id(), "wake up", kBoundedWaitMs));
    ASSERT_EQ(std::future_status::ready, consumer.wait_for(std::chrono::milliseconds(kBoundedWaitMs)));
    EXPECT_EQ("wake up", consumer.get());
}

// acltdtDestroyQueue wakes a thread blocked in acltdtDequeue on that queue.
TEST_F(TdtQueueTest, BlockedDequeueIsWokenByDestroy) {
    Queue queue(2);
    const uint32_t qid = queue.release();
    auto consumer = std::async(std::launch::async, [qid] {
        acltdtBuf buf = nullptr;
        return acltdtDequeue(qid, &buf, -1);
    });
    ASSERT_ACL_OK(acltdtDestroyQueue(qid));
    ASSERT_EQ(std::future_status::ready, consumer.wait_for(std::chrono::milliseconds(kBoundedWaitMs)));
    const aclError status = consumer.get();
    // The consumer either blocked and was woken, or came after the destroy.
    EXPECT_TRUE(status == ACL_ERROR_FAILURE || status == ACL_ERROR_RT_PARAM_INVALID) << status;
}

// acltdtBindQueueRoutes: what is enqueued to the source of a bound route
// arrives in its destination; acltdtQueryQueueRoutes finds the route, bound;
// a queue with bound routes cannot be destroyed; acltdtUnbindQueueRoutes
// ends the forwarding.
TEST_F(TdtQueueTest, BoundRouteForwardsToItsDestination) {
    Queue source(4);
    Queue destination(4);
    RouteList bound(source.id(), destination.id());
    ASSERT_ACL_OK(acltdtBindQueueRoutes(bound.get()));
    EXPECT_EQ(ACL_TDT_QUEUE_ROUTE_BIND, bound.status(0));
    ASSERT_ACL_OK(enqueue_text(source.id(), "routed"));
    EXPECT_EQ("routed", dequeue_text(destination.id()));
    acltdtBuf buf = nullptr;
    EXPECT_ACL_FAILS(acltdtDequeue(source.id(), &buf, 0), ACL_ERROR_RT_QUEUE_EMPTY);

    acltdtQueueRouteQueryInfo* query = acltdtCreateQueueRouteQueryInfo();
    const acltdtQueueRouteQueryMode mode = ACL_TDT_QUEUE_ROUTE_QUERY_SRC;
    const uint32_t sourceId = source.id();
    ASSERT_ACL_OK(acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof mode, &mode));
    ASSERT_ACL_OK(acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32, 4, &sourceId));
    RouteList found;
    ASSERT_ACL_OK(acltdtQueryQueueRoutes(query, found.get()));
    ASSERT_EQ(1u, acltdtGetQueueRouteNum(found.get()));
    acltdtQueueRoute* route = acltdtCreateQueueRoute(0, 0);
    ASSERT_ACL_OK(acltdtGetQueueRoute(found.get(), 0, route));
    uint32_t dst = 0;
    size_t size = 0;
    ASSERT_ACL_OK(acltdtGetQueueRouteParam(route, ACL_TDT_QUEUE_ROUTE_DST_UINT32, sizeof dst, &size, &dst));
    EXPECT_EQ(destination.id(), dst);
    EXPECT_EQ(ACL_TDT_QUEUE_ROUTE_BIND, found.status(0));
    EXPECT_ACL_FAILS(acltdtGetQueueRoute(found.get(), 1, route), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_OK(acltdtDestroyQueueRoute(route));

    EXPECT_ACL_FAILS(acltdtDestroyQueue(destination.id()), ACL_ERROR_FAILURE);
    ASSERT_ACL_OK(acltdtUnbindQueueRoutes(bound.get()));
    EXPECT_EQ(ACL_TDT_QUEUE_ROUTE_UNBIND, bound.status(0));
    ASSERT_ACL_OK(acltdtQueryQueueRoutes(query, found.get()));
    EXPECT_EQ(0u, acltdtGetQueueRouteNum(found.get()));
    ASSERT_ACL_OK(enqueue_text(source.id(), "stays"));
    EXPECT_EQ("stays", dequeue_text(source.id()));
    EXPECT_ACL_OK(acltdtDestroyQueueRouteQueryInfo(query));
}

// One source bound to two destinations (api_ref 17-02, acltdtBindQueueRoutes:
// Q1->Q2, Q1->Q3): each destination receives every buffer, in order.
TEST_F(TdtQueueTest, OneSourceFeedsEveryDestination) {
    Queue source(4);
    Queue left(4);
    Queue right(4);
    RouteList routes(source.id(), left.id());
    routes.add(source.id(), right.id());
    ASSERT_ACL_OK(acltdtBindQueueRoutes(routes.get()));
    ASSERT_ACL_OK(enqueue_text(source.id(), "one"));
    ASSERT_ACL_OK(enqueue_text(source.id(), "two"));
    for (uint32_t destination : {left.id(), right.id()}) {
        EXPECT_EQ("one", dequeue_text(destination));
        EXPECT_EQ("two", dequeue_text(destination));
    }
    ASSERT_ACL_OK(acltdtUnbindQueueRoutes(routes.get()));
}

// A full destination holds buffers back in the source, in order, until a
// dequeue makes room; routes chain (a -> b -> c).
TEST_F(TdtQueueTest, ForwardingWaitsForRoomAndChains) {
    Queue first(4);
    Queue second(2);
    Queue third(2);
    RouteList routes(first.id(), second.id());
    routes.add(second.id(), third.id());
    ASSERT_ACL_OK(acltdtBindQueueRoutes(routes.get()));
    const std::vector<std::string> texts = {"1", "2", "3", "4", "5", "6", "7", "8"};
    for (const std::string& text : texts) ASSERT_ACL_OK(enqueue_text(first.id(), text));
    // third holds 1 2, second 3 4, first 5 6 7 8: every queue is full.
    EXPECT_ACL_FAILS(enqueue_text(first.id(), "9"), ACL_ERROR_RT_QUEUE_FULL);
    for (const std::string& text : texts) EXPECT_EQ(text, dequeue_text(third.id()));
    ASSERT_ACL_OK(acltdtUnbindQueueRoutes(routes.get()));
}

// Binding refuses routes that would close a cycle, name a missing queue or
// are bound already, writing their status back; the other routes bind.
TEST_F(TdtQueueTest, BindRefusesCyclesMissingQueuesAndDuplicates) {
    Queue a(2);
    Queue b(2);
    RouteList forward(a.id(), b.id());
    ASSERT_ACL_OK(acltdtBindQueueRoutes(forward.get()));
    RouteList bad(b.id(), a.id());
    bad.add(a.id(), b.id() + 1000);
    bad.add(a.id(), b.id());
    EXPECT_ACL_FAILS(acltdtBindQueueRoutes(bad.get()), ACL_ERROR_FAILURE);
    for (size_t i = 0; i < 3; ++i) EXPECT_EQ(ACL_TDT_QUEUE_ROUTE_UNBIND, bad.status(i)) << i;
    RouteList notBound(b.id(), a.id());
    EXPECT_ACL_FAILS(acltdtUnbindQueueRoutes(notBound.get()), ACL_ERROR_FAILURE);
    ASSERT_ACL_OK(acltdtUnbindQueueRoutes(forward.get()));
}

// A route query needs its mode, and the ids that mode names.
TEST_F(TdtQueueTest, RouteQueryNeedsItsModeAndIds) {
    acltdtQueueRouteQueryInfo* query = acltdtCreateQueueRouteQueryInfo();
    RouteList found;
    EXPECT_ACL_FAILS(acltdtQueryQueueRoutes(query, found.get()), ACL_ERROR_INVALID_PARAM);
    const acltdtQueueRouteQueryMode mode = ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST;
    ASSERT_ACL_OK(acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof mode, &mode));
    const uint32_t id = 0;
    ASSERT_ACL_OK(acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32, sizeof id, &id));
    EXPECT_ACL_FAILS(acltdtQueryQueueRoutes(query, found.get()), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32, 2, &id),
                     ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32, sizeof id, &id));
    EXPECT_ACL_OK(acltdtQueryQueueRoutes(query, found.get()));
    EXPECT_ACL_OK(acltdtDestroyQueueRouteQueryInfo(query));
    EXPECT_ACL_FAILS(acltdtQueryQueueRoutes(query, found.get()), ACL_ERROR_INVALID_PARAM);
}

// Granting a queue to, or attaching one from, another process has no
// in-process meaning: 207000 with a message.
TEST_F(TdtQueueTest, GrantAndAttachAreNotSupported) {
    Queue queue(2);
    uint32_t permission = 0;
    EXPECT_ACL_FAILS(acltdtGrantQueue(queue.id(), 1, ACL_TDT_QUEUE_PERMISSION_ENQUEUE, 0),
                     ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_ACL_FAILS(acltdtAttachQueue(queue.id(), 0, &permission), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

}  // namespace
}  // namespace aclcpu::test
