// acl-cpu HCCL: the execution-timeout watchdog (see watchdog.hpp).
#include "core/watchdog.hpp"

namespace aclcpu::hccl::detail {

Watchdog& Watchdog::instance() {
    static Watchdog watchdog;
    return watchdog;
}

Watchdog::~Watchdog() {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_one();
    if (thread_.joinable()) thread_.join();
}

Watchdog::Ticket Watchdog::watch(std::weak_ptr<Group> group, const MeetingKey& key, Clock::time_point deadline) {
    bool earliest = false;
    Ticket ticket{deadline, 0};
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (!thread_.joinable()) thread_ = std::thread([this] { serve(); });
        ticket.id = nextId_++;
        earliest = watched_.empty() || ticket < watched_.begin()->first;
        watched_.emplace(ticket, std::make_pair(std::move(group), key));
    }
    if (earliest) changed_.notify_one();
    return ticket;
}

void Watchdog::cancel(const Ticket& ticket) {
    const std::lock_guard<std::mutex> lock(mutex_);
    watched_.erase(ticket);
}

void Watchdog::serve() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stopping_) {
        if (watched_.empty()) {
            changed_.wait(lock);
            continue;
        }
        const auto due = watched_.begin();
        // A copy: while this thread waits, a cancel may erase the entry.
        const Clock::time_point deadline = due->first.deadline;
        if (Clock::now() < deadline) {
            changed_.wait_until(lock, deadline);
            continue;
        }
        auto [group, key] = due->second;
        watched_.erase(due);
        lock.unlock();  // expire takes the group's mutex, under which watch() takes this one.
        if (const std::shared_ptr<Group> alive = group.lock()) alive->expire(key);
        lock.lock();
    }
}

}  // namespace aclcpu::hccl::detail
