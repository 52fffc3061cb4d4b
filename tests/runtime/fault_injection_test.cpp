// Fault injection: the runtime survives exhausted device memory, failing and
// throwing tasks and callbacks, teardown with work pending, and bad frees.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "aclcpu/device_task.hpp"
#include "aclcpu/testing.hpp"
#include "runtime/runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

/// Counts its runs; optionally fails or throws instead of succeeding.
class CountingTask final : public DeviceTask {
public:
    enum class Outcome { kSucceed, kFail, kThrow };

    CountingTask(std::atomic<int>* runs, Outcome outcome = Outcome::kSucceed) : runs_(runs), outcome_(outcome) {}
    aclError run() override {
        runs_->fetch_add(1);
        if (outcome_ == Outcome::kThrow) throw std::runtime_error("injected task fault");
        return outcome_ == Outcome::kFail ? ACL_ERROR_RT_AICORE_EXCEPTION : ACL_SUCCESS;
    }
    const char* name() const noexcept override { return "counting"; }

private:
    std::atomic<int>* runs_;
    Outcome outcome_;
};

aclError submit(aclrtStream stream, std::atomic<int>& runs,
                CountingTask::Outcome outcome = CountingTask::Outcome::kSucceed) {
    return enqueue(stream, std::make_unique<CountingTask>(&runs, outcome));
}

void throw_from_host(void*) { throw std::runtime_error("injected callback fault"); }

/// Leaves the fault plan empty whatever a test did.
class FaultInjectionTest : public RuntimeTest {
protected:
    void TearDown() override {
        testing::set_fault_plan(testing::FaultPlan{});
        RuntimeTest::TearDown();
    }
};

size_t free_hbm() {
    size_t free = 0;
    size_t total = 0;
    EXPECT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total));
    return free;
}

TEST_F(FaultInjectionTest, InjectedExhaustionFailsCleanlyAndLeaksNothing) {
    constexpr int kAllocations = 2000;
    const size_t freeAtStart = free_hbm();
    testing::set_fault_plan(testing::FaultPlan{20261121, 0.25});
    std::mt19937 sizes(7);
    std::vector<void*> held;
    int failures = 0;
    for (int i = 0; i < kAllocations; ++i) {
        void* block = nullptr;
        const size_t size = 1 + sizes() % 65536;
        const aclError result = ACLCPU_FRESH_CALL(aclrtMalloc(&block, size, ACL_MEM_MALLOC_HUGE_FIRST));
        if (result == ACL_SUCCESS) {
            ASSERT_NE(nullptr, block);
            held.push_back(block);
        } else {
            ASSERT_TRUE(failed_with(result, {ACL_ERROR_RT_MEMORY_ALLOCATION}));
            ++failures;
        }
        if (held.size() > 64) {  // Keep the live set bounded: free the oldest half.
            for (size_t k = 0; k < 32; ++k) ASSERT_ACL_OK(aclrtFree(held[k]));
            held.erase(held.begin(), held.begin() + 32);
        }
    }
    const testing::FaultCounts counts = testing::injected_faults();
    EXPECT_EQ(static_cast<uint64_t>(failures), counts.allocationFailures);
    EXPECT_GT(failures, kAllocations / 8);
    EXPECT_LT(failures, kAllocations / 2);
    for (void* block : held) ASSERT_ACL_OK(aclrtFree(block));
    EXPECT_EQ(freeAtStart, free_hbm());
    // Without the plan the pool is fully usable again.
    testing::set_fault_plan(testing::FaultPlan{});
    DeviceBuffer after(kMiB);
    EXPECT_NE(nullptr, after.get());
}

TEST_F(FaultInjectionTest, InjectionIsDeterministicForASeed) {
    auto pattern = [] {
        testing::set_fault_plan(testing::FaultPlan{99, 0.5});
        std::vector<bool> failed;
        for (int i = 0; i < 200; ++i) {
            void* block = nullptr;
            failed.push_back(aclrtMalloc(&block, 64, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS);
            if (block != nullptr) {
                EXPECT_ACL_OK(aclrtFree(block));
            }
        }
        take_error_message();
        return failed;
    };
    EXPECT_EQ(pattern(), pattern());
}

TEST_F(FaultInjectionTest, ThrowingTaskFailsOnlyItsStreamAndLaterWorkFollowsTheFailureMode) {
    Stream continuing;
    Stream stopping;
    Stream bystander;
    ASSERT_ACL_OK(aclrtSetStreamFailureMode(stopping.get(), ACL_STOP_ON_FAILURE));
    std::atomic<int> continuingRuns{0};
    std::atomic<int> stoppingRuns{0};
    std::atomic<int> bystanderRuns{0};
    for (aclrtStream stream : {continuing.get(), stopping.get()}) {
        std::atomic<int>& runs = stream == continuing.get() ? continuingRuns : stoppingRuns;
        ASSERT_ACL_OK(submit(stream, runs));
        ASSERT_ACL_OK(submit(stream, runs, CountingTask::Outcome::kThrow));
        ASSERT_ACL_OK(submit(stream, runs, CountingTask::Outcome::kFail));
        ASSERT_ACL_OK(submit(stream, runs));
    }
    for (int i = 0; i < 16; ++i) ASSERT_ACL_OK(submit(bystander.get(), bystanderRuns));

    EXPECT_ACL_OK(aclrtSynchronizeStream(bystander.get()));
    EXPECT_EQ(16, bystanderRuns.load());
    // The first failure is the sticky one; it is returned once.
    EXPECT_TRUE(failed_with(aclrtSynchronizeStream(continuing.get()), {ACL_ERROR_RT_INTERNAL_ERROR}));
    EXPECT_ACL_OK(aclrtSynchronizeStream(continuing.get()));
    EXPECT_EQ(4, continuingRuns.load());
    EXPECT_TRUE(failed_with(aclrtSynchronizeStream(stopping.get()), {ACL_ERROR_RT_INTERNAL_ERROR}));
    EXPECT_EQ(2, stoppingRuns.load());
}

TEST_F(FaultInjectionTest, ThrowingHostFunctionBecomesTheStickyErrorAndTheStreamGoesOn) {
    Stream stream;
    std::atomic<int> runs{0};
    CallProbe probe;
    ASSERT_ACL_OK(aclrtLaunchHostFunc(stream.get(), &throw_from_host, nullptr));
    ASSERT_ACL_OK(submit(stream.get(), runs));
    ASSERT_ACL_OK(aclrtLaunchHostFunc(stream.get(), &CallProbe::record, &probe));
    take_error_message();
    ASSERT_EQ(ACL_ERROR_RT_INTERNAL_ERROR, aclrtSynchronizeStream(stream.get()));
    EXPECT_NE(std::string::npos, take_error_message().find("injected callback fault"));
    EXPECT_EQ(1, runs.load());
    EXPECT_EQ(1, probe.calls.load()) << "the host worker survived the exception";
}

TEST_F(FaultInjectionTest, ThrowingCallbackLeavesTheReportThreadServing) {
    Stream stream;
    ReportThread reporter(stream.get());
    ASSERT_ACL_OK(reporter.subscribe_result());
    CallProbe probe;
    ASSERT_ACL_OK(aclrtLaunchCallback(&throw_from_host, nullptr, ACL_CALLBACK_BLOCK, stream.get()));
    ASSERT_ACL_OK(aclrtLaunchCallback(&CallProbe::record, &probe, ACL_CALLBACK_BLOCK, stream.get()));
    EXPECT_TRUE(failed_with(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs),
                            {ACL_ERROR_RT_INTERNAL_ERROR}));
    EXPECT_EQ(1, probe.calls.load());
    EXPECT_EQ(ACL_SUCCESS, reporter.first_unexpected_error());
}

TEST_F(FaultInjectionTest, PendingWorkDumpNamesTheHeldStreamOnly) {
    Stream held;
    Stream idle;
    std::atomic<int> runs{0};
    ASSERT_ACL_OK(submit(idle.get(), runs));
    ASSERT_ACL_OK(aclrtSynchronizeStream(idle.get()));
    EXPECT_EQ("", describe_pending_work());
    Gate gate;
    ASSERT_ACL_OK(gate.hold(held.get()));
    ASSERT_ACL_OK(submit(held.get(), runs));
    ASSERT_TRUE(gate.wait_until_reached());
    // The hold runs on the host worker as soon as it is dispatched, which can
    // be before the lane's worker has finished the dispatching task: the dump
    // may show that task running for a moment before the gate's wait.
    const std::string waiting = "waits for an event, a blocking host call";
    std::string dump = describe_pending_work();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kBoundedWaitMs);
    while (dump.find(waiting) == std::string::npos && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        dump = describe_pending_work();
    }
    char handle[32];
    std::snprintf(handle, sizeof handle, "%p", held.get());
    EXPECT_NE(std::string::npos, dump.find(handle)) << dump;
    EXPECT_NE(std::string::npos, dump.find(waiting)) << dump;
    std::snprintf(handle, sizeof handle, "%p", idle.get());
    EXPECT_EQ(std::string::npos, dump.find(handle)) << dump;
    gate.open();
    EXPECT_ACL_OK(aclrtSynchronizeStream(held.get()));
    EXPECT_EQ("", describe_pending_work());
}

TEST_F(FaultInjectionTest, DestroyingAStreamWithWorkPendingRunsAllOfIt) {
    constexpr int kTasks = 500;
    std::atomic<int> runs{0};
    Stream stream;
    for (int i = 0; i < kTasks; ++i) ASSERT_ACL_OK(submit(stream.get(), runs));
    ASSERT_ACL_OK(aclrtDestroyStream(stream.release()));
    EXPECT_EQ(kTasks, runs.load());
}

TEST_F(FaultInjectionTest, DestroyingAnEventWithAWaiterPendingKeepsTheWaitAndTheWork) {
    Stream producer;
    Stream consumer;
    std::atomic<int> produced{0};
    std::atomic<int> producedWhenConsumed{-1};
    aclrtEvent event = nullptr;
    ASSERT_ACL_OK(aclrtCreateEventWithFlag(&event, ACL_EVENT_SYNC));
    Gate gate;
    ASSERT_ACL_OK(gate.hold(producer.get()));
    ASSERT_ACL_OK(submit(producer.get(), produced));
    ASSERT_ACL_OK(aclrtRecordEvent(event, producer.get()));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(consumer.get(), event));
    ASSERT_ACL_OK(enqueue(consumer.get(), std::make_unique<FunctionTask>(
                                              [&] { producedWhenConsumed.store(produced.load()); })));
    ASSERT_ACL_OK(aclrtDestroyEvent(event));
    gate.open();
    EXPECT_ACL_OK(aclrtSynchronizeStream(consumer.get()));
    EXPECT_EQ(1, producedWhenConsumed.load()) << "the consumer ran once, after the producer's recorded work";
}

TEST_F(FaultInjectionTest, ResetDeviceWithWorkPendingDrainsEveryStream) {
    constexpr int kStreams = 8;
    constexpr int kTasksPerStream = 200;
    std::atomic<int> runs{0};
    for (int s = 0; s < kStreams; ++s) {
        aclrtStream stream = nullptr;
        ASSERT_ACL_OK(aclrtCreateStream(&stream));  // Left for the reset to destroy.
        for (int i = 0; i < kTasksPerStream; ++i) ASSERT_ACL_OK(submit(stream, runs));
    }
    for (int i = 0; i < kTasksPerStream; ++i) ASSERT_ACL_OK(submit(nullptr, runs));
    ASSERT_ACL_OK(aclrtResetDevice(0));
    EXPECT_EQ((kStreams + 1) * kTasksPerStream, runs.load());
    ASSERT_ACL_OK(aclrtSetDevice(0));  // For TearDown, and to show the device comes back.
    DeviceBuffer buffer(4096);
    EXPECT_NE(nullptr, buffer.get());
}

TEST(FaultInjectionFinalize, FinalizeWithWorkPendingDrainsItAndTheRuntimeComesBack) {
    DefaultEnvironment environment;
    constexpr int kTasks = 300;
    std::atomic<int> runs{0};
    ASSERT_ACL_OK(aclInit(nullptr));
    ASSERT_ACL_OK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&stream));
    void* leaked = nullptr;  // Reclaimed by aclFinalize.
    ASSERT_ACL_OK(aclrtMalloc(&leaked, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    for (int i = 0; i < kTasks; ++i) ASSERT_ACL_OK(submit(stream, runs));
    for (int i = 0; i < kTasks; ++i) ASSERT_ACL_OK(submit(nullptr, runs));
    ASSERT_ACL_OK(aclFinalize());
    EXPECT_EQ(2 * kTasks, runs.load());

    ASSERT_ACL_OK(aclInit(nullptr));
    ASSERT_ACL_OK(aclrtSetDevice(0));
    {
        DeviceBuffer buffer(4096);
        EXPECT_NE(nullptr, buffer.get());
    }
    ASSERT_ACL_OK(aclrtResetDevice(0));
    ASSERT_ACL_OK(aclFinalize());
}

}  // namespace
}  // namespace aclcpu::test
