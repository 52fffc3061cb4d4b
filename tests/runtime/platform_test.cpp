// Platform queries (acl/acl_platform.h; docs/zh/api_ref/24_other_APIs.md of
// hicann/runtime): "numbers as decimal strings"; a buffer too small for the
// answer is an error.  The expected values are CANN's platform description
// of the default part, the Ascend910B2 (src/platform/platform_config/cann/
// Ascend910B2.ini), and src/platform/acl_platform.cpp gives the codes.
#include <gtest/gtest.h>

#include <string>

#include "acl/acl_platform.h"
#include "runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

using PlatformTest = RuntimeTest;

std::string device_info(aclplatformDevInfo type) {
    char value[64] = {};
    EXPECT_ACL_OK(aclplatformGetDeviceInfo(type, value, sizeof value));
    return value;
}

TEST_F(PlatformTest, DeviceInfoDescribesTheAscend910B2) {
    EXPECT_EQ("24", device_info(ACL_PLATFORM_AICORE_CNT));
    EXPECT_EQ("24", device_info(ACL_PLATFORM_CUBE_CORE_CNT));
    EXPECT_EQ("48", device_info(ACL_PLATFORM_VECTOR_CORE_CNT));
    EXPECT_EQ("196608", device_info(ACL_PLATFORM_AICORE_UB_SIZE));
    EXPECT_EQ("201326592", device_info(ACL_PLATFORM_L2_SIZE));
    EXPECT_EQ("68719476736", device_info(ACL_PLATFORM_MEMORY_SIZE));
    EXPECT_EQ("1800", device_info(ACL_PLATFORM_CUBE_FREQ));
    EXPECT_EQ("1024", device_info(ACL_PLATFORM_BT_SIZE));
    EXPECT_EQ("65536", device_info(ACL_PLATFORM_L0_A_SIZE));
    EXPECT_EQ("65536", device_info(ACL_PLATFORM_L0_B_SIZE));
    EXPECT_EQ("131072", device_info(ACL_PLATFORM_L0_C_SIZE));
    EXPECT_EQ("524288", device_info(ACL_PLATFORM_L1_SIZE));
    EXPECT_EQ("Ascend910B2", device_info(ACL_PLATFORM_SOC_VERSION));
    EXPECT_EQ("AIC-C-220", device_info(ACL_PLATFORM_AIC_VERSION));
    EXPECT_EQ(std::to_string(DAV_2201), device_info(ACL_PLATFORM_NPU_ARCH));
}

// acl_platform.cpp: an unknown type, a null or empty buffer, one too small
// for the answer, and an entry the part's description leaves out or empty
// (the 910B2 has no vec_freq and an empty memory_type) are ACL_ERROR_INVALID_PARAM.
TEST_F(PlatformTest, DeviceInfoRefusesBadArgumentsAndMissingEntries) {
    char value[64] = {};
    EXPECT_ACL_FAILS(aclplatformGetDeviceInfo(static_cast<aclplatformDevInfo>(17), value, sizeof value),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclplatformGetDeviceInfo(static_cast<aclplatformDevInfo>(-1), value, sizeof value),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclplatformGetDeviceInfo(ACL_PLATFORM_AICORE_CNT, nullptr, sizeof value), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclplatformGetDeviceInfo(ACL_PLATFORM_AICORE_CNT, value, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclplatformGetDeviceInfo(ACL_PLATFORM_SOC_VERSION, value, 11), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_OK(aclplatformGetDeviceInfo(ACL_PLATFORM_SOC_VERSION, value, 12));
    EXPECT_ACL_FAILS(aclplatformGetDeviceInfo(ACL_PLATFORM_VEC_FREQ, value, sizeof value), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclplatformGetDeviceInfo(ACL_PLATFORM_MEMORY_TYPE, value, sizeof value), ACL_ERROR_INVALID_PARAM);
}

// acl-cpu runs no AI Core instructions, so it cannot say which dtypes one takes.
TEST_F(PlatformTest, InstructionInfoIsNotSupported) {
    char value[64] = {};
    EXPECT_ACL_FAILS(aclplatformGetInstructionInfo(ACL_PLATFORM_CORE_TYPE_VECTOR_CORE, "vadd", value, sizeof value),
                     ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

}  // namespace
}  // namespace aclcpu::test
