// acl-cpu: tiling of SoftplusV2Grad.
#include "softplus_backward/softplus_backward_tiling.hpp"

namespace aclcpu::ops {

ElementwiseTiling tile_softplus_backward(int64_t numel, aclDataType computeDtype, const SocProfile& soc) {
    return tile_elementwise(numel, 3, computeDtype, sizeof(float), soc);
}

}  // namespace aclcpu::ops
