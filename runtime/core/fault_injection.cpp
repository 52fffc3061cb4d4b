// acl-cpu runtime: FaultInjector.
#include "core/fault_injection.hpp"

namespace aclcpu {
namespace detail {

FaultInjector& FaultInjector::instance() {
    static FaultInjector* injector = new FaultInjector();  // Never destroyed: pools outlive static destructors.
    return *injector;
}

void FaultInjector::set_plan(const testing::FaultPlan& plan) {
    std::lock_guard<std::mutex> lock(mutex_);
    plan_ = plan;
    random_.seed(plan.seed);
    counts_ = testing::FaultCounts{};
    armed_.store(plan.allocationFailureRate > 0, std::memory_order_relaxed);
}

testing::FaultCounts FaultInjector::counts() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return counts_;
}

bool FaultInjector::fail_allocation() {
    if (!armed_.load(std::memory_order_relaxed)) return false;
    std::lock_guard<std::mutex> lock(mutex_);
    if (std::uniform_real_distribution<double>(0.0, 1.0)(random_) >= plan_.allocationFailureRate) return false;
    counts_.allocationFailures += 1;
    return true;
}

}  // namespace detail

namespace testing {

void set_fault_plan(const FaultPlan& plan) { detail::FaultInjector::instance().set_plan(plan); }

FaultCounts injected_faults() { return detail::FaultInjector::instance().counts(); }

}  // namespace testing
}  // namespace aclcpu
