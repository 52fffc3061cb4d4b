// acl-cpu runtime: HostWorker, a runtime-owned thread for host functions.
#pragma once

#include "core/internal.hpp"

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace aclcpu::detail {

/// A thread that runs posted jobs in order.  It serves aclrtLaunchHostFunc,
/// whose functions may block for as long as the user likes, so they must not
/// run on a device worker.  The thread starts with the first job.
class HostWorker {
public:
    HostWorker() = default;
    HostWorker(const HostWorker&) = delete;
    HostWorker& operator=(const HostWorker&) = delete;
    ~HostWorker() { stop(); }

    void post(std::function<void()> job) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!thread_.joinable()) thread_ = std::thread([this] { serve(); });
        jobs_.push_back(std::move(job));
        ready_.notify_one();
    }

    /// Runs the jobs already posted, then joins the thread.
    void stop() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stopping_ = true;
            ready_.notify_one();
        }
        if (thread_.joinable()) thread_.join();
    }

private:
    void serve() {
        std::unique_lock<std::mutex> lock(mutex_);
        while (true) {
            ready_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
            if (jobs_.empty()) return;
            std::function<void()> job = std::move(jobs_.front());
            jobs_.pop_front();
            lock.unlock();
            job();
            lock.lock();
        }
    }

    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<std::function<void()>> jobs_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace aclcpu::detail
