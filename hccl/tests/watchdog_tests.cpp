// White-box tests of libhccl's execution-timeout watchdog.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <thread>

#include "core/group.hpp"
#include "core/watchdog.hpp"

namespace {

using aclcpu::hccl::detail::Clock;
using aclcpu::hccl::detail::Group;
using aclcpu::hccl::detail::MeetingKey;
using aclcpu::hccl::detail::Watchdog;

// The bug this guards against (found by fuzz_hccl under ASan): the watchdog
// thread waited until the deadline of its earliest entry by reference, and
// a meeting that settled meanwhile erased that entry; the next wake-up read
// freed memory.  The sequence: the thread waits for A, A is cancelled, an
// earlier B wakes the thread.
TEST(HcclWatchdog, CancellingTheEntryItWaitsForIsSafe) {
    auto group = std::make_shared<Group>(2, "watchdog test");
    Watchdog& watchdog = Watchdog::instance();
    const Watchdog::Ticket a = watchdog.watch(group, MeetingKey{0, 1, 0}, Clock::now() + std::chrono::hours(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    watchdog.cancel(a);
    const Watchdog::Ticket b = watchdog.watch(group, MeetingKey{0, 2, 0}, Clock::now() + std::chrono::minutes(30));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    watchdog.cancel(b);
}

// An expired watch of a meeting that no longer exists, or of a group that is
// gone, does nothing.
TEST(HcclWatchdog, ExpiryOfAForgottenMeetingOrGroupIsHarmless) {
    auto group = std::make_shared<Group>(2, "watchdog test");
    Watchdog& watchdog = Watchdog::instance();
    watchdog.watch(group, MeetingKey{0, 7, 0}, Clock::now() + std::chrono::milliseconds(5));
    watchdog.watch(std::make_shared<Group>(2, "gone"), MeetingKey{0, 8, 0}, Clock::now());
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
}

}  // namespace
