// acl-cpu runtime: DataDump.
#include "observe/data_dump.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "observe/observer_removal.hpp"

namespace aclcpu::observe {
namespace {

using detail::param_error;
using nlohmann::json;

/// Bytes handed to a dump callback at once.
constexpr size_t kCallbackChunkBytes = size_t{64} << 20;

// ---- configuration ---------------------------------------------------------

/// A string member of the dump object, or fallback when it is absent.
bool read_string(const json& dump, const char* key, const std::string& fallback, std::string& value) {
    if (!dump.contains(key)) {
        value = fallback;
        return true;
    }
    if (!dump[key].is_string()) return false;
    value = dump[key].get<std::string>();
    return true;
}

aclError invalid_config(const char* api, const char* file, const char* why) {
    return param_error(ACL_ERROR_INVALID_DUMP_CONFIG, "%s: the dump configuration \"%s\" is invalid: %s", api, file,
                       why);
}

/// The names of dump_list[].layer, or false when dump_list is malformed.
bool read_layers(const json& dump, std::set<std::string>& layers) {
    if (!dump.contains("dump_list")) return true;
    if (!dump["dump_list"].is_array()) return false;
    for (const json& entry : dump["dump_list"]) {
        if (!entry.is_object()) return false;
        if (!entry.contains("layer")) continue;
        if (!entry["layer"].is_array()) return false;
        for (const json& layer : entry["layer"]) {
            if (!layer.is_string()) return false;
            layers.insert(layer.get<std::string>());
        }
    }
    return true;
}

// ---- tensors ---------------------------------------------------------------

/// One tensor of an operator as observers see it.
struct DumpedTensor {
    bool input = false;
    int index = 0;
    const unsigned char* data = nullptr;
    uint64_t bytes = 0;
    std::string dtype;  ///< CANN's name, "DT_FLOAT"
    std::vector<int64_t> shape;
    std::string snapshot;  ///< An input's bytes as the operator started.
};

/// The tensors of an operator item: its accesses' ranges ("input i",
/// "output i"), with the dtypes and shapes of its trace details (inputs
/// first, in the same order).
std::vector<DumpedTensor> tensors_of(const instrument::WorkInfo& work) {
    const json details = json::parse("{" + work.details + "}", nullptr, false);
    const bool described = details.is_object() && details.contains("dtypes") && details.contains("shapes");
    std::vector<DumpedTensor> tensors;
    for (size_t i = 0; i < work.accessCount; ++i) {
        const instrument::MemoryAccess& access = work.accesses[i];
        DumpedTensor tensor;
        if (std::strncmp(access.role, "input ", 6) == 0) {
            tensor.input = true;
            tensor.index = std::atoi(access.role + 6);
        } else if (std::strncmp(access.role, "output ", 7) == 0) {
            tensor.index = std::atoi(access.role + 7);
        } else {
            continue;  // The workspace.
        }
        tensor.data = static_cast<const unsigned char*>(access.begin);
        tensor.bytes = access.bytes;
        const size_t k = tensors.size();
        if (described && k < details["dtypes"].size() && k < details["shapes"].size()) {
            tensor.dtype = details["dtypes"][k].get<std::string>();
            tensor.shape = details["shapes"][k].get<std::vector<int64_t>>();
        }
        tensors.push_back(std::move(tensor));
    }
    return tensors;
}

/// NumPy's spelling of a CANN dtype and its element size; "" for dtypes
/// NumPy lacks.
struct NumpyType {
    const char* dtype;
    const char* descr;
    uint64_t bytes;
};

constexpr NumpyType kNumpyTypes[] = {
    {"DT_FLOAT", "<f4", 4},  {"DT_FLOAT16", "<f2", 2}, {"DT_DOUBLE", "<f8", 8},      {"DT_INT8", "|i1", 1},
    {"DT_UINT8", "|u1", 1},  {"DT_INT16", "<i2", 2},   {"DT_UINT16", "<u2", 2},      {"DT_INT32", "<i4", 4},
    {"DT_UINT32", "<u4", 4}, {"DT_INT64", "<i8", 8},   {"DT_UINT64", "<u8", 8},      {"DT_BOOL", "|b1", 1},
    {"DT_BF16", "|V2", 2},   {"DT_COMPLEX64", "<c8", 8}, {"DT_COMPLEX128", "<c16", 16}, {"DT_COMPLEX32", "|V4", 4},
};

/// The .npy file of a tensor holding `bytes`.
std::string npy_file(const DumpedTensor& tensor, const char* bytes) {
    uint64_t count = 1;
    for (int64_t extent : tensor.shape) count *= static_cast<uint64_t>(std::max<int64_t>(extent, 0));
    const NumpyType* type = nullptr;
    for (const NumpyType& candidate : kNumpyTypes) {
        if (tensor.dtype == candidate.dtype) type = &candidate;
    }
    std::string shape;
    const bool dense = type != nullptr && count * type->bytes == tensor.bytes;
    if (dense) {
        for (int64_t extent : tensor.shape) shape += std::to_string(extent) + ",";
    } else {
        shape = std::to_string(tensor.bytes) + ",";
    }
    std::string header = std::string("{'descr': '") + (dense ? type->descr : "|u1") +
                         "', 'fortran_order': False, 'shape': (" + shape + "), }";
    // Magic, version 1.0, a 2-byte header length; the data starts 64-byte aligned.
    const size_t prefix = 10;
    header.append(63 - (prefix + header.size()) % 64, ' ');
    header += '\n';
    std::string file("\x93NUMPY\x01\x00", 8);
    file += static_cast<char>(header.size() & 0xFF);
    file += static_cast<char>(header.size() >> 8);
    file += header;
    file.append(bytes, tensor.bytes);
    return file;
}

/// Writes contents as the file at path, or hands it to callback in chunks.
void deliver(const std::string& path, const std::string& contents, DumpCallback callback) {
    if (callback == nullptr) {
        std::error_code error;
        std::filesystem::create_directories(std::filesystem::path(path).parent_path(), error);
        std::ofstream file(path, std::ios::binary | std::ios::trunc);
        file.write(contents.data(), static_cast<std::streamsize>(contents.size()));
        if (!file) detail::runtime_error(ACL_ERROR_WRITE_FILE, "data dump: cannot write \"%s\"", path.c_str());
        return;
    }
    size_t offset = 0;
    do {
        const size_t bytes = std::min(kCallbackChunkBytes, contents.size() - offset);
        std::vector<unsigned char> memory(sizeof(acldumpChunk) + bytes);
        auto* chunk = reinterpret_cast<acldumpChunk*>(memory.data());
        std::strncpy(chunk->fileName, path.c_str(), ACL_DUMP_MAX_FILE_PATH_LENGTH - 1);
        chunk->bufLen = static_cast<uint32_t>(bytes);
        chunk->isLastChunk = offset + bytes == contents.size() ? 1 : 0;
        chunk->offset = static_cast<int64_t>(offset);
        chunk->flag = 0;
        std::memcpy(chunk->dataBuf, contents.data() + offset, bytes);
        callback(chunk, static_cast<int32_t>(memory.size()));
        offset += bytes;
    } while (offset < contents.size());
}

// ---- observers -------------------------------------------------------------

/// Dumps the selected operators' tensors (see DataDump).
class DataWriter final : public instrument::Observer {
public:
    explicit DataWriter(DumpSettings settings) : settings_(std::move(settings)) {}

    void on_submit(int32_t device, instrument::StreamId stream, uint64_t place,
                   const instrument::WorkInfo& work) override {
        if (std::strcmp(work.category, "op") != 0 || !selects(work.name)) return;
        Item item{work.name, device, 0, tensors_of(work)};
        std::lock_guard<std::mutex> lock(mutex_);
        item.sequence = dumped_++;
        items_.insert_or_assign(Key{stream, place}, std::move(item));
    }

    void on_work_begin(instrument::StreamId stream, uint64_t place) override {
        if (!settings_.inputs) return;
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = items_.find(Key{stream, place});
        if (it == items_.end()) return;
        for (DumpedTensor& tensor : it->second.tensors) {
            if (tensor.input) tensor.snapshot.assign(reinterpret_cast<const char*>(tensor.data), tensor.bytes);
        }
    }

    void on_work_end(instrument::StreamId stream, uint64_t place) override {
        Item item;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            auto it = items_.find(Key{stream, place});
            if (it == items_.end()) return;
            item = std::move(it->second);
            items_.erase(it);
        }
        const DumpCallback callback = DataDump::instance().callback();
        for (const DumpedTensor& tensor : item.tensors) {
            if (tensor.input ? !settings_.inputs : !settings_.outputs) continue;
            const char* bytes = tensor.input ? tensor.snapshot.data() : reinterpret_cast<const char*>(tensor.data);
            const std::string path = settings_.path + "/" + std::to_string(item.device) + "/" + item.name + "." +
                                     std::to_string(item.sequence) + (tensor.input ? ".input." : ".output.") +
                                     std::to_string(tensor.index) + ".npy";
            deliver(path, npy_file(tensor, bytes), callback);
        }
    }

private:
    struct Item {
        std::string name;
        int32_t device = 0;
        uint64_t sequence = 0;
        std::vector<DumpedTensor> tensors;
    };
    using Key = std::pair<instrument::StreamId, uint64_t>;

    bool selects(const char* name) const { return settings_.everyOperator || settings_.layers.count(name) != 0; }

    const DumpSettings settings_;
    std::mutex mutex_;
    uint64_t dumped_ = 0;
    std::map<Key, Item> items_;
};

/// Writes one operator info file per operator and distinct dtypes and shapes.
class ArgsWriter final : public instrument::Observer {
public:
    explicit ArgsWriter(std::string directory) : directory_(std::move(directory)) {}

    void on_submit(int32_t, instrument::StreamId, uint64_t, const instrument::WorkInfo& work) override {
        if (std::strcmp(work.category, "op") != 0) return;
        json info{{"op_type", work.name}, {"inputs", json::array()}, {"outputs", json::array()}};
        for (const DumpedTensor& tensor : tensors_of(work)) {
            info[tensor.input ? "inputs" : "outputs"].push_back({{"dtype", tensor.dtype}, {"shape", tensor.shape}});
        }
        std::string text = info.dump(2);
        std::string path;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (!written_.insert(text).second) return;
            path = directory_ + "/" + work.name + "." + std::to_string(filesPerOperator_[work.name]++) + ".json";
        }
        deliver(path, text + "\n", nullptr);
    }

private:
    const std::string directory_;
    std::mutex mutex_;
    std::set<std::string> written_;
    std::unordered_map<std::string, uint64_t> filesPerOperator_;
};

}  // namespace

aclError read_dump_settings(const char* api, const char* file, DumpSettings& settings) {
    std::ifstream stream(file);
    if (!stream) return param_error(ACL_ERROR_INVALID_FILE, "%s: cannot read the dump configuration \"%s\"", api, file);
    const json document = json::parse(stream, nullptr, false);
    if (document.is_discarded()) {
        return param_error(ACL_ERROR_PARSE_FILE, "%s: the dump configuration \"%s\" is not JSON", api, file);
    }
    if (!document.is_object() || !document.contains("dump") || !document["dump"].is_object()) {
        return invalid_config(api, file, "it has no \"dump\" object");
    }
    const json& dump = document["dump"];
    std::string mode;
    std::string opSwitch;
    std::string debug;
    std::string scene;
    std::string data;
    if (!read_string(dump, "dump_path", "", settings.path) || !read_string(dump, "dump_mode", "output", mode) ||
        !read_string(dump, "dump_op_switch", "off", opSwitch) || !read_string(dump, "dump_debug", "off", debug) ||
        !read_string(dump, "dump_scene", "", scene) || !read_string(dump, "dump_data", "tensor", data) ||
        !read_layers(dump, settings.layers)) {
        return invalid_config(api, file, "a member has the wrong JSON type");
    }
    if (debug == "on" || scene == "watcher" || scene == "aic_err_detail_dump" || dump.contains("dump_kernel_data") ||
        data == "stats") {
        return detail::runtime_error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                     "%s: acl-cpu dumps tensors of single operators and exception paths; overflow "
                                     "(dump_debug), watcher, AI Core detail, kernel debug and stats dumps need the "
                                     "AI Core",
                                     api);
    }
    const bool modeKnown = mode == "input" || mode == "output" || mode == "all";
    const bool sceneKnown = scene.empty() || scene == "aic_err_brief_dump" || scene == "aic_err_norm_dump" ||
                            scene == "lite_exception";
    if (!modeKnown || (opSwitch != "on" && opSwitch != "off") || !sceneKnown || data != "tensor") {
        return invalid_config(api, file, "dump_mode, dump_op_switch, dump_scene or dump_data has an unknown value");
    }
    settings.inputs = mode != "output";
    settings.outputs = mode != "input";
    settings.everyOperator = opSwitch == "on";
    settings.exceptionScene = scene;
    if (!scene.empty() && settings.dumps_data()) {
        return invalid_config(api, file, "an exception dump cannot be combined with a data dump");
    }
    if (settings.dumps_data() && settings.path.empty()) return invalid_config(api, file, "dump_path is missing");
    return ACL_SUCCESS;
}

DataDump& DataDump::instance() {
    static auto* dump = new DataDump;  // Never destroyed: its observers may be reached during exit.
    return *dump;
}

aclError DataDump::init() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (initialised_) {
        return param_error(ACL_ERROR_DUMP_ALREADY_RUN, "aclmdlInitDump: dump is initialised already");
    }
    initialised_ = true;
    return ACL_SUCCESS;
}

aclError DataDump::configure(const DumpSettings& settings) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!initialised_) {
        return param_error(ACL_ERROR_DUMP_NOT_RUN, "aclmdlSetDump: call aclmdlInitDump first");
    }
    apply_locked(settings);
    return ACL_SUCCESS;
}

aclError DataDump::finalize() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!initialised_) {
        return param_error(ACL_ERROR_DUMP_NOT_RUN, "aclmdlFinalizeDump: call aclmdlInitDump first");
    }
    finalize_locked();
    return ACL_SUCCESS;
}

aclError DataDump::configure_at_init(const char* configPath) {
    if (configPath == nullptr) return ACL_SUCCESS;
    std::ifstream stream(configPath);
    const json document = json::parse(stream, nullptr, false);
    if (document.is_discarded() || !document.is_object() || !document.contains("dump")) return ACL_SUCCESS;
    std::lock_guard<std::mutex> lock(mutex_);
    if (initialised_) return ACL_SUCCESS;
    DumpSettings settings;
    if (aclError status = read_dump_settings("aclInit", configPath, settings); status != ACL_SUCCESS) return status;
    initialised_ = true;
    initialisedByAclInit_ = true;
    apply_locked(settings);
    return ACL_SUCCESS;
}

void DataDump::finalize_at_finalize() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!initialisedByAclInit_) return;
    finalize_locked();
}

void DataDump::apply_locked(const DumpSettings& settings) {
    remove_data_writer();
    settings_ = settings;
    if (settings_.dumps_data()) {
        dataWriter_ = std::make_shared<DataWriter>(settings_);
        instrument::install(dataWriter_);
    }
}

void DataDump::finalize_locked() {
    remove_data_writer();
    settings_ = DumpSettings{};
    initialised_ = false;
    initialisedByAclInit_ = false;
}

void DataDump::remove_data_writer() {
    if (!dataWriter_) return;
    remove_when_idle(dataWriter_.get());
    dataWriter_.reset();
}

const char* DataDump::path_of(int64_t dumpType) {
    std::lock_guard<std::mutex> lock(mutex_);
    const std::string& scene = settings_.exceptionScene;
    bool configured = false;
    switch (dumpType) {
        case DATA_DUMP:
            configured = settings_.dumps_data();
            break;
        case AIC_ERR_BRIEF_DUMP:
            configured = scene == "aic_err_brief_dump" || scene == "lite_exception";
            break;
        case AIC_ERR_NORM_DUMP:
            configured = scene == "aic_err_norm_dump";
            break;
        default:  // AIC_ERR_DETAIL_DUMP and OVERFLOW_DUMP are never configured (see read_dump_settings).
            break;
    }
    if (!configured) return nullptr;
    return handedOutPaths_.insert(settings_.path.empty() ? std::string(".") : settings_.path).first->c_str();
}

std::string DataDump::exception_path() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (settings_.exceptionScene.empty()) return std::string();
    return settings_.path.empty() ? std::string(".") : settings_.path;
}

aclError DataDump::start_args(const std::string& directory) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (argsWriter_) {
        return param_error(ACL_ERROR_DUMP_ALREADY_RUN, "aclopStartDumpArgs: call aclopStopDumpArgs first");
    }
    std::error_code error;
    std::filesystem::create_directories(directory, error);
    if (!std::filesystem::is_directory(directory, error)) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclopStartDumpArgs: \"%s\" is no directory and cannot be created",
                           directory.c_str());
    }
    argsWriter_ = std::make_shared<ArgsWriter>(directory);
    instrument::install(argsWriter_);
    return ACL_SUCCESS;
}

aclError DataDump::stop_args() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!argsWriter_) {
        return param_error(ACL_ERROR_DUMP_NOT_RUN, "aclopStopDumpArgs: call aclopStartDumpArgs first");
    }
    remove_when_idle(argsWriter_.get());
    argsWriter_.reset();
    return ACL_SUCCESS;
}

}  // namespace aclcpu::observe
