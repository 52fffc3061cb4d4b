// acl-cpu: the LogitGrad kernel.
#include "logit_grad/logit_grad_kernel.hpp"

#include <limits>

namespace aclcpu::ops {

// run_executor guarantees a workspace of the tiling's 16 MiB, and phase 1
// checked that every block's staging fits in it.
aclError LogitGradKernel::launch(const LaunchArgs& args) const noexcept {
    const bool bounded = eps_ >= 0.0f;
    const float lo = bounded ? eps_ : 0.0f;
    const float hi = 1.0f - lo;
    const float invalid = bounded ? 0.0f : std::numeric_limits<float>::quiet_NaN();
    const auto chunk = [lo, hi, invalid](const std::array<const float*, 2>& in, float* out, int64_t n) {
        const float* x = in[0];
        const float* dy = in[1];
        for (int64_t i = 0; i < n; ++i) {
            const float grad = dy[i] / (x[i] * (-x[i] + 1.0f));
            out[i] = x[i] >= lo && x[i] <= hi ? grad : invalid;
        }
    };
    return run_elementwise(name(), tiling_.elementwise, operands_, args,
                           UbStaging::in_workspace(args.workspace, tiling_.stagingBytesPerBlock),
                           chunk);
}

}  // namespace aclcpu::ops
