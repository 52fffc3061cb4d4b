// acl-cpu: the arithmetic family's kernels -- the vector blocks, compiled for
// every SIMD target Highway dispatches to at run time, and the typed lanes'
// integer division.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "arithmetic/arithmetic_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <limits>
#include <type_traits>
#include <utility>

#include "arithmetic/arithmetic_kernel.hpp"
#include "common/binary-inl.h"
#include "common/elementwise-inl.h"
#include "common/hwy_target.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

/// CANN's Axpy a + alpha*b, or Mul then Add when the product rounds first
/// (to the 16-bit compute dtype; FLOAT needs no rounding).
struct AxpyVector : VectorFunction<AxpyParams> {
    V operator()(D d, V a, V b) const {
        if (p.swapOperands) std::swap(a, b);
        V product = hn::Mul(hn::Set(d, p.signedAlpha), b);
        if (p.roundProduct) {
            if (p.computeDtype == ACL_FLOAT16) product = round_to<half_t>(d, product);
            if (p.computeDtype == ACL_BF16) product = round_to<bf16_t>(d, product);
        }
        return hn::Add(a, product);
    }
};

struct MulVector : VectorFunction<NoParams> {
    V operator()(D /* d */, V a, V b) const {
        return hn::Mul(a, b);
    }
};

struct DivVector : VectorFunction<DivParams> {
    V operator()(D /* d */, V a, V b) const {
        const V quotient = hn::Div(a, b);
        if (p.rounding == DivRounding::trunc) return hn::Trunc(quotient);
        if (p.rounding == DivRounding::floor) return hn::Floor(quotient);
        return quotient;
    }
};

}  // namespace

ACLCPU_ARITHMETIC_BLOCKS(ACLCPU_BINARY_TARGET_BLOCKS)

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
ACLCPU_ARITHMETIC_BLOCKS(ACLCPU_BINARY_DISPATCH)

namespace aclcpu::ops {

AxpyParams axpy_params(aclDataType computeDtype, const aclScalar* alpha, bool one, DtypeList axpyDtypes,
                       bool subtract, bool swapOperands) noexcept {
    AxpyParams params;
    params.computeDtype = computeDtype;
    params.subtract = subtract;
    params.swapOperands = swapOperands;
    if (one) {
        params.step = AlphaStep::none;
    } else if (contains(axpyDtypes, computeDtype)) {
        params.step = AlphaStep::fused;
        params.signedAlpha = to_float(alpha);
    } else {
        params.step = AlphaStep::separate;
        params.alpha = compute_value(alpha, computeDtype);
        params.signedAlpha = static_cast<float>(params.alpha.real);
        params.roundProduct = computeDtype != ACL_FLOAT;
    }
    // Axpy adds: a subtraction passes -alpha (and the vector blocks add the
    // negated product for every step).
    if (subtract) params.signedAlpha = -params.signedAlpha;
    return params;
}

int64_t DivOp::apply(int64_t a, int64_t b, const Params& p) noexcept {
    if (b == 0) {
        if (a == 0) return 0;
        return visit_element(p.computeDtype, [&](auto tag) -> int64_t {
            using T = decltype(tag);
            if constexpr (std::is_integral_v<T>) {
                // (T is a compute dtype: never an unsigned type wider than UINT8.)
                return a > 0 ? static_cast<int64_t>(std::numeric_limits<T>::max())
                             : static_cast<int64_t>(std::numeric_limits<T>::lowest());
            } else {
                return a > 0;
            }
        });
    }
    // -2^63 / -1 overflows: wrap as the narrower dtypes do.
    if (b == -1) return static_cast<int64_t>(0 - static_cast<uint64_t>(a));
    int64_t quotient = a / b;
    const bool inexact = a % b != 0;
    if (p.rounding == DivRounding::floor && inexact && ((a < 0) != (b < 0))) --quotient;
    return quotient;
}

}  // namespace aclcpu::ops
#endif  // HWY_ONCE
