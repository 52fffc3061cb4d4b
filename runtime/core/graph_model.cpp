// acl-cpu runtime: GraphModel.
#include "core/graph_model.hpp"

#include <algorithm>

#include <unistd.h>

#include "core/device.hpp"
#include "core/errors.hpp"
#include "core/graph_capture.hpp"
#include "core/graph_condition.hpp"
#include "core/objects.hpp"
#include "observe/runtime_hooks.hpp"

namespace aclcpu::detail {

namespace {

std::atomic<uint32_t> gNextModelId{0};

void append_json_string(std::string& out, const std::string& text) {
    out += '"';
    for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        if (static_cast<unsigned char>(c) >= 0x20) out += c;
    }
    out += '"';
}

}  // namespace

/// A replay's first place: starts the graph.  A replay whose start is
/// skipped (an aborted stream, a stream stopped on failure) still delivers
/// its last place, so the stream and later replays go on.
class GraphModel::StartReplay final : public DeviceTask {
public:
    StartReplay(std::shared_ptr<GraphModel> model, StreamLane& lane, uint64_t donePlace)
        : model_(std::move(model)), lane_(lane), donePlace_(donePlace) {}
    ~StartReplay() override {
        if (!started_) LateDelivery{&lane_, donePlace_, nullptr}.deliver();
    }
    StartReplay(const StartReplay&) = delete;
    StartReplay& operator=(const StartReplay&) = delete;

    aclError run() noexcept override {
        started_ = true;
        model_->start(LateDelivery{&lane_, donePlace_, nullptr});
        return ACL_SUCCESS;
    }
    const char* name() const noexcept override { return "aclmdlRIExecuteAsync"; }

private:
    std::shared_ptr<GraphModel> model_;
    StreamLane& lane_;
    uint64_t donePlace_;
    bool started_ = false;
};

namespace {

/// Installs an update's kernel as a node's work, in the updating stream's order.
class InstallKernel final : public DeviceTask {
public:
    InstallKernel(std::shared_ptr<GraphModel> model, uint32_t node, std::shared_ptr<DeviceTask> kernel)
        : model_(std::move(model)), node_(node), kernel_(std::move(kernel)) {}
    aclError run() noexcept override {
        model_->replace_task(node_, kernel_);
        return ACL_SUCCESS;
    }
    const char* name() const noexcept override { return "aclmdlRICaptureTaskUpdate"; }

private:
    std::shared_ptr<GraphModel> model_;
    uint32_t node_;
    std::shared_ptr<DeviceTask> kernel_;
};

}  // namespace

bool TaskUpdate::take(std::unique_ptr<DeviceTask>& task) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (error_ != ACL_SUCCESS) return true;
    if (!task->is_kernel()) {
        error_ = ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT;
        why_ = std::string("an update replaces operator kernels only, and ") + task->name() + " is not one";
        return true;
    }
    if (next_ >= group->nodes.size()) {
        error_ = ACL_ERROR_RT_INTERNAL_ERROR;
        why_ = "more kernels were submitted than the group holds (" + std::to_string(group->nodes.size()) + ")";
        return true;
    }
    // CANN: the update's tasks match the group's in number and type.
    if (const std::string captured = model->node_name(group->nodes[next_]); captured != task->name()) {
        error_ = ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT;
        why_ = "kernel " + std::to_string(next_) + " of the group is " + captured + ", and the update submitted " +
               task->name();
        return true;
    }
    task = std::make_unique<InstallKernel>(model, group->nodes[next_++], std::shared_ptr<DeviceTask>(std::move(task)));
    return false;
}

aclError TaskUpdate::finish() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (error_ == ACL_SUCCESS && next_ < group->nodes.size()) {
        error_ = ACL_ERROR_RT_INTERNAL_ERROR;
        why_ = "the group holds " + std::to_string(group->nodes.size()) + " kernels and only " +
               std::to_string(next_) + " were submitted";
    }
    if (error_ == ACL_SUCCESS) return ACL_SUCCESS;
    return runtime_error(error_, "aclmdlRICaptureTaskUpdateEnd: the update failed: %s", why_.c_str());
}

GraphModel::GraphModel(Device& device, aclmdlRICaptureMode mode)
    : device_(device), id_(gNextModelId.fetch_add(1, std::memory_order_relaxed)), mode_(mode), origin_(Origin::kCapture) {}

// A build counts as a RELAXED capture: the event calls then look for the
// model behind its streams, and no thread's unsafe calls are refused.
GraphModel::GraphModel(Device& device)
    : device_(device),
      id_(gNextModelId.fetch_add(1, std::memory_order_relaxed)),
      mode_(ACL_MODEL_RI_CAPTURE_MODE_RELAXED),
      origin_(Origin::kBuild),
      counted_(true) {
    count_capture(mode_, owner_);
}

GraphModel::~GraphModel() {
    if (counted_) uncount_capture(mode_, owner_);
    if (announcedBuilt_ && instrument::active()) {
        instrument::notify([this](instrument::Observer& o) { o.on_graph_destroyed(this); });
    }
    if (!graph_) return;
    device_.in_arena([this] {
        // Waits out the last node's task, which may still be returning from
        // the body that delivered the replay's last place.
        graph_->wait_for_all();
        sink_.reset();
        graphNodes_.clear();
        start_.reset();
        graph_.reset();
    });
}

GraphModel::Status GraphModel::status() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return status_;
}

bool GraphModel::is_capturing() const { return origin_ == Origin::kCapture && is_recording(); }

bool GraphModel::is_recording() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return counted_;
}

aclmdlRICaptureMode GraphModel::mode() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return mode_;
}

std::thread::id GraphModel::owner() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return owner_;
}

bool GraphModel::capture_begun() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return captureBegun_;
}

void GraphModel::begin(const std::shared_ptr<Stream>& origin, aclmdlRICaptureMode mode) {
    std::lock_guard<std::mutex> lock(mutex_);
    captureBegun_ = true;
    mode_ = mode;
    owner_ = std::this_thread::get_id();
    cursors_.push_back(Cursor{origin, {}, -1});
    streams_.push_back(origin.get());
    originPriority_ = origin->priority();
    origin->set_capturing_model(shared_from_this());
    count_capture(mode_, owner_);
    counted_ = true;
}

GraphModel::Cursor* GraphModel::cursor_of(const Stream& stream) {
    for (Cursor& cursor : cursors_) {
        if (cursor.stream.get() == &stream) return &cursor;
    }
    return nullptr;
}

bool GraphModel::is_origin(const Stream& stream) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return !cursors_.empty() && cursors_.front().stream.get() == &stream;
}

uint32_t GraphModel::add_node(Cursor& cursor, std::unique_ptr<DeviceTask> task, CapturedWork work) {
    const auto index = static_cast<uint32_t>(nodes_.size());
    if (cursor.last >= 0) nodes_[static_cast<size_t>(cursor.last)].next = index;
    if (cursor.first < 0) cursor.first = index;
    Node node;
    node.task = std::move(task);
    node.after = std::move(cursor.frontier);
    std::sort(node.after.begin(), node.after.end());
    node.after.erase(std::unique(node.after.begin(), node.after.end()), node.after.end());
    node.streamId = cursor.stream->id();
    node.work = std::move(work);
    nodes_.push_back(std::move(node));
    cursor.frontier = {index};
    cursor.last = index;
    return index;
}

std::optional<aclError> GraphModel::append(Stream& stream, std::unique_ptr<DeviceTask>& task, CapturedWork work) {
    std::lock_guard<std::mutex> lock(mutex_);
    Cursor* cursor = cursor_of(stream);
    if (cursor == nullptr) return std::nullopt;
    const bool kernel = task->is_kernel();
    if (aclError refused = admit_to_group(stream, kernel, work.name); refused != ACL_SUCCESS) return refused;
    const uint32_t node = add_node(*cursor, std::move(task), std::move(work));
    if (groupStream_ != nullptr && kernel) groupNodes_.push_back(node);
    return ACL_SUCCESS;
}

aclError GraphModel::admit_to_group(const Stream& stream, bool kernel, const std::string& name) {
    if (groupStream_ == nullptr) return ACL_SUCCESS;
    std::string why;
    aclError code = ACL_SUCCESS;
    if (groupStream_ != &stream) {
        code = ACL_ERROR_STREAM_TASK_GROUP_INTR;
        why = name + " was submitted to another stream of the capture while a task group was being recorded";
    } else if (!kernel) {
        code = ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT;
        why = "a task group holds operator kernels only, and " + name + " is not one";
    } else {
        return ACL_SUCCESS;
    }
    break_group(code, why);
    return runtime_error(code, "%s: %s; the task is not captured and the capture is invalid", name.c_str(),
                         why.c_str());
}

void GraphModel::break_group(aclError code, const std::string& why) {
    groupError_ = code;
    if (status_ == Status::kCapturing) {
        status_ = Status::kInvalidated;
        invalidCode_ = ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED;
        invalidReason_ = why;
    }
}

aclError GraphModel::begin_group(Stream& stream) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (groupStream_ != nullptr) {
        return runtime_error(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                             "aclmdlRICaptureTaskGrpBegin: a task group is already being recorded in this capture");
    }
    groupStream_ = &stream;
    groupNodes_.clear();
    groupError_ = ACL_SUCCESS;
    return ACL_SUCCESS;
}

aclError GraphModel::end_group(Stream& stream, std::vector<uint32_t>& nodes) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (groupStream_ != &stream) {
        return runtime_error(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                             "aclmdlRICaptureTaskGrpEnd: no task group is being recorded on stream %p",
                             static_cast<void*>(&stream));
    }
    groupStream_ = nullptr;
    if (groupError_ != ACL_SUCCESS) {
        return runtime_error(groupError_, "aclmdlRICaptureTaskGrpEnd: the group is broken: %s", invalidReason_.c_str());
    }
    if (status_ == Status::kInvalidated) {
        return runtime_error(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, "aclmdlRICaptureTaskGrpEnd: the capture is invalid: %s",
                             invalidReason_.c_str());
    }
    nodes = groupNodes_;
    return ACL_SUCCESS;
}

std::string GraphModel::node_name(uint32_t node) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return nodes_.at(node).work.name;
}

std::optional<std::string> GraphModel::kernel_name(uint32_t node) const {
    std::lock_guard<std::mutex> lock(mutex_);
    const std::shared_ptr<DeviceTask> task = std::atomic_load(&nodes_.at(node).task);
    if (task == nullptr || !task->is_kernel()) return std::nullopt;
    return nodes_[node].work.name;
}

void GraphModel::replace_task(uint32_t node, std::shared_ptr<DeviceTask> task) {
    std::atomic_store(&nodes_.at(node).task, std::move(task));
}

void GraphModel::add_external_record(std::shared_ptr<Event> event) {
    std::lock_guard<std::mutex> lock(mutex_);
    externalRecords_.push_back(std::move(event));
}

void GraphModel::add_external_wait(std::shared_ptr<Event> event) {
    std::lock_guard<std::mutex> lock(mutex_);
    externalWaits_.push_back(std::move(event));
}

void GraphModel::keep_until_destroyed(std::shared_ptr<void> resource) {
    std::lock_guard<std::mutex> lock(mutex_);
    kept_.push_back(std::move(resource));
}

std::optional<aclError> GraphModel::append_late(Stream& stream, Arm arm, CapturedWork work) {
    std::lock_guard<std::mutex> lock(mutex_);
    Cursor* cursor = cursor_of(stream);
    if (cursor == nullptr) return std::nullopt;
    if (aclError refused = admit_to_group(stream, false, work.name); refused != ACL_SUCCESS) return refused;
    const uint32_t node = add_node(*cursor, nullptr, std::move(work));
    nodes_[node].arm = std::move(arm);
    return ACL_SUCCESS;
}

aclError GraphModel::record(Stream& stream, std::vector<uint32_t>& nodes) {
    std::lock_guard<std::mutex> lock(mutex_);
    nodes.clear();
    Cursor* cursor = cursor_of(stream);
    if (cursor == nullptr) return ACL_SUCCESS;
    CapturedWork work{"aclrtRecordEvent", "event_record", {}, {}};
    if (aclError refused = admit_to_group(stream, false, work.name); refused != ACL_SUCCESS) return refused;
    nodes.push_back(add_node(*cursor, nullptr, std::move(work)));
    return ACL_SUCCESS;
}

aclError GraphModel::wait(const std::shared_ptr<Stream>& waiter, const std::vector<uint32_t>& nodes, const char* api) {
    std::lock_guard<std::mutex> lock(mutex_);
    Cursor* cursor = cursor_of(*waiter);
    if (cursor == nullptr) {
        cursors_.push_back(Cursor{waiter, {}, -1});
        streams_.push_back(waiter.get());
        waiter->set_capturing_model(shared_from_this());
        cursor = &cursors_.back();
    }
    if (aclError refused = admit_to_group(*waiter, false, api); refused != ACL_SUCCESS) {
        return refused;
    }
    cursor->frontier.insert(cursor->frontier.end(), nodes.begin(), nodes.end());
    return ACL_SUCCESS;
}

void GraphModel::invalidate(aclError code, std::string why) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (status_ != Status::kCapturing) return;
    status_ = Status::kInvalidated;
    invalidCode_ = code;
    invalidReason_ = std::move(why);
}

std::string GraphModel::unjoined_stream() const {
    if (cursors_.empty()) return {};
    std::vector<bool> followed(nodes_.size(), false);
    std::vector<uint32_t> pending = cursors_.front().frontier;
    while (!pending.empty()) {
        const uint32_t node = pending.back();
        pending.pop_back();
        if (followed[node]) continue;
        followed[node] = true;
        pending.insert(pending.end(), nodes_[node].after.begin(), nodes_[node].after.end());
    }
    for (size_t i = 1; i < cursors_.size(); ++i) {
        const Cursor& cursor = cursors_[i];
        if (cursor.last >= 0 && followed[static_cast<size_t>(cursor.last)]) continue;
        return "stream " + std::to_string(cursor.stream->id()) +
               " joined the capture through an event, but its last task is not an event record that the origin "
               "stream waits for, directly or through other streams";
    }
    return {};
}

void GraphModel::stop_recording() {
    for (Cursor& cursor : cursors_) cursor.stream->set_capturing_model(nullptr);
    cursors_.clear();
    if (counted_) uncount_capture(mode_, owner_);
    counted_ = false;
}

void GraphModel::abandon_capture() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!counted_) return;
    stop_recording();
    status_ = Status::kInvalidated;
}

aclError GraphModel::end(Stream& origin) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        const std::string unjoined = unjoined_stream();
        stop_recording();
        if (status_ == Status::kInvalidated) {
            return runtime_error(invalidCode_, "aclmdlRICaptureEnd: the capture of stream %p is invalid: %s",
                                 static_cast<void*>(&origin), invalidReason_.c_str());
        }
        status_ = Status::kInvalidated;
        if (groupStream_ != nullptr) {
            return runtime_error(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                                 "aclmdlRICaptureEnd: a task group is still being recorded; end it first "
                                 "(aclmdlRICaptureTaskGrpEnd)");
        }
        if (!unjoined.empty()) {
            return runtime_error(ACL_ERROR_RT_STREAM_UNJOINED, "aclmdlRICaptureEnd: %s", unjoined.c_str());
        }
        status_ = Status::kReady;
    }
    build_graph();
    if (instrument::active()) announce_built();
    return ACL_SUCCESS;
}

std::vector<aclrtStream> GraphModel::streams() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return streams_;
}

void GraphModel::build_graph() {
    for (const Node& node : nodes_) {
        replayAccesses_.insert(replayAccesses_.end(), node.work.accesses.begin(), node.work.accesses.end());
    }
    using tbb::flow::continue_msg;
    using tbb::flow::continue_node;
    using LateNode = tbb::flow::async_node<continue_msg, continue_msg>;
    const tbb::flow::node_priority_t priority = stream_node_priority(originPriority_);
    device_.in_arena([&] {
        graph_ = std::make_unique<tbb::flow::graph>();
        start_ = std::make_unique<tbb::flow::broadcast_node<continue_msg>>(*graph_);
        sink_ = std::make_unique<continue_node<continue_msg>>(
            *graph_, [this](const continue_msg&) { finish_replay(); }, priority);
        // Every node first, then the edges: a built model's jumps may lead
        // to nodes recorded before them.
        std::vector<tbb::flow::receiver<continue_msg>*> receivers;
        std::vector<tbb::flow::sender<continue_msg>*> senders;
        graphNodes_.reserve(nodes_.size());
        for (uint32_t i = 0; i < nodes_.size(); ++i) {
            if (nodes_[i].arm) {
                // An async_node runs its body once per message, not once all its
                // predecessors are done: a continue_node in front joins them.
                auto join = std::make_unique<continue_node<continue_msg>>(
                    *graph_, [](const continue_msg&) {}, priority);
                auto late = std::make_unique<LateNode>(
                    *graph_, tbb::flow::unlimited,
                    [this, i](const continue_msg&, Gateway& gateway) { arm_node(i, gateway); }, priority);
                tbb::flow::make_edge(*join, *late);
                receivers.push_back(join.get());
                // An async_node takes successors through its output port only.
                senders.push_back(&tbb::flow::output_port<0>(*late));
                graphNodes_.push_back(std::move(join));
                graphNodes_.push_back(std::move(late));
            } else {
                auto task = std::make_unique<continue_node<continue_msg>>(
                    *graph_, [this, i](const continue_msg&) { run_node(i); }, priority);
                receivers.push_back(task.get());
                senders.push_back(task.get());
                graphNodes_.push_back(std::move(task));
            }
        }
        std::vector<bool> followed(nodes_.size(), false);
        for (uint32_t i = 0; i < nodes_.size(); ++i) {
            if (nodes_[i].after.empty()) tbb::flow::make_edge(*start_, *receivers[i]);
            for (uint32_t before : nodes_[i].after) {
                tbb::flow::make_edge(*senders[before], *receivers[i]);
                followed[before] = true;
            }
        }
        for (uint32_t i = 0; i < nodes_.size(); ++i) {
            if (!followed[i]) tbb::flow::make_edge(*senders[i], *sink_);
        }
        if (nodes_.empty()) tbb::flow::make_edge(*start_, *sink_);
    });
}

void GraphModel::announce_built() {
    announcedBuilt_ = true;
    std::vector<instrument::GraphNodeInfo> nodes(nodes_.size());
    for (size_t i = 0; i < nodes_.size(); ++i) {
        const Node& node = nodes_[i];
        instrument::GraphNodeInfo& info = nodes[i];
        info.work.name = node.work.name.c_str();
        info.work.category = node.work.category.c_str();
        info.work.accesses = node.work.accesses.data();
        info.work.accessCount = node.work.accesses.size();
        info.work.details = node.work.details;
        info.stream = node.streamId;
        info.after = node.after.data();
        info.afterCount = node.after.size();
        info.choiceNode = node.choiceNode;
        info.choice = node.choice;
    }
    instrument::notify([&](instrument::Observer& o) {
        o.on_graph_built(device_.id(), this, nodes.data(), nodes.size());
    });
}

void GraphModel::announce_replay(Stream& stream, uint64_t gatePlace, uint64_t startPlace) const {
    if (gatePlace != startPlace) {
        stream.announce(gatePlace, plain_work("aclmdlRIExecuteAsync", "event_wait"));
        instrument::notify([&](instrument::Observer& o) {
            o.on_event_wait(&stream, gatePlace, this);
            for (const std::shared_ptr<Event>& event : externalWaits_) o.on_event_wait(&stream, gatePlace, event.get());
        });
    }
    instrument::WorkInfo launch = plain_work("aclmdlRIExecuteAsync", "graph_launch");
    launch.accesses = replayAccesses_.data();
    launch.accessCount = replayAccesses_.size();
    launch.details = "\"model\":" + std::to_string(id_) + ",\"nodes\":" + std::to_string(nodes_.size());
    stream.announce(startPlace, launch);
    stream.announce(startPlace + 1, plain_work(name_.empty() ? "aclmdlRI" : name_.c_str(), "graph"));
    instrument::notify([&](instrument::Observer& o) { o.on_event_record(this, &stream, startPlace + 1); });
}

void GraphModel::enqueue_replay(Stream& stream) {
    StreamLane& lane = stream.lane();
    const bool observed = instrument::active();
    std::lock_guard<std::mutex> lock(mutex_);
    const bool afterOtherLane = lastReplayProgress_ && lastReplayProgress_ != lane.progress() &&
                                lastReplayProgress_->completed() < lastReplayCount_;
    // Observers are told of every replay's order after the previous one and
    // after its external waits' records, so a place stands for them even
    // when there is nothing left to wait for.
    const bool gated = afterOtherLane || (observed && (lastReplayProgress_ || !externalWaits_.empty()));
    const uint64_t gatePlace = lane.reserve(gated ? 3 : 2);
    const uint64_t startPlace = gated ? gatePlace + 1 : gatePlace;
    if (observed) announce_replay(stream, gatePlace, startPlace);
    if (afterOtherLane) {
        lastReplayProgress_->when_reached(lastReplayCount_,
                                          [target = &lane, gatePlace] { target->deliver(gatePlace, nullptr); });
    } else if (gated) {
        lane.deliver(gatePlace, nullptr);
    }
    lastReplayProgress_ = lane.progress();
    lastReplayCount_ = startPlace + 2;
    for (const std::shared_ptr<Event>& event : externalRecords_) {
        event->record(stream, startPlace + 1);
        if (observed) instrument::notify([&](instrument::Observer& o) { o.on_event_record(event.get(), &stream, startPlace + 1); });
    }
    lane.deliver(startPlace, std::make_unique<StartReplay>(shared_from_this(), lane, startPlace + 1));
}

bool GraphModel::running() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return lastReplayProgress_ && lastReplayProgress_->completed() < lastReplayCount_;
}

bool GraphModel::wait_idle(std::chrono::milliseconds limit) const {
    std::shared_ptr<LaneProgress> progress;
    uint64_t count = 0;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        progress = lastReplayProgress_;
        count = lastReplayCount_;
    }
    return !progress || progress->counter().wait_until(count, ProgressCounter::Clock::now() + limit);
}

size_t GraphModel::node_count() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return nodes_.size();
}

void GraphModel::start(LateDelivery done) {
    replay_.done = std::move(done);
    replay_.failed.store(false, std::memory_order_relaxed);
    if (replay_.reached) {
        for (size_t i = 0; i < nodes_.size(); ++i) replay_.reached[i].store(false, std::memory_order_relaxed);
        for (uint32_t entry : entryNodes_) replay_.reached[entry].store(true, std::memory_order_relaxed);
    }
    start_->try_put(tbb::flow::continue_msg());
}

bool GraphModel::reached(uint32_t index) noexcept {
    if (!replay_.reached) return true;
    if (!replay_.reached[index].load(std::memory_order_acquire)) return false;
    const Node& node = nodes_[index];
    follow(index, node.decide ? node.decide() : Flow{});
    return true;
}

void GraphModel::follow(uint32_t index, Flow flow) noexcept {
    const Node& node = nodes_[index];
    if (flow.fallThrough && node.next >= 0) {
        replay_.reached[static_cast<size_t>(node.next)].store(true, std::memory_order_release);
    }
    if (flow.target == Flow::kNone) return;
    const int64_t target = node.targetNodes.at(static_cast<size_t>(flow.target));
    if (target >= 0) replay_.reached[static_cast<size_t>(target)].store(true, std::memory_order_release);
}

void GraphModel::run_node(uint32_t index) noexcept {
    if (replay_.failed.load(std::memory_order_acquire) || !reached(index)) return;
    const bool observed = instrument::active();
    if (observed) instrument::notify([&](instrument::Observer& o) { o.on_graph_node_begin(this, index); });
    const std::shared_ptr<DeviceTask> task = std::atomic_load(&nodes_[index].task);
    std::string detail;
    const aclError status = task ? run_reporting(*task, detail) : ACL_SUCCESS;
    if (observed) instrument::notify([&](instrument::Observer& o) { o.on_graph_node_end(this, index); });
    if (status != ACL_SUCCESS) note_failure(status, task->name(), std::move(detail));
}

/// What a late node waits for delivers here: the node's completion in the
/// flow graph, once.
class GraphModel::LateNodeGate final : public NodeGate {
public:
    LateNodeGate(GraphModel& model, uint32_t node, Gateway& gateway) : model_(model), node_(node), gateway_(gateway) {
        gateway_.reserve_wait();
    }
    void open() override {
        if (opened_.exchange(true)) return;
        if (instrument::active()) {
            instrument::notify([this](instrument::Observer& o) { o.on_graph_node_end(&model_, node_); });
        }
        gateway_.try_put(tbb::flow::continue_msg());
        gateway_.release_wait();
    }
    void fail(aclError code, const char* task, const std::string& detail) override {
        model_.note_failure(code, task, detail);
    }

private:
    GraphModel& model_;
    const uint32_t node_;
    Gateway& gateway_;
    std::atomic<bool> opened_{false};
};

void GraphModel::arm_node(uint32_t index, Gateway& gateway) noexcept {
    if (replay_.failed.load(std::memory_order_acquire) || !reached(index)) {
        gateway.try_put(tbb::flow::continue_msg());
        return;
    }
    if (instrument::active()) {
        instrument::notify([&](instrument::Observer& o) { o.on_graph_node_begin(this, index); });
    }
    const auto gate = std::make_shared<LateNodeGate>(*this, index, gateway);
    try {
        nodes_[index].arm(LateDelivery{nullptr, 0, gate});
    } catch (const std::exception& error) {
        gate->fail(ACL_ERROR_RT_INTERNAL_ERROR, nodes_[index].work.name.c_str(), error.what());
        gate->open();
    }
}

void GraphModel::note_failure(aclError status, const char* task, std::string detail) {
    std::lock_guard<std::mutex> lock(replay_.failMutex);
    if (replay_.failed.load(std::memory_order_relaxed)) return;
    replay_.code = status;
    replay_.task = task;
    replay_.detail = std::move(detail);
    replay_.failed.store(true, std::memory_order_release);
}

void GraphModel::finish_replay() {
    // Taken first: what done starts (the next run of a WHILE body) may start this graph again.
    const LateDelivery done = std::move(replay_.done);
    if (replay_.failed.load(std::memory_order_acquire)) {
        std::lock_guard<std::mutex> lock(replay_.failMutex);
        done.fail(replay_.code, replay_.task.c_str(), replay_.detail);
    }
    done.deliver();
}

std::shared_ptr<GraphModel> GraphModel::make_branch() {
    return std::make_shared<GraphModel>(device_, mode());
}

void GraphModel::add_condition(std::shared_ptr<CondHandle> handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    conditions_.push_back(std::move(handle));
}

std::vector<std::shared_ptr<GraphModel>> GraphModel::branches() const {
    std::vector<std::shared_ptr<CondHandle>> conditions;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        conditions = conditions_;
    }
    std::vector<std::shared_ptr<GraphModel>> all;
    for (const std::shared_ptr<CondHandle>& condition : conditions) {
        for (const std::shared_ptr<GraphModel>& branch : condition->branches()) {
            all.push_back(branch);
            const std::vector<std::shared_ptr<GraphModel>> nested = branch->branches();
            all.insert(all.end(), nested.begin(), nested.end());
        }
    }
    return all;
}

void GraphModel::assign_condition_defaults() const {
    std::vector<std::shared_ptr<CondHandle>> conditions;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        conditions = conditions_;
    }
    for (const std::shared_ptr<CondHandle>& condition : conditions) {
        condition->assign_default();
        for (const std::shared_ptr<GraphModel>& branch : condition->branches()) branch->assign_condition_defaults();
    }
}

bool GraphModel::is_runnable() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return status_ == Status::kReady && graph_ != nullptr;
}

void GraphModel::run_branch(LateDelivery done) {
    if (!is_runnable()) {
        done.deliver();
        return;
    }
    start(std::move(done));
}

void GraphModel::set_name(std::string name) {
    std::lock_guard<std::mutex> lock(mutex_);
    name_ = std::move(name);
}

std::string GraphModel::name() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return name_;
}

bool GraphModel::add_destroy_callback(aclrtCallback func, void* userData) {
    std::lock_guard<std::mutex> lock(mutex_);
    return destroyCallbacks_.emplace(func, userData).second;
}

bool GraphModel::remove_destroy_callback(aclrtCallback func) {
    std::lock_guard<std::mutex> lock(mutex_);
    return destroyCallbacks_.erase(func) != 0;
}

void GraphModel::run_destroy_callbacks() {
    std::map<aclrtCallback, void*> callbacks;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        callbacks.swap(destroyCallbacks_);
    }
    for (const auto& [func, userData] : callbacks) func(userData);
}

std::string GraphModel::describe_json() const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::string json = "[";
    for (size_t i = 0; i < nodes_.size(); ++i) {
        const Node& node = nodes_[i];
        const std::string stream = std::to_string(node.streamId);
        json += i ? ",\n" : "\n";
        json += "{\"name\":";
        append_json_string(json, node.work.name);
        json += ",\"pid\":";
        append_json_string(json, std::to_string(getpid()) + " aclGraph");
        json += ",\"tid\":\"stream" + stream + "\",\"ts\":" + std::to_string(i) + ",\"dur\":1,\"ph\":\"X\"";
        json += ",\"args\":{\"Model Id\":" + std::to_string(id_) + ",\"Stream Id\":" + stream +
                ",\"Task Id\":" + std::to_string(i) + ",\"Task Type\":";
        append_json_string(json, node.work.category);
        json += ",\"Model Name\":";
        append_json_string(json, name_);
        json += ",\"After Task Ids\":[";
        for (size_t j = 0; j < node.after.size(); ++j) json += (j ? "," : "") + std::to_string(node.after[j]);
        json += "]}}";
    }
    json += "\n]\n";
    return json;
}

}  // namespace aclcpu::detail
