// acl-cpu: the arithmetic of the activation gradients (GeluBackward,
// GeluBackwardV2, SiluBackward, SigmoidBackward, ThresholdBackward) on the
// binary engine (common/binary.hpp): out = Op(gradOutput, x), x being the
// forward input (Gelu, Silu, Threshold) or the forward output (Sigmoid).
// Each fp32 functor (activation_grad_kernel.cpp) is its CANN kernel's
// sequence of operations (the comment names the kernel), and apply() serves
// the dtypes the typed path computes: DOUBLE and the complex types
// (SigmoidGrad's AICPU kernel), the integers (ThresholdGradV2D, in fp32),
// and a non-float out of GeluBackward (its Cast after the kernel).
#pragma once

#include "common/internal.hpp"

#include <cmath>

#include "common/binary.hpp"
#include "common/unary.hpp"

namespace aclcpu::ops {

/// ThresholdGradV2D's float attribute (ReluGrad's is 0).
struct ThresholdGradParams {
    float threshold;
};

/// The family's blocks (see ACLCPU_DECLARE_BINARY_BLOCKS), each the fp32
/// functor of activation_grad_kernel.cpp.
#define ACLCPU_ACTIVATION_GRAD_BLOCKS(X)                                  \
    X(gelu_tanh_grad_blocks, NoParams, GeluTanhGradVector)                \
    X(gelu_erf_grad_blocks, NoParams, GeluErfGradVector)                  \
    X(silu_grad_blocks, NoParams, SiluGradVector)                         \
    X(sigmoid_grad_blocks, NoParams, SigmoidGradVector)                   \
    X(threshold_grad_blocks, ThresholdGradParams, ThresholdGradVector)
ACLCPU_ACTIVATION_GRAD_BLOCKS(ACLCPU_DECLARE_BINARY_BLOCKS)

/// The tanh form's constants (gelu_grad_dag.h): sqrt(8 / pi), 0.044715
/// sqrt(8 / pi) and three times that.
inline constexpr float kGeluBeta = 1.595769121605730711759f;
inline constexpr float kGeluBetaCube = 0.0713548162726002527220f;
inline constexpr float kGeluBetaCubeTimes3 = 0.2140644488178007f;

/// GeluGrad, and GeluGradV2 with approximate "tanh": dy * (s + e s^2 x (beta
/// + 3 a x^2)), s = 1 / (1 + e), e = e^(-x (beta + a x^2)) -- the derivative
/// of x / (1 + e); a NaN second term (e = inf where s = 0, or x = inf where
/// e = 0) counts 0.  apply serves an out no vector block stores (an integer
/// or complex gradInput, which GeluBackward's Cast admits).
struct GeluTanhGradOp : VectorOp<gelu_tanh_grad_blocks> {
    static float apply(float dy, float x, const Params&) {
        const float square = x * x;
        const float e = std::exp((square * -kGeluBetaCube + -kGeluBeta) * x);
        const float s = 1.0f / (e + 1.0f);
        const float slope = (square * kGeluBetaCubeTimes3 + kGeluBeta) * x;
        const float tail = e * s * slope * s;
        return dy * ((std::isnan(tail) ? 0.0f : tail) + s);
    }
};

/// GeluGradV2 with approximate "none": dy * (0.5 + 0.5 erf(x / sqrt 2) + x
/// e^(-x^2 / 2) / sqrt(2 pi)), in the vector block's order.  apply serves
/// operands the vector blocks do not read as Cast does (an INT32 operand
/// promoted with a FLOAT16 one: V2 checks only the promoted dtype).
struct GeluErfGradOp : VectorOp<gelu_erf_grad_blocks> {
    static float apply(float dy, float x, const Params&) {
        const float cdf = std::erf(x * 0.707106781f) * 0.5f + 0.5f;
        const float pdf = std::exp(x * x * -0.5f) * 0.3989422804f;
        return (cdf + pdf * x) * dy;
    }
};

/// SiluGrad: dy * s * (1 + x (1 - s)), s = 1 / (1 + e^-x); FLOAT, FLOAT16,
/// BF16 with one dtype throughout (A2's checks).
using SiluGradOp = VectorOp<silu_grad_blocks>;

/// SigmoidGrad(y, dy): dy * (1 - y) * y; DOUBLE and the complex types on
/// AICPU (sigmoid_grad_aicpu.cpp, without its complex_conj attribute, which
/// l0op::SigmoidGrad does not set), in their precision.
struct SigmoidGradOp : VectorOp<sigmoid_grad_blocks> {
    template <class V>
    static std::enable_if_t<std::is_floating_point_v<V> || is_complex_v<V>, V> apply(V dy, V y, const Params&) {
        return dy * (V(1) - y) * y;
    }
};

/// ThresholdGradV2D (and ReluGrad): x <= threshold ? 0 : dy, compared in
/// fp32 (a NaN x is not <=: dy).  Integer dtypes go through fp32 as the
/// kernel's casts do (threshold_grad_v2_d_dag.h), so their lanes are float.
struct ThresholdGradOp : VectorOp<threshold_grad_blocks> {
    static float apply(float dy, float x, const Params& p) { return x <= p.threshold ? 0.0f : dy; }
};

}  // namespace aclcpu::ops
