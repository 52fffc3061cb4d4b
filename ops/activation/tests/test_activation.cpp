// The activation family (Relu, Sigmoid, Hardsigmoid, Hardswish, Silu, Gelu,
// GeluV2, Elu, LeakyRelu, Softplus and the in-place forms) against
// double-precision references: every dtype of each A2 support list
// (activation/<op>/op_api/aclnn_<op>.cpp in hicann/ops-nn), strided and offset
// views, in-place aliasing, special values, scalar parameters at their edges,
// and every error path with its code.
//
// A reference models CANN's graph: self (as the device holds it) cast to the
// compute dtype, the formula of CANN's kernel in double, the result rounded
// to the compute dtype and cast into out.
#include <cmath>
#include <algorithm>
#include <cfloat>
#include <complex>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_hardswish.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_threshold.h"
#include "ops/op_test_support.hpp"
#include "ops/unary_test_support.hpp"

namespace {

using namespace optest;

using Phase1 = std::function<aclnnStatus(const aclTensor*, aclTensor*, uint64_t*, aclOpExecutor**)>;
using RealFunction = std::function<double(double)>;

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::nan("");

/// The parameters every parameterised operator is tested with.
constexpr double kEluAlpha = 1.5, kEluScale = 1.25, kEluInputScale = 0.75;
constexpr double kSlope = 0.125;
constexpr double kBeta = 2.0, kThreshold = 15.0;
/// Threshold's scalars: exact in every listed dtype (UINT8 wraps the value to 253).
constexpr double kCut = 1.0, kReplacement = -3.0;

/// One operator: its entries (scalars bound), its formula, the inputs it is
/// tested on, its listed dtypes, and atol beyond the dtype's own tolerance.
struct Activation : UnaryEntries {
    RealFunction real;
    double low;
    double high;
    std::vector<aclDataType> dtypes;
    double atol = 0;
};

bool is_complex(aclDataType t) { return t == ACL_COMPLEX64 || t == ACL_COMPLEX128; }

// The kernels' formulas (activation_kernel.cpp names each one's CANN source).
double relu(double x) { return x < 0 ? 0 : x; }
double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }
double hardsigmoid(double x) {
    return std::min(std::max(x * static_cast<double>(1.0f / 6.0f) + 0.5, 0.0), 1.0);
}
/// The kernel's fp32 product overflows before its * (1/6): Hardswish(3.4e38) is inf.
double hardswish(double x) {
    const double product = std::max(x, -3.0) * std::min(std::max(x + 3, 0.0), 6.0);
    return (std::fabs(product) > FLT_MAX ? std::copysign(kInf, product) : product) / 6;
}
double silu(double x) { return x / (1 + std::exp(-x)); }
/// aclnnGelu.md's formula (the kernel computes its x / (1 + e^-2u) rewriting).
double gelu_tanh(double x) {
    return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
}
/// GeluV2's erf form with the kernel's fp32 argument x * 0.707106781f.
double gelu_erf(double x) {
    const double argument = static_cast<float>(static_cast<float>(x) * 0.707106781f);
    return (std::erf(argument) + 1) * (x * 0.5);
}
double elu(double x, double alpha, double scale, double inputScale) {
    return (x > 0 ? x : alpha * std::expm1(x * inputScale)) * scale;
}
double leaky_relu(double x, double slope) { return x > 0 ? x : x * slope; }
/// aclnnThreshold.md: x > threshold ? x : value (NaN is not greater: value).
double threshold(double x) { return x > kCut ? x : kReplacement; }
double softplus(double x, double beta, double threshold) {
    return beta * x > threshold ? x : std::log1p(std::exp(beta * x)) / beta;
}

template <class F>
Phase1 phase1_of(F f) {
    return [f](const aclTensor* self, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
        return f(self, out, size, executor);
    };
}

const std::vector<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const std::vector<aclDataType> kFloatsAndDouble = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16};

/// Scalars live as long as the table: they are made on first use, after ACL is up.
struct Scalars {
    Scalar alpha{kEluAlpha};
    Scalar scale{kEluScale};
    Scalar inputScale{kEluInputScale};
    Scalar slope{kSlope};
    Scalar beta{kBeta};
    Scalar threshold{kThreshold};
    Scalar cut{kCut};
    Scalar replacement{kReplacement};
};
const Scalars& scalars() {
    static const Scalars s;
    return s;
}

const std::vector<Activation>& operators() {
    const Scalars& s = scalars();
    static const std::vector<Activation> ops = {
        {"Relu", phase1_of(aclnnReluGetWorkspaceSize), aclnnRelu, aclnnInplaceReluGetWorkspaceSize, aclnnInplaceRelu,
         relu, -50, 50, {ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_UINT8, ACL_INT32, ACL_INT64, ACL_BF16}},
        {"Sigmoid", phase1_of(aclnnSigmoidGetWorkspaceSize), aclnnSigmoid, aclnnInplaceSigmoidGetWorkspaceSize,
         aclnnInplaceSigmoid, sigmoid, -8, 8,
         {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_BOOL, ACL_COMPLEX64,
          ACL_COMPLEX128, ACL_BF16, ACL_UINT8}},
        {"Hardsigmoid", phase1_of(aclnnHardsigmoidGetWorkspaceSize), aclnnHardsigmoid,
         aclnnInplaceHardsigmoidGetWorkspaceSize, aclnnInplaceHardsigmoid, hardsigmoid, -5, 5,
         {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_BF16}},
        {"Hardswish", phase1_of(aclnnHardswishGetWorkspaceSize), aclnnHardswish,
         aclnnInplaceHardswishGetWorkspaceSize, aclnnInplaceHardswish, hardswish, -5, 5, kFloats},
        {"Silu", phase1_of(aclnnSiluGetWorkspaceSize), aclnnSilu, nullptr, nullptr, silu, -10, 10, kFloats},
        {"Gelu", phase1_of(aclnnGeluGetWorkspaceSize), aclnnGelu, nullptr, nullptr, gelu_tanh, -5, 5, kFloats},
        {"GeluV2Tanh",
         [](const aclTensor* x, aclTensor* y, uint64_t* size, aclOpExecutor** executor) {
             return aclnnGeluV2GetWorkspaceSize(x, 1, y, size, executor);
         },
         aclnnGeluV2, nullptr, nullptr, gelu_tanh, -5, 5, kFloats},
        // 1 + erf(x) loses digits for x < 0 in fp32 as on the device: 2 ulps of erf times |x| / 2 at |x| <= 5.
        {"GeluV2Erf",
         [](const aclTensor* x, aclTensor* y, uint64_t* size, aclOpExecutor** executor) {
             return aclnnGeluV2GetWorkspaceSize(x, 0, y, size, executor);
         },
         aclnnGeluV2, nullptr, nullptr, gelu_erf, -5, 5, kFloats, 4e-7},
        {"Elu",
         [&s](const aclTensor* self, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
             return aclnnEluGetWorkspaceSize(self, s.alpha.get(), s.scale.get(), s.inputScale.get(), out, size,
                                             executor);
         },
         aclnnElu,
         [&s](aclTensor* selfRef, uint64_t* size, aclOpExecutor** executor) {
             return aclnnInplaceEluGetWorkspaceSize(selfRef, s.alpha.get(), s.scale.get(), s.inputScale.get(), size,
                                                    executor);
         },
         aclnnInplaceElu, [](double x) { return elu(x, kEluAlpha, kEluScale, kEluInputScale); }, -10, 10,
         kFloatsAndDouble},
        {"LeakyRelu",
         [&s](const aclTensor* self, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
             return aclnnLeakyReluGetWorkspaceSize(self, s.slope.get(), out, size, executor);
         },
         aclnnLeakyRelu,
         [&s](aclTensor* selfRef, uint64_t* size, aclOpExecutor** executor) {
             return aclnnInplaceLeakyReluGetWorkspaceSize(selfRef, s.slope.get(), size, executor);
         },
         aclnnInplaceLeakyRelu, [](double x) { return leaky_relu(x, kSlope); }, -50, 50, kFloatsAndDouble},
        {"Softplus",
         [&s](const aclTensor* self, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
             return aclnnSoftplusGetWorkspaceSize(self, s.beta.get(), s.threshold.get(), out, size, executor);
         },
         aclnnSoftplus, nullptr, nullptr, [](double x) { return softplus(x, kBeta, kThreshold); }, -12, 12,
         kFloats},
        {"Threshold",
         [&s](const aclTensor* self, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
             return aclnnThresholdGetWorkspaceSize(self, s.cut.get(), s.replacement.get(), out, size, executor);
         },
         aclnnThreshold,
         [&s](aclTensor* selfRef, uint64_t* size, aclOpExecutor** executor) {
             return aclnnInplaceThresholdGetWorkspaceSize(selfRef, s.cut.get(), s.replacement.get(), size, executor);
         },
         aclnnInplaceThreshold, threshold, -5, 5,
         {ACL_FLOAT, ACL_INT32, ACL_FLOAT16, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT64, ACL_BF16}},
    };
    return ops;
}

/// The operators' entry points, for the checks every unary operator passes.
std::vector<UnaryEntries> entries() { return {operators().begin(), operators().end()}; }

const Activation& op_named(const std::string& name) { return optest::op_named(operators(), name); }

/// The out dtype a listed self dtype is tested with: self's, except
/// Sigmoid's integers and BOOL (FLOAT: out's list has no integer).
aclDataType out_dtype(const Activation& op, aclDataType self) {
    return op.name == "Sigmoid" && is_integer(self) ? ACL_FLOAT : self;
}

/// The dtype CANN's graph computes in: self's, Sigmoid's integers at out's.
aclDataType compute_dtype(const Activation& op, aclDataType self, aclDataType out) {
    return op.name == "Sigmoid" && is_integer(self) ? out : self;
}

Complex reference(const Activation& op, Complex x, aclDataType self, aclDataType out) {
    const aclDataType compute = compute_dtype(op, self, out);
    const Complex input = held_in(x, compute);
    const Complex result = is_complex(compute) ? Complex(1) / (Complex(1) + std::exp(-input))  // Sigmoid
                                               : Complex(op.real(input.real()));
    return held_in(held_in(result, compute), out);
}

Tolerance tolerance(const Activation& op, aclDataType compute, aclDataType out) {
    Tolerance tol = compute == ACL_DOUBLE || compute == ACL_COMPLEX128 ? Tolerance{1e-12, 1e-14}
                    : out == ACL_COMPLEX64                            ? Tolerance{1e-5, 1e-6}
                                                                      : tolerance_for(compute);
    tol.atol = std::max(tol.atol, op.atol);
    return tol;
}

/// Values in [low, high) for self's dtype (the ranges of the operators
/// listing integers are whole numbers).
std::vector<Complex> inputs(const Activation& op, aclDataType self, size_t n, uint32_t seed) {
    return unary_inputs(self, op.low, op.high, n, seed);
}

/// What an out of dtype out holds for self's value x.
UnaryReference reference_into(const Activation& op, aclDataType self, aclDataType out) {
    return [&op, self, out](Complex x) { return reference(op, x, self, out); };
}
Tolerance tolerance_into(const Activation& op, aclDataType self, aclDataType out) {
    return tolerance(op, compute_dtype(op, self, out), out);
}

using Activations = UnaryFamilyTest;

TEST_F(Activations, EveryListedDtypeAgainstTheDoubleReference) { check_every_listed_dtype(operators()); }

// Sigmoid casts an integer self to out's dtype, whichever of out's list it is.
TEST_F(Activations, SigmoidComputesIntegersInOutsDtype) {
    const Activation& sigmoid = op_named("Sigmoid");
    for (aclDataType out : {ACL_FLOAT16, ACL_DOUBLE, ACL_COMPLEX64, ACL_BF16}) {
        check(sigmoid, TensorSpec({40}, ACL_INT32), TensorSpec({40}, out), inputs(sigmoid, ACL_INT32, 40, 3));
    }
}

// Hardswish, Elu, LeakyRelu and Softplus cast their result into any castable out.
TEST_F(Activations, ResultsCastIntoAWiderOut) {
    for (const char* name : {"Hardswish", "Elu", "LeakyRelu", "Softplus"}) {
        const Activation& op = op_named(name);
        check(op, TensorSpec({2, 9}, ACL_FLOAT16), TensorSpec({2, 9}, ACL_FLOAT), inputs(op, ACL_FLOAT16, 18, 5));
    }
    const Activation& elu = op_named("Elu");
    check(elu, TensorSpec({2, 9}, ACL_FLOAT), TensorSpec({2, 9}, ACL_DOUBLE), inputs(elu, ACL_FLOAT, 18, 5));
    // A complex out (CanCast admits it) takes the typed path: (y, 0).
    for (const char* name : {"Elu", "LeakyRelu", "Softplus"}) {
        const Activation& op = op_named(name);
        for (aclDataType out : {ACL_COMPLEX64, ACL_COMPLEX128}) {
            check(op, TensorSpec({2, 9}, ACL_FLOAT), TensorSpec({2, 9}, out), inputs(op, ACL_FLOAT, 18, 5));
        }
    }
}

// A transposed self at an offset into a larger storage, an out with gaps.
TEST_F(Activations, StridedAndOffsetViews) { check_strided_and_offset_views(operators()); }

TEST_F(Activations, LargeDenseTensorsUseEveryBlock) {
    for (const Activation& op : operators()) {
        for (aclDataType dtype : kFloats) {
            check(op, TensorSpec({1 << 17}, dtype), TensorSpec({1 << 17}, dtype), inputs(op, dtype, 1 << 17, 13));
        }
    }
}

TEST_F(Activations, InplaceFormsWriteSelfRef) {
    for (const Activation& op : operators()) {
        if (!op.inplace) continue;
        for (aclDataType dtype : op.dtypes) {
            if (op.name == "Sigmoid" && is_integer(dtype)) continue;  // not in selfRef's list
            check_unary_inplace(op, stream_, TensorSpec({10, 30}, dtype, {1, 10}), inputs(op, dtype, 300, 17),
                                reference_into(op, dtype, dtype), tolerance_into(op, dtype, dtype));
        }
    }
}

// aclnn_relu.cpp: a UINT8 Relu is a copy, and in place no work at all.
TEST_F(Activations, ReluOfUint8IsACopyAndInPlaceNothing) {
    DeviceTensor selfRef(TensorSpec({4}, ACL_UINT8), {0, 7, 200, 255});
    uint64_t workspace = 1;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnInplaceReluGetWorkspaceSize(selfRef.get(), &workspace, &executor), ACLNN_SUCCESS);
    EXPECT_EQ(workspace, 0u);
    ASSERT_EQ(run_phase2(aclnnInplaceRelu, workspace, executor, stream_), ACLNN_SUCCESS);
    EXPECT_EQ(selfRef.read(), (std::vector<double>{0, 7, 200, 255}));
    check(op_named("Relu"), TensorSpec({4}, ACL_UINT8), TensorSpec({4}, ACL_UINT8), {0, 7, 200, 255});
}

// IEEE's special values, in fp32 (the vector path, whose Highway functions
// hold on narrower ranges: without the guards exp(100) is not inf, log1p(inf)
// not inf, erf(inf) not 1) and in DOUBLE (the typed path).  The references
// are CANN's formulas, so Silu(-inf) and Gelu(-inf) are NaN, Hardswish(-inf) 0.
TEST_F(Activations, SpecialValuesFollowTheKernelsFormulas) {
    const std::vector<double> specials = {0.0,   -0.0,  kInf,  -kInf, kNaN,   1e-40, -1e-40, 3.0,    -3.0,
                                          44.0,  45.0,  88.0,  89.0,  100.0,  104.0, 120.0,  -88.0,  -90.0,
                                          -104.0, -200.0, 1e13, -1e13, 1e30,  -1e30, 3.4e38, -3.4e38};
    const std::vector<Complex> values(specials.begin(), specials.end());
    const Shape shape = {static_cast<int64_t>(values.size())};
    for (const Activation& op : operators()) {
        for (aclDataType dtype : {ACL_FLOAT, ACL_DOUBLE}) {
            if (lists(op, dtype)) check(op, TensorSpec(shape, dtype), TensorSpec(shape, dtype), values);
        }
    }
}

/// Runs op on self values (FLOAT) and returns out's.
std::vector<double> run_on(aclrtStream stream, const Phase1& phase1, Phase2 phase2, const std::vector<double>& x,
                           aclDataType dtype = ACL_FLOAT) {
    const Shape shape = {static_cast<int64_t>(x.size())};
    DeviceTensor self(TensorSpec(shape, dtype), x);
    auto out = DeviceTensor::output(TensorSpec(shape, dtype));
    const aclnnStatus status = run_two_phases(
        [&](uint64_t* size, aclOpExecutor** executor) { return phase1(self.get(), out->get(), size, executor); },
        phase2, stream, nullptr);
    EXPECT_EQ(status, ACLNN_SUCCESS) << aclGetRecentErrMsg();
    return out->read();
}

Phase1 elu_with(const Scalar& alpha, const Scalar& scale, const Scalar& inputScale) {
    return [&](const aclTensor* self, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
        return aclnnEluGetWorkspaceSize(self, alpha.get(), scale.get(), inputScale.get(), out, size, executor);
    };
}

// aclnn_elu.cpp, NeedInfNanHandling: an infinite or NaN alpha or inputScale
// replaces the kernel by Threshold(self, 0, -alpha) and Muls(scale), at FLOAT
// for every self dtype; a finite negative inputScale overflows to inf.
TEST_F(Activations, EluScalarsAtTheirEdges) {
    const std::vector<double> x = {-2, -0.5, 0, 0.5, 3, kNaN};
    const Scalar two(2.0), one(1.0), infinite(kInf), nan(kNaN), negative(-100.0);
    for (aclDataType dtype : {ACL_FLOAT, ACL_DOUBLE, ACL_FLOAT16}) {
        SCOPED_TRACE(dtype);
        // alpha = inf: -inf where x <= 0 (NaN included), x elsewhere, times scale 2.
        EXPECT_EQ(run_on(stream_, elu_with(infinite, two, one), aclnnElu, x, dtype),
                  (std::vector<double>{-kInf, -kInf, -kInf, 1, 6, -kInf}));
        // inputScale = inf: -alpha (-2) times scale 1.
        EXPECT_EQ(run_on(stream_, elu_with(two, one, infinite), aclnnElu, x, dtype),
                  (std::vector<double>{-2, -2, -2, 0.5, 3, -2}));
        const std::vector<double> nanAlpha = run_on(stream_, elu_with(nan, one, one), aclnnElu, x, dtype);
        EXPECT_TRUE(std::isnan(nanAlpha[0]) && std::isnan(nanAlpha[2]) && std::isnan(nanAlpha[5]));
        EXPECT_EQ(nanAlpha[3], 0.5);
    }
    // The same into a COMPLEX64 out, through the typed path.
    const Shape shape = {3};
    DeviceTensor self(TensorSpec(shape, ACL_FLOAT), {-2.0, 0.5, kNaN});
    auto out = DeviceTensor::output(TensorSpec(shape, ACL_COMPLEX64));
    ASSERT_EQ(run_two_phases(
                  [&](uint64_t* size, aclOpExecutor** executor) {
                      return elu_with(infinite, two, one)(self.get(), out->get(), size, executor);
                  },
                  aclnnElu, stream_, nullptr),
              ACLNN_SUCCESS);
    EXPECT_EQ(out->read_complex(), (std::vector<Complex>{{-kInf, 0}, {1, 0}, {-kInf, 0}}));
    // inputScale -100: e^(200) - 1 overflows where x = -2.
    EXPECT_EQ(run_on(stream_, elu_with(one, one, negative), aclnnElu, {-2.0, 0.0, 2.0}),
              (std::vector<double>{kInf, 0, 2}));
}

TEST_F(Activations, LeakyReluSlopesAtTheirEdges) {
    for (double slope : {0.0, -1.0, 3.0}) {
        const Scalar negativeSlope(slope);
        const std::vector<double> got = run_on(
            stream_,
            [&](const aclTensor* self, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
                return aclnnLeakyReluGetWorkspaceSize(self, negativeSlope.get(), out, size, executor);
            },
            aclnnLeakyRelu, {-2, -0.0, 4});
        EXPECT_EQ(got, (std::vector<double>{-2 * slope, -0.0 * slope, 4})) << slope;
    }
    // An integer negativeSlope is read as a float (its dtype is not checked).
    const Scalar integerSlope(2.0, ACL_INT32);
    EXPECT_EQ(run_on(
                  stream_,
                  [&](const aclTensor* self, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
                      return aclnnLeakyReluGetWorkspaceSize(self, integerSlope.get(), out, size, executor);
                  },
                  aclnnLeakyRelu, {-2.0}),
              std::vector<double>{-4.0});
}

// softplus_v2.h: x itself where beta x > threshold; elsewhere log1p(e^(beta x)) / beta in fp32,
// so with threshold = inf e^(beta x) overflows to inf from beta x = 88.8.
TEST_F(Activations, SoftplusThresholdSemantics) {
    const auto softplus_with = [&](double beta, double threshold, const std::vector<double>& x) {
        const Scalar b(beta), t(threshold);
        return run_on(
            stream_,
            [&](const aclTensor* self, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
                return aclnnSoftplusGetWorkspaceSize(self, b.get(), t.get(), out, size, executor);
            },
            aclnnSoftplus, x);
    };
    EXPECT_EQ(softplus_with(1, kInf, {100.0, 88.0, -kInf})[0], kInf);
    EXPECT_NEAR(softplus_with(1, kInf, {88.0})[0], 88.0, 1e-4);
    EXPECT_EQ(softplus_with(1, kInf, {-kInf})[0], 0.0);
    // threshold -1 with beta 2: every x above -0.5 passes through unchanged.
    EXPECT_EQ(softplus_with(2, -1, {-0.25, 0.0, 7.0}), (std::vector<double>{-0.25, 0.0, 7.0}));
    EXPECT_NEAR(softplus_with(2, -1, {-1.0})[0], std::log1p(std::exp(-2.0)) / 2, 1e-7);
    // softplus_v2_tiling.cpp, SafeInvBeta: a beta within FLT_EPSILON of 0 (of either sign) multiplies by +inf.
    for (double beta : {0.0, 1e-9, -1e-9}) {
        EXPECT_EQ(softplus_with(beta, 20, {-3.0, 0.0, 3.0}), (std::vector<double>{kInf, kInf, kInf})) << beta;
    }
    EXPECT_NEAR(softplus_with(-2, 20, {1.0})[0], std::log1p(std::exp(-2.0)) / -2, 1e-7);
    // A DOUBLE beta and an INT32 threshold cast to FLOAT self.
    const Scalar b(0.5, ACL_DOUBLE), t(20.0, ACL_INT32);
    const std::vector<double> got = run_on(
        stream_,
        [&](const aclTensor* self, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
            return aclnnSoftplusGetWorkspaceSize(self, b.get(), t.get(), out, size, executor);
        },
        aclnnSoftplus, {1.0, 50.0});
    EXPECT_NEAR(got[0], std::log1p(std::exp(0.5)) / 0.5, 1e-6);
    EXPECT_EQ(got[1], 50.0);
}

// aclnn_gelu_v2.cpp, GetApproximateStr: 1 is "tanh", every other value "none" (erf).
TEST_F(Activations, GeluV2ApproximateChoosesTheForm) {
    const std::vector<double> x = {-2.5, -1, 0.5, 2};
    for (int64_t approximate : {0, 1, 2, -1, 100}) {
        const std::vector<double> got = run_on(
            stream_,
            [&](const aclTensor* self, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
                return aclnnGeluV2GetWorkspaceSize(self, approximate, out, size, executor);
            },
            aclnnGeluV2, x);
        for (size_t i = 0; i < x.size(); ++i) {
            const double want = approximate == 1 ? gelu_tanh(x[i]) : gelu_erf(x[i]);
            EXPECT_NEAR(got[i], want, 1e-6) << approximate << " " << x[i];
            // The two forms differ by more than that here.
            EXPECT_GT(std::fabs(gelu_tanh(x[i]) - gelu_erf(x[i])), 1e-5);
        }
    }
}

// The vector erf (common/vector_math-inl.h, erf_of) against std::erf through
// GeluV2: for x >= 0, gelu = (1 + erf) x / 2 with 1 + erf in [1, 2], so
// gelu's relative error bounds erf's absolute error (with the two fp32
// roundings of the Add and Mul after it).  Measured on this grid: 1.44e-7
// for x >= 0, and for x < 0 an absolute error below 1.44e-7 |x| / 2.
TEST_F(Activations, GeluV2ErfIsAccurate) {
    std::vector<double> x;
    for (int i = 0; i < (1 << 16); ++i) x.push_back(static_cast<float>(i * (12.0 / (1 << 16))));  // [0, 12)
    const std::vector<double> got = run_on(
        stream_,
        [](const aclTensor* self, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
            return aclnnGeluV2GetWorkspaceSize(self, 0, out, size, executor);
        },
        aclnnGeluV2, x);
    double worst = 0;
    for (size_t i = 1; i < x.size(); ++i) worst = std::max(worst, std::fabs(got[i] / gelu_erf(x[i]) - 1));
    EXPECT_LT(worst, 2e-7);
    // Negative x: the absolute error of (1 + erf) x / 2 is that of erf times |x| / 2.
    std::vector<double> negative;
    for (double v : x) negative.push_back(-v);
    const std::vector<double> gotNegative = run_on(
        stream_,
        [](const aclTensor* self, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
            return aclnnGeluV2GetWorkspaceSize(self, 0, out, size, executor);
        },
        aclnnGeluV2, negative);
    for (size_t i = 1; i < x.size(); ++i) {
        ASSERT_LE(std::fabs(gotNegative[i] - gelu_erf(negative[i])), 2e-7 * x[i] / 2 + 1e-30) << negative[i];
    }
}

TEST_F(Activations, HardsigmoidOfInt32TruncatesToZeroOrOne) {
    // hard_sigmoid.cpp: fp32 affine and clamp, CAST_TRUNC back: only x >= 3 reaches 1.
    check(op_named("Hardsigmoid"), TensorSpec({6}, ACL_INT32), TensorSpec({6}, ACL_INT32),
          {-2147483648.0, -4, 2, 3, 4, 2147483647.0});
}

// aclnn_threshold.cpp: the scalars are converted into the compute dtype,
// which is INT32 for an INT16 self on A2 -- a threshold of 40000 stays 40000
// (in INT16 it would wrap to -25536 and pass every x); a FLOAT threshold of
// an integer self truncates (1.9 -> 1); the result is cast into any castable out.
TEST_F(Activations, ThresholdConvertsItsScalarsIntoTheComputeDtype) {
    const Scalar high(40000, ACL_INT32), seven(7, ACL_INT32), almostTwo(1.9), half(0.5);
    const auto with = [](const Scalar& cut, const Scalar& value) -> Phase1 {
        return [&cut, &value](const aclTensor* self, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
            return aclnnThresholdGetWorkspaceSize(self, cut.get(), value.get(), out, size, executor);
        };
    };
    EXPECT_EQ(run_on(stream_, with(high, seven), aclnnThreshold, {-2, 1, 2, 30000}, ACL_INT16),
              (std::vector<double>{7, 7, 7, 7}));
    EXPECT_EQ(run_on(stream_, with(almostTwo, seven), aclnnThreshold, {-2, 1, 2, 5}, ACL_INT32),
              (std::vector<double>{7, 7, 2, 5}));
    EXPECT_EQ(run_on(stream_, with(half, seven), aclnnThreshold, {kNaN, 0.5, 0.75, -kInf, kInf}),
              (std::vector<double>{7, 7, 0.75, 7, kInf}));
    // INT32 into a FLOAT out; FLOAT16 into DOUBLE.
    const Activation& op = op_named("Threshold");
    check(op, TensorSpec({30}, ACL_INT32), TensorSpec({30}, ACL_FLOAT), inputs(op, ACL_INT32, 30, 9));
    check(op, TensorSpec({30}, ACL_FLOAT16), TensorSpec({30}, ACL_DOUBLE), inputs(op, ACL_FLOAT16, 30, 9));
}

TEST_F(Activations, EmptyTensorsNeedNoWork) { expect_empty_tensors_need_no_work(entries(), stream_); }

// ---- error paths ---------------------------------------------------------

class ActivationErrors : public Activations {};

TEST_F(ActivationErrors, NullTensorsAndPointersAre161001) { expect_null_arguments_are_161001(entries()); }

// OP_CHECK_COMM_INPUT comes first in Hardsigmoid, Hardswish, Silu, Gelu,
// Softplus and Threshold; Relu, Sigmoid, GeluV2, Elu and LeakyRelu check their arguments
// first (their CANN code never checks the pointers: acl-cpu does after them).
TEST_F(ActivationErrors, ThePointersAreCheckedWhereCannChecksThem) {
    DeviceTensor self(TensorSpec({2}, ACL_UINT32));
    DeviceTensor out(TensorSpec({2}, ACL_UINT32));
    for (const Activation& op : operators()) {
        SCOPED_TRACE(op.name);
        aclOpExecutor* executor = nullptr;
        const bool pointersFirst = op.name == "Hardsigmoid" || op.name == "Hardswish" || op.name == "Silu" ||
                                   op.name == "Gelu" || op.name == "Softplus" || op.name == "Threshold";
        expect_error(op.phase1(self.get(), out.get(), nullptr, &executor),
                     pointersFirst ? ACLNN_ERR_PARAM_NULLPTR : ACLNN_ERR_PARAM_INVALID);
    }
}

TEST_F(ActivationErrors, NullScalarsAre161001) {
    DeviceTensor self(TensorSpec({2}, ACL_FLOAT));
    DeviceTensor out(TensorSpec({2}, ACL_FLOAT));
    const Scalar one(1.0);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    const aclScalar* s = one.get();
    expect_error(aclnnEluGetWorkspaceSize(self.get(), nullptr, s, s, out.get(), &workspace, &executor),
                 ACLNN_ERR_PARAM_NULLPTR);
    expect_error(aclnnEluGetWorkspaceSize(self.get(), s, nullptr, s, out.get(), &workspace, &executor),
                 ACLNN_ERR_PARAM_NULLPTR);
    expect_error(aclnnEluGetWorkspaceSize(self.get(), s, s, nullptr, out.get(), &workspace, &executor),
                 ACLNN_ERR_PARAM_NULLPTR);
    expect_error(aclnnInplaceEluGetWorkspaceSize(self.get(), s, s, nullptr, &workspace, &executor),
                 ACLNN_ERR_PARAM_NULLPTR);
    expect_error(aclnnLeakyReluGetWorkspaceSize(self.get(), nullptr, out.get(), &workspace, &executor),
                 ACLNN_ERR_PARAM_NULLPTR);
    expect_error(aclnnInplaceLeakyReluGetWorkspaceSize(self.get(), nullptr, &workspace, &executor),
                 ACLNN_ERR_PARAM_NULLPTR);
    expect_error(aclnnSoftplusGetWorkspaceSize(self.get(), nullptr, s, out.get(), &workspace, &executor),
                 ACLNN_ERR_PARAM_NULLPTR);
    expect_error(aclnnSoftplusGetWorkspaceSize(self.get(), s, nullptr, out.get(), &workspace, &executor),
                 ACLNN_ERR_PARAM_NULLPTR);
    expect_error(aclnnThresholdGetWorkspaceSize(self.get(), nullptr, s, out.get(), &workspace, &executor),
                 ACLNN_ERR_PARAM_NULLPTR);
    expect_error(aclnnThresholdGetWorkspaceSize(self.get(), s, nullptr, out.get(), &workspace, &executor),
                 ACLNN_ERR_PARAM_NULLPTR);
    expect_error(aclnnInplaceThresholdGetWorkspaceSize(self.get(), s, nullptr, &workspace, &executor),
                 ACLNN_ERR_PARAM_NULLPTR);
}

TEST_F(ActivationErrors, UnlistedDtypesAre161002) {
    for (const Activation& op : operators()) {
        for (aclDataType dtype : {ACL_UINT16, ACL_UINT32, ACL_INT16, ACL_INT32, ACL_UINT8, ACL_DOUBLE,
                                  ACL_COMPLEX64, ACL_BOOL}) {
            if (lists(op, dtype)) continue;
            SCOPED_TRACE(op.name + " " + std::to_string(dtype));
            DeviceTensor self(TensorSpec({2}, dtype));
            DeviceTensor out(TensorSpec({2}, dtype));
            expect_error(unary_phase1(op, self.get(), out.get()), ACLNN_ERR_PARAM_INVALID);
        }
    }
}

TEST_F(ActivationErrors, OutDtypesOutsideTheRulesAre161002) {
    DeviceTensor f32(TensorSpec({2}, ACL_FLOAT));
    DeviceTensor f16(TensorSpec({2}, ACL_FLOAT16));
    DeviceTensor i32(TensorSpec({2}, ACL_INT32));
    // out of self's dtype only.
    for (const char* name : {"Relu", "Hardsigmoid", "Silu", "Gelu", "GeluV2Tanh", "GeluV2Erf"}) {
        SCOPED_TRACE(name);
        expect_error(unary_phase1(op_named(name), f32.get(), f16.get()), ACLNN_ERR_PARAM_INVALID);
    }
    // out castable from self (or, for Sigmoid and Hardswish, in their out lists).
    for (const char* name : {"Sigmoid", "Hardswish", "Elu", "LeakyRelu", "Softplus", "Threshold"}) {
        SCOPED_TRACE(name);
        expect_error(unary_phase1(op_named(name), f32.get(), i32.get()), ACLNN_ERR_PARAM_INVALID);
        ASSERT_EQ(unary_phase1(op_named(name), f32.get(), f16.get()), ACLNN_SUCCESS);
    }
}

// CanCast admits an out of a dtype code no kernel stores (5 is unused): CANN's
// graph fails at l0op::Cast (ACLNN_ERR_INNER_NULLPTR), the unary engine with it
// (common/unary.hpp, hand_back_unary) rather than tiling by a zero element size.
TEST_F(ActivationErrors, AnOutDtypeNoKernelStoresIs561103) {
    const int64_t shape[] = {2};
    const int64_t strides[] = {1};
    DeviceBuffer buffer(64);
    DeviceTensor self(TensorSpec({2}, ACL_FLOAT));
    aclTensor* out = aclCreateTensor(shape, 1, static_cast<aclDataType>(5), strides, 0, ACL_FORMAT_ND, shape, 1,
                                     buffer.get());
    ASSERT_NE(out, nullptr);
    for (const char* name : {"Elu", "LeakyRelu", "Softplus"}) {
        SCOPED_TRACE(name);
        expect_error(unary_phase1(op_named(name), self.get(), out), ACLNN_ERR_INNER_NULLPTR);
    }
    aclDestroyTensor(out);
}

// acl-cpu's storage guard holds where CANN's op_api skips the kernel: a UINT8
// Relu in place whose view reaches outside its storage, and outside the
// device block (64 + 32 bytes) its data points into, is refused.
TEST_F(ActivationErrors, InplaceReluOfUint8StillGuardsItsStorage) {
    const int64_t shape[] = {4};
    const int64_t strides[] = {1};
    DeviceBuffer buffer(64);
    aclTensor* selfRef = aclCreateTensor(shape, 1, ACL_UINT8, strides, 94, ACL_FORMAT_ND, shape, 1, buffer.get());
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    expect_error(aclnnInplaceReluGetWorkspaceSize(selfRef, &workspace, &executor), ACLNN_ERR_PARAM_INVALID);
    aclDestroyTensor(selfRef);
}

TEST_F(ActivationErrors, ScalarsThatCannotCastAre161002) {
    DeviceTensor self(TensorSpec({2}, ACL_FLOAT));
    DeviceTensor out(TensorSpec({2}, ACL_FLOAT));
    const Scalar one(1.0), complex(Complex(1, 1), ACL_COMPLEX64);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    const aclScalar* s = one.get();
    const aclScalar* c = complex.get();
    // Elu's three scalars must cast to FLOAT; Softplus's two to self's dtype.
    for (int which = 0; which < 3; ++which) {
        expect_error(aclnnEluGetWorkspaceSize(self.get(), which == 0 ? c : s, which == 1 ? c : s, which == 2 ? c : s,
                                              out.get(), &workspace, &executor),
                     ACLNN_ERR_PARAM_INVALID);
    }
    expect_error(aclnnSoftplusGetWorkspaceSize(self.get(), c, s, out.get(), &workspace, &executor),
                 ACLNN_ERR_PARAM_INVALID);
    expect_error(aclnnSoftplusGetWorkspaceSize(self.get(), s, c, out.get(), &workspace, &executor),
                 ACLNN_ERR_PARAM_INVALID);
}

TEST_F(ActivationErrors, ShapeAndRankMismatchesAre161002) { expect_shape_and_rank_mismatches_are_161002(entries()); }

TEST_F(ActivationErrors, InplaceSigmoidChecksSelfRefAgainstOutsList) {
    DeviceTensor i32(TensorSpec({2}, ACL_INT32));
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    expect_error(aclnnInplaceSigmoidGetWorkspaceSize(i32.get(), &workspace, &executor), ACLNN_ERR_PARAM_INVALID);
}

// aclnn_gelu.cpp CheckFormat refuses a private format of either tensor (their
// formats may differ); aclnn_hardsigmoid.cpp wants the two formats equal.
TEST_F(ActivationErrors, FormatRulesOfGeluAndHardsigmoid) {
    const int64_t shape[] = {2, 2};
    const int64_t strides[] = {2, 1};
    DeviceBuffer buffer(64);
    DeviceBuffer outBuffer(64);
    aclTensor* nd = aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, buffer.get());
    aclTensor* nchw = aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_NCHW, shape, 2, outBuffer.get());
    aclTensor* nz = aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_FRACTAL_NZ, shape, 2, outBuffer.get());
    const Activation& gelu = op_named("Gelu");
    const Activation& hardsigmoid = op_named("Hardsigmoid");
    expect_error(unary_phase1(gelu, nd, nz), ACLNN_ERR_PARAM_INVALID);
    expect_error(unary_phase1(gelu, nz, nd), ACLNN_ERR_PARAM_INVALID);
    expect_error(unary_phase1(hardsigmoid, nd, nchw), ACLNN_ERR_PARAM_INVALID);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(gelu.phase1(nd, nchw, &workspace, &executor), ACLNN_SUCCESS);
    aclDestroyAclOpExecutor(executor);
    aclDestroyTensor(nd);
    aclDestroyTensor(nchw);
    aclDestroyTensor(nz);
}

TEST_F(ActivationErrors, ANullDataAddressFaultsInPhase2) { expect_null_data_address_faults(entries(), stream_); }

}  // namespace
