// acl-cpu runtime: ReportHub.
#include "detail/errors.hpp"
#include "detail/reports.hpp"

namespace aclcpu::detail {

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
    if (it->second->streams == 0 && it->second->callbacks.empty()) queues_.erase(it);
}

void ReportHub::post(uint64_t thread, std::function<void()> callback) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& queue = queues_[thread];
    if (!queue) queue = std::make_shared<Queue>();
    queue->callbacks.push_back(std::move(callback));
    posted_.notify_all();
}

aclError ReportHub::process(uint64_t thread, int32_t timeoutMs) {
    const auto deadline = deadline_after(timeoutMs);
    std::unique_lock<std::mutex> lock(mutex_);
    auto it = queues_.find(thread);
    if (it == queues_.end()) {
        return param_error(ACL_ERROR_THREAD_NOT_SUBSCRIBE,
                           "aclrtProcessReport: thread %llu is not subscribed to any stream",
                           static_cast<unsigned long long>(thread));
    }
    std::shared_ptr<Queue> queue = it->second;
    auto hasWork = [&queue] { return !queue->callbacks.empty(); };
    if (deadline == ProgressCounter::Clock::time_point::max()) {
        posted_.wait(lock, hasWork);
    } else if (!posted_.wait_until(lock, deadline, hasWork)) {
        return runtime_error(ACL_ERROR_RT_REPORT_TIMEOUT, "aclrtProcessReport: no callback within %d ms", timeoutMs);
    }
    std::deque<std::function<void()>> due;
    due.swap(queue->callbacks);
    lock.unlock();
    for (auto& callback : due) callback();
    return ACL_SUCCESS;
}

}  // namespace aclcpu::detail
