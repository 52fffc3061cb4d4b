// aclnnSub, aclnnSubs, aclnnInplaceSub, aclnnInplaceSubs (out = self -
// alpha * other) and aclnnRsub, aclnnRsubs (out = other - alpha * self)
// against double-precision references (arithmetic_test_support.hpp), after
// math/sub/docs/aclnnSub&aclnnInplaceSub.md, aclnnSubs&aclnnInplaceSubs.md,
// aclnnRsub.md and aclnnRsubs.md (hicann/ops-math); the A2 compute dtypes
// and alpha paths come from math/sub/op_api/aclnn_sub.cpp and aclnn_rsub.cpp.
#include <cmath>
#include <limits>
#include <vector>

#include "aclnnop/aclnn_rsub.h"
#include "aclnnop/aclnn_sub.h"
#include "arithmetic_test_support.hpp"

namespace {

using namespace arith;

bool is_one(double alpha) { return static_cast<float>(alpha) == 1.0f; }

/// Sub's A2 compute dtype: with alpha != 1, FLOAT16 and BF16 are computed
/// in FLOAT (aclnnSubGetWorkspaceSize raises every floating dtype but DOUBLE).
aclDataType sub_compute(aclDataType self, aclDataType other, double alpha) {
    const aclDataType promoted = promote(self, other);
    if (!is_one(alpha) && is_floating(promoted) && promoted != ACL_DOUBLE) return ACL_FLOAT;
    return promoted;
}

/// Sub's alpha path: Axpy(-alpha) for FLOAT, FLOAT16 and BF16, else Mul then Sub.
AlphaStep sub_step(double alpha, aclDataType compute) {
    if (is_one(alpha)) return AlphaStep::one;
    const bool axpy = compute == ACL_FLOAT || compute == ACL_FLOAT16 || compute == ACL_BF16;
    return axpy ? AlphaStep::fused : AlphaStep::separate;
}

auto minus_alpha(double alpha, aclDataType alphaDtype, aclDataType compute, AlphaStep step) {
    return [=](auto a, auto b) { return a - scaled(b, step, Complex(alpha), alphaDtype, compute); };
}

/// Rsub: other - alpha * self, always Mul then Sub when alpha is not 1.
auto reversed_minus_alpha(double alpha, aclDataType alphaDtype, aclDataType compute) {
    const AlphaStep step = alpha == 1 ? AlphaStep::one : AlphaStep::separate;
    return [=](auto self, auto other) { return other - scaled(self, step, Complex(alpha), alphaDtype, compute); };
}

/// Rsub's list: Sub's without BOOL.
const std::vector<aclDataType> kRsubDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16,      ACL_INT8,
                                              ACL_UINT8, ACL_INT16,   ACL_INT32,  ACL_INT64, ACL_COMPLEX64,
                                              ACL_COMPLEX128};

class Sub : public ArithmeticTest {
protected:
    TensorLaunch sub(const Scalar& alpha) { return tensor_launch(aclnnSubGetWorkspaceSize, aclnnSub, alpha.get()); }
    TensorLaunch rsub(const Scalar& alpha) {
        return tensor_launch(aclnnRsubGetWorkspaceSize, aclnnRsub, alpha.get());
    }
    InplaceLaunch inplace_sub(const Scalar& alpha) {
        return inplace_launch(aclnnInplaceSubGetWorkspaceSize, aclnnInplaceSub, alpha.get());
    }
    ScalarLaunch subs(const Scalar& other, const Scalar& alpha) {
        return scalar_launch(aclnnSubsGetWorkspaceSize, aclnnSubs, other.get(), alpha.get());
    }
    ScalarLaunch rsubs(const Scalar& other, const Scalar& alpha) {
        return scalar_launch(aclnnRsubsGetWorkspaceSize, aclnnRsubs, other.get(), alpha.get());
    }
};

// ---------------------------------------------------------------------------
// Dtypes.

class SubSameDtype : public Sub, public ::testing::WithParamInterface<aclDataType> {};

TEST_P(SubSameDtype, SubtractsBroadcastTensor) {
    const aclDataType t = GetParam();
    for_each_alpha({1.0, 2.0}, ACL_INT64, [&](const Scalar& a, double alpha) {
        const aclDataType compute = sub_compute(t, t, alpha);
        check_tensors(sub(a), input({{3, 1, 5}, t}, 1), input({{4, 1}, t}, 2), {{3, 4, 5}, t}, compute,
                      minus_alpha(alpha, ACL_INT64, compute, sub_step(alpha, compute)));
    });
}

TEST_P(SubSameDtype, InplaceSubWritesSelfRef) {
    const aclDataType t = GetParam();
    const Scalar a(1.0, ACL_INT64);
    check_inplace(inplace_sub(a), input({{4, 6}, t}, 3), input({{4, 1}, t}, 4), t,
                  minus_alpha(1.0, ACL_INT64, t, AlphaStep::one));
}

INSTANTIATE_TEST_SUITE_P(Listed, SubSameDtype, ::testing::ValuesIn(kListedDtypes),
                         [](const auto& info) { return name(info.param); });

class RsubSameDtype : public Sub, public ::testing::WithParamInterface<aclDataType> {};

TEST_P(RsubSameDtype, SubtractsSelfFromOther) {
    const aclDataType t = GetParam();
    for_each_alpha({1.0, 3.0}, ACL_INT32, [&](const Scalar& a, double alpha) {
        check_tensors(rsub(a), input({{2, 5}, t}, 5), input({{5}, t}, 6), {{2, 5}, t}, t,
                      reversed_minus_alpha(alpha, ACL_INT32, t));
    });
}

INSTANTIATE_TEST_SUITE_P(Listed, RsubSameDtype, ::testing::ValuesIn(kRsubDtypes),
                         [](const auto& info) { return name(info.param); });

class SubMixedDtypes : public Sub, public ::testing::WithParamInterface<DtypeCase> {};

TEST_P(SubMixedDtypes, SubAndRsubComputeInThePromotedDtype) {
    const DtypeCase c = GetParam();
    const Scalar two(2.0, ACL_INT64);
    const aclDataType compute = sub_compute(c.self, c.other, 2.0);
    check_tensors(sub(two), input({{3, 4}, c.self}, 10), input({{4}, c.other}, 11), {{3, 4}, c.out}, compute,
                  minus_alpha(2.0, ACL_INT64, compute, sub_step(2.0, compute)));
    if (c.self == ACL_BOOL || c.other == ACL_BOOL) return;  // not in Rsub's list
    const aclDataType promoted = promote(c.self, c.other);
    check_tensors(rsub(two), input({{3, 4}, c.self}, 12), input({{4}, c.other}, 13), {{3, 4}, c.out}, promoted,
                  reversed_minus_alpha(2.0, ACL_INT64, promoted));
}

const std::vector<DtypeCase> kMixedCases = {
    // float with float
    {ACL_FLOAT16, ACL_FLOAT, ACL_FLOAT}, {ACL_BF16, ACL_FLOAT16, ACL_FLOAT}, {ACL_FLOAT, ACL_DOUBLE, ACL_DOUBLE},
    // integer with integer
    {ACL_INT8, ACL_UINT8, ACL_INT16}, {ACL_INT16, ACL_INT64, ACL_INT64},
    // integer with float
    {ACL_INT32, ACL_BF16, ACL_BF16}, {ACL_UINT8, ACL_FLOAT16, ACL_FLOAT},
    // BOOL (not in Rsub's list) and complex with others
    {ACL_BOOL, ACL_INT16, ACL_INT16}, {ACL_FLOAT, ACL_BOOL, ACL_FLOAT}, {ACL_COMPLEX64, ACL_DOUBLE, ACL_COMPLEX128},
    {ACL_INT64, ACL_COMPLEX64, ACL_COMPLEX64},
};

INSTANTIATE_TEST_SUITE_P(Table, SubMixedDtypes, ::testing::ValuesIn(kMixedCases), case_name);

// With alpha != 1, Sub runs Axpy(-alpha) for FLOAT16 and BF16 too (alpha a
// float, the product unrounded): 2048 - (1 + 2^-12) * 2048 is -0.5, while a
// Mul then Sub in FLOAT16 or BF16 (alpha rounded to 1) would give 0.  (That
// Sub also raises them to FLOAT shows in mixed pairs: SubMixedDtypes.)
TEST_F(Sub, HalfPrecisionWithAlphaGoesThroughAxpy) {
    const Scalar alpha(1.0 + 0x1p-12, ACL_FLOAT);
    for (aclDataType t : {ACL_FLOAT16, ACL_BF16}) {
        SCOPED_TRACE(name(t));
        const DeviceTensor self({{2}, t}, {2048, 3}), other({{2}, t}, {2048, 0});
        auto out = DeviceTensor::output({{2}, t});
        ASSERT_EQ(sub(alpha)(self, other, *out, nullptr), ACLNN_SUCCESS);
        expect_identical(out->read(), {-0.5, 3});
    }
}

TEST_F(Sub, BoolSubtractionIsExclusiveOr) {
    const Scalar one(1.0, ACL_BOOL);
    const DeviceTensor self({{4}, ACL_BOOL}, {0, 0, 1, 1}), other({{4}, ACL_BOOL}, {0, 1, 0, 1});
    auto out = DeviceTensor::output({{4}, ACL_BOOL});
    ASSERT_EQ(sub(one)(self, other, *out, nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(out->read(), (std::vector<double>{0, 1, 1, 0}));
}

TEST_F(Sub, RsubRefusesBoolAndUncastableOut) {
    const Scalar alpha(1.0, ACL_INT64);
    const DeviceTensor b({{2}, ACL_BOOL}), f32({{2}, ACL_FLOAT}), i32({{2}, ACL_INT32});
    const auto rsub_phase1 = [&](const DeviceTensor& self, const DeviceTensor& other, const DeviceTensor& out) {
        return phase1_of(aclnnRsubGetWorkspaceSize, self.get(), other.get(), alpha.get(), out.get());
    };
    expect_error_naming(rsub_phase1(b, f32, f32), ACLNN_ERR_PARAM_INVALID, "DT_BOOL");
    expect_error_naming(rsub_phase1(f32, i32, i32), ACLNN_ERR_PARAM_INVALID, "DT_INT32");
}

// ---------------------------------------------------------------------------
// Scalar forms (PromoteTypeScalar in aclnn_sub.cpp; aclnnRsubs in aclnn_rsub.cpp).

TEST_F(Sub, SubsFollowsTheA2TensorScalarRule) {
    const Scalar alpha(1.0, ACL_INT64);
    const Scalar tenth(0.1, ACL_DOUBLE), big(1000.0, ACL_INT64);
    // A floating tensor keeps its dtype against a DOUBLE scalar.
    check_scalar(subs(tenth, alpha), input({{9}, ACL_BF16}, 20), {{9}, ACL_BF16}, ACL_BF16,
                 [](auto x) { return x - decltype(x)(representable(0.1, ACL_BF16)); });
    // An integer tensor keeps its dtype against an integer scalar: 1000 wraps to -24 in INT8.
    check_scalar(subs(big, alpha), input({{9}, ACL_INT8}, 21), {{9}, ACL_INT8}, ACL_INT8,
                 [](auto x) { return x - decltype(x)(-24); });
    // An integer tensor with a floating scalar promotes (DOUBLE into a DOUBLE out).
    check_scalar(subs(tenth, alpha), input({{9}, ACL_INT16}, 22), {{9}, ACL_DOUBLE}, ACL_DOUBLE,
                 [](auto x) { return x - decltype(x)(0.1); });
}

TEST_F(Sub, InplaceSubsScalesByAlpha) {
    const Scalar other(3.0, ACL_INT32), alpha(-2.0, ACL_INT32);
    const InplaceScalarLaunch launch = inplace_scalar_launch(aclnnInplaceSubsGetWorkspaceSize,
                                                             aclnnInplaceSubs, other.get(), alpha.get());
    check_inplace_scalar(launch, input({{2, 4}, ACL_INT32, {1, 2}}, 23), ACL_INT32,
                         [](auto x) { return x + decltype(x)(6); });
}

TEST_F(Sub, RsubsSubtractsTheTensorFromTheScalar) {
    const Scalar other(2.5, ACL_FLOAT), alpha(2.0, ACL_FLOAT);
    // An integer tensor with a floating scalar promotes to FLOAT.
    check_scalar(rsubs(other, alpha), input({{12}, ACL_INT32}, 24), {{12}, ACL_FLOAT}, ACL_FLOAT,
                 [](auto x) { return decltype(x)(2.5) - in_dtype(decltype(x)(2) * x, ACL_FLOAT); });
    // A FLOAT16 tensor keeps its dtype: alpha * self rounds to FLOAT16 first.
    check_scalar(rsubs(other, alpha), input({{12}, ACL_FLOAT16}, 25, -300, 300), {{12}, ACL_FLOAT16}, ACL_FLOAT16,
                 [](auto x) { return decltype(x)(2.5) - in_dtype(decltype(x)(2) * x, ACL_FLOAT16); });
}

TEST_F(Sub, RsubsRefusesAScalarOutsideItsList) {
    const Scalar boolean(1.0, ACL_BOOL), alpha(1.0);
    const DeviceTensor t({{2}, ACL_FLOAT});
    expect_error_naming(phase1_of(aclnnRsubsGetWorkspaceSize, t.get(), boolean.get(), alpha.get(), t.get()),
                        ACLNN_ERR_PARAM_INVALID, "other");
}

// ---------------------------------------------------------------------------
// Shapes, views, special values, empty tensors, errors.

TEST_F(Sub, StridedViewsAndRankEight) {
    const Scalar alpha(1.0);
    check_tensors(sub(alpha), input({{4, 3}, ACL_FLOAT, {1, 4}}, 30), input({{3}, ACL_FLOAT, {3}, 1}, 31),
                  {{4, 3}, ACL_FLOAT, {6, 2}, 1}, ACL_FLOAT, minus_alpha(1.0, ACL_FLOAT, ACL_FLOAT, AlphaStep::one));
    check_tensors(sub(alpha), input({{2, 1, 2, 1, 2, 1, 2, 3}, ACL_DOUBLE}, 32), input({{3, 1, 1, 1, 1}, ACL_DOUBLE}, 33),
                  {{2, 1, 2, 3, 2, 1, 2, 3}, ACL_DOUBLE}, ACL_DOUBLE,
                  minus_alpha(1.0, ACL_FLOAT, ACL_DOUBLE, AlphaStep::one));
}

TEST_F(Sub, InplaceSubRefusesSelfRefSmallerThanTheBroadcast) {
    // CANN's own in-place check of aclnn_sub.cpp never fails (it returns
    // false, which is ACLNN_SUCCESS); Sub's shape check on out = selfRef does.
    const Scalar alpha(1.0);
    const DeviceTensor selfRef({{1, 3}, ACL_FLOAT}), other({{2, 3}, ACL_FLOAT});
    expect_error_naming(phase1_of(aclnnInplaceSubGetWorkspaceSize, selfRef.get(), other.get(), alpha.get()),
                        ACLNN_ERR_PARAM_INVALID, "[2,3]");
}

TEST_F(Sub, InfinityNanSignedZerosAndWrapping) {
    const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
    const Scalar alpha(1.0);
    const DeviceTensor self({{5}, ACL_FLOAT}, {inf, nan, -0.0, 0.0, -inf});
    const DeviceTensor other({{5}, ACL_FLOAT}, {inf, 0, 0.0, 0.0, inf});
    auto out = DeviceTensor::output({{5}, ACL_FLOAT});
    ASSERT_EQ(sub(alpha)(self, other, *out, nullptr), ACLNN_SUCCESS);
    expect_identical(out->read(), {nan, nan, -0.0, 0.0, -inf});

    const Scalar one(1.0, ACL_INT64);
    const DeviceTensor low({{2}, ACL_INT8}, {-128, 0}), ones({{2}, ACL_INT8}, {1, -128});
    auto wrapped = DeviceTensor::output({{2}, ACL_INT8});
    ASSERT_EQ(sub(one)(low, ones, *wrapped, nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(wrapped->read(), (std::vector<double>{127, -128}));  // 0 - (-128) wraps too
}

TEST_F(Sub, EmptyTensorsSucceedWithoutWriting) {
    const Scalar alpha(2.0);
    const DeviceTensor self({{0, 4}, ACL_FLOAT}), other({{4}, ACL_FLOAT});
    auto out = DeviceTensor::output({{0, 4}, ACL_FLOAT});
    expect_empty_success([&](uint64_t* ws, aclOpExecutor** e) {
        return aclnnRsubGetWorkspaceSize(self.get(), other.get(), alpha.get(), out->get(), ws, e);
    }, aclnnRsub);
    expect_empty_success([&](uint64_t* ws, aclOpExecutor** e) {
        return aclnnSubsGetWorkspaceSize(self.get(), alpha.get(), alpha.get(), out->get(), ws, e);
    }, aclnnSubs);
}

TEST_F(Sub, ErrorsNameTheirCause) {
    const Scalar alpha(1.0), complexAlpha(Complex(0, 1), ACL_COMPLEX64);
    const DeviceTensor f32({{2, 3}, ACL_FLOAT}), u16({{2, 3}, ACL_UINT16}), b({{4}, ACL_FLOAT});
    const DeviceTensor nine({rank9(), ACL_FLOAT}), bools({{2, 3}, ACL_BOOL});
    const auto sub_phase1 = [&](const DeviceTensor& self, const DeviceTensor& other, const Scalar& a,
                                const DeviceTensor& out) {
        return phase1_of(aclnnSubGetWorkspaceSize, self.get(), other.get(), a.get(), out.get());
    };
    expect_error_naming(sub_phase1(u16, f32, alpha, f32), ACLNN_ERR_PARAM_INVALID, "DT_UINT16");
    expect_error_naming(sub_phase1(f32, b, alpha, f32), ACLNN_ERR_PARAM_INVALID, "[4]");
    expect_error_naming(sub_phase1(nine, f32, alpha, nine), ACLNN_ERR_PARAM_INVALID, "self");
    expect_error_naming(sub_phase1(f32, f32, complexAlpha, f32), ACLNN_ERR_PARAM_INVALID, "DT_COMPLEX64");
    expect_error_naming(sub_phase1(bools, bools, alpha, bools), ACLNN_ERR_PARAM_INVALID, "Alpha");
    expect_error_naming(sub_phase1(f32, f32, alpha, bools), ACLNN_ERR_PARAM_INVALID, "DT_BOOL");
    // OP_CHECK_NULL's names in math/sub/op_api/aclnn_sub.cpp and aclnn_rsub.cpp.
    // Sub's CheckInplace returns false (success) on a null, so a null selfRef
    // reaches Sub's check of self: "self" names it either way.
    aclTensor* x = f32.get();
    aclScalar* a = alpha.get();
    const std::vector<std::string> outOfPlace = {"self", "other", "alpha", "out"};
    expect_each_null_is_161001_naming(aclnnSubGetWorkspaceSize, outOfPlace, x, x, a, x);
    expect_each_null_is_161001_naming(aclnnSubsGetWorkspaceSize, outOfPlace, x, a, a, x);
    expect_each_null_is_161001_naming(aclnnRsubGetWorkspaceSize, outOfPlace, x, x, a, x);
    expect_each_null_is_161001_naming(aclnnRsubsGetWorkspaceSize, outOfPlace, x, a, a, x);
    expect_each_null_is_161001_naming(aclnnInplaceSubGetWorkspaceSize, {"self", "other", "alpha"}, x, x, a);
    expect_each_null_is_161001_naming(aclnnInplaceSubsGetWorkspaceSize, {"self", "other", "alpha"}, x, a, a);
}

}  // namespace
