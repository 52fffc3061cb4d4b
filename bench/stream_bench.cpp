// STREAM copy, triad and a read-only sweep on the device arena's thread
// count: the machine's memory bandwidth, measured in the same run as the
// operators so that every operator figure reads as a fraction of it.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "bench_support.hpp"
#include "stream_kernels.hpp"

namespace {

using namespace aclcpu::bench;

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

/// Times sweep(arrays) per iteration (STREAM's Triad or the read sweep).
template <int64_t (*Sweep)(StreamArrays&)>
void stream_sweep(benchmark::State& state, int64_t elements) {
    StreamArrays arrays(elements);
    int64_t bytes = 0;
    time_each_iteration(state, [&] {
        bytes = Sweep(arrays);
        benchmark::ClobberMemory();
        return true;
    });
    report_traffic(state, elements, bytes);
}

/// Stream/<Copy|Triad|Read>/<elements>, over the operators' sizes.
const bool kRegistered = [] {
    for (const int64_t elements : operator_sizes()) {
        const std::string suffix = "/" + std::to_string(elements);
        benchmark::RegisterBenchmark(("Stream/Copy" + suffix).c_str(), stream_copy, elements)
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark(("Stream/Triad" + suffix).c_str(), stream_sweep<stream_triad_sweep>, elements)
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark(("Stream/Read" + suffix).c_str(), stream_sweep<stream_read_sweep>, elements)
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond);
    }
    return true;
}();

}  // namespace
