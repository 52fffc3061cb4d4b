// acl-cpu runtime: Runtime.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <thread>

#include "core/errors.hpp"
#include "core/graph_capture.hpp"
#include "core/runtime_state.hpp"
#include "core/schedule_explorer.hpp"
#include "observe/runtime_hooks.hpp"

namespace aclcpu::detail {
namespace {

thread_local std::weak_ptr<Context> tCurrentContext;

/// Page-locked host memory comes in whole pages, as the driver pins it:
/// aclrtHostRegister(V2) takes page-aligned ranges, and CANN's programs
/// register aclrtMallocHost memory (the zero-copy example does).
constexpr size_t kHostAlignment = 4096;

}  // namespace

Runtime& Runtime::instance() {
    static Runtime* runtime = new Runtime();  // Never destroyed: usable from atexit handlers.
    return *runtime;
}

bool Runtime::initialised() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return initCount_ > 0;
}

aclError Runtime::initialise(const char* configPath, AttachObservers attach) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (initCount_ > 0) {
        ++initCount_;
        return ACL_SUCCESS;
    }
    RuntimeConfig config;
    if (aclError status = load_config(configPath, config); status != ACL_SUCCESS) return status;
    config_ = config;
    // Before the observers: a timeline trace records the schedule.
    ScheduleExplorer::start(config_.schedule);
    if (aclError status = install_observers(attach); status != ACL_SUCCESS) {
        ScheduleExplorer::stop();
        return status;
    }
    // Every device arena gets its full worker count even past the number of
    // hardware threads (oneTBB's default cap).
    const size_t threads = static_cast<size_t>(config_.workerThreads) * config_.deviceCount + 1;
    parallelism_ = std::make_unique<tbb::global_control>(
        tbb::global_control::max_allowed_parallelism,
        std::max<size_t>(threads, std::thread::hardware_concurrency()));
    devices_.clear();
    devices_.resize(config_.deviceCount);
    deviceRefs_.assign(config_.deviceCount, 0);
    defaultContexts_.assign(config_.deviceCount, nullptr);
    initCount_ = 1;
    return ACL_SUCCESS;
}

aclError Runtime::finalise(uint64_t* remaining) {
    std::vector<int32_t> openIds;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (initCount_ == 0) {
            return param_error(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize: AscendCL is not initialised");
        }
        --initCount_;
        if (remaining != nullptr) *remaining = static_cast<uint64_t>(initCount_);
        if (initCount_ > 0) return ACL_SUCCESS;
        for (int32_t id = 0; id < static_cast<int32_t>(devices_.size()); ++id) {
            if (devices_[id]) openIds.push_back(id);
        }
    }
    for (int32_t id : openIds) reset_device(id, true);
    remove_observers();
    std::lock_guard<std::mutex> lock(mutex_);
    if (initCount_ == 0) {
        devices_.clear();
        parallelism_.reset();
        ScheduleExplorer::stop();
    }
    return ACL_SUCCESS;
}

aclError Runtime::install_observers(AttachObservers attach) {
    if (aclError status = attach(config_, observers_); status != ACL_SUCCESS) {
        observers_.clear();
        return status;
    }
    for (const auto& observer : observers_) instrument::install(observer);
    return ACL_SUCCESS;
}

void Runtime::remove_observers() {
    std::vector<std::shared_ptr<instrument::Observer>> installed;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (initCount_ != 0) return;  // Initialised again meanwhile: the new span owns them.
        installed.swap(observers_);
    }
    instrument::notify([](instrument::Observer& o) { o.on_finalize(); });
    for (const auto& observer : installed) instrument::uninstall(observer.get());
}

Device& Runtime::open_device_locked(int32_t id) {
    if (!devices_[id]) {
        devices_[id] = std::make_unique<Device>(id, config_.soc, config_.workerThreads, config_.memoryCapacity,
                                                config_.memcheck);
        auto context = std::make_shared<Context>(*devices_[id], true);
        add_default_stream(*context, devices_[id]->acquire_lane());
        contexts_.add(context);
        defaultContexts_[id] = std::move(context);
    }
    return *devices_[id];
}

Device* Runtime::open_device(int32_t id) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (id < 0 || id >= static_cast<int32_t>(devices_.size())) return nullptr;
    return devices_[id].get();
}

aclError Runtime::set_device(int32_t id) {
    std::shared_ptr<Context> context;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (initCount_ == 0) return param_error(ACL_ERROR_UNINITIALIZE, "aclrtSetDevice: call aclInit first");
        if (id < 0 || id >= static_cast<int32_t>(devices_.size())) {
            return param_error(ACL_ERROR_RT_INVALID_DEVICEID, "aclrtSetDevice: device id %d is not in [0, %zu)", id,
                               devices_.size());
        }
        open_device_locked(id);
        ++deviceRefs_[id];
        context = defaultContexts_[id];
    }
    set_current_context(std::move(context));
    return ACL_SUCCESS;
}

aclError Runtime::reset_device(int32_t id, bool force) {
    std::unique_ptr<Device> device;
    std::shared_ptr<Context> defaultContext;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (initCount_ == 0 && devices_.empty()) {
            return param_error(ACL_ERROR_UNINITIALIZE, "aclrtResetDevice: call aclInit first");
        }
        if (id < 0 || id >= static_cast<int32_t>(devices_.size())) {
            return param_error(ACL_ERROR_RT_INVALID_DEVICEID, "aclrtResetDevice: device id %d is not in [0, %zu)", id,
                               devices_.size());
        }
        if (!devices_[id]) return ACL_SUCCESS;
        if (deviceRefs_[id] > 0) --deviceRefs_[id];
        if (deviceRefs_[id] > 0 && !force) return ACL_SUCCESS;
        deviceRefs_[id] = 0;
        device = std::move(devices_[id]);
        defaultContext = std::move(defaultContexts_[id]);
    }
    Device* raw = device.get();
    reports_.begin_discard(raw);
    hostFuncs_.begin_discard(raw);
    auto ofDevice = [raw](const auto& object) { return &object.device() == raw; };
    for (const auto& stream : streams_.remove_if(ofDevice)) {
        if (uint64_t thread = stream->report_thread(); thread != 0) reports_.unsubscribe(thread);
        if (uint64_t thread = stream->host_func_thread(); thread != 0) hostFuncs_.unsubscribe(thread);
    }
    events_.remove_if(ofDevice);
    // Destroyed after the device's work is done and before the device goes.
    std::vector<std::shared_ptr<GraphModel>> models = models_.remove_if(ofDevice);
    for (const auto& model : models) model->abandon_capture();
    taskGroups_.remove_if([&](const TaskGroup& group) {
        const std::shared_ptr<GraphModel> owner = group.model.lock();
        return !owner || std::find(models.begin(), models.end(), owner) != models.end();
    });
    contexts_.remove_if(ofDevice);
    defaultContext.reset();
    raw->synchronize(ProgressCounter::Clock::time_point::max());
    observe_device_waited(id);
    reports_.end_discard(raw);
    hostFuncs_.end_discard(raw);
    // A model tears its replay graph down in the device's arena.
    models.clear();
    report_leaks(*raw);
    device.reset();
    return ACL_SUCCESS;
}

void Runtime::report_leaks(const Device& device) const {
    const DevicePool::Usage leaked = device.pool().live();
    if (leaked.blocks == 0) return;
    std::fprintf(stderr, "acl-cpu: device %d reset with %zu device memory block(s) still allocated (%llu bytes)\n",
                 device.id(), leaked.blocks, static_cast<unsigned long long>(leaked.bytes));
}

std::shared_ptr<Context> Runtime::current_context() const {
    if (auto context = tCurrentContext.lock()) return context;
    std::lock_guard<std::mutex> lock(mutex_);
    const int32_t id = config_.defaultDevice;
    if (initCount_ == 0 || id < 0) return nullptr;
    const_cast<Runtime*>(this)->open_device_locked(id);
    return defaultContexts_[id];
}

void Runtime::set_current_context(std::shared_ptr<Context> context) { tCurrentContext = context; }

aclError Runtime::create_context(int32_t deviceId, aclrtContext* handle) {
    std::shared_ptr<Context> context;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (initCount_ == 0) return param_error(ACL_ERROR_UNINITIALIZE, "aclrtCreateContext: call aclInit first");
        if (deviceId < 0 || deviceId >= static_cast<int32_t>(devices_.size())) {
            return param_error(ACL_ERROR_RT_INVALID_DEVICEID, "aclrtCreateContext: device id %d is not in [0, %zu)",
                               deviceId, devices_.size());
        }
        Device& device = open_device_locked(deviceId);
        StreamLane* lane = device.acquire_lane();
        if (lane == nullptr) {
            return runtime_error(ACL_ERROR_RT_NO_STREAM_RESOURCE,
                                 "aclrtCreateContext: device %d has no stream left for the context's default stream",
                                 deviceId);
        }
        context = std::make_shared<Context>(device, false);
        add_default_stream(*context, lane);
    }
    *handle = contexts_.add(context);
    set_current_context(std::move(context));
    return ACL_SUCCESS;
}

aclError Runtime::destroy_context(aclrtContext handle) {
    std::shared_ptr<Context> context = contexts_.find(handle);
    if (!context || context->is_default()) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID,
                           "aclrtDestroyContext: %p is not a live context made by aclrtCreateContext (a device's "
                           "default context goes with aclrtResetDevice)",
                           handle);
    }
    if (!contexts_.remove(handle)) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "aclrtDestroyContext: %p was destroyed concurrently", handle);
    }
    streams_.remove(context->default_stream().get());
    if (tCurrentContext.lock() == context) tCurrentContext.reset();
    return ACL_SUCCESS;
}

void Runtime::add_default_stream(Context& context, StreamLane* lane) {
    auto stream = std::make_shared<Stream>(context.device(), lane, 0, true);
    streams_.add(stream);
    context.set_default_stream(std::move(stream));
}

aclError Runtime::create_stream(uint32_t flags, aclrtStream* handle, uint32_t priority) {
    Device* device = nullptr;
    if (aclError status = current_device("aclrtCreateStream", device); status != ACL_SUCCESS) return status;
    StreamLane* lane = device->acquire_lane(priority);
    if (lane == nullptr) {
        return runtime_error(ACL_ERROR_RT_NO_STREAM_RESOURCE, "aclrtCreateStream: device %d already has %d streams",
                             device->id(), kMaxStreamsPerDevice);
    }
    *handle = streams_.add(std::make_shared<Stream>(*device, lane, flags, false));
    return ACL_SUCCESS;
}

aclError Runtime::destroy_stream(aclrtStream handle) {
    std::shared_ptr<Stream> stream;
    if (aclError status = streams_.retire(handle, "aclrtDestroyStream", &stream); status != ACL_SUCCESS) return status;
    if (uint64_t thread = stream->report_thread(); thread != 0) reports_.unsubscribe(thread);
    if (uint64_t thread = stream->host_func_thread(); thread != 0) hostFuncs_.unsubscribe(thread);
    // Destroying drains: the host has then seen all of the stream's work.
    observe_stream_waited(stream.get(), stream->drain());
    return ACL_SUCCESS;
}

std::shared_ptr<GraphModel> Runtime::remove_model(aclmdlRI handle) {
    std::shared_ptr<GraphModel> model = models_.remove(handle);
    if (model) {
        taskGroups_.remove_if([&](const TaskGroup& group) {
            const std::shared_ptr<GraphModel> owner = group.model.lock();
            return !owner || owner == model;
        });
    }
    return model;
}

aclError Runtime::resolve_task_group(aclrtTaskGrp handle, const char* api, std::shared_ptr<TaskGroup>& group) const {
    if (handle == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: handle is null", api);
    group = taskGroups_.find(handle);
    if (group) return ACL_SUCCESS;
    return param_error(ACL_ERROR_RT_PARAM_INVALID,
                       "%s: %p is not a live task group (never made, or its model was destroyed)", api, handle);
}

aclError Runtime::resolve_model(aclmdlRI handle, const char* api, std::shared_ptr<GraphModel>& model) const {
    if (handle == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: modelRI is null", api);
    return models_.resolve(handle, api, model);
}

std::shared_ptr<GraphModel> Runtime::find_model_by_id(uint32_t id) const {
    for (std::shared_ptr<GraphModel>& model : models_.snapshot()) {
        if (model->id() == id) return std::move(model);
    }
    return nullptr;
}

aclError Runtime::resolve_stream(aclrtStream handle, const char* api, std::shared_ptr<Stream>& stream) const {
    if (handle == nullptr) {
        std::shared_ptr<Context> context = current_context();
        if (!context) {
            return param_error(ACL_ERROR_RT_CONTEXT_NULL,
                               "%s: the default stream needs a current context; call aclrtSetDevice first", api);
        }
        stream = context->default_stream();
        return ACL_SUCCESS;
    }
    return streams_.resolve(handle, api, stream);
}

aclError Runtime::resolve_work_stream(aclrtStream handle, const char* api, std::shared_ptr<Stream>& stream) const {
    if (aclError status = resolve_stream(handle, api, stream); status != ACL_SUCCESS) return status;
    return refuse_idle_persistent(*stream, api);
}

aclError Runtime::create_event(uint32_t flags, aclrtEvent* handle, std::shared_ptr<IpcEventState> ipc) {
    Device* device = nullptr;
    if (aclError status = current_device("aclrtCreateEvent", device); status != ACL_SUCCESS) return status;
    if (!device->try_reserve_event()) {
        return runtime_error(ACL_ERROR_RT_NO_EVENT_RESOURCE, "aclrtCreateEvent: device %d already has %d events",
                             device->id(), kMaxEventsPerDevice);
    }
    *handle = events_.add(std::make_shared<Event>(*device, flags, std::move(ipc)));
    return ACL_SUCCESS;
}

aclError Runtime::open_event(std::shared_ptr<IpcEventState> ipc, aclrtEvent* handle) {
    Device* device = nullptr;
    if (aclError status = current_device("aclrtIpcOpenEventHandle", device); status != ACL_SUCCESS) return status;
    if (!device->try_reserve_event()) {
        return runtime_error(ACL_ERROR_RT_NO_EVENT_RESOURCE, "aclrtIpcOpenEventHandle: device %d already has %d events",
                             device->id(), kMaxEventsPerDevice);
    }
    *handle = events_.add(std::make_shared<Event>(*device, ACL_EVENT_IPC, std::move(ipc)));
    return ACL_SUCCESS;
}

aclError Runtime::destroy_event(aclrtEvent handle) {
    return events_.retire(handle, "aclrtDestroyEvent");
}

aclError Runtime::resolve_event(aclrtEvent handle, const char* api, std::shared_ptr<Event>& event) const {
    if (handle == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: event is null", api);
    return events_.resolve(handle, api, event);
}

DevicePool::Lookup Runtime::locate_device_range(const void* ptr, size_t bytes, Device*& owner) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& device : devices_) {
        if (!device) continue;
        const DevicePool::Lookup found = device->pool().inspect(ptr, bytes);
        if (found.placement != DevicePool::Placement::kForeign) {
            owner = device.get();
            return found;
        }
    }
    owner = nullptr;
    return DevicePool::Lookup{DevicePool::Placement::kForeign, 0, 0};
}

DeviceReach Runtime::device_reach(const void* ptr, uint64_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& device : devices_) {
        if (!device) continue;
        const DeviceReach reach = device->pool().reach(ptr, bytes);
        if (reach != DeviceReach::kNotDevice) return reach;
    }
    return DeviceReach::kNotDevice;
}

aclError Runtime::check_live_device_range(const void* address, size_t bytes, const char* api, const char* role) {
    Device* owner = nullptr;
    if (locate_device_range(address, bytes, owner).placement == DevicePool::Placement::kLive) return ACL_SUCCESS;
    return param_error(ACL_ERROR_INVALID_PARAM, "%s: %s [%p, +%zu) is not inside live device memory", api, role,
                       address, bytes);
}

std::vector<std::shared_ptr<Stream>> Runtime::live_streams() const {
    return streams_.snapshot();
}

MemoryKind Runtime::classify(const void* ptr, size_t bytes) {
    Device* device = nullptr;
    if (locate_device_range(ptr, bytes, device).placement == DevicePool::Placement::kLive) return MemoryKind::kDevice;
    const auto address = reinterpret_cast<uintptr_t>(ptr);
    std::lock_guard<std::mutex> lock(hostMutex_);
    auto it = pinnedHost_.upper_bound(address);
    if (it != pinnedHost_.begin()) {
        --it;
        if (address - it->first < it->second && bytes <= it->second - (address - it->first)) {
            return MemoryKind::kPinnedHost;
        }
    }
    return MemoryKind::kPageableHost;
}

aclError Runtime::allocate_host(size_t size, void** ptr) {
    // No object may exceed PTRDIFF_MAX bytes; refusing larger sizes also keeps
    // the rounding below from wrapping to a tiny block.
    if (size > static_cast<size_t>(PTRDIFF_MAX)) {
        return runtime_error(ACL_ERROR_BAD_ALLOC, "aclrtMallocHost: cannot allocate %zu bytes of host memory", size);
    }
    const size_t bytes = (size + kHostAlignment - 1) / kHostAlignment * kHostAlignment;
    void* block = std::aligned_alloc(kHostAlignment, bytes);
    if (block == nullptr) {
        return runtime_error(ACL_ERROR_BAD_ALLOC, "aclrtMallocHost: cannot allocate %zu bytes of host memory", size);
    }
    std::lock_guard<std::mutex> lock(hostMutex_);
    pinnedHost_.emplace(reinterpret_cast<uintptr_t>(block), size);
    *ptr = block;
    return ACL_SUCCESS;
}

aclError Runtime::free_host(void* ptr) {
    {
        std::lock_guard<std::mutex> lock(hostMutex_);
        if (pinnedHost_.erase(reinterpret_cast<uintptr_t>(ptr)) == 0) {
            return param_error(ACL_ERROR_INVALID_PARAM, "aclrtFreeHost: %p was not allocated by aclrtMallocHost", ptr);
        }
    }
    std::free(ptr);
    return ACL_SUCCESS;
}

bool Runtime::pinned_range(const void* ptr, void** base, size_t* size) {
    const auto address = reinterpret_cast<uintptr_t>(ptr);
    std::lock_guard<std::mutex> lock(hostMutex_);
    auto it = pinnedHost_.upper_bound(address);
    if (it == pinnedHost_.begin()) return false;
    --it;
    if (address - it->first >= it->second) return false;
    *base = reinterpret_cast<void*>(it->first);
    *size = it->second;
    return true;
}

aclError current_device(const char* api, Device*& device) {
    std::shared_ptr<Context> context = Runtime::instance().current_context();
    if (!context) {
        return param_error(ACL_ERROR_RT_CONTEXT_NULL, "%s: no current context; call aclrtSetDevice first", api);
    }
    device = &context->device();
    return ACL_SUCCESS;
}

}  // namespace aclcpu::detail
