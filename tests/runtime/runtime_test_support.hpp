// Shared fixtures and tools of the libascendcl test suite.  Everything here
// goes through the public C API (acl/acl.h) only, exactly as a host program
// written for an Atlas A2 would.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclcpu/device_task.hpp"
#include "aclcpu_testkit/scoped_env.hpp"

namespace aclcpu::test {

/// Bound of every wait that must end: generous for a loaded 2-core machine,
/// yet short enough that a runtime bug fails the test instead of hanging it.
inline constexpr int32_t kBoundedWaitMs = 20000;

/// How long a test watches for something that must NOT happen (a callback
/// nobody serves, a stream held by a gate).  Only ever used as the timeout of
/// a call that is expected to time out.
inline constexpr int32_t kAbsenceWindowMs = 50;

/// How long a Gate holds its stream at most.  Tests open their gates within
/// milliseconds; the limit only ends a deadlock against the gate quickly.
inline constexpr int32_t kGateHoldLimitMs = 5000;

inline constexpr size_t kMiB = size_t{1} << 20;

/// The status aclrtStreamQuery / aclrtQueryEvent / aclrtQueryEventStatus
/// report (each call expected to succeed).
aclrtStreamStatus stream_status(aclrtStream stream);
aclrtEventStatus event_status(aclrtEvent event);
aclrtEventRecordedStatus event_recorded_status(aclrtEvent event);

/// The calling thread's pending messages from aclGetRecentErrMsg ("" when
/// there are none); reading them clears them.
std::string take_error_message();

/// True when code is one of CANN's documented aclError values (not 0).
bool is_cann_error(aclError code);

/// True when the suite runs under a seeded ACLCPU_SCHEDULE (not fifo).
bool schedule_explored();

/// Success when code is one of accepted AND the failed call left a message
/// for aclGetRecentErrMsg.  An empty accepted list means "any CANN error".
::testing::AssertionResult failed_with(aclError code, std::initializer_list<aclError> accepted);

}  // namespace aclcpu::test

/// Runs expr on a clean error state so the message check sees only expr's own.
#define ACLCPU_FRESH_CALL(expr) \
    ([&] { ::aclcpu::test::take_error_message(); return static_cast<aclError>(expr); }())

#define ASSERT_ACL_OK(expr) ASSERT_EQ(ACL_SUCCESS, (expr)) << ::aclcpu::test::take_error_message()
#define EXPECT_ACL_OK(expr) EXPECT_EQ(ACL_SUCCESS, (expr)) << ::aclcpu::test::take_error_message()

/// Expects expr to fail with one of the listed codes (none listed: any CANN
/// error) and to leave a message for aclGetRecentErrMsg.
#define EXPECT_ACL_FAILS(expr, ...) \
    EXPECT_TRUE(::aclcpu::test::failed_with(ACLCPU_FRESH_CALL(expr), {__VA_ARGS__})) << #expr

namespace aclcpu::test {

using testkit::ScopedEnv;

/// Removes every ACLCPU_* configuration variable for a scope, so a test sees
/// the documented defaults whatever the caller's environment holds.
class DefaultEnvironment {
public:
    DefaultEnvironment();

private:
    ScopedEnv deviceCount_;
    ScopedEnv soc_;
    ScopedEnv workerThreads_;
    ScopedEnv memoryCapacity_;
};

/// A file in the temporary directory holding the given text, removed at scope end.
class TempFile {
public:
    explicit TempFile(const std::string& contents);
    ~TempFile();
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    const char* path() const { return path_.c_str(); }

private:
    std::string path_;
};

/// The default configuration, aclInit(nullptr) and device 0 set around each
/// test; tears both down afterwards.
class RuntimeTest : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;

private:
    DefaultEnvironment environment_;
};

/// Device memory from aclrtMalloc, freed at scope end.
class DeviceBuffer {
public:
    explicit DeviceBuffer(size_t size, aclrtMemMallocPolicy policy = ACL_MEM_MALLOC_HUGE_FIRST);
    ~DeviceBuffer();
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    void* get() const { return ptr_; }
    uint8_t* bytes() const { return static_cast<uint8_t*>(ptr_); }
    size_t size() const { return size_; }
    /// The buffer's contents, copied with the synchronous aclrtMemcpy (which
    /// does not wait for any stream).
    std::vector<uint8_t> read() const;
    /// Sets every byte with the synchronous aclrtMemset.
    void fill(uint8_t value) const;

private:
    void* ptr_ = nullptr;
    size_t size_;
};

/// Pinned host memory from aclrtMallocHost, freed at scope end.
class PinnedBuffer {
public:
    explicit PinnedBuffer(size_t size);
    ~PinnedBuffer();
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;

    uint8_t* bytes() const { return static_cast<uint8_t*>(ptr_); }
    size_t size() const { return size_; }

private:
    void* ptr_ = nullptr;
    size_t size_;
};

/// A stream from aclrtCreateStream, destroyed at scope end unless released.
class Stream {
public:
    Stream();
    ~Stream();
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;

    aclrtStream get() const { return stream_; }
    /// Gives up ownership (the test destroys the stream itself).
    aclrtStream release();

private:
    aclrtStream stream_ = nullptr;
};

/// An event from aclrtCreateEventWithFlag, destroyed at scope end.
class Event {
public:
    explicit Event(uint32_t flag = ACL_EVENT_SYNC);
    ~Event();
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;

    aclrtEvent get() const { return event_; }

private:
    aclrtEvent event_ = nullptr;
};

/// A device task that runs a function (aclcpu::enqueue), for tests that
/// need work of their own on a stream.
class FunctionTask final : public DeviceTask {
public:
    explicit FunctionTask(std::function<void()> body) : body_(std::move(body)) {}
    aclError run() override {
        body_();
        return ACL_SUCCESS;
    }
    const char* name() const noexcept override { return "function"; }

private:
    std::function<void()> body_;
};

/// Holds a stream (or a callback) at one point until the test opens it.
///
/// The hold is a host function or callback that waits for open(); work
/// submitted after it cannot start before the test says so, which makes
/// "is X still pending?" questions deterministic without sleeping.  The hold
/// is bounded: if the runtime deadlocks against it (a call that should not
/// block on the held stream does), the hold gives up after kGateHoldLimitMs,
/// the test goes on and expired() reports it.
class Gate {
public:
    Gate();
    ~Gate();  ///< Opens the gate.
    Gate(const Gate&) = delete;
    Gate& operator=(const Gate&) = delete;

    /// Places the hold on stream with aclrtLaunchHostFunc.
    aclError hold(aclrtStream stream);
    /// Places the hold on stream with aclrtLaunchCallback (served by
    /// whichever thread is subscribed to the stream).
    aclError hold_callback(aclrtStream stream, aclrtCallbackBlockType blockType);

    void open();
    /// Waits (bounded) until the hold has started; false if it never did.
    bool wait_until_reached() const;
    bool reached() const;
    /// True when a hold gave up waiting because nobody opened the gate in time.
    bool expired() const;
    /// The thread the hold ran on (default id until it has run).
    std::thread::id holder_thread() const;

private:
    struct State;
    static void run_hold(void* token);
    void* new_token() const;
    static void drop_token(void* token);

    std::shared_ptr<State> state_;
};

/// A host thread serving aclrtLaunchCallback: bound to a stream with
/// aclrtSubscribeReport, it loops on aclrtProcessReport until destroyed, then
/// unsubscribes.  It runs in the creating thread's current context.
class ReportThread {
public:
    explicit ReportThread(aclrtStream stream);
    ~ReportThread();
    ReportThread(const ReportThread&) = delete;
    ReportThread& operator=(const ReportThread&) = delete;

    aclError subscribe_result() const { return subscribeResult_; }
    std::thread::id id() const { return thread_.get_id(); }
    /// The first failure of the serving thread: its aclrtSetCurrentContext, or
    /// an aclrtProcessReport result other than success or timeout.
    aclError first_unexpected_error() const { return firstError_.load(); }

private:
    void serve(aclrtContext context);
    /// Keeps the first failure of the serving thread's own calls.
    void note(aclError result);

    aclrtStream stream_;
    std::mutex mutex_;
    std::condition_variable subscribed_;
    bool started_ = false;
    std::atomic<bool> stop_{false};
    std::atomic<aclError> firstError_{ACL_SUCCESS};
    aclError subscribeResult_ = ACL_SUCCESS;
    std::thread thread_;
};

/// The id aclrtSubscribeReport expects for the calling thread.
uint64_t current_report_thread_id();

/// Counts the calls of a host function or callback and notes the thread of the last one.
struct CallProbe {
    std::atomic<int> calls{0};
    std::atomic<std::thread::id> lastThread{};

    /// An aclrtCallback / aclrtHostFunc; userData is a CallProbe*.
    static void record(void* probe);
};

/// Runs body on a new host thread and waits for it (gtest assertions inside
/// are reported as usual).
void run_on_new_thread(const std::function<void()>& body);

/// The check every cross-stream synchronisation shares: `producer` is held
/// by a gate and then fills a buffer with `produce`; order(producer,
/// consumer) puts the synchronisation between them; `consumer` then fills
/// a target buffer with `consume`.  While the gate holds, the consumer must
/// not get past the synchronisation (its stream does not finish and the
/// target keeps its zeros); once it opens, the target is filled.
void expect_consumer_waits_for_producer(const std::function<void(aclrtStream producer, aclrtStream consumer)>& order);

}  // namespace aclcpu::test
