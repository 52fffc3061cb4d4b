// acl-cpu runtime: OpSubscriptions.
#include "observe/op_subscriptions.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <deque>
#include <string>
#include <thread>
#include <unordered_map>

#include "acl/acl_prof.h"
#include "core/errors.hpp"
#include "core/graph_model.hpp"
#include "core/runtime_state.hpp"
#include "observe/observer_removal.hpp"
#include "observe/op_record.hpp"
#include "observe/profiler.hpp"

namespace aclcpu::observe {
namespace {

using detail::param_error;

/// An operator's kernel is named after the aclnn API that launched it
/// ("aclnnSoftplusBackward").
constexpr char kAclnnPrefix[] = "aclnn";
constexpr size_t kAclnnPrefixLength = sizeof(kAclnnPrefix) - 1;

/// The operator type, as CANN reports it: the aclnn API without its prefix
/// ("SoftplusBackward").
std::string operator_type(const std::string& workName) {
    return workName.compare(0, kAclnnPrefixLength, kAclnnPrefix) == 0 ? workName.substr(kAclnnPrefixLength)
                                                                       : workName;
}

/// The operator's name: unique within its model, as a graph node's name is
/// ("aclnnSoftplusBackward_3": the API and the node's index).
std::string operator_name(const std::string& workName, uint32_t node) { return workName + "_" + std::to_string(node); }

uint64_t now_ns() {
    return static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
}

/// The runtime passes its GraphModel as the model of the graph hooks.
const detail::GraphModel& model_of(const void* model) { return *static_cast<const detail::GraphModel*>(model); }

/// Forwards the replay hooks to the subscriptions.
class ReplayWatcher final : public instrument::Observer {
public:
    explicit ReplayWatcher(OpSubscriptions& subscriptions) : subscriptions_(subscriptions) {}
    void on_graph_node_begin(const void* model, uint32_t node) override { subscriptions_.node_began(model, node); }
    void on_graph_node_end(const void* model, uint32_t node) override { subscriptions_.node_ended(model, node); }

private:
    OpSubscriptions& subscriptions_;
};

}  // namespace

/// Writes the records posted to it into one pipe, in order, from its own
/// thread.  Thread-safety: post() from any thread; finish() once.
class OpSubscriptions::RecordPipe {
public:
    explicit RecordPipe(int fd) : fd_(fd), writer_([this] { write_posted(); }) {}
    ~RecordPipe() { finish(); }
    RecordPipe(const RecordPipe&) = delete;
    RecordPipe& operator=(const RecordPipe&) = delete;

    int fd() const noexcept { return fd_; }

    void post(const OpRecord& record) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (finishing_) return;
            queue_.push_back(record);
        }
        posted_.notify_one();
    }

    /// Writes what was posted, then closes the write end: the reader's
    /// read() returns 0 once it has taken the last record.
    void finish() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (finishing_) return;
            finishing_ = true;
        }
        posted_.notify_one();
        writer_.join();
        ::close(fd_);
    }

private:
    void write_posted() {
        // A reader that closed its end makes write() raise SIGPIPE, which
        // would end the process; blocked on this thread, write() fails with
        // EPIPE instead and the records are dropped.
        sigset_t pipeSignal;
        sigemptyset(&pipeSignal);
        sigaddset(&pipeSignal, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nullptr);
        std::unique_lock<std::mutex> lock(mutex_);
        while (true) {
            posted_.wait(lock, [this] { return finishing_ || !queue_.empty(); });
            if (queue_.empty()) return;
            std::deque<OpRecord> batch;
            batch.swap(queue_);
            lock.unlock();
            for (const OpRecord& record : batch) write_whole(record);
            lock.lock();
        }
    }

    /// One write() per record: a pipe keeps a write of at most PIPE_BUF
    /// bytes together.
    void write_whole(const OpRecord& record) {
        if (broken_) return;
        ssize_t written = 0;
        do {
            written = ::write(fd_, &record, sizeof(record));
        } while (written < 0 && errno == EINTR);
        broken_ = written != static_cast<ssize_t>(sizeof(record));
    }

    const int fd_;
    std::mutex mutex_;
    std::condition_variable posted_;
    std::deque<OpRecord> queue_;  ///< Guarded by mutex_.
    bool finishing_ = false;      ///< Guarded by mutex_.
    bool broken_ = false;         ///< The writer thread's own.
    std::thread writer_;
};

struct OpSubscriptions::Subscription {
    int32_t device = 0;
    SubscribeConfig config;
    std::shared_ptr<RecordPipe> pipe;
    /// When each running operator node began (a model's replays never overlap).
    std::unordered_map<uint32_t, uint64_t> startedNs;
};

OpSubscriptions& OpSubscriptions::instance() {
    static auto* subscriptions = new OpSubscriptions;  // Never destroyed: hooks may run during exit.
    return *subscriptions;
}

OpSubscriptions::OpSubscriptions() : observer_(std::make_shared<ReplayWatcher>(*this)) {}

void OpSubscriptions::register_model(uint32_t model, uint32_t device) {
    std::lock_guard<std::mutex> lock(controlMutex_);
    registered_.emplace(model, device);
}

bool OpSubscriptions::any() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return !subscriptions_.empty();
}

int32_t OpSubscriptions::device_of(uint32_t model) const {
    if (std::shared_ptr<detail::GraphModel> live = detail::Runtime::instance().find_model_by_id(model)) {
        return live->device().id();
    }
    const auto registration = registered_.find(model);
    return registration == registered_.end() ? -1 : static_cast<int32_t>(registration->second);
}

aclError OpSubscriptions::check_like_device_peers(int32_t device, const SubscribeConfig& config) const {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [model, peer] : subscriptions_) {
        if (peer->device != device) continue;
        if (peer->config.timeInfo != config.timeInfo || peer->config.aicoreMetrics != config.aicoreMetrics) {
            return param_error(ACL_ERROR_INVALID_PROFILING_CONFIG,
                               "aclprofModelSubscribe: model %u of device %d is subscribed with another "
                               "configuration; the models of a device take the same one",
                               model, device);
        }
    }
    return ACL_SUCCESS;
}

std::shared_ptr<OpSubscriptions::RecordPipe> OpSubscriptions::pipe_for(int fd) {
    std::shared_ptr<RecordPipe>& pipe = pipes_[fd];
    if (!pipe) pipe = std::make_shared<RecordPipe>(fd);
    return pipe;
}

void OpSubscriptions::release_if_unused(const std::shared_ptr<RecordPipe>& pipe) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        for (const auto& entry : subscriptions_) {
            if (entry.second->pipe == pipe) return;
        }
    }
    pipes_.erase(pipe->fd());
    pipe->finish();
}

aclError OpSubscriptions::check_subscription(uint32_t model, const SubscribeConfig* config, int32_t device) const {
    if (device < 0) {
        return param_error(ACL_ERROR_INVALID_MODEL_ID,
                           "aclprofModelSubscribe: model %u does not exist (no live aclmdlRI has this id, and "
                           "MsprofSetDeviceIdByGeModelIdx did not register it)",
                           model);
    }
    if (config == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "aclprofModelSubscribe: profSubscribeConfig is not a live aclprofCreateSubscribeConfig "
                           "result");
    }
    if (Profiler::instance().initialised()) {
        return param_error(ACL_ERROR_PROF_API_CONFLICT,
                           "aclprofModelSubscribe: a profiling session (aclprofInit) is open; subscriptions and "
                           "aclprofInit..aclprofFinalize may not be mixed");
    }
    if (config->timeInfo == 0 && config->aicoreMetrics == ACL_AICORE_NONE) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "aclprofModelSubscribe: the configuration asks for nothing (timeInfoSwitch 0 and "
                           "ACL_AICORE_NONE); set timeInfoSwitch to 1");
    }
    if (find(model)) {
        return param_error(ACL_ERROR_PROF_REPEAT_SUBSCRIBE,
                           "aclprofModelSubscribe: model %u is subscribed already; call aclprofModelUnSubscribe first",
                           model);
    }
    return check_like_device_peers(device, *config);
}

aclError OpSubscriptions::subscribe(uint32_t model, const SubscribeConfig* config) {
    std::lock_guard<std::mutex> control(controlMutex_);
    const int32_t device = device_of(model);
    if (aclError refused = check_subscription(model, config, device); refused != ACL_SUCCESS) return refused;
    auto subscription = std::make_shared<Subscription>();
    subscription->device = device;
    subscription->config = *config;
    subscription->pipe = pipe_for(*config->writeFd);
    std::lock_guard<std::mutex> lock(mutex_);
    if (subscriptions_.empty()) instrument::install(observer_);
    subscriptions_.emplace(model, std::move(subscription));
    return ACL_SUCCESS;
}

aclError OpSubscriptions::unsubscribe(uint32_t model) {
    std::lock_guard<std::mutex> control(controlMutex_);
    std::shared_ptr<Subscription> subscription;
    bool last = false;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        const auto entry = subscriptions_.find(model);
        if (entry == subscriptions_.end()) {
            return param_error(ACL_ERROR_INVALID_MODEL_ID,
                               "aclprofModelUnSubscribe: model %u is not subscribed; call aclprofModelSubscribe first",
                               model);
        }
        subscription = std::move(entry->second);
        subscriptions_.erase(entry);
        last = subscriptions_.empty();
    }
    // Outside mutex_: the devices drain through hooks that take it.
    if (last) remove_when_idle(observer_.get());
    release_if_unused(subscription->pipe);
    return ACL_SUCCESS;
}

std::shared_ptr<OpSubscriptions::Subscription> OpSubscriptions::find(uint32_t model) const {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto entry = subscriptions_.find(model);
    return entry == subscriptions_.end() ? nullptr : entry->second;
}

void OpSubscriptions::node_began(const void* model, uint32_t node) {
    const uint64_t start = now_ns();
    std::lock_guard<std::mutex> lock(mutex_);
    const auto entry = subscriptions_.find(model_of(model).id());
    if (entry != subscriptions_.end()) entry->second->startedNs[node] = start;
}

void OpSubscriptions::node_ended(const void* model, uint32_t node) {
    const uint64_t end = now_ns();
    const detail::GraphModel& graph = model_of(model);
    const std::optional<std::string> work = graph.kernel_name(node);  // Before mutex_: it takes the model's lock.
    if (!work) return;
    std::lock_guard<std::mutex> lock(mutex_);
    const auto entry = subscriptions_.find(graph.id());
    if (entry == subscriptions_.end()) return;
    Subscription& subscription = *entry->second;
    const auto started = subscription.startedNs.find(node);
    if (started == subscription.startedNs.end()) return;  // Subscribed while the node ran.
    const bool timed = subscription.config.timeInfo != 0;
    subscription.pipe->post(OpRecord(graph.id(), operator_type(*work), operator_name(*work, node),
                                     timed ? started->second : 0, timed ? end : 0));
    subscription.startedNs.erase(started);
}

}  // namespace aclcpu::observe
