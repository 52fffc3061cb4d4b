// The pow family (PowTensorScalar, InplacePowTensorScalar, PowScalarTensor,
// PowTensorTensor, InplacePowTensorTensor) against double-precision
// references: every dtype of the A2 list (math/pow/op_api/aclnn_pow.cpp and
// aclnn_pow_tensor_tensor.cpp, DTYPE_SUPPORT_LIST), broadcasting both ways,
// scalar forms, strided and offset views, in-place aliasing, empty tensors,
// special values, and every error path with its code.
//
// A reference models CANN's graph: each operand cast to the compute dtype,
// pow in double (integers: the AICPU kernel's PowImpl, wrapping), the result
// rounded to the compute dtype and cast into out.
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

using Pow = AclTest;

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::nan("");

/// pow_aicpu.cpp, PowImpl of two integers: a negative exponent gives 1, +-1
/// or 0; otherwise the product, wrapped into t at every step.
double integer_pow(double base, double exponent, aclDataType t) {
    if (exponent < 0) {
        if (base == 1) return 1;
        if (base == -1) return std::fmod(-exponent, 2) == 0 ? 1 : -1;
        return 0;
    }
    double result = 1;
    for (int i = 0; i < static_cast<int>(exponent); ++i) result = wrap(result * base, t);
    return result;
}

/// base ^ exponent computed in dtype t.
double pow_in(double base, double exponent, aclDataType t) {
    if (is_integral(t)) return integer_pow(wrap(base, t), wrap(exponent, t), t);
    return in_dtype(std::pow(base, exponent), t);
}

/// The A2 list without BOOL (BOOL with BOOL is refused) and the complex
/// types (tested on their own).
const std::vector<aclDataType> kRealDtypes = {ACL_FLOAT, ACL_INT32,  ACL_INT64, ACL_FLOAT16, ACL_INT8,
                                              ACL_UINT8, ACL_DOUBLE, ACL_INT16, ACL_BF16};

std::vector<double> bases(aclDataType t, size_t n, uint32_t seed) {
    return is_integral(t) ? representable(uniform(n, t == ACL_UINT8 ? 0 : -4, 5, seed), t)
                          : uniform(n, 0.25, 3.0, seed);
}
std::vector<double> exponents(aclDataType t, size_t n, uint32_t seed) {
    std::vector<double> values = uniform(n, is_integral(t) ? 0 : -2.5, 5, seed);
    if (is_integral(t)) for (double& v : values) v = std::floor(v);
    return values;
}

BinaryLaunch tensor_tensor(aclrtStream stream) {
    return binary_launch(stream, aclnnPowTensorTensorGetWorkspaceSize, aclnnPowTensorTensor);
}

aclnnStatus pow_tensor_scalar(aclrtStream stream, const DeviceTensor& self, const Scalar& exponent,
                              DeviceTensor& out) {
    return run_aclnn(stream, aclnnPowTensorScalarGetWorkspaceSize, aclnnPowTensorScalar, self.get(), exponent.get(),
                     out.get());
}

aclnnStatus pow_scalar_tensor(aclrtStream stream, const Scalar& base, const DeviceTensor& exponent,
                              DeviceTensor& out) {
    return run_aclnn(stream, aclnnPowScalarTensorGetWorkspaceSize, aclnnPowScalarTensor, base.get(), exponent.get(),
                     out.get());
}

/// out = self ^ exponent elementwise, self's values given, of self's shape.
std::vector<double> powers_of(const std::vector<double>& values, double exponent, aclDataType compute,
                              aclDataType out) {
    std::vector<double> expected;
    for (double v : values) expected.push_back(cast(pow_in(v, exponent, compute), compute, out));
    return expected;
}

// aclnn_pow_tensor_tensor.cpp: both cast to PromoteType, l0op::Pow, Cast(out).
TEST_F(Pow, TensorTensorEveryDtypeBroadcastBothWays) {
    for (aclDataType t : kRealDtypes) {
        SCOPED_TRACE(name(t));
        check_binary(tensor_tensor(stream_), {{{4, 1}, t}, bases(t, 4, 1)}, {{{1, 5}, t}, exponents(t, 5, 2)},
                     {{4, 5}, t}, [t](double a, double b) { return pow_in(a, b, t); }, tolerance_for(t));
        check_binary(tensor_tensor(stream_), {{{3, 5}, t, {1, 3}, 2}, bases(t, 15, 3)},
                     {{{5}, t}, exponents(t, 5, 4)}, {{3, 5}, t},
                     [t](double a, double b) { return pow_in(a, b, t); }, tolerance_for(t));
    }
}

// PromoteType of INT32 and FLOAT is FLOAT (the typed path: INT32 is not
// exact in fp32 lanes); FLOAT16 with FLOAT computes in FLOAT.
TEST_F(Pow, TensorTensorPromotesMixedDtypes) {
    check_binary(tensor_tensor(stream_), {{{6}, ACL_INT32}, {-3, -2, 0, 2, 5, 16777217}},
                 {{{6}, ACL_FLOAT}, {2, 3, 0.5, -1, 1.5, 1}}, {{6}, ACL_FLOAT},
                 [](double a, double b) { return in_dtype(std::pow(in_dtype(a, ACL_FLOAT), b), ACL_FLOAT); },
                 tolerance_for(ACL_FLOAT));
    check_binary(tensor_tensor(stream_), {{{2, 3}, ACL_FLOAT16}, uniform(6, 0.5, 4, 5)},
                 {{{3}, ACL_FLOAT}, {0.3, 2.7, -1.1}}, {{2, 3}, ACL_DOUBLE},
                 [](double a, double b) { return in_dtype(std::pow(a, b), ACL_FLOAT); }, tolerance_for(ACL_FLOAT));
}

// C's pow rules (pow_aicpu.cpp computes with std::pow): pow(x, 0) = 1 even
// for NaN, pow(1, y) = 1, a negative base with a non-integer exponent NaN,
// odd integer powers keep the sign, 0 to a negative power is inf.
TEST_F(Pow, TensorTensorSpecialValues) {
    const std::vector<double> base = {kNaN, 1, -8, -2, 0, -0.0, kInf, -kInf, 2, 0.5};
    const std::vector<double> exponent = {0, kNaN, 1.0 / 3, 3, -1, -1, -1, 3, kInf, -kInf};
    for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}) {
        SCOPED_TRACE(name(t));
        check_binary(tensor_tensor(stream_), {{{10}, t}, base}, {{{10}, t}, exponent}, {{10}, t},
                     [t](double a, double b) { return in_dtype(std::pow(a, b), t); }, tolerance_for(t));
    }
}

// PowImpl: a negative exponent of an integer base is 1 for 1, +-1 for -1, 0
// otherwise (0 included); positive powers wrap.
TEST_F(Pow, IntegerNegativeExponentsAndWrapping) {
    const std::vector<double> base = {-2, -1, 0, 1, 2, -1, 100, 3};
    const std::vector<double> exponent = {-1, -3, -2, -5, -2, -2, 3, 5};
    for (aclDataType t : {ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64}) {
        SCOPED_TRACE(name(t));
        check_binary(tensor_tensor(stream_), {{{8}, t}, base}, {{{8}, t}, exponent}, {{8}, t},
                     [t](double a, double b) { return integer_pow(a, b, t); }, {0, 0});
    }
}

TEST_F(Pow, ComplexTensorTensor) {
    for (aclDataType t : {ACL_COMPLEX64, ACL_COMPLEX128}) {
        SCOPED_TRACE(name(t));
        const std::vector<Complex> base = {{1, 2}, {-3, 0.5}, {0.25, -1}};
        const std::vector<Complex> exponent = {{2, 0}, {0.5, 1}, {-1, 0}};
        DeviceTensor a({{3}, t}), b({{3}, t});
        a.write_complex(base);
        b.write_complex(exponent);
        auto out = DeviceTensor::output({{3}, t});
        ASSERT_EQ(tensor_tensor(stream_)(a, b, *out, nullptr), ACLNN_SUCCESS);
        const std::vector<Complex> got = out->read_complex();
        for (size_t i = 0; i < 3; ++i) {
            const Complex expected = std::pow(base[i], exponent[i]);
            EXPECT_NEAR(got[i].real(), expected.real(), 1e-5 * (1 + std::abs(expected)));
            EXPECT_NEAR(got[i].imag(), expected.imag(), 1e-5 * (1 + std::abs(expected)));
        }
    }
}

// aclnnInplacePowTensorTensor is the out-of-place form with self as out.
TEST_F(Pow, InplaceTensorTensorWritesSelf) {
    const std::vector<double> base = uniform(6, 0.5, 2, 7);
    DeviceTensor self({{2, 3}, ACL_FLOAT}, base);
    const DeviceTensor exponent({{3}, ACL_FLOAT}, {2, -1, 0.5});
    ASSERT_EQ(run_aclnn(stream_, aclnnInplacePowTensorTensorGetWorkspaceSize, aclnnInplacePowTensorTensor,
                        self.get(), exponent.get()),
              ACLNN_SUCCESS);
    std::vector<double> expected;
    for (size_t i = 0; i < 6; ++i) expected.push_back(std::pow(representable(base[i], ACL_FLOAT), (i % 3 == 0) ? 2 : (i % 3 == 1) ? -1 : 0.5));
    expect_close(self.read(), expected, tolerance_for(ACL_FLOAT));
    // The broadcast shape must be self's own (the out shape check).
    const DeviceTensor wide({{4, 2, 3}, ACL_FLOAT}, std::vector<double>(24, 1.0));
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    expect_error(aclnnInplacePowTensorTensorGetWorkspaceSize(self.get(), wide.get(), &ws, &ex),
                 ACLNN_ERR_PARAM_INVALID);
}

// aclnn_pow.cpp: Pows for FLOAT/FLOAT16/BF16 and 0.5, 2, 3, -0.5, -1, -2
// (fp32 Sqrt/Mul/Div), the exponent 1 skipped, Pow for the rest.
TEST_F(Pow, TensorScalarFloatsEveryPath) {
    for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}) {
        for (double e : {0.5, 2.0, 3.0, -0.5, -1.0, -2.0, 1.0, 2.5, -1.75, 0.0}) {
            SCOPED_TRACE(name(t) + " ^ " + std::to_string(e));
            const std::vector<double> values = representable(uniform(12, 0.25, 4, 11), t);
            const DeviceTensor self({{3, 4}, t, {1, 3}, 1, {16}}, values);
            auto out = DeviceTensor::output({{3, 4}, t});
            ASSERT_EQ(pow_tensor_scalar(stream_, self, Scalar(e, ACL_FLOAT), *out), ACLNN_SUCCESS);
            expect_close(out->read(), powers_of(values, e, t, t), tolerance_for(t));
            EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
        }
    }
}

// Pows computes sqrt and 1/sqrt, not pow: sqrt(-0) is -0 and 1/sqrt(-0)
// -inf where pow gives +0 and +inf; sqrt(-inf) is NaN where pow gives +inf
// (pows_base.h, ComputePowsBase).
TEST_F(Pow, TensorScalarPowsFollowsItsKernelAtSpecialValues) {
    for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        SCOPED_TRACE(name(t));
        const DeviceTensor self({{4}, t}, {-0.0, -kInf, 4, -4});
        auto out = DeviceTensor::output({{4}, t});
        ASSERT_EQ(pow_tensor_scalar(stream_, self, Scalar(0.5), *out), ACLNN_SUCCESS);
        const std::vector<double> root = out->read();
        expect_close(root, {0, kNaN, 2, kNaN}, {0, 0});
        EXPECT_TRUE(std::signbit(root[0]));
        ASSERT_EQ(pow_tensor_scalar(stream_, self, Scalar(-0.5), *out), ACLNN_SUCCESS);
        expect_close(out->read(), {-kInf, kNaN, 0.5, kNaN}, {0, 0});
        ASSERT_EQ(pow_tensor_scalar(stream_, self, Scalar(-1.0), *out), ACLNN_SUCCESS);
        expect_close(out->read(), {-kInf, -0.0, 0.25, -0.25}, {0, 0});
    }
}

// Complex self: Square for 2, Pow (std::pow) otherwise; a complex scalar
// promotes a real tensor (InferTensorScalarDtype) and a complex base a real
// exponent (InferScalarTensorDtype).
TEST_F(Pow, ComplexTensorScalarAndScalarTensor) {
    const std::vector<Complex> values = {{1, 2}, {-3, 0.5}, {0.25, -1}};
    DeviceTensor self({{3}, ACL_COMPLEX64});
    self.write_complex(values);
    const auto expect_complex = [](const std::vector<Complex>& got, const std::vector<Complex>& expected) {
        ASSERT_EQ(got.size(), expected.size());
        for (size_t i = 0; i < got.size(); ++i) {
            EXPECT_NEAR(got[i].real(), expected[i].real(), 1e-5 * (1 + std::abs(expected[i])));
            EXPECT_NEAR(got[i].imag(), expected[i].imag(), 1e-5 * (1 + std::abs(expected[i])));
        }
    };
    for (double e : {2.0, 0.5, 3.0}) {
        SCOPED_TRACE(e);
        auto out = DeviceTensor::output({{3}, ACL_COMPLEX64});
        ASSERT_EQ(pow_tensor_scalar(stream_, self, Scalar(e), *out), ACLNN_SUCCESS);
        std::vector<Complex> expected;
        for (const Complex& z : values) expected.push_back(e == 2.0 ? z * z : std::pow(z, e));
        expect_complex(out->read_complex(), expected);
    }
    const DeviceTensor reals({{3}, ACL_FLOAT}, {1, 2, -1});
    auto out = DeviceTensor::output({{3}, ACL_COMPLEX64});
    ASSERT_EQ(pow_tensor_scalar(stream_, reals, Scalar(Complex{0, 1}, ACL_COMPLEX64), *out), ACLNN_SUCCESS);
    expect_complex(out->read_complex(), {std::pow(Complex{1, 0}, Complex{0, 1}), std::pow(Complex{2, 0}, Complex{0, 1}),
                                         std::pow(Complex{-1, 0}, Complex{0, 1})});
    ASSERT_EQ(pow_scalar_tensor(stream_, Scalar(Complex{1, 1}, ACL_COMPLEX64), reals, *out), ACLNN_SUCCESS);
    expect_complex(out->read_complex(), {std::pow(Complex{1, 1}, 1.0), std::pow(Complex{1, 1}, 2.0),
                                         std::pow(Complex{1, 1}, -1.0)});
}

// Integers: Square for 2 (INT8/UINT8/INT16 through INT32, then cast into
// out, which wraps), Pow for the other exponents (an integer scalar keeps
// the tensor's dtype and is converted into it: -1 is 255 for UINT8).
TEST_F(Pow, TensorScalarIntegers) {
    for (aclDataType t : {ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64}) {
        for (double e : {2.0, 3.0, 0.0, 1.0, -1.0}) {
            SCOPED_TRACE(name(t) + " ^ " + std::to_string(e));
            const std::vector<double> values = {0, 1, 2, 3, 12, t == ACL_UINT8 ? 200.0 : -1.0, 100, 7};
            const DeviceTensor self({{8}, t}, representable(values, t));
            auto out = DeviceTensor::output({{8}, t});
            ASSERT_EQ(pow_tensor_scalar(stream_, self, Scalar(e, ACL_INT64), *out), ACLNN_SUCCESS);
            std::vector<double> expected;
            for (double v : representable(values, t)) expected.push_back(pow_in(v, e, t));
            expect_close(out->read(), expected, {0, 0});
        }
    }
}

// InferTensorScalarDtype: a DOUBLE exponent into a FLOAT out computes in
// FLOAT even for a FLOAT16 self; a floating exponent promotes an integer
// self; BOOL with an integer exponent promotes to it.
TEST_F(Pow, TensorScalarComputeDtypes) {
    const std::vector<double> values = representable(uniform(5, 1.1, 3, 13), ACL_FLOAT16);
    const DeviceTensor half({{5}, ACL_FLOAT16}, values);
    auto out = DeviceTensor::output({{5}, ACL_FLOAT});
    ASSERT_EQ(pow_tensor_scalar(stream_, half, Scalar(2.3, ACL_DOUBLE), *out), ACLNN_SUCCESS);
    expect_close(out->read(), powers_of(values, static_cast<float>(2.3), ACL_FLOAT, ACL_FLOAT), {1e-6, 0});

    const DeviceTensor ints({{4}, ACL_INT32}, {1, 2, 3, 4});
    auto floats = DeviceTensor::output({{4}, ACL_FLOAT});
    ASSERT_EQ(pow_tensor_scalar(stream_, ints, Scalar(0.5, ACL_FLOAT), *floats), ACLNN_SUCCESS);
    expect_close(floats->read(), {1, std::sqrt(2.0), std::sqrt(3.0), 2}, tolerance_for(ACL_FLOAT));

    const DeviceTensor flags({{3}, ACL_BOOL}, {0, 1, 1});
    auto longs = DeviceTensor::output({{3}, ACL_INT64});
    ASSERT_EQ(pow_tensor_scalar(stream_, flags, Scalar(3, ACL_INT64), *longs), ACLNN_SUCCESS);
    expect_close(longs->read(), {0, 1, 1}, {0, 0});
}

// Contiguous + Cast(FLOAT16) come before Pows: an INT32 2049 is 2048 when
// its square root is taken (sqrt 2048 = 45.25 in FLOAT16; sqrt 2049 would
// round to 45.28125).
TEST_F(Pow, TensorScalarCastsSelfToTheComputeDtypeFirst) {
    const DeviceTensor self({{2}, ACL_INT32}, {2049, 4});
    auto out = DeviceTensor::output({{2}, ACL_FLOAT16});
    ASSERT_EQ(pow_tensor_scalar(stream_, self, Scalar(0.5, ACL_FLOAT16), *out), ACLNN_SUCCESS);
    expect_close(out->read(), {45.25, 2}, {0, 0});
}

// The graph compares the exponent as a float: 1.00000001 is the skipped
// kernel (self cast into out as it is).
TEST_F(Pow, TensorScalarExponentOneAsFloatIsIdentity) {
    const DeviceTensor self({{3}, ACL_DOUBLE}, {1e10, 3, 0.1});
    auto out = DeviceTensor::output({{3}, ACL_DOUBLE});
    ASSERT_EQ(pow_tensor_scalar(stream_, self, Scalar(1.00000001, ACL_DOUBLE), *out), ACLNN_SUCCESS);
    expect_close(out->read(), {1e10, 3, 0.1}, {0, 0});
}

TEST_F(Pow, InplaceTensorScalarAndEmpty) {
    DeviceTensor self({{2, 2}, ACL_FLOAT}, {1, 2, 3, 4});
    const Scalar three(3.0);
    ASSERT_EQ(run_aclnn(stream_, aclnnInplacePowTensorScalarGetWorkspaceSize, aclnnInplacePowTensorScalar,
                        self.get(), three.get()),
              ACLNN_SUCCESS);
    expect_close(self.read(), {1, 8, 27, 64}, {0, 0});

    const DeviceTensor empty({{0, 3}, ACL_FLOAT});
    auto emptyOut = DeviceTensor::output({{0, 3}, ACL_FLOAT});
    uint64_t workspace = 1;
    EXPECT_EQ(pow_tensor_scalar(stream_, empty, three, *emptyOut), ACLNN_SUCCESS);
    EXPECT_EQ(pow_scalar_tensor(stream_, three, empty, *emptyOut), ACLNN_SUCCESS);
    EXPECT_EQ(tensor_tensor(stream_)(empty, DeviceTensor({{3}, ACL_FLOAT}, {1, 2, 3}), *emptyOut, &workspace),
              ACLNN_SUCCESS);
    EXPECT_EQ(workspace, 0u);
}

// PowScalarTensor (ggml's ALiBi slopes: a FLOAT base ^ a FLOAT tensor);
// InferScalarTensorDtype: a floating exponent keeps its dtype, an integer
// exponent with a floating base promotes, a DOUBLE exponent into a FLOAT
// out computes in FLOAT.
TEST_F(Pow, ScalarTensor) {
    for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}) {
        SCOPED_TRACE(name(t));
        const std::vector<double> e = representable(uniform(10, -3, 3, 17), t);
        const DeviceTensor exponent({{2, 5}, t, {1, 2}, 3, {16}}, e);
        auto out = DeviceTensor::output({{2, 5}, t});
        ASSERT_EQ(pow_scalar_tensor(stream_, Scalar(0.5, ACL_FLOAT), exponent, *out), ACLNN_SUCCESS);
        std::vector<double> expected;
        for (double v : e) expected.push_back(in_dtype(std::pow(0.5, v), t));
        expect_close(out->read(), expected, tolerance_for(t));
    }
    const DeviceTensor ints({{4}, ACL_INT32}, {-2, 0, 1, 10});
    auto out = DeviceTensor::output({{4}, ACL_FLOAT});
    ASSERT_EQ(pow_scalar_tensor(stream_, Scalar(2.0, ACL_FLOAT), ints, *out), ACLNN_SUCCESS);
    expect_close(out->read(), {0.25, 1, 2, 1024}, {0, 0});
    auto longs = DeviceTensor::output({{4}, ACL_INT32});
    ASSERT_EQ(pow_scalar_tensor(stream_, Scalar(3, ACL_INT64), ints, *longs), ACLNN_SUCCESS);
    expect_close(longs->read(), {0, 1, 3, 59049}, {0, 0});
}

// Every error path, in CANN's order: nulls 161001; dtypes outside the list,
// BOOL with BOOL, a compute dtype out cannot hold, shapes 161002.
TEST_F(Pow, Errors) {
    const DeviceTensor f({{2, 3}, ACL_FLOAT}, std::vector<double>(6, 1.0));
    const DeviceTensor b({{2, 3}, ACL_BOOL}, std::vector<double>(6, 1.0));
    const DeviceTensor u({{2, 3}, ACL_UINT16}, std::vector<double>(6, 1.0));
    const DeviceTensor i({{2, 3}, ACL_INT32}, std::vector<double>(6, 1.0));
    const DeviceTensor narrow({{4}, ACL_FLOAT}, std::vector<double>(4, 1.0));
    const DeviceTensor deep({{1, 1, 1, 1, 1, 1, 1, 1, 1}, ACL_FLOAT});
    const Scalar two(2.0), boolean(1, ACL_BOOL), unsignedScalar(2, ACL_UINT32);
    expect_each_null_is_161001(aclnnPowTensorTensorGetWorkspaceSize, f.get(), f.get(), f.get());
    expect_each_null_is_161001(aclnnPowTensorScalarGetWorkspaceSize, f.get(), two.get(), f.get());
    expect_each_null_is_161001(aclnnInplacePowTensorScalarGetWorkspaceSize, f.get(), two.get());
    expect_each_null_is_161001(aclnnPowScalarTensorGetWorkspaceSize, two.get(), f.get(), f.get());

    const auto tensor_tensor = [](const DeviceTensor& self, const DeviceTensor& exponent, const DeviceTensor& out) {
        return phase1_of(aclnnPowTensorTensorGetWorkspaceSize, self.get(), exponent.get(), out.get());
    };
    const auto tensor_scalar = [](const DeviceTensor& self, const Scalar& exponent, const DeviceTensor& out) {
        return phase1_of(aclnnPowTensorScalarGetWorkspaceSize, self.get(), exponent.get(), out.get());
    };
    const auto scalar_tensor = [](const Scalar& self, const DeviceTensor& exponent, const DeviceTensor& out) {
        return phase1_of(aclnnPowScalarTensorGetWorkspaceSize, self.get(), exponent.get(), out.get());
    };
    const std::vector<std::function<aclnnStatus()>> refused = {
        [&] { return tensor_tensor(b, b, f); }, [&] { return tensor_tensor(u, f, f); },
        [&] { return tensor_tensor(f, i, i); }, [&] { return tensor_tensor(f, narrow, f); },
        [&] { return tensor_tensor(f, f, narrow); }, [&] { return tensor_tensor(deep, deep, deep); },
        [&] { return tensor_scalar(u, two, f); }, [&] { return tensor_scalar(f, unsignedScalar, f); },
        [&] { return tensor_scalar(b, boolean, b); }, [&] { return tensor_scalar(f, two, i); },
        [&] { return tensor_scalar(f, two, narrow); }, [&] { return tensor_scalar(deep, two, deep); },
        [&] { return scalar_tensor(unsignedScalar, f, f); }, [&] { return scalar_tensor(boolean, b, b); },
        [&] { return scalar_tensor(two, f, i); }, [&] { return scalar_tensor(two, f, narrow); },
    };
    for (size_t call = 0; call < refused.size(); ++call) {
        SCOPED_TRACE("refused call " + std::to_string(call));
        expect_error(refused[call](), ACLNN_ERR_PARAM_INVALID);
    }
}

// acl-cpu's guard: a null device address faults in phase 2 (as the AI Core
// would), on both engines' paths.
TEST_F(Pow, NullDataAddressFaults) {
    NullAddressTensor self({4});
    const Scalar e(2.5);
    auto out = DeviceTensor::output({{4}, ACL_FLOAT});
    expect_phase2_faults(
        [&](uint64_t* ws, aclOpExecutor** ex) {
            return aclnnPowTensorScalarGetWorkspaceSize(self.get(), e.get(), out->get(), ws, ex);
        },
        aclnnPowTensorScalar, stream_, {out.get()});
}

}  // namespace
