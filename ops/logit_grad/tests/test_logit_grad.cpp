// aclnnLogitGrad: out = dy / (x(1-x)) inside [lo, 1-lo] (lo = eps >= 0 ? eps : 0,
// eps held as a float), else 0 (eps >= 0) or NaN, against a double reference;
// dtypes, views, the kernel's special values, the 16 MiB workspace, every
// error path, determinism.
#include <cmath>
#include <vector>

#include "aclnnop/aclnn_logit_grad.h"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

constexpr uint64_t kWorkspace = 16u * 1024u * 1024u;

double logit_grad(double x, double dy, double eps) {
    const float e = static_cast<float>(eps);  // the tiling stores eps as a float
    const bool bounded = e >= 0;
    const float lo = bounded ? e : 0.0f;
    const float hi = 1.0f - lo;  // the kernel's bound, rounded to float
    if (x >= lo && x <= hi) return dy / (x * (1.0 - x));
    return bounded ? 0.0 : std::nan("");
}

class LogitGrad : public AclTest {
protected:
    aclnnStatus run(const DeviceTensor& x, const DeviceTensor& dy, double eps, DeviceTensor& out,
                    uint64_t* workspace = nullptr) {
        return run_two_phases(
            [&](uint64_t* workspaceSize, aclOpExecutor** executor) {
                return aclnnLogitGradGetWorkspaceSize(x.get(), dy.get(), eps, out.get(), workspaceSize, executor);
            },
            aclnnLogitGrad, stream_, workspace);
    }

    void check(const TensorSpec& xSpec, const TensorSpec& dySpec, const TensorSpec& outSpec, double eps,
               std::vector<double> x, std::vector<double> dy) {
        const auto launch = [&](const DeviceTensor& xt, const DeviceTensor& dyt, DeviceTensor& out, uint64_t* ws) {
            return run(xt, dyt, eps, out, ws);
        };
        const auto reference = [&](double xi, double dyi) { return logit_grad(xi, dyi, eps); };
        check_binary(launch, {xSpec, std::move(x)}, {dySpec, std::move(dy)}, outSpec, reference,
                     tolerance_for(outSpec.dtype), kWorkspace);
    }
};

TEST_F(LogitGrad, EveryDtypeAndBothEpsModes) {
    const Shape shape{6, 11};
    const auto n = static_cast<size_t>(numel(shape));
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        SCOPED_TRACE(dtype);
        for (double eps : {-1.0, 0.0, 0.2}) {
            check({shape, dtype}, {shape, dtype}, {shape, dtype}, eps, uniform(n, 0.01, 0.99, 1),
                  uniform(n, -2, 2, 2));
        }
    }
}

TEST_F(LogitGrad, DocSample) {
    check({{1, 4}, ACL_FLOAT}, {{1, 4}, ACL_FLOAT}, {{1, 4}, ACL_FLOAT}, -1.0, {0.1, 0.2, 0.3, 0.4}, {1, 2, 3, 4});
}

TEST_F(LogitGrad, ZeroDimEightDimAndEmpty) {
    check({{}, ACL_FLOAT}, {{}, ACL_FLOAT}, {{}, ACL_FLOAT}, -1.0, {0.25}, {3.0});
    const Shape shape{2, 1, 3, 2, 1, 2, 3, 2};
    const auto n = static_cast<size_t>(numel(shape));
    check({shape, ACL_BF16}, {shape, ACL_BF16}, {shape, ACL_BF16}, 0.1, uniform(n, 0, 1, 3), uniform(n, -1, 1, 4));

    DeviceTensor x({{3, 0}, ACL_FLOAT}, {});
    DeviceTensor dy({{3, 0}, ACL_FLOAT}, {});
    auto out = DeviceTensor::output({{3, 0}, ACL_FLOAT});
    uint64_t workspace = 1;
    EXPECT_EQ(run(x, dy, -1.0, *out, &workspace), ACLNN_SUCCESS);
    EXPECT_EQ(workspace, 0u);
}

TEST_F(LogitGrad, StridedViewsWithOffsets) {
    const Shape shape{5, 4};
    const auto n = static_cast<size_t>(numel(shape));
    check({shape, ACL_FLOAT, {1, 5}, 0}, {shape, ACL_FLOAT, {9, 2}, 4}, {shape, ACL_FLOAT, {1, 7}, 2}, -1.0,
          uniform(n, 0.05, 0.95, 5), uniform(n, -1, 1, 6));
    check({shape, ACL_FLOAT16, {4, 1}, 3}, {shape, ACL_FLOAT16, {1, 6}, 0}, {shape, ACL_FLOAT16, {6, 1}, 1}, 0.3,
          uniform(n, 0, 1, 7), uniform(n, -1, 1, 8));
}

TEST_F(LogitGrad, KernelSpecialValues) {
    const double inf = HUGE_VAL;
    const double nan = std::nan("");
    const std::vector<double> x{nan, -0.5, 1.5, 0.0, 1.0, 0.0, 0.5, inf, -inf, 0.1f};
    const std::vector<double> dy{1, 1, 1, 2, -2, 0, inf, 1, 1, 1};
    // eps < 0: outside [0, 1] (and NaN x) -> NaN; x = 0 or 1 -> +-Inf, or NaN for dy = 0.
    check({{10}, ACL_FLOAT}, {{10}, ACL_FLOAT}, {{10}, ACL_FLOAT}, -1.0, x, dy);
    // eps >= 0: NaN x -> 0 (the doc says NaN; the kernel selects 0).
    check({{10}, ACL_FLOAT}, {{10}, ACL_FLOAT}, {{10}, ACL_FLOAT}, 0.0, x, dy);
    // eps held as a float: x = 0.1f is inside [0.1, 0.9] because eps rounds to 0.1f too.
    check({{10}, ACL_FLOAT}, {{10}, ACL_FLOAT}, {{10}, ACL_FLOAT}, 0.1, x, dy);

    DeviceTensor xt({{10}, ACL_FLOAT}, x);
    DeviceTensor dyt({{10}, ACL_FLOAT}, dy);
    auto out = DeviceTensor::output({{10}, ACL_FLOAT});
    // eps > 1 and eps = Inf: an empty range, so every element is 0.
    for (double eps : {1.5, inf}) {
        ASSERT_EQ(run(xt, dyt, eps, *out), ACLNN_SUCCESS);
        EXPECT_EQ(out->read(), std::vector<double>(10, 0.0)) << eps;
    }
    // eps = NaN acts as a negative eps.
    ASSERT_EQ(run(xt, dyt, nan, *out), ACLNN_SUCCESS);
    expect_close(out->read(), [&] {
        std::vector<double> e;
        for (size_t i = 0; i < x.size(); ++i) e.push_back(logit_grad(x[i], dy[i], -1.0));
        return e;
    }(), tolerance_for(ACL_FLOAT));
}

TEST_F(LogitGrad, KernelStagesInTheWorkspace) {
    // Dense operands stream straight through registers; a strided x is
    // staged, and its staging must live in the workspace.
    const Shape shape{3000};
    DeviceTensor x({shape, ACL_FLOAT, {2}}, uniform(3000, 0.1, 0.9, 9));
    DeviceTensor dy({shape, ACL_FLOAT}, uniform(3000, -1, 1, 10));
    auto out = DeviceTensor::output({shape, ACL_FLOAT});
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnLogitGradGetWorkspaceSize(x.get(), dy.get(), -1.0, out->get(), &workspaceSize, &executor),
              ACLNN_SUCCESS);
    ASSERT_EQ(workspaceSize, kWorkspace);
    DeviceBuffer workspace(workspaceSize);
    const std::vector<uint8_t> zeros(workspaceSize, 0);
    workspace.upload(zeros);
    ASSERT_EQ(aclnnLogitGrad(workspace.get(), workspaceSize, executor, stream_), ACLNN_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_NE(workspace.download(), zeros);

    // A workspace smaller than phase 1 asked for is refused before anything runs.
    auto fresh = DeviceTensor::output({shape, ACL_FLOAT});
    ASSERT_EQ(aclnnLogitGradGetWorkspaceSize(x.get(), dy.get(), -1.0, fresh->get(), &workspaceSize, &executor),
              ACLNN_SUCCESS);
    EXPECT_EQ(aclnnLogitGrad(workspace.get(), 1024, executor, stream_), ACLNN_ERR_PARAM_INVALID);
    EXPECT_TRUE(has_error_message());
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(fresh->read(), std::vector<double>(3000, -7.0));
}

TEST_F(LogitGrad, ErrorsCarryCannCodesAndMessages) {
    const TensorSpec f32({2, 3}, ACL_FLOAT);
    const DeviceTensor x(f32, std::vector<double>(6, 0.5)), dy(f32, std::vector<double>(6, 1.0));
    auto out = DeviceTensor::output(f32);
    expect_each_null_is_161001(aclnnLogitGradGetWorkspaceSize, x.get(), dy.get(), -1.0, out->get());
    const TensorSpec doubles({2, 3}, ACL_DOUBLE), halves({2, 3}, ACL_FLOAT16), other({3, 2}, ACL_FLOAT);
    const TensorSpec rank9({1, 1, 1, 1, 1, 1, 1, 2, 3}, ACL_FLOAT);
    expect_each_triple_refused(
        [](const aclTensor* a, const aclTensor* b, aclTensor* o) {
            return phase1_of(aclnnLogitGradGetWorkspaceSize, a, b, -1.0, o);
        },
        {{"x DOUBLE", doubles, f32, f32},
         {"out DOUBLE", f32, f32, doubles},
         {"dtypes differ", f32, halves, f32},
         {"out's dtype differs", f32, f32, halves},
         {"shapes differ", f32, other, f32},
         {"out's shape differs", f32, f32, other},
         {"rank 9", rank9, rank9, rank9},
         {"view reaches past its storage and device block", f32, {{2, 3}, ACL_FLOAT, {3, 1}, 32, {6}}, f32}});
}

TEST_F(LogitGrad, ManyBlocksAndDeterministicAcrossWorkerCounts) {
    // 51 chunks of 8192 over 48 blocks: blocks 0-2 take two chunks, block 2's second one short.
    const int64_t n = 8192 * 50 + 100;
    const std::vector<double> x = uniform(static_cast<size_t>(n), 0.001, 0.999, 11);
    const std::vector<double> dy = uniform(static_cast<size_t>(n), -2, 2, 12);
    const std::vector<double> xs = representable(x, ACL_FLOAT16);
    const std::vector<double> dys = representable(dy, ACL_FLOAT16);
    std::vector<std::vector<uint8_t>> results;
    for (int threads : {1, 2, 8}) {
        restart_with_worker_threads(threads);
        DeviceTensor xt({{n}, ACL_FLOAT16}, xs);
        DeviceTensor dyt({{n}, ACL_FLOAT16, {1}, 7, {n + 7}}, dys);
        auto out = DeviceTensor::output({{n}, ACL_FLOAT16});
        ASSERT_EQ(run(xt, dyt, 0.01, *out), ACLNN_SUCCESS);
        results.push_back(out->bytes());
        if (threads == 1) {
            std::vector<double> expected;
            for (int64_t i = 0; i < n; ++i) expected.push_back(logit_grad(xs[i], dys[i], 0.01));
            expect_close(out->read(), expected, tolerance_for(ACL_FLOAT16));
        }
    }
    EXPECT_EQ(results[0], results[1]);
    EXPECT_EQ(results[0], results[2]);
}

}  // namespace
