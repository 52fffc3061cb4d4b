// Streams: creation, ordering, synchronisation, queries, limits and threads.
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "runtime/runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

using StreamTest = RuntimeTest;

/// Streams per device on an A2, the default stream included.
constexpr int kStreamLimit = 1984;

TEST_F(StreamTest, CreateSubmitSynchronizeDestroy) {
    aclrtStream stream = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&stream));
    ASSERT_NE(nullptr, stream);
    DeviceBuffer buffer(4096);
    EXPECT_ACL_OK(aclrtMemsetAsync(buffer.get(), buffer.size(), 0x3C, buffer.size(), stream));
    EXPECT_ACL_OK(aclrtSynchronizeStream(stream));
    EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 0x3C), buffer.read());
    EXPECT_ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(StreamTest, CreateWithConfigAcceptsEveryFlag) {
    for (uint32_t flag : {0u, ACL_STREAM_FAST_LAUNCH, ACL_STREAM_FAST_SYNC, ACL_STREAM_HUGE,
                          ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC}) {
        SCOPED_TRACE(flag);
        aclrtStream stream = nullptr;
        ASSERT_ACL_OK(aclrtCreateStreamWithConfig(&stream, 0, flag));
        DeviceBuffer buffer(256);
        EXPECT_ACL_OK(aclrtMemsetAsync(buffer.get(), buffer.size(), 1, buffer.size(), stream));
        EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream, kBoundedWaitMs));
        EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 1), buffer.read());
        EXPECT_ACL_OK(aclrtDestroyStream(stream));
    }
}

TEST_F(StreamTest, NullStreamIsTheDefaultStream) {
    Gate gate;
    ASSERT_ACL_OK(gate.hold(nullptr));
    EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, stream_status(nullptr));
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(nullptr, kAbsenceWindowMs), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    gate.open();
    EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
    EXPECT_EQ(ACL_STREAM_STATUS_COMPLETE, stream_status(nullptr));
    EXPECT_FALSE(gate.expired());
}

TEST_F(StreamTest, DestroyingTheDefaultStreamIsRejected) {
    EXPECT_ACL_FAILS(aclrtDestroyStream(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
}

// Issue 29.13: every rts stream call validates a non-null handle first
// (RT_VALIDATE_AND_UNWRAP_OBJECT → ValidateStreamHandleForApi →
// runtime_handle_guard.cc ValidateInnerObject): a destroyed stream fails
// with RT_ERROR_INVALID_HANDLE (ACL_ERROR_RT_INVALID_HANDLE), the second
// destroy included.
TEST_F(StreamTest, ADestroyedStreamFailsTheHandleCheck) {
    aclrtStream stream = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&stream));
    ASSERT_ACL_OK(aclrtDestroyStream(stream));
    DeviceBuffer buffer(64);
    Event event;
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    int32_t id = 0;
    uint32_t priority = 0;
    EXPECT_ACL_FAILS(aclrtDestroyStream(stream), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtDestroyStreamForce(stream), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtSynchronizeStream(stream), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(stream, kBoundedWaitMs), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtStreamQuery(stream, &status), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtStreamGetId(stream, &id), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtStreamGetPriority(stream, &priority), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtMemsetAsync(buffer.get(), buffer.size(), 1, buffer.size(), stream),
                     ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtRecordEvent(event.get(), stream), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtStreamWaitEvent(stream, event.get()), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtStreamAbort(stream), ACL_ERROR_RT_INVALID_HANDLE);
    aclrtStreamAttrValue value{};
    EXPECT_ACL_FAILS(aclrtSetStreamAttribute(stream, ACL_STREAM_ATTR_PRIORITY, &value), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_PRIORITY, &value), ACL_ERROR_RT_INVALID_HANDLE);
}

TEST_F(StreamTest, QueryIsNotReadyWhileWorkIsPendingAndCompleteAfter) {
    Stream stream;
    EXPECT_EQ(ACL_STREAM_STATUS_COMPLETE, stream_status(stream.get()));
    Gate gate;
    ASSERT_ACL_OK(gate.hold(stream.get()));
    DeviceBuffer buffer(kMiB);
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), buffer.size(), 1, buffer.size(), stream.get()));
    ASSERT_TRUE(gate.wait_until_reached());
    // The stream is inside a running host function: still busy.
    EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, stream_status(stream.get()));
    gate.open();
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    EXPECT_EQ(ACL_STREAM_STATUS_COMPLETE, stream_status(stream.get()));
    EXPECT_FALSE(gate.expired());
}

TEST_F(StreamTest, SynchronizeWithTimeoutExpires) {
    Stream stream;
    Gate gate;
    ASSERT_ACL_OK(gate.hold(stream.get()));
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(stream.get(), kAbsenceWindowMs),
                     ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    gate.open();
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), -1));
    EXPECT_FALSE(gate.expired());
}

TEST_F(StreamTest, SynchronizingOneStreamDoesNotWaitForAnother) {
    Stream held;
    Stream idle;
    Gate gate;
    ASSERT_ACL_OK(gate.hold(held.get()));
    ASSERT_TRUE(gate.wait_until_reached());
    DeviceBuffer buffer(kMiB);
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), buffer.size(), 0x42, buffer.size(), idle.get()));
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(idle.get(), kBoundedWaitMs));
    EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 0x42), buffer.read());
    EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, stream_status(held.get()));
    gate.open();
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(held.get(), kBoundedWaitMs));
    EXPECT_FALSE(gate.expired());
}

TEST_F(StreamTest, DestroyDrainsPendingWork) {
    aclrtStream stream = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&stream));
    DeviceBuffer buffer(64 * kMiB);
    CallProbe probe;
    Gate gate;
    ASSERT_ACL_OK(gate.hold(stream));
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), buffer.size(), 0x77, buffer.size(), stream));
    ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, &CallProbe::record, &probe));
    // aclrtDestroyStream blocks until the queue drains, so the gate opens from elsewhere.
    std::thread opener([&gate] { gate.open(); });
    EXPECT_ACL_OK(aclrtDestroyStream(stream));
    opener.join();
    EXPECT_EQ(1, probe.calls.load());
    EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 0x77), buffer.read());
    EXPECT_FALSE(gate.expired());
}

TEST_F(StreamTest, WorkOnOneStreamRunsInSubmissionOrder) {
    // Every step reads what the previous one wrote, on 64 MiB buffers, all
    // queued behind a gate before any of them runs.
    const size_t size = 64 * kMiB;
    const size_t half = size / 2;
    Stream stream;
    DeviceBuffer a(size);
    DeviceBuffer b(size);
    PinnedBuffer source(size);
    ASSERT_NE(nullptr, source.bytes());
    std::memset(source.bytes(), 0x5E, size);
    Gate gate;
    ASSERT_ACL_OK(gate.hold(stream.get()));
    const aclrtStream s = stream.get();
    ASSERT_ACL_OK(aclrtMemsetAsync(a.get(), size, 0x11, size, s));                              // a = 11
    ASSERT_ACL_OK(aclrtMemcpyAsync(b.get(), size, a.get(), size, ACL_MEMCPY_DEVICE_TO_DEVICE, s));  // b = 11
    ASSERT_ACL_OK(aclrtMemsetAsync(a.get(), size, 0x22, size, s));                              // a = 22
    ASSERT_ACL_OK(aclrtMemcpyAsync(a.bytes(), half, b.bytes() + half, half, ACL_MEMCPY_DEVICE_TO_DEVICE,
                                   s));                                                          // a = 11|22
    ASSERT_ACL_OK(aclrtMemcpyAsync(b.get(), size, source.bytes(), size, ACL_MEMCPY_HOST_TO_DEVICE, s));  // b = 5E
    ASSERT_ACL_OK(aclrtMemcpyAsync(b.bytes() + half, half, a.bytes(), half, ACL_MEMCPY_DEVICE_TO_DEVICE,
                                   s));                                                          // b = 5E|11
    ASSERT_ACL_OK(aclrtMemcpyAsync(source.bytes(), size, b.get(), size, ACL_MEMCPY_DEVICE_TO_HOST, s));
    gate.open();
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s, kBoundedWaitMs));

    std::vector<uint8_t> expectedA(size, 0x22);
    std::memset(expectedA.data(), 0x11, half);
    std::vector<uint8_t> expectedB(size, 0x11);
    std::memset(expectedB.data(), 0x5E, half);
    EXPECT_TRUE(a.read() == expectedA);
    EXPECT_TRUE(b.read() == expectedB);
    EXPECT_EQ(0, std::memcmp(source.bytes(), expectedB.data(), size));
    EXPECT_FALSE(gate.expired());
}

TEST_F(StreamTest, AThousandStreamsWorkIndependently) {
    constexpr int kStreams = 1000;
    constexpr size_t kSlot = 64;
    DeviceBuffer buffer(kStreams * kSlot);
    std::vector<aclrtStream> streams(kStreams, nullptr);
    for (int i = 0; i < kStreams; ++i) {
        ASSERT_ACL_OK(aclrtCreateStream(&streams[i])) << "stream " << i;
        ASSERT_ACL_OK(aclrtMemsetAsync(buffer.bytes() + i * kSlot, kSlot, i % 251, kSlot, streams[i]));
    }
    for (aclrtStream stream : streams) EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream, kBoundedWaitMs));
    const std::vector<uint8_t> contents = buffer.read();
    for (int i = 0; i < kStreams; ++i) {
        EXPECT_EQ(std::vector<uint8_t>(kSlot, static_cast<uint8_t>(i % 251)),
                  std::vector<uint8_t>(contents.begin() + i * kSlot, contents.begin() + (i + 1) * kSlot))
            << "stream " << i;
    }
    for (aclrtStream stream : streams) EXPECT_ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(StreamTest, StreamLimitCountsTheDefaultStreamAndIsRecoverable) {
    std::vector<aclrtStream> streams;
    aclError failure = ACL_SUCCESS;
    std::string message;
    while (streams.size() < kStreamLimit) {
        aclrtStream stream = nullptr;
        failure = ACLCPU_FRESH_CALL(aclrtCreateStream(&stream));
        if (failure != ACL_SUCCESS) {
            message = take_error_message();
            break;
        }
        streams.push_back(stream);
    }
    EXPECT_EQ(static_cast<size_t>(kStreamLimit - 1), streams.size());
    EXPECT_EQ(ACL_ERROR_RT_NO_STREAM_RESOURCE, failure);
    EXPECT_FALSE(message.empty());

    // One stream freed, one stream available again; the others still work.
    ASSERT_FALSE(streams.empty());
    EXPECT_ACL_OK(aclrtDestroyStream(streams.back()));
    EXPECT_ACL_OK(aclrtCreateStream(&streams.back()));
    DeviceBuffer buffer(256);
    EXPECT_ACL_OK(aclrtMemsetAsync(buffer.get(), buffer.size(), 2, buffer.size(), streams.front()));
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(streams.front(), kBoundedWaitMs));
    EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 2), buffer.read());
    for (aclrtStream stream : streams) EXPECT_ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(StreamTest, EightHostThreadsEachDriveTheirOwnStream) {
    constexpr int kThreads = 8;
    constexpr int kRounds = 32;
    constexpr size_t kSlot = 4096;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([t] {
            ASSERT_ACL_OK(aclrtSetDevice(0));
            {
                Stream stream;
                DeviceBuffer scratch(kSlot);
                DeviceBuffer slots(kRounds * kSlot);
                // Round r's copy must see round r's memset, not a later one.
                for (int r = 0; r < kRounds; ++r) {
                    const int value = (t * kRounds + r) % 256;
                    ASSERT_ACL_OK(aclrtMemsetAsync(scratch.get(), kSlot, value, kSlot, stream.get()));
                    ASSERT_ACL_OK(aclrtMemcpyAsync(slots.bytes() + r * kSlot, kSlot, scratch.get(), kSlot,
                                                   ACL_MEMCPY_DEVICE_TO_DEVICE, stream.get()));
                }
                ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
                const std::vector<uint8_t> contents = slots.read();
                for (int r = 0; r < kRounds; ++r) {
                    const auto value = static_cast<uint8_t>((t * kRounds + r) % 256);
                    EXPECT_EQ(std::vector<uint8_t>(kSlot, value),
                              std::vector<uint8_t>(contents.begin() + r * kSlot, contents.begin() + (r + 1) * kSlot))
                        << "thread " << t << " round " << r;
                }
            }
            EXPECT_ACL_OK(aclrtResetDevice(0));
        });
    }
    for (std::thread& thread : threads) thread.join();
}

}  // namespace
}  // namespace aclcpu::test
