// aclnnHardshrinkBackward: gradInput = |self| <= max(lambd, 0) ? 0 : gradOutput
// with gradOutput and self broadcast, against a double reference; dtypes and
// promotion, views, special values, every error path, determinism.
#include <cmath>
#include <vector>

#include "aclnnop/aclnn_hardshrink_backward.h"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

double hardshrink_grad(double dy, double x, double lambd) {
    return std::fabs(x) <= std::max(lambd, 0.0) ? 0.0 : dy;
}

class HardshrinkBackward : public AclTest {
protected:
    aclnnStatus run(const DeviceTensor& gradOutput, const DeviceTensor& self, float lambd, DeviceTensor& gradInput,
                    uint64_t* workspace = nullptr) {
        Scalar l(lambd);
        return run_two_phases(
            [&](uint64_t* workspaceSize, aclOpExecutor** executor) {
                return aclnnHardshrinkBackwardGetWorkspaceSize(gradOutput.get(), self.get(), l.get(), gradInput.get(),
                                                               workspaceSize, executor);
            },
            aclnnHardshrinkBackward, stream_, workspace);
    }

    void check(const TensorSpec& dySpec, const TensorSpec& xSpec, const TensorSpec& outSpec, float lambd,
               std::vector<double> dy, std::vector<double> x) {
        const auto launch = [&](const DeviceTensor& g, const DeviceTensor& s, DeviceTensor& out, uint64_t* ws) {
            return run(g, s, lambd, out, ws);
        };
        // The kernel selects gradOutput unchanged, so only the output cast rounds.
        const auto reference = [&](double g, double s) {
            return representable(hardshrink_grad(g, s, lambd), outSpec.dtype);
        };
        check_binary(launch, {dySpec, std::move(dy)}, {xSpec, std::move(x)}, outSpec, reference, {0, 0});
    }
};

/// Values in [-1, 1] with +-lambd itself present.
std::vector<double> with_edges(size_t n, double lambd, uint32_t seed) {
    std::vector<double> v = uniform(n, -1, 1, seed);
    if (n >= 2) {
        v[0] = lambd;
        v[1] = -lambd;
    }
    return v;
}

TEST_F(HardshrinkBackward, EveryDtype) {
    const Shape shape{5, 13};
    const auto n = static_cast<size_t>(numel(shape));
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        SCOPED_TRACE(dtype);
        check({shape, dtype}, {shape, dtype}, {shape, dtype}, 0.5f, uniform(n, -3, 3, 1), with_edges(n, 0.5, 2));
    }
}

TEST_F(HardshrinkBackward, PromotesInputsAndCastsToGradInput) {
    const Shape shape{3, 7};
    const auto n = static_cast<size_t>(numel(shape));
    check({shape, ACL_FLOAT}, {shape, ACL_FLOAT16}, {shape, ACL_FLOAT16}, 0.25f, uniform(n, -3, 3, 3),
          with_edges(n, 0.25, 4));
    check({shape, ACL_BF16}, {shape, ACL_FLOAT16}, {shape, ACL_FLOAT}, 0.25f, uniform(n, -3, 3, 5),
          with_edges(n, 0.25, 6));
    check({shape, ACL_FLOAT16}, {shape, ACL_FLOAT}, {shape, ACL_BF16}, 0.25f, uniform(n, -3, 3, 7),
          with_edges(n, 0.25, 8));
}

TEST_F(HardshrinkBackward, BroadcastsGradOutputAndSelf) {
    check({{3, 1, 5}, ACL_FLOAT}, {{4, 1}, ACL_FLOAT}, {{3, 4, 5}, ACL_FLOAT}, 0.5f, uniform(15, -3, 3, 9),
          uniform(4, -1, 1, 10));
    check({{5}, ACL_FLOAT16}, {{2, 3, 5}, ACL_FLOAT16}, {{2, 3, 5}, ACL_FLOAT16}, 0.5f, uniform(5, -3, 3, 11),
          uniform(30, -1, 1, 12));
    check({{}, ACL_FLOAT}, {{2, 2}, ACL_BF16}, {{2, 2}, ACL_FLOAT}, 0.5f, {1.5}, {0.1, -0.7, 0.5, 2});
}

TEST_F(HardshrinkBackward, ZeroDimAndEightDim) {
    check({{}, ACL_FLOAT}, {{}, ACL_FLOAT}, {{}, ACL_FLOAT}, 0.5f, {2.5}, {0.75});
    const Shape shape{2, 1, 3, 1, 2, 2, 1, 3};
    const auto n = static_cast<size_t>(numel(shape));
    check({shape, ACL_FLOAT}, {{1, 2, 1, 1, 3}, ACL_FLOAT}, {shape, ACL_FLOAT}, 0.5f, uniform(n, -3, 3, 13),
          uniform(6, -1, 1, 14));
}

TEST_F(HardshrinkBackward, EmptyInputSucceedsBeforeTheBroadcastCheck) {
    // CANN's unit test: gradOutput {0} with self {1,1,1,4} is accepted.
    DeviceTensor gradOutput({{0}, ACL_FLOAT}, {});
    DeviceTensor self({{1, 1, 1, 4}, ACL_FLOAT}, {1, 2, 3, 4});
    auto gradInput = DeviceTensor::output({{1, 1, 1, 4}, ACL_FLOAT});
    uint64_t workspace = 1;
    EXPECT_EQ(run(gradOutput, self, 0.5f, *gradInput, &workspace), ACLNN_SUCCESS);
    EXPECT_EQ(workspace, 0u);
    EXPECT_EQ(gradInput->read(), std::vector<double>(4, -7.0));  // untouched
}

TEST_F(HardshrinkBackward, StridedViewsWithOffsets) {
    const Shape shape{4, 6};
    const auto n = static_cast<size_t>(numel(shape));
    check({shape, ACL_FLOAT, {1, 4}, 0}, {shape, ACL_FLOAT, {12, 2}, 5}, {shape, ACL_FLOAT, {1, 5}, 3}, 0.5f,
          uniform(n, -3, 3, 15), with_edges(n, 0.5, 16));
    // A strided self broadcast along rows, into a strided output.
    check({shape, ACL_FLOAT16, {7, 1}, 2}, {{6}, ACL_FLOAT16, {3}, 1}, {shape, ACL_FLOAT16, {8, 1}, 1}, 0.5f,
          uniform(n, -3, 3, 17), with_edges(6, 0.5, 18));
}

TEST_F(HardshrinkBackward, SpecialValues) {
    const double inf = HUGE_VAL;
    const double nan = std::nan("");
    const std::vector<double> x{nan, inf, -inf, 0.0, 1e-30, -0.0, 0.5, 0.5000001};
    const std::vector<double> dy{1, 2, 3, 4, 5, 6, 7, 8};
    // NaN self passes gradOutput (NaN <= lambd is false); a negative lambd acts as 0.
    check({{8}, ACL_FLOAT}, {{8}, ACL_FLOAT}, {{8}, ACL_FLOAT}, -3.0f, dy, x);
    check({{8}, ACL_FLOAT}, {{8}, ACL_FLOAT}, {{8}, ACL_FLOAT}, 0.5f, dy, x);
    DeviceTensor gradOutput({{8}, ACL_FLOAT}, dy);
    DeviceTensor self({{8}, ACL_FLOAT}, x);
    auto gradInput = DeviceTensor::output({{8}, ACL_FLOAT});
    ASSERT_EQ(run(gradOutput, self, std::nanf(""), *gradInput), ACLNN_SUCCESS);  // nothing <= NaN
    EXPECT_EQ(gradInput->read(), dy);
    ASSERT_EQ(run(gradOutput, self, INFINITY, *gradInput), ACLNN_SUCCESS);  // only NaN exceeds Inf
    EXPECT_EQ(gradInput->read(), (std::vector<double>{1, 0, 0, 0, 0, 0, 0, 0}));
}

TEST_F(HardshrinkBackward, ErrorsCarryCannCodesAndMessages) {
    const TensorSpec f32({2, 3}, ACL_FLOAT);
    const DeviceTensor dy(f32), x(f32);
    auto out = DeviceTensor::output(f32);
    const Scalar lambd(0.5f);
    expect_each_null_is_161001(aclnnHardshrinkBackwardGetWorkspaceSize, dy.get(), x.get(), lambd.get(), out->get());
    const TensorSpec doubles({2, 3}, ACL_DOUBLE), rank9({1, 1, 1, 1, 1, 1, 1, 2, 3}, ACL_FLOAT);
    const TensorSpec row({1, 3}, ACL_FLOAT);
    expect_each_triple_refused(
        [&](const aclTensor* g, const aclTensor* s, aclTensor* o) {
            return phase1_of(aclnnHardshrinkBackwardGetWorkspaceSize, g, s, lambd.get(), o);
        },
        {{"CANN's case_dtype_double", doubles, f32, f32},
         {"self INT32", f32, {{2, 3}, ACL_INT32}, f32},
         {"gradInput DOUBLE", f32, f32, doubles},
         {"gradOutput of rank 9", rank9, f32, f32},
         {"gradInput of rank 9", f32, f32, rank9},
         {"CANN's unit test: not broadcastable", {{1, 1, 4, 4}, ACL_FLOAT}, {{1, 1, 1, 3}, ACL_FLOAT},
          {{1, 1, 4, 4}, ACL_FLOAT}},
         {"gradInput is not the broadcast shape", f32, row, row},
         {"view reaches past its storage and device block", {{2, 3}, ACL_FLOAT, {4, 1}, 32, {6}}, f32, f32}});
}

TEST_F(HardshrinkBackward, ManyBlocksAndDeterministicAcrossWorkerCounts) {
    const Shape outShape{997, 1009};
    const Shape selfShape{1009};
    const auto n = static_cast<size_t>(numel(outShape));
    const std::vector<double> dy = representable(uniform(n, -3, 3, 20), ACL_BF16);
    const std::vector<double> x = uniform(1009, -1, 1, 21);
    std::vector<std::vector<uint8_t>> results;
    for (int threads : {1, 2, 8}) {
        restart_with_worker_threads(threads);
        DeviceTensor gradOutput({outShape, ACL_BF16, {1, 997}}, dy);  // column-major
        DeviceTensor self({selfShape, ACL_FLOAT}, x);
        auto gradInput = DeviceTensor::output({outShape, ACL_FLOAT});
        ASSERT_EQ(run(gradOutput, self, 0.3f, *gradInput), ACLNN_SUCCESS);
        results.push_back(gradInput->bytes());
        if (threads == 1) {
            std::vector<double> expected(n);
            for (size_t i = 0; i < n; ++i) expected[i] = hardshrink_grad(dy[i], representable(x[i % 1009], ACL_FLOAT), 0.3);
            expect_close(gradInput->read(), expected, {0, 0});
        }
    }
    EXPECT_EQ(results[0], results[1]);
    EXPECT_EQ(results[0], results[2]);
}

}  // namespace
