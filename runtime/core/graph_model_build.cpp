// acl-cpu runtime: GraphModel, building a model on persistent streams
// (aclmdlRIBuildBegin .. aclmdlRIBuildEnd) and its control flow.
#include "core/graph_model.hpp"

#include <algorithm>
#include <functional>
#include <queue>

#include "core/errors.hpp"
#include "core/objects.hpp"

namespace aclcpu::detail {

aclError GraphModel::bind(const std::shared_ptr<Stream>& stream, bool head) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!counted_) {
        return runtime_error(ACL_ERROR_RT_STREAM_MODEL,
                             "aclmdlRIBindStream: model %u is built already; bind its streams before aclmdlRIBuildEnd",
                             id_);
    }
    Cursor cursor{stream, {}, -1};
    cursor.head = head;
    cursors_.push_back(std::move(cursor));
    streams_.push_back(stream.get());
    if (streams_.size() == 1) originPriority_ = stream->priority();
    stream->set_capturing_model(shared_from_this());
    return ACL_SUCCESS;
}

bool GraphModel::unbind(const Stream& stream) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto handle = std::find(streams_.begin(), streams_.end(), &stream);
    if (handle == streams_.end()) return false;
    streams_.erase(handle);
    const auto cursor = std::find_if(cursors_.begin(), cursors_.end(),
                                     [&](const Cursor& c) { return c.stream.get() == &stream; });
    if (cursor == cursors_.end()) return true;
    // Its nodes stay (others may depend on them) but never run: nothing
    // starts or reaches the stream any more.
    cursor->stream->set_capturing_model(nullptr);
    cursors_.erase(cursor);
    return true;
}

bool GraphModel::append_control(Stream& stream, Control control, Decide decide, std::vector<JumpTarget> targets,
                                CapturedWork work) {
    std::lock_guard<std::mutex> lock(mutex_);
    Cursor* cursor = cursor_of(stream);
    if (cursor == nullptr) return false;
    const uint32_t node = add_node(*cursor, nullptr, std::move(work));
    nodes_[node].control = control;
    nodes_[node].decide = std::move(decide);
    nodes_[node].targets = std::move(targets);
    return true;
}

aclError GraphModel::set_label(Stream& stream, const void* label) {
    std::lock_guard<std::mutex> lock(mutex_);
    Cursor* cursor = cursor_of(stream);
    if (cursor == nullptr) {
        return runtime_error(ACL_ERROR_RT_STREAM_MODEL, "aclrtSetLabel: stream %p is not recording for model %u",
                             static_cast<void*>(&stream), id_);
    }
    if (labelNodes_.count(label) != 0) {
        return runtime_error(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtSetLabel: label %p is already set in model %u", label,
                             id_);
    }
    labelNodes_[label] = add_node(*cursor, nullptr, CapturedWork{"aclrtSetLabel", "label", {}, {}});
    return ACL_SUCCESS;
}

std::string GraphModel::resolve_jumps() {
    entryNodes_.clear();
    for (const Cursor& cursor : cursors_) {
        if (cursor.head && cursor.first >= 0) entryNodes_.push_back(static_cast<uint32_t>(cursor.first));
    }
    for (uint32_t i = 0; i < nodes_.size(); ++i) {
        Node& node = nodes_[i];
        node.targetNodes.clear();
        for (const JumpTarget& target : node.targets) {
            int64_t to = -1;
            if (target.label != nullptr) {
                const auto placed = labelNodes_.find(target.label);
                if (placed == labelNodes_.end()) {
                    return node.work.name + " (task " + std::to_string(i) +
                           ") jumps to a label that no stream of the model sets (aclrtSetLabel)";
                }
                to = placed->second;
            } else {
                const Cursor* cursor = cursor_of(*target.stream);
                if (cursor == nullptr) {
                    return node.work.name + " (task " + std::to_string(i) +
                           ") leads to a stream that is not bound to the model (aclmdlRIBindStream)";
                }
                to = cursor->first;
            }
            node.targetNodes.push_back(to);
            if (to < 0) continue;
            std::vector<uint32_t>& after = nodes_[static_cast<size_t>(to)].after;
            if (std::find(after.begin(), after.end(), i) == after.end()) after.push_back(i);
        }
    }
    return {};
}

std::vector<uint32_t> GraphModel::topological_order() const {
    // Kahn's algorithm, taking the earliest recorded ready node first.
    std::vector<size_t> waiting(nodes_.size());
    std::vector<std::vector<uint32_t>> successors(nodes_.size());
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> ready;
    for (uint32_t i = 0; i < nodes_.size(); ++i) {
        waiting[i] = nodes_[i].after.size();
        for (uint32_t before : nodes_[i].after) successors[before].push_back(i);
        if (waiting[i] == 0) ready.push(i);
    }
    std::vector<uint32_t> order;
    order.reserve(nodes_.size());
    while (!ready.empty()) {
        const uint32_t node = ready.top();
        ready.pop();
        order.push_back(node);
        for (uint32_t next : successors[node]) {
            if (--waiting[next] == 0) ready.push(next);
        }
    }
    return order;
}

void GraphModel::renumber(const std::vector<uint32_t>& order) {
    std::vector<uint32_t> position(nodes_.size());
    for (uint32_t i = 0; i < order.size(); ++i) position[order[i]] = i;
    const auto moved = [&](int64_t node) { return node < 0 ? node : int64_t{position[static_cast<size_t>(node)]}; };
    std::vector<Node> renumbered;
    renumbered.reserve(nodes_.size());
    for (uint32_t old : order) {
        Node node = std::move(nodes_[old]);
        for (uint32_t& before : node.after) before = position[before];
        std::sort(node.after.begin(), node.after.end());
        for (int64_t& target : node.targetNodes) target = moved(target);
        node.next = moved(node.next);
        renumbered.push_back(std::move(node));
    }
    nodes_ = std::move(renumbered);
    for (auto& [label, node] : labelNodes_) node = position[node];
    for (uint32_t& entry : entryNodes_) entry = position[entry];
}

void GraphModel::note_choices() {
    // A node's ways in: the start of a head stream, the fall-through of its
    // stream's previous node, the jumps that lead to it.  A node keeps a
    // choice only when every way in carries the same one.
    struct Way {
        int64_t node;
        int32_t choice;
        bool operator==(const Way& other) const { return node == other.node && choice == other.choice; }
    };
    const Way none{-1, -1};
    std::vector<std::vector<Way>> ways(nodes_.size());
    for (uint32_t entry : entryNodes_) ways[entry].push_back(none);
    for (uint32_t i = 0; i < nodes_.size(); ++i) {
        Node& node = nodes_[i];
        const std::vector<Way>& in = ways[i];
        const bool agreed = !in.empty() && std::all_of(in.begin(), in.end(), [&](const Way& w) { return w == in[0]; });
        const Way own = agreed ? in[0] : none;
        node.choiceNode = own.node;
        node.choice = own.choice;
        const auto chosen = [&](int32_t choice) { return Way{i, choice}; };
        if (node.next >= 0 && node.control != Control::kJump && node.control != Control::kEnd) {
            const auto targets = static_cast<int32_t>(node.targets.size());
            ways[static_cast<size_t>(node.next)].push_back(node.control == Control::kBranch ? chosen(targets) : own);
        }
        for (size_t t = 0; t < node.targetNodes.size(); ++t) {
            if (node.targetNodes[t] < 0) continue;
            const Way way = node.control == Control::kActivate ? own : chosen(static_cast<int32_t>(t));
            ways[static_cast<size_t>(node.targetNodes[t])].push_back(way);
        }
    }
}

aclError GraphModel::finish_build() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!counted_) {
            return runtime_error(ACL_ERROR_RT_STREAM_MODEL, "aclmdlRIBuildEnd: model %u is built already", id_);
        }
        // CANN: a model without streams is "empty" (107005); one without an
        // end task may not run (RT_ERROR_MODEL_NOT_END, 507011).
        if (cursors_.empty()) {
            return runtime_error(ACL_ERROR_RT_STREAM_MODEL,
                                 "aclmdlRIBuildEnd: model %u has no stream; bind one first (aclmdlRIBindStream)", id_);
        }
        const bool ended = std::any_of(nodes_.begin(), nodes_.end(),
                                       [](const Node& node) { return node.work.category == "end_task"; });
        if (!ended) {
            return runtime_error(ACL_ERROR_RT_MODEL_EXECUTE,
                                 "aclmdlRIBuildEnd: model %u has no end task; mark the end of a stream's tasks first "
                                 "(aclmdlRIEndTask)",
                                 id_);
        }
        if (status_ == Status::kInvalidated) {
            return runtime_error(invalidCode_, "aclmdlRIBuildEnd: model %u is invalid: %s", id_, invalidReason_.c_str());
        }
        std::vector<std::vector<uint32_t>> recordedEdges;
        for (const Node& node : nodes_) recordedEdges.push_back(node.after);
        const std::string why = resolve_jumps();
        const std::vector<uint32_t> order = why.empty() ? topological_order() : std::vector<uint32_t>{};
        if (order.size() != nodes_.size()) {
            // A failed end leaves the build as it was, without the jumps' edges.
            for (size_t i = 0; i < nodes_.size(); ++i) nodes_[i].after = std::move(recordedEdges[i]);
            if (!why.empty()) return runtime_error(ACL_ERROR_RT_INTERNAL_ERROR, "aclmdlRIBuildEnd: %s", why.c_str());
            return runtime_error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                 "aclmdlRIBuildEnd: model %u loops (a jump leads to a label or stream that runs "
                                 "before the jump); acl-cpu replays a model as an acyclic graph and does not run loops",
                                 id_);
        }
        // Observers and the graph take nodes after their predecessors.
        renumber(order);
        note_choices();
        replay_.reached = std::make_unique<std::atomic<bool>[]>(std::max<size_t>(nodes_.size(), 1));
        stop_recording();
        status_ = Status::kReady;
    }
    build_graph();
    if (instrument::active()) announce_built();
    return ACL_SUCCESS;
}

}  // namespace aclcpu::detail
