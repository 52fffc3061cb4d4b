// acl-cpu runtime: SoC profiles and the configuration sources.
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/config.hpp"
#include "core/errors.hpp"

namespace aclcpu::detail {
namespace {

constexpr uint64_t kGiB = uint64_t{1} << 30;
constexpr uint64_t kMiB = uint64_t{1} << 20;

/// Atlas A2 parts: 910B1/B2 have 24 cube + 48 vector cores, 910B3/B4 20 + 40.
const SocProfile kSocProfiles[] = {
    {"Ascend910B1", 24, 48, 192 * 1024, 192 * kMiB, 64 * kGiB},
    {"Ascend910B2", 24, 48, 192 * 1024, 192 * kMiB, 64 * kGiB},
    {"Ascend910B3", 20, 40, 192 * 1024, 192 * kMiB, 64 * kGiB},
    {"Ascend910B4", 20, 40, 192 * 1024, 96 * kMiB, 32 * kGiB},
};

/// Parses "123", "64G", "512M", "4K" (binary units) into bytes.
bool parse_bytes(const std::string& text, uint64_t& bytes) {
    if (text.empty() || text[0] == '-') return false;
    errno = 0;
    char* end = nullptr;
    const unsigned long long value = std::strtoull(text.c_str(), &end, 10);
    if (errno != 0 || end == text.c_str()) return false;
    uint64_t unit = 1;
    const std::string suffix(end);
    if (suffix == "K" || suffix == "KiB") unit = 1024;
    else if (suffix == "M" || suffix == "MiB") unit = kMiB;
    else if (suffix == "G" || suffix == "GiB") unit = kGiB;
    else if (!suffix.empty()) return false;
    if (value > UINT64_MAX / unit) return false;
    bytes = value * unit;
    return true;
}

/// "0"/"1" as in the environment, false/true as JSON has them.
bool parse_switch(const std::string& text, bool& on) {
    if (text != "0" && text != "1" && text != "false" && text != "true") return false;
    on = text == "1" || text == "true";
    return true;
}

bool parse_int(const std::string& text, int64_t low, int64_t high, int64_t& result) {
    errno = 0;
    char* end = nullptr;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (errno != 0 || end == text.c_str() || *end != '\0' || value < low || value > high) return false;
    result = value;
    return true;
}

/// Applies settings from one source (the JSON file or the environment) to
/// the configuration; a bad value is reported with the source's error code.
class Settings {
public:
    Settings(RuntimeConfig& config, const char* origin, aclError invalidCode)
        : config_(config), origin_(origin), invalidCode_(invalidCode) {}

    aclError apply(const std::string& key, const std::string& value) {
        int64_t number = 0;
        if (key == "device_count") {
            if (!parse_int(value, 1, 64, number)) return invalid(key, value);
            config_.deviceCount = static_cast<int32_t>(number);
        } else if (key == "worker_threads") {
            if (!parse_int(value, 1, 1024, number)) return invalid(key, value);
            config_.workerThreads = static_cast<int>(number);
        } else if (key == "memory_capacity") {
            uint64_t bytes = 0;
            if (!parse_bytes(value, bytes) || bytes == 0) return invalid(key, value);
            config_.memoryCapacity = bytes;
        } else if (key == "memcheck") {
            if (!parse_int(value, 0, 1, number)) return invalid(key, value);
            config_.memcheck = number == 1;
        } else if (key == "trace") {
            config_.tracePath = value;
        } else if (key == "check") {
            if (value != "race" && value != "none") return invalid(key, value);
            config_.raceCheck = value == "race";
        } else if (key == "schedule") {
            if (!parse_schedule_policy(value, config_.schedule)) return invalid(key, value);
        } else if (key == "check_fatal") {
            if (!parse_switch(value, config_.checkFatal)) return invalid(key, value);
        } else if (key == "soc") {
            const SocProfile* profile = find_soc_profile(value);
            if (profile == nullptr) return invalid(key, value);
            config_.soc = *profile;
        } else {
            return param_error(invalidCode_, "%s: unknown acl-cpu setting \"%s\"", origin_, key.c_str());
        }
        return ACL_SUCCESS;
    }

private:
    aclError invalid(const std::string& key, const std::string& value) {
        return param_error(invalidCode_, "%s: invalid value \"%s\" for %s", origin_, value.c_str(), key.c_str());
    }

    RuntimeConfig& config_;
    const char* origin_;
    aclError invalidCode_;
};

std::string json_scalar_text(const nlohmann::json& value) {
    return value.is_string() ? value.get<std::string>() : value.dump();
}

aclError apply_json(const char* path, RuntimeConfig& config) {
    std::ifstream file(path);
    if (!file) return param_error(ACL_ERROR_INVALID_FILE, "aclInit: cannot open config file \"%s\"", path);
    const std::string text{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
    nlohmann::json root = nlohmann::json::parse(text, nullptr, false);
    if (root.is_discarded() || !root.is_object()) {
        return param_error(ACL_ERROR_PARSE_FILE, "aclInit: config file \"%s\" is not a JSON object", path);
    }
    Settings settings(config, path, ACL_ERROR_FILE_ATTR_INVALID);
    if (auto section = root.find("acl_cpu"); section != root.end()) {
        if (!section->is_object()) {
            return param_error(ACL_ERROR_FILE_ATTR_INVALID, "aclInit: \"acl_cpu\" in \"%s\" is not an object", path);
        }
        for (const auto& [key, value] : section->items()) {
            if (aclError status = settings.apply(key, json_scalar_text(value)); status != ACL_SUCCESS) {
                return status;
            }
        }
    }
    if (auto device = root.find("defaultDevice"); device != root.end() && device->is_object()) {
        int64_t id = 0;
        auto entry = device->find("default_device");
        if (entry == device->end() || !parse_int(json_scalar_text(*entry), 0, 63, id)) {
            return param_error(ACL_ERROR_FILE_ATTR_INVALID, "aclInit: invalid defaultDevice in \"%s\"", path);
        }
        config.defaultDevice = static_cast<int32_t>(id);
    }
    return ACL_SUCCESS;
}

aclError apply_environment(RuntimeConfig& config) {
    static const struct {
        const char* variable;
        const char* key;
    } kVariables[] = {{"ACLCPU_DEVICE_COUNT", "device_count"},
                      {"ACLCPU_SOC", "soc"},
                      {"ACLCPU_WORKER_THREADS", "worker_threads"},
                      {"ACLCPU_MEMORY_CAPACITY", "memory_capacity"},
                      {"ACLCPU_MEMCHECK", "memcheck"},
                      {"ACLCPU_TRACE", "trace"},
                      {"ACLCPU_CHECK", "check"},
                      {"ACLCPU_CHECK_FATAL", "check_fatal"},
                      {"ACLCPU_SCHEDULE", "schedule"}};
    Settings settings(config, "ACLCPU environment", ACL_ERROR_INVALID_PARAM);
    for (const auto& entry : kVariables) {
        const char* value = std::getenv(entry.variable);
        if (value == nullptr) continue;
        if (aclError status = settings.apply(entry.key, value); status != ACL_SUCCESS) {
            return status;
        }
    }
    return ACL_SUCCESS;
}

}  // namespace

const SocProfile* find_soc_profile(const std::string& name) {
    for (const SocProfile& profile : kSocProfiles) {
        if (name == profile.name) return &profile;
    }
    return nullptr;
}

const SocProfile& default_soc_profile() {
    const char* named = std::getenv("ACLCPU_SOC");
    const SocProfile* profile = named != nullptr ? find_soc_profile(named) : nullptr;
    return profile != nullptr ? *profile : *find_soc_profile("Ascend910B2");
}

aclError load_config(const char* jsonPath, RuntimeConfig& config) {
    config = RuntimeConfig{};
    config.soc = *find_soc_profile("Ascend910B2");
    config.workerThreads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    if (jsonPath != nullptr) {
        if (aclError status = apply_json(jsonPath, config); status != ACL_SUCCESS) return status;
    }
    if (aclError status = apply_environment(config); status != ACL_SUCCESS) return status;
    if (config.memoryCapacity == 0) config.memoryCapacity = config.soc.hbmBytes;
    if (config.defaultDevice >= config.deviceCount) {
        return param_error(ACL_ERROR_FILE_ATTR_INVALID, "aclInit: defaultDevice %d is not below device_count %d",
                           config.defaultDevice, config.deviceCount);
    }
    return ACL_SUCCESS;
}

}  // namespace aclcpu::detail
