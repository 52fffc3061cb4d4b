// Events beyond record and wait: ids, timestamps, wait status, flags, wait
// timeouts, IPC handles, and the operator timeouts of execution control.
// Behaviour from CANN's docs/zh/api_ref/07_event_management.md and
// 12_execution_control.md.
#include <cstring>
#include <vector>

#include "runtime/runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

using EventExtrasTest = RuntimeTest;
using OpTimeoutTest = RuntimeTest;

// 07, aclrtGetEventId: each event has its id.
TEST_F(EventExtrasTest, EventsHaveDistinctIds) {
    Event first;
    Event second;
    uint32_t firstId = 0;
    uint32_t secondId = 0;
    ASSERT_ACL_OK(aclrtGetEventId(first.get(), &firstId));
    ASSERT_ACL_OK(aclrtGetEventId(second.get(), &secondId));
    EXPECT_NE(firstId, secondId);
    EXPECT_ACL_FAILS(aclrtGetEventId(first.get(), nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtGetEventId(nullptr, &firstId), ACL_ERROR_INVALID_PARAM);
}

// 07, aclrtEventGetTimestamp: the time (µs) the event's record ran, after a synchronisation.
TEST_F(EventExtrasTest, TimestampsFollowStreamOrder) {
    Stream stream;
    Event early(ACL_EVENT_TIME_LINE);
    Event late(ACL_EVENT_TIME_LINE);
    uint64_t earlyUs = 0;
    uint64_t lateUs = 0;
    EXPECT_ACL_FAILS(aclrtEventGetTimestamp(early.get(), &earlyUs), ACL_ERROR_RT_PARAM_INVALID);
    Gate gate;
    ASSERT_ACL_OK(aclrtRecordEvent(early.get(), stream.get()));
    ASSERT_ACL_OK(gate.hold(stream.get()));
    ASSERT_ACL_OK(aclrtRecordEvent(late.get(), stream.get()));
    ASSERT_TRUE(gate.wait_until_reached());
    EXPECT_ACL_FAILS(aclrtEventGetTimestamp(late.get(), &lateUs), ACL_ERROR_RT_EVENT_NOT_COMPLETE);
    // Held for at least this long between the two records.
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(stream.get(), kAbsenceWindowMs),
                     ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    gate.open();
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    ASSERT_ACL_OK(aclrtEventGetTimestamp(early.get(), &earlyUs));
    ASSERT_ACL_OK(aclrtEventGetTimestamp(late.get(), &lateUs));
    EXPECT_GE(lateUs - earlyUs, static_cast<uint64_t>(kAbsenceWindowMs) * 1000);
    EXPECT_ACL_FAILS(aclrtEventGetTimestamp(late.get(), nullptr), ACL_ERROR_INVALID_PARAM);
}

// 07, aclrtQueryEventWaitStatus: complete once the waits issued by
// aclrtStreamWaitEvent have run.
TEST_F(EventExtrasTest, WaitStatusFollowsTheWaitingStreams) {
    Stream producer;
    Stream consumer;
    Event event;
    aclrtEventWaitStatus status = ACL_EVENT_WAIT_STATUS_RESERVED;
    ASSERT_ACL_OK(aclrtQueryEventWaitStatus(event.get(), &status));
    EXPECT_EQ(ACL_EVENT_WAIT_STATUS_COMPLETE, status);
    Gate gate;
    ASSERT_ACL_OK(gate.hold(producer.get()));
    ASSERT_ACL_OK(aclrtRecordEvent(event.get(), producer.get()));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(consumer.get(), event.get()));
    ASSERT_ACL_OK(aclrtQueryEventWaitStatus(event.get(), &status));
    EXPECT_EQ(ACL_EVENT_WAIT_STATUS_NOT_READY, status);
    gate.open();
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(consumer.get(), kBoundedWaitMs));
    ASSERT_ACL_OK(aclrtQueryEventWaitStatus(event.get(), &status));
    EXPECT_EQ(ACL_EVENT_WAIT_STATUS_COMPLETE, status);
    EXPECT_ACL_FAILS(aclrtQueryEventWaitStatus(event.get(), nullptr), ACL_ERROR_INVALID_PARAM);
}

// 07, aclrtRecordEventWithFlag / aclrtStreamWaitEventWithFlag: the default
// flags behave as aclrtRecordEvent / aclrtStreamWaitEventWithTimeout; the
// external ones are for captured streams only (107029 elsewhere, 25-01), and
// acl-cpu does not replay them yet (207000).
TEST_F(EventExtrasTest, FlaggedRecordAndWaitOrderTwoStreams) {
    Stream stream;
    Event event;
    EXPECT_ACL_FAILS(aclrtRecordEventWithFlag(event.get(), stream.get(), ACL_EVENT_RECORD_EXTERNAL),
                     ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    EXPECT_ACL_FAILS(aclrtRecordEventWithFlag(event.get(), stream.get(), 0x10), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtStreamWaitEventWithFlag(stream.get(), event.get(), 0, ACL_EVENT_WAIT_EXTERNAL),
                     ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    EXPECT_ACL_FAILS(aclrtStreamWaitEventWithFlag(stream.get(), event.get(), 0, ACL_EVENT_WAIT_EXTERNAL),
                     ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    aclmdlRI model = nullptr;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), &model));
    ASSERT_ACL_OK(aclmdlRIDestroy(model));
    expect_consumer_waits_for_producer([&](aclrtStream producer, aclrtStream consumer) {
        ASSERT_ACL_OK(aclrtRecordEventWithFlag(event.get(), producer, ACL_EVENT_RECORD_DEFAULT));
        ASSERT_ACL_OK(aclrtStreamWaitEventWithFlag(consumer, event.get(), 0, ACL_EVENT_WAIT_DEFAULT));
    });
}

// 07, aclrtStreamWaitEventWithTimeout: a wait that outlasts its timeout
// (seconds) fails; a negative timeout is refused.
TEST_F(EventExtrasTest, WaitWithTimeoutFailsWhenTheEventIsLate) {
    Stream producer;
    Stream consumer;
    Event event;
    EXPECT_ACL_FAILS(aclrtStreamWaitEventWithTimeout(consumer.get(), event.get(), -1), ACL_ERROR_INVALID_PARAM);
    Gate gate;
    ASSERT_ACL_OK(gate.hold(producer.get()));
    ASSERT_ACL_OK(aclrtRecordEvent(event.get(), producer.get()));
    ASSERT_ACL_OK(aclrtStreamWaitEventWithTimeout(consumer.get(), event.get(), 1));
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(consumer.get(), kBoundedWaitMs), ACL_ERROR_RT_TASK_TIMEOUT);
    gate.open();
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(producer.get(), kBoundedWaitMs));
    // In time, the same wait passes.
    ASSERT_ACL_OK(aclrtStreamWaitEventWithTimeout(consumer.get(), event.get(), 1));
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(consumer.get(), kBoundedWaitMs));
    EXPECT_FALSE(gate.expired());
}

// 07, aclrtSetOpWaitTimeout: later aclrtStreamWaitEvent waits time out, and
// the synchronisation reports it; 0 turns the timeout off again.
TEST_F(EventExtrasTest, OpWaitTimeoutAppliesToStreamWaitEvent) {
    Stream producer;
    Stream consumer;
    Event event;
    Gate gate;
    ASSERT_ACL_OK(gate.hold(producer.get()));
    ASSERT_ACL_OK(aclrtRecordEvent(event.get(), producer.get()));
    ASSERT_ACL_OK(aclrtSetOpWaitTimeout(1));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(consumer.get(), event.get()));
    ASSERT_ACL_OK(aclrtSetOpWaitTimeout(0));
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(consumer.get(), kBoundedWaitMs), ACL_ERROR_RT_TASK_TIMEOUT);
    // Without the timeout, a wait lasts as long as the event takes.
    ASSERT_ACL_OK(aclrtStreamWaitEvent(consumer.get(), event.get()));
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(consumer.get(), kAbsenceWindowMs),
                     ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    gate.open();
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(consumer.get(), kBoundedWaitMs));
}

// 07, aclrtIpcGetEventHandle / aclrtIpcOpenEventHandle: an ACL_EVENT_IPC
// event's handle opens as another event that waits on the exporter's records.
TEST_F(EventExtrasTest, IpcHandleOpensAnEventThatWaitsOnTheExporter) {
    Stream producer;
    Stream consumer;
    Event plain;
    aclrtIpcEventHandle handle{};
    EXPECT_ACL_FAILS(aclrtIpcGetEventHandle(plain.get(), &handle), ACL_ERROR_INVALID_PARAM);
    aclrtEvent exported = nullptr;
    ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&exported, ACL_EVENT_IPC));
    EXPECT_ACL_FAILS(aclrtIpcGetEventHandle(exported, nullptr), ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(aclrtIpcGetEventHandle(exported, &handle));
    aclrtEvent opened = nullptr;
    ASSERT_ACL_OK(aclrtIpcOpenEventHandle(handle, &opened));
    EXPECT_NE(exported, opened);

    Gate gate;
    ASSERT_ACL_OK(gate.hold(producer.get()));
    ASSERT_ACL_OK(aclrtRecordEvent(exported, producer.get()));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(consumer.get(), opened));
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(consumer.get(), kAbsenceWindowMs),
                     ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    gate.open();
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(consumer.get(), kBoundedWaitMs));
    ASSERT_ACL_OK(aclrtSynchronizeEventWithTimeout(opened, kBoundedWaitMs));

    // The opened event records too, and the exporter sees that record.
    Gate consumerGate;
    ASSERT_ACL_OK(consumerGate.hold(consumer.get()));
    ASSERT_ACL_OK(aclrtRecordEvent(opened, consumer.get()));
    EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_NOT_READY, event_recorded_status(exported));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(producer.get(), exported));
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(producer.get(), kAbsenceWindowMs),
                     ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    consumerGate.open();
    ASSERT_ACL_OK(aclrtSynchronizeEventWithTimeout(exported, kBoundedWaitMs));
    EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, event_recorded_status(exported));
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(producer.get(), kBoundedWaitMs));
    // An opened event gives back the handle it was opened with.
    aclrtIpcEventHandle reexported{};
    ASSERT_ACL_OK(aclrtIpcGetEventHandle(opened, &reexported));
    EXPECT_EQ(0, std::memcmp(&handle, &reexported, sizeof handle));

    ASSERT_ACL_OK(aclrtDestroyEvent(opened));
    ASSERT_ACL_OK(aclrtDestroyEvent(exported));
    // The exporter is gone: its handle opens nothing.
    EXPECT_ACL_FAILS(aclrtIpcOpenEventHandle(handle, &opened), ACL_ERROR_RT_PARAM_INVALID);
    aclrtIpcEventHandle garbage;
    std::memset(&garbage, 0x41, sizeof garbage);
    EXPECT_ACL_FAILS(aclrtIpcOpenEventHandle(garbage, &opened), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtIpcOpenEventHandle(handle, nullptr), ACL_ERROR_INVALID_PARAM);
}

// 07, aclrtCreateEventExWithFlag: ACL_EVENT_IPC stands alone, and an IPC
// event (created or opened) is refused by aclrtResetEvent, aclrtQueryEvent,
// aclrtQueryEventWaitStatus, aclrtEventElapsedTime, aclrtEventGetTimestamp
// and aclrtGetEventId.
TEST_F(EventExtrasTest, IpcEventsRefuseWhatCannRefusesThem) {
    aclrtEvent combined = nullptr;
    EXPECT_ACL_FAILS(aclrtCreateEventExWithFlag(&combined, ACL_EVENT_IPC | ACL_EVENT_TIME_LINE),
                     ACL_ERROR_RT_PARAM_INVALID);
    Stream stream;
    Event plain(ACL_EVENT_TIME_LINE);
    aclrtEvent exported = nullptr;
    ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&exported, ACL_EVENT_IPC));
    aclrtIpcEventHandle handle{};
    ASSERT_ACL_OK(aclrtIpcGetEventHandle(exported, &handle));
    aclrtEvent opened = nullptr;
    ASSERT_ACL_OK(aclrtIpcOpenEventHandle(handle, &opened));
    ASSERT_ACL_OK(aclrtRecordEvent(exported, stream.get()));
    ASSERT_ACL_OK(aclrtRecordEvent(plain.get(), stream.get()));
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    for (aclrtEvent ipc : {exported, opened}) {
        aclrtEventStatus status = ACL_EVENT_STATUS_RESERVED;
        aclrtEventWaitStatus waitStatus = ACL_EVENT_WAIT_STATUS_RESERVED;
        uint64_t timestamp = 0;
        uint32_t id = 0;
        float ms = 0;
        EXPECT_ACL_FAILS(aclrtResetEvent(ipc, stream.get()), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        EXPECT_ACL_FAILS(aclrtQueryEvent(ipc, &status), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        EXPECT_ACL_FAILS(aclrtQueryEventWaitStatus(ipc, &waitStatus), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        EXPECT_ACL_FAILS(aclrtEventElapsedTime(&ms, plain.get(), ipc), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        EXPECT_ACL_FAILS(aclrtEventGetTimestamp(ipc, &timestamp), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        EXPECT_ACL_FAILS(aclrtGetEventId(ipc, &id), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, event_recorded_status(ipc));
    }
    ASSERT_ACL_OK(aclrtDestroyEvent(opened));
    ASSERT_ACL_OK(aclrtDestroyEvent(exported));
}

// 12, aclrtGetOpTimeOutInterval / aclrtSetOpExecuteTimeOut*: a timeout takes
// effect as a whole number N in [1, 254] of intervals, rounded up; 0 means
// the maximum; aclrtGetOpExecuteTimeout reads it back in milliseconds.
TEST_F(OpTimeoutTest, TimeoutsRoundToWholeIntervals) {
    uint64_t interval = 0;
    ASSERT_ACL_OK(aclrtGetOpTimeOutInterval(&interval));
    ASSERT_GT(interval, 0u);
    uint32_t timeoutMs = 0;
    ASSERT_ACL_OK(aclrtGetOpExecuteTimeout(&timeoutMs));
    EXPECT_EQ(interval * 254 / 1000, timeoutMs);  // Never set: the maximum.

    uint64_t actual = 0;
    ASSERT_ACL_OK(aclrtSetOpExecuteTimeOutV2(1, &actual));
    EXPECT_EQ(interval, actual);
    ASSERT_ACL_OK(aclrtSetOpExecuteTimeOutV2(interval + 1, &actual));
    EXPECT_EQ(2 * interval, actual);
    ASSERT_ACL_OK(aclrtGetOpExecuteTimeout(&timeoutMs));
    EXPECT_EQ(2 * interval / 1000, timeoutMs);
    ASSERT_ACL_OK(aclrtSetOpExecuteTimeOutV2(interval * 1000, &actual));
    EXPECT_EQ(254 * interval, actual);

    ASSERT_ACL_OK(aclrtSetOpExecuteTimeOutWithMs(1));
    ASSERT_ACL_OK(aclrtGetOpExecuteTimeout(&timeoutMs));
    EXPECT_EQ(interval / 1000, timeoutMs);
    ASSERT_ACL_OK(aclrtSetOpExecuteTimeOut(1));
    ASSERT_ACL_OK(aclrtGetOpExecuteTimeout(&timeoutMs));
    EXPECT_EQ((1000000 + interval - 1) / interval * interval / 1000, timeoutMs);

    ASSERT_ACL_OK(aclrtSetOpExecuteTimeOut(0));
    ASSERT_ACL_OK(aclrtGetOpExecuteTimeout(&timeoutMs));
    EXPECT_EQ(interval * 254 / 1000, timeoutMs);

    EXPECT_ACL_FAILS(aclrtGetOpTimeOutInterval(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtGetOpExecuteTimeout(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtSetOpExecuteTimeOutV2(1, nullptr), ACL_ERROR_INVALID_PARAM);
}

}  // namespace
}  // namespace aclcpu::test
