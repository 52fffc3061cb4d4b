// The index family (IndexSelect, GatherV2, Embedding, IndexCopy and
// InplaceIndexCopy) against references
// computed here by index arithmetic on host vectors: every A2 dtype of data
// and index, strided and offset views of self, index and out, negative and
// out-of-range index values, 0-d and empty tensors, every error path with
// its code (the op_api code of index/gather_v2, index/embedding and
// index/scatter_update in hicann/ops-nn), and a many-block gather and
// scatter bitwise equal for 1, 2 and 8 worker threads.
#include <cstdint>
#include <memory>
#include <vector>

#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_gather_v2.h"
#include "aclnnop/aclnn_index_copy.h"
#include "aclnnop/aclnn_index_select.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"
#include "../../layout/tests/layout_test_support.hpp"

namespace {

using namespace layouttest;

constexpr aclDataType kIndexSelectDtypes[] = {ACL_FLOAT,  ACL_INT32,  ACL_INT64,     ACL_FLOAT16,    ACL_INT16,
                                              ACL_INT8,   ACL_UINT8,  ACL_BOOL,      ACL_UINT64,     ACL_UINT32,
                                              ACL_UINT16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};
constexpr aclDataType kGatherDtypes[] = {ACL_FLOAT, ACL_INT32, ACL_INT64,  ACL_FLOAT16,   ACL_INT16,      ACL_INT8,
                                         ACL_UINT8, ACL_BOOL,  ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};
constexpr aclDataType kIndexDtypes[] = {ACL_INT32, ACL_INT64};

/// f(dtype, indexDtype) for each of GatherV2's and Embedding's A2 dtypes
/// (DTYPE_SUPPORT_LIST_WITH_BF16, WEIGHT_DTYPE_SUPPORT_LIST_WITH_COMPLEX_AND_BF16)
/// and each index dtype.
template <class F>
void for_each_gather_dtype(const F& f) {
    for (aclDataType dtype : kGatherDtypes) {
        for (aclDataType indexDtype : kIndexDtypes) {
            SCOPED_TRACE(name(dtype) + " / " + name(indexDtype));
            f(dtype, indexDtype);
        }
    }
}

/// The reference gather: out = table[.., index[p], ..] along dim, out's
/// shape table's with dim replaced by indexShape; a value below 0 counts
/// from the end when wraps, and an out-of-range one gives zeros (CANN's
/// GatherV2 kernel, index/gather_v2/op_kernel/arch35/gather_v2.h).
std::vector<Complex> gathered(const std::vector<Complex>& table, const Shape& shape, size_t dim,
                              const std::vector<int64_t>& index, bool wraps) {
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < dim; ++d) outer *= shape[d];
    for (size_t d = dim + 1; d < shape.size(); ++d) inner *= shape[d];
    const int64_t rows = shape[dim];
    std::vector<Complex> out;
    for (int64_t o = 0; o < outer; ++o) {
        for (int64_t value : index) {
            if (value < 0 && wraps) value += rows;
            for (int64_t i = 0; i < inner; ++i) {
                const bool inRange = value >= 0 && value < rows;
                out.push_back(inRange ? table[static_cast<size_t>((o * rows + value) * inner + i)] : Complex(0));
            }
        }
    }
    return out;
}

/// The reference scatter: table with table[.., index[p], ..] =
/// source[.., p, ..] along dim, positions in order (the last of repeated
/// values wins); values outside [0, size(dim)) write nothing (CANN's
/// ScatterUpdate kernel, index/scatter_update/op_kernel/arch35/
/// scatter_update_simt.h: `continue`).
std::vector<Complex> scattered(std::vector<Complex> table, const Shape& shape, size_t dim,
                               const std::vector<int64_t>& index, const std::vector<Complex>& source) {
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < dim; ++d) outer *= shape[d];
    for (size_t d = dim + 1; d < shape.size(); ++d) inner *= shape[d];
    const int64_t rows = shape[dim];
    const auto positions = static_cast<int64_t>(index.size());
    for (int64_t o = 0; o < outer; ++o) {
        for (int64_t p = 0; p < positions; ++p) {
            const int64_t value = index[static_cast<size_t>(p)];
            if (value < 0 || value >= rows) continue;
            for (int64_t i = 0; i < inner; ++i) {
                table[static_cast<size_t>((o * rows + value) * inner + i)] =
                    source[static_cast<size_t>((o * positions + p) * inner + i)];
            }
        }
    }
    return table;
}

std::vector<double> as_doubles(const std::vector<int64_t>& values) { return {values.begin(), values.end()}; }

class IndexOps : public AclTest {
protected:
    aclnnStatus index_select(const DeviceTensor& self, int64_t dim, const DeviceTensor& index, DeviceTensor& out) {
        return run_aclnn(stream_, aclnnIndexSelectGetWorkspaceSize, aclnnIndexSelect, self.get(), dim, index.get(),
                         out.get());
    }
    aclnnStatus gather_v2(const DeviceTensor& self, int64_t dim, const DeviceTensor& index, DeviceTensor& out) {
        return run_aclnn(stream_, aclnnGatherV2GetWorkspaceSize, aclnnGatherV2, self.get(), dim, index.get(),
                         out.get());
    }
    aclnnStatus index_copy(DeviceTensor& self, int64_t dim, const DeviceTensor& index, const DeviceTensor& source,
                           DeviceTensor& out) {
        return run_aclnn(stream_, aclnnIndexCopyGetWorkspaceSize, aclnnIndexCopy, self.get(), dim, index.get(),
                         source.get(), out.get());
    }
    aclnnStatus inplace_index_copy(DeviceTensor& self, int64_t dim, const DeviceTensor& index,
                                   const DeviceTensor& source) {
        return run_aclnn(stream_, aclnnInplaceIndexCopyGetWorkspaceSize, aclnnInplaceIndexCopy, self.get(), dim,
                         index.get(), source.get());
    }
    /// run(check) for 1, 2 and 8 worker threads (check for the first): the
    /// bytes each returns must be equal.
    template <class Run>
    void expect_same_bits_for_any_worker_count(const Run& run) {
        std::vector<std::vector<uint8_t>> results;
        for (int threads : {1, 2, 8}) {
            restart_with_worker_threads(threads);
            results.push_back(run(threads == 1));
        }
        EXPECT_EQ(results[1], results[0]);
        EXPECT_EQ(results[2], results[0]);
    }
    aclnnStatus embedding(const DeviceTensor& weight, const DeviceTensor& indices, DeviceTensor& out) {
        return run_aclnn(stream_, aclnnEmbeddingGetWorkspaceSize, aclnnEmbedding, weight.get(), indices.get(),
                         out.get());
    }
};

/// An index tensor of spec holding values.
std::unique_ptr<DeviceTensor> index_tensor(TensorSpec spec, const std::vector<int64_t>& values) {
    return std::make_unique<DeviceTensor>(std::move(spec), as_doubles(values));
}

/// A gather of a table by index into out, both in each dtype pair of
/// for_each_gather_dtype: the table holds sample(dtype, its size, seed),
/// and out must equal gathered(table, shape, dim, index, wraps).
struct GatherRun {
    Shape shape;
    Shape indexShape;
    Shape outShape;
    std::vector<int64_t> index;
    uint32_t seed;
    size_t dim;
    bool wraps;
};

/// gather(table, index, out) of each dtype pair gives the case's reference.
template <class Gather>
void expect_every_gather_dtype(const GatherRun& c, const Gather& gather) {
    for_each_gather_dtype([&](aclDataType dtype, aclDataType indexDtype) {
        const std::vector<Complex> values = sample(dtype, static_cast<size_t>(numel(c.shape)), c.seed, -100, 100);
        DeviceTensor table(TensorSpec(c.shape, dtype));
        table.write_complex(values);
        auto positions = index_tensor(TensorSpec(c.indexShape, indexDtype), c.index);
        auto out = DeviceTensor::output(TensorSpec(c.outShape, dtype));
        ASSERT_EQ(gather(table, *positions, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        EXPECT_EQ(out->read_complex(), gathered(values, c.shape, c.dim, c.index, c.wraps));
    });
}

// ---- IndexSelect (index/gather_v2/op_api/aclnn_index_select.cpp) ---------

TEST_F(IndexOps, IndexSelectEveryListedDtypeAlongEachDim) {
    // DTYPE_SUPPORT_LIST (BF16 on DAV_2201) x INDEX_SUPPORT_LIST.
    const Shape shape = {3, 4};
    const std::vector<int64_t> index = {2, 0, 2};
    for (aclDataType dtype : kIndexSelectDtypes) {
        for (aclDataType indexDtype : kIndexDtypes) {
            SCOPED_TRACE(name(dtype) + " / " + name(indexDtype));
            const std::vector<Complex> values = sample(dtype, 12, 3, -100, 100);
            DeviceTensor self(TensorSpec(shape, dtype));
            self.write_complex(values);
            auto positions = index_tensor(TensorSpec({3}, indexDtype), index);
            for (size_t dim = 0; dim < 2; ++dim) {
                Shape outShape = shape;
                outShape[dim] = 3;
                auto out = DeviceTensor::output(TensorSpec(outShape, dtype));
                const int64_t dimArgument = dim == 0 ? 0 : -1;  // both signs
                ASSERT_EQ(index_select(self, dimArgument, *positions, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
                EXPECT_EQ(out->read_complex(), gathered(values, shape, dim, index, false));
            }
        }
    }
}

TEST_F(IndexOps, IndexSelectReadsStridedViewsAndWritesNothingOutsideOut) {
    // self: the transpose of a [6, 5] buffer at offset 3; index every second
    // element from offset 1; out with row gaps at offset 2.
    const std::vector<Complex> values = sample(ACL_FLOAT, 30, 5, -100, 100);
    DeviceTensor self(TensorSpec({5, 6}, ACL_FLOAT, {1, 5}, 3, {40}));
    self.write_complex(values);
    DeviceTensor index(TensorSpec({4}, ACL_INT64, {2}, 1, {9}), {5, 0, 3, 5});
    auto out = DeviceTensor::output(TensorSpec({5, 4}, ACL_FLOAT, {7, 1}, 2, {40}));
    ASSERT_EQ(index_select(self, 1, index, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(out->read_complex(), gathered(values, {5, 6}, 1, {5, 0, 3, 5}, false));
    EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
}

TEST_F(IndexOps, IndexSelectGivesZerosForNegativeAndOutOfRangeValues) {
    // IndexSelect calls GatherV3 without negative_index_support: -1 is out of
    // range like 4, and the kernel writes 0 for both (gather_v2.h, GatherSimt).
    const std::vector<Complex> values = sample(ACL_FLOAT16, 8, 9, -100, 100);
    DeviceTensor self(TensorSpec({4, 2}, ACL_FLOAT16));
    self.write_complex(values);
    DeviceTensor index(TensorSpec({4}, ACL_INT32), {-1, 4, 1, INT32_MIN});
    auto out = DeviceTensor::output(TensorSpec({4, 2}, ACL_FLOAT16));
    ASSERT_EQ(index_select(self, 0, index, *out), ACLNN_SUCCESS);
    EXPECT_EQ(out->read_complex(), gathered(values, {4, 2}, 0, {-1, 4, 1, INT32_MIN}, false));
    EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
}

TEST_F(IndexOps, IndexSelectOfScalarsAndOfNothing) {
    // A 0-d self is gathered as [1] into a 0-d out (CheckShape; the doc's
    // constraint: index then of shape [1]).
    DeviceTensor scalar(TensorSpec({}, ACL_INT64), {42});
    DeviceTensor zero(TensorSpec({1}, ACL_INT32), {0});
    auto out = DeviceTensor::output(TensorSpec({}, ACL_INT64));
    ASSERT_EQ(index_select(scalar, -1, zero, *out), ACLNN_SUCCESS);
    EXPECT_EQ(out->read(), std::vector<double>{42});
    // A 0-d index selects one slice: out keeps dim as a dim of 1.
    DeviceTensor self(TensorSpec({2, 3}, ACL_FLOAT), {1, 2, 3, 4, 5, 6});
    DeviceTensor two(TensorSpec({}, ACL_INT64), {2});
    auto column = DeviceTensor::output(TensorSpec({2, 1}, ACL_FLOAT));
    ASSERT_EQ(index_select(self, 1, two, *column), ACLNN_SUCCESS);
    EXPECT_EQ(column->read(), (std::vector<double>{3, 6}));
    // An empty self or index: nothing written, out's shape not checked.
    DeviceTensor empty(TensorSpec({0, 3}, ACL_FLOAT));
    DeviceTensor noIndex(TensorSpec({0}, ACL_INT32));
    auto untouched = DeviceTensor::output(TensorSpec({5}, ACL_FLOAT));
    EXPECT_EQ(index_select(empty, 0, zero, *untouched), ACLNN_SUCCESS);
    EXPECT_EQ(index_select(self, 0, noIndex, *untouched), ACLNN_SUCCESS);
    EXPECT_EQ(untouched->read(), std::vector<double>(5, -7.0));
}

/// Phase 1 of an operator (self, dim, index, out) on tensors described so.
struct GatherCase {
    const char* why;
    Described self;
    int64_t dim;
    Described index;
    Described out;
};

template <class Entry>
void expect_each_gather_refused(Entry entry, const std::vector<GatherCase>& cases) {
    expect_each_refused(cases, [&](const GatherCase& c) {
        return phase1_of(entry, static_cast<const aclTensor*>(RawTensor(c.self).get()), c.dim,
                         static_cast<const aclTensor*>(RawTensor(c.index).get()), RawTensor(c.out).get());
    });
}

/// The null checks of entry (self, dim, index, out), each naming its argument.
template <class Entry>
void expect_each_gather_null_refused(Entry entry) {
    const RawTensor self(Described{{3, 4}}), index(Described{{2}, ACL_INT64}), out(Described{{2, 4}});
    expect_each_null_is_161001_naming(entry, {"self", "index", "out"}, static_cast<const aclTensor*>(self.get()),
                                      int64_t{0}, static_cast<const aclTensor*>(index.get()), out.get());
}

TEST_F(IndexOps, IndexSelectErrors) {
    expect_each_gather_null_refused(aclnnIndexSelectGetWorkspaceSize);
    const Described f32{{3, 4}}, i64{{2}, ACL_INT64}, f32Out{{2, 4}};
    expect_each_gather_refused(
        aclnnIndexSelectGetWorkspaceSize,
        {{"self dtype outside the list", {{3, 4}, ACL_COMPLEX32}, 0, i64, {{2, 4}, ACL_COMPLEX32}},
         {"out dtype differs", f32, 0, i64, {{2, 4}, ACL_FLOAT16}},
         {"index dtype", f32, 0, {{2}, ACL_INT16}, f32Out},
         {"private format", {{3, 4}, ACL_FLOAT, ACL_FORMAT_FRACTAL_NZ}, 0, i64, f32Out},
         {"0-d self, out not 0-d", {{}}, 0, {{1}, ACL_INT64}, {{1}}},
         {"rank 9", {Shape(9, 1)}, 0, i64, {Shape(9, 1)}},
         {"dim 2", f32, 2, i64, f32Out},
         {"dim -3", f32, -3, i64, f32Out},
         {"2-d index", f32, 0, {{2, 1}, ACL_INT64}, f32Out},
         {"out not [2, 4]", f32, 0, i64, {{4, 2}}}});
    // The message CANN's CheckShape prints.
    const RawTensor self(f32), index(i64), out(f32Out);
    expect_error_naming(phase1_of(aclnnIndexSelectGetWorkspaceSize, static_cast<const aclTensor*>(self.get()),
                                  int64_t{5}, static_cast<const aclTensor*>(index.get()), out.get()),
                        ACLNN_ERR_PARAM_INVALID, "Dimension out of range");
}

// ---- GatherV2 (index/gather_v2/op_api/aclnn_gather_v2.cpp) ---------------

TEST_F(IndexOps, GatherV2EveryListedDtypeWithAnIndexOfTwoDims) {
    // DTYPE_SUPPORT_LIST_WITH_BF16 (DAV_2201) x INDEX_SUPPORT_LIST; out is
    // self's shape with dim replaced by index's; negative values wrap
    // (negative_index_support), out-of-range ones give zeros.
    expect_every_gather_dtype({{2, 4}, {3, 2}, {2, 3, 2}, {1, -1, 4, -5, 0, 3}, 11, 1, true},
                              [&](const DeviceTensor& self, const DeviceTensor& index, DeviceTensor& out) {
                                  return gather_v2(self, -1, index, out);
                              });
}

TEST_F(IndexOps, GatherV2ReadsATransposedIndexIntoAStridedOut) {
    const std::vector<Complex> values = sample(ACL_FLOAT, 15, 13, -100, 100);
    DeviceTensor self(TensorSpec({5, 3}, ACL_FLOAT));
    self.write_complex(values);
    // index [2, 2] read through a transpose: its elements are 4, 2, 0, -2.
    DeviceTensor index(TensorSpec({2, 2}, ACL_INT32, {1, 2}, 0, {4}), {4, 2, 0, -2});
    auto out = DeviceTensor::output(TensorSpec({2, 2, 3}, ACL_FLOAT, {1, 2, 5}, 1, {20}));
    ASSERT_EQ(gather_v2(self, 0, index, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(out->read_complex(), gathered(values, {5, 3}, 0, {4, 2, 0, -2}, true));
    EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
}

TEST_F(IndexOps, GatherV2OfScalars) {
    // A 0-d self gives a 0-d out (CheckOutShape): its value for index 0 or -1, else 0.
    DeviceTensor scalar(TensorSpec({}, ACL_FLOAT), {2.5});
    auto out = DeviceTensor::output(TensorSpec({}, ACL_FLOAT));
    DeviceTensor last(TensorSpec({}, ACL_INT64), {-1});
    ASSERT_EQ(gather_v2(scalar, 0, last, *out), ACLNN_SUCCESS);
    EXPECT_EQ(out->read(), std::vector<double>{2.5});
    DeviceTensor past(TensorSpec({2}, ACL_INT64), {1, 0});
    ASSERT_EQ(gather_v2(scalar, -1, past, *out), ACLNN_SUCCESS);
    EXPECT_EQ(out->read(), std::vector<double>{0});
    // A 0-d index on a matrix: out keeps dim as a dim of 1.
    DeviceTensor self(TensorSpec({2, 3}, ACL_INT8), {1, 2, 3, 4, 5, 6});
    auto row = DeviceTensor::output(TensorSpec({1, 3}, ACL_INT8));
    ASSERT_EQ(gather_v2(self, 0, last, *row), ACLNN_SUCCESS);
    EXPECT_EQ(row->read(), (std::vector<double>{4, 5, 6}));
}

TEST_F(IndexOps, GatherV2Errors) {
    expect_each_gather_null_refused(aclnnGatherV2GetWorkspaceSize);
    const Described f32{{3, 4}}, i64{{2}, ACL_INT64}, f32Out{{2, 4}};
    expect_each_gather_refused(
        aclnnGatherV2GetWorkspaceSize,
        {{"dtypes differ", f32, 0, i64, {{2, 4}, ACL_FLOAT16}},
         {"self dtype outside the list", {{3, 4}, ACL_UINT16}, 0, i64, {{2, 4}, ACL_UINT16}},
         {"index dtype", f32, 0, {{2}, ACL_UINT8}, f32Out},
         {"rank 9 self", {Shape(9, 1)}, 0, i64, {Shape(9, 1)}},
         {"rank 9 index", f32, 0, {Shape(9, 1), ACL_INT64}, f32Out},
         {"dim 2", f32, 2, i64, f32Out},
         {"0-d self, dim 1", {{}}, 1, i64, {{}}},
         {"out not [3, 2]", f32, 1, i64, f32Out},
         {"0-d self, out not 0-d", {{}}, 0, i64, {{2}}}});
    // A private format is only a warning (CheckFormat).
    const RawTensor nz(Described{{3, 4}, ACL_FLOAT, ACL_FORMAT_FRACTAL_NZ}), index(i64), out(f32Out);
    EXPECT_EQ(phase1_of(aclnnGatherV2GetWorkspaceSize, static_cast<const aclTensor*>(nz.get()), int64_t{0},
                        static_cast<const aclTensor*>(index.get()), out.get()),
              ACLNN_SUCCESS);
}

// ---- Embedding (index/embedding/op_api/aclnn_embedding.cpp) --------------

TEST_F(IndexOps, EmbeddingEveryListedDtype) {
    // WEIGHT_DTYPE_SUPPORT_LIST_WITH_COMPLEX_AND_BF16 x INDICES_DTYPE_SUPPORT_LIST;
    // GatherV2 along dim 0 without negative_index_support: -1 gives zeros.
    expect_every_gather_dtype({{4, 3}, {2, 3}, {2, 3, 3}, {3, 0, -1, 2, 7, 3}, 17, 0, false},
                              [&](const DeviceTensor& weight, const DeviceTensor& indices, DeviceTensor& out) {
                                  return embedding(weight, indices, out);
                              });
}

TEST_F(IndexOps, EmbeddingOfAScalarIndexAndOfNothing) {
    DeviceTensor weight(TensorSpec({3, 2}, ACL_INT32), {1, 2, 3, 4, 5, 6});
    DeviceTensor one(TensorSpec({}, ACL_INT64), {1});
    auto row = DeviceTensor::output(TensorSpec({2}, ACL_INT32));
    ASSERT_EQ(embedding(weight, one, *row), ACLNN_SUCCESS);
    EXPECT_EQ(row->read(), (std::vector<double>{3, 4}));
    DeviceTensor none(TensorSpec({0}, ACL_INT64));
    auto untouched = DeviceTensor::output(TensorSpec({0, 2}, ACL_INT32));
    EXPECT_EQ(embedding(weight, none, *untouched), ACLNN_SUCCESS);
}

struct EmbeddingCase {
    const char* why;
    Described weight;
    Described indices;
    Described out;
};

TEST_F(IndexOps, EmbeddingErrors) {
    const RawTensor weight(Described{{3, 4}}), indices(Described{{2}, ACL_INT64}), out(Described{{2, 4}});
    expect_each_null_is_161001_naming(aclnnEmbeddingGetWorkspaceSize, {"weight", "indices", "out"},
                                      static_cast<const aclTensor*>(weight.get()),
                                      static_cast<const aclTensor*>(indices.get()),
                                      static_cast<const aclTensor*>(out.get()));
    const Described f32{{3, 4}}, i64{{2}, ACL_INT64}, f32Out{{2, 4}};
    expect_each_refused(
        std::vector<EmbeddingCase>
        {{"weight dtype outside the list", {{3, 4}, ACL_UINT32}, i64, {{2, 4}, ACL_UINT32}},
         {"dtypes differ", f32, i64, {{2, 4}, ACL_DOUBLE}},
         {"indices dtype", f32, {{2}, ACL_FLOAT}, f32Out},
         {"rank 9 indices", f32, {Shape(9, 1), ACL_INT64}, {Shape(10, 1)}},
         {"out rank not indices' + 1", f32, i64, {{2, 4, 1}}},
         {"out's leading dims not indices'", f32, i64, {{3, 4}}},
         {"out's last dim not weight's", f32, i64, {{2, 5}}}},
        [](const EmbeddingCase& c) {
            return phase1_of(aclnnEmbeddingGetWorkspaceSize, static_cast<const aclTensor*>(RawTensor(c.weight).get()),
                             static_cast<const aclTensor*>(RawTensor(c.indices).get()),
                             static_cast<const aclTensor*>(RawTensor(c.out).get()));
        });
}

// ---- IndexCopy (index/scatter_update/op_api/aclnn_index_copy.cpp) -------

constexpr aclDataType kIndexCopyDtypes[] = {ACL_DOUBLE, ACL_INT16, ACL_INT8,    ACL_UINT8, ACL_COMPLEX64, ACL_COMPLEX128,
                                            ACL_BOOL,   ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT64,     ACL_BF16};

TEST_F(IndexOps, InplaceIndexCopyEveryListedDtypeAlongEachDim) {
    // SELF_DTYPE_SUPPORT_LIST_910B x INDEX_DTYPE_SUPPORT_LIST; a repeated
    // value (2) takes the later slice, out-of-range ones (-1, 4) write nothing.
    const Shape shape = {4, 4};
    const std::vector<int64_t> index = {2, -1, 0, 4, 2};
    for (aclDataType dtype : kIndexCopyDtypes) {
        for (aclDataType indexDtype : kIndexDtypes) {
            for (size_t dim = 0; dim < 2; ++dim) {
                SCOPED_TRACE(name(dtype) + " / " + name(indexDtype) + " dim " + std::to_string(dim));
                const std::vector<Complex> values = sample(dtype, 16, 19, -100, 100);
                const std::vector<Complex> updates = sample(dtype, 20, 23, -100, 100);
                DeviceTensor self(TensorSpec(shape, dtype));
                self.write_complex(values);
                DeviceTensor source(TensorSpec(dim == 0 ? Shape{5, 4} : Shape{4, 5}, dtype));
                source.write_complex(updates);
                auto positions = index_tensor(TensorSpec({5}, indexDtype), index);
                ASSERT_EQ(inplace_index_copy(self, static_cast<int64_t>(dim), *positions, source), ACLNN_SUCCESS)
                    << aclGetRecentErrMsg();
                EXPECT_EQ(self.read_complex(), scattered(values, shape, dim, index, updates));
            }
        }
    }
}

TEST_F(IndexOps, IndexCopyWritesOutAndLeavesSelf) {
    // aclnnIndexCopy scatters into a copy of self (GetScatterSelf) viewed into outRef.
    const std::vector<Complex> values = sample(ACL_FLOAT, 12, 29, -100, 100);
    DeviceTensor self(TensorSpec({3, 4}, ACL_FLOAT, {1, 3}, 1, {13}));  // a transposed view
    self.write_complex(values);
    DeviceTensor source(TensorSpec({3, 2}, ACL_FLOAT), {1, 2, 3, 4, 5, 6});
    DeviceTensor index(TensorSpec({2}, ACL_INT32, {3}, 2, {6}), {3, 0});
    auto out = DeviceTensor::output(TensorSpec({3, 4}, ACL_FLOAT, {5, 1}, 0, {15}));
    ASSERT_EQ(index_copy(self, -1, index, source, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(out->read_complex(), scattered(values, {3, 4}, 1, {3, 0}, {1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
    EXPECT_EQ(self.read_complex(), values);
}

TEST_F(IndexOps, IndexCopyOfScalarsAndOfNothing) {
    // A 0-d source takes one index value into a 1-D self; a 0-d self takes
    // its value from the last in-range position.
    DeviceTensor vector(TensorSpec({3}, ACL_INT64), {1, 2, 3});
    DeviceTensor scalar(TensorSpec({}, ACL_INT64), {9});
    DeviceTensor one(TensorSpec({}, ACL_INT32), {1});
    ASSERT_EQ(inplace_index_copy(vector, 0, one, scalar), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(vector.read(), (std::vector<double>{1, 9, 3}));
    DeviceTensor target(TensorSpec({}, ACL_FLOAT), {5});
    DeviceTensor updates(TensorSpec({3}, ACL_FLOAT), {6, 7, 8});
    DeviceTensor index(TensorSpec({3}, ACL_INT64), {0, 0, 1});
    ASSERT_EQ(inplace_index_copy(target, -1, index, updates), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(target.read(), std::vector<double>{7});
    // An empty index: nothing written.
    DeviceTensor none(TensorSpec({0}, ACL_INT64));
    DeviceTensor noSource(TensorSpec({0}, ACL_INT64));
    ASSERT_EQ(inplace_index_copy(vector, 0, none, noSource), ACLNN_SUCCESS);
    EXPECT_EQ(vector.read(), (std::vector<double>{1, 9, 3}));
}

struct IndexCopyCase {
    const char* why;
    Described self;
    int64_t dim;
    Described index;
    Described source;
    Described out;
};

TEST_F(IndexOps, IndexCopyErrors) {
    const RawTensor self(Described{{3, 4}}), index(Described{{2}, ACL_INT64}), source(Described{{2, 4}}),
        out(Described{{3, 4}});
    expect_each_null_is_161001_naming(aclnnIndexCopyGetWorkspaceSize, {"self", "index", "source", "out"},
                                      self.get(), int64_t{0}, static_cast<const aclTensor*>(index.get()),
                                      static_cast<const aclTensor*>(source.get()), out.get());
    expect_each_null_is_161001_naming(aclnnInplaceIndexCopyGetWorkspaceSize, {"self", "index", "source"},
                                      self.get(), int64_t{0}, static_cast<const aclTensor*>(index.get()),
                                      static_cast<const aclTensor*>(source.get()));
    const Described f32{{3, 4}}, i64{{2}, ACL_INT64}, rows{{2, 4}};
    expect_each_refused(
        std::vector<IndexCopyCase>{
            {"self dtype outside the list", {{3, 4}, ACL_UINT16}, 0, i64, {{2, 4}, ACL_UINT16}, {{3, 4}, ACL_UINT16}},
            {"index dtype", f32, 0, {{2}, ACL_INT16}, rows, f32},
            {"source dtype", f32, 0, i64, {{2, 4}, ACL_FLOAT16}, f32},
            {"out dtype", f32, 0, i64, rows, {{3, 4}, ACL_DOUBLE}},
            {"rank 9 self", {Shape(9, 1)}, 0, i64, {Shape(9, 1)}, {Shape(9, 1)}},
            {"2-d index", f32, 0, {{2, 1}, ACL_INT64}, rows, f32},
            {"out shape", f32, 0, i64, rows, {{4, 3}}},
            {"0-d source, 2 positions", f32, 0, i64, {{}}, f32},
            {"ranks differ", f32, 0, i64, {{2, 4, 1}}, f32},
            {"0-d self, dim 1", {{}}, 1, {{1}, ACL_INT64}, {{1}}, {{}}},
            {"dim 2", f32, 2, i64, rows, f32},
            {"slice shapes differ", f32, 0, i64, {{2, 3}}, f32},
            {"0-d source into a matrix", f32, 0, {{1}, ACL_INT64}, {{}}, f32},
            // fuzz_index: a 0-d self passes CANN's slice check with any source.
            {"0-d self, 2-d source", {{}}, 0, {{3}, ACL_INT64}, {{3, 0}}, {{}}},
            {"positions not source's dim", f32, 0, {{3}, ACL_INT64}, rows, f32},
            {"formats differ", f32, 0, i64, rows, {{3, 4}, ACL_FLOAT, ACL_FORMAT_NCHW}}},
        [](const IndexCopyCase& c) {
            return phase1_of(aclnnIndexCopyGetWorkspaceSize, RawTensor(c.self).get(), c.dim,
                             static_cast<const aclTensor*>(RawTensor(c.index).get()),
                             static_cast<const aclTensor*>(RawTensor(c.source).get()), RawTensor(c.out).get());
        });
}

// ---- The engine's blocks -------------------------------------------------

/// count row numbers in [-4, rows + 4], scrambled, most repeated.
std::vector<int64_t> scrambled_rows(int64_t count, int64_t rows) {
    std::vector<int64_t> index(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) index[static_cast<size_t>(i)] = (i * 7919) % (rows + 9) - 4;
    return index;
}

TEST_F(IndexOps, ManyBlocksGiveTheSameBitsForAnyWorkerCount) {
    // A gather over many blocks (3 Mi elements), its rows chosen out of
    // order with repeats and some out of range, read through a strided self.
    const int64_t rows = 1000, width = 1024, count = 3000;
    const std::vector<int64_t> index = scrambled_rows(count, rows);
    expect_same_bits_for_any_worker_count([&](bool check) {
        DeviceTensor self(TensorSpec({rows, width}, ACL_FLOAT, {width + 3, 1}, 0, {rows * (width + 3)}));
        self.fill_pattern(-1000, 1000);
        DeviceTensor positions(TensorSpec({count}, ACL_INT64), as_doubles(index));
        auto out = DeviceTensor::output(TensorSpec({count, width}, ACL_FLOAT));
        EXPECT_EQ(gather_v2(self, 0, positions, *out), ACLNN_SUCCESS);
        const std::vector<double> table = self.read();
        const std::vector<double> got = out->read();
        for (int64_t p = 0; check && p < count; p += 97) {
            int64_t row = index[static_cast<size_t>(p)];
            row += row < 0 ? rows : 0;
            for (int64_t c = 0; c < width; c += 31) {
                const double want = row < rows ? table[static_cast<size_t>(row * width + c)] : 0.0;
                EXPECT_EQ(got[static_cast<size_t>(p * width + c)], want) << p << ", " << c;
            }
        }
        return out->bytes();
    });
}

TEST_F(IndexOps, ManyBlocksOfAScatterGiveTheSameBitsForAnyWorkerCount) {
    // 3000 slices of 1024 into 1000 rows: most rows written several times,
    // the last position writing a row winning in every block.
    const int64_t rows = 1000, width = 1024, count = 3000;
    const std::vector<int64_t> index = scrambled_rows(count, rows);
    // Row r holds the last position p with index[p] == r, else its own values.
    std::vector<int64_t> last(rows, -1);
    for (int64_t p = 0; p < count; ++p) {
        const int64_t row = index[static_cast<size_t>(p)];
        if (row >= 0 && row < rows) last[static_cast<size_t>(row)] = p;
    }
    expect_same_bits_for_any_worker_count([&](bool check) {
        DeviceTensor self(TensorSpec({rows, width}, ACL_FLOAT));
        self.fill_pattern(-1, 1);
        DeviceTensor source(TensorSpec({count, width}, ACL_FLOAT));
        source.fill_pattern(-1000, 1000);
        DeviceTensor positions(TensorSpec({count}, ACL_INT64), as_doubles(index));
        EXPECT_EQ(inplace_index_copy(self, 0, positions, source), ACLNN_SUCCESS);
        const std::vector<double> updates = source.read();
        const std::vector<double> got = self.read();
        for (int64_t r = 0; check && r < rows; r += 7) {
            const int64_t p = last[static_cast<size_t>(r)];
            for (int64_t c = 0; p >= 0 && c < width; c += 29) {
                EXPECT_EQ(got[static_cast<size_t>(r * width + c)], updates[static_cast<size_t>(p * width + c)]);
            }
        }
        return self.bytes();
    });
}

}  // namespace
