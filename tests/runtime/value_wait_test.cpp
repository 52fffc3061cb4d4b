// aclrtValueWrite / aclrtValueWait: a stream writes a device word, or waits
// until one satisfies a comparison.  Behaviour from CANN's
// docs/zh/api_ref/11-09_stream_memory_operation.md; the timeout from
// 07_event_management.md, aclrtSetOpWaitTimeout.
#include <atomic>
#include <cstdlib>
#include <future>
#include <thread>
#include <vector>

#include "runtime/runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

using ValueWaitTest = RuntimeTest;

/// One 64-bit device word, set from the host.
class DeviceWord {
public:
    explicit DeviceWord(uint64_t initial) : buffer_(sizeof(uint64_t)) { set(initial); }
    void* get() const { return buffer_.get(); }
    void set(uint64_t value) const {
        EXPECT_ACL_OK(aclrtMemcpy(buffer_.get(), sizeof value, &value, sizeof value, ACL_MEMCPY_HOST_TO_DEVICE));
    }
    uint64_t value() const {
        uint64_t value = 0;
        EXPECT_ACL_OK(aclrtMemcpy(&value, sizeof value, buffer_.get(), sizeof value, ACL_MEMCPY_DEVICE_TO_HOST));
        return value;
    }

private:
    DeviceBuffer buffer_;
};

// 11-09, aclrtValueWrite: writes the 64-bit value in stream order.
TEST_F(ValueWaitTest, WriteStoresTheWordInStreamOrder) {
    Stream stream;
    DeviceWord word(0);
    Gate gate;
    ASSERT_ACL_OK(gate.hold(stream.get()));
    ASSERT_ACL_OK(aclrtValueWrite(word.get(), 0x0123456789ABCDEFull, 0, stream.get()));
    EXPECT_EQ(0u, word.value());
    gate.open();
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    EXPECT_EQ(0x0123456789ABCDEFull, word.value());
    // NULL: the default stream.
    ASSERT_ACL_OK(aclrtValueWrite(word.get(), 5, 0, nullptr));
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(nullptr, kBoundedWaitMs));
    EXPECT_EQ(5u, word.value());
}

// 11-09, aclrtValueWait: the stream waits for another stream's aclrtValueWrite.
TEST_F(ValueWaitTest, WaitHoldsTheStreamUntilAnotherStreamWrites) {
    DeviceWord word(0);
    expect_consumer_waits_for_producer([&](aclrtStream producer, aclrtStream consumer) {
        ASSERT_ACL_OK(aclrtValueWrite(word.get(), 7, 0, producer));
        ASSERT_ACL_OK(aclrtValueWait(word.get(), 7, ACL_STREAM_WAIT_VALUE_EQ, consumer));
    });
}

// 11-09: the waiting stream goes on once the word satisfies the wait, so
// what the writing stream did before aclrtValueWrite is there for it to
// read, however the waiting stream learns of the write (here mostly by
// polling: nothing holds the writer back).  Under ThreadSanitizer this also
// checks that the hand-over is a synchronisation TSan can see.
TEST_F(ValueWaitTest, WorkBeforeTheWriteIsVisibleAfterTheWait) {
    constexpr size_t kBytes = 4096;
    Stream producer;
    Stream consumer;
    DeviceBuffer source(kBytes);
    DeviceBuffer target(kBytes);
    DeviceWord word(0);
    for (uint64_t round = 1; round <= 256; ++round) {
        const auto fill = static_cast<uint8_t>(round);
        ASSERT_ACL_OK(aclrtMemsetAsync(source.get(), kBytes, fill, kBytes, producer.get()));
        ASSERT_ACL_OK(aclrtValueWrite(word.get(), round, 0, producer.get()));
        ASSERT_ACL_OK(aclrtValueWait(word.get(), round, ACL_STREAM_WAIT_VALUE_EQ, consumer.get()));
        ASSERT_ACL_OK(aclrtMemcpyAsync(target.get(), kBytes, source.get(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE,
                                       consumer.get()));
        ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(consumer.get(), kBoundedWaitMs));
        ASSERT_EQ(std::vector<uint8_t>(kBytes, fill), target.read()) << "round " << round;
    }
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(producer.get(), kBoundedWaitMs));
}

// CANN's example 1_basic_features/memory/9_multistream_sync_memory as a test:
// a thread sets the device, waits on stream A for a word of fresh aclrtMalloc
// memory to equal 100 and synchronises stream A; another thread, once that
// wait is queued, raises a flag, sets the device and writes 100 on stream B.
// Stream A's synchronisation returns only after the write, so the waiting
// thread sees the flag (the example's README: "Flag value read by the
// waiting thread: 123").
TEST_F(ValueWaitTest, TheMultiStreamExamplesWaiterSeesTheWritersFlag) {
    void* word = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&word, size_t{1} << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtStream streamA = nullptr;
    aclrtStream streamB = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&streamA));
    ASSERT_ACL_OK(aclrtCreateStream(&streamB));
    std::atomic<int32_t> flag{0};
    std::promise<void> waitQueued;
    aclError waitStatus = ACL_SUCCESS;
    aclError syncStatus = ACL_SUCCESS;
    int32_t seen = -1;
    std::thread waiter([&] {
        waitStatus = aclrtSetDevice(0);
        if (waitStatus == ACL_SUCCESS) waitStatus = aclrtValueWait(word, 100, ACL_STREAM_WAIT_VALUE_EQ, streamA);
        waitQueued.set_value();
        syncStatus = aclrtSynchronizeStreamWithTimeout(streamA, kBoundedWaitMs);
        seen = flag.load();
    });
    waitQueued.get_future().wait();
    aclError writeStatus = ACL_SUCCESS;
    std::thread writer([&] {
        flag.store(123);
        writeStatus = aclrtSetDevice(0);
        if (writeStatus == ACL_SUCCESS) writeStatus = aclrtValueWrite(word, 100, 0, streamB);
        if (writeStatus == ACL_SUCCESS) writeStatus = aclrtSynchronizeStreamWithTimeout(streamB, kBoundedWaitMs);
    });
    writer.join();
    waiter.join();
    EXPECT_ACL_OK(waitStatus);
    EXPECT_ACL_OK(writeStatus);
    EXPECT_ACL_OK(syncStatus);
    EXPECT_EQ(123, seen);
    EXPECT_ACL_OK(aclrtDestroyStreamForce(streamA));
    EXPECT_ACL_OK(aclrtDestroyStreamForce(streamB));
    EXPECT_ACL_OK(aclrtFree(word));
}

// 11-09, aclrtValueWait: a word the host writes with aclrtMemcpy releases the wait too.
TEST_F(ValueWaitTest, WaitSeesAHostWrite) {
    Stream stream;
    DeviceWord word(1);
    ASSERT_ACL_OK(aclrtValueWait(word.get(), 5, ACL_STREAM_WAIT_VALUE_GEQ, stream.get()));
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(stream.get(), kAbsenceWindowMs),
                     ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    word.set(6);
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
}

// 11-09, aclrtValueWait's flag: GEQ (int64_t)(*devAddr - value) >= 0, EQ,
// AND (*devAddr & value) != 0, NOR ~(*devAddr | value) != 0.
TEST_F(ValueWaitTest, ComparisonsFollowTheDocumentedFormulas) {
    struct Case {
        uint64_t current;
        uint64_t value;
        uint32_t flag;
        bool passes;
    };
    const std::vector<Case> cases = {
        {5, 5, ACL_STREAM_WAIT_VALUE_GEQ, true},
        {4, 5, ACL_STREAM_WAIT_VALUE_GEQ, false},
        // The difference is taken modulo 2^64, then read as signed.
        {0, UINT64_MAX, ACL_STREAM_WAIT_VALUE_GEQ, true},
        {UINT64_MAX, 0, ACL_STREAM_WAIT_VALUE_GEQ, false},
        {9, 9, ACL_STREAM_WAIT_VALUE_EQ, true},
        {9, 8, ACL_STREAM_WAIT_VALUE_EQ, false},
        {0b0110, 0b0100, ACL_STREAM_WAIT_VALUE_AND, true},
        {0b0110, 0b1001, ACL_STREAM_WAIT_VALUE_AND, false},
        {0, 0, ACL_STREAM_WAIT_VALUE_NOR, true},
        {UINT64_MAX << 1, 1, ACL_STREAM_WAIT_VALUE_NOR, false},
    };
    Stream stream;
    for (const Case& c : cases) {
        SCOPED_TRACE(::testing::Message() << "current " << c.current << " value " << c.value << " flag " << c.flag);
        DeviceWord word(c.current);
        ASSERT_ACL_OK(aclrtValueWait(word.get(), c.value, c.flag, stream.get()));
        if (c.passes) {
            EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
            continue;
        }
        EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(stream.get(), kAbsenceWindowMs),
                         ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
        // Release the stream with a word that passes every comparison against value.
        word.set(c.flag == ACL_STREAM_WAIT_VALUE_NOR ? 0 : c.value);
        EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    }
}

// 07, aclrtSetOpWaitTimeout: a wait longer than the timeout fails, reported
// by the next synchronisation; the stream then runs on.
TEST_F(ValueWaitTest, OpWaitTimeoutEndsAWaitThatNeverPasses) {
    Stream stream;
    DeviceWord word(0);
    ASSERT_ACL_OK(aclrtSetOpWaitTimeout(1));
    ASSERT_ACL_OK(aclrtValueWait(word.get(), 1, ACL_STREAM_WAIT_VALUE_EQ, stream.get()));
    ASSERT_ACL_OK(aclrtSetOpWaitTimeout(0));
    ASSERT_ACL_OK(aclrtValueWrite(word.get(), 2, 0, stream.get()));
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs), ACL_ERROR_RT_TASK_TIMEOUT);
    EXPECT_EQ(2u, word.value());
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
}

// 11-09 and CANN's source: a null devAddr is refused by the acl layer
// (src/acl/aclrt_impl/memory.cpp, aclrtValueWriteImpl / aclrtValueWaitImpl:
// 100000); the flag -- aclrtValueWrite's reserved 0, aclrtValueWait's four
// comparisons (MEM_WAIT_VALUE_TYPE_MAX is 4) -- and memory that is not
// device memory are refused by the rts layer (src/runtime/api/impl/
// api_error.cc, ApiErrorDecorator::MemWriteValue / MemWaitValue:
// RT_ERROR_INVALID_VALUE, 107000).  The emulated word must also be 8-byte
// aligned.
TEST_F(ValueWaitTest, RejectsBadArguments) {
    DeviceWord word(0);
    DeviceBuffer buffer(64);
    uint64_t hostWord = 0;
    EXPECT_ACL_FAILS(aclrtValueWrite(nullptr, 1, 0, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtValueWait(nullptr, 1, ACL_STREAM_WAIT_VALUE_EQ, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtValueWrite(&hostWord, 1, 0, nullptr), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtValueWait(&hostWord, 1, ACL_STREAM_WAIT_VALUE_EQ, nullptr), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtValueWrite(word.get(), 1, 1, nullptr), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtValueWait(word.get(), 1, ACL_STREAM_WAIT_VALUE_NOR + 1, nullptr),
                     ACL_ERROR_RT_PARAM_INVALID);
    // The flag is checked before the memory.
    EXPECT_ACL_FAILS(aclrtValueWrite(&hostWord, 1, 1, nullptr), ACL_ERROR_RT_PARAM_INVALID);
    void* unaligned = buffer.bytes() + 4;
    EXPECT_ACL_FAILS(aclrtValueWrite(unaligned, 1, 0, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtValueWait(unaligned, 1, ACL_STREAM_WAIT_VALUE_EQ, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtValueWrite(word.get(), 1, 0, reinterpret_cast<aclrtStream>(&hostWord)));
}

// Under TSan: many streams each wait for their own word while one stream
// writes them all in reverse order; every waiter ends after its write.
TEST_F(ValueWaitTest, ManyWaitersReleasedByOneWriter) {
    constexpr int kWaiters = 8;
    Stream writer;
    std::vector<std::unique_ptr<Stream>> waiters;
    std::vector<std::unique_ptr<DeviceWord>> words;
    DeviceBuffer marks(kWaiters);
    marks.fill(0);
    for (int i = 0; i < kWaiters; ++i) {
        waiters.push_back(std::make_unique<Stream>());
        words.push_back(std::make_unique<DeviceWord>(0));
        ASSERT_ACL_OK(aclrtValueWait(words[i]->get(), 1, ACL_STREAM_WAIT_VALUE_EQ, waiters[i]->get()));
        ASSERT_ACL_OK(aclrtMemsetAsync(marks.bytes() + i, 1, i + 1, 1, waiters[i]->get()));
    }
    for (int i = kWaiters - 1; i >= 0; --i) ASSERT_ACL_OK(aclrtValueWrite(words[i]->get(), 1, 0, writer.get()));
    std::vector<uint8_t> expected;
    for (int i = 0; i < kWaiters; ++i) {
        ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(waiters[i]->get(), kBoundedWaitMs));
        expected.push_back(static_cast<uint8_t>(i + 1));
    }
    EXPECT_EQ(expected, marks.read());
}

}  // namespace
}  // namespace aclcpu::test
