// acl-cpu runtime: ReportHub, the user threads that serve aclrtLaunchCallback.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

#include "acl/acl_rt.h"
#include "detail/progress_counter.hpp"

namespace aclcpu::detail {

/// Callbacks launched with aclrtLaunchCallback run only on the user thread
/// subscribed to their stream, inside that thread's aclrtProcessReport, as
/// on CANN: if nobody processes reports, callbacks never run.
class ReportHub {
public:
    /// Counts one more stream served by thread.
    void subscribe(uint64_t thread);
    /// Counts one stream fewer; the thread's queue goes when it serves none.
    void unsubscribe(uint64_t thread);
    /// Queues a callback for thread (it runs inside that thread's process()).
    void post(uint64_t thread, std::function<void()> callback);
    /// Runs the callbacks queued for the calling thread, waiting up to timeoutMs
    /// (-1: forever) for the first one.
    aclError process(uint64_t thread, int32_t timeoutMs);

private:
    struct Queue {
        int streams = 0;
        std::deque<std::function<void()>> callbacks;
    };

    std::mutex mutex_;
    std::condition_variable posted_;
    std::map<uint64_t, std::shared_ptr<Queue>> queues_;
};

}  // namespace aclcpu::detail
