// Shared set-up for the benchmarks: a runtime session, the two-phase aclnn
// launch, and the counters every figure carries into the JSON output that
// bench/compare_pytorch.py reads.  Device tensors filled with reproducible
// data come from the testkit the tests use too (aclcpu_testkit/device_data.hpp).
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclcpu_testkit/device_data.hpp"
#include "aclcpu_testkit/scoped_env.hpp"

namespace aclcpu::bench {

using testkit::DeviceTensor;
using testkit::IntArray;
using testkit::Scalar;
using testkit::TensorList;

/// aclInit + device 0 + one stream for the life of a benchmark; device
/// buffers made through it are freed with it, so each benchmark case gives
/// its memory back before the next one starts.
class RuntimeSession {
public:
    RuntimeSession() {
        aclInit(nullptr);
        aclrtSetDevice(0);
        aclrtCreateStream(&stream_);
    }
    ~RuntimeSession() {
        aclrtSynchronizeStream(stream_);
        for (void* buffer : buffers_) aclrtFree(buffer);
        aclrtDestroyStream(stream_);
        aclrtResetDevice(0);
        aclFinalize();
    }
    RuntimeSession(const RuntimeSession&) = delete;
    RuntimeSession& operator=(const RuntimeSession&) = delete;

    aclrtStream stream() const { return stream_; }

    void* device_buffer(size_t bytes) {
        void* buffer = nullptr;
        aclrtMalloc(&buffer, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        buffers_.push_back(buffer);
        return buffer;
    }

private:
    aclrtStream stream_ = nullptr;
    std::vector<void*> buffers_;
};

using testkit::ScopedEnv;

/// The process's resident set size in KiB (VmRSS).
inline long resident_kib() {
    std::ifstream status("/proc/self/status");
    std::string key;
    while (status >> key) {
        if (key == "VmRSS:") {
            long kib = 0;
            status >> kib;
            return kib;
        }
        status.ignore(4096, '\n');
    }
    return -1;
}

/// The device arena's size as aclInit will choose it: ACLCPU_WORKER_THREADS,
/// else the hardware threads.  Baselines run on this many threads so that
/// every ratio compares equal parallelism.
inline int worker_threads() {
    if (const char* value = std::getenv("ACLCPU_WORKER_THREADS")) {
        const int threads = std::atoi(value);
        if (threads > 0) return threads;
    }
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

/// Runs `submit` once per iteration and reports its cost; the stream is
/// drained outside the timing every few thousand submissions.
template <typename Submit>
void measure_submit(benchmark::State& state, aclrtStream stream, Submit submit) {
    int64_t submitted = 0;
    for (auto _ : state) {
        submit();
        if (++submitted % 4096 == 0) {
            state.PauseTiming();
            aclrtSynchronizeStream(stream);
            state.ResumeTiming();
        }
    }
    aclrtSynchronizeStream(stream);
    state.SetItemsProcessed(state.iterations());
}

// ---- Operator data ---------------------------------------------------------

/// The floating dtypes every operator is measured in.
struct FloatType {
    aclDataType type;
    const char* name;  ///< As in benchmark names and the comparison table.
    int64_t bytes;
};
inline constexpr FloatType kFloatTypes[] = {{ACL_FLOAT, "fp32", 4}, {ACL_FLOAT16, "fp16", 2}, {ACL_BF16, "bf16", 2}};

/// Element counts of the operator benchmarks: 4 Ki to 64 Mi in steps of 4.
inline std::vector<int64_t> operator_sizes() {
    std::vector<int64_t> sizes;
    for (int64_t n = int64_t{4} << 10; n <= int64_t{64} << 20; n *= 4) sizes.push_back(n);
    return sizes;
}

/// The phase-2 workspace: grows to the largest size phase 1 asked for and
/// is reused, as a host program keeps one workspace for repeated launches.
class Workspace {
public:
    Workspace() = default;
    ~Workspace() {
        if (data_ != nullptr) aclrtFree(data_);
    }
    Workspace(const Workspace&) = delete;
    Workspace& operator=(const Workspace&) = delete;

    void* reserve(uint64_t bytes) {
        if (bytes > capacity_) {
            if (data_ != nullptr) aclrtFree(data_);
            data_ = nullptr;
            aclrtMalloc(&data_, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
            capacity_ = bytes;
        }
        return bytes == 0 ? nullptr : data_;
    }

private:
    void* data_ = nullptr;
    uint64_t capacity_ = 0;
};

/// One operator launch as a host program writes it: phase 1 (checks, tiling,
/// executor), then phase 2 on `stream` with a workspace of the size phase 1
/// asked for.  phase1(uint64_t*, aclOpExecutor**) and
/// phase2(void*, uint64_t, aclOpExecutor*, aclrtStream) are the aclnn pair.
template <typename Phase1, typename Phase2>
aclnnStatus launch_two_phase(Phase1 phase1, Phase2 phase2, Workspace& workspace, aclrtStream stream) {
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus status = phase1(&workspaceSize, &executor);
    if (status != 0) return status;
    return phase2(workspace.reserve(workspaceSize), workspaceSize, executor, stream);
}

/// Marks the case failed with the runtime's message when status is not 0;
/// returns whether it was 0.
inline bool succeeded(benchmark::State& state, int status) {
    if (status == 0) return true;
    const char* message = aclGetRecentErrMsg();
    state.SkipWithError(message != nullptr && *message != '\0' ? message : "acl call failed");
    return false;
}

/// The counters that make a throughput figure self-describing: bytes/s
/// from the bytes model, and the model itself (bytes per iteration) plus the
/// element count, which bench/compare_pytorch.py reads back from the JSON
/// instead of restating the model.
inline void report_traffic(benchmark::State& state, int64_t elements, int64_t bytesPerIteration) {
    state.SetBytesProcessed(state.iterations() * bytesPerIteration);
    state.SetItemsProcessed(state.iterations() * elements);
    state.counters["elements"] = static_cast<double>(elements);
    state.counters["bytes_per_iteration"] = static_cast<double>(bytesPerIteration);
}

/// Median and 99th percentile of per-iteration wall times, as counters in
/// microseconds (Google Benchmark itself reports only the mean).
class LatencySamples {
public:
    void add(double seconds) { samples_.push_back(seconds); }
    void report(benchmark::State& state) {
        if (samples_.empty()) return;
        std::sort(samples_.begin(), samples_.end());
        const auto at = [&](double quantile) {
            return samples_[static_cast<size_t>(quantile * static_cast<double>(samples_.size() - 1))] * 1e6;
        };
        state.counters["median_us"] = at(0.5);
        state.counters["p99_us"] = at(0.99);
    }

private:
    std::vector<double> samples_;
};

/// Times each call of body() (which returns false to stop the case) as one
/// iteration: the reported time, for benchmarks registered with
/// UseManualTime(), and the median_us and p99_us counters.  before() runs
/// untimed ahead of each call.  The median is the figure
/// bench/compare_pytorch.py uses: on a shared machine it ignores the
/// iterations that a descheduled thread stretches.
template <typename Body, typename Before>
void time_each_iteration(benchmark::State& state, Body body, Before before) {
    using Clock = std::chrono::steady_clock;
    LatencySamples samples;
    for (auto _ : state) {
        before();
        const auto start = Clock::now();
        const bool proceed = body();
        const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
        state.SetIterationTime(seconds);
        samples.add(seconds);
        if (!proceed) break;
    }
    samples.report(state);
}

template <typename Body>
void time_each_iteration(benchmark::State& state, Body body) {
    time_each_iteration(state, body, [] {});
}

}  // namespace aclcpu::bench
