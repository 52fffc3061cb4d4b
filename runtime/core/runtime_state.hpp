// acl-cpu runtime: Runtime, the process-wide state behind the C API.
#pragma once

#include "core/internal.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include <oneapi/tbb/global_control.h>

#include "aclcpu/instrumentation.hpp"
#include "core/config.hpp"
#include "core/device.hpp"
#include "core/graph_model.hpp"
#include "core/handle_registry.hpp"
#include "core/objects.hpp"
#include "core/reports.hpp"

namespace aclcpu::detail {

/// Where a pointer handed to a memory API lives.
enum class MemoryKind { kDevice, kPinnedHost, kPageableHost };

/// Attaches what a new aclInit span needs beyond the core -- the observers
/// and checks its configuration asks for (runtime/observe implements it):
/// fills `observers`, or reports and returns an error that fails aclInit.
using AttachObservers = aclError (*)(const RuntimeConfig& config,
                                     std::vector<std::shared_ptr<instrument::Observer>>& observers);

/// The state of one aclInit..aclFinalize span: configuration, devices and the
/// registries that validate every handle the user passes back.
class Runtime {
public:
    static Runtime& instance();

    /// Opens an aclInit span (or counts one more reference to it).  The first
    /// reference reads the configuration and installs what attach returns;
    /// the span's last finalise removes it again.
    aclError initialise(const char* configPath, AttachObservers attach);
    /// Drops one aclInit reference; the last one tears every device down.
    /// remaining (optional) receives the references left.
    aclError finalise(uint64_t* remaining = nullptr);
    bool initialised() const;

    const RuntimeConfig& config() const noexcept { return config_; }

    // Devices.  set_device/reset_device keep CANN's per-device reference count.
    aclError set_device(int32_t id);
    aclError reset_device(int32_t id, bool force);
    /// The device if it has been opened (by aclrtSetDevice or a context).
    Device* open_device(int32_t id);

    // Contexts.  The current context is per host thread.
    std::shared_ptr<Context> current_context() const;
    void set_current_context(std::shared_ptr<Context> context);
    aclError create_context(int32_t deviceId, aclrtContext* handle);
    aclError destroy_context(aclrtContext handle);
    std::shared_ptr<Context> find_context(aclrtContext handle) const { return contexts_.find(handle); }

    // Streams: a null handle means the current context's default stream, which
    // also has a handle of its own (aclrtCtxGetCurrentDefaultStream).
    aclError create_stream(uint32_t flags, aclrtStream* handle, uint32_t priority = kHighestStreamPriority);
    /// Destroys a created stream (the caller refuses null and default streams).
    aclError destroy_stream(aclrtStream handle);
    /// Resolves handle, reporting and returning an error code if it is not a live stream.
    aclError resolve_stream(aclrtStream handle, const char* api, std::shared_ptr<Stream>& stream) const;
    /// resolve_stream for a call that submits work: also refuses a
    /// persistent stream that no model is building from (refuse_idle_persistent).
    aclError resolve_work_stream(aclrtStream handle, const char* api, std::shared_ptr<Stream>& stream) const;

    // Events.
    /// A new event on the current device; an IPC event comes with its shared state.
    aclError create_event(uint32_t flags, aclrtEvent* handle, std::shared_ptr<IpcEventState> ipc = nullptr);
    /// A new handle on the current device for an event shared through its IPC handle.
    aclError open_event(std::shared_ptr<IpcEventState> ipc, aclrtEvent* handle);
    aclError destroy_event(aclrtEvent handle);
    aclError resolve_event(aclrtEvent handle, const char* api, std::shared_ptr<Event>& event) const;

    // Model runtime instances (aclmdlRI).
    aclmdlRI add_model(std::shared_ptr<GraphModel> model) { return models_.add(std::move(model)); }
    aclError resolve_model(aclmdlRI handle, const char* api, std::shared_ptr<GraphModel>& model) const;
    /// The live model whose aclmdlRIGetId is id, or nullptr (no report).
    std::shared_ptr<GraphModel> find_model_by_id(uint32_t id) const;
    /// Removes a model with its task groups.
    std::shared_ptr<GraphModel> remove_model(aclmdlRI handle);
    aclrtTaskGrp add_task_group(std::shared_ptr<TaskGroup> group) { return taskGroups_.add(std::move(group)); }
    aclError resolve_task_group(aclrtTaskGrp handle, const char* api, std::shared_ptr<TaskGroup>& group) const;
    // Memory.
    /// Where [ptr, ptr+bytes) lies in the first open device's pool that knows
    /// it (kForeign in none), and that device (nullptr in none).
    DevicePool::Lookup locate_device_range(const void* ptr, size_t bytes, Device*& owner);
    /// DevicePool::reach in the first open device's pool that holds ptr.
    DeviceReach device_reach(const void* ptr, uint64_t bytes);
    /// ACL_SUCCESS when [address, +bytes) lies inside one live aclrtMalloc
    /// block of an open device; otherwise ACL_ERROR_INVALID_PARAM, reported
    /// as "api: role [address, +bytes) is not ...".  Takes the runtime's lock:
    /// for API calls, never for device tasks.
    aclError check_live_device_range(const void* address, size_t bytes, const char* api, const char* role);
    MemoryKind classify(const void* ptr, size_t bytes);
    aclError allocate_host(size_t size, void** ptr);
    aclError free_host(void* ptr);
    /// The aclrtMallocHost block holding ptr: false when ptr is in none.
    bool pinned_range(const void* ptr, void** base, size_t* size);

    ReportHub& reports() noexcept { return reports_; }
    /// The threads serving aclrtLaunchHostFunc on streams bound by aclrtSubscribeHostFunc.
    ReportHub& host_funcs() noexcept { return hostFuncs_; }

    /// Every live stream, the contexts' default streams included.
    std::vector<std::shared_ptr<Stream>> live_streams() const;

private:
    Runtime() = default;
    Device& open_device_locked(int32_t id);
    /// Gives context its default stream, on lane, registered as a stream
    /// handle (CANN's default stream is a stream object like any other).
    void add_default_stream(Context& context, StreamLane* lane);
    void close_device_locked(int32_t id);
    void report_leaks(const Device& device) const;
    /// Installs the observers attach makes for the configuration.
    aclError install_observers(AttachObservers attach);
    /// Flushes every observer (on_finalize) and removes the ones installed at aclInit.
    void remove_observers();

    mutable std::mutex mutex_;
    int initCount_ = 0;
    RuntimeConfig config_;
    std::unique_ptr<tbb::global_control> parallelism_;
    std::vector<std::shared_ptr<instrument::Observer>> observers_;
    std::vector<std::unique_ptr<Device>> devices_;
    std::vector<int> deviceRefs_;
    std::vector<std::shared_ptr<Context>> defaultContexts_;
    HandleRegistry<Context> contexts_;
    HandleRegistry<Stream> streams_{"stream"};
    HandleRegistry<Event> events_{"event"};
    HandleRegistry<GraphModel> models_{"model runtime instance"};
    HandleRegistry<TaskGroup> taskGroups_;
    std::mutex hostMutex_;
    std::map<uintptr_t, size_t> pinnedHost_;
    ReportHub reports_{"aclrtProcessReport"};
    ReportHub hostFuncs_{"aclrtProcessHostFunc"};
};

/// The current context's device, or an error (reported) when no device is set.
aclError current_device(const char* api, Device*& device);

}  // namespace aclcpu::detail
