// Schedule exploration (ACLCPU_SCHEDULE, docs/schedule_exploration.md): the
// seeded policies permute only what CANN leaves unordered -- the items of
// different streams -- replay the same interleaving for the same seed, and
// never hang a program that polls or waits by other means.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclcpu/device_task.hpp"
#include "aclcpu/instrumentation.hpp"
#include "runtime_test_support.hpp"

namespace {

using aclcpu::test::FunctionTask;
using aclcpu::test::ScopedEnv;
using aclcpu::test::TempFile;

/// The order in which labelled tasks ran, over all streams.
class RunLog {
public:
    void enqueue(aclrtStream stream, int label) {
        ASSERT_EQ(aclcpu::enqueue(stream, std::make_unique<FunctionTask>([this, label] { append(label); })),
                  ACL_SUCCESS);
    }
    std::vector<int> order() {
        std::lock_guard<std::mutex> lock(mutex_);
        return order_;
    }

private:
    void append(int label) {
        std::lock_guard<std::mutex> lock(mutex_);
        order_.push_back(label);
    }

    std::mutex mutex_;
    std::vector<int> order_;
};

/// aclInit .. aclFinalize on device 0 with ACLCPU_SCHEDULE = schedule and
/// `workers` worker threads.
class ExploredRuntime {
public:
    ExploredRuntime(const std::string& schedule, int workers)
        : schedule_("ACLCPU_SCHEDULE", schedule), workers_("ACLCPU_WORKER_THREADS", std::to_string(workers)) {
        EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS);
        EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    }
    ~ExploredRuntime() {
        EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
        EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
    }
    ExploredRuntime(const ExploredRuntime&) = delete;
    ExploredRuntime& operator=(const ExploredRuntime&) = delete;

private:
    ScopedEnv schedule_;
    ScopedEnv workers_;
};

constexpr int kStreams = 4;
constexpr int kRounds = 6;
constexpr int kEventRound = 2;  ///< Stream 1 waits for stream 0's first kEventRound + 1 tasks.

int label_of(int stream, int round) { return stream * 100 + round; }

/// A single-threaded program: kRounds tasks on each of kStreams streams,
/// submitted round-robin, with stream 1 waiting for an event recorded on
/// stream 0 after its round kEventRound; then one device synchronisation.
/// Returns the order the tasks ran in.
std::vector<int> run_program(const std::string& schedule, int workers) {
    const ExploredRuntime runtime(schedule, workers);
    std::vector<aclrtStream> streams(kStreams);
    for (aclrtStream& stream : streams) EXPECT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    aclrtEvent event = nullptr;
    EXPECT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    RunLog log;
    for (int round = 0; round < kRounds; ++round) {
        for (int stream = 0; stream < kStreams; ++stream) log.enqueue(streams[stream], label_of(stream, round));
        if (round == kEventRound) {
            EXPECT_EQ(aclrtRecordEvent(event, streams[0]), ACL_SUCCESS);
            EXPECT_EQ(aclrtStreamWaitEvent(streams[1], event), ACL_SUCCESS);
        }
    }
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
    for (aclrtStream stream : streams) EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    return log.order();
}

size_t position(const std::vector<int>& order, int label) {
    return static_cast<size_t>(std::find(order.begin(), order.end(), label) - order.begin());
}

/// What CANN orders must hold in every schedule: each stream's tasks in
/// submission order (03_stream_management.md: a stream runs its tasks in
/// order), and stream 1's tasks submitted after the wait after stream 0's
/// task before the record (07_event_management.md, aclrtStreamWaitEvent).
void expect_cann_order(const std::vector<int>& order) {
    ASSERT_EQ(order.size(), size_t{kStreams * kRounds});
    for (int stream = 0; stream < kStreams; ++stream) {
        for (int round = 1; round < kRounds; ++round) {
            EXPECT_LT(position(order, label_of(stream, round - 1)), position(order, label_of(stream, round)));
        }
    }
    EXPECT_LT(position(order, label_of(0, kEventRound)), position(order, label_of(1, kEventRound + 1)));
}

TEST(ScheduleExploration, TheSameSeedGivesTheSameInterleavingForAnyWorkerCount) {
    for (const char* schedule : {"random:7", "adversarial:7"}) {
        const std::vector<int> reference = run_program(schedule, 1);
        expect_cann_order(reference);
        EXPECT_EQ(run_program(schedule, 1), reference) << schedule << ", again";
        EXPECT_EQ(run_program(schedule, 2), reference) << schedule << ", 2 workers";
        EXPECT_EQ(run_program(schedule, 4), reference) << schedule << ", 4 workers";
    }
}

TEST(ScheduleExploration, SeedsPermuteOnlyWhatCannLeavesUnordered) {
    for (const char* policy : {"random:", "adversarial:"}) {
        std::set<std::vector<int>> orders;
        for (int seed = 1; seed <= 6; ++seed) {
            const std::vector<int> order = run_program(policy + std::to_string(seed), 2);
            expect_cann_order(order);
            orders.insert(order);
        }
        EXPECT_GE(orders.size(), size_t{2}) << policy << " gave one interleaving for six seeds";
    }
}

/// A producer on one stream and, with nothing ordering them, a consumer on
/// another: the order a missing event wait leaves open.  Returns whether
/// the consumer ran first.
bool consumer_ran_first(const std::string& schedule) {
    const ExploredRuntime runtime(schedule, 2);
    aclrtStream producer = nullptr;
    aclrtStream consumer = nullptr;
    EXPECT_EQ(aclrtCreateStream(&producer), ACL_SUCCESS);
    EXPECT_EQ(aclrtCreateStream(&consumer), ACL_SUCCESS);
    RunLog log;
    log.enqueue(producer, 0);
    log.enqueue(consumer, 1);
    EXPECT_EQ(aclrtSynchronizeStream(consumer), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(producer), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(producer), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(consumer), ACL_SUCCESS);
    const std::vector<int> order = log.order();
    return order.size() == 2 && order[0] == 1;
}

// Against fifo nothing can be asserted: two workers race for the two items.
TEST(ScheduleExploration, AdversarialMostlyRunsTheLaterReleasedItemFirst) {
    int consumerFirst = 0;
    constexpr int kSeeds = 8;
    for (int seed = 1; seed <= kSeeds; ++seed) {
        if (consumer_ran_first("adversarial:" + std::to_string(seed))) ++consumerFirst;
    }
    EXPECT_GE(consumerFirst, kSeeds / 2);
}

/// Which streams' items start, in order (an observer: items that are not
/// FunctionTasks -- copies, sets, records -- have no RunLog label).
class StartLog final : public aclcpu::instrument::Observer {
public:
    void on_work_begin(aclcpu::instrument::StreamId stream, uint64_t) override {
        std::lock_guard<std::mutex> lock(mutex_);
        started_.push_back(stream);
    }
    std::vector<aclcpu::instrument::StreamId> started() {
        std::lock_guard<std::mutex> lock(mutex_);
        return started_;
    }

private:
    std::mutex mutex_;
    std::vector<aclcpu::instrument::StreamId> started_;
};

enum class Kind { kWriter, kTask, kRecord };

/// Three streams, nothing ordering them: a memset (writes memory), then a
/// plain task (writes nothing it declares), then an event record, released
/// in that order.  Returns the kinds in the order they started.
std::vector<Kind> start_order(const std::string& schedule) {
    const auto log = std::make_shared<StartLog>();
    std::vector<Kind> order;
    {
        const ExploredRuntime runtime(schedule, 2);
        aclcpu::instrument::install(log);
        aclrtStream streams[3] = {};
        for (aclrtStream& stream : streams) EXPECT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
        void* buffer = nullptr;
        EXPECT_EQ(aclrtMalloc(&buffer, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        aclrtEvent event = nullptr;
        EXPECT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
        EXPECT_EQ(aclrtMemsetAsync(buffer, 64, 1, 64, streams[0]), ACL_SUCCESS);
        EXPECT_EQ(aclcpu::enqueue(streams[1], std::make_unique<FunctionTask>([] {})), ACL_SUCCESS);
        EXPECT_EQ(aclrtRecordEvent(event, streams[2]), ACL_SUCCESS);
        EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
        for (aclcpu::instrument::StreamId started : log->started()) {
            order.push_back(static_cast<Kind>(std::find(std::begin(streams), std::end(streams), started) -
                                              std::begin(streams)));
        }
        aclcpu::instrument::uninstall(log.get());
        EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
        EXPECT_EQ(aclrtFree(buffer), ACL_SUCCESS);
        for (aclrtStream stream : streams) EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    }
    return order;
}

// The adversarial bias: hold back items that write memory or record
// events, run readers, waiters and host calls first.  Release order alone
// (writer, task, record; last released first: record, task, writer) gives
// neither.  fifo is no reference: there the workers race for the three
// items and any start order can happen.
TEST(ScheduleExploration, AdversarialRunsWritersLateAndRecordsLast) {
    const std::vector<Kind> eager{Kind::kTask, Kind::kWriter, Kind::kRecord};
    int mostEagerFirst = 0;
    constexpr int kSeeds = 8;
    for (int seed = 1; seed <= kSeeds; ++seed) {
        const std::vector<Kind> order = start_order("adversarial:" + std::to_string(seed));
        ASSERT_EQ(order.size(), size_t{3}) << "seed " << seed;
        if (order == eager) ++mostEagerFirst;
    }
    EXPECT_GE(mostEagerFirst, kSeeds / 2);
}

// A program that polls (03_stream_management.md, aclrtStreamQuery;
// 07_event_management.md, aclrtQueryEventStatus) instead of waiting sees
// its work complete: every query drives held work.
TEST(ScheduleExploration, QueriesDriveTheHeldWork) {
    const ExploredRuntime runtime("random:3", 2);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    RunLog log;
    for (int i = 0; i < 3; ++i) log.enqueue(stream, i);
    ASSERT_EQ(aclrtRecordEvent(event, stream), ACL_SUCCESS);
    int queries = 0;
    for (; queries < 1000 && aclcpu::test::event_status(event) != ACL_EVENT_STATUS_COMPLETE; ++queries) {
    }
    EXPECT_GT(queries, 0) << "nothing was held back";
    EXPECT_EQ(log.order(), (std::vector<int>{0, 1, 2}));
    log.enqueue(stream, 3);
    for (queries = 0; queries < 1000 && aclcpu::test::stream_status(stream) != ACL_STREAM_STATUS_COMPLETE; ++queries) {
    }
    EXPECT_EQ(log.order(), (std::vector<int>{0, 1, 2, 3}));
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST(ScheduleExploration, WorkNoHostCallWaitsForStillRuns) {
    const ExploredRuntime runtime("adversarial:5", 2);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    std::atomic<bool> ran{false};
    ASSERT_EQ(aclcpu::enqueue(stream, std::make_unique<FunctionTask>([&ran] { ran = true; })), ACL_SUCCESS);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(aclcpu::test::kBoundedWaitMs);
    while (!ran.load() && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    EXPECT_TRUE(ran.load());
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST(ScheduleExploration, ATaskWaitingForTheHostDoesNotHoldUpOtherStreams) {
    const ExploredRuntime runtime("adversarial:1", 2);
    aclrtStream held = nullptr;
    aclrtStream other = nullptr;
    ASSERT_EQ(aclrtCreateStream(&held), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
    std::atomic<bool> open{false};
    ASSERT_EQ(aclcpu::enqueue(held, std::make_unique<FunctionTask>([&open] {
                                  const auto limit = std::chrono::steady_clock::now() +
                                                     std::chrono::milliseconds(aclcpu::test::kGateHoldLimitMs);
                                  while (!open.load() && std::chrono::steady_clock::now() < limit) {
                                      std::this_thread::yield();
                                  }
                              })),
              ACL_SUCCESS);
    RunLog log;
    log.enqueue(other, 1);
    // Whether or not the driver picks the held task first, the other stream's
    // synchronisation returns while that task still waits for the host.
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(other, aclcpu::test::kBoundedWaitMs), ACL_SUCCESS);
    EXPECT_EQ(log.order(), std::vector<int>{1});
    open = true;
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(held, aclcpu::test::kBoundedWaitMs), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(held), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
}

TEST(ScheduleExploration, AMalformedScheduleIsRefused) {
    for (const char* value : {"", "random", "random:", "random:-1", "random:1x", "random:18446744073709551616",
                              "adversarial: 3", "sometimes:3", "FIFO"}) {
        const ScopedEnv schedule("ACLCPU_SCHEDULE", std::string(value));
        EXPECT_TRUE(aclcpu::test::failed_with(aclInit(nullptr), {ACL_ERROR_INVALID_PARAM})) << '"' << value << '"';
    }
    const ScopedEnv unset("ACLCPU_SCHEDULE", std::nullopt);
    const TempFile file("{\"acl_cpu\": {\"schedule\": \"random:x\"}}");
    EXPECT_TRUE(aclcpu::test::failed_with(aclInit(file.path()), {ACL_ERROR_FILE_ATTR_INVALID}));
    const TempFile largest("{\"acl_cpu\": {\"schedule\": \"random:18446744073709551615\"}}");
    ASSERT_EQ(aclInit(largest.path()), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(ScheduleExploration, TheTraceNamesTheSchedule) {
    for (const char* schedule : {"fifo", "adversarial:3"}) {
        const TempFile trace("");
        {
            const ScopedEnv path("ACLCPU_TRACE", std::string(trace.path()));
            const ExploredRuntime runtime(schedule, 1);
        }
        std::ifstream file(trace.path());
        const std::string text{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
        EXPECT_NE(text.find(std::string("\"schedule\":\"") + schedule + "\""), std::string::npos)
            << text.substr(0, 200);
    }
}

}  // namespace
