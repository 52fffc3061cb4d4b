// aclnnDiv, aclnnDivs, aclnnDivMod, aclnnDivMods and their in-place forms
// (out = self / other, DivMod's quotient rounded as mode says) against
// double-precision references (arithmetic_test_support.hpp), after
// math/div/docs/aclnnDiv&aclnnInplaceDiv.md, aclnnDivs&aclnnInplaceDivs.md,
// aclnnDivMod&aclnnInplaceDivMod.md and aclnnDivMods&aclnnInplaceDivMods.md
// (hicann/ops-math); the A2 compute dtypes come from math/div/op_api/aclnn_div.cpp
// (HandleMixDataTypeDiv, CompatibleInferDivModeDtype) and RealDiv's output
// dtype in math/real_div/op_api/realdiv.cpp.
#include <cmath>
#include <limits>
#include <tuple>
#include <vector>

#include "aclnnop/aclnn_div.h"
#include "arithmetic_test_support.hpp"

namespace {

using namespace arith;

constexpr int kTrueDivision = -1;  ///< Div itself, not a DivMod mode

bool is_vector_float(aclDataType t) { return t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_BF16; }

/// The dtype CANN's A2 graph divides in.  Two of FLOAT16, FLOAT and BF16 go
/// to RealDiv / FloorDiv uncast (fp32 inside, the result in self's dtype when
/// alike, else FLOAT); otherwise a true quotient of integers or BOOL is
/// FLOAT, as is DivMod's mode 0/1 of DOUBLE and of integers (but an INT32
/// pair rounded toward zero stays INT32), and floor division keeps the
/// promoted dtype (BOOL: FLOAT).
aclDataType div_compute(aclDataType self, aclDataType other, int mode) {
    if (is_vector_float(self) && is_vector_float(other)) return self == other ? self : ACL_FLOAT;
    const aclDataType promoted = promote(self, other);
    if (mode == kTrueDivision) return is_floating(promoted) || is_complex(promoted) ? promoted : ACL_FLOAT;
    if (mode == 2) return promoted == ACL_BOOL ? ACL_FLOAT : promoted;
    if (is_vector_float(promoted) || is_complex(promoted)) return promoted;
    return self == ACL_INT32 && other == ACL_INT32 && mode == 1 ? ACL_INT32 : ACL_FLOAT;
}

/// a / b rounded as mode says, for operands already in compute.
auto quotient(int mode) {
    return [mode](auto a, auto b) { return round_quotient(a / b, mode); };
}

class Div : public ArithmeticTest {
protected:
    /// Div for kTrueDivision, else DivMod with mode.
    TensorLaunch div(int mode) {
        if (mode == kTrueDivision) return tensor_launch(aclnnDivGetWorkspaceSize, aclnnDiv);
        return tensor_launch(aclnnDivModGetWorkspaceSize, aclnnDivMod, mode);
    }
    ScalarLaunch divs(const Scalar& other, int mode) {
        if (mode == kTrueDivision) return scalar_launch(aclnnDivsGetWorkspaceSize, aclnnDivs, other.get());
        return scalar_launch(aclnnDivModsGetWorkspaceSize, aclnnDivMods, other.get(), mode);
    }
    static aclnnStatus div_mod_phase1(const DeviceTensor& self, const DeviceTensor& other, int mode,
                                      const DeviceTensor& out) {
        return phase1_of(aclnnDivModGetWorkspaceSize, self.get(), other.get(), mode, out.get());
    }
};

/// Dividends and divisors with both signs, integer and fractional
/// quotients, none of whose quotients lies just below an integer (where a
/// rounding to FLOAT16 before the truncation could cross it).
const std::vector<double> kDividends = {-7, 7, -6.5, 5, 0, -1, 9, -9, 3, 2.5, -2.5, 8};
const std::vector<double> kDivisors = {2, 2, -2, -3, 3, 4};

std::vector<double> magnitudes(std::vector<double> values) {
    for (double& v : values) v = std::fabs(v);
    return values;
}

/// Operands for dtype t: magnitudes where t has no sign, 0/1 for BOOL.
Input dividends(aclDataType t) {
    if (t == ACL_BOOL) return input({{2, 6}, t}, {1, 0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0});
    return input({{2, 6}, t}, t == ACL_UINT8 ? magnitudes(kDividends) : kDividends);
}
Input divisors(aclDataType t) {
    if (t == ACL_BOOL) return input({{6}, t}, {1, 1, 1, 1, 1, 1});
    return input({{6}, t}, t == ACL_UINT8 ? magnitudes(kDivisors) : kDivisors);
}

// ---------------------------------------------------------------------------
// Every dtype, every mode.

class DivEveryDtypeAndMode : public Div, public ::testing::WithParamInterface<std::tuple<aclDataType, int>> {};

TEST_P(DivEveryDtypeAndMode, QuotientInTheComputeDtypeCastIntoOut) {
    const auto [t, mode] = GetParam();
    // A true quotient of integers is FLOAT inside; out may still be self's
    // dtype (CANN checks the promoted dtype's cast into out), so 3.5 -> 3.
    const aclDataType compute = div_compute(t, t, mode);
    check_tensors(div(mode), dividends(t), divisors(t), {{2, 6}, t}, compute, quotient(mode));
}

/// Every listed dtype with Div and the three modes, but complex dtypes with
/// Div and mode 0 only (ComplexQuotientsCannotBeRounded checks the refusal).
std::vector<std::tuple<aclDataType, int>> every_dtype_and_mode() {
    std::vector<std::tuple<aclDataType, int>> cases;
    for (aclDataType t : kListedDtypes) {
        for (int mode : {kTrueDivision, 0, 1, 2}) {
            if (!is_complex(t) || mode <= 0) cases.emplace_back(t, mode);
        }
    }
    return cases;
}

INSTANTIATE_TEST_SUITE_P(Listed, DivEveryDtypeAndMode, ::testing::ValuesIn(every_dtype_and_mode()),
                         [](const auto& info) {
                             const int mode = std::get<1>(info.param);
                             return name(std::get<0>(info.param)) +
                                    (mode == kTrueDivision ? std::string("_Div") : "_Mode" + std::to_string(mode));
                         });

class DivMixedDtypes : public Div, public ::testing::WithParamInterface<DtypeCase> {};

TEST_P(DivMixedDtypes, EveryModeComputesInCannsDtype) {
    const DtypeCase c = GetParam();
    for (int mode : {kTrueDivision, 0, 1, 2}) {
        SCOPED_TRACE(mode);
        if (mode > 0 && (is_complex(c.self) || is_complex(c.other))) continue;
        check_tensors(div(mode), dividends(c.self), divisors(c.other), {{2, 6}, c.out},
                      div_compute(c.self, c.other, mode), quotient(mode));
    }
}

const std::vector<DtypeCase> kMixedCases = {
    // float with float
    {ACL_FLOAT16, ACL_FLOAT, ACL_FLOAT}, {ACL_BF16, ACL_FLOAT16, ACL_FLOAT}, {ACL_FLOAT, ACL_BF16, ACL_BF16},
    {ACL_DOUBLE, ACL_FLOAT, ACL_DOUBLE},
    // integer with integer
    {ACL_INT8, ACL_INT16, ACL_FLOAT}, {ACL_INT32, ACL_INT64, ACL_INT64},
    // integer with float
    {ACL_INT32, ACL_FLOAT16, ACL_FLOAT16}, {ACL_UINT8, ACL_BF16, ACL_FLOAT},
    // BOOL with others
    {ACL_BOOL, ACL_INT32, ACL_FLOAT}, {ACL_FLOAT, ACL_BOOL, ACL_FLOAT},
    // complex with real
    {ACL_COMPLEX64, ACL_FLOAT, ACL_COMPLEX64}, {ACL_INT16, ACL_COMPLEX128, ACL_COMPLEX128},
};

INSTANTIATE_TEST_SUITE_P(Table, DivMixedDtypes, ::testing::ValuesIn(kMixedCases), case_name);

// ---------------------------------------------------------------------------
// Rounding modes and division by zero.

TEST_F(Div, TruncAndFloorDifferForNegativeQuotients) {
    const std::vector<double> a = {-7, 7, 7, -7, 6}, b = {2, -2, 2, -2, -3};
    const std::vector<std::vector<double>> byMode = {{-3.5, -3.5, 3.5, 3.5, -2}, {-3, -3, 3, 3, -2}, {-4, -4, 3, 3, -2}};
    for (int mode : {0, 1, 2}) {
        for (aclDataType t : {ACL_FLOAT, ACL_DOUBLE, ACL_INT32}) {
            SCOPED_TRACE(name(t) + " mode " + std::to_string(mode));
            const DeviceTensor self({{5}, t}, a), other({{5}, t}, b);
            auto out = DeviceTensor::output({{5}, ACL_FLOAT});
            ASSERT_EQ(div(mode)(self, other, *out, nullptr), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            EXPECT_EQ(out->read(), byMode[static_cast<size_t>(mode)]);
        }
    }
}

TEST_F(Div, FloatDivisionByZeroFollowsIeee) {
    const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
    for (int mode : {kTrueDivision, 1, 2}) {
        for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE}) {
            SCOPED_TRACE(name(t) + " mode " + std::to_string(mode));
            const DeviceTensor self({{5}, t}, {1, -1, 0, 0, -0.0}), other({{5}, t}, {0, 0, 0, -1, 5});
            auto out = DeviceTensor::output({{5}, t});
            ASSERT_EQ(div(mode)(self, other, *out, nullptr), ACLNN_SUCCESS);
            expect_identical(out->read(), {inf, -inf, nan, -0.0, -0.0});
        }
    }
}

TEST_F(Div, IntegerTrueDivisionByZeroIsAFloatInfinity) {
    const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
    const DeviceTensor self({{3}, ACL_INT32}, {3, -3, 0}), other({{3}, ACL_INT64}, {0, 0, 0});
    auto out = DeviceTensor::output({{3}, ACL_FLOAT});
    ASSERT_EQ(div(kTrueDivision)(self, other, *out, nullptr), ACLNN_SUCCESS);
    expect_identical(out->read(), {inf, -inf, nan});
}

// An integer quotient by zero is what CANN's Cast makes of the floating
// quotient (+-inf, NaN): the dtype's max, its min, or 0.
TEST_F(Div, IntegerDivModByZeroSaturates) {
    for (int mode : {1, 2}) {
        for (aclDataType t : {ACL_INT32, ACL_INT8, ACL_INT64}) {
            SCOPED_TRACE(name(t) + " mode " + std::to_string(mode));
            const DeviceTensor self({{3}, t}, {5, -5, 0}), other({{3}, t}, {0, 0, 0});
            auto out = DeviceTensor::output({{3}, t}, 1);
            ASSERT_EQ(div(mode)(self, other, *out, nullptr), ACLNN_SUCCESS);
            const auto [lo, hi] = integer_range(t);
            EXPECT_EQ(out->read(), (std::vector<double>{hi, lo, 0}));
        }
    }
}

TEST_F(Div, FloorDivisionOfTheMostNegativeIntegerByMinusOneWraps) {
    const DeviceTensor self({{2}, ACL_INT8}, {-128, -127}), other({{2}, ACL_INT8}, {-1, -1});
    auto out = DeviceTensor::output({{2}, ACL_INT8}, 0);
    ASSERT_EQ(div(2)(self, other, *out, nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(out->read(), (std::vector<double>{-128, 127}));
}

TEST_F(Div, DivModOfDoubleComputesInFloatWithoutFloor) {
    // CANN's A2 DivMod casts DOUBLE to FLOAT for modes 0 and 1, but keeps it for 2.
    const DeviceTensor self({{1}, ACL_DOUBLE}, {1}), other({{1}, ACL_DOUBLE}, {3});
    for (int mode : {0, 2}) {
        auto out = DeviceTensor::output({{1}, ACL_DOUBLE});
        ASSERT_EQ(div(mode)(self, other, *out, nullptr), ACLNN_SUCCESS);
        EXPECT_EQ(out->read()[0], mode == 0 ? static_cast<double>(1.0f / 3.0f) : 0.0);
    }
    auto out = DeviceTensor::output({{1}, ACL_DOUBLE});
    ASSERT_EQ(div(kTrueDivision)(self, other, *out, nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(out->read()[0], 1.0 / 3.0);  // Div keeps DOUBLE
}

TEST_F(Div, ComplexQuotientsCannotBeRounded) {
    const DeviceTensor c64({{2}, ACL_COMPLEX64}), f32({{2}, ACL_FLOAT});
    for (int mode : {1, 2}) {
        expect_error_naming(div_mod_phase1(c64, f32, mode, c64), ACLNN_ERR_PARAM_INVALID, "COMPLEX");
    }
    check_tensors(div(0), input({{4}, ACL_COMPLEX64}, 40), input({{4}, ACL_COMPLEX128}, 41, 1, 3),
                  {{4}, ACL_COMPLEX128}, ACL_COMPLEX128, quotient(0));
}

TEST_F(Div, ModeOutsideZeroToTwoIsRefused) {
    const DeviceTensor f32({{2}, ACL_FLOAT});
    for (int mode : {-1, 3, 1000}) {
        expect_error_naming(div_mod_phase1(f32, f32, mode, f32), ACLNN_ERR_PARAM_INVALID,
                            "current is " + std::to_string(mode));
    }
}

// ---------------------------------------------------------------------------
// Scalar forms (aclnnDivs / aclnnDivMods in aclnn_div.cpp on A2).

TEST_F(Div, DivsRules) {
    // A FLOAT16 tensor over a FLOAT scalar: the unlike pair runs uncast, the
    // scalar a float, the quotient rounded once to FLOAT16.
    const Scalar third(3.0, ACL_FLOAT);
    check_scalar(divs(third, kTrueDivision), input({{11}, ACL_FLOAT16}, 50), {{11}, ACL_FLOAT16}, ACL_FLOAT,
                 [](auto x) { return x / decltype(x)(3); });
    // An INT32 tensor over an INT32 scalar is a FLOAT quotient; A2 checks only
    // self's cast into out, so an INT32 out takes the quotient toward zero.
    const Scalar two(2.0, ACL_INT32);
    check_scalar(divs(two, kTrueDivision), input({{11}, ACL_INT32}, 51, -9, 9), {{11}, ACL_INT32}, ACL_FLOAT,
                 [](auto x) { return x / decltype(x)(2); });
    // A DOUBLE tensor over a FLOAT scalar keeps DOUBLE.
    const Scalar tenth(0.1, ACL_FLOAT);
    check_scalar(divs(tenth, kTrueDivision), input({{5}, ACL_DOUBLE}, 52), {{5}, ACL_DOUBLE}, ACL_DOUBLE,
                 [](auto x) { return x / decltype(x)(static_cast<float>(0.1)); });
}

TEST_F(Div, DivModsRoundsInTheRuleDtype) {
    const Scalar minusTwo(-2.0, ACL_INT32);
    for (int mode : {0, 1, 2}) {
        SCOPED_TRACE(mode);
        // INT32 by an INT32 scalar: FLOAT for mode 0, INT32 for modes 1 and 2.
        const aclDataType compute = mode == 0 ? ACL_FLOAT : ACL_INT32;
        check_scalar(divs(minusTwo, mode), input({{12}, ACL_INT32}, kDividends), {{12}, ACL_FLOAT}, compute,
                     [&](auto x) { return round_quotient(x / decltype(x)(-2), mode); });
    }
}

TEST_F(Div, DivsRefusesUnlistedScalarAndUncastableSelf) {
    const Scalar u16(2.0, ACL_UINT16), f(2.0);
    const DeviceTensor f32({{2}, ACL_FLOAT}), i32({{2}, ACL_INT32});
    const auto divs_phase1 = [&](const DeviceTensor& self, const Scalar& other, const DeviceTensor& out) {
        return phase1_of(aclnnDivsGetWorkspaceSize, self.get(), other.get(), out.get());
    };
    expect_error_naming(divs_phase1(f32, u16, f32), ACLNN_ERR_PARAM_INVALID, "DT_UINT16");
    expect_error_naming(divs_phase1(f32, f, i32), ACLNN_ERR_PARAM_INVALID, "DT_INT32");
    expect_error_naming(phase1_of(aclnnDivModsGetWorkspaceSize, f32.get(), f.get(), 5, f32.get()),
                        ACLNN_ERR_PARAM_INVALID, "mode");
}

// ---------------------------------------------------------------------------
// In place, views, shapes, empty tensors, errors.

TEST_F(Div, InplaceFormsWriteSelfRef) {
    const InplaceLaunch inplaceDiv = inplace_launch(aclnnInplaceDivGetWorkspaceSize, aclnnInplaceDiv);
    check_inplace(inplaceDiv, input({{3, 4}, ACL_FLOAT, {1, 3}}, 60), input({{4}, ACL_FLOAT}, 61, 1, 4), ACL_FLOAT,
                  quotient(kTrueDivision));
    const InplaceLaunch inplaceFloor = inplace_launch(aclnnInplaceDivModGetWorkspaceSize, aclnnInplaceDivMod, 2);
    check_inplace(inplaceFloor, dividends(ACL_INT16), divisors(ACL_INT16), ACL_INT16, quotient(2));
    const Scalar four(4.0, ACL_FLOAT);
    const InplaceScalarLaunch inplaceDivs = inplace_scalar_launch(aclnnInplaceDivsGetWorkspaceSize,
                                                                  aclnnInplaceDivs, four.get());
    check_inplace_scalar(inplaceDivs, input({{7}, ACL_FLOAT, {2}, 1}, 62), ACL_FLOAT, [](auto x) { return x / decltype(x)(4); });
    const Scalar three(3.0, ACL_INT64);
    const InplaceScalarLaunch inplaceTrunc = inplace_scalar_launch(aclnnInplaceDivModsGetWorkspaceSize,
                                                                   aclnnInplaceDivMods, three.get(), 1);
    check_inplace_scalar(inplaceTrunc, input({{9}, ACL_FLOAT}, 63, -9, 9), ACL_FLOAT,
                         [](auto x) { return round_quotient(x / decltype(x)(3), 1); });
}

TEST_F(Div, InplaceDivRefusesSelfRefSmallerThanTheBroadcast) {
    const DeviceTensor selfRef({{3}, ACL_FLOAT}), other({{2, 3}, ACL_FLOAT});
    expect_error_naming(phase1_of(aclnnInplaceDivModGetWorkspaceSize, selfRef.get(), other.get(), 0),
                        ACLNN_ERR_PARAM_INVALID, "selfRef");
    // aclnn_div.cpp runs CheckInplace before anything reads workspaceSize or
    // executor: a null one does not hide the shape error.
    aclOpExecutor* executor = nullptr;
    expect_error_naming(aclnnInplaceDivGetWorkspaceSize(selfRef.get(), other.get(), nullptr, &executor),
                        ACLNN_ERR_PARAM_INVALID, "selfRef");
    uint64_t size = 0;
    expect_error_naming(aclnnInplaceDivModGetWorkspaceSize(selfRef.get(), other.get(), 0, &size, nullptr),
                        ACLNN_ERR_PARAM_INVALID, "selfRef");
}

TEST_F(Div, BroadcastsAcrossEightDimensionsIntoAnOffsetOut) {
    check_tensors(div(2), input({{2, 1, 2, 1, 2, 1, 2, 3}, ACL_INT32}, 70, -20, 20),
                  input({{3, 1, 1, 1, 3}, ACL_INT32}, 71, 1, 5), {{2, 1, 2, 3, 2, 1, 2, 3}, ACL_INT32, {}, 7},
                  ACL_INT32, quotient(2));
}

TEST_F(Div, ShapeRankAndFormatErrors) {
    const DeviceTensor a({{2, 3}, ACL_FLOAT}), b({{4}, ACL_FLOAT}), nine({rank9(), ACL_FLOAT});
    expect_error_naming(div_mod_phase1(a, b, 0, a), ACLNN_ERR_PARAM_INVALID, "[4]");
    expect_error_naming(div_mod_phase1(nine, a, 0, nine), ACLNN_ERR_PARAM_INVALID, "self");
    expect_error_naming(div_mod_phase1(a, a, 0, b), ACLNN_ERR_PARAM_INVALID, "out");
    // A format outside ND, NCHW, NHWC, HWCN, NDHWC and NCDHW.
    const Shape shape{2, 3};
    const DeviceBuffer storage(6 * sizeof(float));
    aclTensor* fractal = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, nullptr, 0, ACL_FORMAT_NC1HWC0,
                                         shape.data(), shape.size(), storage.get());
    ASSERT_NE(fractal, nullptr);
    expect_error_naming(phase1_of(aclnnDivGetWorkspaceSize, fractal, a.get(), a.get()),
                        ACLNN_ERR_PARAM_INVALID, "Format");
    aclDestroyTensor(fractal);
}

TEST_F(Div, EmptyTensorsSucceedEvenWithAComplexRoundedQuotient) {
    // CANN returns the empty executor before it refuses a complex mode 1 or 2.
    const DeviceTensor self({{0, 2}, ACL_COMPLEX64}), other({{2}, ACL_COMPLEX64});
    auto out = DeviceTensor::output({{0, 2}, ACL_COMPLEX64});
    expect_empty_success([&](uint64_t* ws, aclOpExecutor** e) {
        return aclnnDivModGetWorkspaceSize(self.get(), other.get(), 2, out->get(), ws, e);
    }, aclnnDivMod, out.get());
    const Scalar two(2.0);
    const DeviceTensor empty({{3, 0}, ACL_FLOAT});
    expect_empty_success([&](uint64_t* ws, aclOpExecutor** e) {
        return aclnnDivsGetWorkspaceSize(empty.get(), two.get(), empty.get(), ws, e);
    }, aclnnDivs);
}

// OP_CHECK_NULL's names in math/div/op_api (a selfRef the in-place forms
// hand on as self: "self" names it either way).
TEST_F(Div, NullArgumentsAreRefusedByName) {
    const NullNames nulls(2.0);
    nulls.expect_out_of_place(aclnnDivGetWorkspaceSize, aclnnDivsGetWorkspaceSize);
    nulls.expect_out_of_place(aclnnDivModGetWorkspaceSize, aclnnDivModsGetWorkspaceSize, 0);
    nulls.expect_in_place(aclnnInplaceDivGetWorkspaceSize, "selfRef", aclnnInplaceDivsGetWorkspaceSize);
    nulls.expect_in_place(aclnnInplaceDivModGetWorkspaceSize, "self", aclnnInplaceDivModsGetWorkspaceSize, 1);
}

}  // namespace
