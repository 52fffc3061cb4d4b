// acl-cpu runtime: ReportHub.
#include <cstdio>
#include <exception>
#include <vector>

#include "core/errors.hpp"
#include "core/reports.hpp"

namespace aclcpu::detail {

void HostCall::run() const {
    try {
        function(data);
    } catch (const std::exception& error) {
        fail(error.what());
    } catch (...) {
        fail("unknown exception");
    }
    gate.deliver();
}

void HostCall::fail(const std::string& detail) const {
    // A blocking call's failure belongs to its gate, the place (or replayed
    // node) later work waits on; a non-blocking one's to places already
    // complete.  A replayed non-blocking call has neither: the replay may be
    // over, so the failure is reported to the thread that ran the call.
    if (gate.node || gate.lane != nullptr) {
        gate.fail(ACL_ERROR_RT_INTERNAL_ERROR, api, detail);
    } else if (lane != nullptr) {
        lane->fail(ACL_ERROR_RT_INTERNAL_ERROR, 0, api, detail);
    } else {
        runtime_error(ACL_ERROR_RT_INTERNAL_ERROR, "%s: a non-blocking call of a replayed model failed: %s", api,
                      detail.c_str());
    }
}

void ReportHub::subscribe(uint64_t thread) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& queue = queues_[thread];
    if (!queue) queue = std::make_shared<Queue>();
    queue->streams += 1;
}

void ReportHub::unsubscribe(uint64_t thread) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = queues_.find(thread);
    if (it == queues_.end()) return;
    it->second->streams -= 1;
    if (it->second->streams == 0 && it->second->calls.empty()) queues_.erase(it);
}

void ReportHub::post(uint64_t thread, const HostCall& call) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (discarding_.count(call.device) == 0) {
            auto& queue = queues_[thread];
            if (!queue) queue = std::make_shared<Queue>();
            queue->calls.push_back(call);
            posted_.notify_all();
            return;
        }
    }
    std::fprintf(stderr, "acl-cpu: dropped a callback launched on a device being reset (nobody processed it)\n");
    call.gate.deliver();
}

aclError ReportHub::process(uint64_t thread, int32_t timeoutMs) {
    const auto deadline = deadline_after(timeoutMs);
    std::unique_lock<std::mutex> lock(mutex_);
    auto it = queues_.find(thread);
    if (it == queues_.end()) {
        return param_error(ACL_ERROR_THREAD_NOT_SUBSCRIBE,
                           "%s: thread %llu is not subscribed to any stream", processApi_,
                           static_cast<unsigned long long>(thread));
    }
    std::shared_ptr<Queue> queue = it->second;
    auto hasWork = [&queue] { return !queue->calls.empty(); };
    if (deadline == ProgressCounter::Clock::time_point::max()) {
        posted_.wait(lock, hasWork);
    } else if (!posted_.wait_until(lock, deadline, hasWork)) {
        return runtime_error(ACL_ERROR_RT_REPORT_TIMEOUT, "%s: no callback within %d ms", processApi_, timeoutMs);
    }
    std::deque<HostCall> due;
    due.swap(queue->calls);
    lock.unlock();
    for (const HostCall& call : due) call.run();
    return ACL_SUCCESS;
}

void ReportHub::begin_discard(const Device* device) {
    std::vector<HostCall> dropped;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        discarding_.insert(device);
        for (auto& [thread, queue] : queues_) {
            for (auto it = queue->calls.begin(); it != queue->calls.end();) {
                if (it->device == device) {
                    dropped.push_back(*it);
                    it = queue->calls.erase(it);
                } else {
                    ++it;
                }
            }
        }
    }
    if (!dropped.empty()) {
        std::fprintf(stderr, "acl-cpu: dropped %zu unprocessed callback(s) at device reset (nobody called %s)\n",
                     dropped.size(), processApi_);
    }
    for (const HostCall& call : dropped) call.gate.deliver();
}

void ReportHub::end_discard(const Device* device) {
    std::lock_guard<std::mutex> lock(mutex_);
    discarding_.erase(device);
}

}  // namespace aclcpu::detail
