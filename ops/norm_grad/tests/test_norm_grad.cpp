// aclnnLayerNormBackward and aclnnRmsNormGrad against the textbook
// gradients in double written here (not the kernel's arithmetic), and by
// central differences against our own forward aclnnLayerNorm and
// aclnnRmsNorm: every A2 dtype (norm/layer_norm_grad_v3/op_host/op_api/
// aclnn_layer_norm_backward.cpp CheckDtype; norm/rms_norm_grad/docs/
// aclnnRmsNormGrad.md's table), normalized dims of 1 and several, rows
// longer than the row engine's chunk, strided and offset views, empty
// tensors, every outputMask, every error path, and results bitwise
// independent of the worker count.
#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_layer_norm_backward.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_rms_norm_grad.h"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

/// An aclBoolArray (outputMask), destroyed with it.
class BoolArray {
public:
    explicit BoolArray(std::vector<bool> values) {
        bool flags[8] = {};
        for (size_t i = 0; i < values.size(); ++i) flags[i] = values[i];
        array_.reset(aclCreateBoolArray(flags, values.size()));
    }
    aclBoolArray* get() const { return array_.get(); }

private:
    struct Destroy {
        void operator()(aclBoolArray* array) const { aclDestroyBoolArray(array); }
    };
    std::unique_ptr<aclBoolArray, Destroy> array_;
};

struct GradReference {
    std::vector<double> dx;
    std::vector<double> dgamma;
    std::vector<double> dbeta;
};

/// The textbook gradients of y = xhat * gamma (+ beta), xhat = (x - mean) *
/// rstd per row of `length`, given the forward's mean and rstd (gamma empty:
/// 1):  g = dy * gamma;  LayerNorm (centred): dx = rstd * (g - mean(g) -
/// xhat * mean(g * xhat));  RmsNorm (mean 0): dx = rstd * (g - xhat *
/// mean(g * xhat));  dgamma = sum over rows of dy * xhat, dbeta of dy.
GradReference grad_reference(const std::vector<double>& x, const std::vector<double>& dy,
                             const std::vector<double>& gamma, const std::vector<double>& mean,
                             const std::vector<double>& rstd, size_t length, bool centred) {
    const size_t rows = x.size() / length;
    GradReference ref{std::vector<double>(x.size()), std::vector<double>(length), std::vector<double>(length)};
    for (size_t r = 0; r < rows; ++r) {
        const double mu = centred ? mean[r] : 0.0;
        double sumG = 0;
        double sumGX = 0;
        std::vector<double> g(length), xhat(length);
        for (size_t j = 0; j < length; ++j) {
            const size_t i = r * length + j;
            xhat[j] = (x[i] - mu) * rstd[r];
            g[j] = dy[i] * (gamma.empty() ? 1.0 : gamma[j]);
            sumG += g[j];
            sumGX += g[j] * xhat[j];
            ref.dgamma[j] += dy[i] * xhat[j];
            ref.dbeta[j] += dy[i];
        }
        const double n = static_cast<double>(length);
        for (size_t j = 0; j < length; ++j) {
            ref.dx[r * length + j] = rstd[r] * (g[j] - (centred ? sumG / n : 0.0) - xhat[j] * sumGX / n);
        }
    }
    return ref;
}

/// Central differences of L = sum(dy * forward(x, gamma)) (forward: a
/// norm's y, FLOAT, rows x length): dL/dx[r][j] = (L_r(x + h e_j) - L_r(x -
/// h e_j)) / 2h with column j of every row moved at once (rows are
/// independent), and dL/dgamma[j] likewise through gamma (L is linear in
/// it: exact but for rounding).  In GradReference's dx and dgamma.
template <class Forward>
GradReference central_differences(const Forward& forward, const std::vector<double>& x, const std::vector<double>& dy,
                                   const std::vector<double>& gamma, int64_t rows, int64_t length) {
    constexpr double h = 1.0 / 128;
    const auto losses = [&](const std::vector<double>& xs, const std::vector<double>& gs) {
        const std::vector<double> y = forward(xs, gs);
        std::vector<double> l(static_cast<size_t>(rows));
        for (size_t i = 0; i < y.size(); ++i) l[i / static_cast<size_t>(length)] += dy[i] * y[i];
        return l;
    };
    GradReference d{std::vector<double>(x.size()), std::vector<double>(static_cast<size_t>(length)), {}};
    for (int64_t j = 0; j < length; ++j) {
        std::vector<double> plus = x, minus = x, gPlus = gamma, gMinus = gamma;
        for (int64_t r = 0; r < rows; ++r) plus[r * length + j] += h, minus[r * length + j] -= h;
        gPlus[j] += h, gMinus[j] -= h;
        const auto lPlus = losses(plus, gamma), lMinus = losses(minus, gamma);
        const auto lgPlus = losses(x, gPlus), lgMinus = losses(x, gMinus);
        for (int64_t r = 0; r < rows; ++r) {
            d.dx[r * length + j] = (lPlus[r] - lMinus[r]) / (2 * h);
            d.dgamma[j] += (lgPlus[r] - lgMinus[r]) / (2 * h);
        }
    }
    return d;
}

std::vector<double> rounded(std::vector<double> values, aclDataType dtype) { return representable(std::move(values), dtype); }

/// dx's tolerance: the dtype's, plus the fp32 cancellation of g - mean(g) -
/// xhat * mean(g * xhat) for values of a few units.
Tolerance dx_tolerance(aclDataType dtype) { return {tolerance_for(dtype).rtol, 2e-5}; }

/// Column sums of a few hundred fp32 terms of a few units (and a cast).
Tolerance column_tolerance(aclDataType dtype) { return {tolerance_for(dtype).rtol, 1e-4}; }

const aclTensor* get_or_null(const std::unique_ptr<DeviceTensor>& tensor) { return tensor ? tensor->get() : nullptr; }

Shape stat_shape(Shape shape, size_t normalizedDims) {
    for (size_t d = shape.size() - normalizedDims; d < shape.size(); ++d) shape[d] = 1;
    return shape;
}

// --- LayerNormBackward -------------------------------------------------------

class LayerNormGrads : public AclTest {
protected:
    struct Case {
        TensorSpec input;
        std::vector<int64_t> normalized;
        aclDataType weightDtype;  ///< ACL_DT_UNDEFINED: no weight
        aclDataType statDtype;    ///< mean's and rstd's, as aclnnLayerNorm wrote them
        std::array<bool, 3> mask;
        aclDataType gradInputDtype;
        aclDataType gradAffineDtype;
    };

    /// mean and rstd of x as aclnnLayerNorm writes them (statDtype, x's shape with the normalized dims 1).
    std::pair<std::unique_ptr<DeviceTensor>, std::unique_ptr<DeviceTensor>> forward_stats(
        const DeviceTensor& x, const IntArray& normalized, size_t normalizedDims, aclDataType statDtype) {
        auto mean = DeviceTensor::output(TensorSpec(stat_shape(x.shape(), normalizedDims), statDtype));
        auto rstd = DeviceTensor::output(TensorSpec(stat_shape(x.shape(), normalizedDims), statDtype));
        auto y = DeviceTensor::output(TensorSpec(x.shape(), x.dtype()));
        EXPECT_EQ(run_aclnn(stream_, aclnnLayerNormGetWorkspaceSize, aclnnLayerNorm, x.get(), normalized.get(),
                            static_cast<const aclTensor*>(nullptr), static_cast<const aclTensor*>(nullptr), kEps,
                            y->get(), mean->get(), rstd->get()),
                  ACLNN_SUCCESS);
        return {std::move(mean), std::move(rstd)};
    }

    aclnnStatus backward(const DeviceTensor& dy, const DeviceTensor& x, const IntArray& normalized,
                         const DeviceTensor& mean, const DeviceTensor& rstd, const aclTensor* weight,
                         const BoolArray& mask, aclTensor* dx, aclTensor* dgamma, aclTensor* dbeta) {
        return run_aclnn(stream_, aclnnLayerNormBackwardGetWorkspaceSize, aclnnLayerNormBackward, dy.get(), x.get(),
                         normalized.get(), mean.get(), rstd.get(), weight, static_cast<const aclTensor*>(nullptr),
                         mask.get(), dx, dgamma, dbeta);
    }

    /// Runs the case on values and compares every asked output with the
    /// reference (from the device's mean and rstd); the others keep their fill.
    void expect_backward(const Case& c, const std::vector<double>& xValues, const std::vector<double>& dyValues) {
        SCOPED_TRACE("input " + std::to_string(c.input.dtype) + " weight " + std::to_string(c.weightDtype) +
                     " stats " + std::to_string(c.statDtype) + " mask " + std::to_string(c.mask[0]) +
                     std::to_string(c.mask[1]) + std::to_string(c.mask[2]));
        DeviceTensor x(c.input, xValues);
        DeviceTensor dy(TensorSpec(c.input.shape, c.input.dtype), dyValues);
        const IntArray normalized(c.normalized);
        const Shape affineShape(c.normalized.begin(), c.normalized.end());
        const auto length = static_cast<size_t>(numel(affineShape));
        auto [mean, rstd] = forward_stats(x, normalized, c.normalized.size(), c.statDtype);
        std::unique_ptr<DeviceTensor> weight;
        if (c.weightDtype != ACL_DT_UNDEFINED) {
            weight = std::make_unique<DeviceTensor>(TensorSpec(affineShape, c.weightDtype), uniform(length, 0.5, 2, 4));
        }
        auto dx = DeviceTensor::output(TensorSpec(c.input.shape, c.gradInputDtype));
        auto dgamma = DeviceTensor::output(TensorSpec(affineShape, c.gradAffineDtype));
        auto dbeta = DeviceTensor::output(TensorSpec(affineShape, c.gradAffineDtype));
        ASSERT_EQ(backward(dy, x, normalized, *mean, *rstd, get_or_null(weight),
                           BoolArray({c.mask[0], c.mask[1], c.mask[2]}), dx->get(), dgamma->get(), dbeta->get()),
                  ACLNN_SUCCESS);
        const GradReference ref = grad_reference(x.read(), dy.read(), weight ? weight->read() : std::vector<double>{},
                                                 mean->read(), rstd->read(), length, true);
        const auto expect = [](const DeviceTensor& out, bool asked, const std::vector<double>& expected, Tolerance tol) {
            if (asked) {
                expect_close(out.read(), expected, tol);
            } else {
                expect_close(out.read(), std::vector<double>(expected.size(), -7.0), {0, 0});
            }
        };
        expect(*dx, c.mask[0], rounded(rounded(ref.dx, c.input.dtype), c.gradInputDtype), dx_tolerance(c.input.dtype));
        expect(*dgamma, c.mask[1], rounded(ref.dgamma, c.gradAffineDtype), column_tolerance(c.gradAffineDtype));
        expect(*dbeta, c.mask[2], rounded(ref.dbeta, c.gradAffineDtype), column_tolerance(c.gradAffineDtype));
    }

    static constexpr double kEps = 1e-5;
};

constexpr std::array<bool, 3> kAll = {true, true, true};

// CheckDtype on A2: gradOut and input one of FLOAT16, FLOAT, BF16; mean,
// rstd, bias and the outputs any of them; weight FLOAT or input's.
TEST_F(LayerNormGrads, EveryListedDtypeWithAndWithoutWeight) {
    const auto x = uniform(2 * 3 * 24, -3.0, 5.0, 14);
    const auto dy = uniform(2 * 3 * 24, -1.0, 1.0, 15);
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        for (aclDataType weight : {ACL_DT_UNDEFINED, ACL_FLOAT, dtype}) {
            expect_backward({TensorSpec({2, 3, 24}, dtype), {24}, weight, ACL_FLOAT, kAll, dtype, ACL_FLOAT}, x, dy);
        }
        expect_backward({TensorSpec({2, 3, 24}, dtype), {3, 24}, dtype, dtype, kAll, ACL_FLOAT, dtype}, x, dy);
    }
}

// Each output is written only when its mask asks for it (GenOutWithMask).
TEST_F(LayerNormGrads, EveryOutputMask) {
    const auto x = uniform(4 * 5, -2.0, 2.0, 3);
    const auto dy = uniform(4 * 5, -1.0, 1.0, 4);
    for (int bits = 1; bits < 8; ++bits) {
        const std::array<bool, 3> mask = {(bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0};
        expect_backward({TensorSpec({4, 5}, ACL_FLOAT), {5}, ACL_FLOAT, ACL_FLOAT, mask, ACL_FLOAT, ACL_FLOAT}, x, dy);
    }
}

// A row of one element has xhat 0: dx and dgamma 0, dbeta dy.  Rows longer
// than the row engine's UB chunk; an offset, strided input (CANN makes
// every operand contiguous first).
TEST_F(LayerNormGrads, RowsOfOneLongRowsAndStridedViews) {
    expect_backward({TensorSpec({5, 1}, ACL_FLOAT), {1}, ACL_FLOAT, ACL_FLOAT, kAll, ACL_FLOAT, ACL_FLOAT},
                    uniform(5, -2, 2, 1), uniform(5, -1, 1, 2));
    expect_backward({TensorSpec({2, 20000}, ACL_BF16), {20000}, ACL_FLOAT, ACL_FLOAT, kAll, ACL_BF16, ACL_FLOAT},
                    uniform(40000, -2, 2, 5), uniform(40000, -1, 1, 6));
    expect_backward({TensorSpec({3, 5}, ACL_FLOAT, {1, 4}, 2, {30}), {5}, ACL_FLOAT, ACL_FLOAT, kAll, ACL_FLOAT,
                     ACL_FLOAT16}, uniform(15, -2, 2, 7), uniform(15, -1, 1, 8));
}

TEST_F(LayerNormGrads, StridedGradientsAndOutputs) {
    const IntArray normalized({4});
    DeviceTensor x(TensorSpec({3, 4}, ACL_FLOAT), uniform(12, -2, 2, 9));
    DeviceTensor dy(TensorSpec({3, 4}, ACL_FLOAT, {1, 3}, 1, {13}), uniform(12, -1, 1, 10));
    auto [mean, rstd] = forward_stats(x, normalized, 1, ACL_FLOAT);
    auto dx = DeviceTensor::output(TensorSpec({3, 4}, ACL_FLOAT, {8, 2}, 1, {24}));
    auto dgamma = DeviceTensor::output(TensorSpec({4}, ACL_FLOAT, {2}, 1, {8}));
    auto dbeta = DeviceTensor::output(TensorSpec({2, 2}, ACL_FLOAT));  // N elements of another shape
    ASSERT_EQ(backward(dy, x, normalized, *mean, *rstd, nullptr, BoolArray({true, true, true}), dx->get(),
                       dgamma->get(), dbeta->get()),
              ACLNN_SUCCESS);
    const GradReference ref = grad_reference(x.read(), dy.read(), {}, mean->read(), rstd->read(), 4, true);
    expect_close(dx->read(), ref.dx, dx_tolerance(ACL_FLOAT));
    expect_close(dgamma->read(), ref.dgamma, column_tolerance(ACL_FLOAT));
    expect_close(dbeta->read(), ref.dbeta, column_tolerance(ACL_FLOAT));
}

// M or N 0: success; gradWeight and gradBias 0 when M is
// (ProcessEmptyTensorWithValue); a mask of no output: nothing.
TEST_F(LayerNormGrads, EmptyTensorsAndNoOutput) {
    const IntArray four({4});
    DeviceTensor noRows(TensorSpec({0, 4}, ACL_FLOAT));
    DeviceTensor noStats(TensorSpec({0, 1}, ACL_FLOAT));
    auto dx = DeviceTensor::output(TensorSpec({0, 4}, ACL_FLOAT));
    auto dgamma = DeviceTensor::output(TensorSpec({4}, ACL_FLOAT));
    auto dbeta = DeviceTensor::output(TensorSpec({4}, ACL_FLOAT16));
    ASSERT_EQ(backward(noRows, noRows, four, noStats, noStats, nullptr, BoolArray({true, true, true}), dx->get(),
                       dgamma->get(), dbeta->get()),
              ACLNN_SUCCESS);
    expect_close(dgamma->read(), {0, 0, 0, 0}, {0, 0});
    expect_close(dbeta->read(), {0, 0, 0, 0}, {0, 0});

    const IntArray zero({0});
    DeviceTensor noColumns(TensorSpec({3, 0}, ACL_FLOAT));
    DeviceTensor stats(TensorSpec({3, 1}, ACL_FLOAT), {0, 0, 0});
    auto emptyDx = DeviceTensor::output(TensorSpec({3, 0}, ACL_FLOAT));
    auto emptyAffine = DeviceTensor::output(TensorSpec({0}, ACL_FLOAT));
    EXPECT_EQ(backward(noColumns, noColumns, zero, stats, stats, nullptr, BoolArray({true, true, true}),
                       emptyDx->get(), emptyAffine->get(), emptyAffine->get()),
              ACLNN_SUCCESS);

    DeviceTensor x(TensorSpec({2, 4}, ACL_FLOAT), uniform(8, -1, 1, 1));
    DeviceTensor rowStats(TensorSpec({2}, ACL_FLOAT), {0, 1});
    EXPECT_EQ(backward(x, x, four, rowStats, rowStats, nullptr, BoolArray({false, false, false}), nullptr, nullptr,
                       nullptr),
              ACLNN_SUCCESS);
}

// dx and dgamma against central differences of our aclnnLayerNorm.
TEST_F(LayerNormGrads, MatchesCentralDifferencesOfTheForward) {
    constexpr int64_t kRows = 3, kLength = 8;
    const auto x = uniform(kRows * kLength, -2, 2, 11);
    const auto dy = uniform(kRows * kLength, -1, 1, 12);
    const auto w = uniform(kLength, 0.5, 1.5, 13);
    const IntArray normalized({kLength});
    const auto forward = [&](const std::vector<double>& xs, const std::vector<double>& ws) {
        DeviceTensor input(TensorSpec({kRows, kLength}, ACL_FLOAT), xs);
        DeviceTensor weight(TensorSpec({kLength}, ACL_FLOAT), ws);
        auto y = DeviceTensor::output(TensorSpec({kRows, kLength}, ACL_FLOAT));
        EXPECT_EQ(run_aclnn(stream_, aclnnLayerNormGetWorkspaceSize, aclnnLayerNorm, input.get(), normalized.get(),
                            static_cast<const aclTensor*>(weight.get()), static_cast<const aclTensor*>(nullptr), kEps,
                            y->get(), static_cast<aclTensor*>(nullptr), static_cast<aclTensor*>(nullptr)),
                  ACLNN_SUCCESS);
        return y->read();
    };
    const GradReference differences = central_differences(forward, x, dy, w, kRows, kLength);
    DeviceTensor input(TensorSpec({kRows, kLength}, ACL_FLOAT), x);
    DeviceTensor grad(TensorSpec({kRows, kLength}, ACL_FLOAT), dy);
    DeviceTensor weight(TensorSpec({kLength}, ACL_FLOAT), w);
    auto [mean, rstd] = forward_stats(input, normalized, 1, ACL_FLOAT);
    auto dx = DeviceTensor::output(TensorSpec({kRows, kLength}, ACL_FLOAT));
    auto dgamma = DeviceTensor::output(TensorSpec({kLength}, ACL_FLOAT));
    ASSERT_EQ(backward(grad, input, normalized, *mean, *rstd, weight.get(), BoolArray({true, true, false}), dx->get(),
                       dgamma->get(), nullptr),
              ACLNN_SUCCESS);
    // Truncation h^2 / 6 * |L'''| (rstd^3 of rows of spread ~1) plus fp32 rounding over 2h.
    expect_close(dx->read(), differences.dx, {0, 2e-3});
    expect_close(dgamma->read(), differences.dgamma, {0, 2e-3});
}

TEST_F(LayerNormGrads, ErrorPaths) {
    DeviceTensor x(TensorSpec({2, 4}, ACL_FLOAT16), uniform(8, -1, 1, 1));
    DeviceTensor stats(TensorSpec({2, 1}, ACL_FLOAT), {0, 1});
    DeviceTensor otherStats(TensorSpec({1, 2}, ACL_FLOAT), {0, 1});
    DeviceTensor threeStats(TensorSpec({3}, ACL_FLOAT), {0, 1, 2});
    DeviceTensor weight(TensorSpec({4}, ACL_FLOAT16), uniform(4, -1, 1, 1));
    DeviceTensor bf16Weight(TensorSpec({4}, ACL_BF16), uniform(4, -1, 1, 1));
    DeviceTensor wideWeight(TensorSpec({5}, ACL_FLOAT16), uniform(5, -1, 1, 1));
    DeviceTensor flatWeight(TensorSpec({1, 4}, ACL_FLOAT16), uniform(4, -1, 1, 1));
    DeviceTensor ints(TensorSpec({2, 4}, ACL_INT32), uniform(8, -1, 1, 1));
    DeviceTensor floats(TensorSpec({2, 4}, ACL_FLOAT), uniform(8, -1, 1, 1));
    DeviceTensor rank9(TensorSpec({1, 1, 1, 1, 1, 1, 1, 2, 4}, ACL_FLOAT16), uniform(8, -1, 1, 1));
    DeviceTensor transposed(TensorSpec({4, 2}, ACL_FLOAT16), uniform(8, -1, 1, 1));
    auto dx = DeviceTensor::output(TensorSpec({2, 4}, ACL_FLOAT16));
    auto badDx = DeviceTensor::output(TensorSpec({4, 2}, ACL_FLOAT16));
    auto dgamma = DeviceTensor::output(TensorSpec({4}, ACL_FLOAT));
    auto wideDgamma = DeviceTensor::output(TensorSpec({5}, ACL_FLOAT));
    auto intDgamma = DeviceTensor::output(TensorSpec({4}, ACL_INT32));
    const IntArray four({4}), five({5}), none({}), tooLong({1, 1, 1, 1, 1, 1, 1, 1, 1}), twoFour({2, 4});
    const BoolArray all({true, true, true}), two({true, true}), onlyDx({true, false, false});
    struct Args {
        const aclTensor* gradOut;
        const aclTensor* input;
        const aclIntArray* normalized;
        const aclTensor* mean;
        const aclTensor* weight;
        const aclBoolArray* mask;
        aclTensor* dx;
        aclTensor* dgamma;
        aclTensor* dbeta;
    };
    const Args valid{x.get(), x.get(), four.get(), stats.get(), weight.get(), all.get(), dx->get(), dgamma->get(),
                     dgamma->get()};
    const auto phase1 = [&](Args a) {
        return phase1_of(aclnnLayerNormBackwardGetWorkspaceSize, a.gradOut, a.input, a.normalized, a.mean,
                         static_cast<const aclTensor*>(stats.get()), a.weight, static_cast<const aclTensor*>(nullptr),
                         a.mask, a.dx, a.dgamma, a.dbeta);
    };
    const auto with = [&](auto change) { Args a = valid; change(a); return phase1(a); };
    EXPECT_EQ(phase1(valid), ACLNN_SUCCESS);
    // CheckNotNull, then outputMask's length, then the outputs it asks for.
    expect_error_naming(with([&](Args& a) { a.gradOut = nullptr; }), ACLNN_ERR_PARAM_NULLPTR, "gradOut");
    expect_error_naming(with([&](Args& a) { a.input = nullptr; }), ACLNN_ERR_PARAM_NULLPTR, "input");
    expect_error_naming(with([&](Args& a) { a.normalized = nullptr; }), ACLNN_ERR_PARAM_NULLPTR, "normalizedShape");
    expect_error_naming(with([&](Args& a) { a.mean = nullptr; }), ACLNN_ERR_PARAM_NULLPTR, "mean");
    expect_error_naming(with([&](Args& a) { a.mask = nullptr; }), ACLNN_ERR_PARAM_NULLPTR, "outputMask");
    expect_error_naming(with([&](Args& a) { a.dx = nullptr; }), ACLNN_ERR_PARAM_NULLPTR, "gradInputOut");
    expect_error_naming(with([&](Args& a) { a.mask = two.get(); }), ACLNN_ERR_PARAM_INVALID, "outputMask len");
    expect_error_naming(with([&](Args& a) { a.dgamma = nullptr; }), ACLNN_ERR_PARAM_NULLPTR, "gradWeightOut");
    expect_error_naming(with([&](Args& a) { a.dbeta = nullptr; }), ACLNN_ERR_PARAM_NULLPTR, "gradBiasOut");
    EXPECT_EQ(with([&](Args& a) { a.mask = onlyDx.get(), a.dgamma = nullptr, a.dbeta = intDgamma->get(); }),
              ACLNN_ERR_PARAM_INVALID);  // CheckDtype checks a given output even when not asked for
    aclGetRecentErrMsg();
    EXPECT_EQ(with([&](Args& a) { a.mask = onlyDx.get(), a.dgamma = nullptr, a.dbeta = wideDgamma->get(); }),
              ACLNN_SUCCESS);  // ... but CheckShape only an asked one
    // CheckDtype.
    expect_error_naming(with([&](Args& a) { a.gradOut = ints.get(); }), ACLNN_ERR_PARAM_INVALID, "gradOut");
    expect_error_naming(with([&](Args& a) { a.mean = ints.get(); }), ACLNN_ERR_PARAM_INVALID, "mean");
    expect_error_naming(with([&](Args& a) { a.gradOut = floats.get(); }), ACLNN_ERR_PARAM_INVALID, "gradOut");
    expect_error_naming(with([&](Args& a) { a.weight = bf16Weight.get(); }), ACLNN_ERR_PARAM_INVALID,
                        "weightOptional");
    expect_error_naming(with([&](Args& a) { a.dgamma = intDgamma->get(); }), ACLNN_ERR_PARAM_INVALID,
                        "gradWeightOut");
    // CheckShape.
    expect_error_naming(with([&](Args& a) { a.gradOut = a.input = rank9.get(); }), ACLNN_ERR_PARAM_INVALID, "gradOut");
    expect_error_naming(with([&](Args& a) { a.normalized = tooLong.get(); }), ACLNN_ERR_PARAM_INVALID,
                        "normalizedShape len [9]");
    expect_error_naming(with([&](Args& a) { a.normalized = none.get(); }), ACLNN_ERR_PARAM_INVALID,
                        "normalizedShape len [0]");
    expect_error_naming(with([&](Args& a) { a.normalized = five.get(); }), ACLNN_ERR_PARAM_INVALID,
                        "normalized index [0] shape [5]");
    expect_error_naming(with([&](Args& a) { a.weight = wideWeight.get(); }), ACLNN_ERR_PARAM_INVALID,
                        "tensor index [0] shape [5]");
    expect_error_naming(with([&](Args& a) { a.weight = flatWeight.get(); }), ACLNN_ERR_PARAM_INVALID, "weightOptional");
    expect_error_naming(with([&](Args& a) { a.gradOut = transposed.get(); }), ACLNN_ERR_PARAM_INVALID, "gradOut");
    expect_error(with([&](Args& a) { a.mean = otherStats.get(); }), ACLNN_ERR_PARAM_INVALID);
    expect_error_naming(phase1_of(aclnnLayerNormBackwardGetWorkspaceSize, valid.gradOut, valid.input, valid.normalized,
                                  static_cast<const aclTensor*>(threeStats.get()),
                                  static_cast<const aclTensor*>(threeStats.get()), valid.weight,
                                  static_cast<const aclTensor*>(nullptr), valid.mask, valid.dx, valid.dgamma,
                                  valid.dbeta),
                        ACLNN_ERR_PARAM_INVALID, "mean shape size");
    expect_error(with([&](Args& a) { a.dx = badDx->get(); }), ACLNN_ERR_PARAM_INVALID);
    expect_error_naming(with([&](Args& a) { a.dgamma = wideDgamma->get(); }), ACLNN_ERR_PARAM_INVALID,
                        "gradWeightOut shape size");
    expect_error_naming(with([&](Args& a) { a.dbeta = wideDgamma->get(); }), ACLNN_ERR_PARAM_INVALID,
                        "gradBiasOut shape size");
    // CANN's CheckShapeEqual compares normalized[i] with input's dim i + axis
    // from i = axis on only: [2, 4] passes it for a [2, 4] input of ...
    DeviceTensor rank3(TensorSpec({2, 4, 4}, ACL_FLOAT16), uniform(32, -1, 1, 1));
    auto rank3Dx = DeviceTensor::output(TensorSpec({2, 4, 4}, ACL_FLOAT16));
    DeviceTensor rank3Stats(TensorSpec({2}, ACL_FLOAT), {0, 1});
    DeviceTensor rank2Weight(TensorSpec({2, 4}, ACL_FLOAT16), uniform(8, -1, 1, 1));
    auto sixteen = DeviceTensor::output(TensorSpec({16}, ACL_FLOAT));
    // ... rank 3 ([2, 4, 4], axis 1: only normalized[1] = 4 against dim 2),
    // and acl-cpu's guard refuses what the device could not compute.
    expect_error_naming(phase1_of(aclnnLayerNormBackwardGetWorkspaceSize, static_cast<const aclTensor*>(rank3.get()),
                                  static_cast<const aclTensor*>(rank3.get()), static_cast<const aclIntArray*>(twoFour.get()),
                                  static_cast<const aclTensor*>(rank3Stats.get()),
                                  static_cast<const aclTensor*>(rank3Stats.get()),
                                  static_cast<const aclTensor*>(rank2Weight.get()),
                                  static_cast<const aclTensor*>(nullptr), valid.mask, rank3Dx->get(), sixteen->get(),
                                  sixteen->get()),
                        ACLNN_ERR_PARAM_INVALID, "normalized index [0] shape [2] be equal to tensor index [1] shape [4]");
}

TEST_F(LayerNormGrads, ManyBlocksBitwiseEqualForAnyWorkerCount) {
    const IntArray normalized({96});
    const auto xValues = uniform(512 * 96, -3, 3, 22);
    const auto dyValues = uniform(512 * 96, -1, 1, 23);
    expect_same_for_any_worker_count([&] {
        DeviceTensor x(TensorSpec({512, 96}, ACL_FLOAT), xValues);
        DeviceTensor dy(TensorSpec({512, 96}, ACL_FLOAT), dyValues);
        DeviceTensor weight(TensorSpec({96}, ACL_FLOAT), uniform(96, 0.5, 1.5, 2));
        auto [mean, rstd] = forward_stats(x, normalized, 1, ACL_FLOAT);
        auto dx = DeviceTensor::output(TensorSpec({512, 96}, ACL_FLOAT));
        auto dgamma = DeviceTensor::output(TensorSpec({96}, ACL_FLOAT));
        auto dbeta = DeviceTensor::output(TensorSpec({96}, ACL_FLOAT));
        EXPECT_EQ(backward(dy, x, normalized, *mean, *rstd, weight.get(), BoolArray({true, true, true}), dx->get(),
                           dgamma->get(), dbeta->get()),
                  ACLNN_SUCCESS);
        return std::vector<std::vector<double>>{dx->read(), dgamma->read(), dbeta->read()};
    });
}

// --- RmsNormGrad -----------------------------------------------------------------

class RmsNormGrads : public AclTest {
protected:
    /// rstd of x as aclnnRmsNorm writes it (FLOAT, x's shape with gamma's dims 1).
    std::unique_ptr<DeviceTensor> forward_rstd(const DeviceTensor& x, const DeviceTensor& gamma, Shape rstdShape) {
        auto y = DeviceTensor::output(TensorSpec(x.shape(), x.dtype()));
        auto rstd = DeviceTensor::output(TensorSpec(std::move(rstdShape), ACL_FLOAT));
        EXPECT_EQ(run_aclnn(stream_, aclnnRmsNormGetWorkspaceSize, aclnnRmsNorm, x.get(), gamma.get(), kEps, y->get(),
                            rstd->get()),
                  ACLNN_SUCCESS);
        return rstd;
    }

    aclnnStatus grad(const DeviceTensor& dy, const DeviceTensor& x, const DeviceTensor& rstd, const DeviceTensor& gamma,
                     const DeviceTensor& dx, const DeviceTensor& dgamma) {
        return run_aclnn(stream_, aclnnRmsNormGradGetWorkspaceSize, aclnnRmsNormGrad, dy.get(), x.get(), rstd.get(),
                         gamma.get(), dx.get(), dgamma.get());
    }

    void expect_grad(const TensorSpec& xSpec, const Shape& gammaShape, aclDataType gammaDtype,
                     const std::vector<double>& xValues, const std::vector<double>& dyValues) {
        SCOPED_TRACE("x " + std::to_string(xSpec.dtype) + " gamma " + std::to_string(gammaDtype));
        DeviceTensor x(xSpec, xValues);
        DeviceTensor dy(TensorSpec(xSpec.shape, xSpec.dtype), dyValues);
        const auto length = static_cast<size_t>(numel(gammaShape));
        DeviceTensor gamma(TensorSpec(gammaShape, gammaDtype), uniform(length, 0.5, 2, 4));
        // aclnnRmsNorm wants gamma of fewer dims than x: a gamma of all of x's
        // dims (one row) gets its rstd from the formula here.
        std::unique_ptr<DeviceTensor> rstd;
        if (gammaShape.size() < xSpec.shape.size()) {
            rstd = forward_rstd(x, gamma, stat_shape(xSpec.shape, gammaShape.size()));
        } else {
            double squares = 0;
            for (double v : x.read()) squares += v * v;
            rstd = std::make_unique<DeviceTensor>(TensorSpec({1}, ACL_FLOAT),
                                                  std::vector<double>{1 / std::sqrt(squares / length + kEps)});
        }
        auto dx = DeviceTensor::output(TensorSpec(xSpec.shape, xSpec.dtype));
        auto dgamma = DeviceTensor::output(TensorSpec(gammaShape, ACL_FLOAT));
        ASSERT_EQ(grad(dy, x, *rstd, gamma, *dx, *dgamma), ACLNN_SUCCESS);
        const GradReference ref = grad_reference(x.read(), dy.read(), gamma.read(), {}, rstd->read(), length, false);
        expect_close(dx->read(), rounded(ref.dx, xSpec.dtype), dx_tolerance(xSpec.dtype));
        expect_close(dgamma->read(), ref.dgamma, column_tolerance(ACL_FLOAT));
    }

    static constexpr double kEps = 1e-6;
};

// The doc's A2 table: (dy, x, dx) FLOAT16, BF16 or FLOAT; gamma FLOAT or
// theirs; rstd and dgamma FLOAT.  gamma of one and of several dims, as the
// doc's example's [2, 1, 16].
TEST_F(RmsNormGrads, EveryListedDtypeCombination) {
    const auto x = uniform(2 * 3 * 16, -2, 2, 1);
    const auto dy = uniform(2 * 3 * 16, -1, 1, 2);
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        for (aclDataType gamma : {ACL_FLOAT, dtype}) {
            expect_grad(TensorSpec({2, 3, 16}, dtype), {16}, gamma, x, dy);
            expect_grad(TensorSpec({2, 3, 16}, dtype), {3, 16}, gamma, x, dy);
        }
    }
}

TEST_F(RmsNormGrads, LongRowsStridedViewsAndRowsOfOne) {
    expect_grad(TensorSpec({2, 20000}, ACL_FLOAT16), {20000}, ACL_FLOAT, uniform(40000, -2, 2, 3),
                uniform(40000, -1, 1, 4));
    expect_grad(TensorSpec({3, 5}, ACL_FLOAT, {1, 4}, 2, {30}), {5}, ACL_FLOAT, uniform(15, -2, 2, 5),
                uniform(15, -1, 1, 6));
    expect_grad(TensorSpec({4, 1}, ACL_FLOAT), {1}, ACL_FLOAT, uniform(4, -2, 2, 7), uniform(4, -1, 1, 8));
    // gamma all of x's dims: one row, rstd of one element.
    expect_grad(TensorSpec({2, 8}, ACL_FLOAT), {2, 8}, ACL_FLOAT, uniform(16, -2, 2, 9), uniform(16, -1, 1, 10));
}

TEST_F(RmsNormGrads, MatchesCentralDifferencesOfTheForward) {
    constexpr int64_t kRows = 3, kLength = 8;
    const auto x = uniform(kRows * kLength, -2, 2, 11);
    const auto dy = uniform(kRows * kLength, -1, 1, 12);
    const auto w = uniform(kLength, 0.5, 1.5, 13);
    const auto forward = [&](const std::vector<double>& xs, const std::vector<double>& ws) {
        DeviceTensor input(TensorSpec({kRows, kLength}, ACL_FLOAT), xs);
        DeviceTensor gamma(TensorSpec({kLength}, ACL_FLOAT), ws);
        auto y = DeviceTensor::output(TensorSpec({kRows, kLength}, ACL_FLOAT));
        auto rstd = DeviceTensor::output(TensorSpec({kRows, 1}, ACL_FLOAT));
        EXPECT_EQ(run_aclnn(stream_, aclnnRmsNormGetWorkspaceSize, aclnnRmsNorm, input.get(), gamma.get(), kEps,
                            y->get(), rstd->get()),
                  ACLNN_SUCCESS);
        return y->read();
    };
    const GradReference differences = central_differences(forward, x, dy, w, kRows, kLength);
    DeviceTensor input(TensorSpec({kRows, kLength}, ACL_FLOAT), x);
    DeviceTensor grads(TensorSpec({kRows, kLength}, ACL_FLOAT), dy);
    DeviceTensor gamma(TensorSpec({kLength}, ACL_FLOAT), w);
    auto rstd = forward_rstd(input, gamma, {kRows});
    auto dx = DeviceTensor::output(TensorSpec({kRows, kLength}, ACL_FLOAT));
    auto dgamma = DeviceTensor::output(TensorSpec({kLength}, ACL_FLOAT));
    ASSERT_EQ(grad(grads, input, *rstd, gamma, *dx, *dgamma), ACLNN_SUCCESS);
    expect_close(dx->read(), differences.dx, {0, 2e-3});
    expect_close(dgamma->read(), differences.dgamma, {0, 2e-3});
}

TEST_F(RmsNormGrads, ErrorPaths) {
    DeviceTensor x(TensorSpec({2, 1, 16}, ACL_FLOAT16), uniform(32, -1, 1, 1));
    DeviceTensor rstd(TensorSpec({2}, ACL_FLOAT), {1, 2});
    DeviceTensor gamma(TensorSpec({16}, ACL_FLOAT), uniform(16, -1, 1, 1));
    auto dx = DeviceTensor::output(TensorSpec({2, 1, 16}, ACL_FLOAT16));
    auto dgamma = DeviceTensor::output(TensorSpec({16}, ACL_FLOAT));
    struct Args {
        const aclTensor* dy;
        const aclTensor* x;
        const aclTensor* rstd;
        const aclTensor* gamma;
        const aclTensor* dx;
        const aclTensor* dgamma;
    };
    const Args valid{x.get(), x.get(), rstd.get(), gamma.get(), dx->get(), dgamma->get()};
    const auto with = [&](auto change) {
        Args a = valid;
        change(a);
        return phase1_of(aclnnRmsNormGradGetWorkspaceSize, a.dy, a.x, a.rstd, a.gamma, a.dx, a.dgamma);
    };
    EXPECT_EQ(with([](Args&) {}), ACLNN_SUCCESS);
    expect_each_null_is_161001_naming(aclnnRmsNormGradGetWorkspaceSize, {"dy", "x", "rstd", "gamma", "dxOut",
                                      "dgammaOut"}, valid.dy, valid.x, valid.rstd, valid.gamma, valid.dx, valid.dgamma);
    // The op def's dtype combinations: 161002.
    DeviceTensor ints(TensorSpec({2, 1, 16}, ACL_INT32));
    DeviceTensor floats(TensorSpec({2, 1, 16}, ACL_FLOAT));
    DeviceTensor halfRstd(TensorSpec({2}, ACL_FLOAT16));
    DeviceTensor bf16Gamma(TensorSpec({16}, ACL_BF16));
    auto halfDgamma = DeviceTensor::output(TensorSpec({16}, ACL_FLOAT16));
    const aclnnStatus invalid = ACLNN_ERR_PARAM_INVALID;
    expect_error_naming(with([&](Args& a) { a.dy = ints.get(); }), invalid, "dy");
    expect_error_naming(with([&](Args& a) { a.x = floats.get(); }), invalid, "x");
    expect_error_naming(with([&](Args& a) { a.rstd = halfRstd.get(); }), invalid, "rstd");
    expect_error_naming(with([&](Args& a) { a.gamma = bf16Gamma.get(); }), invalid, "gamma");
    expect_error_naming(with([&](Args& a) { a.dx = floats.get(); }), invalid, "dxOut");
    expect_error_naming(with([&](Args& a) { a.dgamma = halfDgamma->get(); }), invalid, "dgammaOut");
    // The tiling's shape checks: 561002.
    const aclnnStatus tiling = ACLNN_ERR_INNER_TILING_ERROR;
    DeviceTensor rank9(TensorSpec({1, 1, 1, 1, 1, 1, 1, 2, 16}, ACL_FLOAT16));
    DeviceTensor gammaRank4(TensorSpec({1, 2, 1, 16}, ACL_FLOAT));
    DeviceTensor flat(TensorSpec({2, 16}, ACL_FLOAT16));
    DeviceTensor other(TensorSpec({2, 1, 8}, ACL_FLOAT16));
    DeviceTensor wide(TensorSpec({2, 2, 16}, ACL_FLOAT16));
    DeviceTensor gamma8(TensorSpec({8}, ACL_FLOAT));
    DeviceTensor noColumns(TensorSpec({2, 1, 0}, ACL_FLOAT16));
    DeviceTensor noRows(TensorSpec({0, 1, 16}, ACL_FLOAT16));
    DeviceTensor noRstd(TensorSpec({0}, ACL_FLOAT));
    DeviceTensor rstd3(TensorSpec({3}, ACL_FLOAT));
    DeviceTensor rstd21(TensorSpec({2, 2}, ACL_FLOAT));
    DeviceTensor rstd213(TensorSpec({2, 1, 3}, ACL_FLOAT));
    auto dgamma8 = DeviceTensor::output(TensorSpec({8}, ACL_FLOAT));
    auto dgamma2d = DeviceTensor::output(TensorSpec({1, 16}, ACL_FLOAT));
    expect_error_naming(with([&](Args& a) { a.x = a.dy = a.dx = rank9.get(); }), tiling, "x's dim 9");
    expect_error_naming(with([&](Args& a) { a.gamma = gammaRank4.get(); }), tiling, "gamma and x dims 4 and 3");
    expect_error_naming(with([&](Args& a) { a.dy = flat.get(); }), tiling, "dy and x dims 2 and 3");
    expect_error_naming(with([&](Args& a) { a.dx = flat.get(); }), tiling, "dx and dy dims");
    expect_error_naming(with([&](Args& a) { a.dgamma = dgamma2d->get(); }), tiling, "dgamma and gamma dims");
    expect_error_naming(with([&](Args& a) { a.dy = other.get(); }), tiling, "x and dy shapes");
    expect_error_naming(with([&](Args& a) { a.dx = other.get(); }), tiling, "dx and dy shapes");
    expect_error_naming(with([&](Args& a) { a.x = a.dy = a.dx = noColumns.get(); }), tiling, "last axis");
    expect_error_naming(with([&](Args& a) { a.rstd = rstd3.get(); }), tiling, "rstd and x shapes");
    expect_error_naming(with([&](Args& a) { a.rstd = rstd21.get(); }), tiling, "rstd and x shapes");
    expect_error_naming(with([&](Args& a) { a.x = a.dy = a.dx = wide.get(); }), tiling, "axis of input x must be 1");
    expect_error_naming(with([&](Args& a) { a.gamma = gamma8.get(), a.dgamma = dgamma8->get(); }), tiling,
                        "gamma and dy shapes");
    expect_error_naming(with([&](Args& a) { a.dgamma = dgamma8->get(); }), tiling, "dgamma and dy shapes");
    expect_error_naming(with([&](Args& a) { a.rstd = rstd213.get(); }), tiling, "one per row");
    // A2's tiling has no empty-tensor path (arch35's has): an empty dy is refused.
    expect_error_naming(with([&](Args& a) { a.x = a.dy = a.dx = noRows.get(), a.rstd = noRstd.get(); }), tiling,
                        "does not support empty tensor");
}

// 16 columns, fewer than the vector cores: dgamma's rows are split over
// blocks whose partials are folded in block order.
TEST_F(RmsNormGrads, ManyBlocksBitwiseEqualForAnyWorkerCount) {
    const auto xValues = uniform(3072 * 16, -3, 3, 24);
    const auto dyValues = uniform(3072 * 16, -1, 1, 25);
    expect_same_for_any_worker_count([&] {
        DeviceTensor x(TensorSpec({3072, 16}, ACL_BF16), xValues);
        DeviceTensor dy(TensorSpec({3072, 16}, ACL_BF16), dyValues);
        DeviceTensor gamma(TensorSpec({16}, ACL_FLOAT), uniform(16, 0.5, 1.5, 2));
        auto rstd = forward_rstd(x, gamma, {3072, 1});
        auto dx = DeviceTensor::output(TensorSpec({3072, 16}, ACL_BF16));
        auto dgamma = DeviceTensor::output(TensorSpec({16}, ACL_FLOAT));
        EXPECT_EQ(grad(dy, x, *rstd, gamma, *dx, *dgamma), ACLNN_SUCCESS);
        const GradReference ref = grad_reference(x.read(), dy.read(), gamma.read(), {}, rstd->read(), 16, false);
        expect_close(dgamma->read(), ref.dgamma, {1e-5, 1e-3});  // 3072 terms of a few units
        return std::vector<std::vector<double>>{dx->read(), dgamma->read()};
    });
}

}  // namespace
