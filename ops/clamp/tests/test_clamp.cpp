// The clamp family (Clamp, ClampMin, ClampMax, InplaceClampMax and the
// tensor forms ClampTensor, ClampMinTensor, ClampMaxTensor with their
// in-place forms) against a double reference of CANN's A2 graphs
// (conversion/clip_by_value_v2/op_api/aclnn_clamp.cpp in hicann/ops-math):
// every listed dtype, out's dtype as the compute dtype of the scalar forms,
// the promotion and broadcast of the tensor forms, strided views, in-place
// aliasing, NaN and missing bounds, empty tensors and every error code.
// Clamping only selects values, so results compare exactly.
#include <algorithm>
#include <cmath>
#include <utility>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_clamp.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

const double kNaN = std::nan("");
constexpr double kInf = std::numeric_limits<double>::infinity();
const Tolerance kExact{0, 0};

const std::vector<aclDataType> kClampDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_INT32,  ACL_INT64, ACL_INT16,
                                               ACL_INT8,    ACL_UINT8, ACL_DOUBLE, ACL_BF16};

/// clip_by_value_v2_aicpu.cpp, ClampScalar: NaN from any NaN, else min(max(x, lo), hi).
double clamp_reference(double x, double lo, double hi) {
    if (std::isnan(x) || std::isnan(lo) || std::isnan(hi)) return kNaN;
    return std::min(std::max(x, lo), hi);
}

/// NormalizeMinScalar / NormalizeMaxScalar in dtype.
double missing_min(aclDataType dtype) { return is_integral(dtype) ? integer_range(dtype).first : -kInf; }
double missing_max(aclDataType dtype) {
    return dtype == ACL_INT64 ? 9223372036854775807.0 : is_integral(dtype) ? integer_range(dtype).second : kInf;
}

/// PromoteType for the pairs the tests use: the wider float, else the wider
/// integer (UINT8 with a signed one: at least INT16).
aclDataType promote(aclDataType a, aclDataType b) {
    const std::vector<aclDataType> floats = {ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_DOUBLE};
    const auto rank = [&](aclDataType t) { return std::find(floats.begin(), floats.end(), t) - floats.begin(); };
    if (a == b) return a;
    if (is_floating(a) || is_floating(b)) {
        if ((a == ACL_FLOAT16 && b == ACL_BF16) || (a == ACL_BF16 && b == ACL_FLOAT16)) return ACL_FLOAT;
        if (!is_floating(a)) return b;
        if (!is_floating(b)) return a;
        return rank(a) > rank(b) ? a : b;
    }
    if (a == ACL_UINT8 || b == ACL_UINT8) {
        const aclDataType signedOne = a == ACL_UINT8 ? b : a;
        return signedOne == ACL_INT8 ? ACL_INT16 : signedOne;
    }
    return dtype_bytes(a) > dtype_bytes(b) ? a : b;
}

std::vector<double> values_for(aclDataType dtype, size_t n, uint32_t seed) {
    std::vector<double> values = uniform(n, dtype == ACL_UINT8 ? 0 : -6, 6, seed);
    for (double& v : values) v = is_integral(dtype) ? std::floor(v) : representable(v, dtype);
    return values;
}

class Clamp : public AclTest {
protected:
    /// Scalar forms: self cast to out's dtype, the bounds converted into it
    /// (ConvertToTensor; into an integer: truncated, then wrapped).
    void check_scalar(const TensorSpec& selfSpec, const TensorSpec& outSpec, const Scalar* lo, double loValue,
                      const Scalar* hi, double hiValue) {
        SCOPED_TRACE(name(selfSpec.dtype) + " -> " + name(outSpec.dtype));
        const std::vector<double> values = values_for(selfSpec.dtype, numel(selfSpec.shape), 3);
        DeviceTensor self(selfSpec, values);
        auto out = DeviceTensor::output(outSpec);
        ASSERT_EQ(run_two_phases(
                      [&](uint64_t* size, aclOpExecutor** executor) {
                          return aclnnClampGetWorkspaceSize(self.get(), lo ? lo->get() : nullptr,
                                                            hi ? hi->get() : nullptr, out->get(), size, executor);
                      },
                      aclnnClamp, stream_, nullptr),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        const aclDataType compute = outSpec.dtype;
        const double loBound = lo ? in_dtype(loValue, compute) : missing_min(compute);
        const double hiBound = hi ? in_dtype(hiValue, compute) : missing_max(compute);
        std::vector<double> expected;
        for (double x : values) expected.push_back(clamp_reference(cast(x, selfSpec.dtype, compute), loBound, hiBound));
        expect_close(out->read(), expected, kExact);
        EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
    }

    aclnnStatus clamp_tensor(const DeviceTensor& self, const DeviceTensor* lo, const DeviceTensor* hi,
                             DeviceTensor& out) {
        return run_two_phases(
            [&](uint64_t* size, aclOpExecutor** executor) {
                return aclnnClampTensorGetWorkspaceSize(self.get(), lo ? lo->get() : nullptr,
                                                        hi ? hi->get() : nullptr, out.get(), size, executor);
            },
            aclnnClampTensor, stream_, nullptr);
    }
};

// Every listed dtype, both bounds, a lower and an upper bound alone.
TEST_F(Clamp, ScalarBoundsInEveryListedDtype) {
    const Scalar lo(-2.5), hi(3.25);
    for (aclDataType dtype : kClampDtypes) {
        const TensorSpec spec({3, 37}, dtype);
        check_scalar(spec, spec, &lo, -2.5, &hi, 3.25);
        check_scalar(spec, spec, &lo, -2.5, nullptr, 0);
        check_scalar(spec, spec, nullptr, 0, &hi, 3.25);
    }
}

// aclnnClampCommon on A2 computes in out's dtype: self is cast to it first.
TEST_F(Clamp, ScalarFormsComputeInOutsDtype) {
    const Scalar lo(-2.5), hi(3.25);
    check_scalar(TensorSpec({50}, ACL_FLOAT16), TensorSpec({50}, ACL_FLOAT), &lo, -2.5, &hi, 3.25);
    check_scalar(TensorSpec({50}, ACL_INT32), TensorSpec({50}, ACL_FLOAT), &lo, -2.5, &hi, 3.25);
    check_scalar(TensorSpec({50}, ACL_INT8), TensorSpec({50}, ACL_INT64), &lo, -2.5, &hi, 3.25);
    check_scalar(TensorSpec({50}, ACL_FLOAT), TensorSpec({50}, ACL_DOUBLE), &lo, -2.5, &hi, 3.25);
    // A bound past INT8's range wraps when converted into it (ConvertToTensor): 300 -> 44.
    const Scalar wide(300, ACL_INT32);
    check_scalar(TensorSpec({50}, ACL_INT8), TensorSpec({50}, ACL_INT8), nullptr, 0, &wide, 44);
}

// A transposed self at an offset, an out with gaps.
TEST_F(Clamp, StridedAndOffsetViews) {
    const Scalar lo(-1), hi(2);
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_DOUBLE}) {
        check_scalar(TensorSpec({20, 12}, dtype, {1, 21}, 3, {21 * 12 + 3}),
                     TensorSpec({20, 12}, dtype, {15, 1}, 5, {15 * 20 + 5}), &lo, -1, &hi, 2);
    }
}

// NaN in x or in a bound gives NaN; min > max gives max; infinities clamp.
TEST_F(Clamp, NaNAndCrossedBounds) {
    const std::vector<double> values = {kNaN, -kInf, kInf, -0.0, 1, -7, 9};
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}) {
        SCOPED_TRACE(name(dtype));
        for (auto [loValue, hiValue] : {std::pair{-2.0, 3.0}, std::pair{kNaN, 3.0}, std::pair{-2.0, kNaN},
                                        std::pair{5.0, 1.0}}) {
            const Scalar lo(loValue, ACL_DOUBLE), hi(hiValue, ACL_DOUBLE);
            DeviceTensor self(TensorSpec({7}, dtype), values);
            auto out = DeviceTensor::output(TensorSpec({7}, dtype));
            ASSERT_EQ(run_two_phases(
                          [&](uint64_t* size, aclOpExecutor** executor) {
                              return aclnnClampGetWorkspaceSize(self.get(), lo.get(), hi.get(), out->get(), size,
                                                                executor);
                          },
                          aclnnClamp, stream_, nullptr),
                      ACLNN_SUCCESS);
            std::vector<double> expected;
            for (double x : values) expected.push_back(clamp_reference(x, loValue, hiValue));
            expect_close(out->read(), expected, kExact);
        }
    }
}

// ClampMin, ClampMax and InplaceClampMax: one bound, the other the dtype's limit.
TEST_F(Clamp, OneBoundScalarForms) {
    const Scalar bound(1.5);
    const std::vector<double> values = {-3, 0, 1.5, 2, 100};
    DeviceTensor self(TensorSpec({5}, ACL_FLOAT), values);
    auto out = DeviceTensor::output(TensorSpec({5}, ACL_FLOAT));
    ASSERT_EQ(run_two_phases([&](uint64_t* s, aclOpExecutor** e) {
                  return aclnnClampMinGetWorkspaceSize(self.get(), bound.get(), out->get(), s, e);
              }, aclnnClampMin, stream_, nullptr), ACLNN_SUCCESS);
    expect_close(out->read(), {1.5, 1.5, 1.5, 2, 100}, kExact);
    ASSERT_EQ(run_two_phases([&](uint64_t* s, aclOpExecutor** e) {
                  return aclnnClampMaxGetWorkspaceSize(self.get(), bound.get(), out->get(), s, e);
              }, aclnnClampMax, stream_, nullptr), ACLNN_SUCCESS);
    expect_close(out->read(), {-3, 0, 1.5, 1.5, 1.5}, kExact);
    DeviceTensor ints(TensorSpec({5}, ACL_INT64), {-9e15, 0, 1, 2, 9e15});
    ASSERT_EQ(run_two_phases([&](uint64_t* s, aclOpExecutor** e) {
                  return aclnnInplaceClampMaxGetWorkspaceSize(ints.get(), bound.get(), s, e);
              }, aclnnInplaceClampMax, stream_, nullptr), ACLNN_SUCCESS);
    expect_close(ints.read(), {-9e15, 0, 1, 1, 1}, kExact);
}

// ClampTensor: self, min and max broadcast to out; computed in their promotion.
TEST_F(Clamp, TensorBoundsBroadcastAndPromote) {
    struct Case {
        aclDataType self, lo, hi, out;
    };
    for (const Case& c : {Case{ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT},
                          Case{ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16},
                          Case{ACL_BF16, ACL_BF16, ACL_BF16, ACL_FLOAT},
                          Case{ACL_INT32, ACL_FLOAT, ACL_INT32, ACL_FLOAT},
                          Case{ACL_INT8, ACL_INT16, ACL_UINT8, ACL_INT16},
                          Case{ACL_INT64, ACL_INT32, ACL_INT64, ACL_INT64},
                          Case{ACL_DOUBLE, ACL_FLOAT, ACL_FLOAT, ACL_DOUBLE}}) {
        SCOPED_TRACE(name(c.self) + " " + name(c.lo) + " " + name(c.hi) + " -> " + name(c.out));
        const Shape shape = {3, 4, 5};
        const std::vector<double> x = values_for(c.self, 60, 1);
        std::vector<double> lo = values_for(c.lo, 5, 2), hi = values_for(c.hi, 12, 3);
        for (double& v : hi) v = c.hi == ACL_UINT8 ? v : representable(v + 2, c.hi);
        DeviceTensor self(TensorSpec(shape, c.self), x);
        DeviceTensor loTensor(TensorSpec({5}, c.lo), lo);
        DeviceTensor hiTensor(TensorSpec({3, 4, 1}, c.hi), hi);
        auto out = DeviceTensor::output(TensorSpec(shape, c.out));
        ASSERT_EQ(clamp_tensor(self, &loTensor, &hiTensor, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        const aclDataType compute = promote(promote(c.self, c.lo), c.hi);
        std::vector<double> expected;
        for (int64_t i = 0; i < 60; ++i) {
            const double v = clamp_reference(cast(x[i], c.self, compute),
                                             cast(broadcast_value(lo, {5}, shape, i), c.lo, compute),
                                             cast(broadcast_value(hi, {3, 4, 1}, shape, i), c.hi, compute));
            expected.push_back(cast(v, compute, c.out));
        }
        expect_close(out->read(), expected, kExact);
    }
}

// ClampMinTensor, ClampMaxTensor and their in-place forms; a missing bound
// is the limit, NaN bounds give NaN.
TEST_F(Clamp, OneTensorBoundForms) {
    const std::vector<double> x = {-5, 0, 5, kNaN, 2};
    const std::vector<double> bound = {-1, kNaN, 1, 0, 2};
    const std::vector<double> asMin = {-1, kNaN, 5, kNaN, 2}, asMax = {-5, kNaN, 1, kNaN, 2};
    DeviceTensor self(TensorSpec({5}, ACL_FLOAT), x);
    DeviceTensor b(TensorSpec({5}, ACL_FLOAT), bound);
    auto out = DeviceTensor::output(TensorSpec({5}, ACL_FLOAT));
    ASSERT_EQ(run_two_phases([&](uint64_t* s, aclOpExecutor** e) {
                  return aclnnClampMinTensorGetWorkspaceSize(self.get(), b.get(), out->get(), s, e);
              }, aclnnClampMinTensor, stream_, nullptr), ACLNN_SUCCESS);
    expect_close(out->read(), asMin, kExact);
    ASSERT_EQ(run_two_phases([&](uint64_t* s, aclOpExecutor** e) {
                  return aclnnClampMaxTensorGetWorkspaceSize(self.get(), b.get(), out->get(), s, e);
              }, aclnnClampMaxTensor, stream_, nullptr), ACLNN_SUCCESS);
    expect_close(out->read(), asMax, kExact);
    // In place, with an INT32 bound broadcast over an INT64 selfRef's rows.
    DeviceTensor ref(TensorSpec({2, 3}, ACL_INT64), {-4, 0, 4, 7, -7, 1});
    DeviceTensor row(TensorSpec({3}, ACL_INT32), {-1, 1, 2});
    ASSERT_EQ(run_two_phases([&](uint64_t* s, aclOpExecutor** e) {
                  return aclnnInplaceClampMinTensorGetWorkspaceSize(ref.get(), row.get(), s, e);
              }, aclnnInplaceClampMinTensor, stream_, nullptr), ACLNN_SUCCESS);
    expect_close(ref.read(), {-1, 1, 4, 7, 1, 2}, kExact);
    ASSERT_EQ(run_two_phases([&](uint64_t* s, aclOpExecutor** e) {
                  return aclnnInplaceClampMaxTensorGetWorkspaceSize(ref.get(), row.get(), s, e);
              }, aclnnInplaceClampMaxTensor, stream_, nullptr), ACLNN_SUCCESS);
    expect_close(ref.read(), {-1, 1, 2, -1, 1, 2}, kExact);
}

// Empty self (either form), or an empty bound tensor: nothing to run, out untouched.
TEST_F(Clamp, EmptyTensorsNeedNoWork) {
    const Scalar lo(0);
    DeviceTensor empty(TensorSpec({0, 3}, ACL_FLOAT));
    auto emptyOut = DeviceTensor::output(TensorSpec({0, 3}, ACL_FLOAT));
    uint64_t workspace = 1;
    EXPECT_EQ(run_two_phases([&](uint64_t* s, aclOpExecutor** e) {
                  return aclnnClampMinGetWorkspaceSize(empty.get(), lo.get(), emptyOut->get(), s, e);
              }, aclnnClampMin, stream_, &workspace), ACLNN_SUCCESS);
    EXPECT_EQ(workspace, 0u);
    DeviceTensor self(TensorSpec({2, 3}, ACL_FLOAT), {1, 2, 3, 4, 5, 6});
    auto out = DeviceTensor::output(TensorSpec({2, 3}, ACL_FLOAT));
    EXPECT_EQ(clamp_tensor(self, &empty, nullptr, *out), ACLNN_SUCCESS);
    expect_close(out->read(), std::vector<double>(6, -7.0), kExact);
}

TEST_F(Clamp, ErrorCodes) {
    const Scalar lo(0), hi(1);
    DeviceTensor f(TensorSpec({2, 3}, ACL_FLOAT)), i32(TensorSpec({2, 3}, ACL_INT32));
    DeviceTensor boolean(TensorSpec({2, 3}, ACL_BOOL)), other(TensorSpec({3, 2}, ACL_FLOAT));
    DeviceTensor row4(TensorSpec({4}, ACL_FLOAT)), wide(TensorSpec({4, 2, 3}, ACL_FLOAT));
    DeviceTensor c64(TensorSpec({2, 3}, ACL_COMPLEX64)), u16(TensorSpec({2, 3}, ACL_UINT16));
    DeviceTensor deep(TensorSpec(Shape(9, 1), ACL_FLOAT));
    // 161001: each null argument of the one-bound forms; of Clamp and
    // ClampTensor a null tensor or out-parameter, or both bounds null (one
    // alone may be).
    expect_each_null_is_161001(aclnnClampMaxGetWorkspaceSize, f.get(), lo.get(), f.get());
    expect_each_null_is_161001(aclnnInplaceClampMaxGetWorkspaceSize, f.get(), lo.get());
    expect_each_null_is_161001(aclnnClampMinTensorGetWorkspaceSize, f.get(), f.get(), f.get());
    expect_each_null_is_161001(aclnnInplaceClampMinTensorGetWorkspaceSize, f.get(), f.get());
    expect_each_null_is_161001(aclnnClampMaxTensorGetWorkspaceSize, f.get(), f.get(), f.get());
    expect_each_null_is_161001(aclnnInplaceClampMaxTensorGetWorkspaceSize, f.get(), f.get());
    expect_error(phase1_of(aclnnClampMinGetWorkspaceSize, nullptr, nullptr, f.get()), ACLNN_ERR_PARAM_NULLPTR);
    expect_error(phase1_of(aclnnClampGetWorkspaceSize, nullptr, lo.get(), hi.get(), f.get()),
                 ACLNN_ERR_PARAM_NULLPTR);
    expect_error(phase1_of(aclnnClampGetWorkspaceSize, f.get(), lo.get(), hi.get(), nullptr),
                 ACLNN_ERR_PARAM_NULLPTR);
    expect_error(phase1_of(aclnnClampGetWorkspaceSize, f.get(), nullptr, nullptr, f.get()), ACLNN_ERR_PARAM_NULLPTR);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    expect_error(aclnnClampGetWorkspaceSize(f.get(), lo.get(), hi.get(), f.get(), nullptr, &ex),
                 ACLNN_ERR_PARAM_NULLPTR);
    expect_error(phase1_of(aclnnClampTensorGetWorkspaceSize, f.get(), nullptr, nullptr, f.get()),
                 ACLNN_ERR_PARAM_NULLPTR);
    expect_error(aclnnClampTensorGetWorkspaceSize(f.get(), f.get(), nullptr, f.get(), &ws, nullptr),
                 ACLNN_ERR_PARAM_NULLPTR);
    // 161002 from Clamp: self or out outside the list, shapes, rank 9, self
    // not castable to out.
    struct Pair {
        const DeviceTensor& self;
        const DeviceTensor& out;
    };
    for (const Pair& c : {Pair{boolean, f}, Pair{f, boolean}, Pair{f, other}, Pair{deep, deep}, Pair{f, i32}}) {
        expect_error(phase1_of(aclnnClampGetWorkspaceSize, c.self.get(), lo.get(), hi.get(), c.out.get()),
                     ACLNN_ERR_PARAM_INVALID);
    }
    // From ClampTensor (self, min, out): bounds that do not broadcast, a
    // broadcast other than out's shape, a promotion outside the list
    // (COMPLEX64) or none (UINT16), not castable to out, rank 9.
    struct Triple {
        const DeviceTensor& self;
        const DeviceTensor& min;
        const DeviceTensor& out;
    };
    for (const Triple& c : {Triple{f, row4, f}, Triple{f, wide, f}, Triple{f, c64, f}, Triple{i32, u16, i32},
                            Triple{i32, f, i32}, Triple{f, deep, f}}) {
        expect_error(phase1_of(aclnnClampTensorGetWorkspaceSize, c.self.get(), c.min.get(), nullptr, c.out.get()),
                     ACLNN_ERR_PARAM_INVALID);
    }
    expect_error(phase1_of(aclnnInplaceClampMinTensorGetWorkspaceSize, f.get(), wide.get()), ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
