// Fuzzes ACL Graph stream capture and replay: aclmdlRICaptureBegin (any
// mode, any stream: live, captured, joined, null, destroyed, never issued),
// aclmdlRICaptureEnd (on the origin, on a joined stream, on another thread),
// aclmdlRICaptureGetInfo, aclmdlRICaptureThreadExchangeMode, and between
// them the work a capture takes or refuses: asynchronous copies and sets on
// device, pinned and pageable memory, event records and waits across streams
// (events of aclrtCreateEventExWithFlag and plain ones), stream and device
// synchronisation, queries and destruction, the synchronous aclrtMemcpy /
// aclrtMemset / aclrtMemcpy2d, counting tasks (aclcpu::enqueue),
// stream-ordered allocations and frees (aclrtMemPoolMallocAsync /
// aclrtMemPoolFreeAsync, captured or not); and the
// models: aclmdlRIExecuteAsync of built, capturing and destroyed models,
// aclmdlRIDestroy, destroy callbacks, aclmdlRIGetStreams with short arrays,
// names, ids and aclmdlRIDebugJsonPrint.
//
// Beyond the shared invariant (fuzz_runtime_support.hpp):
//   - every counting task runs exactly as often as it should: once when it
//     was enqueued on a stream not being captured, once per accepted replay
//     of the model that captured it;
//   - aclmdlRIDestroy runs each registered destroy callback exactly once,
//     and only the registered ones;
//   - a capture's model is the one aclmdlRICaptureGetInfo showed during it,
//     and aclmdlRIGetStreams lists the origin first;
//   - the name aclmdlRISetName gave is the one aclmdlRIGetName returns;
//   - a pool never hands out a block in use; a block in use is freed on any
//     live stream, captured or not, once; and when every model is destroyed
//     and every block freed, the pool has none in use (a captured free
//     returns its block when its model goes);
//   - at the end of every input the target ends every capture still running
//     (on the stream that began it), after which no stream is captured,
//     destroys every model, and aclrtSynchronizeDevice succeeds.
// Nothing can hang: no wait in an input depends on work submitted after it
// (events are waited for as last recorded, replays of one model follow the
// replays submitted before them), and every wait the target makes is bounded.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl_rt_memory_soma.h"
#include "aclcpu/device_task.hpp"
#include "fuzz_runtime_support.hpp"

using namespace aclcpu::fuzz;

namespace {

constexpr int kMaxCalls = 40;
constexpr size_t kInitialStreams = 3;
constexpr size_t kMaxStreams = 6;
constexpr size_t kMaxEvents = 6;
constexpr size_t kBufferBytes = 4096;
constexpr int kDeviceBuffers = 2;

/// Runs of the counting tasks, over all inputs: each input checks its own delta.
std::atomic<uint64_t> gTaskRuns{0};

/// The destroy callbacks a model may carry: each counts its calls in the
/// slot its userData points to.
struct CallbackSlot {
    int calls = 0;
};
void destroy_callback_a(void* slot) { ++static_cast<CallbackSlot*>(slot)->calls; }
void destroy_callback_b(void* slot) { ++static_cast<CallbackSlot*>(slot)->calls; }
void destroy_callback_c(void* slot) { ++static_cast<CallbackSlot*>(slot)->calls; }
constexpr aclrtCallback kDestroyCallbacks[] = {destroy_callback_a, destroy_callback_b, destroy_callback_c};
constexpr size_t kCallbackKinds = std::size(kDestroyCallbacks);

/// What the target knows of a model: from the begin of its capture (while
/// it is in captures_) and once built (in models_).
struct ModelRecord {
    aclmdlRI handle = nullptr;  ///< As aclmdlRICaptureGetInfo showed it right after the begin.
    aclrtStream origin = nullptr;
    uint64_t countingTasks = 0;  ///< Counting tasks captured into it.
    std::array<bool, kCallbackKinds> registered{};
    std::array<CallbackSlot, kCallbackKinds> slots{};  ///< Stable: records live in unique_ptrs.
    std::string name;  ///< The last name set ("" at first).
};
using Record = std::unique_ptr<ModelRecord>;

class CaptureFuzz {
public:
    explicit CaptureFuzz(Decoder& in);
    ~CaptureFuzz();
    CaptureFuzz(const CaptureFuzz&) = delete;
    CaptureFuzz& operator=(const CaptureFuzz&) = delete;

    void call_next();

private:
    aclrtStream decode_any_stream();
    aclrtEvent decode_event();
    aclmdlRI decode_model();
    /// The record of a built model (or, with capturing, of a capture's model too).
    ModelRecord* find_model(aclmdlRI handle, bool capturing = false);
    ModelRecord* capture_of_stream(aclrtStream stream);
    void erase_capture(const ModelRecord* record);
    void* decode_region(bool& pageable, size_t& room);
    void forget_stale_stream(aclrtStream stream);

    void capture_begin();
    void capture_end();
    void end_on(aclrtStream stream, bool fromOtherThread, bool mayPassNull = true);
    void get_info();
    void exchange_mode();
    void memcpy_async();
    void memset_async();
    void record_event();
    void wait_event();
    void stream_control();
    void synchronous_copy();
    void execute();
    void destroy_model();
    void destroy(ModelRecord& record);
    void callbacks();
    void get_streams();
    void names();
    void counting_task();
    void pool_block();
    /// Frees the blocks still in use, then checks that the pool has none.
    void drain_pool();
    void event_control();
    void other_thread();
    void device_sync();

    Decoder& in_;
    std::vector<aclrtStream> streams_;
    std::vector<aclrtStream> staleStreams_;
    std::vector<aclrtEvent> events_;
    std::vector<aclrtEvent> staleEvents_;
    std::vector<Record> models_;
    std::vector<aclmdlRI> staleModels_;
    std::vector<Record> captures_;
    std::array<unsigned char*, kDeviceBuffers> device_{};
    unsigned char* pinned_ = nullptr;
    std::vector<unsigned char> pageable_;
    aclrtMemPool pool_ = nullptr;
    std::vector<void*> blocks_;  ///< Blocks of pool_ in use.
    aclmdlRICaptureMode threadMode_ = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
    uint64_t expectedRuns_ = 0;
    uint64_t runsAtStart_ = 0;
    aclrtContext context_ = nullptr;
};

CaptureFuzz::CaptureFuzz(Decoder& in) : in_(in), pageable_(kBufferBytes, 0) {
    runsAtStart_ = gTaskRuns.load();
    if (aclrtGetCurrentContext(&context_) != ACL_SUCCESS) fail("aclrtGetCurrentContext failed");
    for (size_t i = 0; i < kInitialStreams; ++i) {
        aclrtStream stream = nullptr;
        if (aclrtCreateStream(&stream) != ACL_SUCCESS) fail("aclrtCreateStream failed");
        streams_.push_back(stream);
    }
    for (int i = 0; i < 3; ++i) {
        aclrtEvent event = nullptr;
        const aclError status = i < 2 ? aclrtCreateEventExWithFlag(&event, ACL_EVENT_SYNC) : aclrtCreateEvent(&event);
        if (status != ACL_SUCCESS) fail("creating an event failed");
        events_.push_back(event);
    }
    for (auto& buffer : device_) {
        void* memory = nullptr;
        if (aclrtMalloc(&memory, kBufferBytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) fail("aclrtMalloc failed");
        buffer = static_cast<unsigned char*>(memory);
    }
    void* host = nullptr;
    if (aclrtMallocHost(&host, kBufferBytes) != ACL_SUCCESS) fail("aclrtMallocHost failed");
    pinned_ = static_cast<unsigned char*>(host);
    aclrtMemPoolProps props{};
    props.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    props.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    props.location = aclrtMemLocation{0, ACL_MEM_LOCATION_TYPE_DEVICE};
    props.maxSize = 16 * kBufferBytes;
    if (aclrtMemPoolCreate(&pool_, &props) != ACL_SUCCESS) fail("aclrtMemPoolCreate failed");
}

/// Ends every capture, destroys every model, checks the counting tasks and
/// the destroy callbacks, and frees everything.
CaptureFuzz::~CaptureFuzz() {
    // The thread's own mode back to GLOBAL, as every input starts.
    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
    if (aclmdlRICaptureThreadExchangeMode(&mode) != ACL_SUCCESS) fail("aclmdlRICaptureThreadExchangeMode failed");
    while (!captures_.empty()) {
        const size_t running = captures_.size();
        end_on(captures_.front()->origin, false, false);
        if (captures_.size() == running) fail("aclmdlRICaptureEnd on the origin left the capture running");
    }
    for (aclrtStream stream : streams_) {
        aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
        aclmdlRI model = nullptr;
        if (checked("aclmdlRICaptureGetInfo", [&] { return aclmdlRICaptureGetInfo(stream, &status, &model); }) !=
            ACL_SUCCESS) {
            fail("aclmdlRICaptureGetInfo failed on a live stream");
        }
        if (status != ACL_MODEL_RI_CAPTURE_STATUS_NONE || model != nullptr) {
            fail("stream %p is still captured (status %d, model %p) after every capture ended", stream,
                 static_cast<int>(status), model);
        }
    }
    for (aclrtStream stream : streams_) synchronize_bounded(stream);
    synchronize_bounded(nullptr);
    while (!models_.empty()) destroy(*models_.back());
    drain_pool();
    clear_error_message();
    const aclError synced = aclrtSynchronizeDeviceWithTimeout(kSettleTimeoutMs);
    if (synced != ACL_SUCCESS) fail("aclrtSynchronizeDevice failed with %d after the input: %s", synced, aclGetRecentErrMsg());
    const uint64_t runs = gTaskRuns.load() - runsAtStart_;
    if (runs != expectedRuns_) {
        fail("counting tasks ran %llu times, expected %llu (eager runs plus captured tasks x replays)",
             static_cast<unsigned long long>(runs), static_cast<unsigned long long>(expectedRuns_));
    }
    for (aclrtStream stream : streams_) {
        if (aclrtDestroyStream(stream) != ACL_SUCCESS) fail("aclrtDestroyStream failed: %s", aclGetRecentErrMsg());
    }
    for (aclrtEvent event : events_) {
        if (aclrtDestroyEvent(event) != ACL_SUCCESS) fail("aclrtDestroyEvent failed: %s", aclGetRecentErrMsg());
    }
    for (unsigned char* buffer : device_) {
        if (aclrtFree(buffer) != ACL_SUCCESS) fail("aclrtFree failed");
    }
    if (aclrtFreeHost(pinned_) != ACL_SUCCESS) fail("aclrtFreeHost failed");
    clear_error_message();
}

// ---- Decoding --------------------------------------------------------------------------

aclrtStream CaptureFuzz::decode_any_stream() {
    const uint8_t choice = in_.byte();
    if (choice < 200 && !streams_.empty()) return streams_[choice % streams_.size()];
    switch (choice % 4) {
        case 0:
            if (!staleStreams_.empty()) return staleStreams_[choice % staleStreams_.size()];
            return nullptr;
        case 1: return static_cast<aclrtStream>(never_issued_handle());
        default: return nullptr;
    }
}

aclrtEvent CaptureFuzz::decode_event() {
    const uint8_t choice = in_.byte();
    if (choice < 216 && !events_.empty()) return events_[choice % events_.size()];
    if (choice % 3 == 0 && !staleEvents_.empty()) return staleEvents_[choice % staleEvents_.size()];
    return choice % 3 == 1 ? never_issued_handle() : nullptr;
}

/// A built model, a model still capturing (as aclmdlRICaptureGetInfo showed
/// it), a destroyed one, null or a pointer that never was a model.
aclmdlRI CaptureFuzz::decode_model() {
    const uint8_t choice = in_.byte();
    if (choice < 176 && !models_.empty()) return models_[choice % models_.size()]->handle;
    if (choice < 216 && !captures_.empty()) return captures_[choice % captures_.size()]->handle;
    if (choice % 3 == 0 && !staleModels_.empty()) return staleModels_[choice % staleModels_.size()];
    return choice % 3 == 1 ? never_issued_handle() : nullptr;
}

ModelRecord* CaptureFuzz::find_model(aclmdlRI handle, bool capturing) {
    for (auto& record : models_) {
        if (record->handle == handle) return record.get();
    }
    if (!capturing) return nullptr;
    for (auto& record : captures_) {
        if (record->handle == handle) return record.get();
    }
    return nullptr;
}

void CaptureFuzz::erase_capture(const ModelRecord* record) {
    captures_.erase(std::find_if(captures_.begin(), captures_.end(), [&](const Record& r) { return r.get() == record; }));
}

/// The capture that has stream (its origin or a stream that joined it), by
/// aclmdlRICaptureGetInfo; nullptr when the stream is not captured.
ModelRecord* CaptureFuzz::capture_of_stream(aclrtStream stream) {
    aclmdlRI model = nullptr;
    if (stream == nullptr || aclmdlRICaptureGetInfo(stream, nullptr, &model) != ACL_SUCCESS || model == nullptr) {
        clear_error_message();
        return nullptr;
    }
    for (Record& capture : captures_) {
        if (capture->handle == model) return capture.get();
    }
    fail("aclmdlRICaptureGetInfo shows stream %p in capture %p, which no capture began", stream, model);
}

/// One of the copy regions (a device buffer, the pinned buffer, the
/// pageable one) at an offset, and the bytes left after it.
void* CaptureFuzz::decode_region(bool& pageable, size_t& room) {
    const uint8_t which = in_.byte() % 5;
    const size_t offset = in_.bit() ? 0 : (in_.byte() * 17u) % kBufferBytes;
    room = kBufferBytes - offset;
    pageable = which == 4;
    switch (which) {
        case 0:
        case 1: return device_[which] + offset;
        case 2:
        case 3: return pinned_ + offset;
        default: return pageable_.data() + offset;
    }
}

void CaptureFuzz::forget_stale_stream(aclrtStream stream) {
    staleStreams_.erase(std::remove(staleStreams_.begin(), staleStreams_.end(), stream), staleStreams_.end());
}

// ---- Calls -----------------------------------------------------------------------------

void CaptureFuzz::call_next() {
    switch (in_.byte() % 22) {
        case 0:
        case 1: capture_begin(); break;
        case 2: capture_end(); break;
        case 3: get_info(); break;
        case 4: exchange_mode(); break;
        case 5:
        case 6: memcpy_async(); break;
        case 7: memset_async(); break;
        case 8: record_event(); break;
        case 9: wait_event(); break;
        case 10: stream_control(); break;
        case 11: synchronous_copy(); break;
        case 12:
        case 13: execute(); break;
        case 14: destroy_model(); break;
        case 15: callbacks(); break;
        case 16: in_.bit() ? get_streams() : pool_block(); break;
        case 17: names(); break;
        case 18: counting_task(); break;
        case 19: event_control(); break;
        case 20: other_thread(); break;
        default: device_sync(); break;
    }
}

void CaptureFuzz::capture_begin() {
    const aclrtStream stream = decode_any_stream();
    const auto mode = static_cast<aclmdlRICaptureMode>(decode_code(in_, 0, 2));
    if (checked("aclmdlRICaptureBegin", [&] { return aclmdlRICaptureBegin(stream, mode); }) != ACL_SUCCESS) return;
    if (std::find(streams_.begin(), streams_.end(), stream) == streams_.end()) {
        fail("aclmdlRICaptureBegin accepted %p, which is not a live stream", stream);
    }
    aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    aclmdlRI model = nullptr;
    if (checked("aclmdlRICaptureGetInfo", [&] { return aclmdlRICaptureGetInfo(stream, &status, &model); }) !=
            ACL_SUCCESS ||
        status != ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE || model == nullptr) {
        fail("a capture just begun on %p is not ACTIVE with a model (status %d, model %p)", stream,
             static_cast<int>(status), model);
    }
    staleModels_.erase(std::remove(staleModels_.begin(), staleModels_.end(), model), staleModels_.end());
    auto record = std::make_unique<ModelRecord>();
    record->handle = model;
    record->origin = stream;
    captures_.push_back(std::move(record));
}

void CaptureFuzz::capture_end() {
    const aclrtStream stream = in_.bit() && !captures_.empty() ? captures_[in_.byte() % captures_.size()]->origin
                                                               : decode_any_stream();
    end_on(stream, in_.rare());
}

/// aclmdlRICaptureEnd on stream, from this thread or another one.
void CaptureFuzz::end_on(aclrtStream stream, bool fromOtherThread, bool mayPassNull) {
    ModelRecord* capture = capture_of_stream(stream);
    const bool nullOut = mayPassNull && in_.rare();
    aclmdlRI model = reinterpret_cast<aclmdlRI>(&model);  // Must be overwritten on success.
    aclmdlRI* out = nullOut ? nullptr : &model;
    aclError status = ACL_SUCCESS;
    if (fromOtherThread) {
        std::thread([&] {
            aclrtSetCurrentContext(context_);
            status = checked("aclmdlRICaptureEnd", [&] { return aclmdlRICaptureEnd(stream, out); });
        }).join();
    } else {
        status = checked("aclmdlRICaptureEnd", [&] { return aclmdlRICaptureEnd(stream, out); });
    }
    // Whatever the answer, the capture is over unless the call was refused
    // before touching it (null out, not the origin).
    aclmdlRI still = nullptr;
    if (capture != nullptr) {
        clear_error_message();
        if (aclmdlRICaptureGetInfo(capture->origin, nullptr, &still) != ACL_SUCCESS) fail("aclmdlRICaptureGetInfo failed");
    }
    if (status != ACL_SUCCESS) {
        if (out != nullptr && model != reinterpret_cast<aclmdlRI>(&model) && model != nullptr) {
            fail("aclmdlRICaptureEnd failed with %d but handed out model %p", status, model);
        }
        if (capture != nullptr && still == nullptr) erase_capture(capture);
        if (capture != nullptr && still != nullptr && still != capture->handle) {
            fail("the capture of %p changed its model from %p to %p", capture->origin, capture->handle, still);
        }
        return;
    }
    if (capture == nullptr || stream != capture->origin) {
        fail("aclmdlRICaptureEnd succeeded on %p, which is not the origin of a capture", stream);
    }
    if (still != nullptr) fail("stream %p is still captured after aclmdlRICaptureEnd succeeded", stream);
    if (model != capture->handle) {
        fail("aclmdlRICaptureEnd handed out %p, the capture showed model %p", model, capture->handle);
    }
    auto found = std::find_if(captures_.begin(), captures_.end(), [&](const Record& r) { return r.get() == capture; });
    models_.push_back(std::move(*found));
    captures_.erase(found);
}

void CaptureFuzz::get_info() {
    const aclrtStream stream = decode_any_stream();
    aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    aclmdlRI model = nullptr;
    aclmdlRICaptureStatus* statusOut = in_.rare() ? nullptr : &status;
    aclmdlRI* modelOut = in_.rare() ? nullptr : &model;
    if (checked("aclmdlRICaptureGetInfo", [&] { return aclmdlRICaptureGetInfo(stream, statusOut, modelOut); }) !=
        ACL_SUCCESS) {
        return;
    }
    if (statusOut != nullptr && modelOut != nullptr &&
        (status == ACL_MODEL_RI_CAPTURE_STATUS_NONE) != (model == nullptr)) {
        fail("aclmdlRICaptureGetInfo: status %d with model %p", static_cast<int>(status), model);
    }
}

void CaptureFuzz::exchange_mode() {
    const auto decoded = static_cast<aclmdlRICaptureMode>(decode_code(in_, 0, 2));
    aclmdlRICaptureMode mode = decoded;
    aclmdlRICaptureMode* argument = in_.rare() ? nullptr : &mode;
    if (checked("aclmdlRICaptureThreadExchangeMode", [&] { return aclmdlRICaptureThreadExchangeMode(argument); }) !=
        ACL_SUCCESS) {
        return;
    }
    if (mode != threadMode_) fail("aclmdlRICaptureThreadExchangeMode returned mode %d, the thread was in %d", mode, threadMode_);
    threadMode_ = decoded;
}

void CaptureFuzz::memcpy_async() {
    bool dstPageable = false;
    bool srcPageable = false;
    size_t dstRoom = 0;
    size_t srcRoom = 0;
    void* dst = decode_region(dstPageable, dstRoom);
    const void* src = decode_region(srcPageable, srcRoom);
    const size_t fits = std::min(dstRoom, srcRoom);
    // A count past either region only ever comes with a destMax below it, which must refuse it.
    const bool tooMany = in_.rare();
    const size_t count = tooMany ? fits + 1 : (in_.bit() ? in_.byte() % (fits + 1) : fits);
    const size_t destMax = tooMany ? fits : (in_.bit() ? dstRoom : count);
    const auto kind = static_cast<aclrtMemcpyKind>(decode_code(in_, 0, 4));
    const aclrtStream stream = decode_any_stream();
    checked("aclrtMemcpyAsync", [&] { return aclrtMemcpyAsync(dst, destMax, src, count, kind, stream); });
}

void CaptureFuzz::memset_async() {
    bool pageable = false;
    size_t room = 0;
    void* dst = decode_region(pageable, room);
    const size_t count = in_.bit() ? in_.byte() % (room + 1) : room;
    const size_t maxCount = in_.rare() ? (count == 0 ? 0 : count - 1) : room;
    const auto value = static_cast<int32_t>(in_.bit() ? in_.byte() : in_.word());
    const aclrtStream stream = decode_any_stream();
    checked("aclrtMemsetAsync", [&] { return aclrtMemsetAsync(dst, maxCount, value, count, stream); });
}

void CaptureFuzz::record_event() {
    const aclrtEvent event = decode_event();
    const aclrtStream stream = decode_any_stream();
    checked("aclrtRecordEvent", [&] { return aclrtRecordEvent(event, stream); });
}

void CaptureFuzz::wait_event() {
    const aclrtStream stream = decode_any_stream();
    const aclrtEvent event = decode_event();
    if (in_.bit()) {
        checked("aclrtStreamWaitEvent", [&] { return aclrtStreamWaitEvent(stream, event); });
    } else {
        const int32_t timeout = in_.bit() ? 0 : (in_.bit() ? -1 : in_.byte());
        checked("aclrtStreamWaitEventWithTimeout",
                [&] { return aclrtStreamWaitEventWithTimeout(stream, event, timeout); });
    }
}

/// Synchronising, querying, destroying or creating a stream, captured or not.
void CaptureFuzz::stream_control() {
    switch (in_.byte() % 6) {
        case 0: {
            const aclrtStream stream = decode_any_stream();
            checked("aclrtSynchronizeStream", [&] { return aclrtSynchronizeStream(stream); });
            break;
        }
        case 1: {
            const aclrtStream stream = decode_any_stream();
            const int32_t timeout = in_.bit() ? -1 : static_cast<int32_t>(in_.byte() % 4);
            const aclError status = checked("aclrtSynchronizeStreamWithTimeout",
                                            [&] { return aclrtSynchronizeStreamWithTimeout(stream, timeout); });
            // Every accepted stream can finish: nothing waits for work that was never submitted.
            if (status == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT && timeout == -1) fail("an unbounded sync timed out");
            break;
        }
        case 2: {
            const aclrtStream stream = decode_any_stream();
            aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
            aclrtStreamStatus* out = in_.rare() ? nullptr : &status;
            checked("aclrtStreamQuery", [&] { return aclrtStreamQuery(stream, out); });
            break;
        }
        case 3: {
            // Only the target's own streams, or a stale handle no live stream has taken.
            const aclrtStream stream = decode_any_stream();
            const bool live = std::find(streams_.begin(), streams_.end(), stream) != streams_.end();
            if (!live && stream != nullptr && stream != never_issued_handle() &&
                std::find(staleStreams_.begin(), staleStreams_.end(), stream) == staleStreams_.end()) {
                break;
            }
            const bool captured = capture_of_stream(stream) != nullptr;
            if (checked("aclrtDestroyStream", [&] { return aclrtDestroyStream(stream); }) != ACL_SUCCESS) break;
            if (!live) fail("aclrtDestroyStream accepted %p, which is not a live stream", stream);
            if (captured) fail("aclrtDestroyStream destroyed stream %p in a running capture", stream);
            streams_.erase(std::find(streams_.begin(), streams_.end(), stream));
            staleStreams_.push_back(stream);
            break;
        }
        default: {
            if (streams_.size() >= kMaxStreams) break;
            aclrtStream stream = nullptr;
            if (checked("aclrtCreateStream", [&] { return aclrtCreateStream(&stream); }) == ACL_SUCCESS) {
                streams_.push_back(stream);
                forget_stale_stream(stream);
            }
            break;
        }
    }
}

/// The calls CANN calls unsafe during capture: refused or run at once, by mode.
void CaptureFuzz::synchronous_copy() {
    bool dstPageable = false;
    bool srcPageable = false;
    size_t dstRoom = 0;
    size_t srcRoom = 0;
    void* dst = decode_region(dstPageable, dstRoom);
    const void* src = decode_region(srcPageable, srcRoom);
    const size_t count = in_.byte() % (std::min(dstRoom, srcRoom) + 1);
    const auto kind = static_cast<aclrtMemcpyKind>(decode_code(in_, 0, 4));
    switch (in_.byte() % 3) {
        case 0: checked("aclrtMemcpy", [&] { return aclrtMemcpy(dst, dstRoom, src, count, kind); }); break;
        case 1: {
            const auto value = static_cast<int32_t>(in_.byte());
            checked("aclrtMemset", [&] { return aclrtMemset(dst, dstRoom, value, count); });
            break;
        }
        default: {
            const size_t width = std::max<size_t>(1, count / 4);
            const size_t height = std::min<size_t>(4, count / width);
            checked("aclrtMemcpy2d",
                    [&] { return aclrtMemcpy2d(dst, width, src, width, width, height, kind); });
            break;
        }
    }
}

void CaptureFuzz::execute() {
    const aclmdlRI model = decode_model();
    const aclrtStream stream = decode_any_stream();
    if (checked("aclmdlRIExecuteAsync", [&] { return aclmdlRIExecuteAsync(model, stream); }) != ACL_SUCCESS) return;
    ModelRecord* record = find_model(model);
    if (record == nullptr) fail("aclmdlRIExecuteAsync accepted %p, which is not a built model", model);
    if (capture_of_stream(stream) != nullptr) fail("aclmdlRIExecuteAsync accepted captured stream %p", stream);
    expectedRuns_ += record->countingTasks;
}

void CaptureFuzz::destroy_model() {
    const aclmdlRI model = decode_model();
    if (ModelRecord* record = find_model(model)) {
        destroy(*record);
        return;
    }
    if (checked("aclmdlRIDestroy", [&] { return aclmdlRIDestroy(model); }) == ACL_SUCCESS) {
        fail("aclmdlRIDestroy accepted %p, which is not a built model", model);
    }
}

/// Destroys a built model: it must succeed (no replay can be stuck) and run
/// each registered callback exactly once.
void CaptureFuzz::destroy(ModelRecord& record) {
    if (checked("aclmdlRIDestroy", [&] { return aclmdlRIDestroy(record.handle); }) != ACL_SUCCESS) {
        fail("aclmdlRIDestroy of built model %p failed: %s", record.handle, aclGetRecentErrMsg());
    }
    for (size_t i = 0; i < kCallbackKinds; ++i) {
        const int expected = record.registered[i] ? 1 : 0;
        if (record.slots[i].calls != expected) {
            fail("destroy callback %zu of model %p ran %d times, expected %d", i, record.handle, record.slots[i].calls,
                 expected);
        }
    }
    staleModels_.push_back(record.handle);
    models_.erase(std::find_if(models_.begin(), models_.end(), [&](const auto& held) { return held.get() == &record; }));
}

void CaptureFuzz::callbacks() {
    const aclmdlRI model = decode_model();
    const size_t which = in_.byte() % (kCallbackKinds + 1);
    const aclrtCallback func = which < kCallbackKinds ? kDestroyCallbacks[which] : nullptr;
    ModelRecord* record = find_model(model, true);  // A capturing model takes callbacks too.
    static CallbackSlot unused;
    void* userData = record != nullptr && which < kCallbackKinds ? &record->slots[which] : &unused;
    if (in_.bit()) {
        const aclError status = checked("aclmdlRIDestroyRegisterCallback",
                                        [&] { return aclmdlRIDestroyRegisterCallback(model, func, userData); });
        if (status != ACL_SUCCESS) return;
        if (record == nullptr) fail("aclmdlRIDestroyRegisterCallback accepted %p, which is no model", model);
        if (record->registered[which]) fail("aclmdlRIDestroyRegisterCallback registered a function twice");
        record->registered[which] = true;
    } else {
        const aclError status = checked("aclmdlRIDestroyUnregisterCallback",
                                        [&] { return aclmdlRIDestroyUnregisterCallback(model, func); });
        if (status != ACL_SUCCESS || record == nullptr) return;
        if (!record->registered[which]) fail("aclmdlRIDestroyUnregisterCallback removed an unregistered function");
        record->registered[which] = false;
    }
}

void CaptureFuzz::get_streams() {
    const aclmdlRI model = decode_model();
    std::array<aclrtStream, 8> array{};
    uint32_t capacity = in_.byte() % (array.size() + 1);
    aclrtStream* streams = in_.bit() ? nullptr : array.data();
    uint32_t* count = in_.rare() ? nullptr : &capacity;
    const uint32_t given = capacity;
    const aclError status =
        checked("aclmdlRIGetStreams", [&] { return aclmdlRIGetStreams(model, streams, count); });
    if (status != ACL_SUCCESS && status != ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY) return;
    ModelRecord* record = find_model(model);
    if (record == nullptr) fail("aclmdlRIGetStreams answered %d for %p, which is not a built model", status, model);
    if (streams != nullptr && capacity > given) fail("aclmdlRIGetStreams filled %u entries of %u", capacity, given);
    if (streams != nullptr && capacity > 0 && array[0] != record->origin) {
        fail("aclmdlRIGetStreams lists %p first, the capture began on %p", array[0], record->origin);
    }
    if (streams == nullptr && status != ACL_SUCCESS) fail("aclmdlRIGetStreams counting answered %d", status);
}

void CaptureFuzz::names() {
    const aclmdlRI model = decode_model();
    ModelRecord* record = find_model(model, true);
    switch (in_.byte() % 4) {
        case 0: {
            std::string name(in_.byte() % 48, 'a');
            for (char& c : name) c = static_cast<char>(1 + in_.byte() % 255);  // Any byte but the terminator.
            const char* argument = in_.rare() ? nullptr : name.c_str();
            if (checked("aclmdlRISetName", [&] { return aclmdlRISetName(model, argument); }) == ACL_SUCCESS &&
                record != nullptr) {
                record->name = name;
            }
            break;
        }
        case 1: {
            char buffer[64];
            std::memset(buffer, 0x7f, sizeof buffer);
            const uint32_t maxLen = in_.byte() % (sizeof buffer + 1);
            char* out = in_.rare() ? nullptr : buffer;
            if (checked("aclmdlRIGetName", [&] { return aclmdlRIGetName(model, maxLen, out); }) == ACL_SUCCESS &&
                record != nullptr && record->name != buffer) {
                fail("aclmdlRIGetName returned \"%s\", the name set was \"%s\"", buffer, record->name.c_str());
            }
            break;
        }
        case 2: {
            uint32_t id = 0;
            uint32_t* out = in_.rare() ? nullptr : &id;
            checked("aclmdlRIGetId", [&] { return aclmdlRIGetId(model, out); });
            break;
        }
        default: {
            const char* path = in_.bit() ? "/dev/null" : (in_.bit() ? "/nonexistent-dir/model.json" : nullptr);
            const uint32_t flags = in_.bit() ? in_.byte() % 3 : static_cast<uint32_t>(in_.word());
            checked("aclmdlRIDebugJsonPrint", [&] { return aclmdlRIDebugJsonPrint(model, path, flags); });
            break;
        }
    }
}

/// A task of the target's own on any stream: run at once (in stream order)
/// when the stream is not captured, captured into its model when it is.
void CaptureFuzz::counting_task() {
    const aclrtStream stream = decode_any_stream();
    ModelRecord* capture = capture_of_stream(stream);
    // A device task, or a host function (a late node when captured): each counts its runs.
    const aclError status =
        in_.bit() ? checked("aclcpu::enqueue",
                            [&] { return aclcpu::enqueue(stream, std::make_unique<RunCountingTask>(gTaskRuns)); })
                  : checked("aclrtLaunchHostFunc",
                            [&] { return aclrtLaunchHostFunc(stream, count_host_run, &gTaskRuns); });
    if (status != ACL_SUCCESS) return;
    if (capture != nullptr) {
        ++capture->countingTasks;
    } else {
        ++expectedRuns_;
    }
}

/// Allocates a block of the pool, or frees one (in use, or not), on any
/// stream: captured streams take both.
void CaptureFuzz::pool_block() {
    const aclrtStream stream = decode_any_stream();
    const bool liveStream = stream == nullptr || std::find(streams_.begin(), streams_.end(), stream) != streams_.end();
    if (blocks_.empty() || in_.bit()) {
        void* block = nullptr;
        const size_t size = 1 + in_.byte() * 16u;
        if (checked("aclrtMemPoolMallocAsync", [&] { return aclrtMemPoolMallocAsync(&block, size, pool_, stream); }) !=
            ACL_SUCCESS) {
            return;
        }
        if (std::find(blocks_.begin(), blocks_.end(), block) != blocks_.end()) {
            fail("aclrtMemPoolMallocAsync handed out %p, a block in use", block);
        }
        blocks_.push_back(block);
        return;
    }
    const size_t which = in_.byte() % (blocks_.size() + 1);
    void* block = which < blocks_.size() ? blocks_[which] : device_[0];  // device_[0]: no block of a pool.
    const aclError status = checked("aclrtMemPoolFreeAsync", [&] { return aclrtMemPoolFreeAsync(block, stream); });
    if (which == blocks_.size()) {
        if (status == ACL_SUCCESS) fail("aclrtMemPoolFreeAsync freed %p, which is no block of a pool", block);
        return;
    }
    if (status == ACL_SUCCESS) {
        blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(which));
    } else if (liveStream) {
        fail("aclrtMemPoolFreeAsync of block %p in use on live stream %p failed with %d", block, stream, status);
    }
}

void CaptureFuzz::drain_pool() {
    for (void* block : blocks_) {
        if (aclrtMemPoolFreeAsync(block, nullptr) != ACL_SUCCESS) fail("aclrtMemPoolFreeAsync failed");
    }
    blocks_.clear();
    synchronize_bounded(nullptr);
    uint64_t used = 0;
    if (aclrtMemPoolGetAttr(pool_, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, &used) != ACL_SUCCESS) {
        fail("aclrtMemPoolGetAttr failed");
    }
    if (used != 0) {
        fail("the pool has %llu bytes in use after every block was freed and every model destroyed",
             static_cast<unsigned long long>(used));
    }
    if (aclrtMemPoolDestroy(pool_) != ACL_SUCCESS) fail("aclrtMemPoolDestroy failed");
}

void CaptureFuzz::event_control() {
    switch (in_.byte() % 7) {
        case 0: {
            if (events_.size() >= kMaxEvents) break;
            aclrtEvent event = nullptr;
            const uint8_t how = in_.byte() % 4;
            const uint32_t flag = in_.bit() ? ACL_EVENT_SYNC : static_cast<uint32_t>(in_.byte());
            const aclError status = checked("creating an event", [&] {
                switch (how) {
                    case 0: return aclrtCreateEventExWithFlag(&event, flag);
                    case 1: return aclrtCreateEventWithFlag(&event, flag);
                    case 2: return aclrtCreateEventExWithFlag(&event, ACL_EVENT_SYNC);
                    default: return aclrtCreateEvent(&event);
                }
            });
            if (status == ACL_SUCCESS) {
                events_.push_back(event);
                staleEvents_.erase(std::remove(staleEvents_.begin(), staleEvents_.end(), event), staleEvents_.end());
            }
            break;
        }
        case 1: {
            if (events_.empty()) break;
            const size_t at = in_.byte() % events_.size();
            const aclrtEvent event = events_[at];
            if (checked("aclrtDestroyEvent", [&] { return aclrtDestroyEvent(event); }) == ACL_SUCCESS) {
                events_.erase(events_.begin() + static_cast<std::ptrdiff_t>(at));
                staleEvents_.push_back(event);
            }
            break;
        }
        case 2: {
            const aclrtEvent event = decode_event();
            const aclrtStream stream = decode_any_stream();
            checked("aclrtResetEvent", [&] { return aclrtResetEvent(event, stream); });
            break;
        }
        case 3: {
            const aclrtEvent event = decode_event();
            aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
            checked("aclrtQueryEventStatus", [&] { return aclrtQueryEventStatus(event, &status); });
            break;
        }
        case 4: {
            const aclrtEvent event = decode_event();
            const int32_t timeout = in_.bit() ? -1 : static_cast<int32_t>(in_.byte() % 3);
            checked("aclrtSynchronizeEventWithTimeout",
                    [&] { return aclrtSynchronizeEventWithTimeout(event, timeout); });
            break;
        }
        case 5: {
            const aclrtEvent start = decode_event();
            const aclrtEvent end = decode_event();
            float ms = 0;
            checked("aclrtEventElapsedTime", [&] { return aclrtEventElapsedTime(&ms, start, end); });
            break;
        }
        default: {
            const aclrtEvent event = decode_event();
            aclrtEventWaitStatus status = ACL_EVENT_WAIT_STATUS_NOT_READY;
            checked("aclrtQueryEventWaitStatus", [&] { return aclrtQueryEventWaitStatus(event, &status); });
            break;
        }
    }
}

/// Calls from a second thread (in the same context): ending a capture (a
/// non-RELAXED one must end on its own thread), the unsafe synchronous calls
/// under that thread's own (GLOBAL) mode, beginning and ending a capture of
/// its own, and exchanging its mode.
void CaptureFuzz::other_thread() {
    switch (in_.byte() % 3) {
        case 0: {
            const aclrtStream stream = captures_.empty() ? decode_any_stream()
                                                         : captures_[in_.byte() % captures_.size()]->origin;
            end_on(stream, true);
            break;
        }
        case 1: {
            unsigned char* device = device_[0];
            const bool relax = in_.bit();
            std::thread([&] {
                aclrtSetCurrentContext(context_);
                if (relax) {
                    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
                    checked("aclmdlRICaptureThreadExchangeMode", [&] { return aclmdlRICaptureThreadExchangeMode(&mode); });
                }
                checked("aclrtMemset", [&] { return aclrtMemset(device, kBufferBytes, 0, 64); });
            }).join();
            break;
        }
        default: {
            // A capture begun and ended on a thread of its own; the model joins the target's.
            const aclrtStream stream = decode_any_stream();
            const auto mode = static_cast<aclmdlRICaptureMode>(decode_code(in_, 0, 2));
            const bool task = in_.bit();
            aclError begun = ACL_SUCCESS;
            aclError ended = ACL_SUCCESS;
            aclmdlRI model = nullptr;
            bool captured = false;
            std::thread([&] {
                aclrtSetCurrentContext(context_);
                begun = checked("aclmdlRICaptureBegin", [&] { return aclmdlRICaptureBegin(stream, mode); });
                if (begun != ACL_SUCCESS) return;
                if (task) {
                    captured = checked("aclcpu::enqueue", [&] {
                                   return aclcpu::enqueue(stream, std::make_unique<RunCountingTask>(gTaskRuns));
                               }) == ACL_SUCCESS;
                }
                ended = checked("aclmdlRICaptureEnd", [&] { return aclmdlRICaptureEnd(stream, &model); });
            }).join();
            if (begun != ACL_SUCCESS) break;
            if (ended != ACL_SUCCESS) fail("a capture begun and ended on one thread failed to end: %d", ended);
            if (task && !captured) fail("aclcpu::enqueue refused a task on a captured stream");
            auto record = std::make_unique<ModelRecord>();
            record->handle = model;
            record->origin = stream;
            record->countingTasks = captured ? 1 : 0;
            staleModels_.erase(std::remove(staleModels_.begin(), staleModels_.end(), model), staleModels_.end());
            models_.push_back(std::move(record));
            break;
        }
    }
}

void CaptureFuzz::device_sync() {
    if (in_.bit()) {
        checked("aclrtSynchronizeDeviceWithTimeout", [&] { return aclrtSynchronizeDeviceWithTimeout(kSettleTimeoutMs); });
    } else {
        checked("aclrtSynchronizeDevice", [&] { return aclrtSynchronizeDevice(); });
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Decoder in(data, size);
    const int calls = 1 + in.byte() % kMaxCalls;
    CaptureFuzz fuzz(in);
    for (int i = 0; i < calls; ++i) fuzz.call_next();
    return 0;
}
