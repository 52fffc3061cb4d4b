// Host callbacks: aclrtLaunchCallback served through aclrtSubscribeReport /
// aclrtProcessReport, and aclrtLaunchHostFunc on a runtime thread.
#include <thread>
#include <vector>

#include "runtime/runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

using CallbackTest = RuntimeTest;

TEST_F(CallbackTest, CallbacksRunOnTheSubscribedThread) {
    Stream stream;
    ReportThread reporter(stream.get());
    ASSERT_ACL_OK(reporter.subscribe_result());
    CallProbe noBlock;
    CallProbe block;
    ASSERT_ACL_OK(aclrtLaunchCallback(&CallProbe::record, &noBlock, ACL_CALLBACK_NO_BLOCK, stream.get()));
    ASSERT_ACL_OK(aclrtLaunchCallback(&CallProbe::record, &block, ACL_CALLBACK_BLOCK, stream.get()));
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    // A BLOCK callback is part of the stream's work: done by the time the stream
    // is; the subscriber receives a stream's callbacks in launch order.
    EXPECT_EQ(1, block.calls.load());
    EXPECT_EQ(1, noBlock.calls.load());
    EXPECT_EQ(reporter.id(), block.lastThread.load());
    EXPECT_EQ(reporter.id(), noBlock.lastThread.load());
    EXPECT_EQ(ACL_SUCCESS, reporter.first_unexpected_error());
}

TEST_F(CallbackTest, BlockingCallbackHoldsLaterWork) {
    Stream stream;
    ReportThread reporter(stream.get());
    ASSERT_ACL_OK(reporter.subscribe_result());
    DeviceBuffer buffer(4096);
    buffer.fill(0);
    Gate gate;
    ASSERT_ACL_OK(gate.hold_callback(stream.get(), ACL_CALLBACK_BLOCK));
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), buffer.size(), 0x1F, buffer.size(), stream.get()));
    ASSERT_TRUE(gate.wait_until_reached());
    EXPECT_EQ(reporter.id(), gate.holder_thread());
    // While the callback runs the stream is busy and the memset has not run.
    EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, stream_status(stream.get()));
    EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 0), buffer.read());
    gate.open();
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    EXPECT_EQ(ACL_STREAM_STATUS_COMPLETE, stream_status(stream.get()));
    EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 0x1F), buffer.read());
    EXPECT_FALSE(gate.expired());
}

TEST_F(CallbackTest, CallbackNeverRunsWithoutProcessReport) {
    Stream stream;
    // This thread is the subscriber but does not call aclrtProcessReport yet.
    ASSERT_ACL_OK(aclrtSubscribeReport(current_report_thread_id(), stream.get()));
    CallProbe probe;
    ASSERT_ACL_OK(aclrtLaunchCallback(&CallProbe::record, &probe, ACL_CALLBACK_BLOCK, stream.get()));
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(stream.get(), kAbsenceWindowMs),
                     ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, stream_status(stream.get()));
    EXPECT_EQ(0, probe.calls.load());

    EXPECT_ACL_OK(aclrtProcessReport(kBoundedWaitMs));
    EXPECT_EQ(1, probe.calls.load());
    EXPECT_EQ(std::this_thread::get_id(), probe.lastThread.load());
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    EXPECT_ACL_OK(aclrtUnSubscribeReport(current_report_thread_id(), stream.get()));
}

TEST_F(CallbackTest, NonBlockingCallbackDoesNotHoldTheStream) {
    Stream stream;
    ASSERT_ACL_OK(aclrtSubscribeReport(current_report_thread_id(), stream.get()));
    CallProbe probe;
    ASSERT_ACL_OK(aclrtLaunchCallback(&CallProbe::record, &probe, ACL_CALLBACK_NO_BLOCK, stream.get()));
    DeviceBuffer buffer(256);
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), buffer.size(), 0x2D, buffer.size(), stream.get()));
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 0x2D), buffer.read());
    EXPECT_EQ(0, probe.calls.load());
    // Still delivered to the subscriber when it asks.
    EXPECT_ACL_OK(aclrtProcessReport(kBoundedWaitMs));
    EXPECT_EQ(1, probe.calls.load());
    EXPECT_ACL_OK(aclrtUnSubscribeReport(current_report_thread_id(), stream.get()));
}

TEST_F(CallbackTest, ProcessReportWithNothingToDoTimesOut) {
    Stream stream;
    ASSERT_ACL_OK(aclrtSubscribeReport(current_report_thread_id(), stream.get()));
    EXPECT_ACL_FAILS(aclrtProcessReport(kAbsenceWindowMs), ACL_ERROR_RT_REPORT_TIMEOUT);
    EXPECT_ACL_OK(aclrtUnSubscribeReport(current_report_thread_id(), stream.get()));
}

TEST_F(CallbackTest, LaunchOnAnUnsubscribedStreamIsRejected) {
    Stream stream;
    CallProbe probe;
    // CANN's runtime answers ACL_ERROR_RT_STREAM_NO_CB_REG (107015); the acl
    // layer's ACL_ERROR_STREAM_NOT_SUBSCRIBE (100034) names the same mistake.
    EXPECT_ACL_FAILS(aclrtLaunchCallback(&CallProbe::record, &probe, ACL_CALLBACK_BLOCK, stream.get()),
                     ACL_ERROR_RT_STREAM_NO_CB_REG, ACL_ERROR_STREAM_NOT_SUBSCRIBE);
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    EXPECT_EQ(0, probe.calls.load());
}

TEST_F(CallbackTest, UnsubscribeEndsTheRegistration) {
    Stream stream;
    ASSERT_ACL_OK(aclrtSubscribeReport(current_report_thread_id(), stream.get()));
    EXPECT_ACL_OK(aclrtUnSubscribeReport(current_report_thread_id(), stream.get()));
    CallProbe probe;
    EXPECT_ACL_FAILS(aclrtLaunchCallback(&CallProbe::record, &probe, ACL_CALLBACK_BLOCK, stream.get()),
                     ACL_ERROR_RT_STREAM_NO_CB_REG, ACL_ERROR_STREAM_NOT_SUBSCRIBE);
    // A second unsubscription has nothing to end.
    EXPECT_ACL_FAILS(aclrtUnSubscribeReport(current_report_thread_id(), stream.get()));
}

TEST_F(CallbackTest, OneThreadServesSeveralStreams) {
    Stream first;
    Stream second;
    ASSERT_ACL_OK(aclrtSubscribeReport(current_report_thread_id(), first.get()));
    ASSERT_ACL_OK(aclrtSubscribeReport(current_report_thread_id(), second.get()));
    CallProbe probe;
    ASSERT_ACL_OK(aclrtLaunchCallback(&CallProbe::record, &probe, ACL_CALLBACK_BLOCK, first.get()));
    ASSERT_ACL_OK(aclrtLaunchCallback(&CallProbe::record, &probe, ACL_CALLBACK_BLOCK, second.get()));
    for (int served = 0; served < 2 && probe.calls.load() < 2; ++served) {
        EXPECT_ACL_OK(aclrtProcessReport(kBoundedWaitMs));
    }
    EXPECT_EQ(2, probe.calls.load());
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(first.get(), kBoundedWaitMs));
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(second.get(), kBoundedWaitMs));
    EXPECT_ACL_OK(aclrtUnSubscribeReport(current_report_thread_id(), first.get()));
    EXPECT_ACL_OK(aclrtUnSubscribeReport(current_report_thread_id(), second.get()));
}

TEST_F(CallbackTest, HostFuncRunsOnARuntimeThreadAndHoldsLaterWork) {
    Stream stream;
    DeviceBuffer buffer(4096);
    buffer.fill(0);
    Gate gate;
    ASSERT_ACL_OK(gate.hold(stream.get()));
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), buffer.size(), 0x3E, buffer.size(), stream.get()));
    CallProbe after;
    ASSERT_ACL_OK(aclrtLaunchHostFunc(stream.get(), &CallProbe::record, &after));
    ASSERT_TRUE(gate.wait_until_reached());
    EXPECT_NE(std::this_thread::get_id(), gate.holder_thread());
    EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, stream_status(stream.get()));
    EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 0), buffer.read());
    EXPECT_EQ(0, after.calls.load());
    gate.open();
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 0x3E), buffer.read());
    EXPECT_EQ(1, after.calls.load());
    EXPECT_NE(std::this_thread::get_id(), after.lastThread.load());
    EXPECT_FALSE(gate.expired());
}

TEST_F(CallbackTest, HostFuncsOfOneStreamRunInOrder) {
    Stream stream;
    std::vector<int> order;
    struct Step {
        std::vector<int>* order;
        int index;
        static void append(void* step) {
            auto* self = static_cast<Step*>(step);
            self->order->push_back(self->index);
        }
    };
    std::vector<Step> steps;
    for (int i = 0; i < 16; ++i) steps.push_back({&order, i});
    for (Step& step : steps) ASSERT_ACL_OK(aclrtLaunchHostFunc(stream.get(), &Step::append, &step));
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    std::vector<int> expected(16);
    for (int i = 0; i < 16; ++i) expected[i] = i;
    EXPECT_EQ(expected, order);
}

TEST_F(CallbackTest, NullCallbackIsInvalidParam) {
    Stream stream;
    ReportThread reporter(stream.get());
    ASSERT_ACL_OK(reporter.subscribe_result());
    EXPECT_ACL_FAILS(aclrtLaunchCallback(nullptr, nullptr, ACL_CALLBACK_BLOCK, stream.get()),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtLaunchHostFunc(stream.get(), nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
}

}  // namespace
}  // namespace aclcpu::test
