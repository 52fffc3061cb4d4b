// acl-cpu runtime: describe_pending_work, what a watchdog prints on a hang.
#include <cstdio>

#include "aclcpu/testing.hpp"
#include "core/runtime_state.hpp"

namespace aclcpu {

std::string describe_pending_work() {
    std::string report;
    for (const auto& stream : detail::Runtime::instance().live_streams()) {
        const detail::StreamLane& lane = stream->lane();
        const uint64_t submitted = lane.submitted();
        const uint64_t completed = lane.progress()->completed();
        if (completed >= submitted) continue;
        char line[512];
        const char* running = lane.running_task();
        if (running != nullptr) {
            std::snprintf(line, sizeof line, "%s stream %p of device %d: %llu of %llu items done; running %s\n",
                          stream->is_default() ? "default" : "user", static_cast<const void*>(stream.get()),
                          stream->device().id(), static_cast<unsigned long long>(completed),
                          static_cast<unsigned long long>(submitted), running);
        } else {
            std::snprintf(line, sizeof line,
                          "%s stream %p of device %d: %llu of %llu items done; item %llu is not running: it waits "
                          "for an event, a blocking host call, or a free worker\n",
                          stream->is_default() ? "default" : "user", static_cast<const void*>(stream.get()),
                          stream->device().id(), static_cast<unsigned long long>(completed),
                          static_cast<unsigned long long>(submitted), static_cast<unsigned long long>(completed));
        }
        report += line;
    }
    return report;
}

}  // namespace aclcpu
