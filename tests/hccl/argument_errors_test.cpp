// Argument errors: every refused call returns HCCL's code at once, enqueues
// nothing (the ranks' later calls still match), and leaves a message for
// aclGetRecentErrMsg that names the API.
#include <memory>

#include "hccl/hccl_test_support.hpp"

namespace aclcpu::hccl_test {
namespace {

/// Two ranks made by HcclCommInitAll on devices 0 and 1, a stream on each,
/// driven from the test's thread.
class ArgumentErrors : public HcclTest {
protected:
    void SetUp() override {
        HcclTest::SetUp();
        int32_t devices[2] = {0, 1};
        ASSERT_HCCL_OK(HcclCommInitAll(2, devices, comms_));
        for (int32_t d : devices) {
            ASSERT_ACL_OK(aclrtSetDevice(d));
            ASSERT_ACL_OK(aclrtCreateStream(&streams_[d]));
        }
        ASSERT_ACL_OK(aclrtSetDevice(0));
        buffer_ = std::make_unique<DeviceMemory>(4096);
        other_ = std::make_unique<DeviceMemory>(4096);
    }
    void TearDown() override {
        buffer_.reset();
        other_.reset();
        // Communicators first: a call accepted by mistake then fails at once
        // instead of holding its stream.
        for (HcclComm comm : comms_) {
            if (comm != nullptr) {
                EXPECT_HCCL_OK(HcclCommDestroy(comm));
            }
        }
        for (aclrtStream stream : streams_) {
            if (stream != nullptr) {
                EXPECT_ACL_OK(aclrtDestroyStream(stream));
            }
        }
        HcclTest::TearDown();
    }

    /// A valid all-reduce on both ranks: it succeeds only if no refused call
    /// took a place among the collectives.
    void expect_ranks_still_match() {
        std::vector<float> ones(16, 1.0f);
        DeviceMemory a(as_bytes(ones)), b(as_bytes(ones));
        ASSERT_HCCL_OK(HcclAllReduce(a.get(), a.get(), 16, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms_[0],
                                     streams_[0]));
        ASSERT_HCCL_OK(HcclAllReduce(b.get(), b.get(), 16, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms_[1],
                                     streams_[1]));
        EXPECT_ACL_OK(aclrtSynchronizeStream(streams_[0]));
        EXPECT_ACL_OK(aclrtSynchronizeStream(streams_[1]));
        EXPECT_EQ(std::vector<float>(16, 2.0f), a.values<float>());
        for (HcclComm comm : comms_) {
            HcclResult asyncError = HCCL_E_RESERVED;
            EXPECT_HCCL_OK(HcclGetCommAsyncError(comm, &asyncError));
            EXPECT_EQ(HCCL_SUCCESS, asyncError);
        }
    }

    HcclComm comms_[2] = {nullptr, nullptr};
    aclrtStream streams_[2] = {nullptr, nullptr};
    std::unique_ptr<DeviceMemory> buffer_, other_;
};

/// Every collective and point-to-point call of comm with valid arguments
/// otherwise, and the name each reports.
struct Entry {
    const char* api;
    std::function<HcclResult(HcclComm, void* buf, void* other, aclrtStream)> call;
};

std::vector<Entry> every_entry() {
    static uint64_t counts[2] = {1, 1}, displs[2] = {0, 1}, matrix[4] = {1, 1, 1, 1};
    static uint64_t vCounts[2] = {4, 4}, vDispls[2] = {0, 4};
    const HcclDataType f32 = HCCL_DATA_TYPE_FP32;
    return {
        {"HcclAllReduce", [=](HcclComm c, void* b, void* o, aclrtStream s) {
             return HcclAllReduce(b, o, 4, f32, HCCL_REDUCE_SUM, c, s);
         }},
        {"HcclBroadcast", [=](HcclComm c, void* b, void*, aclrtStream s) { return HcclBroadcast(b, 4, f32, 0, c, s); }},
        {"HcclReduceScatter", [=](HcclComm c, void* b, void* o, aclrtStream s) {
             return HcclReduceScatter(b, o, 4, f32, HCCL_REDUCE_SUM, c, s);
         }},
        {"HcclReduceScatterV", [=](HcclComm c, void* b, void* o, aclrtStream s) {
             return HcclReduceScatterV(b, vCounts, vDispls, o, 4, f32, HCCL_REDUCE_SUM, c, s);
         }},
        {"HcclScatter",
         [=](HcclComm c, void* b, void* o, aclrtStream s) { return HcclScatter(b, o, 4, f32, 0, c, s); }},
        {"HcclAllGather",
         [=](HcclComm c, void* b, void* o, aclrtStream s) { return HcclAllGather(b, o, 4, f32, c, s); }},
        {"HcclAllGatherV", [=](HcclComm c, void* b, void* o, aclrtStream s) {
             return HcclAllGatherV(b, 4, o, vCounts, vDispls, f32, c, s);
         }},
        {"HcclReduce", [=](HcclComm c, void* b, void* o, aclrtStream s) {
             return HcclReduce(b, o, 4, f32, HCCL_REDUCE_SUM, 0, c, s);
         }},
        {"HcclAlltoAll", [=](HcclComm c, void* b, void* o, aclrtStream s) {
             return HcclAlltoAll(b, 4, f32, o, 4, f32, c, s);
         }},
        {"HcclAlltoAllV", [=](HcclComm c, void* b, void* o, aclrtStream s) {
             return HcclAlltoAllV(b, counts, displs, f32, o, counts, displs, f32, c, s);
         }},
        {"HcclAlltoAllVC", [=](HcclComm c, void* b, void* o, aclrtStream s) {
             return HcclAlltoAllVC(b, matrix, f32, o, f32, c, s);
         }},
        {"HcclSend", [=](HcclComm c, void* b, void*, aclrtStream s) { return HcclSend(b, 4, f32, 1, c, s); }},
        {"HcclRecv", [=](HcclComm c, void* b, void*, aclrtStream s) { return HcclRecv(b, 4, f32, 1, c, s); }},
        {"HcclBatchSendRecv", [=](HcclComm c, void* b, void*, aclrtStream s) {
             HcclSendRecvItem item{HCCL_SEND, b, 4, f32, 1};
             return HcclBatchSendRecv(&item, 1, c, s);
         }},
        {"HcclBarrier", [=](HcclComm c, void*, void*, aclrtStream s) { return HcclBarrier(c, s); }},
    };
}

TEST_F(ArgumentErrors, NullCommunicatorIsAPointerError) {
    for (const Entry& entry : every_entry()) {
        EXPECT_HCCL_REFUSED(entry.call(nullptr, buffer_->get(), other_->get(), streams_[0]), HCCL_E_PTR, entry.api);
    }
    uint32_t value = 0;
    char name[COMM_NAME_MAX_LENGTH];
    HcclResult asyncError;
    EXPECT_HCCL_REFUSED(HcclGetRankSize(nullptr, &value), HCCL_E_PTR, "HcclGetRankSize");
    EXPECT_HCCL_REFUSED(HcclGetRankId(nullptr, &value), HCCL_E_PTR, "HcclGetRankId");
    EXPECT_HCCL_REFUSED(HcclGetCommName(nullptr, name), HCCL_E_PTR, "HcclGetCommName");
    EXPECT_HCCL_REFUSED(HcclGetCommAsyncError(nullptr, &asyncError), HCCL_E_PTR, "HcclGetCommAsyncError");
    EXPECT_HCCL_REFUSED(HcclCommDestroy(nullptr), HCCL_E_PTR, "HcclCommDestroy");
    expect_ranks_still_match();
}

TEST_F(ArgumentErrors, BogusAndDestroyedCommunicatorsAreParameterErrors) {
    int notAComm = 0;
    int32_t devices[2] = {2, 3};
    HcclComm destroyed[2] = {nullptr, nullptr};
    ASSERT_HCCL_OK(HcclCommInitAll(2, devices, destroyed));
    ASSERT_HCCL_OK(HcclCommDestroy(destroyed[0]));
    ASSERT_HCCL_OK(HcclCommDestroy(destroyed[1]));
    for (HcclComm comm : {static_cast<HcclComm>(&notAComm), destroyed[0]}) {
        for (const Entry& entry : every_entry()) {
            EXPECT_HCCL_REFUSED(entry.call(comm, buffer_->get(), other_->get(), streams_[0]), HCCL_E_PARA, entry.api);
        }
        uint32_t value = 0;
        char name[COMM_NAME_MAX_LENGTH];
        HcclResult asyncError;
        EXPECT_HCCL_REFUSED(HcclGetRankSize(comm, &value), HCCL_E_PARA, "HcclGetRankSize");
        EXPECT_HCCL_REFUSED(HcclGetRankId(comm, &value), HCCL_E_PARA, "HcclGetRankId");
        EXPECT_HCCL_REFUSED(HcclGetCommName(comm, name), HCCL_E_PARA, "HcclGetCommName");
        EXPECT_HCCL_REFUSED(HcclGetCommAsyncError(comm, &asyncError), HCCL_E_PARA, "HcclGetCommAsyncError");
        EXPECT_HCCL_REFUSED(HcclCommDestroy(comm), HCCL_E_PARA, "HcclCommDestroy");
    }
    expect_ranks_still_match();
}

TEST_F(ArgumentErrors, NullBuffersWithElementsArePointerErrors) {
    HcclComm c = comms_[0];
    aclrtStream s = streams_[0];
    void* b = buffer_->get();
    const HcclDataType f32 = HCCL_DATA_TYPE_FP32;
    EXPECT_HCCL_REFUSED(HcclAllReduce(nullptr, b, 4, f32, HCCL_REDUCE_SUM, c, s), HCCL_E_PTR, "HcclAllReduce");
    EXPECT_HCCL_REFUSED(HcclAllReduce(b, nullptr, 4, f32, HCCL_REDUCE_SUM, c, s), HCCL_E_PTR, "HcclAllReduce");
    EXPECT_HCCL_REFUSED(HcclBroadcast(nullptr, 4, f32, 1, c, s), HCCL_E_PTR, "HcclBroadcast");
    EXPECT_HCCL_REFUSED(HcclReduceScatter(nullptr, b, 4, f32, HCCL_REDUCE_SUM, c, s), HCCL_E_PTR,
                        "HcclReduceScatter");
    EXPECT_HCCL_REFUSED(HcclReduceScatter(b, nullptr, 4, f32, HCCL_REDUCE_SUM, c, s), HCCL_E_PTR,
                        "HcclReduceScatter");
    EXPECT_HCCL_REFUSED(HcclAllGather(nullptr, b, 4, f32, c, s), HCCL_E_PTR, "HcclAllGather");
    EXPECT_HCCL_REFUSED(HcclAllGather(b, nullptr, 4, f32, c, s), HCCL_E_PTR, "HcclAllGather");
    // Rank 0 is the root: it needs both buffers of Reduce and Scatter.
    EXPECT_HCCL_REFUSED(HcclReduce(nullptr, b, 4, f32, HCCL_REDUCE_SUM, 0, c, s), HCCL_E_PTR, "HcclReduce");
    EXPECT_HCCL_REFUSED(HcclReduce(b, nullptr, 4, f32, HCCL_REDUCE_SUM, 0, c, s), HCCL_E_PTR, "HcclReduce");
    EXPECT_HCCL_REFUSED(HcclScatter(nullptr, b, 4, f32, 0, c, s), HCCL_E_PTR, "HcclScatter");
    EXPECT_HCCL_REFUSED(HcclScatter(b, nullptr, 4, f32, 0, c, s), HCCL_E_PTR, "HcclScatter");
    // A rank other than the root always needs its input to Reduce and its output of Scatter.
    EXPECT_HCCL_REFUSED(HcclReduce(nullptr, b, 4, f32, HCCL_REDUCE_SUM, 1, c, s), HCCL_E_PTR, "HcclReduce");
    EXPECT_HCCL_REFUSED(HcclScatter(b, nullptr, 4, f32, 1, c, s), HCCL_E_PTR, "HcclScatter");
    EXPECT_HCCL_REFUSED(HcclAlltoAll(nullptr, 4, f32, b, 4, f32, c, s), HCCL_E_PTR, "HcclAlltoAll");
    EXPECT_HCCL_REFUSED(HcclAlltoAll(b, 4, f32, nullptr, 4, f32, c, s), HCCL_E_PTR, "HcclAlltoAll");
    EXPECT_HCCL_REFUSED(HcclSend(nullptr, 4, f32, 1, c, s), HCCL_E_PTR, "HcclSend");
    EXPECT_HCCL_REFUSED(HcclRecv(nullptr, 4, f32, 1, c, s), HCCL_E_PTR, "HcclRecv");
    uint64_t counts[2] = {1, 1}, displs[2] = {0, 1}, matrix[4] = {1, 1, 1, 1};
    EXPECT_HCCL_REFUSED(HcclAlltoAllV(nullptr, counts, displs, f32, b, counts, displs, f32, c, s), HCCL_E_PTR,
                        "HcclAlltoAllV");
    EXPECT_HCCL_REFUSED(HcclAlltoAllV(b, counts, displs, f32, nullptr, counts, displs, f32, c, s), HCCL_E_PTR,
                        "HcclAlltoAllV");
    EXPECT_HCCL_REFUSED(HcclAlltoAllV(b, nullptr, displs, f32, b, counts, displs, f32, c, s), HCCL_E_PTR,
                        "HcclAlltoAllV");
    EXPECT_HCCL_REFUSED(HcclAlltoAllV(b, counts, nullptr, f32, b, counts, displs, f32, c, s), HCCL_E_PTR,
                        "HcclAlltoAllV");
    EXPECT_HCCL_REFUSED(HcclAlltoAllV(b, counts, displs, f32, b, nullptr, displs, f32, c, s), HCCL_E_PTR,
                        "HcclAlltoAllV");
    EXPECT_HCCL_REFUSED(HcclAlltoAllV(b, counts, displs, f32, b, counts, nullptr, f32, c, s), HCCL_E_PTR,
                        "HcclAlltoAllV");
    EXPECT_HCCL_REFUSED(HcclAlltoAllVC(nullptr, matrix, f32, b, f32, c, s), HCCL_E_PTR, "HcclAlltoAllVC");
    EXPECT_HCCL_REFUSED(HcclAlltoAllVC(b, matrix, f32, nullptr, f32, c, s), HCCL_E_PTR, "HcclAlltoAllVC");
    EXPECT_HCCL_REFUSED(HcclAlltoAllVC(b, nullptr, f32, b, f32, c, s), HCCL_E_PTR, "HcclAlltoAllVC");
    uint64_t vCounts[2] = {4, 4}, vDispls[2] = {0, 4};
    const auto reduce_scatter_v = [&](void* send, const uint64_t* counts_, const uint64_t* displs_, void* recv) {
        return HcclReduceScatterV(send, counts_, displs_, recv, 4, f32, HCCL_REDUCE_SUM, c, s);
    };
    EXPECT_HCCL_REFUSED(reduce_scatter_v(nullptr, vCounts, vDispls, b), HCCL_E_PTR, "HcclReduceScatterV");
    EXPECT_HCCL_REFUSED(reduce_scatter_v(b, nullptr, vDispls, b), HCCL_E_PTR, "HcclReduceScatterV");
    EXPECT_HCCL_REFUSED(reduce_scatter_v(b, vCounts, nullptr, b), HCCL_E_PTR, "HcclReduceScatterV");
    EXPECT_HCCL_REFUSED(reduce_scatter_v(b, vCounts, vDispls, nullptr), HCCL_E_PTR, "HcclReduceScatterV");
    const auto all_gather_v = [&](void* send, void* recv, const uint64_t* counts_, const uint64_t* displs_) {
        return HcclAllGatherV(send, 4, recv, counts_, displs_, f32, c, s);
    };
    EXPECT_HCCL_REFUSED(all_gather_v(nullptr, b, vCounts, vDispls), HCCL_E_PTR, "HcclAllGatherV");
    EXPECT_HCCL_REFUSED(all_gather_v(b, nullptr, vCounts, vDispls), HCCL_E_PTR, "HcclAllGatherV");
    EXPECT_HCCL_REFUSED(all_gather_v(b, b, nullptr, vDispls), HCCL_E_PTR, "HcclAllGatherV");
    EXPECT_HCCL_REFUSED(all_gather_v(b, b, vCounts, nullptr), HCCL_E_PTR, "HcclAllGatherV");
    HcclSendRecvItem item{HCCL_RECV, nullptr, 4, f32, 1};
    EXPECT_HCCL_REFUSED(HcclBatchSendRecv(&item, 1, c, s), HCCL_E_PTR, "HcclBatchSendRecv");
    EXPECT_HCCL_REFUSED(HcclBatchSendRecv(nullptr, 1, c, s), HCCL_E_PTR, "HcclBatchSendRecv");
    expect_ranks_still_match();
}

TEST_F(ArgumentErrors, RootsAndPeersOutsideTheGroupAndSelfTransfers) {
    HcclComm c = comms_[0];
    aclrtStream s = streams_[0];
    void* b = buffer_->get();
    void* o = other_->get();
    const HcclDataType f32 = HCCL_DATA_TYPE_FP32;
    for (uint32_t bad : {2u, 7u, 0xFFFFFFFFu}) {
        EXPECT_HCCL_REFUSED(HcclBroadcast(b, 4, f32, bad, c, s), HCCL_E_PARA, "HcclBroadcast");
        EXPECT_HCCL_REFUSED(HcclReduce(b, o, 4, f32, HCCL_REDUCE_SUM, bad, c, s), HCCL_E_PARA, "HcclReduce");
        EXPECT_HCCL_REFUSED(HcclScatter(b, o, 4, f32, bad, c, s), HCCL_E_PARA, "HcclScatter");
        EXPECT_HCCL_REFUSED(HcclSend(b, 4, f32, bad, c, s), HCCL_E_PARA, "HcclSend");
        EXPECT_HCCL_REFUSED(HcclRecv(b, 4, f32, bad, c, s), HCCL_E_PARA, "HcclRecv");
        HcclSendRecvItem item{HCCL_SEND, b, 4, f32, bad};
        EXPECT_HCCL_REFUSED(HcclBatchSendRecv(&item, 1, c, s), HCCL_E_PARA, "HcclBatchSendRecv");
    }
    EXPECT_HCCL_REFUSED(HcclSend(b, 4, f32, 0, c, s), HCCL_E_PARA, "HcclSend");
    EXPECT_HCCL_REFUSED(HcclRecv(b, 4, f32, 0, c, s), HCCL_E_PARA, "HcclRecv");
    HcclSendRecvItem self{HCCL_RECV, b, 4, f32, 0};
    EXPECT_HCCL_REFUSED(HcclBatchSendRecv(&self, 1, c, s), HCCL_E_PARA, "HcclBatchSendRecv");
    expect_ranks_still_match();
}

// A batch is checked whole before any item is posted: a bad item after a
// good one leaves the pair's order untouched.
TEST_F(ArgumentErrors, BadBatchesPostNothing) {
    HcclComm c = comms_[0];
    aclrtStream s = streams_[0];
    const HcclDataType f32 = HCCL_DATA_TYPE_FP32;
    DeviceMemory first(as_bytes(std::vector<float>{1, 2, 3, 4})), wrong(as_bytes(std::vector<float>{9, 9, 9, 9}));
    HcclSendRecvItem items[2] = {{HCCL_SEND, wrong.get(), 4, f32, 1}, {HCCL_SEND, wrong.get(), 4, f32, 1}};
    items[1].sendRecvType = static_cast<HcclSendRecvType>(3);  // in the enumeration's range 0..3, not a type
    EXPECT_HCCL_REFUSED(HcclBatchSendRecv(items, 2, c, s), HCCL_E_PARA, "HcclBatchSendRecv");
    items[1] = {HCCL_SEND, wrong.get(), 4, static_cast<HcclDataType>(13), 1};
    EXPECT_HCCL_REFUSED(HcclBatchSendRecv(items, 2, c, s), HCCL_E_PARA, "HcclBatchSendRecv");
    items[1] = {HCCL_RECV, nullptr, 4, f32, 1};
    EXPECT_HCCL_REFUSED(HcclBatchSendRecv(items, 2, c, s), HCCL_E_PTR, "HcclBatchSendRecv");
    EXPECT_HCCL_REFUSED(HcclBatchSendRecv(items, 0, c, s), HCCL_E_PARA, "HcclBatchSendRecv");
    // The first transfer from rank 0 to rank 1 is this one.
    ASSERT_ACL_OK(aclrtSetDevice(1));
    DeviceMemory received(16);
    ASSERT_HCCL_OK(HcclSend(first.get(), 4, f32, 1, c, s));
    ASSERT_HCCL_OK(HcclRecv(received.get(), 4, f32, 0, comms_[1], streams_[1]));
    EXPECT_ACL_OK(aclrtSynchronizeStream(streams_[0]));
    EXPECT_ACL_OK(aclrtSynchronizeStream(streams_[1]));
    EXPECT_EQ((std::vector<float>{1, 2, 3, 4}), received.values<float>());
    ASSERT_ACL_OK(aclrtSetDevice(0));
}

// Type values outside HcclDataType: HCCL_E_PARA; types without a CPU layout
// (int128, hif8, the fp8 types): HCCL_E_NOT_SUPPORT; for every call.
TEST_F(ArgumentErrors, DataTypes) {
    HcclComm c = comms_[0];
    aclrtStream s = streams_[0];
    void* b = buffer_->get();
    void* o = other_->get();
    uint64_t counts[2] = {1, 1}, displs[2] = {0, 1}, matrix[4] = {1, 1, 1, 1};
    uint64_t vCounts[2] = {4, 4}, vDispls[2] = {0, 4};
    const auto every_call = [&](HcclDataType t, HcclResult code) {
        EXPECT_HCCL_REFUSED(HcclReduceScatterV(b, vCounts, vDispls, o, 4, t, HCCL_REDUCE_MAX, c, s), code,
                            "HcclReduceScatterV")
            << t;
        EXPECT_HCCL_REFUSED(HcclAllGatherV(b, 4, o, vCounts, vDispls, t, c, s), code, "HcclAllGatherV") << t;
        EXPECT_HCCL_REFUSED(HcclAllReduce(b, o, 4, t, HCCL_REDUCE_SUM, c, s), code, "HcclAllReduce") << t;
        EXPECT_HCCL_REFUSED(HcclBroadcast(b, 4, t, 0, c, s), code, "HcclBroadcast") << t;
        EXPECT_HCCL_REFUSED(HcclReduceScatter(b, o, 4, t, HCCL_REDUCE_MAX, c, s), code, "HcclReduceScatter") << t;
        EXPECT_HCCL_REFUSED(HcclScatter(b, o, 4, t, 0, c, s), code, "HcclScatter") << t;
        EXPECT_HCCL_REFUSED(HcclAllGather(b, o, 4, t, c, s), code, "HcclAllGather") << t;
        EXPECT_HCCL_REFUSED(HcclReduce(b, o, 4, t, HCCL_REDUCE_MIN, 0, c, s), code, "HcclReduce") << t;
        EXPECT_HCCL_REFUSED(HcclAlltoAll(b, 4, t, o, 4, t, c, s), code, "HcclAlltoAll") << t;
        EXPECT_HCCL_REFUSED(HcclAlltoAllV(b, counts, displs, t, o, counts, displs, t, c, s), code, "HcclAlltoAllV")
            << t;
        EXPECT_HCCL_REFUSED(HcclAlltoAllVC(b, matrix, t, o, t, c, s), code, "HcclAlltoAllVC") << t;
        EXPECT_HCCL_REFUSED(HcclSend(b, 4, t, 1, c, s), code, "HcclSend") << t;
        EXPECT_HCCL_REFUSED(HcclRecv(b, 4, t, 1, c, s), code, "HcclRecv") << t;
    };
    // Codes inside the enumeration's range (0..255): a C++ test may not even
    // form an enum value outside it; C callers' other integers are fuzz_hccl's.
    for (int bad : {13, 18, 100, 255}) every_call(static_cast<HcclDataType>(bad), HCCL_E_PARA);
    for (HcclDataType unsupported : {HCCL_DATA_TYPE_INT128, HCCL_DATA_TYPE_HIF8, HCCL_DATA_TYPE_FP8E4M3,
                                     HCCL_DATA_TYPE_FP8E5M2, HCCL_DATA_TYPE_FP8E8M0}) {
        every_call(unsupported, HCCL_E_NOT_SUPPORT);
    }
    expect_ranks_still_match();
}

// Reductions: the Atlas A2 set only (prod not over int16 or bf16; no
// unsigned or fp64 reductions), and an op outside HcclReduceOp is HCCL_E_PARA.
TEST_F(ArgumentErrors, UnsupportedReductions) {
    HcclComm c = comms_[0];
    aclrtStream s = streams_[0];
    void* b = buffer_->get();
    void* o = other_->get();
    uint64_t vCounts[2] = {4, 4}, vDispls[2] = {0, 4};
    const auto reduce_scatter_v = [&](HcclDataType t, HcclReduceOp op) {
        return HcclReduceScatterV(b, vCounts, vDispls, o, 4, t, op, c, s);
    };
    const auto every_reduction = [&](HcclDataType t, HcclReduceOp op, HcclResult code) {
        EXPECT_HCCL_REFUSED(HcclAllReduce(b, o, 4, t, op, c, s), code, "HcclAllReduce") << t << " op " << op;
        EXPECT_HCCL_REFUSED(reduce_scatter_v(t, op), code, "HcclReduceScatterV") << t << " op " << op;
        EXPECT_HCCL_REFUSED(HcclReduceScatter(b, o, 4, t, op, c, s), code, "HcclReduceScatter") << t << " op " << op;
        EXPECT_HCCL_REFUSED(HcclReduce(b, o, 4, t, op, 1, c, s), code, "HcclReduce") << t << " op " << op;
    };
    every_reduction(HCCL_DATA_TYPE_INT16, HCCL_REDUCE_PROD, HCCL_E_NOT_SUPPORT);
    every_reduction(HCCL_DATA_TYPE_BFP16, HCCL_REDUCE_PROD, HCCL_E_NOT_SUPPORT);
    for (HcclDataType t : {HCCL_DATA_TYPE_UINT8, HCCL_DATA_TYPE_UINT16, HCCL_DATA_TYPE_UINT32, HCCL_DATA_TYPE_UINT64,
                           HCCL_DATA_TYPE_FP64}) {
        for (HcclReduceOp op : {HCCL_REDUCE_SUM, HCCL_REDUCE_PROD, HCCL_REDUCE_MAX, HCCL_REDUCE_MIN}) {
            every_reduction(t, op, HCCL_E_NOT_SUPPORT);
        }
    }
    for (int op : {4, 100, 255}) every_reduction(HCCL_DATA_TYPE_FP32, static_cast<HcclReduceOp>(op), HCCL_E_PARA);
    // HcclReduceScatterV offers sum, max and min only.
    for (HcclDataType t : {HCCL_DATA_TYPE_FP32, HCCL_DATA_TYPE_INT32, HCCL_DATA_TYPE_FP16}) {
        EXPECT_HCCL_REFUSED(reduce_scatter_v(t, HCCL_REDUCE_PROD), HCCL_E_NOT_SUPPORT, "HcclReduceScatterV") << t;
    }
    expect_ranks_still_match();
}

// The all-to-alls move one type: sendType and recvType must agree, and
// HcclAlltoAll's sendCount and recvCount too.
TEST_F(ArgumentErrors, AllToAllTypesAndCountsMustAgree) {
    HcclComm c = comms_[0];
    aclrtStream s = streams_[0];
    void* b = buffer_->get();
    void* o = other_->get();
    uint64_t counts[2] = {1, 1}, displs[2] = {0, 1}, matrix[4] = {1, 1, 1, 1};
    EXPECT_HCCL_REFUSED(HcclAlltoAll(b, 4, HCCL_DATA_TYPE_FP32, o, 4, HCCL_DATA_TYPE_INT32, c, s), HCCL_E_PARA,
                        "HcclAlltoAll");
    EXPECT_HCCL_REFUSED(HcclAlltoAll(b, 4, HCCL_DATA_TYPE_FP32, o, 5, HCCL_DATA_TYPE_FP32, c, s), HCCL_E_PARA,
                        "HcclAlltoAll");
    EXPECT_HCCL_REFUSED(HcclAlltoAllV(b, counts, displs, HCCL_DATA_TYPE_FP16, o, counts, displs, HCCL_DATA_TYPE_BFP16,
                                      c, s),
                        HCCL_E_PARA, "HcclAlltoAllV");
    EXPECT_HCCL_REFUSED(HcclAlltoAllVC(b, matrix, HCCL_DATA_TYPE_INT8, o, HCCL_DATA_TYPE_UINT8, c, s), HCCL_E_PARA,
                        "HcclAlltoAllVC");
    expect_ranks_still_match();
}

// Counts whose byte size overflows are refused rather than wrapped.
TEST_F(ArgumentErrors, OverflowingCounts) {
    HcclComm c = comms_[0];
    aclrtStream s = streams_[0];
    void* b = buffer_->get();
    void* o = other_->get();
    const uint64_t huge = UINT64_MAX / 2;
    EXPECT_HCCL_REFUSED(HcclAllReduce(b, o, huge, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, c, s), HCCL_E_PARA,
                        "HcclAllReduce");
    EXPECT_HCCL_REFUSED(HcclAllGather(b, o, huge, HCCL_DATA_TYPE_FP32, c, s), HCCL_E_PARA, "HcclAllGather");
    EXPECT_HCCL_REFUSED(HcclReduceScatter(b, o, huge, HCCL_DATA_TYPE_INT16, HCCL_REDUCE_SUM, c, s), HCCL_E_PARA,
                        "HcclReduceScatter");
    EXPECT_HCCL_REFUSED(HcclSend(b, huge, HCCL_DATA_TYPE_INT64, 1, c, s), HCCL_E_PARA, "HcclSend");
    expect_ranks_still_match();
}

// A displacement whose end overflows is refused rather than wrapped to a
// small extent (the all-to-all-v accepted it and moved its share from a wild
// address); a V collective's own entry must be the rank's own count.
TEST_F(ArgumentErrors, OverflowingDisplacementsAndOwnCounts) {
    HcclComm c = comms_[0];
    aclrtStream s = streams_[0];
    void* b = buffer_->get();
    void* o = other_->get();
    const HcclDataType f32 = HCCL_DATA_TYPE_FP32;
    uint64_t counts[2] = {4, 4}, wild[2] = {0, UINT64_MAX - 1};
    EXPECT_HCCL_REFUSED(HcclAlltoAllV(b, counts, wild, f32, o, counts, counts, f32, c, s), HCCL_E_PARA,
                        "HcclAlltoAllV");
    EXPECT_HCCL_REFUSED(HcclAlltoAllV(b, counts, counts, f32, o, counts, wild, f32, c, s), HCCL_E_PARA,
                        "HcclAlltoAllV");
    EXPECT_HCCL_REFUSED(HcclReduceScatterV(b, counts, wild, o, 4, f32, HCCL_REDUCE_SUM, c, s), HCCL_E_PARA,
                        "HcclReduceScatterV");
    EXPECT_HCCL_REFUSED(HcclAllGatherV(b, 4, o, counts, wild, f32, c, s), HCCL_E_PARA, "HcclAllGatherV");
    uint64_t notOwn[2] = {3, 4}, displs[2] = {0, 4};
    EXPECT_HCCL_REFUSED(HcclReduceScatterV(b, notOwn, displs, o, 4, f32, HCCL_REDUCE_SUM, c, s), HCCL_E_PARA,
                        "HcclReduceScatterV");
    EXPECT_HCCL_REFUSED(HcclAllGatherV(b, 4, o, notOwn, displs, f32, c, s), HCCL_E_PARA, "HcclAllGatherV");
    expect_ranks_still_match();
}

// count * ranks elements of a one-byte type overflow too (2^63 int8
// elements from each of 2 ranks: 2^64 bytes).
TEST_F(ArgumentErrors, OverflowingRankMultiplesOfOneByteTypes) {
    HcclComm c = comms_[0];
    aclrtStream s = streams_[0];
    void* b = buffer_->get();
    void* o = other_->get();
    const uint64_t half = uint64_t{1} << 63;
    EXPECT_HCCL_REFUSED(HcclAllGather(b, o, half, HCCL_DATA_TYPE_INT8, c, s), HCCL_E_PARA, "HcclAllGather");
    EXPECT_HCCL_REFUSED(HcclReduceScatter(b, o, half, HCCL_DATA_TYPE_INT8, HCCL_REDUCE_SUM, c, s), HCCL_E_PARA,
                        "HcclReduceScatter");
    EXPECT_HCCL_REFUSED(HcclScatter(b, o, half, HCCL_DATA_TYPE_UINT8, 0, c, s), HCCL_E_PARA, "HcclScatter");
    EXPECT_HCCL_REFUSED(HcclAlltoAll(b, half, HCCL_DATA_TYPE_INT8, o, half, HCCL_DATA_TYPE_INT8, c, s), HCCL_E_PARA,
                        "HcclAlltoAll");
    // (No expect_ranks_still_match: a call accepted by mistake would wait for
    // rank 1 until the communicators are destroyed at TearDown.)
}

// Null output pointers of the queries.
TEST_F(ArgumentErrors, QueriesNeedTheirOutputs) {
    EXPECT_HCCL_REFUSED(HcclGetRankSize(comms_[0], nullptr), HCCL_E_PTR, "HcclGetRankSize");
    EXPECT_HCCL_REFUSED(HcclGetRankId(comms_[0], nullptr), HCCL_E_PTR, "HcclGetRankId");
    EXPECT_HCCL_REFUSED(HcclGetCommName(comms_[0], nullptr), HCCL_E_PTR, "HcclGetCommName");
    EXPECT_HCCL_REFUSED(HcclGetCommAsyncError(comms_[0], nullptr), HCCL_E_PTR, "HcclGetCommAsyncError");
    EXPECT_HCCL_REFUSED(HcclGetRootInfo(nullptr), HCCL_E_PTR, "HcclGetRootInfo");
}

}  // namespace
}  // namespace aclcpu::hccl_test
