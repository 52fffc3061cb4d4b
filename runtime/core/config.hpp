// acl-cpu runtime: configuration of the emulated machine.
#pragma once

#include "core/internal.hpp"

#include <cstdint>
#include <string>

#include "aclcpu/memcheck.hpp"
#include "aclcpu/soc_profile.hpp"
#include "core/schedule_policy.hpp"

namespace aclcpu::detail {

/// What the runtime emulates, fixed for the life of one aclInit..aclFinalize.
///
/// Sources, later ones winning: built-in defaults, the "acl_cpu" object of
/// the aclInit JSON file, then the ACLCPU_* environment variables:
///   device_count     ACLCPU_DEVICE_COUNT      default 1
///   soc              ACLCPU_SOC               default "Ascend910B2"
///   worker_threads   ACLCPU_WORKER_THREADS    default: hardware threads
///   memory_capacity  ACLCPU_MEMORY_CAPACITY   default: the SoC's HBM (bytes)
///   memcheck         ACLCPU_MEMCHECK          0 or 1; default 1 in Debug builds
///   trace            ACLCPU_TRACE             path of a Chrome trace-event JSON file to write
///   check            ACLCPU_CHECK             "race": the stream race checker; "none" (default)
///   check_fatal      ACLCPU_CHECK_FATAL       0 or 1 (or false/true): abort at the first report
///   schedule         ACLCPU_SCHEDULE          "fifo" (default), "random:SEED" or "adversarial:SEED"
/// plus CANN's own {"defaultDevice": {"default_device": "N"}}.
struct RuntimeConfig {
    int32_t deviceCount = 1;
    SocProfile soc{};
    int workerThreads = 0;
    uint64_t memoryCapacity = 0;
    int32_t defaultDevice = -1;  ///< -1: no implicit device.
    /// Guard zones and freed-block quarantine in device pools, and access
    /// checks of every device task (see DevicePool, check_device_accesses).
#ifdef NDEBUG
    bool memcheck = false;
#else
    bool memcheck = true;
#endif
    std::string tracePath;  ///< Empty: no timeline trace.
    bool raceCheck = false;
    bool checkFatal = false;
    SchedulePolicy schedule{};
};

/// Builds the configuration; on failure reports the error and returns its
/// code (ACL_ERROR_INVALID_FILE, ACL_ERROR_PARSE_FILE, ACL_ERROR_INVALID_PARAM).
aclError load_config(const char* jsonPath, RuntimeConfig& config);

/// The profile named name, or nullptr if acl-cpu does not know that SoC.
const SocProfile* find_soc_profile(const std::string& name);

/// The SoC emulated outside an aclInit span (aclrtGetSocName answers before
/// aclInit): the one ACLCPU_SOC names if acl-cpu knows it, else Ascend910B2.
const SocProfile& default_soc_profile();

}  // namespace aclcpu::detail
