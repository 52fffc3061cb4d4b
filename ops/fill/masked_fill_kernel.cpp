// acl-cpu: MaskedFill's vector blocks (masked_fill_kernel.hpp), compiled for
// every SIMD target Highway dispatches to at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fill/masked_fill_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "common/binary-inl.h"
#include "common/elementwise-inl.h"
#include "common/hwy_target.hpp"
#include "fill/masked_fill_kernel.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

/// The value where mask is nonzero, self elsewhere (a select: self's NaNs
/// and signed zeros pass through untouched).
struct MaskedFillVector : VectorFunction<MaskedFillParams> {
    V operator()(D d, V self, V mask) const {
        return hn::IfThenElse(hn::Ne(mask, hn::Zero(d)), hn::Set(d, p.vector), self);
    }
};

}  // namespace

ACLCPU_BINARY_TARGET_BLOCKS(masked_fill_blocks, MaskedFillParams, MaskedFillVector)

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
ACLCPU_BINARY_DISPATCH(masked_fill_blocks, MaskedFillParams, MaskedFillVector)
#endif  // HWY_ONCE
