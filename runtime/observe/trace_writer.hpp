// acl-cpu runtime: TraceWriter, the timeline trace (ACLCPU_TRACE=path.json).
#pragma once

#include "core/internal.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "aclcpu/instrumentation.hpp"

namespace aclcpu::detail {

/// An observer that writes what the host program does as a Chrome
/// trace-event JSON file (Perfetto, chrome://tracing):
///   - process "Host API": a track per host thread, a slice per API call;
///   - process "Device N": a track per stream ("Stream K") with a slice per
///     operator, copy, set, event record, event wait and host call, and a
///     track per device worker ("AI Core worker K") with a slice per block;
///   - flow arrows from each API call to the work it enqueued, and from an
///     event record to the wait it released;
///   - counters: device memory in use, and each stream's queue depth.
///
/// Events are streamed: formatted into a buffer that is written out in
/// chunks, so memory stays bounded by the work in flight, not by the length
/// of the run.  Timestamps are microseconds since the writer was opened
/// (aclInit).  The file is complete JSON once close() has run: at
/// on_finalize, at destruction, or at process exit (atexit); events that
/// arrive later are dropped.
class TraceWriter final : public instrument::Observer {
public:
    /// A writer of a new file at path, or nullptr if it cannot be created.
    static std::shared_ptr<TraceWriter> open(const std::string& path);
    ~TraceWriter() override;
    TraceWriter(const TraceWriter&) = delete;
    TraceWriter& operator=(const TraceWriter&) = delete;

    /// Writes the end of the JSON document and closes the file; idempotent.
    void close();

    void on_api_begin(const char* api) override;
    void on_api_end(const char* api) override;
    void on_submit(int32_t device, instrument::StreamId stream, uint64_t place,
                   const instrument::WorkInfo& work) override;
    void on_work_begin(instrument::StreamId stream, uint64_t place) override;
    void on_work_end(instrument::StreamId stream, uint64_t place) override;
    void on_block_begin(const char* op, int64_t block, int64_t blockDim) override;
    void on_block_end(const char* op, int64_t block, int64_t blockDim) override;
    void on_event_record(instrument::EventId event, instrument::StreamId stream, uint64_t place) override;
    void on_event_wait(instrument::StreamId waiter, uint64_t place, instrument::EventId event) override;
    void on_gate_opened_by(instrument::StreamId stream, uint64_t place, instrument::StreamId by,
                           uint64_t byPlace) override;
    void on_pool_usage(int32_t device, uint64_t bytes) override;
    void on_graph_built(int32_t device, const void* model, const instrument::GraphNodeInfo* nodes,
                        size_t count) override;
    void on_graph_destroyed(const void* model) override;
    void on_graph_node_begin(const void* model, uint32_t node) override;
    void on_graph_node_end(const void* model, uint32_t node) override;
    void on_finalize() override { close(); }

    /// The profiler's annotations of the host program (aclprofMark,
    /// aclprofPush/Pop, aclprofRangeStart/Stop), category "msproftx": an
    /// instant on the calling thread's track; a slice on it from `begin` (a
    /// timestamp()) to now; a range from `begin` to now that may have started
    /// on another thread, drawn as an async slice of the host process.
    double timestamp() const { return now(); }
    void mark_instant(const std::string& message);
    void mark_slice(const std::string& message, double begin);
    void mark_range(uint64_t id, const std::string& message, double begin);

private:
    using Clock = std::chrono::steady_clock;

    /// A track: a (process, thread) pair of the trace.
    struct Track {
        int pid;
        int tid;
    };

    struct StreamState {
        Track track;
        int index;             ///< "Stream <index>"
        uint64_t submitted = 0;
        uint64_t completed = 0;
        double lastBegin = 0;  ///< When the stream's previous item began.
        double lastEnd = 0;    ///< When the stream finished its previous item.
        uint64_t lastGatePlace = 0;  ///< Its latest gate that has opened, and when the stream reached it.
        double lastGateReached = -1;
    };

    /// Where an arrow starts.
    struct FlowStart {
        Track track;
        double at;
    };

    /// A submitted item until it has run.
    struct Pending {
        std::string name;
        std::string category;
        std::string details;
        double submitted;
        double begin = -1;
        uint64_t flow = 0;                          ///< From the submitting API call (0: none).
        instrument::EventId recorded = nullptr;     ///< The event an event_record item records.
        instrument::EventId awaited = nullptr;      ///< The event an event_wait item waits for.
        instrument::StreamId awaitedStream = nullptr;
        uint64_t awaitedPlace = 0;
        std::optional<FlowStart> openedBy = std::nullopt;  ///< A gate another stream's gate opened.
    };

    /// The latest event record that has run.
    struct RecordRun {
        instrument::StreamId stream;
        uint64_t place;
        double begin;
    };

    /// A node of a built graph, and when it last ran.
    struct GraphNode {
        std::string name;
        std::string category;
        std::string details;
        Track track;                 ///< The row of its captured stream.
        std::vector<uint32_t> after;
        double begin = -1;  ///< In its latest replay (-1: not yet run).
    };

    struct ApiFrame {
        const char* api;
        double begin;
    };

    struct BlockFrame {
        double begin;
        Track track;
    };

    struct PlaceKey {
        instrument::StreamId stream;
        uint64_t place;
        bool operator==(const PlaceKey& other) const noexcept {
            return stream == other.stream && place == other.place;
        }
    };
    struct PlaceHash {
        size_t operator()(const PlaceKey& key) const noexcept {
            return std::hash<const void*>()(key.stream) ^ (key.place * 0x9E3779B97F4A7C15ull);
        }
    };

    TraceWriter(std::FILE* file, Clock::time_point epoch);

    double now() const;
    /// Tracks, named with metadata events the first time they are used.
    int device_pid(int32_t device);
    Track host_track();
    Track worker_track(int32_t device, int slot);
    StreamState& stream_state(int32_t device, instrument::StreamId stream);
    void name_process(int pid, const std::string& name);
    void name_thread(const Track& track, const std::string& name, int sortIndex);

    /// When a stream reached its gated place `item`: it waited there from the
    /// end of its previous item (or the submission, if later).  A graph's
    /// place follows its launch, which hands the graph to the flow graph
    /// while it runs: the graph's nodes may start before the launch item
    /// ends, so the graph's span starts with the launch.
    static double gate_reached(const StreamState& stream, const Pending& item) {
        return std::max(item.category == "graph" ? stream.lastBegin : stream.lastEnd, item.submitted);
    }
    /// Emits the slice of a finished item and the flows that end at it.
    void emit_item(const StreamState& stream, const Pending& item, uint64_t place, double begin, double end);
    void emit_queue_depth(const StreamState& stream);

    // Formatting: each appends one event to the buffer.
    void emit_slice(const Track& track, const std::string& name, const char* category, double begin, double end,
                    const std::string& args);
    void emit_flow(char phase, uint64_t id, const Track& track, double at);
    void emit_async(char phase, uint64_t id, const std::string& name, double at);
    void emit_counter(int pid, const std::string& name, const char* series, uint64_t value, double at);
    void emit_metadata(const char* kind, int pid, int tid, const std::string& args);
    void begin_event();
    void flush_if_full();

    std::mutex mutex_;
    std::FILE* file_;
    const Clock::time_point epoch_;
    std::string buffer_;
    bool first_ = true;
    uint64_t nextFlow_ = 0;
    std::unordered_map<int32_t, int> devicePids_;
    std::unordered_map<std::thread::id, int> hostTids_;
    std::unordered_map<std::thread::id, std::vector<ApiFrame>> apiFrames_;
    std::unordered_map<std::thread::id, std::vector<BlockFrame>> blockFrames_;
    std::unordered_set<int64_t> namedWorkers_;  ///< device << 32 | slot
    std::unordered_map<instrument::StreamId, StreamState> streams_;
    std::unordered_map<PlaceKey, Pending, PlaceHash> pending_;
    std::unordered_map<instrument::EventId, PlaceKey> latestRecords_;  ///< Submitted.
    std::unordered_map<instrument::EventId, RecordRun> lastRecords_;   ///< Run.
    std::unordered_map<const void*, std::vector<GraphNode>> graphs_;
    int graphRows_ = 0;
    int graphsBuilt_ = 0;
};

}  // namespace aclcpu::detail
