// Matrix product figures at 2048^3, in one run: BLIS's own multi-threaded
// SGEMM (bli_sgemm_ex, worker_threads() threads in its rntm), then aclnnMm
// in fp32 and in fp16 (KEEP_DTYPE) on the device's workers.  Each reports
// GFLOP/s (2 M N K per product); the Mm cases also their ratio to BLIS's
// figure and fp16's to fp32's.  Run as
// ACLCPU_WORKER_THREADS=2 aclcpu_bench --benchmark_filter=Matmul/ so that
// both sides use the same two cores.
#include <benchmark/benchmark.h>

#include <blis.h>

#include <chrono>
#include <cstdint>
#include <vector>

#include "aclnnop/aclnn_mm.h"
#include "bench_support.hpp"

namespace {

using namespace aclcpu::bench;

constexpr int64_t kSize = 2048;
constexpr double kFlops = 2.0 * kSize * kSize * kSize;

/// GFLOP/s of the cases run so far, for the ratios.
double gBlisRate = 0;
double gMmFp32Rate = 0;

double rate(const benchmark::State& state, double seconds) {
    return seconds > 0 ? kFlops * static_cast<double>(state.iterations()) / seconds / 1e9 : 0;
}

void BM_BlisSgemm(benchmark::State& state) {
    std::vector<float> a(kSize * kSize, 0.5f), b(kSize * kSize, 0.25f), c(kSize * kSize);
    float one = 1.0f, zero = 0.0f;
    rntm_t rntm = BLIS_RNTM_INITIALIZER;
    bli_rntm_set_num_threads(worker_threads(), &rntm);
    double seconds = 0;
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        bli_sgemm_ex(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, kSize, kSize, kSize, &one, a.data(), kSize, 1, b.data(),
                     kSize, 1, &zero, c.data(), kSize, 1, nullptr, &rntm);
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    gBlisRate = rate(state, seconds);
    state.counters["GFLOP/s"] = gBlisRate;
    state.counters["threads"] = worker_threads();
}
BENCHMARK(BM_BlisSgemm)->Name("Matmul/BlisSgemm/2048")->Unit(benchmark::kMillisecond)->MinTime(2.0);

void BM_Mm(benchmark::State& state, aclDataType dtype) {
    RuntimeSession session;
    const size_t bytes = kSize * kSize * (dtype == ACL_FLOAT ? 4 : 2);
    const int64_t shape[] = {kSize, kSize};
    const int64_t strides[] = {kSize, 1};
    std::vector<aclTensor*> tensors;
    for (int i = 0; i < 3; ++i) {
        void* data = session.device_buffer(bytes);
        aclrtMemset(data, bytes, 0x3c, bytes);  // 1.0-ish fp16 pairs, small fp32 values
        tensors.push_back(aclCreateTensor(shape, 2, dtype, strides, 0, ACL_FORMAT_ND, shape, 2, data));
    }
    Workspace workspace;
    double seconds = 0;
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        const aclnnStatus status = launch_two_phase(
            [&](uint64_t* size, aclOpExecutor** executor) {
                return aclnnMmGetWorkspaceSize(tensors[0], tensors[1], tensors[2], 0, size, executor);
            },
            aclnnMm, workspace, session.stream());
        aclrtSynchronizeStream(session.stream());
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!succeeded(state, status)) break;
    }
    for (aclTensor* tensor : tensors) aclDestroyTensor(tensor);
    const double gflops = rate(state, seconds);
    state.counters["GFLOP/s"] = gflops;
    if (gBlisRate > 0) state.counters["vs_blis"] = gflops / gBlisRate;
    if (dtype == ACL_FLOAT) gMmFp32Rate = gflops;
    if (dtype != ACL_FLOAT && gMmFp32Rate > 0) state.counters["vs_fp32"] = gflops / gMmFp32Rate;
}
BENCHMARK_CAPTURE(BM_Mm, fp32, ACL_FLOAT)->Name("Matmul/Mm/fp32/2048")->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK_CAPTURE(BM_Mm, fp16, ACL_FLOAT16)->Name("Matmul/Mm/fp16/2048")->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace
