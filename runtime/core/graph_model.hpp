// acl-cpu runtime: GraphModel, an aclmdlRI -- the work captured from streams
// between aclmdlRICaptureBegin and aclmdlRICaptureEnd, or submitted to the
// persistent streams bound to it between aclmdlRIBuildBegin and
// aclmdlRIBuildEnd, replayed as a oneTBB flow graph.
#pragma once

#include "core/internal.hpp"

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <oneapi/tbb/flow_graph.h>

#include "acl/acl_rt.h"
#include "aclcpu/device_task.hpp"
#include "aclcpu/instrumentation.hpp"
#include "core/lane.hpp"

namespace aclcpu::detail {

class CondHandle;
class Device;
class Event;
class GraphModel;
class Stream;

/// An aclrtTaskGrp: the kernel nodes a capture recorded between
/// aclmdlRICaptureTaskGrpBegin and End, which an update
/// (aclmdlRICaptureTaskUpdateBegin .. End) replaces in order.
struct TaskGroup {
    std::weak_ptr<GraphModel> model;
    std::vector<uint32_t> nodes;
    std::atomic<bool> updating{false};  ///< An update of the group is open.
};

/// What observers are told of a captured node when a replay runs it: a copy
/// of the WorkInfo its submission carried (made only while observers were
/// installed at capture; otherwise just the task's name).
struct CapturedWork {
    std::string name;
    std::string category;
    std::vector<instrument::MemoryAccess> accesses;
    std::string details;
};

/// A stream's update of a task group (aclmdlRICaptureTaskUpdateBegin ..
/// End): each kernel submitted to the stream meanwhile replaces the group's
/// next kernel, in stream order -- replays that follow the stream's work see
/// it, as on CANN, where the update is itself a task of the updating stream.
struct TaskUpdate {
    std::shared_ptr<TaskGroup> group;
    std::shared_ptr<GraphModel> model;

    /// Takes a task submitted to the updating stream: true when refused
    /// (not a kernel, or one more than the group holds; the update then
    /// fails at its end), false with task replaced by the task that installs
    /// it.
    bool take(std::unique_ptr<DeviceTask>& task);
    /// ACL_SUCCESS once every kernel of the group has a replacement and none
    /// was refused; otherwise the code, reported.
    aclError finish();

private:
    std::mutex mutex_;
    size_t next_ = 0;
    aclError error_ = ACL_SUCCESS;
    std::string why_;
};

/// An aclmdlRI.
///
/// Capture.  While a stream is captured, everything submitted to it becomes
/// a node of the model instead of a lane item: a task node runs the
/// submitted DeviceTask at every replay; an event record on a captured
/// stream adds an empty marker node, and an event wait makes the waiting
/// stream's next node depend on the nodes the record followed.  A stream that
/// waits for an event recorded in the capture joins it (CANN's cross-stream
/// capture).  Each captured stream keeps a cursor: the nodes its next node
/// must follow and its own last node.
///
/// Replay.  aclmdlRICaptureEnd turns the node list into a flow graph of
/// continue_nodes, built once inside the device's arena; a replay takes
/// places in the executing stream's lane -- a task that starts the graph and
/// a place the graph's last node delivers -- so the stream's order before and
/// after the replay holds and no worker blocks while the graph runs.  The
/// replays of one model run one after another in the order they were
/// submitted, whichever streams they were submitted to (the graph's nodes
/// count their predecessors, so two runs of one graph cannot overlap).
///
/// Build.  A model begun by aclmdlRIBuildBegin records the work of the
/// persistent streams bound to it the same way, plus control flow: labels
/// (aclrtSetLabel) and the tasks that leave a stream for a label or another
/// stream (aclrtSwitchLabelByIndex, aclrtSwitchStream, aclrtActiveStream,
/// aclmdlRIEndTask).  The replay graph stays acyclic: every node of every
/// bound stream runs at each replay, and a node whose stream did not reach it
/// (a branch not taken, a stream never activated) passes without running its
/// task.  A jump is an edge from the jumping node to its target, so the
/// target learns in time whether it was reached; a jump backwards (a loop)
/// would close a cycle and is refused when the build ends.
///
/// Thread-safety: every member may be called from any thread; capture and
/// build calls are serialised by the model's mutex.
class GraphModel : public std::enable_shared_from_this<GraphModel> {
public:
    /// kCapturing: recording (a capture, or a build before aclmdlRIBuildEnd).
    enum class Status { kCapturing, kInvalidated, kReady };
    enum class Origin { kCapture, kBuild };

    /// Where control goes after a node of a built model ran: on to the next
    /// node of its stream, to `target` (an index into the node's targets),
    /// both (an activation), or nowhere (the stream stops).
    struct Flow {
        static constexpr int kNone = -1;
        bool fallThrough = true;
        int target = kNone;
    };
    /// Where a jump may lead: a label's place, or the first node of a bound
    /// stream.  Exactly one is set.
    struct JumpTarget {
        const void* label = nullptr;
        const Stream* stream = nullptr;
    };
    /// Decides, when the node runs, where its stream goes.
    using Decide = std::function<Flow()>;
    /// What a control node may do, whatever it decides at a run: leave its
    /// stream for one of its targets (kJump), either that or go on
    /// (kBranch), start its target beside going on (kActivate), or stop
    /// (kEnd).
    enum class Control : uint8_t { kNone, kJump, kBranch, kActivate, kEnd };

    /// A model recording a capture begun in `mode`.
    GraphModel(Device& device, aclmdlRICaptureMode mode);
    /// A model being built on persistent streams (aclmdlRIBuildBegin).
    explicit GraphModel(Device& device);
    /// The model must be idle (not running(); aclmdlRIDestroy checks).
    ~GraphModel();
    GraphModel(const GraphModel&) = delete;
    GraphModel& operator=(const GraphModel&) = delete;

    Device& device() const noexcept { return device_; }
    uint32_t id() const noexcept { return id_; }
    aclmdlRICaptureMode mode() const;
    Origin origin() const noexcept { return origin_; }
    Status status() const;
    /// True from begin() until end(), valid or not (captures only).
    bool is_capturing() const;
    /// True while the model takes work: a capture from begin() until end(),
    /// a build until finish_build().
    bool is_recording() const;

    // ---- Capture (the caller resolved the stream and checked CANN's rules).

    /// Makes origin the model's first captured stream; the calling thread
    /// owns the capture, begun in mode.
    void begin(const std::shared_ptr<Stream>& origin, aclmdlRICaptureMode mode);
    /// True once a capture began on the model (a branch made by
    /// aclmdlRIAddCondTask is a model whose capture has not begun).
    bool capture_begun() const;
    /// Adds a node running task after everything captured on stream so far
    /// and returns ACL_SUCCESS, or refuses it by the task-group rule
    /// (admit_to_group; the code, reported); nothing (task untouched) when
    /// stream is not captured by this model any more (the capture ended
    /// meanwhile).
    std::optional<aclError> append(Stream& stream, std::unique_ptr<DeviceTask>& task, CapturedWork work);
    /// Adds a node that waits for something outside the device (a host call,
    /// a condition): at each replay, when the graph reaches it, arm(gate) is
    /// called and the node completes when gate is delivered.  Answers as
    /// append() does.
    using Arm = std::function<void(LateDelivery gate)>;
    std::optional<aclError> append_late(Stream& stream, Arm arm, CapturedWork work);
    /// An external record (ACL_EVENT_RECORD_EXTERNAL) captured on a stream of
    /// the model: every replay records event for work outside the model,
    /// complete when the replay is (never before the captured record point).
    void add_external_record(std::shared_ptr<Event> event);
    /// An external wait captured in the model (see capture_external_wait):
    /// observers see each replay ordered after the event's latest record.
    void add_external_wait(std::shared_ptr<Event> event);
    /// Keeps resource until the model is destroyed, after its last replay:
    /// what captured work hands over to the model for good (the block of a
    /// captured aclrtMemPoolFreeAsync, which every replay may still use).
    void keep_until_destroyed(std::shared_ptr<void> resource);
    /// An event record on captured stream: `nodes`, what a wait for it
    /// follows (none when the stream left the capture), or the task-group
    /// rule's refusal (admit_to_group; reported).
    aclError record(Stream& stream, std::vector<uint32_t>& nodes);
    /// An event wait on waiter for `nodes` (a record of this capture); waiter
    /// joins the capture if it is not captured yet.  The wait is a task of
    /// the waiter on CANN (ApiImpl::CaptureEventWait): the task-group rule
    /// (admit_to_group) may refuse it, after the join.
    aclError wait(const std::shared_ptr<Stream>& waiter, const std::vector<uint32_t>& nodes, const char* api);
    /// Breaks the capture: aclmdlRICaptureEnd will fail with code, why.
    void invalidate(aclError code, std::string why);
    /// Ends the capture begun on origin: releases every captured stream and,
    /// if the capture is valid and joined, builds the replay graph.  Returns
    /// CANN's code (reported) for an invalidated or unjoined capture.
    aclError end(Stream& origin);
    /// Opens a task group on captured stream (ACL_ERROR_STREAM_TASK_GROUP_STATUS,
    /// reported, if one is open in the model).  Until end_group, the stream's
    /// captured work must be kernels and the model's other streams must not
    /// capture anything; breaking that invalidates the capture and is what
    /// end_group reports.
    aclError begin_group(Stream& stream);
    /// Closes the group open on stream; on success `nodes` are its kernels.
    aclError end_group(Stream& stream, std::vector<uint32_t>& nodes);
    /// The name of node `node`'s work ("aclnnAdd", "aclrtMemcpyAsync", ...).
    std::string node_name(uint32_t node) const;
    /// The work name of node `node` when it runs an operator's kernel
    /// (DeviceTask::is_kernel); nothing for any other node.
    std::optional<std::string> kernel_name(uint32_t node) const;
    /// Makes task the work of kernel node `node` in later replays (an
    /// update); the previous task lives until no replay runs it.
    void replace_task(uint32_t node, std::shared_ptr<DeviceTask> task);

    /// Ends a capture without a model (its device is reset): the streams
    /// leave it and the model stays invalid.
    void abandon_capture();
    /// The thread that began the capture.
    std::thread::id owner() const;
    bool is_origin(const Stream& stream) const;
    /// The handles of the streams the capture took, in the order they joined
    /// (aclmdlRIGetStreams).
    std::vector<aclrtStream> streams() const;

    // ---- Build (aclmdlRIBuildBegin .. aclmdlRIBuildEnd; the caller resolved
    // the handles and checked CANN's argument rules).

    /// Binds persistent stream to the model (aclmdlRIBindStream): its work
    /// becomes nodes until the build ends; a head stream starts when a
    /// replay does, any other when a node activates or switches to it.
    /// ACL_ERROR_RT_STREAM_MODEL (reported) once the build has ended.
    aclError bind(const std::shared_ptr<Stream>& stream, bool head);
    /// Forgets stream (aclmdlRIUnbindStream): before the end its work leaves
    /// the model; after it the built graph keeps it.  False if not bound.
    bool unbind(const Stream& stream);
    /// Adds a control node to bound stream: at each replay that reaches it,
    /// decide() chooses among targets.  False when stream is not recording
    /// for this model.
    bool append_control(Stream& stream, Control control, Decide decide, std::vector<JumpTarget> targets,
                        CapturedWork work);
    /// Places label on bound stream (aclrtSetLabel): a node that jumps to
    /// the label lead to.  ACL_ERROR_RT_INTERNAL_ERROR (reported) if the
    /// model placed it already.
    aclError set_label(Stream& stream, const void* label);
    /// Ends the build (aclmdlRIBuildEnd): checks the model has a stream, an
    /// end task and every jump a target, and that its jumps make no loop,
    /// then builds the replay graph; CANN's code, reported, otherwise (the
    /// model then stays unbuilt and cannot run).
    aclError finish_build();

    // ---- Conditional tasks (aclmdlRIAddCondTask).

    /// A branch made for a conditional task of this model: a model whose
    /// capture begins with aclmdlRICaptureToModelRIBegin.
    std::shared_ptr<GraphModel> make_branch();
    /// Keeps handle, made for this model, until the model goes.
    void add_condition(std::shared_ptr<CondHandle> handle);
    /// The conditional tasks' branches, theirs too, all the way down.
    std::vector<std::shared_ptr<GraphModel>> branches() const;
    /// What aclmdlRIExecuteAsync does before it queues a run: the
    /// conditions of the model and its branches take their default values
    /// (CondHandle::assign_default).
    void assign_condition_defaults() const;
    /// True when the model's capture ended well: run_branch runs its graph.
    bool is_runnable() const;
    /// Runs the model's graph as a conditional task's branch, reached in a
    /// replay of its parent, and then delivers done (after failing it with
    /// the run's failure).  A branch that cannot run (never captured, or
    /// its capture failed) runs nothing.  Its parent's replays are one after
    /// another, and so are its runs.
    void run_branch(LateDelivery done);

    // ---- Replay.

    /// Enqueues one run of the graph on stream.
    void enqueue_replay(Stream& stream);
    /// True while a replay is queued or running.
    bool running() const;
    /// Waits up to limit for the model's replays to finish; false if they
    /// have not.
    bool wait_idle(std::chrono::milliseconds limit) const;
    /// Nodes of the replay graph (marker nodes included).
    size_t node_count() const;

    // ---- Names and destroy callbacks.
    void set_name(std::string name);
    std::string name() const;
    /// False when func is registered already (with any userData).
    bool add_destroy_callback(aclrtCallback func, void* userData);
    /// False when func was never registered.
    bool remove_destroy_callback(aclrtCallback func);
    /// Runs the destroy callbacks (aclmdlRIDestroy), each once, in the
    /// ascending order of their functions' addresses as CANN does.
    void run_destroy_callbacks();

    /// The model as aclmdlRIDebugJsonPrint writes it: a Chrome-trace array
    /// with one slice per captured task on its stream's row, its arguments
    /// naming the model, stream, task and task type, and the tasks it
    /// follows.
    std::string describe_json() const;

private:
    struct Node {
        /// nullptr: a marker (event record, label, control).  Read and
        /// replaced atomically: an update may replace it while another stream
        /// replays the model.
        std::shared_ptr<DeviceTask> task;
        Arm arm;                           ///< Set for a late node (no task).
        std::vector<uint32_t> after;       ///< Predecessors, sorted, unique.
        int32_t streamId = 0;
        CapturedWork work;
        // Built models only.
        Control control = Control::kNone;
        Decide decide;                     ///< Set for a control node.
        std::vector<JumpTarget> targets;   ///< What decide() chooses among.
        std::vector<int64_t> targetNodes;  ///< The targets' nodes (-1: an empty stream), at the end of the build.
        int64_t next = -1;                 ///< The next node of the same stream.
        /// The control node whose choice alone leads here (-1: none) and
        /// which choice (a target index; its number of targets for going on).
        int64_t choiceNode = -1;
        int32_t choice = -1;
    };
    /// Where a recording stream stands.
    struct Cursor {
        std::shared_ptr<Stream> stream;
        std::vector<uint32_t> frontier;  ///< What the stream's next node follows.
        int64_t last = -1;               ///< The stream's own last node (-1: none yet).
        int64_t first = -1;              ///< The stream's first node (-1: none yet).
        bool head = true;                ///< A built model's stream that starts with each replay.
    };
    /// The one replay in flight.
    struct Replay {
        LateDelivery done;  ///< The executing stream's place after the run, or a conditional task's gate.
        /// A built model's nodes that control reached in this replay (sized
        /// by finish_build; each is set only by the node's predecessors).
        std::unique_ptr<std::atomic<bool>[]> reached;
        std::atomic<bool> failed{false};
        aclError code = ACL_SUCCESS;  ///< Guarded by failMutex.
        std::string task;             ///< Guarded by failMutex.
        std::string detail;           ///< Guarded by failMutex.
        std::mutex failMutex;
    };
    class StartReplay;
    class LateNodeGate;
    using Gateway = tbb::flow::async_node<tbb::flow::continue_msg, tbb::flow::continue_msg>::gateway_type;

    Cursor* cursor_of(const Stream& stream);  ///< mutex_ held.
    /// Turns the recorded jumps into node indices and edges; why not, or "".  mutex_ held.
    std::string resolve_jumps();
    /// The nodes in an order where each follows its predecessors, recorded
    /// order kept where the edges allow; shorter than nodes_ when the edges
    /// close a cycle.  mutex_ held.
    std::vector<uint32_t> topological_order() const;
    /// Renumbers the nodes in `order` (a permutation).  mutex_ held.
    void renumber(const std::vector<uint32_t>& order);
    /// Notes, for each node, the control choice that alone leads to it
    /// (Node::choiceNode, choice).  Nodes in topological order; mutex_ held.
    void note_choices();
    /// For a built model: whether control reached node index; if it did,
    /// marks what control reaches after it (flow).  Always true otherwise.
    bool reached(uint32_t index) noexcept;
    void follow(uint32_t index, Flow flow) noexcept;
    uint32_t add_node(Cursor& cursor, std::unique_ptr<DeviceTask> task, CapturedWork work);  ///< mutex_ held.
    /// Why a captured stream other than the origin is not joined back to it
    /// (its last node is not followed by the origin's), or "" when all are.
    /// mutex_ held.
    std::string unjoined_stream() const;
    /// Lets the recording streams go and stops counting the model among the
    /// running captures.  mutex_ held.
    void stop_recording();
    /// CANN's task-group rule for work captured on stream while a group is
    /// recorded (Stream::IsTaskGroupBreak and Stream::PackingTaskGroup,
    /// src/runtime/core/src/stream/stream.cc): work on another stream of the
    /// capture is refused with ACL_ERROR_STREAM_TASK_GROUP_INTR, anything
    /// but an operator kernel on the group's stream with
    /// ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT (reported).  A refused task is not
    /// captured; the code is what aclmdlRICaptureTaskGrpEnd returns and the
    /// capture is invalid (Stream::SetTaskGroupErrCode).  mutex_ held.
    aclError admit_to_group(const Stream& stream, bool kernel, const std::string& name);
    /// Breaks the task group being recorded and the capture.  mutex_ held.
    void break_group(aclError code, const std::string& why);
    void build_graph();
    /// Tells observers what the built model holds (on_graph_built).
    void announce_built();
    /// Tells observers of a replay's places on stream (gatePlace: none if
    /// equal to startPlace).
    void announce_replay(Stream& stream, uint64_t gatePlace, uint64_t startPlace) const;
    void start(LateDelivery done);
    void run_node(uint32_t index) noexcept;
    /// A late node reached in a replay: arms it (or passes it, after a failure).
    void arm_node(uint32_t index, Gateway& gateway) noexcept;
    /// Keeps the replay's first failure.
    void note_failure(aclError status, const char* task, std::string detail);
    void finish_replay();

    Device& device_;
    const uint32_t id_;
    aclmdlRICaptureMode mode_;  ///< Set again when a branch's capture begins (begin()).
    const Origin origin_;
    std::thread::id owner_ = std::this_thread::get_id();  ///< Set again by begin().
    mutable std::mutex mutex_;
    Status status_ = Status::kCapturing;
    aclError invalidCode_ = ACL_SUCCESS;
    std::string invalidReason_;
    std::vector<Node> nodes_;
    std::vector<Cursor> cursors_;  ///< [0] is the origin; emptied at the end of the capture.
    const Stream* groupStream_ = nullptr;  ///< The stream recording a task group (nullptr: none).
    std::vector<uint32_t> groupNodes_;
    aclError groupError_ = ACL_SUCCESS;
    std::vector<aclrtStream> streams_;  ///< Every stream the capture took, in join order.
    std::map<const void*, uint32_t> labelNodes_;  ///< Where each label was placed (built models).
    std::vector<uint32_t> entryNodes_;            ///< The head streams' first nodes (built models).
    std::vector<std::shared_ptr<Event>> externalRecords_;
    std::vector<std::shared_ptr<Event>> externalWaits_;
    std::vector<std::shared_ptr<void>> kept_;  ///< See keep_until_destroyed().
    std::vector<std::shared_ptr<CondHandle>> conditions_;  ///< See add_condition().
    bool captureBegun_ = false;
    uint32_t originPriority_ = 0;
    bool counted_ = false;  ///< Counted among the running captures (count_capture).
    std::string name_;
    std::map<aclrtCallback, void*> destroyCallbacks_;
    /// Where the latest replay completes: its lane's progress and count.
    std::shared_ptr<LaneProgress> lastReplayProgress_;
    uint64_t lastReplayCount_ = 0;

    /// Every byte range the nodes touch: what observers see a replay access.
    std::vector<instrument::MemoryAccess> replayAccesses_;
    bool announcedBuilt_ = false;

    std::unique_ptr<tbb::flow::graph> graph_;
    std::unique_ptr<tbb::flow::broadcast_node<tbb::flow::continue_msg>> start_;
    /// The flow-graph nodes: a continue_node per captured task node, a joining
    /// continue_node and an async_node per late one.
    std::vector<std::unique_ptr<tbb::flow::graph_node>> graphNodes_;
    std::unique_ptr<tbb::flow::continue_node<tbb::flow::continue_msg>> sink_;
    Replay replay_;
};

}  // namespace aclcpu::detail
