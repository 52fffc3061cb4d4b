// One token's products, as ggml's CANN backend asks for them at generation:
// aclnnMm of an fp32 activation row [1, K] with a weight [N, K] passed as
// its transposed [K, N] view (cubeMathType USE_FP16) -- fp16 in FRACTAL_NZ
// for the projections of tests/ggml/tiny_llama.cpp and of a 7B model's
// feed-forward, and ND fp16 and fp32 for the latter.  Memory-bound: the weight's bytes are the traffic,
// against a read-only STREAM sweep of as many bytes on as many threads,
// alternately (against_sweep).  The small cases fit in the caches, as they
// do in the model between tokens: there the ratio shows the launch and
// tiling cost next to a cached read.  Counters: the operator's GB/s over the
// weight's bytes, the sweep's, their ratio, and microseconds per product.
// Run as ACLCPU_WORKER_THREADS=2 aclcpu_bench --benchmark_filter=Decode/.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <utility>

#include "aclnnop/aclnn_mm.h"
#include "bench_support.hpp"
#include "stream_kernels.hpp"

namespace {

using namespace aclcpu::bench;

int64_t up16(int64_t v) { return (v + 15) / 16 * 16; }

/// How the weight [N, K] lies: FRACTAL_NZ as ggml's CANN backend lays its
/// fp16 projections out, or ND (torch's Linear, ggml's other weights) in
/// fp16 or fp32.
enum class Weight { kNzFp16, kNdFp16, kNdFp32 };

void BM_DecodeMm(benchmark::State& state, Weight layout) {
    const int64_t k = state.range(0);
    const int64_t n = state.range(1);
    RuntimeSession session;
    const bool nz = layout == Weight::kNzFp16;
    const aclDataType dtype = layout == Weight::kNdFp32 ? ACL_FLOAT : ACL_FLOAT16;
    const int64_t weightBytes = (nz ? up16(k) * up16(n) : k * n) * (dtype == ACL_FLOAT ? 4 : 2);
    void* x = session.device_buffer(static_cast<size_t>(k * 4));
    void* w = session.device_buffer(static_cast<size_t>(weightBytes));
    void* y = session.device_buffer(static_cast<size_t>(n * 4));
    aclrtMemset(x, k * 4, 0, k * 4);
    aclrtMemset(w, weightBytes, 0x2c, weightBytes);  // small fp16 values
    const int64_t xShape[] = {1, k};
    const int64_t xStrides[] = {k, 1};
    const int64_t wShape[] = {k, n};
    const int64_t wStrides[] = {1, k};
    const int64_t nzStorage[] = {up16(k) / 16, up16(n) / 16, 16, 16};
    const int64_t ndStorage[] = {n, k};
    const int64_t yShape[] = {1, n};
    const int64_t yStrides[] = {n, 1};
    aclTensor* xs = aclCreateTensor(xShape, 2, ACL_FLOAT, xStrides, 0, ACL_FORMAT_ND, xShape, 2, x);
    aclTensor* ws = nz ? aclCreateTensor(wShape, 2, dtype, wStrides, 0, ACL_FORMAT_FRACTAL_NZ, nzStorage, 4, w)
                       : aclCreateTensor(wShape, 2, dtype, wStrides, 0, ACL_FORMAT_ND, ndStorage, 2, w);
    aclTensor* ys = aclCreateTensor(yShape, 2, ACL_FLOAT, yStrides, 0, ACL_FORMAT_ND, yShape, 2, y);
    StreamArrays arrays(weightBytes / 4);
    Workspace workspace;
    const auto round_trip = [&] {
        const aclnnStatus launched = launch_two_phase(
            [&](uint64_t* size, aclOpExecutor** executor) {
                return aclnnMmGetWorkspaceSize(xs, ws, ys, 2, size, executor);
            },
            aclnnMm, workspace, session.stream());
        const aclError synchronized = aclrtSynchronizeStream(session.stream());
        return succeeded(state, launched != 0 ? launched : synchronized);
    };
    const SweepComparison measured = against_sweep(state, arrays, stream_read_sweep, round_trip);
    for (aclTensor* t : {xs, ws, ys}) aclDestroyTensor(t);
    const double opRate = static_cast<double>(weightBytes) / measured.opSeconds / 1e9;
    state.counters["GBps"] = opRate;
    state.counters["baseline_GBps"] = measured.sweepGBps;
    state.counters["ratio"] = opRate / measured.sweepGBps;
    state.counters["us"] = measured.opSeconds * 1e6;
}

const bool kRegistered = [] {
    const std::pair<int64_t, int64_t> shapes[] = {{256, 64}, {256, 256}, {256, 768}, {768, 256}, {256, 4096},
                                                  {4096, 14336}};
    const std::pair<Weight, const char*> layouts[] = {
        {Weight::kNzFp16, "f16nz"}, {Weight::kNdFp16, "f16"}, {Weight::kNdFp32, "f32"}};
    for (const auto& [layout, label] : layouts) {
        for (const auto& [k, n] : shapes) {
            // ND weights: only the large case (the small ones repeat the NZ story).
            if (layout != Weight::kNzFp16 && k * n < 4096 * 4096) continue;
            const std::string name = std::string("Decode/Mm/") + label + "/K" + std::to_string(k) + "xN" +
                                     std::to_string(n);
            benchmark::RegisterBenchmark(name.c_str(), BM_DecodeMm, layout)
                ->Args({k, n})
                ->UseManualTime()
                ->Unit(benchmark::kMicrosecond);
        }
    }
    return true;
}();

}  // namespace
