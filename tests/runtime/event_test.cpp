// Events: record, cross-stream waits, queries, synchronisation, timing and limits.
#include <string>
#include <vector>

#include "runtime/runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

using EventTest = RuntimeTest;

/// Events per device on an A2.
constexpr int kEventLimit = 65536;

TEST_F(EventTest, EveryCreationFlavourWorks) {
    aclrtEvent plain = nullptr;
    ASSERT_ACL_OK(aclrtCreateEvent(&plain));
    aclrtEvent timeline = nullptr;
    ASSERT_ACL_OK(aclrtCreateEventWithFlag(&timeline, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE));
    aclrtEvent extended = nullptr;
    ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&extended, ACL_EVENT_SYNC));
    for (aclrtEvent event : {plain, timeline, extended}) {
        EXPECT_ACL_OK(aclrtRecordEvent(event, nullptr));
        EXPECT_ACL_OK(aclrtSynchronizeEvent(event));
        EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, event_recorded_status(event));
        EXPECT_ACL_OK(aclrtDestroyEvent(event));
    }
}

TEST_F(EventTest, UnrecordedEventIsComplete) {
    Event event;
    // The two query functions encode "complete" differently: 1 and 0.
    EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, event_recorded_status(event.get()));
    EXPECT_EQ(1, static_cast<int>(event_recorded_status(event.get())));
    EXPECT_EQ(ACL_EVENT_STATUS_COMPLETE, event_status(event.get()));
    EXPECT_EQ(0, static_cast<int>(event_status(event.get())));
    EXPECT_ACL_OK(aclrtSynchronizeEventWithTimeout(event.get(), kBoundedWaitMs));
}

TEST_F(EventTest, RecordedEventCompletesWithTheCapturedWork) {
    Stream stream;
    Event event;
    Gate gate;
    ASSERT_ACL_OK(gate.hold(stream.get()));
    ASSERT_ACL_OK(aclrtRecordEvent(event.get(), stream.get()));
    EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_NOT_READY, event_recorded_status(event.get()));
    EXPECT_EQ(ACL_EVENT_STATUS_NOT_READY, event_status(event.get()));
    EXPECT_ACL_FAILS(aclrtSynchronizeEventWithTimeout(event.get(), kAbsenceWindowMs), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
    gate.open();
    EXPECT_ACL_OK(aclrtSynchronizeEvent(event.get()));
    EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, event_recorded_status(event.get()));
    EXPECT_EQ(ACL_EVENT_STATUS_COMPLETE, event_status(event.get()));
    EXPECT_FALSE(gate.expired());
}

TEST_F(EventTest, RecordCapturesOnlyEarlierWork) {
    Stream stream;
    Event event;
    ASSERT_ACL_OK(aclrtRecordEvent(event.get(), stream.get()));
    Gate gate;
    ASSERT_ACL_OK(gate.hold(stream.get()));
    // Work queued after the record does not hold the event back.
    EXPECT_ACL_OK(aclrtSynchronizeEventWithTimeout(event.get(), kBoundedWaitMs));
    EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, event_recorded_status(event.get()));
    gate.open();
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    EXPECT_FALSE(gate.expired());
}

TEST_F(EventTest, StreamWaitEventOrdersTwoStreams) {
    Event event;
    expect_consumer_waits_for_producer([&](aclrtStream producer, aclrtStream consumer) {
        ASSERT_ACL_OK(aclrtRecordEvent(event.get(), producer));
        ASSERT_ACL_OK(aclrtStreamWaitEvent(consumer, event.get()));
    });
}

TEST_F(EventTest, WaitingForAnUnrecordedEventDoesNotBlock) {
    Stream stream;
    Event event;
    ASSERT_ACL_OK(aclrtStreamWaitEvent(stream.get(), event.get()));
    DeviceBuffer buffer(256);
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), buffer.size(), 4, buffer.size(), stream.get()));
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 4), buffer.read());
}

TEST_F(EventTest, ResetEventAfterWaitKeepsStreamsRunning) {
    Stream producer;
    Stream consumer;
    Event event(ACL_EVENT_SYNC);
    for (int round = 0; round < 3; ++round) {
        SCOPED_TRACE(round);
        ASSERT_ACL_OK(aclrtRecordEvent(event.get(), producer.get()));
        ASSERT_ACL_OK(aclrtStreamWaitEvent(consumer.get(), event.get()));
        ASSERT_ACL_OK(aclrtResetEvent(event.get(), consumer.get()));
        EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(consumer.get(), kBoundedWaitMs));
    }
    EXPECT_ACL_FAILS(aclrtResetEvent(nullptr, consumer.get()), ACL_ERROR_INVALID_PARAM);
}

TEST_F(EventTest, ElapsedTimeMeasuresTheWorkBetweenRecords) {
    Stream stream;
    Event start(ACL_EVENT_TIME_LINE);
    Event empty(ACL_EVENT_TIME_LINE);
    Event end(ACL_EVENT_TIME_LINE);
    ASSERT_ACL_OK(aclrtRecordEvent(start.get(), stream.get()));
    ASSERT_ACL_OK(aclrtRecordEvent(empty.get(), stream.get()));
    Gate gate;
    ASSERT_ACL_OK(gate.hold(stream.get()));
    ASSERT_ACL_OK(aclrtRecordEvent(end.get(), stream.get()));
    ASSERT_TRUE(gate.wait_until_reached());
    // The stream stays held for at least this timeout: a lower bound on the
    // time between the empty and the end event.
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(stream.get(), kAbsenceWindowMs),
                     ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    gate.open();
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));

    float nothing = -1.0f;
    float held = -1.0f;
    ASSERT_ACL_OK(aclrtEventElapsedTime(&nothing, start.get(), empty.get()));
    ASSERT_ACL_OK(aclrtEventElapsedTime(&held, empty.get(), end.get()));
    EXPECT_GE(nothing, 0.0f);
    // 1 ms of slack for clock granularity.
    EXPECT_GE(held, static_cast<float>(kAbsenceWindowMs) - 1.0f);
    EXPECT_GT(held, nothing);
    EXPECT_FALSE(gate.expired());
}

TEST_F(EventTest, ElapsedTimeOfAnUnrecordedEventFails) {
    Event recorded(ACL_EVENT_TIME_LINE);
    Event unrecorded(ACL_EVENT_TIME_LINE);
    ASSERT_ACL_OK(aclrtRecordEvent(recorded.get(), nullptr));
    ASSERT_ACL_OK(aclrtSynchronizeEvent(recorded.get()));
    float ms = 0.0f;
    EXPECT_ACL_FAILS(aclrtEventElapsedTime(&ms, recorded.get(), unrecorded.get()));
    EXPECT_ACL_FAILS(aclrtEventElapsedTime(&ms, unrecorded.get(), recorded.get()));
    EXPECT_ACL_FAILS(aclrtEventElapsedTime(nullptr, recorded.get(), recorded.get()), ACL_ERROR_INVALID_PARAM);
}

// Issue 29.13: every rts event call validates its handle first
// (RT_VALIDATE_AND_UNWRAP_OBJECT → ValidateEventHandleForApi →
// runtime_handle_guard.cc ValidateInnerObject): a destroyed event fails with
// RT_ERROR_INVALID_HANDLE (ACL_ERROR_RT_INVALID_HANDLE), the second destroy
// included.
TEST_F(EventTest, ADestroyedEventFailsTheHandleCheck) {
    Stream stream;
    Event live(ACL_EVENT_TIME_LINE);
    aclrtEvent event = nullptr;
    ASSERT_ACL_OK(aclrtCreateEventWithFlag(&event, ACL_EVENT_TIME_LINE));
    ASSERT_ACL_OK(aclrtRecordEvent(event, stream.get()));
    ASSERT_ACL_OK(aclrtDestroyEvent(event));
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    float ms = 0.0f;
    uint64_t timestamp = 0;
    EXPECT_ACL_FAILS(aclrtDestroyEvent(event), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtRecordEvent(event, stream.get()), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtResetEvent(event, stream.get()), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtQueryEventStatus(event, &status), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtSynchronizeEvent(event), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtStreamWaitEvent(stream.get(), event), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtEventElapsedTime(&ms, live.get(), event), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtEventGetTimestamp(event, &timestamp), ACL_ERROR_RT_INVALID_HANDLE);
}

TEST_F(EventTest, DestroyingAPendingEventDoesNotBlock) {
    Stream stream;
    aclrtEvent event = nullptr;
    ASSERT_ACL_OK(aclrtCreateEventWithFlag(&event, ACL_EVENT_SYNC));
    Gate gate;
    ASSERT_ACL_OK(gate.hold(stream.get()));
    ASSERT_ACL_OK(aclrtRecordEvent(event, stream.get()));
    // Were the destroy to wait for the record, it would wait for this thread's gate.
    EXPECT_ACL_OK(aclrtDestroyEvent(event));
    gate.open();
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    EXPECT_FALSE(gate.expired());
}

TEST_F(EventTest, EventLimitIsReportedAndRecoverable) {
    std::vector<aclrtEvent> events;
    events.reserve(kEventLimit);
    aclError failure = ACL_SUCCESS;
    std::string message;
    while (events.size() <= static_cast<size_t>(kEventLimit)) {
        aclrtEvent event = nullptr;
        failure = ACLCPU_FRESH_CALL(aclrtCreateEvent(&event));
        if (failure != ACL_SUCCESS) {
            message = take_error_message();
            break;
        }
        events.push_back(event);
    }
    EXPECT_EQ(static_cast<size_t>(kEventLimit), events.size());
    EXPECT_EQ(ACL_ERROR_RT_NO_EVENT_RESOURCE, failure);
    EXPECT_FALSE(message.empty());

    ASSERT_FALSE(events.empty());
    EXPECT_ACL_OK(aclrtDestroyEvent(events.back()));
    EXPECT_ACL_OK(aclrtCreateEvent(&events.back()));
    EXPECT_ACL_OK(aclrtRecordEvent(events.front(), nullptr));
    EXPECT_ACL_OK(aclrtSynchronizeEvent(events.front()));
    for (aclrtEvent event : events) EXPECT_ACL_OK(aclrtDestroyEvent(event));
}

}  // namespace
}  // namespace aclcpu::test
