// acl-cpu runtime API: versions, CANN attributes, device queries and
// process-wide settings (acl_rt.h, acl_base_rt.h).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include <unistd.h>

#include "acl/acl.h"
#include "aclcpu/device_task.hpp"
#include "aclcpu/dtype.hpp"
#include "aclcpu/memcheck.hpp"
#include "api/arguments.hpp"
#include "api/unsupported.hpp"
#include "core/config.hpp"
#include "core/errors.hpp"
#include "core/handle_registry.hpp"
#include "core/process_settings.hpp"
#include "core/runtime_state.hpp"
#include "observe/runtime_hooks.hpp"

// aclsysGetCANNVersion is deprecated by CANN, yet still part of its API.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

using aclcpu::api::check_device_id;
using aclcpu::api::not_supported;
using aclcpu::detail::param_error;
using aclcpu::detail::ProcessSettings;
using aclcpu::detail::register_named;
using aclcpu::detail::Runtime;
using aclcpu::detail::runtime_error;

namespace {

/// The packages of a CANN install that acl-cpu stands in for: the runtime
/// (and CANN as a whole, which CANN answers with the runtime's version) and
/// the operator packages.  Compiler, HCCL, tools and driver are not emulated.
constexpr const char* kProvidedPackages[] = {"cann", "runtime", "ops-legacy", "ops-nn", "ops-math"};

/// Every provided package carries the version of the API acl-cpu mirrors.
std::string version_text() {
    return std::to_string(ACL_MAJOR_VERSION) + "." + std::to_string(ACL_MINOR_VERSION) + "." +
           std::to_string(ACL_PATCH_VERSION);
}

/// CANN's numeric version: major, minor and patch weighted 10^7, 10^5, 10^3
/// so that later releases compare greater (24_other_APIs.md, aclsysGetVersionNum).
int32_t version_number() {
    return ACL_MAJOR_VERSION * 10000000 + ACL_MINOR_VERSION * 100000 + ACL_PATCH_VERSION * 1000;
}

/// Checks pkgName: CANN spells a package with '-' or '_' alike.
aclError check_package(const char* pkgName, const char* api) {
    if (pkgName == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: pkgName is null", api);
    std::string name(pkgName);
    for (char& c : name) c = c == '_' ? '-' : c;
    for (const char* provided : kProvidedPackages) {
        if (name == provided) return ACL_SUCCESS;
    }
    return param_error(ACL_ERROR_INVALID_FILE, "%s: package \"%s\" is not installed (acl-cpu provides the runtime "
                                               "and operator packages only)", api, pkgName);
}

aclError null_output(const char* api, const char* name) {
    return param_error(ACL_ERROR_INVALID_PARAM, "%s: %s is null", api, name);
}

/// The emulated devices sit on PCI buses 0x01, 0x02, ... of domain 0.
constexpr int kFirstPciBus = 0x01;
constexpr int32_t kPciBusIdLength = 13;  ///< "dddd:bb:dd.f" and its terminating NUL.

/// Device ids are the same in the user's, the logical and the physical
/// numbering: the emulation has no ASCEND_RT_VISIBLE_DEVICES and no container
/// remapping (04_device_management.md, aclrtGetLogicDevIdByUserDevId).
aclError map_device_id(int32_t from, int32_t* to, const char* api) {
    if (to == nullptr) return null_output(api, "the output device id");
    if (aclError status = check_device_id(from, api); status != ACL_SUCCESS) return status;
    *to = from;
    return ACL_SUCCESS;
}

/// What a host or a peer device may do atomically on a device's memory.
/// Device memory is ordinary host memory here, so both see the CPU's
/// lock-free 32- and 64-bit atomics; DMA and SIMD atomics have no engine.
uint32_t atomic_capability(int64_t operation) {
    constexpr uint32_t kScalars = ACL_RT_ATOMIC_CAPABILITY_SCALAR32 | ACL_RT_ATOMIC_CAPABILITY_SCALAR64;
    if (operation >= ACL_RT_ATOMIC_OPERATION_INTEGER_ADD && operation <= ACL_RT_ATOMIC_OPERATION_CAS) {
        return ACL_RT_ATOMIC_CAPABILITY_SIGNED | ACL_RT_ATOMIC_CAPABILITY_UNSIGNED | kScalars;
    }
    if (operation >= ACL_RT_ATOMIC_OPERATION_FLOAT_ADD && operation <= ACL_RT_ATOMIC_OPERATION_FLOAT_MAX) {
        return kScalars;
    }
    return 0;
}

bool is_atomic_operation(int64_t operation) {
    return (operation >= ACL_RT_ATOMIC_OPERATION_INTEGER_ADD && operation <= ACL_RT_ATOMIC_OPERATION_FLOAT_MAX) ||
           (operation >= ACL_RT_ATOMIC_OPERATION_DMA_ADD && operation <= ACL_RT_ATOMIC_OPERATION_DMA_MAX) ||
           (operation >= ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_ADD &&
            operation <= ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH);
}

aclError atomic_capabilities(uint32_t* capabilities, const aclrtAtomicOperation* operations, uint32_t count,
                             const char* api) {
    if (capabilities == nullptr) return null_output(api, "capabilities");
    if (operations == nullptr) return null_output(api, "operations");
    if (count == 0) return param_error(ACL_ERROR_INVALID_PARAM, "%s: count is 0", api);
    for (uint32_t i = 0; i < count; ++i) {
        const int64_t operation = aclcpu::code_of(operations[i]);
        if (!is_atomic_operation(operation)) {
            return param_error(ACL_ERROR_INVALID_PARAM, "%s: operations[%u] = %lld is not an aclrtAtomicOperation",
                               api, i, static_cast<long long>(operation));
        }
        capabilities[i] = atomic_capability(operation);
    }
    return ACL_SUCCESS;
}

/// aclrtDevAttr of the emulated SoC (25-02_Enumerations.md, aclrtDevAttr).
/// The SIMT attributes (202-212) exist on Ascend 950 only, and the docs have
/// the other SoCs answer 0; an Atlas A2 server is no super-pod member.
aclError device_attribute(int64_t attr, const aclcpu::SocProfile& soc, int32_t deviceId, int64_t& value) {
    constexpr int64_t kAscend910bArch = 2201;  // __NPU_ARCH__ of the Atlas A2 (dav-c220) cores.
    switch (attr) {
        case ACL_DEV_ATTR_AICPU_CORE_NUM: value = 0; return ACL_SUCCESS;  // No AI CPU kernels run here.
        case ACL_DEV_ATTR_AICORE_CORE_NUM:
        case ACL_DEV_ATTR_CUBE_CORE_NUM: value = soc.aiCoreCount; return ACL_SUCCESS;
        case ACL_DEV_ATTR_VECTOR_CORE_NUM: value = soc.vectorCoreCount; return ACL_SUCCESS;
        case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE:
            value = static_cast<int64_t>(Runtime::instance().config().memoryCapacity);
            return ACL_SUCCESS;
        case ACL_DEV_ATTR_L2_CACHE_SIZE: value = soc.l2Size; return ACL_SUCCESS;
        case ACL_DEV_ATTR_PHY_CHIP_ID: value = deviceId; return ACL_SUCCESS;
        case ACL_DEV_ATTR_SMP_ID:
        case ACL_DEV_ATTR_CUST_OP_PRIVILEGE:
        case ACL_DEV_ATTR_MAINBOARD_ID:
        case ACL_DEV_ATTR_HD_CONNECT_TYPE:
        case ACL_DEV_ATTR_IS_VIRTUAL: value = 0; return ACL_SUCCESS;
        case ACL_DEV_ATTR_DEVICE_FORM_FACTOR: value = ACL_DEVICE_FORM_FACTOR_PCIE_CARD; return ACL_SUCCESS;
        case ACL_DEV_ATTR_NPU_ARCH: value = kAscend910bArch; return ACL_SUCCESS;
        case ACL_DEV_ATTR_SUPER_POD_DEVICE_ID:
        case ACL_DEV_ATTR_SUPER_POD_SERVER_ID:
        case ACL_DEV_ATTR_SUPER_POD_ID:
            return runtime_error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                 "aclrtGetDeviceInfo: attribute %lld: the emulated device is not in a super pod",
                                 static_cast<long long>(attr));
        default:
            if (attr >= ACL_DEV_ATTR_WARP_SIZE && attr <= ACL_DEV_ATTR_MAX_BLOCK_DIM_Z) {
                value = 0;
                return ACL_SUCCESS;
            }
            return param_error(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceInfo: unknown attribute %lld",
                               static_cast<long long>(attr));
    }
}

/// Checks and rounds a value of aclrtDeviceSetLimit for one of the SIMD
/// limits, the only ones an Atlas A2 has (25-02_Enumerations.md, aclrtDeviceLimit).
aclError round_simd_limit(int64_t limit, size_t value, size_t& rounded) {
    constexpr size_t kKiB = 1024;
    if (limit == ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE) {
        if (value > 192 * kKiB) {
            return param_error(ACL_ERROR_RT_PARAM_INVALID,
                               "aclrtDeviceSetLimit: SIMD stack size %zu is above 196608 bytes", value);
        }
        rounded = value <= 32 * kKiB ? 32 * kKiB : (value + 16 * kKiB - 1) / (16 * kKiB) * (16 * kKiB);
        return ACL_SUCCESS;
    }
    if (value < kKiB || value > 64 * kKiB * kKiB) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID,
                           "aclrtDeviceSetLimit: SIMD printf FIFO size %zu is not in [1 KiB, 64 MiB]", value);
    }
    rounded = (value + 7) / 8 * 8;
    return ACL_SUCCESS;
}

/// Accepts the SIMD limits; reports the SIMT ones, which an Atlas A2 lacks, and unknown kinds.
aclError check_device_limit(int64_t limit, const char* api) {
    if (limit == ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE || limit == ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE) {
        return ACL_SUCCESS;
    }
    if (limit >= ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE && limit <= ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE) {
        return runtime_error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                             "%s: limit %lld is a SIMT limit; the emulated Atlas A2 has no SIMT cores", api,
                             static_cast<long long>(limit));
    }
    return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown limit %lld", api, static_cast<long long>(limit));
}

aclError check_res_limit_type(int64_t type, const char* api) {
    if (type == ACL_RT_DEV_RES_CUBE_CORE || type == ACL_RT_DEV_RES_VECTOR_CORE) return ACL_SUCCESS;
    return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown resource type %lld", api, static_cast<long long>(type));
}

/// aclSysParamOpt values as documented (25-02_Enumerations.md, aclSysParamOpt).
aclError check_sys_param(int64_t option, int64_t value, const char* api) {
    switch (option) {
        case ACL_OPT_DETERMINISTIC:
            if (value >= 0 && value < 4) return ACL_SUCCESS;
            break;
        case ACL_OPT_ENABLE_DEBUG_KERNEL:
        case ACL_OPT_STRONG_CONSISTENCY:
        case ACL_OPT_ENABLE_KERNEL_EARLY_START:
            if (value == 0 || value == 1) return ACL_SUCCESS;
            break;
        default:
            return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown option %lld", api, static_cast<long long>(option));
    }
    return param_error(ACL_ERROR_INVALID_PARAM, "%s: value %lld is out of range for option %lld", api,
                       static_cast<long long>(value), static_cast<long long>(option));
}

/// The device of the current context, by id.
aclError current_device_id(const char* api, int32_t& id) {
    aclcpu::detail::Device* device = nullptr;
    if (aclError status = aclcpu::detail::current_device(api, device); status != ACL_SUCCESS) return status;
    id = device->id();
    return ACL_SUCCESS;
}

/// Writes the device's overflow record when the stream reaches it: the first
/// 8 bytes hold 1 if work on the device overflowed, 0 if not; the rest is 0.
class OverflowStatusTask final : public aclcpu::DeviceTask {
public:
    OverflowStatusTask(void* output, int32_t deviceId, const char* api)
        : output_(output), deviceId_(deviceId), api_(api) {}
    aclError run() noexcept override {
        // The output may have been freed since the call.
        const aclcpu::DeviceAccess output{output_, aclcpu::detail::kOverflowRecordBytes, "outputAddr", -1};
        if (aclcpu::memcheck_enabled()) {
            if (aclError fault = aclcpu::check_device_accesses(name(), &output, 1); fault != ACL_SUCCESS) return fault;
        }
        unsigned char record[aclcpu::detail::kOverflowRecordBytes] = {};
        const uint64_t flag = ProcessSettings::instance().overflowed(deviceId_) ? 1 : 0;
        std::memcpy(record, &flag, sizeof flag);
        std::memcpy(output_, record, sizeof record);
        return ACL_SUCCESS;
    }
    const char* name() const noexcept override { return api_; }

private:
    void* output_;
    int32_t deviceId_;
    const char* api_;
};

/// Clears the device's overflow flag when the stream reaches it.
class ClearOverflowTask final : public aclcpu::DeviceTask {
public:
    ClearOverflowTask(int32_t deviceId, const char* api) : deviceId_(deviceId), api_(api) {}
    aclError run() noexcept override {
        ProcessSettings::instance().clear_overflow(deviceId_);
        return ACL_SUCCESS;
    }
    const char* name() const noexcept override { return api_; }

private:
    int32_t deviceId_;
    const char* api_;
};

/// The overflow status is one flag per device (process-wide on Atlas A2,
/// 04_device_management.md, aclrtGetOverflowStatus), read or cleared in
/// stream order.
aclError get_overflow_status(void* output, uint64_t size, aclrtStream handle, const char* api) {
    if (output == nullptr) return null_output(api, "outputAddr");
    if (size != aclcpu::detail::kOverflowRecordBytes) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: outputSize is %llu, must be %zu", api,
                           static_cast<unsigned long long>(size), aclcpu::detail::kOverflowRecordBytes);
    }
    Runtime& runtime = Runtime::instance();
    if (runtime.classify(output, size) != aclcpu::detail::MemoryKind::kDevice) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: %p is not %llu bytes of device memory", api, output,
                           static_cast<unsigned long long>(size));
    }
    std::shared_ptr<aclcpu::detail::Stream> stream;
    if (aclError status = runtime.resolve_work_stream(handle, api, stream); status != ACL_SUCCESS) return status;
    return stream->submit(std::make_unique<OverflowStatusTask>(output, stream->device().id(), api),
                          [api] { return aclcpu::detail::plain_work(api, "task"); });
}

aclError reset_overflow_status(aclrtStream handle, const char* api) {
    std::shared_ptr<aclcpu::detail::Stream> stream;
    if (aclError status = Runtime::instance().resolve_work_stream(handle, api, stream); status != ACL_SUCCESS) {
        return status;
    }
    return stream->submit(std::make_unique<ClearOverflowTask>(stream->device().id(), api),
                          [api] { return aclcpu::detail::plain_work(api, "task"); });
}

/// The one group of an emulated device: all of its cores.  Devices that
/// partition their cores into groups report one entry per group; the
/// emulation does not partition (16_group_management.md).
constexpr int32_t kOnlyGroupId = 0;
constexpr uint32_t kGroupCount = 1;
/// The system schedules at most 32 streams at once (25-02_Enumerations.md, aclrtGroupAttr).
constexpr uint32_t kMaxActiveStreams = 32;

}  // namespace

/// What aclrtGetAllGroupInfo fills in for the group.
struct tagRtGroupInfo {
    bool filled = false;
    int32_t groupId = kOnlyGroupId;
    uint32_t aicoreNum = 0;
    uint32_t aivectorNum = 0;
    uint32_t aicpuNum = 0;
    uint32_t sdmaNum = 0;
    uint32_t activeStreamNum = 0;
};

namespace {

/// Group infos live from aclrtCreateGroupInfo to aclrtDestroyGroupInfo,
/// whatever aclInit spans they cross.
aclcpu::detail::HandleRegistry<tagRtGroupInfo>& group_infos() {
    static auto* registry = new aclcpu::detail::HandleRegistry<tagRtGroupInfo>();  // Usable from atexit handlers.
    return *registry;
}

aclError find_group_info(const aclrtGroupInfo* handle, const char* api, std::shared_ptr<tagRtGroupInfo>& info) {
    if (handle == nullptr) return null_output(api, "groupInfo");
    info = group_infos().find(handle);
    if (!info) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: %p is not a live group info made by aclrtCreateGroupInfo",
                           api, static_cast<const void*>(handle));
    }
    return ACL_SUCCESS;
}

/// The group's figure for attr (an aclrtGroupAttr), or nullptr if attr names none.
const void* group_attribute(const tagRtGroupInfo& info, int64_t attr) {
    switch (attr) {
        case ACL_GROUP_AICORE_INT: return &info.aicoreNum;
        case ACL_GROUP_AIV_INT: return &info.aivectorNum;
        case ACL_GROUP_AIC_INT: return &info.aicpuNum;
        case ACL_GROUP_SDMANUM_INT: return &info.sdmaNum;
        case ACL_GROUP_ASQNUM_INT: return &info.activeStreamNum;
        case ACL_GROUP_GROUPID_INT: return &info.groupId;
        default: return nullptr;
    }
}

constexpr char kOverflowAddressWhy[] =
    "the overflow-flag address exists to be passed as workspace to AI Core kernels, which acl-cpu does not load; "
    "read the flag with aclrtGetOverflowStatus";

}  // namespace

extern "C" {

// ---- Versions and CANN attributes ----------------------------------------

aclError aclsysGetVersionStr(char* pkgName, char* versionStr) {
    if (aclError status = check_package(pkgName, __func__); status != ACL_SUCCESS) return status;
    if (versionStr == nullptr) return null_output(__func__, "versionStr");
    std::snprintf(versionStr, ACL_PKG_VERSION_MAX_SIZE, "%s", version_text().c_str());
    return ACL_SUCCESS;
}

aclError aclsysGetVersionNum(char* pkgName, int32_t* versionNum) {
    if (aclError status = check_package(pkgName, __func__); status != ACL_SUCCESS) return status;
    if (versionNum == nullptr) return null_output(__func__, "versionNum");
    *versionNum = version_number();
    return ACL_SUCCESS;
}

aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion* version) {
    if (version == nullptr) return null_output(__func__, "version");
    const int64_t package = aclcpu::code_of(name);
    switch (package) {
        case ACL_PKG_NAME_CANN:
        case ACL_PKG_NAME_RUNTIME:
        case ACL_PKG_NAME_OPP:
        case ACL_PKG_NAME_OPP_KERNEL: break;
        case ACL_PKG_NAME_COMPILER:
        case ACL_PKG_NAME_HCCL:
        case ACL_PKG_NAME_TOOLKIT:
        case ACL_PKG_NAME_DRIVER:
            return param_error(ACL_ERROR_INVALID_FILE, "%s: package %lld is not part of acl-cpu", __func__,
                               static_cast<long long>(package));
        default:
            return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown package %lld", __func__,
                               static_cast<long long>(package));
    }
    *version = aclCANNPackageVersion{};
    std::snprintf(version->version, sizeof version->version, "%s", version_text().c_str());
    std::snprintf(version->majorVersion, sizeof version->majorVersion, "%d", ACL_MAJOR_VERSION);
    std::snprintf(version->minorVersion, sizeof version->minorVersion, "%d", ACL_MINOR_VERSION);
    std::snprintf(version->releaseVersion, sizeof version->releaseVersion, "%d", ACL_PATCH_VERSION);
    std::snprintf(version->patchVersion, sizeof version->patchVersion, "0");  // X.Y.Z has no fourth part.
    return ACL_SUCCESS;
}

aclError aclGetCannAttributeList(const aclCannAttr** cannAttrList, size_t* num) {
    // Atlas A2 computes in Inf/NaN mode by default and the operators take bf16;
    // nothing is compiled just in time.
    static const aclCannAttr kSupported[] = {ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16};
    if (cannAttrList == nullptr) return null_output(__func__, "cannAttrList");
    if (num == nullptr) return null_output(__func__, "num");
    *cannAttrList = kSupported;
    *num = sizeof kSupported / sizeof kSupported[0];
    return ACL_SUCCESS;
}

aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t* value) {
    if (value == nullptr) return null_output(__func__, "value");
    const int64_t attr = aclcpu::code_of(cannAttr);
    switch (attr) {
        case ACL_CANN_ATTR_INF_NAN:
        case ACL_CANN_ATTR_BF16: *value = 1; return ACL_SUCCESS;
        case ACL_CANN_ATTR_JIT_COMPILE: *value = 0; return ACL_SUCCESS;
        default:
            return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown attribute %lld", __func__,
                               static_cast<long long>(attr));
    }
}

// ---- Device queries --------------------------------------------------------

aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t* value) {
    if (value == nullptr) return null_output(__func__, "value");
    if (aclError status = check_device_id(deviceId, __func__); status != ACL_SUCCESS) return status;
    return device_attribute(aclcpu::code_of(attr), Runtime::instance().config().soc, static_cast<int32_t>(deviceId),
                            *value);
}

aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType, int32_t* value) {
    if (value == nullptr) return null_output(__func__, "value");
    if (aclError status = check_device_id(deviceId, __func__); status != ACL_SUCCESS) return status;
    const int64_t feature = aclcpu::code_of(devFeatureType);
    // Neither feature exists: no task scheduler CPU updates tasks, and there
    // are no shared-memory queues to carry events across devices.
    if (feature == ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV || feature == ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV) {
        *value = ACL_DEV_FEATURE_NOT_SUPPORT;
        return ACL_SUCCESS;
    }
    return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown feature %lld", __func__, static_cast<long long>(feature));
}

aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo* utilizationInfo) {
    if (utilizationInfo == nullptr) return null_output(__func__, "utilizationInfo");
    if (aclError status = check_device_id(deviceId, __func__); status != ACL_SUCCESS) return status;
    // acl-cpu does not sample its workers: the cores report idle.  Memory
    // utilisation is -1, "not supported", as the doc has every device answer.
    utilizationInfo->cubeUtilization = 0;
    utilizationInfo->vectorUtilization = 0;
    utilizationInfo->aicpuUtilization = 0;
    utilizationInfo->memoryUtilization = -1;
    return ACL_SUCCESS;
}

aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus* deviceStatus) {
    if (deviceStatus == nullptr) return null_output(__func__, "deviceStatus");
    if (aclError status = check_device_id(deviceId, __func__); status != ACL_SUCCESS) return status;
    *deviceStatus = ACL_RT_DEVICE_STATUS_NORMAL;  // An emulated device has no hardware to fail.
    return ACL_SUCCESS;
}

aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid* uuid) {
    if (uuid == nullptr) return null_output(__func__, "uuid");
    if (aclError status = check_device_id(deviceId, __func__); status != ACL_SUCCESS) return status;
    // Stable per device id: "acl-cpu device" then the id, big-endian.
    static const char kPrefix[12] = {'a', 'c', 'l', '-', 'c', 'p', 'u', ' ', 'd', 'e', 'v', ' '};
    std::memcpy(uuid->bytes, kPrefix, sizeof kPrefix);
    for (int i = 0; i < 4; ++i) uuid->bytes[12 + i] = static_cast<char>((deviceId >> (24 - 8 * i)) & 0xFF);
    return ACL_SUCCESS;
}

aclError aclrtDeviceGetPCIBusId(int32_t deviceId, char* pciBusId, int32_t len) {
    if (pciBusId == nullptr) return null_output(__func__, "pciBusId");
    if (len < kPciBusIdLength) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: len %d is below the %d bytes of a PCI bus id", __func__, len,
                           kPciBusIdLength);
    }
    if (aclError status = check_device_id(deviceId, __func__); status != ACL_SUCCESS) return status;
    std::snprintf(pciBusId, static_cast<size_t>(len), "0000:%02x:00.0", kFirstPciBus + deviceId);
    return ACL_SUCCESS;
}

aclError aclrtDeviceGetByPCIBusId(const char* pciBusId, int32_t* deviceId) {
    if (pciBusId == nullptr) return null_output(__func__, "pciBusId");
    if (deviceId == nullptr) return null_output(__func__, "deviceId");
    unsigned domain = 0, bus = 0, slot = 0, function = 0;
    int consumed = 0;
    if (std::sscanf(pciBusId, "%4x:%2x:%2x.%1x%n", &domain, &bus, &slot, &function, &consumed) != 4 ||
        pciBusId[consumed] != '\0') {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: \"%s\" is not domain:bus:device.function", __func__,
                           pciBusId);
    }
    const int64_t id = static_cast<int64_t>(bus) - kFirstPciBus;
    if (domain != 0 || slot != 0 || function != 0 || check_device_id(id, __func__) != ACL_SUCCESS) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: no emulated device sits at %s", __func__, pciBusId);
    }
    *deviceId = static_cast<int32_t>(id);
    return ACL_SUCCESS;
}

aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid, int32_t* const logicDevId) {
    return map_device_id(userDevid, logicDevId, __func__);
}

aclError aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId, int32_t* const userDevid) {
    return map_device_id(logicDevId, userDevid, __func__);
}

aclError aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId, int32_t* const logicDevId) {
    return map_device_id(phyDevId, logicDevId, __func__);
}

aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t* const phyDevId) {
    return map_device_id(logicDevId, phyDevId, __func__);
}

aclError aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t* const userDevId) {
    return map_device_id(phyDevId, userDevId, __func__);
}

aclError aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t* const phyDevId) {
    return map_device_id(userDevId, phyDevId, __func__);
}

aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId, uint64_t* value) {
    if (value == nullptr) return null_output(__func__, "value");
    if (aclError status = check_device_id(deviceId, __func__); status != ACL_SUCCESS) return status;
    if (aclError status = check_device_id(otherDeviceId, __func__); status != ACL_SUCCESS) return status;
    if (deviceId == otherDeviceId) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: device %u has no link to itself", __func__, deviceId);
    }
    *value = ACL_RT_DEVS_TOPOLOGY_HCCS;  // The devices of an Atlas A2 server are linked by HCCS.
    return ACL_SUCCESS;
}

aclError aclrtDeviceGetStreamPriorityRange(int32_t* leastPriority, int32_t* greatestPriority) {
    if (leastPriority == nullptr) return null_output(__func__, "leastPriority");
    if (greatestPriority == nullptr) return null_output(__func__, "greatestPriority");
    *leastPriority = static_cast<int32_t>(aclcpu::detail::kLowestStreamPriority);
    *greatestPriority = static_cast<int32_t>(aclcpu::detail::kHighestStreamPriority);
    return ACL_SUCCESS;
}

aclError aclrtDeviceGetBareTgid(int32_t* pid) {
    if (pid == nullptr) return null_output(__func__, "pid");
    *pid = static_cast<int32_t>(::getpid());
    return ACL_SUCCESS;
}

aclError aclrtDeviceGetHostAtomicCapabilities(uint32_t* capabilities, const aclrtAtomicOperation* operations,
                                              const uint32_t count, int32_t deviceId) {
    if (aclError status = check_device_id(deviceId, __func__); status != ACL_SUCCESS) return status;
    return atomic_capabilities(capabilities, operations, count, __func__);
}

aclError aclrtDeviceGetP2PAtomicCapabilities(uint32_t* capabilities, const aclrtAtomicOperation* operations,
                                             const uint32_t count, int32_t srcDeviceId, int32_t dstDeviceId) {
    if (aclError status = check_device_id(srcDeviceId, __func__); status != ACL_SUCCESS) return status;
    if (aclError status = check_device_id(dstDeviceId, __func__); status != ACL_SUCCESS) return status;
    return atomic_capabilities(capabilities, operations, count, __func__);
}

aclError aclrtCheckArchCompatibility(const char* socVersion, int32_t* canCompatible) {
    if (socVersion == nullptr) return null_output(__func__, "socVersion");
    if (canCompatible == nullptr) return null_output(__func__, "canCompatible");
    // Every SoC acl-cpu emulates is an Atlas A2 part with the same core
    // architecture: kernels of one run on all of them, and on no other.
    *canCompatible = aclcpu::detail::find_soc_profile(socVersion) != nullptr ? 1 : 0;
    return ACL_SUCCESS;
}

aclError aclrtSetTsDevice(aclrtTsId tsId) {
    const int64_t id = aclcpu::code_of(tsId);
    if (id != ACL_TS_ID_AICORE && id != ACL_TS_ID_AIVECTOR) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown task scheduler %lld", __func__,
                           static_cast<long long>(id));
    }
    // One scheduler (the device's lanes) serves cube and vector work alike, so
    // the choice changes nothing, as on a SoC without a vector-core scheduler.
    return ACL_SUCCESS;
}

aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t* flags, int32_t* active) {
    if (active == nullptr) return null_output(__func__, "active");
    if (aclError status = check_device_id(deviceId, __func__); status != ACL_SUCCESS) return status;
    if (flags != nullptr) *flags = 0;  // Reserved.
    // The default context lives from the device's first aclrtSetDevice to its reset.
    *active = Runtime::instance().open_device(deviceId) != nullptr ? 1 : 0;
    return ACL_SUCCESS;
}

// ---- Limits ------------------------------------------------------------------

aclError aclrtDeviceSetLimit(aclrtDeviceLimit limit, size_t value) {
    const int64_t kind = aclcpu::code_of(limit);
    if (aclError status = check_device_limit(kind, __func__); status != ACL_SUCCESS) return status;
    size_t rounded = 0;
    if (aclError status = round_simd_limit(kind, value, rounded); status != ACL_SUCCESS) return status;
    ProcessSettings::instance().set_device_limit(kind, rounded);
    return ACL_SUCCESS;
}

aclError aclrtDeviceGetLimit(aclrtDeviceLimit limit, size_t* value) {
    if (value == nullptr) return null_output(__func__, "value");
    const int64_t kind = aclcpu::code_of(limit);
    if (aclError status = check_device_limit(kind, __func__); status != ACL_SUCCESS) return status;
    *value = ProcessSettings::instance().device_limit(kind);
    return ACL_SUCCESS;
}

aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value) {
    if (aclError status = check_device_id(deviceId, __func__); status != ACL_SUCCESS) return status;
    const int64_t kind = aclcpu::code_of(type);
    if (aclError status = check_res_limit_type(kind, __func__); status != ACL_SUCCESS) return status;
    const aclcpu::SocProfile& soc = Runtime::instance().config().soc;
    const int64_t cores = kind == ACL_RT_DEV_RES_CUBE_CORE ? soc.aiCoreCount : soc.vectorCoreCount;
    if (value == 0 || value > cores) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: %u cores is not in [1, %lld], the device's count", __func__,
                           value, static_cast<long long>(cores));
    }
    ProcessSettings::instance().set_res_limit(deviceId, kind, value);
    return ACL_SUCCESS;
}

aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t* value) {
    if (value == nullptr) return null_output(__func__, "value");
    if (aclError status = check_device_id(deviceId, __func__); status != ACL_SUCCESS) return status;
    const int64_t kind = aclcpu::code_of(type);
    if (aclError status = check_res_limit_type(kind, __func__); status != ACL_SUCCESS) return status;
    *value = ProcessSettings::instance().res_limit(deviceId, kind, Runtime::instance().config().soc);
    return ACL_SUCCESS;
}

aclError aclrtResetDeviceResLimit(int32_t deviceId) {
    if (aclError status = check_device_id(deviceId, __func__); status != ACL_SUCCESS) return status;
    ProcessSettings::instance().reset_res_limits(deviceId);
    return ACL_SUCCESS;
}

// ---- System parameters ---------------------------------------------------

aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
    const int64_t option = aclcpu::code_of(opt);
    if (aclError status = check_sys_param(option, value, __func__); status != ACL_SUCCESS) return status;
    ProcessSettings::instance().set_param(option, value);
    return ACL_SUCCESS;
}

aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t* value) {
    if (value == nullptr) return null_output(__func__, "value");
    const int64_t option = aclcpu::code_of(opt);
    if (option < ACL_OPT_DETERMINISTIC || option > ACL_OPT_ENABLE_KERNEL_EARLY_START) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown option %lld", __func__, static_cast<long long>(option));
    }
    *value = ProcessSettings::instance().param(option);
    return ACL_SUCCESS;
}

// ---- Device state callbacks -------------------------------------------------

aclError aclrtRegDeviceStateCallback(const char* regName, aclrtDeviceStateCallback callback, void* args) {
    return register_named(__func__, ProcessSettings::instance().device_state_callbacks(), regName, callback, args);
}

// ---- Saturation mode and float overflow ------------------------------------

aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode) {
    const int64_t code = aclcpu::code_of(mode);
    if (code != ACL_RT_OVERFLOW_MODE_SATURATION && code != ACL_RT_OVERFLOW_MODE_INFNAN) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown mode %lld", __func__, static_cast<long long>(code));
    }
    int32_t device = 0;
    if (aclError status = current_device_id(__func__, device); status != ACL_SUCCESS) return status;
    ProcessSettings::instance().set_saturation_mode(device, static_cast<aclrtFloatOverflowMode>(code));
    return ACL_SUCCESS;
}

aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode* mode) {
    if (mode == nullptr) return null_output(__func__, "mode");
    int32_t device = 0;
    if (aclError status = current_device_id(__func__, device); status != ACL_SUCCESS) return status;
    *mode = ProcessSettings::instance().saturation_mode(device);
    return ACL_SUCCESS;
}

aclError aclrtGetOverflowStatus(void* outputAddr, size_t outputSize, aclrtStream stream) {
    return get_overflow_status(outputAddr, outputSize, stream, __func__);
}

aclError aclrtResetOverflowStatus(aclrtStream stream) { return reset_overflow_status(stream, __func__); }

aclError aclrtGetFloatOverflowStatus(void* outputAddr, uint64_t outputSize, aclrtStream stream) {
    return get_overflow_status(outputAddr, outputSize, stream, __func__);
}

aclError aclrtResetFloatOverflowStatus(aclrtStream stream) { return reset_overflow_status(stream, __func__); }

aclError aclrtNpuGetFloatOverFlowStatus(void* outputAddr, uint64_t outputSize, uint32_t checkMode,
                                        aclrtStream stream) {
    (void)checkMode;  // One flag per device: every check mode reads the same one.
    return get_overflow_status(outputAddr, outputSize, stream, __func__);
}

aclError aclrtNpuClearFloatOverFlowStatus(uint32_t checkMode, aclrtStream stream) {
    (void)checkMode;
    return reset_overflow_status(stream, __func__);
}

aclError aclrtCtxGetFloatOverflowAddr(void** /*overflowAddr*/) {
    return not_supported(__func__, kOverflowAddressWhy);
}

// ---- Groups (16_group_management.md) ---------------------------------------

aclError aclrtGetGroupCount(uint32_t* count) {
    if (count == nullptr) return null_output(__func__, "count");
    int32_t device = 0;
    if (aclError status = current_device_id(__func__, device); status != ACL_SUCCESS) return status;
    *count = kGroupCount;
    return ACL_SUCCESS;
}

aclrtGroupInfo* aclrtCreateGroupInfo() {
    return static_cast<aclrtGroupInfo*>(group_infos().add(std::make_shared<tagRtGroupInfo>()));
}

aclError aclrtDestroyGroupInfo(aclrtGroupInfo* groupInfo) {
    if (groupInfo == nullptr) return null_output(__func__, "groupInfo");
    if (!group_infos().remove(groupInfo)) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: %p is not a live group info made by aclrtCreateGroupInfo",
                           __func__, static_cast<void*>(groupInfo));
    }
    return ACL_SUCCESS;
}

aclError aclrtGetAllGroupInfo(aclrtGroupInfo* groupInfo) {
    std::shared_ptr<tagRtGroupInfo> info;
    if (aclError status = find_group_info(groupInfo, __func__, info); status != ACL_SUCCESS) return status;
    aclcpu::detail::Device* device = nullptr;
    if (aclError status = aclcpu::detail::current_device(__func__, device); status != ACL_SUCCESS) return status;
    const aclcpu::SocProfile& soc = device->soc();
    tagRtGroupInfo filled;
    filled.filled = true;
    filled.aicoreNum = static_cast<uint32_t>(soc.aiCoreCount);
    filled.aivectorNum = static_cast<uint32_t>(soc.vectorCoreCount);
    // No AI CPU kernels and no copy engines: copies are tasks of the streams.
    filled.activeStreamNum =
        std::min<uint32_t>(static_cast<uint32_t>(Runtime::instance().config().workerThreads), kMaxActiveStreams);
    *info = filled;
    return ACL_SUCCESS;
}

aclError aclrtGetGroupInfoDetail(const aclrtGroupInfo* groupInfo, int32_t groupIndex, aclrtGroupAttr attr,
                                 void* attrValue, size_t valueLen, size_t* paramRetSize) {
    std::shared_ptr<tagRtGroupInfo> info;
    if (aclError status = find_group_info(groupInfo, __func__, info); status != ACL_SUCCESS) return status;
    if (attrValue == nullptr) return null_output(__func__, "attrValue");
    if (paramRetSize == nullptr) return null_output(__func__, "paramRetSize");
    if (groupIndex < 0 || static_cast<uint32_t>(groupIndex) >= kGroupCount) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: groupIndex %d is not in [0, %u)", __func__, groupIndex,
                           kGroupCount);
    }
    if (!info->filled) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: call aclrtGetAllGroupInfo on %p first", __func__,
                           static_cast<const void*>(groupInfo));
    }
    const int64_t code = aclcpu::code_of(attr);
    const void* figure = group_attribute(*info, code);
    if (figure == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown attribute %lld", __func__,
                           static_cast<long long>(code));
    }
    constexpr size_t kFigureBytes = sizeof(uint32_t);  // Every attribute is a 32-bit integer.
    if (valueLen < kFigureBytes) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: valueLen %zu is below the attribute's %zu bytes", __func__,
                           valueLen, kFigureBytes);
    }
    std::memcpy(attrValue, figure, kFigureBytes);
    *paramRetSize = kFigureBytes;
    return ACL_SUCCESS;
}

aclError aclrtSetGroup(int32_t groupId) {
    int32_t device = 0;
    if (aclError status = current_device_id(__func__, device); status != ACL_SUCCESS) return status;
    if (groupId != kOnlyGroupId) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: group %d does not exist; the device's only group is %d",
                           __func__, groupId, kOnlyGroupId);
    }
    return ACL_SUCCESS;  // The only group holds every core: work already uses them all.
}

}  // extern "C"
