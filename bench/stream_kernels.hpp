// STREAM's arrays and sweeps on the device arena's thread count, for
// stream_bench.cpp (the machine's bandwidth beside every operator figure)
// and roofline_bench.cpp (operators timed against a sweep in one case).
#pragma once

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

}  // namespace aclcpu::bench
