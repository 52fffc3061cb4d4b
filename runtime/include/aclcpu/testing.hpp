// acl-cpu runtime interface for tests and watchdogs: fault injection and a
// description of outstanding work, a race checker to drive directly.
// Nothing here is used by the libraries.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "aclcpu/export.hpp"
#include "aclcpu/instrumentation.hpp"

namespace aclcpu {

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

/// Sets the float-overflow flag of a device as overflowing work would, for
/// tests of aclrtGetOverflowStatus and its family (no operator reports
/// overflow yet).  deviceId must be below the configured device count.
ACLCPU_EXPORT void raise_float_overflow(int32_t deviceId);

/// Pauses (true) or resumes the thread that tests and delivers the waits no
/// stream's progress expresses (notify, count-notify and value waits, event
/// waits with a timeout): while paused it looks at none, so a test can act
/// between two of its looks.  Waits armed or changed meanwhile are tested on
/// resume.  Any thread.
ACLCPU_EXPORT void pause_condition_watcher(bool paused);

/// A stream race checker of its own (what ACLCPU_CHECK=race installs), for
/// tests that install it with instrument::install and drive it directly.
ACLCPU_EXPORT std::shared_ptr<instrument::Observer> make_race_checker(bool fatal);

}  // namespace testing

}  // namespace aclcpu
