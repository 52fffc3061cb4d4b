// Notifies and count notifies: creation, cross-stream ordering, reset,
// sharing by export key, and timeouts.  Behaviour from CANN's
// docs/zh/api_ref/08_notify_management.md and 09_cntNotify_management.md.
#include <unistd.h>

#include <array>
#include <string>
#include <vector>

#include "aclcpu/testing.hpp"
#include "runtime/runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

using NotifyTest = RuntimeTest;
using CountNotifyTest = RuntimeTest;

/// An aclrtNotify, destroyed at scope end.
class Notify {
public:
    Notify() { EXPECT_ACL_OK(aclrtCreateNotify(&notify_, ACL_NOTIFY_DEFAULT)); }
    ~Notify() { EXPECT_ACL_OK(aclrtDestroyNotify(notify_)); }
    Notify(const Notify&) = delete;
    Notify& operator=(const Notify&) = delete;
    aclrtNotify get() const { return notify_; }

private:
    aclrtNotify notify_ = nullptr;
};

/// An aclrtCntNotify, destroyed at scope end.
class CountNotify {
public:
    CountNotify() { EXPECT_ACL_OK(aclrtCntNotifyCreate(&notify_, 0)); }
    ~CountNotify() { EXPECT_ACL_OK(aclrtCntNotifyDestroy(notify_)); }
    CountNotify(const CountNotify&) = delete;
    CountNotify& operator=(const CountNotify&) = delete;
    aclrtCntNotify get() const { return notify_; }

private:
    aclrtCntNotify notify_ = nullptr;
};

/// The shortest timeout CANN's notify waits take: one second.
constexpr uint32_t kShortestTimeoutSeconds = 1;

aclError record(aclrtCntNotify notify, aclrtStream stream, aclrtCntNotifyRecordMode mode, uint32_t value) {
    aclrtCntNotifyRecordInfo info{mode, value};
    return aclrtCntNotifyRecord(notify, stream, &info);
}

aclError wait(aclrtCntNotify notify, aclrtStream stream, aclrtCntNotifyWaitMode mode, uint32_t value,
              uint32_t timeoutSeconds = 0, bool clear = false) {
    aclrtCntNotifyWaitInfo info{};
    info.mode = mode;
    info.value = value;
    info.timeout = timeoutSeconds;
    info.isClear = clear ? 1 : 0;
    return aclrtCntNotifyWaitWithTimeout(notify, stream, &info);
}

// 08: aclrtCreateNotify takes ACL_NOTIFY_DEFAULT or ACL_NOTIFY_DEVICE_USE_ONLY;
// aclrtGetNotifyId gives each notify its id.
TEST_F(NotifyTest, CreateGivesDistinctIdsAndRejectsBadArguments) {
    Notify first;
    aclrtNotify deviceOnly = nullptr;
    ASSERT_ACL_OK(aclrtCreateNotify(&deviceOnly, ACL_NOTIFY_DEVICE_USE_ONLY));
    uint32_t firstId = 0;
    uint32_t secondId = 0;
    ASSERT_ACL_OK(aclrtGetNotifyId(first.get(), &firstId));
    ASSERT_ACL_OK(aclrtGetNotifyId(deviceOnly, &secondId));
    EXPECT_NE(firstId, secondId);
    ASSERT_ACL_OK(aclrtDestroyNotify(deviceOnly));

    aclrtNotify notify = nullptr;
    EXPECT_ACL_FAILS(aclrtCreateNotify(nullptr, ACL_NOTIFY_DEFAULT), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtCreateNotify(&notify, 0x4), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtGetNotifyId(first.get(), nullptr), ACL_ERROR_INVALID_PARAM);
    // Issue 29.13: a destroyed notify fails CANN's handle check
    // (ValidateNotifyHandleForApi → ValidateInnerObject: RT_ERROR_INVALID_HANDLE).
    EXPECT_ACL_FAILS(aclrtGetNotifyId(deviceOnly, &secondId), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtDestroyNotify(deviceOnly), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtRecordNotify(deviceOnly, nullptr), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtWaitAndResetNotify(deviceOnly, nullptr, 0), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtDestroyNotify(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtRecordNotify(nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtWaitAndResetNotify(first.get(), reinterpret_cast<aclrtStream>(&notify), 0));
}

// 08, aclrtRecordNotify / aclrtWaitAndResetNotify: stream 2 waits for stream 1.
TEST_F(NotifyTest, WaitHoldsTheStreamUntilTheRecord) {
    Notify notify;
    expect_consumer_waits_for_producer([&](aclrtStream producer, aclrtStream consumer) {
        ASSERT_ACL_OK(aclrtRecordNotify(notify.get(), producer));
        ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify.get(), consumer, 0));
    });
}

// 08, aclrtWaitAndResetNotify: the wait resets the notify, so one record
// releases one wait; the second times out (reported by the synchronisation).
TEST_F(NotifyTest, EachRecordReleasesOneWait) {
    Stream producer;
    Stream consumer;
    Notify notify;
    ASSERT_ACL_OK(aclrtRecordNotify(notify.get(), producer.get()));
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(producer.get(), kBoundedWaitMs));
    // A record that ran before the wait was issued still releases it.
    ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify.get(), consumer.get(), kShortestTimeoutSeconds));
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(consumer.get(), kBoundedWaitMs));
    ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify.get(), consumer.get(), kShortestTimeoutSeconds));
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(consumer.get(), kBoundedWaitMs), ACL_ERROR_RT_TASK_TIMEOUT);
    // The error was handed out once; the stream goes on.
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(consumer.get(), kBoundedWaitMs));
}

// An abort kills a stream's notify wait and pokes the condition watcher,
// which drops the wait at its next look.  A device reset could destroy the
// stream's lane before that look, which then tested the freed lane (a TSan
// race in Stress.StreamAbortWakesABlockedWaiterEveryTime; here, with the
// watcher paused across the reset, ASan's heap-use-after-free).  The reset
// now drops the device's armed waits first.
TEST_F(NotifyTest, AWaitAnAbortKilledDoesNotOutliveItsDevice) {
    {
        Stream stream;
        Notify notify;
        ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify.get(), stream.get(), 0));
        aclcpu::testing::pause_condition_watcher(true);
        ASSERT_ACL_OK(aclrtStreamAbort(stream.get()));
    }
    ASSERT_ACL_OK(aclrtResetDevice(0));
    ASSERT_ACL_OK(aclrtSetDevice(0));
    aclcpu::testing::pause_condition_watcher(false);
    Stream waiter;
    Stream recorder;
    Notify notify;
    ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify.get(), waiter.get(), 0));
    ASSERT_ACL_OK(aclrtRecordNotify(notify.get(), recorder.get()));
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(waiter.get(), kBoundedWaitMs));
}

// 08, aclrtNotifyBatchReset: resets every listed notify, and (acl-cpu) none
// when one handle is bad.
TEST_F(NotifyTest, BatchResetClearsRecordsAllOrNothing) {
    Stream stream;
    Notify first;
    Notify second;
    ASSERT_ACL_OK(aclrtRecordNotify(first.get(), stream.get()));
    ASSERT_ACL_OK(aclrtRecordNotify(second.get(), stream.get()));
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));

    std::array<aclrtNotify, 2> withBadHandle{first.get(), reinterpret_cast<aclrtNotify>(&stream)};
    EXPECT_ACL_FAILS(aclrtNotifyBatchReset(withBadHandle.data(), withBadHandle.size()), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtNotifyBatchReset(nullptr, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtNotifyBatchReset(withBadHandle.data(), 0), ACL_ERROR_INVALID_PARAM);
    // first is still recorded.
    ASSERT_ACL_OK(aclrtWaitAndResetNotify(first.get(), stream.get(), kShortestTimeoutSeconds));
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));

    std::array<aclrtNotify, 1> justSecond{second.get()};
    ASSERT_ACL_OK(aclrtNotifyBatchReset(justSecond.data(), justSecond.size()));
    ASSERT_ACL_OK(aclrtWaitAndResetNotify(second.get(), stream.get(), kShortestTimeoutSeconds));
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs), ACL_ERROR_RT_TASK_TIMEOUT);
}

// 07, aclrtSetOpWaitTimeout (the brief extends it to notify waits): a wait
// without its own timeout takes the process-wide one.
TEST_F(NotifyTest, OpWaitTimeoutBoundsAWaitWithoutItsOwn) {
    Stream stream;
    Notify notify;
    ASSERT_ACL_OK(aclrtSetOpWaitTimeout(kShortestTimeoutSeconds));
    ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify.get(), stream.get(), 0));
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs), ACL_ERROR_RT_TASK_TIMEOUT);
    ASSERT_ACL_OK(aclrtSetOpWaitTimeout(0));
}

// 08, aclrtNotifyGetExportKey / aclrtNotifySetImportPid / aclrtNotifyImportByKey:
// the imported handle is the same notify, shared here between two handles of one process.
TEST_F(NotifyTest, ImportedNotifySignalsTheExportedOne) {
    Stream producer;
    Stream consumer;
    Notify exported;
    char key[65] = {};
    EXPECT_ACL_FAILS(aclrtNotifyGetExportKey(exported.get(), key, 64, ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtNotifyGetExportKey(exported.get(), key, sizeof key, 0x1), ACL_ERROR_INVALID_PARAM);
    int32_t self = static_cast<int32_t>(getpid());
    // The whitelist needs a key first.
    EXPECT_ACL_FAILS(aclrtNotifySetImportPid(exported.get(), &self, 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_ACL_OK(aclrtNotifyGetExportKey(exported.get(), key, sizeof key, ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT));

    aclrtNotify imported = nullptr;
    // Pid validation is on and this process is not whitelisted yet.
    EXPECT_ACL_FAILS(aclrtNotifyImportByKey(&imported, key, ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT),
                     ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtNotifySetImportPid(exported.get(), nullptr, 1), ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(aclrtNotifySetImportPid(exported.get(), &self, 1));
    ASSERT_ACL_OK(aclrtNotifyImportByKey(&imported, key, ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS));
    EXPECT_NE(imported, exported.get());

    Gate gate;
    ASSERT_ACL_OK(gate.hold(producer.get()));
    ASSERT_ACL_OK(aclrtRecordNotify(imported, producer.get()));
    ASSERT_ACL_OK(aclrtWaitAndResetNotify(exported.get(), consumer.get(), 0));
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(consumer.get(), kAbsenceWindowMs),
                     ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    gate.open();
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(consumer.get(), kBoundedWaitMs));
    ASSERT_ACL_OK(aclrtDestroyNotify(imported));
}

// 08, aclrtNotifyGetExportKey: ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION
// needs no whitelist; a key of another process does not import.
TEST_F(NotifyTest, ImportWithoutPidValidationAndForeignKeys) {
    Notify exported;
    char key[128] = {};
    ASSERT_ACL_OK(aclrtNotifyGetExportKey(exported.get(), key, sizeof key,
                                          ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION));
    aclrtNotify imported = nullptr;
    ASSERT_ACL_OK(aclrtNotifyImportByKey(&imported, key, ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT));
    uint32_t exportedId = 0;
    uint32_t importedId = 0;
    ASSERT_ACL_OK(aclrtGetNotifyId(exported.get(), &exportedId));
    ASSERT_ACL_OK(aclrtGetNotifyId(imported, &importedId));
    EXPECT_EQ(exportedId, importedId);
    ASSERT_ACL_OK(aclrtDestroyNotify(imported));

    const std::string foreign = "aclcpu-notify-" + std::to_string(getpid() + 1) + "-" + std::to_string(exportedId);
    EXPECT_ACL_FAILS(aclrtNotifyImportByKey(&imported, foreign.c_str(), 0), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtNotifyImportByKey(&imported, "not a key", 0), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtNotifyImportByKey(&imported, key, 0x1), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtNotifyImportByKey(nullptr, key, 0), ACL_ERROR_INVALID_PARAM);
}

// 09: a count notify counts; aclrtCntNotifyRecord's modes set, add, or and
// and; aclrtCntNotifyWaitWithTimeout's modes compare; isClear empties it.
TEST_F(CountNotifyTest, RecordModesAndWaitModes) {
    Stream stream;
    CountNotify notify;
    ASSERT_ACL_OK(record(notify.get(), stream.get(), ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 0b1100));
    ASSERT_ACL_OK(wait(notify.get(), stream.get(), ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0b1100));
    ASSERT_ACL_OK(record(notify.get(), stream.get(), ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE, 0b0011));
    ASSERT_ACL_OK(wait(notify.get(), stream.get(), ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0b1111));
    ASSERT_ACL_OK(record(notify.get(), stream.get(), ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE, 0b0101));
    ASSERT_ACL_OK(wait(notify.get(), stream.get(), ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE, 0b0100));
    ASSERT_ACL_OK(record(notify.get(), stream.get(), ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 3));
    ASSERT_ACL_OK(wait(notify.get(), stream.get(), ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 7));
    ASSERT_ACL_OK(wait(notify.get(), stream.get(), ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 8, 0, true));
    ASSERT_ACL_OK(wait(notify.get(), stream.get(), ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE, 1));
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    // 0 after the clearing wait: "equal 5" cannot pass.
    ASSERT_ACL_OK(wait(notify.get(), stream.get(), ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 5, kShortestTimeoutSeconds));
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs), ACL_ERROR_RT_TASK_TIMEOUT);
}

// 09: stream 2 waits until stream 1's records bring the count up; aclrtCntNotifyReset empties it.
TEST_F(CountNotifyTest, WaitHoldsTheStreamUntilTheCountIsReached) {
    Stream producer;
    Stream consumer;
    CountNotify notify;
    DeviceBuffer target(4096);
    target.fill(0);
    ASSERT_ACL_OK(record(notify.get(), producer.get(), ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 2));
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(producer.get(), kBoundedWaitMs));
    Gate gate;
    ASSERT_ACL_OK(gate.hold(producer.get()));
    ASSERT_ACL_OK(record(notify.get(), producer.get(), ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 2));
    ASSERT_ACL_OK(wait(notify.get(), consumer.get(), ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 4));
    ASSERT_ACL_OK(aclrtMemsetAsync(target.get(), target.size(), 7, target.size(), consumer.get()));
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(consumer.get(), kAbsenceWindowMs),
                     ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    EXPECT_EQ(std::vector<uint8_t>(target.size(), 0), target.read());
    gate.open();
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(consumer.get(), kBoundedWaitMs));
    EXPECT_EQ(std::vector<uint8_t>(target.size(), 7), target.read());

    ASSERT_ACL_OK(aclrtCntNotifyReset(notify.get(), producer.get()));
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(producer.get(), kBoundedWaitMs));
    ASSERT_ACL_OK(wait(notify.get(), consumer.get(), ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0));
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(consumer.get(), kBoundedWaitMs));
    EXPECT_FALSE(gate.expired());
}

// 09: argument checks; mode values a C caller may pass outside the enums.
TEST_F(CountNotifyTest, RejectsBadArguments) {
    CountNotify notify;
    aclrtCntNotify created = nullptr;
    EXPECT_ACL_FAILS(aclrtCntNotifyCreate(nullptr, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtCntNotifyCreate(&created, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtCntNotifyRecord(notify.get(), nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(record(notify.get(), nullptr, static_cast<aclrtCntNotifyRecordMode>(3), 1),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtCntNotifyWaitWithTimeout(notify.get(), nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(wait(notify.get(), nullptr, static_cast<aclrtCntNotifyWaitMode>(5), 1), ACL_ERROR_INVALID_PARAM);
    aclrtCntNotifyWaitInfo badClear{ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0, 0, 2, {}};
    EXPECT_ACL_FAILS(aclrtCntNotifyWaitWithTimeout(notify.get(), nullptr, &badClear), ACL_ERROR_INVALID_PARAM);
    uint32_t id = 0;
    EXPECT_ACL_OK(aclrtCntNotifyGetId(notify.get(), &id));
    EXPECT_ACL_FAILS(aclrtCntNotifyGetId(notify.get(), nullptr), ACL_ERROR_INVALID_PARAM);
    // ValidateCountNotifyHandleForApi: no count notify → RT_ERROR_INVALID_HANDLE.
    EXPECT_ACL_FAILS(aclrtCntNotifyGetId(reinterpret_cast<aclrtCntNotify>(&id), &id), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtCntNotifyReset(nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtCntNotifyDestroy(nullptr), ACL_ERROR_INVALID_PARAM);
}

// Under TSan: two streams hand a notify pair back and forth, each wait
// released by the other stream's record, with no worker ever blocked.
TEST_F(NotifyTest, PingPongBetweenTwoStreams) {
    constexpr int kRounds = 200;
    Stream ping;
    Stream pong;
    Notify toPong;
    Notify toPing;
    DeviceBuffer counter(sizeof(uint64_t));
    counter.fill(0);
    for (int round = 0; round < kRounds; ++round) {
        ASSERT_ACL_OK(aclrtValueWrite(counter.get(), static_cast<uint64_t>(2 * round + 1), 0, ping.get()));
        ASSERT_ACL_OK(aclrtRecordNotify(toPong.get(), ping.get()));
        ASSERT_ACL_OK(aclrtWaitAndResetNotify(toPing.get(), ping.get(), 0));
        ASSERT_ACL_OK(aclrtWaitAndResetNotify(toPong.get(), pong.get(), 0));
        ASSERT_ACL_OK(aclrtValueWait(counter.get(), static_cast<uint64_t>(2 * round + 1), ACL_STREAM_WAIT_VALUE_EQ,
                                     pong.get()));
        ASSERT_ACL_OK(aclrtValueWrite(counter.get(), static_cast<uint64_t>(2 * round + 2), 0, pong.get()));
        ASSERT_ACL_OK(aclrtRecordNotify(toPing.get(), pong.get()));
    }
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(ping.get(), kBoundedWaitMs));
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(pong.get(), kBoundedWaitMs));
    uint64_t last = 0;
    ASSERT_ACL_OK(aclrtMemcpy(&last, sizeof last, counter.get(), sizeof last, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT_EQ(static_cast<uint64_t>(2 * kRounds), last);
}

}  // namespace
}  // namespace aclcpu::test
