// The stress tests' watchdog: a hang becomes a failure with a dump of the
// pending work, never a timeout of the test driver.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "aclcpu/testing.hpp"

namespace aclcpu::test {

/// How long a stress run may go without progress before the watchdog fails it.
inline constexpr auto kStallLimit = std::chrono::seconds(45);

/// Aborts the process with every stream's pending work when `heartbeat`
/// stops changing for kStallLimit; `name` opens the message.
class Watchdog {
public:
    Watchdog(const char* name, const std::atomic<uint64_t>& heartbeat)
        : name_(name), thread_([this, &heartbeat] { watch(heartbeat); }) {}
    ~Watchdog() {
        done_.store(true);
        thread_.join();
    }
    Watchdog(const Watchdog&) = delete;
    Watchdog& operator=(const Watchdog&) = delete;

private:
    void watch(const std::atomic<uint64_t>& heartbeat) {
        uint64_t seen = heartbeat.load();
        auto lastChange = std::chrono::steady_clock::now();
        while (!done_.load()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            const uint64_t now = heartbeat.load();
            if (now != seen) {
                seen = now;
                lastChange = std::chrono::steady_clock::now();
            } else if (std::chrono::steady_clock::now() - lastChange > kStallLimit) {
                std::fprintf(stderr, "%s watchdog: no progress for %lld s; pending work:\n%s", name_,
                             static_cast<long long>(kStallLimit.count()), aclcpu::describe_pending_work().c_str());
                std::abort();
            }
        }
    }

    const char* name_;
    std::atomic<bool> done_{false};
    std::thread thread_;
};

}  // namespace aclcpu::test
