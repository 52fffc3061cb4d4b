// Execution-model tests that need the private task contract
// (aclcpu::enqueue): sticky errors, failure modes, who runs device work.
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "acl/acl.h"
#include "aclcpu/device_task.hpp"
#include "runtime/runtime_test_support.hpp"

namespace {

using aclcpu::test::FunctionTask;
using Clock = std::chrono::steady_clock;

/// A task that records which thread ran it and then returns `result` or throws.
class ProbeTask final : public aclcpu::DeviceTask {
public:
    enum class Outcome { kSucceed, kFail, kThrow };

    ProbeTask(Outcome outcome, std::atomic<int>* runs, std::thread::id* ranOn = nullptr)
        : outcome_(outcome), runs_(runs), ranOn_(ranOn) {}

    aclError run() override {
        if (ranOn_ != nullptr) *ranOn_ = std::this_thread::get_id();
        runs_->fetch_add(1);
        if (outcome_ == Outcome::kThrow) throw std::runtime_error("planted fault");
        return outcome_ == Outcome::kFail ? ACL_ERROR_RT_AICORE_EXCEPTION : ACL_SUCCESS;
    }
    const char* name() const noexcept override { return "probe"; }

private:
    Outcome outcome_;
    std::atomic<int>* runs_;
    std::thread::id* ranOn_;
};

/// A task that holds its stream until the test opens the gate (bounded),
/// and says when it has started.
class GateTask final : public aclcpu::DeviceTask {
public:
    explicit GateTask(std::atomic<bool>* open, std::atomic<bool>* started = nullptr)
        : open_(open), started_(started) {}
    aclError run() noexcept override {
        if (started_ != nullptr) started_->store(true);
        const auto deadline = Clock::now() + std::chrono::seconds(20);
        while (!open_->load() && Clock::now() < deadline) std::this_thread::yield();
        return ACL_SUCCESS;
    }
    const char* name() const noexcept override { return "gate"; }

private:
    std::atomic<bool>* open_;
    std::atomic<bool>* started_;
};

class DeviceTasks : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    }
    void TearDown() override {
        aclrtDestroyStream(stream_);
        aclrtResetDevice(0);
        aclFinalize();
    }

    aclError enqueue(aclrtStream stream, ProbeTask::Outcome outcome, std::thread::id* ranOn = nullptr) {
        return aclcpu::enqueue(stream, std::make_unique<ProbeTask>(outcome, &runs_, ranOn));
    }

    aclrtStream stream_ = nullptr;
    std::atomic<int> runs_{0};
};

TEST_F(DeviceTasks, FailureBecomesStickyErrorOfItsStreamOnly) {
    aclrtStream other = nullptr;
    ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
    ASSERT_EQ(enqueue(stream_, ProbeTask::Outcome::kFail), ACL_SUCCESS);
    ASSERT_EQ(enqueue(other, ProbeTask::Outcome::kSucceed), ACL_SUCCESS);

    EXPECT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    const char* message = aclGetRecentErrMsg();
    ASSERT_NE(message, nullptr);
    EXPECT_NE(std::string(message).find("probe"), std::string::npos);
    EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_AICORE_EXCEPTION);
    // Reported once: the stream is usable again afterwards.
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
}

TEST_F(DeviceTasks, ExceptionInTaskIsCaughtAndReportedByQuery) {
    ASSERT_EQ(enqueue(stream_, ProbeTask::Outcome::kThrow), ACL_SUCCESS);
    ASSERT_EQ(enqueue(stream_, ProbeTask::Outcome::kSucceed), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 20000), ACL_ERROR_RT_INTERNAL_ERROR);
    const char* message = aclGetRecentErrMsg();
    ASSERT_NE(message, nullptr);
    EXPECT_NE(std::string(message).find("planted fault"), std::string::npos);
    EXPECT_EQ(runs_.load(), 2) << "continue-on-failure (the default) runs later tasks";
}

TEST_F(DeviceTasks, StopOnFailureSkipsLaterTasksUntilTheErrorIsTaken) {
    ASSERT_EQ(aclrtSetStreamFailureMode(stream_, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
    ASSERT_EQ(enqueue(stream_, ProbeTask::Outcome::kFail), ACL_SUCCESS);
    ASSERT_EQ(enqueue(stream_, ProbeTask::Outcome::kSucceed), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    EXPECT_EQ(runs_.load(), 1);

    ASSERT_EQ(enqueue(stream_, ProbeTask::Outcome::kSucceed), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(runs_.load(), 2);
}

TEST_F(DeviceTasks, StreamQueryReturnsTheStickyError) {
    ASSERT_EQ(enqueue(stream_, ProbeTask::Outcome::kFail), ACL_SUCCESS);
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    const auto deadline = Clock::now() + std::chrono::seconds(20);
    aclError result = ACL_SUCCESS;
    while (result == ACL_SUCCESS && Clock::now() < deadline) {
        result = aclrtStreamQuery(stream_, &status);
        std::this_thread::yield();
    }
    EXPECT_EQ(result, ACL_ERROR_RT_AICORE_EXCEPTION);
    // The error comes with the failing item reported complete, and only once.
    EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE);
    EXPECT_EQ(aclrtStreamQuery(stream_, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE);
}

TEST_F(DeviceTasks, HostThreadNeverRunsDeviceWork) {
    std::vector<std::thread::id> ranOn(64);
    for (auto& id : ranOn) ASSERT_EQ(enqueue(stream_, ProbeTask::Outcome::kSucceed, &id), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    for (const auto& id : ranOn) EXPECT_NE(id, std::this_thread::get_id());
}

TEST_F(DeviceTasks, SyncOfOneStreamDoesNotWaitForAnotherHeldStream) {
    aclrtStream held = nullptr;
    ASSERT_EQ(aclrtCreateStream(&held), ACL_SUCCESS);
    std::atomic<bool> open{false};
    ASSERT_EQ(aclcpu::enqueue(held, std::make_unique<GateTask>(&open)), ACL_SUCCESS);
    ASSERT_EQ(enqueue(stream_, ProbeTask::Outcome::kSucceed), ACL_SUCCESS);

    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 10000), ACL_SUCCESS);
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    ASSERT_EQ(aclrtStreamQuery(held, &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);
    open.store(true);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(held, 20000), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(held), ACL_SUCCESS);
}

TEST_F(DeviceTasks, EnqueueOnADestroyedStreamIsRefusedAndTheTaskNeverRuns) {
    aclrtStream doomed = nullptr;
    ASSERT_EQ(aclrtCreateStream(&doomed), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(doomed), ACL_SUCCESS);
    EXPECT_EQ(enqueue(doomed, ProbeTask::Outcome::kSucceed), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_NE(aclGetRecentErrMsg(), nullptr);
    EXPECT_EQ(runs_.load(), 0);
}

/// AscendCL initialised with a device of one worker, and a way to hold that
/// worker busy so that items of other streams become ready before any runs.
class OneWorkerDevice : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(aclInit(oneWorker_.path()), ACL_SUCCESS);
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        holder_ = add_stream(nullptr);
    }
    void TearDown() override {
        open_.store(true);
        for (aclrtStream stream : streams_) EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
        EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
        EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
    }

    /// A new stream (made with config when not null), destroyed at teardown.
    aclrtStream add_stream(aclrtStreamConfigHandle* config) {
        aclrtStream stream = nullptr;
        EXPECT_EQ(config == nullptr ? aclrtCreateStream(&stream) : aclrtCreateStreamV2(&stream, config), ACL_SUCCESS);
        streams_.push_back(stream);
        return stream;
    }
    /// A new stream of CANN priority `priority` (aclrtCreateStreamV2).
    aclrtStream add_stream_of_priority(uint32_t priority) {
        aclrtStreamConfigHandle* config = aclrtCreateStreamConfigHandle();
        EXPECT_EQ(aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_PRIORITY, &priority, sizeof priority), ACL_SUCCESS);
        aclrtStream stream = add_stream(config);
        EXPECT_EQ(aclrtDestroyStreamConfigHandle(config), ACL_SUCCESS);
        return stream;
    }
    /// A new stream of CANN priority `priority` (aclrtCreateStreamWithConfig).
    aclrtStream add_stream_with_config(uint32_t priority) {
        aclrtStream stream = nullptr;
        EXPECT_EQ(aclrtCreateStreamWithConfig(&stream, priority, 0), ACL_SUCCESS);
        streams_.push_back(stream);
        return stream;
    }
    /// Runs a task on each of `streams` in that order, all made ready while
    /// the device's worker is held, and returns the order the worker ran them in.
    std::vector<aclrtStream> run_order(const std::vector<aclrtStream>& streams) {
        hold_worker();
        std::mutex orderMutex;
        std::vector<aclrtStream> order;
        for (aclrtStream stream : streams) {
            EXPECT_EQ(aclcpu::enqueue(stream, std::make_unique<FunctionTask>([&, stream] {
                          std::lock_guard<std::mutex> lock(orderMutex);
                          order.push_back(stream);
                      })),
                      ACL_SUCCESS);
        }
        release_worker();
        for (aclrtStream stream : streams) EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
        return order;
    }
    /// Returns once the worker runs a task that holds it until release_worker().
    void hold_worker() {
        open_.store(false);  // Again after an earlier hold was released (its task has run by then).
        started_.store(false);
        ASSERT_EQ(aclcpu::enqueue(holder_, std::make_unique<GateTask>(&open_, &started_)), ACL_SUCCESS);
        while (!started_.load()) std::this_thread::yield();
    }
    void release_worker() { open_.store(true); }

private:
    const aclcpu::test::TempFile oneWorker_{"{\"acl_cpu\": {\"worker_threads\": 1}}"};
    std::vector<aclrtStream> streams_;
    aclrtStream holder_ = nullptr;
    std::atomic<bool> open_{false};
    std::atomic<bool> started_{false};
};

// 24_other_APIs.md (aclrtCreateStreamV2) and 25-02_Enumerations.md
// (ACL_RT_STREAM_PRIORITY: 0 to 7, a smaller number is a higher priority,
// scheduled first): with the device's one worker held, an item of a
// priority-7 stream and then one of a priority-0 stream become ready; when
// the worker is free it runs the priority-0 item first.
TEST_F(OneWorkerDevice, AFreeWorkerTakesTheReadyItemOfTheHighestPriorityStream) {
    if (aclcpu::test::schedule_explored()) {
        GTEST_SKIP() << "an explored schedule stands for a device whose free cores run streams of any priority";
    }
    aclrtStream low = add_stream_of_priority(7);
    aclrtStream high = add_stream_of_priority(0);
    hold_worker();
    std::mutex orderMutex;
    std::vector<std::string> order;
    auto record = [&](const char* who) {
        return std::make_unique<FunctionTask>([&, who] {
            std::lock_guard<std::mutex> lock(orderMutex);
            order.push_back(who);
        });
    };
    ASSERT_EQ(aclcpu::enqueue(low, record("low")), ACL_SUCCESS);
    ASSERT_EQ(aclcpu::enqueue(high, record("high")), ACL_SUCCESS);
    release_worker();
    ASSERT_EQ(aclrtSynchronizeStream(low), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(high), ACL_SUCCESS);
    EXPECT_EQ(order, (std::vector<std::string>{"high", "low"}));
}

// Issue 29.1: aclrtCreateStreamWithConfig's priority is the stream's
// scheduling priority as aclrtCreateStreamV2's is (both reach
// rtStreamCreateWithFlags with it, aclrtCreateStreamWithConfigImpl as
// RT_STREAM_CREATE_ATTR_PRIORITY).
TEST_F(OneWorkerDevice, CreateStreamWithConfigsPriorityOrdersTheWork) {
    if (aclcpu::test::schedule_explored()) {
        GTEST_SKIP() << "an explored schedule stands for a device whose free cores run streams of any priority";
    }
    aclrtStream low = add_stream_with_config(7);
    aclrtStream high = add_stream_with_config(0);
    EXPECT_EQ(run_order({low, high}), (std::vector<aclrtStream>{high, low}));
}

// Issue 29.2: aclrtSetStreamAttribute(ACL_STREAM_ATTR_PRIORITY) changes the
// priority the stream is scheduled at (NpuDriver::SetStreamPriorityValue
// updates its queue's priority at the task scheduler): raised, a stream
// created at the lowest priority runs before one still there; lowered, a
// stream created at the highest runs after one still there.
TEST_F(OneWorkerDevice, SetStreamAttributesPriorityOrdersTheWorkAfterIt) {
    if (aclcpu::test::schedule_explored()) {
        GTEST_SKIP() << "an explored schedule stands for a device whose free cores run streams of any priority";
    }
    aclrtStream stays = add_stream_with_config(7);
    aclrtStream raised = add_stream_with_config(7);
    aclrtStreamAttrValue value{};
    value.streamPriority = 0;
    ASSERT_EQ(aclrtSetStreamAttribute(raised, ACL_STREAM_ATTR_PRIORITY, &value), ACL_SUCCESS);
    EXPECT_EQ(run_order({stays, raised}), (std::vector<aclrtStream>{raised, stays}));

    aclrtStream high = add_stream_with_config(0);
    aclrtStream lowered = add_stream_with_config(0);
    value.streamPriority = 7;
    ASSERT_EQ(aclrtSetStreamAttribute(lowered, ACL_STREAM_ATTR_PRIORITY, &value), ACL_SUCCESS);
    EXPECT_EQ(run_order({lowered, high}), (std::vector<aclrtStream>{high, lowered}));
}

// Issue 14: on two cores the emulator must not let one stream starve
// another.  A device with one worker; a stream with a backlog of 256 ready
// items and another stream with one: the worker serves the backlog in turns
// of a few items and takes the other stream's item between two turns, long
// before the backlog is through (a turn that drained its lane's whole
// queue would run all 256 first).
TEST_F(OneWorkerDevice, AStreamWithABacklogLetsAnotherStreamRunBetweenItsTurns) {
    if (aclcpu::test::schedule_explored()) {
        GTEST_SKIP() << "an explored schedule picks the next item itself";
    }
    aclrtStream busy = add_stream(nullptr);
    aclrtStream other = add_stream(nullptr);
    hold_worker();
    constexpr int kBacklog = 256;
    std::atomic<int> busyRan{0};
    int busyRanBeforeOther = -1;
    for (int i = 0; i < kBacklog; ++i) {
        ASSERT_EQ(aclcpu::enqueue(busy, std::make_unique<FunctionTask>([&] { busyRan.fetch_add(1); })), ACL_SUCCESS);
    }
    ASSERT_EQ(aclcpu::enqueue(other, std::make_unique<FunctionTask>([&] { busyRanBeforeOther = busyRan.load(); })),
              ACL_SUCCESS);
    release_worker();
    ASSERT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(busy), ACL_SUCCESS);
    EXPECT_EQ(busyRan.load(), kBacklog);
    EXPECT_GE(busyRanBeforeOther, 0);
    EXPECT_LE(busyRanBeforeOther, kBacklog / 4) << "the other stream waited for most of the backlog";
}

}  // namespace
