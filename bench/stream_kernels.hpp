// STREAM's arrays and sweeps on the device arena's thread count, for
// stream_bench.cpp (the machine's bandwidth beside every operator figure)
// and roofline_bench.cpp (operators timed against a sweep in one case).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>

#include <benchmark/benchmark.h>

#include "bench_support.hpp"

namespace aclcpu::bench {

/// Three fp32 arrays of n elements, first touched by the threads that later
/// stream them.
class StreamArrays {
public:
    explicit StreamArrays(int64_t elements)
        : elements_(elements), arena_(worker_threads()), a_(new float[elements]), b_(new float[elements]),
          c_(new float[elements]) {
        for_each_range([this](int64_t begin, int64_t end) {
            for (int64_t i = begin; i < end; ++i) a_[i] = 1.0f, b_[i] = 2.0f, c_[i] = 0.0f;
        });
    }

    /// Runs body(begin, end) over [0, n), one contiguous range per thread.
    template <typename Body>
    void for_each_range(const Body& body) {
        arena_.execute([&] {
            tbb::parallel_for(
                tbb::blocked_range<int64_t>(0, elements_),
                [&](const tbb::blocked_range<int64_t>& range) { body(range.begin(), range.end()); },
                tbb::static_partitioner());
        });
    }

    int64_t elements() const { return elements_; }
    float* a() { return a_.get(); }
    float* b() { return b_.get(); }
    float* c() { return c_.get(); }

private:
    int64_t elements_;
    tbb::task_arena arena_;
    std::unique_ptr<float[]> a_, b_, c_;
};

/// STREAM's Triad over arrays: a = b + s * c (reads 8 bytes, writes 4 per
/// element).  Returns the bytes moved.
inline int64_t stream_triad_sweep(StreamArrays& arrays) {
    float* __restrict target = arrays.a();
    const float* __restrict left = arrays.b();
    const float* __restrict right = arrays.c();
    const float scalar = 3.0f;
    arrays.for_each_range([&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) target[i] = left[i] + scalar * right[i];
    });
    return 3 * arrays.elements() * static_cast<int64_t>(sizeof(float));
}

/// A read-only sweep: the sum of array b (4 bytes read per element), each
/// thread's range in 32 independent fp32 partial sums (eight 4-lane
/// vectors: without them one add's latency, not memory, bounds the loop),
/// each range's sum kept alive so that the reads cannot be dropped.
/// Returns the bytes moved.
inline int64_t stream_read_sweep(StreamArrays& arrays) {
    using Lanes = float __attribute__((vector_size(16)));
    constexpr int64_t kLanes = 4;
    constexpr int64_t kVectors = 8;
    const float* source = arrays.b();
    arrays.for_each_range([&](int64_t begin, int64_t end) {
        Lanes partial[kVectors] = {};
        int64_t i = begin;
        for (; i + kLanes * kVectors <= end; i += kLanes * kVectors) {
#pragma GCC unroll 8  // the partial sums in registers
            for (int64_t v = 0; v < kVectors; ++v) {
                Lanes lanes;
                std::memcpy(&lanes, source + i + v * kLanes, sizeof(lanes));
                partial[v] += lanes;
            }
        }
        float sum = 0.0f;
        for (; i < end; ++i) sum += source[i];
        for (const Lanes& lanes : partial) sum += lanes[0] + lanes[1] + lanes[2] + lanes[3];
        benchmark::DoNotOptimize(sum);
    });
    return arrays.elements() * static_cast<int64_t>(sizeof(float));
}

/// What against_sweep measured: the operator's median round trip and the
/// sweep's median rate.
struct SweepComparison {
    double opSeconds = 0;
    double sweepGBps = 0;
};

/// Alternates one timed operator round trip (roundTrip(): false on a
/// failure, which ends the case) with one timed sweep of arrays, each right
/// after an untimed run of itself -- both find their threads awake and the
/// caches as their own previous run left them (the first run of all touches
/// the outputs and the workspace) -- so that both see the same load of a
/// shared machine.  The iteration time Google Benchmark reports is the
/// operator's (UseManualTime).
template <class RoundTrip>
SweepComparison against_sweep(benchmark::State& state, StreamArrays& arrays, int64_t (*sweep)(StreamArrays&),
                              const RoundTrip& roundTrip) {
    using Clock = std::chrono::steady_clock;
    const auto seconds = [](Clock::time_point a, Clock::time_point b) {
        return std::chrono::duration<double>(b - a).count();
    };
    const auto median = [](std::vector<double> values) {
        std::sort(values.begin(), values.end());
        return values.empty() ? 0.0 : values[values.size() / 2];
    };
    int64_t sweepBytes = 0;
    std::vector<double> opSeconds;
    std::vector<double> sweepSeconds;
    for (auto _ : state) {
        if (!roundTrip()) break;
        const auto start = Clock::now();
        if (!roundTrip()) break;
        const auto middle = Clock::now();
        sweep(arrays);
        const auto sweepStart = Clock::now();
        sweepBytes = sweep(arrays);
        benchmark::ClobberMemory();
        const auto end = Clock::now();
        opSeconds.push_back(seconds(start, middle));
        sweepSeconds.push_back(seconds(sweepStart, end));
        state.SetIterationTime(opSeconds.back());
    }
    return {median(opSeconds), static_cast<double>(sweepBytes) / median(sweepSeconds) / 1e9};
}

}  // namespace aclcpu::bench
