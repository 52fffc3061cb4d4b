// acl-cpu runtime: FaultInjector, the faults tests ask the runtime to make.
#pragma once

#include "core/internal.hpp"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <random>

#include "aclcpu/testing.hpp"

namespace aclcpu::detail {

/// Decides, from a seeded generator, which operations fail on purpose
/// (aclcpu::testing::set_fault_plan).  With the default plan every decision
/// is a single relaxed load.
class FaultInjector {
public:
    static FaultInjector& instance();

    void set_plan(const testing::FaultPlan& plan);
    testing::FaultCounts counts() const;

    /// True when this device allocation is to fail as if the pool were full.
    bool fail_allocation();

private:
    FaultInjector() = default;

    std::atomic<bool> armed_{false};
    mutable std::mutex mutex_;
    testing::FaultPlan plan_;
    std::mt19937_64 random_;
    testing::FaultCounts counts_;
};

}  // namespace aclcpu::detail
