// acl-cpu: the pow family's kernels -- the vector blocks, compiled for every
// SIMD target Highway dispatches to at run time, and the typed lanes' helpers.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "pow/pow_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <cmath>
#include <cstdint>

#include "common/binary-inl.h"
#include "common/elementwise-inl.h"
#include "common/hwy_target.hpp"
#include "pow/pow_kernel.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

/// pows_base.h, ComputePowsBase, in fp32: -2 is 1 / (x * x), -1 is 1 / x,
/// 0.5 sqrt(x), -0.5 1 / sqrt(x), 2 x * x, 3 x * (x * x); 1 (the skipped
/// kernel) is x itself.
struct PowsVector : VectorFunction<PowsParams> {
    V operator()(D d, V x) const {
        const V one = hn::Set(d, 1.0f);
        const V square = hn::Mul(x, x);
        if (p.exponent == -2.0f) return hn::Div(one, square);
        if (p.exponent == -1.0f) return hn::Div(one, x);
        if (p.exponent == 0.5f) return hn::Sqrt(x);
        if (p.exponent == -0.5f) return hn::Div(one, hn::Sqrt(x));
        if (p.exponent == 2.0f) return square;
        if (p.exponent == 3.0f) return hn::Mul(x, square);
        return x;
    }
};

/// C's powf lane by lane: its special values (pow(x, 0) = 1 even for NaN,
/// pow(1, y) = 1, a negative base with a non-integer exponent NaN, the sign
/// of an odd integer power kept) are what CANN's and PyTorch's Pow give.
struct PowVector : VectorFunction<NoParams> {
    V operator()(D d, V base, V exponent) const {
        HWY_ALIGN float bases[kMaxFloatLanes];
        HWY_ALIGN float exponents[kMaxFloatLanes];
        hn::Store(base, d, bases);
        hn::Store(exponent, d, exponents);
        for (size_t i = 0; i < hn::Lanes(d); ++i) bases[i] = std::pow(bases[i], exponents[i]);
        return hn::Load(d, bases);
    }
};

}  // namespace

ACLCPU_ELEMENTWISE_TARGET_BLOCK(pows_block, 1, PowsParams, PowsVector)
ACLCPU_BINARY_TARGET_BLOCKS(pow_blocks, NoParams, PowVector)

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
ACLCPU_ELEMENTWISE_DISPATCH(pows_block, 1, PowsParams)
ACLCPU_BINARY_DISPATCH(pow_blocks, NoParams, PowVector)

namespace aclcpu::ops {

int64_t integer_pow(int64_t base, int64_t exponent) noexcept {
    if (exponent < 0) {
        if (base == 1) return 1;
        if (base == -1) return exponent % 2 == 0 ? 1 : -1;
        return 0;
    }
    // By squaring, in unsigned arithmetic: the product wraps as the device's.
    uint64_t result = 1;
    uint64_t factor = static_cast<uint64_t>(base);
    for (uint64_t e = static_cast<uint64_t>(exponent); e != 0; e >>= 1) {
        if (e & 1) result *= factor;
        factor *= factor;
    }
    return static_cast<int64_t>(result);
}

bool takes_pows(aclDataType computeDtype, float exponent) noexcept {
    const bool floatLanes = computeDtype == ACL_FLOAT || computeDtype == ACL_FLOAT16 || computeDtype == ACL_BF16;
    const bool powsExponent = exponent == 0.5f || exponent == 2.0f || exponent == 3.0f || exponent == -0.5f ||
                              exponent == -1.0f || exponent == -2.0f;
    return floatLanes && powsExponent;
}

float PowsOp::apply(float x, const Params& p) {
    const float square = x * x;
    if (p.exponent == -2.0f) return 1.0f / square;
    if (p.exponent == -1.0f) return 1.0f / x;
    if (p.exponent == 0.5f) return std::sqrt(x);
    if (p.exponent == -0.5f) return 1.0f / std::sqrt(x);
    if (p.exponent == 2.0f) return square;
    if (p.exponent == 3.0f) return x * square;
    return x;
}

}  // namespace aclcpu::ops
#endif  // HWY_ONCE
