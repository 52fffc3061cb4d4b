// acl-cpu: tiling of the arithmetic family.
#include "arithmetic/arithmetic_tiling.hpp"

namespace aclcpu::ops {

ElementwiseTiling tile_arithmetic(int64_t numel, aclDataType outDtype, int64_t laneBytes, const SocProfile& soc) {
    return tile_elementwise(numel, 3, outDtype, laneBytes, soc);
}

}  // namespace aclcpu::ops
