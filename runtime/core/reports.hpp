// acl-cpu runtime: ReportHub, the user threads that serve aclrtLaunchCallback.
#pragma once

#include "core/internal.hpp"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "acl/acl_rt.h"
#include "core/lane.hpp"

namespace aclcpu::detail {

class Device;

/// A host call in flight: the user's function, and the gate that later work
/// on its stream waits on (none for a non-blocking callback).
struct HostCall {
    void (*function)(void*);
    void* data;
    const Device* device;
    StreamLane* lane;  ///< The lane of the stream it was launched on (nullptr: a replayed graph's).
    const char* api;   ///< aclrtLaunchCallback or aclrtLaunchHostFunc.
    LateDelivery gate;

    /// Runs the function, then lets the stream continue.  An exception
    /// escaping the function becomes the stream's sticky error rather than
    /// ending the serving thread and holding the stream forever.
    void run() const;

private:
    void fail(const std::string& detail) const;
};

/// Callbacks launched with aclrtLaunchCallback run only on the user thread
/// subscribed to their stream, inside that thread's aclrtProcessReport, as
/// on CANN: if nobody processes reports, callbacks never run.  A second hub
/// serves aclrtLaunchHostFunc the same way on streams bound by
/// aclrtSubscribeHostFunc (aclrtProcessHostFunc).  When a device
/// is torn down its unprocessed callbacks are dropped (with a warning) so
/// that its streams can drain.
class ReportHub {
public:
    /// processApi names the entry point that serves the queues, for messages.
    explicit ReportHub(const char* processApi) : processApi_(processApi) {}

    /// Counts one more stream served by thread.
    void subscribe(uint64_t thread);
    /// Counts one stream fewer; the thread's queue goes when it serves none.
    void unsubscribe(uint64_t thread);
    /// Queues call for thread (it runs inside that thread's process()).
    void post(uint64_t thread, const HostCall& call);
    /// Runs the callbacks queued for the calling thread, waiting up to timeoutMs
    /// (-1: forever) for the first one.
    aclError process(uint64_t thread, int32_t timeoutMs);

    /// From now until end_discard(device), the device's callbacks are dropped
    /// instead of queued, and those already queued are dropped now.
    void begin_discard(const Device* device);
    void end_discard(const Device* device);

private:
    struct Queue {
        int streams = 0;
        std::deque<HostCall> calls;
    };

    const char* const processApi_;
    std::mutex mutex_;
    std::condition_variable posted_;
    std::map<uint64_t, std::shared_ptr<Queue>> queues_;
    std::set<const Device*> discarding_;
};

}  // namespace aclcpu::detail
