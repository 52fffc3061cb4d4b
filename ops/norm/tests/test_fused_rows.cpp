// The row operators of ops/norm with a second input row or per-row affine --
// AddRmsNorm, GroupNorm, SoftmaxCrossEntropyWithLogits -- against
// double-precision references written here: every A2 dtype of each op_api
// (norm/add_rms_norm/op_host/op_api/aclnn_add_rms_norm.cpp,
// norm/group_norm/op_host/op_api/aclnn_group_norm.cpp,
// activation/softmax_cross_entropy_with_logits/op_api/
// aclnn_softmax_cross_entropy_with_logits.cpp in hicann/ops-nn), strided and
// offset views, long rows, empty tensors, special values, every error path
// and results independent of the worker count.
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_softmax_cross_entropy_with_logits.h"
#include "aclcpu/memcheck.hpp"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::nan("");

// --- AddRmsNorm ---------------------------------------------------------------

struct AddRmsNormReference {
    std::vector<double> x;  ///< x1 + x2 as xOut holds it
    std::vector<double> y;
    std::vector<double> rstd;
};

/// x = x1 + x2 (fp16: added in fp16; bf16: normalised unrounded, as
/// op_kernel/add_rms_norm.h), rstd = 1/sqrt(mean(x^2) + eps) per row of
/// gamma's size, y = x * rstd * gamma.
AddRmsNormReference add_rms_norm_reference(const std::vector<double>& x1, const std::vector<double>& x2,
                                           const std::vector<double>& gamma, double eps, aclDataType dtype) {
    const size_t length = gamma.size();
    std::vector<double> sum(x1.size());
    for (size_t i = 0; i < sum.size(); ++i) sum[i] = x1[i] + x2[i];
    const std::vector<double> x = representable(sum, dtype == ACL_FLOAT16 ? ACL_FLOAT16 : ACL_FLOAT);
    AddRmsNormReference ref{representable(sum, dtype), std::vector<double>(x.size()),
                            std::vector<double>(x.size() / length)};
    for (size_t r = 0; r < ref.rstd.size(); ++r) {
        double squares = 0;
        for (size_t j = 0; j < length; ++j) squares += x[r * length + j] * x[r * length + j];
        ref.rstd[r] = 1.0 / std::sqrt(squares / static_cast<double>(length) + eps);
        for (size_t j = 0; j < length; ++j) ref.y[r * length + j] = x[r * length + j] * ref.rstd[r] * gamma[j];
    }
    ref.y = representable(ref.y, dtype);
    return ref;
}

class AddRmsNorms : public AclTest {
protected:
    aclnnStatus add_rms_norm(const DeviceTensor& x1, const DeviceTensor& x2, const DeviceTensor& gamma, double eps,
                             DeviceTensor& y, aclTensor* rstd, aclTensor* xOut) {
        return run_aclnn(stream_, aclnnAddRmsNormGetWorkspaceSize, aclnnAddRmsNorm, x1.get(), x2.get(), gamma.get(),
                         eps, y.get(), rstd, xOut);
    }

    /// rstdShape empty: no rstdOut (PRE mode, or POST without xOut).
    void expect_add_rms_norm(const TensorSpec& x1Spec, const TensorSpec& x2Spec, const Shape& gammaShape,
                             const TensorSpec& ySpec, const Shape& rstdShape, bool withXOut) {
        const aclDataType dtype = x1Spec.dtype;
        SCOPED_TRACE("dtype " + std::to_string(dtype));
        const auto n = static_cast<size_t>(numel(x1Spec.shape));
        DeviceTensor x1(x1Spec, uniform(n, -3, 3, 1));
        DeviceTensor x2(x2Spec, uniform(n, -3, 3, 2));
        DeviceTensor gamma(TensorSpec(gammaShape, dtype), uniform(static_cast<size_t>(numel(gammaShape)), 0.5, 2, 3));
        auto y = DeviceTensor::output(ySpec);
        auto rstd = rstdShape.empty() ? nullptr : DeviceTensor::output(TensorSpec(rstdShape, ACL_FLOAT));
        auto xOut = withXOut ? DeviceTensor::output(TensorSpec(x1Spec.shape, dtype)) : nullptr;
        ASSERT_EQ(add_rms_norm(x1, x2, gamma, 1e-6, *y, rstd ? rstd->get() : nullptr, xOut ? xOut->get() : nullptr),
                  ACLNN_SUCCESS);
        const AddRmsNormReference ref = add_rms_norm_reference(x1.read(), x2.read(), gamma.read(), 1e-6, dtype);
        expect_close(y->read(), ref.y, tolerance_for(dtype));
        if (xOut) expect_close(xOut->read(), ref.x, {0, 0});
        if (rstd) expect_close(rstd->read(), ref.rstd, tolerance_for(ACL_FLOAT));
    }
};

// aclnn_add_rms_norm.cpp on A2: x1, x2, gamma, yOut, xOut one of FLOAT,
// FLOAT16, BF16 (all the same), rstdOut FLOAT of x1's shape with gamma's
// dims 1 (the doc; gamma may have x1's rank).
TEST_F(AddRmsNorms, EveryListedDtypeAndGammaRank) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        const TensorSpec x({2, 3, 40}, dtype);
        expect_add_rms_norm(x, x, {40}, x, {2, 3, 1}, true);
        expect_add_rms_norm(x, x, {3, 40}, x, {2, 1, 1}, true);
        expect_add_rms_norm(x, x, {2, 3, 40}, x, {1, 1, 1}, true);
    }
}

// CheckParams: xOut without rstdOut is PRE_RMS_NORM_MODE, neither is
// POST_RMS_NORM_MODE -- FLOAT16 and BF16 only, gamma of rank <= 2.
TEST_F(AddRmsNorms, PreAndPostModesWriteWhatTheyHave) {
    for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
        const TensorSpec x({4, 24}, dtype);
        expect_add_rms_norm(x, x, {24}, x, {}, true);
        expect_add_rms_norm(x, x, {24}, x, {}, false);
    }
}

TEST_F(AddRmsNorms, StridedOffsetAndLongRows) {
    expect_add_rms_norm(TensorSpec({3, 5}, ACL_FLOAT, {1, 4}, 2, {30}), TensorSpec({3, 5}, ACL_FLOAT, {10, 2}, 1, {40}),
                        {5}, TensorSpec({3, 5}, ACL_FLOAT, {6, 1}, 1, {20}), {3, 1}, true);
    const TensorSpec wide({2, 100000}, ACL_FLOAT16);
    expect_add_rms_norm(wide, wide, {100000}, wide, {2, 1}, true);
}

TEST_F(AddRmsNorms, EmptyX1OrGammaLaunchNothing) {
    DeviceTensor x(TensorSpec({0, 4}, ACL_FLOAT));
    DeviceTensor gamma(TensorSpec({4}, ACL_FLOAT), {1, 1, 1, 1});
    auto y = DeviceTensor::output(TensorSpec({0, 4}, ACL_FLOAT));
    auto rstd = DeviceTensor::output(TensorSpec({0, 1}, ACL_FLOAT));
    auto xOut = DeviceTensor::output(TensorSpec({0, 4}, ACL_FLOAT));
    EXPECT_EQ(add_rms_norm(x, x, gamma, 1e-6, *y, rstd->get(), xOut->get()), ACLNN_SUCCESS);
    DeviceTensor rowsOfNothing(TensorSpec({2, 0}, ACL_FLOAT));
    DeviceTensor noGamma(TensorSpec({0}, ACL_FLOAT));
    auto y2 = DeviceTensor::output(TensorSpec({2, 0}, ACL_FLOAT));
    auto rstd2 = DeviceTensor::output(TensorSpec({2, 1}, ACL_FLOAT));
    auto xOut2 = DeviceTensor::output(TensorSpec({2, 0}, ACL_FLOAT));
    EXPECT_EQ(add_rms_norm(rowsOfNothing, rowsOfNothing, noGamma, 1e-6, *y2, rstd2->get(), xOut2->get()),
              ACLNN_SUCCESS);
    expect_close(rstd2->read(), {-7, -7}, {0, 0});  // not written
}

TEST_F(AddRmsNorms, ErrorPaths) {
    DeviceTensor x(TensorSpec({2, 4}, ACL_FLOAT), uniform(8, -1, 1, 1));
    DeviceTensor gamma(TensorSpec({4}, ACL_FLOAT), uniform(4, -1, 1, 1));
    auto y = DeviceTensor::output(TensorSpec({2, 4}, ACL_FLOAT));
    auto rstd = DeviceTensor::output(TensorSpec({2, 1}, ACL_FLOAT));
    auto xOut = DeviceTensor::output(TensorSpec({2, 4}, ACL_FLOAT));
    const auto phase1 = [](const DeviceTensor& x1, const DeviceTensor& x2, const DeviceTensor& g, const DeviceTensor& o,
                           aclTensor* r, aclTensor* xo) {
        return phase1_of(aclnnAddRmsNormGetWorkspaceSize, x1.get(), x2.get(), g.get(), 1e-6, o.get(), r, xo);
    };
    // A null rstdOut or xOut picks another mode (below), so only the
    // required four are null-checked as such.
    const auto nulled = [&](int k) {
        return phase1_of(aclnnAddRmsNormGetWorkspaceSize, k == 0 ? nullptr : x.get(), k == 1 ? nullptr : x.get(),
                         k == 2 ? nullptr : gamma.get(), 1e-6, k == 3 ? nullptr : y->get(), rstd->get(), xOut->get());
    };
    const char* names[] = {"x1", "x2", "gamma", "yOut", "rstdOut", "xOut"};
    for (int k = 0; k < 4; ++k) expect_error_naming(nulled(k), ACLNN_ERR_PARAM_NULLPTR, names[k]);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    EXPECT_EQ(aclnnAddRmsNormGetWorkspaceSize(x.get(), x.get(), gamma.get(), 1e-6, y->get(), rstd->get(), xOut->get(),
                                              nullptr, &executor),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnAddRmsNormGetWorkspaceSize(x.get(), x.get(), gamma.get(), 1e-6, y->get(), rstd->get(), xOut->get(),
                                              &workspace, nullptr),
              ACLNN_ERR_PARAM_NULLPTR);
    // rstdOut without xOut stays ADD_RMS_NORM_MODE: xOut is required.
    expect_error_naming(phase1(x, x, gamma, *y, rstd->get(), nullptr), ACLNN_ERR_PARAM_NULLPTR, "xOut");
    // PRE and POST modes take FLOAT16 and BF16 only.
    expect_error_naming(phase1(x, x, gamma, *y, nullptr, xOut->get()), ACLNN_ERR_PARAM_INVALID, "x1");
    expect_error_naming(phase1(x, x, gamma, *y, nullptr, nullptr), ACLNN_ERR_PARAM_INVALID, "x1");
    // Each argument in turn (x1, x2, gamma, yOut, rstdOut, xOut) replaced
    // by one of a refused dtype, then by one of a refused shape (a 0-d x1
    // with a 0-d x2): the message names it.
    const auto with = [&](size_t k, const DeviceTensor& wrong) {
        const DeviceTensor* a[] = {&x, &x, &gamma, y.get(), rstd.get(), xOut.get()};
        a[k] = &wrong;
        return phase1(*a[0], *a[1], *a[2], *a[3], a[4]->get(), a[5]->get());
    };
    const DeviceTensor ints(TensorSpec({2, 4}, ACL_INT32), uniform(8, -1, 1, 1));
    const DeviceTensor halves(TensorSpec({2, 4}, ACL_FLOAT16), uniform(8, -1, 1, 1));
    const DeviceTensor halfGamma(TensorSpec({4}, ACL_FLOAT16), uniform(4, -1, 1, 1));
    const auto yHalf = DeviceTensor::output(TensorSpec({2, 4}, ACL_FLOAT16));
    const auto rstdHalf = DeviceTensor::output(TensorSpec({2, 1}, ACL_FLOAT16));
    const auto xOutHalf = DeviceTensor::output(TensorSpec({2, 4}, ACL_FLOAT16));
    const DeviceTensor* refusedDtype[] = {&ints, &halves, &halfGamma, yHalf.get(), rstdHalf.get(), xOutHalf.get()};
    for (size_t k = 0; k < 6; ++k) expect_error_naming(with(k, *refusedDtype[k]), ACLNN_ERR_PARAM_INVALID, names[k]);
    const DeviceTensor scalar(TensorSpec({}, ACL_FLOAT), {1});
    expect_error_naming(phase1(scalar, scalar, gamma, *y, rstd->get(), xOut->get()), ACLNN_ERR_PARAM_INVALID, "x1");
    const DeviceTensor wide(TensorSpec({2, 5}, ACL_FLOAT), uniform(10, -1, 1, 1));
    const DeviceTensor longGamma(TensorSpec({5}, ACL_FLOAT), uniform(5, -1, 1, 1));
    const auto yWide = DeviceTensor::output(TensorSpec({2, 5}, ACL_FLOAT));
    const auto rstdWrong = DeviceTensor::output(TensorSpec({2, 4}, ACL_FLOAT));
    const auto xOutWide = DeviceTensor::output(TensorSpec({2, 5}, ACL_FLOAT));
    const DeviceTensor* refusedShape[] = {&wide, &longGamma, yWide.get(), rstdWrong.get(), xOutWide.get()};
    for (size_t k = 1; k < 6; ++k) {
        expect_error_naming(with(k, *refusedShape[k - 1]), ACLNN_ERR_PARAM_INVALID, names[k]);
    }
    DeviceTensor half3d(TensorSpec({1, 2, 4}, ACL_FLOAT16), uniform(8, -1, 1, 1));
    DeviceTensor gamma3d(TensorSpec({1, 2, 4}, ACL_FLOAT16), uniform(8, -1, 1, 1));
    auto y3d = DeviceTensor::output(TensorSpec({1, 2, 4}, ACL_FLOAT16));
    expect_error_naming(phase1(half3d, half3d, gamma3d, *y3d, nullptr, nullptr), ACLNN_ERR_PARAM_INVALID, "gamma");
}

TEST_F(AddRmsNorms, ManyBlocksBitwiseEqualForAnyWorkerCount) {
    expect_same_for_any_worker_count([&] {
        DeviceTensor x1(TensorSpec({512, 1024}, ACL_BF16), uniform(512 * 1024, -3, 3, 21));
        DeviceTensor x2(TensorSpec({512, 1024}, ACL_BF16), uniform(512 * 1024, -3, 3, 22));
        DeviceTensor gamma(TensorSpec({1024}, ACL_BF16), uniform(1024, 0.5, 1.5, 2));
        auto y = DeviceTensor::output(TensorSpec({512, 1024}, ACL_BF16));
        auto rstd = DeviceTensor::output(TensorSpec({512, 1}, ACL_FLOAT));
        auto xOut = DeviceTensor::output(TensorSpec({512, 1024}, ACL_BF16));
        EXPECT_EQ(add_rms_norm(x1, x2, gamma, 1e-6, *y, rstd->get(), xOut->get()), ACLNN_SUCCESS);
        return std::vector<std::vector<double>>{y->read(), rstd->read(), xOut->read()};
    });
}

// --- GroupNorm ------------------------------------------------------------------

struct GroupNormReference {
    std::vector<double> y;
    std::vector<double> mean;
    std::vector<double> rstd;
};

/// self [N, C, HxW] (row-major values) in `group` groups: per (n, g) the
/// mean and rstd = 1/sqrt(biased variance + eps) of its C/group channels,
/// y = (x - mean) * rstd * gamma[c] + beta[c] (1 and 0 when absent).
GroupNormReference group_norm_reference(const std::vector<double>& x, int64_t n, int64_t c, int64_t hxw,
                                        int64_t group, const std::vector<double>& gamma,
                                        const std::vector<double>& beta, double eps) {
    GroupNormReference ref{std::vector<double>(x.size()), std::vector<double>(static_cast<size_t>(n * group)),
                           std::vector<double>(static_cast<size_t>(n * group))};
    const int64_t perGroup = c / group * hxw;
    for (int64_t r = 0; r < n * group; ++r) {
        const auto at = [&](int64_t i) { return static_cast<size_t>(r * perGroup + i); };
        double sum = 0;
        for (int64_t i = 0; i < perGroup; ++i) sum += x[at(i)];
        const double mean = sum / static_cast<double>(perGroup);
        double squares = 0;
        for (int64_t i = 0; i < perGroup; ++i) squares += (x[at(i)] - mean) * (x[at(i)] - mean);
        const double rstd = 1.0 / std::sqrt(squares / static_cast<double>(perGroup) + eps);
        ref.mean[static_cast<size_t>(r)] = mean;
        ref.rstd[static_cast<size_t>(r)] = rstd;
        for (int64_t i = 0; i < perGroup; ++i) {
            const auto channel = static_cast<size_t>(r % group * (c / group) + i / hxw);
            ref.y[at(i)] = (x[at(i)] - mean) * rstd * (gamma.empty() ? 1.0 : gamma[channel]) +
                           (beta.empty() ? 0.0 : beta[channel]);
        }
    }
    return ref;
}

class GroupNorms : public AclTest {
protected:
    aclnnStatus group_norm(const DeviceTensor& self, const aclTensor* gamma, const aclTensor* beta, int64_t n,
                           int64_t c, int64_t hxw, int64_t group, double eps, DeviceTensor& out, DeviceTensor& mean,
                           DeviceTensor& rstd) {
        return run_aclnn(stream_, aclnnGroupNormGetWorkspaceSize, aclnnGroupNorm, self.get(), gamma, beta, n, c, hxw,
                         group, eps, out.get(), mean.get(), rstd.get());
    }

    void expect_group_norm(const TensorSpec& selfSpec, int64_t group, bool withGamma, bool withBeta,
                           const TensorSpec& outSpec) {
        const aclDataType dtype = selfSpec.dtype;
        SCOPED_TRACE("dtype " + std::to_string(dtype) + " group " + std::to_string(group));
        const int64_t n = selfSpec.shape[0];
        const int64_t c = selfSpec.shape[1];
        const int64_t hxw = numel(selfSpec.shape) / std::max<int64_t>(n * c, 1);
        DeviceTensor self(selfSpec, uniform(static_cast<size_t>(numel(selfSpec.shape)), -2, 4, 5));
        DeviceTensor gamma(TensorSpec({c}, dtype, {2}, 1, {2 * c + 1}), uniform(static_cast<size_t>(c), 0.5, 2, 6));
        DeviceTensor beta(TensorSpec({c}, dtype), uniform(static_cast<size_t>(c), -1, 1, 7));
        auto out = DeviceTensor::output(outSpec);
        auto mean = DeviceTensor::output(TensorSpec({n, group}, dtype));
        auto rstd = DeviceTensor::output(TensorSpec({n, group}, dtype, {1, n}));
        ASSERT_EQ(group_norm(self, withGamma ? gamma.get() : nullptr, withBeta ? beta.get() : nullptr, n, c, hxw,
                             group, 1e-5, *out, *mean, *rstd),
                  ACLNN_SUCCESS);
        const GroupNormReference ref = group_norm_reference(self.read(), n, c, hxw, group,
                                                            withGamma ? gamma.read() : std::vector<double>{},
                                                            withBeta ? beta.read() : std::vector<double>{}, 1e-5);
        // atol: the fp32 mean's rounding (half an ulp of ~1) times rstd and gamma.
        expect_close(out->read(), representable(ref.y, dtype), {tolerance_for(dtype).rtol, 1e-6});
        expect_close(mean->read(), representable(ref.mean, dtype), {tolerance_for(dtype).rtol, 1e-6});
        expect_close(rstd->read(), representable(ref.rstd, dtype), tolerance_for(dtype));
    }
};

// aclnn_group_norm.cpp on A2 (DAV_2201): self FLOAT16, BF16, FLOAT; gamma,
// beta, out, meanOut, rstdOut self's dtype; gamma and beta optional.
TEST_F(GroupNorms, EveryListedDtypeWithAndWithoutAffine) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        for (const bool affine : {false, true}) {
            expect_group_norm(TensorSpec({2, 6, 3, 4}, dtype), 3, affine, affine, TensorSpec({2, 6, 3, 4}, dtype));
        }
        expect_group_norm(TensorSpec({2, 6, 5}, dtype), 2, true, false, TensorSpec({2, 6, 5}, dtype));
        expect_group_norm(TensorSpec({3, 4}, dtype), 4, false, true, TensorSpec({3, 4}, dtype));
        expect_group_norm(TensorSpec({1, 8, 2, 2, 2}, dtype), 1, true, true, TensorSpec({1, 8, 2, 2, 2}, dtype));
    }
}

TEST_F(GroupNorms, StridedOffsetAndLongGroups) {
    // self [2, 4, 3] read through a permuted, offset view; out strided.
    expect_group_norm(TensorSpec({2, 4, 3}, ACL_FLOAT, {1, 6, 2}, 3, {30}), 2, true, true,
                      TensorSpec({2, 4, 3}, ACL_FLOAT, {24, 6, 2}, 1, {60}));
    expect_group_norm(TensorSpec({2, 4, 256, 256}, ACL_FLOAT), 2, true, true, TensorSpec({2, 4, 256, 256}, ACL_FLOAT));
}

// aclnn_group_norm.cpp: an empty self fills meanOut with 0 and rstdOut with
// NaN (FillScalar); N = 0 leaves nothing to fill.
TEST_F(GroupNorms, EmptySelfFillsMeanZeroAndRstdNaN) {
    for (const Shape& shape : {Shape{2, 4, 0}, Shape{2, 0, 3}}) {
        const int64_t c = shape[1];
        const int64_t group = c == 0 ? 3 : 2;
        DeviceTensor self(TensorSpec(shape, ACL_FLOAT));
        auto out = DeviceTensor::output(TensorSpec(shape, ACL_FLOAT));
        auto mean = DeviceTensor::output(TensorSpec({2, group}, ACL_FLOAT));
        auto rstd = DeviceTensor::output(TensorSpec({2, group}, ACL_FLOAT));
        ASSERT_EQ(group_norm(self, nullptr, nullptr, 2, c, shape[2], group, 1e-5, *out, *mean, *rstd), ACLNN_SUCCESS);
        expect_close(mean->read(), std::vector<double>(static_cast<size_t>(2 * group), 0), {0, 0});
        expect_close(rstd->read(), std::vector<double>(static_cast<size_t>(2 * group), kNaN), {0, 0});
    }
    DeviceTensor none(TensorSpec({0, 4, 3}, ACL_FLOAT));
    auto out = DeviceTensor::output(TensorSpec({0, 4, 3}, ACL_FLOAT));
    auto mean = DeviceTensor::output(TensorSpec({0, 2}, ACL_FLOAT));
    auto rstd = DeviceTensor::output(TensorSpec({0, 2}, ACL_FLOAT));
    EXPECT_EQ(group_norm(none, nullptr, nullptr, 0, 4, 3, 2, 1e-5, *out, *mean, *rstd), ACLNN_SUCCESS);
}

TEST_F(GroupNorms, ErrorPaths) {
    DeviceTensor self(TensorSpec({2, 4, 3}, ACL_FLOAT), uniform(24, -1, 1, 1));
    DeviceTensor gamma(TensorSpec({4}, ACL_FLOAT), uniform(4, -1, 1, 1));
    auto out = DeviceTensor::output(TensorSpec({2, 4, 3}, ACL_FLOAT));
    auto mean = DeviceTensor::output(TensorSpec({2, 2}, ACL_FLOAT));
    auto rstd = DeviceTensor::output(TensorSpec({2, 2}, ACL_FLOAT));
    // The arguments of a call: each refused one below is the valid call
    // (gamma and beta null) with one or a few of them changed.
    struct Args {
        const DeviceTensor* self;
        const DeviceTensor* gamma;
        const DeviceTensor* beta;
        int64_t n, c, hxw, group;
        double eps;
        const DeviceTensor* out;
        const DeviceTensor* mean;
        const DeviceTensor* rstd;
    };
    const Args valid{&self, nullptr, nullptr, 2, 4, 3, 2, 1e-5, out.get(), mean.get(), rstd.get()};
    const auto tensor = [](const DeviceTensor* t) -> const aclTensor* { return t != nullptr ? t->get() : nullptr; };
    const auto phase1 = [&](const Args& a) {
        return phase1_of(aclnnGroupNormGetWorkspaceSize, a.self->get(), tensor(a.gamma), tensor(a.beta), a.n, a.c,
                         a.hxw, a.group, a.eps, a.out->get(), a.mean->get(), a.rstd->get());
    };
    const auto refused = [&](const std::string& words, const auto& edit) {
        Args a = valid;
        edit(a);
        expect_error_naming(phase1(a), ACLNN_ERR_PARAM_INVALID, words);
    };
    Args withGamma = valid;
    withGamma.gamma = &gamma;
    EXPECT_EQ(phase1(withGamma), ACLNN_SUCCESS);
    for (int k = 0; k < 4; ++k) {
        const aclTensor* s = k == 0 ? nullptr : self.get();
        aclTensor* o = k == 1 ? nullptr : out->get();
        aclTensor* m = k == 2 ? nullptr : mean->get();
        aclTensor* r = k == 3 ? nullptr : rstd->get();
        expect_error(phase1_of(aclnnGroupNormGetWorkspaceSize, s, static_cast<const aclTensor*>(nullptr),
                               static_cast<const aclTensor*>(nullptr), int64_t{2}, int64_t{4}, int64_t{3}, int64_t{2},
                               1e-5, o, m, r),
                     ACLNN_ERR_PARAM_NULLPTR);
    }
    const DeviceTensor ints(TensorSpec({2, 4, 3}, ACL_INT32), uniform(24, -1, 1, 1));
    const DeviceTensor halfGamma(TensorSpec({4}, ACL_FLOAT16), uniform(4, -1, 1, 1));
    const auto halfOut = DeviceTensor::output(TensorSpec({2, 4, 3}, ACL_FLOAT16));
    const auto halfMean = DeviceTensor::output(TensorSpec({2, 2}, ACL_FLOAT16));
    refused("self", [&](Args& a) { a.self = &ints; });
    refused("gamma", [&](Args& a) { a.gamma = &halfGamma; });
    refused("beta", [&](Args& a) { a.beta = &halfGamma; });
    refused("out", [&](Args& a) { a.out = halfOut.get(); });
    refused("meanOut", [&](Args& a) { a.mean = halfMean.get(); });
    refused("rstdOut", [&](Args& a) { a.rstd = halfMean.get(); });
    refused("Expected group to be greater than 0, got 0.", [](Args& a) { a.group = 0; });
    refused("divisible by group, but got input of shape [2,4,3] and group=3.", [](Args& a) { a.group = 3; });
    refused("Expected eps to be greater than 0", [](Args& a) { a.eps = 0.0; });
    const DeviceTensor vector(TensorSpec({4}, ACL_FLOAT), uniform(4, -1, 1, 1));
    const auto vectorOut = DeviceTensor::output(TensorSpec({4}, ACL_FLOAT));
    refused("self", [&](Args& a) { a.self = &vector, a.n = 1, a.hxw = 1, a.out = vectorOut.get(); });
    const auto wrongOut = DeviceTensor::output(TensorSpec({2, 3, 4}, ACL_FLOAT));
    const auto wrongStat = DeviceTensor::output(TensorSpec({2, 2, 1}, ACL_FLOAT));
    refused("out", [&](Args& a) { a.out = wrongOut.get(); });
    refused("meanOut", [&](Args& a) { a.mean = wrongStat.get(); });
    refused("rstdOut", [&](Args& a) { a.rstd = wrongStat.get(); });
    const auto mean1 = DeviceTensor::output(TensorSpec({1, 2}, ACL_FLOAT));
    refused("self.shape[0] == N", [&](Args& a) { a.n = 1, a.mean = a.rstd = mean1.get(); });
    refused("self.shape[1] == C", [](Args& a) { a.c = 2; });
    refused("outside the N and C dimensions == HxW", [](Args& a) { a.hxw = 4; });
    const DeviceTensor longGamma(TensorSpec({5}, ACL_FLOAT), uniform(5, -1, 1, 1));
    refused("Expected gamma to be a vector of size equal to the number of channels",
            [&](Args& a) { a.gamma = &longGamma; });
    refused("Expected beta to be a vector", [&](Args& a) { a.beta = &longGamma; });
}

// CheckFormat: self and out of one format, and not NHWC, HWCN, NDHWC or a
// private one.
TEST_F(GroupNorms, FormatErrors) {
    const int64_t shape[] = {2, 4, 3};
    const int64_t strides[] = {12, 3, 1};
    DeviceBuffer buffer(24 * sizeof(float));
    const auto make = [&](aclFormat format) {
        return aclCreateTensor(shape, 3, ACL_FLOAT, strides, 0, format, shape, 3, buffer.get());
    };
    aclTensor* nd = make(ACL_FORMAT_ND);
    aclTensor* ncl = make(ACL_FORMAT_NCL);
    aclTensor* nhwc = make(ACL_FORMAT_NHWC);
    auto mean = DeviceTensor::output(TensorSpec({2, 2}, ACL_FLOAT));
    const auto phase1 = [&](aclTensor* self, aclTensor* out) {
        return phase1_of(aclnnGroupNormGetWorkspaceSize, static_cast<const aclTensor*>(self),
                         static_cast<const aclTensor*>(nullptr), static_cast<const aclTensor*>(nullptr), int64_t{2},
                         int64_t{4}, int64_t{3}, int64_t{2}, 1e-5, out, mean->get(), mean->get());
    };
    expect_error_naming(phase1(nd, ncl), ACLNN_ERR_PARAM_INVALID, "Format of self and out should be equal");
    expect_error_naming(phase1(nhwc, nhwc), ACLNN_ERR_PARAM_INVALID, "Format only support");
    EXPECT_EQ(phase1(ncl, ncl), ACLNN_SUCCESS);
    for (aclTensor* t : {nd, ncl, nhwc}) aclDestroyTensor(t);
}

TEST_F(GroupNorms, ManyBlocksBitwiseEqualForAnyWorkerCount) {
    expect_same_for_any_worker_count([&] {
        DeviceTensor self(TensorSpec({8, 32, 64, 64}, ACL_FLOAT16), uniform(8 * 32 * 64 * 64, -3, 3, 41));
        DeviceTensor gamma(TensorSpec({32}, ACL_FLOAT16), uniform(32, 0.5, 1.5, 42));
        auto out = DeviceTensor::output(TensorSpec({8, 32, 64, 64}, ACL_FLOAT16));
        auto mean = DeviceTensor::output(TensorSpec({8, 8}, ACL_FLOAT16));
        auto rstd = DeviceTensor::output(TensorSpec({8, 8}, ACL_FLOAT16));
        EXPECT_EQ(group_norm(self, gamma.get(), nullptr, 8, 32, 64 * 64, 8, 1e-5, *out, *mean, *rstd), ACLNN_SUCCESS);
        return std::vector<std::vector<double>>{out->read(), mean->read(), rstd->read()};
    });
}

// --- SoftmaxCrossEntropyWithLogits ---------------------------------------------

struct CrossEntropyReference {
    std::vector<double> loss;
    std::vector<double> backprop;
};

/// Per row: backprop = softmax(x) - labels, loss = -sum(labels * log_softmax(x)).
CrossEntropyReference cross_entropy_reference(const std::vector<double>& x, const std::vector<double>& labels,
                                              size_t length) {
    const size_t rows = x.size() / length;
    CrossEntropyReference ref{std::vector<double>(rows), std::vector<double>(x.size())};
    for (size_t r = 0; r < rows; ++r) {
        double max = -kInf;
        for (size_t j = 0; j < length; ++j) max = std::fmax(max, x[r * length + j]);
        double sum = 0;
        for (size_t j = 0; j < length; ++j) sum += std::exp(x[r * length + j] - max);
        double loss = 0;
        for (size_t j = 0; j < length; ++j) {
            const double logSoftmax = x[r * length + j] - max - std::log(sum);
            ref.backprop[r * length + j] = std::exp(logSoftmax) - labels[r * length + j];
            loss -= labels[r * length + j] * logSoftmax;
        }
        ref.loss[r] = loss;
    }
    return ref;
}

class CrossEntropies : public AclTest {
protected:
    aclnnStatus cross_entropy(const DeviceTensor& features, const DeviceTensor& labels, DeviceTensor& loss,
                              DeviceTensor& backprop) {
        return run_aclnn(stream_, aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize,
                         aclnnSoftmaxCrossEntropyWithLogits, features.get(), labels.get(), loss.get(), backprop.get());
    }

    void expect_cross_entropy(const TensorSpec& featuresSpec, const TensorSpec& labelsSpec, const TensorSpec& lossSpec,
                              const TensorSpec& backpropSpec, const std::vector<double>& x,
                              const std::vector<double>& y) {
        SCOPED_TRACE("dtype " + std::to_string(featuresSpec.dtype));
        DeviceTensor features(featuresSpec, x);
        DeviceTensor labels(labelsSpec, y);
        auto loss = DeviceTensor::output(lossSpec);
        auto backprop = DeviceTensor::output(backpropSpec);
        ASSERT_EQ(cross_entropy(features, labels, *loss, *backprop), ACLNN_SUCCESS);
        const CrossEntropyReference ref =
            cross_entropy_reference(features.read(), labels.read(), static_cast<size_t>(featuresSpec.shape[1]));
        const Tolerance tol = tolerance_for(featuresSpec.dtype);
        expect_close(backprop->read(), representable(ref.backprop, backpropSpec.dtype), {tol.rtol, tol.rtol});
        expect_close(loss->read(), representable(ref.loss, lossSpec.dtype), tol);
    }

    /// Rows of probabilities: one-hot-ish labels summing to 1 per row.
    static std::vector<double> labels_of(size_t rows, size_t length, uint32_t seed) {
        std::vector<double> labels = uniform(rows * length, 0, 1, seed);
        for (size_t r = 0; r < rows; ++r) {
            double sum = 0;
            for (size_t j = 0; j < length; ++j) sum += labels[r * length + j];
            for (size_t j = 0; j < length; ++j) labels[r * length + j] /= sum;
        }
        return labels;
    }
};

// aclnn_softmax_cross_entropy_with_logits.cpp on A2: features, labels,
// loss, backprop FLOAT16, FLOAT or BF16; loss and backprop features'.
TEST_F(CrossEntropies, EveryListedDtype) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        expect_cross_entropy(TensorSpec({5, 37}, dtype), TensorSpec({5, 37}, dtype), TensorSpec({5}, dtype),
                             TensorSpec({5, 37}, dtype), uniform(5 * 37, -6, 6, 3), labels_of(5, 37, 4));
    }
    // labels of another listed dtype: the op_api checks each against the list only.
    expect_cross_entropy(TensorSpec({3, 8}, ACL_FLOAT), TensorSpec({3, 8}, ACL_FLOAT16), TensorSpec({3}, ACL_FLOAT),
                         TensorSpec({3, 8}, ACL_FLOAT), uniform(24, -6, 6, 5), labels_of(3, 8, 6));
}

TEST_F(CrossEntropies, StridedOffsetAndLongRows) {
    expect_cross_entropy(TensorSpec({3, 5}, ACL_FLOAT, {1, 4}, 2, {30}), TensorSpec({3, 5}, ACL_FLOAT, {10, 2}, 1, {40}),
                         TensorSpec({3}, ACL_FLOAT, {2}, 1, {8}), TensorSpec({3, 5}, ACL_FLOAT, {6, 1}, 1, {20}),
                         uniform(15, -3, 3, 7), labels_of(3, 5, 8));
    expect_cross_entropy(TensorSpec({2, 100000}, ACL_FLOAT), TensorSpec({2, 100000}, ACL_FLOAT),
                         TensorSpec({2}, ACL_FLOAT), TensorSpec({2, 100000}, ACL_FLOAT), uniform(200000, -20, 20, 9),
                         labels_of(2, 100000, 10));
}

/// The first `count` floats of a device block.
std::vector<double> floats_of(const void* block, size_t count) {
    std::vector<float> host(count);
    EXPECT_EQ(aclrtMemcpy(host.data(), count * sizeof(float), block, count * sizeof(float),
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return std::vector<double>(host.begin(), host.end());
}

// CANN's own example (examples/test_aclnn_softmax_cross_entropy_with_logits.cpp)
// allocates loss and backprop from int16 host vectors: blocks of half their
// declared FLOAT storage, which it runs on Atlas A2 (the device's 512-byte
// granule holds the rest).  acl-cpu writes them too: views inside their
// storage may run past the block's usable bytes, not past its reservation
// (except under the memory checker, which reports the overrun).
TEST_F(CrossEntropies, OutputsInBlocksOfHalfTheirStorageAsCANNsExampleAllocates) {
    const TensorSpec spec({16, 4}, ACL_FLOAT);
    const std::vector<double> x = uniform(64, -3, 3, 11);
    const std::vector<double> y = labels_of(16, 4, 12);
    DeviceTensor features(spec, x);
    DeviceTensor labels(spec, y);
    DeviceBuffer lossBlock(16 * sizeof(int16_t));
    DeviceBuffer backpropBlock(64 * sizeof(int16_t));
    const int64_t rows[] = {16};
    const int64_t matrix[] = {16, 4};
    const int64_t rowStrides[] = {1};
    const int64_t matrixStrides[] = {4, 1};
    aclTensor* loss = aclCreateTensor(rows, 1, ACL_FLOAT, rowStrides, 0, ACL_FORMAT_ND, rows, 1, lossBlock.get());
    aclTensor* backprop =
        aclCreateTensor(matrix, 2, ACL_FLOAT, matrixStrides, 0, ACL_FORMAT_ND, matrix, 2, backpropBlock.get());
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(features.get(), labels.get(), loss, backprop,
                                                                 &workspaceSize, &executor),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    const aclnnStatus ran = run_phase2(aclnnSoftmaxCrossEntropyWithLogits, workspaceSize, executor, stream_);
    aclDestroyTensor(loss);
    aclDestroyTensor(backprop);
    if (aclcpu::memcheck_enabled()) {
        // The memory checker holds every access to a block's usable bytes:
        // it reports the overrun the device lets pass, and nothing runs.
        EXPECT_EQ(ran, ACL_ERROR_RT_AICORE_EXCEPTION);
        return;
    }
    ASSERT_EQ(ran, ACLNN_SUCCESS) << aclGetRecentErrMsg();
    const CrossEntropyReference ref = cross_entropy_reference(features.read(), labels.read(), 4);
    expect_close(floats_of(lossBlock.get(), 16), ref.loss, tolerance_for(ACL_FLOAT));
    // aclrtMemcpy reads the usable bytes only (128 plus 32): the first 40 of backprop's 64 floats.
    expect_close(floats_of(backpropBlock.get(), 40), std::vector<double>(ref.backprop.begin(), ref.backprop.begin() + 40),
                 tolerance_for(ACL_FLOAT));
}

// VfBackProp (op_kernel/arch35/softmax_cross_entropy_with_logits_full_load.h)
// multiplies labels by log(sum) - (x - max): a -inf logit with label 0 is
// 0 * inf, NaN in the loss; its backprop is 0 - 0.
TEST_F(CrossEntropies, MinusInfinityLogits) {
    const TensorSpec spec({2, 4}, ACL_FLOAT);
    DeviceTensor features(spec, {-kInf, 0, 1, 2, 0, 1, 2, 3});
    DeviceTensor labels(spec, {0, 0, 0, 1, 0.25, 0.25, 0.25, 0.25});
    auto loss = DeviceTensor::output(TensorSpec({2}, ACL_FLOAT));
    auto backprop = DeviceTensor::output(spec);
    ASSERT_EQ(cross_entropy(features, labels, *loss, *backprop), ACLNN_SUCCESS);
    const std::vector<double> l = loss->read();
    const std::vector<double> b = backprop->read();
    EXPECT_TRUE(std::isnan(l[0]));
    EXPECT_TRUE(std::isfinite(l[1]));
    EXPECT_EQ(b[0], 0.0);
    const CrossEntropyReference ref = cross_entropy_reference({0, 1, 2, 3}, {0.25, 0.25, 0.25, 0.25}, 4);
    expect_close({l[1]}, ref.loss, tolerance_for(ACL_FLOAT));
}

TEST_F(CrossEntropies, EmptyFeaturesOrLabelsWriteNothing) {
    DeviceTensor features(TensorSpec({2, 0}, ACL_FLOAT));
    auto loss = DeviceTensor::output(TensorSpec({2}, ACL_FLOAT));
    auto backprop = DeviceTensor::output(TensorSpec({2, 0}, ACL_FLOAT));
    ASSERT_EQ(cross_entropy(features, features, *loss, *backprop), ACLNN_SUCCESS);
    expect_close(loss->read(), {-7, -7}, {0, 0});
}

TEST_F(CrossEntropies, ErrorPaths) {
    DeviceTensor features(TensorSpec({2, 4}, ACL_FLOAT), uniform(8, -1, 1, 1));
    auto loss = DeviceTensor::output(TensorSpec({2}, ACL_FLOAT));
    auto backprop = DeviceTensor::output(TensorSpec({2, 4}, ACL_FLOAT));
    expect_each_null_is_161001_naming(aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize,
                                      {"features", "labels", "loss", "backprop"}, features.get(), features.get(),
                                      loss->get(), backprop->get());
    const auto phase1 = [](const DeviceTensor& f, const DeviceTensor& l, const DeviceTensor& lo, const DeviceTensor& b) {
        return phase1_of(aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize, f.get(), l.get(), lo.get(), b.get());
    };
    DeviceTensor doubles(TensorSpec({2, 4}, ACL_DOUBLE), uniform(8, -1, 1, 1));
    auto halfLoss = DeviceTensor::output(TensorSpec({2}, ACL_FLOAT16));
    auto halfBackprop = DeviceTensor::output(TensorSpec({2, 4}, ACL_FLOAT16));
    auto doubleLoss = DeviceTensor::output(TensorSpec({2}, ACL_DOUBLE));
    expect_error_naming(phase1(doubles, features, *loss, *backprop), ACLNN_ERR_PARAM_INVALID, "features");
    expect_error_naming(phase1(features, doubles, *loss, *backprop), ACLNN_ERR_PARAM_INVALID, "labels");
    expect_error_naming(phase1(features, features, *doubleLoss, *backprop), ACLNN_ERR_PARAM_INVALID, "loss");
    expect_error_naming(phase1(features, features, *halfLoss, *backprop), ACLNN_ERR_PARAM_INVALID, "loss");
    expect_error_naming(phase1(features, features, *loss, *halfBackprop), ACLNN_ERR_PARAM_INVALID, "backprop");
    DeviceTensor threeD(TensorSpec({1, 2, 4}, ACL_FLOAT), uniform(8, -1, 1, 1));
    expect_error_naming(phase1(threeD, features, *loss, *backprop), ACLNN_ERR_PARAM_INVALID,
                        "dimNum is 3, must be 2, but check failed.");
    expect_error_naming(phase1(features, threeD, *loss, *backprop), ACLNN_ERR_PARAM_INVALID,
                        "dimNum is 2, must be 2, but check failed.");
    DeviceTensor wide(TensorSpec({2, 5}, ACL_FLOAT), uniform(10, -1, 1, 1));
    auto wrongLoss = DeviceTensor::output(TensorSpec({3}, ACL_FLOAT));
    auto wideBackprop = DeviceTensor::output(TensorSpec({2, 5}, ACL_FLOAT));
    expect_error_naming(phase1(features, wide, *loss, *backprop), ACLNN_ERR_PARAM_INVALID, "labels");
    expect_error_naming(phase1(features, features, *loss, *wideBackprop), ACLNN_ERR_PARAM_INVALID, "backprop");
    expect_error_naming(phase1(features, features, *wrongLoss, *backprop), ACLNN_ERR_PARAM_INVALID, "loss");
}

TEST_F(CrossEntropies, ManyBlocksBitwiseEqualForAnyWorkerCount) {
    expect_same_for_any_worker_count([&] {
        DeviceTensor features(TensorSpec({512, 1024}, ACL_FLOAT), uniform(512 * 1024, -5, 5, 31));
        DeviceTensor labels(TensorSpec({512, 1024}, ACL_FLOAT), uniform(512 * 1024, 0, 0.01, 32));
        auto loss = DeviceTensor::output(TensorSpec({512}, ACL_FLOAT));
        auto backprop = DeviceTensor::output(TensorSpec({512, 1024}, ACL_FLOAT));
        EXPECT_EQ(cross_entropy(features, labels, *loss, *backprop), ACLNN_SUCCESS);
        return std::vector<std::vector<double>>{loss->read(), backprop->read()};
    });
}

}  // namespace
