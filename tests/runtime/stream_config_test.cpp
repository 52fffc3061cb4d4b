// Streams beyond creation: config handles and aclrtCreateStreamV2, stream
// priorities, attributes, core limits, abort, host function
// threads and the stream state / task abort callbacks.
//
// Docs (hicann/runtime, docs/zh/api_ref/): 06_stream_management.md,
// 03_runtime_configuration.md (stream core limits), 24_other_APIs.md
// (aclrtSetStreamConfigOpt, aclrtCreateStreamV2, host function threads),
// 25-03_Operation_APIs.md (config handles), 25-02_Enumerations.md
// (aclrtStreamConfigAttr, aclrtStreamAttr), 13_exception_handling.md
// (aclrtDeviceTaskAbort), 05_context_management.md, 07_event_management.md.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "aclcpu_testkit/blocked_call.hpp"
#include "runtime/c_enum_codes.h"
#include "runtime/runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

using StreamConfigTest = RuntimeTest;

/// ACL_RT_STREAM_PRIORITY takes [0, 7], smaller is higher (25-02_Enumerations.md, aclrtStreamConfigAttr).
constexpr uint32_t kLowestPriority = 7;

/// Creates a stream with aclrtCreateStreamV2 at priority (and flags).
aclrtStream create_v2(uint32_t priority, uint32_t flags = 0) {
    aclrtStreamConfigHandle* config = aclrtCreateStreamConfigHandle();
    EXPECT_NE(nullptr, config);
    EXPECT_ACL_OK(aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_PRIORITY, &priority, sizeof priority));
    EXPECT_ACL_OK(aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_FLAG, &flags, sizeof flags));
    aclrtStream stream = nullptr;
    EXPECT_ACL_OK(aclrtCreateStreamV2(&stream, config));
    EXPECT_ACL_OK(aclrtDestroyStreamConfigHandle(config));
    return stream;
}

// 25-03_Operation_APIs.md aclrtCreateStreamConfigHandle / aclrtDestroyStreamConfigHandle:
// a handle is made by the one and destroyed (once) by the other.
TEST_F(StreamConfigTest, ConfigHandleIsDestroyedOnce) {
    aclrtStreamConfigHandle* config = aclrtCreateStreamConfigHandle();
    ASSERT_NE(nullptr, config);
    EXPECT_ACL_OK(aclrtDestroyStreamConfigHandle(config));
    EXPECT_ACL_FAILS(aclrtDestroyStreamConfigHandle(config), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtDestroyStreamConfigHandle(nullptr), ACL_ERROR_INVALID_PARAM);
}

// 24_other_APIs.md aclrtSetStreamConfigOpt: attrValue points at the value and
// valueSize is its size; ACL_RT_STREAM_PRIORITY is in [0, 7].
TEST_F(StreamConfigTest, SetStreamConfigOptChecksItsArguments) {
    aclrtStreamConfigHandle* config = aclrtCreateStreamConfigHandle();
    ASSERT_NE(nullptr, config);
    uint32_t priority = 3;
    EXPECT_ACL_FAILS(aclrtSetStreamConfigOpt(nullptr, ACL_RT_STREAM_PRIORITY, &priority, sizeof priority),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_PRIORITY, nullptr, sizeof priority),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_PRIORITY, &priority, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtSetStreamConfigOpt(config, static_cast<aclrtStreamConfigAttr>(ACL_RT_STREAM_PRIORITY + 1),
                                             &priority, sizeof priority),
                     ACL_ERROR_INVALID_PARAM);
    priority = kLowestPriority + 2;
    EXPECT_ACL_FAILS(aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_PRIORITY, &priority, sizeof priority),
                     ACL_ERROR_INVALID_PARAM);

    void* work = reinterpret_cast<void*>(0x1000);
    size_t workSize = 4096;
    priority = 5;
    EXPECT_ACL_OK(aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_WORK_ADDR_PTR, &work, sizeof work));
    EXPECT_ACL_OK(aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_WORK_SIZE, &workSize, sizeof workSize));
    EXPECT_ACL_OK(aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_PRIORITY, &priority, sizeof priority));
    EXPECT_EQ(work, config->workptr);
    EXPECT_EQ(workSize, config->workSize);
    EXPECT_EQ(5u, config->priority);
    EXPECT_ACL_OK(aclrtDestroyStreamConfigHandle(config));
}

// 24_other_APIs.md aclrtCreateStreamV2 with 06_stream_management.md
// aclrtStreamGetPriority / aclrtStreamGetFlags: the stream reports the
// priority and flags it was configured with; the default stream has the
// highest priority (aclrtCreateStream).
TEST_F(StreamConfigTest, CreateStreamV2KeepsPriorityAndFlags) {
    aclrtStream stream = create_v2(4, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC);
    ASSERT_NE(nullptr, stream);
    uint32_t priority = 99;
    uint32_t flags = 99;
    EXPECT_ACL_OK(aclrtStreamGetPriority(stream, &priority));
    EXPECT_ACL_OK(aclrtStreamGetFlags(stream, &flags));
    EXPECT_EQ(4u, priority);
    EXPECT_EQ(ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC, flags);
    aclrtStreamAttrValue value{};
    EXPECT_ACL_OK(aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_PRIORITY, &value));
    EXPECT_EQ(4u, value.streamPriority);

    EXPECT_ACL_OK(aclrtStreamGetPriority(nullptr, &priority));
    EXPECT_EQ(0u, priority);
    EXPECT_ACL_FAILS(aclrtStreamGetPriority(stream, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtCreateStreamV2(&stream, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_OK(aclrtDestroyStream(stream));
    EXPECT_ACL_FAILS(aclrtStreamGetFlags(stream, &flags), ACL_ERROR_RT_INVALID_HANDLE);
}

// Issue 29.1: aclrtCreateStreamWithConfig keeps its priority
// (aclrtCreateStreamWithConfigImpl passes it to rtsStreamCreate as
// RT_STREAM_CREATE_ATTR_PRIORITY); ApiErrorDecorator::StreamCreate takes it
// as int32_t and clamps it silently to [0, 7], so 2^31 and above become 0.
TEST_F(StreamConfigTest, CreateStreamWithConfigKeepsTheClampedPriority) {
    const std::pair<uint32_t, uint32_t> cases[] = {
        {5, 5}, {0, 0}, {7, 7}, {8, 7}, {1000, 7}, {0x7FFFFFFFu, 7}, {0x80000000u, 0}, {UINT32_MAX, 0}};
    for (const auto& [asked, kept] : cases) {
        SCOPED_TRACE(asked);
        aclrtStream stream = nullptr;
        ASSERT_ACL_OK(aclrtCreateStreamWithConfig(&stream, asked, ACL_STREAM_FAST_LAUNCH));
        uint32_t priority = 99;
        EXPECT_ACL_OK(aclrtStreamGetPriority(stream, &priority));
        EXPECT_EQ(kept, priority);
        aclrtStreamAttrValue value{};
        EXPECT_ACL_OK(aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_PRIORITY, &value));
        EXPECT_EQ(kept, value.streamPriority);
        EXPECT_ACL_OK(aclrtDestroyStream(stream));
    }
}

// Issue 29.2: rtsStreamSetAttribute(RT_STREAM_ATTR_PRIORITY) →
// ApiErrorDecorator::SetStreamPriorityValue clamps as StreamCreate does and
// the driver changes the stream's scheduling priority, which
// rtsStreamGetAttribute reads back; aclrtStreamGetPriority
// (ApiImpl::StreamGetPriority) keeps the creation priority.  Both decorator
// functions refuse a null stream with RT_ERROR_INVALID_VALUE before ApiImpl
// would take the default one.
TEST_F(StreamConfigTest, SetStreamAttributeChangesTheSchedulingPriority) {
    aclrtStream stream = create_v2(4);
    const std::pair<uint32_t, uint32_t> cases[] = {{2, 2}, {0, 0}, {7, 7}, {100, 7}, {0x80000000u, 0}, {6, 6}};
    for (const auto& [asked, kept] : cases) {
        SCOPED_TRACE(asked);
        aclrtStreamAttrValue value{};
        value.streamPriority = asked;
        ASSERT_ACL_OK(aclrtSetStreamAttribute(stream, ACL_STREAM_ATTR_PRIORITY, &value));
        value = {};
        ASSERT_ACL_OK(aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_PRIORITY, &value));
        EXPECT_EQ(kept, value.streamPriority);
        uint32_t priority = 99;
        ASSERT_ACL_OK(aclrtStreamGetPriority(stream, &priority));
        EXPECT_EQ(4u, priority);
    }
    // The stream still runs its work at the new priority.
    DeviceBuffer buffer(64);
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), buffer.size(), 9, buffer.size(), stream));
    EXPECT_ACL_OK(aclrtSynchronizeStream(stream));
    EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 9), buffer.read());

    aclrtStreamAttrValue value{};
    value.streamPriority = 3;
    EXPECT_ACL_FAILS(aclrtSetStreamAttribute(nullptr, ACL_STREAM_ATTR_PRIORITY, &value), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtGetStreamAttribute(nullptr, ACL_STREAM_ATTR_PRIORITY, &value), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_OK(aclrtDestroyStream(stream));

    // A recycled lane starts again at its stream's creation priority.
    aclrtStream next = create_v2(4);
    ASSERT_ACL_OK(aclrtGetStreamAttribute(next, ACL_STREAM_ATTR_PRIORITY, &value));
    EXPECT_EQ(4u, value.streamPriority);
    EXPECT_ACL_OK(aclrtDestroyStream(next));
}

// Issue 29.3: rtsStreamSetAttribute / rtsStreamGetAttribute answer an
// unknown attribute from their switch's default branch
// (RT_ERROR_INVALID_VALUE: ACL_ERROR_RT_PARAM_INVALID), after the handle
// check; a null value is refused first by the acl layer
// (aclrtSetStreamAttributeImpl / aclrtGetStreamAttributeImpl:
// ACL_REQUIRES_NOT_NULL).
TEST_F(StreamConfigTest, UnknownStreamAttributeIsARuntimeParameterError) {
    Stream stream;
    aclrtStreamAttrValue value{};
    // Codes outside the enumeration go through C (c_enum_codes.c): C++ may not hold them in an aclrtStreamAttr.
    for (int attr : {0, 6, 99}) {
        SCOPED_TRACE(attr);
        EXPECT_ACL_FAILS(c_enum_set_stream_attribute(stream.get(), attr, &value), ACL_ERROR_RT_PARAM_INVALID);
        EXPECT_ACL_FAILS(c_enum_get_stream_attribute(stream.get(), attr, &value), ACL_ERROR_RT_PARAM_INVALID);
        EXPECT_ACL_FAILS(c_enum_set_stream_attribute(stream.get(), attr, nullptr), ACL_ERROR_INVALID_PARAM);
        EXPECT_ACL_FAILS(c_enum_get_stream_attribute(stream.get(), attr, nullptr), ACL_ERROR_INVALID_PARAM);
    }
}

// 06_stream_management.md aclrtCreateStreamWithConfig:
// ACL_STREAM_CPU_SCHEDULE serves AI CPU model scheduling,
// ACL_STREAM_DEVICE_USE_ONLY is used only on the device: neither exists on
// the emulation, so they are refused rather than ignored
// (ACL_STREAM_PERSISTENT streams serve built models: model_build_test.cpp).
TEST_F(StreamConfigTest, AiCpuAndDeviceOnlyFlagsAreUnsupported) {
    for (uint32_t flag : {ACL_STREAM_CPU_SCHEDULE, ACL_STREAM_DEVICE_USE_ONLY}) {
        SCOPED_TRACE(flag);
        aclrtStream stream = nullptr;
        EXPECT_ACL_FAILS(aclrtCreateStreamWithConfig(&stream, 0, flag), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        EXPECT_EQ(nullptr, stream);
    }
    Stream stream;
    EXPECT_ACL_FAILS(aclrtStreamStop(stream.get()), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

// 06_stream_management.md aclrtStreamGetId: every stream has its own id;
// NULL asks for the default stream's.
TEST_F(StreamConfigTest, StreamIdsAreDistinct) {
    Stream first;
    Stream second;
    std::set<int32_t> ids;
    for (aclrtStream stream : {static_cast<aclrtStream>(nullptr), first.get(), second.get()}) {
        int32_t id = -1;
        ASSERT_ACL_OK(aclrtStreamGetId(stream, &id));
        EXPECT_GE(id, 0);
        ids.insert(id);
    }
    EXPECT_EQ(3u, ids.size());
    EXPECT_ACL_FAILS(aclrtStreamGetId(first.get(), nullptr), ACL_ERROR_INVALID_PARAM);
}

// 06_stream_management.md aclrtSetStreamAttribute / aclrtGetStreamAttribute
// and 25-02_Enumerations.md aclrtStreamAttr: every attribute reads back what
// was set; failure mode is refused on the default stream.
TEST_F(StreamConfigTest, AttributesReadBackWhatWasSet) {
    Stream stream;
    aclrtStreamAttrValue value{};
    ASSERT_ACL_OK(aclrtGetStreamAttribute(stream.get(), ACL_STREAM_ATTR_FAILURE_MODE, &value));
    EXPECT_EQ(ACL_CONTINUE_ON_FAILURE, value.failureMode);
    value.failureMode = ACL_STOP_ON_FAILURE;
    ASSERT_ACL_OK(aclrtSetStreamAttribute(stream.get(), ACL_STREAM_ATTR_FAILURE_MODE, &value));
    value = {};
    value.overflowSwitch = 1;
    ASSERT_ACL_OK(aclrtSetStreamAttribute(stream.get(), ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &value));
    value = {};
    value.userCustomTag = 42;
    ASSERT_ACL_OK(aclrtSetStreamAttribute(stream.get(), ACL_STREAM_ATTR_USER_CUSTOM_TAG, &value));
    value = {};
    value.cacheOpInfoSwitch = 1;
    ASSERT_ACL_OK(aclrtSetStreamAttribute(stream.get(), ACL_STREAM_ATTR_CACHE_OP_INFO, &value));

    ASSERT_ACL_OK(aclrtGetStreamAttribute(stream.get(), ACL_STREAM_ATTR_FAILURE_MODE, &value));
    EXPECT_EQ(ACL_STOP_ON_FAILURE, value.failureMode);
    ASSERT_ACL_OK(aclrtGetStreamAttribute(stream.get(), ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &value));
    EXPECT_EQ(1u, value.overflowSwitch);
    ASSERT_ACL_OK(aclrtGetStreamAttribute(stream.get(), ACL_STREAM_ATTR_USER_CUSTOM_TAG, &value));
    EXPECT_EQ(42u, value.userCustomTag);
    ASSERT_ACL_OK(aclrtGetStreamAttribute(stream.get(), ACL_STREAM_ATTR_CACHE_OP_INFO, &value));
    EXPECT_EQ(1u, value.cacheOpInfoSwitch);
    uint32_t overflow = 0;
    ASSERT_ACL_OK(aclrtGetStreamOverflowSwitch(stream.get(), &overflow));
    EXPECT_EQ(1u, overflow);

    value = {};
    value.overflowSwitch = 2;
    EXPECT_ACL_FAILS(aclrtSetStreamAttribute(stream.get(), ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &value),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtGetStreamAttribute(stream.get(), ACL_STREAM_ATTR_PRIORITY, nullptr), ACL_ERROR_INVALID_PARAM);
}

// rtsStreamSetAttribute passes a null stream on, and
// ApiErrorDecorator::StreamSetMode takes the current context's default
// stream for it (Runtime::GetCurStream): the failure mode attribute applies
// to the default stream (aclrtSetStreamFailureMode itself refuses NULL).
TEST_F(StreamConfigTest, FailureModeAttributeOfNullIsTheDefaultStreams) {
    aclrtStreamAttrValue value{};
    value.failureMode = ACL_STOP_ON_FAILURE;
    ASSERT_ACL_OK(aclrtSetStreamAttribute(nullptr, ACL_STREAM_ATTR_FAILURE_MODE, &value));
    value = {};
    ASSERT_ACL_OK(aclrtGetStreamAttribute(nullptr, ACL_STREAM_ATTR_FAILURE_MODE, &value));
    EXPECT_EQ(ACL_STOP_ON_FAILURE, value.failureMode);
    EXPECT_ACL_FAILS(aclrtSetStreamFailureMode(nullptr, ACL_STOP_ON_FAILURE), ACL_ERROR_INVALID_PARAM);
}

// 06_stream_management.md aclrtSetStreamOverflowSwitch: the switch is 0 or 1.
TEST_F(StreamConfigTest, OverflowSwitchTakesZeroOrOne) {
    Stream stream;
    uint32_t flag = 7;
    ASSERT_ACL_OK(aclrtGetStreamOverflowSwitch(stream.get(), &flag));
    EXPECT_EQ(0u, flag);
    EXPECT_ACL_OK(aclrtSetStreamOverflowSwitch(stream.get(), 1));
    ASSERT_ACL_OK(aclrtGetStreamOverflowSwitch(stream.get(), &flag));
    EXPECT_EQ(1u, flag);
    EXPECT_ACL_FAILS(aclrtSetStreamOverflowSwitch(stream.get(), 2), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtGetStreamOverflowSwitch(stream.get(), nullptr), ACL_ERROR_INVALID_PARAM);
}

// 06_stream_management.md aclrtStreamAbort: work launched but not yet run is
// discarded; a synchronisation then reports ACL_ERROR_RT_STREAM_ABORT
// (25-01_aclError.md), and the stream serves new work afterwards.
TEST_F(StreamConfigTest, AbortDiscardsQueuedWork) {
    Stream stream;
    DeviceBuffer buffer(256);
    buffer.fill(0);
    Gate gate;
    ASSERT_ACL_OK(gate.hold(stream.get()));
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), buffer.size(), 0x5A, buffer.size(), stream.get()));
    ASSERT_TRUE(gate.wait_until_reached());
    EXPECT_ACL_OK(aclrtStreamAbort(stream.get()));
    gate.open();
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs), ACL_ERROR_RT_STREAM_ABORT);
    EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 0), buffer.read());

    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), buffer.size(), 0x11, buffer.size(), stream.get()));
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 0x11), buffer.read());
    EXPECT_FALSE(gate.expired());
}

/// A notify nobody records until release(): a stream that waits for it
/// (aclrtWaitAndResetNotify without a timeout) holds everything behind the wait.
class NotifyHold {
public:
    NotifyHold() { EXPECT_ACL_OK(aclrtCreateNotify(&notify_, ACL_NOTIFY_DEFAULT)); }
    ~NotifyHold() { EXPECT_ACL_OK(aclrtDestroyNotify(notify_)); }
    NotifyHold(const NotifyHold&) = delete;
    NotifyHold& operator=(const NotifyHold&) = delete;

    aclrtNotify get() const { return notify_; }
    aclError hold(aclrtStream stream) const { return aclrtWaitAndResetNotify(notify_, stream, 0); }
    /// Records the notify on the default stream: the wait holding a stream passes.
    void release() const { EXPECT_ACL_OK(aclrtRecordNotify(notify_, nullptr)); }

private:
    aclrtNotify notify_ = nullptr;
};

/// Makes wait on a thread of its own, aborts stream once that thread is
/// asleep in the wait (or, if it never is, after kBoundedWaitMs: an abort
/// just before the wait must end it too) and expects the wait to return
/// ACL_ERROR_RT_STREAM_ABORT.  A wait still blocked kBoundedWaitMs after
/// the abort fails the test; release() then frees what held the stream, so
/// that the thread, and the stream's teardown, can end.
void expect_abort_ends(aclrtStream stream, std::function<aclError()> wait, const std::function<void()>& release) {
    testkit::BlockedCall call(std::move(wait));
    call.wait_until_asleep(std::chrono::milliseconds(kBoundedWaitMs));
    EXPECT_ACL_OK(aclrtStreamAbort(stream));
    aclError status = ACL_SUCCESS;
    const bool returned = call.wait_for_return(std::chrono::milliseconds(kBoundedWaitMs), status);
    EXPECT_TRUE(returned) << "the wait was still blocked " << kBoundedWaitMs << " ms after aclrtStreamAbort";
    if (returned && status == ACL_ERROR_RT_STREAM_ABORT) return;
    EXPECT_EQ(ACL_ERROR_RT_STREAM_ABORT, status);
    release();
    if (!returned) {
        EXPECT_TRUE(call.wait_for_return(std::chrono::milliseconds(kBoundedWaitMs), status));
    }
}

/// After an abort, the stream runs new work and its synchronisation
/// succeeds: the abort has been reported once already.
void expect_usable_after_abort(aclrtStream stream) {
    DeviceBuffer buffer(64);
    buffer.fill(0);
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), buffer.size(), 0x3C, buffer.size(), stream));
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream, kBoundedWaitMs));
    EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 0x3C), buffer.read());
}

// CANN's Context::StreamAbort (src/runtime/core/src/context/context.cc) sets
// the stream's abort status before it kills the stream's tasks, and the wait
// loops of Stream::Synchronize (Stream::SynchronizeExecutedTask,
// Stream::StarsWaitForTask in src/runtime/core/src/stream/stream.cc) return
// RT_ERROR_STREAM_ABORT (107023) on their next pass once it is set: a thread
// blocked in aclrtSynchronizeStream on a stream held by an event wait returns
// 107023, and the stream takes new work afterwards.
TEST_F(StreamConfigTest, AbortEndsASynchronizationHeldByAnEventWait) {
    NotifyHold notify;
    Stream recorder;
    Stream waiter;
    Event event;
    ASSERT_ACL_OK(notify.hold(recorder.get()));
    ASSERT_ACL_OK(aclrtRecordEvent(event.get(), recorder.get()));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(waiter.get(), event.get()));
    DeviceBuffer buffer(64);
    buffer.fill(0);
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), buffer.size(), 0x5A, buffer.size(), waiter.get()));

    expect_abort_ends(waiter.get(), [&] { return aclrtSynchronizeStream(waiter.get()); }, [&] { notify.release(); });
    expect_usable_after_abort(waiter.get());
    // Read once the stream has been synchronised again, so that the host's
    // read is ordered after every place of the stream (the race checker
    // demands it): the aborted memset never wrote.
    EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 0), buffer.read());
    // The recording stream was not aborted: it still waits for the notify.
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(recorder.get(), kAbsenceWindowMs),
                     ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    notify.release();
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(recorder.get(), kBoundedWaitMs));
}

// As above with aclrtSynchronizeStreamWithTimeout (the same
// Stream::Synchronize loops): the abort ends the wait with 107023, not with
// the timeout's 107011; and a notify wait that held the stream -- a wait
// task CANN's abort kills -- is gone: it does not take a later record of the
// notify from the stream's next wait.
TEST_F(StreamConfigTest, AbortEndsATimedSynchronizationAndItsNotifyWait) {
    NotifyHold notify;
    Stream stream;
    ASSERT_ACL_OK(notify.hold(stream.get()));

    expect_abort_ends(
        stream.get(), [&] { return aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs); },
        [&] { notify.release(); });
    expect_usable_after_abort(stream.get());

    notify.release();
    ASSERT_ACL_OK(notify.hold(stream.get()));
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
}

// CANN's Event::Synchronize (src/runtime/core/src/event/event.cc) waits on
// the recording stream (Event::WaitTask -> Stream::WaitTask /
// SynchronizeImpl), whose loops return RT_ERROR_STREAM_ABORT in its abort
// state: aclrtSynchronizeEvent and aclrtSynchronizeEventWithTimeout on an
// event recorded on the aborted stream return 107023.
TEST_F(StreamConfigTest, AbortEndsAnEventSynchronization) {
    const std::vector<std::function<aclError(aclrtEvent)>> synchronizations = {
        [](aclrtEvent event) { return aclrtSynchronizeEvent(event); },
        [](aclrtEvent event) { return aclrtSynchronizeEventWithTimeout(event, kBoundedWaitMs); },
    };
    for (const auto& synchronize : synchronizations) {
        NotifyHold notify;
        Stream stream;
        Event event;
        ASSERT_ACL_OK(notify.hold(stream.get()));
        ASSERT_ACL_OK(aclrtRecordEvent(event.get(), stream.get()));

        expect_abort_ends(stream.get(), [&] { return synchronize(event.get()); }, [&] { notify.release(); });
        // No synchronisation of the stream heard of the abort: its next one reports it.
        EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs), ACL_ERROR_RT_STREAM_ABORT);
        expect_usable_after_abort(stream.get());
    }
}

// CANN's Context::Synchronize (context.cc) synchronises the context's
// streams one by one (SyncStreamsWithTimeout -> Stream::Synchronize), so an
// aborted stream ends aclrtSynchronizeDevice(WithTimeout) with 107023 too;
// a device-word wait (aclrtValueWait) that held it is killed, so the work
// behind it is discarded and the stream drains.
TEST_F(StreamConfigTest, AbortEndsADeviceSynchronizationAndItsValueWait) {
    Stream stream;
    DeviceBuffer word(sizeof(uint64_t));
    word.fill(0);
    ASSERT_ACL_OK(aclrtValueWait(word.get(), 1, ACL_STREAM_WAIT_VALUE_EQ, stream.get()));
    DeviceBuffer buffer(64);
    buffer.fill(0);
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), buffer.size(), 0x5A, buffer.size(), stream.get()));

    const auto writeTheWord = [&] {
        const uint64_t one = 1;
        EXPECT_ACL_OK(aclrtMemcpy(word.get(), sizeof one, &one, sizeof one, ACL_MEMCPY_HOST_TO_DEVICE));
    };
    expect_abort_ends(stream.get(), [] { return aclrtSynchronizeDeviceWithTimeout(kBoundedWaitMs); }, writeTheWord);
    EXPECT_ACL_OK(aclrtSynchronizeDeviceWithTimeout(kBoundedWaitMs));
    EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 0), buffer.read());
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs), ACL_ERROR_RT_STREAM_ABORT);
    expect_usable_after_abort(stream.get());
}

// A wait that begins after aclrtStreamAbort has returned waits as usual:
// CANN clears the abort status before the abort returns (Context::StreamAbort).
// With nobody waiting, the discarded work is reported by the next
// synchronisation (see AbortDiscardsQueuedWork).
TEST_F(StreamConfigTest, AbortWithNobodyWaitingPassesTheWaitAndReportsOnce) {
    NotifyHold notify;
    Stream stream;
    ASSERT_ACL_OK(notify.hold(stream.get()));
    EXPECT_ACL_OK(aclrtStreamAbort(stream.get()));
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs), ACL_ERROR_RT_STREAM_ABORT);
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    notify.release();  // Frees the stream for its teardown should the abort not have passed the wait.
}

// aclrtStreamAbort on an idle stream has nothing to discard: no error follows.
// A handle that is no stream fails CANN's handle check (runtime_handle_guard.cc
// ValidateInnerObject: RT_ERROR_INVALID_HANDLE).
TEST_F(StreamConfigTest, AbortOfAnIdleStreamReportsNothing) {
    Stream stream;
    EXPECT_ACL_OK(aclrtStreamAbort(stream.get()));
    EXPECT_ACL_OK(aclrtSynchronizeStream(stream.get()));
    EXPECT_ACL_FAILS(aclrtStreamAbort(reinterpret_cast<aclrtStream>(0x10)), ACL_ERROR_RT_INVALID_HANDLE);
}

// 06_stream_management.md aclrtGetStreamAvailableNum and
// 07_event_management.md aclrtGetEventAvailNum: the counts left on the
// device drop by one per stream / event created.
TEST_F(StreamConfigTest, AvailableCountsFollowCreation) {
    uint32_t streamsBefore = 0;
    uint32_t eventsBefore = 0;
    ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&streamsBefore));
    ASSERT_ACL_OK(aclrtGetEventAvailNum(&eventsBefore));
    {
        Stream stream;
        Event event;
        uint32_t streams = 0;
        uint32_t events = 0;
        ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&streams));
        ASSERT_ACL_OK(aclrtGetEventAvailNum(&events));
        EXPECT_EQ(streamsBefore - 1, streams);
        EXPECT_EQ(eventsBefore - 1, events);
    }
    uint32_t streamsAfter = 0;
    ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&streamsAfter));
    EXPECT_EQ(streamsBefore, streamsAfter);
    // 1984 streams per A2 device, the default stream among them (aclrtCreateStream).
    EXPECT_EQ(1983u, streamsBefore);
    EXPECT_ACL_FAILS(aclrtGetStreamAvailableNum(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtGetEventAvailNum(nullptr), ACL_ERROR_INVALID_PARAM);
}

// Issue 29.4: aclrtCtxGetCurrentDefaultStream returns the current context's
// default stream object itself (ApiImpl::CtxGetCurrentDefaultStream:
// *stm = curCtx->DefaultStream_()), a real handle every stream API takes:
// the same stream that NULL stands for, one per context.
TEST_F(StreamConfigTest, CurrentDefaultStreamIsARealHandle) {
    aclrtStream stream = nullptr;
    ASSERT_ACL_OK(aclrtCtxGetCurrentDefaultStream(&stream));
    ASSERT_NE(nullptr, stream);
    int32_t id = -1;
    int32_t nullId = -2;
    ASSERT_ACL_OK(aclrtStreamGetId(stream, &id));
    ASSERT_ACL_OK(aclrtStreamGetId(nullptr, &nullId));
    EXPECT_EQ(nullId, id);

    DeviceBuffer buffer(64);
    Gate gate;
    ASSERT_ACL_OK(gate.hold(nullptr));
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), buffer.size(), 3, buffer.size(), stream));
    Event done;
    ASSERT_ACL_OK(aclrtRecordEvent(done.get(), stream));
    aclrtStreamStatus status = ACL_STREAM_STATUS_COMPLETE;
    ASSERT_ACL_OK(aclrtStreamQuery(stream, &status));
    EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, status);  // Behind the gate held on NULL: one stream.
    gate.open();
    ASSERT_ACL_OK(aclrtStreamWaitEvent(stream, done.get()));
    EXPECT_ACL_OK(aclrtSynchronizeStream(stream));
    EXPECT_ACL_OK(aclrtSynchronizeEvent(done.get()));
    EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 3), buffer.read());
    EXPECT_FALSE(gate.expired());

    aclrtContext context = nullptr;
    ASSERT_ACL_OK(aclrtGetCurrentContext(&context));
    aclrtContext other = nullptr;
    ASSERT_ACL_OK(aclrtCreateContext(&other, 0));
    aclrtStream otherStream = nullptr;
    ASSERT_ACL_OK(aclrtCtxGetCurrentDefaultStream(&otherStream));
    EXPECT_NE(stream, otherStream);
    int32_t otherId = -1;
    ASSERT_ACL_OK(aclrtStreamGetId(otherStream, &otherId));
    EXPECT_NE(id, otherId);
    ASSERT_ACL_OK(aclrtSetCurrentContext(context));
    aclrtStream again = nullptr;
    ASSERT_ACL_OK(aclrtCtxGetCurrentDefaultStream(&again));
    EXPECT_EQ(stream, again);
    ASSERT_ACL_OK(aclrtDestroyContext(other));
    // The destroyed context's default stream went with it (CANN's handle check).
    EXPECT_ACL_FAILS(aclrtSynchronizeStream(otherStream), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtCtxGetCurrentDefaultStream(nullptr), ACL_ERROR_INVALID_PARAM);
}

// CANN's runtime has no guard against aclrtDestroyStream on the default
// stream's handle (Context::StreamDestroy would tear it down and leave the
// context without one); acl-cpu refuses, and the stream keeps working.
TEST_F(StreamConfigTest, DefaultStreamHandleIsNotDestroyed) {
    aclrtStream stream = nullptr;
    ASSERT_ACL_OK(aclrtCtxGetCurrentDefaultStream(&stream));
    EXPECT_ACL_FAILS(aclrtDestroyStream(stream), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtDestroyStreamForce(stream), ACL_ERROR_RT_PARAM_INVALID);
    DeviceBuffer buffer(16);
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), buffer.size(), 5, buffer.size(), stream));
    EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
    EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 5), buffer.read());
}

// 03_runtime_configuration.md aclrtSetStreamResLimit / aclrtGetStreamResLimit /
// aclrtResetStreamResLimit / aclrtUseStreamResInCurrentThread /
// aclrtGetResInCurrentThread: a stream's limit applies to the threads that use
// it; without one, the device's own cores are the limit.
TEST_F(StreamConfigTest, StreamCoreLimitsApplyToTheThreadsThatUseThem) {
    Stream stream;
    uint32_t deviceCubes = 0;
    ASSERT_ACL_OK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &deviceCubes));
    ASSERT_GT(deviceCubes, 1u);
    uint32_t value = 0;
    ASSERT_ACL_OK(aclrtGetStreamResLimit(stream.get(), ACL_RT_DEV_RES_CUBE_CORE, &value));
    EXPECT_EQ(deviceCubes, value);

    ASSERT_ACL_OK(aclrtSetStreamResLimit(stream.get(), ACL_RT_DEV_RES_CUBE_CORE, 1));
    ASSERT_ACL_OK(aclrtGetStreamResLimit(stream.get(), ACL_RT_DEV_RES_CUBE_CORE, &value));
    EXPECT_EQ(1u, value);
    ASSERT_ACL_OK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &value));
    EXPECT_EQ(deviceCubes, value);  // Not used by this thread yet.

    ASSERT_ACL_OK(aclrtUseStreamResInCurrentThread(stream.get()));
    ASSERT_ACL_OK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &value));
    EXPECT_EQ(1u, value);
    run_on_new_thread([&] {
        uint32_t other = 0;
        ASSERT_ACL_OK(aclrtSetDevice(0));
        ASSERT_ACL_OK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &other));
        EXPECT_EQ(deviceCubes, other);
        EXPECT_ACL_OK(aclrtResetDevice(0));
    });

    ASSERT_ACL_OK(aclrtResetStreamResLimit(stream.get()));
    ASSERT_ACL_OK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &value));
    EXPECT_EQ(deviceCubes, value);
    EXPECT_ACL_OK(aclrtUnuseStreamResInCurrentThread(stream.get()));
    EXPECT_ACL_FAILS(aclrtUnuseStreamResInCurrentThread(stream.get()), ACL_ERROR_INVALID_PARAM);

    EXPECT_ACL_FAILS(aclrtSetStreamResLimit(stream.get(), ACL_RT_DEV_RES_CUBE_CORE, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtSetStreamResLimit(stream.get(), ACL_RT_DEV_RES_CUBE_CORE, deviceCubes + 1),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtSetStreamResLimit(stream.get(), static_cast<aclrtDevResLimitType>(5), 1),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, nullptr), ACL_ERROR_INVALID_PARAM);
}

// 24_other_APIs.md aclrtSubscribeHostFunc / aclrtProcessHostFunc /
// aclrtUnSubscribeHostFunc: host functions of a subscribed stream run on the
// subscribed thread, inside its aclrtProcessHostFunc.
TEST_F(StreamConfigTest, HostFunctionsRunOnTheSubscribedThread) {
    Stream stream;
    aclrtContext context = nullptr;
    ASSERT_ACL_OK(aclrtGetCurrentContext(&context));
    std::atomic<uint64_t> servingId{0};
    std::thread::id servingThread;
    std::mutex mutex;
    std::condition_variable subscribed;
    std::thread server([&] {
        ASSERT_ACL_OK(aclrtSetCurrentContext(context));
        {
            std::lock_guard<std::mutex> lock(mutex);
            EXPECT_ACL_OK(aclrtSubscribeHostFunc(current_report_thread_id(), stream.get()));
            servingId = current_report_thread_id();
        }
        subscribed.notify_one();
        EXPECT_ACL_OK(aclrtProcessHostFunc(kBoundedWaitMs));
    });
    servingThread = server.get_id();
    {
        std::unique_lock<std::mutex> lock(mutex);
        subscribed.wait(lock, [&] { return servingId.load() != 0; });
    }
    EXPECT_ACL_FAILS(aclrtSubscribeHostFunc(servingId.load(), stream.get()), ACL_ERROR_REPEAT_SUBSCRIBE);
    CallProbe probe;
    ASSERT_ACL_OK(aclrtLaunchHostFunc(stream.get(), &CallProbe::record, &probe));
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    server.join();
    EXPECT_EQ(1, probe.calls.load());
    EXPECT_EQ(servingThread, probe.lastThread.load());

    EXPECT_ACL_FAILS(aclrtUnSubscribeHostFunc(servingId.load() + 1, stream.get()), ACL_ERROR_STREAM_NOT_SUBSCRIBE);
    EXPECT_ACL_OK(aclrtUnSubscribeHostFunc(servingId.load(), stream.get()));
    EXPECT_ACL_FAILS(aclrtSubscribeHostFunc(servingId.load(), nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtProcessHostFunc(0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtProcessHostFunc(kAbsenceWindowMs), ACL_ERROR_THREAD_NOT_SUBSCRIBE);
}

struct StateLog {
    std::mutex mutex;
    std::vector<std::pair<aclrtStream, aclrtStreamState>> entries;

    static void record(aclrtStream stream, aclrtStreamState state, void* args) {
        auto* log = static_cast<StateLog*>(args);
        std::lock_guard<std::mutex> lock(log->mutex);
        log->entries.emplace_back(stream, state);
    }
};

// 06_stream_management.md aclrtRegStreamStateCallback: the callback runs after
// a stream is created and before it is destroyed; a name registers once, and a
// NULL callback removes it.
TEST_F(StreamConfigTest, StreamStateCallbacksSeeCreateAndDestroy) {
    StateLog log;
    ASSERT_ACL_OK(aclrtRegStreamStateCallback("stream_config_test", &StateLog::record, &log));
    EXPECT_ACL_FAILS(aclrtRegStreamStateCallback("stream_config_test", &StateLog::record, &log),
                     ACL_ERROR_INVALID_PARAM);
    aclrtStream stream = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&stream));
    ASSERT_ACL_OK(aclrtDestroyStream(stream));
    ASSERT_ACL_OK(aclrtRegStreamStateCallback("stream_config_test", nullptr, nullptr));
    aclrtStream unseen = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&unseen));
    ASSERT_ACL_OK(aclrtDestroyStream(unseen));

    ASSERT_EQ(2u, log.entries.size());
    EXPECT_EQ(stream, log.entries[0].first);
    EXPECT_EQ(ACL_RT_STREAM_STATE_CREATE_POST, log.entries[0].second);
    EXPECT_EQ(stream, log.entries[1].first);
    EXPECT_EQ(ACL_RT_STREAM_STATE_DESTROY_PRE, log.entries[1].second);
    EXPECT_ACL_FAILS(aclrtRegStreamStateCallback("", &StateLog::record, &log), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtRegStreamStateCallback("stream_config_test", nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
}

std::atomic<int> gAbortStages{0};

int32_t count_abort_stage(int32_t deviceId, aclrtDeviceTaskAbortStage stage, uint32_t, void*) {
    if (deviceId == 0) gAbortStages.fetch_add(stage == ACL_RT_DEVICE_TASK_ABORT_PRE ? 1 : 10);
    return 0;
}

// 13_exception_handling.md aclrtDeviceTaskAbort / aclrtSetDeviceTaskAbortCallback:
// queued work of every stream of the device is discarded, the callback runs
// before and after, and the timeout is at most 36 minutes.
TEST_F(StreamConfigTest, DeviceTaskAbortDiscardsEveryStreamsQueuedWork) {
    gAbortStages = 0;
    ASSERT_ACL_OK(aclrtSetDeviceTaskAbortCallback("stream_config_test", &count_abort_stage, nullptr));
    Stream stream;
    DeviceBuffer buffer(128);
    buffer.fill(0);
    Gate gate;
    ASSERT_ACL_OK(gate.hold(stream.get()));
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), buffer.size(), 0x7F, buffer.size(), stream.get()));
    ASSERT_TRUE(gate.wait_until_reached());
    std::thread opener([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(kAbsenceWindowMs));
        gate.open();
    });
    EXPECT_ACL_OK(aclrtDeviceTaskAbort(0, static_cast<uint32_t>(kBoundedWaitMs)));
    opener.join();
    EXPECT_EQ(11, gAbortStages.load());
    EXPECT_ACL_FAILS(aclrtSynchronizeStream(stream.get()), ACL_ERROR_RT_STREAM_ABORT);
    EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 0), buffer.read());
    EXPECT_ACL_OK(aclrtSetDeviceTaskAbortCallback("stream_config_test", nullptr, nullptr));
    EXPECT_ACL_FAILS(aclrtDeviceTaskAbort(0, 36u * 60u * 1000u + 1u), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtDeviceTaskAbort(7, 0), ACL_ERROR_RT_INVALID_DEVICEID);
}

}  // namespace
}  // namespace aclcpu::test
