// Stress: many host threads, each driving its own streams with a seeded
// random mix of operators, copies, sets, event records and waits, notify
// and device-word (aclrtValueWrite / aclrtValueWait) hand-offs between
// streams, copies through a virtual-memory mapping, host functions,
// callbacks and stream re-creation, checked against a sequential replay of
// the same program on the host.
//
// Every buffer belongs to one stream slot and values stay small integers
// held exactly in fp32, so the replay predicts every byte.  Logging steps
// (device tasks, host functions, callbacks) append their sequence numbers
// to the slot's log as they run, which shows each ran exactly once and in
// stream order.  A watchdog turns a hang into a failure that prints what
// every stream is waiting on.
#include <gtest/gtest.h>

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclcpu/device_task.hpp"
#include "aclcpu/testing.hpp"
#include "aclnnop/aclnn_hardshrink_backward.h"
#include "stress/stress_watchdog.hpp"

namespace {

constexpr int kHostThreads = 8;
constexpr int kStreamsPerThread = 16;
constexpr int kOperationsPerThread = 10000;
constexpr int64_t kElements = 256;
constexpr size_t kBytes = kElements * sizeof(float);
constexpr int kReadbackSlots = 4;
constexpr float kModulus = 8191.0f;
constexpr float kLambd = 0.5f;
constexpr uint64_t kSeed = 20261121;
constexpr int32_t kSyncTimeoutMs = 30000;

/// What the run did, for the figures the README reports.
struct Tally {
    std::atomic<uint64_t> operations{0};
    std::atomic<uint64_t> logged{0};
    std::atomic<uint64_t> lost{0};
    std::atomic<uint64_t> duplicated{0};
    std::atomic<uint64_t> reordered{0};
    std::atomic<uint64_t> mismatchedBuffers{0};
    std::atomic<uint64_t> hangs{0};
};

/// Shared by the host threads: the tally and the watchdog's heartbeat.
struct StressRun {
    Tally tally;
    std::atomic<uint64_t> heartbeat{0};
};

// --- Device-side steps that log ---------------------------------------------------------

/// The order in which a slot's logging steps ran.
class StepLog {
public:
    explicit StepLog(size_t capacity) : entries_(capacity) {}
    void append(uint32_t sequence) {
        const size_t at = length_.fetch_add(1, std::memory_order_relaxed);
        if (at < entries_.size()) entries_[at] = sequence;
    }
    std::vector<uint32_t> entries() const {
        return std::vector<uint32_t>(entries_.begin(),
                                     entries_.begin() + std::min(entries_.size(), length_.load()));
    }
    size_t length() const { return length_.load(); }

private:
    std::vector<uint32_t> entries_;
    std::atomic<size_t> length_{0};
};

/// data[i] = (data[i] * 3 + addend) mod 8191, or with a source buffer
/// data[i] = (data[i] + source[i]) mod 8191; logs its sequence number.
class ModularStep final : public aclcpu::DeviceTask {
public:
    ModularStep(float* data, const float* source, float addend, StepLog* log, uint32_t sequence)
        : data_(data), source_(source), addend_(addend), log_(log), sequence_(sequence) {}
    aclError run() noexcept override {
        apply(data_, source_, addend_);
        log_->append(sequence_);
        return ACL_SUCCESS;
    }
    const char* name() const noexcept override { return source_ != nullptr ? "stress accumulate" : "stress affine"; }

    /// The step itself, shared with the host replay.
    static void apply(float* data, const float* source, float addend) {
        for (int64_t i = 0; i < kElements; ++i) {
            const float next = source != nullptr ? data[i] + source[i] : data[i] * 3.0f + addend;
            data[i] = std::fmod(next, kModulus);
        }
    }

private:
    float* data_;
    const float* source_;
    float addend_;
    StepLog* log_;
    uint32_t sequence_;
};

/// Host functions and callbacks log through one of these.
struct HostLogEntry {
    StepLog* log;
    uint32_t sequence;
    static void append(void* entry) {
        auto* self = static_cast<HostLogEntry*>(entry);
        self->log->append(self->sequence);
    }
};

// --- One stream slot and its host model -------------------------------------------------

std::vector<int64_t> shape() { return {kElements}; }

aclTensor* float_tensor(void* data) {
    const std::vector<int64_t> dims = shape();
    return aclCreateTensor(dims.data(), 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims.data(), 1, data);
}

struct Slot {
    aclrtStream stream = nullptr;
    void* data = nullptr;     ///< The slot's state.
    void* scratch = nullptr;  ///< Operator output, copied back into data.
    void* mask = nullptr;     ///< Constant operator input: the values hardshrink tests.
    float* source = nullptr;  ///< Pinned, constant: source of host-to-device copies.
    float* readback = nullptr;  ///< Pinned: kReadbackSlots snapshots of data.
    aclTensor* dataTensor = nullptr;
    aclTensor* maskTensor = nullptr;
    aclTensor* scratchTensor = nullptr;
    std::unique_ptr<StepLog> log;

    // The sequential replay.
    std::vector<float> model;
    std::vector<float> maskModel;
    std::vector<float> sourceModel;
    std::vector<std::vector<float>> readbackModel;
    std::vector<uint32_t> expectedLog;
    float* piece = nullptr;  ///< The slot's part of its driver's virtual-memory mapping.
    std::vector<float> pieceModel;
};

// --- The program one host thread runs ---------------------------------------------------

class Driver {
public:
    Driver(int index, StressRun& run) : index_(index), run_(run), random_(kSeed + static_cast<uint64_t>(index)) {}

    void operator()() {
        ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
        start_reporter();
        ASSERT_NO_FATAL_FAILURE(map_pieces());
        for (auto& slot : slots_) ASSERT_NO_FATAL_FAILURE(open(slot));
        for (uint32_t sequence = 0; sequence < kOperationsPerThread; ++sequence) {
            ASSERT_NO_FATAL_FAILURE(step(sequence));
            run_.tally.operations.fetch_add(1);
            run_.heartbeat.fetch_add(1, std::memory_order_relaxed);
        }
        for (auto& slot : slots_) ASSERT_NO_FATAL_FAILURE(synchronize(slot));
        for (auto& slot : slots_) verify(slot);
        for (auto& slot : slots_) close(slot);
        stop_reporter();
        unmap_pieces();
        for (void* buffer : retired_) EXPECT_EQ(ACL_SUCCESS, aclrtFree(buffer));
        for (aclrtNotify notify : retiredNotifies_) EXPECT_EQ(ACL_SUCCESS, aclrtDestroyNotify(notify));
        EXPECT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
    }

private:
    enum Kind { kAffine, kOperator, kCopyIn, kSet, kReadback, kCrossStream, kNotifyHandOff, kValueHandOff, kMapOut,
                kMapIn, kHostFunc, kCallback, kRecreate, kSync, kKinds };

    int pick(int bound) { return static_cast<int>(random_() % static_cast<uint64_t>(bound)); }

    void open(Slot& slot) {
        ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&slot.stream));
        subscribe(slot);
        for (void** buffer : {&slot.data, &slot.scratch, &slot.mask}) {
            ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(buffer, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
        }
        void* pinned = nullptr;
        ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost(&pinned, kBytes * (1 + kReadbackSlots)));
        slot.source = static_cast<float*>(pinned);
        slot.readback = slot.source + kElements;
        slot.model.assign(kElements, 0.0f);
        slot.maskModel.resize(kElements);
        slot.sourceModel.resize(kElements);
        static constexpr float kMaskValues[] = {-2.0f, -1.0f, -0.25f, 0.25f, 1.0f, 2.0f};
        for (int64_t i = 0; i < kElements; ++i) {
            slot.maskModel[i] = kMaskValues[pick(6)];
            slot.sourceModel[i] = static_cast<float>(pick(8191));
        }
        std::copy(slot.sourceModel.begin(), slot.sourceModel.end(), slot.source);
        std::fill(slot.readback, slot.readback + kElements * kReadbackSlots, 0.0f);
        slot.readbackModel.assign(kReadbackSlots, std::vector<float>(kElements, 0.0f));
        ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(slot.mask, kBytes, slot.maskModel.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
        ASSERT_EQ(ACL_SUCCESS, aclrtMemset(slot.data, kBytes, 0, kBytes));
        slot.dataTensor = float_tensor(slot.data);
        slot.maskTensor = float_tensor(slot.mask);
        slot.scratchTensor = float_tensor(slot.scratch);
        slot.log = std::make_unique<StepLog>(kOperationsPerThread);
        slot.piece = mapping_ + (&slot - slots_) * kElements;
        slot.pieceModel.assign(kElements, 0.0f);
        ASSERT_EQ(ACL_SUCCESS, aclrtMemset(slot.piece, kBytes, 0, kBytes));
    }

    void close(Slot& slot) {
        for (aclTensor* tensor : {slot.dataTensor, slot.maskTensor, slot.scratchTensor}) aclDestroyTensor(tensor);
        EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(slot.stream));
        for (void* buffer : {slot.data, slot.scratch, slot.mask}) EXPECT_EQ(ACL_SUCCESS, aclrtFree(buffer));
        EXPECT_EQ(ACL_SUCCESS, aclrtFreeHost(slot.source));
    }

    void step(uint32_t sequence) {
        Slot& slot = slots_[pick(kStreamsPerThread)];
        const int kind = pick(kKinds);
        switch (static_cast<Kind>(kind)) {
            case kAffine: {
                const float addend = static_cast<float>(1 + pick(100));
                ASSERT_EQ(ACL_SUCCESS, aclcpu::enqueue(slot.stream, std::make_unique<ModularStep>(
                                                                        static_cast<float*>(slot.data), nullptr,
                                                                        addend, slot.log.get(), sequence)));
                ModularStep::apply(slot.model.data(), nullptr, addend);
                slot.expectedLog.push_back(sequence);
                break;
            }
            case kOperator:
                ASSERT_NO_FATAL_FAILURE(hardshrink(slot));
                break;
            case kCopyIn: {
                const auto [first, count] = range();
                ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(static_cast<float*>(slot.data) + first, count * sizeof(float),
                                                        slot.source + first, count * sizeof(float),
                                                        ACL_MEMCPY_HOST_TO_DEVICE, slot.stream));
                std::copy_n(slot.sourceModel.begin() + first, count, slot.model.begin() + first);
                break;
            }
            case kSet: {
                const auto [first, count] = range();
                ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(static_cast<float*>(slot.data) + first, count * sizeof(float),
                                                        0, count * sizeof(float), slot.stream));
                std::fill_n(slot.model.begin() + first, count, 0.0f);
                break;
            }
            case kReadback: {
                const int target = pick(kReadbackSlots);
                ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(slot.readback + target * kElements, kBytes, slot.data, kBytes,
                                                        ACL_MEMCPY_DEVICE_TO_HOST, slot.stream));
                slot.readbackModel[target] = slot.model;
                break;
            }
            case kCrossStream:
            case kNotifyHandOff:
            case kValueHandOff:
                ASSERT_NO_FATAL_FAILURE(
                    cross_stream(slot, slots_[pick(kStreamsPerThread)], sequence, static_cast<Kind>(kind)));
                break;
            case kMapOut:
                ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(slot.piece, kBytes, slot.data, kBytes,
                                                        ACL_MEMCPY_DEVICE_TO_DEVICE, slot.stream));
                slot.pieceModel = slot.model;
                break;
            case kMapIn: {
                const auto [first, count] = range();
                ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(static_cast<float*>(slot.data) + first, count * sizeof(float),
                                                        slot.piece + first, count * sizeof(float),
                                                        ACL_MEMCPY_DEVICE_TO_DEVICE, slot.stream));
                std::copy_n(slot.pieceModel.begin() + first, count, slot.model.begin() + first);
                break;
            }
            case kHostFunc:
            case kCallback:
                ASSERT_NO_FATAL_FAILURE(host_log(slot, sequence, pick(2) == 0));
                break;
            case kRecreate:
                ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(slot.stream));  // With work pending: it drains.
                ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&slot.stream));
                subscribe(slot);
                break;
            case kSync:
                ASSERT_NO_FATAL_FAILURE(synchronize(slot));
                break;
            case kKinds:
                break;
        }
    }

    std::pair<int64_t, int64_t> range() {
        const int64_t first = pick(kElements);
        return {first, 1 + pick(static_cast<int>(kElements - first))};
    }

    /// data = hardshrink_backward(grad = data, self = mask, lambd), through scratch.
    void hardshrink(Slot& slot) {
        aclScalar* lambd = aclCreateScalar(const_cast<float*>(&kLambd), ACL_FLOAT);
        uint64_t workspaceSize = 0;
        aclOpExecutor* executor = nullptr;
        ASSERT_EQ(ACLNN_SUCCESS, aclnnHardshrinkBackwardGetWorkspaceSize(slot.dataTensor, slot.maskTensor, lambd,
                                                                         slot.scratchTensor, &workspaceSize,
                                                                         &executor));
        aclDestroyScalar(lambd);
        void* workspace = nullptr;
        if (workspaceSize > 0) {
            ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST));
            retired_.push_back(workspace);
        }
        ASSERT_EQ(ACLNN_SUCCESS, aclnnHardshrinkBackward(workspace, workspaceSize, executor, slot.stream));
        ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(slot.data, kBytes, slot.scratch, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE,
                                                slot.stream));
        for (int64_t i = 0; i < kElements; ++i) {
            if (!(std::fabs(slot.maskModel[i]) > kLambd)) slot.model[i] = 0.0f;
        }
    }

    /// to.data += from.data as it is now, through a snapshot that `from`
    /// hands to `to` with an event, a notify or a device word (`how`).
    void cross_stream(Slot& from, Slot& to, uint32_t sequence, Kind how) {
        void* snapshot = nullptr;
        ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&snapshot, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
        retired_.push_back(snapshot);
        ASSERT_EQ(ACL_SUCCESS,
                  aclrtMemcpyAsync(snapshot, kBytes, from.data, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, from.stream));
        if (how == kNotifyHandOff) {
            ASSERT_NO_FATAL_FAILURE(hand_off_by_notify(from, to));
        } else if (how == kValueHandOff) {
            ASSERT_NO_FATAL_FAILURE(hand_off_by_value(from, to, sequence));
        } else {
            aclrtEvent event = nullptr;
            ASSERT_EQ(ACL_SUCCESS, aclrtCreateEventWithFlag(&event, ACL_EVENT_SYNC));
            ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(event, from.stream));
            ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(to.stream, event));
            ASSERT_EQ(ACL_SUCCESS, aclrtDestroyEvent(event));  // While the wait may still be pending.
        }
        ASSERT_EQ(ACL_SUCCESS, aclcpu::enqueue(to.stream, std::make_unique<ModularStep>(
                                                              static_cast<float*>(to.data),
                                                              static_cast<const float*>(snapshot), 0.0f,
                                                              to.log.get(), sequence)));
        const std::vector<float> seen = from.model;
        ModularStep::apply(to.model.data(), seen.data(), 0.0f);
        to.expectedLog.push_back(sequence);
    }

    /// A fresh notify for every hand-off: a record must reach only its own
    /// wait.  Destroyed once everything is synchronised (8 threads x ~700
    /// hand-offs stay below the 8192 notifies a device has).
    void hand_off_by_notify(Slot& from, Slot& to) {
        aclrtNotify notify = nullptr;
        ASSERT_EQ(ACL_SUCCESS, aclrtCreateNotify(&notify, 0));
        retiredNotifies_.push_back(notify);
        ASSERT_EQ(ACL_SUCCESS, aclrtRecordNotify(notify, from.stream));
        ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(notify, to.stream, 0));
    }

    /// `from` writes a token into a fresh device word that `to` waits for.
    void hand_off_by_value(Slot& from, Slot& to, uint32_t sequence) {
        void* word = nullptr;
        ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&word, sizeof(uint64_t), ACL_MEM_MALLOC_HUGE_FIRST));
        retired_.push_back(word);
        ASSERT_EQ(ACL_SUCCESS, aclrtMemset(word, sizeof(uint64_t), 0, sizeof(uint64_t)));
        const uint64_t token = (static_cast<uint64_t>(index_) << 32) | (sequence + 1);
        ASSERT_EQ(ACL_SUCCESS, aclrtValueWrite(word, token, 0, from.stream));
        ASSERT_EQ(ACL_SUCCESS, aclrtValueWait(word, token, ACL_STREAM_WAIT_VALUE_EQ, to.stream));
    }

    /// One virtual-memory mapping per driver, a kBytes piece of it per slot:
    /// copies treat mapped ranges as device memory.
    void map_pieces() {
        aclrtPhysicalMemProp prop{};
        prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
        prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
        prop.memAttr = ACL_MEM_NORMAL;
        prop.location = aclrtMemLocation{0, ACL_MEM_LOCATION_TYPE_DEVICE};
        size_t granularity = 0;
        ASSERT_EQ(ACL_SUCCESS,
                  aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity));
        mappingBytes_ = (kBytes * kStreamsPerThread + granularity - 1) / granularity * granularity;
        void* base = nullptr;
        ASSERT_EQ(ACL_SUCCESS, aclrtReserveMemAddress(&base, mappingBytes_, 0, nullptr, 0));
        ASSERT_EQ(ACL_SUCCESS, aclrtMallocPhysical(&physical_, mappingBytes_, &prop, 0));
        ASSERT_EQ(ACL_SUCCESS, aclrtMapMem(base, mappingBytes_, 0, physical_, 0));
        mapping_ = static_cast<float*>(base);
    }

    void unmap_pieces() {
        EXPECT_EQ(ACL_SUCCESS, aclrtUnmapMem(mapping_));
        EXPECT_EQ(ACL_SUCCESS, aclrtFreePhysical(physical_));
        EXPECT_EQ(ACL_SUCCESS, aclrtReleaseMemAddress(mapping_));
    }

    void host_log(Slot& slot, uint32_t sequence, bool asCallback) {
        hostEntries_.push_back(std::make_unique<HostLogEntry>(HostLogEntry{slot.log.get(), sequence}));
        void* entry = hostEntries_.back().get();
        if (asCallback) {
            ASSERT_EQ(ACL_SUCCESS, aclrtLaunchCallback(&HostLogEntry::append, entry, ACL_CALLBACK_BLOCK, slot.stream));
        } else {
            ASSERT_EQ(ACL_SUCCESS, aclrtLaunchHostFunc(slot.stream, &HostLogEntry::append, entry));
        }
        slot.expectedLog.push_back(sequence);
    }

    void synchronize(Slot& slot) {
        const aclError result = aclrtSynchronizeStreamWithTimeout(slot.stream, kSyncTimeoutMs);
        if (result == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT) {
            run_.tally.hangs.fetch_add(1);
            ADD_FAILURE() << "stream " << slot.stream << " hung; pending work:\n" << aclcpu::describe_pending_work();
        }
        ASSERT_EQ(ACL_SUCCESS, result) << aclGetRecentErrMsg();
        run_.heartbeat.fetch_add(1, std::memory_order_relaxed);
    }

    void verify(Slot& slot) {
        std::vector<float> contents(kElements);
        ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(contents.data(), kBytes, slot.data, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
        std::vector<float> piece(kElements);
        ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(piece.data(), kBytes, slot.piece, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
        bool same = contents == slot.model && piece == slot.pieceModel;
        for (int k = 0; k < kReadbackSlots; ++k) {
            same = same && std::equal(slot.readbackModel[k].begin(), slot.readbackModel[k].end(),
                                      slot.readback + k * kElements);
        }
        if (!same) run_.tally.mismatchedBuffers.fetch_add(1);
        EXPECT_TRUE(same) << "thread " << index_ << ": device contents differ from the sequential replay";

        const std::vector<uint32_t> actual = slot.log->entries();
        EXPECT_EQ(slot.expectedLog, actual) << "thread " << index_ << ": logging steps ran out of order or not once";
        run_.tally.logged.fetch_add(actual.size());
        run_.tally.reordered.fetch_add(count_inversions(actual));
        std::vector<uint32_t> sorted = actual;
        std::sort(sorted.begin(), sorted.end());
        const size_t distinct = static_cast<size_t>(std::unique(sorted.begin(), sorted.end()) - sorted.begin());
        run_.tally.duplicated.fetch_add(actual.size() - distinct);
        sorted.resize(distinct);
        size_t found = 0;
        for (uint32_t expected : slot.expectedLog) found += std::binary_search(sorted.begin(), sorted.end(), expected);
        run_.tally.lost.fetch_add(slot.expectedLog.size() - found);
    }

    static uint64_t count_inversions(const std::vector<uint32_t>& log) {
        uint64_t inversions = 0;
        for (size_t i = 1; i < log.size(); ++i) inversions += log[i] <= log[i - 1];
        return inversions;
    }

    // One thread serves every callback launched on this driver's streams.
    void start_reporter() {
        aclrtContext context = nullptr;
        ASSERT_EQ(ACL_SUCCESS, aclrtGetCurrentContext(&context));
        reporter_ = std::thread([this, context] {
            aclrtSetCurrentContext(context);
            while (!stopReporter_.load()) aclrtProcessReport(10);
        });
    }
    void subscribe(Slot& slot) {
        ASSERT_EQ(ACL_SUCCESS, aclrtSubscribeReport(static_cast<uint64_t>(reporter_.native_handle()), slot.stream));
    }
    void stop_reporter() {
        stopReporter_.store(true);
        reporter_.join();
    }

    const int index_;
    StressRun& run_;
    std::mt19937_64 random_;
    Slot slots_[kStreamsPerThread];
    std::vector<void*> retired_;  ///< Device buffers freed once everything is synchronised.
    std::vector<aclrtNotify> retiredNotifies_;  ///< Destroyed once everything is synchronised.
    float* mapping_ = nullptr;
    size_t mappingBytes_ = 0;
    aclrtDrvMemHandle physical_ = nullptr;
    std::vector<std::unique_ptr<HostLogEntry>> hostEntries_;
    std::thread reporter_;
    std::atomic<bool> stopReporter_{false};
};

TEST(Stress, ManyThreadsAndStreamsMatchTheSequentialReplay) {
    setenv("ACLCPU_MEMCHECK", "1", 1);
    ASSERT_EQ(ACL_SUCCESS, aclInit(nullptr));
    StressRun run;
    const auto start = std::chrono::steady_clock::now();
    {
        const aclcpu::test::Watchdog watchdog("stress", run.heartbeat);
        std::vector<std::unique_ptr<Driver>> drivers;
        std::vector<std::thread> threads;
        for (int t = 0; t < kHostThreads; ++t) {
            drivers.push_back(std::make_unique<Driver>(t, run));
            threads.emplace_back([&driver = *drivers.back()] { driver(); });
        }
        for (auto& thread : threads) thread.join();
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(ACL_SUCCESS, aclFinalize());
    unsetenv("ACLCPU_MEMCHECK");

    const Tally& tally = run.tally;
    std::printf("stress: %d host threads x %d streams x %llu operations completed (%llu logged steps) in %.1f s; "
                "lost %llu, duplicated %llu, reordered %llu, mismatched buffers %llu, hangs %llu\n",
                kHostThreads, kHostThreads * kStreamsPerThread,
                static_cast<unsigned long long>(tally.operations.load()),
                static_cast<unsigned long long>(tally.logged.load()), seconds,
                static_cast<unsigned long long>(tally.lost.load()),
                static_cast<unsigned long long>(tally.duplicated.load()),
                static_cast<unsigned long long>(tally.reordered.load()),
                static_cast<unsigned long long>(tally.mismatchedBuffers.load()),
                static_cast<unsigned long long>(tally.hangs.load()));
    EXPECT_EQ(static_cast<uint64_t>(kHostThreads) * kOperationsPerThread, tally.operations.load());
    EXPECT_EQ(0u, tally.lost.load());
    EXPECT_EQ(0u, tally.duplicated.load());
    EXPECT_EQ(0u, tally.reordered.load());
    EXPECT_EQ(0u, tally.mismatchedBuffers.load());
    EXPECT_EQ(0u, tally.hangs.load());
}

}  // namespace
