// Matrix product figures at 2048^3, in one run: the machine's peak FMA rate
// (peak_fma.hpp's loop on one thread, then on worker_threads() threads),
// BLIS's own multi-threaded SGEMM (bli_sgemm_ex, worker_threads() threads in
// its rntm), then aclnnMm in fp32 and in fp16 (KEEP_DTYPE) on the device's
// workers.  Each reports GFLOP/s (2 M N K per product); SGEMM and the Mm
// cases also their ratio to the machine's peak -- worker_threads() cores
// at one core's peak per CPU-second of the FMA loop, which other jobs on
// the machine do not lower --: "of_peak" by wall time (lowered by other
// jobs) and "cpu_of_peak", the flops per CPU-second of the process over one
// core's peak (the cores' efficiency while they run the product); the Mm
// cases also their ratio to BLIS's figure and fp16's to fp32's.  Run as
// ACLCPU_WORKER_THREADS=2 aclcpu_bench --benchmark_filter=Matmul/ so that
// both sides use the same two cores.
#include <benchmark/benchmark.h>

#include <blis.h>

#include <time.h>

#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "aclnnop/aclnn_mm.h"
#include "bench_support.hpp"
#include "peak_fma.hpp"

namespace {

using namespace aclcpu::bench;

constexpr int64_t kSize = 2048;
constexpr double kFlops = 2.0 * kSize * kSize * kSize;

/// GFLOP/s of the cases run so far, for the ratios; gPeakCoreRate per
/// CPU-second of one thread.
double gPeakCoreRate = 0;
double gBlisRate = 0;
double gMmFp32Rate = 0;

double rate(const benchmark::State& state, double seconds) {
    return seconds > 0 ? kFlops * static_cast<double>(state.iterations()) / seconds / 1e9 : 0;
}

double cpu_seconds(clockid_t clock) {
    timespec now{};
    clock_gettime(clock, &now);
    return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

/// The FMA loop on `threads` threads at once (one per core, as the
/// workers): GFLOP/s by wall time, and per CPU-second of each thread.
void BM_PeakFma(benchmark::State& state) {
    const int threads = static_cast<int>(state.range(0));
    constexpr int64_t kRounds = int64_t{1} << 24;
    double flops = 0;
    double seconds = 0;
    double threadSeconds = 0;
    for (auto _ : state) {
        std::vector<double> done(static_cast<size_t>(threads));
        std::vector<double> busy(static_cast<size_t>(threads));
        const auto start = std::chrono::steady_clock::now();
        std::vector<std::thread> team;
        for (int t = 0; t < threads; ++t) {
            team.emplace_back([&done, &busy, t] {
                const double begin = cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
                done[t] = fma_flops(kRounds);
                busy[t] = cpu_seconds(CLOCK_THREAD_CPUTIME_ID) - begin;
            });
        }
        for (std::thread& thread : team) thread.join();
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        for (int t = 0; t < threads; ++t) {
            flops += done[t];
            threadSeconds += busy[t];
        }
    }
    const double gflops = seconds > 0 ? flops / seconds / 1e9 : 0;
    const double perCore = threadSeconds > 0 ? flops / threadSeconds / 1e9 : 0;
    state.counters["GFLOP/s"] = gflops;
    state.counters["core_GFLOP/cpu-s"] = perCore;
    state.counters["threads"] = threads;
    if (threads == 1) gPeakCoreRate = perCore;
    state.SetLabel(fma_target());
}
BENCHMARK(BM_PeakFma)->Name("Matmul/PeakFma/threads")->Arg(1)->Arg(worker_threads())->Unit(benchmark::kMillisecond)
    ->MinTime(1.0);

/// The ratios of a product's rate to the peak measured before it: gflops
/// by wall time, cpuSeconds the process's CPU time over the iterations.
void add_of_peak(benchmark::State& state, double gflops, double cpuSeconds) {
    if (gPeakCoreRate <= 0) return;
    state.counters["of_peak"] = gflops / (gPeakCoreRate * worker_threads());
    if (cpuSeconds > 0) {
        state.counters["cpu_of_peak"] = rate(state, cpuSeconds) / gPeakCoreRate;
    }
}

void BM_BlisSgemm(benchmark::State& state) {
    std::vector<float> a(kSize * kSize, 0.5f), b(kSize * kSize, 0.25f), c(kSize * kSize);
    float one = 1.0f, zero = 0.0f;
    rntm_t rntm = BLIS_RNTM_INITIALIZER;
    bli_rntm_set_num_threads(worker_threads(), &rntm);
    double seconds = 0;
    const double cpuStart = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        bli_sgemm_ex(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, kSize, kSize, kSize, &one, a.data(), kSize, 1, b.data(),
                     kSize, 1, &zero, c.data(), kSize, 1, nullptr, &rntm);
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    const double cpuSeconds = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - cpuStart;
    gBlisRate = rate(state, seconds);
    state.counters["GFLOP/s"] = gBlisRate;
    add_of_peak(state, gBlisRate, cpuSeconds);
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
    const double cpuStart = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
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
    const double cpuSeconds = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - cpuStart;
    for (aclTensor* tensor : tensors) aclDestroyTensor(tensor);
    const double gflops = rate(state, seconds);
    state.counters["GFLOP/s"] = gflops;
    add_of_peak(state, gflops, cpuSeconds);
    if (gBlisRate > 0) state.counters["vs_blis"] = gflops / gBlisRate;
    if (dtype == ACL_FLOAT) gMmFp32Rate = gflops;
    if (dtype != ACL_FLOAT && gMmFp32Rate > 0) state.counters["vs_fp32"] = gflops / gMmFp32Rate;
}
BENCHMARK_CAPTURE(BM_Mm, fp32, ACL_FLOAT)->Name("Matmul/Mm/fp32/2048")->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK_CAPTURE(BM_Mm, fp16, ACL_FLOAT16)->Name("Matmul/Mm/fp16/2048")->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace
