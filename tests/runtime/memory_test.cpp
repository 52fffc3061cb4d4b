// Device and host memory: allocation, copies, sets, capacity accounting.
#include <chrono>
#include <cstdint>
#include <cstring>
#include <future>
#include <limits>
#include <thread>
#include <vector>

#include "runtime/runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

using MemoryTest = RuntimeTest;

constexpr uint64_t kDefaultHbmBytes = uint64_t{64} << 30;

bool aligned_to(const void* ptr, uintptr_t alignment) { return reinterpret_cast<uintptr_t>(ptr) % alignment == 0; }

/// Bytes 0, 1, 2, ... modulo 251: a prime period, so no power-of-two shift of the pattern matches it.
std::vector<uint8_t> pattern(size_t size) {
    std::vector<uint8_t> bytes(size);
    for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<uint8_t>(i % 251);
    return bytes;
}

struct MemInfo {
    size_t free = 0;
    size_t total = 0;
};

MemInfo hbm_info() {
    MemInfo info;
    EXPECT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &info.free, &info.total));
    return info;
}

// The documentation promises 64-byte aligned blocks; CANN's runtime asks the
// driver for 512 (MEM_SET_ALIGN_SIZE(9) on every device allocation of
// src/runtime/driver/npu_driver_mem.cc), and programs rely on it: ggml's CANN
// buffers assume 128-byte aligned bases.
TEST_F(MemoryTest, MallocIs512ByteAlignedForEverySize) {
    for (size_t size : {size_t{1}, size_t{31}, size_t{33}, size_t{1000}, size_t{4096}, size_t{3} * kMiB + 5}) {
        SCOPED_TRACE(size);
        DeviceBuffer buffer(size);
        ASSERT_NE(nullptr, buffer.get());
        EXPECT_TRUE(aligned_to(buffer.get(), 512));
        // The whole requested range is usable.
        EXPECT_ACL_OK(aclrtMemset(buffer.get(), size, 0xA5, size));
        EXPECT_EQ(std::vector<uint8_t>(size, 0xA5), buffer.read());
    }
}

TEST_F(MemoryTest, MallocAcceptsEveryPolicy) {
    for (aclrtMemMallocPolicy policy :
         {ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_HUGE_ONLY, ACL_MEM_MALLOC_NORMAL_ONLY,
          ACL_MEM_MALLOC_HUGE_FIRST_P2P, ACL_MEM_MALLOC_HUGE_ONLY_P2P, ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
          ACL_MEM_MALLOC_HUGE1G_ONLY, ACL_MEM_MALLOC_HUGE1G_ONLY_P2P, ACL_MEM_TYPE_LOW_BAND_WIDTH,
          ACL_MEM_TYPE_HIGH_BAND_WIDTH, ACL_MEM_ACCESS_USER_SPACE_READONLY}) {
        SCOPED_TRACE(static_cast<int>(policy));
        void* ptr = nullptr;
        ASSERT_ACL_OK(aclrtMalloc(&ptr, 4096, policy));
        EXPECT_TRUE(aligned_to(ptr, 64));
        EXPECT_ACL_OK(aclrtFree(ptr));
    }
}

TEST_F(MemoryTest, CachedAndAlign32VariantsAllocate) {
    void* cached = nullptr;
    void* align32 = nullptr;
    ASSERT_ACL_OK(aclrtMallocCached(&cached, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtMallocAlign32(&align32, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_TRUE(aligned_to(cached, 64));
    EXPECT_TRUE(aligned_to(align32, 32));
    EXPECT_NE(cached, align32);
    EXPECT_ACL_OK(aclrtFree(cached));
    EXPECT_ACL_OK(aclrtFree(align32));
}

TEST_F(MemoryTest, MallocRejectsZeroSizeAndNullOutput) {
    void* ptr = nullptr;
    EXPECT_ACL_FAILS(aclrtMalloc(&ptr, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(nullptr, ptr);
    EXPECT_ACL_FAILS(aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMallocHost(&ptr, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMallocHost(nullptr, 64), ACL_ERROR_INVALID_PARAM);
}

TEST_F(MemoryTest, FreeRejectsNullForeignAndFreedPointers) {
    EXPECT_ACL_FAILS(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtFreeHost(nullptr), ACL_ERROR_INVALID_PARAM);
    std::vector<uint8_t> host(256);
    EXPECT_ACL_FAILS(aclrtFree(host.data()));
    void* ptr = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&ptr, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_ACL_FAILS(aclrtFree(static_cast<uint8_t*>(ptr) + 64));  // inside, not the start
    EXPECT_ACL_OK(aclrtFree(ptr));
    EXPECT_ACL_FAILS(aclrtFree(ptr));  // double free
    // Still usable afterwards.
    DeviceBuffer buffer(4096);
    EXPECT_ACL_OK(aclrtMemset(buffer.get(), buffer.size(), 1, buffer.size()));
}

TEST_F(MemoryTest, PinnedHostMemoryIsAlignedAndUsable) {
    PinnedBuffer host(10000);
    ASSERT_NE(nullptr, host.bytes());
    EXPECT_TRUE(aligned_to(host.bytes(), 64));
    std::memset(host.bytes(), 0x6B, host.size());
    EXPECT_EQ(0x6B, host.bytes()[host.size() - 1]);
}

TEST_F(MemoryTest, MemcpyRoundTripsThroughEveryKind) {
    const size_t size = 3 * 4096 + 17;
    const std::vector<uint8_t> input = pattern(size);
    DeviceBuffer first(size);
    DeviceBuffer second(size);
    PinnedBuffer pinned(size);
    std::vector<uint8_t> output(size, 0);

    ASSERT_ACL_OK(aclrtMemcpy(pinned.bytes(), size, input.data(), size, ACL_MEMCPY_HOST_TO_HOST));
    ASSERT_ACL_OK(aclrtMemcpy(first.get(), size, pinned.bytes(), size, ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_ACL_OK(aclrtMemcpy(second.get(), size, first.get(), size, ACL_MEMCPY_DEVICE_TO_DEVICE));
    ASSERT_ACL_OK(aclrtMemcpy(output.data(), size, second.get(), size, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT_TRUE(output == input);

    std::vector<uint8_t> viaDefault(size, 0);
    ASSERT_ACL_OK(aclrtMemset(first.get(), size, 0, size));
    ASSERT_ACL_OK(aclrtMemcpy(first.get(), size, input.data(), size, ACL_MEMCPY_DEFAULT));
    ASSERT_ACL_OK(aclrtMemcpy(viaDefault.data(), size, first.get(), size, ACL_MEMCPY_DEFAULT));
    EXPECT_TRUE(viaDefault == input);

    ASSERT_ACL_OK(aclrtMemset(first.get(), size, 0, size));
    ASSERT_ACL_OK(aclrtMemcpy(first.get(), size, input.data(), size, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE));
    EXPECT_TRUE(first.read() == input);
}

TEST_F(MemoryTest, MemcpyOfZeroBytesSucceedsAndTouchesNothing) {
    DeviceBuffer buffer(64);
    ASSERT_ACL_OK(aclrtMemset(buffer.get(), 64, 0x33, 64));
    const std::vector<uint8_t> source(64, 0x44);
    EXPECT_ACL_OK(aclrtMemcpy(buffer.get(), 64, source.data(), 0, ACL_MEMCPY_HOST_TO_DEVICE));
    EXPECT_ACL_OK(aclrtMemcpyAsync(buffer.get(), 64, source.data(), 0, ACL_MEMCPY_HOST_TO_DEVICE, nullptr));
    EXPECT_ACL_OK(aclrtMemset(buffer.get(), 64, 0x55, 0));
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(nullptr, kBoundedWaitMs));
    EXPECT_EQ(std::vector<uint8_t>(64, 0x33), buffer.read());
}

TEST_F(MemoryTest, MemcpyRejectsOverflowNullAndUnknownKind) {
    DeviceBuffer buffer(128);
    std::vector<uint8_t> host(256, 1);
    EXPECT_ACL_FAILS(aclrtMemcpy(buffer.get(), 128, host.data(), 129, ACL_MEMCPY_HOST_TO_DEVICE),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMemcpy(nullptr, 128, host.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMemcpy(buffer.get(), 128, nullptr, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMemcpy(buffer.get(), 128, host.data(), 64, static_cast<aclrtMemcpyKind>(99)),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMemcpyAsync(buffer.get(), 128, host.data(), 129, ACL_MEMCPY_HOST_TO_DEVICE, nullptr),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMemcpyAsync(nullptr, 128, host.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE, nullptr),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMemcpyAsync(buffer.get(), 128, nullptr, 64, ACL_MEMCPY_HOST_TO_DEVICE, nullptr),
                     ACL_ERROR_INVALID_PARAM);
}

TEST_F(MemoryTest, AsyncCopyReadsPinnedMemoryWhenItRuns) {
    const size_t size = kMiB;
    Stream stream;
    PinnedBuffer source(size);
    DeviceBuffer target(size);
    std::memset(source.bytes(), 0x01, size);
    Gate gate;
    ASSERT_ACL_OK(gate.hold(stream.get()));
    ASSERT_ACL_OK(aclrtMemcpyAsync(target.get(), size, source.bytes(), size, ACL_MEMCPY_HOST_TO_DEVICE, stream.get()));
    // Still queued behind the gate: the copy must see this change.
    std::memset(source.bytes(), 0x02, size);
    gate.open();
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    EXPECT_EQ(std::vector<uint8_t>(size, 0x02), target.read());
    EXPECT_FALSE(gate.expired());
}

TEST_F(MemoryTest, AsyncCopyTakesPageableMemoryBeforeReturning) {
    // The call may stage the pageable source or wait until the copy itself has
    // run (CANN documents the latter); either way the source is the caller's
    // again once the call returns.  The gate opens as soon as the call has
    // returned or, should the call be waiting for the held stream, after
    // kAbsenceWindowMs.  A copy that read the source later would always see
    // the changed bytes.
    const size_t size = kMiB;
    Stream stream;
    std::vector<uint8_t> source(size, 0x01);
    DeviceBuffer target(size);
    Gate gate;
    ASSERT_ACL_OK(gate.hold(stream.get()));
    std::promise<void> returned;
    std::future<void> returnedSignal = returned.get_future();
    std::thread opener([&] {
        returnedSignal.wait_for(std::chrono::milliseconds(kAbsenceWindowMs));
        gate.open();
    });
    const aclError copy =
        aclrtMemcpyAsync(target.get(), size, source.data(), size, ACL_MEMCPY_HOST_TO_DEVICE, stream.get());
    std::fill(source.begin(), source.end(), 0x02);
    returned.set_value();
    opener.join();
    ASSERT_ACL_OK(copy);
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    EXPECT_EQ(std::vector<uint8_t>(size, 0x01), target.read());
    EXPECT_FALSE(gate.expired());
}

TEST_F(MemoryTest, AsyncCopyToPinnedMemoryLandsAtSynchronize) {
    const size_t size = kMiB;
    Stream stream;
    DeviceBuffer source(size);
    PinnedBuffer target(size);
    ASSERT_ACL_OK(aclrtMemset(source.get(), size, 0x7E, size));
    std::memset(target.bytes(), 0, size);
    Gate gate;
    ASSERT_ACL_OK(gate.hold(stream.get()));
    ASSERT_ACL_OK(aclrtMemcpyAsync(target.bytes(), size, source.get(), size, ACL_MEMCPY_DEVICE_TO_HOST, stream.get()));
    EXPECT_EQ(0, target.bytes()[0]);
    gate.open();
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    EXPECT_EQ(std::vector<uint8_t>(size, 0x7E), std::vector<uint8_t>(target.bytes(), target.bytes() + size));
    EXPECT_FALSE(gate.expired());
}

TEST_F(MemoryTest, MemsetIsBytewiseAndBounded) {
    DeviceBuffer buffer(1024);
    ASSERT_ACL_OK(aclrtMemset(buffer.get(), 1024, 0, 1024));
    ASSERT_ACL_OK(aclrtMemset(buffer.bytes() + 100, 924, 0xC7, 200));
    std::vector<uint8_t> expected(1024, 0);
    std::fill(expected.begin() + 100, expected.begin() + 300, 0xC7);
    EXPECT_EQ(expected, buffer.read());
    EXPECT_ACL_FAILS(aclrtMemset(buffer.get(), 1024, 1, 1025), ACL_ERROR_INVALID_PARAM, ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtMemset(nullptr, 1024, 1, 16), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMemsetAsync(buffer.get(), 1024, 1, 1025, nullptr), ACL_ERROR_INVALID_PARAM,
                     ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtMemsetAsync(nullptr, 1024, 1, 16, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(expected, buffer.read());
}

TEST_F(MemoryTest, MemsetAsyncRunsOnTheStream) {
    Stream stream;
    DeviceBuffer buffer(4096);
    buffer.fill(0);
    Gate gate;
    ASSERT_ACL_OK(gate.hold(stream.get()));
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), buffer.size(), 0x99, buffer.size(), stream.get()));
    EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 0), buffer.read());
    gate.open();
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 0x99), buffer.read());
    EXPECT_FALSE(gate.expired());
}

TEST_F(MemoryTest, MemInfoTracksAllocations) {
    const MemInfo before = hbm_info();
    EXPECT_EQ(kDefaultHbmBytes, before.total);
    EXPECT_LE(before.free, before.total);
    const size_t size = 96 * kMiB + 1;
    void* ptr = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&ptr, size, ACL_MEM_MALLOC_HUGE_FIRST));
    const MemInfo during = hbm_info();
    EXPECT_EQ(before.total, during.total);
    EXPECT_LE(during.free + size, before.free);
    ASSERT_ACL_OK(aclrtFree(ptr));
    EXPECT_EQ(before.free, hbm_info().free);
}

TEST_F(MemoryTest, AllocationBeyondCapacityIsMemoryAllocationError) {
    void* ptr = nullptr;
    EXPECT_ACL_FAILS(aclrtMalloc(&ptr, kDefaultHbmBytes + 1, ACL_MEM_MALLOC_HUGE_FIRST),
                     ACL_ERROR_RT_MEMORY_ALLOCATION);
    EXPECT_EQ(nullptr, ptr);
    // Rounding the size up must not wrap around to a small allocation.
    EXPECT_ACL_FAILS(aclrtMalloc(&ptr, std::numeric_limits<size_t>::max(), ACL_MEM_MALLOC_HUGE_FIRST),
                     ACL_ERROR_RT_MEMORY_ALLOCATION, ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(nullptr, ptr);
    DeviceBuffer buffer(4096);
    EXPECT_ACL_OK(aclrtMemset(buffer.get(), buffer.size(), 1, buffer.size()));
}

TEST(MemoryCapacityTest, CapacityFromTheEnvironmentIsEnforced) {
    DefaultEnvironment defaults;
    ScopedEnv capacity("ACLCPU_MEMORY_CAPACITY", std::to_string(64 * kMiB));
    ASSERT_ACL_OK(aclInit(nullptr));
    ASSERT_ACL_OK(aclrtSetDevice(0));
    const MemInfo idle = hbm_info();
    EXPECT_EQ(64 * kMiB, idle.total);
    void* first = nullptr;
    void* second = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&first, 40 * kMiB, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_ACL_FAILS(aclrtMalloc(&second, 40 * kMiB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    EXPECT_EQ(nullptr, second);
    // The failure leaves the pool usable and the accounting intact.
    EXPECT_ACL_OK(aclrtFree(first));
    EXPECT_EQ(idle.free, hbm_info().free);
    EXPECT_ACL_OK(aclrtMalloc(&second, 40 * kMiB, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_ACL_OK(aclrtFree(second));
    EXPECT_ACL_OK(aclrtResetDevice(0));
    EXPECT_ACL_OK(aclFinalize());
}

}  // namespace
}  // namespace aclcpu::test
