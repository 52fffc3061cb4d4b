// acl-cpu: the clamp family's vector blocks, compiled for every SIMD target
// Highway dispatches to at run time (clamp_kernel.hpp has the rules).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "clamp/clamp_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <limits>

#include "clamp/clamp_kernel.hpp"
#include "common/elementwise-inl.h"
#include "common/hwy_target.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

/// min(max(x, lo), hi), NaN where any of the three is NaN (x86's min and max
/// would return an operand instead).
template <class D, class V>
V clamp_vector(D d, V x, V lo, V hi) {
    const auto anyNaN = hn::Or(hn::Or(hn::IsNaN(x), hn::IsNaN(lo)), hn::IsNaN(hi));
    return hn::IfThenElse(anyNaN, hn::Set(d, std::numeric_limits<float>::quiet_NaN()),
                          hn::Min(hn::Max(x, lo), hi));
}

template <class D>
auto bound(D d, const ComputeValue& value) {
    return hn::Set(d, static_cast<float>(value.real));
}

struct ClampVector : VectorFunction<ClampBounds> {
    V operator()(D d, V x) const {
        return clamp_vector(d, x, bound(d, p.lo), bound(d, p.hi));
    }
};

struct ClampMinTensorVector : VectorFunction<ClampBounds> {
    V operator()(D d, V x, V lo) const {
        return clamp_vector(d, x, lo, bound(d, p.hi));
    }
};

struct ClampMaxTensorVector : VectorFunction<ClampBounds> {
    V operator()(D d, V x, V hi) const {
        return clamp_vector(d, x, bound(d, p.lo), hi);
    }
};

struct ClampTensorsVector : VectorFunction<ClampBounds> {
    V operator()(D d, V x, V lo, V hi) const {
        return clamp_vector(d, x, lo, hi);
    }
};

}  // namespace

ACLCPU_CLAMP_BLOCKS(ACLCPU_ELEMENTWISE_TARGET_BLOCK)

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
ACLCPU_CLAMP_BLOCKS(ACLCPU_ELEMENTWISE_DISPATCH_BLOCK)
#endif  // HWY_ONCE
