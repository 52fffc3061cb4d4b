// acl-cpu runtime: IpcMemory.
#include <unistd.h>

#include "core/errors.hpp"
#include "core/ipc_memory.hpp"
#include "core/runtime_state.hpp"

namespace aclcpu::detail {

IpcMemory& IpcMemory::instance() {
    static IpcMemory memory;
    return memory;
}

IpcMemory::Export* IpcMemory::find(const std::string& key, const char* api) {
    auto it = exports_.find(key);
    if (it != exports_.end()) return &it->second;
    param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: \"%s\" is not a key of aclrtIpcMemGetExportKey (or it was closed)",
                api, key.c_str());
    return nullptr;
}

aclError IpcMemory::export_range(void* devPtr, size_t size, bool validatePid, std::string& key) {
    if (Runtime::instance().classify(devPtr, size) != MemoryKind::kDevice) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtIpcMemGetExportKey: [%p, +%zu) is not device memory", devPtr,
                           size);
    }
    std::lock_guard<std::mutex> lock(mutex_);
    key = "aclcpu-ipc-" + std::to_string(getpid()) + "-" + std::to_string(nextKey_++);
    exports_.emplace(key, Export{devPtr, size, validatePid, {}, 0, 1});
    return ACL_SUCCESS;
}

aclError IpcMemory::allow(const std::string& key, const int32_t* pids, size_t count, const char* api) {
    std::lock_guard<std::mutex> lock(mutex_);
    Export* shared = find(key, api);
    if (shared == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
    shared->allowed.insert(pids, pids + count);
    return ACL_SUCCESS;
}

aclError IpcMemory::set_link(const std::string& key, uint64_t link) {
    std::lock_guard<std::mutex> lock(mutex_);
    Export* shared = find(key, "aclrtIpcMemSetAttr");
    if (shared == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
    shared->link = link;
    return ACL_SUCCESS;
}

aclError IpcMemory::import(const std::string& key, void** devPtr) {
    std::lock_guard<std::mutex> lock(mutex_);
    Export* shared = find(key, "aclrtIpcMemImportByKey");
    if (shared == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
    if (shared->validatePid && shared->allowed.count(static_cast<int32_t>(getpid())) == 0) {
        return param_error(ACL_ERROR_RT_NO_PERMISSION,
                           "aclrtIpcMemImportByKey: process %d is not on the whitelist of \"%s\" "
                           "(aclrtIpcMemSetImportPid)",
                           static_cast<int>(getpid()), key.c_str());
    }
    // The exporter must not free the memory before the import (11-07).
    if (Runtime::instance().classify(shared->address, shared->size) != MemoryKind::kDevice) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "aclrtIpcMemImportByKey: the memory of \"%s\" was freed",
                           key.c_str());
    }
    shared->opens += 1;
    *devPtr = shared->address;
    return ACL_SUCCESS;
}

aclError IpcMemory::close(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    Export* shared = find(key, "aclrtIpcMemClose");
    if (shared == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
    if (--shared->opens == 0) exports_.erase(key);
    return ACL_SUCCESS;
}

}  // namespace aclcpu::detail
