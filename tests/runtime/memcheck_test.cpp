// Device memory checking (ACLCPU_MEMCHECK): guard zones, poisoned and
// quarantined freed blocks, and the faults copies, sets and device tasks
// raise instead of corrupting memory.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "aclcpu/device_task.hpp"
#include "aclcpu/memcheck.hpp"
#include "runtime/runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

/// CANN's size for aclrtMalloc(n): n rounded up to 32 plus 32 bytes.
constexpr size_t rounded(size_t n) { return (n + 32 + 31) / 32 * 32; }

/// aclInit and device 0 with memory checking switched on or off.
class MemcheckTest : public ::testing::Test {
protected:
    explicit MemcheckTest(const char* memcheck = "1") : memcheck_("ACLCPU_MEMCHECK", std::string(memcheck)) {}

    void SetUp() override {
        ASSERT_ACL_OK(aclInit(nullptr));
        ASSERT_ACL_OK(aclrtSetDevice(0));
    }
    void TearDown() override {
        EXPECT_ACL_OK(aclrtResetDevice(0));
        EXPECT_ACL_OK(aclFinalize());
    }

    /// Expects a stream's next synchronisation to return the AI Core
    /// exception with a message that names every one of `words`.
    static void expect_fault_on(aclrtStream stream, std::initializer_list<const char*> words) {
        take_error_message();
        ASSERT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(stream));
        const std::string message = take_error_message();
        for (const char* word : words) EXPECT_NE(std::string::npos, message.find(word)) << word << " in: " << message;
    }

private:
    DefaultEnvironment environment_;
    ScopedEnv memcheck_;
};

class MemcheckOffTest : public MemcheckTest {
protected:
    MemcheckOffTest() : MemcheckTest("0") {}
};

bool all_bytes(const void* begin, size_t bytes, uint8_t value) {
    const auto* first = static_cast<const uint8_t*>(begin);
    return std::all_of(first, first + bytes, [value](uint8_t byte) { return byte == value; });
}

/// A device task that runs `body` and then verifies the guards of `access`.
class ScribbleTask final : public DeviceTask {
public:
    ScribbleTask(DeviceAccess access, void (*body)(const DeviceAccess&)) : access_(access), body_(body) {}
    aclError run() noexcept override {
        body_(access_);
        return check_device_guards(name(), &access_, 1);
    }
    const char* name() const noexcept override { return "scribble"; }

private:
    DeviceAccess access_;
    void (*body_)(const DeviceAccess&);
};

TEST_F(MemcheckTest, IsOnWhenAskedFor) { EXPECT_TRUE(memcheck_enabled()); }

TEST_F(MemcheckOffTest, IsOffWhenAskedFor) { EXPECT_FALSE(memcheck_enabled()); }

TEST_F(MemcheckTest, GuardsCostNoDeviceCapacity) {
    size_t freeBefore = 0;
    size_t total = 0;
    ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &freeBefore, &total));
    DeviceBuffer buffer(1000);
    size_t freeAfter = 0;
    ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &freeAfter, &total));
    EXPECT_EQ(rounded(1000), freeBefore - freeAfter);
    EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(buffer.get()) % 64);
}

TEST_F(MemcheckTest, AsyncCopyIntoAFreedBlockFaultsAndWritesNothing) {
    Stream stream;
    PinnedBuffer source(256);
    std::memset(source.bytes(), 0x11, source.size());
    void* target = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&target, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    Gate gate;
    ASSERT_ACL_OK(gate.hold(stream.get()));
    ASSERT_ACL_OK(aclrtMemcpyAsync(target, 256, source.bytes(), 256, ACL_MEMCPY_HOST_TO_DEVICE, stream.get()));
    ASSERT_ACL_OK(aclrtFree(target));  // Before the stream reaches the copy: a user bug the checker must catch.
    gate.open();
    expect_fault_on(stream.get(), {"aclrtMemcpyAsync", "dst", "use after free"});
    // The block is still quarantined, so its poison shows the copy never wrote.
    EXPECT_TRUE(all_bytes(target, 256, 0xDD));
}

TEST_F(MemcheckTest, AsyncSetOfAFreedBlockFaults) {
    Stream stream;
    void* target = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&target, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    Gate gate;
    ASSERT_ACL_OK(gate.hold(stream.get()));
    ASSERT_ACL_OK(aclrtMemsetAsync(target, 4096, 0x7F, 4096, stream.get()));
    ASSERT_ACL_OK(aclrtFree(target));
    gate.open();
    expect_fault_on(stream.get(), {"aclrtMemsetAsync", "devPtr", "use after free"});
    EXPECT_TRUE(all_bytes(target, 4096, 0xDD));
}

TEST_F(MemcheckTest, SyncCopyFromAFreedBlockFails) {
    void* freed = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&freed, 512, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtFree(freed));
    std::vector<uint8_t> host(512, 0x42);
    EXPECT_ACL_FAILS(aclrtMemcpy(host.data(), host.size(), freed, 512, ACL_MEMCPY_DEVICE_TO_HOST),
                     ACL_ERROR_RT_AICORE_EXCEPTION);
    EXPECT_TRUE(all_bytes(host.data(), host.size(), 0x42));
}

TEST_F(MemcheckTest, SyncCopyPastTheEndOfABlockFailsAndNamesTheGuardZone) {
    DeviceBuffer buffer(1000);
    std::vector<uint8_t> host(rounded(1000) + 64, 0x33);
    take_error_message();
    EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION,
              aclrtMemcpy(buffer.get(), host.size(), host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE));
    EXPECT_NE(std::string::npos, take_error_message().find("guard zone"));
}

TEST_F(MemcheckOffTest, SyncCopyPastTheEndIsAParameterError) {
    DeviceBuffer buffer(1000);
    std::vector<uint8_t> host(rounded(1000) + 64, 0x33);
    EXPECT_ACL_FAILS(aclrtMemcpy(buffer.get(), host.size(), host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE),
                     ACL_ERROR_INVALID_PARAM);
}

TEST_F(MemcheckTest, SyncSetStartingInAFrontGuardFails) {
    DeviceBuffer buffer(256);
    EXPECT_ACL_FAILS(aclrtMemset(buffer.bytes() - 16, 64, 0, 64), ACL_ERROR_RT_AICORE_EXCEPTION);
}

TEST_F(MemcheckTest, WholeRoundedBlockStaysUsable) {
    DeviceBuffer buffer(1000);
    EXPECT_ACL_OK(aclrtMemset(buffer.get(), rounded(1000), 0x5A, rounded(1000)));
}

// device_reach, which bounds operators' views: the usable bytes, then the
// block's reservation (a 512-byte size class without memcheck; with it, the
// guards and the class of the guarded size: 8 + 32 rounded, plus 2 x 512,
// take the 1536-byte class), then nothing.
void expect_reach_of_an_eight_byte_block(uint64_t reservedFromStart) {
    DeviceBuffer buffer(8);
    const void* start = buffer.get();
    EXPECT_EQ(DeviceReach::kInBlock, device_reach(start, rounded(8)));
    EXPECT_EQ(DeviceReach::kInReservation, device_reach(start, rounded(8) + 1));
    EXPECT_EQ(DeviceReach::kInReservation, device_reach(start, reservedFromStart));
    EXPECT_EQ(DeviceReach::kPastReservation, device_reach(start, reservedFromStart + 1));
    EXPECT_EQ(DeviceReach::kPastReservation, device_reach(start, uint64_t{1} << 44));
    EXPECT_EQ(DeviceReach::kNotDevice, device_reach(buffer.bytes() + rounded(8), 4));  // starts past the block
    const std::vector<uint8_t> host(16);
    EXPECT_EQ(DeviceReach::kNotDevice, device_reach(host.data(), 4));
}

TEST_F(MemcheckOffTest, DeviceReachOfAViewFromItsBlock) { expect_reach_of_an_eight_byte_block(512); }

TEST_F(MemcheckTest, DeviceReachCountsTheBackGuardAsReserved) { expect_reach_of_an_eight_byte_block(1536 - 512); }

TEST_F(MemcheckOffTest, DeviceReachOfAFreedBlockIsNotDevice) {
    void* block = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&block, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtFree(block));
    EXPECT_EQ(DeviceReach::kNotDevice, device_reach(block, 4));
}

TEST_F(MemcheckTest, DoubleFreeIsNamedAndHarmless) {
    void* block = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&block, 128, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtFree(block));
    take_error_message();
    EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtFree(block));
    EXPECT_NE(std::string::npos, take_error_message().find("double free"));
    DeviceBuffer after(128);
    EXPECT_NE(nullptr, after.get());
}

TEST_F(MemcheckTest, FreeOfPointersThePoolNeverGaveOutFails) {
    DeviceBuffer buffer(4096);
    std::vector<uint8_t> host(64);
    PinnedBuffer pinned(64);
    EXPECT_ACL_FAILS(aclrtFree(buffer.bytes() + 64), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtFree(host.data()), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtFree(pinned.bytes()), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtFreeHost(buffer.get()), ACL_ERROR_INVALID_PARAM);
    // The refused frees left the block live and usable.
    ASSERT_ACL_OK(aclrtMemset(buffer.get(), 4096, 0x3C, 4096));
    EXPECT_EQ(std::vector<uint8_t>(4096, 0x3C), buffer.read());
}

TEST_F(MemcheckTest, FreedBlocksAreNotReusedAtOnce) {
    void* first = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&first, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtFree(first));
    std::vector<void*> later(16);
    for (void*& block : later) ASSERT_ACL_OK(aclrtMalloc(&block, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_EQ(later.end(), std::find(later.begin(), later.end(), first));
    for (void* block : later) EXPECT_ACL_OK(aclrtFree(block));
}

TEST_F(MemcheckTest, DeviceTaskAccessOutsideBlocksFaultsWithRoleAndTask) {
    DeviceBuffer buffer(256);
    const DeviceAccess inside{buffer.get(), rounded(256), "input", 0};
    const DeviceAccess overrun{buffer.get(), rounded(256) + 1, "output", 2};
    std::vector<uint8_t> host(64);
    const DeviceAccess foreign{host.data(), host.size(), "workspace", -1};

    EXPECT_EQ(ACL_SUCCESS, check_device_accesses("aclnnProbe", &inside, 1));
    take_error_message();
    EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, check_device_accesses("aclnnProbe", &overrun, 1));
    std::string message = take_error_message();
    EXPECT_NE(std::string::npos, message.find("aclnnProbe: output 2")) << message;
    EXPECT_NE(std::string::npos, message.find("guard zone")) << message;
    EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, check_device_accesses("aclnnProbe", &foreign, 1));
    message = take_error_message();
    EXPECT_NE(std::string::npos, message.find("workspace")) << message;
    EXPECT_NE(std::string::npos, message.find("not device memory")) << message;
}

TEST_F(MemcheckTest, KernelWritePastItsBlockIsCaughtByTheCanaryOnce) {
    Stream stream;
    DeviceBuffer buffer(256);
    const DeviceAccess output{buffer.get(), rounded(256), "output", 0};
    auto writePastEnd = [](const DeviceAccess& access) {
        static_cast<uint8_t*>(const_cast<void*>(access.address))[access.bytes + 3] = 0;
    };
    auto writeInside = [](const DeviceAccess& access) {
        std::memset(const_cast<void*>(access.address), 1, access.bytes);
    };
    ASSERT_ACL_OK(enqueue(stream.get(), std::make_unique<ScribbleTask>(output, writePastEnd)));
    expect_fault_on(stream.get(), {"scribble", "output 0", "guard zone was overwritten"});
    // The canary was re-armed: a well-behaved task afterwards passes.
    ASSERT_ACL_OK(enqueue(stream.get(), std::make_unique<ScribbleTask>(output, writeInside)));
    EXPECT_ACL_OK(aclrtSynchronizeStream(stream.get()));
}

TEST_F(MemcheckTest, FaultStaysOnItsStreamAndStopModeSkipsLaterWork) {
    Stream failing;
    Stream healthy;
    ASSERT_ACL_OK(aclrtSetStreamFailureMode(failing.get(), ACL_STOP_ON_FAILURE));
    DeviceBuffer kept(256);
    ASSERT_ACL_OK(aclrtMemset(kept.get(), 256, 0, 256));
    void* freed = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&freed, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    Gate gate;
    ASSERT_ACL_OK(gate.hold(failing.get()));
    ASSERT_ACL_OK(aclrtMemsetAsync(freed, 256, 1, 256, failing.get()));
    ASSERT_ACL_OK(aclrtMemsetAsync(kept.get(), 256, 2, 256, failing.get()));  // Skipped: the stream stops.
    ASSERT_ACL_OK(aclrtMemsetAsync(kept.get(), 128, 3, 128, healthy.get()));
    ASSERT_ACL_OK(aclrtFree(freed));
    gate.open();
    EXPECT_ACL_OK(aclrtSynchronizeStream(healthy.get()));
    expect_fault_on(failing.get(), {"aclrtMemsetAsync", "use after free"});
    std::vector<uint8_t> expected(256, 0);
    std::fill(expected.begin(), expected.begin() + 128, 3);
    EXPECT_EQ(expected, kept.read());
    // Once the error is taken, the stream runs work again.
    ASSERT_ACL_OK(aclrtMemsetAsync(kept.get(), 256, 4, 256, failing.get()));
    EXPECT_ACL_OK(aclrtSynchronizeStream(failing.get()));
    EXPECT_EQ(std::vector<uint8_t>(256, 4), kept.read());
}

}  // namespace
}  // namespace aclcpu::test
