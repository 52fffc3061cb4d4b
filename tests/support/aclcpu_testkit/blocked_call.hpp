// acl-cpu test kit: BlockedCall, a runtime call made on a thread of its own
// so that a test can act while it blocks (aclrtStreamAbort against a waiting
// aclrtSynchronizeStream).
#pragma once

#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <functional>
#include <future>
#include <string>
#include <thread>

#include "acl/acl.h"

namespace aclcpu::testkit {

class BlockedCall {
public:
    /// Starts call on a new thread whose current context is the caller's.
    explicit BlockedCall(std::function<aclError()> call) : result_(promise_.get_future()) {
        aclrtContext context = nullptr;
        (void)aclrtGetCurrentContext(&context);
        thread_ = std::thread([this, context, call = std::move(call)] {
            threadId_.store(static_cast<pid_t>(syscall(SYS_gettid)));
            (void)aclrtSetCurrentContext(context);
            promise_.set_value(call());
        });
    }
    /// Joins the thread: the test must have let the call return.
    ~BlockedCall() { thread_.join(); }
    BlockedCall(const BlockedCall&) = delete;
    BlockedCall& operator=(const BlockedCall&) = delete;

    /// Waits, up to limit, until the call's thread sleeps in the kernel --
    /// blocked, past any spinning -- or the call has returned; true when
    /// the thread was seen asleep.  Asleep means seen so twice, kSettle
    /// apart: a brief sleep on the way to the wait (a contended lock) is
    /// rarely that long.
    bool wait_until_asleep(std::chrono::milliseconds limit) const {
        const auto end = std::chrono::steady_clock::now() + limit;
        while (std::chrono::steady_clock::now() < end) {
            if (result_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) return false;
            if (thread_state() == 'S') {
                std::this_thread::sleep_for(kSettle);
                if (thread_state() == 'S') return true;
            }
            std::this_thread::yield();
        }
        return false;
    }

    /// Waits, up to limit, for the call to return; true with its result in status.
    bool wait_for_return(std::chrono::milliseconds limit, aclError& status) {
        if (result_.wait_for(limit) != std::future_status::ready) return false;
        status = result_.get();
        return true;
    }

private:
    static constexpr std::chrono::milliseconds kSettle{1};

    /// The state letter of the call's thread in /proc (R running, S asleep ...), '?' before it has started.
    char thread_state() const {
        const pid_t id = threadId_.load();
        if (id == 0) return '?';
        std::ifstream stat("/proc/self/task/" + std::to_string(id) + "/stat");
        std::string line;
        std::getline(stat, line);
        // "tid (name) state ...": the name may hold spaces and parentheses.
        const size_t nameEnd = line.rfind(')');
        return nameEnd == std::string::npos || nameEnd + 2 >= line.size() ? '?' : line[nameEnd + 2];
    }

    std::promise<aclError> promise_;
    std::future<aclError> result_;
    std::atomic<pid_t> threadId_{0};
    std::thread thread_;
};

}  // namespace aclcpu::testkit
