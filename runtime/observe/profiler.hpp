// acl-cpu runtime: Profiler, CANN's profiling API (acl_prof.h) on the
// timeline trace.
#pragma once

#include "core/internal.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "acl/acl_base.h"
#include "core/handle_registry.hpp"
#include "observe/trace_writer.hpp"

namespace aclcpu::observe {

/// What aclprofCreateConfig describes.  The trace shows every device and
/// every kind of work whatever it asks for; aclprofStop must name the
/// collection with a config equal to aclprofStart's, as CANN requires.
struct ProfileConfig {
    std::vector<uint32_t> devices;
    int64_t aicoreMetrics = 0;
    uint64_t dataTypes = 0;

    bool operator==(const ProfileConfig& other) const {
        return devices == other.devices && aicoreMetrics == other.aicoreMetrics && dataTypes == other.dataTypes;
    }
};

/// An msproftx stamp (aclprofCreateStamp): the message its marks and ranges carry.
struct Stamp {
    std::string message;
};

/// aclprofCreateStepInfo: counts the iterations aclprofGetStepTimestamp marks.
struct StepInfo {
    uint64_t started = 0;
};

/// The process's profiling session.  aclprofInit names a result directory;
/// while at least one aclprofStart..aclprofStop collection runs, a timeline
/// trace (TraceWriter: Perfetto / chrome://tracing JSON) is installed as an
/// observer and writes <directory>/aclprof_<pid>_<n>.json, n counting the
/// collections of the process.  msproftx marks and ranges go onto the same
/// trace, on the host thread that made them.
///
/// The last aclprofStop waits for every open device's work, so that the
/// trace holds what was submitted before it, then closes the file and
/// removes the writer (as aclFinalize removes its observers: no other host
/// thread may be inside an API call meanwhile).
class Profiler {
public:
    static Profiler& instance();

    /// ACL_ERROR_REPEAT_INITIALIZE when a session is open already.
    aclError init(const std::string& resultDirectory);
    /// ACL_ERROR_PROF_NOT_RUN without init; stops what still runs.
    aclError finalize();
    /// True between aclprofInit and aclprofFinalize.
    bool initialised();
    /// ACL_ERROR_PROF_NOT_RUN without init, ACL_ERROR_PROF_ALREADY_RUN when a
    /// running collection has one of config's devices already.
    aclError start(const ProfileConfig& config);
    /// ACL_ERROR_PROF_NOT_RUN when no running collection has this config.
    aclError stop(const ProfileConfig& config);

    /// The trace being written, or nullptr -- reported as api's
    /// ACL_ERROR_PROF_NOT_RUN -- outside aclprofStart..aclprofStop.
    std::shared_ptr<detail::TraceWriter> collecting(const char* api);
    /// Where marks that need no collection go (mstx): the running
    /// collection's trace, else the ACLCPU_TRACE trace, else nullptr.
    std::shared_ptr<detail::TraceWriter> marking_trace();

    // The handles of aclprofCreateConfig, aclprofCreateStamp, aclprofCreateStepInfo.
    detail::HandleRegistry<ProfileConfig>& configs() noexcept { return configs_; }
    detail::HandleRegistry<Stamp>& stamps() noexcept { return stamps_; }
    detail::HandleRegistry<StepInfo>& step_infos() noexcept { return stepInfos_; }

    /// aclprofPush / aclprofRangePushEx, aclprofPop / aclprofRangePop: a
    /// slice of the calling thread, nested.  pop fails with
    /// ACL_ERROR_INVALID_PARAM when the thread has nothing pushed.
    aclError push(const char* api, std::string message);
    aclError pop(const char* api);
    /// aclprofRangeStart / aclprofRangeStop: a range that any thread may end.
    aclError range_start(const char* api, std::string message, uint32_t& id);
    aclError range_stop(const char* api, uint32_t id);

    /// aclprofStr2Id: a stable 64-bit id of message (never UINT64_MAX, CANN's
    /// failure value), remembered so that name_of can turn it back.
    uint64_t id_of(const std::string& message);
    /// The message of an id_of result; "" for an id never handed out.
    std::string name_of(uint64_t id);

private:
    /// A slice or range being measured on a trace.
    struct OpenRange {
        std::shared_ptr<detail::TraceWriter> trace;
        std::string message;
        double begin = 0;
    };

    Profiler() = default;
    /// The slices aclprofPush opened on the calling thread, innermost last.
    static std::vector<OpenRange>& pushed_on_this_thread();
    aclError stop_locked(std::vector<ProfileConfig>::iterator collection);

    std::mutex mutex_;
    bool initialised_ = false;
    std::string directory_;
    uint64_t collectionsOpened_ = 0;
    std::vector<ProfileConfig> running_;
    std::shared_ptr<detail::TraceWriter> trace_;
    detail::HandleRegistry<ProfileConfig> configs_;
    detail::HandleRegistry<Stamp> stamps_;
    detail::HandleRegistry<StepInfo> stepInfos_;
    uint32_t lastRangeId_ = 0;
    std::unordered_map<uint32_t, OpenRange> ranges_;
    std::unordered_map<uint64_t, std::string> messagesById_;
};

}  // namespace aclcpu::observe
