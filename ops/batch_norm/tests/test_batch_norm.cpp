// aclnnBatchNorm against double-precision references from the definition
// (ops-nn norm/batch_norm_v3/op_host/op_api/aclnn_batch_norm.cpp, docs/
// aclnnBatchNorm.md): training normalises each channel (dim 1) by its batch
// mean and biased variance, returns the mean and 1 / sqrt(var + eps) and
// moves the running stats towards the batch's (the variance unbiased by
// n / (n - 1)); inference normalises by the running stats.  Every A2 dtype
// (FLOAT, FLOAT16, BF16), weight/bias/running stats given or null, 2-D to
// 8-D inputs (a 5-D one NCDHW, as CheckFormat requires), strided and offset
// views, the empty input (saveMean 0, saveInvstd NaN, nothing checked but
// the nulls), bitwise identical results for 1, 2 and 8 workers, and every
// error path with its code and message.
#include <cmath>
#include <memory>
#include <vector>

#include "aclnnop/aclnn_batch_norm.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

constexpr double kEps = 1e-5;
constexpr double kMomentum = 0.1;

/// The batch statistics of x (row-major, of shape) per channel, in double.
struct Statistics {
    std::vector<double> mean, var;
    int64_t perChannel = 0;
};

int64_t channel_of(const Shape& shape, int64_t i) {
    int64_t inner = 1;
    for (size_t d = 2; d < shape.size(); ++d) inner *= shape[d];
    return i / inner % shape[1];
}

Statistics statistics(const std::vector<double>& x, const Shape& shape) {
    const int64_t c = shape[1];
    Statistics s{std::vector<double>(c, 0.0), std::vector<double>(c, 0.0), numel(shape) / c};
    for (size_t i = 0; i < x.size(); ++i) s.mean[channel_of(shape, i)] += x[i] / s.perChannel;
    for (size_t i = 0; i < x.size(); ++i) {
        const double d = x[i] - s.mean[channel_of(shape, i)];
        s.var[channel_of(shape, i)] += d * d / s.perChannel;
    }
    return s;
}

/// y = (x - mean) / sqrt(var + eps) * w + b.
std::vector<double> normalised(const std::vector<double>& x, const Shape& shape, const std::vector<double>& mean,
                               const std::vector<double>& var, const std::vector<double>& w,
                               const std::vector<double>& b) {
    std::vector<double> y;
    for (size_t i = 0; i < x.size(); ++i) {
        const int64_t c = channel_of(shape, i);
        y.push_back((x[i] - mean[c]) / std::sqrt(var[c] + kEps) * w[c] + b[c]);
    }
    return y;
}

/// One BatchNorm's tensors; optional ones absent when their values are empty.
struct Case {
    TensorSpec input;
    std::vector<double> x, weight, bias, runningMean, runningVar;
    aclDataType paramDtype = ACL_FLOAT;
    aclDataType saveDtype = ACL_FLOAT;
    /// The per-channel tensors' stride (offset 1 when above 1).
    int64_t channelStride = 1;
};

struct Results {
    std::vector<double> y, saveMean, saveInvstd, runningMean, runningVar;
};

class BatchNorm : public AclTest {
public:
    std::unique_ptr<DeviceTensor> channel_tensor(const std::vector<double>& values, aclDataType dtype,
                                                 int64_t stride) {
        if (values.empty()) return nullptr;
        const auto n = static_cast<int64_t>(values.size());
        const int64_t offset = stride > 1 ? 1 : 0;
        return std::make_unique<DeviceTensor>(TensorSpec{{n}, dtype, {stride}, offset, {offset + n * stride}},
                                              representable(values, dtype));
    }

    Results run(const Case& c, bool training, uint64_t* workspace = nullptr) {
        const DeviceTensor input(c.input, representable(c.x, c.input.dtype));
        const int64_t channels = c.input.shape[1];
        auto w = channel_tensor(c.weight, c.paramDtype, c.channelStride);
        auto b = channel_tensor(c.bias, c.paramDtype, c.channelStride);
        auto rm = channel_tensor(c.runningMean, c.paramDtype, c.channelStride);
        auto rv = channel_tensor(c.runningVar, c.paramDtype, c.channelStride);
        TensorSpec outSpec(c.input.shape, c.input.dtype);
        outSpec.format = c.input.format;
        auto out = DeviceTensor::output(outSpec);
        auto saveMean = DeviceTensor::output({{channels}, c.saveDtype});
        auto saveInvstd = DeviceTensor::output({{channels}, c.saveDtype});
        const auto ptr = [](const std::unique_ptr<DeviceTensor>& t) { return t ? t->get() : nullptr; };
        uint64_t size = 0;
        const auto phase1 = [&](uint64_t* ws, aclOpExecutor** executor) {
            return aclnnBatchNormGetWorkspaceSize(input.get(), ptr(w), ptr(b), ptr(rm), ptr(rv), training, kMomentum,
                                                  kEps, out->get(), saveMean->get(), saveInvstd->get(), ws, executor);
        };
        EXPECT_EQ(run_two_phases(phase1, aclnnBatchNorm, stream_, &size), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        if (workspace != nullptr) *workspace = size;
        EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
        Results r{out->read(), saveMean->read(), saveInvstd->read(), {}, {}};
        for (const auto* written : {rm.get(), rv.get()}) {
            if (written != nullptr) {
                EXPECT_EQ(written->bytes_changed_outside_view(), 0u);
            }
        }
        if (rm) r.runningMean = rm->read();
        if (rv) r.runningVar = rv->read();
        return r;
    }
};

std::vector<double> or_fill(const std::vector<double>& values, int64_t n, double fill) {
    return values.empty() ? std::vector<double>(n, fill) : values;
}

/// Checks training and inference of c against the references.
void expect_matches(BatchNorm& test, const Case& c) {
    const Shape& shape = c.input.shape;
    const int64_t n = shape[1];
    const std::vector<double> x = representable(c.x, c.input.dtype);
    const auto param = [&](const std::vector<double>& v, double fill) {
        return or_fill(representable(v, c.paramDtype), n, fill);
    };
    const std::vector<double> w = param(c.weight, 1), b = param(c.bias, 0);
    const std::vector<double> rm = param(c.runningMean, 0), rv = param(c.runningVar, 1);
    const Tolerance tol = tolerance_for(c.input.dtype);
    const Tolerance outTol{tol.rtol * 4, 2e-5 + tol.rtol * 4};
    const Tolerance saveTol{std::max(tolerance_for(c.saveDtype).rtol, 2e-5), 2e-5};
    const Tolerance paramTol{std::max(tolerance_for(c.paramDtype).rtol, 2e-5), 2e-5};

    const Statistics s = statistics(x, shape);
    const Results train = test.run(c, true);
    expect_close(train.y, normalised(x, shape, s.mean, s.var, w, b), outTol);
    expect_close(train.saveMean, s.mean, saveTol);
    std::vector<double> invstd, movedMean, movedVar;
    for (int64_t k = 0; k < n; ++k) {
        invstd.push_back(1 / std::sqrt(s.var[k] + kEps));
        movedMean.push_back((1 - kMomentum) * rm[k] + kMomentum * s.mean[k]);
        const double unbiased = s.var[k] * s.perChannel / (s.perChannel - 1);
        movedVar.push_back((1 - kMomentum) * rv[k] + kMomentum * unbiased);
    }
    expect_close(train.saveInvstd, invstd, saveTol);
    if (!c.runningMean.empty()) expect_close(train.runningMean, movedMean, paramTol);
    if (!c.runningVar.empty()) expect_close(train.runningVar, movedVar, paramTol);

    const Results infer = test.run(c, false);
    expect_close(infer.y, normalised(x, shape, rm, rv, w, b), outTol);
    // Inference writes neither save output (BNInfer).
    expect_close(infer.saveMean, std::vector<double>(n, -7.0), {0, 0});
    if (!c.runningMean.empty()) expect_close(infer.runningMean, representable(c.runningMean, c.paramDtype), {0, 0});
}

Case full_case(const Shape& shape, aclDataType dtype, aclDataType paramDtype, uint32_t seed) {
    const int64_t n = shape[1];
    const auto count = static_cast<size_t>(numel(shape));
    return Case{{shape, dtype},
                uniform(count, -2, 3, seed),
                uniform(n, 0.5, 1.5, seed + 1),
                uniform(n, -1, 1, seed + 2),
                uniform(n, -0.5, 0.5, seed + 3),
                uniform(n, 0.5, 2, seed + 4),
                paramDtype,
                dtype};
}

TEST_F(BatchNorm, EveryDtypeTrainingAndInference) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        SCOPED_TRACE(name(dtype));
        expect_matches(*this, full_case({3, 5, 4, 7}, dtype, dtype, 1));
        expect_matches(*this, full_case({9, 6}, dtype, ACL_FLOAT, 11));
    }
}

// Weight, bias and the running stats each optional (FillScalar 1, 0, 0, 1);
// the per-channel tensors may differ from the input's dtype, and so may the
// save outputs.
TEST_F(BatchNorm, OptionalOperandsAndMixedDtypes) {
    Case c = full_case({2, 3, 5}, ACL_FLOAT16, ACL_BF16, 21);
    c.saveDtype = ACL_FLOAT;
    expect_matches(*this, c);
    c.weight.clear();
    c.runningVar.clear();
    expect_matches(*this, c);
    c = full_case({4, 2, 3, 2, 2}, ACL_FLOAT, ACL_FLOAT16, 31);
    c.input.format = ACL_FORMAT_NCDHW;  // CheckFormat: a 5-D input must be NCDHW
    c.bias.clear();
    c.runningMean.clear();
    c.saveDtype = ACL_BF16;
    expect_matches(*this, c);
    c.weight.clear();
    c.runningVar.clear();
    expect_matches(*this, c);
}

// A transposed input with an offset (channels strided), strided per-channel
// tensors (the running stats written in place), and a rank-8 input.
TEST_F(BatchNorm, StridedAndHighRankInputs) {
    Case c = full_case({4, 3}, ACL_FLOAT, ACL_FLOAT, 41);
    c.input = {{4, 3}, ACL_FLOAT, {1, 5}, 2, {20}};
    c.channelStride = 3;
    expect_matches(*this, c);
    expect_matches(*this, full_case({2, 3, 1, 2, 1, 2, 1, 3}, ACL_FLOAT, ACL_FLOAT, 51));
}

// Empty input: no check but the nulls (a DOUBLE output, a 2-D saveMean
// pass); saveMean is filled with 0 and saveInvstd with NaN, the rest
// untouched.
TEST_F(BatchNorm, EmptyInput) {
    const DeviceTensor input({{0, 3, 2}, ACL_FLOAT}, {});
    auto out = DeviceTensor::output({{0, 3, 2}, ACL_DOUBLE});
    auto saveMean = DeviceTensor::output({{1, 3}, ACL_FLOAT, {1, 2}, 1, {6}});
    auto saveInvstd = DeviceTensor::output({{3}, ACL_FLOAT16});
    const DeviceTensor rm({{3}, ACL_FLOAT}, {1, 2, 3});
    for (bool training : {true, false}) {
        const auto phase1 = [&](uint64_t* ws, aclOpExecutor** executor) {
            return aclnnBatchNormGetWorkspaceSize(input.get(), nullptr, nullptr, rm.get(), nullptr, training,
                                                  kMomentum, kEps, out->get(), saveMean->get(), saveInvstd->get(),
                                                  ws, executor);
        };
        uint64_t size = 1;
        EXPECT_EQ(run_two_phases(phase1, aclnnBatchNorm, stream_, &size), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        EXPECT_EQ(size, 0u);
        EXPECT_EQ(saveMean->bytes_changed_outside_view(), 0u);
        expect_close(saveMean->read(), {0, 0, 0}, {0, 0});
        const double nan = std::nan("");
        expect_close(saveInvstd->read(), {nan, nan, nan}, {0, 0});
        expect_close(rm.read(), {1, 2, 3}, {0, 0});
    }
    // acl-cpu's guard: a filled save output of more than 8 dims.
    auto rank9 = DeviceTensor::output({{1, 1, 1, 1, 1, 1, 1, 1, 3}, ACL_FLOAT});
    expect_error_naming(phase1_of(aclnnBatchNormGetWorkspaceSize, input.get(), nullptr, nullptr, nullptr, nullptr,
                                  true, kMomentum, kEps, out->get(), rank9->get(), saveInvstd->get()),
                        ACLNN_ERR_PARAM_INVALID, "saveMean");
}

// Statistics split over blocks (few channels, many elements each): the
// same bits for 1, 2 and 8 workers.
TEST_F(BatchNorm, BitwiseIdenticalAcrossWorkerCounts) {
    const Case c = full_case({64, 2, 32, 33}, ACL_FLOAT, ACL_FLOAT, 61);
    uint64_t workspace = 0;
    expect_same_for_any_worker_count([&] {
        const Results r = run(c, true, &workspace);
        return std::vector<std::vector<double>>{r.y, r.saveMean, r.saveInvstd, r.runningMean, r.runningVar};
    });
    EXPECT_GT(workspace, static_cast<uint64_t>(numel(c.input.shape)) * 4);
}

TEST_F(BatchNorm, Errors) {
    const DeviceTensor x({{2, 3}, ACL_FLOAT}, uniform(6, -1, 1, 1));
    const DeviceTensor c3({{3}, ACL_FLOAT}, {1, 2, 3});
    auto out = DeviceTensor::output({{2, 3}, ACL_FLOAT});
    auto mean = DeviceTensor::output({{3}, ACL_FLOAT});
    auto invstd = DeviceTensor::output({{3}, ACL_FLOAT});
    const auto call = [&](const aclTensor* input, const aclTensor* w, const aclTensor* rm, bool training,
                          aclTensor* output, aclTensor* m, aclTensor* s) {
        return phase1_of(aclnnBatchNormGetWorkspaceSize, input, w, c3.get(), const_cast<aclTensor*>(rm), c3.get(),
                         training, kMomentum, kEps, output, m, s);
    };
    // CheckNotNull: input, output; saveMean and saveInvstd in training only.
    expect_error_naming(call(nullptr, c3.get(), c3.get(), true, out->get(), mean->get(), invstd->get()),
                        ACLNN_ERR_PARAM_NULLPTR, "input");
    expect_error_naming(call(x.get(), c3.get(), c3.get(), true, nullptr, mean->get(), invstd->get()),
                        ACLNN_ERR_PARAM_NULLPTR, "output");
    expect_error_naming(call(x.get(), c3.get(), c3.get(), true, out->get(), nullptr, invstd->get()),
                        ACLNN_ERR_PARAM_NULLPTR, "saveMean");
    expect_error_naming(call(x.get(), c3.get(), c3.get(), true, out->get(), mean->get(), nullptr),
                        ACLNN_ERR_PARAM_NULLPTR, "saveInvstd");
    EXPECT_EQ(call(x.get(), c3.get(), c3.get(), false, out->get(), nullptr, nullptr), ACLNN_SUCCESS);
    // CheckDtypeValid, then CheckOtherDtypeValid.
    const DeviceTensor x64({{2, 3}, ACL_DOUBLE}, uniform(6, -1, 1, 2));
    expect_error_naming(call(x64.get(), c3.get(), c3.get(), true, out->get(), mean->get(), invstd->get()),
                        ACLNN_ERR_PARAM_INVALID, "DT_DOUBLE");
    auto mean32 = DeviceTensor::output({{3}, ACL_INT32});
    expect_error_naming(call(x.get(), c3.get(), c3.get(), true, out->get(), mean32->get(), invstd->get()),
                        ACLNN_ERR_PARAM_INVALID, "DT_INT32");
    EXPECT_EQ(call(x.get(), c3.get(), c3.get(), false, out->get(), mean32->get(), invstd->get()), ACLNN_SUCCESS);
    const DeviceTensor w64({{3}, ACL_DOUBLE}, {1, 1, 1});
    expect_error_naming(call(x.get(), w64.get(), c3.get(), true, out->get(), mean->get(), invstd->get()),
                        ACLNN_ERR_PARAM_INVALID, "DT_DOUBLE");
    // CheckFormat: input and output of one format.
    TensorSpec nchwSpec({2, 3}, ACL_FLOAT);
    nchwSpec.format = ACL_FORMAT_NCHW;
    auto nchw = DeviceTensor::output(nchwSpec);
    expect_error_naming(call(x.get(), c3.get(), c3.get(), true, nchw->get(), mean->get(), invstd->get()),
                        ACLNN_ERR_PARAM_INVALID, "ormat");
    const DeviceTensor x5({{1, 3, 1, 1, 1}, ACL_FLOAT}, {1, 2, 3});
    auto out5 = DeviceTensor::output({{1, 3, 1, 1, 1}, ACL_FLOAT});
    expect_error_naming(call(x5.get(), c3.get(), c3.get(), true, out5->get(), mean->get(), invstd->get()),
                        ACLNN_ERR_PARAM_INVALID, "NCDHW");
    TensorSpec nzSpec({2, 3}, ACL_FLOAT);
    nzSpec.format = ACL_FORMAT_FRACTAL_NZ;
    const DeviceTensor nz(nzSpec, uniform(6, -1, 1, 3));
    auto outNz = DeviceTensor::output(nzSpec);
    expect_error_naming(call(nz.get(), c3.get(), c3.get(), true, outNz->get(), mean->get(), invstd->get()),
                        ACLNN_ERR_PARAM_INVALID, "Format only support");
    // CheckShape: rank 2 to 8, output of input's shape.
    const DeviceTensor x1({{3}, ACL_FLOAT}, {1, 2, 3});
    expect_error_naming(call(x1.get(), c3.get(), c3.get(), true, out->get(), mean->get(), invstd->get()),
                        ACLNN_ERR_PARAM_INVALID, "at least 2");
    const DeviceTensor x9({{1, 3, 1, 1, 1, 1, 1, 1, 1}, ACL_FLOAT}, {1, 2, 3});
    expect_error_naming(call(x9.get(), c3.get(), c3.get(), true, out->get(), mean->get(), invstd->get()),
                        ACLNN_ERR_PARAM_INVALID, "8");
    auto wrong = DeviceTensor::output({{3, 2}, ACL_FLOAT});
    expect_error(call(x.get(), c3.get(), c3.get(), true, wrong->get(), mean->get(), invstd->get()),
                 ACLNN_ERR_PARAM_INVALID);
    // CheckOtherShape: weight, bias, runningMean, runningVar 1-D of C.
    const DeviceTensor c2({{2}, ACL_FLOAT}, {1, 2});
    expect_error_naming(call(x.get(), c2.get(), c3.get(), true, out->get(), mean->get(), invstd->get()),
                        ACLNN_ERR_PARAM_INVALID, "Dim of weight");
    expect_error_naming(call(x.get(), c3.get(), c2.get(), false, out->get(), mean->get(), invstd->get()),
                        ACLNN_ERR_PARAM_INVALID, "Dim of runningMean");
    // Training: saveMean and saveInvstd of shape [C].
    auto mean2 = DeviceTensor::output({{1, 3}, ACL_FLOAT});
    expect_error_naming(call(x.get(), c3.get(), c3.get(), true, out->get(), mean2->get(), invstd->get()),
                        ACLNN_ERR_PARAM_INVALID, "saveMean");
    expect_error_naming(call(x.get(), c3.get(), c3.get(), true, out->get(), mean->get(), mean2->get()),
                        ACLNN_ERR_PARAM_INVALID, "saveInvstd");
}

}  // namespace
