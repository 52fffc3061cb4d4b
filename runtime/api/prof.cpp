// acl-cpu runtime API: profiling (acl_prof.h) and aclrtProfTrace (acl_rt.h).
//
// A profiling collection is the timeline trace (observe/profiler.hpp): what
// a program instrumented for CANN's profiler collects between aclprofStart
// and aclprofStop becomes a Perfetto / chrome://tracing file in the result
// directory given to aclprofInit, with the msproftx marks and ranges on the
// host threads that made them and aclprofMarkEx / step marks on their streams.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <system_error>

#include "acl/acl_prof.h"
#include "acl/acl_rt.h"
#include "aclcpu/device_task.hpp"
#include "aclcpu/dtype.hpp"
#include "aclcpu/instrumentation.hpp"
#include "api/stream_marks.hpp"
#include "api/unsupported.hpp"
#include "core/errors.hpp"
#include "core/runtime_state.hpp"
#include "observe/profiler.hpp"

using aclcpu::code_of;
using aclcpu::api::enqueue_mark;
using aclcpu::api::not_supported;
using aclcpu::detail::param_error;
using aclcpu::detail::Runtime;
using aclcpu::observe::ProfileConfig;
using aclcpu::observe::Profiler;
using aclcpu::observe::Stamp;
using aclcpu::observe::StepInfo;

namespace aclcpu::api {

/// An unsupported aclprofGetOpFlag answers ACL_SUBSCRIBE_NONE, CANN's "no flag".
template <>
UnsupportedResult::operator aclprofSubscribeOpFlag() const noexcept {
    return ACL_SUBSCRIBE_NONE;
}

}  // namespace aclcpu::api

namespace {

/// CANN's limits: a result path of at most 4096 bytes, an aclprofSetConfig
/// value of at most 256, an aclprofMarkEx message of at most 127 characters.
constexpr size_t kMaxResultPathBytes = 4096;
constexpr size_t kMaxSetConfigBytes = 256;
constexpr size_t kMaxMarkExMessage = 127;

constexpr uint64_t kKnownDataTypes =
    ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_AICORE_METRICS | ACL_PROF_AICPU | ACL_PROF_L2CACHE |
    ACL_PROF_HCCL_TRACE | ACL_PROF_TRAINING_TRACE | ACL_PROF_MSPROFTX | ACL_PROF_RUNTIME_API | ACL_PROF_GE_API_L0 |
    ACL_PROF_TASK_TIME_L0 | ACL_PROF_TASK_MEMORY | ACL_PROF_GE_API_L1 | ACL_PROF_TASK_TIME_L2 | ACL_PROF_OP_ATTR |
    ACL_PROF_TASK_TIME_L3 | ACL_PROF_API_STATS | ACL_PROF_AICORE_SHAPE;

constexpr char kNoModels[] =
    "operator subscription reports the operators of a loaded offline model (.om), and acl-cpu loads none; "
    "profile with aclprofInit/aclprofStart instead";

bool is_metrics_code(int64_t code) {
    return (code >= ACL_AICORE_ARITHMETIC_UTILIZATION && code <= ACL_AICORE_MEMORY_ACCESS) || code == ACL_AICORE_NONE;
}

/// The config behind a handle, or nullptr after reporting why there is none.
std::shared_ptr<ProfileConfig> find_config(const aclprofConfig* handle, const char* api) {
    if (handle == nullptr) {
        param_error(ACL_ERROR_INVALID_PARAM, "%s: profilerConfig is null", api);
        return nullptr;
    }
    std::shared_ptr<ProfileConfig> config = Profiler::instance().configs().find(handle);
    if (!config) {
        param_error(ACL_ERROR_INVALID_PARAM, "%s: profilerConfig is not a live aclprofCreateConfig result", api);
    }
    return config;
}

std::shared_ptr<Stamp> find_stamp(const void* handle, const char* api) {
    std::shared_ptr<Stamp> stamp = handle == nullptr ? nullptr : Profiler::instance().stamps().find(handle);
    if (!stamp) param_error(ACL_ERROR_INVALID_PARAM, "%s: stamp is not a live aclprofCreateStamp result", api);
    return stamp;
}

std::string hex_of(const void* data, size_t bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string hex;
    hex.reserve(bytes * 2);
    for (size_t i = 0; i < bytes; ++i) {
        const auto byte = static_cast<const unsigned char*>(data)[i];
        hex += kDigits[byte >> 4];
        hex += kDigits[byte & 0xF];
    }
    return hex;
}

}  // namespace

extern "C" {

// ---- sessions and collections -------------------------------------------

aclError aclprofInit(const char* profilerResultPath, size_t length) {
    if (!Runtime::instance().initialised()) {
        return param_error(ACL_ERROR_UNINITIALIZE, "aclprofInit: call aclInit first");
    }
    if (profilerResultPath == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclprofInit: the path is null");
    const std::string directory(profilerResultPath, strnlen(profilerResultPath, length));
    if (directory.empty() || length > kMaxResultPathBytes) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclprofInit: length %zu is not within 1..%zu bytes of a path",
                           length, kMaxResultPathBytes);
    }
    std::error_code error;
    std::filesystem::create_directories(directory, error);
    if (!std::filesystem::is_directory(directory, error)) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclprofInit: \"%s\" is no directory and cannot be created",
                           directory.c_str());
    }
    return Profiler::instance().init(directory);
}

aclError aclprofFinalize() { return Profiler::instance().finalize(); }

aclprofConfig* aclprofCreateConfig(uint32_t* deviceIdList, uint32_t deviceNums, aclprofAicoreMetrics aicoreMetrics,
                                   const aclprofAicoreEvents* aicoreEvents, uint64_t dataTypeConfig) {
    Runtime& runtime = Runtime::instance();
    if (!runtime.initialised()) {
        param_error(ACL_ERROR_UNINITIALIZE, "aclprofCreateConfig: call aclInit first");
        return nullptr;
    }
    if (deviceNums > 0 && deviceIdList == nullptr) {
        param_error(ACL_ERROR_INVALID_PARAM, "aclprofCreateConfig: deviceIdList is null for %u devices", deviceNums);
        return nullptr;
    }
    const int64_t metrics = code_of(aicoreMetrics);
    if (!is_metrics_code(metrics) || aicoreEvents != nullptr || (dataTypeConfig & ~kKnownDataTypes) != 0) {
        param_error(ACL_ERROR_INVALID_PARAM,
                    "aclprofCreateConfig: aicoreMetrics %lld, aicoreEvents (reserved: must be null) or "
                    "dataTypeConfig 0x%llx is not one CANN defines",
                    static_cast<long long>(metrics), static_cast<unsigned long long>(dataTypeConfig));
        return nullptr;
    }
    auto config = std::make_shared<ProfileConfig>();
    for (uint32_t i = 0; i < deviceNums; ++i) {
        const uint32_t device = deviceIdList[i];
        const bool repeated = std::find(config->devices.begin(), config->devices.end(), device) !=
                              config->devices.end();
        if (device >= static_cast<uint32_t>(runtime.config().deviceCount) || repeated) {
            param_error(ACL_ERROR_INVALID_PARAM, "aclprofCreateConfig: device %u does not exist or is listed twice",
                        device);
            return nullptr;
        }
        config->devices.push_back(device);
    }
    config->aicoreMetrics = metrics;
    config->dataTypes = dataTypeConfig;
    return static_cast<aclprofConfig*>(Profiler::instance().configs().add(std::move(config)));
}

aclError aclprofDestroyConfig(const aclprofConfig* profilerConfig) {
    if (!find_config(profilerConfig, "aclprofDestroyConfig")) return ACL_ERROR_INVALID_PARAM;
    Profiler::instance().configs().remove(profilerConfig);
    return ACL_SUCCESS;
}

aclError aclprofStart(const aclprofConfig* profilerConfig) {
    std::shared_ptr<ProfileConfig> config = find_config(profilerConfig, "aclprofStart");
    if (!config) return ACL_ERROR_INVALID_PARAM;
    return Profiler::instance().start(*config);
}

aclError aclprofStop(const aclprofConfig* profilerConfig) {
    std::shared_ptr<ProfileConfig> config = find_config(profilerConfig, "aclprofStop");
    if (!config) return ACL_ERROR_INVALID_PARAM;
    return Profiler::instance().stop(*config);
}

/// The settings tune hardware samplers (frequencies, storage, LLC, DVPP):
/// the timeline has none, so a valid setting is accepted and changes nothing.
aclError aclprofSetConfig(aclprofConfigType configType, const char* config, size_t configLength) {
    const int64_t type = code_of(configType);
    const bool known = type > ACL_PROF_ARGS_MIN && type < ACL_PROF_ARGS_MAX && type != 2;
    if (!known || config == nullptr || configLength == 0 || configLength > kMaxSetConfigBytes) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "aclprofSetConfig: configType %lld is unknown, or config is null or not 1..%zu bytes",
                           static_cast<long long>(type), kMaxSetConfigBytes);
    }
    return ACL_SUCCESS;
}

// ---- msproftx ------------------------------------------------------------

void* aclprofCreateStamp() {
    if (!Profiler::instance().collecting("aclprofCreateStamp")) return nullptr;
    return Profiler::instance().stamps().add(std::make_shared<Stamp>());
}

void aclprofDestroyStamp(void* stamp) {
    if (find_stamp(stamp, "aclprofDestroyStamp")) Profiler::instance().stamps().remove(stamp);
}

aclError aclprofSetStampTraceMessage(void* stamp, const char* msg, uint32_t msgLen) {
    std::shared_ptr<Stamp> live = find_stamp(stamp, "aclprofSetStampTraceMessage");
    if (!live) return ACL_ERROR_INVALID_PARAM;
    if (msg == nullptr || msgLen == 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclprofSetStampTraceMessage: msg is null or empty");
    }
    live->message.assign(msg, strnlen(msg, msgLen));
    return ACL_SUCCESS;
}

aclError aclprofMark(void* stamp) {
    std::shared_ptr<Stamp> live = find_stamp(stamp, "aclprofMark");
    if (!live) return ACL_ERROR_INVALID_PARAM;
    std::shared_ptr<aclcpu::detail::TraceWriter> trace = Profiler::instance().collecting("aclprofMark");
    if (!trace) return ACL_ERROR_PROF_NOT_RUN;
    trace->mark_instant(live->message);
    return ACL_SUCCESS;
}

aclError aclprofMarkEx(const char* msg, size_t msgLen, aclrtStream stream) {
    if (msg == nullptr || msgLen == 0 || msgLen > kMaxMarkExMessage) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclprofMarkEx: msg is null or not 1..%zu characters",
                           kMaxMarkExMessage);
    }
    if (!Profiler::instance().collecting("aclprofMarkEx")) return ACL_ERROR_PROF_NOT_RUN;
    const aclcpu::instrument::ApiScope scope("aclprofMarkEx");
    return enqueue_mark(stream, std::string(msg, strnlen(msg, msgLen)), std::string());
}

aclError aclprofPush(void* stamp) {
    std::shared_ptr<Stamp> live = find_stamp(stamp, "aclprofPush");
    if (!live) return ACL_ERROR_INVALID_PARAM;
    return Profiler::instance().push("aclprofPush", live->message);
}

aclError aclprofPop() { return Profiler::instance().pop("aclprofPop"); }

aclError aclprofRangeStart(void* stamp, uint32_t* rangeId) {
    std::shared_ptr<Stamp> live = find_stamp(stamp, "aclprofRangeStart");
    if (!live) return ACL_ERROR_INVALID_PARAM;
    if (rangeId == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclprofRangeStart: rangeId is null");
    return Profiler::instance().range_start("aclprofRangeStart", live->message, *rangeId);
}

aclError aclprofRangeStop(uint32_t rangeId) { return Profiler::instance().range_stop("aclprofRangeStop", rangeId); }

uint64_t aclprofStr2Id(const char* message) {
    if (message == nullptr) {
        param_error(ACL_ERROR_INVALID_PARAM, "aclprofStr2Id: message is null");
        return std::numeric_limits<uint64_t>::max();
    }
    return Profiler::instance().id_of(message);
}

/// The range is named by the operator's name as given to aclprofStr2Id.
aclError aclprofRangePushEx(aclprofEventAttributes* attr) {
    if (attr == nullptr || attr->messageType != ACL_PROF_MESSAGE_TYPE_TENSOR_INFO ||
        attr->message.tensorInfo == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "aclprofRangePushEx: attr is null, or carries no ACL_PROF_MESSAGE_TYPE_TENSOR_INFO");
    }
    Profiler& profiler = Profiler::instance();
    std::string name = profiler.name_of(attr->message.tensorInfo->opNameId);
    if (name.empty()) name = "op " + std::to_string(attr->message.tensorInfo->opNameId);
    return profiler.push("aclprofRangePushEx", std::move(name));
}

aclError aclprofRangePop() { return Profiler::instance().pop("aclprofRangePop"); }

// ---- steps ---------------------------------------------------------------

aclprofStepInfo* aclprofCreateStepInfo() {
    return static_cast<aclprofStepInfo*>(Profiler::instance().step_infos().add(std::make_shared<StepInfo>()));
}

void aclprofDestroyStepInfo(aclprofStepInfo* stepinfo) {
    if (!Profiler::instance().step_infos().remove(stepinfo)) {
        param_error(ACL_ERROR_INVALID_PARAM, "aclprofDestroyStepInfo: stepinfo is not a live aclprofCreateStepInfo result");
    }
}

/// Marks "Step <n> start" / "Step <n> end" on the stream, n counting the
/// starts of this step info from 1.
aclError aclprofGetStepTimestamp(aclprofStepInfo* stepInfo, aclprofStepTag tag, aclrtStream stream) {
    std::shared_ptr<StepInfo> steps = stepInfo == nullptr ? nullptr : Profiler::instance().step_infos().find(stepInfo);
    const int64_t code = code_of(tag);
    if (!steps || (code != ACL_STEP_START && code != ACL_STEP_END)) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "aclprofGetStepTimestamp: stepInfo is not live, or tag %lld is neither ACL_STEP_START "
                           "nor ACL_STEP_END",
                           static_cast<long long>(code));
    }
    if (code == ACL_STEP_END && steps->started == 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclprofGetStepTimestamp: ACL_STEP_END before any ACL_STEP_START");
    }
    if (!Profiler::instance().collecting("aclprofGetStepTimestamp")) return ACL_ERROR_PROF_NOT_RUN;
    if (code == ACL_STEP_START) steps->started += 1;
    const std::string name =
        "Step " + std::to_string(steps->started) + (code == ACL_STEP_START ? " start" : " end");
    const aclcpu::instrument::ApiScope scope("aclprofGetStepTimestamp");
    return enqueue_mark(stream, name, std::string());
}

// ---- operator subscription -------------------------------------------------

aclError aclprofModelSubscribe(uint32_t, const aclprofSubscribeConfig*) { return not_supported(__func__, kNoModels); }

aclError aclprofModelUnSubscribe(uint32_t) { return not_supported(__func__, kNoModels); }

aclprofSubscribeConfig* aclprofCreateSubscribeConfig(int8_t, aclprofAicoreMetrics, void*) {
    return not_supported(__func__, kNoModels);
}

aclError aclprofDestroySubscribeConfig(const aclprofSubscribeConfig*) { return not_supported(__func__, kNoModels); }

aclError aclprofGetOpDescSize(size_t*) { return not_supported(__func__, kNoModels); }

aclError aclprofGetOpNum(const void*, size_t, uint32_t*) { return not_supported(__func__, kNoModels); }

aclError aclprofGetOpTypeLen(const void*, size_t, uint32_t, size_t*) { return not_supported(__func__, kNoModels); }

aclError aclprofGetOpType(const void*, size_t, uint32_t, char*, size_t) { return not_supported(__func__, kNoModels); }

aclError aclprofGetOpNameLen(const void*, size_t, uint32_t, size_t*) { return not_supported(__func__, kNoModels); }

aclError aclprofGetOpName(const void*, size_t, uint32_t, char*, size_t) { return not_supported(__func__, kNoModels); }

uint64_t aclprofGetOpStart(const void*, size_t, uint32_t) { return not_supported(__func__, kNoModels); }

uint64_t aclprofGetOpEnd(const void*, size_t, uint32_t) { return not_supported(__func__, kNoModels); }

uint64_t aclprofGetOpDuration(const void*, size_t, uint32_t) { return not_supported(__func__, kNoModels); }

size_t aclprofGetModelId(const void*, size_t, uint32_t) { return not_supported(__func__, kNoModels); }

aclprofSubscribeOpFlag aclprofGetOpFlag(const void*, size_t, uint32_t) { return not_supported(__func__, kNoModels); }

const char* aclprofGetOpAttriValue(const void*, size_t, uint32_t, aclprofSubscribeOpAttri) {
    return not_supported(__func__, kNoModels);
}

// ---- acl_rt.h --------------------------------------------------------------

/// A mark on the stream carrying the user's bytes (hex) in the trace.
aclError aclrtProfTrace(void* userdata, int32_t length, aclrtStream stream) {
    if (userdata == nullptr || length <= 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtProfTrace: userdata is null or length %d is not > 0",
                           length);
    }
    const aclcpu::instrument::ApiScope scope("aclrtProfTrace");
    std::string details;
    if (aclcpu::instrument::active()) {
        details = "\"userdata\":\"" + hex_of(userdata, static_cast<size_t>(length)) + "\"";
    }
    return enqueue_mark(stream, "aclrtProfTrace", std::move(details));
}

}  // extern "C"
