// The fill family (InplaceFillScalar, InplaceZero, Arange) against double
// references of CANN's A2 graphs (hicann/ops-math conversion/fill/op_api/
// aclnn_fill_scalar.cpp, math/zero_op/op_api/aclnn_zero.cpp,
// math/range/op_api/aclnn_arange.cpp with the Range kernel's tiling and
// float kernel, op_host/arch35/range_tiling.cpp and op_kernel/arch35/
// range_float.h): every listed dtype, strided and offset views (nothing
// outside the view written), Arange's element count rule, empty tensors and
// every error code.
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_zero.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

const double kNaN = std::nan("");
const Tolerance kExact{0, 0};

const std::vector<aclDataType> kFillDtypes = {ACL_FLOAT, ACL_INT32,     ACL_INT64,      ACL_FLOAT16, ACL_INT16,
                                              ACL_INT8,  ACL_UINT8,     ACL_DOUBLE,     ACL_BOOL,    ACL_COMPLEX64,
                                              ACL_COMPLEX128, ACL_BF16, ACL_UINT16,     ACL_UINT32,  ACL_UINT64};
const std::vector<aclDataType> kZeroDtypes = {ACL_INT8,  ACL_INT32, ACL_INT64,  ACL_UINT8,  ACL_FLOAT16,
                                              ACL_FLOAT, ACL_BOOL,  ACL_DOUBLE, ACL_INT16,  ACL_UINT16,
                                              ACL_COMPLEX128, ACL_COMPLEX64, ACL_BF16};

/// A transposed view at an offset into a larger storage.
TensorSpec strided(aclDataType dtype) { return TensorSpec({6, 5}, dtype, {1, 7}, 3, {7 * 5 + 3}); }

class Fill : public AclTest {
protected:
    aclnnStatus fill(const DeviceTensor& self, const Scalar& value, uint64_t* workspace = nullptr) {
        return run_two_phases(
            [&](uint64_t* size, aclOpExecutor** executor) {
                return aclnnInplaceFillScalarGetWorkspaceSize(self.get(), value.get(), size, executor);
            },
            aclnnInplaceFillScalar, stream_, workspace);
    }
    aclnnStatus zero(const DeviceTensor& self, uint64_t* workspace = nullptr) {
        return run_two_phases(
            [&](uint64_t* size, aclOpExecutor** executor) {
                return aclnnInplaceZeroGetWorkspaceSize(self.get(), size, executor);
            },
            aclnnInplaceZero, stream_, workspace);
    }
    aclnnStatus arange(const Scalar& start, const Scalar& end, const Scalar& step, const DeviceTensor& out) {
        return run_two_phases(
            [&](uint64_t* size, aclOpExecutor** executor) {
                return aclnnArangeGetWorkspaceSize(start.get(), end.get(), step.get(), out.get(), size, executor);
            },
            aclnnArange, stream_, nullptr);
    }
};

/// The value's scalar for a dtype: UINT16/32/64 promote with their own dtype only.
aclDataType scalar_dtype_for(aclDataType dtype) {
    return dtype == ACL_UINT16 || dtype == ACL_UINT32 || dtype == ACL_UINT64 ? dtype : ACL_FLOAT;
}

// ConvertToTensor(value, selfRef's dtype): 2.5 is 2 in an integer, 1 in BOOL,
// (2.5, 0) in a complex dtype; every element of the view, nothing outside it.
TEST_F(Fill, FillScalarWritesEveryElementOfTheViewInEveryListedDtype) {
    for (aclDataType dtype : kFillDtypes) {
        SCOPED_TRACE(name(dtype));
        const aclDataType scalarDtype = scalar_dtype_for(dtype);
        const double value = scalarDtype == ACL_FLOAT ? 2.5 : 7;
        const Scalar scalar(value, scalarDtype);
        for (const TensorSpec& spec : {TensorSpec({3, 11}, dtype), strided(dtype)}) {
            auto self = DeviceTensor::output(spec);
            uint64_t workspace = 1;
            ASSERT_EQ(fill(*self, scalar, &workspace), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            EXPECT_EQ(workspace, 0u);
            const std::vector<Complex> got = self->read_complex();
            for (const Complex& element : got) {
                ASSERT_EQ(element, in_dtype(Complex(value, 0), dtype));
            }
            EXPECT_EQ(self->bytes_changed_outside_view(), 0u);
        }
    }
}

// The value is converted into the dtype: an integer wraps (-3 in UINT8 is
// 253), a float rounds (FLOAT16), NaN and infinities stay.
TEST_F(Fill, FillScalarConvertsTheValueOnce) {
    auto u8 = DeviceTensor::output(TensorSpec({4}, ACL_UINT8));
    ASSERT_EQ(fill(*u8, Scalar(-3, ACL_INT32)), ACLNN_SUCCESS);
    expect_close(u8->read(), std::vector<double>(4, 253), kExact);
    auto f16 = DeviceTensor::output(TensorSpec({4}, ACL_FLOAT16));
    ASSERT_EQ(fill(*f16, Scalar(0.1, ACL_DOUBLE)), ACLNN_SUCCESS);
    expect_close(f16->read(), std::vector<double>(4, representable(0.1, ACL_FLOAT16)), kExact);
    auto f32 = DeviceTensor::output(TensorSpec({4}, ACL_FLOAT));
    ASSERT_EQ(fill(*f32, Scalar(kNaN)), ACLNN_SUCCESS);
    expect_close(f32->read(), std::vector<double>(4, kNaN), kExact);
    auto c64 = DeviceTensor::output(TensorSpec({3}, ACL_COMPLEX64));
    ASSERT_EQ(fill(*c64, Scalar(Complex(1.5, -2), ACL_COMPLEX64)), ACLNN_SUCCESS);
    for (const Complex& element : c64->read_complex()) EXPECT_EQ(element, Complex(1.5, -2));
}

TEST_F(Fill, ZeroWritesEveryElementOfTheViewInEveryListedDtype) {
    for (aclDataType dtype : kZeroDtypes) {
        SCOPED_TRACE(name(dtype));
        for (const TensorSpec& spec : {TensorSpec({3, 11}, dtype), strided(dtype)}) {
            auto self = DeviceTensor::output(spec, 5);
            ASSERT_EQ(zero(*self), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            for (const Complex& element : self->read_complex()) ASSERT_EQ(element, Complex(0, 0));
            EXPECT_EQ(self->bytes_changed_outside_view(), 0u);
        }
    }
}

/// Range's element i: FLOAT, FLOAT16 and BF16 outs from fp32 Axpy (the
/// product rounded, then the sum; then Cast with RINT), DOUBLE in double,
/// the integers start + i * step.
double arange_reference(double start, double step, int64_t i, aclDataType out) {
    if (out == ACL_INT32 || out == ACL_INT64) {
        return wrap(std::trunc(start) + static_cast<double>(i) * std::trunc(step), out);
    }
    if (out == ACL_DOUBLE) return start + static_cast<double>(i) * step;
    const float product = static_cast<float>(i) * static_cast<float>(step);
    return representable(static_cast<float>(static_cast<float>(start) + product), out);
}

TEST_F(Fill, ArangeInEveryListedOutDtype) {
    struct Case {
        double start, end, step;
    };
    for (aclDataType dtype : {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_INT64, ACL_INT32, ACL_BF16}) {
        const bool integral = dtype == ACL_INT32 || dtype == ACL_INT64;
        for (const Case& c : {Case{0, 10, 1}, Case{-3, 7, integral ? 2 : 0.7}, Case{5, -5, integral ? -3 : -0.3},
                              Case{1000, 1300, integral ? 3 : 1.1}}) {
            SCOPED_TRACE(name(dtype) + " " + std::to_string(c.start) + ":" + std::to_string(c.end) + ":" +
                         std::to_string(c.step));
            const int64_t n = static_cast<int64_t>(std::ceil((c.end - c.start) / c.step));
            const Scalar start(c.start, ACL_DOUBLE), end(c.end, ACL_DOUBLE), step(c.step, ACL_DOUBLE);
            auto out = DeviceTensor::output(TensorSpec({n}, dtype));
            ASSERT_EQ(arange(start, end, step, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            std::vector<double> expected;
            for (int64_t i = 0; i < n; ++i) expected.push_back(arange_reference(c.start, c.step, i, dtype));
            expect_close(out->read(), expected, kExact);
        }
    }
}

// Outputs of 32 MiB and more are written with streaming stores from a vector
// boundary on (test_fill_large.cpp): 8.4 Mi fp32 one element into the
// allocation and 16.8 Mi fp16 and bf16 three and two in, each element
// computed in fp32 and rounded once (fp16 passes 65504 and turns inf).
TEST_F(Fill, ArangeOfALargeOutputOffAnyBoundary) {
    const std::pair<aclDataType, int64_t> cases[] = {{ACL_FLOAT, 1}, {ACL_FLOAT16, 3}, {ACL_BF16, 2}};
    for (const auto& [dtype, offset] : cases) {
        SCOPED_TRACE(name(dtype));
        const int64_t rows = dtype == ACL_FLOAT ? 2049 : 4099, columns = 4099, n = rows * columns;
        auto out = DeviceTensor::output(TensorSpec({rows, columns}, dtype, {}, offset, {n + offset}));
        const double start = -3, step = 0.01;
        ASSERT_EQ(arange(Scalar(start), Scalar(std::numeric_limits<double>::infinity()), Scalar(step), *out),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        const std::vector<double> got = out->read();
        size_t wrong = 0;
        for (int64_t i = 0; i < n; ++i) {
            wrong += got[static_cast<size_t>(i)] != arange_reference(start, step, i, dtype);
        }
        EXPECT_EQ(wrong, 0u);
        EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
    }
}

// Range's tiling (CalculateOutputSize) only warns when out's element count
// differs from ceil((end - start) / step): it writes the smaller count. A
// strided out is written through its view.
TEST_F(Fill, ArangeWritesTheSmallerOfItsCountAndOutsElements) {
    const Scalar start(0), end(5), step(1);
    auto longer = DeviceTensor::output(TensorSpec({8}, ACL_FLOAT));
    ASSERT_EQ(arange(start, end, step, *longer), ACLNN_SUCCESS);
    expect_close(longer->read(), {0, 1, 2, 3, 4, -7, -7, -7}, kExact);
    auto shorter = DeviceTensor::output(TensorSpec({3}, ACL_INT64));
    ASSERT_EQ(arange(Scalar(0, ACL_INT64), Scalar(5, ACL_INT64), Scalar(1, ACL_INT64), *shorter), ACLNN_SUCCESS);
    expect_close(shorter->read(), {0, 1, 2}, kExact);
    auto view = DeviceTensor::output(TensorSpec({2, 3}, ACL_INT32, {1, 2}, 1, {8}));
    ASSERT_EQ(arange(Scalar(10, ACL_INT32), Scalar(16, ACL_INT32), Scalar(1, ACL_INT32), *view), ACLNN_SUCCESS);
    // Row-major over the view: (0,0)=10 (0,1)=11 (0,2)=12 (1,0)=13 ...
    expect_close(view->read(), {10, 11, 12, 13, 14, 15}, kExact);
    EXPECT_EQ(view->bytes_changed_outside_view(), 0u);
    // An infinite end counts past out's elements: all are written; a NaN end
    // makes a NaN count (CANN's cast of it is undefined): none are.
    auto all = DeviceTensor::output(TensorSpec({3}, ACL_FLOAT));
    ASSERT_EQ(arange(start, Scalar(std::numeric_limits<double>::infinity()), step, *all), ACLNN_SUCCESS);
    expect_close(all->read(), {0, 1, 2}, kExact);
    auto none = DeviceTensor::output(TensorSpec({3}, ACL_FLOAT));
    ASSERT_EQ(arange(start, Scalar(kNaN), step, *none), ACLNN_SUCCESS);
    expect_close(none->read(), {-7, -7, -7}, kExact);
    // An INT64 span past int64: out's elements.
    auto wide = DeviceTensor::output(TensorSpec({2}, ACL_INT64));
    ASSERT_EQ(arange(Scalar(-4e18, ACL_INT64), Scalar(9e18, ACL_INT64), Scalar(1e18, ACL_INT64), *wide), ACLNN_SUCCESS);
    expect_close(wide->read(), {-4e18, -3e18}, kExact);
    // start == end: nothing to write.
    auto untouched = DeviceTensor::output(TensorSpec({2}, ACL_FLOAT));
    ASSERT_EQ(arange(start, start, step, *untouched), ACLNN_SUCCESS);
    expect_close(untouched->read(), {-7, -7}, kExact);
}

TEST_F(Fill, EmptyTensorsNeedNoWork) {
    auto empty = DeviceTensor::output(TensorSpec({0, 3}, ACL_FLOAT));
    uint64_t workspace = 1;
    EXPECT_EQ(fill(*empty, Scalar(1), &workspace), ACLNN_SUCCESS);
    EXPECT_EQ(workspace, 0u);
    EXPECT_EQ(zero(*empty), ACLNN_SUCCESS);
    EXPECT_EQ(arange(Scalar(0), Scalar(3), Scalar(1), *empty), ACLNN_SUCCESS);
}

TEST_F(Fill, ErrorCodes) {
    DeviceTensor f32(TensorSpec({2}, ACL_FLOAT)), u16(TensorSpec({2}, ACL_UINT16)), i8(TensorSpec({2}, ACL_INT8));
    DeviceTensor u32(TensorSpec({2}, ACL_UINT32)), deep(TensorSpec(Shape(9, 1), ACL_FLOAT));
    const Scalar one(1), zeroStep(0), nan(kNaN), minusOne(-1), c64(Complex(1, 1), ACL_COMPLEX64);
    const Scalar big(1e10, ACL_DOUBLE);
    // 161001: each null tensor, scalar and out-parameter.
    expect_each_null_is_161001(aclnnInplaceFillScalarGetWorkspaceSize, f32.get(), one.get());
    expect_each_null_is_161001(aclnnInplaceZeroGetWorkspaceSize, f32.get());
    expect_each_null_is_161001(aclnnArangeGetWorkspaceSize, one.get(), big.get(), one.get(), f32.get());
    // 161002: Fill of a UINT16 self with a FLOAT value (no promotion), rank 9;
    // Zero of UINT32 (not listed), rank 9.
    for (const DeviceTensor* self : {&u16, &deep}) {
        expect_error(phase1_of(aclnnInplaceFillScalarGetWorkspaceSize, self->get(), one.get()),
                     ACLNN_ERR_PARAM_INVALID);
    }
    for (const DeviceTensor* self : {&u32, &deep}) {
        expect_error(phase1_of(aclnnInplaceZeroGetWorkspaceSize, self->get()), ACLNN_ERR_PARAM_INVALID);
    }
    // Arange: a complex start, an INT8 out, a step of 0, NaN or the wrong
    // sign, an out of rank 9.
    struct ArangeCase {
        const Scalar& start;
        const Scalar& step;
        const DeviceTensor& out;
    };
    for (const ArangeCase& c : {ArangeCase{c64, one, f32}, ArangeCase{one, one, i8}, ArangeCase{one, zeroStep, f32},
                                ArangeCase{one, nan, f32}, ArangeCase{one, minusOne, f32},
                                ArangeCase{one, one, deep}}) {
        expect_error(phase1_of(aclnnArangeGetWorkspaceSize, c.start.get(), big.get(), c.step.get(), c.out.get()),
                     ACLNN_ERR_PARAM_INVALID);
    }
}

}  // namespace
