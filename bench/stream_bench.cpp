// STREAM copy and triad on the device arena's thread count: the machine's
// memory bandwidth, measured in the same run as the operators so that every
// operator figure reads as a fraction of it.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>

#include "bench_support.hpp"

namespace {

using namespace aclcpu::bench;

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

    float* a() { return a_.get(); }
    float* b() { return b_.get(); }
    float* c() { return c_.get(); }

private:
    int64_t elements_;
    tbb::task_arena arena_;
    std::unique_ptr<float[]> a_, b_, c_;
};

/// STREAM's Copy: c = a (reads 4 bytes, writes 4 per element).
void stream_copy(benchmark::State& state, int64_t elements) {
    StreamArrays arrays(elements);
    float* __restrict source = arrays.a();
    float* __restrict target = arrays.c();
    time_each_iteration(state, [&] {
        arrays.for_each_range([&](int64_t begin, int64_t end) {
            for (int64_t i = begin; i < end; ++i) target[i] = source[i];
        });
        benchmark::ClobberMemory();
        return true;
    });
    report_traffic(state, elements, 2 * elements * static_cast<int64_t>(sizeof(float)));
}

/// STREAM's Triad: a = b + s * c (reads 8 bytes, writes 4 per element).
void stream_triad(benchmark::State& state, int64_t elements) {
    StreamArrays arrays(elements);
    float* __restrict target = arrays.a();
    const float* __restrict left = arrays.b();
    const float* __restrict right = arrays.c();
    const float scalar = 3.0f;
    time_each_iteration(state, [&] {
        arrays.for_each_range([&](int64_t begin, int64_t end) {
            for (int64_t i = begin; i < end; ++i) target[i] = left[i] + scalar * right[i];
        });
        benchmark::ClobberMemory();
        return true;
    });
    report_traffic(state, elements, 3 * elements * static_cast<int64_t>(sizeof(float)));
}

/// Stream/<Copy|Triad>/<elements>, over the operators' sizes.
const bool kRegistered = [] {
    for (const int64_t elements : operator_sizes()) {
        const std::string suffix = "/" + std::to_string(elements);
        benchmark::RegisterBenchmark(("Stream/Copy" + suffix).c_str(), stream_copy, elements)
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark(("Stream/Triad" + suffix).c_str(), stream_triad, elements)
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond);
    }
    return true;
}();

}  // namespace
