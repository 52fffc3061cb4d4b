// acl-cpu runtime API: dump configuration (acl_dump.h; aclmdlInitDump,
// aclmdlSetDump, aclmdlFinalizeDump of acl_rt.h).  What is dumped, where
// and in which format: observe/data_dump.hpp.
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "acl/acl_dump.h"
#include "acl/acl_rt.h"
#include "aclcpu/dtype.hpp"
#include "core/errors.hpp"
#include "core/runtime_state.hpp"
#include "observe/data_dump.hpp"

using aclcpu::code_of;
using aclcpu::detail::param_error;
using aclcpu::detail::Runtime;
using aclcpu::observe::DataDump;
using aclcpu::observe::DumpSettings;

namespace {

/// `<exception dump path>/extra-info/data-dump/<device>/`, CANN's directory
/// of user exception data, for the calling thread's device; an error
/// (reported) when no exception dump is configured or no device is set.
aclError exception_directory(const char* api, std::string& directory) {
    const std::string base = DataDump::instance().exception_path();
    if (base.empty()) {
        return param_error(ACL_ERROR_DUMP_NOT_RUN, "%s: configure an exception dump (dump_scene) first", api);
    }
    aclcpu::detail::Device* device = nullptr;
    if (aclError status = aclcpu::detail::current_device(api, device); status != ACL_SUCCESS) return status;
    directory = base + "/extra-info/data-dump/" + std::to_string(device->id()) + "/";
    return ACL_SUCCESS;
}

/// The user's tensors must be raw device addresses (CANN accepts no other kind).
bool valid_exception_tensors(const acldumpTensorInfo* tensors, size_t tensorCount) {
    if (tensorCount > 0 && tensors == nullptr) return false;
    for (size_t i = 0; i < tensorCount; ++i) {
        const acldumpTensorInfo& tensor = tensors[i];
        if (code_of(tensor.addrType) != ACL_DUMP_ADDR_RAW || code_of(tensor.placement) != ACL_DUMP_PLACEMENT_DEVICE ||
            (tensor.tensorSize > 0 && tensor.tensorAddr == nullptr) || tensor.shapeNum > ACL_DUMP_MAX_SHAPE_NUM) {
            return false;
        }
    }
    return true;
}

/// acl-cpu's exception data file: text lines describing the user tag and
/// each tensor (kind, dtype and format codes, shape, bytes), an empty line,
/// then the tensors' bytes one after another.
std::string exception_file(const char* userTag, const acldumpTensorInfo* tensors, size_t tensorCount) {
    static const char* const kKinds[] = {"input", "output", "workspace"};
    std::string text = "acl-cpu exception data 1\nuser_tag: ";
    text += userTag != nullptr ? userTag : "";
    text += '\n';
    for (size_t i = 0; i < tensorCount; ++i) {
        const acldumpTensorInfo& tensor = tensors[i];
        const int64_t kind = code_of(tensor.type);
        text += "tensor " + std::to_string(i) + ": " + (kind >= 0 && kind < 3 ? kKinds[kind] : "unknown") +
                " dtype=" + std::to_string(tensor.dataType) + " format=" + std::to_string(tensor.format) +
                " shape=[";
        for (uint32_t d = 0; d < tensor.shapeNum; ++d) text += (d > 0 ? "," : "") + std::to_string(tensor.shape[d]);
        text += "] bytes=" + std::to_string(tensor.tensorSize) + "\n";
    }
    text += '\n';
    for (size_t i = 0; i < tensorCount; ++i) {
        text.append(reinterpret_cast<const char*>(tensors[i].tensorAddr), tensors[i].tensorSize);
    }
    return text;
}

}  // namespace

extern "C" {

aclError aclmdlInitDump() {
    if (!Runtime::instance().initialised()) return param_error(ACL_ERROR_UNINITIALIZE, "aclmdlInitDump: call aclInit first");
    return DataDump::instance().init();
}

aclError aclmdlSetDump(const char* dumpCfgPath) {
    if (dumpCfgPath == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclmdlSetDump: dumpCfgPath is null");
    DumpSettings settings;
    if (aclError status = aclcpu::observe::read_dump_settings("aclmdlSetDump", dumpCfgPath, settings);
        status != ACL_SUCCESS) {
        return status;
    }
    return DataDump::instance().configure(settings);
}

aclError aclmdlFinalizeDump() { return DataDump::instance().finalize(); }

const char* acldumpGetPath(acldumpType dumpType) { return DataDump::instance().path_of(code_of(dumpType)); }

/// Only flag 0 (the data goes to the callback instead of to files) exists.
aclError acldumpRegCallback(int32_t (*const messageCallback)(const acldumpChunk*, int32_t), int32_t flag) {
    if (messageCallback == nullptr || flag != 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "acldumpRegCallback: messageCallback is null or flag %d is not 0",
                           flag);
    }
    DataDump::instance().set_callback(messageCallback);
    return ACL_SUCCESS;
}

void acldumpUnregCallback() { DataDump::instance().set_callback(nullptr); }

aclError aclopStartDumpArgs(uint32_t dumpType, const char* path) {
    if (dumpType != ACL_OP_DUMP_OP_AICORE_ARGS || path == nullptr || path[0] == '\0') {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "aclopStartDumpArgs: dumpType %u is not ACL_OP_DUMP_OP_AICORE_ARGS, or path is empty",
                           dumpType);
    }
    return DataDump::instance().start_args(path);
}

aclError aclopStopDumpArgs(uint32_t dumpType) {
    if (dumpType != ACL_OP_DUMP_OP_AICORE_ARGS) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclopStopDumpArgs: dumpType %u is not ACL_OP_DUMP_OP_AICORE_ARGS",
                           dumpType);
    }
    return DataDump::instance().stop_args();
}

aclError acldumpGetExceptionInfoPath(char* path, size_t maxLen) {
    if (path == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "acldumpGetExceptionInfoPath: path is null");
    std::string directory;
    if (aclError status = exception_directory("acldumpGetExceptionInfoPath", directory); status != ACL_SUCCESS) {
        return status;
    }
    if (directory.size() >= maxLen) {
        return param_error(ACL_ERROR_INVALID_PARAM, "acldumpGetExceptionInfoPath: the path needs %zu bytes, maxLen is %zu",
                           directory.size() + 1, maxLen);
    }
    std::memcpy(path, directory.c_str(), directory.size() + 1);
    return ACL_SUCCESS;
}

/// Writes `<exception path>/<fileName>.custom.<milliseconds since the epoch>`
/// in the format of exception_file.
aclError acldumpSaveExceptionInfo(const char* fileName, const char* userTag, const acldumpTensorInfo* tensors,
                                  size_t tensorCount) {
    if (fileName == nullptr || fileName[0] == '\0' || std::strstr(fileName, "..") != nullptr ||
        !valid_exception_tensors(tensors, tensorCount)) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "acldumpSaveExceptionInfo: fileName is empty or holds \"..\", or a tensor is not a raw "
                           "device address with a shape of at most %d dimensions",
                           ACL_DUMP_MAX_SHAPE_NUM);
    }
    std::string directory;
    if (aclError status = exception_directory("acldumpSaveExceptionInfo", directory); status != ACL_SUCCESS) {
        return status;
    }
    const auto milliseconds = std::chrono::duration_cast<std::chrono::milliseconds>(
                                  std::chrono::system_clock::now().time_since_epoch())
                                  .count();
    const std::filesystem::path file = directory + fileName + ".custom." + std::to_string(milliseconds);
    std::error_code error;
    std::filesystem::create_directories(file.parent_path(), error);
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    const std::string contents = exception_file(userTag, tensors, tensorCount);
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    if (!out) {
        return aclcpu::detail::runtime_error(ACL_ERROR_WRITE_FILE, "acldumpSaveExceptionInfo: cannot write \"%s\"",
                                             file.c_str());
    }
    return ACL_SUCCESS;
}

}  // extern "C"
