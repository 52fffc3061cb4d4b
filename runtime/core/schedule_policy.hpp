// acl-cpu runtime: SchedulePolicy, what ACLCPU_SCHEDULE chooses.
#pragma once

#include "core/internal.hpp"

#include <cstdint>
#include <string>

namespace aclcpu::detail {

/// How the devices order the ready items of different streams.
struct SchedulePolicy {
    enum class Kind { kFifo, kRandom, kAdversarial };
    Kind kind = Kind::kFifo;
    uint64_t seed = 0;

    /// "fifo", "random:SEED" or "adversarial:SEED": what ACLCPU_SCHEDULE takes.
    std::string describe() const;
};

/// Parses ACLCPU_SCHEDULE's value; false when it is none of describe()'s forms.
bool parse_schedule_policy(const std::string& text, SchedulePolicy& policy);

}  // namespace aclcpu::detail
