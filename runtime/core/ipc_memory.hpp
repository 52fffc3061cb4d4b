// acl-cpu runtime: IPC memory keys (aclrtIpcMemGetExportKey, aclrtIpcMemImportByKey).
#pragma once

#include "core/internal.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "acl/acl_base.h"

namespace aclcpu::detail {

/// Device memory shared under a key.
///
/// The emulated devices share the process's address space, so an import
/// gives back the exported address itself, whichever device imports it.
/// The rest is CANN's protocol: one key per export, the process whitelist
/// (checked against this process's id unless the export disabled it), and a
/// key that lives until the exporter and every importer have closed it.
class IpcMemory {
public:
    static IpcMemory& instance();

    aclError export_range(void* devPtr, size_t size, bool validatePid, std::string& key);
    aclError allow(const std::string& key, const int32_t* pids, size_t count, const char* api);
    aclError set_link(const std::string& key, uint64_t link);
    aclError import(const std::string& key, void** devPtr);
    aclError close(const std::string& key);

private:
    struct Export {
        void* address;
        size_t size;
        bool validatePid;
        std::set<int32_t> allowed;
        uint64_t link;
        uint64_t opens;  ///< The export itself plus each import not yet closed.
    };
    IpcMemory() = default;
    /// The export of key, or nullptr (reported) when there is none.
    Export* find(const std::string& key, const char* api);

    std::mutex mutex_;
    std::map<std::string, Export> exports_;
    uint64_t nextKey_ = 0;
};

}  // namespace aclcpu::detail
