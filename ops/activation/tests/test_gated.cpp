// The gated activations (SwiGlu, GeGlu, GeGluV3) and SwiGlu's gradient
// (SwiGluGrad) against double references of the A2 kernels' formulas
// (hicann/ops-nn activation/swi_glu/op_kernel/swi_glu_impl.hpp and
// swi_glu_bf16.hpp; activation/swi_glu_grad/op_kernel/swi_glu_grad_float.hpp;
// activation/ge_glu_v2/op_kernel/ge_glu_v2_base.h, ComputeGeluBase and
// ComputeGeluErf) and the checks of activation/ge_glu_v2/op_host/op_api/
// aclnn_geglu.cpp, docs/aclnnSwiGlu.md and docs/aclnnSwiGluGrad.md: every
// dtype, the split along any dim, strided x, activateLeft, approximate,
// outGelu, empty tensors and every error code; SwiGluGrad also against
// central differences of our SwiGlu.
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_geglu.h"
#include "aclnnop/aclnn_swi_glu.h"
#include "aclnnop/aclnn_swi_glu_grad.h"
#include "ops/gradient_test_support.hpp"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

const std::vector<aclDataType> kDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

double sigmoid(double a) { return 1 / (1 + std::exp(-a)); }
double silu(double a) { return a * sigmoid(a); }
double silu_slope(double a) { return sigmoid(a) * (1 + a * (1 - sigmoid(a))); }
/// ComputeGeluBase.
double gelu_tanh(double x) { return x / (1 + std::exp(-1.5957691 * (x + 0.044715 * x * x * x))); }
/// ComputeGeluErf: x / (1 + e^(P(m^2) m)), m = min(x, 5.75).
double gelu_erf(double x) {
    const double m = std::min(x, 5.75);
    const double s = m * m;
    double p = s * -0.3512339572e-8;
    for (double c : {0.2645266170e-6, -0.7929488134e-5, 0.1106123840e-3, 0.6518995814e-4, -0.7266616915e-1}) {
        p = (p + c) * s;
    }
    return x / (1 + std::exp((p - 0.1595769883e1) * m));
}

/// Row-major index of x for the element of the half (upper or lower) at the
/// output's row-major index i, x split along dim.
int64_t x_index(const Shape& xShape, int64_t dim, int64_t i, bool upper) {
    Shape outShape = xShape;
    outShape[dim] /= 2;
    int64_t index = 0, stride = 1;
    for (int64_t d = static_cast<int64_t>(xShape.size()) - 1; d >= 0; --d) {
        int64_t coordinate = i % outShape[d];
        i /= outShape[d];
        if (d == dim && upper) coordinate += outShape[d];
        index += coordinate * stride;
        stride *= xShape[d];
    }
    return index;
}

Shape halved(Shape shape, int64_t dim) {
    shape[dim] /= 2;
    return shape;
}

class Gated : public AclTest {
protected:
    void check_swiglu(const TensorSpec& xSpec, int64_t dim) {
        SCOPED_TRACE("SwiGlu " + name(xSpec.dtype) + " dim " + std::to_string(dim));
        const std::vector<double> x = representable(uniform(numel(xSpec.shape), -6, 6, 4), xSpec.dtype);
        DeviceTensor xTensor(xSpec, x);
        const int64_t d = dim < 0 ? dim + static_cast<int64_t>(xSpec.shape.size()) : dim;
        auto out = DeviceTensor::output(TensorSpec(halved(xSpec.shape, d), xSpec.dtype));
        ASSERT_EQ(run_two_phases([&](uint64_t* s, aclOpExecutor** e) {
                      return aclnnSwiGluGetWorkspaceSize(xTensor.get(), dim, out->get(), s, e);
                  }, aclnnSwiGlu, stream_, nullptr),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        std::vector<double> expected;
        for (int64_t i = 0; i < out->elements(); ++i) {
            const double a = x[x_index(xSpec.shape, d, i, false)], b = x[x_index(xSpec.shape, d, i, true)];
            expected.push_back(representable(silu(a) * b, xSpec.dtype));
        }
        expect_close(out->read(), expected, tolerance_for(xSpec.dtype));
    }

    /// SwiGluGrad of x (split along dim) for yGrad, into an out of x's spec
    /// (outSpec: another layout); returns out's values.
    std::vector<double> swiglu_grad(const TensorSpec& xSpec, const std::vector<double>& x,
                                    const std::vector<double>& yGrad, int64_t dim, const TensorSpec& outSpec) {
        const int64_t d = dim < 0 ? dim + static_cast<int64_t>(xSpec.shape.size()) : dim;
        DeviceTensor xTensor(xSpec, x);
        DeviceTensor yGradTensor(TensorSpec(halved(xSpec.shape, d), xSpec.dtype), yGrad);
        auto out = DeviceTensor::output(outSpec);
        EXPECT_EQ(run_two_phases([&](uint64_t* s, aclOpExecutor** e) {
                      return aclnnSwiGluGradGetWorkspaceSize(yGradTensor.get(), xTensor.get(), dim, out->get(), s, e);
                  }, aclnnSwiGluGrad, stream_, nullptr),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
        return out->read();
    }

    void check_swiglu_grad(const TensorSpec& xSpec, int64_t dim, const TensorSpec& outSpec) {
        SCOPED_TRACE("SwiGluGrad " + name(xSpec.dtype) + " dim " + std::to_string(dim));
        const std::vector<double> x = representable(uniform(numel(xSpec.shape), -6, 6, 7), xSpec.dtype);
        const int64_t d = dim < 0 ? dim + static_cast<int64_t>(xSpec.shape.size()) : dim;
        const int64_t halfCount = numel(xSpec.shape) / 2;
        const std::vector<double> yGrad = representable(uniform(halfCount, -2, 2, 8), xSpec.dtype);
        std::vector<double> expected(static_cast<size_t>(numel(xSpec.shape)));
        for (int64_t i = 0; i < halfCount; ++i) {
            const int64_t ia = x_index(xSpec.shape, d, i, false), ib = x_index(xSpec.shape, d, i, true);
            expected[ia] = representable(silu_slope(x[ia]) * x[ib] * yGrad[i], xSpec.dtype);
            expected[ib] = representable(silu(x[ia]) * yGrad[i], xSpec.dtype);
        }
        expect_close(swiglu_grad(xSpec, x, yGrad, dim, outSpec), expected, tolerance_for(xSpec.dtype));
    }

    void check_geglu(const TensorSpec& xSpec, int64_t dim, int64_t approximate, bool activateLeft, bool v3) {
        SCOPED_TRACE("GeGlu " + name(xSpec.dtype) + " dim " + std::to_string(dim) + " approximate " +
                     std::to_string(approximate) + (activateLeft ? " left" : " right"));
        const std::vector<double> x = representable(uniform(numel(xSpec.shape), -5, 5, 6), xSpec.dtype);
        DeviceTensor xTensor(xSpec, x);
        const int64_t d = dim < 0 ? dim + static_cast<int64_t>(xSpec.shape.size()) : dim;
        auto out = DeviceTensor::output(TensorSpec(halved(xSpec.shape, d), xSpec.dtype));
        auto outGelu = DeviceTensor::output(TensorSpec(halved(xSpec.shape, d), xSpec.dtype));
        ASSERT_EQ(run_two_phases(
                      [&](uint64_t* s, aclOpExecutor** e) {
                          return v3 ? aclnnGeGluV3GetWorkspaceSize(xTensor.get(), dim, approximate, activateLeft,
                                                                   out->get(), outGelu->get(), s, e)
                                    : aclnnGeGluGetWorkspaceSize(xTensor.get(), dim, approximate, out->get(),
                                                                 outGelu->get(), s, e);
                      },
                      v3 ? aclnnGeGluV3 : aclnnGeGlu, stream_, nullptr),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        std::vector<double> expectedOut, expectedGelu;
        for (int64_t i = 0; i < out->elements(); ++i) {
            const double activated = x[x_index(xSpec.shape, d, i, !activateLeft)];
            const double other = x[x_index(xSpec.shape, d, i, activateLeft)];
            const double gelu = approximate == 1 ? gelu_tanh(activated) : gelu_erf(activated);
            // The FLOAT16 kernels multiply the FLOAT16 gelu_out.
            const double factor = xSpec.dtype == ACL_FLOAT16 ? representable(gelu, ACL_FLOAT16) : gelu;
            expectedOut.push_back(representable(factor * other, xSpec.dtype));
            expectedGelu.push_back(representable(gelu, xSpec.dtype));
        }
        Tolerance tol = tolerance_for(xSpec.dtype);
        tol.atol = 1e-5;  // fp32 exp of the kernel near gelu's zero crossing
        expect_close(out->read(), expectedOut, tol);
        expect_close(outGelu->read(), expectedGelu, tol);
        EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
    }
};

TEST_F(Gated, SwiGluSplitsAlongAnyDimInEveryDtype) {
    for (aclDataType dtype : kDtypes) {
        check_swiglu(TensorSpec({4, 6}, dtype), -1);
        check_swiglu(TensorSpec({4, 6}, dtype), 0);
        check_swiglu(TensorSpec({3, 8, 40}, dtype), 1);
        // A transposed x: the halves are strided views.
        check_swiglu(TensorSpec({6, 10}, dtype, {1, 6}, 0, {60}), 1);
    }
}

TEST_F(Gated, SwiGluGradSplitsAlongAnyDimInEveryDtype) {
    for (aclDataType dtype : kDtypes) {
        check_swiglu_grad(TensorSpec({4, 6}, dtype), -1, TensorSpec({4, 6}, dtype));
        check_swiglu_grad(TensorSpec({4, 6}, dtype), 0, TensorSpec({4, 6}, dtype));
        // Rows longer than a UB chunk, with a tail.
        check_swiglu_grad(TensorSpec({3, 2, 4100}, dtype), 2, TensorSpec({3, 2, 4100}, dtype));
        // A transposed x and a transposed out: the halves are strided views.
        check_swiglu_grad(TensorSpec({6, 10}, dtype, {1, 6}, 0, {60}), 1, TensorSpec({6, 10}, dtype, {1, 6}, 0, {60}));
    }
}

// yGrad = 1: the gradient of A is d(SwiGlu)/dA, of B d(SwiGlu)/dB, each the
// central difference of our SwiGlu moving every A (every B) by +-h at once
// (each output depends on its own pair only).  B = 1.5 keeps the truncation
// 1.5 times SiLU's (gradient_test_support.hpp).
TEST_F(Gated, SwiGluGradIsTheSlopeOfSwiGlu) {
    const std::vector<double> a = central_difference_points();
    const int64_t n = static_cast<int64_t>(a.size());
    const auto pairs = [&](double shiftA, double shiftB) {
        std::vector<double> x;
        for (double v : a) x.insert(x.end(), {v + shiftA, 1.5 + shiftB});
        return x;
    };
    const auto swiglu = [&](const std::vector<double>& x) {
        DeviceTensor in(TensorSpec({n, 2}, ACL_FLOAT), x);
        auto out = DeviceTensor::output(TensorSpec({n, 1}, ACL_FLOAT));
        EXPECT_EQ(run_two_phases([&](uint64_t* s, aclOpExecutor** e) {
                      return aclnnSwiGluGetWorkspaceSize(in.get(), -1, out->get(), s, e);
                  }, aclnnSwiGlu, stream_, nullptr), ACLNN_SUCCESS);
        return out->read();
    };
    const double h = 1.0 / 64;
    const std::vector<double> plusA = swiglu(pairs(h, 0)), minusA = swiglu(pairs(-h, 0));
    const std::vector<double> plusB = swiglu(pairs(0, h)), minusB = swiglu(pairs(0, -h));
    const std::vector<double> grad =
        swiglu_grad(TensorSpec({n, 2}, ACL_FLOAT), pairs(0, 0), std::vector<double>(n, 1), -1, {{n, 2}, ACL_FLOAT});
    std::vector<double> gradA, gradB, differencesA, differencesB;
    for (int64_t i = 0; i < n; ++i) {
        gradA.push_back(grad[2 * i]);
        gradB.push_back(grad[2 * i + 1]);
        differencesA.push_back((plusA[i] - minusA[i]) / (2 * h));
        differencesB.push_back((plusB[i] - minusB[i]) / (2 * h));
    }
    expect_close(gradA, differencesA, kCentralDifferenceTolerance);
    expect_close(gradB, differencesB, kCentralDifferenceTolerance);
}

// aclnnGeGlu activates the upper half B (activateLeft false); GeGluV3 either.
TEST_F(Gated, GeGluBothFormsBothSidesEveryDtype) {
    for (aclDataType dtype : kDtypes) {
        for (int64_t approximate : {0, 1}) {
            check_geglu(TensorSpec({4, 64}, dtype), -1, approximate, false, false);
            check_geglu(TensorSpec({4, 64}, dtype), -1, approximate, true, true);
            check_geglu(TensorSpec({6, 3, 5}, dtype), 0, approximate, false, true);
            check_geglu(TensorSpec({8, 12}, dtype, {1, 8}, 0, {96}), 1, approximate, true, true);
        }
    }
}

// ComputeGeluErf clamps its argument at 5.75 (the exponent's polynomial), so
// large x passes through; negative x goes to -0 through an infinite exponent.
TEST_F(Gated, GeGluErfFormAtItsEdges) {
    DeviceTensor x(TensorSpec({1, 8}, ACL_FLOAT), {-30, 3, 10, 100, 1, 1, 1, 1});
    auto out = DeviceTensor::output(TensorSpec({1, 4}, ACL_FLOAT));
    auto outGelu = DeviceTensor::output(TensorSpec({1, 4}, ACL_FLOAT));
    ASSERT_EQ(run_two_phases([&](uint64_t* s, aclOpExecutor** e) {
                  return aclnnGeGluV3GetWorkspaceSize(x.get(), -1, 0, true, out->get(), outGelu->get(), s, e);
              }, aclnnGeGluV3, stream_, nullptr), ACLNN_SUCCESS);
    expect_close(outGelu->read(), {gelu_erf(-30), gelu_erf(3), gelu_erf(10), gelu_erf(100)}, {1e-6, 1e-7});
    EXPECT_EQ(outGelu->read()[3], 100.0);
}

TEST_F(Gated, EmptyTensorsNeedNoWork) {
    DeviceTensor x(TensorSpec({0, 4}, ACL_FLOAT));
    auto out = DeviceTensor::output(TensorSpec({0, 2}, ACL_FLOAT));
    auto outGelu = DeviceTensor::output(TensorSpec({0, 2}, ACL_FLOAT));
    uint64_t workspace = 1;
    EXPECT_EQ(run_two_phases([&](uint64_t* s, aclOpExecutor** e) {
                  return aclnnSwiGluGetWorkspaceSize(x.get(), -1, out->get(), s, e);
              }, aclnnSwiGlu, stream_, &workspace), ACLNN_SUCCESS);
    EXPECT_EQ(workspace, 0u);
    EXPECT_EQ(run_two_phases([&](uint64_t* s, aclOpExecutor** e) {
                  return aclnnGeGluGetWorkspaceSize(x.get(), -1, 1, out->get(), outGelu->get(), s, e);
              }, aclnnGeGlu, stream_, nullptr), ACLNN_SUCCESS);
    auto grad = DeviceTensor::output(TensorSpec({0, 4}, ACL_FLOAT));
    workspace = 1;
    EXPECT_EQ(run_two_phases([&](uint64_t* s, aclOpExecutor** e) {
                  return aclnnSwiGluGradGetWorkspaceSize(out->get(), x.get(), -1, grad->get(), s, e);
              }, aclnnSwiGluGrad, stream_, &workspace), ACLNN_SUCCESS);
    EXPECT_EQ(workspace, 0u);
}

TEST_F(Gated, ErrorCodes) {
    DeviceTensor x(TensorSpec({2, 4}, ACL_FLOAT)), half(TensorSpec({2, 2}, ACL_FLOAT));
    DeviceTensor half16(TensorSpec({2, 2}, ACL_FLOAT16)), halfD(TensorSpec({2, 2}, ACL_DOUBLE));
    DeviceTensor xD(TensorSpec({2, 4}, ACL_DOUBLE)), odd(TensorSpec({2, 3}, ACL_FLOAT));
    DeviceTensor wrong(TensorSpec({2, 4}, ACL_FLOAT)), flat(TensorSpec({4}, ACL_FLOAT));
    DeviceTensor deep(TensorSpec(Shape(9, 2), ACL_FLOAT)), deepHalf(TensorSpec({2, 2, 2, 2, 2, 2, 2, 2, 1}, ACL_FLOAT));
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    const auto swiglu = [&](const DeviceTensor* in, int64_t dim, const DeviceTensor* out) {
        return aclnnSwiGluGetWorkspaceSize(in ? in->get() : nullptr, dim, out ? out->get() : nullptr, &ws, &ex);
    };
    const auto geglu = [&](const DeviceTensor* in, int64_t dim, int64_t approximate, const DeviceTensor* out,
                           const DeviceTensor* gelu) {
        return aclnnGeGluV3GetWorkspaceSize(in ? in->get() : nullptr, dim, approximate, false,
                                            out ? out->get() : nullptr, gelu ? gelu->get() : nullptr, &ws, &ex);
    };
    // 161001: null tensors and out-parameters.
    expect_error(swiglu(nullptr, -1, &half), ACLNN_ERR_PARAM_NULLPTR);
    expect_error(swiglu(&x, -1, nullptr), ACLNN_ERR_PARAM_NULLPTR);
    expect_error(aclnnSwiGluGetWorkspaceSize(x.get(), -1, half.get(), nullptr, &ex), ACLNN_ERR_PARAM_NULLPTR);
    expect_error(geglu(nullptr, -1, 0, &half, &half), ACLNN_ERR_PARAM_NULLPTR);
    expect_error(geglu(&x, -1, 0, nullptr, &half), ACLNN_ERR_PARAM_NULLPTR);
    expect_error(geglu(&x, -1, 0, &half, nullptr), ACLNN_ERR_PARAM_NULLPTR);
    expect_error(aclnnGeGluGetWorkspaceSize(x.get(), -1, 0, half.get(), half.get(), &ws, nullptr),
                 ACLNN_ERR_PARAM_NULLPTR);
    // 161002: dtypes outside the list or unlike x's, dim out of range, an odd
    // split, outputs not the halved shape, rank 9, approximate outside {0, 1}.
    const std::vector<std::function<aclnnStatus()>> invalid = {
        [&] { return swiglu(&xD, -1, &halfD); }, [&] { return swiglu(&x, -1, &half16); },
        [&] { return swiglu(&x, 2, &half); }, [&] { return swiglu(&x, -3, &half); },
        [&] { return swiglu(&odd, -1, &half); }, [&] { return swiglu(&x, -1, &wrong); },
        [&] { return swiglu(&x, -1, &flat); }, [&] { return swiglu(&deep, -1, &deepHalf); },
        [&] { return geglu(&xD, -1, 0, &halfD, &halfD); }, [&] { return geglu(&x, -1, 0, &half16, &half); },
        [&] { return geglu(&x, -1, 0, &half, &half16); }, [&] { return geglu(&x, 2, 0, &half, &half); },
        [&] { return geglu(&odd, -1, 0, &half, &half); }, [&] { return geglu(&x, -1, 0, &half, &wrong); },
        [&] { return geglu(&x, -1, 0, &flat, &half); }, [&] { return geglu(&x, -1, 2, &half, &half); },
        [&] { return geglu(&x, -1, -1, &half, &half); }, [&] { return geglu(&deep, -1, 0, &deepHalf, &deepHalf); }};
    for (size_t i = 0; i < invalid.size(); ++i) {
        SCOPED_TRACE(i);
        expect_error(invalid[i](), ACLNN_ERR_PARAM_INVALID);
    }
}

// docs/aclnnSwiGluGrad.md's codes: 161001 for a null yGrad, x or out;
// 161002 for dtypes and dim, and (its parameter table) shapes.
TEST_F(Gated, SwiGluGradErrorCodes) {
    DeviceTensor x(TensorSpec({2, 4}, ACL_FLOAT)), half(TensorSpec({2, 2}, ACL_FLOAT));
    DeviceTensor half16(TensorSpec({2, 2}, ACL_FLOAT16)), x16(TensorSpec({2, 4}, ACL_FLOAT16));
    DeviceTensor xD(TensorSpec({2, 4}, ACL_DOUBLE)), halfD(TensorSpec({2, 2}, ACL_DOUBLE));
    DeviceTensor odd(TensorSpec({2, 3}, ACL_FLOAT)), wide(TensorSpec({2, 4}, ACL_FLOAT));
    DeviceTensor flat(TensorSpec({8}, ACL_FLOAT));
    DeviceTensor scalar(TensorSpec({}, ACL_FLOAT));
    expect_each_null_is_161001_naming(aclnnSwiGluGradGetWorkspaceSize, {"yGrad", "x", "out"}, half.get(), x.get(),
                                      int64_t{-1}, x.get());
    const auto grad = [](const DeviceTensor& yGrad, const DeviceTensor& in, int64_t dim, const DeviceTensor& out) {
        return phase1_of(aclnnSwiGluGradGetWorkspaceSize, yGrad.get(), in.get(), dim, out.get());
    };
    expect_error_naming(grad(halfD, xD, -1, xD), ACLNN_ERR_PARAM_INVALID, "DT_DOUBLE");
    expect_error_naming(grad(half16, x, -1, x), ACLNN_ERR_PARAM_INVALID, "yGrad");
    expect_error_naming(grad(half, x, -1, x16), ACLNN_ERR_PARAM_INVALID, "out");
    expect_error_naming(grad(half, x, 2, x), ACLNN_ERR_PARAM_INVALID, "dim");
    expect_error_naming(grad(half, x, -3, x), ACLNN_ERR_PARAM_INVALID, "dim");
    expect_error_naming(grad(half, odd, -1, odd), ACLNN_ERR_PARAM_INVALID, "even");
    expect_error_naming(grad(wide, x, -1, x), ACLNN_ERR_PARAM_INVALID, "yGrad");
    expect_error_naming(grad(half, x, -1, flat), ACLNN_ERR_PARAM_INVALID, "out");
    expect_error_naming(grad(scalar, scalar, 0, scalar), ACLNN_ERR_PARAM_INVALID, "dimension");
}

}  // namespace
