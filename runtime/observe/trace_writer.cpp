// acl-cpu runtime: TraceWriter.
#include "observe/trace_writer.hpp"

#include "core/schedule_explorer.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>

namespace aclcpu::detail {
namespace {

/// Host API calls in process 1, device N in process N + 2, so that the host
/// sorts first.
constexpr int kHostPid = 1;
constexpr int kDevicePidBase = 2;
/// Stream tracks sort before worker tracks inside a device's process.
constexpr int kStreamTidBase = 1000000;
constexpr int kWorkerTidBase = 1;
constexpr int kGraphTidBase = 2000000;
/// Bytes formatted before they are written out.
constexpr size_t kChunkBytes = 256 * 1024;

/// Writers not yet closed, closed at exit so that a program that never calls
/// aclFinalize still leaves a complete file.
class OpenWriters {
public:
    static OpenWriters& instance() {
        static auto* writers = new OpenWriters;  // Never destroyed: used by the atexit handler.
        return *writers;
    }
    void add(TraceWriter* writer) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!registered_) registered_ = std::atexit([] { instance().close_all(); }) == 0;
        writers_.insert(writer);
    }
    void remove(TraceWriter* writer) {
        std::lock_guard<std::mutex> lock(mutex_);
        writers_.erase(writer);
    }

private:
    void close_all() {
        std::set<TraceWriter*> writers;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            writers.swap(writers_);
        }
        for (TraceWriter* writer : writers) writer->close();
    }

    std::mutex mutex_;
    std::set<TraceWriter*> writers_;
    bool registered_ = false;
};

/// Appends text as the body of a JSON string.
void append_escaped(std::string& out, const char* text) {
    for (const char* c = text; *c != '\0'; ++c) {
        const auto byte = static_cast<unsigned char>(*c);
        if (byte == '"' || byte == '\\') {
            out += '\\';
            out += *c;
        } else if (byte < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", byte);
            out += escaped;
        } else {
            out += *c;
        }
    }
}

void append_number(std::string& out, double microseconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", microseconds);
    out += text;
}

void append_number(std::string& out, uint64_t value) { out += std::to_string(value); }

std::string quoted(const std::string& text) {
    std::string out = "\"";
    append_escaped(out, text.c_str());
    return out + '"';
}

/// How long a gate item kept its stream waiting is the interesting part of
/// it: an event wait until the record ran, a host wait until the host call
/// returned, a library's gate until its peers arrived.
bool is_gate(const std::string& category) {
    return category == "event_wait" || category == "host_wait" || category == "graph" || category == "gate";
}

}  // namespace

std::shared_ptr<TraceWriter> TraceWriter::open(const std::string& path) {
    std::FILE* file = std::fopen(path.c_str(), "w");
    if (file == nullptr) return nullptr;
    std::shared_ptr<TraceWriter> writer(new TraceWriter(file, Clock::now()));
    OpenWriters::instance().add(writer.get());
    return writer;
}

TraceWriter::TraceWriter(std::FILE* file, Clock::time_point epoch) : file_(file), epoch_(epoch) {
    buffer_.reserve(kChunkBytes + 4096);
    // The schedule, so that a timeline of an explored run names its replay.
    buffer_ = "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"producer\":\"acl-cpu\",\"schedule\":" +
              quoted(detail::ScheduleExplorer::current_policy().describe()) + "},\"traceEvents\":[\n";
    name_process(kHostPid, "Host API");
}

TraceWriter::~TraceWriter() {
    OpenWriters::instance().remove(this);
    close();
}

void TraceWriter::close() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (file_ == nullptr) return;
    buffer_ += "\n]}\n";
    std::fwrite(buffer_.data(), 1, buffer_.size(), file_);
    std::fclose(file_);
    file_ = nullptr;
    buffer_.clear();
    buffer_.shrink_to_fit();
    pending_.clear();
}

double TraceWriter::now() const {
    return std::chrono::duration<double, std::micro>(Clock::now() - epoch_).count();
}

// ---- tracks -------------------------------------------------------------

int TraceWriter::device_pid(int32_t device) {
    auto [it, added] = devicePids_.emplace(device, kDevicePidBase + device);
    if (added) name_process(it->second, "Device " + std::to_string(device));
    return it->second;
}

TraceWriter::Track TraceWriter::host_track() {
    auto [it, added] = hostTids_.emplace(std::this_thread::get_id(), static_cast<int>(hostTids_.size()) + 1);
    const Track track{kHostPid, it->second};
    if (added) name_thread(track, "Host thread " + std::to_string(it->second - 1), it->second);
    return track;
}

TraceWriter::Track TraceWriter::worker_track(int32_t device, int slot) {
    const Track track{device_pid(device), kWorkerTidBase + slot};
    if (namedWorkers_.insert((int64_t{device} << 32) | static_cast<uint32_t>(slot)).second) {
        name_thread(track, "AI Core worker " + std::to_string(slot), track.tid);
    }
    return track;
}

TraceWriter::StreamState& TraceWriter::stream_state(int32_t device, instrument::StreamId stream) {
    auto it = streams_.find(stream);
    if (it != streams_.end()) return it->second;
    const int index = static_cast<int>(streams_.size());
    StreamState state{Track{device_pid(device), kStreamTidBase + index}, index};
    // Sort indices below the workers' (tids from 1): streams come first.
    name_thread(state.track, "Stream " + std::to_string(index), index - kStreamTidBase);
    return streams_.emplace(stream, state).first->second;
}

void TraceWriter::name_process(int pid, const std::string& name) {
    emit_metadata("process_name", pid, 0, "\"name\":" + quoted(name));
    emit_metadata("process_sort_index", pid, 0, "\"sort_index\":" + std::to_string(pid));
}

void TraceWriter::name_thread(const Track& track, const std::string& name, int sortIndex) {
    emit_metadata("thread_name", track.pid, track.tid, "\"name\":" + quoted(name));
    emit_metadata("thread_sort_index", track.pid, track.tid, "\"sort_index\":" + std::to_string(sortIndex));
}

// ---- hooks --------------------------------------------------------------

void TraceWriter::on_api_begin(const char* api) {
    const double at = now();
    std::lock_guard<std::mutex> lock(mutex_);
    if (file_ == nullptr) return;
    host_track();
    apiFrames_[std::this_thread::get_id()].push_back(ApiFrame{api, at});
}

void TraceWriter::on_api_end(const char* /*api*/) {
    const double at = now();
    std::lock_guard<std::mutex> lock(mutex_);
    if (file_ == nullptr) return;
    auto it = apiFrames_.find(std::this_thread::get_id());
    if (it == apiFrames_.end() || it->second.empty()) return;
    const ApiFrame frame = it->second.back();
    it->second.pop_back();
    emit_slice(host_track(), frame.api, "api", frame.begin, at, std::string());
    flush_if_full();
}

void TraceWriter::on_submit(int32_t device, instrument::StreamId stream, uint64_t place,
                            const instrument::WorkInfo& work) {
    const double at = now();
    std::lock_guard<std::mutex> lock(mutex_);
    if (file_ == nullptr) return;
    StreamState& state = stream_state(device, stream);
    Pending item{work.name, work.category, work.details, at};
    auto frames = apiFrames_.find(std::this_thread::get_id());
    if (frames != apiFrames_.end() && !frames->second.empty()) {
        item.flow = ++nextFlow_;
        emit_flow('s', item.flow, host_track(), at);
    }
    pending_.insert_or_assign(PlaceKey{stream, place}, std::move(item));
    state.submitted += 1;
    emit_queue_depth(state);
    flush_if_full();
}

void TraceWriter::on_work_begin(instrument::StreamId stream, uint64_t place) {
    const double at = now();
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = pending_.find(PlaceKey{stream, place});
    if (it != pending_.end()) it->second.begin = at;
}

void TraceWriter::on_work_end(instrument::StreamId stream, uint64_t place) {
    const double at = now();
    std::lock_guard<std::mutex> lock(mutex_);
    if (file_ == nullptr) return;
    auto it = pending_.find(PlaceKey{stream, place});
    auto state = streams_.find(stream);
    if (it == pending_.end() || state == streams_.end()) return;
    Pending& item = it->second;
    const double begin = item.begin < 0 ? at : item.begin;
    if (is_gate(item.category)) {
        // The stream sat at the gate from when it got there until it opened.
        const double reached = gate_reached(state->second, item);
        emit_item(state->second, item, place, reached, begin);
        state->second.lastGatePlace = place;
        state->second.lastGateReached = reached;
    } else {
        emit_item(state->second, item, place, begin, at);
    }
    if (item.recorded != nullptr) lastRecords_[item.recorded] = RecordRun{stream, place, begin};
    state->second.lastBegin = begin;
    state->second.lastEnd = at;
    state->second.completed += 1;
    emit_queue_depth(state->second);
    pending_.erase(it);
    flush_if_full();
}

void TraceWriter::on_block_begin(const char* /*op*/, int64_t /*block*/, int64_t /*blockDim*/) {
    const double at = now();
    int32_t device = -1;
    int slot = -1;
    const bool tagged = instrument::calling_worker(device, slot);
    std::lock_guard<std::mutex> lock(mutex_);
    if (file_ == nullptr) return;
    // An untagged thread (a device opened before the writer) gets a host-side track.
    const Track track = tagged ? worker_track(device, slot) : host_track();
    blockFrames_[std::this_thread::get_id()].push_back(BlockFrame{at, track});
}

void TraceWriter::on_block_end(const char* op, int64_t block, int64_t blockDim) {
    const double at = now();
    std::lock_guard<std::mutex> lock(mutex_);
    if (file_ == nullptr) return;
    auto it = blockFrames_.find(std::this_thread::get_id());
    if (it == blockFrames_.end() || it->second.empty()) return;
    const BlockFrame frame = it->second.back();
    it->second.pop_back();
    const std::string args =
        "\"block\":" + std::to_string(block) + ",\"blockDim\":" + std::to_string(blockDim);
    emit_slice(frame.track, op, "block", frame.begin, at, args);
    flush_if_full();
}

void TraceWriter::on_event_record(instrument::EventId event, instrument::StreamId stream, uint64_t place) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = pending_.find(PlaceKey{stream, place});
    if (it != pending_.end()) it->second.recorded = event;
    latestRecords_[event] = PlaceKey{stream, place};
}

void TraceWriter::on_event_wait(instrument::StreamId waiter, uint64_t place, instrument::EventId event) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = pending_.find(PlaceKey{waiter, place});
    if (it == pending_.end()) return;
    auto record = latestRecords_.find(event);
    if (record == latestRecords_.end()) return;
    it->second.awaited = event;
    it->second.awaitedStream = record->second.stream;
    it->second.awaitedPlace = record->second.place;
}

void TraceWriter::on_gate_opened_by(instrument::StreamId stream, uint64_t place, instrument::StreamId by,
                                    uint64_t byPlace) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto opened = pending_.find(PlaceKey{stream, place});
    auto opener = streams_.find(by);
    if (opened == pending_.end() || opener == streams_.end()) return;
    const StreamState& from = opener->second;
    // The opener's own gate may have opened and run first (the last party
    // opens every party's gate, its own among them, in no set order).
    auto opening = pending_.find(PlaceKey{by, byPlace});
    if (opening != pending_.end()) {
        opened->second.openedBy = FlowStart{from.track, gate_reached(from, opening->second)};
    } else if (from.lastGatePlace == byPlace && from.lastGateReached >= 0) {
        opened->second.openedBy = FlowStart{from.track, from.lastGateReached};
    }
}

void TraceWriter::on_pool_usage(int32_t device, uint64_t bytes) {
    const double at = now();
    std::lock_guard<std::mutex> lock(mutex_);
    if (file_ == nullptr) return;
    emit_counter(device_pid(device), "Device memory", "bytes in use", bytes, at);
}

// ---- graphs -------------------------------------------------------------

void TraceWriter::on_graph_built(int32_t device, const void* model, const instrument::GraphNodeInfo* nodes,
                                 size_t count) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (file_ == nullptr) return;
    const int graph = graphsBuilt_++;
    std::unordered_map<int32_t, Track> rows;
    std::vector<GraphNode>& drawn = graphs_[model];
    drawn.clear();
    for (size_t i = 0; i < count; ++i) {
        const instrument::GraphNodeInfo& node = nodes[i];
        auto row = rows.find(node.stream);
        if (row == rows.end()) {
            const Track track{device_pid(device), kGraphTidBase + graphRows_++};
            name_thread(track, "Graph " + std::to_string(graph) + ", stream " + std::to_string(node.stream),
                        track.tid);
            row = rows.emplace(node.stream, track).first;
        }
        drawn.push_back(GraphNode{node.work.name, node.work.category, node.work.details, row->second,
                                  std::vector<uint32_t>(node.after, node.after + node.afterCount)});
    }
    flush_if_full();
}

void TraceWriter::on_graph_destroyed(const void* model) {
    std::lock_guard<std::mutex> lock(mutex_);
    graphs_.erase(model);
}

void TraceWriter::on_graph_node_begin(const void* model, uint32_t node) {
    const double at = now();
    std::lock_guard<std::mutex> lock(mutex_);
    auto graph = graphs_.find(model);
    if (graph != graphs_.end() && node < graph->second.size()) graph->second[node].begin = at;
}

void TraceWriter::on_graph_node_end(const void* model, uint32_t node) {
    const double at = now();
    std::lock_guard<std::mutex> lock(mutex_);
    if (file_ == nullptr) return;
    auto graph = graphs_.find(model);
    if (graph == graphs_.end() || node >= graph->second.size()) return;
    std::vector<GraphNode>& nodes = graph->second;
    const GraphNode& ran = nodes[node];
    const double begin = ran.begin < 0 ? at : ran.begin;
    std::string args = ran.details;
    if (!args.empty()) args += ',';
    args += "\"node\":" + std::to_string(node);
    emit_slice(ran.track, ran.name, ran.category.c_str(), begin, at, args);
    // Dependencies within a captured stream are its row's order; arrows show
    // the ones across streams.
    for (uint32_t before : ran.after) {
        const GraphNode& earlier = nodes[before];
        if (earlier.begin < 0 || earlier.track.tid == ran.track.tid) continue;
        const uint64_t flow = ++nextFlow_;
        emit_flow('s', flow, earlier.track, earlier.begin);
        emit_flow('f', flow, ran.track, begin);
    }
    flush_if_full();
}

// ---- msproftx annotations -----------------------------------------------

void TraceWriter::mark_instant(const std::string& message) {
    const double at = now();
    std::lock_guard<std::mutex> lock(mutex_);
    if (file_ == nullptr) return;
    const Track track = host_track();
    begin_event();
    buffer_ += "{\"ph\":\"i\",\"s\":\"t\",\"name\":";
    buffer_ += quoted(message);
    buffer_ += ",\"cat\":\"msproftx\",\"pid\":";
    buffer_ += std::to_string(track.pid);
    buffer_ += ",\"tid\":";
    buffer_ += std::to_string(track.tid);
    buffer_ += ",\"ts\":";
    append_number(buffer_, at);
    buffer_ += '}';
    flush_if_full();
}

void TraceWriter::mark_slice(const std::string& message, double begin) {
    const double at = now();
    std::lock_guard<std::mutex> lock(mutex_);
    if (file_ == nullptr) return;
    emit_slice(host_track(), message, "msproftx", begin, at, std::string());
    flush_if_full();
}

void TraceWriter::mark_range(uint64_t id, const std::string& message, double begin) {
    const double at = now();
    std::lock_guard<std::mutex> lock(mutex_);
    if (file_ == nullptr) return;
    emit_async('b', id, message, begin);
    emit_async('e', id, message, at);
    flush_if_full();
}

// ---- emission -----------------------------------------------------------

void TraceWriter::emit_item(const StreamState& stream, const Pending& item, uint64_t place, double begin,
                            double end) {
    std::string args = item.details;
    if (!args.empty()) args += ',';
    args += "\"place\":";
    args += std::to_string(place);
    emit_slice(stream.track, item.name, item.category.c_str(), begin, end, args);
    if (item.flow != 0) emit_flow('f', item.flow, stream.track, begin);
    if (item.openedBy) {
        const uint64_t flow = ++nextFlow_;
        emit_flow('s', flow, item.openedBy->track, item.openedBy->at);
        emit_flow('f', flow, stream.track, begin);
    }
    if (item.awaited == nullptr) return;
    auto record = lastRecords_.find(item.awaited);
    if (record == lastRecords_.end() || record->second.stream != item.awaitedStream ||
        record->second.place != item.awaitedPlace) {
        return;  // Recorded again meanwhile: the arrow would point at the wrong record.
    }
    auto recorder = streams_.find(record->second.stream);
    if (recorder == streams_.end()) return;
    const uint64_t flow = ++nextFlow_;
    emit_flow('s', flow, recorder->second.track, record->second.begin);
    emit_flow('f', flow, stream.track, begin);
}

void TraceWriter::emit_queue_depth(const StreamState& stream) {
    emit_counter(stream.track.pid, "Queue depth, Stream " + std::to_string(stream.index), "items",
                 stream.submitted - stream.completed, now());
}

void TraceWriter::begin_event() {
    if (!first_) buffer_ += ",\n";
    first_ = false;
}

void TraceWriter::emit_slice(const Track& track, const std::string& name, const char* category, double begin,
                             double end, const std::string& args) {
    begin_event();
    buffer_ += "{\"ph\":\"X\",\"name\":\"";
    append_escaped(buffer_, name.c_str());
    buffer_ += "\",\"cat\":\"";
    append_escaped(buffer_, category);
    buffer_ += "\",\"pid\":";
    buffer_ += std::to_string(track.pid);
    buffer_ += ",\"tid\":";
    buffer_ += std::to_string(track.tid);
    buffer_ += ",\"ts\":";
    append_number(buffer_, begin);
    buffer_ += ",\"dur\":";
    append_number(buffer_, std::max(end - begin, 0.0));
    buffer_ += ",\"args\":{";
    buffer_ += args;
    buffer_ += "}}";
}

void TraceWriter::emit_flow(char phase, uint64_t id, const Track& track, double at) {
    begin_event();
    buffer_ += "{\"ph\":\"";
    buffer_ += phase;
    buffer_ += "\",\"name\":\"enqueue\",\"cat\":\"flow\",\"id\":";
    append_number(buffer_, id);
    buffer_ += ",\"pid\":";
    buffer_ += std::to_string(track.pid);
    buffer_ += ",\"tid\":";
    buffer_ += std::to_string(track.tid);
    buffer_ += ",\"ts\":";
    append_number(buffer_, at);
    // The arrow ends at the slice that encloses its timestamp.
    if (phase == 'f') buffer_ += ",\"bp\":\"e\"";
    buffer_ += '}';
}

void TraceWriter::emit_async(char phase, uint64_t id, const std::string& name, double at) {
    begin_event();
    buffer_ += "{\"ph\":\"";
    buffer_ += phase;
    buffer_ += "\",\"name\":";
    buffer_ += quoted(name);
    buffer_ += ",\"cat\":\"msproftx\",\"id\":";
    append_number(buffer_, id);
    buffer_ += ",\"pid\":";
    buffer_ += std::to_string(kHostPid);
    buffer_ += ",\"tid\":0,\"ts\":";
    append_number(buffer_, at);
    buffer_ += '}';
}

void TraceWriter::emit_counter(int pid, const std::string& name, const char* series, uint64_t value, double at) {
    begin_event();
    buffer_ += "{\"ph\":\"C\",\"name\":\"";
    append_escaped(buffer_, name.c_str());
    buffer_ += "\",\"pid\":";
    buffer_ += std::to_string(pid);
    buffer_ += ",\"tid\":0,\"ts\":";
    append_number(buffer_, at);
    buffer_ += ",\"args\":{\"";
    buffer_ += series;
    buffer_ += "\":";
    append_number(buffer_, value);
    buffer_ += "}}";
}

void TraceWriter::emit_metadata(const char* kind, int pid, int tid, const std::string& args) {
    begin_event();
    buffer_ += "{\"ph\":\"M\",\"name\":\"";
    buffer_ += kind;
    buffer_ += "\",\"pid\":";
    buffer_ += std::to_string(pid);
    buffer_ += ",\"tid\":";
    buffer_ += std::to_string(tid);
    buffer_ += ",\"args\":{";
    buffer_ += args;
    buffer_ += "}}";
}

void TraceWriter::flush_if_full() {
    if (buffer_.size() < kChunkBytes || file_ == nullptr) return;
    std::fwrite(buffer_.data(), 1, buffer_.size(), file_);
    buffer_.clear();
}

}  // namespace aclcpu::detail
