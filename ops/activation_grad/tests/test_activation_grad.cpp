// The activation gradients (GeluBackward, GeluBackwardV2, SiluBackward,
// SigmoidBackward, ThresholdBackward) against double-precision references
// written from the mathematical derivatives -- not from the kernels' fp32
// sequences -- on every dtype of each A2 support list (ops-nn activation/
// <op>/op_api/aclnn_*.cpp), mixed dtypes where the op_api promotes,
// broadcasting where it allows it, strided and offset views, 0-d and empty
// tensors, special values and every error path with its code and message.
// Each is also checked against central differences of our own forward
// operator (aclnnGelu, aclnnGeluV2, aclnnSilu, aclnnSigmoid).
//
// A reference models CANN's graph: each input as the device holds it, cast
// to the compute dtype, the derivative in double, the result rounded to the
// compute dtype and cast into the output's dtype.
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gelu_backward.h"
#include "aclnnop/aclnn_gelu_backward_v2.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_sigmoid_backward.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_silu_backward.h"
#include "aclnnop/aclnn_threshold_backward.h"
#include "ops/gradient_test_support.hpp"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr Tolerance kExact{0, 0};
const double kNaN = std::nan("");

using Derivative = std::function<double(double dy, double x)>;

// ---- the derivatives ------------------------------------------------------

/// d/dx of 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
double gelu_tanh_grad(double dy, double x) {
    const double k = std::sqrt(2 / M_PI);
    const double t = std::tanh(k * (x + 0.044715 * x * x * x));
    return dy * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * k * (1 + 3 * 0.044715 * x * x));
}
/// d/dx of x Phi(x): Phi(x) + x phi(x).
double gelu_erf_grad(double dy, double x) {
    return dy * (0.5 * (1 + std::erf(x / std::sqrt(2.0))) + x * std::exp(-x * x / 2) / std::sqrt(2 * M_PI));
}
/// d/dx of x sigmoid(x): s (1 + x (1 - s)).
double silu_grad(double dy, double x) {
    const double s = 1 / (1 + std::exp(-x));
    return dy * s * (1 + x * (1 - s));
}
/// d/dx sigmoid = y (1 - y), from the forward output y.
double sigmoid_grad(double dy, double y) { return dy * y * (1 - y); }
Complex sigmoid_grad_complex(Complex dy, Complex y) { return dy * (1.0 - y) * y; }

/// The reference of an operator computing in `compute` and writing `out`.
std::function<double(double, double)> in_graph(const Derivative& f, aclDataType compute, aclDataType out) {
    return [f, compute, out](double dy, double x) {
        const double result = representable(f(cast(dy, compute, compute), cast(x, compute, compute)), compute);
        return cast(result, compute, out);
    };
}

/// The tolerance of a result computed in fp32 and stored in dtype: a few
/// fp32 ulps of exp and division (rtol 2e-5) and, near the derivatives'
/// zeros, the fp32 cancellation of terms of size 1 (atol 2e-6); erf's fit
/// is within 1.5e-7.
Tolerance grad_tolerance(aclDataType dtype) {
    const Tolerance tol = tolerance_for(dtype);
    return {std::max(tol.rtol, 2e-5), std::max(tol.atol, 2e-6)};
}

/// phase1(a, b, out) alone, for expect_each_triple_refused.
template <class Entry>
auto phase1_on(Entry entry) {
    return [entry](const aclTensor* a, const aclTensor* b, aclTensor* out) { return phase1_of(entry, a, b, out); };
}

class ActivationGrad : public AclTest {
protected:
    template <class Entry>
    BinaryLaunch launch(Entry phase1, Phase2 phase2) const {
        return binary_launch(stream_, phase1, phase2);
    }
};

auto gelu_backward = [](const aclTensor* a, const aclTensor* b, aclTensor* out, uint64_t* size,
                        aclOpExecutor** executor) { return aclnnGeluBackwardGetWorkspaceSize(a, b, out, size, executor); };
auto silu_backward = [](const aclTensor* a, const aclTensor* b, aclTensor* out, uint64_t* size,
                        aclOpExecutor** executor) { return aclnnSiluBackwardGetWorkspaceSize(a, b, out, size, executor); };
auto sigmoid_backward = [](const aclTensor* a, const aclTensor* b, aclTensor* out, uint64_t* size,
                           aclOpExecutor** executor) {
    return aclnnSigmoidBackwardGetWorkspaceSize(a, b, out, size, executor);
};
BinaryLaunch gelu_v2(aclrtStream stream, const char* approximate) {
    return binary_launch(stream,
                         [approximate](const aclTensor* a, const aclTensor* b, aclTensor* out, uint64_t* size,
                                       aclOpExecutor** executor) {
                             return aclnnGeluBackwardV2GetWorkspaceSize(a, b, const_cast<char*>(approximate), out,
                                                                        size, executor);
                         },
                         aclnnGeluBackwardV2);
}
BinaryLaunch threshold_backward(aclrtStream stream, double threshold) {
    return binary_launch(stream,
                         [threshold](const aclTensor* a, const aclTensor* b, aclTensor* out, uint64_t* size,
                                     aclOpExecutor** executor) {
                             const Scalar t(threshold);
                             return aclnnThresholdBackwardGetWorkspaceSize(a, b, t.get(), out, size, executor);
                         },
                         aclnnThresholdBackward);
}

const std::vector<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

/// dy and x of [4, 33] (a partial vector), x in [lo, hi).
void check_each_dtype(const BinaryLaunch& launch, const Derivative& f, const std::vector<aclDataType>& dtypes,
                      double lo, double hi) {
    for (aclDataType dtype : dtypes) {
        SCOPED_TRACE(name(dtype));
        const Shape shape = {4, 33};
        check_binary(launch, {{shape, dtype}, uniform(132, -2, 2, 1)}, {{shape, dtype}, uniform(132, lo, hi, 2)},
                     {shape, dtype}, in_graph(f, dtype, dtype), grad_tolerance(dtype));
    }
}

/// Broadcast [3, 1, 5] with [4, 5], a transposed (strided) x with an
/// offset, and a 0-d pair, in FLOAT.
void check_layouts(const BinaryLaunch& launch, const Derivative& f) {
    const auto ref = in_graph(f, ACL_FLOAT, ACL_FLOAT);
    check_binary(launch, {{{3, 1, 5}, ACL_FLOAT}, uniform(15, -2, 2, 3)}, {{{4, 5}, ACL_FLOAT}, uniform(20, -4, 4, 4)},
                 {{3, 4, 5}, ACL_FLOAT}, ref, grad_tolerance(ACL_FLOAT));
    check_binary(launch, {{{4, 5}, ACL_FLOAT}, uniform(20, -2, 2, 5)},
                 {{{4, 5}, ACL_FLOAT, {1, 6}, 3, {40}}, uniform(20, -4, 4, 6)}, {{4, 5}, ACL_FLOAT, {10, 2}, 1, {45}},
                 ref, grad_tolerance(ACL_FLOAT));
    check_binary(launch, {{{}, ACL_FLOAT}, {1.5}}, {{{}, ACL_FLOAT}, {-0.75}}, {{}, ACL_FLOAT}, ref,
                 grad_tolerance(ACL_FLOAT));
}

/// An empty operand (broadcast against a non-empty one when the operator
/// broadcasts): success, no workspace, nothing written.
void check_empty(const BinaryLaunch& launch, bool broadcasts = true) {
    check_binary(launch, {{{0, 3}, ACL_FLOAT}, {}}, {{{0, 3}, ACL_FLOAT}, {}}, {{0, 3}, ACL_FLOAT},
                 [](double, double) { return 0.0; }, kExact);
    if (!broadcasts) return;
    check_binary(launch, {{{2, 0}, ACL_FLOAT}, {}}, {{{1}, ACL_FLOAT}, {1}}, {{2, 0}, ACL_FLOAT},
                 [](double, double) { return 0.0; }, kExact);
}

// ---- GeluBackward ------------------------------------------------------------

TEST_F(ActivationGrad, GeluBackwardIsTheTanhFormsDerivative) {
    const auto run = launch(gelu_backward, aclnnGeluBackward);
    check_each_dtype(run, gelu_tanh_grad, kFloats, -5, 5);
    check_layouts(run, gelu_tanh_grad);
    check_empty(run);
}

TEST_F(ActivationGrad, GeluBackwardPromotesAndCastsIntoAnyOut) {
    const auto run = launch(gelu_backward, aclnnGeluBackward);
    // FLOAT16 with FLOAT computes in FLOAT; BF16 with FLOAT16 in FLOAT too.
    check_binary(run, {{{2, 9}, ACL_FLOAT16}, uniform(18, -2, 2, 7)}, {{{2, 9}, ACL_FLOAT}, uniform(18, -3, 3, 8)},
                 {{2, 9}, ACL_FLOAT}, in_graph(gelu_tanh_grad, ACL_FLOAT, ACL_FLOAT), grad_tolerance(ACL_FLOAT));
    check_binary(run, {{{2, 9}, ACL_BF16}, uniform(18, -2, 2, 9)}, {{{2, 9}, ACL_FLOAT16}, uniform(18, -3, 3, 10)},
                 {{2, 9}, ACL_FLOAT}, in_graph(gelu_tanh_grad, ACL_FLOAT, ACL_FLOAT), grad_tolerance(ACL_FLOAT));
    // gradInput is not checked: the result is cast into it (DOUBLE, INT32).
    check_binary(run, {{{2, 9}, ACL_FLOAT}, uniform(18, -2, 2, 11)}, {{{2, 9}, ACL_FLOAT}, uniform(18, -3, 3, 12)},
                 {{2, 9}, ACL_DOUBLE}, in_graph(gelu_tanh_grad, ACL_FLOAT, ACL_DOUBLE), grad_tolerance(ACL_FLOAT));
    check_binary(run, {{{2, 9}, ACL_FLOAT}, uniform(18, -40, 40, 13)}, {{{2, 9}, ACL_FLOAT}, uniform(18, -3, 3, 14)},
                 {{2, 9}, ACL_INT32}, in_graph(gelu_tanh_grad, ACL_FLOAT, ACL_INT32), {0, 1});
}

// At -inf and +inf the kernel's NaN term counts 0: the gradient is 0 and dy.
TEST_F(ActivationGrad, GeluBackwardSpecialValues) {
    const auto run = launch(gelu_backward, aclnnGeluBackward);
    const std::vector<double> x = {kInf, -kInf, kNaN, 0, -0.0, 100, -100, 1e30, -1e30, 3e-39};
    const std::vector<double> expected = {2, 0, kNaN, 1, 1, 2, 0, 2, 0, 1};
    check_binary(run, {{{10}, ACL_FLOAT}, std::vector<double>(10, 2.0)}, {{{10}, ACL_FLOAT}, x}, {{10}, ACL_FLOAT},
                 [&](double, double xi) {
                     for (size_t i = 0; i < x.size(); ++i) {
                         const double held = representable(x[i], ACL_FLOAT);
                         if (held == xi || (std::isnan(held) && std::isnan(xi))) return expected[i];
                     }
                     return kNaN;
                 },
                 {0, 1e-30});
}

// Each gradient against central differences of our own forward operator
// (ops/gradient_test_support.hpp), dy = 1: GeluBackward and GeluBackwardV2's
// "tanh" of aclnnGelu, V2's "none" of aclnnGeluV2's erf form, SiluBackward of
// aclnnSilu, and SigmoidBackward -- which takes the forward output -- of
// aclnnSigmoid, fed aclnnSigmoid's own results.
TEST_F(ActivationGrad, GradientsMatchCentralDifferencesOfTheForwardOperators) {
    const auto unary = [this](auto phase1, Phase2 phase2) {
        return [this, phase1, phase2](const DeviceTensor& in, DeviceTensor& out) {
            return run_aclnn(stream_, phase1, phase2, in.get(), out.get());
        };
    };
    const auto gelu_erf = [this](const DeviceTensor& in, DeviceTensor& out) {
        return run_aclnn(stream_, aclnnGeluV2GetWorkspaceSize, aclnnGeluV2, in.get(), int64_t{0}, out.get());
    };
    const auto gelu = unary(aclnnGeluGetWorkspaceSize, aclnnGelu);
    const auto sigmoid = unary(aclnnSigmoidGetWorkspaceSize, aclnnSigmoid);
    const std::vector<double> x = central_difference_points();
    const Shape shape = {static_cast<int64_t>(x.size())};
    const std::vector<double> ones(x.size(), 1.0);
    // gradient(launch, the backward's second input's values).
    const auto gradient = [&](const BinaryLaunch& launch, const std::vector<double>& second) {
        const DeviceTensor dy({shape, ACL_FLOAT}, ones);
        const DeviceTensor in({shape, ACL_FLOAT}, second);
        auto grad = DeviceTensor::output({shape, ACL_FLOAT});
        uint64_t workspace = 0;
        EXPECT_EQ(launch(dy, in, *grad, &workspace), ACLNN_SUCCESS);
        return grad->read();
    };
    const std::vector<double> geluDifferences = central_differences(gelu, x);
    SCOPED_TRACE("Gelu");
    expect_close(gradient(launch(gelu_backward, aclnnGeluBackward), x), geluDifferences, kCentralDifferenceTolerance);
    expect_close(gradient(gelu_v2(stream_, "tanh"), x), geluDifferences, kCentralDifferenceTolerance);
    SCOPED_TRACE("GeluV2 erf");
    expect_close(gradient(gelu_v2(stream_, "none"), x), central_differences(gelu_erf, x), kCentralDifferenceTolerance);
    SCOPED_TRACE("Silu");
    expect_close(gradient(launch(silu_backward, aclnnSiluBackward), x),
                 central_differences(unary(aclnnSiluGetWorkspaceSize, aclnnSilu), x), kCentralDifferenceTolerance);
    SCOPED_TRACE("Sigmoid");
    expect_close(gradient(launch(sigmoid_backward, aclnnSigmoidBackward), forward_at(sigmoid, x, 0)),
                 central_differences(sigmoid, x), kCentralDifferenceTolerance);
}

TEST_F(ActivationGrad, GeluBackwardErrors) {
    const DeviceTensor f32({{2, 3}, ACL_FLOAT}, uniform(6, -1, 1, 1));
    auto out = DeviceTensor::output({{2, 3}, ACL_FLOAT});
    expect_each_null_is_161001_naming(aclnnGeluBackwardGetWorkspaceSize, {"gradOutput", "self", "gradInput"},
                                      f32.get(), f32.get(), out->get());
    const DeviceTensor i32({{2, 3}, ACL_INT32}, {1, 2, 3, 4, 5, 6});
    const DeviceTensor f64({{2, 3}, ACL_DOUBLE}, {1, 2, 3, 4, 5, 6});
    expect_error_naming(phase1_of(aclnnGeluBackwardGetWorkspaceSize, i32.get(), i32.get(), out->get()),
                        ACLNN_ERR_PARAM_INVALID, "DT_INT32");
    expect_error_naming(phase1_of(aclnnGeluBackwardGetWorkspaceSize, f64.get(), f32.get(), out->get()),
                        ACLNN_ERR_PARAM_INVALID, "DT_DOUBLE");
    expect_each_triple_refused(phase1_on(gelu_backward), broadcast_refusals());
}

// ---- GeluBackwardV2 ----------------------------------------------------------

TEST_F(ActivationGrad, GeluBackwardV2ComputesBothForms) {
    for (const char* approximate : {"none", "tanh"}) {
        SCOPED_TRACE(approximate);
        const Derivative f = std::string(approximate) == "none" ? Derivative(gelu_erf_grad) : gelu_tanh_grad;
        const BinaryLaunch run = gelu_v2(stream_, approximate);
        check_each_dtype(run, f, kFloats, -6, 6);
        check_layouts(run, f);
        check_empty(run);
        check_binary(run, {{{7}, ACL_FLOAT16}, uniform(7, -2, 2, 15)}, {{{7}, ACL_FLOAT}, uniform(7, -3, 3, 16)},
                     {{7}, ACL_FLOAT}, in_graph(f, ACL_FLOAT, ACL_FLOAT), grad_tolerance(ACL_FLOAT));
    }
    // An integer operand promotes with a float one (the op_api checks only
    // the promoted dtype) and is cast to it: the typed path, not the
    // vector one, computes them (fuzz_binary found the erf form had none).
    for (const char* approximate : {"none", "tanh"}) {
        SCOPED_TRACE(approximate);
        const Derivative f = std::string(approximate) == "none" ? Derivative(gelu_erf_grad) : gelu_tanh_grad;
        check_binary(gelu_v2(stream_, approximate), {{{6}, ACL_INT32}, {-3, -1, 0, 1, 2, 5}},
                     {{{6}, ACL_FLOAT16}, uniform(6, -3, 3, 17)}, {{6}, ACL_FLOAT16},
                     in_graph(f, ACL_FLOAT16, ACL_FLOAT16), grad_tolerance(ACL_FLOAT16));
    }
    // The erf form's kernel multiplies x by its pdf: 0 * inf is NaN at
    // +-inf (gelu_grad_v2_dag.h, GeluGradV2ErfPost), dy * 1 at 30, 0 at -30.
    check_binary(gelu_v2(stream_, "none"), {{{5}, ACL_FLOAT}, {2, 2, 2, 2, 2}},
                 {{{5}, ACL_FLOAT}, {kInf, -kInf, 30, -30, kNaN}}, {{5}, ACL_FLOAT},
                 [](double, double x) { return std::isnan(x) || std::isinf(x) ? kNaN : x > 0 ? 2.0 : 0.0; },
                 {0, 1e-30});
}

TEST_F(ActivationGrad, GeluBackwardV2Errors) {
    const DeviceTensor f32({{2, 3}, ACL_FLOAT}, uniform(6, -1, 1, 1));
    auto out = DeviceTensor::output({{2, 3}, ACL_FLOAT});
    char noneText[] = "none";
    char* none = noneText;
    expect_each_null_is_161001_naming(aclnnGeluBackwardV2GetWorkspaceSize,
                                      {"gradOutput", "self", "approximate", "gradInput"}, f32.get(), f32.get(), none,
                                      out->get());
    char erfText[] = "erf";
    char* other = erfText;
    expect_error_naming(phase1_of(aclnnGeluBackwardV2GetWorkspaceSize, f32.get(), f32.get(), other, out->get()),
                        ACLNN_ERR_PARAM_INVALID, "erf");
    // gradInput must have the promoted dtype.
    auto f16 = DeviceTensor::output({{2, 3}, ACL_FLOAT16});
    expect_error_naming(phase1_of(aclnnGeluBackwardV2GetWorkspaceSize, f32.get(), f32.get(), none, f16->get()),
                        ACLNN_ERR_PARAM_INVALID, "gradInput");
    const DeviceTensor i8({{2, 3}, ACL_INT8}, {1, 2, 3, 4, 5, 6});
    expect_error_naming(phase1_of(aclnnGeluBackwardV2GetWorkspaceSize, i8.get(), i8.get(), none, out->get()),
                        ACLNN_ERR_PARAM_INVALID, "DT_INT8");
    const DeviceTensor wide({{3, 2}, ACL_FLOAT}, uniform(6, -1, 1, 1));
    expect_error_naming(phase1_of(aclnnGeluBackwardV2GetWorkspaceSize, f32.get(), wide.get(), none, out->get()),
                        ACLNN_ERR_PARAM_INVALID, "must match");
}

// ---- SiluBackward ------------------------------------------------------------

TEST_F(ActivationGrad, SiluBackwardIsSilusDerivative) {
    const auto run = launch(silu_backward, aclnnSiluBackward);
    check_each_dtype(run, silu_grad, kFloats, -20, 20);
    check_empty(run, false);
    // Strided and offset operands of one shape (A2 does not broadcast).
    check_binary(run, {{{4, 5}, ACL_FLOAT, {1, 4}, 2, {30}}, uniform(20, -2, 2, 5)},
                 {{{4, 5}, ACL_FLOAT}, uniform(20, -8, 8, 6)}, {{4, 5}, ACL_FLOAT, {10, 2}, 1, {45}},
                 in_graph(silu_grad, ACL_FLOAT, ACL_FLOAT), grad_tolerance(ACL_FLOAT));
    check_binary(run, {{{}, ACL_FLOAT}, {3}}, {{{}, ACL_FLOAT}, {0.5}}, {{}, ACL_FLOAT},
                 in_graph(silu_grad, ACL_FLOAT, ACL_FLOAT), grad_tolerance(ACL_FLOAT));
    // -inf: s = 0 and (1 - s) * x = -inf, so s * (1 + that) is 0 * -inf, NaN,
    // as the kernel's order of operations gives it; 100: s = 1, gradient dy.
    check_binary(run, {{{3}, ACL_FLOAT}, {1, 1, 1}}, {{{3}, ACL_FLOAT}, {-kInf, 100, kNaN}}, {{3}, ACL_FLOAT},
                 [](double, double x) { return std::isnan(x) ? kNaN : x > 0 ? 1.0 : kNaN; }, {0, 1e-30});
}

TEST_F(ActivationGrad, SiluBackwardErrors) {
    const DeviceTensor f32({{2, 3}, ACL_FLOAT}, uniform(6, -1, 1, 1));
    auto out = DeviceTensor::output({{2, 3}, ACL_FLOAT});
    expect_each_null_is_161001_naming(aclnnSiluBackwardGetWorkspaceSize, {"gradOutput", "self", "gradInput"},
                                      f32.get(), f32.get(), out->get());
    const DeviceTensor f16({{2, 3}, ACL_FLOAT16}, uniform(6, -1, 1, 1));
    const DeviceTensor f64({{2, 3}, ACL_DOUBLE}, uniform(6, -1, 1, 1));
    expect_error_naming(phase1_of(aclnnSiluBackwardGetWorkspaceSize, f64.get(), f64.get(), out->get()),
                        ACLNN_ERR_PARAM_INVALID, "DT_DOUBLE");
    // One dtype throughout on A2, and no broadcasting.
    expect_error(phase1_of(aclnnSiluBackwardGetWorkspaceSize, f16.get(), f32.get(), out->get()),
                 ACLNN_ERR_PARAM_INVALID);
    expect_error(phase1_of(aclnnSiluBackwardGetWorkspaceSize, f32.get(), f16.get(), out->get()),
                 ACLNN_ERR_PARAM_INVALID);
    expect_each_triple_refused(phase1_on(silu_backward),
                               {{"broadcast", {{1, 3}, ACL_FLOAT}, {{2, 3}, ACL_FLOAT}, {{2, 3}, ACL_FLOAT}},
                                {"out shape", {{2, 3}, ACL_FLOAT}, {{2, 3}, ACL_FLOAT}, {{3, 2}, ACL_FLOAT}},
                                {"rank 9", {{1, 1, 1, 1, 1, 1, 1, 1, 2}, ACL_FLOAT}, {{1, 1, 1, 1, 1, 1, 1, 1, 2}, ACL_FLOAT},
                                 {{1, 1, 1, 1, 1, 1, 1, 1, 2}, ACL_FLOAT}}});
}

// ---- SigmoidBackward ---------------------------------------------------------

TEST_F(ActivationGrad, SigmoidBackwardTakesTheForwardOutput) {
    const auto run = launch(sigmoid_backward, aclnnSigmoidBackward);
    check_each_dtype(run, sigmoid_grad, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}, 0, 1);
    check_layouts(run, sigmoid_grad);
    check_empty(run);
    // Promotion (FLOAT16 with FLOAT: FLOAT), then Cast into a FLOAT16 gradInput.
    check_binary(run, {{{3, 4}, ACL_FLOAT16}, uniform(12, -2, 2, 17)}, {{{4}, ACL_FLOAT}, uniform(4, 0, 1, 18)},
                 {{3, 4}, ACL_FLOAT16}, in_graph(sigmoid_grad, ACL_FLOAT, ACL_FLOAT16), grad_tolerance(ACL_FLOAT16));
    check_binary(run, {{{3}, ACL_FLOAT}, {1, 1, 1}}, {{{3}, ACL_FLOAT}, {kInf, kNaN, 2}}, {{3}, ACL_FLOAT},
                 [](double, double y) { return std::isnan(y) ? kNaN : std::isinf(y) ? -kInf : -2.0; }, kExact);
}

TEST_F(ActivationGrad, SigmoidBackwardComplex) {
    for (aclDataType dtype : {ACL_COMPLEX64, ACL_COMPLEX128}) {
        SCOPED_TRACE(name(dtype));
        const std::vector<Complex> dy = sample(dtype, 10, 21, -2, 2);
        const std::vector<Complex> y = sample(dtype, 10, 22, -1, 1);
        DeviceTensor dyTensor({{2, 5}, dtype});
        DeviceTensor yTensor({{2, 5}, dtype});
        dyTensor.write_complex(dy);
        yTensor.write_complex(y);
        auto out = DeviceTensor::output({{2, 5}, dtype});
        ASSERT_EQ(run_aclnn(stream_, aclnnSigmoidBackwardGetWorkspaceSize, aclnnSigmoidBackward, dyTensor.get(),
                            yTensor.get(), out->get()),
                  ACLNN_SUCCESS);
        const std::vector<Complex> got = out->read_complex();
        const double rtol = dtype == ACL_COMPLEX64 ? 1e-5 : 1e-12;
        for (size_t i = 0; i < dy.size(); ++i) {
            const Complex expected = sigmoid_grad_complex(dy[i], y[i]);
            EXPECT_LE(std::abs(got[i] - expected), rtol * (1 + std::abs(expected))) << i;
        }
    }
}

TEST_F(ActivationGrad, SigmoidBackwardErrors) {
    const DeviceTensor f32({{2, 3}, ACL_FLOAT}, uniform(6, -1, 1, 1));
    auto out = DeviceTensor::output({{2, 3}, ACL_FLOAT});
    expect_each_null_is_161001_naming(aclnnSigmoidBackwardGetWorkspaceSize, {"gradOutput", "output", "gradInput"},
                                      f32.get(), f32.get(), out->get());
    const DeviceTensor i32({{2, 3}, ACL_INT32}, {1, 2, 3, 4, 5, 6});
    expect_error_naming(phase1_of(aclnnSigmoidBackwardGetWorkspaceSize, i32.get(), f32.get(), out->get()),
                        ACLNN_ERR_PARAM_INVALID, "DT_INT32");
    // COMPLEX64 with FLOAT promotes to COMPLEX64, which no FLOAT gradInput takes.
    const DeviceTensor c64({{2, 3}, ACL_COMPLEX64}, uniform(6, -1, 1, 1));
    expect_error(phase1_of(aclnnSigmoidBackwardGetWorkspaceSize, c64.get(), f32.get(), out->get()),
                 ACLNN_ERR_PARAM_INVALID);
    expect_each_triple_refused(phase1_on(sigmoid_backward), broadcast_refusals());
}

// ---- ThresholdBackward -------------------------------------------------------

// out = self <= threshold ? 0 : gradOutput; a NaN self passes gradOutput.
TEST_F(ActivationGrad, ThresholdBackwardMasksTheGradient) {
    for (double threshold : {0.0, 0.5, -1.25}) {
        SCOPED_TRACE(threshold);
        const BinaryLaunch run = threshold_backward(stream_, threshold);
        const auto mask = [threshold](double dy, double x) { return x <= threshold ? 0.0 : dy; };
        for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT8, ACL_UINT8}) {
            SCOPED_TRACE(name(dtype));
            const double lo = dtype == ACL_UINT8 ? 0 : -3;
            std::vector<double> x = uniform(66, lo, 3, 31);
            std::vector<double> dy = uniform(66, lo, 100, 32);
            if (is_integral(dtype)) {
                for (double& v : x) v = std::round(v);
                for (double& v : dy) v = std::round(v);
            }
            x[0] = threshold;  // equal: 0
            check_binary(run, {{{6, 11}, dtype}, dy}, {{{6, 11}, dtype}, x}, {{6, 11}, dtype}, mask, kExact);
        }
        check_binary(run, {{{2, 1, 4}, ACL_FLOAT}, uniform(8, -2, 2, 33)},
                     {{{3, 1}, ACL_FLOAT, {2, 1}, 1, {8}}, uniform(3, -2, 2, 34)}, {{2, 3, 4}, ACL_FLOAT}, mask, kExact);
        check_binary(run, {{{4}, ACL_FLOAT}, {1, 2, 3, 4}}, {{{4}, ACL_FLOAT}, {kNaN, kInf, -kInf, threshold}},
                     {{4}, ACL_FLOAT}, [threshold](double dy, double x) { return std::isnan(x) || x > threshold ? dy : 0.0; }, kExact);
        check_empty(run);
    }
    // INT32 gradients go through fp32 in the kernel: 2^24 + 1 comes back as 2^24.
    check_binary(threshold_backward(stream_, 0), {{{1}, ACL_INT32}, {16777217}}, {{{1}, ACL_INT32}, {5}},
                 {{1}, ACL_INT32}, [](double, double) { return 16777216.0; }, kExact);
}

TEST_F(ActivationGrad, ThresholdBackwardErrors) {
    const DeviceTensor f32({{2, 3}, ACL_FLOAT}, uniform(6, -1, 1, 1));
    auto out = DeviceTensor::output({{2, 3}, ACL_FLOAT});
    const Scalar threshold(0.5);
    // CANN checks threshold, out and the workspace pointer before the tensors.
    expect_each_null_is_161001(aclnnThresholdBackwardGetWorkspaceSize, f32.get(), f32.get(), threshold.get(),
                               out->get());
    const DeviceTensor f64({{2, 3}, ACL_DOUBLE}, uniform(6, -1, 1, 1));
    const DeviceTensor i64({{2, 3}, ACL_INT64}, {1, 2, 3, 4, 5, 6});
    const DeviceTensor f16({{2, 3}, ACL_FLOAT16}, uniform(6, -1, 1, 1));
    expect_error_naming(phase1_of(aclnnThresholdBackwardGetWorkspaceSize, f64.get(), f64.get(), threshold.get(),
                                  out->get()),
                        ACLNN_ERR_PARAM_INVALID, "DT_DOUBLE");
    expect_error_naming(phase1_of(aclnnThresholdBackwardGetWorkspaceSize, i64.get(), i64.get(), threshold.get(),
                                  out->get()),
                        ACLNN_ERR_PARAM_INVALID, "DT_INT64");
    // gradOutput and out must have self's dtype.
    expect_error(phase1_of(aclnnThresholdBackwardGetWorkspaceSize, f16.get(), f32.get(), threshold.get(), out->get()),
                 ACLNN_ERR_PARAM_INVALID);
    auto out16 = DeviceTensor::output({{2, 3}, ACL_FLOAT16});
    expect_error(phase1_of(aclnnThresholdBackwardGetWorkspaceSize, f32.get(), f32.get(), threshold.get(),
                           out16->get()),
                 ACLNN_ERR_PARAM_INVALID);
    const auto phase1 = [&](const aclTensor* a, const aclTensor* b, aclTensor* o) {
        return phase1_of(aclnnThresholdBackwardGetWorkspaceSize, a, b, threshold.get(), o);
    };
    expect_each_triple_refused(phase1, broadcast_refusals());
}

}  // namespace
