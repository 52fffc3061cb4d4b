// acl-cpu: ForeachNonFiniteCheckAndUnscale's kernel (non_finite_kernel.hpp).
#include "foreach/non_finite_kernel.hpp"

#include <atomic>
#include <cmath>
#include <utility>

namespace aclcpu::ops {
namespace {

/// Elements staged at once: the block's pieces are at most the tiling's UB
/// chunk, walked here in stack-sized parts.
constexpr int64_t kPart = 1024;

}  // namespace

NonFiniteCheckKernel::NonFiniteCheckKernel(const char* name, TensorListOperands operands, int64_t invScalePosition,
                                           int64_t foundInfPosition)
    : TiledKernel(name, tile_tensor_lists(operands, operands.layouts[0].dtype())), operands_(std::move(operands)),
      invScalePosition_(invScalePosition), foundInfPosition_(foundInfPosition) {}

bool NonFiniteCheckKernel::unscale_slice(const LaunchArgs& args, const BlockSlice& slice,
                                         float invScale) const noexcept {
    bool found = false;
    float values[kPart];
    for_each_tensor_piece(operands_, slice.units, kPart, [&](int64_t t, int64_t local, int64_t n) {
        gather(operands_.input(0, t), args.inputs[t], local, n, values);
        for (int64_t i = 0; i < n; ++i) {
            found = found || !std::isfinite(values[i]);
            values[i] *= invScale;
        }
        scatter(values, operands_.output(0, t), args.outputs[t], local, n);
    });
    return found;
}

aclError NonFiniteCheckKernel::launch(const LaunchArgs& args) const noexcept {
    const auto tensors = static_cast<size_t>(operands_.tensors);
    if (aclError status = check_tensor_addresses(name_, args, tensors + 1, tensors + 1); status != ACL_SUCCESS) {
        return status;
    }
    const float invScale = static_cast<const float*>(args.inputs[tensors])[invScalePosition_];
    // Blocks only ever raise the flag; the launch returns after all of them.
    std::atomic<bool> found{false};
    const TensorListJob job{tiling_, operands_, args, UbStaging::per_worker(0)};
    const aclError status = run_tensor_lists(name_, job, [&](const BlockSlice& slice) {
        if (unscale_slice(args, slice, invScale)) found.store(true, std::memory_order_relaxed);
    });
    if (status == ACL_SUCCESS && found.load(std::memory_order_relaxed)) {
        static_cast<float*>(args.outputs[tensors])[foundInfPosition_] = 1.0f;
    }
    return status;
}

}  // namespace aclcpu::ops
