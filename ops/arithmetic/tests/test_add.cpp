// aclnnAdd, aclnnAdds, aclnnInplaceAdd, aclnnInplaceAdds, aclnnAddV3 and
// aclnnInplaceAddV3 (out = self + alpha * other) against double-precision
// references (arithmetic_test_support.hpp): every dtype, every class of the
// promotion table, alpha on each of CANN's A2 paths, the tensor-scalar
// rules, broadcasting, views, in-place aliasing, special values, empty
// tensors and every error path of math/add/docs/aclnnAdd&aclnnInplaceAdd.md,
// aclnnAdds.md, aclnnInplaceAdds.md and aclnnAddV3&aclnnInplaceAddV3.md
// (hicann/ops-math).
#include <cmath>
#include <limits>
#include <vector>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_add_v3.h"
#include "arithmetic_test_support.hpp"

namespace {

using namespace arith;

/// Where CANN's A2 Add applies alpha (math/add/op_api/aclnn_add.cpp): alpha
/// compared with 1 as a float; Axpy for FLOAT and FLOAT16 (and INT32, where
/// the integer alpha makes Axpy and Mul-then-Add agree); else Mul then Add.
AlphaStep add_step(double alpha, aclDataType compute) {
    if (static_cast<float>(alpha) == 1.0f) return AlphaStep::one;
    return compute == ACL_FLOAT || compute == ACL_FLOAT16 ? AlphaStep::fused : AlphaStep::separate;
}

/// The reference a + alpha * b for operands already in compute.
auto plus_alpha(double alpha, aclDataType alphaDtype, aclDataType compute) {
    const AlphaStep step = add_step(alpha, compute);
    return [=](auto a, auto b) { return a + scaled(b, step, Complex(alpha), alphaDtype, compute); };
}

class Add : public ArithmeticTest {
protected:
    TensorLaunch add(const Scalar& alpha) {
        return tensor_launch(aclnnAddGetWorkspaceSize, aclnnAdd, alpha.get());
    }
    InplaceLaunch inplace_add(const Scalar& alpha) {
        return inplace_launch(aclnnInplaceAddGetWorkspaceSize, aclnnInplaceAdd, alpha.get());
    }
    ScalarLaunch adds(const Scalar& other, const Scalar& alpha) {
        return scalar_launch(aclnnAddsGetWorkspaceSize, aclnnAdds, other.get(), alpha.get());
    }
    /// AddV3: the scalar is self, the tensor other.
    ScalarLaunch add_v3(const Scalar& self, const Scalar& alpha) {
        aclScalar* s = self.get();
        aclScalar* a = alpha.get();
        return scalar_launch([s, a](auto other, auto out, auto ws, auto e) {
            return aclnnAddV3GetWorkspaceSize(s, other, a, out, ws, e);
        }, aclnnAddV3);
    }
    /// aclnnAdd's phase 1 on the given tensors, for the error paths.
    static aclnnStatus add_phase1(const DeviceTensor& self, const DeviceTensor& other, const Scalar& alpha,
                                  const DeviceTensor& out) {
        return phase1_of(aclnnAddGetWorkspaceSize, self.get(), other.get(), alpha.get(), out.get());
    }
};

// ---------------------------------------------------------------------------
// Every listed dtype with itself: compute in that dtype.

class AddSameDtype : public Add, public ::testing::WithParamInterface<aclDataType> {};

TEST_P(AddSameDtype, TensorPlusBroadcastTensor) {
    const aclDataType t = GetParam();
    for_each_alpha({1.0, 2.0}, ACL_INT64, [&](const Scalar& a, double alpha) {
        check_tensors(add(a), input({{3, 1, 5}, t}, 1), input({{4, 1}, t}, 2), {{3, 4, 5}, t}, t,
                      plus_alpha(alpha, ACL_INT64, t));
    });
}

TEST_P(AddSameDtype, InplaceAddWritesSelfRef) {
    const aclDataType t = GetParam();
    const Scalar a(2.0, ACL_INT64);
    check_inplace(inplace_add(a), input({{4, 6}, t}, 3), input({{6}, t}, 4), t, plus_alpha(2.0, ACL_INT64, t));
}

TEST_P(AddSameDtype, AddsWithScalarOfTheSameDtype) {
    const aclDataType t = GetParam();
    const Complex value = is_complex(t) ? Complex(1.5, -2) : Complex(t == ACL_BOOL ? 1 : 3);
    const Scalar other(value, t), alpha(1.0, ACL_INT64);
    check_scalar(adds(other, alpha), input({{2, 7}, t}, 5), {{2, 7}, t}, t,
                 [&](auto x) { return x + as<decltype(x)>(cast(value, t, t)); });
}

INSTANTIATE_TEST_SUITE_P(Listed, AddSameDtype, ::testing::ValuesIn(kListedDtypes),
                         [](const auto& info) { return name(info.param); });

// ---------------------------------------------------------------------------
// Mixed dtypes: one case per class of table 1 of deduction_relationship.md.

const std::vector<DtypeCase> kMixedCases = {
    // float with float
    {ACL_FLOAT16, ACL_FLOAT, ACL_FLOAT}, {ACL_BF16, ACL_FLOAT, ACL_FLOAT}, {ACL_FLOAT16, ACL_BF16, ACL_FLOAT},
    {ACL_FLOAT, ACL_DOUBLE, ACL_DOUBLE}, {ACL_BF16, ACL_DOUBLE, ACL_DOUBLE},
    // integer with integer
    {ACL_INT8, ACL_UINT8, ACL_INT16}, {ACL_UINT8, ACL_INT16, ACL_INT16}, {ACL_INT16, ACL_INT32, ACL_INT64},
    {ACL_INT32, ACL_INT64, ACL_INT64}, {ACL_INT8, ACL_INT64, ACL_INT64},
    // integer with float (the float wins, whatever its width)
    {ACL_INT32, ACL_FLOAT16, ACL_FLOAT16}, {ACL_INT64, ACL_BF16, ACL_BF16}, {ACL_UINT8, ACL_DOUBLE, ACL_DOUBLE},
    {ACL_INT8, ACL_FLOAT, ACL_FLOAT}, {ACL_INT16, ACL_FLOAT16, ACL_FLOAT},
    // BOOL with others
    {ACL_BOOL, ACL_INT8, ACL_INT8}, {ACL_UINT8, ACL_BOOL, ACL_UINT8}, {ACL_BOOL, ACL_FLOAT16, ACL_FLOAT16},
    {ACL_BF16, ACL_BOOL, ACL_FLOAT}, {ACL_INT32, ACL_BOOL, ACL_INT64}, {ACL_BOOL, ACL_COMPLEX64, ACL_COMPLEX64},
    // complex with real and complex
    {ACL_COMPLEX64, ACL_FLOAT, ACL_COMPLEX64}, {ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128},
    {ACL_COMPLEX128, ACL_INT32, ACL_COMPLEX128}, {ACL_COMPLEX64, ACL_COMPLEX128, ACL_COMPLEX128},
    {ACL_FLOAT16, ACL_COMPLEX64, ACL_COMPLEX64},
    // a promoted dtype cast into a wider out
    {ACL_INT8, ACL_INT8, ACL_FLOAT}, {ACL_FLOAT16, ACL_FLOAT16, ACL_COMPLEX128},
};

class AddMixedDtypes : public Add, public ::testing::WithParamInterface<DtypeCase> {};

TEST_P(AddMixedDtypes, ComputeInThePromotedDtype) {
    const DtypeCase c = GetParam();
    const aclDataType compute = promote(c.self, c.other);
    for_each_alpha({1.0, 3.0}, ACL_INT64, [&](const Scalar& a, double alpha) {
        check_tensors(add(a), input({{2, 3, 4}, c.self}, 10), input({{3, 1}, c.other}, 11), {{2, 3, 4}, c.out},
                      compute, plus_alpha(alpha, ACL_INT64, compute));
    });
}

INSTANTIATE_TEST_SUITE_P(Table, AddMixedDtypes, ::testing::ValuesIn(kMixedCases), case_name);

// CANN's op_api refuses a floating or complex promoted dtype into an integer,
// BOOL or real out (its CanCast, and the UT of math/add/tests/ut/op_api:
// FLOAT + FLOAT into INT32 -> 161002), although conversion_relationship.md
// lists float -> integer and complex -> float as convertible.
TEST_F(Add, PromotedDtypeThatCannotCastIntoOutIsRefused) {
    const Scalar alpha(1.0, ACL_INT64);
    const std::vector<DtypeCase> cases = {{ACL_FLOAT, ACL_FLOAT, ACL_INT32},
                                          {ACL_INT32, ACL_FLOAT16, ACL_INT64},
                                          {ACL_COMPLEX64, ACL_FLOAT, ACL_FLOAT},
                                          {ACL_INT32, ACL_INT32, ACL_BOOL}};
    for (const DtypeCase& c : cases) {
        SCOPED_TRACE(name(c.self) + " + " + name(c.other) + " -> " + name(c.out));
        const DeviceTensor self({{2}, c.self}), other({{2}, c.other}), out({{2}, c.out});
        expect_error_naming(add_phase1(self, other, alpha, out), ACLNN_ERR_PARAM_INVALID, name(c.out));
    }
}

// CanCast admits an integer sum into an unsigned out: the sum is wrapped
// into it.  Such outs were once written as FLOAT, past their elements
// (found by fuzzing).  COMPLEX32, which CanCast admits too, has no kernel
// in acl-cpu and is refused.
TEST_F(Add, IntegerSumIntoAnUnsignedOutWraps) {
    const Scalar alpha(1.0, ACL_INT64);
    const auto plus = [](auto a, auto b) { return a + b; };
    for (const aclDataType outDtype : {ACL_UINT16, ACL_UINT32}) {
        SCOPED_TRACE(name(outDtype));
        check_tensors(add(alpha), input({{5}, ACL_INT32}, {-3, -1, 0, 70000, 2}),
                      input({{5}, ACL_INT32}, {1, 0, 0, 1, -5}), {{5}, outDtype}, ACL_INT32, plus);
    }
    check_tensors(add(alpha), input({{3}, ACL_INT64}, {0, 1, 1e15}), input({{3}, ACL_INT64}, {5, 7, 3}),
                  {{3}, ACL_UINT64}, ACL_INT64, plus);
    const DeviceTensor self({{2}, ACL_INT32}), complex32({{2}, ACL_COMPLEX32});
    expect_error_naming(add_phase1(self, self, alpha, complex32), ACLNN_ERR_PARAM_INVALID, "out");
}

TEST_F(Add, DtypeOutsideTheSupportListIsRefused) {
    const Scalar alpha(1.0);
    const DeviceTensor f32({{2}, ACL_FLOAT}), u16({{2}, ACL_UINT16}), u32({{2}, ACL_UINT32});
    const std::string selfMessage = expect_error_naming(add_phase1(u16, f32, alpha, f32), ACLNN_ERR_PARAM_INVALID, "DT_UINT16");
    EXPECT_NE(selfMessage.find("self"), std::string::npos) << selfMessage;
    const std::string otherMessage = expect_error_naming(add_phase1(f32, u32, alpha, f32), ACLNN_ERR_PARAM_INVALID, "DT_UINT32");
    EXPECT_NE(otherMessage.find("other"), std::string::npos) << otherMessage;
}

// ---------------------------------------------------------------------------
// alpha.

// FLOAT16 goes through Axpy: alpha stays a float (1 + 2^-12, which FLOAT16
// rounds to 1) and the product is not rounded, so -2048 + alpha * 2048 is
// 0.5.  BF16 takes Mul then Add in BF16: alpha becomes 1 and the sum 0.
TEST_F(Add, AlphaIsFusedForFloat16AndSeparateForBf16) {
    const Scalar alpha(1.0 + 0x1p-12, ACL_FLOAT);
    for (const auto& [dtype, expected] : {std::pair{ACL_FLOAT16, 0.5}, std::pair{ACL_BF16, 0.0}}) {
        SCOPED_TRACE(name(dtype));
        const DeviceTensor self({{3}, dtype}, {-2048, -2048, 1});
        const DeviceTensor other({{3}, dtype}, {2048, 2048, 0});
        auto out = DeviceTensor::output({{3}, dtype});
        ASSERT_EQ(add(alpha)(self, other, *out, nullptr), ACLNN_SUCCESS);
        expect_identical(out->read(), {expected, expected, 1});
    }
}

TEST_F(Add, AlphaOfEveryKindOfDtype) {
    // FLOAT compute: alpha converted through float (Axpy's attribute).
    for (aclDataType alphaDtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_INT64, ACL_BOOL}) {
        SCOPED_TRACE(name(alphaDtype));
        const double alpha = alphaDtype == ACL_BOOL ? 1.0 : representable(-0.3 + 2.7, alphaDtype);
        const Scalar a(alpha, alphaDtype);
        check_tensors(add(a), input({{5, 3}, ACL_FLOAT}, 20), input({{5, 3}, ACL_FLOAT}, 21), {{5, 3}, ACL_FLOAT},
                      ACL_FLOAT, plus_alpha(alpha, alphaDtype, ACL_FLOAT));
    }
}

TEST_F(Add, IntegerAlphaMultipliesInTheIntegerDtypeAndWraps) {
    // 100 + 3 * 50 = 250 wraps to -6 in INT8; INT32 and INT64 stay exact.
    const Scalar alpha(3.0, ACL_INT32);
    for (aclDataType t : {ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8}) {
        SCOPED_TRACE(name(t));
        check_tensors(add(alpha), input({{4}, t}, {100, -7, 0, 1}), input({{4}, t}, {50, 2, 0, 120}), {{4}, t}, t,
                      plus_alpha(3.0, ACL_INT32, t));
    }
    auto out = DeviceTensor::output({{1}, ACL_INT8});
    ASSERT_EQ(add(alpha)(DeviceTensor({{1}, ACL_INT8}, {100}), DeviceTensor({{1}, ACL_INT8}, {50}), *out, nullptr),
              ACLNN_SUCCESS);
    EXPECT_EQ(out->read()[0], -6);
}

TEST_F(Add, BoolAlphaMasksOther) {
    // BOOL computes a OR (b AND alpha).
    for (double alpha : {0.0, 1.0}) {
        const Scalar a(alpha, ACL_BOOL);
        const DeviceTensor self({{4}, ACL_BOOL}, {0, 0, 1, 1}), other({{4}, ACL_BOOL}, {0, 1, 0, 1});
        auto out = DeviceTensor::output({{4}, ACL_BOOL});
        ASSERT_EQ(add(a)(self, other, *out, nullptr), ACLNN_SUCCESS);
        EXPECT_EQ(out->read(), (std::vector<double>{0, alpha, 1, 1}));
    }
}

TEST_F(Add, AlphaThatCannotCastIntoThePromotedDtypeIsRefused) {
    // BOOL takes only an integer or BOOL alpha; an integer dtype no floating
    // alpha; a real dtype no complex alpha (CheckPromoteType, aclnn_add.cpp).
    struct Case {
        aclDataType tensors, alpha;
    };
    for (const Case c : {Case{ACL_BOOL, ACL_FLOAT}, Case{ACL_INT32, ACL_DOUBLE}, Case{ACL_FLOAT, ACL_COMPLEX64}}) {
        SCOPED_TRACE(name(c.tensors) + " alpha " + name(c.alpha));
        const Scalar alpha(Complex(2.0), c.alpha);
        const DeviceTensor t({{2}, c.tensors});
        const DeviceTensor out({{2}, is_complex(c.alpha) ? ACL_COMPLEX64 : c.tensors});
        expect_error_naming(add_phase1(t, t, alpha, out), ACLNN_ERR_PARAM_INVALID, "Alpha dtype " + name(c.alpha));
    }
}

// ---------------------------------------------------------------------------
// Shapes, views, aliasing.

TEST_F(Add, BroadcastsAcrossEightDimensions) {
    const Scalar alpha(2.0, ACL_INT64);
    for (aclDataType t : {ACL_FLOAT, ACL_INT32, ACL_FLOAT16}) {
        SCOPED_TRACE(name(t));
        check_tensors(add(alpha), input({{2, 1, 3, 1, 2, 1, 2, 1}, t}, 30), input({{2, 1, 3, 1, 2, 1, 2}, t}, 31),
                      {{2, 2, 3, 3, 2, 2, 2, 2}, t}, t, plus_alpha(2.0, ACL_INT64, t));
    }
}

TEST_F(Add, ZeroDimTensorsBroadcast) {
    const Scalar alpha(1.0);
    check_tensors(add(alpha), input({{}, ACL_FLOAT}, 32), input({{3, 2}, ACL_INT32}, 33), {{3, 2}, ACL_FLOAT},
                  ACL_FLOAT, plus_alpha(1.0, ACL_FLOAT, ACL_FLOAT));
}

TEST_F(Add, MoreThanEightDimensionsAreRefused) {
    const Scalar alpha(1.0);
    const DeviceTensor nine({rank9(), ACL_FLOAT}), two({{2, 3}, ACL_FLOAT}), out({rank9(), ACL_FLOAT});
    expect_error_naming(add_phase1(nine, two, alpha, out), ACLNN_ERR_PARAM_INVALID, "self");
    expect_error_naming(add_phase1(two, nine, alpha, out), ACLNN_ERR_PARAM_INVALID, "other");
}

TEST_F(Add, ShapesThatDoNotBroadcastAreRefused) {
    const Scalar alpha(1.0);
    const DeviceTensor a({{2, 3}, ACL_FLOAT}), b({{4}, ACL_FLOAT}), out({{2, 3}, ACL_FLOAT});
    expect_error_naming(add_phase1(a, b, alpha, out), ACLNN_ERR_PARAM_INVALID, "[4]");
}

TEST_F(Add, OutOfAnotherShapeThanTheBroadcastIsRefused) {
    const Scalar alpha(1.0);
    const DeviceTensor a({{2, 3}, ACL_FLOAT}), b({{3}, ACL_FLOAT});
    for (const Shape& shape : {Shape{3, 2}, Shape{6}, Shape{1, 2, 3}}) {
        const DeviceTensor out({shape, ACL_FLOAT});
        expect_error_naming(add_phase1(a, b, alpha, out), ACLNN_ERR_PARAM_INVALID, "out");
    }
}

TEST_F(Add, StridedAndOffsetViewsInAndOut) {
    const Scalar alpha(2.0, ACL_INT64);
    for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_COMPLEX64}) {
        SCOPED_TRACE(name(t));
        const TensorSpec transposed({4, 3}, t, {1, 4});      // a transposed 3x4
        const TensorSpec offset({3}, t, {2}, 5);             // every other element, from 5
        const TensorSpec gappy({4, 3}, t, {8, 2}, 3);        // rows 8 apart, columns 2 apart
        check_tensors(add(alpha), input(transposed, 40), input(offset, 41), gappy, t, plus_alpha(2.0, ACL_INT64, t));
    }
}

// Rows long enough to be streamed run by run from device memory: a row
// broadcast over the rows of a slice of a wider tensor, into a dense out;
// with a strided out the same operands are staged.
TEST_F(Add, LongRowsBroadcastOverASliceStreamOrStage) {
    for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        SCOPED_TRACE(name(t));
        for (double alphaValue : {1.0, 0.5}) {
            const Scalar alpha(alphaValue);
            const TensorSpec slice({5, 40}, t, {64, 1}, 3);  // 40 of each 64-element row, from 3
            const TensorSpec row({40}, t);
            check_tensors(add(alpha), input(slice, 50), input(row, 51), {{5, 40}, t}, t,
                          plus_alpha(alphaValue, ACL_FLOAT, t));
            check_tensors(add(alpha), input(slice, 52), input(row, 53), {{5, 40}, t, {80, 2}}, t,
                          plus_alpha(alphaValue, ACL_FLOAT, t));
        }
    }
}

TEST_F(Add, InplaceAddCastsBackIntoSelfRefThroughAView) {
    // INT32 selfRef + FLOAT16 other computes in FLOAT16 ... which cannot cast
    // back into INT32; FLOAT16 selfRef + INT32 other computes in FLOAT16.
    const Scalar alpha(1.0);
    check_inplace(inplace_add(alpha), input({{3, 4}, ACL_FLOAT16, {1, 3}}, 50), input({{4}, ACL_INT32}, 51),
                  ACL_FLOAT16, plus_alpha(1.0, ACL_FLOAT, ACL_FLOAT16));
    const DeviceTensor selfRef({{2}, ACL_INT32}), other({{2}, ACL_FLOAT16});
    expect_error_naming(phase1_of(aclnnInplaceAddGetWorkspaceSize, selfRef.get(), other.get(), alpha.get()),
                        ACLNN_ERR_PARAM_INVALID, "DT_INT32");
}

TEST_F(Add, InplaceAddRefusesSelfRefSmallerThanTheBroadcast) {
    const Scalar alpha(1.0);
    const DeviceTensor selfRef({{3}, ACL_FLOAT}), other({{2, 3}, ACL_FLOAT});
    expect_error_naming(phase1_of(aclnnInplaceAddGetWorkspaceSize, selfRef.get(), other.get(), alpha.get()),
                        ACLNN_ERR_PARAM_INVALID, "selfRef");
    EXPECT_EQ(selfRef.bytes_changed_outside_view(), 0u);
}

TEST_F(Add, SelfAddedToItself) {
    // self, other and out all one tensor.
    const Scalar alpha(1.0);
    const DeviceTensor x({{5}, ACL_FLOAT}, {1, -2, 3.5, 0, 7});
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** e) {
                  return aclnnAddGetWorkspaceSize(x.get(), x.get(), alpha.get(), x.get(), ws, e);
              }, aclnnAdd),
              ACLNN_SUCCESS);
    EXPECT_EQ(x.read(), (std::vector<double>{2, -4, 7, 0, 14}));
}

// ---------------------------------------------------------------------------
// Scalar forms: CANN's A2 rules (PromoteTypeScalar / CombineCategoriesWithComplex
// in math/add/op_api/aclnn_add.cpp), which keep a floating tensor's dtype.

class AddsPromotion : public Add, public ::testing::WithParamInterface<ScalarCase> {};

TEST_P(AddsPromotion, ComputesInTheDtypeOfCannsRule) {
    const ScalarCase c = GetParam();
    const Scalar other(c.value, c.scalar), alpha(1.0, ACL_INT64);  // an integer alpha casts into every dtype
    const Complex converted = cast(c.value, c.scalar, c.compute);
    check_scalar(adds(other, alpha), input({{3, 5}, c.self}, 60), {{3, 5}, c.out}, c.compute,
                 [&](auto x) { return x + as<decltype(x)>(converted); });
}

INSTANTIATE_TEST_SUITE_P(
    A2, AddsPromotion,
    ::testing::Values(
        // a floating tensor keeps its dtype, even against a DOUBLE scalar
        ScalarCase{ACL_FLOAT16, 0.1, ACL_DOUBLE, ACL_FLOAT16, ACL_FLOAT16},
        ScalarCase{ACL_BF16, 1.1, ACL_FLOAT, ACL_FLOAT, ACL_BF16},
        // an integer tensor with a floating scalar promotes ...
        ScalarCase{ACL_INT32, 0.5, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT},
        ScalarCase{ACL_INT8, 0.1, ACL_DOUBLE, ACL_DOUBLE, ACL_DOUBLE},
        // ... except a DOUBLE scalar into a FLOAT out, which computes in FLOAT
        ScalarCase{ACL_INT32, 0.1, ACL_DOUBLE, ACL_FLOAT, ACL_FLOAT},
        // an integer tensor keeps its dtype against an integer scalar: 300 wraps to 44 in INT8
        ScalarCase{ACL_INT8, 300, ACL_INT64, ACL_INT8, ACL_INT8},
        ScalarCase{ACL_UINT8, 7, ACL_INT32, ACL_INT32, ACL_UINT8},
        // a BOOL tensor promotes
        ScalarCase{ACL_BOOL, 2, ACL_INT32, ACL_INT32, ACL_INT32},
        ScalarCase{ACL_BOOL, 0.25, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16},
        // complex promotes
        ScalarCase{ACL_FLOAT, Complex(1, 2), ACL_COMPLEX64, ACL_COMPLEX64, ACL_COMPLEX64},
        ScalarCase{ACL_COMPLEX64, 0.5, ACL_DOUBLE, ACL_COMPLEX128, ACL_COMPLEX128}),
    scalar_case_name);

TEST_F(Add, AddsScalesTheScalarByAlpha) {
    const Scalar other(1.5, ACL_FLOAT), alpha(-2.0, ACL_FLOAT);
    check_scalar(adds(other, alpha), input({{17}, ACL_FLOAT16}, 61), {{17}, ACL_FLOAT16}, ACL_FLOAT16,
                 [](auto x) { return x + decltype(x)(-3.0); });
}

TEST_F(Add, AddsRefusesUnpromotableScalarAndWrongShapes) {
    const Scalar alpha(1.0), u32(3.0, ACL_UINT32), f(1.0);
    const DeviceTensor c64({{2}, ACL_COMPLEX64}), f32({{2}, ACL_FLOAT}), f32x3({{3}, ACL_FLOAT});
    const auto adds_phase1 = [&](const DeviceTensor& self, const Scalar& other, const DeviceTensor& out) {
        return phase1_of(aclnnAddsGetWorkspaceSize, self.get(), other.get(), alpha.get(), out.get());
    };
    // COMPLEX64 with UINT32 has no entry in the promotion table.
    expect_error_naming(adds_phase1(c64, u32, c64), ACLNN_ERR_PARAM_INVALID, "can not promote");
    expect_error_naming(adds_phase1(f32, f, f32x3), ACLNN_ERR_PARAM_INVALID, "out");
    const DeviceTensor nine({rank9(), ACL_FLOAT});
    expect_error_naming(adds_phase1(nine, f, nine), ACLNN_ERR_PARAM_INVALID, "self");
}

TEST_F(Add, InplaceAddsWritesSelfRef) {
    const Scalar other(5.0, ACL_INT64), alpha(2.0, ACL_INT64);
    const InplaceScalarLaunch launch = inplace_scalar_launch(aclnnInplaceAddsGetWorkspaceSize,
                                                             aclnnInplaceAdds, other.get(), alpha.get());
    check_inplace_scalar(launch, input({{2, 3, 2}, ACL_INT16, {1, 2, 6}}, 62), ACL_INT16,
                         [](auto x) { return x + decltype(x)(10); });
}

// AddV3 (math/add/op_api/aclnn_add_v3.cpp): a floating tensor computes in
// FLOAT, an integer one keeps its dtype against an integer scalar.
TEST_F(Add, AddV3AddsTheTensorToTheScalar) {
    const Scalar self(1.25, ACL_FLOAT), alpha(3.0, ACL_INT64);
    check_scalar(add_v3(self, alpha), input({{4, 5}, ACL_FLOAT16}, 70), {{4, 5}, ACL_FLOAT16}, ACL_FLOAT,
                 [](auto x) { return decltype(x)(1.25) + decltype(x)(static_cast<float>(3.0)) * x; });
    const Scalar intSelf(200.0, ACL_INT32), one(1.0, ACL_INT32);
    check_scalar(add_v3(intSelf, one), input({{6}, ACL_INT8}, 71), {{6}, ACL_INT8}, ACL_INT8,
                 [](auto x) { return decltype(x)(-56) + x; });  // 200 wraps to -56 in INT8
}

TEST_F(Add, InplaceAddV3WritesOther) {
    const Scalar self(-2.0, ACL_INT32), alpha(1.0, ACL_INT32);
    const InplaceScalarLaunch launch = inplace_scalar_launch([&](auto other, auto ws, auto e) {
        return aclnnInplaceAddV3GetWorkspaceSize(self.get(), other, alpha.get(), ws, e);
    }, aclnnInplaceAddV3);
    check_inplace_scalar(launch, input({{3, 3}, ACL_INT32, {3, 1}, 2}, 72), ACL_INT32,
                         [](auto x) { return decltype(x)(-2) + x; });
}

TEST_F(Add, AddV3RefusesDtypesOutsideItsShortList) {
    // AddV3 lists FLOAT, INT32, FLOAT16, BF16 and INT8 only.
    const Scalar self(1.0), alpha(1.0);
    for (aclDataType t : {ACL_DOUBLE, ACL_INT64, ACL_BOOL, ACL_COMPLEX64}) {
        SCOPED_TRACE(name(t));
        const DeviceTensor other({{2}, t}), out({{2}, t});
        expect_error_naming(phase1_of(aclnnAddV3GetWorkspaceSize, self.get(), other.get(), alpha.get(), out.get()),
                            ACLNN_ERR_PARAM_INVALID, name(t));
    }
}

// ---------------------------------------------------------------------------
// Special values.

TEST_F(Add, InfinityNanAndSignedZeros) {
    const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
    const std::vector<double> a = {inf, inf, nan, -0.0, -0.0, 0.0, 65504, -inf};
    const std::vector<double> b = {-inf, 1, 1, -0.0, 0.0, -0.0, 65504, -inf};
    const std::vector<double> sum = {nan, inf, nan, -0.0, 0.0, 0.0, 131008, -inf};
    const Scalar alpha(1.0);
    for (aclDataType t : {ACL_FLOAT, ACL_DOUBLE, ACL_FLOAT16, ACL_BF16}) {
        SCOPED_TRACE(name(t));
        const DeviceTensor self({{8}, t}, a), other({{8}, t}, b);
        auto out = DeviceTensor::output({{8}, t});
        ASSERT_EQ(add(alpha)(self, other, *out, nullptr), ACLNN_SUCCESS);
        std::vector<double> expected = representable(sum, t);
        expect_identical(out->read(), expected);  // FLOAT16: 65504 + 65504 overflows to inf
    }
}

TEST_F(Add, IntegersWrapAround) {
    const Scalar alpha(1.0, ACL_INT64);
    struct Case {
        aclDataType t;
        double a, b, sum;
    };
    for (const Case& c : {Case{ACL_INT8, 127, 1, -128}, Case{ACL_UINT8, 255, 1, 0}, Case{ACL_INT16, -32768, -1, 32767},
                          Case{ACL_INT32, 2147483647, 1, -2147483648.0}, Case{ACL_INT64, 0x1p62, 0x1p62, -0x1p63}}) {
        SCOPED_TRACE(name(c.t));
        const DeviceTensor self({{1}, c.t}, {c.a}), other({{1}, c.t}, {c.b});
        auto out = DeviceTensor::output({{1}, c.t}, 0);
        ASSERT_EQ(add(alpha)(self, other, *out, nullptr), ACLNN_SUCCESS);
        EXPECT_EQ(out->read()[0], c.sum);
    }
}

// ---------------------------------------------------------------------------
// Empty tensors and null arguments.

TEST_F(Add, EmptyTensorsSucceedWithoutWriting) {
    const Scalar alpha(2.0);
    struct Case {
        Shape self, other, out;
    };
    for (const Case& c : {Case{{0, 3}, {3}, {0, 3}}, Case{{2, 0}, {1}, {2, 0}}, Case{{4, 1}, {0}, {4, 0}}}) {
        const DeviceTensor self({c.self, ACL_FLOAT}), other({c.other, ACL_INT32});
        auto out = DeviceTensor::output({c.out, ACL_FLOAT});
        expect_empty_success([&](uint64_t* ws, aclOpExecutor** e) {
            return aclnnAddGetWorkspaceSize(self.get(), other.get(), alpha.get(), out->get(), ws, e);
        }, aclnnAdd, out.get());
    }
    const DeviceTensor empty({{0}, ACL_INT8});
    const Scalar intOther(3.0, ACL_INT64);
    expect_empty_success([&](uint64_t* ws, aclOpExecutor** e) {
        return aclnnAddsGetWorkspaceSize(empty.get(), intOther.get(), intOther.get(), empty.get(), ws, e);
    }, aclnnAdds);
}

// aclnn_add.cpp's aclnnInplaceAddGetWorkspaceSize runs CheckInplace (selfRef
// of the broadcast shape) before anything reads workspaceSize or executor.
TEST_F(Add, InplaceShapeErrorsComeBeforeTheWorkspaceArguments) {
    const Scalar alpha(1.0);
    const DeviceTensor selfRef({{3}, ACL_FLOAT}), other({{2, 3}, ACL_FLOAT});
    aclOpExecutor* executor = nullptr;
    expect_error_naming(aclnnInplaceAddGetWorkspaceSize(selfRef.get(), other.get(), alpha.get(), nullptr, &executor),
                        ACLNN_ERR_PARAM_INVALID, "selfRef");
}

// OP_CHECK_NULL's names in math/add/op_api/aclnn_add.cpp and aclnn_add_v3.cpp:
// InplaceAdd checks selfRef and other (CheckInplace), then every in-place
// form hands its tensors to the out-of-place form's checks.
TEST_F(Add, NullArgumentsAreRefusedByName) {
    const Scalar alpha(1.0);
    const DeviceTensor t({{2}, ACL_FLOAT});
    aclTensor* x = t.get();
    aclScalar* a = alpha.get();
    const std::vector<std::string> outOfPlace = {"self", "other", "alpha", "out"};
    expect_each_null_is_161001_naming(aclnnAddGetWorkspaceSize, outOfPlace, x, x, a, x);
    expect_each_null_is_161001_naming(aclnnAddsGetWorkspaceSize, outOfPlace, x, a, a, x);
    expect_each_null_is_161001_naming(aclnnInplaceAddGetWorkspaceSize, {"selfRef", "other", "alpha"}, x, x, a);
    expect_each_null_is_161001_naming(aclnnInplaceAddsGetWorkspaceSize, {"self", "other", "alpha"}, x, a, a);
    expect_each_null_is_161001_naming(aclnnAddV3GetWorkspaceSize, outOfPlace, a, x, a, x);
    expect_each_null_is_161001_naming(aclnnInplaceAddV3GetWorkspaceSize, {"self", "other", "alpha"}, a, x, a);
}

}  // namespace
