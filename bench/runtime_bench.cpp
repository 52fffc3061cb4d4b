// Runtime benchmarks: submit cost, launch-to-sync round trip, event
// overhead, and the memory an idle stream or event costs.
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "bench_support.hpp"

namespace {

using aclcpu::bench::measure_submit;
using aclcpu::bench::RuntimeSession;

/// Submit cost of an asynchronous memset of 64 bytes (the device work is tiny,
/// so the figure is the API call).
void BM_SubmitMemsetAsync(benchmark::State& state) {
    RuntimeSession session;
    void* device = session.device_buffer(4096);
    measure_submit(state, session.stream(), [&] { aclrtMemsetAsync(device, 4096, 1, 64, session.stream()); });
}
BENCHMARK(BM_SubmitMemsetAsync);

/// Submit cost of an asynchronous device-to-device copy of 64 bytes.
void BM_SubmitMemcpyAsync(benchmark::State& state) {
    RuntimeSession session;
    void* source = session.device_buffer(4096);
    void* target = session.device_buffer(4096);
    measure_submit(state, session.stream(), [&] {
        aclrtMemcpyAsync(target, 4096, source, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, session.stream());
    });
}
BENCHMARK(BM_SubmitMemcpyAsync);

/// Launch-to-sync round trip of a tiny task: memset 64 bytes, then wait.
void BM_RoundTripMemset(benchmark::State& state) {
    RuntimeSession session;
    void* device = session.device_buffer(4096);
    for (auto _ : state) {
        aclrtMemsetAsync(device, 4096, 1, 64, session.stream());
        aclrtSynchronizeStream(session.stream());
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RoundTripMemset)->UseRealTime();

/// Record on one stream, wait on another, then synchronise the waiter.
void BM_EventRecordWaitSync(benchmark::State& state) {
    RuntimeSession session;
    aclrtStream other = nullptr;
    aclrtEvent event = nullptr;
    aclrtCreateStream(&other);
    aclrtCreateEventWithFlag(&event, ACL_EVENT_SYNC);
    for (auto _ : state) {
        aclrtRecordEvent(event, session.stream());
        aclrtStreamWaitEvent(other, event);
        aclrtSynchronizeStream(other);
    }
    aclrtDestroyEvent(event);
    aclrtDestroyStream(other);
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EventRecordWaitSync)->UseRealTime();

/// Resident memory of 2000 streams (1000 on each of two devices) plus 65536
/// events (32768 per device); reported as counters, the loop body is empty.
void BM_IdleStreamsAndEventsMemory(benchmark::State& state) {
    aclcpu::bench::ScopedEnv devices("ACLCPU_DEVICE_COUNT", "2");
    aclInit(nullptr);
    // Give freed heap back first, or earlier benchmarks' buffers leaving
    // during this one make the difference meaningless.
    malloc_trim(0);
    const long before = aclcpu::bench::resident_kib();
    std::vector<aclrtStream> streams;
    std::vector<aclrtEvent> events;
    for (int32_t device = 0; device < 2; ++device) {
        aclrtSetDevice(device);
        for (int i = 0; i < 1000; ++i) {
            aclrtStream stream = nullptr;
            if (aclrtCreateStream(&stream) == ACL_SUCCESS) streams.push_back(stream);
        }
        for (int i = 0; i < 32768; ++i) {
            aclrtEvent event = nullptr;
            if (aclrtCreateEvent(&event) == ACL_SUCCESS) events.push_back(event);
        }
    }
    const long after = aclcpu::bench::resident_kib();
    for (auto _ : state) benchmark::DoNotOptimize(streams.data());
    state.counters["streams"] = static_cast<double>(streams.size());
    state.counters["events"] = static_cast<double>(events.size());
    state.counters["resident_MiB"] = static_cast<double>(after - before) / 1024.0;
    state.counters["KiB_per_stream_upper_bound"] = static_cast<double>(after - before) / streams.size();
    for (aclrtEvent event : events) aclrtDestroyEvent(event);
    for (aclrtStream stream : streams) aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclrtResetDevice(1);
    aclFinalize();
}
BENCHMARK(BM_IdleStreamsAndEventsMemory)->Iterations(1);

}  // namespace
