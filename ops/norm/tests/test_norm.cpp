// The row operators of ops/norm -- Softmax, LogSoftmax, RmsNorm, LayerNorm -- against
// double-precision references written here: every A2 dtype of each op_api
// (activation/softmax_v2/op_api/aclnn_softmax.cpp, activation/log_softmax_v2/
// op_api/aclnn_log_softmax.cpp, norm/rms_norm/docs/aclnnRmsNorm.md,
// norm/layer_norm_v4/op_host/op_api/aclnn_layer_norm.cpp in hicann/ops-nn), non-last dims, strided and offset rows, rows of 1, rows
// of several UB chunks, special values, empty tensors, every error path
// and results independent of the worker count.
//
// A reference models CANN's graph: the input as the device holds it, the
// formula in double, the result rounded to the kernel's dtype and cast into
// the output.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_softmax.h"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::nan("");

/// A row-major shape seen as [outer, length, inner] around dim.
struct RowIndex {
    int64_t outer;
    int64_t length;
    int64_t inner;
};

RowIndex row_index(const Shape& shape, int64_t dim) {
    if (shape.empty()) return {1, 1, 1};
    const auto axis = static_cast<size_t>(dim < 0 ? dim + static_cast<int64_t>(shape.size()) : dim);
    RowIndex rows{1, shape[axis], 1};
    for (size_t d = 0; d < axis; ++d) rows.outer *= shape[d];
    for (size_t d = axis + 1; d < shape.size(); ++d) rows.inner *= shape[d];
    return rows;
}

/// softmax (or log-softmax) of x along dim, in double.
std::vector<double> softmax_reference(const std::vector<double>& x, const Shape& shape, int64_t dim, bool log) {
    const RowIndex rows = row_index(shape, dim);
    std::vector<double> y(x.size());
    for (int64_t o = 0; o < rows.outer; ++o) {
        for (int64_t k = 0; k < rows.inner; ++k) {
            const auto at = [&](int64_t j) { return static_cast<size_t>((o * rows.length + j) * rows.inner + k); };
            double max = -kInf;
            for (int64_t j = 0; j < rows.length; ++j) max = std::fmax(max, x[at(j)]);
            double sum = 0;
            for (int64_t j = 0; j < rows.length; ++j) sum += std::exp(x[at(j)] - max);
            for (int64_t j = 0; j < rows.length; ++j) {
                y[at(j)] = log ? (x[at(j)] - max) - std::log(sum) : std::exp(x[at(j)] - max) / sum;
            }
        }
    }
    return y;
}

std::vector<double> rounded(std::vector<double> values, aclDataType dtype) { return representable(std::move(values), dtype); }

class Softmaxes : public AclTest {
protected:
    aclnnStatus softmax(const DeviceTensor& self, int64_t dim, DeviceTensor& out) {
        return run_aclnn(stream_, aclnnSoftmaxGetWorkspaceSize, aclnnSoftmax, self.get(), dim, out.get());
    }
    aclnnStatus log_softmax(const DeviceTensor& self, int64_t dim, DeviceTensor& out) {
        return run_aclnn(stream_, aclnnLogSoftmaxGetWorkspaceSize, aclnnLogSoftmax, self.get(), dim, out.get());
    }

    /// Runs (log-)softmax of values over selfSpec into outSpec and compares
    /// with the reference: Softmax computes in self's dtype then casts into
    /// out; LogSoftmax casts self into out's dtype, then computes.
    void expect_softmax(bool log, const TensorSpec& selfSpec, const TensorSpec& outSpec, int64_t dim,
                        const std::vector<double>& values) {
        SCOPED_TRACE(std::string(log ? "LogSoftmax" : "Softmax") + " dim " + std::to_string(dim));
        DeviceTensor self(selfSpec, values);
        auto out = DeviceTensor::output(outSpec);
        ASSERT_EQ(log ? log_softmax(self, dim, *out) : softmax(self, dim, *out), ACLNN_SUCCESS);
        const aclDataType computeDtype = log ? outSpec.dtype : selfSpec.dtype;
        const std::vector<double> input = rounded(self.read(), computeDtype);
        const auto expected = rounded(rounded(softmax_reference(input, selfSpec.shape, dim, log), computeDtype),
                                      outSpec.dtype);
        expect_close(out->read(), expected, tolerance_for(computeDtype));
    }
    /// expect_softmax of Softmax, then of LogSoftmax.
    void expect_softmaxes(const TensorSpec& selfSpec, const TensorSpec& outSpec, int64_t dim,
                          const std::vector<double>& values) {
        for (const bool log : {false, true}) expect_softmax(log, selfSpec, outSpec, dim, values);
    }
};

const std::vector<aclDataType> kSoftmaxDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

// aclnn_softmax.cpp / aclnn_log_softmax.cpp: FLOAT, FLOAT16, DOUBLE, BF16 on A2.
TEST_F(Softmaxes, EveryListedDtypeAlongEveryDim) {
    const Shape shape = {3, 5, 7};
    const auto values = uniform(105, -6.0, 6.0, 31);
    for (aclDataType dtype : kSoftmaxDtypes) {
        for (int64_t dim : {-1, 0, 1, 2}) {
            expect_softmaxes(TensorSpec(shape, dtype), TensorSpec(shape, dtype), dim, values);
        }
    }
}

// Softmax: SoftmaxV2 in self's dtype, then Cast into out; LogSoftmax: Cast
// into out's dtype first.
TEST_F(Softmaxes, OutOfAnotherDtype) {
    const auto values = uniform(40, -3.0, 3.0, 5);
    expect_softmaxes(TensorSpec({4, 10}, ACL_FLOAT), TensorSpec({4, 10}, ACL_FLOAT16), 1, values);
    expect_softmaxes(TensorSpec({4, 10}, ACL_BF16), TensorSpec({4, 10}, ACL_FLOAT), 1, values);
}

TEST_F(Softmaxes, StridedAndOffsetViews) {
    // self a transposed view with an offset, out strided with gaps.
    const auto values = uniform(24, -4.0, 4.0, 9);
    for (int64_t dim : {0, 1}) {
        expect_softmaxes(TensorSpec({4, 6}, ACL_FLOAT, {1, 5}, 3, {40}), TensorSpec({4, 6}, ACL_FLOAT, {8, 1}, 2, {40}),
                         dim, values);
        expect_softmaxes(TensorSpec({4, 6}, ACL_FLOAT16, {1, 5}, 3, {40}),
                         TensorSpec({4, 6}, ACL_FLOAT16, {1, 4}, 1, {30}), dim, values);
    }
}

TEST_F(Softmaxes, RowsOfOneAndZeroDimTensors) {
    expect_softmaxes(TensorSpec({5, 1}, ACL_FLOAT), TensorSpec({5, 1}, ACL_FLOAT), 1, uniform(5, -9, 9, 2));
    expect_softmaxes(TensorSpec({}, ACL_FLOAT), TensorSpec({}, ACL_FLOAT), 0, {3.5});
    expect_softmaxes(TensorSpec({}, ACL_FLOAT), TensorSpec({}, ACL_FLOAT), -1, {-2.0});
}

// Rows longer than a UB chunk are reduced chunk by chunk, both as the last
// dim and as a strided dim.
TEST_F(Softmaxes, LongRowsOfSeveralChunks) {
    const auto values = uniform(200000, -20.0, 20.0, 77);
    expect_softmaxes(TensorSpec({2, 100000}, ACL_FLOAT), TensorSpec({2, 100000}, ACL_FLOAT), 1, values);
    expect_softmaxes(TensorSpec({100000, 2}, ACL_FLOAT16), TensorSpec({100000, 2}, ACL_FLOAT16), 0, values);
}

// aclnn_softmax.cpp's CheckParams asks only that out has self's shape, so
// out may be self: a dense fp32 row is read and written in place, and each
// element is read before it is overwritten, over rows of one chunk and of
// several.
TEST_F(Softmaxes, OutMayBeSelf) {
    for (const bool log : {false, true}) {
        for (const int64_t length : {int64_t{1000}, int64_t{100000}}) {
            SCOPED_TRACE(std::string(log ? "LogSoftmax" : "Softmax") + " length " + std::to_string(length));
            const Shape shape{2, length};
            DeviceTensor self(TensorSpec(shape, ACL_FLOAT), uniform(static_cast<size_t>(2 * length), -20.0, 20.0, 78));
            const std::vector<double> input = self.read();
            ASSERT_EQ(log ? log_softmax(self, 1, self) : softmax(self, 1, self), ACLNN_SUCCESS);
            expect_close(self.read(), rounded(softmax_reference(input, shape, 1, log), ACL_FLOAT),
                         tolerance_for(ACL_FLOAT));
        }
    }
}

// exp(-inf - max) is 0; a row whose max is +inf or NaN, or all -inf, is NaN
// (inf - inf), as PyTorch's softmax.
TEST_F(Softmaxes, SpecialValues) {
    const std::vector<double> values = {-kInf, 0.0, 1.0, 2.0,  kInf, 1.0, 2.0, 3.0,
                                        kNaN,  1.0, 2.0, 3.0,  -kInf, -kInf, -kInf, -kInf};
    expect_softmaxes(TensorSpec({4, 4}, ACL_FLOAT), TensorSpec({4, 4}, ACL_FLOAT), 1, values);
}

// aclnn_softmax.cpp: an empty self succeeds before any other check;
// aclnn_log_softmax.cpp checks first, then succeeds.
TEST_F(Softmaxes, EmptyTensorsLaunchNothing) {
    DeviceTensor self(TensorSpec({0, 3}, ACL_FLOAT));
    auto out = DeviceTensor::output(TensorSpec({0, 3}, ACL_FLOAT));
    uint64_t workspace = 1;
    EXPECT_EQ(run_two_phases([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnSoftmaxGetWorkspaceSize(self.get(), 5, out->get(), ws, ex);
              }, aclnnSoftmax, stream_, &workspace),
              ACLNN_SUCCESS);
    EXPECT_EQ(workspace, 0u);
    EXPECT_EQ(log_softmax(self, 1, *out), ACLNN_SUCCESS);
    expect_error_naming(phase1_of(aclnnLogSoftmaxGetWorkspaceSize, self.get(), int64_t{5}, out->get()),
                        ACLNN_ERR_PARAM_INVALID, "dim 5");
}

TEST_F(Softmaxes, ErrorPaths) {
    DeviceTensor self(TensorSpec({2, 3}, ACL_FLOAT), uniform(6, -1, 1, 1));
    auto out = DeviceTensor::output(TensorSpec({2, 3}, ACL_FLOAT));
    auto wrongShape = DeviceTensor::output(TensorSpec({3, 2}, ACL_FLOAT));
    DeviceTensor ints(TensorSpec({2, 3}, ACL_INT32), uniform(6, -1, 1, 1));
    DeviceTensor rank9(TensorSpec({1, 1, 1, 1, 1, 1, 1, 1, 2}, ACL_FLOAT), {1.0, 2.0});
    for (auto entry : {aclnnSoftmaxGetWorkspaceSize, aclnnLogSoftmaxGetWorkspaceSize}) {
        expect_each_null_is_161001_naming(entry, {"self", "out"}, self.get(), int64_t{1}, out->get());
        expect_error_naming(phase1_of(entry, ints.get(), int64_t{1}, out->get()), ACLNN_ERR_PARAM_INVALID, "self");
        expect_error_naming(phase1_of(entry, self.get(), int64_t{1}, ints.get()), ACLNN_ERR_PARAM_INVALID, "out");
        expect_error_naming(phase1_of(entry, self.get(), int64_t{2}, out->get()), ACLNN_ERR_PARAM_INVALID,
                            "provided dim 2 not in the range of input size 2");
        expect_error_naming(phase1_of(entry, self.get(), int64_t{-3}, out->get()), ACLNN_ERR_PARAM_INVALID, "dim -3");
        expect_error(phase1_of(entry, self.get(), int64_t{1}, wrongShape->get()), ACLNN_ERR_PARAM_INVALID);
        expect_error(phase1_of(entry, rank9.get(), int64_t{1}, rank9.get()), ACLNN_ERR_PARAM_INVALID);
    }
}

// Rows are tiled over blocks by rows only: the results are bitwise the
// same for 1, 2 and 8 workers.
TEST_F(Softmaxes, ManyBlocksBitwiseEqualForAnyWorkerCount) {
    const Shape shape = {600, 1000};
    const auto values = uniform(600000, -10.0, 10.0, 4);
    std::vector<std::vector<double>> results;
    for (int threads : {1, 2, 8}) {
        restart_with_worker_threads(threads);
        for (const bool log : {false, true}) {
            DeviceTensor self(TensorSpec(shape, ACL_FLOAT), values);
            auto out = DeviceTensor::output(TensorSpec(shape, ACL_FLOAT));
            ASSERT_EQ(log ? log_softmax(self, 1, *out) : softmax(self, 1, *out), ACLNN_SUCCESS);
            results.push_back(out->read());
        }
    }
    for (size_t r = 2; r < results.size(); ++r) {
        EXPECT_EQ(0, std::memcmp(results[r].data(), results[r % 2].data(), results[r].size() * sizeof(double)));
    }
    expect_close(results[0], softmax_reference(values, shape, 1, false), tolerance_for(ACL_FLOAT));
}

// --- RmsNorm ------------------------------------------------------------------

struct RmsNormReference {
    std::vector<double> y;
    std::vector<double> rstd;
};

/// y = x * rstd * gamma, rstd = 1 / sqrt(mean(x^2) + eps) per row of gamma's size.
RmsNormReference rms_norm_reference(const std::vector<double>& x, const std::vector<double>& gamma, double eps) {
    const size_t length = gamma.size();
    RmsNormReference ref{std::vector<double>(x.size()), std::vector<double>(x.size() / length)};
    for (size_t r = 0; r < ref.rstd.size(); ++r) {
        double sum = 0;
        for (size_t j = 0; j < length; ++j) sum += x[r * length + j] * x[r * length + j];
        ref.rstd[r] = 1.0 / std::sqrt(sum / static_cast<double>(length) + eps);
        for (size_t j = 0; j < length; ++j) ref.y[r * length + j] = x[r * length + j] * ref.rstd[r] * gamma[j];
    }
    return ref;
}

class RmsNorms : public AclTest {
protected:
    aclnnStatus rms_norm(const DeviceTensor& x, const DeviceTensor& gamma, double eps, DeviceTensor& y,
                         DeviceTensor& rstd) {
        return run_aclnn(stream_, aclnnRmsNormGetWorkspaceSize, aclnnRmsNorm, x.get(), gamma.get(), eps, y.get(),
                         rstd.get());
    }

    void expect_rms_norm(const TensorSpec& xSpec, const TensorSpec& gammaSpec, const TensorSpec& ySpec,
                         const TensorSpec& rstdSpec, const std::vector<double>& values, double eps) {
        SCOPED_TRACE("x " + std::to_string(xSpec.dtype) + " gamma " + std::to_string(gammaSpec.dtype));
        DeviceTensor x(xSpec, values);
        DeviceTensor gamma(gammaSpec, uniform(static_cast<size_t>(numel(gammaSpec.shape)), 0.5, 2.0, 3));
        auto y = DeviceTensor::output(ySpec);
        auto rstd = DeviceTensor::output(rstdSpec);
        ASSERT_EQ(rms_norm(x, gamma, eps, *y, *rstd), ACLNN_SUCCESS);
        const RmsNormReference ref = rms_norm_reference(x.read(), gamma.read(), eps);
        expect_close(y->read(), rounded(ref.y, ySpec.dtype), tolerance_for(ySpec.dtype));
        expect_close(rstd->read(), ref.rstd, tolerance_for(ACL_FLOAT));
    }
};

// aclnnRmsNorm.md's A2 table: (x, gamma) = (F16, F32), (BF16, F32), (F16,
// F16), (BF16, BF16), (F32, F32); yOut x's dtype, rstdOut FLOAT of x's
// shape with gamma's dims 1.
TEST_F(RmsNorms, EveryListedDtypePair) {
    const std::vector<std::pair<aclDataType, aclDataType>> pairs = {
        {ACL_FLOAT16, ACL_FLOAT}, {ACL_BF16, ACL_FLOAT}, {ACL_FLOAT16, ACL_FLOAT16},
        {ACL_BF16, ACL_BF16}, {ACL_FLOAT, ACL_FLOAT}};
    const auto values = uniform(2 * 3 * 40, -3.0, 3.0, 8);
    for (const auto& [xDtype, gammaDtype] : pairs) {
        expect_rms_norm(TensorSpec({2, 3, 40}, xDtype), TensorSpec({40}, gammaDtype), TensorSpec({2, 3, 40}, xDtype),
                        TensorSpec({2, 3, 1}, ACL_FLOAT), values, 1e-6);
        expect_rms_norm(TensorSpec({2, 3, 40}, xDtype), TensorSpec({3, 40}, gammaDtype),
                        TensorSpec({2, 3, 40}, xDtype), TensorSpec({2, 1, 1}, ACL_FLOAT), values, 1e-2);
    }
}

// ggml's RMS_NORM (ggml-cann aclnn_ops.cpp, ggml_cann_rms_norm) passes an
// rstd of x's shape without gamma's dims, and runs so on Atlas A2.
TEST_F(RmsNorms, RstdOfOneElementPerRowInAnyShape) {
    const auto values = uniform(3 * 4 * 5 * 8, -3.0, 3.0, 9);
    expect_rms_norm(TensorSpec({3, 4, 5, 8}, ACL_FLOAT), TensorSpec({8}, ACL_FLOAT), TensorSpec({3, 4, 5, 8}, ACL_FLOAT),
                    TensorSpec({3, 4, 5}, ACL_FLOAT), values, 1e-6);
    expect_rms_norm(TensorSpec({3, 4, 5, 8}, ACL_FLOAT), TensorSpec({5, 8}, ACL_FLOAT),
                    TensorSpec({3, 4, 5, 8}, ACL_FLOAT), TensorSpec({12}, ACL_FLOAT), values, 1e-6);
}
TEST_F(RmsNorms, StridedRowsLongRowsAndRowsOfOne) {
    expect_rms_norm(TensorSpec({3, 5}, ACL_FLOAT, {1, 4}, 2, {30}), TensorSpec({5}, ACL_FLOAT, {2}, 1, {12}),
                    TensorSpec({3, 5}, ACL_FLOAT, {6, 1}, 1, {20}), TensorSpec({3, 1}, ACL_FLOAT, {2, 1}, 1, {8}),
                    uniform(15, -2.0, 2.0, 6), 1e-6);
    expect_rms_norm(TensorSpec({2, 100000}, ACL_FLOAT), TensorSpec({100000}, ACL_FLOAT),
                    TensorSpec({2, 100000}, ACL_FLOAT), TensorSpec({2, 1}, ACL_FLOAT), uniform(200000, -4, 4, 12),
                    1e-6);
    expect_rms_norm(TensorSpec({4, 1}, ACL_FLOAT16), TensorSpec({1}, ACL_FLOAT16), TensorSpec({4, 1}, ACL_FLOAT16),
                    TensorSpec({4, 1}, ACL_FLOAT), uniform(4, -4, 4, 13), 1e-6);
}

// aclnnRmsNorm.md: a NaN input makes its row NaN; an inf input makes its
// row's sum of squares inf, so rstd 0: the inf element NaN (inf * 0), the
// others 0 -- not a NaN row (the sum's compensation once made it one).
TEST_F(RmsNorms, SpecialValues) {
    expect_rms_norm(TensorSpec({4, 4}, ACL_FLOAT), TensorSpec({4}, ACL_FLOAT), TensorSpec({4, 4}, ACL_FLOAT),
                    TensorSpec({4, 1}, ACL_FLOAT), {1, 2, 3, 4, kNaN, 1, 2, 3, 0, 0, 0, 0, kInf, 1, 2, 3}, 1e-6);
}

TEST_F(RmsNorms, EmptyTensorsLaunchNothing) {
    DeviceTensor x(TensorSpec({0, 4}, ACL_FLOAT));
    DeviceTensor gamma(TensorSpec({4}, ACL_FLOAT), {1, 1, 1, 1});
    auto y = DeviceTensor::output(TensorSpec({0, 4}, ACL_FLOAT));
    auto rstd = DeviceTensor::output(TensorSpec({0, 1}, ACL_FLOAT));
    EXPECT_EQ(rms_norm(x, gamma, 1e-6, *y, *rstd), ACLNN_SUCCESS);
}

TEST_F(RmsNorms, ErrorPaths) {
    DeviceTensor x(TensorSpec({2, 4}, ACL_FLOAT16), uniform(8, -1, 1, 1));
    DeviceTensor gamma(TensorSpec({4}, ACL_FLOAT16), uniform(4, -1, 1, 1));
    auto y = DeviceTensor::output(TensorSpec({2, 4}, ACL_FLOAT16));
    auto rstd = DeviceTensor::output(TensorSpec({2, 1}, ACL_FLOAT));
    expect_each_null_is_161001_naming(aclnnRmsNormGetWorkspaceSize, {"x", "gamma"}, x.get(), gamma.get(), 1e-6,
                                      y->get(), rstd->get());
    DeviceTensor ints(TensorSpec({2, 4}, ACL_INT32), uniform(8, -1, 1, 1));
    DeviceTensor bf16Gamma(TensorSpec({4}, ACL_BF16), uniform(4, -1, 1, 1));
    DeviceTensor longGamma(TensorSpec({5}, ACL_FLOAT16), uniform(5, -1, 1, 1));
    DeviceTensor fullGamma(TensorSpec({2, 4}, ACL_FLOAT16), uniform(8, -1, 1, 1));
    auto yFloat = DeviceTensor::output(TensorSpec({2, 4}, ACL_FLOAT));
    auto rstdHalf = DeviceTensor::output(TensorSpec({2, 1}, ACL_FLOAT16));
    auto rstdWrong = DeviceTensor::output(TensorSpec({2, 4}, ACL_FLOAT));
    const auto phase1 = [](const DeviceTensor& a, const DeviceTensor& g, const DeviceTensor& o, const DeviceTensor& r) {
        return phase1_of(aclnnRmsNormGetWorkspaceSize, a.get(), g.get(), 1e-6, o.get(), r.get());
    };
    expect_error_naming(phase1(ints, gamma, *y, *rstd), ACLNN_ERR_PARAM_INVALID, "x");
    expect_error_naming(phase1(x, bf16Gamma, *y, *rstd), ACLNN_ERR_PARAM_INVALID, "gamma");
    expect_error_naming(phase1(x, gamma, *yFloat, *rstd), ACLNN_ERR_PARAM_INVALID, "yOut");
    expect_error_naming(phase1(x, gamma, *y, *rstdHalf), ACLNN_ERR_PARAM_INVALID, "rstdOut");
    expect_error_naming(phase1(x, longGamma, *y, *rstd), ACLNN_ERR_PARAM_INVALID, "gamma");
    expect_error_naming(phase1(x, fullGamma, *y, *rstd), ACLNN_ERR_PARAM_INVALID, "gamma");
    expect_error_naming(phase1(x, gamma, *y, *rstdWrong), ACLNN_ERR_PARAM_INVALID, "rstdOut");
}

// ggml's fused ADD + RMS_NORM hands over an rstd whose storage and strides
// are uninitialised: a storage of ~2^44 elements, far past its device
// block (64 usable bytes in a 512-byte reservation).  The reservation bounds
// the view whatever the declaration: 161002 in phase 1, where the kernel
// once wrote far past the block.
TEST_F(RmsNorms, RstdDeclaringMoreStorageThanItsDeviceBlockIsRefused) {
    DeviceTensor x(TensorSpec({2, 4}, ACL_FLOAT), uniform(8, -1, 1, 1));
    DeviceTensor gamma(TensorSpec({4}, ACL_FLOAT), uniform(4, -1, 1, 1));
    auto y = DeviceTensor::output(TensorSpec({2, 4}, ACL_FLOAT));
    DeviceBuffer block(8);
    const int64_t shape[] = {2, 1};
    const int64_t strides[] = {int64_t{1} << 42, 1};
    const int64_t storage[] = {int64_t{1} << 44};
    aclTensor* rstd = aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, block.get());
    expect_error_naming(phase1_of(aclnnRmsNormGetWorkspaceSize, x.get(), gamma.get(), 1e-6, y->get(), rstd),
                        ACLNN_ERR_PARAM_INVALID, "rstdOut");
    aclDestroyTensor(rstd);
}

TEST_F(RmsNorms, ManyBlocksBitwiseEqualForAnyWorkerCount) {
    const auto values = uniform(512 * 1024, -3.0, 3.0, 21);
    expect_same_for_any_worker_count([&] {
        DeviceTensor x(TensorSpec({512, 1024}, ACL_FLOAT), values);
        DeviceTensor gamma(TensorSpec({1024}, ACL_FLOAT), uniform(1024, 0.5, 1.5, 2));
        auto y = DeviceTensor::output(TensorSpec({512, 1024}, ACL_FLOAT));
        auto rstd = DeviceTensor::output(TensorSpec({512, 1}, ACL_FLOAT));
        EXPECT_EQ(rms_norm(x, gamma, 1e-6, *y, *rstd), ACLNN_SUCCESS);
        return std::vector<std::vector<double>>{y->read(), rstd->read()};
    });
}

// --- LayerNorm ------------------------------------------------------------------

struct LayerNormReference {
    std::vector<double> y;
    std::vector<double> mean;
    std::vector<double> rstd;
};

/// Per row of `length`: mean, rstd = 1/sqrt(biased variance + eps),
/// y = (x - mean) * rstd * weight + bias (weight 1, bias 0 when absent).
LayerNormReference layer_norm_reference(const std::vector<double>& x, size_t length, const std::vector<double>& weight,
                                        const std::vector<double>& bias, double eps) {
    const size_t rows = x.size() / length;
    LayerNormReference ref{std::vector<double>(x.size()), std::vector<double>(rows), std::vector<double>(rows)};
    for (size_t r = 0; r < rows; ++r) {
        double sum = 0;
        for (size_t j = 0; j < length; ++j) sum += x[r * length + j];
        const double mean = sum / static_cast<double>(length);
        double squares = 0;
        for (size_t j = 0; j < length; ++j) squares += (x[r * length + j] - mean) * (x[r * length + j] - mean);
        const double rstd = 1.0 / std::sqrt(squares / static_cast<double>(length) + eps);
        ref.mean[r] = mean;
        ref.rstd[r] = rstd;
        for (size_t j = 0; j < length; ++j) {
            ref.y[r * length + j] = (x[r * length + j] - mean) * rstd * (weight.empty() ? 1.0 : weight[j]) +
                                    (bias.empty() ? 0.0 : bias[j]);
        }
    }
    return ref;
}

class LayerNorms : public AclTest {
protected:
    struct Case {
        TensorSpec input;
        std::vector<int64_t> normalized;
        aclDataType affineDtype;  ///< ACL_DT_UNDEFINED: no weight and bias
        bool withBias;
        TensorSpec out;
        aclDataType statDtype;    ///< ACL_DT_UNDEFINED: no mean and rstd
    };

    /// atol: beyond the dtype's, for rows whose mean is large next to their
    /// spread (the fp32 mean's rounding, times rstd).
    void expect_layer_norm(const Case& c, const std::vector<double>& values, double eps, double atol = 0) {
        SCOPED_TRACE("input " + std::to_string(c.input.dtype) + " affine " + std::to_string(c.affineDtype));
        DeviceTensor input(c.input, values);
        const IntArray normalized(c.normalized);
        Shape affineShape(c.normalized.begin(), c.normalized.end());
        const auto length = static_cast<size_t>(numel(affineShape));
        std::unique_ptr<DeviceTensor> weight, bias, mean, rstd;
        if (c.affineDtype != ACL_DT_UNDEFINED) {
            weight = std::make_unique<DeviceTensor>(TensorSpec(affineShape, c.affineDtype), uniform(length, 0.5, 2, 4));
            if (c.withBias) {
                bias = std::make_unique<DeviceTensor>(TensorSpec(affineShape, c.affineDtype), uniform(length, -1, 1, 5));
            }
        }
        Shape statShape = c.input.shape;
        for (size_t d = statShape.size() - c.normalized.size(); d < statShape.size(); ++d) statShape[d] = 1;
        if (c.statDtype != ACL_DT_UNDEFINED) {
            mean = DeviceTensor::output(TensorSpec(statShape, c.statDtype));
            rstd = DeviceTensor::output(TensorSpec(statShape, c.statDtype));
        }
        auto out = DeviceTensor::output(c.out);
        const auto get = [](const std::unique_ptr<DeviceTensor>& t) { return t ? t->get() : nullptr; };
        ASSERT_EQ(run_aclnn(stream_, aclnnLayerNormGetWorkspaceSize, aclnnLayerNorm, input.get(), normalized.get(),
                            static_cast<const aclTensor*>(get(weight)), static_cast<const aclTensor*>(get(bias)), eps,
                            out->get(), get(mean), get(rstd)),
                  ACLNN_SUCCESS);
        const LayerNormReference ref = layer_norm_reference(input.read(), length, weight ? weight->read() : std::vector<double>{},
                                                            bias ? bias->read() : std::vector<double>{}, eps);
        // The kernel's result in input's dtype, cast into out's.
        Tolerance tol = tolerance_for(c.input.dtype);
        tol.atol = std::max(tol.atol, atol);
        expect_close(out->read(), rounded(rounded(ref.y, c.input.dtype), c.out.dtype), tol);
        if (mean) {
            expect_close(mean->read(), rounded(ref.mean, c.statDtype), {tolerance_for(c.statDtype).rtol, 1e-6});
            expect_close(rstd->read(), rounded(ref.rstd, c.statDtype), tolerance_for(c.statDtype));
        }
    }
};

// aclnn_layer_norm.cpp CheckInputDtype on A2: input FLOAT16, FLOAT, BF16;
// weight and bias FLOAT or input's dtype (and each other's); out, mean and
// rstd any of the three.
TEST_F(LayerNorms, EveryListedDtypeWithAndWithoutAffineAndStats) {
    const auto values = uniform(2 * 3 * 24, -3.0, 5.0, 14);
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        for (aclDataType affine : {ACL_DT_UNDEFINED, ACL_FLOAT, dtype}) {
            for (const bool withBias : {false, true}) {
                expect_layer_norm({TensorSpec({2, 3, 24}, dtype), {24}, affine, withBias, TensorSpec({2, 3, 24}, dtype),
                                   ACL_FLOAT}, values, 1e-5);
            }
        }
        expect_layer_norm({TensorSpec({2, 3, 24}, dtype), {3, 24}, dtype, true, TensorSpec({2, 3, 24}, ACL_FLOAT),
                           dtype}, values, 1e-3);
        expect_layer_norm({TensorSpec({2, 3, 24}, dtype), {24}, ACL_DT_UNDEFINED, false, TensorSpec({2, 3, 24}, dtype),
                           ACL_DT_UNDEFINED}, values, 1e-5);
    }
}

TEST_F(LayerNorms, StridedRowsLongRowsAndRowsOfOne) {
    expect_layer_norm({TensorSpec({3, 5}, ACL_FLOAT, {1, 4}, 2, {30}), {5}, ACL_FLOAT, true,
                       TensorSpec({3, 5}, ACL_FLOAT, {6, 1}, 1, {20}), ACL_FLOAT}, uniform(15, -2, 2, 6), 1e-5);
    expect_layer_norm({TensorSpec({2, 100000}, ACL_FLOAT), {100000}, ACL_FLOAT, true, TensorSpec({2, 100000}, ACL_FLOAT),
                       ACL_FLOAT}, uniform(200000, 1000, 1010, 3), 1e-5,
                      /* half an ulp of 1005 x rstd 0.35 x weight 2 */ 0.5 * 6.2e-5 * 0.35 * 2.0);
    expect_layer_norm({TensorSpec({4, 1}, ACL_FLOAT), {1}, ACL_FLOAT, true, TensorSpec({4, 1}, ACL_FLOAT), ACL_FLOAT},
                      uniform(4, -4, 4, 13), 1e-5);
}

// aclnn_layer_norm.cpp: no rows -> nothing; rows of no element -> mean 0
// (ProcessEmptyTensorWithValue) and rstd NaN.
TEST_F(LayerNorms, EmptyRowsAndRowsOfNoElement) {
    const IntArray normalized({0});
    DeviceTensor input(TensorSpec({3, 0}, ACL_FLOAT));
    auto out = DeviceTensor::output(TensorSpec({3, 0}, ACL_FLOAT));
    auto mean = DeviceTensor::output(TensorSpec({3, 1}, ACL_FLOAT));
    auto rstd = DeviceTensor::output(TensorSpec({3, 1}, ACL_FLOAT));
    ASSERT_EQ(run_aclnn(stream_, aclnnLayerNormGetWorkspaceSize, aclnnLayerNorm, input.get(), normalized.get(),
                        static_cast<const aclTensor*>(nullptr), static_cast<const aclTensor*>(nullptr), 1e-5,
                        out->get(), mean->get(), rstd->get()),
              ACLNN_SUCCESS);
    expect_close(mean->read(), {0, 0, 0}, {0, 0});
    expect_close(rstd->read(), {kNaN, kNaN, kNaN}, {0, 0});
    const IntArray four({4});
    DeviceTensor noRows(TensorSpec({0, 4}, ACL_FLOAT));
    auto noOut = DeviceTensor::output(TensorSpec({0, 4}, ACL_FLOAT));
    EXPECT_EQ(run_aclnn(stream_, aclnnLayerNormGetWorkspaceSize, aclnnLayerNorm, noRows.get(), four.get(),
                        static_cast<const aclTensor*>(nullptr), static_cast<const aclTensor*>(nullptr), 1e-5,
                        noOut->get(), static_cast<aclTensor*>(nullptr), static_cast<aclTensor*>(nullptr)),
              ACLNN_SUCCESS);
}

TEST_F(LayerNorms, ErrorPaths) {
    DeviceTensor input(TensorSpec({2, 4}, ACL_FLOAT16), uniform(8, -1, 1, 1));
    DeviceTensor weight(TensorSpec({4}, ACL_FLOAT16), uniform(4, -1, 1, 1));
    DeviceTensor bf16(TensorSpec({4}, ACL_BF16), uniform(4, -1, 1, 1));
    DeviceTensor floats(TensorSpec({4}, ACL_FLOAT), uniform(4, -1, 1, 1));
    DeviceTensor wide(TensorSpec({5}, ACL_FLOAT16), uniform(5, -1, 1, 1));
    DeviceTensor ints(TensorSpec({2, 4}, ACL_INT32), uniform(8, -1, 1, 1));
    auto out = DeviceTensor::output(TensorSpec({2, 4}, ACL_FLOAT16));
    auto badOut = DeviceTensor::output(TensorSpec({4, 2}, ACL_FLOAT16));
    const IntArray four({4});
    const IntArray five({5});
    const IntArray none({});
    const IntArray tooLong({1, 1, 1, 1, 1, 1, 1, 1, 1});
    const auto phase1 = [&](const aclTensor* x, const aclIntArray* shape, const aclTensor* w, const aclTensor* b,
                            aclTensor* o, int32_t implMode = 0) {
        return phase1_of(aclnnLayerNormWithImplModeGetWorkspaceSize, x, shape, w, b, 1e-5, o,
                         static_cast<aclTensor*>(nullptr), static_cast<aclTensor*>(nullptr), implMode);
    };
    expect_error(phase1(nullptr, four.get(), nullptr, nullptr, out->get()), ACLNN_ERR_PARAM_NULLPTR);
    expect_error(phase1(input.get(), nullptr, nullptr, nullptr, out->get()), ACLNN_ERR_PARAM_NULLPTR);
    expect_error(phase1(input.get(), four.get(), nullptr, nullptr, nullptr), ACLNN_ERR_PARAM_NULLPTR);
    expect_error_naming(phase1(ints.get(), four.get(), nullptr, nullptr, out->get()), ACLNN_ERR_PARAM_INVALID, "input");
    expect_error_naming(phase1(input.get(), four.get(), bf16.get(), nullptr, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "weightOptional");
    expect_error_naming(phase1(input.get(), four.get(), weight.get(), floats.get(), out->get()),
                        ACLNN_ERR_PARAM_INVALID, "biasOptional");
    expect_error_naming(phase1(input.get(), five.get(), nullptr, nullptr, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "normalized index [0] shape [5]");
    expect_error_naming(phase1(input.get(), none.get(), nullptr, nullptr, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "normalizedShape len [0]");
    expect_error_naming(phase1(input.get(), tooLong.get(), nullptr, nullptr, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "normalizedShape len [9]");
    expect_error_naming(phase1(input.get(), four.get(), wide.get(), nullptr, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "weightOptional");
    expect_error(phase1(input.get(), four.get(), nullptr, nullptr, badOut->get()), ACLNN_ERR_PARAM_INVALID);
    expect_error_naming(phase1(input.get(), four.get(), nullptr, nullptr, out->get(), 3), ACLNN_ERR_PARAM_INVALID,
                        "implMode");
    expect_error_naming(phase1(input.get(), four.get(), floats.get(), nullptr, out->get(), 2), ACLNN_ERR_PARAM_INVALID,
                        "KEEP_FP16");
}

TEST_F(LayerNorms, ManyBlocksBitwiseEqualForAnyWorkerCount) {
    const auto values = uniform(512 * 1024, -3.0, 3.0, 22);
    const IntArray normalized({1024});
    expect_same_for_any_worker_count([&] {
        DeviceTensor input(TensorSpec({512, 1024}, ACL_FLOAT), values);
        DeviceTensor weight(TensorSpec({1024}, ACL_FLOAT), uniform(1024, 0.5, 1.5, 2));
        auto out = DeviceTensor::output(TensorSpec({512, 1024}, ACL_FLOAT));
        auto mean = DeviceTensor::output(TensorSpec({512, 1}, ACL_FLOAT));
        EXPECT_EQ(run_aclnn(stream_, aclnnLayerNormGetWorkspaceSize, aclnnLayerNorm, input.get(), normalized.get(),
                            static_cast<const aclTensor*>(weight.get()), static_cast<const aclTensor*>(nullptr), 1e-5,
                            out->get(), mean->get(), static_cast<aclTensor*>(nullptr)),
                  ACLNN_SUCCESS);
        return std::vector<std::vector<double>>{out->read(), mean->read()};
    });
}

}  // namespace
