// acl-cpu: the unary math family's vector blocks, compiled for every SIMD
// target Highway dispatches to at run time.  The transcendental functions
// are Highway's (hwy/contrib/math), whose valid input ranges are narrower
// than IEEE's: common/vector_math-inl.h gives the values outside them as the
// IEEE function does.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "unary_math/unary_math_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>

#include <cstdint>

#include "common/elementwise-inl.h"
#include "common/hwy_target.hpp"
#include "common/vector_math-inl.h"
#include "unary_math/unary_math_kernel.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

struct AbsVector : VectorFunction<NoParams> {
    V operator()(D /*d*/, V x) const {
        return hn::Abs(x);
    }
};

struct NegVector : VectorFunction<NoParams> {
    V operator()(D /*d*/, V x) const {
        return hn::Neg(x);
    }
};

struct SignVector : VectorFunction<NoParams> {
    V operator()(D d, V x) const {
        const V zero = hn::Zero(d);
        const V positive = hn::IfThenElseZero(hn::Gt(x, zero), hn::Set(d, 1.0f));
        return hn::Sub(positive, hn::IfThenElseZero(hn::Lt(x, zero), hn::Set(d, 1.0f)));
    }
};

/// The functions vector_math-inl.h gives with IEEE's values over all floats.
enum class Ieee : uint8_t { exp, log, sin, cos, tanh };

template <Ieee kFunction>
struct IeeeVector : VectorFunction<NoParams> {
    V operator()(D d, V x) const {
        if constexpr (kFunction == Ieee::exp) return exp_ieee(d, x);
        if constexpr (kFunction == Ieee::log) return log_ieee(d, x);
        if constexpr (kFunction == Ieee::sin) return sin_ieee(d, x);
        if constexpr (kFunction == Ieee::cos) return cos_ieee(d, x);
        if constexpr (kFunction == Ieee::tanh) return tanh_ieee(d, x);
    }
};
using ExpVector = IeeeVector<Ieee::exp>;
using LogVector = IeeeVector<Ieee::log>;
using SinVector = IeeeVector<Ieee::sin>;
using CosVector = IeeeVector<Ieee::cos>;
using TanhVector = IeeeVector<Ieee::tanh>;

struct SqrtVector : VectorFunction<NoParams> {
    V operator()(D /*d*/, V x) const {
        return hn::Sqrt(x);
    }
};

}  // namespace

ACLCPU_UNARY_MATH_BLOCKS(ACLCPU_ELEMENTWISE_TARGET_BLOCK)

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
ACLCPU_UNARY_MATH_BLOCKS(ACLCPU_ELEMENTWISE_DISPATCH_BLOCK)
#endif  // HWY_ONCE
