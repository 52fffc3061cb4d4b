// What the tests of ops/matmul share: the Cube's rounding of a case (its
// inputs, its output dtype) and an operand as stored.
#pragma once

#include <cmath>
#include <functional>
#include <vector>

#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"

namespace optest {

/// v with an 11-bit mantissa (HF32), to nearest even.
inline double to_hf32(double v) {
    if (v == 0 || !std::isfinite(v)) return v;
    int exponent = 0;
    const double mantissa = std::frexp(v, &exponent);  // [0.5, 1)
    return std::ldexp(std::nearbyint(std::ldexp(mantissa, 12)), exponent - 12);
}

inline double relative_ulp(aclDataType dtype) {
    return dtype == ACL_FLOAT16 ? std::ldexp(1, -11) : dtype == ACL_BF16 ? std::ldexp(1, -8) : std::ldexp(1, -24);
}

/// The Cube's model of one case: inputs rounded by `round`, the sum rounded
/// to `result` then to out's dtype.
struct Emulation {
    std::function<double(double)> round = [](double v) { return v; };
    aclDataType result = ACL_FLOAT;
};

inline Emulation fp16_inputs(aclDataType result) {
    return {[](double v) { return optest::in_dtype(v, ACL_FLOAT16); }, result};
}
inline Emulation hf32_inputs() { return {to_hf32, ACL_FLOAT}; }

/// An operand as stored: shape, dtype and an optional view (strides,
/// offset, storage).
struct MatrixOperand {
    Shape shape;
    aclDataType dtype = ACL_FLOAT;
    Shape strides = {};
    int64_t offset = 0;
    Shape storage = {};
};

/// Element (i, j) of product bt of a ([batch..., m, k], values xs) and b
/// ([batch..., k, n], values ys), their batch dims broadcast over batch,
/// with the operands rounded as emulation says; and the sum of its terms'
/// magnitudes, for the accumulation's error bound.
struct Dot {
    double sum = 0;
    double magnitude = 0;
};
inline Dot emulated_dot(const Emulation& emulation, const std::vector<double>& xs, const Shape& am,
                        const std::vector<double>& ys, const Shape& bm, const Shape& batch, int64_t bt, int64_t i,
                        int64_t j) {
    Dot dot;
    for (int64_t p = 0; p < am.back(); ++p) {
        const double term = emulation.round(xs[matrix_at(am, batch, bt, i, p)]) *
                            emulation.round(ys[matrix_at(bm, batch, bt, p, j)]);
        dot.sum += term;
        dot.magnitude += std::fabs(term);
    }
    return dot;
}

}  // namespace optest
