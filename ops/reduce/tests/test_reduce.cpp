// The reduce family (ReduceSum, Mean, MeanV2, Amax, Amin) against double
// references computed here, following CANN's A2 op_api graphs (hicann/
// ops-math math/reduce_sum/op_api/aclnn_reduce_sum.cpp, math/reduce_mean/
// op_api/aclnn_mean.cpp, math/reduce_max/op_api/aclnn_amax.cpp,
// math/reduce_min/op_api/aclnn_amin.cpp, math/arg_max_v2/op_api/
// aclnn_argmax.cpp, math/cumsum/op_api/aclnn_cumsum.cpp): every listed real dtype, every dim
// subset of a 3-D tensor with and without keepdim, strided and offset
// views, 0-d and empty tensors, every error path, and bitwise-identical
// results for 1, 2 and 8 worker threads on reductions split over blocks.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"
#include "ops/reduction_reference.hpp"

namespace {

using namespace optest;

const double kNaN = std::nan("");
const Tolerance kExact{0, 0};

enum class Kind { sum, mean, max, min };

/// The double reference: each output (row-major over the kept dims) the
/// sum / mean / max / min of its elements; max and min propagate NaN.
std::vector<double> reference(const std::vector<double>& values, const Shape& shape, uint32_t mask, Kind kind) {
    const auto outputs = static_cast<size_t>(numel(reduced(shape, mask, false)));
    std::vector<double> acc(outputs, kind == Kind::max ? -INFINITY : kind == Kind::min ? INFINITY : 0.0);
    std::vector<int64_t> counts(outputs, 0);
    for (int64_t i = 0; i < numel(shape); ++i) {
        const int64_t o = output_of(i, shape, mask);
        const double v = values[static_cast<size_t>(i)];
        double& a = acc[static_cast<size_t>(o)];
        if (kind == Kind::max) a = std::isnan(v) || std::isnan(a) ? kNaN : std::max(a, v);
        else if (kind == Kind::min) a = std::isnan(v) || std::isnan(a) ? kNaN : std::min(a, v);
        else a += v;
        ++counts[static_cast<size_t>(o)];
    }
    if (kind == Kind::mean) {
        for (size_t o = 0; o < outputs; ++o) acc[o] /= static_cast<double>(counts[o]);
    }
    return acc;
}

std::vector<double> real_parts(const std::vector<Complex>& values) {
    std::vector<double> re;
    for (const Complex& v : values) re.push_back(v.real());
    return re;
}

/// ArgMax's reference: along dim, the first index of the largest value, a
/// NaN counting as the largest.
std::vector<double> arg_max_reference(const std::vector<double>& values, const Shape& shape, size_t dim) {
    int64_t inner = 1;
    for (size_t d = dim + 1; d < shape.size(); ++d) inner *= shape[d];
    const int64_t extent = shape.empty() ? 1 : shape[dim];
    const int64_t outer = numel(shape) / std::max<int64_t>(1, extent * inner);
    std::vector<double> result;
    for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < inner; ++i) {
            int64_t best = 0;
            for (int64_t k = 1; k < extent; ++k) {
                const double v = values[static_cast<size_t>((o * extent + k) * inner + i)];
                const double b = values[static_cast<size_t>((o * extent + best) * inner + i)];
                if (!std::isnan(b) && (std::isnan(v) || v > b)) best = k;
            }
            result.push_back(static_cast<double>(best));
        }
    }
    return result;
}

/// Cumsum's reference along dim: inclusive or exclusive, forwards or
/// backwards, each partial sum exact.
std::vector<double> cumsum_reference(const std::vector<double>& values, const Shape& shape, size_t dim,
                                     bool exclusive, bool reverse) {
    int64_t inner = 1;
    for (size_t d = dim + 1; d < shape.size(); ++d) inner *= shape[d];
    const int64_t extent = shape.empty() ? 1 : shape[dim];
    const int64_t outer = numel(shape) / std::max<int64_t>(1, extent * inner);
    std::vector<double> result(values.size());
    for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < inner; ++i) {
            double acc = 0;
            for (int64_t step = 0; step < extent; ++step) {
                const int64_t k = reverse ? extent - 1 - step : step;
                const auto at = static_cast<size_t>((o * extent + k) * inner + i);
                if (exclusive) result[at] = acc;
                acc += values[at];
                if (!exclusive) result[at] = acc;
            }
        }
    }
    return result;
}

class Reduce : public ReductionTest {
protected:
    /// ReduceSum (Kind::sum) or Mean (Kind::mean) over every dim subset of
    /// [3, 4, 5] values of dtype (from seed), against the double reference
    /// rounded into dtype.
    void expect_every_dim_subset(Kind kind, aclDataType dtype, uint32_t seed);
    aclnnStatus reduce_sum(const DeviceTensor& self, const IntArray& dims, bool keepDims, aclDataType dtype,
                           const DeviceTensor& out, uint64_t* workspace = nullptr) {
        return two_phases(aclnnReduceSumGetWorkspaceSize, aclnnReduceSum, workspace, self.get(), dims.get(), keepDims,
                          dtype, out.get());
    }
    aclnnStatus mean(const DeviceTensor& self, const IntArray& dims, bool keepDim, aclDataType dtype,
                     const DeviceTensor& out) {
        return two_phases(aclnnMeanGetWorkspaceSize, aclnnMean, nullptr, self.get(), dims.get(), keepDim, dtype,
                          out.get());
    }
    aclnnStatus mean_v2(const DeviceTensor& self, const IntArray& dims, bool keepDim, bool noop,
                        const DeviceTensor& out) {
        return two_phases(aclnnMeanV2GetWorkspaceSize, aclnnMeanV2, nullptr, self.get(), dims.get(), keepDim, noop,
                          out.get());
    }
    aclnnStatus arg_max(const DeviceTensor& self, int64_t dim, bool keepdim, const DeviceTensor& out,
                        uint64_t* workspace = nullptr) {
        return two_phases(aclnnArgMaxGetWorkspaceSize, aclnnArgMax, workspace, self.get(), dim, keepdim, out.get());
    }
    aclnnStatus cumsum(const DeviceTensor& self, int64_t dim, aclDataType dtype, const DeviceTensor& out) {
        return two_phases(aclnnCumsumGetWorkspaceSize, aclnnCumsum, nullptr, self.get(), dim, dtype, out.get());
    }
    aclnnStatus cumsum_v2(const DeviceTensor& self, int64_t dim, bool exclusive, bool reverse,
                          const DeviceTensor& out) {
        return two_phases(aclnnCumsumV2GetWorkspaceSize, aclnnCumsumV2, nullptr, self.get(), dim, exclusive, reverse,
                          out.get());
    }
    aclnnStatus extremum(Kind kind, const DeviceTensor& self, const IntArray& dims, bool keepDim,
                         const DeviceTensor& out, uint64_t* workspace = nullptr) {
        if (kind == Kind::max) {
            return two_phases(aclnnAmaxGetWorkspaceSize, aclnnAmax, workspace, self.get(), dims.get(), keepDim,
                              out.get());
        }
        return two_phases(aclnnAminGetWorkspaceSize, aclnnAmin, workspace, self.get(), dims.get(), keepDim,
                          out.get());
    }
};

const std::vector<aclDataType> kRealSumDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_INT8,   ACL_INT16, ACL_INT32,
                                                 ACL_INT64,   ACL_UINT8, ACL_DOUBLE, ACL_BF16};
const std::vector<aclDataType> kExtremumDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_UINT8,  ACL_INT32, ACL_INT64,
                                                  ACL_INT16, ACL_INT8,    ACL_DOUBLE, ACL_BOOL,  ACL_BF16};

/// A [3, 4, 5] view: contiguous, or transposed (strides {1, 3, 12}) at offset 5.
std::vector<TensorSpec> views(aclDataType dtype) {
    return {TensorSpec({3, 4, 5}, dtype), TensorSpec({3, 4, 5}, dtype, {1, 3, 12}, 5, {3 * 4 * 5 + 5})};
}

/// Calls check(self, dims, mask, keepDim) for both views of a [3, 4, 5]
/// tensor of dtype holding x, every dim subset (dims; mask the reduced ones,
/// every dim for the empty list) and keepDim either way.
template <class Check>
void for_each_dim_subset(aclDataType dtype, const std::vector<double>& x, const Check& check) {
    for (const TensorSpec& spec : views(dtype)) {
        DeviceTensor self(spec, x);
        for (uint32_t mask = 0; mask < 8; ++mask) {
            for (bool keepDim : {false, true}) {
                SCOPED_TRACE("mask " + std::to_string(mask) + (keepDim ? " keepDim" : ""));
                check(self, IntArray(dims_of(mask, 3)), mask == 0 ? 7u : mask, keepDim);
            }
        }
    }
}

/// Inputs of dtype: positive (a sum does not cancel), small enough that an
/// 8-bit sum of 60 does not wrap... except where the test wants it to.
std::vector<double> inputs(aclDataType dtype, size_t n, uint32_t seed) {
    return real_parts(sample(dtype, n, seed, is_integral(dtype) ? 0 : 0.5, is_integral(dtype) ? 3 : 4));
}

void Reduce::expect_every_dim_subset(Kind kind, aclDataType dtype, uint32_t seed) {
    SCOPED_TRACE(name(dtype));
    const Shape shape{3, 4, 5};
    const std::vector<double> x = inputs(dtype, 60, seed);
    for_each_dim_subset(dtype, x, [&](const DeviceTensor& self, const IntArray& dims, uint32_t mask, bool keep) {
        auto out = DeviceTensor::output(TensorSpec(reduced(shape, mask, keep), dtype));
        const aclnnStatus status =
            kind == Kind::sum ? reduce_sum(self, dims, keep, dtype, *out) : mean(self, dims, keep, dtype, *out);
        ASSERT_EQ(status, ACLNN_SUCCESS) << aclGetRecentErrMsg();
        expect_rounded_into(*out, reference(x, shape, mask, kind), dtype);
    });
}

// aclnn_reduce_sum.cpp: self cast to dtype, ReduceSum in it (fp16/bf16 in
// an fp32 accumulator, rounded once), every dim subset (an empty list is
// every dim), keepDims either way, negative dims wrap.
TEST_F(Reduce, ReduceSumMatchesTheDoubleReferenceOverEveryDimSubset) {
    for (aclDataType dtype : kRealSumDtypes) expect_every_dim_subset(Kind::sum, dtype, 1);
}

// The dtype argument: F32 self summed as INT64 (ggml's COUNT_EQUAL) casts
// each element first (toward zero); an FP16 self summed as FLOAT; BOOL is
// ReduceAny; integer sums wrap in their dtype.
TEST_F(Reduce, ReduceSumCastsSelfIntoDtypeFirst) {
    DeviceTensor f32({{2, 3}, ACL_FLOAT}, {1, 0, 1, 1.9, 1, -0.5});
    auto i64 = DeviceTensor::output({{2}, ACL_INT64});
    ASSERT_EQ(reduce_sum(f32, {-1}, false, ACL_INT64, *i64), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(i64->read(), {2, 2}, kExact);

    DeviceTensor f16({{4}, ACL_FLOAT16}, {65504, 65504, 1, 2});
    auto f32out = DeviceTensor::output({{}, ACL_FLOAT});
    ASSERT_EQ(reduce_sum(f16, {}, false, ACL_FLOAT, *f32out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(f32out->read(), {131011}, kExact);

    DeviceTensor any({{2, 3}, ACL_FLOAT}, {0, 0, 0.5, 0, 0, 0});
    auto b = DeviceTensor::output({{2}, ACL_BOOL});
    ASSERT_EQ(reduce_sum(any, {1}, false, ACL_BOOL, *b), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(b->read(), {1, 0}, kExact);

    DeviceTensor i8({{3}, ACL_INT8}, {100, 100, 100});
    auto i8out = DeviceTensor::output({{1}, ACL_INT8});
    ASSERT_EQ(reduce_sum(i8, {0}, true, ACL_INT8, *i8out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(i8out->read(), {44}, kExact);  // 300 wraps to 44
}

// aclnn_mean.cpp: Cast(self, dtype), ReduceMean (sum times the fp32
// reciprocal of the count for float dtypes), Cast(out); every dim subset.
TEST_F(Reduce, MeanMatchesTheDoubleReferenceOverEveryDimSubset) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}) {
        expect_every_dim_subset(Kind::mean, dtype, 2);
    }
    // ggml's MEAN: dim 3 of a 4-D fp32 tensor with keepDim.
    const std::vector<double> x = inputs(ACL_FLOAT, 2 * 3 * 4 * 7, 3);
    DeviceTensor self({{2, 3, 4, 7}, ACL_FLOAT}, x);
    auto out = DeviceTensor::output({{2, 3, 4, 1}, ACL_FLOAT});
    ASSERT_EQ(mean(self, {3}, true, ACL_FLOAT, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(out->read(), reference(x, {2, 3, 4, 7}, 8, Kind::mean), tolerance_for(ACL_FLOAT));
}

// An integer mean is computed in the integer dtype (toward zero); an FP16
// self averaged in FLOAT is not rounded to fp16 first.
TEST_F(Reduce, MeanComputesInItsDtype) {
    DeviceTensor i32({{2, 2}, ACL_INT32}, {1, 2, -3, -4});
    auto out = DeviceTensor::output({{2}, ACL_INT32});
    ASSERT_EQ(mean(i32, {1}, false, ACL_INT32, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(out->read(), {1, -3}, kExact);
    DeviceTensor f16({{2}, ACL_FLOAT16}, {65504, 65504});
    auto f32 = DeviceTensor::output({{}, ACL_FLOAT});
    ASSERT_EQ(mean(f16, {}, false, ACL_FLOAT, *f32), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(f32->read(), {65504}, kExact);
}

// aclnnMeanV2: out of self's dtype; an empty dim list is a copy with
// noopWithEmptyAxes, every dim without.
TEST_F(Reduce, MeanV2EmptyDimsCopyOrReduceAll) {
    const std::vector<double> x = {1, 2, 3, 6};
    DeviceTensor self({{2, 2}, ACL_FLOAT}, x);
    auto copy = DeviceTensor::output({{2, 2}, ACL_FLOAT});
    ASSERT_EQ(mean_v2(self, {}, false, true, *copy), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(copy->read(), x, kExact);
    auto all = DeviceTensor::output({{}, ACL_FLOAT});
    ASSERT_EQ(mean_v2(self, {}, false, false, *all), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(all->read(), {3}, kExact);
    auto rows = DeviceTensor::output({{2, 1}, ACL_FLOAT});
    ASSERT_EQ(mean_v2(self, {-1}, true, false, *rows), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(rows->read(), {1.5, 4.5}, kExact);
}

// aclnn_amax.cpp / aclnn_amin.cpp: every listed dtype (BOOL reduced as
// FLOAT), every dim subset, strided views; exact.
TEST_F(Reduce, AmaxAminMatchTheReferenceOverEveryDimSubset) {
    const Shape shape{3, 4, 5};
    for (Kind kind : {Kind::max, Kind::min}) {
        for (aclDataType dtype : kExtremumDtypes) {
            SCOPED_TRACE(name(dtype));
            const std::vector<double> x = real_parts(sample(dtype, 60, 4));
            for_each_dim_subset(dtype, x,
                                [&](const DeviceTensor& self, const IntArray& dims, uint32_t mask, bool keep) {
                                    auto out = DeviceTensor::output(TensorSpec(reduced(shape, mask, keep), dtype));
                                    ASSERT_EQ(extremum(kind, self, dims, keep, *out), ACLNN_SUCCESS)
                                        << aclGetRecentErrMsg();
                                    expect_close(out->read(), reference(x, shape, mask, kind), kExact);
                                });
        }
    }
}

// A NaN in a reduced run makes the result NaN (max and min propagate it);
// infinities are ordinary values.
TEST_F(Reduce, AmaxAminPropagateNaN) {
    std::vector<double> x(40, 1.0);
    x[3] = kNaN;
    x[25] = INFINITY;
    x[30] = -INFINITY;
    for (Kind kind : {Kind::max, Kind::min}) {
        DeviceTensor self({{2, 20}, ACL_FLOAT}, x);
        auto out = DeviceTensor::output({{2}, ACL_FLOAT});
        ASSERT_EQ(extremum(kind, self, {1}, false, *out), ACLNN_SUCCESS);
        expect_close(out->read(), {kNaN, kind == Kind::max ? INFINITY : -INFINITY}, kExact);
    }
}

// 0-d self: dims in [-1, 0] name the element; out is it, cast.
TEST_F(Reduce, ZeroDimSelfIsItsOwnReduction) {
    DeviceTensor self({{}, ACL_FLOAT16}, {2.5});
    for (const std::vector<int64_t>& dims : {std::vector<int64_t>{}, {0}, {-1}}) {
        auto sum = DeviceTensor::output({{}, ACL_FLOAT16});
        ASSERT_EQ(reduce_sum(self, dims, false, ACL_FLOAT16, *sum), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        expect_close(sum->read(), {2.5}, kExact);
        auto avg = DeviceTensor::output({{}, ACL_FLOAT});
        ASSERT_EQ(mean(self, dims, true, ACL_FLOAT, *avg), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        expect_close(avg->read(), {2.5}, kExact);
        auto max = DeviceTensor::output({{}, ACL_FLOAT16});
        ASSERT_EQ(extremum(Kind::max, self, dims, false, *max), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        expect_close(max->read(), {2.5}, kExact);
    }
}

// Empty self: ReduceSum fills out with 0, Mean with NaN (FillScalar); Amax
// launches nothing.  Each with workspace 0.
TEST_F(Reduce, EmptySelfFillsOutAsTheOpApiDoes) {
    DeviceTensor self(TensorSpec({0, 3}, ACL_FLOAT));
    auto sum = DeviceTensor::output({{3}, ACL_FLOAT});
    uint64_t workspace = 1;
    ASSERT_EQ(reduce_sum(self, {0}, false, ACL_FLOAT, *sum, &workspace), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(workspace, 0u);
    expect_close(sum->read(), {0, 0, 0}, kExact);
    auto avg = DeviceTensor::output({{3}, ACL_FLOAT});
    ASSERT_EQ(mean(self, {0}, false, ACL_FLOAT, *avg), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(avg->read(), {kNaN, kNaN, kNaN}, kExact);
    auto max = DeviceTensor::output({{0}, ACL_FLOAT});
    ASSERT_EQ(extremum(Kind::max, self, {1}, false, *max, &workspace), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(workspace, 0u);
}

// The op_apis' check order and messages.
TEST_F(Reduce, ErrorPathsAnswerCannsCodesAndMessages) {
    DeviceTensor self({{2, 3}, ACL_FLOAT}, std::vector<double>(6, 1));
    auto out = DeviceTensor::output({{2}, ACL_FLOAT});
    auto phase1 = [&](const aclTensor* s, const aclIntArray* dims, aclDataType dtype, const aclTensor* o) {
        uint64_t size = 0;
        aclOpExecutor* executor = nullptr;
        return aclnnReduceSumGetWorkspaceSize(s, dims, false, dtype, const_cast<aclTensor*>(o), &size, &executor);
    };
    const IntArray dim1{1};
    expect_error_naming(phase1(nullptr, dim1.get(), ACL_FLOAT, out->get()), ACLNN_ERR_PARAM_NULLPTR, "self");
    expect_error_naming(phase1(self.get(), nullptr, ACL_FLOAT, out->get()), ACLNN_ERR_PARAM_NULLPTR, "dims");
    expect_error_naming(phase1(self.get(), dim1.get(), ACL_FLOAT, nullptr), ACLNN_ERR_PARAM_NULLPTR, "out");
    DeviceTensor u16({{2, 3}, ACL_UINT16}, std::vector<double>(6, 1));
    expect_error_naming(phase1(u16.get(), dim1.get(), ACL_FLOAT, out->get()), ACLNN_ERR_PARAM_INVALID, "UINT16");
    expect_error_naming(phase1(self.get(), dim1.get(), ACL_UINT32, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "should be in dtype support list");
    expect_error_naming(phase1(self.get(), dim1.get(), ACL_INT32, out->get()), ACLNN_ERR_PARAM_INVALID, "INT32");
    const IntArray dim2{2};
    expect_error_naming(phase1(self.get(), dim2.get(), ACL_FLOAT, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "Provided dim 2 must be in the range of [-2, 1].");
    const IntArray twice{1, -1};
    expect_error_naming(phase1(self.get(), twice.get(), ACL_FLOAT, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "Dim 1 appears multiple times in the list of dims.");
    const IntArray dim0{0};
    expect_error_naming(phase1(self.get(), dim0.get(), ACL_FLOAT, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "is not equal with shape");
    DeviceTensor nine(TensorSpec(Shape(9, 1), ACL_FLOAT));
    expect_error_naming(phase1(nine.get(), dim1.get(), ACL_FLOAT, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "cannot be larger than 8 dimensions");
    {
        aclOpExecutor* executor = nullptr;
        expect_error(aclnnReduceSumGetWorkspaceSize(self.get(), dim1.get(), false, ACL_FLOAT, out->get(), nullptr,
                                                    &executor),
                     ACLNN_ERR_PARAM_NULLPTR);
    }

    // Mean: its own wording, all range checks before the repeat check.
    const auto mean1 = [&](const IntArray& dims, aclDataType dtype, const DeviceTensor& o) {
        uint64_t size = 0;
        aclOpExecutor* executor = nullptr;
        return aclnnMeanGetWorkspaceSize(self.get(), dims.get(), false, dtype, o.get(), &size, &executor);
    };
    expect_error_naming(mean1({1, 1, 5}, ACL_FLOAT, *out), ACLNN_ERR_PARAM_INVALID,
                        "provided dim 5 must be in the range of [-2, 1].");
    expect_error_naming(mean1({1, -1}, ACL_FLOAT, *out), ACLNN_ERR_PARAM_INVALID, "provided dim -1 is repeated.");
    auto intOut = DeviceTensor::output({{2}, ACL_INT32});
    expect_error_naming(mean1({1}, ACL_FLOAT, *intOut), ACLNN_ERR_PARAM_INVALID, "INT32");
    expect_error_naming(mean1({0}, ACL_FLOAT, *out), ACLNN_ERR_PARAM_INVALID, "is not equal with shape");

    // Amax: out of self's dtype, a reduced dim of size 0, out of the reduced shape.
    const auto amax = [&](const DeviceTensor& s, const IntArray& dims, const DeviceTensor& o) {
        uint64_t size = 0;
        aclOpExecutor* executor = nullptr;
        return aclnnAmaxGetWorkspaceSize(s.get(), dims.get(), false, o.get(), &size, &executor);
    };
    expect_error_naming(amax(self, {1}, *intOut), ACLNN_ERR_PARAM_INVALID, "INT32");
    DeviceTensor empty(TensorSpec({2, 0}, ACL_FLOAT));
    expect_error_naming(amax(empty, {1}, *out), ACLNN_ERR_PARAM_INVALID,
                        "Expected reducution dim 1 to have non-zero size.");
    auto wrong = DeviceTensor::output({{3}, ACL_FLOAT});
    expect_error_naming(amax(self, {1}, *wrong), ACLNN_ERR_PARAM_INVALID, "out");
}

// CheckShapeAndScalarSame admits an out of any one-element shape: a
// [1]*9 out takes the sum (its dims beyond 8 address nothing; found by
// fuzz_reduction, an out-of-bounds index before).  An empty self's Fill
// takes at most 8 dims.  A dtype code that is no data type is refused
// (also found by fuzz_reduction: it was loaded as the enum).
TEST_F(Reduce, OneElementOutsOfAnyRankAndUnknownDtypeCodes) {
    DeviceTensor self({{2, 3}, ACL_FLOAT}, {1, 2, 3, 4, 5, 6});
    auto nine = DeviceTensor::output(TensorSpec(Shape(9, 1), ACL_FLOAT));
    ASSERT_EQ(reduce_sum(self, {}, false, ACL_FLOAT, *nine), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(nine->read(), {21}, kExact);
    DeviceTensor empty(TensorSpec({0, 3}, ACL_FLOAT));
    uint64_t size = 0;
    aclOpExecutor* executor = nullptr;
    expect_error_naming(aclnnReduceSumGetWorkspaceSize(empty.get(), IntArray{}.get(), false, ACL_FLOAT, nine->get(),
                                                       &size, &executor),
                        ACLNN_ERR_PARAM_INVALID, "8 dimensions");
    auto out = DeviceTensor::output({{2}, ACL_FLOAT});
    // Converted in the call, never stored: UBSan's enum check reports a load
    // of a variable holding a code outside the enum's range.
    expect_error_naming(aclnnMeanGetWorkspaceSize(self.get(), IntArray{1}.get(), false, static_cast<aclDataType>(255),
                                                  out->get(), &size, &executor),
                        ACLNN_ERR_PARAM_INVALID, "should be in dtype support list");
}

// aclnn_argmax.cpp: every listed dtype, every dim (negative ones wrap),
// keepdim either way, strided views, INT32 and INT64 outs; small integer
// values make ties, which keep the first index.
TEST_F(Reduce, ArgMaxIsTheFirstIndexOfTheLargest) {
    const Shape shape{3, 4, 5};
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64,
                              ACL_UINT8, ACL_BF16}) {
        SCOPED_TRACE(name(dtype));
        std::vector<double> x = real_parts(sample(dtype, 60, 5, 0, 3));
        for (double& v : x) v = std::floor(v);
        for (const TensorSpec& spec : views(dtype)) {
            DeviceTensor self(spec, x);
            for (int64_t dim = -3; dim < 3; ++dim) {
                for (bool keepdim : {false, true}) {
                    const size_t d = static_cast<size_t>(dim < 0 ? dim + 3 : dim);
                    for (aclDataType outDtype : {ACL_INT64, ACL_INT32}) {
                        auto out = DeviceTensor::output(TensorSpec(reduced(shape, 1u << d, keepdim), outDtype));
                        ASSERT_EQ(arg_max(self, dim, keepdim, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
                        expect_close(out->read(), arg_max_reference(x, shape, d), kExact);
                    }
                }
            }
        }
    }
}

// NaN counts as the largest (the first NaN's index); infinities order as
// numbers.  ggml's ARGMAX: F32 -> INT32 over dim 3 of a 4-D tensor.
TEST_F(Reduce, ArgMaxTakesTheFirstNaNAndServesGgml) {
    DeviceTensor self({{2, 4}, ACL_FLOAT}, {1, kNaN, 3, kNaN, -INFINITY, INFINITY, 2, INFINITY});
    auto out = DeviceTensor::output({{2}, ACL_INT64});
    ASSERT_EQ(arg_max(self, 1, false, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(out->read(), {1, 1}, kExact);
    const std::vector<double> x = representable(uniform(2 * 3 * 2 * 33, -5, 5, 6), ACL_FLOAT);
    DeviceTensor rows({{2, 3, 2, 33}, ACL_FLOAT}, x);
    auto index = DeviceTensor::output({{2, 3, 2}, ACL_INT32});
    ASSERT_EQ(arg_max(rows, 3, false, *index), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(index->read(), arg_max_reference(x, {2, 3, 2, 33}, 3), kExact);
    DeviceTensor scalar({{}, ACL_FLOAT}, {4});
    auto zero = DeviceTensor::output({{}, ACL_INT64});
    ASSERT_EQ(arg_max(scalar, -1, false, *zero), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(zero->read(), {0}, kExact);
}

// CheckDtypeValid, CheckShape, CheckDim, then an empty self launches nothing.
TEST_F(Reduce, ArgMaxErrorPaths) {
    DeviceTensor self({{2, 3}, ACL_FLOAT}, std::vector<double>(6, 1));
    auto out = DeviceTensor::output({{2}, ACL_INT64});
    const auto phase1 = [&](const aclTensor* s, int64_t dim, const aclTensor* o) {
        uint64_t size = 0;
        aclOpExecutor* executor = nullptr;
        return aclnnArgMaxGetWorkspaceSize(s, dim, false, const_cast<aclTensor*>(o), &size, &executor);
    };
    expect_error_naming(phase1(nullptr, 1, out->get()), ACLNN_ERR_PARAM_NULLPTR, "self");
    expect_error_naming(phase1(self.get(), 1, nullptr), ACLNN_ERR_PARAM_NULLPTR, "out");
    DeviceTensor flags({{2, 3}, ACL_BOOL}, std::vector<double>(6, 1));
    expect_error_naming(phase1(flags.get(), 1, out->get()), ACLNN_ERR_PARAM_INVALID, "BOOL");
    expect_error_naming(phase1(self.get(), 2, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "dim must be within the range of [-2, 1], but it is 2.");
    expect_error_naming(phase1(self.get(), 0, out->get()), ACLNN_ERR_PARAM_INVALID, "is not equal with shape");
    DeviceTensor empty(TensorSpec({0, 3}, ACL_FLOAT));
    auto emptyOut = DeviceTensor::output({{0}, ACL_INT64});
    uint64_t workspace = 1;
    ASSERT_EQ(arg_max(empty, 1, false, *emptyOut, &workspace), ACLNN_SUCCESS);
    EXPECT_EQ(workspace, 0u);
}

// aclnn_cumsum.cpp: every listed real dtype, every dim, strided self and
// out views (out transposed), V2's exclusive and reverse forms; each
// partial sum rounded once into the dtype (fp16/bf16 accumulate in fp32).
TEST_F(Reduce, CumsumMatchesTheReferenceAlongEveryDim) {
    const Shape shape{3, 4, 5};
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_DOUBLE, ACL_UINT8, ACL_INT8, ACL_INT16,
                              ACL_INT64, ACL_BF16}) {
        SCOPED_TRACE(name(dtype));
        const std::vector<double> x = inputs(dtype, 60, 7);
        for (const TensorSpec& spec : views(dtype)) {
            DeviceTensor self(spec, x);
            for (int64_t dim = -3; dim < 3; ++dim) {
                const size_t d = static_cast<size_t>(dim < 0 ? dim + 3 : dim);
                auto out = DeviceTensor::output(TensorSpec(shape, dtype, {1, 3, 12}));
                ASSERT_EQ(cumsum(self, dim, dtype, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
                expect_rounded_into(*out, cumsum_reference(x, shape, d, false, false), dtype);
                for (bool exclusive : {false, true}) {
                    for (bool reverse : {false, true}) {
                        auto v2 = DeviceTensor::output(TensorSpec(shape, dtype));
                        ASSERT_EQ(cumsum_v2(self, dim, exclusive, reverse, *v2), ACLNN_SUCCESS);
                        expect_rounded_into(*v2, cumsum_reference(x, shape, d, exclusive, reverse), dtype);
                    }
                }
            }
        }
    }
}

// Cumsum casts self into out's dtype first (self's dtype unchecked); a 0-d
// self is its own sum; an empty one launches nothing; the error paths.
TEST_F(Reduce, CumsumCastsIntoOutAndChecksAsTheOpApi) {
    DeviceTensor f32({{4}, ACL_FLOAT}, {1.5, 2.5, -1.9, 4});
    auto i32 = DeviceTensor::output({{4}, ACL_INT32});
    ASSERT_EQ(cumsum(f32, 0, ACL_INT32, *i32), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(i32->read(), {1, 3, 2, 6}, kExact);
    DeviceTensor scalar({{}, ACL_FLOAT}, {3});
    auto one = DeviceTensor::output({{}, ACL_FLOAT});
    ASSERT_EQ(cumsum(scalar, -1, ACL_FLOAT, *one), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(one->read(), {3}, kExact);
    DeviceTensor empty(TensorSpec({0, 3}, ACL_FLOAT));
    auto emptyOut = DeviceTensor::output({{0, 3}, ACL_FLOAT});
    ASSERT_EQ(cumsum(empty, 1, ACL_FLOAT, *emptyOut), ACLNN_SUCCESS);

    const auto phase1 = [&](const aclTensor* s, int64_t dim, aclDataType dtype, const aclTensor* o) {
        uint64_t size = 0;
        aclOpExecutor* executor = nullptr;
        return aclnnCumsumGetWorkspaceSize(s, dim, dtype, const_cast<aclTensor*>(o), &size, &executor);
    };
    auto out = DeviceTensor::output({{4}, ACL_FLOAT});
    expect_error_naming(phase1(nullptr, 0, ACL_FLOAT, out->get()), ACLNN_ERR_PARAM_NULLPTR, "self");
    auto flags = DeviceTensor::output({{4}, ACL_BOOL});
    expect_error_naming(phase1(f32.get(), 0, ACL_BOOL, flags->get()), ACLNN_ERR_PARAM_INVALID, "BOOL");
    expect_error_naming(phase1(f32.get(), 0, ACL_INT32, out->get()), ACLNN_ERR_PARAM_INVALID, "INT32");
    auto longer = DeviceTensor::output({{5}, ACL_FLOAT});
    expect_error(phase1(f32.get(), 0, ACL_FLOAT, longer->get()), ACLNN_ERR_PARAM_INVALID);
    expect_error_naming(phase1(f32.get(), 1, ACL_FLOAT, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "expected dim to be in range of [-1, 0], but got 1.");
    uint64_t size = 0;
    aclOpExecutor* executor = nullptr;
    expect_error_naming(aclnnCumsumV2GetWorkspaceSize(f32.get(), 0, false, false, i32->get(), &size, &executor),
                        ACLNN_ERR_PARAM_INVALID, "INT32");
}

// A full reduction of 2^20 + 37 elements splits the reduced extent over
// blocks (a workspace of partials), a [6, 50000] row reduction over its
// outer dim too; both bitwise identical for 1, 2 and 8 worker threads.
TEST_F(Reduce, SplitReductionsAreDeterministicAcrossWorkerCounts) {
    const int64_t n = (int64_t{1} << 20) + 37;
    const std::vector<double> x = representable(uniform(static_cast<size_t>(n), -1, 1, 9), ACL_FLOAT);
    const std::vector<double> y = representable(uniform(6 * 50000, 0, 1, 10), ACL_FLOAT16);
    std::vector<std::vector<uint8_t>> full;
    std::vector<std::vector<uint8_t>> rows;
    for (int threads : {1, 2, 8}) {
        restart_with_worker_threads(threads);
        DeviceTensor self({{n}, ACL_FLOAT}, x);
        auto out = DeviceTensor::output({{}, ACL_FLOAT});
        uint64_t workspace = 0;
        ASSERT_EQ(reduce_sum(self, {0}, false, ACL_FLOAT, *out, &workspace), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        EXPECT_GT(workspace, 0u);
        full.push_back(out->bytes());
        DeviceTensor wide({{50000, 6}, ACL_FLOAT16}, y);
        auto colSums = DeviceTensor::output({{6}, ACL_FLOAT16});
        ASSERT_EQ(reduce_sum(wide, {0}, false, ACL_FLOAT16, *colSums, &workspace), ACLNN_SUCCESS);
        EXPECT_GT(workspace, 0u);
        rows.push_back(colSums->bytes());
        // The largest value twice, in two blocks of the split: the first wins.
        std::vector<double> peaks = x;
        peaks[1000] = 7;
        peaks[static_cast<size_t>(n - 5)] = 7;
        DeviceTensor peaked({{n}, ACL_FLOAT}, peaks);
        auto where = DeviceTensor::output({{}, ACL_INT64});
        ASSERT_EQ(arg_max(peaked, 0, false, *where, &workspace), ACLNN_SUCCESS);
        EXPECT_GT(workspace, 0u);
        expect_close(where->read(), {1000}, kExact);
        if (threads == 1) {
            expect_close(out->read(), reference(x, {n}, 1, Kind::sum), {1e-5, 1e-3});
            std::vector<double> expected = reference(y, {50000, 6}, 1, Kind::sum);
            for (double& e : expected) e = representable(e, ACL_FLOAT16);
            expect_close(colSums->read(), expected, tolerance_for(ACL_FLOAT16));
        }
    }
    EXPECT_EQ(full[0], full[1]);
    EXPECT_EQ(full[0], full[2]);
    EXPECT_EQ(rows[0], rows[1]);
    EXPECT_EQ(rows[0], rows[2]);
}

}  // namespace
