#include "runtime/runtime_test_support.hpp"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

// CANN marks aclrtQueryEvent and aclrtGetVersion deprecated, yet they are
// still its API and programs call them: tested on purpose.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace aclcpu::test {

std::string take_error_message() {
    const char* message = aclGetRecentErrMsg();
    return message == nullptr ? std::string() : std::string(message);
}

bool is_cann_error(aclError code) {
    struct Range {
        aclError first;
        aclError last;
    };
    // Every aclError the public headers define (acl_base.h, acl_base_rt.h, rt_error_codes.h).
    static constexpr Range kRanges[] = {{100000, 100045}, {107000, 107045}, {200000, 200007}, {207000, 207021},
                                        {300000, 300000}, {500000, 500005}, {507000, 507057}, {507899, 507916}};
    return std::any_of(std::begin(kRanges), std::end(kRanges),
                       [code](const Range& range) { return code >= range.first && code <= range.last; });
}

::testing::AssertionResult failed_with(aclError code, std::initializer_list<aclError> accepted) {
    const std::string message = take_error_message();
    const bool codeAccepted = accepted.size() == 0
                                  ? is_cann_error(code)
                                  : std::find(accepted.begin(), accepted.end(), code) != accepted.end();
    if (!codeAccepted) {
        auto failure = ::testing::AssertionFailure() << "returned " << code << ", expected ";
        if (accepted.size() == 0) failure << "a CANN error code";
        for (aclError expected : accepted) failure << expected << ' ';
        return failure << "(message: \"" << message << "\")";
    }
    if (message.empty()) {
        return ::testing::AssertionFailure() << "returned " << code << " but aclGetRecentErrMsg has no message";
    }
    return ::testing::AssertionSuccess() << "returned " << code << ": " << message;
}

bool schedule_explored() {
    const char* schedule = std::getenv("ACLCPU_SCHEDULE");
    return schedule != nullptr && std::string(schedule) != "fifo";
}

DefaultEnvironment::DefaultEnvironment()
    : deviceCount_("ACLCPU_DEVICE_COUNT", std::nullopt),
      soc_("ACLCPU_SOC", std::nullopt),
      workerThreads_("ACLCPU_WORKER_THREADS", std::nullopt),
      memoryCapacity_("ACLCPU_MEMORY_CAPACITY", std::nullopt) {}

TempFile::TempFile(const std::string& contents) {
    std::string pattern = ::testing::TempDir() + "aclcpu_runtime_test_XXXXXX";
    const int fd = mkstemp(pattern.data());
    if (fd < 0) {
        ADD_FAILURE() << "cannot create a temporary file from " << pattern;
        return;
    }
    path_ = pattern;
    const ssize_t written = write(fd, contents.data(), contents.size());
    close(fd);
    if (written != static_cast<ssize_t>(contents.size())) ADD_FAILURE() << "cannot write " << path_;
}

TempFile::~TempFile() {
    if (!path_.empty()) std::remove(path_.c_str());
}

void RuntimeTest::SetUp() {
    ASSERT_ACL_OK(aclInit(nullptr));
    ASSERT_ACL_OK(aclrtSetDevice(0));
}

void RuntimeTest::TearDown() {
    EXPECT_ACL_OK(aclrtResetDevice(0));
    EXPECT_ACL_OK(aclFinalize());
}

DeviceBuffer::DeviceBuffer(size_t size, aclrtMemMallocPolicy policy) : size_(size) {
    const aclError result = aclrtMalloc(&ptr_, size, policy);
    if (result != ACL_SUCCESS) {
        ADD_FAILURE() << "aclrtMalloc(" << size << ") returned " << result << ": " << take_error_message();
        ptr_ = nullptr;
    }
}

DeviceBuffer::~DeviceBuffer() {
    if (ptr_ != nullptr) {
        EXPECT_ACL_OK(aclrtFree(ptr_));
    }
}

std::vector<uint8_t> DeviceBuffer::read() const {
    std::vector<uint8_t> contents(size_);
    EXPECT_ACL_OK(aclrtMemcpy(contents.data(), contents.size(), ptr_, size_, ACL_MEMCPY_DEVICE_TO_HOST));
    return contents;
}

void DeviceBuffer::fill(uint8_t value) const { EXPECT_ACL_OK(aclrtMemset(ptr_, size_, value, size_)); }

aclrtStreamStatus stream_status(aclrtStream stream) {
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    EXPECT_ACL_OK(aclrtStreamQuery(stream, &status));
    return status;
}

aclrtEventStatus event_status(aclrtEvent event) {
    aclrtEventStatus status = ACL_EVENT_STATUS_RESERVED;
    EXPECT_ACL_OK(aclrtQueryEvent(event, &status));
    return status;
}

aclrtEventRecordedStatus event_recorded_status(aclrtEvent event) {
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    EXPECT_ACL_OK(aclrtQueryEventStatus(event, &status));
    return status;
}

PinnedBuffer::PinnedBuffer(size_t size) : size_(size) {
    const aclError result = aclrtMallocHost(&ptr_, size);
    if (result != ACL_SUCCESS) {
        ADD_FAILURE() << "aclrtMallocHost(" << size << ") returned " << result << ": " << take_error_message();
        ptr_ = nullptr;
    }
}

PinnedBuffer::~PinnedBuffer() {
    if (ptr_ != nullptr) {
        EXPECT_ACL_OK(aclrtFreeHost(ptr_));
    }
}

Stream::Stream() {
    const aclError result = aclrtCreateStream(&stream_);
    if (result != ACL_SUCCESS) {
        ADD_FAILURE() << "aclrtCreateStream returned " << result << ": " << take_error_message();
        stream_ = nullptr;
    }
}

Stream::~Stream() {
    if (stream_ != nullptr) {
        EXPECT_ACL_OK(aclrtDestroyStream(stream_));
    }
}

aclrtStream Stream::release() {
    aclrtStream stream = stream_;
    stream_ = nullptr;
    return stream;
}

Event::Event(uint32_t flag) {
    const aclError result = aclrtCreateEventWithFlag(&event_, flag);
    if (result != ACL_SUCCESS) {
        ADD_FAILURE() << "aclrtCreateEventWithFlag returned " << result << ": " << take_error_message();
        event_ = nullptr;
    }
}

Event::~Event() {
    if (event_ != nullptr) {
        EXPECT_ACL_OK(aclrtDestroyEvent(event_));
    }
}

struct Gate::State {
    std::mutex mutex;
    std::condition_variable changed;
    bool open = false;
    bool reached = false;
    bool expired = false;
    std::thread::id holder;
};

Gate::Gate() : state_(std::make_shared<State>()) {}

Gate::~Gate() { open(); }

// The token keeps the state alive for a hold that runs after the Gate is gone.
void* Gate::new_token() const { return new std::shared_ptr<State>(state_); }

void Gate::drop_token(void* token) { delete static_cast<std::shared_ptr<State>*>(token); }

void Gate::run_hold(void* token) {
    const std::shared_ptr<State> state = *static_cast<std::shared_ptr<State>*>(token);
    drop_token(token);
    std::unique_lock<std::mutex> lock(state->mutex);
    state->reached = true;
    state->holder = std::this_thread::get_id();
    state->changed.notify_all();
    if (!state->changed.wait_for(lock, std::chrono::milliseconds(kGateHoldLimitMs), [&] { return state->open; })) {
        state->expired = true;
    }
}

aclError Gate::hold(aclrtStream stream) {
    void* token = new_token();
    const aclError result = aclrtLaunchHostFunc(stream, &Gate::run_hold, token);
    if (result != ACL_SUCCESS) drop_token(token);
    return result;
}

aclError Gate::hold_callback(aclrtStream stream, aclrtCallbackBlockType blockType) {
    void* token = new_token();
    const aclError result = aclrtLaunchCallback(&Gate::run_hold, token, blockType, stream);
    if (result != ACL_SUCCESS) drop_token(token);
    return result;
}

void Gate::open() {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->open = true;
    state_->changed.notify_all();
}

bool Gate::wait_until_reached() const {
    std::unique_lock<std::mutex> lock(state_->mutex);
    return state_->changed.wait_for(lock, std::chrono::milliseconds(kBoundedWaitMs),
                                    [&] { return state_->reached; });
}

bool Gate::reached() const {
    std::lock_guard<std::mutex> lock(state_->mutex);
    return state_->reached;
}

bool Gate::expired() const {
    std::lock_guard<std::mutex> lock(state_->mutex);
    return state_->expired;
}

std::thread::id Gate::holder_thread() const {
    std::lock_guard<std::mutex> lock(state_->mutex);
    return state_->holder;
}

uint64_t current_report_thread_id() { return static_cast<uint64_t>(pthread_self()); }

ReportThread::ReportThread(aclrtStream stream) : stream_(stream) {
    aclrtContext context = nullptr;
    EXPECT_ACL_OK(aclrtGetCurrentContext(&context));
    thread_ = std::thread([this, context] { serve(context); });
    // The thread must be subscribed before it first calls aclrtProcessReport.
    subscribeResult_ = aclrtSubscribeReport(static_cast<uint64_t>(thread_.native_handle()), stream_);
    std::lock_guard<std::mutex> lock(mutex_);
    started_ = true;
    if (subscribeResult_ != ACL_SUCCESS) stop_ = true;
    subscribed_.notify_all();
}

ReportThread::~ReportThread() {
    stop_ = true;
    const uint64_t id = static_cast<uint64_t>(thread_.native_handle());
    thread_.join();
    if (subscribeResult_ == ACL_SUCCESS) {
        EXPECT_ACL_OK(aclrtUnSubscribeReport(id, stream_));
    }
}

void ReportThread::serve(aclrtContext context) {
    {
        std::unique_lock<std::mutex> lock(mutex_);
        subscribed_.wait(lock, [this] { return started_; });
    }
    if (stop_) return;
    note(aclrtSetCurrentContext(context));
    constexpr int32_t kPollMs = 10;
    while (!stop_) {
        const aclError result = aclrtProcessReport(kPollMs);
        if (result != ACL_ERROR_RT_REPORT_TIMEOUT) note(result);
    }
}

void ReportThread::note(aclError result) {
    aclError none = ACL_SUCCESS;
    if (result != ACL_SUCCESS) firstError_.compare_exchange_strong(none, result);
}

void CallProbe::record(void* probe) {
    auto* self = static_cast<CallProbe*>(probe);
    self->lastThread = std::this_thread::get_id();
    self->calls.fetch_add(1);
}

void run_on_new_thread(const std::function<void()>& body) { std::thread(body).join(); }

void expect_consumer_waits_for_producer(const std::function<void(aclrtStream producer, aclrtStream consumer)>& order) {
    constexpr uint8_t kFill = 0x5A;
    Stream producer;
    Stream consumer;
    DeviceBuffer source(kMiB);
    DeviceBuffer target(kMiB);
    target.fill(0);
    Gate gate;
    ASSERT_ACL_OK(gate.hold(producer.get()));
    ASSERT_ACL_OK(aclrtMemsetAsync(source.get(), source.size(), kFill, source.size(), producer.get()));
    order(producer.get(), consumer.get());
    ASSERT_ACL_OK(aclrtMemcpyAsync(target.get(), target.size(), source.get(), source.size(),
                                   ACL_MEMCPY_DEVICE_TO_DEVICE, consumer.get()));
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(consumer.get(), kAbsenceWindowMs),
                     ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    EXPECT_EQ(std::vector<uint8_t>(target.size(), 0), target.read());
    gate.open();
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(consumer.get(), kBoundedWaitMs));
    EXPECT_EQ(std::vector<uint8_t>(target.size(), kFill), target.read());
    EXPECT_FALSE(gate.expired());
}

}  // namespace aclcpu::test
