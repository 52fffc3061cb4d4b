// The index family's element scatter (Scatter, InplaceScatter, ScatterValue,
// InplaceScatterValue), IndexFillTensor and RepeatInterleaveInt(WithDim)
// against references computed here in double (std::complex<double>) by
// coordinate arithmetic: every A2 dtype, each reduce, negative, repeated and
// out-of-range index values, strided and offset views, 0-d and empty
// tensors, every error path with its code (the op_api code in hicann/ops-nn:
// index/scatter_elements_v2/op_api/aclnn_scatter.cpp,
// index/index_fill_d/op_api/aclnn_index_fill_tensor.cpp,
// index/repeat_interleave/op_api/aclnn_repeat_interleave.cpp), and a
// many-block scatter bitwise equal for 1, 2 and 8 worker threads.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_index_fill_tensor.h"
#include "aclnnop/aclnn_repeat_interleave.h"
#include "aclnnop/aclnn_scatter.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"
#include "../../layout/tests/layout_test_support.hpp"

namespace {

using namespace layouttest;

constexpr aclDataType kScatterDtypes[] = {ACL_UINT8, ACL_INT8,   ACL_INT16,     ACL_INT32,      ACL_INT64, ACL_BOOL,
                                          ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};
constexpr aclDataType kIndexFillDtypes[] = {ACL_INT32, ACL_FLOAT16, ACL_FLOAT, ACL_INT64, ACL_BOOL, ACL_BF16};
constexpr aclDataType kRepeatDtypes[] = {ACL_UINT8, ACL_INT8,    ACL_INT16, ACL_INT32, ACL_INT64,
                                         ACL_BOOL,  ACL_FLOAT16, ACL_FLOAT, ACL_BF16};
constexpr aclDataType kIndexDtypes[] = {ACL_INT32, ACL_INT64};

/// n small integers of dtype (exact in every dtype, and so are their sums
/// and products of three): [1, 3] for unsigned ones, 0/1 for BOOL, [-3, 3]
/// else, complex ones with an imaginary part.
std::vector<Complex> small_values(aclDataType dtype, size_t n, int seed) {
    std::vector<Complex> values(n);
    for (size_t i = 0; i < n; ++i) {
        const auto k = static_cast<int>(i) * 5 + seed;
        double re = k % 7 - 3;
        if (dtype == ACL_BOOL) re = k % 2;
        if (dtype == ACL_UINT8) re = k % 3 + 1;
        values[i] = {re, is_complex(dtype) ? static_cast<double>(k % 5 - 2) : 0.0};
    }
    return values;
}

/// The reference element scatter (aclnnScatter's doc formula): for each
/// element of index in row-major order, self[.., index, ..] is replaced by
/// (0), added to (1) or multiplied by (2) src at the same coordinates; a
/// negative value counts from the end once, one still outside [0, size) is
/// skipped.  BOOL results are 0/1.
std::vector<Complex> scatter_reference(std::vector<Complex> self, const Shape& shape, size_t dim,
                                       const std::vector<int64_t>& index, const Shape& indexShape,
                                       const std::vector<Complex>& src, const Shape& srcShape, int reduce,
                                       aclDataType dtype) {
    for (int64_t p = 0; p < numel(indexShape); ++p) {
        Shape at = index_of(p, indexShape);
        const Complex update = src[static_cast<size_t>(flat(at, srcShape))];
        int64_t row = index[static_cast<size_t>(p)];
        if (row < 0) row += shape[dim];
        if (row < 0 || row >= shape[dim]) continue;
        at[dim] = row;
        Complex& target = self[static_cast<size_t>(flat(at, shape))];
        target = reduce == 1 ? target + update : reduce == 2 ? target * update : update;
        if (dtype == ACL_BOOL) target = target != Complex(0) ? 1.0 : 0.0;
    }
    return self;
}

std::vector<double> as_doubles(const std::vector<int64_t>& values) { return {values.begin(), values.end()}; }

class IndexMapOps : public AclTest {
protected:
    aclnnStatus scatter(const DeviceTensor& self, int64_t dim, const DeviceTensor& index, const DeviceTensor& src,
                        int64_t reduce, DeviceTensor& out) {
        return run_aclnn(stream_, aclnnScatterGetWorkspaceSize, aclnnScatter, self.get(), dim, index.get(), src.get(),
                         reduce, out.get());
    }
    aclnnStatus inplace_scatter(DeviceTensor& self, int64_t dim, const DeviceTensor& index, const DeviceTensor& src,
                                int64_t reduce) {
        return run_aclnn(stream_, aclnnInplaceScatterGetWorkspaceSize, aclnnInplaceScatter, self.get(), dim,
                         index.get(), src.get(), reduce);
    }
    aclnnStatus scatter_value(const DeviceTensor& self, int64_t dim, const DeviceTensor& index, const Scalar& value,
                              int64_t reduce, DeviceTensor& out) {
        return run_aclnn(stream_, aclnnScatterValueGetWorkspaceSize, aclnnScatterValue, self.get(), dim, index.get(),
                         value.get(), reduce, out.get());
    }
    aclnnStatus inplace_scatter_value(DeviceTensor& self, int64_t dim, const DeviceTensor& index,
                                      const Scalar& value, int64_t reduce) {
        return run_aclnn(stream_, aclnnInplaceScatterValueGetWorkspaceSize, aclnnInplaceScatterValue, self.get(),
                         dim, index.get(), value.get(), reduce);
    }
    aclnnStatus index_fill(const DeviceTensor& self, int64_t dim, const IntArray& index, const Scalar& value,
                           DeviceTensor& out) {
        return run_aclnn(stream_, aclnnIndexFillTensorGetWorkspaceSize, aclnnIndexFillTensor, self.get(), dim,
                         index.get(), value.get(), out.get());
    }
    aclnnStatus inplace_index_fill(DeviceTensor& self, int64_t dim, const IntArray& index, const Scalar& value) {
        return run_aclnn(stream_, aclnnInplaceIndexFillTensorGetWorkspaceSize, aclnnInplaceIndexFillTensor,
                         self.get(), dim, index.get(), value.get());
    }
    aclnnStatus repeat_int(const DeviceTensor& self, int64_t repeats, int64_t outputSize, DeviceTensor& out) {
        return run_aclnn(stream_, aclnnRepeatInterleaveIntGetWorkspaceSize, aclnnRepeatInterleaveInt, self.get(),
                         repeats, outputSize, out.get());
    }
    aclnnStatus repeat_dim(const DeviceTensor& self, int64_t repeats, int64_t dim, int64_t outputSize,
                           DeviceTensor& out) {
        return run_aclnn(stream_, aclnnRepeatInterleaveIntWithDimGetWorkspaceSize, aclnnRepeatInterleaveIntWithDim,
                         self.get(), repeats, dim, outputSize, out.get());
    }
};

std::unique_ptr<DeviceTensor> index_tensor(TensorSpec spec, const std::vector<int64_t>& values) {
    return std::make_unique<DeviceTensor>(std::move(spec), as_doubles(values));
}

/// The out-of-place form, outOfPlace(), writes expected into out and leaves
/// self holding values; the in-place form, inPlace(), then turns self into
/// the same.
template <class OutOfPlace, class InPlace>
void expect_out_then_in_place(const OutOfPlace& outOfPlace, const InPlace& inPlace, const DeviceTensor& self,
                              const std::vector<Complex>& values, const DeviceTensor& out,
                              const std::vector<Complex>& expected) {
    ASSERT_EQ(outOfPlace(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(out.read_complex(), expected);
    EXPECT_EQ(self.read_complex(), values);
    ASSERT_EQ(inPlace(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(self.read_complex(), out.read_complex());
}

// ---- Scatter (index/scatter_elements_v2/op_api/aclnn_scatter.cpp) ---------

TEST_F(IndexMapOps, ScatterEveryListedDtypeEachReduceAlongEachDim) {
    // self [3, 4]; index [2, 3] (smaller than src [3, 4]) with a repeated
    // target per line, a negative value (from the end) and out-of-range ones.
    const Shape shape = {3, 4}, indexShape = {2, 3}, srcShape = {3, 4};
    const std::vector<int64_t> index = {1, 1, -1, 2, 5, 1};
    for (aclDataType dtype : kScatterDtypes) {
        for (aclDataType indexDtype : kIndexDtypes) {
            for (int reduce : {0, 1, 2}) {
                for (size_t dim = 0; dim < 2; ++dim) {
                    SCOPED_TRACE(name(dtype) + " / " + name(indexDtype) + " reduce " + std::to_string(reduce) +
                                 " dim " + std::to_string(dim));
                    const std::vector<Complex> values = small_values(dtype, 12, 1);
                    const std::vector<Complex> updates = small_values(dtype, 12, 4);
                    DeviceTensor self(TensorSpec(shape, dtype));
                    self.write_complex(values);
                    DeviceTensor src(TensorSpec(srcShape, dtype));
                    src.write_complex(updates);
                    auto positions = index_tensor(TensorSpec(indexShape, indexDtype), index);
                    auto out = DeviceTensor::output(TensorSpec(shape, dtype));
                    const int64_t dimArgument = dim == 0 ? 0 : -1;
                    expect_out_then_in_place(
                        [&] { return scatter(self, dimArgument, *positions, src, reduce, *out); },
                        [&] { return inplace_scatter(self, dimArgument, *positions, src, reduce); }, self, values,
                        *out,
                        scatter_reference(values, shape, dim, index, indexShape, updates, srcShape, reduce, dtype));
                }
            }
        }
    }
}

TEST_F(IndexMapOps, ScatterReadsAndWritesStridedViews) {
    // self: the transpose of a [4, 3] buffer at offset 2; index: every
    // second element from offset 1; src at offset 3 with row gaps; out with
    // row gaps at offset 1.  Nothing outside the views changes.
    const std::vector<Complex> values = small_values(ACL_FLOAT, 12, 2);
    DeviceTensor self(TensorSpec({3, 4}, ACL_FLOAT, {1, 3}, 2, {14}));
    self.write_complex(values);
    DeviceTensor index(TensorSpec({2, 2}, ACL_INT64, {4, 2}, 1, {8}), {3, 0, 2, 3});
    DeviceTensor src(TensorSpec({2, 3}, ACL_FLOAT, {4, 1}, 3, {10}), {1, 2, 3, 4, 5, 6});
    auto out = DeviceTensor::output(TensorSpec({3, 4}, ACL_FLOAT, {5, 1}, 1, {16}));
    ASSERT_EQ(scatter(self, 1, index, src, 1, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(out->read_complex(),
              scatter_reference(values, {3, 4}, 1, {3, 0, 2, 3}, {2, 2}, {1, 2, 3, 4, 5, 6}, {2, 3}, 1, ACL_FLOAT));
    EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
    ASSERT_EQ(inplace_scatter(self, 1, index, src, 0), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(self.read_complex(),
              scatter_reference(values, {3, 4}, 1, {3, 0, 2, 3}, {2, 2}, {1, 2, 3, 4, 5, 6}, {2, 3}, 0, ACL_FLOAT));
    EXPECT_EQ(self.bytes_changed_outside_view(), 0u);
}

TEST_F(IndexMapOps, ScatterAddOfHalvesRoundsOncePerLine) {
    // CANN's kernel adds FLOAT16/BF16 in float and rounds once
    // (scatter_elements_v2.h, CastInputToFloat): 2048 + 1 + 1 + 1 = 2051
    // rounds to 2052; one rounding per add would stay at 2048.
    for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
        SCOPED_TRACE(name(dtype));
        const double big = dtype == ACL_FLOAT16 ? 2048 : 256;
        DeviceTensor self(TensorSpec({1, 2}, dtype), {big, 0});
        DeviceTensor index(TensorSpec({1, 3}, ACL_INT32), {0, 0, 0});
        DeviceTensor src(TensorSpec({1, 3}, dtype), {1, 1, 1});
        ASSERT_EQ(inplace_scatter(self, 1, index, src, 1), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        EXPECT_EQ(self.read(), (std::vector<double>{big + 4, 0}));
    }
    // Integers wrap.
    DeviceTensor ints(TensorSpec({1}, ACL_INT32), {2147483647});
    DeviceTensor index(TensorSpec({1}, ACL_INT64), {0});
    DeviceTensor one(TensorSpec({1}, ACL_INT32), {1});
    ASSERT_EQ(inplace_scatter(ints, 0, index, one, 1), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(ints.read(), std::vector<double>{-2147483648.0});
}

TEST_F(IndexMapOps, ScatterValueWritesTheValueConvertedToSelfsDtype) {
    const std::vector<Complex> values = small_values(ACL_FLOAT, 6, 3);
    DeviceTensor self(TensorSpec({2, 3}, ACL_FLOAT));
    self.write_complex(values);
    DeviceTensor index(TensorSpec({2, 2}, ACL_INT64), {2, 2, 0, -3});
    const std::vector<Complex> fives(4, Complex(2.5));
    auto out = DeviceTensor::output(TensorSpec({2, 3}, ACL_FLOAT));
    ASSERT_EQ(scatter_value(self, 1, index, Scalar(2.5), 1, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(out->read_complex(),
              scatter_reference(values, {2, 3}, 1, {2, 2, 0, -3}, {2, 2}, fives, {2, 2}, 1, ACL_FLOAT));
    // An INT32 self takes the value cast: 2.5 -> 2.
    DeviceTensor ints(TensorSpec({3}, ACL_INT32), {1, 1, 1});
    DeviceTensor one(TensorSpec({1}, ACL_INT32), {1});
    ASSERT_EQ(inplace_scatter_value(ints, 0, one, Scalar(2.5), 0), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(ints.read(), (std::vector<double>{1, 2, 1}));
}

TEST_F(IndexMapOps, ScatterOfScalarsAndOfNothing) {
    // 0-d self, index and src: the one element (dim 0 or -1).
    DeviceTensor self(TensorSpec({}, ACL_FLOAT), {5});
    DeviceTensor zero(TensorSpec({}, ACL_INT64), {0});
    DeviceTensor src(TensorSpec({}, ACL_FLOAT), {3});
    ASSERT_EQ(inplace_scatter(self, -1, zero, src, 2), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(self.read(), std::vector<double>{15});
    ASSERT_EQ(inplace_scatter_value(self, 0, zero, Scalar(1.0), 1), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(self.read(), std::vector<double>{16});
    // An empty index copies self into out, whatever its ranks (CANN returns
    // before CheckParams2); an empty self writes nothing.
    DeviceTensor matrix(TensorSpec({2, 2}, ACL_FLOAT), {1, 2, 3, 4});
    DeviceTensor none(TensorSpec({0}, ACL_INT32));
    DeviceTensor vector(TensorSpec({3}, ACL_FLOAT), {7, 8, 9});
    auto out = DeviceTensor::output(TensorSpec({2, 2}, ACL_FLOAT));
    ASSERT_EQ(scatter(matrix, 0, none, vector, 0, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(out->read(), (std::vector<double>{1, 2, 3, 4}));
    auto valueOut = DeviceTensor::output(TensorSpec({2, 2}, ACL_FLOAT));
    ASSERT_EQ(scatter_value(matrix, 0, none, Scalar(9.0), 0, *valueOut), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(valueOut->read(), (std::vector<double>{1, 2, 3, 4}));
    DeviceTensor empty(TensorSpec({0, 2}, ACL_FLOAT));
    DeviceTensor emptyIndex(TensorSpec({1, 2}, ACL_INT64), {0, 0});
    DeviceTensor rows(TensorSpec({1, 2}, ACL_FLOAT), {1, 1});
    ASSERT_EQ(inplace_scatter(empty, 0, emptyIndex, rows, 0), ACLNN_SUCCESS) << aclGetRecentErrMsg();
}

/// A refused Scatter call: why, self, dim, index, src, reduce, out.
struct ScatterCase {
    const char* why;
    Described self;
    int64_t dim;
    Described index;
    Described src;
    int64_t reduce;
    Described out;
};

TEST_F(IndexMapOps, ScatterErrors) {
    const RawTensor self(Described{{3, 4}}), index(Described{{2, 4}, ACL_INT64}), src(Described{{3, 4}});
    expect_each_null_is_161001_naming(aclnnScatterGetWorkspaceSize, {"self", "index", "src", "out"},
                                      static_cast<const aclTensor*>(self.get()), int64_t{0},
                                      static_cast<const aclTensor*>(index.get()),
                                      static_cast<const aclTensor*>(src.get()), int64_t{0}, self.get());
    expect_each_null_is_161001(aclnnInplaceScatterGetWorkspaceSize, self.get(), int64_t{0},
                               static_cast<const aclTensor*>(index.get()), static_cast<const aclTensor*>(src.get()),
                               int64_t{0});
    const Described f32{{3, 4}}, i64{{2, 4}, ACL_INT64};
    expect_each_refused(
        std::vector<ScatterCase>{
            {"self dtype outside the list", {{3, 4}, ACL_UINT16}, 0, i64, {{3, 4}, ACL_UINT16}, 0,
             {{3, 4}, ACL_UINT16}},
            {"src dtype", f32, 0, i64, {{3, 4}, ACL_FLOAT16}, 0, f32},
            {"out dtype", f32, 0, i64, f32, 0, {{3, 4}, ACL_DOUBLE}},
            {"index dtype", f32, 0, {{2, 4}, ACL_INT16}, f32, 0, f32},
            {"ranks differ", f32, 0, {{2}, ACL_INT64}, f32, 0, f32},
            {"out shape", f32, 0, i64, f32, 0, {{4, 3}}},
            {"index longer than src", f32, 0, i64, {{1, 4}}, 0, f32},
            {"index longer than self off dim", f32, 0, {{2, 5}, ACL_INT64}, {{3, 5}}, 0, f32},
            {"rank 9", {Shape(9, 1)}, 0, {Shape(9, 1), ACL_INT64}, {Shape(9, 1)}, 0, {Shape(9, 1)}},
            {"dim 2", f32, 2, i64, f32, 0, f32},
            {"dim -3", f32, -3, i64, f32, 0, f32},
            {"reduce 3 (max)", f32, 0, i64, f32, 3, f32},
            {"reduce 5 (mean)", f32, 0, i64, f32, 5, f32}},
        [](const ScatterCase& c) {
            return phase1_of(aclnnScatterGetWorkspaceSize, static_cast<const aclTensor*>(RawTensor(c.self).get()),
                             c.dim, static_cast<const aclTensor*>(RawTensor(c.index).get()),
                             static_cast<const aclTensor*>(RawTensor(c.src).get()), c.reduce, RawTensor(c.out).get());
        });
    // CANN's messages.
    const RawTensor out(f32);
    expect_error_naming(phase1_of(aclnnScatterGetWorkspaceSize, static_cast<const aclTensor*>(self.get()),
                                  int64_t{2}, static_cast<const aclTensor*>(index.get()),
                                  static_cast<const aclTensor*>(src.get()), int64_t{0}, out.get()),
                        ACLNN_ERR_PARAM_INVALID, "dim must be in range [-2, 1].");
    const RawTensor vector(Described{{4}, ACL_INT64});
    expect_error_naming(phase1_of(aclnnScatterGetWorkspaceSize, static_cast<const aclTensor*>(self.get()),
                                  int64_t{0}, static_cast<const aclTensor*>(vector.get()),
                                  static_cast<const aclTensor*>(src.get()), int64_t{0}, out.get()),
                        ACLNN_ERR_PARAM_INVALID, "expect self, index, src have same number of dimensions.");
    // An empty index copies self: a ViewCopy into an out of other size fails (561103).
    const RawTensor none(Described{{0}, ACL_INT64});
    for (const Described& other : {Described{{2, 2}}, Described{{12}}}) {
        const RawTensor otherOut(other);
        expect_error(phase1_of(aclnnScatterGetWorkspaceSize, static_cast<const aclTensor*>(self.get()), int64_t{0},
                               static_cast<const aclTensor*>(none.get()), static_cast<const aclTensor*>(src.get()),
                               int64_t{0}, otherOut.get()),
                     ACLNN_ERR_INNER_NULLPTR);
    }
    // ScatterValue: one message for any null, and a complex value needs a complex self.
    const Scalar value(1.0), complexValue(Complex(1, 1), ACL_COMPLEX64);
    expect_error_naming(phase1_of(aclnnScatterValueGetWorkspaceSize, static_cast<const aclTensor*>(self.get()),
                                  int64_t{0}, static_cast<const aclTensor*>(index.get()),
                                  static_cast<const aclScalar*>(nullptr), int64_t{0}, out.get()),
                        ACLNN_ERR_PARAM_NULLPTR, "self, index, value, out cannot be nullptr!");
    expect_error_naming(phase1_of(aclnnInplaceScatterValueGetWorkspaceSize, self.get(), int64_t{0},
                                  static_cast<const aclTensor*>(index.get()),
                                  static_cast<const aclScalar*>(complexValue.get()), int64_t{0}),
                        ACLNN_ERR_PARAM_INVALID, "When value is COMPLEX, the data type of self must be COMPLEX.");
    const RawTensor halfOut(Described{{3, 4}, ACL_FLOAT16});
    // ScatterValue copies for an empty index before its dtype checks: a ViewCopy into another dtype fails.
    expect_error(phase1_of(aclnnScatterValueGetWorkspaceSize, static_cast<const aclTensor*>(self.get()), int64_t{0},
                           static_cast<const aclTensor*>(none.get()), static_cast<const aclScalar*>(value.get()),
                           int64_t{0}, halfOut.get()),
                 ACLNN_ERR_INNER_NULLPTR);
    expect_error(phase1_of(aclnnScatterValueGetWorkspaceSize, static_cast<const aclTensor*>(self.get()), int64_t{0},
                           static_cast<const aclTensor*>(index.get()), static_cast<const aclScalar*>(value.get()),
                           int64_t{0}, halfOut.get()),
                 ACLNN_ERR_PARAM_INVALID);
}

TEST_F(IndexMapOps, ManyLinesOfAScatterAddGiveTheSameBitsForAnyWorkerCount) {
    // 4096 lines of 8 updates each, all into 5 targets: float sums whose
    // bits depend on their order.
    const Shape shape = {4096, 5}, indexShape = {4096, 8};
    std::vector<double> values(4096 * 5), updates(4096 * 8);
    std::vector<int64_t> index(4096 * 8);
    for (size_t i = 0; i < values.size(); ++i) values[i] = 1.0 / static_cast<double>(i + 3);
    for (size_t i = 0; i < updates.size(); ++i) {
        updates[i] = 1.0 / static_cast<double>(i % 97 + 1);
        index[i] = static_cast<int64_t>(i * 7919 % 7) - 1;
    }
    std::vector<std::vector<double>> results;
    for (int threads : {1, 2, 8}) {
        restart_with_worker_threads(threads);
        DeviceTensor self(TensorSpec(shape, ACL_FLOAT), values);
        DeviceTensor src(TensorSpec(indexShape, ACL_FLOAT), updates);
        auto positions = index_tensor(TensorSpec(indexShape, ACL_INT64), index);
        ASSERT_EQ(inplace_scatter(self, 1, *positions, src, 1), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        results.push_back(self.read());
    }
    EXPECT_EQ(results[1], results[0]);
    EXPECT_EQ(results[2], results[0]);
}

// ---- IndexFillTensor (index/index_fill_d/op_api/aclnn_index_fill_tensor.cpp)

/// The reference fill: self with every slice along dim at a value of index
/// (negative ones from the end) set to value.
std::vector<Complex> filled(std::vector<Complex> self, const Shape& shape, size_t dim,
                            const std::vector<int64_t>& index, Complex value) {
    for (int64_t p = 0; p < numel(shape); ++p) {
        const int64_t row = index_of(p, shape)[dim];
        for (int64_t v : index) {
            if ((v < 0 ? v + shape[dim] : v) == row) self[static_cast<size_t>(p)] = value;
        }
    }
    return self;
}

TEST_F(IndexMapOps, IndexFillTensorEveryListedDtypeAlongEachDim) {
    const Shape shape = {3, 4};
    const std::vector<int64_t> index = {2, -3, 2};
    for (aclDataType dtype : kIndexFillDtypes) {
        for (size_t dim = 0; dim < 2; ++dim) {
            SCOPED_TRACE(name(dtype) + " dim " + std::to_string(dim));
            const std::vector<Complex> values = small_values(dtype, 12, 2);
            DeviceTensor self(TensorSpec(shape, dtype));
            self.write_complex(values);
            auto out = DeviceTensor::output(TensorSpec(shape, dtype));
            const Complex value = dtype == ACL_BOOL ? 1.0 : -2.0;
            expect_out_then_in_place(
                [&] { return index_fill(self, dim == 0 ? -2 : 1, index, Scalar(value.real()), *out); },
                [&] { return inplace_index_fill(self, static_cast<int64_t>(dim), index, Scalar(value.real())); },
                self, values, *out, filled(values, shape, dim, index, value));
        }
    }
}

TEST_F(IndexMapOps, IndexFillTensorWritesStridedViewsAndTheValueThroughFloat) {
    // out with row gaps at offset 2, self transposed at offset 1.
    const std::vector<Complex> values = small_values(ACL_FLOAT, 6, 1);
    DeviceTensor self(TensorSpec({2, 3}, ACL_FLOAT, {1, 2}, 1, {7}));
    self.write_complex(values);
    auto out = DeviceTensor::output(TensorSpec({2, 3}, ACL_FLOAT, {4, 1}, 2, {10}));
    ASSERT_EQ(index_fill(self, 1, {1}, Scalar(7.0), *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(out->read_complex(), filled(values, {2, 3}, 1, {1}, 7.0));
    EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
    // value->ToFloat(): an INT64 value 2^24 + 1 fills 2^24 (the float's).
    DeviceTensor ints(TensorSpec({2}, ACL_INT64), {0, 0});
    ASSERT_EQ(inplace_index_fill(ints, 0, {0}, Scalar(16777217.0, ACL_INT64)), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(ints.read(), (std::vector<double>{16777216, 0}));
}

TEST_F(IndexMapOps, IndexFillTensorOfScalarsAndOfNothing) {
    DeviceTensor scalar(TensorSpec({}, ACL_FLOAT), {1});
    ASSERT_EQ(inplace_index_fill(scalar, -1, {-1}, Scalar(4.0)), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(scalar.read(), std::vector<double>{4});
    DeviceTensor matrix(TensorSpec({2, 2}, ACL_INT32), {1, 2, 3, 4});
    auto out = DeviceTensor::output(TensorSpec({2, 2}, ACL_INT32));
    ASSERT_EQ(index_fill(matrix, 0, {}, Scalar(4.0), *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(out->read(), (std::vector<double>{1, 2, 3, 4}));
    // An empty self skips the shape checks (CheckShape's first line).
    DeviceTensor empty(TensorSpec({0, 3}, ACL_FLOAT));
    ASSERT_EQ(inplace_index_fill(empty, 7, {9}, Scalar(4.0)), ACLNN_SUCCESS) << aclGetRecentErrMsg();
}

TEST_F(IndexMapOps, IndexFillTensorErrors) {
    const RawTensor self(Described{{3, 4}}), out(Described{{3, 4}});
    const IntArray index{1};
    const Scalar value(1.0), complexValue(Complex(1, 1), ACL_COMPLEX64);
    expect_each_null_is_161001_naming(aclnnIndexFillTensorGetWorkspaceSize, {"self", "index", "value", "out"},
                                      static_cast<const aclTensor*>(self.get()), int64_t{0},
                                      static_cast<const aclIntArray*>(index.get()),
                                      static_cast<const aclScalar*>(value.get()), out.get());
    const auto call = [&](const Described& s, int64_t dim, const IntArray& positions, const Scalar& fill,
                          const Described& o) {
        return phase1_of(aclnnIndexFillTensorGetWorkspaceSize, static_cast<const aclTensor*>(RawTensor(s).get()),
                         dim, static_cast<const aclIntArray*>(positions.get()),
                         static_cast<const aclScalar*>(fill.get()), RawTensor(o).get());
    };
    const Described f32{{3, 4}};
    expect_error_naming(call({{3, 4}, ACL_INT8}, 0, index, value, {{3, 4}, ACL_INT8}), ACLNN_ERR_PARAM_INVALID,
                        "INT8");
    expect_error(call(f32, 0, index, value, {{3, 4}, ACL_FLOAT16}), ACLNN_ERR_PARAM_INVALID);
    expect_error(call(f32, 0, index, value, {{4, 3}}), ACLNN_ERR_PARAM_INVALID);
    expect_error(call({Shape(9, 1)}, 0, IntArray{0}, value, {Shape(9, 1)}), ACLNN_ERR_PARAM_INVALID);
    expect_error_naming(call(f32, 2, index, value, f32), ACLNN_ERR_PARAM_INVALID,
                        "Dim value error, input dim[2] is greater than self dim[2].");
    expect_error_naming(call(f32, -3, index, value, f32), ACLNN_ERR_PARAM_INVALID,
                        "Dim value error, abs(input dim[-3]) is greater than self dim[2].");
    expect_error_naming(call({{}}, -2, IntArray{0}, value, {{}}), ACLNN_ERR_PARAM_INVALID, "abs(input dim[-2])");
    expect_error_naming(call(f32, 0, IntArray{3}, value, f32), ACLNN_ERR_PARAM_INVALID,
                        "Index value[3] is out of range, it should be smaller than [3].");
    expect_error(call(f32, 1, IntArray{-5}, value, f32), ACLNN_ERR_PARAM_INVALID);
    expect_error_naming(call(f32, 0, index, complexValue, f32), ACLNN_ERR_PARAM_INVALID,
                        "Type of value do not support complex type");
}

// ---- RepeatInterleave (index/repeat_interleave/op_api/aclnn_repeat_interleave.cpp)

/// The reference repeat along dim: out[.., i, ..] = self[.., i / repeats, ..].
std::vector<Complex> repeated(const std::vector<Complex>& self, const Shape& shape, size_t dim, int64_t repeats) {
    Shape outShape = shape;
    outShape[dim] *= repeats;
    std::vector<Complex> out(static_cast<size_t>(numel(outShape)));
    for (int64_t p = 0; p < numel(outShape); ++p) {
        Shape at = index_of(p, outShape);
        at[dim] /= repeats;
        out[static_cast<size_t>(p)] = self[static_cast<size_t>(flat(at, shape))];
    }
    return out;
}

TEST_F(IndexMapOps, RepeatInterleaveEveryListedDtypeAlongEachDimAndFlattened) {
    const Shape shape = {2, 3};
    for (aclDataType dtype : kRepeatDtypes) {
        SCOPED_TRACE(name(dtype));
        const std::vector<Complex> values = small_values(dtype, 6, 3);
        DeviceTensor self(TensorSpec(shape, dtype));
        self.write_complex(values);
        for (size_t dim = 0; dim < 2; ++dim) {
            Shape outShape = shape;
            outShape[dim] *= 3;
            auto out = DeviceTensor::output(TensorSpec(outShape, dtype));
            ASSERT_EQ(repeat_dim(self, 3, dim == 0 ? -2 : 1, outShape[dim], *out), ACLNN_SUCCESS)
                << aclGetRecentErrMsg();
            EXPECT_EQ(out->read_complex(), repeated(values, shape, dim, 3));
        }
        auto flatOut = DeviceTensor::output(TensorSpec({12}, dtype));
        ASSERT_EQ(repeat_int(self, 2, 12, *flatOut), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        EXPECT_EQ(flatOut->read_complex(), repeated(values, {6}, 0, 2));
    }
}

TEST_F(IndexMapOps, RepeatInterleaveReadsAndWritesStridedViews) {
    // self: the transpose of a [3, 2] buffer at offset 1; out with gaps.
    const std::vector<Complex> values = small_values(ACL_FLOAT, 6, 5);
    DeviceTensor self(TensorSpec({2, 3}, ACL_FLOAT, {1, 2}, 1, {7}));
    self.write_complex(values);
    auto out = DeviceTensor::output(TensorSpec({2, 6}, ACL_FLOAT, {8, 1}, 1, {16}));
    ASSERT_EQ(repeat_dim(self, 2, 1, 6, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(out->read_complex(), repeated(values, {2, 3}, 1, 2));
    EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
    auto flatOut = DeviceTensor::output(TensorSpec({6}, ACL_FLOAT, {2}, 1, {13}));
    ASSERT_EQ(repeat_int(self, 1, 99, *flatOut), ACLNN_SUCCESS) << aclGetRecentErrMsg();  // repeats 1: outputSize unread
    EXPECT_EQ(flatOut->read_complex(), values);
    EXPECT_EQ(flatOut->bytes_changed_outside_view(), 0u);
}

TEST_F(IndexMapOps, RepeatInterleaveOfScalarsAndOfNothing) {
    DeviceTensor scalar(TensorSpec({}, ACL_INT32), {7});
    auto out = DeviceTensor::output(TensorSpec({3}, ACL_INT32));
    ASSERT_EQ(repeat_int(scalar, 3, 3, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(out->read(), (std::vector<double>{7, 7, 7}));
    // outputSize 0 (WithDim) and an empty out (Int) return before anything:
    // out keeps what it held.
    DeviceTensor vector(TensorSpec({2}, ACL_FLOAT), {1, 2});
    DeviceTensor kept(TensorSpec({4}, ACL_FLOAT), {9, 9, 9, 9});
    ASSERT_EQ(repeat_dim(vector, 2, 0, 0, kept), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(kept.read(), (std::vector<double>{9, 9, 9, 9}));
    DeviceTensor none(TensorSpec({0}, ACL_FLOAT));
    ASSERT_EQ(repeat_int(vector, 0, 0, none), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    DeviceTensor empty(TensorSpec({0, 2}, ACL_FLOAT));
    ASSERT_EQ(repeat_dim(empty, 2, 1, 4, none), ACLNN_SUCCESS) << aclGetRecentErrMsg();
}

// acl-cpu's storage guard holds where CANN's op_api returns before the
// kernel (outputSize 0): an out whose view reaches past its storage and past
// the device block (32 + 32 bytes) its data points into is refused.  Found
// by fuzz_index.
TEST_F(IndexMapOps, RepeatInterleaveOfOutputSizeZeroStillGuardsItsStorage) {
    DeviceTensor self(TensorSpec({4}, ACL_FLOAT), {1, 2, 3, 4});
    const int64_t shape[] = {4};
    const int64_t strides[] = {6};
    DeviceBuffer buffer(16);
    aclTensor* out = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, buffer.get());
    expect_error_naming(phase1_of(aclnnRepeatInterleaveIntWithDimGetWorkspaceSize,
                                  static_cast<const aclTensor*>(self.get()), int64_t{2}, int64_t{0}, int64_t{0}, out),
                        ACLNN_ERR_PARAM_INVALID, "outside its storage");
    aclDestroyTensor(out);
}

TEST_F(IndexMapOps, RepeatInterleaveErrors) {
    const RawTensor self(Described{{2, 3}}), out(Described{{4, 3}});
    expect_each_null_is_161001_naming(aclnnRepeatInterleaveIntWithDimGetWorkspaceSize, {"self", "out"},
                                      static_cast<const aclTensor*>(self.get()), int64_t{2}, int64_t{0}, int64_t{4},
                                      out.get());
    expect_each_null_is_161001_naming(aclnnRepeatInterleaveIntGetWorkspaceSize, {"self", "out"},
                                      static_cast<const aclTensor*>(self.get()), int64_t{2}, int64_t{12}, out.get());
    const auto withDim = [](const Described& s, int64_t repeats, int64_t dim, int64_t outputSize,
                            const Described& o) {
        return phase1_of(aclnnRepeatInterleaveIntWithDimGetWorkspaceSize,
                         static_cast<const aclTensor*>(RawTensor(s).get()), repeats, dim, outputSize,
                         RawTensor(o).get());
    };
    const Described f32{{2, 3}}, f32Out{{4, 3}};
    expect_error_naming(withDim({{2, 3}, ACL_DOUBLE}, 2, 0, 4, {{4, 3}, ACL_DOUBLE}), ACLNN_ERR_PARAM_INVALID,
                        "DOUBLE");
    expect_error(withDim(f32, 2, 0, 4, {{4, 3}, ACL_FLOAT16}), ACLNN_ERR_PARAM_INVALID);
    expect_error_naming(withDim(f32, -1, 0, 4, f32Out), ACLNN_ERR_PARAM_INVALID, "repeats -1 can not be negative.");
    expect_error_naming(withDim({{}}, 2, 0, 2, {{2}}), ACLNN_ERR_PARAM_INVALID,
                        "dimension specified as 0 but tensor has no dimensions.");
    expect_error_naming(withDim(f32, 2, 2, 4, f32Out), ACLNN_ERR_PARAM_INVALID,
                        "Dimension out of range (expected to be in range of [-2, 1], but got 2).");
    expect_error(withDim({Shape(9, 1)}, 2, 0, 2, {Shape(9, 1)}), ACLNN_ERR_PARAM_INVALID);
    expect_error_naming(withDim(f32, 2, 0, 4, {{4, 2}}), ACLNN_ERR_PARAM_INVALID, "repeatRes");
    expect_error_naming(withDim(f32, 2, 0, 5, {{5, 3}}), ACLNN_ERR_PARAM_INVALID, "acl-cpu: outputSize 5");
    expect_error(withDim({{2}}, int64_t{1} << 62, 0, 2, {{2}}), ACLNN_ERR_PARAM_INVALID);  // size x repeats overflows
    expect_error(phase1_of(aclnnRepeatInterleaveIntGetWorkspaceSize, static_cast<const aclTensor*>(self.get()),
                           int64_t{2}, int64_t{12}, out.get()),
                 ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
