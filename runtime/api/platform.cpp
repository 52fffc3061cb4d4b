// acl-cpu runtime API: platform queries (acl/acl_platform.h;
// 24_other_APIs.md): the hardware description of the emulated SoC, from its
// profile and CANN's platform description of the part.
#include <cstring>
#include <string>

#include "acl/acl_platform.h"
#include "aclcpu/dtype.hpp"
#include "aclcpu/soc_profile.hpp"
#include "api/unsupported.hpp"
#include "core/errors.hpp"

using aclcpu::api::not_supported;
using aclcpu::detail::param_error;

namespace {

/// The parts of CANN's platform description of a SoC that its profile
/// (aclcpu::SocProfile, what the operators tile by) does not hold.
struct CoreDescription {
    const char* soc;
    int64_t cubeFreqMHz;
    int64_t btSize;   ///< BiasTable bytes per AI Core.
    int64_t l0aSize;  ///< L0A buffer bytes per AI Core.
    int64_t l0bSize;
    int64_t l0cSize;
    int64_t l1Size;
    const char* aicVersion;
    int64_t npuArch;  ///< An aclplatformNpuArch code.
};

constexpr char kNoInstructionSet[] =
    "it describes the AI Core instruction set, and acl-cpu runs no AI Core instructions (its operators are host code)";

constexpr int64_t kKiB = 1024;
constexpr CoreDescription kCoreDescriptions[] = {
    {"Ascend910B1", 1850, kKiB, 64 * kKiB, 64 * kKiB, 128 * kKiB, 512 * kKiB, "AIC-C-220", DAV_2201},
    {"Ascend910B2", 1800, kKiB, 64 * kKiB, 64 * kKiB, 128 * kKiB, 512 * kKiB, "AIC-C-220", DAV_2201},
    {"Ascend910B3", 1800, kKiB, 64 * kKiB, 64 * kKiB, 128 * kKiB, 512 * kKiB, "AIC-C-220", DAV_2201},
    {"Ascend910B4", 1500, kKiB, 64 * kKiB, 64 * kKiB, 128 * kKiB, 512 * kKiB, "AIC-C-220", DAV_2201},
};

const CoreDescription* core_description(const char* soc) {
    for (const CoreDescription& description : kCoreDescriptions) {
        if (std::strcmp(description.soc, soc) == 0) return &description;
    }
    return nullptr;
}

/// The answer to infoType as CANN gives it (numbers in decimal), or "" for
/// an entry CANN's description of the part leaves out or empty (the vector
/// clock, the memory type), which CANN reports as missing.
std::string device_info(const aclcpu::SocProfile& soc, int64_t infoType) {
    switch (infoType) {
        case ACL_PLATFORM_AICORE_CNT:
        case ACL_PLATFORM_CUBE_CORE_CNT: return std::to_string(soc.aiCoreCount);
        case ACL_PLATFORM_AICORE_UB_SIZE: return std::to_string(soc.ubSize);
        case ACL_PLATFORM_VECTOR_CORE_CNT: return std::to_string(soc.vectorCoreCount);
        case ACL_PLATFORM_L2_SIZE: return std::to_string(soc.l2Size);
        case ACL_PLATFORM_MEMORY_SIZE: return std::to_string(soc.hbmBytes);
        case ACL_PLATFORM_SOC_VERSION: return soc.name;
        default: break;
    }
    const CoreDescription* core = core_description(soc.name);
    if (core == nullptr) return {};
    switch (infoType) {
        case ACL_PLATFORM_CUBE_FREQ: return std::to_string(core->cubeFreqMHz);
        case ACL_PLATFORM_BT_SIZE: return std::to_string(core->btSize);
        case ACL_PLATFORM_L0_A_SIZE: return std::to_string(core->l0aSize);
        case ACL_PLATFORM_L0_B_SIZE: return std::to_string(core->l0bSize);
        case ACL_PLATFORM_L0_C_SIZE: return std::to_string(core->l0cSize);
        case ACL_PLATFORM_L1_SIZE: return std::to_string(core->l1Size);
        case ACL_PLATFORM_AIC_VERSION: return core->aicVersion;
        case ACL_PLATFORM_NPU_ARCH: return std::to_string(core->npuArch);
        default: return {};  // ACL_PLATFORM_VEC_FREQ, ACL_PLATFORM_MEMORY_TYPE
    }
}

}  // namespace

extern "C" {

aclError aclplatformGetDeviceInfo(aclplatformDevInfo infoType, char* value, uint32_t maxLen) {
    constexpr const char* kApi = "aclplatformGetDeviceInfo";
    const int64_t type = aclcpu::code_of(infoType);
    if (type < ACL_PLATFORM_AICORE_CNT || type > ACL_PLATFORM_MEMORY_TYPE) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: infoType %lld is not an aclplatformDevInfo", kApi,
                           static_cast<long long>(type));
    }
    if (value == nullptr || maxLen == 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: value must not be null and maxLen not 0", kApi);
    }
    const aclcpu::SocProfile& soc = aclcpu::soc_profile();
    const std::string answer = device_info(soc, type);
    if (answer.empty()) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: the platform description of %s has no entry for infoType %lld",
                           kApi, soc.name, static_cast<long long>(type));
    }
    if (answer.size() >= maxLen) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: the answer takes %zu bytes with its terminator, maxLen is %u",
                           kApi, answer.size() + 1, maxLen);
    }
    std::memcpy(value, answer.c_str(), answer.size() + 1);
    return ACL_SUCCESS;
}

aclError aclplatformGetInstructionInfo(aclplatformCoreType, const char*, char*, uint32_t) {
    return not_supported(__func__, kNoInstructionSet);
}

}  // extern "C"
