// Stress: ACL Graph capture and replay from many host threads at once.
//
// Each worker thread, round after round, captures a model of its own on its
// own streams (a fork to two side streams and a join back, through events
// made by aclrtCreateEventExWithFlag, in each of the three capture modes) --
// or, every fourth round, builds the same model on persistent streams
// (aclmdlRIBuildBegin .. aclmdlRIBuildEnd) with a label switch that decides
// at each replay, from a device word the host changes between batches,
// whether side 1's set runs --
// replays it in batches spread over two runner streams without waiting in
// between, checks the bytes the batches produced, and destroys the model --
// sometimes with replays still queued, which aclmdlRIDestroy must wait for.
// Between batches it also replays one model that the main thread captured
// and that every worker replays concurrently from its own streams.  So
// captures run on several threads at once, one model is replayed from many
// streams and threads at once, and models are destroyed while other threads
// replay other models.
//
// What is checked is independent of timing:
//   - a worker's model adds its input into an accumulator on every replay
//     (B += A, non-atomically, on a side stream); after each batch the
//     accumulator, copied out by the replay itself, equals the sequential
//     sum the host predicts, and the join's other branch (a set and a copy)
//     produced its bytes -- in a built model, the set's or the skipped
//     set's;
//   - the shared model increments a device counter non-atomically on a
//     side stream; at the end it equals the number of replays submitted;
//   - replays of one model never overlap: every model brackets its work with
//     tasks (aclcpu::enqueue) that count how many replays are inside it;
//   - aclmdlRIGetStreams lists the origin and its two side streams, and each
//     destroy callback runs exactly once.
// A watchdog turns a hang into a failure that prints what every stream waits
// on.  ACLCPU_GRAPH_STRESS_ROUNDS (default kDefaultRounds) sets the rounds
// per worker for a longer soak.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclcpu/device_task.hpp"
#include "aclcpu/testing.hpp"
#include "runtime/runtime_test_support.hpp"
#include "stress/stress_watchdog.hpp"

namespace {

using aclcpu::test::FunctionTask;

constexpr int kWorkers = 4;
constexpr int kDefaultRounds = 40;
constexpr int kBatchesPerRound = 4;
constexpr int kMaxBatch = 4;            ///< Replays per batch: 1..kMaxBatch.
constexpr int kSharedReplaysPerBatch = 2;
constexpr size_t kBytes = 4096;
constexpr int32_t kSyncTimeoutMs = 30000;

int rounds() {
    const char* value = std::getenv("ACLCPU_GRAPH_STRESS_ROUNDS");
    const int parsed = value != nullptr ? std::atoi(value) : 0;
    return parsed > 0 ? parsed : kDefaultRounds;
}

/// Counts how many replays of one model are inside it at once.
struct Bracket {
    std::atomic<int> inside{0};
    std::atomic<int> overlaps{0};
    std::atomic<int> entries{0};

    std::unique_ptr<FunctionTask> enter() {
        return std::make_unique<FunctionTask>([this] {
            if (inside.fetch_add(1) != 0) overlaps.fetch_add(1);
            entries.fetch_add(1);
        });
    }
    std::unique_ptr<FunctionTask> leave() {
        return std::make_unique<FunctionTask>([this] {
            if (inside.fetch_sub(1) != 1) overlaps.fetch_add(1);
        });
    }
};

struct Shared {
    std::atomic<uint64_t> heartbeat{0};
    std::atomic<uint64_t> sharedReplays{0};
    std::atomic<uint64_t> ownReplays{0};
    std::atomic<uint64_t> modelsBuilt{0};
    std::atomic<uint64_t> destroyedWithQueuedReplays{0};
    aclrtContext context = nullptr;
    aclmdlRI sharedModel = nullptr;
};

std::atomic<int> gDestroyCallbacks{0};
void count_destroy(void* calls) {
    static_cast<std::atomic<int>*>(calls)->fetch_add(1);
    gDestroyCallbacks.fetch_add(1);
}

void synchronize(aclrtStream stream, Shared& shared) {
    const aclError result = aclrtSynchronizeStreamWithTimeout(stream, kSyncTimeoutMs);
    if (result == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT) {
        ADD_FAILURE() << "stream " << stream << " hung; pending work:\n" << aclcpu::describe_pending_work();
    }
    ASSERT_EQ(ACL_SUCCESS, result) << aclGetRecentErrMsg();
    shared.heartbeat.fetch_add(1, std::memory_order_relaxed);
}

/// The streams, events and memory of one capture: an origin, two side
/// streams it forks to and joins back from.
struct CaptureKit {
    aclrtStream origin = nullptr;
    aclrtStream side[2] = {nullptr, nullptr};
    aclrtEvent fork = nullptr;
    aclrtEvent join[2] = {nullptr, nullptr};

    /// flags: 0, or ACL_STREAM_PERSISTENT for the streams of a built model.
    void open(uint32_t flags = 0) {
        ASSERT_EQ(ACL_SUCCESS, aclrtCreateStreamWithConfig(&origin, 0, flags));
        for (aclrtStream& stream : side) ASSERT_EQ(ACL_SUCCESS, aclrtCreateStreamWithConfig(&stream, 0, flags));
        ASSERT_EQ(ACL_SUCCESS, aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC));
        for (aclrtEvent& event : join) ASSERT_EQ(ACL_SUCCESS, aclrtCreateEventExWithFlag(&event, ACL_EVENT_SYNC));
    }
    void close() {
        for (aclrtEvent event : {fork, join[0], join[1]}) EXPECT_EQ(ACL_SUCCESS, aclrtDestroyEvent(event));
        for (aclrtStream stream : {origin, side[0], side[1]}) EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(stream));
    }
    void fork_out() const {
        ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(fork, origin));
        for (aclrtStream stream : side) ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(stream, fork));
    }
    void join_back() const {
        for (int i = 0; i < 2; ++i) {
            ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(join[i], side[i]));
            ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(origin, join[i]));
        }
    }
    /// aclmdlRIGetStreams lists the origin first, then the side streams in
    /// the order they joined.
    void expect_streams(aclmdlRI model) const {
        uint32_t count = 0;
        ASSERT_EQ(ACL_SUCCESS, aclmdlRIGetStreams(model, nullptr, &count));
        ASSERT_EQ(3u, count);
        aclrtStream streams[3] = {};
        ASSERT_EQ(ACL_SUCCESS, aclmdlRIGetStreams(model, streams, &count));
        EXPECT_EQ(origin, streams[0]);
        EXPECT_EQ(side[0], streams[1]);
        EXPECT_EQ(side[1], streams[2]);
    }
};

/// The model the main thread captures and every worker replays: a counter
/// incremented non-atomically on a side stream, bracketed on the origin.
class SharedModel {
public:
    void capture(Shared& shared) {
        ASSERT_NO_FATAL_FAILURE(kit_.open());
        ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&counter_, sizeof(uint64_t), ACL_MEM_MALLOC_HUGE_FIRST));
        ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(counter_, sizeof(uint64_t), 0, sizeof(uint64_t), kit_.origin));
        ASSERT_NO_FATAL_FAILURE(synchronize(kit_.origin, shared));
        ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(kit_.origin, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
        ASSERT_EQ(ACL_SUCCESS, aclcpu::enqueue(kit_.origin, bracket_.enter()));
        ASSERT_NO_FATAL_FAILURE(kit_.fork_out());
        auto* counter = static_cast<uint64_t*>(counter_);
        ASSERT_EQ(ACL_SUCCESS, aclcpu::enqueue(kit_.side[0], std::make_unique<FunctionTask>([counter] {
                                                   const uint64_t before = *counter;
                                                   std::this_thread::yield();
                                                   *counter = before + 1;
                                               })));
        ASSERT_NO_FATAL_FAILURE(kit_.join_back());
        ASSERT_EQ(ACL_SUCCESS, aclcpu::enqueue(kit_.origin, bracket_.leave()));
        ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(kit_.origin, &shared.sharedModel));
        ASSERT_NO_FATAL_FAILURE(kit_.expect_streams(shared.sharedModel));
        ASSERT_EQ(ACL_SUCCESS, aclmdlRISetName(shared.sharedModel, "shared"));
    }

    void verify_and_destroy(Shared& shared) {
        uint64_t counted = 0;
        ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(&counted, sizeof counted, counter_, sizeof counted, ACL_MEMCPY_DEVICE_TO_HOST));
        EXPECT_EQ(shared.sharedReplays.load(), counted) << "the shared model's replays lost or repeated increments";
        EXPECT_EQ(static_cast<int>(shared.sharedReplays.load()), bracket_.entries.load());
        EXPECT_EQ(0, bracket_.overlaps.load()) << "replays of the shared model overlapped";
        EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(shared.sharedModel));
        kit_.close();
        EXPECT_EQ(ACL_SUCCESS, aclrtFree(counter_));
    }

private:
    CaptureKit kit_;
    Bracket bracket_;
    void* counter_ = nullptr;
};

/// One worker thread's program.
class Worker {
public:
    Worker(int index, Shared& shared) : index_(index), shared_(shared) {}

    void operator()() {
        ASSERT_EQ(ACL_SUCCESS, aclrtSetCurrentContext(shared_.context));
        ASSERT_NO_FATAL_FAILURE(open());
        const int total = rounds();
        for (int round = 0; round < total; ++round) ASSERT_NO_FATAL_FAILURE(run_round(round));
        close();
    }

private:
    void open() {
        ASSERT_NO_FATAL_FAILURE(kit_.open());
        ASSERT_NO_FATAL_FAILURE(persistent_.open(ACL_STREAM_PERSISTENT));
        for (aclrtLabel& label : labels_) ASSERT_EQ(ACL_SUCCESS, aclrtCreateLabel(&label));
        ASSERT_EQ(ACL_SUCCESS, aclrtCreateLabelList(labels_, 2, &labelList_));
        ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&branch_, sizeof(uint32_t), ACL_MEM_MALLOC_HUGE_FIRST));
        for (aclrtStream& stream : runners_) ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&stream));
        for (void** buffer : {&a_, &b_, &c_, &d_}) {
            ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(buffer, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
        }
        for (void** buffer : {&in_, &out_, &outD_}) ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost(buffer, kBytes));
    }

    void close() {
        kit_.close();
        persistent_.close();
        EXPECT_EQ(ACL_SUCCESS, aclrtDestroyLabelList(labelList_));
        for (aclrtLabel label : labels_) EXPECT_EQ(ACL_SUCCESS, aclrtDestroyLabel(label));
        EXPECT_EQ(ACL_SUCCESS, aclrtFree(branch_));
        for (aclrtStream stream : runners_) EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(stream));
        for (void* buffer : {a_, b_, c_, d_}) EXPECT_EQ(ACL_SUCCESS, aclrtFree(buffer));
        for (void* buffer : {in_, out_, outD_}) EXPECT_EQ(ACL_SUCCESS, aclrtFreeHost(buffer));
    }

    uint8_t* bytes(void* buffer) const { return static_cast<uint8_t*>(buffer); }

    /// The model's work on kit's streams: A <- In; fork; side 0: B += A;
    /// side 1: C = fill, D <- C; join; Out <- B, OutD <- D.  Bracketed on the
    /// origin.  With `branch`, side 1 first switches on the device word
    /// branch_: to the set (0) or past it (1).
    void record_work(const CaptureKit& kit, uint8_t fill, Bracket& bracket, bool branch) {
        ASSERT_EQ(ACL_SUCCESS, aclcpu::enqueue(kit.origin, bracket.enter()));
        ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(a_, kBytes, in_, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, kit.origin));
        ASSERT_NO_FATAL_FAILURE(kit.fork_out());
        uint8_t* a = bytes(a_);
        uint8_t* b = bytes(b_);
        ASSERT_EQ(ACL_SUCCESS, aclcpu::enqueue(kit.side[0], std::make_unique<FunctionTask>([a, b] {
                                                   for (size_t i = 0; i < kBytes; ++i) b[i] = uint8_t(b[i] + a[i]);
                                               })));
        if (branch) {
            ASSERT_EQ(ACL_SUCCESS, aclrtSwitchLabelByIndex(branch_, 2, labelList_, kit.side[1]));
            ASSERT_EQ(ACL_SUCCESS, aclrtSetLabel(labels_[0], kit.side[1]));
        }
        ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(c_, kBytes, fill, kBytes, kit.side[1]));
        if (branch) {
            ASSERT_EQ(ACL_SUCCESS, aclrtSetLabel(labels_[1], kit.side[1]));
        }
        ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(d_, kBytes, c_, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, kit.side[1]));
        ASSERT_NO_FATAL_FAILURE(kit.join_back());
        ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(out_, kBytes, b_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, kit.origin));
        ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(outD_, kBytes, d_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, kit.origin));
        ASSERT_EQ(ACL_SUCCESS, aclcpu::enqueue(kit.origin, bracket.leave()));
    }

    void capture(aclmdlRICaptureMode mode, uint8_t fill, Bracket& bracket, aclmdlRI& model) {
        ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(kit_.origin, mode));
        ASSERT_NO_FATAL_FAILURE(record_work(kit_, fill, bracket, false));
        aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
        ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureGetInfo(kit_.side[1], &status, nullptr));
        EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE, status);
        ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(kit_.origin, &model)) << aclGetRecentErrMsg();
        ASSERT_NE(nullptr, model);
        shared_.modelsBuilt.fetch_add(1);
    }

    /// The same model built on persistent streams, with the branch; the
    /// streams are unbound again once the model is built.
    void build(uint8_t fill, Bracket& bracket, aclmdlRI& model) {
        ASSERT_EQ(ACL_SUCCESS, aclmdlRIBuildBegin(&model, 0));
        for (aclrtStream stream : {persistent_.origin, persistent_.side[0], persistent_.side[1]}) {
            ASSERT_EQ(ACL_SUCCESS, aclmdlRIBindStream(model, stream, 0));
        }
        ASSERT_NO_FATAL_FAILURE(record_work(persistent_, fill, bracket, true));
        ASSERT_EQ(ACL_SUCCESS, aclmdlRIEndTask(model, persistent_.origin));
        ASSERT_EQ(ACL_SUCCESS, aclmdlRIBuildEnd(model, nullptr)) << aclGetRecentErrMsg();
        ASSERT_NO_FATAL_FAILURE(persistent_.expect_streams(model));
        for (aclrtStream stream : {persistent_.origin, persistent_.side[0], persistent_.side[1]}) {
            ASSERT_EQ(ACL_SUCCESS, aclmdlRIUnbindStream(model, stream));
        }
        shared_.modelsBuilt.fetch_add(1);
    }

    void replay_shared(int count, int salt) {
        for (int i = 0; i < count; ++i) {
            ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(shared_.sharedModel, runners_[(i + salt) % 2]));
            shared_.sharedReplays.fetch_add(1);
        }
    }

    void run_round(int round) {
        static constexpr aclmdlRICaptureMode kModes[] = {ACL_MODEL_RI_CAPTURE_MODE_GLOBAL,
                                                         ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL,
                                                         ACL_MODEL_RI_CAPTURE_MODE_RELAXED};
        const uint8_t fill = static_cast<uint8_t>(index_ * 16 + round);
        // The accumulator starts at zero, and C holds what side 1's copy
        // reads when a built model's branch skips the set (uncaptured work,
        // ordered before the replays by a sync; the synchronous calls are
        // refused while other threads capture in GLOBAL mode).
        uint8_t setBytes = static_cast<uint8_t>(~fill);
        ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(b_, kBytes, 0, kBytes, kit_.origin));
        ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(c_, kBytes, setBytes, kBytes, kit_.origin));
        ASSERT_NO_FATAL_FAILURE(synchronize(kit_.origin, shared_));
        Bracket bracket;
        aclmdlRI model = nullptr;
        const bool built = round % 4 == 3;
        if (built) {
            ASSERT_NO_FATAL_FAILURE(build(fill, bracket, model));
        } else {
            ASSERT_NO_FATAL_FAILURE(capture(kModes[(index_ + round) % 3], fill, bracket, model));
            ASSERT_NO_FATAL_FAILURE(kit_.expect_streams(model));
        }
        std::atomic<int> destroyCalls{0};
        ASSERT_EQ(ACL_SUCCESS, aclmdlRIDestroyRegisterCallback(model, count_destroy, &destroyCalls));

        std::vector<uint8_t> accumulator(kBytes, 0);  // The host's prediction of B.
        int replays = 0;
        const bool destroyWhileQueued = (index_ + round) % 2 == 0;
        for (int batch = 0; batch < kBatchesPerRound; ++batch) {
            // The input changes only between batches, when no replay reads it.
            const int batchSize = 1 + (index_ + round + batch) % kMaxBatch;
            for (size_t i = 0; i < kBytes; ++i) bytes(in_)[i] = static_cast<uint8_t>(i * 7 + batch * 13 + index_ + round);
            // Branch 1 is set bytewise (0x01010101): past the list, which CANN takes as its last label.
            const uint32_t branch = (batch + index_) % 2;
            ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(branch_, sizeof branch, branch, sizeof branch, runners_[0]));
            ASSERT_NO_FATAL_FAILURE(synchronize(runners_[0], shared_));
            if (!built || branch == 0) setBytes = fill;
            ASSERT_NO_FATAL_FAILURE(replay_shared(kSharedReplaysPerBatch, batch));
            for (int k = 0; k < batchSize; ++k) {
                ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(model, runners_[(k + batch) % 2]));
                ++replays;
            }
            ASSERT_NO_FATAL_FAILURE(replay_shared(kSharedReplaysPerBatch, batch + 1));
            for (int k = 0; k < batchSize; ++k) {
                for (size_t i = 0; i < kBytes; ++i) accumulator[i] = static_cast<uint8_t>(accumulator[i] + bytes(in_)[i]);
            }
            const bool last = batch == kBatchesPerRound - 1;
            if (last && destroyWhileQueued) {
                // aclmdlRIDestroy waits for the queued replays: once it returns
                // their results are there, before any stream is synchronised.
                ASSERT_EQ(ACL_SUCCESS, aclmdlRIDestroy(model)) << aclGetRecentErrMsg();
                shared_.destroyedWithQueuedReplays.fetch_add(1);
                EXPECT_EQ(0, std::memcmp(accumulator.data(), out_, kBytes))
                    << "worker " << index_ << " round " << round
                    << ": aclmdlRIDestroy returned before the queued replays had written their results";
            }
            for (aclrtStream runner : runners_) ASSERT_NO_FATAL_FAILURE(synchronize(runner, shared_));
            EXPECT_EQ(0, std::memcmp(accumulator.data(), out_, kBytes))
                << "worker " << index_ << " round " << round << " batch " << batch
                << ": the accumulator differs from the sequential sum of " << replays << " replays";
            EXPECT_EQ(std::vector<uint8_t>(kBytes, setBytes), std::vector<uint8_t>(bytes(outD_), bytes(outD_) + kBytes))
                << "worker " << index_ << " round " << round << (built ? " (built)" : " (captured)")
                << ": the joined branch's bytes are wrong";
        }
        if (!destroyWhileQueued) {
            ASSERT_EQ(ACL_SUCCESS, aclmdlRIDestroy(model)) << aclGetRecentErrMsg();
        }
        EXPECT_EQ(1, destroyCalls.load()) << "the destroy callback must run exactly once";
        EXPECT_EQ(replays, bracket.entries.load()) << "worker " << index_ << " round " << round;
        EXPECT_EQ(0, bracket.overlaps.load()) << "replays of one model overlapped";
        shared_.ownReplays.fetch_add(static_cast<uint64_t>(replays));
        shared_.heartbeat.fetch_add(1, std::memory_order_relaxed);
    }

    const int index_;
    Shared& shared_;
    CaptureKit kit_;
    CaptureKit persistent_;  ///< The streams of the built models.
    aclrtLabel labels_[2] = {nullptr, nullptr};
    aclrtLabelList labelList_ = nullptr;
    void* branch_ = nullptr;  ///< The built models' branch word (uint32).
    aclrtStream runners_[2] = {nullptr, nullptr};
    void* a_ = nullptr;
    void* b_ = nullptr;
    void* c_ = nullptr;
    void* d_ = nullptr;
    void* in_ = nullptr;
    void* out_ = nullptr;
    void* outD_ = nullptr;
};

TEST(Stress, GraphCaptureAndReplayFromManyThreads) {
    ASSERT_EQ(ACL_SUCCESS, aclInit(nullptr));
    ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
    Shared shared;
    ASSERT_EQ(ACL_SUCCESS, aclrtGetCurrentContext(&shared.context));
    SharedModel sharedModel;
    ASSERT_NO_FATAL_FAILURE(sharedModel.capture(shared));
    gDestroyCallbacks.store(0);
    const auto start = std::chrono::steady_clock::now();
    {
        const aclcpu::test::Watchdog watchdog("graph stress", shared.heartbeat);
        std::vector<std::unique_ptr<Worker>> workers;
        std::vector<std::thread> threads;
        for (int w = 0; w < kWorkers; ++w) {
            workers.push_back(std::make_unique<Worker>(w, shared));
            threads.emplace_back([&worker = *workers.back()] { worker(); });
        }
        for (auto& thread : threads) thread.join();
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeDeviceWithTimeout(kSyncTimeoutMs)) << aclGetRecentErrMsg();
    sharedModel.verify_and_destroy(shared);
    std::printf("graph stress: %d threads x %d rounds: %llu models captured or built and destroyed (%llu with replays "
                "queued), %llu replays of them, %llu of the shared model, in %.1f s\n",
                kWorkers, rounds(), static_cast<unsigned long long>(shared.modelsBuilt.load()),
                static_cast<unsigned long long>(shared.destroyedWithQueuedReplays.load()),
                static_cast<unsigned long long>(shared.ownReplays.load()),
                static_cast<unsigned long long>(shared.sharedReplays.load()), seconds);
    EXPECT_EQ(static_cast<uint64_t>(kWorkers) * rounds(), shared.modelsBuilt.load());
    EXPECT_EQ(kWorkers * rounds(), gDestroyCallbacks.load());
    EXPECT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
    EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

}  // namespace
