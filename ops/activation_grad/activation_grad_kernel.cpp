// acl-cpu: the activation gradients' vector blocks, compiled for every SIMD
// target Highway dispatches to at run time.  Each functor is its CANN
// kernel's sequence of operations in fp32 (ops-nn activation/<op>/op_kernel);
// e^x (Highway's, with IEEE's values outside its range) and erf (ours) come
// from common/vector_math-inl.h.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "activation_grad/activation_grad_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "activation_grad/activation_grad_kernel.hpp"
#include "common/binary-inl.h"
#include "common/elementwise-inl.h"
#include "common/hwy_target.hpp"
#include "common/vector_math-inl.h"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

/// gelu_grad/op_kernel/arch35/gelu_grad_dag.h (GeluGradCustom, also
/// gelu_grad_v2_dag.h's GeluGradV2TanhCustom), operation by operation.
struct GeluTanhGradVector : VectorFunction<NoParams> {
    V operator()(D d, V dy, V x) const {
        const V square = hn::Mul(x, x);
        const V e = exp_ieee(d, hn::Mul(hn::Add(hn::Mul(square, hn::Set(d, -kGeluBetaCube)), hn::Set(d, -kGeluBeta)), x));
        const V slope = hn::Mul(hn::Add(hn::Mul(square, hn::Set(d, kGeluBetaCubeTimes3)), hn::Set(d, kGeluBeta)), x);
        const V s = hn::Div(hn::Set(d, 1.0f), hn::Add(e, hn::Set(d, 1.0f)));
        const V tail = hn::Mul(hn::Mul(hn::Mul(e, s), slope), s);
        const V finiteTail = hn::IfThenZeroElse(hn::IsNaN(tail), tail);
        return hn::Mul(dy, hn::Add(finiteTail, s));
    }
};

/// gelu_grad_v2_dag.h, GeluGradV2None32DAG: erf(x * 0.707106781) into
/// GeluGradV2ErfPost's (erf * 0.5 + 0.5 + e^(x^2 * -0.5) * 0.3989422804 * x) * dy.
struct GeluErfGradVector : VectorFunction<NoParams> {
    V operator()(D d, V dy, V x) const {
        const V erf = erf_of(d, hn::Mul(x, hn::Set(d, 0.707106781f)));
        const V cdf = hn::Add(hn::Mul(erf, hn::Set(d, 0.5f)), hn::Set(d, 0.5f));
        const V pdf = hn::Mul(exp_ieee(d, hn::Mul(hn::Mul(x, x), hn::Set(d, -0.5f))), hn::Set(d, 0.3989422804f));
        return hn::Mul(hn::Add(cdf, hn::Mul(pdf, x)), dy);
    }
};

/// silu_grad/op_kernel/arch35/silu_grad_f32_nddma_without_loops.h:
/// s = 1 / (e^(x * -1) + 1), then dy * (s * ((1 - s) * x + 1)).
struct SiluGradVector : VectorFunction<NoParams> {
    V operator()(D d, V dy, V x) const {
        const V one = hn::Set(d, 1.0f);
        const V s = hn::Div(one, hn::Add(exp_ieee(d, hn::Neg(x)), one));
        return hn::Mul(dy, hn::Mul(s, hn::Add(hn::Mul(hn::Sub(one, s), x), one)));
    }
};

/// sigmoid_grad/op_kernel/arch35/sigmoid_grad_f32.h: (dy * (1 - y)) * y.
struct SigmoidGradVector : VectorFunction<NoParams> {
    V operator()(D d, V dy, V y) const { return hn::Mul(hn::Mul(dy, hn::Sub(hn::Set(d, 1.0f), y)), y); }
};

/// threshold_grad_v2_d_dag.h: Select(x <= threshold, 0, dy).
struct ThresholdGradVector : VectorFunction<ThresholdGradParams> {
    V operator()(D d, V dy, V x) const { return hn::IfThenZeroElse(hn::Le(x, hn::Set(d, p.threshold)), dy); }
};

}  // namespace

ACLCPU_ACTIVATION_GRAD_BLOCKS(ACLCPU_BINARY_TARGET_BLOCKS)

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
ACLCPU_ACTIVATION_GRAD_BLOCKS(ACLCPU_BINARY_DISPATCH)
#endif
