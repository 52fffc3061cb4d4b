// acl-cpu runtime: Stream, Context and Event.
#include <algorithm>

#include "core/condition_wait.hpp"
#include "core/errors.hpp"
#include "core/graph_model.hpp"
#include "core/objects.hpp"
#include "core/schedule_explorer.hpp"
#include "observe/runtime_hooks.hpp"

namespace aclcpu::detail {

Stream::~Stream() {
    drain();
    device_.release_lane(lane_);
}

aclError Stream::take_sticky_error(uint64_t completed) {
    std::string message;
    const aclError error = lane_->take_error(message, completed);
    if (error != ACL_SUCCESS) runtime_error(error, "stream %p: %s", static_cast<void*>(this), message.c_str());
    return error;
}

std::shared_ptr<GraphModel> Stream::capturing_model() const {
    if (!is_captured()) return nullptr;
    std::lock_guard<std::mutex> lock(captureMutex_);
    return capturingModel_;
}

std::optional<aclError> Stream::capture_late(std::function<void(LateDelivery)> arm, CapturedWork work) {
    const std::shared_ptr<GraphModel> model = capturing_model();
    if (!model) return std::nullopt;
    return model->append_late(*this, std::move(arm), std::move(work));
}

void Stream::set_redirect(uint8_t bit, bool on) noexcept {
    if (on) {
        redirect_.fetch_or(bit, std::memory_order_acq_rel);
    } else {
        redirect_.fetch_and(static_cast<uint8_t>(~bit), std::memory_order_acq_rel);
    }
}

std::shared_ptr<GraphModel> Stream::bound_model() const {
    std::lock_guard<std::mutex> lock(captureMutex_);
    return boundModel_.lock();
}

void Stream::set_bound_model(const std::shared_ptr<GraphModel>& model) {
    std::lock_guard<std::mutex> lock(captureMutex_);
    boundModel_ = model;
}

void Stream::set_capturing_model(std::shared_ptr<GraphModel> model) {
    std::lock_guard<std::mutex> lock(captureMutex_);
    set_redirect(kCaptured, model != nullptr);
    capturingModel_ = std::move(model);
}

std::shared_ptr<TaskUpdate> Stream::task_update() const {
    if ((redirect_.load(std::memory_order_acquire) & kUpdating) == 0) return nullptr;
    std::lock_guard<std::mutex> lock(captureMutex_);
    return taskUpdate_;
}

void Stream::set_task_update(std::shared_ptr<TaskUpdate> update) {
    std::lock_guard<std::mutex> lock(captureMutex_);
    set_redirect(kUpdating, update != nullptr);
    taskUpdate_ = std::move(update);
}

std::optional<aclError> Stream::redirect(std::unique_ptr<DeviceTask>& task, const instrument::WorkInfo* work) {
    // A refused update task fails the update at its end, not the submission.
    if (const std::shared_ptr<TaskUpdate> update = task_update()) {
        if (update->take(task)) return ACL_SUCCESS;
        return std::nullopt;
    }
    const std::shared_ptr<GraphModel> model = capturing_model();
    if (!model) return std::nullopt;
    CapturedWork captured{task->name(), "task", {}, {}};
    if (work != nullptr) {
        captured = CapturedWork{work->name, work->category,
                                std::vector<instrument::MemoryAccess>(work->accesses, work->accesses + work->accessCount),
                                work->details};
    }
    return model->append(*this, task, std::move(captured));
}

void Stream::announce(uint64_t place, const instrument::WorkInfo& work) const {
    instrument::notify([&](instrument::Observer& o) { o.on_submit(device_.id(), this, place, work); });
}

aclError Stream::synchronize(ProgressCounter::Clock::time_point deadline, aclError timeoutCode) {
    const ProgressCounter& counter = lane_->progress()->counter();
    switch (counter.wait(lane_->submitted(), deadline, counter.aborts())) {
        case WaitEnd::kReached:
            return take_sticky_error(lane_->progress()->completed());
        case WaitEnd::kTimedOut:
            return runtime_error(timeoutCode, "stream %p: synchronisation timed out with work still pending",
                                 static_cast<void*>(this));
        case WaitEnd::kAborted:
            break;
    }
    // This report is the abort's: the next synchronisation does not repeat it.
    lane_->forget_abort_error();
    return runtime_error(ACL_ERROR_RT_STREAM_ABORT, "stream %p: aclrtStreamAbort ended the synchronisation",
                         static_cast<void*>(this));
}

aclError Stream::synchronize_observed(ProgressCounter::Clock::time_point deadline, aclError timeoutCode) {
    const uint64_t target = lane_->submitted();
    const aclError status = synchronize(deadline, timeoutCode);
    // Not after a timeout or an abort that ended the wait first.
    if (lane_->progress()->completed() >= target) observe_stream_waited(this, target);
    return status;
}

uint64_t Stream::drain() {
    const uint64_t submitted = lane_->submitted();
    lane_->progress()->counter().wait_until(submitted, ProgressCounter::Clock::time_point::max());
    return submitted;
}

void Stream::abort() {
    lane_->discard_queued();
    // The watcher drops the passed waits at its next look (ConditionWatcher::settle).
    ConditionWatcher::instance().poke();
}

aclError Stream::query(aclrtStreamStatus& status) {
    explore_step();
    const uint64_t completed = lane_->progress()->completed();
    status = completed >= lane_->submitted() ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
    return take_sticky_error(completed);
}

void Context::set_option(int64_t option, int64_t value) {
    std::lock_guard<std::mutex> lock(optionsMutex_);
    options_[option] = value;
}

bool Context::option(int64_t option, int64_t& value) const {
    std::lock_guard<std::mutex> lock(optionsMutex_);
    auto it = options_.find(option);
    if (it == options_.end()) return false;
    value = it->second;
    return true;
}

namespace {

/// Pokes the watcher once `capture` has completed.  Never called under an
/// event's mutex: the watcher tests conditions that take it under its own.
void poke_watcher_when_complete(const Event::Capture& capture) {
    if (capture.progress) capture.progress->when_reached(capture.count, [] { ConditionWatcher::instance().poke(); });
}

}  // namespace

Event::Capture Event::record(Stream& stream, uint64_t place) {
    if (ipc_) return Capture{stream.lane().progress(), place + 1, ipc_->record(*stream.lane().progress(), place)};
    Capture recorded;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!graphRecord_.nodes.empty()) graphRecord_ = GraphRecord{};  // A captured record holds a node.
        capture_.progress = stream.lane().progress();
        capture_.count = place + 1;
        capture_.generation += 1;
        timestamp_ = -1;
        recorded = capture_;
    }
    // After the mutex: a concurrent poke_watcher_on_records() either sees
    // this record under the mutex or has set the flag before it.
    if (pokesWatcher_.load()) poke_watcher_when_complete(recorded);
    return recorded;
}

void Event::poke_watcher_on_records() {
    if (pokesWatcher_.exchange(true)) return;
    poke_watcher_when_complete(capture());
}

void Event::stamp(uint64_t generation, int64_t nanoseconds) {
    if (ipc_) return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (generation == capture_.generation) timestamp_ = nanoseconds;
}

bool Event::reset(uint64_t generation) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (generation != capture_.generation) return false;
    capture_.progress.reset();
    capture_.count = 0;
    timestamp_ = -1;
    return true;
}

void Event::record_in_graph(GraphRecord record) {
    std::lock_guard<std::mutex> lock(mutex_);
    graphRecord_ = std::move(record);
}

std::shared_ptr<GraphModel> Event::graph_record(std::vector<uint32_t>& nodes) const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::shared_ptr<GraphModel> model = graphRecord_.model.lock();
    if (!model || !model->is_recording()) return nullptr;
    nodes = graphRecord_.nodes;
    return model;
}

Event::Capture Event::capture() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return capture_;
}

bool Event::is_complete() const {
    explore_step();
    if (ipc_) return ipc_->is_complete(ipc_->latest());
    const Capture current = capture();
    return current.progress == nullptr || current.progress->completed() >= current.count;
}

uint32_t Event::next_id() noexcept {
    static std::atomic<uint32_t> next{0};
    return next.fetch_add(1, std::memory_order_relaxed);
}

void Event::add_wait(std::shared_ptr<LaneProgress> progress, uint64_t count) {
    std::lock_guard<std::mutex> lock(mutex_);
    forget_done_waits();
    waits_.emplace_back(std::move(progress), count);
}

bool Event::waits_complete() const {
    explore_step();
    std::lock_guard<std::mutex> lock(mutex_);
    forget_done_waits();
    return waits_.empty();
}

void Event::forget_done_waits() const {
    auto done = [](const auto& wait) { return wait.first->completed() >= wait.second; };
    waits_.erase(std::remove_if(waits_.begin(), waits_.end(), done), waits_.end());
}

int64_t Event::timestamp() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return timestamp_;
}

}  // namespace aclcpu::detail
