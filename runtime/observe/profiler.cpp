// acl-cpu runtime: Profiler.
#include "observe/profiler.hpp"

#include <unistd.h>

#include <algorithm>
#include <limits>

#include "aclcpu/instrumentation.hpp"
#include "core/errors.hpp"
#include "observe/observer_removal.hpp"
#include "observe/observers.hpp"

namespace aclcpu::observe {
namespace {

using detail::param_error;

bool shares_a_device(const ProfileConfig& a, const ProfileConfig& b) {
    return std::any_of(a.devices.begin(), a.devices.end(), [&](uint32_t device) {
        return std::find(b.devices.begin(), b.devices.end(), device) != b.devices.end();
    });
}

/// FNV-1a: the same id for the same text in every process.
uint64_t fnv1a(const std::string& text) {
    uint64_t hash = 0xcbf29ce484222325ull;
    for (const unsigned char byte : text) {
        hash ^= byte;
        hash *= 0x100000001b3ull;
    }
    return hash;
}

}  // namespace

Profiler& Profiler::instance() {
    static auto* profiler = new Profiler;  // Never destroyed: stamps may be released during exit.
    return *profiler;
}

std::vector<Profiler::OpenRange>& Profiler::pushed_on_this_thread() {
    thread_local std::vector<OpenRange> pushed;
    return pushed;
}

aclError Profiler::init(const std::string& resultDirectory) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (initialised_) {
        return param_error(ACL_ERROR_REPEAT_INITIALIZE,
                           "aclprofInit: profiling is initialised already; call aclprofFinalize first");
    }
    initialised_ = true;
    directory_ = resultDirectory;
    return ACL_SUCCESS;
}

aclError Profiler::finalize() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!initialised_) {
        return param_error(ACL_ERROR_PROF_NOT_RUN,
                           "Please call the APIs in the following order: call aclprofInit first, then "
                           "aclprofFinalize.");
    }
    while (!running_.empty()) stop_locked(running_.begin());
    initialised_ = false;
    return ACL_SUCCESS;
}

bool Profiler::initialised() {
    std::lock_guard<std::mutex> lock(mutex_);
    return initialised_;
}

aclError Profiler::start(const ProfileConfig& config) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!initialised_) {
        return param_error(ACL_ERROR_PROF_NOT_RUN,
                           "Please call the APIs in the following order: call aclprofInit first, then "
                           "aclprofStart.");
    }
    for (const ProfileConfig& running : running_) {
        if (shares_a_device(running, config)) {
            return param_error(ACL_ERROR_PROF_ALREADY_RUN,
                               "aclprofStart: a running collection profiles one of these devices already");
        }
    }
    if (running_.empty()) {
        const std::string path = directory_ + "/aclprof_" + std::to_string(::getpid()) + "_" +
                                 std::to_string(collectionsOpened_) + ".json";
        trace_ = detail::TraceWriter::open(path);
        if (!trace_) {
            return param_error(ACL_ERROR_INVALID_FILE, "aclprofStart: cannot write the trace file \"%s\"",
                               path.c_str());
        }
        collectionsOpened_ += 1;
        instrument::install(trace_);
    }
    running_.push_back(config);
    return ACL_SUCCESS;
}

aclError Profiler::stop(const ProfileConfig& config) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto collection = std::find(running_.begin(), running_.end(), config);
    if (collection == running_.end()) {
        return param_error(ACL_ERROR_PROF_NOT_RUN,
                           "aclprofStop: no running collection was started with this configuration; call "
                           "aclprofStart with it first");
    }
    return stop_locked(collection);
}

aclError Profiler::stop_locked(std::vector<ProfileConfig>::iterator collection) {
    running_.erase(collection);
    if (!running_.empty()) return ACL_SUCCESS;
    remove_when_idle(trace_.get());
    trace_->close();
    trace_.reset();
    return ACL_SUCCESS;
}

std::shared_ptr<detail::TraceWriter> Profiler::collecting(const char* api) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!trace_) {
        param_error(ACL_ERROR_PROF_NOT_RUN, "%s: call it between aclprofStart and aclprofStop", api);
    }
    return trace_;
}

std::shared_ptr<detail::TraceWriter> Profiler::marking_trace() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (trace_) return trace_;
    }
    return configured_trace();
}

aclError Profiler::push(const char* api, std::string message) {
    std::shared_ptr<detail::TraceWriter> trace = collecting(api);
    if (!trace) return ACL_ERROR_PROF_NOT_RUN;
    const double begin = trace->timestamp();
    pushed_on_this_thread().push_back(OpenRange{std::move(trace), std::move(message), begin});
    return ACL_SUCCESS;
}

aclError Profiler::pop(const char* api) {
    std::vector<OpenRange>& pushed = pushed_on_this_thread();
    if (pushed.empty()) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: this thread has no open push (ranges do not cross threads)",
                           api);
    }
    const OpenRange range = std::move(pushed.back());
    pushed.pop_back();
    range.trace->mark_slice(range.message, range.begin);
    return ACL_SUCCESS;
}

aclError Profiler::range_start(const char* api, std::string message, uint32_t& id) {
    std::shared_ptr<detail::TraceWriter> trace = collecting(api);
    if (!trace) return ACL_ERROR_PROF_NOT_RUN;
    const double begin = trace->timestamp();
    std::lock_guard<std::mutex> lock(mutex_);
    do {
        id = ++lastRangeId_;
    } while (id == 0 || ranges_.count(id) != 0);
    ranges_.emplace(id, OpenRange{std::move(trace), std::move(message), begin});
    return ACL_SUCCESS;
}

aclError Profiler::range_stop(const char* api, uint32_t id) {
    OpenRange range;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = ranges_.find(id);
        if (it == ranges_.end()) {
            return param_error(ACL_ERROR_INVALID_PARAM, "%s: range %u was not started, or was stopped already", api,
                               id);
        }
        range = std::move(it->second);
        ranges_.erase(it);
    }
    range.trace->mark_range(id, range.message, range.begin);
    return ACL_SUCCESS;
}

uint64_t Profiler::id_of(const std::string& message) {
    uint64_t id = fnv1a(message);
    if (id == std::numeric_limits<uint64_t>::max()) id -= 1;
    std::lock_guard<std::mutex> lock(mutex_);
    messagesById_.emplace(id, message);
    return id;
}

std::string Profiler::name_of(uint64_t id) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = messagesById_.find(id);
    return it == messagesById_.end() ? std::string() : it->second;
}

}  // namespace aclcpu::observe
