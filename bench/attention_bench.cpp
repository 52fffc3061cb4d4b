// FusedInferAttentionScoreV2 at S = 4096, D = 128, 8 heads (BNSD, FLOAT16,
// B = 1, no mask) against the rate its two products reach as matrix
// products of their own: aclnnBatchMatMul of Q [8, 4096, 128] by K^T
// [8, 128, 4096] and of P [8, 4096, 4096] by V [8, 4096, 128], FLOAT16.
// Each reports GFLOP/s over the two products' 4 B N S^2 D flops; the
// attention case also its ratio to the products'.  Run as
// ACLCPU_WORKER_THREADS=2 aclcpu_bench --benchmark_filter=Attention/.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v2.h"
#include "bench_support.hpp"

namespace {

using namespace aclcpu::bench;

constexpr int64_t kHeads = 8;
constexpr int64_t kSeq = 4096;
constexpr int64_t kDim = 128;
constexpr double kFlops = 4.0 * kHeads * kSeq * kSeq * kDim;

double gProductsRate = 0;

/// A FLOAT16 tensor of shape over a fresh device buffer of about 1.0-ish values.
aclTensor* tensor(RuntimeSession& session, std::vector<int64_t> shape) {
    std::vector<int64_t> strides(shape.size(), 1);
    for (size_t d = shape.size() - 1; d-- > 0;) strides[d] = strides[d + 1] * shape[d + 1];
    const size_t bytes = static_cast<size_t>(strides[0] * shape[0]) * 2;
    void* data = session.device_buffer(bytes);
    aclrtMemset(data, bytes, 0x20, bytes);  // small fp16 values: no overflow in the sums
    return aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT16, strides.data(), 0, ACL_FORMAT_ND, shape.data(),
                           shape.size(), data);
}

double rate(const benchmark::State& state, double seconds) {
    return seconds > 0 ? kFlops * static_cast<double>(state.iterations()) / seconds / 1e9 : 0;
}

void BM_Products(benchmark::State& state) {
    RuntimeSession session;
    aclTensor* q = tensor(session, {kHeads, kSeq, kDim});
    aclTensor* kt = tensor(session, {kHeads, kDim, kSeq});
    aclTensor* p = tensor(session, {kHeads, kSeq, kSeq});
    aclTensor* v = tensor(session, {kHeads, kSeq, kDim});
    aclTensor* out = tensor(session, {kHeads, kSeq, kDim});
    Workspace workspace;
    double seconds = 0;
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        aclnnStatus status = launch_two_phase(
            [&](uint64_t* size, aclOpExecutor** executor) {
                return aclnnBatchMatMulGetWorkspaceSize(q, kt, p, 0, size, executor);
            },
            aclnnBatchMatMul, workspace, session.stream());
        if (status == ACLNN_SUCCESS) {
            status = launch_two_phase(
                [&](uint64_t* size, aclOpExecutor** executor) {
                    return aclnnBatchMatMulGetWorkspaceSize(p, v, out, 0, size, executor);
                },
                aclnnBatchMatMul, workspace, session.stream());
        }
        aclrtSynchronizeStream(session.stream());
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!succeeded(state, status)) break;
    }
    for (aclTensor* t : {q, kt, p, v, out}) aclDestroyTensor(t);
    gProductsRate = rate(state, seconds);
    state.counters["GFLOP/s"] = gProductsRate;
}
BENCHMARK(BM_Products)->Name("Attention/BatchMatMulPair/fp16/4096x128x8")->Unit(benchmark::kMillisecond)->MinTime(2.0);

void BM_Attention(benchmark::State& state) {
    RuntimeSession session;
    aclTensor* q = tensor(session, {1, kHeads, kSeq, kDim});
    aclTensor* k = tensor(session, {1, kHeads, kSeq, kDim});
    aclTensor* v = tensor(session, {1, kHeads, kSeq, kDim});
    aclTensor* out = tensor(session, {1, kHeads, kSeq, kDim});
    const aclTensor* kList[] = {k};
    const aclTensor* vList[] = {v};
    aclTensorList* keys = aclCreateTensorList(kList, 1);
    aclTensorList* values = aclCreateTensorList(vList, 1);
    std::string layout = "BNSD";
    Workspace workspace;
    double seconds = 0;
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        const aclnnStatus status = launch_two_phase(
            [&](uint64_t* size, aclOpExecutor** executor) {
                return aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
                    q, keys, values, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                    nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                    nullptr, kHeads, 1.0 / 11.3137, 65535, 65535, layout.data(), kHeads, 0, 0, 0, 0, false, 0, 0, out,
                    nullptr, size, executor);
            },
            aclnnFusedInferAttentionScoreV2, workspace, session.stream());
        aclrtSynchronizeStream(session.stream());
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!succeeded(state, status)) break;
    }
    aclDestroyTensorList(keys);  // and k, v with them
    aclDestroyTensorList(values);
    aclDestroyTensor(q);
    aclDestroyTensor(out);
    const double gflops = rate(state, seconds);
    state.counters["GFLOP/s"] = gflops;
    if (gProductsRate > 0) state.counters["vs_products"] = gflops / gProductsRate;
}
BENCHMARK(BM_Attention)->Name("Attention/FusedInferAttentionScoreV2/fp16/4096x128x8")->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace
