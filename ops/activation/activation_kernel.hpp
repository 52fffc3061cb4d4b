// acl-cpu: the arithmetic of the activation family (Relu, Sigmoid,
// Hardsigmoid, Hardswish, Silu, Gelu, GeluV2, Elu, LeakyRelu, Softplus) as the
// unary engine (common/unary.hpp) runs it: an fp32 vector block per operator
// (activation_kernel.cpp, one version per SIMD target) and its apply() per
// lane type of the typed path, for the dtypes CANN computes outside its fp32
// AI Core kernels: integers (Relu, Hardsigmoid's INT32), DOUBLE (Sigmoid, Elu,
// LeakyRelu on AICPU) and the complex types (Sigmoid).
//
// Each formula is the one of CANN's kernel, operation by operation (ops-nn
// activation/<op>/op_kernel), not the textbook one: where they differ at
// special values (Silu and Gelu of -inf are NaN, Hardswish of -inf is 0) the
// kernel's order of operations decides.
#pragma once

#include "common/internal.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <type_traits>

#include "common/elementwise.hpp"
#include "common/scalar_value.hpp"
#include "common/unary.hpp"

namespace aclcpu::ops {

/// Elu's attributes as l0op::Elu takes them (floats).
struct EluParams {
    float alpha;
    float scale;
    float inputScale;
};

/// Elu when alpha or inputScale is infinite or NaN: CANN's op_api replaces
/// the kernel by Threshold(self, 0, -alpha) and Muls(scale).
struct EluLimitParams {
    float negAlpha;
    float scale;
};

struct LeakyReluParams {
    float negativeSlope;
};

/// Threshold's scalars converted into its compute dtype (l0op::Threshold's ConvertToTensor).
struct ThresholdParams {
    ComputeValue threshold;
    ComputeValue value;
};

struct SoftplusParams {
    float beta;
    float threshold;
    /// 1 / beta, +inf for |beta| <= FLT_EPSILON (softplus_v2_tiling.cpp, SafeInvBeta).
    float inverseBeta;
};

/// The family's blocks (see ACLCPU_DECLARE_ELEMENTWISE_BLOCK), each the fp32
/// functor of activation_kernel.cpp.
#define ACLCPU_ACTIVATION_BLOCKS(X)                             \
    X(relu_block, 1, NoParams, ReluVector)                      \
    X(sigmoid_block, 1, NoParams, SigmoidVector)                \
    X(hardsigmoid_block, 1, NoParams, HardsigmoidVector)        \
    X(hardswish_block, 1, NoParams, HardswishVector)            \
    X(silu_block, 1, NoParams, SiluVector)                      \
    X(gelu_tanh_block, 1, NoParams, GeluTanhVector)             \
    X(gelu_erf_block, 1, NoParams, GeluErfVector)               \
    X(elu_block, 1, EluParams, EluVector)                       \
    X(elu_limit_block, 1, EluLimitParams, EluLimitVector)       \
    X(leaky_relu_block, 1, LeakyReluParams, LeakyReluVector)    \
    X(softplus_block, 1, SoftplusParams, SoftplusVector)        \
    X(threshold_block, 1, ThresholdParams, ThresholdVector)
ACLCPU_ACTIVATION_BLOCKS(ACLCPU_DECLARE_ELEMENTWISE_BLOCK)

/// x < 0 ? 0 : x -- NaN and -0 pass through.  Integers (INT8/32/64; UINT8
/// never reaches a kernel) the same.
struct ReluOp : VectorOp<relu_block> {
    static int64_t apply(int64_t x, const Params&) { return std::max<int64_t>(x, 0); }
};

/// 1 / (1 + e^-x); DOUBLE and the complex types on AICPU, in their precision.
struct SigmoidOp : VectorOp<sigmoid_block> {
    template <class T>
    static if_real<T> apply(T x, const Params&) { return T(1) / (T(1) + std::exp(-x)); }
    template <class T>
    static if_complex<T> apply(T z, const Params&) { return T(1) / (T(1) + std::exp(-z)); }
};

/// The attributes l0op::HardSigmoid passes (op_api/hardsigmoid.cpp).
inline constexpr float kHardsigmoidAlpha = 1.0f / 6.0f;
inline constexpr float kHardsigmoidBeta = 0.5f;

/// min(max(x * alpha + beta, 0), 1) in fp32.  INT32 (op_kernel/arch35/
/// hard_sigmoid.cpp): the integer rounded to fp32, the same, truncated back --
/// 1 from x = 3 up, 0 below.
struct HardsigmoidOp : VectorOp<hardsigmoid_block> {
    static int64_t apply(int64_t x, const Params&) {
        const float y = static_cast<float>(x) * kHardsigmoidAlpha + kHardsigmoidBeta;
        return static_cast<int64_t>(std::min(std::max(y, 0.0f), 1.0f));
    }
};

/// Operators computed by the fp32 kernels only: their dtypes are FLOAT,
/// FLOAT16 and BF16 and their out is one of them, which the vector kernel
/// stores.
using HardswishOp = VectorOp<hardswish_block>;
using SiluOp = VectorOp<silu_block>;
/// Gelu, and GeluV2 with approximate 1: the tanh approximation.
using GeluTanhOp = VectorOp<gelu_tanh_block>;
/// GeluV2 with any approximate other than 1: 0.5 x (1 + erf(x / sqrt 2)).
using GeluErfOp = VectorOp<gelu_erf_block>;

/// DOUBLE's AICPU kernel (op_kernel_aicpu/elu_aicpu.cpp): x * scale above 0,
/// alpha * scale * (e^(x * inputScale) - 1) otherwise, in double.
struct EluOp : VectorOp<elu_block> {
    template <class T>
    static if_real<T> apply(T x, const Params& p) {
        if (x > 0) return x * T(p.scale);
        return T(p.alpha) * T(p.scale) * (std::exp(x * T(p.inputScale)) - T(1));
    }
};

/// Elu with an infinite or NaN alpha or inputScale: (x > 0 ? x : -alpha) *
/// scale, at FLOAT for every self dtype (the op_api casts to FLOAT first).
/// apply serves a complex out, which CanCast admits and the typed path stores.
struct EluLimitOp : VectorOp<elu_limit_block> {
    static float apply(float x, const Params& p) { return (x > 0 ? x : p.negAlpha) * p.scale; }
};

/// softplus_v2.h's select of x and log1p(e^(beta x)) * inverseBeta; apply
/// serves a complex out as EluLimitOp's does.
struct SoftplusOp : VectorOp<softplus_block> {
    static float apply(float x, const Params& p) {
        const float t = x * p.beta;
        return t > p.threshold ? x : std::log1p(std::exp(t)) * p.inverseBeta;
    }
};

/// x > 0 ? x : x * negativeSlope; DOUBLE on AICPU with the float slope.
struct LeakyReluOp : VectorOp<leaky_relu_block> {
    template <class T>
    static if_real<T> apply(T x, const Params& p) { return x > 0 ? x : x * T(p.negativeSlope); }
};

/// aclnnThreshold.md: x > threshold ? x : value (a NaN x is not greater: value).
struct ThresholdOp : VectorOp<threshold_block> {
    template <class V>
    static std::enable_if_t<std::is_floating_point_v<V> || std::is_same_v<V, int64_t>, V> apply(V x, const Params& p) {
        return x > lane_value<V>(p.threshold) ? x : lane_value<V>(p.value);
    }
};

}  // namespace aclcpu::ops
