// Stress: aclrtStreamAbort against a host thread blocked in a
// synchronisation of the aborted stream, a thousand times over.
//
// CANN's Context::StreamAbort (src/runtime/core/src/context/context.cc) sets
// the stream's abort status first, and every host wait loop on the stream
// (Stream::SynchronizeExecutedTask, Stream::StarsWaitForTask in
// src/runtime/core/src/stream/stream.cc; Event::Synchronize through the
// recording stream's waits in src/runtime/core/src/event/event.cc) returns
// RT_ERROR_STREAM_ABORT (107023) on its next pass; the wait task the stream
// is blocked on is killed with the rest of its tasks.  Each round holds the
// stream with one of the wait tasks (a notify wait, a device-word wait, an
// event wait), blocks a thread in aclrtSynchronizeStream or
// aclrtSynchronizeEvent on it, aborts the stream once that thread sleeps,
// and checks that the wait returns 107023 and that the stream runs new work
// afterwards.  The rounds race the abort against the waiter's sleep, its
// wake-up and the wait task's arming; ThreadSanitizer runs them too.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclcpu_testkit/blocked_call.hpp"
#include "stress/stress_watchdog.hpp"

namespace {

constexpr int kRounds = 1000;
constexpr int32_t kBoundedWaitMs = 30000;
constexpr size_t kBytes = 256;

/// What holds the aborted stream in a round.
enum class Hold { kNotifyWait, kValueWait, kEventWait, kCount };

/// The objects the rounds share: the aborted stream, a helper stream whose
/// record an event wait waits for, and what the holds wait on.
class AbortRig {
public:
    AbortRig() {
        EXPECT_EQ(ACL_SUCCESS, aclrtCreateStream(&stream_));
        EXPECT_EQ(ACL_SUCCESS, aclrtCreateStream(&helper_));
        EXPECT_EQ(ACL_SUCCESS, aclrtCreateNotify(&notify_, ACL_NOTIFY_DEFAULT));
        EXPECT_EQ(ACL_SUCCESS, aclrtCreateNotify(&helperNotify_, ACL_NOTIFY_DEFAULT));
        EXPECT_EQ(ACL_SUCCESS, aclrtCreateEvent(&helperEvent_));
        EXPECT_EQ(ACL_SUCCESS, aclrtCreateEvent(&streamEvent_));
        EXPECT_EQ(ACL_SUCCESS, aclrtMalloc(&word_, sizeof(uint64_t), ACL_MEM_MALLOC_HUGE_FIRST));
        EXPECT_EQ(ACL_SUCCESS, aclrtMalloc(&buffer_, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
        EXPECT_EQ(ACL_SUCCESS, aclrtMemset(word_, sizeof(uint64_t), 0, sizeof(uint64_t)));
    }
    ~AbortRig() {
        EXPECT_EQ(ACL_SUCCESS, aclrtFree(buffer_));
        EXPECT_EQ(ACL_SUCCESS, aclrtFree(word_));
        EXPECT_EQ(ACL_SUCCESS, aclrtDestroyEvent(streamEvent_));
        EXPECT_EQ(ACL_SUCCESS, aclrtDestroyEvent(helperEvent_));
        EXPECT_EQ(ACL_SUCCESS, aclrtDestroyNotify(helperNotify_));
        EXPECT_EQ(ACL_SUCCESS, aclrtDestroyNotify(notify_));
        EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(helper_));
        EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(stream_));
    }
    AbortRig(const AbortRig&) = delete;
    AbortRig& operator=(const AbortRig&) = delete;

    /// Holds the stream with a wait nobody satisfies, queues a memset behind
    /// it and records streamEvent_ after that.
    void hold(Hold hold) {
        switch (hold) {
            case Hold::kNotifyWait:
                ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(notify_, stream_, 0));
                break;
            case Hold::kValueWait:
                ASSERT_EQ(ACL_SUCCESS, aclrtValueWait(word_, 1, ACL_STREAM_WAIT_VALUE_EQ, stream_));
                break;
            case Hold::kEventWait:
                ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(helperNotify_, helper_, 0));
                ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(helperEvent_, helper_));
                ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(stream_, helperEvent_));
                break;
            case Hold::kCount:
                break;
        }
        ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(buffer_, kBytes, 0x5A, kBytes, stream_));
        ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(streamEvent_, stream_));
    }

    /// Satisfies every hold: frees a waiter the abort failed to free, and
    /// the helper stream after an event wait.
    void release() const {
        const uint64_t one = 1;
        EXPECT_EQ(ACL_SUCCESS, aclrtRecordNotify(notify_, nullptr));
        EXPECT_EQ(ACL_SUCCESS, aclrtRecordNotify(helperNotify_, nullptr));
        EXPECT_EQ(ACL_SUCCESS, aclrtMemcpy(word_, sizeof one, &one, sizeof one, ACL_MEMCPY_HOST_TO_DEVICE));
    }

    /// Ends the round: the helper stream and the device word go back to
    /// their initial state, and the stream must run new work.  A waiter on
    /// the event left the abort to the stream's next synchronisation to report.
    void reset(Hold hold, bool waitedOnEvent) {
        if (waitedOnEvent) {
            EXPECT_EQ(ACL_ERROR_RT_STREAM_ABORT, aclrtSynchronizeStreamWithTimeout(stream_, kBoundedWaitMs));
        }
        if (hold == Hold::kEventWait) {
            EXPECT_EQ(ACL_SUCCESS, aclrtRecordNotify(helperNotify_, nullptr));
            EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStreamWithTimeout(helper_, kBoundedWaitMs));
        }
        EXPECT_EQ(ACL_SUCCESS, aclrtMemset(word_, sizeof(uint64_t), 0, sizeof(uint64_t)));
        EXPECT_EQ(ACL_SUCCESS, aclrtMemsetAsync(buffer_, kBytes, 0x11, kBytes, stream_));
        EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStreamWithTimeout(stream_, kBoundedWaitMs)) << aclGetRecentErrMsg();
        std::vector<uint8_t> bytes(kBytes);
        EXPECT_EQ(ACL_SUCCESS, aclrtMemcpy(bytes.data(), kBytes, buffer_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
        EXPECT_EQ(std::vector<uint8_t>(kBytes, 0x11), bytes);
    }

    aclrtStream stream() const { return stream_; }
    aclrtEvent stream_event() const { return streamEvent_; }

private:
    aclrtStream stream_ = nullptr;
    aclrtStream helper_ = nullptr;
    aclrtNotify notify_ = nullptr;
    aclrtNotify helperNotify_ = nullptr;
    aclrtEvent helperEvent_ = nullptr;
    aclrtEvent streamEvent_ = nullptr;
    void* word_ = nullptr;
    void* buffer_ = nullptr;
};

TEST(Stress, StreamAbortWakesABlockedWaiterEveryTime) {
    ASSERT_EQ(ACL_SUCCESS, aclInit(nullptr));
    ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
    std::atomic<uint64_t> heartbeat{0};
    int asleep = 0;
    int failures = 0;
    const auto start = std::chrono::steady_clock::now();
    {
        const aclcpu::test::Watchdog watchdog("abort stress", heartbeat);
        AbortRig rig;
        for (int round = 0; round < kRounds && failures < 10; ++round, heartbeat.fetch_add(1)) {
            const auto hold = static_cast<Hold>(round % static_cast<int>(Hold::kCount));
            const bool onEvent = (round / static_cast<int>(Hold::kCount)) % 2 == 1;
            ASSERT_NO_FATAL_FAILURE(rig.hold(hold));
            aclError status = ACL_SUCCESS;
            {
                aclcpu::testkit::BlockedCall waiter([&rig, onEvent] {
                    return onEvent ? aclrtSynchronizeEvent(rig.stream_event()) : aclrtSynchronizeStream(rig.stream());
                });
                if (waiter.wait_until_asleep(std::chrono::milliseconds(kBoundedWaitMs))) ++asleep;
                EXPECT_EQ(ACL_SUCCESS, aclrtStreamAbort(rig.stream()));
                if (!waiter.wait_for_return(std::chrono::milliseconds(kBoundedWaitMs), status)) {
                    ADD_FAILURE() << "round " << round << ": the waiter was still blocked " << kBoundedWaitMs
                                  << " ms after aclrtStreamAbort";
                    rig.release();
                    ASSERT_TRUE(waiter.wait_for_return(std::chrono::milliseconds(kBoundedWaitMs), status));
                }
            }
            if (status != ACL_ERROR_RT_STREAM_ABORT) {
                ++failures;
                ADD_FAILURE() << "round " << round << ": the waiter returned " << status << ", not 107023";
                rig.release();
            }
            rig.reset(hold, onEvent);
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("abort stress: %d rounds, the waiter seen asleep before the abort in %d, in %.1f s\n", kRounds, asleep,
                seconds);
    EXPECT_EQ(0, failures);
    EXPECT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
    EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

}  // namespace
