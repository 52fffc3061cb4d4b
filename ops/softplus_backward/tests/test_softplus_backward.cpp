// aclnnSoftplusBackward: numbers against a double-precision reference of
// gradInput = beta*self > threshold ? gradOutput : gradOutput / (1 + exp(-beta*self)),
// every dtype, views, special values, every error path, determinism.
#include <cmath>
#include <vector>

#include "aclnnop/aclnn_softplus_backward.h"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

double softplus_grad(double dy, double x, double beta, double threshold) {
    const double t = beta * x;
    return t > threshold ? dy : dy / (1.0 + std::exp(-t));
}

/// Keeps beta*x away from threshold, where fp32 and double may compare differently.
std::vector<double> off_threshold(std::vector<double> x, double beta, double threshold) {
    for (double& v : x) {
        if (std::fabs(beta * v - threshold) < 1e-3) v += 0.01;
    }
    return x;
}

class SoftplusBackward : public AclTest {
protected:
    /// Runs the operator; returns phase 1's status (phase 2 must then succeed).
    aclnnStatus run(const DeviceTensor& gradOutput, const DeviceTensor& self, float beta, float threshold,
                    DeviceTensor& gradInput, uint64_t* workspace = nullptr) {
        Scalar b(beta);
        Scalar t(threshold);
        return run_two_phases(
            [&](uint64_t* workspaceSize, aclOpExecutor** executor) {
                return aclnnSoftplusBackwardGetWorkspaceSize(gradOutput.get(), self.get(), b.get(), t.get(),
                                                             gradInput.get(), workspaceSize, executor);
            },
            aclnnSoftplusBackward, stream_, workspace);
    }

    /// Runs on values of one shape and checks against the reference at out's dtype.
    void check(const TensorSpec& dySpec, const TensorSpec& xSpec, const TensorSpec& outSpec, float beta,
               float threshold, std::vector<double> dy, std::vector<double> x, Tolerance tol) {
        dy = representable(dy, dySpec.dtype);
        x = representable(off_threshold(x, beta, threshold), xSpec.dtype);
        DeviceTensor gradOutput(dySpec, dy);
        DeviceTensor self(xSpec, x);
        auto gradInput = DeviceTensor::output(outSpec);
        uint64_t workspace = 1;
        ASSERT_EQ(run(gradOutput, self, beta, threshold, *gradInput, &workspace), ACLNN_SUCCESS);
        EXPECT_EQ(workspace, 0u);
        std::vector<double> expected;
        for (size_t i = 0; i < x.size(); ++i) expected.push_back(softplus_grad(dy[i], x[i], beta, threshold));
        expect_close(gradInput->read(), expected, tol);
        EXPECT_EQ(gradInput->bytes_changed_outside_view(), 0u);
    }
};

TEST_F(SoftplusBackward, EveryGradDtype) {
    const Shape shape{3, 5, 7};
    const auto n = static_cast<size_t>(numel(shape));
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}) {
        SCOPED_TRACE(dtype);
        check({shape, dtype}, {shape, dtype}, {shape, dtype}, 1.5f, 4.0f, uniform(n, -2, 2, 1), uniform(n, -6, 6, 2),
              tolerance_for(dtype));
    }
}

TEST_F(SoftplusBackward, IntegerAndBoolSelfComputedAtFloat) {
    const Shape shape{4, 6};
    const auto n = static_cast<size_t>(numel(shape));
    std::vector<double> integers(n);
    for (size_t i = 0; i < n; ++i) integers[i] = static_cast<double>(static_cast<int>(i % 11) - 5);
    std::vector<double> naturals(n);
    for (size_t i = 0; i < n; ++i) naturals[i] = static_cast<double>(i % 11);
    std::vector<double> bits(n);
    for (size_t i = 0; i < n; ++i) bits[i] = static_cast<double>(i % 2);
    for (aclDataType dtype : {ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64}) {
        SCOPED_TRACE(dtype);
        check({shape, ACL_FLOAT}, {shape, dtype}, {shape, ACL_FLOAT}, 0.75f, 3.0f, uniform(n, -2, 2, 3), integers,
              tolerance_for(ACL_FLOAT));
    }
    check({shape, ACL_FLOAT16}, {shape, ACL_UINT8}, {shape, ACL_FLOAT16}, 0.75f, 3.0f, uniform(n, -2, 2, 4), naturals,
          tolerance_for(ACL_FLOAT16));
    check({shape, ACL_BF16}, {shape, ACL_BOOL}, {shape, ACL_DOUBLE}, 2.0f, 20.0f, uniform(n, -2, 2, 5), bits,
          tolerance_for(ACL_BF16));
}

TEST_F(SoftplusBackward, MixedDtypesComputedAtFloat) {
    const Shape shape{2, 33};
    const auto n = static_cast<size_t>(numel(shape));
    check({shape, ACL_FLOAT16}, {shape, ACL_FLOAT}, {shape, ACL_BF16}, 1.0f, 20.0f, uniform(n, -3, 3, 6),
          uniform(n, -8, 8, 7), tolerance_for(ACL_BF16));
    check({shape, ACL_DOUBLE}, {shape, ACL_DOUBLE}, {shape, ACL_FLOAT}, 1.0f, 20.0f, uniform(n, -3, 3, 8),
          uniform(n, -8, 8, 9), tolerance_for(ACL_FLOAT));
}

TEST_F(SoftplusBackward, HalfInputsRoundToHalfBeforeAWiderOutput) {
    // Equal FLOAT16 inputs run the kernel in FLOAT16; the FLOAT output is a cast of that.
    const Shape shape{64};
    const auto n = static_cast<size_t>(numel(shape));
    const std::vector<double> dy = representable(uniform(n, -2, 2, 10), ACL_FLOAT16);
    const std::vector<double> x = representable(uniform(n, -5, 5, 11), ACL_FLOAT16);
    DeviceTensor gradOutput({shape, ACL_FLOAT16}, dy);
    DeviceTensor self({shape, ACL_FLOAT16}, x);
    auto gradInput = DeviceTensor::output({shape, ACL_FLOAT});
    ASSERT_EQ(run(gradOutput, self, 1.0f, 20.0f, *gradInput), ACLNN_SUCCESS);
    const std::vector<double> got = gradInput->read();
    for (size_t i = 0; i < n; ++i) {
        EXPECT_EQ(got[i], representable(got[i], ACL_FLOAT16)) << "element " << i << " is not an fp16 value";
        EXPECT_TRUE(close(got[i], softplus_grad(dy[i], x[i], 1.0, 20.0), tolerance_for(ACL_FLOAT16))) << i;
    }
}

TEST_F(SoftplusBackward, ZeroDimAndEightDim) {
    check({{}, ACL_FLOAT}, {{}, ACL_FLOAT}, {{}, ACL_FLOAT}, 1.0f, 20.0f, {0.5}, {1.25}, tolerance_for(ACL_FLOAT));
    const Shape shape{2, 1, 2, 3, 1, 2, 2, 3};
    const auto n = static_cast<size_t>(numel(shape));
    check({shape, ACL_FLOAT16}, {shape, ACL_FLOAT16}, {shape, ACL_FLOAT16}, 1.0f, 2.0f, uniform(n, -1, 1, 12),
          uniform(n, -4, 4, 13), tolerance_for(ACL_FLOAT16));
}

TEST_F(SoftplusBackward, EmptyTensorNeedsNoWorkspaceAndRuns) {
    const Shape shape{2, 0, 3};
    DeviceTensor gradOutput({shape, ACL_FLOAT}, {});
    DeviceTensor self({shape, ACL_FLOAT}, {});
    auto gradInput = DeviceTensor::output({shape, ACL_FLOAT});
    uint64_t workspace = 1;
    EXPECT_EQ(run(gradOutput, self, 1.0f, 20.0f, *gradInput, &workspace), ACLNN_SUCCESS);
    EXPECT_EQ(workspace, 0u);
    EXPECT_EQ(gradInput->bytes_changed_outside_view(), 0u);
}

TEST_F(SoftplusBackward, StridedViewsWithOffsets) {
    const Shape shape{4, 6};
    const auto n = static_cast<size_t>(numel(shape));
    // gradOutput transposed, self every other element from offset 5, gradInput rows of 10 from offset 3.
    check({shape, ACL_FLOAT, {1, 4}, 0, {6, 4}}, {shape, ACL_FLOAT, {12, 2}, 5}, {shape, ACL_FLOAT, {10, 1}, 3},
          1.0f, 20.0f, uniform(n, -2, 2, 14), uniform(n, -5, 5, 15), tolerance_for(ACL_FLOAT));
    check({shape, ACL_BF16, {1, 4}, 0}, {shape, ACL_BF16, {12, 2}, 5}, {shape, ACL_FLOAT16, {1, 5}, 2}, 1.0f, 20.0f,
          uniform(n, -2, 2, 16), uniform(n, -5, 5, 17), tolerance_for(ACL_BF16));
    check({shape, ACL_DOUBLE}, {shape, ACL_INT32, {1, 4}, 1}, {shape, ACL_FLOAT, {2, 9}, 1}, 0.5f, 20.0f,
          uniform(n, -2, 2, 18), std::vector<double>(n, 3.0), tolerance_for(ACL_FLOAT));
}

TEST_F(SoftplusBackward, Fp32StaysWithinFourUlpAcrossTheWholeRangeOfExp) {
    // A sweep of beta * self over every value where 1 + exp(-t) is neither
    // 1 nor +Inf in fp32, and past both ends: the kernel's own exp must stay
    // as close as the fp32 formula allows (a few ulp), far inside the 1e-5
    // of the other tests.
    const size_t n = size_t{1} << 18;
    std::vector<double> x(n);
    for (size_t i = 0; i < n; ++i) x[i] = -100.0 + 200.0 * static_cast<double>(i) / static_cast<double>(n - 1);
    const Shape shape{static_cast<int64_t>(n)};
    check({shape, ACL_FLOAT}, {shape, ACL_FLOAT}, {shape, ACL_FLOAT}, 1.0f, 1000.0f, std::vector<double>(n, 1.0), x,
          Tolerance{4.0 / (1 << 24), 1e-37});
}

TEST_F(SoftplusBackward, SpecialValues) {
    const double inf = HUGE_VAL;
    const double nan = std::nan("");
    // beta = 1, threshold = 2: t == threshold still takes the exp path; NaN self flows through exp.
    const std::vector<double> x{2.0, 2.5, nan, inf, -inf, 0.0, -100.0, 100.0};
    const std::vector<double> dy{1.0, 3.0, 1.0, 2.0, 2.0, inf, 1.0, nan};
    DeviceTensor gradOutput({{8}, ACL_FLOAT}, dy);
    DeviceTensor self({{8}, ACL_FLOAT}, x);
    auto gradInput = DeviceTensor::output({{8}, ACL_FLOAT});
    ASSERT_EQ(run(gradOutput, self, 1.0f, 2.0f, *gradInput), ACLNN_SUCCESS);
    std::vector<double> expected;
    for (size_t i = 0; i < x.size(); ++i) expected.push_back(softplus_grad(dy[i], x[i], 1.0, 2.0));
    EXPECT_NEAR(expected[0], 1.0 / (1.0 + std::exp(-2.0)), 1e-12);
    expect_close(gradInput->read(), expected, tolerance_for(ACL_FLOAT));

    // NaN beta makes every t NaN; NaN threshold sends every element through exp.
    const std::vector<double> ones(8, 1.0);
    DeviceTensor plain({{8}, ACL_FLOAT}, {-1, 0, 1, 2, 3, 30, 50, 100});
    ASSERT_EQ(run(gradOutput, plain, std::nanf(""), 2.0f, *gradInput), ACLNN_SUCCESS);
    for (double v : gradInput->read()) EXPECT_TRUE(std::isnan(v));
    DeviceTensor ones8({{8}, ACL_FLOAT}, ones);
    ASSERT_EQ(run(ones8, plain, 1.0f, std::nanf(""), *gradInput), ACLNN_SUCCESS);
    const std::vector<double> got = gradInput->read();
    const std::vector<double> xs{-1, 0, 1, 2, 3, 30, 50, 100};
    for (size_t i = 0; i < xs.size(); ++i) EXPECT_NEAR(got[i], 1.0 / (1.0 + std::exp(-xs[i])), 1e-6) << i;
}

TEST_F(SoftplusBackward, ErrorsCarryCannCodesAndMessages) {
    const TensorSpec f32({2, 3}, ACL_FLOAT);
    const DeviceTensor dy(f32), x(f32);
    auto out = DeviceTensor::output(f32);
    const Scalar beta(1.0f), threshold(20.0f);
    expect_each_null_is_161001(aclnnSoftplusBackwardGetWorkspaceSize, dy.get(), x.get(), beta.get(), threshold.get(),
                               out->get());
    const TensorSpec int32({2, 3}, ACL_INT32), rank9({1, 1, 1, 1, 1, 1, 1, 2, 3}, ACL_FLOAT);
    const TensorSpec other({3, 2}, ACL_FLOAT);
    expect_each_triple_refused(
        [&](const aclTensor* g, const aclTensor* s, aclTensor* o) {
            return phase1_of(aclnnSoftplusBackwardGetWorkspaceSize, g, s, beta.get(), threshold.get(), o);
        },
        {{"gradOutput dtype", int32, f32, f32},
         {"self dtype", f32, {{2, 3}, ACL_UINT16}, f32},
         {"gradInput dtype", f32, f32, int32},
         {"rank 9", rank9, rank9, rank9},
         {"self vs gradOutput shape", f32, other, f32},
         {"self vs gradInput shape", f32, f32, other},
         {"no broadcast in this aclnn", f32, {{1, 3}, ACL_FLOAT}, f32},
         {"view reaches past its storage and device block", f32, f32, {{2, 3}, ACL_FLOAT, {3, 1}, 32, {6}}}});
}

TEST_F(SoftplusBackward, ManyBlocksAndDeterministicAcrossWorkerCounts) {
    // Enough elements for every block and several UB chunks, through a strided self.
    const Shape shape{1001, 1003};
    const auto n = static_cast<size_t>(numel(shape));
    const std::vector<double> dy = uniform(n, -2, 2, 20);
    const std::vector<double> x = representable(off_threshold(uniform(n, -8, 8, 21), 1.0, 5.0), ACL_FLOAT);
    std::vector<std::vector<uint8_t>> results;
    for (int threads : {1, 2, 8}) {
        restart_with_worker_threads(threads);
        DeviceTensor gradOutput({shape, ACL_FLOAT}, dy);
        DeviceTensor self({shape, ACL_FLOAT, {1, 1001}}, x);  // column-major
        auto gradInput = DeviceTensor::output({shape, ACL_FLOAT16});
        ASSERT_EQ(run(gradOutput, self, 1.0f, 5.0f, *gradInput), ACLNN_SUCCESS);
        results.push_back(gradInput->bytes());
        if (threads == 1) {
            std::vector<double> expected(n);
            for (size_t i = 0; i < n; ++i) expected[i] = softplus_grad(dy[i], x[i], 1.0, 5.0);
            expect_close(gradInput->read(), expected, tolerance_for(ACL_FLOAT16));
        }
    }
    EXPECT_EQ(results[0], results[1]);
    EXPECT_EQ(results[0], results[2]);
}

}  // namespace
