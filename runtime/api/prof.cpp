// acl-cpu runtime API: profiling (acl_prof.h) and aclrtProfTrace (acl_rt.h).
//
// A profiling collection is the timeline trace (observe/profiler.hpp): what
// a program instrumented for CANN's profiler collects between aclprofStart
// and aclprofStop becomes a Perfetto / chrome://tracing file in the result
// directory given to aclprofInit, with the msproftx marks and ranges on the
// host threads that made them and aclprofMarkEx / step marks on their streams.
//
// Operator subscription (aclprofModelSubscribe) reports the operators each
// replay of a subscribed aclmdlRI runs, as fixed-size records written into
// the user's pipe (observe/op_subscriptions.hpp, observe/op_record.hpp); the
// aclprofGetOp* functions read those records back.
#include <algorithm>
#include <cstdint>
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
#include "core/errors.hpp"
#include "core/runtime_state.hpp"
#include "observe/op_record.hpp"
#include "observe/op_subscriptions.hpp"
#include "observe/profiler.hpp"

using aclcpu::code_of;
using aclcpu::api::enqueue_mark;
using aclcpu::detail::param_error;
using aclcpu::detail::Runtime;
using aclcpu::observe::OpRecord;
using aclcpu::observe::OpSubscriptions;
using aclcpu::observe::ProfileConfig;
using aclcpu::observe::Profiler;
using aclcpu::observe::Stamp;
using aclcpu::observe::StepInfo;
using aclcpu::observe::SubscribeConfig;

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

// ---- reading subscription records -----------------------------------------
//
// CANN's parser checks every call's buffer: it must hold whole records, each
// intact, and the index must name one of them; a failing call reports
// ACL_ERROR_INVALID_PARAM, or answers 0 / nullptr / ACL_SUBSCRIBE_NONE when
// it returns no aclError.

/// True when the opInfoLen bytes at opInfo are whole, intact records;
/// otherwise reports why.  Records are copied out: the user's buffer need
/// not be aligned for them.
bool holds_records(const void* opInfo, size_t opInfoLen, const char* api) {
    if (opInfo == nullptr) {
        param_error(ACL_ERROR_INVALID_PARAM, "%s: opInfo is null", api);
        return false;
    }
    if (opInfoLen % sizeof(OpRecord) != 0) {
        param_error(ACL_ERROR_INVALID_PARAM, "%s: opInfoLen %zu is not a multiple of aclprofGetOpDescSize (%zu)",
                    api, opInfoLen, sizeof(OpRecord));
        return false;
    }
    OpRecord record;
    for (size_t offset = 0; offset < opInfoLen; offset += sizeof(OpRecord)) {
        std::memcpy(&record, static_cast<const char*>(opInfo) + offset, sizeof(OpRecord));
        if (!record.sealed()) {
            param_error(ACL_ERROR_INVALID_PARAM, "%s: bytes %zu..%zu of opInfo are no subscription record", api,
                        offset, offset + sizeof(OpRecord));
            return false;
        }
    }
    return true;
}

/// Copies the record at index into record; false (reported) when the
/// buffer or the index is not valid.
bool read_record(const void* opInfo, size_t opInfoLen, uint32_t index, const char* api, OpRecord& record) {
    if (!holds_records(opInfo, opInfoLen, api)) return false;
    const size_t count = opInfoLen / sizeof(OpRecord);
    if (index >= count) {
        param_error(ACL_ERROR_INVALID_PARAM, "%s: index %u is not below the %zu records of opInfo", api, index, count);
        return false;
    }
    std::memcpy(&record, static_cast<const char*>(opInfo) + index * sizeof(OpRecord), sizeof(OpRecord));
    return true;
}

/// A text field of a record: its type or its name.
using TextField = const char* (*)(const OpRecord&);
const char* type_of(const OpRecord& record) { return record.type; }
const char* name_of(const OpRecord& record) { return record.name; }

/// aclprofGetOpTypeLen / aclprofGetOpNameLen: the bytes the text takes with
/// its terminator.
aclError text_length(const void* opInfo, size_t opInfoLen, uint32_t index, size_t* length, TextField field,
                     const char* api) {
    if (length == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: the length pointer is null", api);
    OpRecord record;
    if (!read_record(opInfo, opInfoLen, index, api, record)) return ACL_ERROR_INVALID_PARAM;
    *length = std::strlen(field(record)) + 1;
    return ACL_SUCCESS;
}

/// aclprofGetOpType / aclprofGetOpName.  As in CANN, a buffer shorter than
/// the text is refused, and one without room for the terminator gets the
/// text cut by one character.
aclError copy_text(const void* opInfo, size_t opInfoLen, uint32_t index, char* text, size_t capacity,
                   TextField field, const char* api) {
    if (text == nullptr || capacity == 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: the output buffer is null or has length 0", api);
    }
    OpRecord record;
    if (!read_record(opInfo, opInfoLen, index, api, record)) return ACL_ERROR_INVALID_PARAM;
    const char* value = field(record);
    const size_t length = std::strlen(value);
    if (capacity < length) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "%s: a buffer of %zu bytes cannot take \"%s\" (%zu bytes with its terminator)", api,
                           capacity, value, length + 1);
    }
    const size_t copied = std::min(length, capacity - 1);
    std::memcpy(text, value, copied);
    text[copied] = '\0';
    return ACL_SUCCESS;
}

/// aclprofGetOpStart / End / Duration: 0 when the call is not valid.
using TimeField = uint64_t (*)(const OpRecord&);
uint64_t start_of(const OpRecord& record) { return record.startNs; }
uint64_t end_of(const OpRecord& record) { return record.endNs; }
uint64_t duration_of(const OpRecord& record) { return record.endNs - record.startNs; }

uint64_t read_time(const void* opInfo, size_t opInfoLen, uint32_t index, TimeField field, const char* api) {
    OpRecord record;
    return read_record(opInfo, opInfoLen, index, api, record) ? field(record) : 0;
}

}  // namespace

extern "C" {

/// aprof_pub.h (libprofapi), which acl-cpu does not ship: CANN's model
/// loaders register the device of each model they load.
ACLCPU_EXPORT int32_t MsprofSetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId);

// ---- sessions and collections -------------------------------------------

aclError aclprofInit(const char* profilerResultPath, size_t length) {
    if (!Runtime::instance().initialised()) {
        return param_error(ACL_ERROR_UNINITIALIZE, "aclprofInit: call aclInit first");
    }
    if (OpSubscriptions::instance().any()) {
        return param_error(ACL_ERROR_PROF_API_CONFLICT,
                           "aclprofInit: a model is subscribed (aclprofModelSubscribe); subscriptions and "
                           "aclprofInit..aclprofFinalize may not be mixed");
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

int32_t MsprofSetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId) {
    OpSubscriptions::instance().register_model(geModelIdx, deviceId);
    return 0;
}

aclError aclprofModelSubscribe(uint32_t modelId, const aclprofSubscribeConfig* profSubscribeConfig) {
    const std::shared_ptr<SubscribeConfig> config = OpSubscriptions::instance().configs().find(profSubscribeConfig);
    return OpSubscriptions::instance().subscribe(modelId, config.get());
}

aclError aclprofModelUnSubscribe(uint32_t modelId) { return OpSubscriptions::instance().unsubscribe(modelId); }

/// aicoreMetrics is kept, not checked: CANN collects no metrics for a
/// subscription either, and checks only the switch and the pipe.
aclprofSubscribeConfig* aclprofCreateSubscribeConfig(int8_t timeInfoSwitch, aclprofAicoreMetrics aicoreMetrics,
                                                     void* fd) {
    if (fd == nullptr) {
        param_error(ACL_ERROR_INVALID_PARAM, "aclprofCreateSubscribeConfig: fd is null");
        return nullptr;
    }
    if (timeInfoSwitch != 0 && timeInfoSwitch != 1) {
        param_error(ACL_ERROR_INVALID_PARAM, "aclprofCreateSubscribeConfig: timeInfoSwitch %d is neither 0 nor 1",
                    timeInfoSwitch);
        return nullptr;
    }
    auto config = std::make_shared<SubscribeConfig>();
    config->timeInfo = timeInfoSwitch;
    config->aicoreMetrics = code_of(aicoreMetrics);
    config->writeFd = static_cast<const int*>(fd);
    return static_cast<aclprofSubscribeConfig*>(OpSubscriptions::instance().configs().add(std::move(config)));
}

aclError aclprofDestroySubscribeConfig(const aclprofSubscribeConfig* profSubscribeConfig) {
    if (!OpSubscriptions::instance().configs().remove(profSubscribeConfig)) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "aclprofDestroySubscribeConfig: profSubscribeConfig is not a live "
                           "aclprofCreateSubscribeConfig result");
    }
    return ACL_SUCCESS;
}

aclError aclprofGetOpDescSize(size_t* opDescSize) {
    if (opDescSize == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclprofGetOpDescSize: opDescSize is null");
    *opDescSize = sizeof(OpRecord);
    return ACL_SUCCESS;
}

aclError aclprofGetOpNum(const void* opInfo, size_t opInfoLen, uint32_t* opNumber) {
    if (opNumber == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclprofGetOpNum: opNumber is null");
    if (!holds_records(opInfo, opInfoLen, "aclprofGetOpNum")) return ACL_ERROR_INVALID_PARAM;
    *opNumber = static_cast<uint32_t>(opInfoLen / sizeof(OpRecord));
    return ACL_SUCCESS;
}

aclError aclprofGetOpTypeLen(const void* opInfo, size_t opInfoLen, uint32_t index, size_t* opTypeLen) {
    return text_length(opInfo, opInfoLen, index, opTypeLen, type_of, "aclprofGetOpTypeLen");
}

aclError aclprofGetOpType(const void* opInfo, size_t opInfoLen, uint32_t index, char* opType, size_t opTypeLen) {
    return copy_text(opInfo, opInfoLen, index, opType, opTypeLen, type_of, "aclprofGetOpType");
}

aclError aclprofGetOpNameLen(const void* opInfo, size_t opInfoLen, uint32_t index, size_t* opNameLen) {
    return text_length(opInfo, opInfoLen, index, opNameLen, name_of, "aclprofGetOpNameLen");
}

aclError aclprofGetOpName(const void* opInfo, size_t opInfoLen, uint32_t index, char* opName, size_t opNameLen) {
    return copy_text(opInfo, opInfoLen, index, opName, opNameLen, name_of, "aclprofGetOpName");
}

uint64_t aclprofGetOpStart(const void* opInfo, size_t opInfoLen, uint32_t index) {
    return read_time(opInfo, opInfoLen, index, start_of, "aclprofGetOpStart");
}

uint64_t aclprofGetOpEnd(const void* opInfo, size_t opInfoLen, uint32_t index) {
    return read_time(opInfo, opInfoLen, index, end_of, "aclprofGetOpEnd");
}

uint64_t aclprofGetOpDuration(const void* opInfo, size_t opInfoLen, uint32_t index) {
    return read_time(opInfo, opInfoLen, index, duration_of, "aclprofGetOpDuration");
}

/// A failing call answers ACL_ERROR_INVALID_PARAM as the id, as CANN's does.
size_t aclprofGetModelId(const void* opInfo, size_t opInfoLen, uint32_t index) {
    OpRecord record;
    if (!read_record(opInfo, opInfoLen, index, "aclprofGetModelId", record)) return ACL_ERROR_INVALID_PARAM;
    return record.modelId;
}

aclprofSubscribeOpFlag aclprofGetOpFlag(const void* opInfo, size_t opInfoLen, uint32_t index) {
    OpRecord record;
    if (!read_record(opInfo, opInfoLen, index, "aclprofGetOpFlag", record)) return ACL_SUBSCRIBE_NONE;
    return static_cast<aclprofSubscribeOpFlag>(record.flag);
}

/// ACL_SUBSCRIBE_ATTRI_THREADID belongs to ACL_SUBSCRIBE_OP_THREAD records
/// (the threads of a subgraph's operator), and acl-cpu's records are all
/// ACL_SUBSCRIBE_OP: every valid call is answered nullptr, with the reason.
const char* aclprofGetOpAttriValue(const void* opInfo, size_t opInfoLen, uint32_t index,
                                   aclprofSubscribeOpAttri attri) {
    OpRecord record;
    if (!read_record(opInfo, opInfoLen, index, "aclprofGetOpAttriValue", record)) return nullptr;
    param_error(ACL_ERROR_INVALID_PARAM,
                "aclprofGetOpAttriValue: record %u (flag %u) has no attribute %lld; ACL_SUBSCRIBE_ATTRI_THREADID "
                "belongs to ACL_SUBSCRIBE_OP_THREAD records",
                index, record.flag, static_cast<long long>(code_of(attri)));
    return nullptr;
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
