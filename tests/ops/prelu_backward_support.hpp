// PreluBackward's double-precision reference, shared by its own tests
// (ops/prelu_backward/tests) and those running it through repeatable
// executors (tests/ops/test_executor_lifetime.cpp):
//   gradInput = self > 0 ? gradOutput : w[c] * gradOutput
//   gradWeight[c] = sum over all dims but 1 of (self > 0 ? 0 : self * gradOutput).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "ops/op_test_support.hpp"

namespace optest {

/// The reference: self as [outer, channels, inner] (weight numel 1: one channel).
struct PreluReference {
    std::vector<double> gradInput;
    std::vector<double> gradWeight;
    std::vector<double> magnitude;  ///< per channel, sum of |update| terms
};

inline PreluReference prelu_reference(const std::vector<double>& dy, const std::vector<double>& x,
                                      const std::vector<double>& w, int64_t inner) {
    const auto channels = static_cast<int64_t>(w.size());
    PreluReference ref{std::vector<double>(x.size()), std::vector<double>(w.size(), 0.0),
                       std::vector<double>(w.size(), 0.0)};
    for (size_t i = 0; i < x.size(); ++i) {
        const auto c = static_cast<size_t>(static_cast<int64_t>(i) / inner % channels);
        const bool positive = x[i] > 0;
        ref.gradInput[i] = positive ? dy[i] : w[c] * dy[i];
        const double update = positive ? 0.0 : x[i] * dy[i];
        ref.gradWeight[c] += update;
        ref.magnitude[c] += std::fabs(update);
    }
    return ref;
}

/// gradWeight's sums: the device rounds each update term to dtype, adds in
/// fp32 and rounds the sum, so each is within rtol * (sum of |terms| + |sum|)
/// (rtol: dtype's tolerance_for) of the reference; a NaN sum matches NaN.
inline void expect_sums_close(const std::vector<double>& got, const PreluReference& ref, aclDataType dtype) {
    ASSERT_EQ(got.size(), ref.gradWeight.size());
    const double rtol = tolerance_for(dtype).rtol;
    for (size_t c = 0; c < got.size(); ++c) {
        const double bound = rtol * (ref.magnitude[c] + std::fabs(ref.gradWeight[c])) + 1e-6;
        if (std::isnan(ref.gradWeight[c])) {
            EXPECT_TRUE(std::isnan(got[c])) << "channel " << c;
        } else {
            EXPECT_NEAR(got[c], ref.gradWeight[c], bound) << "channel " << c;
        }
    }
}

}  // namespace optest
