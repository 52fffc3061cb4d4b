// Collectives are stream work: ordered by events across a rank's streams,
// ordered with aclnn operators on the same stream, captured into a graph
// and performed again at each replay; two communicators over the same
// devices interleave; many small collectives in a row keep the ranks'
// meetings straight.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <thread>
#include <utility>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "aclcpu_testkit/device_data.hpp"
#include "aclcpu_testkit/trace_file.hpp"
#include "aclnnop/aclnn_softplus_backward.h"
#include "hccl/hccl_test_support.hpp"

namespace aclcpu::hccl_test {
namespace {

using StreamSemantics = HcclTest;
const HcclDataType f32 = HCCL_DATA_TYPE_FP32;

void sleep_50ms(void*) { std::this_thread::sleep_for(std::chrono::milliseconds(50)); }

// Stream A (held 50 ms) writes the input and records E1; stream B waits for
// E1, all-reduces and records E2; stream A waits for E2 and copies the
// result.  Without the waits B would reduce the old input and A copy an
// unfinished output.
TEST_F(StreamSemantics, EventsOrderCollectivesAcrossStreams) {
    const size_t count = 256;
    with_group(3, [&](RankContext& rank) {
        aclrtStream a = rank.stream, b = nullptr;
        ASSERT_ACL_OK(aclrtCreateStream(&b));
        aclrtEvent written = nullptr, reduced = nullptr;
        ASSERT_ACL_OK(aclrtCreateEvent(&written));
        ASSERT_ACL_OK(aclrtCreateEvent(&reduced));
        const size_t bytes = count * sizeof(float);
        DeviceMemory input(as_bytes(std::vector<float>(count, 1.0f)));
        DeviceMemory fresh(as_bytes(std::vector<float>(count, 10.0f * (rank.rank + 1))));
        DeviceMemory output(bytes), copy(bytes);
        ASSERT_ACL_OK(aclrtLaunchHostFunc(a, sleep_50ms, nullptr));
        ASSERT_ACL_OK(aclrtMemcpyAsync(input.get(), bytes, fresh.get(), bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, a));
        ASSERT_ACL_OK(aclrtRecordEvent(written, a));
        ASSERT_ACL_OK(aclrtStreamWaitEvent(b, written));
        ASSERT_HCCL_OK(HcclAllReduce(input.get(), output.get(), count, f32, HCCL_REDUCE_SUM, rank.comm, b));
        ASSERT_ACL_OK(aclrtRecordEvent(reduced, b));
        ASSERT_ACL_OK(aclrtStreamWaitEvent(a, reduced));
        ASSERT_ACL_OK(aclrtMemcpyAsync(copy.get(), bytes, output.get(), bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, a));
        ASSERT_ACL_OK(aclrtSynchronizeStream(a));
        ASSERT_ACL_OK(aclrtSynchronizeStream(b));
        EXPECT_EQ(std::vector<float>(count, 60.0f), output.values<float>()) << "rank " << rank.rank;
        EXPECT_EQ(std::vector<float>(count, 60.0f), copy.values<float>()) << "rank " << rank.rank;
        EXPECT_ACL_OK(aclrtDestroyEvent(written));
        EXPECT_ACL_OK(aclrtDestroyEvent(reduced));
        EXPECT_ACL_OK(aclrtDestroyStream(b));
    });
}

/// A 1-D fp32 aclTensor over memory.
struct Tensor {
    Tensor(DeviceMemory& memory, int64_t elements) {
        const int64_t shape[1] = {elements}, strides[1] = {1};
        tensor = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, memory.get());
        EXPECT_NE(nullptr, tensor);
    }
    ~Tensor() { aclDestroyTensor(tensor); }
    aclTensor* tensor = nullptr;
};

/// aclnnSoftplusBackward(gradOutput, self, beta 1, threshold 20) -> gradInput on stream.
void softplus_backward(Tensor& gradOutput, Tensor& self, Tensor& gradInput, aclrtStream stream,
                       std::vector<std::unique_ptr<DeviceMemory>>& workspaces) {
    testkit::Scalar beta(1.0), threshold(20.0);
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(0, aclnnSoftplusBackwardGetWorkspaceSize(gradOutput.tensor, self.tensor, beta.get(), threshold.get(),
                                                       gradInput.tensor, &workspaceSize, &executor))
        << take_error_message();
    workspaces.push_back(std::make_unique<DeviceMemory>(workspaceSize));
    ASSERT_EQ(0, aclnnSoftplusBackward(workspaceSize == 0 ? nullptr : workspaces.back()->get(), workspaceSize,
                                       executor, stream))
        << take_error_message();
}

// On each rank's one stream: the gradient of its shard (an aclnn
// operator), the all-reduce of that gradient in place, and an operator that
// reads the all-reduced sum -- no host synchronisation in between.
TEST_F(StreamSemantics, OperatorsAndCollectivesShareTheStreamOrder) {
    const uint32_t ranks = 4;
    const int64_t n = 4099;
    const auto activation = [](uint32_t r, int64_t i) { return 0.01f * static_cast<float>(i % 301) - 1.5f - 0.3f * r; };
    const auto upstream = [](uint32_t r, int64_t i) { return 1.0f + 0.001f * static_cast<float>(i % 1000) + r; };
    const auto sigmoid = [](double x) { return 1.0 / (1.0 + std::exp(-x)); };
    with_group(ranks, [&](RankContext& rank) {
        std::vector<float> x(n), g(n);
        for (int64_t i = 0; i < n; ++i) {
            x[i] = activation(rank.rank, i);
            g[i] = upstream(rank.rank, i);
        }
        DeviceMemory xMemory(as_bytes(x)), gMemory(as_bytes(g)), gradient(n * sizeof(float)),
            second(n * sizeof(float));
        Tensor self(xMemory, n), gradOutput(gMemory, n), gradInput(gradient, n), secondOut(second, n);
        std::vector<std::unique_ptr<DeviceMemory>> workspaces;
        softplus_backward(gradOutput, self, gradInput, rank.stream, workspaces);
        ASSERT_HCCL_OK(HcclAllReduce(gradient.get(), gradient.get(), n, f32, HCCL_REDUCE_SUM, rank.comm, rank.stream));
        softplus_backward(gradInput, self, secondOut, rank.stream, workspaces);
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        const std::vector<float> summed = gradient.values<float>(), after = second.values<float>();
        size_t wrongSum = 0, wrongAfter = 0;
        for (int64_t i = 0; i < n; ++i) {
            double want = 0.0;
            for (uint32_t r = 0; r < ranks; ++r) want += upstream(r, i) * sigmoid(activation(r, i));
            wrongSum += std::fabs(summed[i] - want) > 1e-5 * std::fabs(want) + 1e-6;
            const double wantAfter = want * sigmoid(x[i]);
            wrongAfter += std::fabs(after[i] - wantAfter) > 2e-5 * std::fabs(wantAfter) + 1e-6;
        }
        EXPECT_EQ(0u, wrongSum) << "all-reduced gradients off the reference on rank " << rank.rank;
        EXPECT_EQ(0u, wrongAfter) << "the operator after the all-reduce saw other values on rank " << rank.rank;
    });
}

// A captured all-reduce (and all-gather) is performed again at every replay,
// with the inputs of that moment; eager collectives between the replays
// keep their own order.
TEST_F(StreamSemantics, CapturedCollectivesRunAtEveryReplay) {
    const uint32_t ranks = 3;
    const size_t count = 1000;
    ThreadBarrier phase(ranks);
    const auto value = [](uint32_t rank, int replay, size_t i) {
        return static_cast<float>((rank + 1) * (replay + 1)) + 0.25f * static_cast<float>(i % 4);
    };
    with_group(ranks, [&](RankContext& rank) {
        DeviceMemory input(count * sizeof(float)), output(count * sizeof(float));
        DeviceMemory gathered(ranks * sizeof(int32_t)), mine(sizeof(int32_t));
        DeviceMemory eager(as_bytes(std::vector<int32_t>(8, 1)));
        ASSERT_TRUE(phase.wait());  // Every rank's synchronous set-up done before any capture.
        ASSERT_ACL_OK(aclmdlRICaptureBegin(rank.stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
        EXPECT_HCCL_OK(HcclAllReduce(input.get(), output.get(), count, f32, HCCL_REDUCE_SUM, rank.comm, rank.stream));
        EXPECT_HCCL_OK(HcclAllGather(mine.get(), gathered.get(), 1, HCCL_DATA_TYPE_INT32, rank.comm, rank.stream));
        aclmdlRI model = nullptr;
        ASSERT_ACL_OK(aclmdlRICaptureEnd(rank.stream, &model));
        ASSERT_TRUE(phase.wait());  // Every capture ended: synchronous copies are allowed again.
        EXPECT_EQ(std::vector<uint8_t>(count * sizeof(float), DeviceMemory::kSentinel), output.bytes())
            << "the capture ran the all-reduce";
        for (int replay = 0; replay < 3; ++replay) {
            std::vector<float> in(count);
            for (size_t i = 0; i < count; ++i) in[i] = value(rank.rank, replay, i);
            input.upload(as_bytes(in));
            mine.upload(as_bytes(std::vector<int32_t>{static_cast<int32_t>(rank.rank * 100 + replay)}));
            ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, rank.stream));
            ASSERT_HCCL_OK(HcclAllReduce(eager.get(), eager.get(), 8, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM,
                                         rank.comm, rank.stream));
            ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
            std::vector<float> want(count);
            for (size_t i = 0; i < count; ++i) {
                float sum = 0.0f;
                for (uint32_t r = 0; r < ranks; ++r) sum += value(r, replay, i);
                want[i] = sum;
            }
            EXPECT_EQ(want, output.values<float>()) << "replay " << replay << " on rank " << rank.rank;
            EXPECT_EQ((std::vector<int32_t>{replay, 100 + replay, 200 + replay}), gathered.values<int32_t>())
                << "replay " << replay << " on rank " << rank.rank;
            int32_t eagerWant = 1;
            for (int k = 0; k <= replay; ++k) eagerWant *= static_cast<int32_t>(ranks);
            EXPECT_EQ(std::vector<int32_t>(8, eagerWant), eager.values<int32_t>()) << "eager, replay " << replay;
        }
        EXPECT_ACL_OK(aclmdlRIDestroy(model));
    });
}

// Replays submitted back to back, synchronised once: each is a meeting of
// its own (an in-place sum: 1 + 2 + 3, then times 3 per replay).
TEST_F(StreamSemantics, BackToBackReplays) {
    const uint32_t ranks = 3;
    ThreadBarrier phase(ranks);
    with_group(ranks, [&](RankContext& rank) {
        DeviceMemory value(as_bytes(std::vector<int32_t>(33, static_cast<int32_t>(rank.rank) + 1)));
        ASSERT_TRUE(phase.wait());
        ASSERT_ACL_OK(aclmdlRICaptureBegin(rank.stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
        EXPECT_HCCL_OK(HcclAllReduce(value.get(), value.get(), 33, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, rank.comm,
                                     rank.stream));
        aclmdlRI model = nullptr;
        ASSERT_ACL_OK(aclmdlRICaptureEnd(rank.stream, &model));
        ASSERT_TRUE(phase.wait());
        for (int replay = 0; replay < 4; ++replay) ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, rank.stream));
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        EXPECT_EQ(std::vector<int32_t>(33, 6 * 27), value.values<int32_t>()) << "rank " << rank.rank;
        EXPECT_ACL_OK(aclmdlRIDestroy(model));
    });
}

// While a peer has not come, the rank's stream is pending (a bounded
// synchronisation times out, the query says not ready) without failing;
// once the peer comes, the collective completes.
TEST_F(StreamSemantics, StreamIsPendingUntilEveryRankCame) {
    ThreadBarrier checked(2);
    with_group(2, [&](RankContext& rank) {
        DeviceMemory value(as_bytes(std::vector<float>(8, 1.0f + rank.rank)));
        if (rank.rank == 0) {
            ASSERT_HCCL_OK(HcclAllReduce(value.get(), value.get(), 8, f32, HCCL_REDUCE_SUM, rank.comm, rank.stream));
            EXPECT_EQ(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeStreamWithTimeout(rank.stream, 100));
            take_error_message();
            aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
            EXPECT_ACL_OK(aclrtStreamQuery(rank.stream, &status));
            EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, status);
            // (The buffer is not read here: the pending all-reduce owns it.)
        }
        ASSERT_TRUE(checked.wait());
        if (rank.rank == 1) {
            ASSERT_HCCL_OK(HcclAllReduce(value.get(), value.get(), 8, f32, HCCL_REDUCE_SUM, rank.comm, rank.stream));
        }
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        EXPECT_EQ(std::vector<float>(8, 3.0f), value.values<float>()) << "rank " << rank.rank;
        HcclResult asyncError = HCCL_E_RESERVED;
        EXPECT_HCCL_OK(HcclGetCommAsyncError(rank.comm, &asyncError));
        EXPECT_EQ(HCCL_SUCCESS, asyncError);
    });
}

// Two communicators over the same three devices, rank r of the first and
// rank 2 - r of the second on device r: calls on one stream alternate
// between them (in the same order on every rank), and on two streams in
// different orders per rank.
TEST_F(StreamSemantics, TwoCommunicatorsOverTheSameDevices) {
    const uint32_t ranks = 3;
    HcclRootInfo rootA, rootB;
    ASSERT_HCCL_OK(HcclGetRootInfo(&rootA));
    ASSERT_HCCL_OK(HcclGetRootInfo(&rootB));
    run_ranks(ranks, [&](uint32_t device) {
        ASSERT_ACL_OK(aclrtSetDevice(static_cast<int32_t>(device)));
        const uint32_t rankA = device, rankB = ranks - 1 - device;
        HcclComm a = nullptr, b = nullptr;
        // Joining is collective and blocks: join A on every thread first, then B.
        ASSERT_HCCL_OK(HcclCommInitRootInfo(ranks, &rootA, rankA, &a));
        ASSERT_HCCL_OK(HcclCommInitRootInfo(ranks, &rootB, rankB, &b));
        aclrtStream one = nullptr, other = nullptr;
        ASSERT_ACL_OK(aclrtCreateStream(&one));
        ASSERT_ACL_OK(aclrtCreateStream(&other));
        DeviceMemory sumA(as_bytes(std::vector<int32_t>(5, static_cast<int32_t>(device + 1))));
        DeviceMemory idB(as_bytes(std::vector<int32_t>{static_cast<int32_t>(device)}));
        DeviceMemory gatheredB(ranks * sizeof(int32_t));
        DeviceMemory maxB(as_bytes(std::vector<float>{static_cast<float>(device) * 2.0f}));
        DeviceMemory castA(as_bytes(std::vector<float>{device == 1 ? 7.0f : 0.0f}));
        for (int round = 0; round < 5; ++round) {
            EXPECT_HCCL_OK(HcclAllReduce(sumA.get(), sumA.get(), 5, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, a, one));
            EXPECT_HCCL_OK(HcclAllGather(idB.get(), gatheredB.get(), 1, HCCL_DATA_TYPE_INT32, b, one));
        }
        // Two streams, the two communicators' calls in opposite orders on
        // devices 0 and 1: each stream's order is consistent across ranks.
        if (device == 0) {
            EXPECT_HCCL_OK(HcclAllReduce(maxB.get(), maxB.get(), 1, f32, HCCL_REDUCE_MAX, b, other));
            EXPECT_HCCL_OK(HcclBroadcast(castA.get(), 1, f32, 1, a, one));
        } else {
            EXPECT_HCCL_OK(HcclBroadcast(castA.get(), 1, f32, 1, a, one));
            EXPECT_HCCL_OK(HcclAllReduce(maxB.get(), maxB.get(), 1, f32, HCCL_REDUCE_MAX, b, other));
        }
        EXPECT_ACL_OK(aclrtSynchronizeStream(one));
        EXPECT_ACL_OK(aclrtSynchronizeStream(other));
        // 6 after one round, then x3 per round.
        EXPECT_EQ(std::vector<int32_t>(5, 6 * 81), sumA.values<int32_t>()) << "device " << device;
        EXPECT_EQ((std::vector<int32_t>{2, 1, 0}), gatheredB.values<int32_t>()) << "B's rank order, device " << device;
        EXPECT_EQ(std::vector<float>{4.0f}, maxB.values<float>());
        EXPECT_EQ(std::vector<float>{7.0f}, castA.values<float>());
        EXPECT_ACL_OK(aclrtDestroyStream(one));
        EXPECT_ACL_OK(aclrtDestroyStream(other));
        EXPECT_HCCL_OK(HcclCommDestroy(a));
        EXPECT_HCCL_OK(HcclCommDestroy(b));
    });
}

// 200 all-reduces of 16 floats on 4 ranks, enqueued back to back and
// synchronised once; then 50 rounds of mixed calls, each synchronised.
TEST_F(StreamSemantics, ManySmallCollectives) {
    const uint32_t ranks = 4;
    const int calls = 200, elements = 16;
    const auto value = [](uint32_t rank, int call, int i) {
        return static_cast<float>(rank * 1000 + call) + 0.5f * static_cast<float>(i);
    };
    with_group(ranks, [&](RankContext& rank) {
        std::vector<float> in(static_cast<size_t>(calls) * elements);
        for (int c = 0; c < calls; ++c) {
            for (int i = 0; i < elements; ++i) in[c * elements + i] = value(rank.rank, c, i);
        }
        DeviceMemory input(as_bytes(in)), output(in.size() * sizeof(float));
        for (int c = 0; c < calls; ++c) {
            ASSERT_HCCL_OK(HcclAllReduce(static_cast<float*>(input.get()) + c * elements,
                                         static_cast<float*>(output.get()) + c * elements, elements, f32,
                                         HCCL_REDUCE_SUM, rank.comm, rank.stream));
        }
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        const std::vector<float> got = output.values<float>();
        size_t wrong = 0;
        for (int c = 0; c < calls; ++c) {
            for (int i = 0; i < elements; ++i) {
                float want = 0.0f;
                for (uint32_t r = 0; r < ranks; ++r) want += value(r, c, i);
                wrong += got[c * elements + i] != want;
            }
        }
        EXPECT_EQ(0u, wrong) << "rank " << rank.rank;

        DeviceMemory small(as_bytes(std::vector<int32_t>(4, 0)));
        DeviceMemory message(sizeof(int32_t));
        const uint32_t next = (rank.rank + 1) % ranks, previous = (rank.rank + ranks - 1) % ranks;
        for (int round = 0; round < 50; ++round) {
            small.upload(as_bytes(std::vector<int32_t>(4, round + static_cast<int32_t>(rank.rank))));
            ASSERT_HCCL_OK(HcclAllReduce(small.get(), small.get(), 4, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_MAX, rank.comm,
                                         rank.stream));
            ASSERT_HCCL_OK(HcclBroadcast(small.get(), 4, HCCL_DATA_TYPE_INT32, round % ranks, rank.comm, rank.stream));
            HcclSendRecvItem items[2] = {{HCCL_SEND, small.get(), 1, HCCL_DATA_TYPE_INT32, next},
                                         {HCCL_RECV, message.get(), 1, HCCL_DATA_TYPE_INT32, previous}};
            ASSERT_HCCL_OK(HcclBatchSendRecv(items, 2, rank.comm, rank.stream));
            ASSERT_HCCL_OK(HcclBarrier(rank.comm, rank.stream));
            ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
            const int32_t want = round + static_cast<int32_t>(ranks) - 1;
            EXPECT_EQ(std::vector<int32_t>(4, want), small.values<int32_t>()) << "round " << round;
            EXPECT_EQ(std::vector<int32_t>{want}, message.values<int32_t>()) << "round " << round;
        }
    });
}

/// HcclTest with the timeline trace on; take_trace() ends it and reads it.
class TracedCollectives : public HcclTest {
protected:
    ~TracedCollectives() override { std::remove(path_.c_str()); }

    /// Finalises (the trace is written then), reads the trace and starts
    /// AscendCL again, untraced, for the fixture's TearDown.
    nlohmann::json take_trace() {
        EXPECT_ACL_OK(aclFinalize());
        trace_.reset();
        EXPECT_ACL_OK(aclInit(nullptr));
        return testkit::load_trace(path_);
    }

private:
    const std::string path_ = ::testing::TempDir() + "hccl_trace_" + std::to_string(getpid()) + ".json";
    std::optional<ScopedEnv> trace_{std::in_place, "ACLCPU_TRACE", path_};
};

/// The gate slices named `api` on each stream track, in time order.
std::map<std::pair<int, int>, std::vector<nlohmann::json>> gates_by_track(const nlohmann::json& trace,
                                                                           const char* api) {
    std::map<std::pair<int, int>, std::vector<nlohmann::json>> gates;
    for (const nlohmann::json& event : trace["traceEvents"]) {
        if (event["ph"] != "X" || event["cat"] != "gate" || event["name"] != api) continue;
        gates[{event["pid"].get<int>(), event["tid"].get<int>()}].push_back(event);
    }
    for (auto& [track, slices] : gates) {
        std::sort(slices.begin(), slices.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
            return a["ts"].get<double>() < b["ts"].get<double>();
        });
    }
    return gates;
}

/// The track whose gate `step` (0: arrival, 1: departure) has an arrow to
/// that gate of every other track and receives none; nullopt if none does.
std::optional<std::pair<int, int>> opener_of(const nlohmann::json& trace,
                                             const std::map<std::pair<int, int>, std::vector<nlohmann::json>>& gates,
                                             size_t step) {
    for (const auto& [candidate, slices] : gates) {
        bool opensAll = true;
        for (const auto& [track, others] : gates) {
            if (track == candidate) continue;
            opensAll = opensAll && testkit::linked(trace, slices.at(step), others.at(step)) &&
                       !testkit::linked(trace, others.at(step), slices.at(step));
        }
        if (opensAll) return candidate;
    }
    return std::nullopt;
}

// The timeline shows each rank's collective as its stream's slices, and
// the meeting as arrows from the gate of the rank that came last to the
// gates of the ranks it released, for the arrival and for the departure.
// Rank 2 calls after the others' gates are reached, so it releases the
// arrival.
TEST_F(TracedCollectives, ArrowsRunFromTheLastRankToTheRanksItReleases) {
    const uint32_t ranks = 3;
    ThreadBarrier othersCalled(ranks);
    with_group(ranks, [&](RankContext& rank) {
        DeviceMemory value(as_bytes(std::vector<float>(64, 1.0f)));
        const auto all_reduce = [&] {
            return HcclAllReduce(value.get(), value.get(), 64, f32, HCCL_REDUCE_SUM, rank.comm, rank.stream);
        };
        if (rank.rank != 2) {
            ASSERT_HCCL_OK(all_reduce());
        }
        ASSERT_TRUE(othersCalled.wait());
        if (rank.rank == 2) {
            ASSERT_HCCL_OK(all_reduce());
        }
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        EXPECT_EQ(std::vector<float>(64, 3.0f), value.values<float>());
    });
    const nlohmann::json trace = take_trace();
    ASSERT_FALSE(trace.is_discarded());
    const testkit::TraceIndex index(trace);
    const auto gates = gates_by_track(trace, "HcclAllReduce");
    ASSERT_EQ(ranks, gates.size()) << "one stream track per rank holds the collective's gates";
    for (const auto& [track, slices] : gates) ASSERT_EQ(2u, slices.size()) << "an arrival and a departure gate";
    const std::optional<std::pair<int, int>> arrival = opener_of(trace, gates, 0);
    ASSERT_TRUE(arrival.has_value()) << "no rank's arrival gate has arrows to all the others'";
    EXPECT_EQ(index.processes.at("Device 2"), arrival->first) << "the last rank to come releases the others";
    EXPECT_TRUE(opener_of(trace, gates, 1).has_value()) << "no rank's departure gate has arrows to all the others'";
}

}  // namespace
}  // namespace aclcpu::hccl_test
