// acl-cpu: the SoftplusV2Grad kernel.
#include "softplus_backward/softplus_backward_kernel.hpp"

#include <cmath>

namespace aclcpu::ops {

aclError SoftplusBackwardKernel::launch(const LaunchArgs& args) const noexcept {
    const float beta = beta_;
    const float threshold = threshold_;
    const auto chunk = [beta, threshold](const std::array<const float*, 2>& in, float* out, int64_t n) {
        const float* gradOutput = in[0];
        const float* self = in[1];
        for (int64_t i = 0; i < n; ++i) {
            const float t = beta * self[i];
            out[i] = t > threshold ? gradOutput[i] : gradOutput[i] / (1.0f + std::exp(-t));
        }
    };
    const ElementwiseTiling& plan = tiling_.elementwise;
    return run_elementwise(name(), plan, operands_, args,
                           UbStaging::per_worker(elementwise_staging_bytes(2, plan.chunkElements)), chunk);
}

}  // namespace aclcpu::ops
