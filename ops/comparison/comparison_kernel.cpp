// acl-cpu: the comparison family's vector blocks, compiled for every SIMD
// target Highway dispatches to at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "comparison/comparison_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "common/binary-inl.h"
#include "common/elementwise-inl.h"
#include "common/hwy_target.hpp"
#include "comparison/comparison_kernel.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

struct EqualVector {
    NoParams p;
    template <class D, class V>
    V operator()(D d, V a, V b) const {
        return hn::IfThenElseZero(hn::Eq(a, b), hn::Set(d, 1.0f));
    }
};

struct GreaterVector {
    NoParams p;
    template <class D, class V>
    V operator()(D d, V a, V b) const {
        return hn::IfThenElseZero(hn::Gt(a, b), hn::Set(d, 1.0f));
    }
};

}  // namespace

ACLCPU_BINARY_TARGET_BLOCKS(equal_blocks, NoParams, EqualVector)
ACLCPU_BINARY_TARGET_BLOCKS(greater_blocks, NoParams, GreaterVector)

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
ACLCPU_BINARY_DISPATCH(equal_blocks, NoParams)
ACLCPU_BINARY_DISPATCH(greater_blocks, NoParams)
#endif
