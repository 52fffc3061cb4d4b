// acl-cpu private interface between the runtime (libascendcl) and the
// libraries built on it (libnnopbase, libopapi_nn).  Not installed: host
// programs only see CANN's C API.
#pragma once

#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "acl/acl_rt.h"

#define ACLCPU_EXPORT __attribute__((visibility("default")))

namespace aclcpu {

/// The figures of an emulated SoC that the operators' tilings depend on.
struct SocProfile {
    const char* name;           ///< CANN's SoC name, e.g. "Ascend910B2".
    int64_t aiCoreCount;        ///< Cube cores (ACL_DEVICE_INFO_AI_CORE_NUM).
    int64_t vectorCoreCount;    ///< Vector cores: the upper bound of an operator's blockDim.
    int64_t ubSize;             ///< Unified Buffer bytes per vector core.
    int64_t l2Size;             ///< L2 cache bytes.
    uint64_t hbmBytes;          ///< Default capacity of the device-memory pool.
};

/// One unit of device work enqueued on a stream.
///
/// The runtime calls run() exactly once, on a worker thread of the device's
/// task arena, after all work submitted earlier to the same stream (and all
/// work it waits on through events) has completed.  run() may use TBB
/// parallelism inside the arena but must not block on other streams.  A
/// non-zero result, or an exception escaping run(), becomes the stream's
/// sticky error; the task is destroyed right after run() returns.
class DeviceTask {
public:
    virtual ~DeviceTask() = default;
    virtual aclError run() = 0;
    /// Short label for diagnostics ("aclnnSoftplusBackward", "memcpy", ...).
    virtual const char* name() const noexcept = 0;
};

/// Enqueues task on stream (nullptr: the current context's default stream).
/// On failure the task is destroyed unrun, the error is reported (see
/// report_error) and its code returned.
ACLCPU_EXPORT aclError enqueue(aclrtStream stream, std::unique_ptr<DeviceTask> task);

/// The SoC profile of the device that owns stream (nullptr: the current
/// context's device).  Falls back to the configured profile when no device
/// is set, so phase 1 of an operator can tile before aclrtSetDevice.
ACLCPU_EXPORT const SocProfile& soc_profile(aclrtStream stream = nullptr);

/// Records a failed call for aclGetRecentErrMsg (the message, formatted as
/// CANN formats it, with tag e.g. "AclNN_Parameter_Error(EZ1001)") and for
/// aclrtGetLastError (the code).  Thread-safe; per calling thread.
ACLCPU_EXPORT void report_error(aclError code, const char* tag, const char* format, ...)
    __attribute__((format(printf, 3, 4)));
ACLCPU_EXPORT void vreport_error(aclError code, const char* tag, const char* format, va_list args)
    __attribute__((format(printf, 3, 0)));

/// Message tags used with report_error.
inline constexpr const char* kAclnnParamTag = "AclNN_Parameter_Error(EZ1001)";
inline constexpr const char* kAclnnInnerTag = "AclNN_Inner_Error(EZ9999)";
inline constexpr const char* kRuntimeParamTag = "Runtime_Parameter_Error(EE1001)";
inline constexpr const char* kRuntimeInnerTag = "Runtime_Inner_Error(EE9999)";

/// Ensures the runtime is initialised enough for aclnnInit (idempotent).
ACLCPU_EXPORT aclError ensure_initialised(const char* configPath);

/// A device address range a task is about to touch, named for fault reports
/// as `role` (and `index` unless it is negative): "input 1", "workspace".
struct DeviceAccess {
    const void* address;
    uint64_t bytes;
    const char* role;
    int index;
};

/// True when device memory checking is on for the current aclInit span
/// (ACLCPU_MEMCHECK=1/0; on by default in Debug builds).  Callers test it
/// first so that the checks below cost one branch when it is off.
ACLCPU_EXPORT bool memcheck_enabled() noexcept;

/// Memory check before `task` runs: each access with bytes > 0 must lie
/// inside the usable bytes of one live aclrtMalloc block.  An access that
/// strays into a guard zone, touches a freed block or is not device memory
/// is reported (naming task, role and buffer) and ACL_ERROR_RT_AICORE_EXCEPTION
/// returned, as the device would raise an AI Core exception; the task must
/// then leave memory untouched.
ACLCPU_EXPORT aclError check_device_accesses(const char* task, const DeviceAccess* accesses, size_t count) noexcept;

/// Memory check after `task` ran: the guard zones of the blocks it accessed
/// still hold their canaries.  A damaged zone is reported, re-armed and
/// ACL_ERROR_RT_AICORE_EXCEPTION returned.
ACLCPU_EXPORT aclError check_device_guards(const char* task, const DeviceAccess* accesses, size_t count) noexcept;

/// One line per stream with work outstanding: what it has submitted and
/// completed, the task it is running or, if none, that it waits for an
/// event or a host callback.  For watchdogs; empty when every stream is idle.
ACLCPU_EXPORT std::string describe_pending_work();

namespace testing {

/// Faults the runtime injects on purpose so that tests can drive its
/// failure paths.  Decisions come from a generator seeded with `seed`.
struct FaultPlan {
    uint64_t seed = 0;
    /// Probability that a device allocation fails as if the pool were
    /// exhausted (ACL_ERROR_RT_MEMORY_ALLOCATION).
    double allocationFailureRate = 0;
};

/// Faults injected since the plan was set.
struct FaultCounts {
    uint64_t allocationFailures = 0;
};

/// Replaces the plan (a default FaultPlan injects nothing) and zeroes the counts.
ACLCPU_EXPORT void set_fault_plan(const FaultPlan& plan);
ACLCPU_EXPORT FaultCounts injected_faults();

}  // namespace testing

}  // namespace aclcpu
