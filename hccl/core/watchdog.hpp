// acl-cpu HCCL: Watchdog, the thread that fails a collective whose peers do
// not all come within the communicator's execution timeout.
#pragma once

#include "core/internal.hpp"

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include "core/group.hpp"

namespace aclcpu::hccl::detail {

/// One thread for the process, started by the first watch.  A meeting
/// that settles in time cancels its watch; the thread wakes only for
/// deadlines, never for a settled meeting.
class Watchdog {
public:
    struct Ticket {
        Clock::time_point deadline;
        uint64_t id = 0;
        bool operator<(const Ticket& o) const noexcept { return std::tie(deadline, id) < std::tie(o.deadline, o.id); }
    };

    static Watchdog& instance();
    ~Watchdog();

    /// Calls group->expire(key) at deadline unless cancelled first (and the
    /// group still exists).  Any thread; may be called under a group's mutex.
    Ticket watch(std::weak_ptr<Group> group, const MeetingKey& key, Clock::time_point deadline);
    void cancel(const Ticket& ticket);

private:
    Watchdog() = default;
    void serve();

    std::mutex mutex_;
    std::condition_variable changed_;
    bool stopping_ = false;
    uint64_t nextId_ = 0;
    std::map<Ticket, std::pair<std::weak_ptr<Group>, MeetingKey>> watched_;
    std::thread thread_;
};

}  // namespace aclcpu::hccl::detail
