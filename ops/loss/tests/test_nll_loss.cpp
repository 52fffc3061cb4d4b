// aclnnNLLLoss, aclnnNLLLoss2d, aclnnNLLLossBackward and
// aclnnNLLLoss2dBackward against double-precision references from the
// definitions (ops-nn loss/nll_loss/docs/aclnnNLLLoss.md): l_n = -w[t_n]
// x[n, t_n], 0 where t_n == ignoreIndex; mean = sum(l) / sum(w[t]), sum =
// sum(l), totalWeight = sum(w[t]).  Every A2 dtype of self (FLOAT, FLOAT16,
// BF16: aclnn_nll_loss.cpp's LOSS_ASCEND910B_DTYPE_SUPPORT_LIST) and of
// target (INT64, INT32, UINT8), each reduction, ignoreIndex (every row
// ignored: mean 0 / 0 = NaN), out-of-range classes (skipped), empty selfs
// (NLLLossEmptyTensorCompute), strided views, 1, 2 and 8 workers bitwise
// identical, the gradient against central differences of the forward, and
// every error path with its code and message.
#include <cmath>
#include <vector>

#include "aclnnop/aclnn_nll_loss.h"
#include "aclnnop/aclnn_nll_loss2d.h"
#include "aclnnop/aclnn_nll_loss2d_backward.h"
#include "aclnnop/aclnn_nll_loss_backward.h"
#include "ops/dtype_reference.hpp"
#include "ops/gradient_test_support.hpp"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

const double kNaN = std::nan("");
constexpr int64_t kNone = 0, kMean = 1, kSum = 2;
constexpr int64_t kIgnore = -100;

/// The rows of a loss: self's values as [rows, classes] (NCHW selfs
/// reordered to [N, H, W, C] rows), each row's class and the weights.
struct Rows {
    std::vector<double> x;  ///< rows * classes, row-major
    std::vector<int64_t> target;
    std::vector<double> weight;
    int64_t classes;
};

/// The per-row terms -w[t] x[n, t] (0 ignored) and their weights.
void terms(const Rows& r, int64_t ignoreIndex, std::vector<double>* loss, std::vector<double>* weights) {
    for (size_t n = 0; n < r.target.size(); ++n) {
        const int64_t t = r.target[n];
        const bool ignored = t == ignoreIndex;
        const double w = ignored ? 0 : r.weight[static_cast<size_t>(t)];
        loss->push_back(ignored ? 0 : -w * r.x[n * static_cast<size_t>(r.classes) + static_cast<size_t>(t)]);
        weights->push_back(w);
    }
}

double sum_of(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s;
}

/// The kernel's dtype (aclnn_nll_loss.cpp's promoteType on A2).
aclDataType compute_dtype(aclDataType self) { return self == ACL_BF16 ? ACL_BF16 : ACL_FLOAT; }

/// value rounded as the kernel then the Cast into out do.
double rounded(double value, aclDataType self, aclDataType out) {
    return representable(representable(value, compute_dtype(self)), out);
}

/// The sum of n terms of size about 1, accumulated in fp32.
Tolerance reduced_tolerance(aclDataType out) { return {std::max(tolerance_for(out).rtol, 2e-5), 1e-6}; }

class NLLLoss : public AclTest {
protected:
    /// The forward on (self, target, weight); out of outSpec, totalWeight [1]
    /// of totalDtype.  Returns {out..., totalWeight}.
    std::vector<double> forward(bool twoD, const TensorSpec& selfSpec, const std::vector<double>& x,
                                const TensorSpec& targetSpec, const std::vector<double>& t,
                                const std::vector<double>& w, int64_t reduction, int64_t ignoreIndex,
                                const TensorSpec& outSpec, uint64_t* workspace = nullptr) {
        const DeviceTensor self(selfSpec, x);
        const DeviceTensor target(targetSpec, t);
        const DeviceTensor weight({{static_cast<int64_t>(w.size())}, selfSpec.dtype}, w);
        auto out = DeviceTensor::output(outSpec);
        auto total = DeviceTensor::output({{1}, outSpec.dtype});
        const auto phase1 = [&](uint64_t* ws, aclOpExecutor** executor) {
            return (twoD ? aclnnNLLLoss2dGetWorkspaceSize : aclnnNLLLossGetWorkspaceSize)(
                self.get(), target.get(), weight.get(), reduction, ignoreIndex, out->get(), total->get(), ws,
                executor);
        };
        EXPECT_EQ(run_two_phases(phase1, twoD ? aclnnNLLLoss2d : aclnnNLLLoss, stream_, workspace), ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
        std::vector<double> result = out->read();
        result.push_back(total->read()[0]);
        return result;
    }

    /// forward() of [N, C] rows against the reference for every reduction.
    void check_rows(const Rows& r, aclDataType dtype, aclDataType targetDtype, int64_t ignoreIndex) {
        const auto n = static_cast<int64_t>(r.target.size());
        std::vector<double> t(r.target.begin(), r.target.end());
        std::vector<double> loss, weights;
        terms(r, ignoreIndex, &loss, &weights);
        std::vector<double> none;
        for (double v : loss) none.push_back(rounded(v, dtype, dtype));
        const TensorSpec self{{n, r.classes}, dtype};
        const TensorSpec target{{n}, targetDtype};
        std::vector<double> got = forward(false, self, r.x, target, t, r.weight, kNone, ignoreIndex, {{n}, dtype});
        got.pop_back();  // totalWeight is not written for none
        expect_close(got, none, tolerance_for(dtype));
        const double total = sum_of(weights);
        expect_close(forward(false, self, r.x, target, t, r.weight, kMean, ignoreIndex, {{}, dtype}),
                     {rounded(sum_of(loss) / total, dtype, dtype), rounded(total, dtype, dtype)},
                     reduced_tolerance(dtype));
        expect_close(forward(false, self, r.x, target, t, r.weight, kSum, ignoreIndex, {{1}, dtype}),
                     {rounded(sum_of(loss), dtype, dtype), rounded(total, dtype, dtype)}, reduced_tolerance(dtype));
    }
};

Rows random_rows(int64_t n, int64_t classes, aclDataType dtype, unsigned seed) {
    Rows r{representable(uniform(static_cast<size_t>(n * classes), -3, 3, seed), dtype), {},
           representable(uniform(static_cast<size_t>(classes), 0.25, 2, seed + 1), dtype), classes};
    for (int64_t i = 0; i < n; ++i) r.target.push_back((i * 7 + seed) % classes);
    return r;
}

TEST_F(NLLLoss, EachReductionEveryDtype) {
    const aclDataType targets[] = {ACL_INT64, ACL_INT32, ACL_UINT8};
    int k = 0;
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        SCOPED_TRACE(name(dtype));
        const Rows r = random_rows(9, 5, dtype, 3u + static_cast<unsigned>(k));
        check_rows(r, dtype, targets[k++ % 3], kIgnore);
        check_rows(r, dtype, ACL_INT64, r.target[0]);  // a class as ignoreIndex: its rows are ignored
    }
}

// Every row ignored: none 0s, mean 0 / 0 = NaN, sum 0, totalWeight 0.
TEST_F(NLLLoss, AllIgnored) {
    const std::vector<double> x = uniform(6, -1, 1, 1);
    const std::vector<double> t = {2, 2};
    const std::vector<double> w = {1, 2, 3};
    const TensorSpec self{{2, 3}, ACL_FLOAT};
    const TensorSpec target{{2}, ACL_INT64};
    expect_close(forward(false, self, x, target, t, w, kMean, 2, {{}, ACL_FLOAT}), {kNaN, 0}, {0, 0});
    expect_close(forward(false, self, x, target, t, w, kSum, 2, {{}, ACL_FLOAT}), {0, 0}, {0, 0});
    std::vector<double> none = forward(false, self, x, target, t, w, kNone, 2, {{2}, ACL_FLOAT});
    none.pop_back();
    expect_close(none, {0, 0}, {0, 0});
}

// A 1-D self is one row with a 0-d target; out (1,) or 0-d for any
// reduction.  FLOAT16 computes in FLOAT and out may be another dtype.
TEST_F(NLLLoss, OneRowAndOutDtypes) {
    const std::vector<double> x = {0.5, -1.25, 2};
    const std::vector<double> w = {1.5, 3, 0.5};
    const TensorSpec self{{3}, ACL_FLOAT16};
    const TensorSpec target{{}, ACL_INT32};
    std::vector<double> none = forward(false, self, x, target, {1}, w, kNone, kIgnore, {{1}, ACL_FLOAT});
    none.pop_back();  // totalWeight is not written for none
    expect_close(none, {3.75}, {0, 0});
    expect_close(forward(false, self, x, target, {1}, w, kMean, kIgnore, {{}, ACL_FLOAT}), {1.25, 3}, {0, 0});
    expect_close(forward(false, self, x, target, {1}, w, kSum, 1, {{1}, ACL_FLOAT}), {0, 0}, {0, 0});
}

// A transposed self with an offset and a strided target.
TEST_F(NLLLoss, StridedViews) {
    const Rows r = random_rows(4, 3, ACL_FLOAT, 11);
    const std::vector<double> t(r.target.begin(), r.target.end());
    std::vector<double> loss, weights;
    terms(r, kIgnore, &loss, &weights);
    expect_close(forward(false, {{4, 3}, ACL_FLOAT, {1, 5}, 2, {20}}, r.x, {{4}, ACL_INT64, {2}, 0, {8}}, t,
                         r.weight, kSum, kIgnore, {{}, ACL_FLOAT}),
                 {sum_of(loss), sum_of(weights)}, reduced_tolerance(ACL_FLOAT));
}

// NLLLossEmptyTensorCompute: none writes nothing, mean NaN, sum 0,
// totalWeight 0 -- with no workspace.
TEST_F(NLLLoss, EmptySelf) {
    const TensorSpec self{{0, 3}, ACL_FLOAT};
    const TensorSpec target{{0}, ACL_INT64};
    uint64_t workspace = 1;
    std::vector<double> none = forward(false, self, {}, target, {}, {1, 2, 3}, kNone, kIgnore, {{0}, ACL_FLOAT},
                                       &workspace);
    EXPECT_EQ(none.size(), 1u);
    EXPECT_EQ(workspace, 0u);
    expect_close(forward(false, self, {}, target, {}, {1, 2, 3}, kMean, kIgnore, {{}, ACL_FLOAT}, &workspace),
                 {kNaN, 0}, {0, 0});
    EXPECT_EQ(workspace, 0u);
    expect_close(forward(false, self, {}, target, {}, {1, 2, 3}, kSum, kIgnore, {{1}, ACL_BF16}), {0, 0}, {0, 0});
}

// A class outside [0, C) that is not ignoreIndex adds nothing, as an
// ignored row (CANN's kernels assume classes in range; acl-cpu follows the
// gradient's reference, loss/nll_loss_grad/tests/assets/golden.py).
TEST_F(NLLLoss, OutOfRangeClassesAddNothing) {
    const std::vector<double> x = {1, 2, 3, 4, 5, 6};
    const TensorSpec self{{2, 3}, ACL_FLOAT};
    for (double bad : {-1.0, 3.0}) {
        expect_close(forward(false, self, x, {{2}, ACL_INT64}, {1, bad}, {1, 2, 3}, kSum, kIgnore, {{}, ACL_FLOAT}),
                     {-4, 2}, {0, 0});
    }
}

// 3000 rows over the vector cores' blocks: the same bits for 1, 2 and 8 workers.
TEST_F(NLLLoss, ReductionsAreBitwiseIdenticalAcrossWorkerCounts) {
    const Rows r = random_rows(3000, 5, ACL_FLOAT, 5);
    const std::vector<double> t(r.target.begin(), r.target.end());
    expect_same_for_any_worker_count([&] {
        std::vector<std::vector<double>> results;
        for (int64_t reduction : {kMean, kSum}) {
            results.push_back(forward(false, {{3000, 5}, ACL_FLOAT}, r.x, {{3000}, ACL_INT32}, t, r.weight, reduction,
                                      kIgnore, {{}, ACL_FLOAT}));
        }
        return results;
    });
}

// NLLLoss2d: self [N, C, H, W], target [N, H, W]: the rows are self's (n, h, w).
TEST_F(NLLLoss, TwoD) {
    const int64_t n = 2, c = 3, h = 2, w = 3;
    const std::vector<double> x = representable(uniform(36, -2, 2, 21), ACL_BF16);
    Rows r{{}, {}, {0.5, 1, 2}, c};
    for (int64_t i = 0; i < n * h * w; ++i) {
        const int64_t b = i / (h * w), hw = i % (h * w);
        for (int64_t k = 0; k < c; ++k) r.x.push_back(x[static_cast<size_t>((b * c + k) * h * w + hw)]);
        r.target.push_back(i % 4 == 3 ? kIgnore : i % c);
    }
    const std::vector<double> t(r.target.begin(), r.target.end());
    std::vector<double> loss, weights;
    terms(r, kIgnore, &loss, &weights);
    std::vector<double> none;
    for (double v : loss) none.push_back(representable(v, ACL_BF16));
    std::vector<double> got = forward(true, {{n, c, h, w}, ACL_BF16}, x, {{n, h, w}, ACL_INT32}, t, r.weight, kNone,
                                      kIgnore, {{n, h, w}, ACL_BF16});
    got.pop_back();
    expect_close(got, none, tolerance_for(ACL_BF16));
    expect_close(forward(true, {{n, c, h, w}, ACL_BF16}, x, {{n, h, w}, ACL_INT64}, t, r.weight, kMean, kIgnore,
                         {{1}, ACL_FLOAT}),
                 {representable(sum_of(loss) / sum_of(weights), ACL_BF16), sum_of(weights)},
                 reduced_tolerance(ACL_BF16));
}

TEST_F(NLLLoss, Errors) {
    const DeviceTensor self({{2, 3}, ACL_FLOAT}, uniform(6, -1, 1, 1));
    const DeviceTensor target({{2}, ACL_INT64}, {0, 1});
    const DeviceTensor weight({{3}, ACL_FLOAT}, {1, 1, 1});
    auto out = DeviceTensor::output({{}, ACL_FLOAT});
    auto total = DeviceTensor::output({{1}, ACL_FLOAT});
    expect_each_null_is_161001_naming(aclnnNLLLossGetWorkspaceSize,
                                      {"self", "target", "weight", "out", "totalWeightOut"}, self.get(), target.get(),
                                      weight.get(), kMean, kIgnore, out->get(), total->get());
    const auto refused = [&](const aclTensor* s, const aclTensor* t, const aclTensor* w, int64_t reduction,
                             aclTensor* o, aclTensor* tw, const char* words) {
        expect_error_naming(phase1_of(aclnnNLLLossGetWorkspaceSize, s, t, w, reduction, kIgnore, o, tw),
                            ACLNN_ERR_PARAM_INVALID, words);
    };
    const DeviceTensor half({{3}, ACL_FLOAT16}, {1, 1, 1});
    refused(self.get(), target.get(), half.get(), kMean, out->get(), total->get(), "DT_FLOAT16");
    auto outInt = DeviceTensor::output({{}, ACL_INT32});
    refused(self.get(), target.get(), weight.get(), kMean, outInt->get(), total->get(), "cast");
    const DeviceTensor f64({{2, 3}, ACL_DOUBLE}, uniform(6, -1, 1, 1));
    const DeviceTensor w64({{3}, ACL_DOUBLE}, {1, 1, 1});
    auto out64 = DeviceTensor::output({{}, ACL_DOUBLE});
    refused(f64.get(), target.get(), w64.get(), kMean, out64->get(), out64->get(), "DT_DOUBLE");
    const DeviceTensor targetF({{2}, ACL_FLOAT}, {0, 1});
    refused(self.get(), targetF.get(), weight.get(), kMean, out->get(), total->get(), "DT_FLOAT");
    refused(self.get(), target.get(), weight.get(), 3, out->get(), total->get(), "Reduction should be between 0 and 2");
    const DeviceTensor rank3({{1, 2, 3}, ACL_FLOAT}, uniform(6, -1, 1, 1));
    refused(rank3.get(), target.get(), weight.get(), kMean, out->get(), total->get(), "1D or 2D");
    const DeviceTensor target2d({{2, 1}, ACL_INT64}, {0, 1});
    refused(self.get(), target2d.get(), weight.get(), kMean, out->get(), total->get(), "multi-target");
    const DeviceTensor target3({{3}, ACL_INT64}, {0, 1, 2});
    refused(self.get(), target3.get(), weight.get(), kMean, out->get(), total->get(), "target first dimension");
    const DeviceTensor weight4({{4}, ACL_FLOAT}, {1, 1, 1, 1});
    refused(self.get(), target.get(), weight4.get(), kMean, out->get(), total->get(), "all 3 classes");
    refused(self.get(), target.get(), weight.get(), kNone, out->get(), total->get(), "Expect out shape [2]");
    auto out2 = DeviceTensor::output({{2}, ACL_FLOAT});
    refused(self.get(), target.get(), weight.get(), kSum, out2->get(), total->get(), "single element out");
    refused(self.get(), target.get(), weight.get(), kSum, out->get(), out2->get(), "totalWeightOut");
    const DeviceTensor noClasses({{2, 0}, ACL_FLOAT});
    const DeviceTensor weight0({{0}, ACL_FLOAT});
    refused(noClasses.get(), target.get(), weight0.get(), kSum, out->get(), total->get(), "Target is out of bounds");
    // NLLLoss2d: its shape rules.
    const DeviceTensor self4({{1, 3, 2, 2}, ACL_FLOAT}, uniform(12, -1, 1, 1));
    const DeviceTensor target3d({{1, 2, 2}, ACL_INT64}, {0, 1, 2, 0});
    const auto refused2d = [&](const aclTensor* s, const aclTensor* t, const aclTensor* w, int64_t reduction,
                               aclTensor* o, const char* words) {
        expect_error_naming(phase1_of(aclnnNLLLoss2dGetWorkspaceSize, s, t, w, reduction, kIgnore, o, total->get()),
                            ACLNN_ERR_PARAM_INVALID, words);
    };
    refused2d(self.get(), target3d.get(), weight.get(), kSum, out->get(), "should be 4D");
    refused2d(self4.get(), target3d.get(), weight4.get(), kSum, out->get(), "x[1] should be equal to weight[0]");
    refused2d(self4.get(), target.get(), weight.get(), kSum, out->get(), "target tensor dim should be 3D");
    const DeviceTensor target3dWrong({{1, 2, 1}, ACL_INT64}, {0, 1});
    refused2d(self4.get(), target3dWrong.get(), weight.get(), kSum, out->get(), "size mismatch");
    refused2d(self4.get(), target3d.get(), weight.get(), kNone, out->get(), "same size");
    refused2d(self4.get(), target3d.get(), weight.get(), kSum, out2->get(), "Shape of out tensor should be [1]");
    refused2d(self4.get(), target3d.get(), weight.get(), -1, out->get(), "[-1]");
}

// ---- NLLLossBackward ---------------------------------------------------------

class NLLLossBackward : public AclTest {
protected:
    /// The gradient of rows r (self [N, C], or [C] with a 0-d target when
    /// oneRow); gradOutput dy; totalWeight tw.
    std::vector<double> backward(bool twoD, const TensorSpec& selfSpec, const TensorSpec& targetSpec,
                                 const std::vector<double>& t, const std::vector<double>& w,
                                 const TensorSpec& dySpec, const std::vector<double>& dy, double tw,
                                 int64_t reduction, int64_t ignoreIndex, const TensorSpec& outSpec) {
        const DeviceTensor grad(dySpec, dy);
        const DeviceTensor self(selfSpec, std::vector<double>(static_cast<size_t>(numel(selfSpec.shape)), 7));
        const DeviceTensor target(targetSpec, t);
        const DeviceTensor weight({{static_cast<int64_t>(w.size())}, selfSpec.dtype}, w);
        const DeviceTensor total({{1}, selfSpec.dtype}, {tw});
        auto out = DeviceTensor::output(outSpec);
        const auto phase1 = [&](uint64_t* ws, aclOpExecutor** executor) {
            return twoD ? aclnnNLLLoss2dBackwardGetWorkspaceSize(grad.get(), self.get(), target.get(), weight.get(),
                                                                 reduction, ignoreIndex,
                                                                 const_cast<aclTensor*>(total.get()), out->get(), ws,
                                                                 executor)
                        : aclnnNLLLossBackwardGetWorkspaceSize(grad.get(), self.get(), target.get(), weight.get(),
                                                               reduction, ignoreIndex, total.get(), out->get(), ws,
                                                               executor);
        };
        EXPECT_EQ(run_two_phases(phase1, twoD ? aclnnNLLLoss2dBackward : aclnnNLLLossBackward, stream_, nullptr),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
        return out->read();
    }
};

/// The reference gradient of [rows, classes]: -w[t] g at each row's class.
std::vector<double> grad_reference(const std::vector<int64_t>& t, const std::vector<double>& w, int64_t classes,
                                   const std::vector<double>& dy, double tw, int64_t reduction, int64_t ignoreIndex,
                                   aclDataType dtype) {
    std::vector<double> g(t.size() * static_cast<size_t>(classes), 0);
    for (size_t n = 0; n < t.size(); ++n) {
        if (t[n] == ignoreIndex) continue;
        const double scale = reduction == kNone ? dy[n] : reduction == kSum ? dy[0] : dy[0] / tw;
        g[n * static_cast<size_t>(classes) + static_cast<size_t>(t[n])] =
            rounded(-w[static_cast<size_t>(t[n])] * scale, dtype, dtype);
    }
    return g;
}

TEST_F(NLLLossBackward, EachReductionEveryDtype) {
    const std::vector<int64_t> t = {2, 0, 4, 2, 1, 3};
    const std::vector<double> td(t.begin(), t.end());
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        SCOPED_TRACE(name(dtype));
        const std::vector<double> w = representable(uniform(5, 0.25, 2, 2), dtype);
        const std::vector<double> dy = representable(uniform(6, -2, 2, 3), dtype);
        for (int64_t reduction : {kNone, kMean, kSum}) {
            SCOPED_TRACE(reduction);
            const TensorSpec dySpec = reduction == kNone ? TensorSpec{{6}, dtype} : TensorSpec{{}, dtype};
            const std::vector<double> g(dy.begin(), reduction == kNone ? dy.end() : dy.begin() + 1);
            expect_close(backward(false, {{6, 5}, dtype}, {{6}, ACL_INT32}, td, w, dySpec, g, 3.5, reduction, 2,
                                  {{6, 5}, dtype}),
                         grad_reference(t, w, 5, dy, 3.5, reduction, 2, dtype), tolerance_for(dtype));
        }
    }
}

// The gradient of the mean against central differences of our forward:
// sum_n dy * loss is linear in self, so the quotient is exact up to the
// forward's fp32 rounding.
TEST_F(NLLLossBackward, MatchesCentralDifferencesOfTheForward) {
    const Rows r = random_rows(3, 4, ACL_FLOAT, 31);
    const std::vector<double> t(r.target.begin(), r.target.end());
    std::vector<double> loss, weights;
    terms(r, kIgnore, &loss, &weights);
    const double h = 1.0 / 64;
    const auto mean_at = [&](size_t i, double shift) {
        std::vector<double> x = r.x;
        x[i] += shift;
        const DeviceTensor self({{3, 4}, ACL_FLOAT}, x);
        const DeviceTensor target({{3}, ACL_INT64}, t);
        const DeviceTensor weight({{4}, ACL_FLOAT}, r.weight);
        auto out = DeviceTensor::output({{}, ACL_FLOAT});
        auto total = DeviceTensor::output({{1}, ACL_FLOAT});
        EXPECT_EQ(run_aclnn(stream_, aclnnNLLLossGetWorkspaceSize, aclnnNLLLoss, self.get(), target.get(),
                            weight.get(), kMean, kIgnore, out->get(), total->get()),
                  ACLNN_SUCCESS);
        return out->read()[0];
    };
    std::vector<double> differences;
    for (size_t i = 0; i < r.x.size(); ++i) differences.push_back((mean_at(i, h) - mean_at(i, -h)) / (2 * h));
    expect_close(backward(false, {{3, 4}, ACL_FLOAT}, {{3}, ACL_INT64}, t, r.weight, {{1}, ACL_FLOAT}, {1},
                          sum_of(weights), kMean, kIgnore, {{3, 4}, ACL_FLOAT}),
                 differences, kCentralDifferenceTolerance);
}

// A 1-D self: one row (a 0-d target; CANN also takes a 1-D target of C
// values and reads its first); a strided out.
TEST_F(NLLLossBackward, OneRowAndStridedOut) {
    const std::vector<double> w = {1, 2, 3};
    expect_close(backward(false, {{3}, ACL_FLOAT}, {{}, ACL_INT64}, {1}, w, {{}, ACL_FLOAT}, {0.5}, 4, kMean, kIgnore,
                          {{3}, ACL_FLOAT}),
                 {0, -0.25, 0}, {0, 0});
    expect_close(backward(false, {{3}, ACL_FLOAT}, {{3}, ACL_INT64}, {2, 0, 0}, w, {{1}, ACL_FLOAT}, {0.5}, 4, kSum,
                          kIgnore, {{3}, ACL_BF16, {2}, 1, {7}}),
                 {0, 0, -1.5}, {0, 0});
}

// NLLLoss2dBackward: out [N, C, H, W], the class along dim 1.
TEST_F(NLLLossBackward, TwoD) {
    const std::vector<int64_t> t = {0, 2, kIgnore, 1};  // target [1, 2, 2]
    const std::vector<double> td(t.begin(), t.end());
    const std::vector<double> w = {0.5, 1, 2};
    const std::vector<double> dy = {1, -2, 3, 0.25};
    const std::vector<double> rows = grad_reference(t, w, 3, dy, 0, kNone, kIgnore, ACL_FLOAT16);
    std::vector<double> nchw(12, 0);
    for (size_t hw = 0; hw < 4; ++hw) {
        for (size_t c = 0; c < 3; ++c) nchw[c * 4 + hw] = rows[hw * 3 + c];
    }
    expect_close(backward(true, {{1, 3, 2, 2}, ACL_FLOAT16}, {{1, 2, 2}, ACL_INT64}, td, w, {{1, 2, 2}, ACL_FLOAT16},
                          dy, 0, kNone, kIgnore, {{1, 3, 2, 2}, ACL_FLOAT16}),
                 nchw, tolerance_for(ACL_FLOAT16));
}

TEST_F(NLLLossBackward, EmptySelfAndOutOfRangeClasses) {
    uint64_t workspace = 1;
    const DeviceTensor empty({{0, 3}, ACL_FLOAT});
    const DeviceTensor none({{0}, ACL_INT64});
    const DeviceTensor weight({{3}, ACL_FLOAT}, {1, 1, 1});
    const DeviceTensor scalar({{}, ACL_FLOAT}, {1});
    const DeviceTensor total({{1}, ACL_FLOAT}, {1});
    auto out = DeviceTensor::output({{0, 3}, ACL_FLOAT});
    const auto phase1 = [&](uint64_t* ws, aclOpExecutor** executor) {
        return aclnnNLLLossBackwardGetWorkspaceSize(scalar.get(), empty.get(), none.get(), weight.get(), kSum, kIgnore,
                                                    total.get(), out->get(), ws, executor);
    };
    EXPECT_EQ(run_two_phases(phase1, aclnnNLLLossBackward, stream_, &workspace), ACLNN_SUCCESS);
    EXPECT_EQ(workspace, 0u);
    // A class out of range: a zero row.
    expect_close(backward(false, {{2, 3}, ACL_FLOAT}, {{2}, ACL_UINT8}, {0, 3}, {1, 2, 3}, {{}, ACL_FLOAT}, {0.5}, 1,
                          kSum, kIgnore, {{2, 3}, ACL_FLOAT}),
                 {-0.5, 0, 0, 0, 0, 0}, {0, 0});
}

TEST_F(NLLLossBackward, Errors) {
    const DeviceTensor self({{2, 3}, ACL_FLOAT}, uniform(6, -1, 1, 1));
    const DeviceTensor target({{2}, ACL_INT64}, {0, 1});
    const DeviceTensor weight({{3}, ACL_FLOAT}, {1, 1, 1});
    const DeviceTensor dy({{}, ACL_FLOAT}, {1});
    const DeviceTensor total({{1}, ACL_FLOAT}, {2});
    auto out = DeviceTensor::output({{2, 3}, ACL_FLOAT});
    expect_each_null_is_161001_naming(aclnnNLLLossBackwardGetWorkspaceSize,
                                      {"gradOutput", "self", "target", "weight", "totalWeight", "out"}, dy.get(),
                                      self.get(), target.get(), weight.get(), kMean, kIgnore, total.get(), out->get());
    const auto refused = [&](const aclTensor* g, const aclTensor* s, const aclTensor* t, const aclTensor* w,
                             int64_t reduction, const aclTensor* tw, aclTensor* o, const char* words) {
        expect_error_naming(phase1_of(aclnnNLLLossBackwardGetWorkspaceSize, g, s, t, w, reduction, kIgnore, tw, o),
                            ACLNN_ERR_PARAM_INVALID, words);
    };
    const DeviceTensor dyHalf({{}, ACL_FLOAT16}, {1});
    refused(dyHalf.get(), self.get(), target.get(), weight.get(), kMean, total.get(), out->get(), "DT_FLOAT16");
    refused(dy.get(), self.get(), target.get(), weight.get(), 7, total.get(), out->get(), "but current is 7");
    const DeviceTensor target3({{3}, ACL_INT64}, {0, 1, 2});
    refused(dy.get(), self.get(), target3.get(), weight.get(), kMean, total.get(), out->get(), "Size mismatch");
    refused(dy.get(), self.get(), target.get(), weight.get(), kNone, total.get(), out->get(),
            "Expect gradOutput shape [2]");
    const DeviceTensor total2({{2}, ACL_FLOAT}, {1, 1});
    refused(dy.get(), self.get(), target.get(), weight.get(), kMean, total2.get(), out->get(), "totalWeight");
    auto wrong = DeviceTensor::output({{3, 2}, ACL_FLOAT});
    refused(dy.get(), self.get(), target.get(), weight.get(), kMean, total.get(), wrong->get(), "same size");
    // NLLLoss2dBackward checks shapes before the reduction, out of self's dtype.
    const DeviceTensor self4({{1, 3, 1, 2}, ACL_FLOAT}, uniform(6, -1, 1, 1));
    const DeviceTensor target3d({{1, 1, 2}, ACL_INT64}, {0, 1});
    auto out4 = DeviceTensor::output({{1, 3, 1, 2}, ACL_FLOAT});
    auto out4Half = DeviceTensor::output({{1, 3, 1, 2}, ACL_FLOAT16});
    aclTensor* tw = const_cast<aclTensor*>(total.get());
    const auto refused2d = [&](const aclTensor* g, const aclTensor* s, const aclTensor* t, int64_t reduction,
                               aclTensor* o, const char* words) {
        expect_error_naming(phase1_of(aclnnNLLLoss2dBackwardGetWorkspaceSize, g, s, t, weight.get(), reduction,
                                      kIgnore, tw, o),
                            ACLNN_ERR_PARAM_INVALID, words);
    };
    refused2d(dy.get(), self4.get(), target3d.get(), kMean, out4Half->get(), "DT_FLOAT16");
    refused2d(dy.get(), self4.get(), target3d.get(), kNone, out4->get(), "got gradOutput");
    refused2d(dy.get(), self.get(), target3d.get(), 9, out4->get(), "should be 4D");
    refused2d(dy.get(), self4.get(), target3d.get(), 9, out4->get(), "but current is 9");
    refused2d(dy.get(), self4.get(), target3d.get(), kSum, out->get(), "Shape of Out tensor");
}

}  // namespace
