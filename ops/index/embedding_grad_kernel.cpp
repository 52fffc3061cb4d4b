// acl-cpu: EmbeddingDenseBackward's kernel (embedding_grad_kernel.hpp).
#include "index/embedding_grad_kernel.hpp"

#include <algorithm>

#include "common/dtype.hpp"
#include "common/typed_lanes.hpp"

namespace aclcpu::ops {
namespace {

/// Elements of a grad row gathered into fp32 at once.
constexpr int64_t kRowChunk = 1024;

}  // namespace

int64_t embedding_grad_workspace_bytes(const EmbeddingGradOperands& operands) noexcept {
    return operands.numWeights * (operands.dim + 1) * int64_t{sizeof(float)};
}

int64_t EmbeddingGradKernel::index_at(const void* indices, int64_t r) const noexcept {
    const int64_t position = operands_.indices.position_of(r);
    // The op_api casts indices to INT32 first (IsComputeByV2's A2 path).
    const int32_t value = visit_loadable(
        operands_.indices.dtype(),
        [&](auto tag) {
            return cast_element<int32_t>(static_cast<const decltype(tag)*>(indices)[position]);
        },
        [] { return int32_t{-1}; });
    return value >= 0 && value < operands_.numWeights ? value : -1;
}

void EmbeddingGradKernel::run_block(const LaunchArgs& args, Range weights) const noexcept {
    const int64_t dim = operands_.dim;
    float* const sums = static_cast<float*>(args.workspace);
    float* const counts = sums + operands_.numWeights * dim;
    std::fill(sums + weights.begin * dim, sums + weights.end * dim, 0.0f);
    std::fill(counts + weights.begin, counts + weights.end, 0.0f);
    float chunk[kRowChunk];
    for (int64_t r = 0; r < operands_.rows; ++r) {
        const int64_t w = index_at(args.inputs[1], r);
        if (w < weights.begin || w >= weights.end || static_cast<uint64_t>(w) == operands_.paddingIdx) continue;
        counts[w] += 1;
        float* const sum = sums + w * dim;
        for (int64_t j = 0; j < dim; j += kRowChunk) {
            const int64_t n = std::min(kRowChunk, dim - j);
            gather(operands_.grad, args.inputs[0], r * dim + j, n, chunk);
            for (int64_t k = 0; k < n; ++k) sum[j + k] += chunk[k];
        }
    }
    for (int64_t w = weights.begin; w < weights.end; ++w) {
        float* const sum = sums + w * dim;
        if (operands_.scaleGradByFreq && counts[w] > 0) {
            const float reciprocal = 1.0f / counts[w];
            for (int64_t k = 0; k < dim; ++k) sum[k] *= reciprocal;
        }
        scatter(sum, operands_.out, args.outputs[0], w * dim, dim);
    }
}

aclError EmbeddingGradKernel::launch(const LaunchArgs& args) const noexcept {
    if (aclError status = check_tensor_addresses(name_, args, 2, 1); status != ACL_SUCCESS) return status;
    const int64_t bytesMoved = (operands_.rows + operands_.numWeights) * operands_.dim * int64_t{sizeof(float)};
    return launch_blocks(name_, tiling_.blocks.count(), bytesMoved,
                         [&](int64_t block) { run_block(args, tiling_.blocks.block(block)); });
}

}  // namespace aclcpu::ops
