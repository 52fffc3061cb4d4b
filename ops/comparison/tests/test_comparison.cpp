// The comparison family (EqTensor, InplaceEqTensor, GtScalar,
// InplaceGtScalar) against double-precision references: every dtype of the
// A2 lists (math/equal/op_api/aclnn_eq_tensor.cpp, DTYPE_SUPPORT_910B_LIST;
// math/greater/op_api/aclnn_gt_scalar.cpp, DTYPE_SUPPORT_910B_LIST), outs of
// BOOL and of the float dtypes ggml reads them into, broadcasting both ways,
// strided and offset views, in-place aliasing, empty tensors, special
// values, the promotion rules that decide a result, and every error path.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

using Comparison = AclTest;

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::nan("");

const std::vector<aclDataType> kEqRealDtypes = {ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_INT16,
                                                ACL_INT8,  ACL_UINT8, ACL_BF16,  ACL_BOOL,    ACL_DOUBLE};

BinaryLaunch eq_tensor(aclrtStream stream) {
    return binary_launch(stream, aclnnEqTensorGetWorkspaceSize, aclnnEqTensor);
}

aclnnStatus gt_scalar(aclrtStream stream, const DeviceTensor& self, const Scalar& other, DeviceTensor& out) {
    return run_aclnn(stream, aclnnGtScalarGetWorkspaceSize, aclnnGtScalar, self.get(), other.get(), out.get());
}

/// Small integers, so that the two operands often agree.
std::vector<double> small_values(aclDataType t, size_t n, uint32_t seed) {
    std::vector<double> values = uniform(n, t == ACL_BOOL ? 0 : -2, 2, seed);
    for (double& v : values) v = std::floor(v);
    return values;
}

// aclnn_eq_tensor.cpp: both cast to PromoteType, Equal (BOOL), Cast(out).
TEST_F(Comparison, EqTensorEveryDtypeEveryOutBroadcastBothWays) {
    for (aclDataType t : kEqRealDtypes) {
        for (aclDataType out : {ACL_BOOL, ACL_FLOAT, ACL_FLOAT16, ACL_INT32}) {
            SCOPED_TRACE(name(t) + " -> " + name(out));
            const auto equal = [](double a, double b) { return a == b ? 1.0 : 0.0; };
            check_binary(eq_tensor(stream_), {{{4, 1}, t}, small_values(t, 4, 1)},
                         {{{1, 6}, t}, small_values(t, 6, 2)}, {{4, 6}, out}, equal, {0, 0});
            check_binary(eq_tensor(stream_), {{{3, 4}, t, {1, 3}, 2}, small_values(t, 12, 3)},
                         {{{4}, t}, small_values(t, 4, 4)}, {{3, 4}, out}, equal, {0, 0});
        }
    }
}

// IEEE equality: NaN equals nothing, -0 equals 0, an infinity itself.
TEST_F(Comparison, EqTensorSpecialValues) {
    for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}) {
        SCOPED_TRACE(name(t));
        check_binary(eq_tensor(stream_), {{{5}, t}, {kNaN, -0.0, kInf, -kInf, 1}},
                     {{{5}, t}, {kNaN, 0.0, kInf, kInf, 1}}, {{5}, ACL_FLOAT},
                     [](double a, double b) { return a == b ? 1.0 : 0.0; }, {0, 0});
    }
}

// PromoteType(INT32, FLOAT16) is FLOAT16: 2049 is cast to 2048 before the
// comparison, so it equals 2048.
TEST_F(Comparison, EqTensorComparesInThePromotedDtype) {
    check_binary(eq_tensor(stream_), {{{3}, ACL_INT32}, {2049, 7, -3}}, {{{3}, ACL_FLOAT16}, {2048, 7, 3}},
                 {{3}, ACL_BOOL}, [](double a, double b) { return representable(a, ACL_FLOAT16) == b ? 1.0 : 0.0; },
                 {0, 0});
    check_binary(eq_tensor(stream_), {{{4}, ACL_UINT8}, {255, 1, 0, 3}}, {{{4}, ACL_INT8}, {-1, 1, 0, 2}},
                 {{4}, ACL_FLOAT}, [](double a, double b) { return a == b ? 1.0 : 0.0; }, {0, 0});
}

// Complex numbers are equal when both parts are (the AICPU kernel).
TEST_F(Comparison, EqTensorComplex) {
    for (aclDataType t : {ACL_COMPLEX64, ACL_COMPLEX128}) {
        SCOPED_TRACE(name(t));
        DeviceTensor a({{3}, t}), b({{3}, t});
        a.write_complex({{1, 2}, {1, 2}, {0, -1}});
        b.write_complex({{1, 2}, {1, 3}, {0, -1}});
        auto out = DeviceTensor::output({{3}, ACL_BOOL});
        ASSERT_EQ(eq_tensor(stream_)(a, b, *out, nullptr), ACLNN_SUCCESS);
        expect_close(out->read(), {1, 0, 1}, {0, 0});
    }
}

// aclnnInplaceEqTensor: CheckInplace (selfRef of the broadcast shape), then
// EqTensor with selfRef as out: 1/0 in selfRef's dtype.
TEST_F(Comparison, InplaceEqTensor) {
    DeviceTensor self({{2, 3}, ACL_FLOAT}, {1, 2, 3, 4, 2, 6});
    const DeviceTensor other({{3}, ACL_FLOAT}, {1, 2, 6});
    ASSERT_EQ(run_two_phases(
                  [&](uint64_t* ws, aclOpExecutor** ex) {
                      return aclnnInplaceEqTensorGetWorkspaceSize(self.get(), other.get(), ws, ex);
                  },
                  aclnnInplaceEqTensor, stream_, nullptr),
              ACLNN_SUCCESS);
    expect_close(self.read(), {1, 1, 0, 0, 1, 1}, {0, 0});
    const DeviceTensor wide({{4, 2, 3}, ACL_FLOAT}, std::vector<double>(24, 1.0));
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    expect_error(aclnnInplaceEqTensorGetWorkspaceSize(self.get(), wide.get(), &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    expect_error(aclnnInplaceEqTensorGetWorkspaceSize(nullptr, other.get(), &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
}

// aclnn_gt_scalar.cpp: self cast to the promoted dtype (BOOL as INT8), the
// scalar converted into it, Greater, Cast(out).
TEST_F(Comparison, GtScalarEveryDtype) {
    const std::vector<aclDataType> dtypes = {ACL_FLOAT,  ACL_INT32,  ACL_INT64, ACL_FLOAT16, ACL_INT16,
                                             ACL_INT8,   ACL_UINT8,  ACL_DOUBLE, ACL_UINT64, ACL_UINT16,
                                             ACL_UINT32, ACL_BOOL,   ACL_BF16};
    for (aclDataType t : dtypes) {
        for (aclDataType out : {ACL_BOOL, ACL_FLOAT, ACL_FLOAT16, ACL_INT64}) {
            SCOPED_TRACE(name(t) + " -> " + name(out));
            const bool unsignedSelf = t == ACL_UINT8 || t == ACL_UINT16 || t == ACL_UINT32 || t == ACL_UINT64;
            const std::vector<double> values =
                representable(uniform(12, unsignedSelf || t == ACL_BOOL ? 0 : -3, 3, 21), t);
            const DeviceTensor self({{3, 4}, t, {1, 3}, 1, {16}}, values);
            auto result = DeviceTensor::output({{3, 4}, out});
            // A scalar of self's own dtype: the promoted dtype is self's (INT8 for BOOL).
            const double threshold = t == ACL_BOOL ? 0 : 1;
            ASSERT_EQ(gt_scalar(stream_, self, Scalar(threshold, t), *result), ACLNN_SUCCESS);
            std::vector<double> expected;
            for (double v : values) expected.push_back(v > threshold ? 1 : 0);
            expect_close(result->read(), expected, {0, 0});
            EXPECT_EQ(result->bytes_changed_outside_view(), 0u);
        }
    }
}

// ggml's step: a FLOAT / FLOAT16 self, a FLOAT scalar 0, out of self's
// dtype; NaN is not greater, -0 not greater than 0.  Compared in FLOAT:
// 6 elements staged, 96 (runs long enough) streamed in self's dtype.
TEST_F(Comparison, GtScalarIntoFloatOutSpecialValues) {
    const std::vector<double> specials = {kNaN, -0.0, 0.0, 1e-3, kInf, -kInf};
    const std::vector<double> greater = {0, 0, 0, 1, 1, 0};
    for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        for (const size_t repeats : {1, 16}) {
            SCOPED_TRACE(name(t) + " x" + std::to_string(repeats));
            std::vector<double> values, expected;
            for (size_t r = 0; r < repeats; ++r) {
                values.insert(values.end(), specials.begin(), specials.end());
                expected.insert(expected.end(), greater.begin(), greater.end());
            }
            const auto n = static_cast<int64_t>(values.size());
            const DeviceTensor self({{n}, t}, values);
            auto out = DeviceTensor::output({{n}, t});
            ASSERT_EQ(gt_scalar(stream_, self, Scalar(0.0, ACL_FLOAT), *out), ACLNN_SUCCESS);
            expect_close(out->read(), expected, {0, 0});
        }
    }
}

// CheckPromoteType (A2): a DOUBLE scalar with a floating self promotes to
// DOUBLE unless self's dtype holds it within FLT_EPSILON; a FLOAT scalar
// with an integer self compares in FLOAT.
TEST_F(Comparison, GtScalarPromotion) {
    // fp16(0.09997) = 0.0999755859375: in FLOAT16 equal (0), in DOUBLE greater (1).
    const DeviceTensor half({{1}, ACL_FLOAT16}, {0.09997});
    auto out = DeviceTensor::output({{1}, ACL_BOOL});
    ASSERT_EQ(gt_scalar(stream_, half, Scalar(0.09997, ACL_DOUBLE), *out), ACLNN_SUCCESS);
    expect_close(out->read(), {1}, {0, 0});
    // float(1.0000001) is within FLT_EPSILON of the double: FLOAT, equal (0).
    const DeviceTensor single({{1}, ACL_FLOAT}, {1.0000001});
    ASSERT_EQ(gt_scalar(stream_, single, Scalar(1.0000001, ACL_DOUBLE), *out), ACLNN_SUCCESS);
    expect_close(out->read(), {0}, {0, 0});
    const DeviceTensor ints({{4}, ACL_INT32}, {1, 2, 3, -1});
    auto four = DeviceTensor::output({{4}, ACL_BOOL});
    ASSERT_EQ(gt_scalar(stream_, ints, Scalar(1.5, ACL_FLOAT), *four), ACLNN_SUCCESS);
    expect_close(four->read(), {0, 1, 1, 0}, {0, 0});
}

TEST_F(Comparison, InplaceGtScalarAndEmpty) {
    DeviceTensor self({{4}, ACL_INT32}, {-2, 0, 3, 5});
    const Scalar two(2, ACL_INT64);
    ASSERT_EQ(run_two_phases(
                  [&](uint64_t* ws, aclOpExecutor** ex) {
                      return aclnnInplaceGtScalarGetWorkspaceSize(self.get(), two.get(), ws, ex);
                  },
                  aclnnInplaceGtScalar, stream_, nullptr),
              ACLNN_SUCCESS);
    expect_close(self.read(), {0, 0, 1, 1}, {0, 0});

    const DeviceTensor empty({{2, 0}, ACL_FLOAT});
    auto emptyOut = DeviceTensor::output({{2, 0}, ACL_BOOL});
    EXPECT_EQ(gt_scalar(stream_, empty, two, *emptyOut), ACLNN_SUCCESS);
    uint64_t workspace = 1;
    EXPECT_EQ(eq_tensor(stream_)(empty, DeviceTensor({{1}, ACL_FLOAT}, {1}), *emptyOut, &workspace), ACLNN_SUCCESS);
    EXPECT_EQ(workspace, 0u);
}

// Every error path: nulls 161001; dtypes outside the lists, a promoted
// dtype outside EqTensor's list, shapes and ranks 161002.
TEST_F(Comparison, Errors) {
    const DeviceTensor f({{2, 3}, ACL_FLOAT}, std::vector<double>(6, 1.0));
    const DeviceTensor u32({{2, 3}, ACL_UINT32}, std::vector<double>(6, 1.0));
    const DeviceTensor c64({{2, 3}, ACL_COMPLEX64});
    const DeviceTensor narrow({{4}, ACL_FLOAT}, std::vector<double>(4, 1.0));
    const DeviceTensor deep({{1, 1, 1, 1, 1, 1, 1, 1, 1}, ACL_FLOAT});
    const Scalar one(1.0), complexScalar(Complex{1, 1}, ACL_COMPLEX64);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;

    expect_error(aclnnEqTensorGetWorkspaceSize(nullptr, f.get(), f.get(), &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
    expect_error(aclnnEqTensorGetWorkspaceSize(f.get(), nullptr, f.get(), &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
    expect_error(aclnnEqTensorGetWorkspaceSize(f.get(), f.get(), nullptr, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
    expect_error(aclnnEqTensorGetWorkspaceSize(f.get(), f.get(), f.get(), &ws, nullptr), ACLNN_ERR_PARAM_NULLPTR);
    // On A2 out's dtype is checked against the list, and the promoted dtype.
    expect_error(aclnnEqTensorGetWorkspaceSize(f.get(), f.get(), u32.get(), &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    expect_error(aclnnEqTensorGetWorkspaceSize(u32.get(), u32.get(), f.get(), &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    expect_error(aclnnEqTensorGetWorkspaceSize(f.get(), narrow.get(), f.get(), &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    expect_error(aclnnEqTensorGetWorkspaceSize(f.get(), f.get(), narrow.get(), &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    expect_error(aclnnEqTensorGetWorkspaceSize(deep.get(), deep.get(), deep.get(), &ws, &ex),
                 ACLNN_ERR_PARAM_INVALID);
    // A2 lists no input dtype: COMPLEX32 with COMPLEX64 promotes into the list,
    // and CANN's graph then fails at Cast, which has no COMPLEX32 kernel
    // (the fuzzer found it read as floats past the tensor's storage).
    const DeviceTensor c32({{2, 3}, ACL_COMPLEX32});
    auto bools = DeviceTensor::output({{2, 3}, ACL_BOOL});
    expect_error(aclnnEqTensorGetWorkspaceSize(c32.get(), c64.get(), bools->get(), &ws, &ex),
                 ACLNN_ERR_INNER_NULLPTR);

    expect_error(aclnnGtScalarGetWorkspaceSize(nullptr, one.get(), f.get(), &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
    expect_error(aclnnGtScalarGetWorkspaceSize(f.get(), nullptr, f.get(), &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
    expect_error(aclnnGtScalarGetWorkspaceSize(f.get(), one.get(), nullptr, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
    expect_error(aclnnGtScalarGetWorkspaceSize(c64.get(), one.get(), f.get(), &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    expect_error(aclnnGtScalarGetWorkspaceSize(f.get(), complexScalar.get(), f.get(), &ws, &ex),
                 ACLNN_ERR_PARAM_INVALID);
    // UINT32 with a FLOAT scalar does not promote.
    expect_error(aclnnGtScalarGetWorkspaceSize(u32.get(), one.get(), f.get(), &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    expect_error(aclnnGtScalarGetWorkspaceSize(f.get(), one.get(), narrow.get(), &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    expect_error(aclnnGtScalarGetWorkspaceSize(deep.get(), one.get(), deep.get(), &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    expect_error(aclnnInplaceGtScalarGetWorkspaceSize(f.get(), one.get(), nullptr, &ex), ACLNN_ERR_PARAM_NULLPTR);
}

}  // namespace
