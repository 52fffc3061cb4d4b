// acl-cpu: the activation family's vector blocks, compiled for every SIMD
// target Highway dispatches to at run time.  Each functor is its CANN
// kernel's sequence of operations in fp32 (the comment names the kernel);
// the transcendental functions are Highway's through common/vector_math-inl.h,
// which gives IEEE's results outside their valid ranges (exp(x > 88.7) = inf,
// log1p(inf) = inf, NaN stays NaN), and erf_of, ours (Highway has no erf).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "activation/activation_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>

#include <cstdint>

#include "activation/activation_kernel.hpp"
#include "activation/gated_kernel.hpp"
#include "common/elementwise-inl.h"
#include "common/hwy_target.hpp"
#include "common/vector_math-inl.h"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

/// ops-nn has no A2 Relu kernel source; Relu is max(x, 0) with NaN kept.
struct ReluVector : VectorFunction<NoParams> {
    V operator()(D d, V x) const {
        return hn::IfThenZeroElse(hn::Lt(x, hn::Zero(d)), x);
    }
};

/// op_kernel/arch35/sigmoid_f32.h: 1 / (1 + e^-x).
struct SigmoidVector : VectorFunction<NoParams> {
    V operator()(D d, V x) const {
        const V one = hn::Set(d, 1.0f);
        return hn::Div(one, hn::Add(one, exp_ieee(d, hn::Neg(x))));
    }
};

/// op_kernel/arch35/hard_sigmoid.cpp: Muls alpha, Adds beta, Mins 1, Maxs 0.
struct HardsigmoidVector : VectorFunction<NoParams> {
    V operator()(D d, V x) const {
        const V affine = hn::Add(hn::Mul(x, hn::Set(d, kHardsigmoidAlpha)), hn::Set(d, kHardsigmoidBeta));
        return nan_through(d, x, hn::Max(hn::Min(affine, hn::Set(d, 1.0f)), hn::Zero(d)));
    }
};

/// op_kernel/arch35/hard_swish.h: max(x, -3) * clamp(x + 3, 0, 6) * (1/6);
/// the max(x, -3) makes Hardswish(-inf) 0, not NaN.
struct HardswishVector : VectorFunction<NoParams> {
    V operator()(D d, V x) const {
        const V gate = hn::Max(hn::Min(hn::Add(x, hn::Set(d, 3.0f)), hn::Set(d, 6.0f)), hn::Zero(d));
        const V product = hn::Mul(hn::Max(x, hn::Set(d, -3.0f)), gate);
        return nan_through(d, x, hn::Mul(product, hn::Set(d, 1.0f / 6.0f)));
    }
};

/// op_kernel/arch35/swish_dag.h with scale 1: x / (1 + e^-x) (NaN at -inf).
struct SiluVector : VectorFunction<NoParams> {
    V operator()(D d, V x) const {
        return hn::Div(x, hn::Add(hn::Set(d, 1.0f), exp_ieee(d, hn::Neg(x))));
    }
};

/// Gelu's A2 (TBE) form, op_kernel/arch35/gelu_dag.h's comment (also GeGlu's
/// ComputeGeluBase in ge_glu_v2_base.h, operation by operation):
/// x / (1 + e^(-1.5957691 (x + 0.044715 x^3))), tanh's approximation
/// rewritten; NaN at -inf (-inf / inf).
struct GeluTanhVector : VectorFunction<NoParams> {
    V operator()(D d, V x) const {
        const V cube = hn::Mul(hn::Mul(x, x), x);
        const V inner = hn::Add(x, hn::Mul(cube, hn::Set(d, 0.044715f)));
        const V e = exp_ieee(d, hn::Mul(inner, hn::Set(d, -1.5957691f)));
        return hn::Div(x, hn::Add(hn::Set(d, 1.0f), e));
    }
};

/// op_kernel/arch35/gelu_v2_dag.h, GeluV2Erf32BDag: (erf(x * 0.707106781) + 1) * (x * 0.5).
struct GeluErfVector : VectorFunction<NoParams> {
    V operator()(D d, V x) const {
        const V erf = erf_of(d, hn::Mul(x, hn::Set(d, 0.707106781f)));
        return hn::Mul(hn::Add(erf, hn::Set(d, 1.0f)), hn::Mul(x, hn::Set(d, 0.5f)));
    }
};

/// op_kernel/arch35/elu_dag.h: z = x * inputScale, alpha * expm1(z) where
/// x <= 0 (or NaN), x where x > 0, times scale.
struct EluVector : VectorFunction<EluParams> {
    V operator()(D d, V x) const {
        const V negative = hn::Mul(expm1_ieee(d, hn::Mul(x, hn::Set(d, p.inputScale))), hn::Set(d, p.alpha));
        return hn::Mul(hn::IfThenElse(hn::Gt(x, hn::Zero(d)), x, negative), hn::Set(d, p.scale));
    }
};

/// aclnn_elu.cpp, ComputeEluWithInfNan: Threshold(x, 0, -alpha) then Muls scale.
struct EluLimitVector : VectorFunction<EluLimitParams> {
    V operator()(D d, V x) const {
        const V threshold = hn::IfThenElse(hn::Gt(x, hn::Zero(d)), x, hn::Set(d, p.negAlpha));
        return hn::Mul(threshold, hn::Set(d, p.scale));
    }
};

/// op_kernel/arch35/leaky_relu_dag.h: x > 0 ? x : x * negativeSlope.
struct LeakyReluVector : VectorFunction<LeakyReluParams> {
    V operator()(D d, V x) const {
        return hn::IfThenElse(hn::Gt(x, hn::Zero(d)), x, hn::Mul(x, hn::Set(d, p.negativeSlope)));
    }
};

/// softplus_v2/op_kernel/arch35/softplus_v2.h: t = beta x; where t > threshold
/// x itself, elsewhere log1p(e^t) * inverseBeta (e^t of 0 on the selected
/// lanes, so nothing overflows there).
struct SoftplusVector : VectorFunction<SoftplusParams> {
    V operator()(D d, V x) const {
        const V t = hn::Mul(x, hn::Set(d, p.beta));
        const auto above = hn::Gt(t, hn::Set(d, p.threshold));
        const V soft = log1p_nonnegative(d, exp_ieee(d, hn::IfThenZeroElse(above, t)));
        return hn::IfThenElse(above, x, hn::Mul(soft, hn::Set(d, p.inverseBeta)));
    }
};

/// aclnnThreshold.md's formula, x > threshold ? x : value: the compare is
/// false for a NaN x, which gives value.
struct ThresholdVector : VectorFunction<ThresholdParams> {
    V operator()(D d, V x) const {
        const V threshold = hn::Set(d, static_cast<float>(p.threshold.real));
        return hn::IfThenElse(hn::Gt(x, threshold), x, hn::Set(d, static_cast<float>(p.value.real)));
    }
};

// ---- The gated activations (gated_kernel.hpp) --------------------------------

/// ComputeGeluErf: with m = min(x, 5.75), x / (1 + e^(P(m^2) m)), P of
/// degree 6 with the kernel's coefficients, evaluated as it does.
template <class D, class V>
V gelu_erf_form(D d, V x) {
    const V m = hn::Min(x, hn::Set(d, 5.75f));
    const V square = hn::Mul(m, m);
    V p = hn::Mul(square, hn::Set(d, -0.3512339572e-8f));
    for (float c : {0.2645266170e-6f, -0.7929488134e-5f, 0.1106123840e-3f, 0.6518995814e-4f, -0.7266616915e-1f}) {
        p = hn::Mul(hn::Add(p, hn::Set(d, c)), square);
    }
    p = hn::Mul(hn::Add(p, hn::Set(d, -0.1595769883e1f)), m);
    return hn::Div(x, hn::Add(exp_ieee(d, p), hn::Set(d, 1.0f)));
}

struct SwiGluVector : VectorFunction<GateParams> {
    V operator()(D d, V a, V b) const {
        const V denominator = hn::Add(exp_ieee(d, hn::Neg(a)), hn::Set(d, 1.0f));
        const V silu = p.sigmoidThenMultiply ? hn::Mul(hn::Div(hn::Set(d, 1.0f), denominator), a)
                                             : hn::Div(a, denominator);
        return hn::Mul(silu, b);
    }
};

/// swi_glu_grad_float.hpp: sig = 1 / (1 + e^-a); the gradient of A is
/// (sig * (1 - sig) * a + sig) * b * yGrad, of B sig * a * yGrad.
template <class D>
hn::Vec<D> swiglu_sigmoid(D d, hn::Vec<D> a) {
    const hn::Vec<D> one = hn::Set(d, 1.0f);
    return hn::Div(one, hn::Add(exp_ieee(d, hn::Neg(a)), one));
}

struct SwiGluGradAVector : VectorFunction<NoParams> {
    V operator()(D d, V a, V b, V yGrad) const {
        const V sig = swiglu_sigmoid(d, a);
        const V slope = hn::Mul(hn::Mul(sig, hn::Sub(hn::Set(d, 1.0f), sig)), a);
        return hn::Mul(hn::Mul(hn::Add(slope, sig), b), yGrad);
    }
};

struct SwiGluGradBVector : VectorFunction<NoParams> {
    V operator()(D d, V a, V /*b*/, V yGrad) const {
        return hn::Mul(hn::Mul(swiglu_sigmoid(d, a), a), yGrad);
    }
};

struct GeGluVector : VectorFunction<GateParams> {
    V operator()(D d, V activated, V other) const {
        const V gelu = p.erf ? gelu_erf_form(d, activated) : GeluTanhVector{}(d, activated);
        return hn::Mul(p.roundGeluToHalf ? round_to<half_t>(d, gelu) : gelu, other);
    }
};

struct GeGluErfVector : VectorFunction<NoParams> {
    V operator()(D d, V x) const {
        return gelu_erf_form(d, x);
    }
};

}  // namespace

ACLCPU_ACTIVATION_BLOCKS(ACLCPU_ELEMENTWISE_TARGET_BLOCK)
ACLCPU_GATED_BLOCKS(ACLCPU_ELEMENTWISE_TARGET_BLOCK)

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
ACLCPU_ACTIVATION_BLOCKS(ACLCPU_ELEMENTWISE_DISPATCH_BLOCK)
ACLCPU_GATED_BLOCKS(ACLCPU_ELEMENTWISE_DISPATCH_BLOCK)
#endif  // HWY_ONCE
