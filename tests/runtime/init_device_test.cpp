// aclInit/aclFinalize, configuration, devices, SoC queries and contexts.
#include <string>
#include <thread>
#include <vector>

#include "runtime/runtime_test_support.hpp"

// CANN marks aclrtQueryEvent and aclrtGetVersion deprecated, yet they are
// still its API and programs call them: tested on purpose.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace aclcpu::test {
namespace {

/// True while an aclInit span is open (aclrtGetDeviceCount needs one).
bool runtime_initialised() {
    uint32_t count = 0;
    const bool open = aclrtGetDeviceCount(&count) == ACL_SUCCESS;
    take_error_message();
    return open;
}

/// Tests that drive aclInit themselves: they start and must end with the
/// runtime not initialised.
class InitTest : public ::testing::Test {
private:
    DefaultEnvironment environment_;
};

TEST_F(InitTest, NullConfigInitialisesAndFinalises) {
    ASSERT_ACL_OK(aclInit(nullptr));
    EXPECT_STREQ("Ascend910B2", aclrtGetSocName());
    EXPECT_ACL_OK(aclFinalize());
    EXPECT_FALSE(runtime_initialised());
}

TEST_F(InitTest, EmptyJsonObjectIsAValidConfig) {
    TempFile config("{}");
    ASSERT_ACL_OK(aclInit(config.path()));
    EXPECT_ACL_OK(aclFinalize());
}

TEST_F(InitTest, RepeatedInitIsReferenceCounted) {
    ASSERT_ACL_OK(aclInit(nullptr));
    ASSERT_ACL_OK(aclInit(nullptr));
    EXPECT_ACL_OK(aclFinalize());
    // One reference is left: the runtime still works.
    EXPECT_STREQ("Ascend910B2", aclrtGetSocName());
    EXPECT_ACL_OK(aclrtSetDevice(0));
    EXPECT_ACL_OK(aclrtResetDevice(0));
    EXPECT_ACL_OK(aclFinalize());
    EXPECT_FALSE(runtime_initialised());
}

TEST_F(InitTest, FinalizeReferenceReportsTheRemainingCount) {
    ASSERT_ACL_OK(aclInit(nullptr));
    ASSERT_ACL_OK(aclInit(nullptr));
    uint64_t remaining = 99;
    EXPECT_ACL_OK(aclFinalizeReference(&remaining));
    EXPECT_EQ(1u, remaining);
    EXPECT_ACL_OK(aclFinalizeReference(&remaining));
    EXPECT_EQ(0u, remaining);
}

TEST_F(InitTest, FinalizeWithoutInitFails) {
    // CANN answers ACL_ERROR_REPEAT_FINALIZE; "not initialised" is as telling.
    EXPECT_ACL_FAILS(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, ACL_ERROR_UNINITIALIZE);
}

TEST_F(InitTest, MissingConfigFileIsInvalidFile) {
    EXPECT_ACL_FAILS(aclInit("/nonexistent/acl-cpu/config.json"), ACL_ERROR_INVALID_FILE);
    // The failed call took no reference.
    EXPECT_FALSE(runtime_initialised());
}

TEST_F(InitTest, MalformedJsonIsParseError) {
    TempFile config("{\"acl_cpu\": {\"device_count\": 2,");
    EXPECT_ACL_FAILS(aclInit(config.path()), ACL_ERROR_PARSE_FILE);
    EXPECT_FALSE(runtime_initialised());
    // A failed aclInit leaves the runtime initialisable.
    ASSERT_ACL_OK(aclInit(nullptr));
    EXPECT_ACL_OK(aclFinalize());
}

TEST_F(InitTest, CallsBeforeInitAreUninitialised) {
    // The SoC name answers before aclInit (04_device_management.md,
    // aclrtGetSocName: null only when the version cannot be read).
    EXPECT_STREQ("Ascend910B2", aclrtGetSocName());
    EXPECT_ACL_FAILS(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
    void* ptr = nullptr;
    // CANN's aclrtMalloc does not check aclInit; it finds no context first.
    EXPECT_ACL_FAILS(aclrtMalloc(&ptr, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE,
                     ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_EQ(nullptr, ptr);
}

TEST_F(InitTest, JsonSectionConfiguresTheEmulator) {
    TempFile config(R"({"acl_cpu": {"device_count": 3, "soc": "Ascend910B3", "worker_threads": 2,
                                    "memory_capacity": 268435456}})");
    ASSERT_ACL_OK(aclInit(config.path()));
    uint32_t count = 0;
    EXPECT_ACL_OK(aclrtGetDeviceCount(&count));
    EXPECT_EQ(3u, count);
    EXPECT_STREQ("Ascend910B3", aclrtGetSocName());
    int64_t aiCores = 0;
    int64_t vectorCores = 0;
    EXPECT_ACL_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &aiCores));
    EXPECT_ACL_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_VECTOR_CORE_NUM, &vectorCores));
    EXPECT_EQ(20, aiCores);
    EXPECT_EQ(40, vectorCores);
    ASSERT_ACL_OK(aclrtSetDevice(2));
    size_t free = 0;
    size_t total = 0;
    EXPECT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total));
    EXPECT_EQ(size_t{256} * kMiB, total);
    EXPECT_ACL_OK(aclrtResetDevice(2));
    EXPECT_ACL_FAILS(aclrtSetDevice(3), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_ACL_OK(aclFinalize());
}

TEST_F(InitTest, EnvironmentConfiguresTheEmulatorAtFirstInit) {
    ScopedEnv devices("ACLCPU_DEVICE_COUNT", "2");
    ScopedEnv soc("ACLCPU_SOC", "Ascend910B3");
    ASSERT_ACL_OK(aclInit(nullptr));
    uint32_t count = 0;
    EXPECT_ACL_OK(aclrtGetDeviceCount(&count));
    EXPECT_EQ(2u, count);
    EXPECT_STREQ("Ascend910B3", aclrtGetSocName());
    {
        // Read only when the reference count goes from 0 to 1.
        ScopedEnv moreDevices("ACLCPU_DEVICE_COUNT", "5");
        ASSERT_ACL_OK(aclInit(nullptr));
        EXPECT_ACL_OK(aclrtGetDeviceCount(&count));
        EXPECT_EQ(2u, count);
        EXPECT_ACL_OK(aclFinalize());
    }
    EXPECT_ACL_OK(aclFinalize());
}

TEST_F(InitTest, InvalidEnvironmentValueFailsInit) {
    ScopedEnv devices("ACLCPU_DEVICE_COUNT", "many");
    EXPECT_ACL_FAILS(aclInit(nullptr));
    EXPECT_FALSE(runtime_initialised());
}

using DeviceTest = RuntimeTest;

TEST_F(DeviceTest, VersionIsTheHeaderVersion) {
    int32_t major = -1;
    int32_t minor = -1;
    int32_t patch = -1;
    ASSERT_ACL_OK(aclrtGetVersion(&major, &minor, &patch));
    EXPECT_EQ(ACL_MAJOR_VERSION, major);
    EXPECT_EQ(ACL_MINOR_VERSION, minor);
    EXPECT_EQ(ACL_PATCH_VERSION, patch);
}

TEST_F(DeviceTest, RunModeIsHost) {
    aclrtRunMode mode = ACL_DEVICE;
    ASSERT_ACL_OK(aclrtGetRunMode(&mode));
    EXPECT_EQ(ACL_HOST, mode);
}

TEST_F(DeviceTest, GetDeviceReturnsTheSetDevice) {
    int32_t device = -1;
    ASSERT_ACL_OK(aclrtGetDevice(&device));
    EXPECT_EQ(0, device);
}

TEST_F(DeviceTest, GetDeviceWithoutDeviceIsContextNull) {
    run_on_new_thread([] {
        int32_t device = -1;
        EXPECT_ACL_FAILS(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL);
    });
}

TEST_F(DeviceTest, DeviceIdsOutsideTheCountAreRejected) {
    uint32_t count = 0;
    ASSERT_ACL_OK(aclrtGetDeviceCount(&count));
    ASSERT_GE(count, 1u);
    const int32_t beyond = static_cast<int32_t>(count);
    EXPECT_ACL_FAILS(aclrtSetDevice(beyond), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_ACL_FAILS(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_ACL_FAILS(aclrtResetDevice(beyond), ACL_ERROR_RT_INVALID_DEVICEID);
    aclrtContext context = nullptr;
    EXPECT_ACL_FAILS(aclrtCreateContext(&context, beyond), ACL_ERROR_RT_INVALID_DEVICEID);
    int64_t value = 0;
    EXPECT_ACL_FAILS(aclGetDeviceCapability(static_cast<uint32_t>(beyond), ACL_DEVICE_INFO_AI_CORE_NUM, &value),
                     ACL_ERROR_RT_INVALID_DEVICEID, ACL_ERROR_INVALID_PARAM);
}

TEST_F(DeviceTest, SetDeviceIsReferenceCounted) {
    Stream stream;
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtResetDevice(0));
    // The fixture's reference keeps the device and its streams alive.
    DeviceBuffer buffer(4096);
    EXPECT_ACL_OK(aclrtMemsetAsync(buffer.get(), buffer.size(), 7, buffer.size(), stream.get()));
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 7), buffer.read());
}

TEST_F(DeviceTest, LastResetDrainsPendingWork) {
    CallProbe probe;
    {
        Gate gate;
        ASSERT_ACL_OK(gate.hold(nullptr));
        for (int i = 0; i < 3; ++i) ASSERT_ACL_OK(aclrtLaunchHostFunc(nullptr, &CallProbe::record, &probe));
        // Opened from elsewhere because the reset below blocks until the queue drains.
        std::thread opener([&gate] { gate.open(); });
        EXPECT_ACL_OK(aclrtResetDevice(0));
        opener.join();
        EXPECT_FALSE(gate.expired());
    }
    EXPECT_EQ(3, probe.calls.load());
    int32_t device = -1;
    EXPECT_ACL_FAILS(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_ACL_OK(aclrtSetDevice(0));  // for the fixture's reset
}

TEST_F(DeviceTest, ResetDeviceForceIgnoresTheCount) {
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtSetDevice(0));
    EXPECT_ACL_OK(aclrtResetDeviceForce(0));
    int32_t device = -1;
    EXPECT_ACL_FAILS(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_ACL_OK(aclrtSetDevice(0));
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(nullptr, kBoundedWaitMs));
}

TEST_F(DeviceTest, DefaultSocIsAscend910B2) {
    EXPECT_STREQ("Ascend910B2", aclrtGetSocName());
}

TEST_F(DeviceTest, CapabilitiesOf910B2) {
    int64_t value = 0;
    ASSERT_ACL_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &value));
    EXPECT_EQ(24, value);
    ASSERT_ACL_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_VECTOR_CORE_NUM, &value));
    EXPECT_EQ(48, value);
    ASSERT_ACL_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, &value));
    EXPECT_GT(value, 0);
}

TEST_F(DeviceTest, UnknownCapabilityIsInvalidParam) {
    int64_t value = 0;
    EXPECT_ACL_FAILS(aclGetDeviceCapability(0, ACL_DEVICE_INFO_UNDEFINED, &value), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclGetDeviceCapability(0, static_cast<aclDeviceInfo>(99), &value), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(DeviceTest, SynchronizeDeviceWaitsForEveryStream) {
    Stream first;
    Stream second;
    Gate gate;
    ASSERT_ACL_OK(gate.hold(first.get()));
    DeviceBuffer buffer(4096);
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), buffer.size(), 3, buffer.size(), second.get()));
    EXPECT_ACL_FAILS(aclrtSynchronizeDeviceWithTimeout(kAbsenceWindowMs), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    gate.open();
    EXPECT_ACL_OK(aclrtSynchronizeDevice());
    aclrtStreamStatus status = ACL_STREAM_STATUS_NOT_READY;
    EXPECT_ACL_OK(aclrtStreamQuery(first.get(), &status));
    EXPECT_EQ(ACL_STREAM_STATUS_COMPLETE, status);
    EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 3), buffer.read());
    EXPECT_FALSE(gate.expired());
}

using ContextTest = RuntimeTest;

TEST_F(ContextTest, CreatedContextBecomesCurrent) {
    aclrtContext original = nullptr;
    ASSERT_ACL_OK(aclrtGetCurrentContext(&original));
    ASSERT_NE(nullptr, original);
    aclrtContext created = nullptr;
    ASSERT_ACL_OK(aclrtCreateContext(&created, 0));
    ASSERT_NE(nullptr, created);
    EXPECT_NE(original, created);
    aclrtContext current = nullptr;
    EXPECT_ACL_OK(aclrtGetCurrentContext(&current));
    EXPECT_EQ(created, current);
    EXPECT_ACL_OK(aclrtSetCurrentContext(original));
    EXPECT_ACL_OK(aclrtGetCurrentContext(&current));
    EXPECT_EQ(original, current);
    EXPECT_ACL_OK(aclrtDestroyContext(created));
}

TEST_F(ContextTest, EachContextHasItsOwnDefaultStream) {
    aclrtContext original = nullptr;
    ASSERT_ACL_OK(aclrtGetCurrentContext(&original));
    Gate gate;
    ASSERT_ACL_OK(gate.hold(nullptr));  // the original context's default stream
    aclrtContext created = nullptr;
    ASSERT_ACL_OK(aclrtCreateContext(&created, 0));
    {
        DeviceBuffer buffer(4096);
        ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), buffer.size(), 9, buffer.size(), nullptr));
        EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(nullptr, kBoundedWaitMs));
        EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 9), buffer.read());
    }
    EXPECT_ACL_OK(aclrtSetCurrentContext(original));
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(nullptr, kAbsenceWindowMs), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    gate.open();
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(nullptr, kBoundedWaitMs));
    EXPECT_ACL_OK(aclrtDestroyContext(created));
    EXPECT_FALSE(gate.expired());
}

TEST_F(ContextTest, ThreadsShareAContextThroughSetCurrentContext) {
    aclrtContext context = nullptr;
    ASSERT_ACL_OK(aclrtGetCurrentContext(&context));
    DeviceBuffer buffer(4096);
    run_on_new_thread([&] {
        ASSERT_ACL_OK(aclrtSetCurrentContext(context));
        int32_t device = -1;
        EXPECT_ACL_OK(aclrtGetDevice(&device));
        EXPECT_EQ(0, device);
        EXPECT_ACL_OK(aclrtMemsetAsync(buffer.get(), buffer.size(), 5, buffer.size(), nullptr));
        EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(nullptr, kBoundedWaitMs));
    });
    EXPECT_EQ(std::vector<uint8_t>(buffer.size(), 5), buffer.read());
}

TEST_F(ContextTest, SysParamOptRoundTrips) {
    ASSERT_ACL_OK(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1));
    int64_t value = 0;
    ASSERT_ACL_OK(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value));
    EXPECT_EQ(1, value);
}

}  // namespace
}  // namespace aclcpu::test
