// acl-cpu: BatchNorm's vector block, compiled for every SIMD target Highway
// dispatches to at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "batch_norm/batch_norm_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "batch_norm/batch_norm_kernel.hpp"
#include "common/elementwise-inl.h"
#include "common/hwy_target.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

/// x * scale + shift in fp32, a multiply then an add (the kernels' Mul and
/// Add; no fused rounding).
struct BatchNormAffineVector : VectorFunction<NoParams> {
    V operator()(D /*d*/, V x, V scale, V shift) const { return hn::Add(hn::Mul(x, scale), shift); }
};

}  // namespace

ACLCPU_BATCH_NORM_BLOCKS(ACLCPU_ELEMENTWISE_TARGET_BLOCK)

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
ACLCPU_BATCH_NORM_BLOCKS(ACLCPU_ELEMENTWISE_DISPATCH_BLOCK)
#endif
