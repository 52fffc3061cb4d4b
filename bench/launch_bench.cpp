// Launch figures on a 1 Ki-element fp32 SoftplusBackward, where the device
// work is small enough that the runtime's own costs dominate: submit cost,
// round trip, small-operator throughput on 1 and 4 streams, event overhead,
// and whether a long job on one stream delays another stream's small work.
// The submit and round trip of a 1 Ki-element Exp beside them (".../Exp"):
// an operator of the unary engine must launch no slower than the
// hand-written SoftplusBackward.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "bench_support.hpp"
#include "operator_cases.hpp"

namespace {

using namespace aclcpu::bench;

constexpr int64_t kSmallElements = 1024;

/// Phase 1 + phase 2 alone; the device runs the queued work concurrently and
/// is drained outside the timing.
template <class Case>
void BM_LaunchSubmit(benchmark::State& state) {
    RuntimeSession session;
    Workspace workspace;
    Case op(kSmallElements, ACL_FLOAT);
    measure_submit(state, session.stream(), [&] { op.launch(workspace, session.stream()); });
}
BENCHMARK_TEMPLATE(BM_LaunchSubmit, SoftplusBackwardCase)->Name("Launch/Submit");
BENCHMARK_TEMPLATE(BM_LaunchSubmit, UnaryCase<ExpOp>)->Name("Launch/Submit/Exp");

/// Phase 1 + phase 2 + aclrtSynchronizeStream with nothing else running.
template <class Case>
void BM_LaunchRoundTrip(benchmark::State& state) {
    RuntimeSession session;
    Case op(kSmallElements, ACL_FLOAT);
    measure_round_trip(state, op, session.stream());
}
BENCHMARK_TEMPLATE(BM_LaunchRoundTrip, SoftplusBackwardCase)->Name("Launch/RoundTrip/idle")->UseManualTime();
BENCHMARK_TEMPLATE(BM_LaunchRoundTrip, UnaryCase<ExpOp>)->Name("Launch/RoundTrip/idle/Exp")->UseManualTime();

/// The same round trip while another stream is kept busy with 16 Mi-element
/// SoftplusBackward launches (two queued whenever it drains): compared with
/// Launch/RoundTrip/idle, what a long job costs an unrelated stream.
void BM_LaunchRoundTripBesideLongJob(benchmark::State& state) {
    RuntimeSession session;
    aclrtStream busy = nullptr;
    aclrtCreateStream(&busy);
    {
        Workspace longWorkspace;
        SoftplusBackwardCase longJob(int64_t{16} << 20, ACL_FLOAT);
        SoftplusBackwardCase op(kSmallElements, ACL_FLOAT);
        int64_t longLaunches = 0;
        measure_round_trip(state, op, session.stream(), [&] {
            aclrtStreamStatus status = ACL_STREAM_STATUS_NOT_READY;
            if (aclrtStreamQuery(busy, &status) == ACL_SUCCESS && status == ACL_STREAM_STATUS_COMPLETE) {
                longJob.launch(longWorkspace, busy);
                longJob.launch(longWorkspace, busy);
                longLaunches += 2;
            }
        });
        aclrtSynchronizeStream(busy);
        state.counters["long_launches"] = static_cast<double>(longLaunches);
    }
    aclrtDestroyStream(busy);
}
BENCHMARK(BM_LaunchRoundTripBesideLongJob)->Name("Launch/RoundTrip/beside_long_job")->UseManualTime();

/// Small-operator throughput: one host thread launches batches of 1024
/// SoftplusBackward round-robin over range(0) streams (each with its own
/// tensors), then synchronizes them all.
void BM_LaunchThroughput(benchmark::State& state) {
    constexpr int64_t kBatch = 1024;
    const auto streamCount = static_cast<size_t>(state.range(0));
    RuntimeSession session;
    std::vector<aclrtStream> streams{session.stream()};
    while (streams.size() < streamCount) {
        aclrtStream stream = nullptr;
        aclrtCreateStream(&stream);
        streams.push_back(stream);
    }
    {
        std::vector<std::unique_ptr<SoftplusBackwardCase>> ops;
        std::vector<Workspace> workspaces(streamCount);
        for (size_t i = 0; i < streamCount; ++i)
            ops.push_back(std::make_unique<SoftplusBackwardCase>(kSmallElements, ACL_FLOAT));
        for (auto _ : state) {
            aclnnStatus status = 0;
            for (int64_t i = 0; i < kBatch && status == 0; ++i) {
                const size_t lane = static_cast<size_t>(i) % streamCount;
                status = ops[lane]->launch(workspaces[lane], streams[lane]);
            }
            for (aclrtStream stream : streams) {
                const aclError synchronized = aclrtSynchronizeStream(stream);
                if (status == 0) status = synchronized;
            }
            if (!succeeded(state, status)) break;
        }
        state.SetItemsProcessed(state.iterations() * kBatch);
    }
    for (size_t i = 1; i < streams.size(); ++i) aclrtDestroyStream(streams[i]);
}
BENCHMARK(BM_LaunchThroughput)->Name("Launch/Throughput/streams")->Arg(1)->Arg(4)->UseRealTime();

/// Submit cost of aclrtRecordEvent on one stream plus aclrtStreamWaitEvent
/// on another (the pair a cross-stream dependency needs).
void BM_EventRecordWaitSubmit(benchmark::State& state) {
    RuntimeSession session;
    aclrtStream waiter = nullptr;
    aclrtEvent event = nullptr;
    aclrtCreateStream(&waiter);
    aclrtCreateEvent(&event);
    measure_submit(state, waiter, [&] {
        aclrtRecordEvent(event, session.stream());
        aclrtStreamWaitEvent(waiter, event);
    });
    aclrtDestroyEvent(event);
    aclrtDestroyStream(waiter);
}
BENCHMARK(BM_EventRecordWaitSubmit)->Name("Launch/EventRecordWait/submit");

}  // namespace
