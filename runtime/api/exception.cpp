// acl-cpu runtime API: exception callbacks and the information they get,
// device error details, the thread's last task, and snapshots (acl_rt.h).
#include <cstdint>

#include "acl/acl_rt.h"
#include "aclcpu/dtype.hpp"
#include "api/arguments.hpp"
#include "api/unsupported.hpp"
#include "core/errors.hpp"
#include "core/exception_hub.hpp"

// aclrtSetExceptionInfoCallback is deprecated by CANN, yet still part of its API.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

using aclcpu::api::check_device_id;
using aclcpu::api::not_supported;
using aclcpu::detail::ExceptionHub;
using aclcpu::detail::param_error;

namespace {

/// CANN's ACL_ERROR_INVALID_EXCEPTION_INFO, the answer of every getter given
/// no exception information (it is not among the public error codes).
constexpr uint32_t kInvalidExceptionInfo = 0xFFFFFFFFU;

uint32_t invalid_exception_info(const char* api) {
    param_error(static_cast<aclError>(kInvalidExceptionInfo), "%s: info is null", api);
    return kInvalidExceptionInfo;
}

aclError check_callback(aclrtExceptionInfoCallback callback, const char* api) {
    if (callback == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: callback is null", api);
    return ACL_SUCCESS;
}

constexpr char kNoKernelWhy[] =
    "only kernel launches carry arguments and a function handle, and acl-cpu loads no device kernels";
constexpr char kTaskInfoWhy[] =
    "op and extend information annotate tasks captured into a model runtime instance for profiling and "
    "aclmdlRIDebugJsonPrint, neither of which acl-cpu records";
constexpr char kHardwareSyncWhy[] = "the hardware synchronisation address is a register of the Ascend chip";
constexpr char kSnapshotWhy[] =
    "snapshots lock the process and save device state to the host for checkpointing; an emulated device's state "
    "already is host memory of the process, saved with it";

}  // namespace

extern "C" {

// ---- Exception callbacks (13_exception_handling.md) ---------------------------

aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback) {
    ExceptionHub::instance().set_legacy(callback);
    return ACL_SUCCESS;
}

aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback) {
    if (aclError status = check_callback(callback, __func__); status != ACL_SUCCESS) return status;
    ExceptionHub::instance().add(callback);
    return ACL_SUCCESS;
}

aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback) {
    if (aclError status = check_callback(callback, __func__); status != ACL_SUCCESS) return status;
    ExceptionHub::instance().remove(callback);
    return ACL_SUCCESS;
}

uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo* info) {
    return info != nullptr ? info->taskId : invalid_exception_info(__func__);
}

uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo* info) {
    return info != nullptr ? info->streamId : invalid_exception_info(__func__);
}

uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo* info) {
    return info != nullptr ? info->threadId : invalid_exception_info(__func__);
}

uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo* info) {
    return info != nullptr ? info->deviceId : invalid_exception_info(__func__);
}

uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo* info) {
    return info != nullptr ? info->errorCode : invalid_exception_info(__func__);
}

aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo* /*info*/, void** /*devArgsPtr*/,
                                       uint32_t* /*devArgsLen*/) {
    return not_supported(__func__, kNoKernelWhy);
}

aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo* /*info*/, aclrtFuncHandle* /*func*/) {
    return not_supported(__func__, kNoKernelWhy);
}

// ---- Device error details (13_exception_handling.md) ---------------------------

aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo* errorInfo) {
    if (errorInfo == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: errorInfo is null", __func__);
    if (aclError status = check_device_id(deviceId, __func__); status != ACL_SUCCESS) return status;
    // Task failures are software errors handed out by the streams; an
    // emulated device has no hardware that could fault.
    *errorInfo = aclrtErrorInfo{};
    errorInfo->errorType = ACL_RT_NO_ERROR;
    return ACL_SUCCESS;
}

aclError aclrtRepairError(int32_t deviceId, const aclrtErrorInfo* errorInfo) {
    if (errorInfo == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: errorInfo is null", __func__);
    if (aclError status = check_device_id(deviceId, __func__); status != ACL_SUCCESS) return status;
    const int64_t type = aclcpu::code_of(errorInfo->errorType);
    if (type != ACL_RT_NO_ERROR) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "%s: device %d reported no fault of type %lld (aclrtGetErrorVerbose reports none)",
                           __func__, deviceId, static_cast<long long>(type));
    }
    return ACL_SUCCESS;
}

// ---- The thread's tasks (12_execution_control.md, 24_other_APIs.md) ----------

aclError aclrtGetThreadLastTaskId(uint32_t* taskId) {
    if (taskId == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: taskId is null", __func__);
    const std::optional<uint32_t> last = aclcpu::detail::thread_last_task();
    if (!last) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: this thread has submitted no task to a stream it created",
                           __func__);
    }
    *taskId = *last;
    return ACL_SUCCESS;
}

aclError aclrtCacheLastTaskOpInfo(const void* const /*infoPtr*/, const size_t /*infoSize*/) {
    return not_supported(__func__, kTaskInfoWhy);
}

aclError aclrtCacheLastTaskExtendInfo(const char* const /*extendInfoPtr*/, const size_t /*infoSize*/) {
    return not_supported(__func__, kTaskInfoWhy);
}

aclError aclrtGetHardwareSyncAddr(void** /*addr*/) { return not_supported(__func__, kHardwareSyncWhy); }

// ---- Snapshots (21_snapshot_management.md) -------------------------------------

aclError aclrtSnapShotProcessLock(int /*pid*/, void* /*reserve*/) {
    return not_supported(__func__, kSnapshotWhy);
}

aclError aclrtSnapShotProcessUnlock(int /*pid*/, void* /*reserve*/) {
    return not_supported(__func__, kSnapshotWhy);
}

aclError aclrtSnapShotProcessBackup(int /*pid*/, aclrtSnapShotBackupArgs* /*args*/) {
    return not_supported(__func__, kSnapshotWhy);
}

aclError aclrtSnapShotProcessRestore(int /*pid*/, aclrtSnapShotRestoreArgs* /*args*/) {
    return not_supported(__func__, kSnapshotWhy);
}

aclError aclrtSnapShotCallbackRegister(aclrtSnapShotStage /*stage*/, aclrtSnapShotCallBack /*callback*/,
                                       void* /*args*/) {
    return not_supported(__func__, kSnapshotWhy);
}

aclError aclrtSnapShotCallbackUnregister(aclrtSnapShotStage /*stage*/, aclrtSnapShotCallBack /*callback*/) {
    return not_supported(__func__, kSnapshotWhy);
}

}  // extern "C"
