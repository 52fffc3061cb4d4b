// acl-cpu runtime: IPC memory sharing by key (acl_rt.h).
#include <cstring>
#include <string>

#include "acl/acl_rt.h"
#include "aclcpu/dtype.hpp"
#include "core/errors.hpp"
#include "core/ipc_memory.hpp"
#include "core/peer_access.hpp"
#include "core/runtime_state.hpp"

using aclcpu::detail::Device;
using aclcpu::detail::IpcMemory;
using aclcpu::detail::PeerAccess;
using aclcpu::detail::Runtime;
using aclcpu::detail::param_error;

namespace {

/// CANN's keys are character arrays of this length, terminator included.
constexpr size_t kKeyLength = 65;

/// A key argument: non-null and terminated within kKeyLength characters.
aclError check_key(const char* key, const char* api) {
    if (key == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: key is null", api);
    if (strnlen(key, kKeyLength) == kKeyLength) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: key is not terminated within %zu characters", api, kKeyLength);
    }
    return ACL_SUCCESS;
}

/// ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS: the importing device gains
/// peer access to the device that owns the memory, as CANN's
/// ApiImpl::IpcOpenMemory enables P2P with the exporter's device.
aclError import_with_peer_access(const char* key, void** devPtr, const char* api) {
    Device* importer = nullptr;
    if (aclError status = aclcpu::detail::current_device(api, importer); status != ACL_SUCCESS) return status;
    if (aclError status = IpcMemory::instance().import(key, devPtr); status != ACL_SUCCESS) return status;
    Device* owner = nullptr;
    Runtime::instance().locate_device_range(*devPtr, 1, owner);
    if (owner != nullptr && owner != importer) PeerAccess::instance().enable(importer->id(), owner->id());
    return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtIpcMemGetExportKey(void* devPtr, size_t size, char* key, size_t len, uint64_t flags) {
    constexpr const char* kApi = "aclrtIpcMemGetExportKey";
    if (devPtr == nullptr || key == nullptr)
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: devPtr or key is null", kApi);
    if (size == 0) return param_error(ACL_ERROR_INVALID_PARAM, "%s: size is 0", kApi);
    if (len < kKeyLength)
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: len %zu is below %zu", kApi, len, kKeyLength);
    if (flags != ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT && flags != ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown flags 0x%llx", kApi,
                           static_cast<unsigned long long>(flags));
    }
    std::string exported;
    if (aclError status =
            IpcMemory::instance().export_range(devPtr, size, flags == ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT, exported);
        status != ACL_SUCCESS) {
        return status;
    }
    std::memcpy(key, exported.c_str(), exported.size() + 1);
    return ACL_SUCCESS;
}

aclError aclrtIpcMemSetImportPid(const char* key, int32_t* pid, size_t num) {
    constexpr const char* kApi = "aclrtIpcMemSetImportPid";
    if (aclError status = check_key(key, kApi); status != ACL_SUCCESS) return status;
    if (pid == nullptr || num == 0) return param_error(ACL_ERROR_INVALID_PARAM, "%s: pid is null or num is 0", kApi);
    return IpcMemory::instance().allow(key, pid, num, kApi);
}

// One server here: every server's process ids join the whitelist.
aclError aclrtIpcMemImportPidInterServer(const char* key, aclrtServerPid* serverPids, size_t num) {
    constexpr const char* kApi = "aclrtIpcMemImportPidInterServer";
    if (aclError status = check_key(key, kApi); status != ACL_SUCCESS) return status;
    if (serverPids == nullptr || num == 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: serverPids is null or num is 0", kApi);
    }
    for (size_t i = 0; i < num; ++i) {
        if (serverPids[i].pid == nullptr || serverPids[i].num == 0) {
            return param_error(ACL_ERROR_INVALID_PARAM, "%s: serverPids[%zu] has no process ids", kApi, i);
        }
    }
    for (size_t i = 0; i < num; ++i) {
        if (aclError status = IpcMemory::instance().allow(key, serverPids[i].pid, serverPids[i].num, kApi);
            status != ACL_SUCCESS) {
            return status;
        }
    }
    return ACL_SUCCESS;
}

aclError aclrtIpcMemSetAttr(const char* key, aclrtIpcMemAttrType type, uint64_t attr) {
    constexpr const char* kApi = "aclrtIpcMemSetAttr";
    if (aclError status = check_key(key, kApi); status != ACL_SUCCESS) return status;
    if (aclcpu::code_of(type) != ACL_RT_IPC_MEM_ATTR_ACCESS_LINK) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown attribute type %lld", kApi,
                           static_cast<long long>(aclcpu::code_of(type)));
    }
    if (attr > ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown link %llu", kApi,
                           static_cast<unsigned long long>(attr));
    }
    // Every link reaches the same host memory: the choice is kept, with no effect on the copy.
    return IpcMemory::instance().set_link(key, attr);
}

aclError aclrtIpcMemImportByKey(void** devPtr, const char* key, uint64_t flags) {
    constexpr const char* kApi = "aclrtIpcMemImportByKey";
    if (devPtr == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: devPtr is null", kApi);
    if (aclError status = check_key(key, kApi); status != ACL_SUCCESS) return status;
    if (flags != ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT && flags != ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: unknown flags 0x%llx", kApi,
                           static_cast<unsigned long long>(flags));
    }
    if (flags == ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS) return import_with_peer_access(key, devPtr, kApi);
    return IpcMemory::instance().import(key, devPtr);
}

aclError aclrtIpcMemClose(const char* key) {
    if (aclError status = check_key(key, "aclrtIpcMemClose"); status != ACL_SUCCESS) return status;
    return IpcMemory::instance().close(key);
}

}  // extern "C"
