// Prod, ProdDim, Max, Min, MaxDim, MinDim, Any and All against double
// references computed here, following CANN's A2 op_api graphs (hicann/
// ops-math math/reduce_prod/op_api/aclnn_prod.cpp, math/reduce_max/op_api/
// aclnn_max.cpp, math/reduce_min/op_api/aclnn_min.cpp, math/arg_max_with_value/
// op_api/aclnn_max_dim.cpp, math/arg_min_with_value/op_api/aclnn_min_dim.cpp,
// math/reduce_any/op_api/aclnn_any.cpp, math/reduce_all/op_api/aclnn_all.cpp):
// every listed dtype, every dim, keepdim, strided and offset views, 0-d and
// empty tensors, every error path, and bitwise-identical results for 1, 2
// and 8 worker threads on reductions split over blocks.
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_all.h"
#include "aclnnop/aclnn_any.h"
#include "aclnnop/aclnn_max.h"
#include "aclnnop/aclnn_max_dim.h"
#include "aclnnop/aclnn_min.h"
#include "aclnnop/aclnn_min_dim.h"
#include "aclnnop/aclnn_prod.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"
#include "ops/reduction_reference.hpp"

namespace {

using namespace optest;

const double kNaN = std::nan("");
const Tolerance kExact{0, 0};

enum class Fold { prod, max, min, any, all, argmax, argmin };

/// The reference of one fold along dim of a row-major shape (dim == -1:
/// every element, one output).  argmax / argmin: the first index of the
/// largest / smallest value, the first NaN beating every number.
std::vector<double> fold_along(const std::vector<double>& x, const Shape& shape, int64_t dim, Fold fold) {
    int64_t inner = 1;
    int64_t extent = numel(shape);
    if (dim >= 0) {
        extent = shape[static_cast<size_t>(dim)];
        for (size_t d = static_cast<size_t>(dim) + 1; d < shape.size(); ++d) inner *= shape[d];
    }
    const int64_t outer = numel(shape) / std::max<int64_t>(1, extent * inner);
    std::vector<double> result;
    for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < inner; ++i) {
            const auto at = [&](int64_t k) { return x[static_cast<size_t>((o * extent + k) * inner + i)]; };
            double acc = fold == Fold::prod || fold == Fold::all ? 1 : fold == Fold::max ? -INFINITY
                         : fold == Fold::min                     ? INFINITY
                                                                 : 0;
            int64_t best = 0;
            for (int64_t k = 0; k < extent; ++k) {
                const double v = at(k);
                const double b = at(best);
                switch (fold) {
                    case Fold::prod: acc *= v; break;
                    case Fold::max: acc = std::isnan(v) || std::isnan(acc) ? kNaN : std::max(acc, v); break;
                    case Fold::min: acc = std::isnan(v) || std::isnan(acc) ? kNaN : std::min(acc, v); break;
                    case Fold::any: acc = acc != 0 || v != 0 ? 1 : 0; break;
                    case Fold::all: acc = acc != 0 && v != 0 ? 1 : 0; break;
                    case Fold::argmax:
                        if (!std::isnan(b) && (std::isnan(v) || v > b)) best = k;
                        break;
                    case Fold::argmin:
                        if (!std::isnan(b) && (std::isnan(v) || v < b)) best = k;
                        break;
                }
            }
            result.push_back(fold == Fold::argmax || fold == Fold::argmin ? static_cast<double>(best) : acc);
        }
    }
    return result;
}

Shape without_dim(const Shape& shape, int64_t dim, bool keep) {
    Shape out;
    for (size_t d = 0; d < shape.size(); ++d) {
        if (static_cast<int64_t>(d) != dim) out.push_back(shape[d]);
        else if (keep) out.push_back(1);
    }
    return out;
}

/// A [3, 4, 5] view: contiguous, or transposed (strides {1, 3, 12}) at offset 5.
std::vector<TensorSpec> views(aclDataType dtype) {
    return {TensorSpec({3, 4, 5}, dtype), TensorSpec({3, 4, 5}, dtype, {1, 3, 12}, 5, {3 * 4 * 5 + 5})};
}

std::vector<double> real_values(aclDataType dtype, size_t n, uint32_t seed, double lo = -4, double hi = 4) {
    std::vector<double> re;
    for (const Complex& v : sample(dtype, n, seed, lo, hi)) re.push_back(v.real());
    return re;
}

class ReduceMore : public ReductionTest {
protected:
    aclnnStatus prod_dim(const DeviceTensor& self, int64_t dim, bool keep, aclDataType dtype, const DeviceTensor& out,
                         uint64_t* workspace = nullptr) {
        return two_phases(aclnnProdDimGetWorkspaceSize, aclnnProdDim, workspace, self.get(), dim, keep, dtype,
                          out.get());
    }
    aclnnStatus prod(const DeviceTensor& self, aclDataType dtype, const DeviceTensor& out) {
        return two_phases(aclnnProdGetWorkspaceSize, aclnnProd, nullptr, self.get(), dtype, out.get());
    }
    aclnnStatus max_or_min(Fold fold, const DeviceTensor& self, const DeviceTensor& out,
                           uint64_t* workspace = nullptr) {
        if (fold == Fold::max) return two_phases(aclnnMaxGetWorkspaceSize, aclnnMax, workspace, self.get(), out.get());
        return two_phases(aclnnMinGetWorkspaceSize, aclnnMin, workspace, self.get(), out.get());
    }
    aclnnStatus value_index(Fold fold, const DeviceTensor& self, int64_t dim, bool keep, const DeviceTensor& out,
                            const DeviceTensor& indices, uint64_t* workspace = nullptr) {
        if (fold == Fold::argmax) {
            return two_phases(aclnnMaxDimGetWorkspaceSize, aclnnMaxDim, workspace, self.get(), dim, keep, out.get(),
                              indices.get());
        }
        return two_phases(aclnnMinDimGetWorkspaceSize, aclnnMinDim, workspace, self.get(), dim, keep, out.get(),
                          indices.get());
    }
    aclnnStatus logical(Fold fold, const DeviceTensor& self, const IntArray& dims, bool keep,
                        const DeviceTensor& out) {
        if (fold == Fold::any) {
            return two_phases(aclnnAnyGetWorkspaceSize, aclnnAny, nullptr, self.get(), dims.get(), keep, out.get());
        }
        return two_phases(aclnnAllGetWorkspaceSize, aclnnAll, nullptr, self.get(), dims.get(), keep, out.get());
    }
};

const std::vector<aclDataType> kProdRealDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8, ACL_UINT8,
                                                  ACL_INT16, ACL_INT32,   ACL_INT64,  ACL_BOOL, ACL_BF16};
const std::vector<aclDataType> kExtremumDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_UINT8,  ACL_INT32, ACL_INT64,
                                                  ACL_INT16, ACL_INT8,    ACL_DOUBLE, ACL_BOOL,  ACL_BF16};

// aclnn_prod.cpp: self cast to dtype (FLOAT for FP16 -> FP16), ReduceProd,
// every dim, keepDim either way, both views; integers wrap in their dtype.
TEST_F(ReduceMore, ProdDimMatchesTheReferenceAlongEveryDim) {
    const Shape shape{3, 4, 5};
    for (aclDataType dtype : kProdRealDtypes) {
        SCOPED_TRACE(name(dtype));
        const std::vector<double> x = real_values(dtype, 60, 1, is_integral(dtype) ? -3 : 0.5, 2);
        for (const TensorSpec& spec : views(dtype)) {
            DeviceTensor self(spec, x);
            for (int64_t dim = -3; dim < 3; ++dim) {
                for (bool keep : {false, true}) {
                    const int64_t d = dim < 0 ? dim + 3 : dim;
                    auto out = DeviceTensor::output(TensorSpec(without_dim(shape, d, keep), dtype));
                    ASSERT_EQ(prod_dim(self, dim, keep, dtype, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
                    expect_rounded_into(*out, fold_along(x, shape, d, Fold::prod), dtype);
                }
            }
        }
    }
}

// aclnnProd: every dim, out of one element; a BOOL out is the product in
// FLOAT cast to BOOL; an INT32 self into FLOAT; complex products.
TEST_F(ReduceMore, ProdReducesEveryDimInItsDtype) {
    DeviceTensor self({{2, 3}, ACL_INT32}, {1, -2, 3, 4, 5, -1});
    auto f = DeviceTensor::output({{}, ACL_FLOAT});
    ASSERT_EQ(prod(self, ACL_FLOAT, *f), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(f->read(), {120}, kExact);
    DeviceTensor zeros({{3}, ACL_FLOAT}, {2, 0.25, 0});
    auto b = DeviceTensor::output({{1}, ACL_BOOL});
    ASSERT_EQ(prod(zeros, ACL_BOOL, *b), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(b->read(), {0}, kExact);
    DeviceTensor half({{2}, ACL_FLOAT}, {0.5, 0.25});
    ASSERT_EQ(prod(half, ACL_BOOL, *b), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(b->read(), {1}, kExact);  // 0.125 in FLOAT, then nonzero
    DeviceTensor c(TensorSpec({2}, ACL_COMPLEX64));
    c.write_complex({{1, 1}, {1, -1}});
    auto cout = DeviceTensor::output({{}, ACL_COMPLEX64});
    ASSERT_EQ(prod(c, ACL_COMPLEX64, *cout), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(cout->read_complex(), std::vector<Complex>{Complex(2, 0)});
    // 0-d: its own product; empty: FillScalar(1).
    DeviceTensor scalar({{}, ACL_FLOAT16}, {1.5});
    auto s = DeviceTensor::output({{}, ACL_FLOAT16});
    ASSERT_EQ(prod_dim(scalar, -1, false, ACL_FLOAT16, *s), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(s->read(), {1.5}, kExact);
    DeviceTensor empty(TensorSpec({0, 3}, ACL_FLOAT));
    auto ones = DeviceTensor::output({{3}, ACL_FLOAT});
    ASSERT_EQ(prod_dim(empty, 0, false, ACL_FLOAT, *ones), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(ones->read(), {1, 1, 1}, kExact);
}

// aclnn_max.cpp / aclnn_min.cpp: every listed dtype (BOOL as FLOAT), both
// views, the result cast into out's dtype; NaN propagates.
TEST_F(ReduceMore, MaxMinReduceEveryElement) {
    for (Fold fold : {Fold::max, Fold::min}) {
        for (aclDataType dtype : kExtremumDtypes) {
            SCOPED_TRACE(name(dtype));
            const std::vector<double> x = real_values(dtype, 60, 2);
            for (const TensorSpec& spec : views(dtype)) {
                DeviceTensor self(spec, x);
                auto out = DeviceTensor::output({{}, dtype});
                ASSERT_EQ(max_or_min(fold, self, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
                expect_close(out->read(), fold_along(x, {60}, -1, fold), kExact);
                auto wide = DeviceTensor::output({{1, 1}, ACL_DOUBLE});
                ASSERT_EQ(max_or_min(fold, self, *wide), ACLNN_SUCCESS) << aclGetRecentErrMsg();
                expect_close(wide->read(), fold_along(x, {60}, -1, fold), kExact);
            }
        }
        std::vector<double> x(40, 1.0);
        x[7] = kNaN;
        DeviceTensor self({{40}, ACL_FLOAT}, x);
        auto out = DeviceTensor::output({{}, ACL_FLOAT});
        ASSERT_EQ(max_or_min(fold, self, *out), ACLNN_SUCCESS);
        expect_close(out->read(), {kNaN}, kExact);
    }
}

// aclnn_max_dim.cpp / aclnn_min_dim.cpp: ArgMaxWithValue's value and first
// index along every dim, keepdim either way, both views, indices INT64 or
// INT32 (Cast of A2's INT32 indices).
TEST_F(ReduceMore, MaxDimMinDimGiveTheValueAndItsFirstIndex) {
    const Shape shape{3, 4, 5};
    for (Fold fold : {Fold::argmax, Fold::argmin}) {
        for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_INT64, ACL_BOOL, ACL_BF16}) {
            SCOPED_TRACE(name(dtype));
            // Few distinct values: ties everywhere.
            const std::vector<double> x = real_values(dtype, 60, 3, -2, 2);
            for (const TensorSpec& spec : views(dtype)) {
                DeviceTensor self(spec, x);
                for (int64_t dim = 0; dim < 3; ++dim) {
                    for (bool keep : {false, true}) {
                        const Shape outShape = without_dim(shape, dim, keep);
                        auto out = DeviceTensor::output(TensorSpec(outShape, dtype));
                        auto indices = DeviceTensor::output(TensorSpec(outShape, keep ? ACL_INT32 : ACL_INT64));
                        ASSERT_EQ(value_index(fold, self, dim - (keep ? 3 : 0), keep, *out, *indices), ACLNN_SUCCESS)
                            << aclGetRecentErrMsg();
                        expect_close(indices->read(), fold_along(x, shape, dim, fold), kExact);
                        expect_close(out->read(), fold_along(x, shape, dim, fold == Fold::argmax ? Fold::max : Fold::min),
                                     kExact);
                    }
                }
            }
        }
    }
}

// The first NaN wins (value NaN, its index); 0-d: the element and index 0;
// an empty self launches nothing.
TEST_F(ReduceMore, MaxDimTakesTheFirstNaNAndHandlesZeroDAndEmpty) {
    DeviceTensor self({{2, 4}, ACL_FLOAT}, {1, kNaN, 3, kNaN, INFINITY, -INFINITY, 2, 2});
    for (Fold fold : {Fold::argmax, Fold::argmin}) {
        auto out = DeviceTensor::output({{2}, ACL_FLOAT});
        auto indices = DeviceTensor::output({{2}, ACL_INT64});
        ASSERT_EQ(value_index(fold, self, 1, false, *out, *indices), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        expect_close(indices->read(), {1, fold == Fold::argmax ? 0.0 : 1.0}, kExact);
        expect_close(out->read(), {kNaN, fold == Fold::argmax ? INFINITY : -INFINITY}, kExact);
    }
    DeviceTensor scalar({{}, ACL_BF16}, {-3});
    auto value = DeviceTensor::output({{}, ACL_BF16});
    auto index = DeviceTensor::output({{}, ACL_INT64});
    ASSERT_EQ(value_index(Fold::argmax, scalar, -1, false, *value, *index), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(value->read(), {-3}, kExact);
    expect_close(index->read(), {0}, kExact);
    DeviceTensor empty(TensorSpec({0, 3}, ACL_FLOAT));
    auto none = DeviceTensor::output({{0}, ACL_FLOAT});
    auto noIndex = DeviceTensor::output({{0}, ACL_INT64});
    uint64_t workspace = 1;
    ASSERT_EQ(value_index(Fold::argmin, empty, 1, false, *none, *noIndex, &workspace), ACLNN_SUCCESS);
    EXPECT_EQ(workspace, 0u);
}

// aclnn_any.cpp / aclnn_all.cpp: self cast to BOOL (a NaN is true), every
// dim subset (an empty list: every dim), keepdim, both views, BOOL and
// UINT8 outs; an empty self fills false / true.
TEST_F(ReduceMore, AnyAllOverEveryDimSubset) {
    const Shape shape{3, 4, 5};
    std::vector<double> x(60, 1.0);
    for (size_t i = 0; i < 60; i += 7) x[i] = 0;
    x[11] = kNaN;
    for (Fold fold : {Fold::any, Fold::all}) {
        for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_UINT8, ACL_BOOL, ACL_INT64,
                                  ACL_DOUBLE, ACL_INT16, ACL_INT32}) {
            SCOPED_TRACE(name(dtype));
            std::vector<double> values = x;
            if (is_integral(dtype) || dtype == ACL_BOOL) values[11] = 2;
            for (const TensorSpec& spec : views(dtype)) {
                DeviceTensor self(spec, values);
                for (int64_t dim = 0; dim < 3; ++dim) {
                    for (bool keep : {false, true}) {
                        const aclDataType outDtype = keep ? ACL_UINT8 : ACL_BOOL;
                        auto out = DeviceTensor::output(TensorSpec(without_dim(shape, dim, keep), outDtype));
                        ASSERT_EQ(logical(fold, self, {dim}, keep, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
                        expect_close(out->read(), fold_along(values, shape, dim, fold), kExact);
                    }
                }
                auto all = DeviceTensor::output({{}, ACL_BOOL});
                ASSERT_EQ(logical(fold, self, {}, false, *all), ACLNN_SUCCESS) << aclGetRecentErrMsg();
                expect_close(all->read(), fold_along(values, {60}, -1, fold), kExact);
            }
        }
        DeviceTensor empty(TensorSpec({2, 0}, ACL_FLOAT));
        auto filled = DeviceTensor::output({{2}, ACL_BOOL});
        ASSERT_EQ(logical(fold, empty, {1}, false, *filled), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        const double value = fold == Fold::all ? 1 : 0;
        expect_close(filled->read(), {value, value}, kExact);
    }
    // Any reduces a repeated dim once (it does not check repeats).
    DeviceTensor self({{2, 2}, ACL_INT32}, {0, 0, 0, 3});
    auto out = DeviceTensor::output({{2}, ACL_BOOL});
    ASSERT_EQ(logical(Fold::any, self, {1, -1}, false, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(out->read(), {0, 1}, kExact);
}

TEST_F(ReduceMore, ProdErrorPaths) {
    DeviceTensor self({{2, 3}, ACL_FLOAT}, std::vector<double>(6, 1));
    auto out = DeviceTensor::output({{2}, ACL_FLOAT});
    const auto phase1 = [&](const aclTensor* s, int64_t dim, aclDataType dtype, const aclTensor* o) {
        return phase1_of(aclnnProdDimGetWorkspaceSize, s, dim, false, dtype, const_cast<aclTensor*>(o));
    };
    expect_error_naming(phase1(nullptr, 1, ACL_FLOAT, out->get()), ACLNN_ERR_PARAM_NULLPTR, "self");
    expect_error_naming(phase1(self.get(), 1, ACL_FLOAT, nullptr), ACLNN_ERR_PARAM_NULLPTR, "out");
    DeviceTensor u16({{2, 3}, ACL_UINT16}, std::vector<double>(6, 1));
    expect_error_naming(phase1(u16.get(), 1, ACL_FLOAT, out->get()), ACLNN_ERR_PARAM_INVALID, "UINT16");
    expect_error_naming(phase1(self.get(), 1, ACL_INT32, out->get()), ACLNN_ERR_PARAM_INVALID, "INT32");
    DeviceTensor nine(TensorSpec(Shape(9, 1), ACL_FLOAT), {1});
    expect_error_naming(phase1(nine.get(), 1, ACL_FLOAT, out->get()), ACLNN_ERR_PARAM_INVALID, "8");
    expect_error_naming(phase1(self.get(), 2, ACL_FLOAT, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "Expected dim to be in range of [-2, 1], but got 2.");
    DeviceTensor scalar({{}, ACL_FLOAT}, {1});
    expect_error_naming(phase1(scalar.get(), 1, ACL_FLOAT, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "Expected dim to be in range of [0, -1], but got 1.");
    expect_error_naming(phase1(self.get(), 0, ACL_FLOAT, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "is not equal with shape");
    DeviceTensor empty(TensorSpec({0, 3}, ACL_FLOAT));
    auto c64 = DeviceTensor::output({{3}, ACL_COMPLEX64});
    expect_error_naming(phase1(empty.get(), 0, ACL_COMPLEX64, c64->get()), ACLNN_ERR_PARAM_INVALID, "COMPLEX64");
    expect_each_null_is_161001_naming(aclnnProdGetWorkspaceSize, {"self", "out"}, self.get(), ACL_FLOAT,
                                      DeviceTensor::output({{}, ACL_FLOAT})->get());
}

TEST_F(ReduceMore, MaxMinAndValueIndexErrorPaths) {
    DeviceTensor self({{2, 3}, ACL_FLOAT}, std::vector<double>(6, 1));
    auto one = DeviceTensor::output({{}, ACL_FLOAT});
    auto u16 = DeviceTensor::output({{}, ACL_UINT16});
    expect_error_naming(phase1_of(aclnnMaxGetWorkspaceSize, self.get(), u16->get()), ACLNN_ERR_PARAM_INVALID, "UINT16");
    auto two = DeviceTensor::output({{2}, ACL_FLOAT});
    expect_error_naming(phase1_of(aclnnMinGetWorkspaceSize, self.get(), two->get()), ACLNN_ERR_PARAM_INVALID,
                        "is not equal with shape");
    expect_each_null_is_161001_naming(aclnnMaxGetWorkspaceSize, {"self", "out"}, self.get(), one->get());

    auto values = DeviceTensor::output({{2}, ACL_FLOAT});
    auto indices = DeviceTensor::output({{2}, ACL_INT64});
    const auto phase1 = [&](const aclTensor* s, int64_t dim, const DeviceTensor& v, const DeviceTensor& i) {
        return phase1_of(aclnnMaxDimGetWorkspaceSize, s, dim, false, v.get(), i.get());
    };
    DeviceTensor i32({{2, 3}, ACL_INT32}, std::vector<double>(6, 1));
    expect_error_naming(phase1(i32.get(), 1, *values, *indices), ACLNN_ERR_PARAM_INVALID, "INT32");
    auto halfValues = DeviceTensor::output({{2}, ACL_FLOAT16});
    expect_error_naming(phase1(self.get(), 1, *halfValues, *indices), ACLNN_ERR_PARAM_INVALID, "same dtype");
    expect_error_naming(phase1(self.get(), 2, *values, *indices), ACLNN_ERR_PARAM_INVALID,
                        "dim should within the range of [[-2], [1]].");
    auto wrongIndices = DeviceTensor::output({{3}, ACL_INT64});
    expect_error_naming(phase1(self.get(), 1, *values, *wrongIndices), ACLNN_ERR_PARAM_INVALID,
                        "is not equal with shape");
    auto wrongValues = DeviceTensor::output({{3}, ACL_FLOAT});
    expect_error_naming(phase1(self.get(), 1, *wrongValues, *indices), ACLNN_ERR_PARAM_INVALID,
                        "is not equal with shape");
    expect_each_null_is_161001_naming(aclnnMinDimGetWorkspaceSize, {"self", "out", "indices"}, self.get(), int64_t{1},
                                      false, values->get(), indices->get());
}

TEST_F(ReduceMore, AnyAllErrorPaths) {
    DeviceTensor self({{2, 3}, ACL_FLOAT}, std::vector<double>(6, 1));
    auto out = DeviceTensor::output({{2}, ACL_BOOL});
    const auto any1 = [&](const aclTensor* s, const IntArray& dims, const DeviceTensor& o) {
        return phase1_of(aclnnAnyGetWorkspaceSize, s, dims.get(), false, o.get());
    };
    const auto all1 = [&](const aclTensor* s, const IntArray& dims, const DeviceTensor& o) {
        return phase1_of(aclnnAllGetWorkspaceSize, s, dims.get(), false, o.get());
    };
    using Phase1 = std::function<aclnnStatus(const aclTensor*, const IntArray&, const DeviceTensor&)>;
    DeviceTensor c64({{2, 3}, ACL_COMPLEX64}, std::vector<double>(6, 1));
    auto f32 = DeviceTensor::output({{2}, ACL_FLOAT});
    for (const Phase1& phase1 : {Phase1(any1), Phase1(all1)}) {
        expect_error_naming(phase1(c64.get(), {1}, *out), ACLNN_ERR_PARAM_INVALID, "COMPLEX64");
        expect_error_naming(phase1(self.get(), {1}, *f32), ACLNN_ERR_PARAM_INVALID, "FLOAT");
    }
    expect_error_naming(any1(self.get(), {2}, *out), ACLNN_ERR_PARAM_INVALID, "Dimension out of range.");
    expect_error_naming(all1(self.get(), {-3}, *out), ACLNN_ERR_PARAM_INVALID,
                        "Dimension out of range (expected to be in range of [-2, 1], but got -3)");
    expect_error_naming(all1(self.get(), {1, -1}, *out), ACLNN_ERR_PARAM_INVALID,
                        "Dim 1 appears multiple times in the list of dims.");
    auto wrong = DeviceTensor::output({{3}, ACL_BOOL});
    expect_error_naming(any1(self.get(), {1}, *wrong), ACLNN_ERR_PARAM_INVALID, "is not equal with shape");
    expect_error_naming(all1(self.get(), {1}, *wrong), ACLNN_ERR_PARAM_INVALID, 
                        "Expect out shape [[2]], but got: [[3]].");  // op::ToString brackets a shape
    expect_each_null_is_161001_naming(aclnnAnyGetWorkspaceSize, {"self", "dim", "out"}, self.get(),
                                      IntArray{1}.get(), false, out->get());
    expect_each_null_is_161001_naming(aclnnAllGetWorkspaceSize, {"self", "dim", "out"}, self.get(),
                                      IntArray{1}.get(), false, out->get());
}

// Split reductions (a full MaxDim over 2^20 + 37 elements, a Prod over
// them) write partials to the workspace and combine them in block order:
// bitwise identical for 1, 2 and 8 worker threads; the first of two equal
// minima wins across blocks.
TEST_F(ReduceMore, SplitReductionsAreDeterministicAcrossWorkerCounts) {
    const int64_t n = (int64_t{1} << 20) + 37;
    std::vector<double> x = representable(uniform(static_cast<size_t>(n), 0.999, 1.001, 11), ACL_FLOAT);
    x[2000] = -5;
    x[static_cast<size_t>(n - 9)] = -5;
    std::vector<std::vector<uint8_t>> products;
    for (int threads : {1, 2, 8}) {
        restart_with_worker_threads(threads);
        DeviceTensor self({{n}, ACL_FLOAT}, x);
        auto value = DeviceTensor::output({{}, ACL_FLOAT});
        auto index = DeviceTensor::output({{}, ACL_INT64});
        uint64_t workspace = 0;
        ASSERT_EQ(value_index(Fold::argmin, self, 0, false, *value, *index, &workspace), ACLNN_SUCCESS);
        EXPECT_GT(workspace, 0u);
        expect_close(index->read(), {2000}, kExact);
        expect_close(value->read(), {-5}, kExact);
        auto product = DeviceTensor::output({{}, ACL_FLOAT});
        ASSERT_EQ(prod_dim(self, 0, false, ACL_FLOAT, *product, &workspace), ACLNN_SUCCESS);
        EXPECT_GT(workspace, 0u);
        products.push_back(product->bytes());
    }
    EXPECT_EQ(products[0], products[1]);
    EXPECT_EQ(products[0], products[2]);
}

}  // namespace
