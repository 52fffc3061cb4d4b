// aclnnWeightQuantBatchMatmulV2 at token generation (issue 32's speed
// clause): x [M, K] fp16 times ggml's Q4_0 / Q8_0 weight -- a [K, N] view of
// an [N, K] INT4 / INT8 storage, fp16 scales per group of 32 -- for M = 1
// (memory-bound: the weight's bytes are the traffic) against a read-only
// STREAM sweep of as many bytes on as many threads, alternately as
// roofline_bench.cpp does (against_sweep), so both see the same load of a shared machine.
// Counters: the operator's GB/s over the weight's bytes (the scales add an
// eighth for INT4), the sweep's, and their ratio (the target: >= 0.6 for
// INT4).  Run as ACLCPU_WORKER_THREADS=2 aclcpu_bench
// --benchmark_filter=WeightQuant/.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "aclnnop/aclnn_weight_quant_batch_matmul_v2.h"
#include "bench_support.hpp"
#include "stream_kernels.hpp"

namespace {

using namespace aclcpu::bench;

constexpr int64_t kK = 4096;
constexpr int64_t kN = 16384;
constexpr int64_t kGroup = 32;

aclTensor* tensor(void* data, std::vector<int64_t> shape, std::vector<int64_t> strides, aclDataType dtype,
                  int64_t storage) {
    return aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), 0, ACL_FORMAT_ND, &storage, 1, data);
}

void BM_WeightQuant(benchmark::State& state, aclDataType weightDtype) {
    const int64_t m = state.range(0);
    RuntimeSession session;
    const int64_t weightBytes = kK * kN * (weightDtype == ACL_INT4 ? 1 : 2) / 2;
    const int64_t groups = kK / kGroup;
    void* x = session.device_buffer(static_cast<size_t>(m * kK * 2));
    void* w = session.device_buffer(static_cast<size_t>(weightBytes));
    void* s = session.device_buffer(static_cast<size_t>(groups * kN * 2));
    void* y = session.device_buffer(static_cast<size_t>(m * kN * 2));
    aclrtMemset(x, m * kK * 2, 0x3c, m * kK * 2);
    aclrtMemset(w, weightBytes, 0x17, weightBytes);
    aclrtMemset(s, groups * kN * 2, 0x1c, groups * kN * 2);
    aclTensor* xs = tensor(x, {m, kK}, {kK, 1}, ACL_FLOAT16, m * kK);
    aclTensor* ws = tensor(w, {kK, kN}, {1, kK}, weightDtype, kK * kN);
    aclTensor* ss = tensor(s, {groups, kN}, {1, groups}, ACL_FLOAT16, groups * kN);
    aclTensor* ys = tensor(y, {m, kN}, {kN, 1}, ACL_FLOAT16, m * kN);
    StreamArrays arrays(weightBytes / 4);
    Workspace workspace;
    const auto round_trip = [&] {
        const aclnnStatus launched = launch_two_phase(
            [&](uint64_t* size, aclOpExecutor** executor) {
                return aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(xs, ws, ss, nullptr, nullptr, nullptr, nullptr,
                                                                     kGroup, ys, size, executor);
            },
            aclnnWeightQuantBatchMatmulV2, workspace, session.stream());
        const aclError synchronized = aclrtSynchronizeStream(session.stream());
        return succeeded(state, launched != 0 ? launched : synchronized);
    };
    const SweepComparison measured = against_sweep(state, arrays, stream_read_sweep, round_trip);
    for (aclTensor* t : {xs, ws, ss, ys}) aclDestroyTensor(t);
    const double opRate = static_cast<double>(weightBytes) / measured.opSeconds / 1e9;
    state.counters["GBps"] = opRate;
    state.counters["baseline_GBps"] = measured.sweepGBps;
    state.counters["ratio"] = opRate / measured.sweepGBps;
    state.counters["GFLOP/s"] = 2.0 * static_cast<double>(m * kK * kN) / measured.opSeconds / 1e9;
}

const bool kRegistered = [] {
    for (const aclDataType dtype : {ACL_INT4, ACL_INT8}) {
        const std::string name = std::string("WeightQuant/") + (dtype == ACL_INT4 ? "int4" : "int8") + "/K" +
                                 std::to_string(kK) + "xN" + std::to_string(kN) + "/M";
        benchmark::RegisterBenchmark(name.c_str(), BM_WeightQuant, dtype)
            ->Arg(1)
            ->Arg(4)
            ->Arg(64)
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond);
    }
    return true;
}();

}  // namespace
