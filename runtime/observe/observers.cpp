// acl-cpu runtime: attaches the configured observers to an aclInit span.
#include "observe/observers.hpp"

#include "core/errors.hpp"
#include "observe/memcheck.hpp"
#include "observe/race_checker.hpp"
#include "observe/trace_writer.hpp"

#include <mutex>

namespace aclcpu::observe {

namespace {

/// The trace writer of the latest aclInit span; weak, so that the span's
/// observer list alone decides how long it lives.
struct ConfiguredTrace {
    std::mutex mutex;
    std::weak_ptr<detail::TraceWriter> writer;
};

ConfiguredTrace& configured() {
    static ConfiguredTrace trace;
    return trace;
}

}  // namespace

std::shared_ptr<detail::TraceWriter> configured_trace() {
    std::lock_guard<std::mutex> lock(configured().mutex);
    return configured().writer.lock();
}

aclError attach_configured(const detail::RuntimeConfig& config,
                           std::vector<std::shared_ptr<instrument::Observer>>& observers) {
    detail::enable_memcheck(config.memcheck);
    if (!config.tracePath.empty()) {
        std::shared_ptr<detail::TraceWriter> trace = detail::TraceWriter::open(config.tracePath);
        if (!trace) {
            return detail::param_error(ACL_ERROR_INVALID_FILE, "aclInit: cannot write the trace file \"%s\"",
                                       config.tracePath.c_str());
        }
        {
            std::lock_guard<std::mutex> lock(configured().mutex);
            configured().writer = trace;
        }
        observers.push_back(std::move(trace));
    }
    if (config.raceCheck) observers.push_back(detail::make_race_checker(config.checkFatal));
    return ACL_SUCCESS;
}

}  // namespace aclcpu::observe
