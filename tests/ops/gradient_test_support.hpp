// What the gradient operators' tests share.
//
// Gradients checked against our own forward operators: central differences
// (f(x + h) - f(x - h)) / 2h in double of a unary aclnn forward's fp32
// results, on x = k / 256 over [-4, 4) and h = 1/64 (x +- h exact in fp32).
//
// The quotient's error is the truncation h^2 / 6 * max|f'''| (at most 0.8 for
// GELU's two forms, 0.31 for SiLU, 0.125 for Sigmoid, 2 for Tanh: 8.1e-5 at
// most) plus the forward's rounding: results up to 4 within about 2 fp32
// ulps (1e-6), their difference divided by 2h = 1/32: 6.1e-5 (erf's fit adds
// 1.9e-5).  kCentralDifferenceTolerance, absolute 2e-4, holds every sum with
// margin.
#pragma once

#include <vector>

#include "ops/op_test_support.hpp"

namespace optest {

inline constexpr Tolerance kCentralDifferenceTolerance{0, 2e-4};

/// The points the differences are taken at.
inline std::vector<double> central_difference_points() {
    std::vector<double> x;
    for (int k = -1024; k < 1024; k += 3) x.push_back(k / 256.0);
    return x;
}

/// forward(in, out) -- a unary aclnn operator's two phases on a FLOAT in and
/// out -- at x + shift.
template <class Forward>
std::vector<double> forward_at(const Forward& forward, const std::vector<double>& x, double shift) {
    std::vector<double> shifted = x;
    for (double& v : shifted) v += shift;
    const Shape shape = {static_cast<int64_t>(x.size())};
    const DeviceTensor in({shape, ACL_FLOAT}, shifted);
    auto out = DeviceTensor::output({shape, ACL_FLOAT});
    EXPECT_EQ(forward(in, *out), ACLNN_SUCCESS);
    return out->read();
}

/// The central differences of forward at x (see above).
template <class Forward>
std::vector<double> central_differences(const Forward& forward, const std::vector<double>& x) {
    const double h = 1.0 / 64;
    const std::vector<double> plus = forward_at(forward, x, h);
    const std::vector<double> minus = forward_at(forward, x, -h);
    std::vector<double> differences;
    for (size_t i = 0; i < x.size(); ++i) differences.push_back((plus[i] - minus[i]) / (2 * h));
    return differences;
}

/// The shape refusals of an operator on two broadcast inputs and an out of
/// their broadcast shape, ranks at most 8 (161002 each): inputs that do not
/// broadcast, an out of another shape, a rank-9 input.
inline std::vector<TripleCase> broadcast_refusals() {
    return {{"no broadcast", {{2, 3}, ACL_FLOAT}, {{3, 2}, ACL_FLOAT}, {{2, 3}, ACL_FLOAT}},
            {"out not the broadcast shape", {{2, 3}, ACL_FLOAT}, {{1, 3}, ACL_FLOAT}, {{3}, ACL_FLOAT}},
            {"rank 9", {{1, 1, 1, 1, 1, 1, 1, 1, 2}, ACL_FLOAT}, {{2}, ACL_FLOAT},
             {{1, 1, 1, 1, 1, 1, 1, 1, 2}, ACL_FLOAT}}};
}

}  // namespace optest
