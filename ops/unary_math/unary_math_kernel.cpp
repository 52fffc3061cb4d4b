// acl-cpu: the unary math family's vector blocks, compiled for every SIMD
// target Highway dispatches to at run time.  The transcendental functions
// are Highway's (hwy/contrib/math), whose valid input ranges are narrower
// than IEEE's: each functor gives the values outside them as the IEEE
// function does.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "unary_math/unary_math_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>

#include <cmath>
#include <cstdint>

#include "common/elementwise-inl.h"
#include "common/hwy_target.hpp"
#include "common/vector_math-inl.h"
#include "unary_math/unary_math_kernel.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

/// result, with the lanes where outside is true computed one by one by
/// scalar (the IEEE function): for the rare inputs beyond a Highway
/// function's valid range, so that the common case stays one vector pass.
template <class D, class Scalar>
hn::Vec<D> with_scalar_outside(D d, hn::Vec<D> x, hn::Vec<D> result, hn::Mask<D> outside, Scalar scalar) {
    if (hn::AllFalse(d, outside)) return result;
    constexpr size_t kMaxLanes = hn::MaxLanes(D());
    HWY_ALIGN float in[kMaxLanes];
    HWY_ALIGN float out[kMaxLanes];
    uint8_t bits[(kMaxLanes + 7) / 8] = {};
    hn::Store(x, d, in);
    hn::Store(result, d, out);
    hn::StoreMaskBits(d, outside, bits);
    for (size_t i = 0; i < hn::Lanes(d); ++i) {
        if ((bits[i / 8] >> (i % 8)) & 1) out[i] = scalar(in[i]);
    }
    return hn::Load(d, out);
}

struct AbsVector : VectorFunction<NoParams> {
    template <class D, class V>
    V operator()(D /*d*/, V x) const {
        return hn::Abs(x);
    }
};

struct NegVector : VectorFunction<NoParams> {
    template <class D, class V>
    V operator()(D /*d*/, V x) const {
        return hn::Neg(x);
    }
};

struct SignVector : VectorFunction<NoParams> {
    template <class D, class V>
    V operator()(D d, V x) const {
        const V zero = hn::Zero(d);
        const V positive = hn::IfThenElseZero(hn::Gt(x, zero), hn::Set(d, 1.0f));
        return hn::Sub(positive, hn::IfThenElseZero(hn::Lt(x, zero), hn::Set(d, 1.0f)));
    }
};

struct ExpVector : VectorFunction<NoParams> {
    template <class D, class V>
    V operator()(D d, V x) const {
        return exp_ieee(d, x);
    }
};

struct LogVector : VectorFunction<NoParams> {
    template <class D, class V>
    V operator()(D d, V x) const {
        return log_ieee(d, x);
    }
};

struct SqrtVector : VectorFunction<NoParams> {
    template <class D, class V>
    V operator()(D /*d*/, V x) const {
        return hn::Sqrt(x);
    }
};

/// Highway's Sin and Cos hold on [-39000, 39000]; beyond it (and for the
/// non-finite inputs) the lanes are the standard library's.
constexpr float kTrigRange = 39000.0f;

enum class Trig : uint8_t { sin, cos };

template <Trig kFunction>
struct TrigVector : VectorFunction<NoParams> {
    template <class D, class V>
    V operator()(D d, V x) const {
        const auto inside = hn::Le(hn::Abs(x), hn::Set(d, kTrigRange));
        if (HWY_LIKELY(hn::AllTrue(d, inside))) return kFunction == Trig::sin ? hn::Sin(d, x) : hn::Cos(d, x);
        const auto outside = hn::Not(inside);
        const V inRange = hn::IfThenZeroElse(outside, x);
        if constexpr (kFunction == Trig::sin) {
            return with_scalar_outside(d, x, hn::Sin(d, inRange), outside, [](float v) { return std::sin(v); });
        } else {
            return with_scalar_outside(d, x, hn::Cos(d, inRange), outside, [](float v) { return std::cos(v); });
        }
    }
};
using SinVector = TrigVector<Trig::sin>;
using CosVector = TrigVector<Trig::cos>;

struct TanhVector : VectorFunction<NoParams> {
    template <class D, class V>
    V operator()(D d, V x) const {
        return tanh_ieee(d, x);
    }
};

}  // namespace

ACLCPU_UNARY_MATH_BLOCKS(ACLCPU_ELEMENTWISE_TARGET_BLOCK)

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
ACLCPU_UNARY_MATH_BLOCKS(ACLCPU_ELEMENTWISE_DISPATCH_BLOCK)
#endif  // HWY_ONCE
