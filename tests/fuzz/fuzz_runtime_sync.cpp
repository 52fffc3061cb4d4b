// Fuzzes the runtime's synchronisation and stream-task entry points:
// notifies, aclrtValueWrite / aclrtValueWait, events between streams,
// stream configuration (aclrtCreateStreamV2, stream attributes), the
// built-in tasks aclrtReduceAsync and aclrtRandomNumAsync, labels, and the
// platform query aclplatformGetDeviceInfo.
// Each input is a short sequence of calls with any flags, values, enum
// codes and timeouts, and live, destroyed or never-issued handles.
//
// Beyond the shared invariant (fuzz_runtime_support.hpp) no wait may hang:
// every wait that was accepted is released afterwards, in the order the
// waits were made, by recording its notify or writing a value that
// satisfies it, and a marker event recorded right behind it must then
// complete within kSettleTimeoutMs.  Waits past their timeout would take a
// second (aclrtSetOpWaitTimeout counts seconds), so the target makes every
// wait satisfiable and satisfies it.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "acl/acl_platform.h"
#include "fuzz_runtime_support.hpp"

using namespace aclcpu::fuzz;

namespace {

constexpr int kMaxCalls = 24;
constexpr size_t kStreams = 3;
constexpr size_t kWordBytes = 64;
constexpr size_t kResultBytes = 4096;

/// A wait the target must release: a notify to record, or a device word to
/// set to a value that satisfies the comparison.
struct PendingWait {
    aclrtNotify notify = nullptr;  ///< nullptr: a value wait.
    uint64_t* word = nullptr;
    uint64_t satisfying = 0;
    aclrtEvent marker = nullptr;   ///< Recorded behind the wait on its stream.
};

/// The stream that releases notify waits: it never waits itself.
aclrtStream releaser() {
    static const aclrtStream stream = [] {
        aclrtStream created = nullptr;
        if (aclrtCreateStream(&created) != ACL_SUCCESS) fail("aclrtCreateStream failed");
        // Waits end after one second at most, should the target fail to release one.
        if (aclrtSetOpWaitTimeout(1) != ACL_SUCCESS) fail("aclrtSetOpWaitTimeout failed");
        return created;
    }();
    return stream;
}

/// The value that satisfies an aclrtValueWait comparison with `value`.
uint64_t satisfying_value(uint64_t value, uint32_t flag) {
    return flag == ACL_STREAM_WAIT_VALUE_NOR ? 0 : value;  // GEQ, EQ, AND: the value itself
}

/// The handles of one input and the waits it still has to release.
class SyncFuzz {
public:
    explicit SyncFuzz(Decoder& in);
    ~SyncFuzz();
    SyncFuzz(const SyncFuzz&) = delete;
    SyncFuzz& operator=(const SyncFuzz&) = delete;

    void call_next();

private:
    aclrtStream decode_live_stream() { return decode_stream(in_, streams_.data(), streams_.size()); }
    aclrtNotify decode_notify();
    aclrtEvent decode_event();
    void* decode_device_address(unsigned char* buffer, size_t bytes);
    void add_pending(PendingWait wait, aclrtStream stream);
    void release(const PendingWait& wait);
    void settle();

    void create_notify();
    void record_notify();
    void wait_notify();
    void reset_notifies();
    void destroy_notify();
    void notify_id();
    void value_write();
    void value_wait();
    void record_event();
    void wait_event();
    void synchronize();
    void stream_v2();
    void stream_attribute();
    void reduce();
    void random_numbers();
    void labels();
    void platform_info();

    Decoder& in_;
    std::vector<aclrtStream> streams_;
    std::vector<aclrtNotify> notifies_;
    std::vector<aclrtNotify> destroyedNotifies_;
    std::array<aclrtEvent, 2> events_{};
    std::vector<PendingWait> pending_;
    unsigned char* words_ = nullptr;
    unsigned char* results_ = nullptr;
};

SyncFuzz::SyncFuzz(Decoder& in) : in_(in) {
    releaser();
    for (size_t i = 0; i < kStreams; ++i) {
        aclrtStream stream = nullptr;
        if (aclrtCreateStream(&stream) != ACL_SUCCESS) fail("aclrtCreateStream failed");
        streams_.push_back(stream);
    }
    for (aclrtEvent& event : events_) {
        if (aclrtCreateEvent(&event) != ACL_SUCCESS) fail("aclrtCreateEvent failed");
    }
    void* words = nullptr;
    void* results = nullptr;
    if (aclrtMalloc(&words, kWordBytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
        aclrtMalloc(&results, kResultBytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
        fail("aclrtMalloc failed");
    }
    words_ = static_cast<unsigned char*>(words);
    results_ = static_cast<unsigned char*>(results);
    if (aclrtMemset(words_, kWordBytes, 0, kWordBytes) != ACL_SUCCESS) fail("aclrtMemset failed");
}

SyncFuzz::~SyncFuzz() {
    settle();
    synchronize_bounded(nullptr);
    for (aclrtStream stream : streams_) {
        synchronize_bounded(stream);
        if (aclrtDestroyStream(stream) != ACL_SUCCESS) fail("aclrtDestroyStream failed");
    }
    for (aclrtEvent event : events_) {
        if (aclrtDestroyEvent(event) != ACL_SUCCESS) fail("aclrtDestroyEvent failed");
    }
    for (aclrtNotify notify : notifies_) {
        if (aclrtDestroyNotify(notify) != ACL_SUCCESS) fail("aclrtDestroyNotify failed");
    }
    if (aclrtFree(words_) != ACL_SUCCESS || aclrtFree(results_) != ACL_SUCCESS) fail("aclrtFree failed");
    clear_error_message();
}

aclrtNotify SyncFuzz::decode_notify() {
    const uint8_t choice = in_.byte();
    if (choice < 192 && !notifies_.empty()) return notifies_[choice % notifies_.size()];
    if (choice % 3 == 0 && !destroyedNotifies_.empty()) return destroyedNotifies_[choice % destroyedNotifies_.size()];
    return choice % 3 == 1 ? never_issued_handle() : nullptr;
}

aclrtEvent SyncFuzz::decode_event() {
    const uint8_t choice = in_.byte();
    if (choice < 224) return events_[choice % events_.size()];
    return choice % 2 == 0 ? never_issued_handle() : nullptr;
}

/// An address in buffer (any offset, aligned or not, inside or past it), or a
/// null, never-issued or host address.
void* SyncFuzz::decode_device_address(unsigned char* buffer, size_t bytes) {
    switch (in_.byte() % 8) {
        case 0: return nullptr;
        case 1: return never_issued_handle();
        case 2: return buffer + decode_extent(in_, bytes) % (bytes + 64);
        default: return buffer + (in_.byte() % (bytes / 8)) * 8;
    }
}

void SyncFuzz::add_pending(PendingWait wait, aclrtStream stream) {
    if (aclrtCreateEvent(&wait.marker) != ACL_SUCCESS || aclrtRecordEvent(wait.marker, stream) != ACL_SUCCESS) {
        fail("recording a marker behind a wait failed");
    }
    pending_.push_back(wait);
}

void SyncFuzz::release(const PendingWait& wait) {
    if (wait.notify != nullptr) {
        if (aclrtRecordNotify(wait.notify, releaser()) != ACL_SUCCESS) fail("aclrtRecordNotify to release a wait failed");
        return;
    }
    if (aclrtMemcpy(wait.word, sizeof wait.satisfying, &wait.satisfying, sizeof wait.satisfying,
                    ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
        fail("aclrtMemcpy to release a value wait failed");
    }
}

/// Releases the pending waits in the order they were made.  Each one's
/// blockers were made before it, so once the earlier ones have passed it
/// can pass; its release is repeated because work that was queued before it
/// (a value write, a notify wait) may undo it.
void SyncFuzz::settle() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kSettleTimeoutMs);
    while (!pending_.empty()) {
        const PendingWait& wait = pending_.front();
        aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
        if (aclrtQueryEventStatus(wait.marker, &status) != ACL_SUCCESS) fail("aclrtQueryEventStatus failed");
        if (status == ACL_EVENT_RECORDED_STATUS_COMPLETE) {
            if (aclrtDestroyEvent(wait.marker) != ACL_SUCCESS) fail("aclrtDestroyEvent failed");
            pending_.erase(pending_.begin());
            continue;
        }
        if (std::chrono::steady_clock::now() > deadline) fail("a released wait did not pass in %d ms", kSettleTimeoutMs);
        release(wait);
        if (synchronize_bounded(releaser()) != ACL_SUCCESS) fail("the releasing stream failed");
        std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
}

void SyncFuzz::call_next() {
    switch (in_.byte() % 16) {
        case 0: create_notify(); break;
        case 1: record_notify(); break;
        case 2: wait_notify(); break;
        case 3: in_.bit() ? reset_notifies() : notify_id(); break;
        case 4: destroy_notify(); break;
        case 5: value_write(); break;
        case 6: value_wait(); break;
        case 7: record_event(); break;
        case 8: wait_event(); break;
        case 9: synchronize(); break;
        case 10: stream_v2(); break;
        case 11: stream_attribute(); break;
        case 12: reduce(); break;
        case 13: random_numbers(); break;
        case 14: in_.bit() ? labels() : platform_info(); break;
        default: in_.bit() ? value_wait() : wait_notify(); break;
    }
}

void SyncFuzz::create_notify() {
    const uint64_t flag = in_.bit() ? in_.byte() % 2 : in_.word();
    aclrtNotify notify = nullptr;
    aclrtNotify* out = in_.rare() ? nullptr : &notify;
    if (checked("aclrtCreateNotify", [&] { return aclrtCreateNotify(out, flag); }) == ACL_SUCCESS) {
        notifies_.push_back(notify);
    }
}

void SyncFuzz::record_notify() {
    const aclrtNotify notify = decode_notify();
    const aclrtStream stream = decode_live_stream();
    checked("aclrtRecordNotify", [&] { return aclrtRecordNotify(notify, stream); });
}

void SyncFuzz::wait_notify() {
    const aclrtNotify notify = decode_notify();
    const aclrtStream stream = decode_live_stream();
    const auto timeout = static_cast<uint32_t>(in_.bit() ? in_.byte() % 4 : in_.word());
    if (checked("aclrtWaitAndResetNotify", [&] { return aclrtWaitAndResetNotify(notify, stream, timeout); }) ==
        ACL_SUCCESS) {
        add_pending(PendingWait{notify}, stream);
    }
}

void SyncFuzz::reset_notifies() {
    std::array<aclrtNotify, 3> notifies{};
    for (aclrtNotify& notify : notifies) notify = decode_notify();
    const size_t num = in_.byte() % (notifies.size() + 1);
    aclrtNotify* array = in_.rare() ? nullptr : notifies.data();
    checked("aclrtNotifyBatchReset", [&] { return aclrtNotifyBatchReset(array, num); });
}

void SyncFuzz::destroy_notify() {
    settle();  // A destroyed notify could no longer release its waits.
    const aclrtNotify notify = decode_notify();
    if (checked("aclrtDestroyNotify", [&] { return aclrtDestroyNotify(notify); }) != ACL_SUCCESS) return;
    const auto found = std::find(notifies_.begin(), notifies_.end(), notify);
    if (found == notifies_.end()) fail("aclrtDestroyNotify accepted %p, which is not a live notify", notify);
    notifies_.erase(found);
    destroyedNotifies_.push_back(notify);
}

void SyncFuzz::notify_id() {
    const aclrtNotify notify = decode_notify();
    uint32_t id = 0;
    uint32_t* out = in_.rare() ? nullptr : &id;
    checked("aclrtGetNotifyId", [&] { return aclrtGetNotifyId(notify, out); });
}

void SyncFuzz::value_write() {
    void* address = decode_device_address(words_, kWordBytes);
    const uint64_t value = in_.word();
    const uint32_t flag = in_.rare() ? static_cast<uint32_t>(in_.word()) : 0;
    const aclrtStream stream = decode_live_stream();
    checked("aclrtValueWrite", [&] { return aclrtValueWrite(address, value, flag, stream); });
}

void SyncFuzz::value_wait() {
    void* address = decode_device_address(words_, kWordBytes);
    uint64_t value = in_.bit() ? in_.byte() : in_.word();
    const auto flag = static_cast<uint32_t>(in_.bit() ? in_.byte() % 4 : in_.word());
    // Two comparisons no value satisfies would only end by timing out.
    if (flag == ACL_STREAM_WAIT_VALUE_AND && value == 0) value = 1;
    if (flag == ACL_STREAM_WAIT_VALUE_NOR && value == UINT64_MAX) value = 0;
    const aclrtStream stream = decode_live_stream();
    if (checked("aclrtValueWait", [&] { return aclrtValueWait(address, value, flag, stream); }) == ACL_SUCCESS) {
        add_pending(PendingWait{nullptr, static_cast<uint64_t*>(address), satisfying_value(value, flag)}, stream);
    }
}

void SyncFuzz::record_event() {
    const aclrtEvent event = decode_event();
    const aclrtStream stream = decode_live_stream();
    checked("aclrtRecordEvent", [&] { return aclrtRecordEvent(event, stream); });
}

void SyncFuzz::wait_event() {
    const aclrtStream stream = decode_live_stream();
    const aclrtEvent event = decode_event();
    checked("aclrtStreamWaitEvent", [&] { return aclrtStreamWaitEvent(stream, event); });
}

void SyncFuzz::synchronize() {
    // Pending waits are not released yet: only a short wait may be asked for
    // (-1, no timeout, becomes 1 ms; 0 and other negatives are invalid).
    const int32_t decoded = in_.bit() ? 1 + in_.byte() % 3 : -static_cast<int32_t>(in_.byte() % 4);
    const int32_t timeout = decoded == -1 ? 1 : decoded;
    if (in_.bit()) {
        const aclrtEvent event = decode_event();
        checked("aclrtSynchronizeEventWithTimeout", [&] { return aclrtSynchronizeEventWithTimeout(event, timeout); });
    } else {
        const aclrtStream stream = decode_live_stream();
        checked("aclrtSynchronizeStreamWithTimeout",
                [&] { return aclrtSynchronizeStreamWithTimeout(stream, timeout); });
    }
}

void SyncFuzz::stream_v2() {
    aclrtStreamConfigHandle* handle = aclrtCreateStreamConfigHandle();
    if (handle == nullptr) fail("aclrtCreateStreamConfigHandle returned null");
    for (int option = in_.byte() % 4; option > 0; --option) {
        const auto attr = static_cast<aclrtStreamConfigAttr>(decode_code(in_, 0, 3));
        const uint64_t value = in_.bit() ? in_.byte() % 9 : in_.word();
        const size_t sizes[] = {4, 8, 0, 3, 16};
        const size_t valueSize = sizes[in_.byte() % 5];
        const void* argument = in_.rare() ? nullptr : &value;
        checked("aclrtSetStreamConfigOpt", [&] { return aclrtSetStreamConfigOpt(handle, attr, argument, valueSize); });
    }
    aclrtStream stream = nullptr;
    aclrtStream* out = in_.rare() ? nullptr : &stream;
    const aclrtStreamConfigHandle* config = in_.rare() ? nullptr : handle;
    if (checked("aclrtCreateStreamV2", [&] { return aclrtCreateStreamV2(out, config); }) == ACL_SUCCESS) {
        streams_.push_back(stream);
    }
    checked("aclrtDestroyStreamConfigHandle", [&] { return aclrtDestroyStreamConfigHandle(handle); });
    if (in_.rare()) {  // Destroyed twice: the handle is stale.
        checked("aclrtDestroyStreamConfigHandle", [&] { return aclrtDestroyStreamConfigHandle(handle); });
    }
}

void SyncFuzz::stream_attribute() {
    const aclrtStream stream = decode_live_stream();
    const auto attr = static_cast<aclrtStreamAttr>(decode_code(in_, 1, 5));
    aclrtStreamAttrValue value;
    const uint64_t raw = in_.bit() ? in_.byte() % 3 : in_.word();
    std::memset(&value, 0, sizeof value);
    std::memcpy(&value, &raw, std::min(sizeof raw, sizeof value));
    aclrtStreamAttrValue* argument = in_.rare() ? nullptr : &value;
    if (in_.bit()) {
        checked("aclrtSetStreamAttribute", [&] { return aclrtSetStreamAttribute(stream, attr, argument); });
    } else {
        checked("aclrtGetStreamAttribute", [&] { return aclrtGetStreamAttribute(stream, attr, argument); });
    }
}

void SyncFuzz::reduce() {
    void* dst = decode_device_address(results_, kResultBytes);
    void* src = decode_device_address(results_, kResultBytes);
    const uint64_t count = decode_extent(in_, 256);
    const auto kind = static_cast<aclrtReduceKind>(decode_code(in_, 10, 13));
    const aclDataType type = in_.dtype();
    const aclrtStream stream = decode_live_stream();
    void* reserve = in_.rare() ? never_issued_handle() : nullptr;
    checked("aclrtReduceAsync", [&] { return aclrtReduceAsync(dst, src, count, kind, type, stream, reserve); });
}

void SyncFuzz::random_numbers() {
    // A parameter by value (its bytes) or by the address of a device word.
    auto parameter = [this](aclrtRandomParaInfo& info) {
        info.isAddr = in_.bit() ? 0 : static_cast<uint8_t>(in_.bit() ? 1 : in_.byte());
        const uint64_t value = info.isAddr == 0 ? (in_.bit() ? in_.byte() % 65 : in_.word())
                                                : reinterpret_cast<uintptr_t>(decode_device_address(words_, kWordBytes));
        std::memcpy(info.valueOrAddr, &value, sizeof value);
        info.size = in_.byte();
    };
    aclrtRandomNumTaskInfo info;
    std::memset(&info, 0, sizeof info);
    info.dataType = in_.dtype();
    info.randomNumFuncParaInfo.funcType = static_cast<aclrtRandomNumFuncType>(decode_code(in_, 0, 3));
    parameter(info.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean);
    parameter(info.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev);
    info.randomParaAddr = in_.bit() ? nullptr : decode_device_address(words_, kWordBytes);
    info.randomResultAddr = decode_device_address(results_, kResultBytes);
    info.randomCounterAddr = decode_device_address(words_, kWordBytes);
    parameter(info.randomSeed);
    parameter(info.randomNum);
    const aclrtStream stream = decode_live_stream();
    const aclrtRandomNumTaskInfo* argument = in_.rare() ? nullptr : &info;
    checked("aclrtRandomNumAsync", [&] { return aclrtRandomNumAsync(argument, stream, nullptr); });
}

void SyncFuzz::labels() {
    std::array<aclrtLabel, 3> labels{};
    size_t created = 0;
    for (aclrtLabel& label : labels) {
        if (checked("aclrtCreateLabel", [&] { return aclrtCreateLabel(&label); }) == ACL_SUCCESS) ++created;
    }
    if (created != labels.size()) fail("aclrtCreateLabel failed with three labels live");
    if (in_.bit()) labels[in_.byte() % labels.size()] = static_cast<aclrtLabel>(never_issued_handle());
    // A count past the array is only passed where CANN's limit (65535 labels) refuses it unread.
    const size_t decoded = decode_extent(in_, labels.size());
    const size_t num = decoded <= labels.size() || decoded > 65535 ? decoded : labels.size();
    aclrtLabelList list = nullptr;
    aclrtLabel* array = in_.rare() ? nullptr : labels.data();
    if (checked("aclrtCreateLabelList", [&] { return aclrtCreateLabelList(array, num, &list); }) == ACL_SUCCESS) {
        checked("aclrtDestroyLabelList", [&] { return aclrtDestroyLabelList(list); });
    }
    for (aclrtLabel label : labels) {
        if (label != never_issued_handle()) checked("aclrtDestroyLabel", [&] { return aclrtDestroyLabel(label); });
    }
}

void SyncFuzz::platform_info() {
    const auto type = static_cast<aclplatformDevInfo>(decode_code(in_, ACL_PLATFORM_AICORE_CNT, ACL_PLATFORM_MEMORY_TYPE));
    std::array<char, 32> value{};
    const uint32_t maxLen = in_.bit() ? static_cast<uint32_t>(in_.byte() % (value.size() + 1)) : value.size();
    char* out = in_.rare() ? nullptr : value.data();
    if (checked("aclplatformGetDeviceInfo", [&] { return aclplatformGetDeviceInfo(type, out, maxLen); }) ==
            ACL_SUCCESS &&
        std::memchr(value.data(), '\0', maxLen) == nullptr) {
        fail("aclplatformGetDeviceInfo succeeded without terminating its answer within maxLen %u", maxLen);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Decoder in(data, size);
    const int calls = 1 + in.byte() % kMaxCalls;
    SyncFuzz fuzz(in);
    for (int i = 0; i < calls; ++i) fuzz.call_next();
    return 0;
}
