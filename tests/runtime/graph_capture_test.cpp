// ACL Graph: capturing streams into a model runtime instance (aclmdlRI) and
// replaying it.  The rules and codes cited are CANN's: the API reference
// (docs/zh/api_ref/15_model_running_instance__management.md, 25-01_aclError.md),
// the developer guide (docs/zh/dev_guide/04-01_single_stream_capture.md,
// 04-02_cross_stream_capture.md) and its FAQ on what a capture refuses.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <fstream>
#include <functional>
#include <mutex>
#include <numeric>
#include <sstream>
#include <thread>
#include <vector>

#include "acl/acl_rt_memory_soma.h"
#include "runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

/// An event that captures may record: CANN's captures take only events made
/// by aclrtCreateEventExWithFlag (04-02_cross_stream_capture.md).
class CaptureEvent {
public:
    CaptureEvent() { EXPECT_ACL_OK(aclrtCreateEventExWithFlag(&event_, ACL_EVENT_SYNC)); }
    ~CaptureEvent() { aclrtDestroyEvent(event_); }
    CaptureEvent(const CaptureEvent&) = delete;
    CaptureEvent& operator=(const CaptureEvent&) = delete;
    aclrtEvent get() const { return event_; }

private:
    aclrtEvent event_ = nullptr;
};

/// A model destroyed at scope end (if the test has not destroyed it).
class Model {
public:
    Model() = default;
    ~Model() {
        if (model_ != nullptr) aclmdlRIDestroy(model_);
    }
    Model(const Model&) = delete;
    Model& operator=(const Model&) = delete;
    aclmdlRI* out() { return &model_; }
    aclmdlRI get() const { return model_; }

private:
    aclmdlRI model_ = nullptr;
};

aclmdlRICaptureStatus capture_status(aclrtStream stream, aclmdlRI* model = nullptr) {
    aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED;
    aclmdlRI found = nullptr;
    EXPECT_ACL_OK(aclmdlRICaptureGetInfo(stream, &status, &found));
    if (model != nullptr) *model = found;
    return status;
}

std::vector<float> iota_floats(size_t count, float first) {
    std::vector<float> values(count);
    std::iota(values.begin(), values.end(), first);
    return values;
}

/// A task that counts its runs and notes whether two of them ever overlapped.
struct RunCounter {
    std::atomic<int> runs{0};
    std::atomic<int> inside{0};
    std::atomic<bool> overlapped{false};

    aclError enqueue_on(aclrtStream stream, std::chrono::microseconds busy = std::chrono::microseconds(0)) {
        return aclcpu::enqueue(stream, std::make_unique<FunctionTask>([this, busy] {
            if (inside.fetch_add(1) != 0) overlapped = true;
            std::this_thread::sleep_for(busy);
            runs.fetch_add(1);
            inside.fetch_sub(1);
        }));
    }
};

using GraphCapture = RuntimeTest;

// 04-01: between aclmdlRICaptureBegin and aclmdlRICaptureEnd the stream's
// tasks do not run; each aclmdlRIExecuteAsync runs all of them, and a model
// can be executed many times, with its inputs changed in between.
TEST_F(GraphCapture, CapturedWorkRunsOnlyWhenReplayedAndAsOftenAsReplayed) {
    constexpr size_t kCount = 64;
    constexpr size_t kBytes = kCount * sizeof(float);
    Stream stream;
    PinnedBuffer input(kBytes);
    PinnedBuffer output(kBytes);
    DeviceBuffer device(kBytes);
    std::memset(output.bytes(), 0, kBytes);
    std::vector<float> first = iota_floats(kCount, 1.0f);
    std::memcpy(input.bytes(), first.data(), kBytes);

    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_ACL_OK(aclrtMemcpyAsync(device.get(), kBytes, input.bytes(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream.get()));
    ASSERT_ACL_OK(aclrtMemcpyAsync(output.bytes(), kBytes, device.get(), kBytes, ACL_MEMCPY_DEVICE_TO_HOST,
                                   stream.get()));
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), model.out()));
    ASSERT_NE(nullptr, model.get());
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream.get()));
    EXPECT_EQ(std::vector<uint8_t>(kBytes, 0), std::vector<uint8_t>(output.bytes(), output.bytes() + kBytes))
        << "captured work ran at capture time";

    for (int replay = 0; replay < 3; ++replay) {
        const std::vector<float> expected = iota_floats(kCount, 100.0f * replay);
        std::memcpy(input.bytes(), expected.data(), kBytes);
        ASSERT_ACL_OK(aclmdlRIExecuteAsync(model.get(), stream.get()));
        ASSERT_ACL_OK(aclrtSynchronizeStream(stream.get()));
        std::vector<float> seen(kCount);
        std::memcpy(seen.data(), output.bytes(), kBytes);
        EXPECT_EQ(expected, seen) << "replay " << replay;
    }
}

// aclmdlRICaptureGetInfo: NONE outside a capture, ACTIVE with the model
// during it; aclmdlRICaptureEnd hands out that same model.
TEST_F(GraphCapture, GetInfoFollowsTheCapture) {
    Stream stream;
    EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_NONE, capture_status(stream.get()));
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    aclmdlRI during = nullptr;
    EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE, capture_status(stream.get(), &during));
    EXPECT_NE(nullptr, during);
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), model.out()));
    EXPECT_EQ(during, model.get());
    aclmdlRI after = model.get();
    EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_NONE, capture_status(stream.get(), &after));
    EXPECT_EQ(nullptr, after);
    EXPECT_ACL_FAILS(aclmdlRICaptureGetInfo(stream.get(), nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
}

// An empty capture is a valid model whose replay does nothing.
TEST_F(GraphCapture, AnEmptyCaptureReplays) {
    Stream stream;
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), model.out()));
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(model.get(), stream.get()));
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream.get()));
}

// A replay takes one place in the executing stream: work submitted before it
// has finished when it starts, work after it waits for it -- on any stream.
TEST_F(GraphCapture, AReplayKeepsStreamOrderOnTheStreamThatRunsIt) {
    Stream captured;
    Stream runner;
    DeviceBuffer word(sizeof(uint32_t));
    PinnedBuffer seen(sizeof(uint32_t));
    ASSERT_ACL_OK(aclmdlRICaptureBegin(captured.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    // The model reads the word and then overwrites it with 7s.
    ASSERT_ACL_OK(aclrtMemcpyAsync(seen.bytes(), 4, word.get(), 4, ACL_MEMCPY_DEVICE_TO_HOST, captured.get()));
    ASSERT_ACL_OK(aclrtMemsetAsync(word.get(), 4, 7, 4, captured.get()));
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(captured.get(), model.out()));

    Gate gate;
    ASSERT_ACL_OK(gate.hold(runner.get()));
    ASSERT_ACL_OK(aclrtMemsetAsync(word.get(), 4, 3, 4, runner.get()));
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(model.get(), runner.get()));
    ASSERT_ACL_OK(aclrtMemsetAsync(word.get(), 4, 9, 4, runner.get()));
    gate.open();
    ASSERT_ACL_OK(aclrtSynchronizeStream(runner.get()));
    EXPECT_EQ(std::vector<uint8_t>(4, 3), std::vector<uint8_t>(seen.bytes(), seen.bytes() + 4));
    EXPECT_EQ(std::vector<uint8_t>(4, 9), word.read());
}

// Replays of one model never overlap, whichever streams run them: they run
// in the order they were submitted.
TEST_F(GraphCapture, ReplaysOfOneModelOnSeveralStreamsRunOneAfterAnother) {
    Stream captured;
    RunCounter counter;
    ASSERT_ACL_OK(aclmdlRICaptureBegin(captured.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_ACL_OK(counter.enqueue_on(captured.get(), std::chrono::microseconds(200)));
    ASSERT_ACL_OK(counter.enqueue_on(captured.get()));
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(captured.get(), model.out()));
    EXPECT_EQ(0, counter.runs.load());

    Stream a;
    Stream b;
    constexpr int kReplays = 20;
    for (int i = 0; i < kReplays; ++i) {
        ASSERT_ACL_OK(aclmdlRIExecuteAsync(model.get(), (i % 2 == 0 ? a : b).get()));
    }
    ASSERT_ACL_OK(aclrtSynchronizeStream(a.get()));
    ASSERT_ACL_OK(aclrtSynchronizeStream(b.get()));
    EXPECT_EQ(2 * kReplays, counter.runs.load());
    EXPECT_FALSE(counter.overlapped.load());
}

// 04-02: an event recorded on the capturing stream and waited for by another
// stream pulls that stream into the capture; its work is captured with the
// dependency and joins back through another event.
TEST_F(GraphCapture, AStreamWaitingForACapturedEventJoinsTheCapture) {
    constexpr size_t kBytes = 256;
    Stream origin;
    Stream side;
    CaptureEvent fork;
    CaptureEvent join;
    DeviceBuffer a(kBytes);
    DeviceBuffer b(kBytes);
    PinnedBuffer out(kBytes);
    ASSERT_ACL_OK(aclmdlRICaptureBegin(origin.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_ACL_OK(aclrtMemsetAsync(a.get(), kBytes, 0x5a, kBytes, origin.get()));
    ASSERT_ACL_OK(aclrtRecordEvent(fork.get(), origin.get()));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(side.get(), fork.get()));
    EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE, capture_status(side.get()));
    ASSERT_ACL_OK(aclrtMemcpyAsync(b.get(), kBytes, a.get(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, side.get()));
    ASSERT_ACL_OK(aclrtRecordEvent(join.get(), side.get()));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(origin.get(), join.get()));
    ASSERT_ACL_OK(aclrtMemcpyAsync(out.bytes(), kBytes, b.get(), kBytes, ACL_MEMCPY_DEVICE_TO_HOST, origin.get()));
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(origin.get(), model.out()));
    EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_NONE, capture_status(side.get()));

    uint32_t count = 0;
    ASSERT_ACL_OK(aclmdlRIGetStreams(model.get(), nullptr, &count));
    ASSERT_EQ(2u, count);
    std::vector<aclrtStream> streams(count);
    ASSERT_ACL_OK(aclmdlRIGetStreams(model.get(), streams.data(), &count));
    EXPECT_EQ((std::vector<aclrtStream>{origin.get(), side.get()}), streams);

    for (int replay = 0; replay < 4; ++replay) {
        std::memset(out.bytes(), 0, kBytes);
        b.fill(0);
        ASSERT_ACL_OK(aclmdlRIExecuteAsync(model.get(), origin.get()));
        ASSERT_ACL_OK(aclrtSynchronizeStream(origin.get()));
        EXPECT_EQ(std::vector<uint8_t>(kBytes, 0x5a), std::vector<uint8_t>(out.bytes(), out.bytes() + kBytes));
    }
}

// 25-01 (107025): a stream that joined the capture must come back to the
// origin stream; otherwise aclmdlRICaptureEnd fails, gives no model and
// ends the capture of every stream.
TEST_F(GraphCapture, EndingWithAStreamThatNeverJoinedBackFails) {
    Stream origin;
    Stream side;
    CaptureEvent fork;
    DeviceBuffer buffer(64);
    ASSERT_ACL_OK(aclmdlRICaptureBegin(origin.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_ACL_OK(aclrtRecordEvent(fork.get(), origin.get()));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(side.get(), fork.get()));
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), 64, 1, 64, side.get()));
    aclmdlRI model = reinterpret_cast<aclmdlRI>(&model);
    EXPECT_ACL_FAILS(aclmdlRICaptureEnd(origin.get(), &model), ACL_ERROR_RT_STREAM_UNJOINED);
    EXPECT_EQ(nullptr, model);
    EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_NONE, capture_status(origin.get()));
    EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_NONE, capture_status(side.get()));
    EXPECT_ACL_OK(aclrtSynchronizeStream(side.get()));
}

// 04-02: work put on a joined stream after it returned to the origin is not
// joined either (the guide's "task5").
TEST_F(GraphCapture, WorkAfterTheJoinOnASideStreamIsUnjoined) {
    Stream origin;
    Stream side;
    CaptureEvent fork;
    CaptureEvent join;
    DeviceBuffer buffer(64);
    ASSERT_ACL_OK(aclmdlRICaptureBegin(origin.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_ACL_OK(aclrtRecordEvent(fork.get(), origin.get()));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(side.get(), fork.get()));
    ASSERT_ACL_OK(aclrtRecordEvent(join.get(), side.get()));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(origin.get(), join.get()));
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), 64, 1, 64, side.get()));
    Model model;
    EXPECT_ACL_FAILS(aclmdlRICaptureEnd(origin.get(), model.out()), ACL_ERROR_RT_STREAM_UNJOINED);
}

// aclmdlRICaptureEnd must be called on the stream that began the capture
// (107036 for a joined stream), and a capture that is not RELAXED ends on
// the thread that began it (107038), which discards it.
TEST_F(GraphCapture, EndingOnAJoinedStreamOrAnotherThreadIsRefused) {
    Stream origin;
    Stream side;
    CaptureEvent fork;
    CaptureEvent join;
    ASSERT_ACL_OK(aclmdlRICaptureBegin(origin.get(), ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
    ASSERT_ACL_OK(aclrtRecordEvent(fork.get(), origin.get()));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(side.get(), fork.get()));
    Model refused;
    EXPECT_ACL_FAILS(aclmdlRICaptureEnd(side.get(), refused.out()), ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED);
    EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE, capture_status(origin.get()));
    ASSERT_ACL_OK(aclrtRecordEvent(join.get(), side.get()));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(origin.get(), join.get()));

    aclrtContext context = nullptr;
    ASSERT_ACL_OK(aclrtGetCurrentContext(&context));
    aclError fromOtherThread = ACL_SUCCESS;
    std::string message;
    std::thread([&] {
        aclrtSetCurrentContext(context);
        take_error_message();
        aclmdlRI model = nullptr;
        fromOtherThread = aclmdlRICaptureEnd(origin.get(), &model);
        message = take_error_message();
    }).join();
    EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD, fromOtherThread);
    EXPECT_FALSE(message.empty());
    EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_NONE, capture_status(origin.get()));
    EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_NONE, capture_status(side.get()));
}

// A RELAXED capture may end on any thread.
TEST_F(GraphCapture, ARelaxedCaptureEndsOnAnyThread) {
    Stream stream;
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    aclrtContext context = nullptr;
    ASSERT_ACL_OK(aclrtGetCurrentContext(&context));
    Model model;
    aclError ended = ACL_ERROR_RT_INTERNAL_ERROR;
    std::thread([&] {
        aclrtSetCurrentContext(context);
        ended = aclmdlRICaptureEnd(stream.get(), model.out());
    }).join();
    EXPECT_EQ(ACL_SUCCESS, ended);
    EXPECT_NE(nullptr, model.get());
}

// 25-01 and the API reference: the capture's own arguments.
TEST_F(GraphCapture, BeginAndEndCheckTheirArguments) {
    Stream stream;
    EXPECT_ACL_FAILS(aclmdlRICaptureBegin(nullptr, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclmdlRICaptureBegin(stream.get(), static_cast<aclmdlRICaptureMode>(3)),
                     ACL_ERROR_RT_PARAM_INVALID);
    Model model;
    EXPECT_ACL_FAILS(aclmdlRICaptureEnd(stream.get(), model.out()), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    EXPECT_ACL_FAILS(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
                     ACL_ERROR_RT_STREAM_CAPTURED);
    EXPECT_ACL_FAILS(aclmdlRICaptureEnd(stream.get(), nullptr), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclmdlRICaptureEnd(nullptr, model.out()), ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), model.out()));
}

// FAQ "ACL Graph capture restrictions" and 25-01: synchronising, querying or
// destroying a captured stream, or synchronising its device, is refused
// with 107027 in every mode -- and leaves the capture valid.
TEST_F(GraphCapture, SynchronisingOrQueryingACapturedStreamIsRefused) {
    Stream stream;
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    EXPECT_ACL_FAILS(aclrtSynchronizeStream(stream.get()), ACL_ERROR_RT_STREAM_CAPTURED);
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(stream.get(), 100), ACL_ERROR_RT_STREAM_CAPTURED);
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    EXPECT_ACL_FAILS(aclrtStreamQuery(stream.get(), &status), ACL_ERROR_RT_STREAM_CAPTURED);
    EXPECT_ACL_FAILS(aclrtDestroyStream(stream.get()), ACL_ERROR_RT_STREAM_CAPTURED);
    EXPECT_ACL_FAILS(aclrtSynchronizeDevice(), ACL_ERROR_RT_STREAM_CAPTURED);
    EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE, capture_status(stream.get()));
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), model.out()));
    EXPECT_ACL_OK(aclrtSynchronizeDevice());
}

// 04-01 item 3 and aclmdlRICaptureThreadExchangeMode: in a GLOBAL capture no
// thread may call aclrtMemcpy/aclrtMemset/aclrtMemcpy2d (107030) until it
// switches itself to RELAXED; then the call runs at once, uncaptured.
TEST_F(GraphCapture, GlobalModeRefusesSynchronousCopiesUntilTheThreadRelaxes) {
    Stream stream;
    DeviceBuffer device(16);
    std::vector<uint8_t> host(16, 0x11);
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    EXPECT_ACL_FAILS(aclrtMemcpy(device.get(), 16, host.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE),
                     ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    EXPECT_ACL_FAILS(aclrtMemset(device.get(), 16, 0, 16), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    EXPECT_ACL_FAILS(aclrtMemcpy2d(device.get(), 16, host.data(), 16, 16, 1, ACL_MEMCPY_HOST_TO_DEVICE),
                     ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    aclError otherThread = ACL_SUCCESS;
    std::thread([&] { otherThread = aclrtMemset(device.get(), 16, 0, 16); }).join();
    EXPECT_EQ(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, otherThread) << "GLOBAL forbids every thread";

    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    ASSERT_ACL_OK(aclmdlRICaptureThreadExchangeMode(&mode));
    EXPECT_EQ(ACL_MODEL_RI_CAPTURE_MODE_GLOBAL, mode) << "a thread starts in GLOBAL";
    EXPECT_ACL_OK(aclrtMemcpy(device.get(), 16, host.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE));
    EXPECT_EQ(host, device.read()) << "a relaxed synchronous copy runs at once";
    ASSERT_ACL_OK(aclmdlRICaptureThreadExchangeMode(&mode));
    EXPECT_EQ(ACL_MODEL_RI_CAPTURE_MODE_RELAXED, mode);
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), model.out()));
    EXPECT_ACL_OK(aclrtMemset(device.get(), 16, 0, 16)) << "the rule ends with the capture";
}

// THREAD_LOCAL forbids only the capturing thread; RELAXED forbids nobody.
TEST_F(GraphCapture, ThreadLocalModeRefusesOnlyTheCapturingThread) {
    Stream stream;
    DeviceBuffer device(16);
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
    EXPECT_ACL_FAILS(aclrtMemset(device.get(), 16, 0, 16), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    aclError otherThread = ACL_ERROR_RT_INTERNAL_ERROR;
    std::thread([&] { otherThread = aclrtMemset(device.get(), 16, 0, 16); }).join();
    EXPECT_EQ(ACL_SUCCESS, otherThread);
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), model.out()));

    Stream relaxed;
    ASSERT_ACL_OK(aclmdlRICaptureBegin(relaxed.get(), ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    EXPECT_ACL_OK(aclrtMemset(device.get(), 16, 0, 16));
    Model relaxedModel;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(relaxed.get(), relaxedModel.out()));
}

TEST_F(GraphCapture, ExchangeModeChecksItsArgument) {
    EXPECT_ACL_FAILS(aclmdlRICaptureThreadExchangeMode(nullptr), ACL_ERROR_INVALID_PARAM);
    aclmdlRICaptureMode bad = static_cast<aclmdlRICaptureMode>(3);
    EXPECT_ACL_FAILS(aclmdlRICaptureThreadExchangeMode(&bad), ACL_ERROR_RT_PARAM_INVALID);
    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL;
    ASSERT_ACL_OK(aclmdlRICaptureThreadExchangeMode(&mode));
    ASSERT_ACL_OK(aclmdlRICaptureThreadExchangeMode(&mode));
    EXPECT_EQ(ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL, mode);
}

// 04-01 item 5: a captured asynchronous copy may only use host memory from
// aclrtMallocHost (pageable memory: 107000); outside the capture the same
// copy is synchronous, hence refused in GLOBAL mode (107041).
TEST_F(GraphCapture, PageableHostMemoryCannotBeCaptured) {
    Stream captured;
    Stream other;
    DeviceBuffer device(16);
    std::vector<uint8_t> pageable(16, 1);
    ASSERT_ACL_OK(aclmdlRICaptureBegin(captured.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    EXPECT_ACL_FAILS(aclrtMemcpyAsync(device.get(), 16, pageable.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE, captured.get()),
                     ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtMemcpyAsync(device.get(), 16, pageable.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE, other.get()),
                     ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(captured.get(), model.out()));
}

// 25-01 (107028): the host cannot wait for or query an event recorded in a
// capture that has not ended.
TEST_F(GraphCapture, AnEventRecordedInARunningCaptureCannotBeObserved) {
    Stream stream;
    CaptureEvent event;
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_ACL_OK(aclrtRecordEvent(event.get(), stream.get()));
    EXPECT_ACL_FAILS(aclrtSynchronizeEvent(event.get()), ACL_ERROR_RT_EVENT_CAPTURED);
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    EXPECT_ACL_FAILS(aclrtQueryEventStatus(event.get(), &status), ACL_ERROR_RT_EVENT_CAPTURED);
    float ms = 0;
    EXPECT_ACL_FAILS(aclrtEventElapsedTime(&ms, event.get(), event.get()), ACL_ERROR_RT_EVENT_CAPTURED);
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), model.out()));
    EXPECT_ACL_OK(aclrtSynchronizeEvent(event.get()));
}

// 04-02: captures record only events made by aclrtCreateEventExWithFlag.
TEST_F(GraphCapture, OnlyExEventsCanBeRecordedInACapture) {
    Stream stream;
    Event plain;
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    EXPECT_ACL_FAILS(aclrtRecordEvent(plain.get(), stream.get()), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), model.out()));
}

// 25-01 (107024): a captured wait needs its record in the same capture.
TEST_F(GraphCapture, WaitingForAnEventRecordedOutsideTheCaptureIsRefused) {
    Stream stream;
    Stream other;
    CaptureEvent event;
    ASSERT_ACL_OK(aclrtRecordEvent(event.get(), other.get()));
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    EXPECT_ACL_FAILS(aclrtStreamWaitEvent(stream.get(), event.get()), ACL_ERROR_RT_CAPTURE_DEPENDENCY);
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), model.out()));
}

// 25-01 (107032): an event of one capture met by a stream of another is a
// conflict that invalidates both captures, whose ends then fail (507903).
TEST_F(GraphCapture, AnEventOfOneCaptureWaitedInAnotherInvalidatesBoth) {
    Stream first;
    Stream second;
    CaptureEvent event;
    ASSERT_ACL_OK(aclmdlRICaptureBegin(first.get(), ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_ACL_OK(aclmdlRICaptureBegin(second.get(), ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_ACL_OK(aclrtRecordEvent(event.get(), first.get()));
    EXPECT_ACL_FAILS(aclrtStreamWaitEvent(second.get(), event.get()), ACL_ERROR_STREAM_CAPTURE_CONFLICT);
    EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED, capture_status(first.get()));
    EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED, capture_status(second.get()));
    Model a;
    Model b;
    EXPECT_ACL_FAILS(aclmdlRICaptureEnd(first.get(), a.out()), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
    EXPECT_ACL_FAILS(aclmdlRICaptureEnd(second.get(), b.out()), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
    EXPECT_EQ(nullptr, a.get());
    EXPECT_EQ(nullptr, b.get());
}

// 25-01 (107031): the default stream takes no part in a capture.
TEST_F(GraphCapture, TheDefaultStreamCannotMeetACapturedEvent) {
    Stream stream;
    CaptureEvent event;
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_ACL_OK(aclrtRecordEvent(event.get(), stream.get()));
    EXPECT_ACL_FAILS(aclrtStreamWaitEvent(nullptr, event.get()), ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT);
    EXPECT_ACL_FAILS(aclrtRecordEvent(event.get(), nullptr), ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT);
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), model.out()));
}

// 25-01 (107026, 107027): a model still being captured can be neither
// executed nor destroyed, and a captured stream cannot execute a model.
TEST_F(GraphCapture, ModelsAndStreamsInACaptureCannotExecute) {
    Stream stream;
    Stream other;
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    aclmdlRI capturing = nullptr;
    capture_status(stream.get(), &capturing);
    EXPECT_ACL_FAILS(aclmdlRIExecuteAsync(capturing, other.get()), ACL_ERROR_RT_MODEL_CAPTURED);
    EXPECT_ACL_FAILS(aclmdlRIDestroy(capturing), ACL_ERROR_RT_MODEL_CAPTURED);
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), model.out()));
    ASSERT_ACL_OK(aclmdlRICaptureBegin(other.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    EXPECT_ACL_FAILS(aclmdlRIExecuteAsync(model.get(), other.get()), ACL_ERROR_RT_STREAM_CAPTURED);
    Model otherModel;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(other.get(), otherModel.out()));
    EXPECT_ACL_FAILS(aclmdlRIExecute(model.get(), -1), ACL_ERROR_RT_PARAM_INVALID);
}

// Issue 29.13: bad handles get CANN's code and a message, never a crash.
// Every rts model call validates its handle first
// (RT_VALIDATE_AND_UNWRAP_OBJECT → ValidateModelHandleForApi →
// runtime_handle_guard.cc ValidateInnerObject): a destroyed model, or a
// pointer that is no model, fails with RT_ERROR_INVALID_HANDLE
// (ACL_ERROR_RT_INVALID_HANDLE); null is the acl layer's bad argument.
TEST_F(GraphCapture, DestroyedOrForeignModelsAreRefused) {
    Stream stream;
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    aclmdlRI model = nullptr;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), &model));
    ASSERT_ACL_OK(aclmdlRIDestroy(model));
    int foreign = 0;
    const aclrtCallback ignore = [](void*) {};
    for (aclmdlRI dead : {model, static_cast<aclmdlRI>(&foreign)}) {
        SCOPED_TRACE(dead == model ? "destroyed" : "foreign");
        EXPECT_ACL_FAILS(aclmdlRIExecuteAsync(dead, stream.get()), ACL_ERROR_RT_INVALID_HANDLE);
        EXPECT_ACL_FAILS(aclmdlRIExecute(dead, -1), ACL_ERROR_RT_INVALID_HANDLE);
        EXPECT_ACL_FAILS(aclmdlRIDestroy(dead), ACL_ERROR_RT_INVALID_HANDLE);
        uint32_t id = 0;
        EXPECT_ACL_FAILS(aclmdlRIGetId(dead, &id), ACL_ERROR_RT_INVALID_HANDLE);
        EXPECT_ACL_FAILS(aclmdlRISetName(dead, "name"), ACL_ERROR_RT_INVALID_HANDLE);
        char name[16] = {};
        EXPECT_ACL_FAILS(aclmdlRIGetName(dead, sizeof name, name), ACL_ERROR_RT_INVALID_HANDLE);
        uint32_t count = 0;
        EXPECT_ACL_FAILS(aclmdlRIGetStreams(dead, nullptr, &count), ACL_ERROR_RT_INVALID_HANDLE);
        EXPECT_ACL_FAILS(aclmdlRIDebugJsonPrint(dead, "/dev/null", 0), ACL_ERROR_RT_INVALID_HANDLE);
        EXPECT_ACL_FAILS(aclmdlRIUpdate(dead), ACL_ERROR_RT_INVALID_HANDLE);
        EXPECT_ACL_FAILS(aclmdlRIDestroyRegisterCallback(dead, ignore, nullptr), ACL_ERROR_RT_INVALID_HANDLE);
        EXPECT_ACL_FAILS(aclmdlRIDestroyUnregisterCallback(dead, ignore), ACL_ERROR_RT_INVALID_HANDLE);
        EXPECT_ACL_FAILS(aclmdlRIBindStream(dead, stream.get(), 0), ACL_ERROR_RT_INVALID_HANDLE);
        EXPECT_ACL_FAILS(aclmdlRIEndTask(dead, stream.get()), ACL_ERROR_RT_INVALID_HANDLE);
        EXPECT_ACL_FAILS(aclmdlRIBuildEnd(dead, nullptr), ACL_ERROR_RT_INVALID_HANDLE);
        EXPECT_ACL_FAILS(aclmdlRIUnbindStream(dead, stream.get()), ACL_ERROR_RT_INVALID_HANDLE);
    }
    EXPECT_ACL_FAILS(aclmdlRIExecuteAsync(nullptr, stream.get()), ACL_ERROR_INVALID_PARAM);
}

// A task that fails inside a replay fails the stream that ran the replay,
// reported by its next synchronisation like any task's failure.
TEST_F(GraphCapture, AFailingTaskInAReplayIsTheExecutingStreamsError) {
    class FailingTask final : public DeviceTask {
    public:
        aclError run() override { return ACL_ERROR_RT_AICORE_EXCEPTION; }
        const char* name() const noexcept override { return "failing"; }
    };
    Stream captured;
    Stream runner;
    ASSERT_ACL_OK(aclmdlRICaptureBegin(captured.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_ACL_OK(aclcpu::enqueue(captured.get(), std::make_unique<FailingTask>()));
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(captured.get(), model.out()));
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(model.get(), runner.get()));
    EXPECT_ACL_FAILS(aclrtSynchronizeStream(runner.get()), ACL_ERROR_RT_AICORE_EXCEPTION);
    EXPECT_ACL_OK(aclrtSynchronizeStream(runner.get())) << "the error is reported once";
    EXPECT_ACL_OK(aclrtSynchronizeStream(captured.get()));
}

// aclmdlRIDestroy waits for the model's replays (CANN polls up to 10 s), then
// runs the destroy callbacks, once each, in the order of their functions'
// addresses; registering a function twice or removing an unknown one is
// refused (107000).
int gDestroyOrder[2];
std::atomic<int> gDestroyCalls{0};
void first_destroy_callback(void* data) { gDestroyOrder[gDestroyCalls++] = *static_cast<int*>(data); }
void second_destroy_callback(void* data) { gDestroyOrder[gDestroyCalls++] = *static_cast<int*>(data); }

TEST_F(GraphCapture, DestroyWaitsForReplaysThenRunsTheCallbacks) {
    Stream stream;
    RunCounter counter;
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_ACL_OK(counter.enqueue_on(stream.get(), std::chrono::milliseconds(20)));
    aclmdlRI model = nullptr;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), &model));
    int firstData = 1;
    int secondData = 2;
    ASSERT_ACL_OK(aclmdlRIDestroyRegisterCallback(model, second_destroy_callback, &secondData));
    ASSERT_ACL_OK(aclmdlRIDestroyRegisterCallback(model, first_destroy_callback, &firstData));
    EXPECT_ACL_FAILS(aclmdlRIDestroyRegisterCallback(model, first_destroy_callback, &secondData),
                     ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_ACL_OK(aclmdlRIDestroyUnregisterCallback(model, first_destroy_callback));
    EXPECT_ACL_FAILS(aclmdlRIDestroyUnregisterCallback(model, first_destroy_callback), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_ACL_OK(aclmdlRIDestroyRegisterCallback(model, first_destroy_callback, &firstData));

    gDestroyCalls = 0;
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream.get()));
    ASSERT_ACL_OK(aclmdlRIDestroy(model));
    EXPECT_EQ(1, counter.runs.load()) << "destroy returned before the replay ended";
    ASSERT_EQ(2, gDestroyCalls.load());
    const bool firstIsLower = reinterpret_cast<uintptr_t>(&first_destroy_callback) <
                              reinterpret_cast<uintptr_t>(&second_destroy_callback);
    EXPECT_EQ(firstIsLower ? 1 : 2, gDestroyOrder[0]);
    EXPECT_EQ(firstIsLower ? 2 : 1, gDestroyOrder[1]);
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream.get()));
}

TEST_F(GraphCapture, NamesAndIds) {
    Stream stream;
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    Model first;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), first.out()));
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    Model second;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), second.out()));
    uint32_t firstId = 0;
    uint32_t secondId = 0;
    ASSERT_ACL_OK(aclmdlRIGetId(first.get(), &firstId));
    ASSERT_ACL_OK(aclmdlRIGetId(second.get(), &secondId));
    EXPECT_NE(firstId, secondId);

    char name[16] = "x";
    ASSERT_ACL_OK(aclmdlRIGetName(first.get(), sizeof(name), name));
    EXPECT_STREQ("", name) << "a model never named has an empty name";
    ASSERT_ACL_OK(aclmdlRISetName(first.get(), "forward"));
    ASSERT_ACL_OK(aclmdlRISetName(first.get(), "backward"));
    ASSERT_ACL_OK(aclmdlRIGetName(first.get(), sizeof(name), name));
    EXPECT_STREQ("backward", name) << "the last name set wins";
    EXPECT_ACL_FAILS(aclmdlRIGetName(first.get(), 8, name), ACL_ERROR_RT_INTERNAL_ERROR);
    EXPECT_ACL_FAILS(aclmdlRIGetName(first.get(), 0, name), ACL_ERROR_RT_PARAM_INVALID);
}

// aclmdlRIGetStreams: an array too small is filled as far as it goes and
// answered with 107039.
TEST_F(GraphCapture, GetStreamsWithAShortArray) {
    Stream origin;
    Stream side;
    CaptureEvent fork;
    CaptureEvent join;
    ASSERT_ACL_OK(aclmdlRICaptureBegin(origin.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_ACL_OK(aclrtRecordEvent(fork.get(), origin.get()));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(side.get(), fork.get()));
    ASSERT_ACL_OK(aclrtRecordEvent(join.get(), side.get()));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(origin.get(), join.get()));
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(origin.get(), model.out()));
    aclrtStream one[1] = {nullptr};
    uint32_t count = 1;
    EXPECT_ACL_FAILS(aclmdlRIGetStreams(model.get(), one, &count), ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY);
    EXPECT_EQ(1u, count);
    EXPECT_EQ(origin.get(), one[0]);
    EXPECT_ACL_FAILS(aclmdlRIGetStreams(model.get(), one, nullptr), ACL_ERROR_RT_PARAM_INVALID);
}

// aclmdlRIDebugJsonPrint writes a Chrome-trace array with one slice per
// captured task, naming model, stream, task and type.
TEST_F(GraphCapture, DebugJsonPrintWritesOneSlicePerTask) {
    Stream stream;
    DeviceBuffer buffer(64);
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), 64, 0, 64, stream.get()));
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), 64, 1, 64, stream.get()));
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), model.out()));
    TempFile file("");
    ASSERT_ACL_OK(aclmdlRIDebugJsonPrint(model.get(), file.path(), ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY));
    std::ifstream in(file.path());
    std::stringstream text;
    text << in.rdbuf();
    const std::string json = text.str();
    EXPECT_EQ('[', json.front());
    size_t slices = 0;
    for (size_t at = json.find("\"ph\":\"X\""); at != std::string::npos; at = json.find("\"ph\":\"X\"", at + 1)) {
        ++slices;
    }
    EXPECT_EQ(2u, slices) << json;
    EXPECT_NE(std::string::npos, json.find("\"Task Id\":1")) << json;
    EXPECT_NE(std::string::npos, json.find("\"After Task Ids\":[0]")) << json;
    EXPECT_ACL_FAILS(aclmdlRIDebugJsonPrint(model.get(), "/nonexistent-dir/model.json", 0), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclmdlRIDebugJsonPrint(model.get(), nullptr, 0), ACL_ERROR_INVALID_PARAM);
}

// Host functions and blocking callbacks are captured: each replay calls them
// when the graph reaches them and goes on when they return.
TEST_F(GraphCapture, HostFunctionsAndBlockingCallbacksRunAtEveryReplay) {
    Stream stream;
    ReportThread reporter(stream.get());
    ASSERT_ACL_OK(reporter.subscribe_result());
    DeviceBuffer buffer(64);
    PinnedBuffer seen(64);
    struct Calls {
        std::atomic<int> hostFunc{0};
        std::atomic<int> callback{0};
        uint8_t* seen = nullptr;
        bool sawTheSet = true;
    } calls;
    calls.seen = seen.bytes();
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), 64, 0x33, 64, stream.get()));
    ASSERT_ACL_OK(aclrtMemcpyAsync(seen.bytes(), 64, buffer.get(), 64, ACL_MEMCPY_DEVICE_TO_HOST, stream.get()));
    ASSERT_ACL_OK(aclrtLaunchHostFunc(
        stream.get(),
        [](void* data) {
            auto* state = static_cast<Calls*>(data);
            state->sawTheSet = state->sawTheSet && state->seen[63] == 0x33;
            state->hostFunc += 1;
        },
        &calls));
    ASSERT_ACL_OK(aclrtLaunchCallback([](void* data) { static_cast<Calls*>(data)->callback += 1; }, &calls,
                                      ACL_CALLBACK_BLOCK, stream.get()));
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), model.out()));
    EXPECT_EQ(0, calls.hostFunc.load());
    for (int replay = 1; replay <= 3; ++replay) {
        std::memset(seen.bytes(), 0, 64);
        ASSERT_ACL_OK(aclmdlRIExecuteAsync(model.get(), stream.get()));
        ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
        EXPECT_EQ(replay, calls.hostFunc.load());
        EXPECT_EQ(replay, calls.callback.load());
    }
    EXPECT_TRUE(calls.sawTheSet) << "a host function ran before the work captured ahead of it";
}

/// An aclrtCallback that counts its calls and holds its thread in each call
/// until released (at most kGateHoldLimitMs: a hold nobody releases expires).
/// Unlike a Gate's hold, it can run any number of times: at every replay.
struct HoldingCallback {
    std::mutex mutex;
    std::condition_variable changed;
    int calls = 0;
    bool released = false;
    bool expired = false;

    static void run(void* self) {
        auto& state = *static_cast<HoldingCallback*>(self);
        std::unique_lock<std::mutex> lock(state.mutex);
        state.calls += 1;
        state.changed.notify_all();
        const auto limit = std::chrono::milliseconds(kGateHoldLimitMs);
        if (!state.changed.wait_for(lock, limit, [&] { return state.released; })) state.expired = true;
    }
    /// Waits (bounded) until the callback has been called `count` times.
    bool wait_for_calls(int count) {
        std::unique_lock<std::mutex> lock(mutex);
        const auto limit = std::chrono::milliseconds(kBoundedWaitMs);
        return changed.wait_for(lock, limit, [&] { return calls >= count; });
    }
    void release() {
        std::lock_guard<std::mutex> lock(mutex);
        released = true;
        changed.notify_all();
    }
};

// CANN captures non-blocking callbacks as well as blocking ones
// (ApiImpl::CallbackLaunchWithoutEvent in src/runtime/api/impl/api_impl.cc
// takes a capturing stream), and ACL_CALLBACK_NO_BLOCK means the stream's
// later tasks do not wait for the callback (12_execution_control.md,
// aclrtLaunchCallback): each replay hands the callback to the subscribed
// thread and goes on at once.
TEST_F(GraphCapture, ANonBlockingCallbackRunsAtEveryReplayWithoutHoldingWhatFollows) {
    Stream stream;
    ReportThread reporter(stream.get());
    ASSERT_ACL_OK(reporter.subscribe_result());
    DeviceBuffer out(16);
    HoldingCallback callback;
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_ACL_OK(aclrtLaunchCallback(HoldingCallback::run, &callback, ACL_CALLBACK_NO_BLOCK, stream.get()));
    ASSERT_ACL_OK(aclrtMemsetAsync(out.get(), 16, 5, 16, stream.get()));
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), model.out()));
    {
        std::lock_guard<std::mutex> lock(callback.mutex);
        EXPECT_EQ(0, callback.calls) << "a captured callback ran at capture time";
    }
    out.fill(0);
    // The callback holds the reporting thread: the replay completes all the same.
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(model.get(), stream.get()));
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    EXPECT_EQ(std::vector<uint8_t>(16, 5), out.read());
    EXPECT_TRUE(callback.wait_for_calls(1));
    callback.release();
    for (int replay = 2; replay <= 3; ++replay) {
        ASSERT_ACL_OK(aclmdlRIExecuteAsync(model.get(), stream.get()));
        ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
        EXPECT_TRUE(callback.wait_for_calls(replay));
    }
    ASSERT_ACL_OK(aclmdlRIDestroy(model.get()));
    *model.out() = nullptr;
    std::lock_guard<std::mutex> lock(callback.mutex);
    EXPECT_EQ(3, callback.calls);
    EXPECT_FALSE(callback.expired);
}

// A host function that follows both its own stream's work and another
// stream's (through an event) runs once per replay, when both are done:
// found by fuzz_runtime_capture (it ran once per predecessor).
TEST_F(GraphCapture, AHostFunctionAfterTwoDependenciesRunsOncePerReplay) {
    Stream origin;
    Stream side;
    CaptureEvent fork;
    CaptureEvent join;
    DeviceBuffer sideBuffer(64);
    DeviceBuffer originBuffer(64);
    std::atomic<int> calls{0};
    ASSERT_ACL_OK(aclmdlRICaptureBegin(origin.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_ACL_OK(aclrtRecordEvent(fork.get(), origin.get()));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(side.get(), fork.get()));
    ASSERT_ACL_OK(aclrtMemsetAsync(sideBuffer.get(), 64, 1, 64, side.get()));
    ASSERT_ACL_OK(aclrtRecordEvent(join.get(), side.get()));
    ASSERT_ACL_OK(aclrtMemsetAsync(originBuffer.get(), 64, 2, 64, origin.get()));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(origin.get(), join.get()));
    ASSERT_ACL_OK(aclrtLaunchHostFunc(
        origin.get(), [](void* count) { static_cast<std::atomic<int>*>(count)->fetch_add(1); }, &calls));
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(origin.get(), model.out()));
    for (int replay = 1; replay <= 3; ++replay) {
        ASSERT_ACL_OK(aclmdlRIExecuteAsync(model.get(), origin.get()));
        ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(origin.get(), kBoundedWaitMs));
        EXPECT_EQ(replay, calls.load());
    }
}

// Value waits are captured (11-09, aclrtValueWait): each replay waits, when
// the graph reaches the wait, for the device word to satisfy it -- the host
// may satisfy it while the replay waits.
TEST_F(GraphCapture, AValueWaitHoldsEachReplayUntilTheWordSatisfiesIt) {
    Stream stream;
    DeviceBuffer word(sizeof(uint64_t));
    DeviceBuffer out(16);
    word.fill(0);
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_ACL_OK(aclrtValueWait(word.get(), 1, ACL_STREAM_WAIT_VALUE_GEQ, stream.get()));
    ASSERT_ACL_OK(aclrtMemsetAsync(out.get(), 16, 5, 16, stream.get()));
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), model.out()));
    out.fill(0);
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(model.get(), stream.get()));
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(stream.get(), kAbsenceWindowMs),
                     ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    EXPECT_EQ(std::vector<uint8_t>(16, 0), out.read()) << "work after the wait ran before the word was set";
    const uint64_t one = 1;
    ASSERT_ACL_OK(aclrtMemcpy(word.get(), sizeof(one), &one, sizeof(one), ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    EXPECT_EQ(std::vector<uint8_t>(16, 5), out.read());
}

// 04-03 (updating while the model runs): a captured wait for an
// ACL_EVENT_EXTERNAL event waits, at each replay, for that event's record --
// even one made after the replay started, on a stream outside the model --
// and a captured reset of it clears that record for the next replay.
TEST_F(GraphCapture, AReplayWaitsForAnExternalEventRecordedOutsideTheModel) {
    Stream stream;
    Stream updater;
    Event external(ACL_EVENT_EXTERNAL);
    DeviceBuffer before(16);
    DeviceBuffer after(16);
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_ACL_OK(aclrtMemsetAsync(before.get(), 16, 1, 16, stream.get()));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(stream.get(), external.get()));
    ASSERT_ACL_OK(aclrtResetEvent(external.get(), stream.get()));
    ASSERT_ACL_OK(aclrtMemsetAsync(after.get(), 16, 2, 16, stream.get()));
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), model.out()));
    for (int replay = 0; replay < 3; ++replay) {
        SCOPED_TRACE("replay " + std::to_string(replay));
        before.fill(0);
        after.fill(0);
        ASSERT_ACL_OK(aclmdlRIExecuteAsync(model.get(), stream.get()));
        EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(stream.get(), kAbsenceWindowMs),
                         ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
        EXPECT_EQ(std::vector<uint8_t>(16, 0), after.read()) << "the replay passed the wait before the record";
        ASSERT_ACL_OK(aclrtRecordEvent(external.get(), updater.get()));
        ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
        EXPECT_EQ(std::vector<uint8_t>(16, 1), before.read());
        EXPECT_EQ(std::vector<uint8_t>(16, 2), after.read());
    }
}

// The same wait when the event's latest record was made before the capture
// and completes only while a replay waits: its completion releases the
// replay (no record made later does).
TEST_F(GraphCapture, AReplayWaitsForAnExternalRecordMadeBeforeTheCapture) {
    Stream stream;
    Stream recorder;
    Event external(ACL_EVENT_EXTERNAL);
    DeviceBuffer after(16);
    Gate gate;
    ASSERT_ACL_OK(gate.hold(recorder.get()));
    ASSERT_ACL_OK(aclrtRecordEvent(external.get(), recorder.get()));
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(stream.get(), external.get()));
    ASSERT_ACL_OK(aclrtMemsetAsync(after.get(), 16, 3, 16, stream.get()));
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), model.out()));
    after.fill(0);
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(model.get(), stream.get()));
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(stream.get(), kAbsenceWindowMs),
                     ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    EXPECT_EQ(std::vector<uint8_t>(16, 0), after.read()) << "the replay passed the wait before the record completed";
    gate.open();
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    EXPECT_EQ(std::vector<uint8_t>(16, 3), after.read());
    EXPECT_FALSE(gate.expired());
}

// 04-03 and aclrtRecordEventWithFlag / aclrtStreamWaitEventWithFlag: an
// external record captured in one model is made by each of its replays for
// work outside the model; an external wait captured in another model waits,
// at each replay, for the event's latest record.
TEST_F(GraphCapture, ExternalRecordsAndWaitsLinkModelsAndStreams) {
    Stream first;
    Stream second;
    Stream outside;
    CaptureEvent event;
    DeviceBuffer source(64);
    DeviceBuffer middle(64);
    DeviceBuffer target(64);
    PinnedBuffer seen(64);
    ASSERT_ACL_OK(aclmdlRICaptureBegin(first.get(), ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_ACL_OK(aclrtMemcpyAsync(middle.get(), 64, source.get(), 64, ACL_MEMCPY_DEVICE_TO_DEVICE, first.get()));
    ASSERT_ACL_OK(aclrtRecordEventWithFlag(event.get(), first.get(), ACL_EVENT_RECORD_EXTERNAL));
    Model producer;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(first.get(), producer.out()));
    ASSERT_ACL_OK(aclmdlRICaptureBegin(second.get(), ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_ACL_OK(aclrtStreamWaitEventWithFlag(second.get(), event.get(), 0, ACL_EVENT_WAIT_EXTERNAL));
    ASSERT_ACL_OK(aclrtMemcpyAsync(target.get(), 64, middle.get(), 64, ACL_MEMCPY_DEVICE_TO_DEVICE, second.get()));
    Model consumer;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(second.get(), consumer.out()));

    for (uint8_t round = 1; round <= 3; ++round) {
        source.fill(round);
        target.fill(0);
        Gate gate;
        ASSERT_ACL_OK(gate.hold(first.get()));
        ASSERT_ACL_OK(aclmdlRIExecuteAsync(producer.get(), first.get()));
        ASSERT_ACL_OK(aclmdlRIExecuteAsync(consumer.get(), second.get()));
        ASSERT_ACL_OK(aclrtStreamWaitEvent(outside.get(), event.get()));
        ASSERT_ACL_OK(aclrtMemcpyAsync(seen.bytes(), 64, middle.get(), 64, ACL_MEMCPY_DEVICE_TO_HOST, outside.get()));
        gate.open();
        ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(second.get(), kBoundedWaitMs));
        ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(outside.get(), kBoundedWaitMs));
        EXPECT_EQ(std::vector<uint8_t>(64, round), target.read()) << "round " << int(round);
        EXPECT_EQ(std::vector<uint8_t>(64, round), std::vector<uint8_t>(seen.bytes(), seen.bytes() + 64))
            << "round " << int(round);
        ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(first.get(), kBoundedWaitMs));
    }
}

/// A pool of device 0 for aclrtMemPoolMallocAsync, destroyed at scope end.
class MemPool {
public:
    MemPool() {
        aclrtMemPoolProps props{};
        props.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
        props.handleType = ACL_MEM_HANDLE_TYPE_NONE;
        props.location = aclrtMemLocation{0, ACL_MEM_LOCATION_TYPE_DEVICE};
        props.maxSize = kMiB;
        EXPECT_ACL_OK(aclrtMemPoolCreate(&pool_, &props));
    }
    ~MemPool() { aclrtMemPoolDestroy(pool_); }
    MemPool(const MemPool&) = delete;
    MemPool& operator=(const MemPool&) = delete;
    aclrtMemPool get() const { return pool_; }
    /// ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT: the bytes of its blocks in use.
    uint64_t used() const {
        uint64_t bytes = 0;
        EXPECT_ACL_OK(aclrtMemPoolGetAttr(pool_, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, &bytes));
        return bytes;
    }

private:
    aclrtMemPool pool_ = nullptr;
};

// CANN's source accepts stream-ordered allocation in a capture
// (ApiImplSoma::MemPoolMallocAsync / MemPoolFreeAsync in
// src/runtime/api/impl/api_impl_soma.cc check no capture) and allocates at
// the call.  So a block allocated in a capture is allocated once, and every
// replay uses it; a captured free hands the block to the model, which keeps
// it while replays may use it (04-01 item 7) and returns it to the pool when
// it is destroyed.
TEST_F(GraphCapture, AStreamOrderedAllocationInACaptureServesEveryReplayUntilTheModelGoes) {
    Stream stream;
    MemPool pool;
    PinnedBuffer seen(64);
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    void* block = nullptr;
    ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&block, 64, pool.get(), stream.get()));
    ASSERT_NE(nullptr, block);
    ASSERT_ACL_OK(aclrtMemsetAsync(block, 64, 7, 64, stream.get()));
    ASSERT_ACL_OK(aclrtMemcpyAsync(seen.bytes(), 64, block, 64, ACL_MEMCPY_DEVICE_TO_HOST, stream.get()));
    ASSERT_ACL_OK(aclrtMemPoolFreeAsync(block, stream.get()));
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), model.out()));
    EXPECT_GE(pool.used(), 64u) << "the model's block went back to the pool";
    EXPECT_ACL_FAILS(aclrtMemPoolFreeAsync(block, stream.get()), ACL_ERROR_RT_PARAM_INVALID);
    void* eager = nullptr;
    ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&eager, 64, pool.get(), stream.get()));
    EXPECT_NE(block, eager) << "the pool handed out a block the model still uses";
    const uint64_t usedWithTheModel = pool.used();
    for (int replay = 1; replay <= 3; ++replay) {
        std::memset(seen.bytes(), 0, 64);
        ASSERT_ACL_OK(aclmdlRIExecuteAsync(model.get(), stream.get()));
        ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
        EXPECT_EQ(std::vector<uint8_t>(64, 7), std::vector<uint8_t>(seen.bytes(), seen.bytes() + 64));
    }
    EXPECT_EQ(usedWithTheModel, pool.used());
    ASSERT_ACL_OK(aclmdlRIDestroy(model.get()));
    *model.out() = nullptr;
    EXPECT_LT(pool.used(), usedWithTheModel) << "destroying the model kept its block";
    ASSERT_ACL_OK(aclrtMemPoolFreeAsync(eager, stream.get()));
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    EXPECT_EQ(0u, pool.used());
}

// A capture that fails gives its captured frees back at once: no model keeps them.
TEST_F(GraphCapture, AFailedCaptureGivesItsFreedBlocksBack) {
    Stream origin;
    Stream side;
    CaptureEvent fork;
    MemPool pool;
    void* block = nullptr;
    ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&block, 64, pool.get(), origin.get()));
    ASSERT_ACL_OK(aclmdlRICaptureBegin(origin.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_ACL_OK(aclrtRecordEvent(fork.get(), origin.get()));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(side.get(), fork.get()));
    ASSERT_ACL_OK(aclrtMemPoolFreeAsync(block, side.get()));
    ASSERT_ACL_OK(aclrtMemsetAsync(block, 64, 1, 64, side.get()));  // The side stream never joins back.
    EXPECT_GE(pool.used(), 64u);
    aclmdlRI model = nullptr;
    EXPECT_ACL_FAILS(aclmdlRICaptureEnd(origin.get(), &model), ACL_ERROR_RT_STREAM_UNJOINED);
    EXPECT_EQ(0u, pool.used());
}

// CANN refuses IPC events (ACL_EVENT_IPC, created or opened from a handle) in
// records and waits on a capturing stream with ACL_ERROR_RT_FEATURE_NOT_SUPPORT
// (ApiErrorDecorator::EventRecord and StreamWaitEvent in
// src/runtime/api/impl/api_error.cc); the capture goes on.
TEST_F(GraphCapture, IpcEventsAreRefusedInACapture) {
    Stream stream;
    aclrtEvent exported = nullptr;
    ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&exported, ACL_EVENT_IPC));
    aclrtIpcEventHandle handle{};
    ASSERT_ACL_OK(aclrtIpcGetEventHandle(exported, &handle));
    aclrtEvent opened = nullptr;
    ASSERT_ACL_OK(aclrtIpcOpenEventHandle(handle, &opened));
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    for (aclrtEvent event : {exported, opened}) {
        take_error_message();
        EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtRecordEvent(event, stream.get()));
        EXPECT_NE(std::string::npos, take_error_message().find("IPC"));
        EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtStreamWaitEvent(stream.get(), event));
        EXPECT_NE(std::string::npos, take_error_message().find("IPC"));
    }
    EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE, capture_status(stream.get()));
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), model.out()));
    EXPECT_ACL_OK(aclrtDestroyEvent(opened));
    EXPECT_ACL_OK(aclrtDestroyEvent(exported));
}

/// A task standing for an operator's kernel (DeviceTask::is_kernel): what a
/// task group may hold.
class KernelTask final : public DeviceTask {
public:
    aclError run() override { return ACL_SUCCESS; }
    const char* name() const noexcept override { return "kernel"; }
    bool is_kernel() const noexcept override { return true; }
};

/// Ends the capture begun on origin, which a task group's refusal broke:
/// aclmdlRICaptureEnd reports the invalidated capture.
void expect_invalidated_end(aclrtStream origin) {
    EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED, capture_status(origin));
    Model model;
    EXPECT_ACL_FAILS(aclmdlRICaptureEnd(origin, model.out()), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
    EXPECT_EQ(nullptr, model.get());
}

// Inside aclmdlRICaptureTaskGrpBegin .. End, a task that is not an operator's
// kernel is refused by the call that submits it: Stream::PackingTaskGroup
// (src/runtime/core/src/stream/stream.cc, called from AddTaskToStream)
// answers RT_ERROR_TASK_NOT_SUPPORT (507009) for any task but an AI Core or
// vector kernel (TaskTypeIsSupportTaskGroup, capture_adapt_v100.cc) before
// the task is added, and Stream::SetTaskGroupErrCode invalidates the capture
// and keeps the code, which Context::StreamEndTaskGrp
// (src/runtime/feature/aclgraph/context_aclgraph.cc) returns.  Event records
// and waits are tasks of the stream too (ApiImpl::CaptureEventRecord).
TEST_F(GraphCapture, ANonKernelTaskInATaskGroupIsRefusedByItsOwnCall) {
    Stream stream;
    DeviceBuffer device(64);
    CaptureEvent event;
    const struct {
        const char* what;
        std::function<aclError()> submit;
    } refused[] = {
        {"aclrtMemsetAsync", [&] { return aclrtMemsetAsync(device.get(), 64, 0, 64, stream.get()); }},
        {"aclrtRecordEvent", [&] { return aclrtRecordEvent(event.get(), stream.get()); }},
        {"aclrtLaunchHostFunc",
         [&] { return aclrtLaunchHostFunc(stream.get(), [](void*) {}, nullptr); }},
    };
    for (const auto& task : refused) {
        SCOPED_TRACE(task.what);
        ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
        ASSERT_ACL_OK(aclmdlRICaptureTaskGrpBegin(stream.get()));
        ASSERT_ACL_OK(aclcpu::enqueue(stream.get(), std::make_unique<KernelTask>()));
        take_error_message();
        EXPECT_EQ(ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, task.submit());
        EXPECT_NE(std::string::npos, take_error_message().find("task group"));
        aclrtTaskGrp group = reinterpret_cast<aclrtTaskGrp>(&group);
        EXPECT_ACL_FAILS(aclmdlRICaptureTaskGrpEnd(stream.get(), &group), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT);
        EXPECT_EQ(nullptr, group);
        expect_invalidated_end(stream.get());
    }
}

// Inside a task group, a task submitted to another stream of the capture is
// refused by its call with ACL_ERROR_STREAM_TASK_GROUP_INTR (107034):
// Stream::AllocCaptureTaskWithoutLock (src/runtime/feature/aclgraph/
// stream_capture.cc) checks Stream::IsTaskGroupBreak -- the stream's capture
// has no group of its own while the model records one -- before it allocates
// the task, and records the code as above.  A kernel is refused as well.
TEST_F(GraphCapture, ATaskOnAnotherCapturedStreamInATaskGroupIsRefused) {
    Stream origin;
    Stream side;
    CaptureEvent fork;
    DeviceBuffer device(64);
    const struct {
        const char* what;
        std::function<aclError()> submit;
    } refused[] = {
        {"kernel", [&] { return aclcpu::enqueue(side.get(), std::make_unique<KernelTask>()); }},
        {"aclrtMemsetAsync", [&] { return aclrtMemsetAsync(device.get(), 64, 0, 64, side.get()); }},
    };
    for (const auto& task : refused) {
        SCOPED_TRACE(task.what);
        ASSERT_ACL_OK(aclmdlRICaptureBegin(origin.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
        ASSERT_ACL_OK(aclrtRecordEvent(fork.get(), origin.get()));
        ASSERT_ACL_OK(aclrtStreamWaitEvent(side.get(), fork.get()));
        ASSERT_ACL_OK(aclmdlRICaptureTaskGrpBegin(origin.get()));
        take_error_message();
        EXPECT_EQ(ACL_ERROR_STREAM_TASK_GROUP_INTR, task.submit());
        EXPECT_NE(std::string::npos, take_error_message().find("task group"));
        aclrtTaskGrp group = reinterpret_cast<aclrtTaskGrp>(&group);
        EXPECT_ACL_FAILS(aclmdlRICaptureTaskGrpEnd(origin.get(), &group), ACL_ERROR_STREAM_TASK_GROUP_INTR);
        EXPECT_EQ(nullptr, group);
        expect_invalidated_end(origin.get());
    }
    // Without a group the side stream's work is captured as usual.
    ASSERT_ACL_OK(aclmdlRICaptureBegin(origin.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_ACL_OK(aclrtRecordEvent(fork.get(), origin.get()));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(side.get(), fork.get()));
    ASSERT_ACL_OK(aclmdlRICaptureTaskGrpBegin(origin.get()));
    ASSERT_ACL_OK(aclcpu::enqueue(origin.get(), std::make_unique<KernelTask>()));
    aclrtTaskGrp group = nullptr;
    ASSERT_ACL_OK(aclmdlRICaptureTaskGrpEnd(origin.get(), &group));
    EXPECT_NE(nullptr, group);
    EXPECT_ACL_OK(aclrtMemsetAsync(device.get(), 64, 0, 64, side.get()));
    CaptureEvent join;
    ASSERT_ACL_OK(aclrtRecordEvent(join.get(), side.get()));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(origin.get(), join.get()));
    Model model;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(origin.get(), model.out()));
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(model.get(), origin.get()));
    EXPECT_ACL_OK(aclrtSynchronizeStream(origin.get()));
}

// 25-01 (107003): a capture begins on a stream of the current context's
// device, and a model replays on a stream of its own device.
TEST(GraphCaptureDevices, StreamsOfAnotherDeviceAreRefused) {
    DefaultEnvironment environment;
    ScopedEnv devices("ACLCPU_DEVICE_COUNT", std::string("2"));
    ASSERT_ACL_OK(aclInit(nullptr));
    ASSERT_ACL_OK(aclrtSetDevice(1));
    aclrtStream other = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&other));
    ASSERT_ACL_OK(aclrtSetDevice(0));
    EXPECT_ACL_FAILS(aclmdlRICaptureBegin(other, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_STREAM_CONTEXT);
    aclrtStream own = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&own));
    ASSERT_ACL_OK(aclmdlRICaptureBegin(own, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    aclmdlRI model = nullptr;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(own, &model));
    EXPECT_ACL_FAILS(aclmdlRIExecuteAsync(model, other), ACL_ERROR_RT_STREAM_CONTEXT);
    EXPECT_ACL_OK(aclmdlRIDestroy(model));
    EXPECT_ACL_OK(aclrtDestroyStream(own));
    EXPECT_ACL_OK(aclrtDestroyStream(other));
    EXPECT_ACL_OK(aclrtResetDevice(0));
    EXPECT_ACL_OK(aclrtResetDevice(1));
    EXPECT_ACL_OK(aclFinalize());
}

// Resetting the device ends its captures and destroys its models.
TEST_F(GraphCapture, ResettingTheDeviceEndsCapturesAndDestroysModels) {
    aclrtStream capturing = nullptr;
    aclrtStream replaying = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&capturing));
    ASSERT_ACL_OK(aclrtCreateStream(&replaying));
    ASSERT_ACL_OK(aclmdlRICaptureBegin(replaying, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    aclmdlRI model = nullptr;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(replaying, &model));
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, replaying));
    ASSERT_ACL_OK(aclmdlRICaptureBegin(capturing, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_ACL_OK(aclrtResetDevice(0));
    ASSERT_ACL_OK(aclrtSetDevice(0));
    EXPECT_ACL_FAILS(aclmdlRIExecuteAsync(model, nullptr), ACL_ERROR_RT_INVALID_HANDLE);
}

}  // namespace
}  // namespace aclcpu::test
