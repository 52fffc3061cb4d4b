// aclnnArgsort (hicann/ops-math math/sort/op_api/aclnn_argsort.cpp) against
// a reference computed here: every A2 dtype, every dim (negative ones
// too), ascending and descending, ties in index order, NaN above +inf
// (Sort pads ascending lines with NaN and descending ones with -inf,
// math/sort/op_kernel/arch35/common/merge_intra_core_base.h), strided and
// offset views, 0-d and empty tensors, every error path, and identical
// results for 1, 2 and 8 worker threads.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "aclnnop/aclnn_argsort.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

const double kNaN = std::nan("");

/// Along dim: each line's indices ordered by value (NaN the largest), equal
/// values in index order -- by insertion into a sorted run, not by a
/// library sort.
std::vector<double> argsort_reference(const std::vector<double>& x, const Shape& shape, size_t dim, bool descending) {
    int64_t inner = 1;
    for (size_t d = dim + 1; d < shape.size(); ++d) inner *= shape[d];
    const int64_t extent = shape.empty() ? 1 : shape[dim];
    const int64_t outer = numel(shape) / std::max<int64_t>(1, extent * inner);
    // Rank of a value: NaN above everything.
    const auto above = [&](double a, double b) {  // a strictly after b in the order
        if (std::isnan(a) || std::isnan(b)) return descending ? std::isnan(b) && !std::isnan(a) : std::isnan(a) && !std::isnan(b);
        return descending ? a < b : a > b;
    };
    std::vector<double> result(x.size());
    for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < inner; ++i) {
            const auto at = [&](int64_t k) { return static_cast<size_t>((o * extent + k) * inner + i); };
            std::vector<int64_t> run;
            for (int64_t k = 0; k < extent; ++k) {
                size_t pos = run.size();
                while (pos > 0 && above(x[at(run[pos - 1])], x[at(k)])) --pos;
                run.insert(run.begin() + static_cast<std::ptrdiff_t>(pos), k);
            }
            for (int64_t k = 0; k < extent; ++k) result[at(k)] = static_cast<double>(run[static_cast<size_t>(k)]);
        }
    }
    return result;
}

class Argsort : public AclTest {
protected:
    aclnnStatus argsort(const DeviceTensor& self, int64_t dim, bool descending, const DeviceTensor& out,
                        uint64_t* workspace = nullptr) {
        return run_two_phases(
            [&](uint64_t* size, aclOpExecutor** executor) {
                return aclnnArgsortGetWorkspaceSize(self.get(), dim, descending, out.get(), size, executor);
            },
            aclnnArgsort, stream_, workspace);
    }
};

const std::vector<aclDataType> kDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT8,  ACL_INT16,
                                          ACL_INT32, ACL_INT64,   ACL_UINT8, ACL_BF16};

TEST_F(Argsort, MatchesTheReferenceAlongEveryDim) {
    const Shape shape{3, 4, 5};
    for (aclDataType dtype : kDtypes) {
        SCOPED_TRACE(name(dtype));
        std::vector<double> x;
        for (const Complex& v : sample(dtype, 60, 7, 0, 5)) x.push_back(std::trunc(v.real()));  // ties
        if (!is_integral(dtype)) {
            x[3] = kNaN;
            x[8] = INFINITY;
            x[13] = -INFINITY;
            x[18] = kNaN;
        }
        const TensorSpec strided(shape, ACL_INT64, {1, 3, 12}, 5, {65});
        for (const TensorSpec& spec : {TensorSpec(shape, dtype), TensorSpec(shape, dtype, {1, 3, 12}, 5, {65})}) {
            DeviceTensor self(spec, x);
            for (int64_t dim = -3; dim < 3; ++dim) {
                for (bool descending : {false, true}) {
                    SCOPED_TRACE("dim " + std::to_string(dim) + (descending ? " descending" : ""));
                    auto out = DeviceTensor::output(dim == 0 ? strided : TensorSpec(shape, ACL_INT64));
                    ASSERT_EQ(argsort(self, dim, descending, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
                    const auto d = static_cast<size_t>(dim < 0 ? dim + 3 : dim);
                    expect_close(out->read(), argsort_reference(x, shape, d, descending), {0, 0});
                }
            }
        }
    }
}

// ggml's ARGSORT: rows of a 2-D fp32 tensor, the last dim.  NaN sorts
// last ascending, first descending; ties keep index order either way.
TEST_F(Argsort, NaNAboveInfinityAndStableTies) {
    DeviceTensor self({{1, 6}, ACL_FLOAT}, {2, kNaN, -1, INFINITY, 2, kNaN});
    auto out = DeviceTensor::output({{1, 6}, ACL_INT64});
    ASSERT_EQ(argsort(self, -1, false, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(out->read(), {2, 0, 4, 3, 1, 5}, {0, 0});
    ASSERT_EQ(argsort(self, 1, true, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(out->read(), {1, 5, 3, 0, 4, 2}, {0, 0});
}

// 0-d: index 0; empty: nothing launched (workspace 0); a dim of one.
TEST_F(Argsort, ZeroDEmptyAndUnitDims) {
    DeviceTensor scalar({{}, ACL_FLOAT}, {4});
    auto zero = DeviceTensor::output({{}, ACL_INT64});
    ASSERT_EQ(argsort(scalar, -1, true, *zero), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(zero->read(), {0}, {0, 0});
    DeviceTensor empty(TensorSpec({0, 4}, ACL_INT32));
    auto none = DeviceTensor::output({{0, 4}, ACL_INT64});
    uint64_t workspace = 1;
    ASSERT_EQ(argsort(empty, 1, false, *none, &workspace), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(workspace, 0u);
    DeviceTensor column({{3, 1}, ACL_FLOAT16}, {3, 1, 2});
    auto zeros = DeviceTensor::output({{3, 1}, ACL_INT64});
    ASSERT_EQ(argsort(column, 1, false, *zeros), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_close(zeros->read(), {0, 0, 0}, {0, 0});
}

TEST_F(Argsort, ErrorPaths) {
    DeviceTensor self({{2, 3}, ACL_FLOAT}, std::vector<double>(6, 1));
    auto out = DeviceTensor::output({{2, 3}, ACL_INT64});
    const auto phase1 = [&](const aclTensor* s, int64_t dim, const aclTensor* o) {
        return phase1_of(aclnnArgsortGetWorkspaceSize, s, dim, false, const_cast<aclTensor*>(o));
    };
    expect_error_naming(phase1(self.get(), 2, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "dim must be within the range of [-2, 1], but it is 2.");
    DeviceTensor scalar({{}, ACL_FLOAT}, {1});
    expect_error_naming(phase1(scalar.get(), 1, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "dim must be within the range of [-1, 0], but it is 1.");
    DeviceTensor bf16({{2, 1}, ACL_BF16}, {1, 2});
    auto bf16Out = DeviceTensor::output({{2, 1}, ACL_INT64});
    expect_error_naming(phase1(bf16.get(), 1, bf16Out->get()), ACLNN_ERR_PARAM_INVALID,
                        "The sort axis value is not support 1 when input type is BF16.");
    DeviceTensor f64({{2, 3}, ACL_DOUBLE}, std::vector<double>(6, 1));
    expect_error_naming(phase1(f64.get(), 1, out->get()), ACLNN_ERR_PARAM_INVALID, "DOUBLE");
    auto i32 = DeviceTensor::output({{2, 3}, ACL_INT32});
    expect_error_naming(phase1(self.get(), 1, i32->get()), ACLNN_ERR_PARAM_INVALID, "INT32");
    auto wrong = DeviceTensor::output({{3, 2}, ACL_INT64});
    expect_error(phase1(self.get(), 1, wrong->get()), ACLNN_ERR_PARAM_INVALID);
    DeviceTensor nine(TensorSpec(Shape(9, 1), ACL_FLOAT), {1});
    auto nineOut = DeviceTensor::output(TensorSpec(Shape(9, 1), ACL_INT64));
    expect_error_naming(phase1(nine.get(), 1, nineOut->get()), ACLNN_ERR_PARAM_INVALID, "8");
    expect_each_null_is_161001_naming(aclnnArgsortGetWorkspaceSize, {"self", "out"}, self.get(), int64_t{1}, false,
                                      out->get());
}

// Many lines over many blocks: identical for 1, 2 and 8 worker threads.
TEST_F(Argsort, LinesOverBlocksAreIdenticalAcrossWorkerCounts) {
    const Shape shape{300, 129};
    const std::vector<double> x = representable(uniform(300 * 129, -2, 2, 13), ACL_FLOAT16);
    std::vector<std::vector<uint8_t>> results;
    for (int threads : {1, 2, 8}) {
        restart_with_worker_threads(threads);
        DeviceTensor self({shape, ACL_FLOAT16}, x);
        auto out = DeviceTensor::output({shape, ACL_INT64});
        ASSERT_EQ(argsort(self, 1, true, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        results.push_back(out->bytes());
        if (threads == 1) expect_close(out->read(), argsort_reference(x, shape, 1, true), {0, 0});
    }
    EXPECT_EQ(results[0], results[1]);
    EXPECT_EQ(results[0], results[2]);
}

}  // namespace
