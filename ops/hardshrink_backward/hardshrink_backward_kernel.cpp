// acl-cpu: the HardShrinkGrad kernel.
#include "hardshrink_backward/hardshrink_backward_kernel.hpp"

#include <cmath>

namespace aclcpu::ops {

aclError HardshrinkBackwardKernel::launch(const LaunchArgs& args) const noexcept {
    const float lambd = lambd_;
    const auto chunk = [lambd](const std::array<const float*, 2>& in, float* out, int64_t n) {
        const float* gradOutput = in[0];
        const float* self = in[1];
        for (int64_t i = 0; i < n; ++i) out[i] = std::fabs(self[i]) <= lambd ? 0.0f : gradOutput[i];
    };
    const ElementwiseTiling& plan = tiling_.elementwise;
    return run_elementwise(name(), plan, operands_, args,
                           UbStaging::per_worker(elementwise_staging_bytes(2, plan.chunkElements)), chunk);
}

}  // namespace aclcpu::ops
