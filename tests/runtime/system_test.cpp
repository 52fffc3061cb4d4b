// Versions, CANN attributes, device queries, limits, system parameters,
// saturation mode and overflow status, and the callbacks around aclInit and
// device state changes.  Docs: hicann/runtime docs/zh/api_ref/*.md.
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "aclcpu/device_task.hpp"
#include "aclcpu/testing.hpp"
#include "runtime/runtime_test_support.hpp"

// CANN marks aclsysGetCANNVersion deprecated, yet programs still call it.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace aclcpu::test {
namespace {

using SystemTest = RuntimeTest;

/// Two devices, aclInit'ed, none set: for queries that compare devices.
class TwoDeviceTest : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_ACL_OK(aclInit(nullptr)); }
    void TearDown() override { EXPECT_ACL_OK(aclFinalize()); }

private:
    DefaultEnvironment environment_;
    ScopedEnv devices_{"ACLCPU_DEVICE_COUNT", "2"};
};

/// Tests that drive aclInit themselves.
class LifecycleTest : public ::testing::Test {
private:
    DefaultEnvironment environment_;
};

// ---- Versions and attributes (24_other_APIs.md) ---------------------------

// aclsysGetVersionStr / aclsysGetVersionNum: the number weighs major, minor
// and patch so that a later release compares greater.
TEST_F(LifecycleTest, PackageVersionsAreTheMirroredApiVersion) {
    char runtime[] = "runtime";
    char version[ACL_PKG_VERSION_MAX_SIZE] = {};
    ASSERT_ACL_OK(aclsysGetVersionStr(runtime, version));
    int32_t major = 0, minor = 0, patch = 0;
    ASSERT_ACL_OK(aclrtGetVersion(&major, &minor, &patch));
    EXPECT_EQ(std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch), version);
    int32_t number = 0;
    ASSERT_ACL_OK(aclsysGetVersionNum(runtime, &number));
    EXPECT_EQ(major * 10000000 + minor * 100000 + patch * 1000, number);
    // CANN spells package names with '-' or '_' alike.
    char legacyOps[] = "ops_legacy";
    EXPECT_ACL_OK(aclsysGetVersionNum(legacyOps, &number));
}

TEST_F(LifecycleTest, PackagesAclCpuDoesNotProvideHaveNoVersionFile) {
    char driver[] = "driver";
    char version[ACL_PKG_VERSION_MAX_SIZE] = {};
    EXPECT_ACL_FAILS(aclsysGetVersionStr(driver, version), ACL_ERROR_INVALID_FILE);
    char runtime[] = "runtime";
    EXPECT_ACL_FAILS(aclsysGetVersionStr(runtime, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclsysGetVersionNum(nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
}

// aclsysGetCANNVersion (25-02_Enumerations.md, aclCANNPackageName).
TEST_F(LifecycleTest, CannVersionSplitsTheVersionIntoParts) {
    aclCANNPackageVersion version;
    ASSERT_ACL_OK(aclsysGetCANNVersion(ACL_PKG_NAME_CANN, &version));
    char expected[ACL_PKG_VERSION_MAX_SIZE] = {};
    char runtime[] = "runtime";
    ASSERT_ACL_OK(aclsysGetVersionStr(runtime, expected));
    EXPECT_STREQ(expected, version.version);
    EXPECT_EQ(std::string(version.majorVersion) + "." + version.minorVersion + "." + version.releaseVersion,
              version.version);
    EXPECT_STREQ("0", version.patchVersion);
    EXPECT_ACL_FAILS(aclsysGetCANNVersion(ACL_PKG_NAME_DRIVER, &version), ACL_ERROR_INVALID_FILE);
    EXPECT_ACL_FAILS(aclsysGetCANNVersion(static_cast<aclCANNPackageName>(99), &version), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclsysGetCANNVersion(ACL_PKG_NAME_CANN, nullptr), ACL_ERROR_INVALID_PARAM);
}

// aclGetCannAttributeList / aclGetCannAttribute: the list holds exactly the
// attributes that aclGetCannAttribute reports as supported.
TEST_F(LifecycleTest, CannAttributeListMatchesTheAttributeQueries) {
    const aclCannAttr* list = nullptr;
    size_t count = 0;
    ASSERT_ACL_OK(aclGetCannAttributeList(&list, &count));
    ASSERT_NE(nullptr, list);
    std::vector<aclCannAttr> listed(list, list + count);
    for (aclCannAttr attr : {ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16, ACL_CANN_ATTR_JIT_COMPILE}) {
        int32_t value = -1;
        ASSERT_ACL_OK(aclGetCannAttribute(attr, &value));
        const bool inList = std::find(listed.begin(), listed.end(), attr) != listed.end();
        EXPECT_EQ(inList ? 1 : 0, value) << attr;
    }
    int32_t value = 0;
    EXPECT_ACL_FAILS(aclGetCannAttribute(ACL_CANN_ATTR_UNDEFINED, &value), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclGetCannAttribute(ACL_CANN_ATTR_BF16, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclGetCannAttributeList(nullptr, &count), ACL_ERROR_INVALID_PARAM);
}

// aclrtGetSocName (04_device_management.md): null only when the version cannot
// be read, so it answers before aclInit, from ACLCPU_SOC when set.
TEST_F(LifecycleTest, SocNameAnswersBeforeInit) {
    EXPECT_STREQ("Ascend910B2", aclrtGetSocName());
    ScopedEnv soc("ACLCPU_SOC", "Ascend910B4");
    EXPECT_STREQ("Ascend910B4", aclrtGetSocName());
}

// ---- Device queries (04_device_management.md) -----------------------------

TEST_F(SystemTest, DeviceInfoReportsTheSocFigures) {
    int64_t aiCores = 0, vectorCores = 0, l2 = 0;
    ASSERT_ACL_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &aiCores));
    ASSERT_ACL_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_VECTOR_CORE_NUM, &vectorCores));
    ASSERT_ACL_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, &l2));
    int64_t value = 0;
    ASSERT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &value));
    EXPECT_EQ(aiCores, value);
    ASSERT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &value));
    EXPECT_EQ(aiCores, value);
    ASSERT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &value));
    EXPECT_EQ(vectorCores, value);
    ASSERT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_L2_CACHE_SIZE, &value));
    EXPECT_EQ(l2, value);
    size_t free = 0, total = 0;
    ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total));
    ASSERT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &value));
    EXPECT_EQ(static_cast<int64_t>(total), value);
    // 25-02_Enumerations.md, aclrtDevAttr: the SIMT figures are Ascend 950's;
    // other SoCs answer 0.
    value = -1;
    ASSERT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_WARP_SIZE, &value));
    EXPECT_EQ(0, value);
}

TEST_F(SystemTest, DeviceInfoRejectsBadArguments) {
    int64_t value = 0;
    EXPECT_ACL_FAILS(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_AICORE_CORE_NUM, &value), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_ACL_FAILS(aclrtGetDeviceInfo(0, static_cast<aclrtDevAttr>(7777), &value), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, nullptr), ACL_ERROR_INVALID_PARAM);
}

// aclrtGetDeviceCapability: 0 or 1 per feature; neither feature exists here.
TEST_F(SystemTest, DeviceCapabilityAnswersPerFeature) {
    int32_t value = -1;
    ASSERT_ACL_OK(aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &value));
    EXPECT_EQ(ACL_DEV_FEATURE_NOT_SUPPORT, value);
    EXPECT_ACL_FAILS(aclrtGetDeviceCapability(0, static_cast<aclrtDevFeatureType>(5), &value),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtGetDeviceCapability(-1, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, &value),
                     ACL_ERROR_RT_INVALID_DEVICEID);
}

// aclrtGetDeviceUtilizationRate: memory utilisation is not supported and reads -1.
TEST_F(SystemTest, UtilizationReportsIdleCoresAndNoMemoryFigure) {
    aclrtUtilizationInfo info;
    std::memset(&info, 0x7F, sizeof info);
    info.utilizationExtend = nullptr;
    ASSERT_ACL_OK(aclrtGetDeviceUtilizationRate(0, &info));
    EXPECT_EQ(0, info.cubeUtilization);
    EXPECT_EQ(0, info.vectorUtilization);
    EXPECT_EQ(-1, info.memoryUtilization);
    EXPECT_ACL_FAILS(aclrtGetDeviceUtilizationRate(0, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(SystemTest, DeviceStatusIsNormal) {
    aclrtDeviceStatus status = ACL_RT_DEVICE_STATUS_ABNORMAL;
    ASSERT_ACL_OK(aclrtQueryDeviceStatus(0, &status));
    EXPECT_EQ(ACL_RT_DEVICE_STATUS_NORMAL, status);
    EXPECT_ACL_FAILS(aclrtQueryDeviceStatus(3, &status), ACL_ERROR_RT_INVALID_DEVICEID);
}

// aclrtDeviceGetUuid: a device's unique identifier.
TEST_F(TwoDeviceTest, UuidsAreStableAndDistinct) {
    aclrtUuid first{}, again{}, second{};
    ASSERT_ACL_OK(aclrtDeviceGetUuid(0, &first));
    ASSERT_ACL_OK(aclrtDeviceGetUuid(0, &again));
    ASSERT_ACL_OK(aclrtDeviceGetUuid(1, &second));
    EXPECT_EQ(0, std::memcmp(first.bytes, again.bytes, sizeof first.bytes));
    EXPECT_NE(0, std::memcmp(first.bytes, second.bytes, sizeof first.bytes));
    EXPECT_ACL_FAILS(aclrtDeviceGetUuid(2, &first), ACL_ERROR_RT_INVALID_DEVICEID);
}

// aclrtDeviceGetPCIBusId / aclrtDeviceGetByPCIBusId: "domain:bus:device.function",
// 12 characters and a NUL, so len must be at least 13.
TEST_F(TwoDeviceTest, PciBusIdsRoundTrip) {
    for (int32_t device = 0; device < 2; ++device) {
        char busId[13] = {};
        ASSERT_ACL_OK(aclrtDeviceGetPCIBusId(device, busId, sizeof busId));
        EXPECT_EQ(12u, std::strlen(busId));
        int32_t found = -1;
        ASSERT_ACL_OK(aclrtDeviceGetByPCIBusId(busId, &found));
        EXPECT_EQ(device, found);
    }
    char shortBuffer[12] = {};
    EXPECT_ACL_FAILS(aclrtDeviceGetPCIBusId(0, shortBuffer, sizeof shortBuffer), ACL_ERROR_INVALID_PARAM);
    int32_t found = -1;
    EXPECT_ACL_FAILS(aclrtDeviceGetByPCIBusId("not a bus id", &found), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtDeviceGetByPCIBusId("0000:7f:00.0", &found), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtDeviceGetByPCIBusId(nullptr, &found), ACL_ERROR_INVALID_PARAM);
}

// aclrtGetLogicDevIdByUserDevId and its family: without
// ASCEND_RT_VISIBLE_DEVICES and outside a container the three numberings agree.
TEST_F(TwoDeviceTest, DeviceIdMappingsAreTheIdentity) {
    using Mapping = aclError (*)(const int32_t, int32_t* const);
    for (Mapping mapping : {aclrtGetLogicDevIdByUserDevId, aclrtGetUserDevIdByLogicDevId, aclrtGetLogicDevIdByPhyDevId,
                            aclrtGetPhyDevIdByLogicDevId, aclrtGetUserDevIdByPhyDevId, aclrtGetPhyDevIdByUserDevId}) {
        int32_t mapped = -1;
        ASSERT_ACL_OK(mapping(1, &mapped));
        EXPECT_EQ(1, mapped);
        EXPECT_ACL_FAILS(mapping(2, &mapped), ACL_ERROR_RT_INVALID_DEVICEID);
        EXPECT_ACL_FAILS(mapping(0, nullptr), ACL_ERROR_INVALID_PARAM);
    }
}

// aclrtGetDevicesTopo: how two devices are linked.
TEST_F(TwoDeviceTest, DevicesAreLinkedByHccs) {
    uint64_t topology = 0;
    ASSERT_ACL_OK(aclrtGetDevicesTopo(0, 1, &topology));
    EXPECT_EQ(ACL_RT_DEVS_TOPOLOGY_HCCS, topology);
    EXPECT_ACL_FAILS(aclrtGetDevicesTopo(0, 2, &topology), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_ACL_FAILS(aclrtGetDevicesTopo(1, 1, &topology), ACL_ERROR_INVALID_PARAM);
}

// aclrtGetPrimaryCtxState (05_context_management.md): the default context is
// active from aclrtSetDevice until the device is reset.
TEST_F(TwoDeviceTest, PrimaryContextIsActiveWhileTheDeviceIsSet) {
    int32_t active = -1;
    ASSERT_ACL_OK(aclrtGetPrimaryCtxState(1, nullptr, &active));
    EXPECT_EQ(0, active);
    ASSERT_ACL_OK(aclrtSetDevice(1));
    ASSERT_ACL_OK(aclrtGetPrimaryCtxState(1, nullptr, &active));
    EXPECT_EQ(1, active);
    ASSERT_ACL_OK(aclrtResetDevice(1));
    ASSERT_ACL_OK(aclrtGetPrimaryCtxState(1, nullptr, &active));
    EXPECT_EQ(0, active);
    EXPECT_ACL_FAILS(aclrtGetPrimaryCtxState(1, nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
}

// aclrtDeviceGetP2PAtomicCapabilities / aclrtDeviceGetHostAtomicCapabilities:
// one capability bit mask per operation asked about.
TEST_F(TwoDeviceTest, AtomicCapabilitiesAreAnsweredPerOperation) {
    const aclrtAtomicOperation operations[] = {ACL_RT_ATOMIC_OPERATION_INTEGER_ADD, ACL_RT_ATOMIC_OPERATION_FLOAT_MAX,
                                               ACL_RT_ATOMIC_OPERATION_DMA_ADD};
    uint32_t capabilities[3] = {0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF};
    ASSERT_ACL_OK(aclrtDeviceGetP2PAtomicCapabilities(capabilities, operations, 3, 0, 1));
    EXPECT_NE(0u, capabilities[0] & ACL_RT_ATOMIC_CAPABILITY_SIGNED);
    EXPECT_NE(0u, capabilities[0] & ACL_RT_ATOMIC_CAPABILITY_SCALAR32);
    EXPECT_EQ(0u, capabilities[1] & ACL_RT_ATOMIC_CAPABILITY_SIGNED);
    EXPECT_NE(0u, capabilities[1] & ACL_RT_ATOMIC_CAPABILITY_SCALAR32);
    EXPECT_EQ(0u, capabilities[2]);
    uint32_t host = 0;
    ASSERT_ACL_OK(aclrtDeviceGetHostAtomicCapabilities(&host, operations, 1, 1));
    EXPECT_EQ(capabilities[0], host);
    const aclrtAtomicOperation unknown[] = {static_cast<aclrtAtomicOperation>(20)};
    EXPECT_ACL_FAILS(aclrtDeviceGetHostAtomicCapabilities(&host, unknown, 1, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtDeviceGetHostAtomicCapabilities(&host, operations, 0, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtDeviceGetHostAtomicCapabilities(&host, operations, 1, 2), ACL_ERROR_RT_INVALID_DEVICEID);
}

// aclrtDeviceGetStreamPriorityRange (06_stream_management.md: a smaller
// number is a higher priority).
TEST_F(SystemTest, StreamPriorityRangeIsCanns) {
    int32_t least = -1, greatest = -1;
    ASSERT_ACL_OK(aclrtDeviceGetStreamPriorityRange(&least, &greatest));
    EXPECT_EQ(7, least);
    EXPECT_EQ(0, greatest);
    EXPECT_ACL_FAILS(aclrtDeviceGetStreamPriorityRange(nullptr, &greatest), ACL_ERROR_INVALID_PARAM);
}

// aclrtDeviceGetBareTgid: the calling process's id.
TEST_F(SystemTest, BareTgidIsTheProcessId) {
    int32_t pid = 0;
    ASSERT_ACL_OK(aclrtDeviceGetBareTgid(&pid));
    EXPECT_EQ(static_cast<int32_t>(getpid()), pid);
}

// aclrtCheckArchCompatibility (15_model_running_instance__management.md).
TEST_F(SystemTest, ArchCompatibilityCoversTheAtlasA2Family) {
    int32_t compatible = -1;
    ASSERT_ACL_OK(aclrtCheckArchCompatibility("Ascend910B3", &compatible));
    EXPECT_EQ(1, compatible);
    ASSERT_ACL_OK(aclrtCheckArchCompatibility("Ascend310P3", &compatible));
    EXPECT_EQ(0, compatible);
    EXPECT_ACL_FAILS(aclrtCheckArchCompatibility(nullptr, &compatible), ACL_ERROR_INVALID_PARAM);
}

// aclrtSetTsDevice: a SoC without a vector-core scheduler ignores the choice.
TEST_F(SystemTest, TaskSchedulerChoiceIsChecked) {
    EXPECT_ACL_OK(aclrtSetTsDevice(ACL_TS_ID_AICORE));
    EXPECT_ACL_OK(aclrtSetTsDevice(ACL_TS_ID_AIVECTOR));
    EXPECT_ACL_FAILS(aclrtSetTsDevice(ACL_TS_ID_RESERVED), ACL_ERROR_INVALID_PARAM);
}

// ---- Limits (04_device_management.md aclrtDeviceSetLimit, 25-02 aclrtDeviceLimit) --

// On an Atlas A2 the SIMD stack is (32 KiB, 192 KiB], rounded up to 16 KiB,
// with anything up to 32 KiB read as 32 KiB; SIMT limits do not exist.
TEST_F(SystemTest, SimdStackLimitIsRoundedAndBounded) {
    size_t value = 0;
    ASSERT_ACL_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &value));
    EXPECT_EQ(32768u, value);
    ASSERT_ACL_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 40000));
    ASSERT_ACL_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &value));
    EXPECT_EQ(49152u, value);
    EXPECT_ACL_FAILS(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 196609), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_ACL_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 1000));
    ASSERT_ACL_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &value));
    EXPECT_EQ(32768u, value);
}

TEST_F(SystemTest, PrintfFifoLimitIsRoundedToEightBytes) {
    size_t value = 0;
    ASSERT_ACL_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, &value));
    EXPECT_EQ(32768u, value);
    ASSERT_ACL_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 1025));
    ASSERT_ACL_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, &value));
    EXPECT_EQ(1032u, value);
    EXPECT_ACL_FAILS(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 1023),
                     ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_ACL_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 32768));
}

TEST_F(SystemTest, SimtLimitsAreNotSupportedOnAtlasA2) {
    size_t value = 0;
    EXPECT_ACL_FAILS(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, &value), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_ACL_FAILS(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE, 1 << 20),
                     ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_ACL_FAILS(aclrtDeviceGetLimit(static_cast<aclrtDeviceLimit>(9), &value), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, nullptr), ACL_ERROR_INVALID_PARAM);
}

// 03_runtime_configuration.md, aclrtGetDeviceResLimit / aclrtSetDeviceResLimit
// / aclrtResetDeviceResLimit: the hardware's counts until set, again after reset.
TEST_F(SystemTest, DeviceResourceLimitsDefaultToTheHardware) {
    int64_t cubeCores = 0, vectorCores = 0;
    ASSERT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &cubeCores));
    ASSERT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &vectorCores));
    uint32_t value = 0;
    ASSERT_ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &value));
    EXPECT_EQ(cubeCores, value);
    ASSERT_ACL_OK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 8));
    ASSERT_ACL_OK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 10));  // The last setting wins.
    ASSERT_ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, &value));
    EXPECT_EQ(10u, value);
    ASSERT_ACL_OK(aclrtResetDeviceResLimit(0));
    ASSERT_ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, &value));
    EXPECT_EQ(vectorCores, value);
    EXPECT_ACL_FAILS(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, static_cast<uint32_t>(cubeCores) + 1),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtSetDeviceResLimit(0, static_cast<aclrtDevResLimitType>(2), 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtResetDeviceResLimit(1), ACL_ERROR_RT_INVALID_DEVICEID);
}

// ---- System parameters (03_runtime_configuration.md) -----------------------

// aclrtGetSysParamOpt: 0 until aclrtSetSysParamOpt; the process scope is not
// a context's (aclrtCtxSetSysParamOpt).
TEST_F(SystemTest, ProcessSystemParametersAreSeparateFromTheContexts) {
    int64_t value = -1;
    ASSERT_ACL_OK(aclrtGetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, &value));
    EXPECT_EQ(0, value);
    ASSERT_ACL_OK(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 3));
    ASSERT_ACL_OK(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value));
    EXPECT_EQ(3, value);
    EXPECT_ACL_FAILS(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value), ACL_ERROR_RT_SYSPARAMOPT_NOT_SET);
    // 25-02_Enumerations.md, aclSysParamOpt: ACL_OPT_DETERMINISTIC is in [0, 4).
    EXPECT_ACL_FAILS(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 4), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtSetSysParamOpt(static_cast<aclSysParamOpt>(42), 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, nullptr), ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 0));
}

// ---- Saturation mode and overflow status (04_device_management.md) --------

// aclrtSetDeviceSatMode / aclrtGetDeviceSatMode: Atlas A2 starts in Inf/NaN mode.
TEST_F(SystemTest, SaturationModeIsPerDevice) {
    aclrtFloatOverflowMode mode = ACL_RT_OVERFLOW_MODE_UNDEF;
    ASSERT_ACL_OK(aclrtGetDeviceSatMode(&mode));
    EXPECT_EQ(ACL_RT_OVERFLOW_MODE_INFNAN, mode);
    ASSERT_ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION));
    ASSERT_ACL_OK(aclrtGetDeviceSatMode(&mode));
    EXPECT_EQ(ACL_RT_OVERFLOW_MODE_SATURATION, mode);
    EXPECT_ACL_FAILS(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_UNDEF), ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN));
}

TEST_F(LifecycleTest, SaturationModeNeedsACurrentDevice) {
    ASSERT_ACL_OK(aclInit(nullptr));
    aclrtFloatOverflowMode mode;
    EXPECT_ACL_FAILS(aclrtGetDeviceSatMode(&mode), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_ACL_OK(aclFinalize());
}

// aclrtGetOverflowStatus: an asynchronous task copies the 64-byte status into
// device memory; aclrtResetOverflowStatus clears it, in stream order too.
TEST_F(SystemTest, OverflowStatusIsWrittenInStreamOrder) {
    DeviceBuffer output(64);
    output.fill(0xFF);
    Stream stream;
    ASSERT_ACL_OK(aclrtResetOverflowStatus(stream.get()));
    ASSERT_ACL_OK(aclrtGetOverflowStatus(output.get(), 64, stream.get()));
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream.get()));
    EXPECT_EQ(std::vector<uint8_t>(64, 0), output.read());
    output.fill(0xFF);
    ASSERT_ACL_OK(aclrtNpuGetFloatOverFlowStatus(output.get(), 64, 0, nullptr));
    ASSERT_ACL_OK(aclrtSynchronizeDevice());
    EXPECT_EQ(std::vector<uint8_t>(64, 0), output.read());
}

// The status reports an overflow until a reset task, queued behind the
// reading one, clears it.
TEST_F(SystemTest, OverflowIsReportedUntilReset) {
    DeviceBuffer output(64);
    Stream stream;
    testing::raise_float_overflow(0);
    ASSERT_ACL_OK(aclrtGetFloatOverflowStatus(output.get(), 64, stream.get()));
    ASSERT_ACL_OK(aclrtResetFloatOverflowStatus(stream.get()));
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream.get()));
    std::vector<uint8_t> expected(64, 0);
    expected[0] = 1;
    EXPECT_EQ(expected, output.read());
    ASSERT_ACL_OK(aclrtNpuGetFloatOverFlowStatus(output.get(), 64, 0, stream.get()));
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream.get()));
    EXPECT_EQ(std::vector<uint8_t>(64, 0), output.read());
}

TEST_F(SystemTest, OverflowStatusNeedsSixtyFourBytesOfDeviceMemory) {
    DeviceBuffer output(128);
    EXPECT_ACL_FAILS(aclrtGetOverflowStatus(output.get(), 128, nullptr), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtGetFloatOverflowStatus(nullptr, 64, nullptr), ACL_ERROR_INVALID_PARAM);
    std::vector<uint8_t> host(64);
    EXPECT_ACL_FAILS(aclrtGetOverflowStatus(host.data(), 64, nullptr), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtResetFloatOverflowStatus(reinterpret_cast<aclrtStream>(0x10)), ACL_ERROR_RT_INVALID_HANDLE);
}

TEST_F(SystemTest, OverflowFlagAddressIsNotSupported) {
    void* address = nullptr;
    EXPECT_ACL_FAILS(aclrtCtxGetFloatOverflowAddr(&address), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

// ---- Callbacks ----------------------------------------------------------------

struct StateLog {
    std::vector<std::pair<int32_t, aclrtDeviceState>> states;
};

void log_state(int32_t deviceId, aclrtDeviceState state, void* args) {
    static_cast<StateLog*>(args)->states.emplace_back(deviceId, state);
}

// aclrtRegDeviceStateCallback (04_device_management.md): called before and
// after aclrtSetDevice and aclrtResetDevice; names are unique; a null
// callback removes the registration.
/// Removes a device state registration at scope end, so a failed assertion
/// leaves no callback pointing into a finished test.
class StateRegistration {
public:
    explicit StateRegistration(const char* name) : name_(name) {}
    ~StateRegistration() { aclrtRegDeviceStateCallback(name_, nullptr, nullptr); }
    StateRegistration(const StateRegistration&) = delete;
    StateRegistration& operator=(const StateRegistration&) = delete;

private:
    const char* name_;
};

TEST_F(TwoDeviceTest, DeviceStateCallbacksSeeSetAndReset) {
    StateLog log;
    const StateRegistration cleanup("system_test");
    ASSERT_ACL_OK(aclrtRegDeviceStateCallback("system_test", log_state, &log));
    EXPECT_ACL_FAILS(aclrtRegDeviceStateCallback("system_test", log_state, &log), ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(aclrtSetDevice(1));
    ASSERT_ACL_OK(aclrtResetDevice(1));
    EXPECT_ACL_FAILS(aclrtSetDevice(5), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_ACL_OK(aclrtRegDeviceStateCallback("system_test", nullptr, nullptr));
    ASSERT_ACL_OK(aclrtSetDevice(1));
    ASSERT_ACL_OK(aclrtResetDevice(1));
    const std::vector<std::pair<int32_t, aclrtDeviceState>> expected = {{1, ACL_RT_DEVICE_STATE_SET_PRE},
                                                                         {1, ACL_RT_DEVICE_STATE_SET_POST},
                                                                         {1, ACL_RT_DEVICE_STATE_RESET_PRE},
                                                                         {1, ACL_RT_DEVICE_STATE_RESET_POST}};
    EXPECT_EQ(expected, log.states);
    EXPECT_ACL_FAILS(aclrtRegDeviceStateCallback("", log_state, &log), ACL_ERROR_INVALID_PARAM);
}

struct InitLog {
    std::vector<std::string> configs;
    int finalizations = 0;
};

aclError record_init(const char* configStr, size_t len, void* userData) {
    static_cast<InitLog*>(userData)->configs.emplace_back(configStr, len);
    return ACL_SUCCESS;
}

aclError record_finalize(void* userData) {
    static_cast<InitLog*>(userData)->finalizations += 1;
    return ACL_SUCCESS;
}

// aclInitCallbackRegister (02_initialization_and_deinitialization.md): before
// aclInit the callback runs at initialisation with the JSON file's text;
// after aclInit it runs at once.  aclFinalizeCallbackRegister: runs at
// finalisation.
/// Removes the init and finalize registrations of the test at scope end.
struct LifecycleRegistrations {
    LifecycleRegistrations() = default;
    ~LifecycleRegistrations() {
        aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, record_init);
        aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, record_init);
        aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, record_finalize);
    }
    LifecycleRegistrations(const LifecycleRegistrations&) = delete;
    LifecycleRegistrations& operator=(const LifecycleRegistrations&) = delete;
};

TEST_F(LifecycleTest, InitAndFinalizeCallbacksRunAroundTheSpan) {
    InitLog log;
    const LifecycleRegistrations cleanup;
    const std::string json = R"({"acl_cpu": {"device_count": 1}})";
    TempFile config(json);
    ASSERT_ACL_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, record_init, &log));
    ASSERT_ACL_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, record_finalize, &log));
    ASSERT_ACL_OK(aclInit(config.path()));
    ASSERT_EQ(1u, log.configs.size());
    EXPECT_EQ(json, log.configs[0]);
    ASSERT_ACL_OK(aclInit(nullptr));  // A second reference opens no new span.
    EXPECT_EQ(1u, log.configs.size());
    ASSERT_ACL_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, record_init, &log));
    ASSERT_EQ(2u, log.configs.size());
    EXPECT_EQ(json, log.configs[1]);
    EXPECT_ACL_OK(aclFinalize());
    EXPECT_EQ(0, log.finalizations);
    EXPECT_ACL_OK(aclFinalize());
    EXPECT_EQ(1, log.finalizations);
    ASSERT_ACL_OK(aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, record_init));
    ASSERT_ACL_OK(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, record_init));
    ASSERT_ACL_OK(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, record_finalize));
    ASSERT_ACL_OK(aclInit(nullptr));
    EXPECT_ACL_OK(aclFinalize());
    EXPECT_EQ(2u, log.configs.size());
    EXPECT_EQ(1, log.finalizations);
}

TEST_F(LifecycleTest, CallbackRegistrationChecksItsArguments) {
    EXPECT_ACL_FAILS(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclFinalizeCallbackRegister(static_cast<aclRegisterCallbackType>(100), record_finalize, nullptr),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, nullptr), ACL_ERROR_INVALID_PARAM);
}

// ---- Exception information (13_exception_handling.md) -----------------------

/// A device task that fails as an AI Core exception would.
class FailingTask final : public DeviceTask {
public:
    aclError run() override { return ACL_ERROR_RT_AICORE_EXCEPTION; }
    const char* name() const noexcept override { return "failing"; }
};

/// What the exception callbacks saw, read through CANN's getters.
struct SeenException {
    uint32_t device, stream, task, thread, code;
};

std::mutex gSeenMutex;
std::vector<SeenException> gSeenByRegistered;
int gSeenByLegacy = 0;

SeenException read_exception(const aclrtExceptionInfo* info) {
    return {aclrtGetDeviceIdFromExceptionInfo(info), aclrtGetStreamIdFromExceptionInfo(info),
            aclrtGetTaskIdFromExceptionInfo(info), aclrtGetThreadIdFromExceptionInfo(info),
            aclrtGetErrorCodeFromExceptionInfo(info)};
}

void registered_callback(aclrtExceptionInfo* info) {
    const SeenException seen = read_exception(info);
    std::lock_guard<std::mutex> lock(gSeenMutex);
    gSeenByRegistered.push_back(seen);
}

void legacy_callback(aclrtExceptionInfo*) {
    std::lock_guard<std::mutex> lock(gSeenMutex);
    gSeenByLegacy += 1;
}

class ExceptionTest : public RuntimeTest {
protected:
    void SetUp() override {
        RuntimeTest::SetUp();
        std::lock_guard<std::mutex> lock(gSeenMutex);
        gSeenByRegistered.clear();
        gSeenByLegacy = 0;
    }
    void TearDown() override {
        EXPECT_ACL_OK(aclrtExceptionInfoCallbackUnregister(registered_callback));
        EXPECT_ACL_OK(aclrtSetExceptionInfoCallback(nullptr));
        RuntimeTest::TearDown();
    }
};

// aclrtExceptionInfoCallbackRegister: a failing task's information (task,
// stream, device, error code) reaches every registered callback and the one
// of aclrtSetExceptionInfoCallback, before the stream reports the failure.
TEST_F(ExceptionTest, FailingTaskReachesTheCallbacks) {
    ASSERT_ACL_OK(aclrtExceptionInfoCallbackRegister(registered_callback));
    ASSERT_ACL_OK(aclrtExceptionInfoCallbackRegister(registered_callback));  // Kept once.
    ASSERT_ACL_OK(aclrtSetExceptionInfoCallback(legacy_callback));
    Stream stream;
    ASSERT_ACL_OK(enqueue(stream.get(), std::make_unique<FailingTask>()));
    uint32_t taskId = 0;
    ASSERT_ACL_OK(aclrtGetThreadLastTaskId(&taskId));
    EXPECT_ACL_FAILS(aclrtSynchronizeStream(stream.get()), ACL_ERROR_RT_AICORE_EXCEPTION);
    int32_t streamId = -1;
    ASSERT_ACL_OK(aclrtStreamGetId(stream.get(), &streamId));
    std::lock_guard<std::mutex> lock(gSeenMutex);
    ASSERT_EQ(1u, gSeenByRegistered.size());
    const SeenException& seen = gSeenByRegistered[0];
    EXPECT_EQ(0u, seen.device);
    EXPECT_EQ(static_cast<uint32_t>(streamId), seen.stream);
    EXPECT_EQ(taskId, seen.task);
    EXPECT_EQ(static_cast<uint32_t>(ACL_ERROR_RT_AICORE_EXCEPTION), seen.code);
    EXPECT_NE(0u, seen.thread);
    EXPECT_EQ(1, gSeenByLegacy);
}

// aclrtExceptionInfoCallbackUnregister: later failures no longer reach it;
// a null callback is a parameter error.
TEST_F(ExceptionTest, UnregisteredCallbacksHearNothing) {
    ASSERT_ACL_OK(aclrtExceptionInfoCallbackRegister(registered_callback));
    ASSERT_ACL_OK(aclrtExceptionInfoCallbackUnregister(registered_callback));
    Stream stream;
    ASSERT_ACL_OK(enqueue(stream.get(), std::make_unique<FailingTask>()));
    EXPECT_ACL_FAILS(aclrtSynchronizeStream(stream.get()), ACL_ERROR_RT_AICORE_EXCEPTION);
    {
        std::lock_guard<std::mutex> lock(gSeenMutex);
        EXPECT_TRUE(gSeenByRegistered.empty());
    }
    EXPECT_ACL_FAILS(aclrtExceptionInfoCallbackRegister(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtExceptionInfoCallbackUnregister(nullptr), ACL_ERROR_INVALID_PARAM);
}

// aclrtGetTaskIdFromExceptionInfo and the other getters: 0xFFFFFFFF for no information.
TEST_F(ExceptionTest, GettersAnswerNullInformationWithAllOnes) {
    EXPECT_EQ(0xFFFFFFFFu, aclrtGetTaskIdFromExceptionInfo(nullptr));
    EXPECT_EQ(0xFFFFFFFFu, aclrtGetDeviceIdFromExceptionInfo(nullptr));
    EXPECT_EQ(0xFFFFFFFFu, aclrtGetErrorCodeFromExceptionInfo(nullptr));
    EXPECT_NE("", take_error_message());
}

// aclrtGetThreadLastTaskId (12_execution_control.md): the last task this
// thread submitted to a stream it created; tasks increase in stream order.
TEST_F(ExceptionTest, LastTaskIdFollowsTheCallingThread) {
    std::thread fresh([] {
        uint32_t taskId = 0;
        EXPECT_ACL_FAILS(aclrtGetThreadLastTaskId(&taskId), ACL_ERROR_INVALID_PARAM);
    });
    fresh.join();
    Stream stream;
    DeviceBuffer buffer(64);
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), 64, 0, 64, stream.get()));
    uint32_t first = 0, second = 0;
    ASSERT_ACL_OK(aclrtGetThreadLastTaskId(&first));
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), 64, 1, 64, stream.get()));
    ASSERT_ACL_OK(aclrtGetThreadLastTaskId(&second));
    EXPECT_GT(second, first);
    // The default stream is not a created one (the created one is drained
    // first: the two streams would otherwise race on the buffer).
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream.get()));
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), 64, 2, 64, nullptr));
    ASSERT_ACL_OK(aclrtGetThreadLastTaskId(&first));
    EXPECT_EQ(second, first);
    EXPECT_ACL_OK(aclrtSynchronizeDevice());
    EXPECT_ACL_FAILS(aclrtGetThreadLastTaskId(nullptr), ACL_ERROR_INVALID_PARAM);
}

// aclrtGetErrorVerbose / aclrtRepairError: without hardware there is no
// device fault to describe or repair.
TEST_F(ExceptionTest, DevicesReportNoHardwareFault) {
    aclrtErrorInfo info;
    std::memset(&info, 0x5A, sizeof info);
    ASSERT_ACL_OK(aclrtGetErrorVerbose(0, &info));
    EXPECT_EQ(ACL_RT_NO_ERROR, info.errorType);
    EXPECT_EQ(0, info.tryRepair);
    EXPECT_EQ(0, info.hasDetail);
    EXPECT_ACL_OK(aclrtRepairError(0, &info));
    info.errorType = ACL_RT_ERROR_MEMORY;
    EXPECT_ACL_FAILS(aclrtRepairError(0, &info), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtGetErrorVerbose(4, &info), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_ACL_FAILS(aclrtGetErrorVerbose(0, nullptr), ACL_ERROR_INVALID_PARAM);
}

// 21_snapshot_management.md: snapshots are unsupported by design.
TEST_F(ExceptionTest, SnapshotsAreNotSupported) {
    EXPECT_ACL_FAILS(aclrtSnapShotProcessLock(static_cast<int>(getpid()), nullptr), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    void* address = nullptr;
    EXPECT_ACL_FAILS(aclrtGetHardwareSyncAddr(&address), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

// ---- Groups (16_group_management.md) --------------------------------------------

/// One attribute of group 0 read with aclrtGetGroupInfoDetail.
int32_t group_figure(const aclrtGroupInfo* info, aclrtGroupAttr attr) {
    int32_t value = -1;
    size_t returned = 0;
    EXPECT_ACL_OK(aclrtGetGroupInfoDetail(info, 0, attr, &value, sizeof value, &returned));
    EXPECT_EQ(sizeof value, returned);
    return value;
}

// The documented order: aclrtGetAllGroupInfo, aclrtGetGroupCount,
// aclrtGetGroupInfoDetail, aclrtSetGroup.  A device that does not partition
// its cores has one group with all of them.
TEST_F(SystemTest, OneGroupHoldsEveryCore) {
    aclrtGroupInfo* info = aclrtCreateGroupInfo();
    ASSERT_NE(nullptr, info);
    int32_t value = 0;
    size_t returned = 0;
    EXPECT_ACL_FAILS(aclrtGetGroupInfoDetail(info, 0, ACL_GROUP_AICORE_INT, &value, sizeof value, &returned),
                     ACL_ERROR_INVALID_PARAM);  // Not filled yet.
    ASSERT_ACL_OK(aclrtGetAllGroupInfo(info));
    uint32_t count = 0;
    ASSERT_ACL_OK(aclrtGetGroupCount(&count));
    EXPECT_EQ(1u, count);
    int64_t cubeCores = 0, vectorCores = 0;
    ASSERT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &cubeCores));
    ASSERT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &vectorCores));
    EXPECT_EQ(cubeCores, group_figure(info, ACL_GROUP_AICORE_INT));
    EXPECT_EQ(vectorCores, group_figure(info, ACL_GROUP_AIV_INT));
    const int32_t activeStreams = group_figure(info, ACL_GROUP_ASQNUM_INT);
    EXPECT_GE(activeStreams, 1);
    EXPECT_LE(activeStreams, 32);
    const int32_t groupId = group_figure(info, ACL_GROUP_GROUPID_INT);
    EXPECT_ACL_OK(aclrtSetGroup(groupId));
    EXPECT_ACL_FAILS(aclrtSetGroup(groupId + 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtGetGroupInfoDetail(info, 1, ACL_GROUP_AICORE_INT, &value, sizeof value, &returned),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtGetGroupInfoDetail(info, 0, ACL_GROUP_AICORE_INT, &value, 2, &returned),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(
        aclrtGetGroupInfoDetail(info, 0, static_cast<aclrtGroupAttr>(9), &value, sizeof value, &returned),
        ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(aclrtDestroyGroupInfo(info));
    EXPECT_ACL_FAILS(aclrtDestroyGroupInfo(info), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtGetAllGroupInfo(info), ACL_ERROR_INVALID_PARAM);
}

TEST_F(LifecycleTest, GroupsBelongToTheCurrentContext) {
    ASSERT_ACL_OK(aclInit(nullptr));
    uint32_t count = 0;
    EXPECT_ACL_FAILS(aclrtGetGroupCount(&count), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_ACL_FAILS(aclrtSetGroup(0), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_ACL_OK(aclFinalize());
}

}  // namespace
}  // namespace aclcpu::test
