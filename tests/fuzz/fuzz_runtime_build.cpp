// Fuzzes models built on persistent streams: aclmdlRIBuildBegin,
// aclmdlRIBindStream (head and non-head flags, any flag, ordinary,
// fast-launch, bound, destroyed, never-issued and null streams),
// aclmdlRIEndTask, aclmdlRIBuildEnd, aclmdlRIUnbindStream,
// aclmdlRIExecuteAsync (on ordinary streams, the default stream and the
// model's own persistent streams), aclmdlRIExecute with any timeout and
// aclmdlRIDestroy; the work the bound streams record: asynchronous copies
// and sets, counting tasks (aclcpu::enqueue and aclrtLaunchHostFunc), event
// records and waits between streams; the control flow inside a build:
// aclrtSetLabel, aclrtSwitchLabelByIndex, aclrtSwitchStream,
// aclrtActiveStream over labels and label lists that are live, destroyed or
// never issued and device words (branch indexes, compare operands) that are
// live, past their allocation, host memory, freed or null; and around them
// aclrtCreateLabel / aclrtDestroyLabel, aclrtCreateLabelList /
// aclrtDestroyLabelList, streams created with ACL_STREAM_PERSISTENT or
// without, their synchronisation, queries, aclrtPersistentTaskClean and
// destruction, events, and device synchronisation.
//
// Beyond the shared invariant (fuzz_runtime_support.hpp), every failure's
// code is one of kCodes, and:
//   - the build calls accept exactly what CANN's rules accept (the target
//     keeps which stream is bound to which model and which builds have
//     ended): a bind, end task, unbind, aclrtPersistentTaskClean, execution
//     or destruction succeeds if and only if its arguments allow it; work
//     on a persistent stream succeeds only while it records for a build;
//     a control task only on a stream bound to a model being built;
//   - a counting task on an ordinary stream runs exactly once; one recorded
//     into a model whose build has no control task (label, switch,
//     activation) runs once per accepted execution when it lies on a head
//     stream before that stream's end task, and never otherwise; in a model
//     with control tasks every counting task runs at most once per
//     execution; a refused task never runs;
//   - at the end of every input every stream is synchronised, every model
//     destroyed (which must succeed), every stream destroyed, and
//     aclrtSynchronizeDevice succeeds.
// Nothing can hang: no wait in an input depends on work submitted after it,
// a model's replays run in the order they were submitted, and every wait
// the target makes is bounded (aclmdlRIExecute and stream synchronisation
// with a timeout of -1 only where the work is known to finish).
#include <algorithm>
#include <atomic>
#include <climits>
#include <cstring>
#include <deque>
#include <memory>
#include <vector>

#include "aclcpu/device_task.hpp"
#include "fuzz_runtime_support.hpp"

using namespace aclcpu::fuzz;

namespace {

constexpr int kMaxCalls = 48;
constexpr size_t kMaxStreams = 8;
constexpr size_t kMaxModels = 4;
constexpr size_t kMaxEvents = 5;
constexpr size_t kMaxLabels = 6;
constexpr size_t kMaxLists = 3;
constexpr size_t kWords = 4;  ///< Device words of 8 bytes: branch indexes and compare operands.
constexpr size_t kWordsBlock = (kWords * sizeof(uint64_t) + 31) / 32 * 32 + 32;  ///< What aclrtMalloc makes usable.
constexpr size_t kDataBytes = 256;
constexpr uint32_t kHead = 0;               // ACL_MODEL_STREAM_FLAG_HEAD
constexpr uint32_t kActivated = 0x7FFFFFFF;  // ACL_MODEL_STREAM_FLAG_DEFAULT

/// The codes the build calls and their neighbours answer (docs/graph_capture.md).
constexpr aclError kCodes[] = {
    ACL_ERROR_INVALID_PARAM,            // null or malformed arguments, dead device words
    ACL_ERROR_RT_PARAM_INVALID,         // executing on a persistent stream
    ACL_ERROR_RT_INVALID_HANDLE,        // dead streams, models, events and labels (CANN's handle check)
    ACL_ERROR_RT_STREAM_MODEL,          // a stream or model in the wrong build state
    ACL_ERROR_RT_CAPTURE_DEPENDENCY,    // a bound stream waits for an event recorded outside the build
    ACL_ERROR_STREAM_CAPTURE_CONFLICT,  // an event of one build meets a stream outside it
    ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,  // ... and that stream is the default stream
    ACL_ERROR_RT_FEATURE_NOT_SUPPORT,   // a loop; a fast-launch stream
    ACL_ERROR_RT_INTERNAL_ERROR,        // a label set twice, a jump to a label no stream sets
    ACL_ERROR_RT_MODEL_EXECUTE,         // a build without an end task; executing an open build
    ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,  // ending a build a conflict invalidated
    ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,   // a short timeout
};

template <class Call>
aclError call(const char* api, Call&& function) {
    clear_error_message();
    return expect_status_among(api, static_cast<aclError>(function()), kCodes);
}

struct ModelRecord;

struct StreamRecord {
    aclrtStream handle = nullptr;
    uint32_t flags = 0;
    ModelRecord* bound = nullptr;  ///< The model it is bound to (built or not).

    bool persistent() const { return (flags & ACL_STREAM_PERSISTENT) != 0; }
    bool bindable() const { return persistent() && (flags & ACL_STREAM_FAST_LAUNCH) == 0 && bound == nullptr; }
};

/// A stream bound to a model and the counting tasks it recorded there.
struct Binding {
    aclrtStream stream = nullptr;  ///< nullptr once destroyed: the model keeps its part.
    bool head = true;
    uint64_t tasks = 0;
    uint64_t beforeEnd = 0;  ///< Tasks before the stream's first end task.
    bool ended = false;
};

struct ModelRecord {
    aclmdlRI handle = nullptr;
    bool built = false;
    bool control = false;  ///< A label, switch or activation was recorded.
    bool conflicted = false;  ///< Open when an event met a stream outside its build: may be invalid.
    uint64_t endTasks = 0;
    std::vector<Binding> bindings;  ///< Bound now; a build that ends takes their tasks.
    uint64_t exact = 0;             ///< Runs per execution without control (fixed at the end).
    uint64_t most = 0;              ///< Runs per execution at most.
    uint64_t executions = 0;        ///< Executions accepted.
    std::atomic<uint64_t>* runs = nullptr;
};

/// What a word argument points to: a live device word, or something a
/// control task must refuse.
enum class WordKind { live, tail, host, freed, null };

class BuildFuzz {
public:
    explicit BuildFuzz(Decoder& in);
    ~BuildFuzz();
    BuildFuzz(const BuildFuzz&) = delete;
    BuildFuzz& operator=(const BuildFuzz&) = delete;

    void call_next();

private:
    StreamRecord* find_stream(aclrtStream handle);
    ModelRecord* find_model(aclmdlRI handle);
    ModelRecord* building_model_of(aclrtStream handle);
    Binding* binding_of(ModelRecord& model, aclrtStream stream);
    bool takes_work(aclrtStream handle);
    aclrtStream decode_stream();
    aclmdlRI decode_model();
    aclrtLabel decode_label();
    aclrtLabelList decode_list();
    aclrtEvent decode_event();
    void* decode_word(WordKind& kind);
    void* decode_region(bool destination, size_t& room);
    std::atomic<uint64_t>& new_counter();
    void add_stream(uint32_t flags);
    void settle();
    void check_runs(const ModelRecord& model);

    void build_begin();
    void bind();
    void counting_task();
    void memcpy_async();
    void memset_async();
    void record_event();
    void wait_event();
    void set_label();
    void switch_by_index();
    void switch_stream();
    void active_stream();
    void end_task();
    void build_end();
    void note_conflict(aclError status);
    void unbind();
    void execute_async();
    void execute();
    void destroy_model();
    void destroy(ModelRecord& model);
    void label_control();
    void write_word();
    void stream_control();
    void event_control();
    void device_sync();

    Decoder& in_;
    std::vector<StreamRecord> streams_;
    std::vector<aclrtStream> staleStreams_;
    std::vector<std::unique_ptr<ModelRecord>> models_;
    std::vector<aclmdlRI> staleModels_;
    std::vector<aclrtEvent> events_;
    std::vector<aclrtEvent> staleEvents_;
    std::vector<aclrtLabel> labels_;
    std::vector<aclrtLabel> staleLabels_;
    std::vector<aclrtLabelList> lists_;
    std::vector<size_t> listSizes_;  ///< Parallel to lists_.
    std::vector<aclrtLabelList> staleLists_;
    uint64_t* words_ = nullptr;
    unsigned char* data_ = nullptr;
    unsigned char* pinned_ = nullptr;
    void* freed_ = nullptr;  ///< Device memory freed before the input began.
    std::vector<unsigned char> pageable_;
    std::deque<std::atomic<uint64_t>> counters_;  ///< Stable addresses, alive until every model is gone.
    std::atomic<uint64_t>& eager_;                ///< Runs of the tasks on ordinary streams.
    std::atomic<uint64_t>& refused_;              ///< Runs of the tasks a call refused: none.
    uint64_t eagerExpected_ = 0;
};

BuildFuzz::BuildFuzz(Decoder& in)
    : in_(in), pageable_(kDataBytes, 0), eager_(new_counter()), refused_(new_counter()) {
    for (int i = 0; i < 3; ++i) add_stream(ACL_STREAM_PERSISTENT);
    for (int i = 0; i < 2; ++i) add_stream(0);
    for (int i = 0; i < 2; ++i) {
        aclrtEvent event = nullptr;
        const aclError status = i == 0 ? aclrtCreateEventExWithFlag(&event, ACL_EVENT_SYNC) : aclrtCreateEvent(&event);
        if (status != ACL_SUCCESS) fail("creating an event failed");
        events_.push_back(event);
    }
    for (int i = 0; i < 2; ++i) {
        aclrtLabel label = nullptr;
        if (aclrtCreateLabel(&label) != ACL_SUCCESS) fail("aclrtCreateLabel failed: %s", aclGetRecentErrMsg());
        labels_.push_back(label);
    }
    aclrtLabelList list = nullptr;
    if (aclrtCreateLabelList(labels_.data(), labels_.size(), &list) != ACL_SUCCESS) fail("aclrtCreateLabelList failed");
    lists_.push_back(list);
    listSizes_.push_back(labels_.size());
    void* memory = nullptr;
    if (aclrtMalloc(&memory, kWords * sizeof(uint64_t), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) fail("aclrtMalloc failed");
    words_ = static_cast<uint64_t*>(memory);
    if (aclrtMalloc(&memory, kDataBytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) fail("aclrtMalloc failed");
    data_ = static_cast<unsigned char*>(memory);
    if (aclrtMallocHost(&memory, kDataBytes) != ACL_SUCCESS) fail("aclrtMallocHost failed");
    pinned_ = static_cast<unsigned char*>(memory);
    const uint64_t zeros[kWords] = {};
    if (aclrtMemcpy(words_, sizeof zeros, zeros, sizeof zeros, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
        fail("aclrtMemcpy failed");
    }
    // The last allocation of the input: nothing can take its address again before the input ends.
    if (aclrtMalloc(&freed_, 64, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS || aclrtFree(freed_) != ACL_SUCCESS) {
        fail("aclrtMalloc / aclrtFree failed");
    }
    // One build open from the start: most inputs bind and record at once.
    auto model = std::make_unique<ModelRecord>();
    if (aclmdlRIBuildBegin(&model->handle, 0) != ACL_SUCCESS) fail("aclmdlRIBuildBegin failed: %s", aclGetRecentErrMsg());
    model->runs = &new_counter();
    models_.push_back(std::move(model));
}

/// Synchronises every stream, destroys every model (checking the counts),
/// lets the device settle, and frees everything.
BuildFuzz::~BuildFuzz() {
    for (const StreamRecord& stream : streams_) synchronize_bounded(stream.handle);
    synchronize_bounded(nullptr);
    while (!models_.empty()) destroy(*models_.back());
    expect_device_settles();
    if (eager_.load() != eagerExpected_) {
        fail("counting tasks on ordinary streams ran %llu times, expected %llu",
             static_cast<unsigned long long>(eager_.load()), static_cast<unsigned long long>(eagerExpected_));
    }
    if (refused_.load() != 0) fail("refused counting tasks ran %llu times", static_cast<unsigned long long>(refused_.load()));
    for (const StreamRecord& stream : streams_) {
        if (aclrtDestroyStream(stream.handle) != ACL_SUCCESS) fail("aclrtDestroyStream failed: %s", aclGetRecentErrMsg());
    }
    for (aclrtEvent event : events_) {
        if (aclrtDestroyEvent(event) != ACL_SUCCESS) fail("aclrtDestroyEvent failed: %s", aclGetRecentErrMsg());
    }
    for (aclrtLabelList list : lists_) {
        if (aclrtDestroyLabelList(list) != ACL_SUCCESS) fail("aclrtDestroyLabelList failed: %s", aclGetRecentErrMsg());
    }
    for (aclrtLabel label : labels_) {
        if (aclrtDestroyLabel(label) != ACL_SUCCESS) fail("aclrtDestroyLabel failed: %s", aclGetRecentErrMsg());
    }
    if (aclrtFree(words_) != ACL_SUCCESS || aclrtFree(data_) != ACL_SUCCESS) fail("aclrtFree failed");
    if (aclrtFreeHost(pinned_) != ACL_SUCCESS) fail("aclrtFreeHost failed");
    clear_error_message();
}

// ---- Bookkeeping and decoding ----------------------------------------------------------

std::atomic<uint64_t>& BuildFuzz::new_counter() { return counters_.emplace_back(0); }

void BuildFuzz::add_stream(uint32_t flags) {
    aclrtStream stream = nullptr;
    const aclError status = flags == 0 ? aclrtCreateStream(&stream) : aclrtCreateStreamWithConfig(&stream, 0, flags);
    if (status != ACL_SUCCESS) fail("creating a stream with flags 0x%x failed: %s", flags, aclGetRecentErrMsg());
    forget_handle(staleStreams_, stream);
    streams_.push_back(StreamRecord{stream, flags, nullptr});
}

StreamRecord* BuildFuzz::find_stream(aclrtStream handle) {
    for (StreamRecord& stream : streams_) {
        if (handle != nullptr && stream.handle == handle) return &stream;
    }
    return nullptr;
}

ModelRecord* BuildFuzz::find_model(aclmdlRI handle) {
    for (auto& model : models_) {
        if (handle != nullptr && model->handle == handle) return model.get();
    }
    return nullptr;
}

/// The model a live stream records for: bound to it, build not ended.
ModelRecord* BuildFuzz::building_model_of(aclrtStream handle) {
    const StreamRecord* stream = find_stream(handle);
    return stream != nullptr && stream->bound != nullptr && !stream->bound->built ? stream->bound : nullptr;
}

Binding* BuildFuzz::binding_of(ModelRecord& model, aclrtStream stream) {
    for (Binding& binding : model.bindings) {
        if (stream != nullptr && binding.stream == stream) return &binding;
    }
    fail("stream %p is bound to model %p, which has no binding of it", stream, model.handle);
}

/// Whether stream may take work: the default stream, a live ordinary
/// stream, a persistent one that records for a build.
bool BuildFuzz::takes_work(aclrtStream handle) {
    if (handle == nullptr) return true;
    const StreamRecord* stream = find_stream(handle);
    return stream != nullptr && (!stream->persistent() || building_model_of(handle) != nullptr);
}

aclrtStream BuildFuzz::decode_stream() {
    std::vector<aclrtStream> live;
    for (const StreamRecord& stream : streams_) live.push_back(stream.handle);
    return decode_handle(in_, live, staleStreams_);
}

aclmdlRI BuildFuzz::decode_model() {
    std::vector<aclmdlRI> live;
    for (const auto& model : models_) live.push_back(model->handle);
    return decode_handle(in_, live, staleModels_);
}

aclrtLabel BuildFuzz::decode_label() { return decode_handle(in_, labels_, staleLabels_); }

aclrtLabelList BuildFuzz::decode_list() { return decode_handle(in_, lists_, staleLists_); }

aclrtEvent BuildFuzz::decode_event() { return decode_handle(in_, events_, staleEvents_); }

void* BuildFuzz::decode_word(WordKind& kind) {
    const uint8_t choice = in_.byte() % 10;
    kind = choice < 5 ? WordKind::live : WordKind::host;
    switch (choice) {
        case 4: return data_;
        case 5:
            // Two bytes before the end of the words' block: CANN's rounded
            // size (32 bytes rounded up to 32, plus 32 of padding) is usable.
            kind = WordKind::tail;
            return reinterpret_cast<unsigned char*>(words_) + kWordsBlock - 2;
        case 6: return pinned_;
        case 7: return pageable_.data();
        case 8:
            kind = WordKind::freed;
            return freed_;
        case 9:
            kind = WordKind::null;
            return nullptr;
        default: return words_ + choice;
    }
}

/// A copy or set region: the device data, the device words (a source
/// only: replays read them as branch indexes), pinned or pageable host
/// memory; at an offset, with the bytes left after it.
void* BuildFuzz::decode_region(bool destination, size_t& room) {
    const uint8_t which = in_.byte() % (destination ? 3 : 4);
    unsigned char* base = nullptr;
    size_t size = kDataBytes;
    switch (which) {
        case 0: base = data_; break;
        case 1: base = pinned_; break;
        case 2: base = pageable_.data(); break;
        default:
            base = reinterpret_cast<unsigned char*>(words_);
            size = kWords * sizeof(uint64_t);
            break;
    }
    const size_t offset = in_.bit() ? 0 : in_.byte() % size;
    room = size - offset;
    return base + offset;
}

/// Lets the work already submitted to the ordinary streams finish, so a
/// device word written now is read by later executions only.
void BuildFuzz::settle() {
    for (const StreamRecord& stream : streams_) {
        if (!stream.persistent()) synchronize_bounded(stream.handle);
    }
    synchronize_bounded(nullptr);
}

/// A destroyed model's counting tasks ran as its build decided.
void BuildFuzz::check_runs(const ModelRecord& model) {
    const auto runs = static_cast<unsigned long long>(model.runs->load());
    const auto executions = static_cast<unsigned long long>(model.executions);
    if (!model.built) {
        if (runs != 0) fail("the counting tasks of model %p, never built, ran %llu times", model.handle, runs);
    } else if (!model.control) {
        if (runs != model.exact * executions) {
            fail("the counting tasks of model %p (no control task) ran %llu times, expected %llu per execution x %llu "
                 "executions",
                 model.handle, runs, static_cast<unsigned long long>(model.exact), executions);
        }
    } else if (runs > model.most * executions) {
        fail("the counting tasks of model %p ran %llu times, more than its %llu tasks x %llu executions", model.handle,
             runs, static_cast<unsigned long long>(model.most), executions);
    }
}

// ---- Calls -----------------------------------------------------------------------------

void BuildFuzz::call_next() {
    switch (in_.byte() % 26) {
        case 0:
        case 1: bind(); break;
        case 2: build_begin(); break;
        case 3:
        case 4: counting_task(); break;
        case 5: memcpy_async(); break;
        case 6: memset_async(); break;
        case 7: record_event(); break;
        case 8: wait_event(); break;
        case 9: set_label(); break;
        case 10: switch_by_index(); break;
        case 11: switch_stream(); break;
        case 12: active_stream(); break;
        case 13: end_task(); break;
        case 14:
        case 15: build_end(); break;
        case 16: unbind(); break;
        case 17:
        case 18: execute_async(); break;
        case 19: execute(); break;
        case 20: destroy_model(); break;
        case 21: label_control(); break;
        case 22: write_word(); break;
        case 23: stream_control(); break;
        case 24: event_control(); break;
        default: device_sync(); break;
    }
}

void BuildFuzz::build_begin() {
    if (models_.size() >= kMaxModels) return;
    const uint32_t flag = in_.rare() ? 1u + in_.byte() : 0u;
    aclmdlRI model = nullptr;
    aclmdlRI* out = in_.rare() ? nullptr : &model;
    const bool valid = flag == 0 && out != nullptr;
    if ((call("aclmdlRIBuildBegin", [&] { return aclmdlRIBuildBegin(out, flag); }) == ACL_SUCCESS) != valid) {
        fail("aclmdlRIBuildBegin(%p, %u) %s", static_cast<void*>(out), flag, valid ? "failed" : "succeeded");
    }
    if (!valid) return;
    if (model == nullptr || find_model(model) != nullptr) fail("aclmdlRIBuildBegin handed out %p", model);
    forget_handle(staleModels_, model);
    auto record = std::make_unique<ModelRecord>();
    record->handle = model;
    record->runs = &new_counter();
    models_.push_back(std::move(record));
}

void BuildFuzz::bind() {
    const aclmdlRI model = decode_model();
    const aclrtStream stream = decode_stream();
    const uint32_t flag = in_.bit() ? kHead : (in_.bit() ? kActivated : static_cast<uint32_t>(in_.word()));
    ModelRecord* record = find_model(model);
    StreamRecord* target = find_stream(stream);
    const bool valid = record != nullptr && !record->built && target != nullptr && target->bindable();
    const aclError status = call("aclmdlRIBindStream", [&] { return aclmdlRIBindStream(model, stream, flag); });
    if ((status == ACL_SUCCESS) != valid) {
        fail("aclmdlRIBindStream(%p, %p, 0x%x) answered %d; CANN %s it", model, stream, flag, status,
             valid ? "accepts" : "refuses");
    }
    if (!valid) return;
    record->bindings.push_back(Binding{stream, flag == kHead});
    target->bound = record;
}

/// A counting task on any stream: run at once on an ordinary stream,
/// recorded on a stream bound to a build, refused elsewhere.
void BuildFuzz::counting_task() {
    const aclrtStream stream = decode_stream();
    const bool hostFunc = in_.bit();
    ModelRecord* model = building_model_of(stream);
    const bool valid = takes_work(stream);
    std::atomic<uint64_t>& runs = !valid ? refused_ : model != nullptr ? *model->runs : eager_;
    const aclError status =
        hostFunc ? call("aclrtLaunchHostFunc", [&] { return aclrtLaunchHostFunc(stream, count_host_run, &runs); })
                 : call("aclcpu::enqueue", [&] { return aclcpu::enqueue(stream, std::make_unique<RunCountingTask>(runs)); });
    if ((status == ACL_SUCCESS) != valid) {
        fail("a counting task on stream %p answered %d; it %s take work", stream, status, valid ? "may" : "may not");
    }
    if (!valid) return;
    if (model == nullptr) {
        ++eagerExpected_;
        return;
    }
    Binding* binding = binding_of(*model, stream);
    ++binding->tasks;
    if (!binding->ended) ++binding->beforeEnd;
}

void BuildFuzz::memcpy_async() {
    size_t dstRoom = 0;
    size_t srcRoom = 0;
    void* dst = decode_region(true, dstRoom);
    const void* src = decode_region(false, srcRoom);
    const size_t fits = std::min(dstRoom, srcRoom);
    const bool tooMany = in_.rare();
    const size_t count = tooMany ? fits + 1 : (in_.bit() ? in_.byte() % (fits + 1) : fits);
    const size_t destMax = tooMany ? fits : dstRoom;
    const auto kind = static_cast<aclrtMemcpyKind>(decode_code(in_, 0, 4));
    const aclrtStream stream = decode_stream();
    if (call("aclrtMemcpyAsync", [&] { return aclrtMemcpyAsync(dst, destMax, src, count, kind, stream); }) ==
            ACL_SUCCESS &&
        !takes_work(stream)) {
        fail("aclrtMemcpyAsync accepted stream %p, which takes no work", stream);
    }
}

void BuildFuzz::memset_async() {
    size_t room = 0;
    void* dst = decode_region(true, room);
    const size_t count = in_.bit() ? in_.byte() % (room + 1) : room;
    const size_t maxCount = in_.rare() ? (count == 0 ? 0 : count - 1) : room;
    const auto value = static_cast<int32_t>(in_.byte());
    const aclrtStream stream = decode_stream();
    if (call("aclrtMemsetAsync", [&] { return aclrtMemsetAsync(dst, maxCount, value, count, stream); }) ==
            ACL_SUCCESS &&
        !takes_work(stream)) {
        fail("aclrtMemsetAsync accepted stream %p, which takes no work", stream);
    }
}

void BuildFuzz::record_event() {
    const aclrtEvent event = decode_event();
    const aclrtStream stream = decode_stream();
    const aclError status = call("aclrtRecordEvent", [&] { return aclrtRecordEvent(event, stream); });
    if (status == ACL_SUCCESS && !takes_work(stream)) fail("aclrtRecordEvent accepted stream %p, which takes no work", stream);
    note_conflict(status);
}

/// A conflict invalidates the build that recorded the event and the one the
/// stream belongs to; the target does not follow which build recorded an
/// event, so every open build may now end invalid.
void BuildFuzz::note_conflict(aclError status) {
    if (status != ACL_ERROR_STREAM_CAPTURE_CONFLICT) return;
    for (auto& model : models_) {
        if (!model->built) model->conflicted = true;
    }
}

void BuildFuzz::wait_event() {
    const aclrtStream stream = decode_stream();
    const aclrtEvent event = decode_event();
    aclError status = ACL_SUCCESS;
    if (in_.bit()) {
        status = call("aclrtStreamWaitEvent", [&] { return aclrtStreamWaitEvent(stream, event); });
    } else {
        const int32_t timeout = in_.bit() ? 0 : (in_.bit() ? -1 : in_.byte());
        status = call("aclrtStreamWaitEventWithTimeout",
                      [&] { return aclrtStreamWaitEventWithTimeout(stream, event, timeout); });
    }
    if (status == ACL_SUCCESS && !takes_work(stream)) fail("an event wait accepted stream %p, which takes no work", stream);
    note_conflict(status);
}

void BuildFuzz::set_label() {
    const aclrtLabel label = decode_label();
    const aclrtStream stream = decode_stream();
    if (call("aclrtSetLabel", [&] { return aclrtSetLabel(label, stream); }) != ACL_SUCCESS) return;
    ModelRecord* model = building_model_of(stream);
    if (model == nullptr) fail("aclrtSetLabel accepted stream %p, which records for no build", stream);
    if (std::find(labels_.begin(), labels_.end(), label) == labels_.end()) fail("aclrtSetLabel accepted label %p", label);
    model->control = true;
}

void BuildFuzz::switch_by_index() {
    WordKind kind = WordKind::live;
    void* index = decode_word(kind);
    const aclrtLabelList list = decode_list();
    const uint32_t maxValue = in_.rare() ? static_cast<uint32_t>(in_.word()) : in_.byte() % 5;
    const aclrtStream stream = decode_stream();
    if (call("aclrtSwitchLabelByIndex", [&] { return aclrtSwitchLabelByIndex(index, maxValue, list, stream); }) !=
        ACL_SUCCESS) {
        return;
    }
    ModelRecord* model = building_model_of(stream);
    if (model == nullptr) fail("aclrtSwitchLabelByIndex accepted stream %p, which records for no build", stream);
    if (kind != WordKind::live) fail("aclrtSwitchLabelByIndex accepted index %p, not a live device word", index);
    const auto at = std::find(lists_.begin(), lists_.end(), list);
    if (at == lists_.end()) fail("aclrtSwitchLabelByIndex accepted label list %p", list);
    const size_t size = listSizes_[static_cast<size_t>(at - lists_.begin())];
    if (maxValue == 0 || maxValue > size) fail("aclrtSwitchLabelByIndex accepted maxValue %u for %zu labels", maxValue, size);
    model->control = true;
}

void BuildFuzz::switch_stream() {
    WordKind leftKind = WordKind::live;
    WordKind rightKind = WordKind::live;
    void* left = decode_word(leftKind);
    void* right = decode_word(rightKind);
    const int32_t cond = decode_code(in_, ACL_RT_EQUAL, ACL_RT_LESS_OR_EQUAL);
    const int32_t type = decode_code(in_, ACL_RT_SWITCH_INT32, ACL_RT_SWITCH_INT64);
    const aclrtStream trueStream = decode_stream();
    const aclrtStream falseStream = in_.rare() ? decode_stream() : nullptr;
    const aclrtStream stream = decode_stream();
    if (call("aclrtSwitchStream", [&] {
            return aclrtSwitchStream(left, static_cast<aclrtCondition>(cond), right,
                                     static_cast<aclrtCompareDataType>(type), trueStream, falseStream, stream);
        }) != ACL_SUCCESS) {
        return;
    }
    ModelRecord* model = building_model_of(stream);
    if (model == nullptr || building_model_of(trueStream) != model) {
        fail("aclrtSwitchStream accepted streams %p -> %p, not bound to one build", stream, trueStream);
    }
    if (leftKind != WordKind::live || rightKind != WordKind::live) {
        fail("aclrtSwitchStream accepted operands %p and %p, not live device words", left, right);
    }
    if (falseStream != nullptr || cond < ACL_RT_EQUAL || cond > ACL_RT_LESS_OR_EQUAL || type < ACL_RT_SWITCH_INT32 ||
        type > ACL_RT_SWITCH_INT64) {
        fail("aclrtSwitchStream accepted falseStream %p, cond %d, dataType %d", falseStream, cond, type);
    }
    model->control = true;
}

void BuildFuzz::active_stream() {
    const aclrtStream activated = decode_stream();
    const aclrtStream stream = decode_stream();
    if (call("aclrtActiveStream", [&] { return aclrtActiveStream(activated, stream); }) != ACL_SUCCESS) return;
    ModelRecord* model = building_model_of(stream);
    if (model == nullptr || building_model_of(activated) != model) {
        fail("aclrtActiveStream accepted streams %p -> %p, not bound to one build", stream, activated);
    }
    model->control = true;
}

void BuildFuzz::end_task() {
    const aclmdlRI model = decode_model();
    const aclrtStream stream = decode_stream();
    ModelRecord* record = find_model(model);
    const StreamRecord* target = find_stream(stream);
    const bool valid = record != nullptr && !record->built && target != nullptr && target->bound == record;
    const aclError status = call("aclmdlRIEndTask", [&] { return aclmdlRIEndTask(model, stream); });
    if ((status == ACL_SUCCESS) != valid) {
        fail("aclmdlRIEndTask(%p, %p) answered %d; CANN %s it", model, stream, status, valid ? "accepts" : "refuses");
    }
    if (!valid) return;
    ++record->endTasks;
    binding_of(*record, stream)->ended = true;
}

/// Ends a build: without control tasks it must succeed exactly when the
/// model has a stream and an end task; with them (a jump to a label no
/// stream sets, a loop) or after a conflict it may fail too.
void BuildFuzz::build_end() {
    const aclmdlRI model = decode_model();
    void* reserve = in_.rare() ? pageable_.data() : nullptr;
    ModelRecord* record = find_model(model);
    const bool ready = record != nullptr && !record->built && reserve == nullptr && !record->bindings.empty() &&
                       record->endTasks > 0;
    const aclError status = call("aclmdlRIBuildEnd", [&] { return aclmdlRIBuildEnd(model, reserve); });
    if (status == ACL_SUCCESS && !ready) fail("aclmdlRIBuildEnd(%p) succeeded on a model not ready to end", model);
    if (status == ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED && (record == nullptr || !record->conflicted)) {
        fail("aclmdlRIBuildEnd(%p) called a build invalid that no conflict touched", model);
    }
    if (status != ACL_SUCCESS && ready && !record->control && !record->conflicted) {
        fail("aclmdlRIBuildEnd(%p) answered %d for a model with streams, an end task and no control task", model,
             status);
    }
    if (status != ACL_SUCCESS) return;
    record->built = true;
    for (const Binding& binding : record->bindings) {
        if (binding.head) record->exact += binding.beforeEnd;
        record->most += binding.tasks;
    }
}

void BuildFuzz::unbind() {
    const aclmdlRI model = decode_model();
    const aclrtStream stream = decode_stream();
    ModelRecord* record = find_model(model);
    StreamRecord* target = find_stream(stream);
    const bool valid = record != nullptr && target != nullptr && target->bound == record;
    const aclError status = call("aclmdlRIUnbindStream", [&] { return aclmdlRIUnbindStream(model, stream); });
    if ((status == ACL_SUCCESS) != valid) {
        fail("aclmdlRIUnbindStream(%p, %p) answered %d; CANN %s it", model, stream, status,
             valid ? "accepts" : "refuses");
    }
    if (!valid) return;
    // Before the end the stream's work leaves the model; after it the built graph keeps it.
    auto& bindings = record->bindings;
    bindings.erase(std::find_if(bindings.begin(), bindings.end(), [&](const Binding& b) { return b.stream == stream; }));
    target->bound = nullptr;
}

void BuildFuzz::execute_async() {
    const aclmdlRI model = decode_model();
    const aclrtStream stream = decode_stream();
    ModelRecord* record = find_model(model);
    const StreamRecord* target = find_stream(stream);
    const bool ordinary = stream == nullptr || (target != nullptr && !target->persistent());
    const bool valid = record != nullptr && record->built && ordinary;
    const aclError status = call("aclmdlRIExecuteAsync", [&] { return aclmdlRIExecuteAsync(model, stream); });
    if ((status == ACL_SUCCESS) != valid) {
        fail("aclmdlRIExecuteAsync(%p, %p) answered %d; CANN %s it", model, stream, status,
             valid ? "accepts" : "refuses");
    }
    if (valid) ++record->executions;
}

/// aclmdlRIExecute: on the default stream, waiting up to timeout.  A
/// short timeout may expire; the execution still runs.
void BuildFuzz::execute() {
    const aclmdlRI model = decode_model();
    int32_t timeout = kSettleTimeoutMs;
    switch (in_.byte() % 6) {
        case 0: timeout = -1; break;
        case 1: timeout = 1 + in_.byte() % 3; break;
        case 2: timeout = 0; break;
        case 3: timeout = in_.bit() ? -2 : INT32_MIN; break;
        case 4: timeout = static_cast<int32_t>(in_.word()); break;
        default: break;
    }
    const bool mustFinish = timeout >= kSettleTimeoutMs || timeout == -1;  // Long enough: a timeout is a hang.
    if (timeout > kSettleTimeoutMs) timeout = kSettleTimeoutMs;  // A decoded word: bounded all the same.
    ModelRecord* record = find_model(model);
    const bool valid = record != nullptr && record->built && (timeout == -1 || timeout > 0);
    const aclError status = call("aclmdlRIExecute", [&] { return aclmdlRIExecute(model, timeout); });
    if (status == ACL_SUCCESS && !valid) fail("aclmdlRIExecute(%p, %d) succeeded; CANN refuses it", model, timeout);
    if (!valid) return;
    ++record->executions;
    if (status != ACL_SUCCESS && (status != ACL_ERROR_RT_STREAM_SYNC_TIMEOUT || mustFinish)) {
        fail("aclmdlRIExecute(%p, %d) of a built model answered %d: %s", model, timeout, status, aclGetRecentErrMsg());
    }
}

void BuildFuzz::destroy_model() {
    const aclmdlRI model = decode_model();
    if (ModelRecord* record = find_model(model)) {
        destroy(*record);
        return;
    }
    if (call("aclmdlRIDestroy", [&] { return aclmdlRIDestroy(model); }) == ACL_SUCCESS) {
        fail("aclmdlRIDestroy accepted %p, which is no model", model);
    }
}

/// Destroys a model, built or not: it must succeed; its streams are free
/// to bind again and its counting tasks ran as they should.
void BuildFuzz::destroy(ModelRecord& model) {
    if (call("aclmdlRIDestroy", [&] { return aclmdlRIDestroy(model.handle); }) != ACL_SUCCESS) {
        fail("aclmdlRIDestroy of model %p failed: %s", model.handle, aclGetRecentErrMsg());
    }
    check_runs(model);
    for (StreamRecord& stream : streams_) {
        if (stream.bound == &model) stream.bound = nullptr;
    }
    staleModels_.push_back(model.handle);
    models_.erase(std::find_if(models_.begin(), models_.end(), [&](const auto& held) { return held.get() == &model; }));
}

void BuildFuzz::label_control() {
    switch (in_.byte() % 4) {
        case 0: {
            if (labels_.size() >= kMaxLabels) break;
            aclrtLabel label = nullptr;
            aclrtLabel* out = in_.rare() ? nullptr : &label;
            if ((call("aclrtCreateLabel", [&] { return aclrtCreateLabel(out); }) == ACL_SUCCESS) != (out != nullptr)) {
                fail("aclrtCreateLabel(%p) answered wrongly", static_cast<void*>(out));
            }
            if (out == nullptr) break;
            forget_handle(staleLabels_, label);
            labels_.push_back(label);
            break;
        }
        case 1: {
            const aclrtLabel label = decode_label();
            const auto at = std::find(labels_.begin(), labels_.end(), label);
            const bool live = at != labels_.end();
            if ((call("aclrtDestroyLabel", [&] { return aclrtDestroyLabel(label); }) == ACL_SUCCESS) != live) {
                fail("aclrtDestroyLabel(%p) answered wrongly", label);
            }
            if (!live) break;
            labels_.erase(at);
            staleLabels_.push_back(label);
            break;
        }
        case 2: {
            if (lists_.size() >= kMaxLists) break;
            std::vector<aclrtLabel> array(in_.byte() % 5);
            for (aclrtLabel& label : array) label = decode_label();
            aclrtLabel* labels = in_.rare() ? nullptr : array.data();
            const size_t num = in_.rare() ? static_cast<size_t>(in_.word()) % (array.size() + 1) : array.size();
            const auto end = array.begin() + static_cast<std::ptrdiff_t>(num);
            const bool allLive = std::all_of(array.begin(), end, [&](aclrtLabel label) {
                return std::find(labels_.begin(), labels_.end(), label) != labels_.end();
            });
            aclrtLabelList list = nullptr;
            aclrtLabelList* out = in_.rare() ? nullptr : &list;
            const bool valid = labels != nullptr && out != nullptr && num > 0 && allLive;
            const aclError status =
                call("aclrtCreateLabelList", [&] { return aclrtCreateLabelList(labels, num, out); });
            if (status == ACL_SUCCESS && !valid) fail("aclrtCreateLabelList accepted a list it must refuse");
            if (status != ACL_SUCCESS && valid) fail("aclrtCreateLabelList refused %zu live labels", num);
            if (!valid) break;
            forget_handle(staleLists_, list);
            lists_.push_back(list);
            listSizes_.push_back(num);
            break;
        }
        default: {
            const aclrtLabelList list = decode_list();
            const auto at = std::find(lists_.begin(), lists_.end(), list);
            const bool live = at != lists_.end();
            if ((call("aclrtDestroyLabelList", [&] { return aclrtDestroyLabelList(list); }) == ACL_SUCCESS) != live) {
                fail("aclrtDestroyLabelList(%p) answered wrongly", list);
            }
            if (!live) break;
            listSizes_.erase(listSizes_.begin() + (at - lists_.begin()));
            lists_.erase(at);
            staleLists_.push_back(list);
            break;
        }
    }
}

/// Sets a device word (a branch index, a compare operand) for the
/// executions submitted after this.
void BuildFuzz::write_word() {
    const size_t which = in_.byte() % kWords;
    const uint64_t value = in_.bit() ? in_.byte() % 4 : in_.word();
    settle();
    clear_error_message();
    if (aclrtMemcpy(words_ + which, sizeof value, &value, sizeof value, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
        fail("aclrtMemcpy of a device word failed: %s", aclGetRecentErrMsg());
    }
}

void BuildFuzz::stream_control() {
    switch (in_.byte() % 6) {
        case 0: {
            if (streams_.size() >= kMaxStreams) break;
            add_stream(in_.rare() ? ACL_STREAM_PERSISTENT | ACL_STREAM_FAST_LAUNCH
                                  : (in_.bit() ? ACL_STREAM_PERSISTENT : 0));
            break;
        }
        case 1: {
            // A bound stream may go: its model keeps what it recorded.
            const aclrtStream stream = decode_stream();
            StreamRecord* target = find_stream(stream);
            const aclError status = call("aclrtDestroyStream", [&] { return aclrtDestroyStream(stream); });
            if ((status == ACL_SUCCESS) != (target != nullptr)) {
                fail("aclrtDestroyStream(%p) answered %d", stream, status);
            }
            if (target == nullptr) break;
            if (target->bound != nullptr) binding_of(*target->bound, stream)->stream = nullptr;
            streams_.erase(streams_.begin() + (target - streams_.data()));
            staleStreams_.push_back(stream);
            break;
        }
        case 2: {
            const aclrtStream stream = decode_stream();
            const int32_t timeout = in_.bit() ? -1 : static_cast<int32_t>(in_.byte() % 4);
            const aclError status = call("aclrtSynchronizeStreamWithTimeout",
                                         [&] { return aclrtSynchronizeStreamWithTimeout(stream, timeout); });
            if (status == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT && timeout == -1) fail("an unbounded sync timed out");
            break;
        }
        case 3: {
            const aclrtStream stream = decode_stream();
            aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
            aclrtStreamStatus* out = in_.rare() ? nullptr : &status;
            call("aclrtStreamQuery", [&] { return aclrtStreamQuery(stream, out); });
            break;
        }
        case 4: {
            const aclrtStream stream = decode_stream();
            const StreamRecord* target = find_stream(stream);
            const bool valid = target != nullptr && target->persistent() && building_model_of(stream) == nullptr;
            const aclError status = call("aclrtPersistentTaskClean", [&] { return aclrtPersistentTaskClean(stream); });
            if ((status == ACL_SUCCESS) != valid) {
                fail("aclrtPersistentTaskClean(%p) answered %d; CANN %s it", stream, status,
                     valid ? "accepts" : "refuses");
            }
            break;
        }
        default: {
            if (streams_.size() >= kMaxStreams) break;
            add_stream(0);
            break;
        }
    }
}

void BuildFuzz::event_control() {
    if (in_.bit()) {
        if (events_.size() >= kMaxEvents) return;
        aclrtEvent event = nullptr;
        const bool ex = in_.bit();
        const aclError status = call("creating an event", [&] {
            return ex ? aclrtCreateEventExWithFlag(&event, ACL_EVENT_SYNC) : aclrtCreateEvent(&event);
        });
        if (status != ACL_SUCCESS) return;
        forget_handle(staleEvents_, event);
        events_.push_back(event);
        return;
    }
    const aclrtEvent event = decode_event();
    if (call("aclrtDestroyEvent", [&] { return aclrtDestroyEvent(event); }) != ACL_SUCCESS) return;
    const auto at = std::find(events_.begin(), events_.end(), event);
    if (at == events_.end()) fail("aclrtDestroyEvent accepted %p, which is no live event", event);
    events_.erase(at);
    staleEvents_.push_back(event);
}

void BuildFuzz::device_sync() {
    if (in_.rare()) {
        call("aclrtSynchronizeDevice", [&] { return aclrtSynchronizeDevice(); });
    } else {
        call("aclrtSynchronizeDeviceWithTimeout", [&] { return aclrtSynchronizeDeviceWithTimeout(kSettleTimeoutMs); });
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Decoder in(data, size);
    const int calls = 1 + in.byte() % kMaxCalls;
    BuildFuzz fuzz(in);
    for (int i = 0; i < calls; ++i) fuzz.call_next();
    return 0;
}
