// acl-cpu: ForeachNorm's kernel (norm_kernel.hpp).
#include "foreach/norm_kernel.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace aclcpu::ops {
namespace {

/// Elements gathered at once, and the independent partial sums a piece
/// keeps (so that long tensors do not add every element into one float).
constexpr int64_t kPart = 1024;
constexpr int64_t kLanes = 8;

ElementwiseTiling norm_tiling(const TensorListOperands& inputs) {
    return tile_tensor_lists(inputs, inputs.layouts.empty() ? ACL_FLOAT : inputs.layouts[0].dtype());
}

}  // namespace

ForeachNormKernel::ForeachNormKernel(const char* name, TensorListOperands inputs, std::vector<StridedLayout> outs,
                                     std::vector<int64_t> xIndex, bool taxicab)
    : TiledKernel(name, norm_tiling(inputs)), inputs_(std::move(inputs)), outs_(std::move(outs)), xIndex_(std::move(xIndex)), taxicab_(taxicab) {}

int64_t ForeachNormKernel::workspace_bytes(const TensorListOperands& inputs) {
    return norm_tiling(inputs).blocks.count() * inputs.tensors * int64_t{sizeof(float)};
}

void ForeachNormKernel::sum_block(const LaunchArgs& args, int64_t b, float* partials) const noexcept {
    float* const row = partials + b * inputs_.tensors;
    std::fill(row, row + inputs_.tensors, 0.0f);
    float values[kPart];
    for_each_tensor_piece(inputs_, tiling_.blocks.block(b), kPart, [&](int64_t t, int64_t local, int64_t n) {
        gather(inputs_.input(0, t), args.inputs[t], local, n, values);
        float lanes[kLanes] = {};
        for (int64_t i = 0; i < n; ++i) lanes[i % kLanes] += taxicab_ ? std::fabs(values[i]) : values[i] * values[i];
        float sum = 0;
        for (float lane : lanes) sum += lane;
        row[t] += sum;
    });
}

aclError ForeachNormKernel::launch(const LaunchArgs& args) const noexcept {
    const auto tensors = static_cast<size_t>(inputs_.tensors);
    if (aclError status = check_tensor_addresses(name_, args, tensors, outs_.size()); status != ACL_SUCCESS) {
        return status;
    }
    auto* const partials = static_cast<float*>(args.workspace);
    const int64_t blocks = tiling_.blocks.count();
    if (blocks > 0) {
        const int64_t bytesMoved = inputs_.numel() * element_size(inputs_.layouts[0].dtype());
        const aclError status =
            launch_blocks(name_, blocks, bytesMoved, [&](int64_t b) { sum_block(args, b, partials); });
        if (status != ACL_SUCCESS) return status;
    }
    // An empty x tensor's norm is 0; the others are their partials' sum.
    const float zero = 0.0f;
    for (size_t i = 0; i < outs_.size(); ++i) scatter(&zero, outs_[i], args.outputs[i], 0, 1);
    for (size_t t = 0; t < tensors; ++t) {
        float sum = 0;
        for (int64_t b = 0; b < blocks; ++b) sum += partials[b * inputs_.tensors + static_cast<int64_t>(t)];
        const float norm = taxicab_ ? sum : std::sqrt(sum);
        const auto i = static_cast<size_t>(xIndex_[t]);
        scatter(&norm, outs_[i], args.outputs[i], 0, 1);
    }
    return ACL_SUCCESS;
}

}  // namespace aclcpu::ops
