// aclnnPreluBackward: numbers against a double-precision reference of
//   gradInput = self > 0 ? gradOutput : w[c] * gradOutput
//   gradWeight[c] = sum over all dims but 1 of (self > 0 ? 0 : self * gradOutput),
// every dtype, broadcast gradOutput, 0-D/1-D/8-D, empty, views, special
// values, every error path, determinism across worker counts.
//
// Tolerances: gradInput is one product rounded once, so tolerance_for(dtype).
// gradWeight is a sum: the device rounds each update term to the dtype (the
// update tensor of PReluGradUpdate has self's dtype), adds in fp32 and rounds
// the sum, so its error is bounded by rtol * (sum of |terms| + |sum|) with
// rtol the dtype's tolerance_for (fp32: 1e-5, fp16: 1e-3, bf16: 8e-3).
#include <cmath>
#include <vector>

#include "aclnnop/aclnn_prelu_backward.h"
#include "ops/op_test_support.hpp"
#include "ops/prelu_backward_support.hpp"

namespace {

using namespace optest;

/// Values that avoid exact zeros of self, so x > 0 reads the same in every precision.
std::vector<double> off_zero(std::vector<double> x) {
    for (double& v : x) {
        if (std::fabs(v) < 1e-2) v += 0.05;
    }
    return x;
}

class PreluBackward : public AclTest {
protected:
    /// Runs the operator; returns phase 1's status (phase 2 must then succeed).
    aclnnStatus run(const DeviceTensor& gradOutput, const DeviceTensor& self, const DeviceTensor& weight,
                    DeviceTensor& gradInput, DeviceTensor& gradWeight, uint64_t* workspace = nullptr) {
        return run_two_phases(
            [&](uint64_t* workspaceSize, aclOpExecutor** executor) {
                return aclnnPreluBackwardGetWorkspaceSize(gradOutput.get(), self.get(), weight.get(), gradInput.get(),
                                                          gradWeight.get(), workspaceSize, executor);
            },
            aclnnPreluBackward, stream_, workspace);
    }

    /// Runs on the given specs (gradOutput broadcast to self) and checks both outputs.
    void check(const TensorSpec& dySpec, const TensorSpec& xSpec, const TensorSpec& wSpec, const TensorSpec& dxSpec,
               const TensorSpec& dwSpec, int64_t inner, uint32_t seed) {
        const aclDataType dtype = xSpec.dtype;
        const std::vector<double> dyValues = representable(uniform(numel(dySpec.shape), -2, 2, seed), dtype);
        const std::vector<double> x = representable(off_zero(uniform(numel(xSpec.shape), -3, 3, seed + 1)), dtype);
        const std::vector<double> w = representable(uniform(numel(wSpec.shape), -1, 1, seed + 2), dtype);
        DeviceTensor gradOutput(dySpec, dyValues);
        DeviceTensor self(xSpec, x);
        DeviceTensor weight(wSpec, w);
        auto gradInput = DeviceTensor::output(dxSpec);
        auto gradWeight = DeviceTensor::output(dwSpec);
        uint64_t workspace = 0;
        ASSERT_EQ(run(gradOutput, self, weight, *gradInput, *gradWeight, &workspace), ACLNN_SUCCESS);
        EXPECT_GT(workspace, 0u);
        const PreluReference ref = prelu_reference(broadcast(dyValues, dySpec.shape, xSpec.shape), x, w, inner);
        expect_close(gradInput->read(), ref.gradInput, tolerance_for(dtype));
        expect_sums_close(gradWeight->read(), ref, dtype);
        EXPECT_EQ(gradInput->bytes_changed_outside_view(), 0u);
        EXPECT_EQ(gradWeight->bytes_changed_outside_view(), 0u);
    }

    /// values of shape `from` read over shape `to` (NumPy broadcast).
    static std::vector<double> broadcast(const std::vector<double>& values, const Shape& from, const Shape& to) {
        const Shape fromStrides = contiguous_strides(from);
        std::vector<double> out(static_cast<size_t>(numel(to)));
        for (int64_t i = 0; i < numel(to); ++i) {
            int64_t rest = i;
            int64_t position = 0;
            for (size_t d = to.size(); d-- > 0;) {
                const int64_t index = rest % to[d];
                rest /= to[d];
                const size_t lead = to.size() - from.size();
                if (d >= lead && from[d - lead] != 1) position += index * fromStrides[d - lead];
            }
            out[static_cast<size_t>(i)] = values[static_cast<size_t>(position)];
        }
        return out;
    }
};

TEST_F(PreluBackward, EveryDtypePerChannelWeight) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        SCOPED_TRACE(dtype);
        const Shape shape{3, 5, 7};
        check({shape, dtype}, {shape, dtype}, {{5}, dtype}, {shape, dtype}, {{5}, dtype}, 7, 1);
    }
}

TEST_F(PreluBackward, GradOutputBroadcastsToSelf) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        SCOPED_TRACE(dtype);
        const Shape shape{4, 6, 9};
        check({{6, 1}, dtype}, {shape, dtype}, {{6}, dtype}, {shape, dtype}, {{6}, dtype}, 9, 10);
        check({{9}, dtype}, {shape, dtype}, {{6}, dtype}, {shape, dtype}, {{6}, dtype}, 9, 20);
        check({{1, 1, 1}, dtype}, {shape, dtype}, {{6}, dtype}, {shape, dtype}, {{6}, dtype}, 9, 30);
    }
}

TEST_F(PreluBackward, SingleWeightSumsOverEverything) {
    // weight [1] and [1,1,1] (gradWeight then has weight's shape), and a
    // [1, C] weight whose C channels are counted as weight elements.
    const Shape shape{4, 3, 2};
    check({shape, ACL_FLOAT}, {shape, ACL_FLOAT}, {{1}, ACL_FLOAT}, {shape, ACL_FLOAT}, {{1}, ACL_FLOAT}, 24, 40);
    check({shape, ACL_BF16}, {shape, ACL_BF16}, {{1, 1, 1}, ACL_BF16}, {shape, ACL_BF16}, {{1, 1, 1}, ACL_BF16}, 24,
          41);
    check({shape, ACL_FLOAT16}, {shape, ACL_FLOAT16}, {{1, 3}, ACL_FLOAT16}, {shape, ACL_FLOAT16},
          {{3}, ACL_FLOAT16}, 2, 42);
}

TEST_F(PreluBackward, ZeroDimOneDimAndEightDim) {
    check({{}, ACL_FLOAT}, {{}, ACL_FLOAT}, {{}, ACL_FLOAT}, {{}, ACL_FLOAT}, {{}, ACL_FLOAT}, 1, 50);
    check({{7}, ACL_FLOAT}, {{7}, ACL_FLOAT}, {{1}, ACL_FLOAT}, {{7}, ACL_FLOAT}, {{1}, ACL_FLOAT}, 7, 51);
    const Shape eight{2, 3, 1, 2, 1, 2, 1, 2};
    check({eight, ACL_FLOAT16}, {eight, ACL_FLOAT16}, {{3}, ACL_FLOAT16}, {eight, ACL_FLOAT16}, {{3}, ACL_FLOAT16},
          8, 52);
}

TEST_F(PreluBackward, RunsWrapAroundChannelsAndChunks) {
    // inner 2 with 3 channels: a chunk meets each channel many times; inner
    // 4099 with a long share: channel runs cross UB chunk boundaries.
    check({{1000, 3, 2}, ACL_FLOAT}, {{1000, 3, 2}, ACL_FLOAT}, {{3}, ACL_FLOAT}, {{1000, 3, 2}, ACL_FLOAT},
          {{3}, ACL_FLOAT}, 2, 60);
    check({{3, 5, 4099}, ACL_FLOAT}, {{3, 5, 4099}, ACL_FLOAT}, {{5}, ACL_FLOAT}, {{3, 5, 4099}, ACL_FLOAT},
          {{5}, ACL_FLOAT}, 4099, 61);
    check({{20000, 37}, ACL_BF16}, {{20000, 37}, ACL_BF16}, {{37}, ACL_BF16}, {{20000, 37}, ACL_BF16},
          {{37}, ACL_BF16}, 1, 62);
}

TEST_F(PreluBackward, UpdateIsRoundedToTheDtypeBeforeTheSum) {
    // 64 updates (1 + 23/1024)^2, each rounded up by 0.48 fp16 ulp, and 64
    // updates -1: the sum of the fp16-rounded terms (exact in fp32) is
    // 2.9375, the exact sum rounds to another fp16 value.
    const double a = 1.0 + 23.0 / 1024.0;
    std::vector<double> x(128, -1.0);
    std::vector<double> dy(128, 1.0);
    for (size_t i = 0; i < 64; ++i) {
        x[i] = -a;
        dy[i] = -a;
    }
    DeviceTensor gradOutput({{1, 1, 128}, ACL_FLOAT16}, dy);
    DeviceTensor self({{1, 1, 128}, ACL_FLOAT16}, x);
    DeviceTensor weight({{1}, ACL_FLOAT16}, {0.5});
    auto gradInput = DeviceTensor::output({{1, 1, 128}, ACL_FLOAT16});
    auto gradWeight = DeviceTensor::output({{1}, ACL_FLOAT16});
    ASSERT_EQ(run(gradOutput, self, weight, *gradInput, *gradWeight), ACLNN_SUCCESS);
    const double roundedTerms = 64 * representable(a * a, ACL_FLOAT16) - 64;
    ASSERT_EQ(roundedTerms, 2.9375);
    EXPECT_NE(representable(64 * a * a - 64, ACL_FLOAT16), roundedTerms);
    EXPECT_EQ(gradWeight->read()[0], roundedTerms);
}

TEST_F(PreluBackward, EmptyTensorsWriteNothing) {
    for (const Shape& shape : {Shape{2, 0, 3}, Shape{0, 4}}) {
        const int64_t channels = shape[1];
        DeviceTensor gradOutput({shape, ACL_FLOAT}, {});
        DeviceTensor self({shape, ACL_FLOAT}, {});
        DeviceTensor weight({{channels}, ACL_FLOAT}, std::vector<double>(static_cast<size_t>(channels), 1.0));
        auto gradInput = DeviceTensor::output({shape, ACL_FLOAT});
        auto gradWeight = DeviceTensor::output({{channels}, ACL_FLOAT}, 3.0);
        uint64_t workspace = 1;
        ASSERT_EQ(run(gradOutput, self, weight, *gradInput, *gradWeight, &workspace), ACLNN_SUCCESS);
        EXPECT_EQ(workspace, 0u);
        for (double v : gradWeight->read()) EXPECT_EQ(v, 3.0);  // not zeroed
        EXPECT_EQ(gradWeight->bytes_changed_outside_view(), 0u);
    }
}

TEST_F(PreluBackward, StridedViewsWithOffsets) {
    // self transposed over a [6,4] storage, gradOutput every other element
    // from offset 3, weight strided, gradInput rows of 9 from offset 2,
    // gradWeight every third element from offset 1.
    const Shape shape{4, 6};
    for (aclDataType dtype : {ACL_FLOAT, ACL_BF16}) {
        SCOPED_TRACE(dtype);
        check({shape, dtype, {12, 2}, 3}, {shape, dtype, {1, 4}, 0, {6, 4}}, {{6}, dtype, {2}, 1},
              {shape, dtype, {9, 1}, 2}, {{6}, dtype, {3}, 1}, 1, 70);
    }
}

TEST_F(PreluBackward, SpecialValues) {
    const double inf = HUGE_VAL;
    const double nan = std::nan("");
    // Channel 0: NaN self takes w * dy and poisons the sum.  Channel 1:
    // +inf self passes dy; 0 self takes w * dy with a 0 update; -inf self
    // with dy 0.5 gives update -inf.  Channel 2: inf dy on positive self.
    const std::vector<double> x{nan, 1.0, inf, 0.0, -inf, -2.0, 3.0, -1.0};
    const std::vector<double> dy{2.0, 1.0, 4.0, 3.0, 0.5, 1.0, inf, 1.0};
    const std::vector<double> w{0.25, 0.5, 0.75};
    DeviceTensor dyTensor({{8}, ACL_FLOAT}, dy);
    DeviceTensor self({{8}, ACL_FLOAT}, x);
    DeviceTensor weight({{1}, ACL_FLOAT}, {0.5});
    auto gradInput = DeviceTensor::output({{8}, ACL_FLOAT});
    auto gradWeight = DeviceTensor::output({{1}, ACL_FLOAT});
    ASSERT_EQ(run(dyTensor, self, weight, *gradInput, *gradWeight), ACLNN_SUCCESS);
    const std::vector<double> dx = gradInput->read();
    EXPECT_EQ(dx[0], 1.0);   // NaN self: 0.5 * 2
    EXPECT_EQ(dx[1], 1.0);
    EXPECT_EQ(dx[2], 4.0);   // +inf self
    EXPECT_EQ(dx[3], 1.5);   // 0 self: 0.5 * 3
    EXPECT_EQ(dx[4], 0.25);  // -inf self
    EXPECT_EQ(dx[5], 0.5);
    EXPECT_EQ(dx[6], inf);
    EXPECT_EQ(dx[7], 0.5);
    EXPECT_TRUE(std::isnan(gradWeight->read()[0]));

    // Per channel: [2, 3, 2] with -inf in channel 1 only.
    const std::vector<double> x3{-1.0, 2.0, -inf, 1.0, 0.5, -3.0, 1.0, -2.0, 4.0, -1.0, 2.0, -0.5};
    const std::vector<double> dy3(12, 1.0);
    DeviceTensor dy3Tensor({{2, 3, 2}, ACL_FLOAT}, dy3);
    DeviceTensor self3({{2, 3, 2}, ACL_FLOAT}, x3);
    DeviceTensor weight3({{3}, ACL_FLOAT}, w);
    auto gradInput3 = DeviceTensor::output({{2, 3, 2}, ACL_FLOAT});
    auto gradWeight3 = DeviceTensor::output({{3}, ACL_FLOAT});
    ASSERT_EQ(run(dy3Tensor, self3, weight3, *gradInput3, *gradWeight3), ACLNN_SUCCESS);
    const PreluReference ref = prelu_reference(dy3, x3, w, 2);
    expect_close(gradInput3->read(), ref.gradInput, tolerance_for(ACL_FLOAT));
    const std::vector<double> dw = gradWeight3->read();
    EXPECT_EQ(dw[0], -3.0);
    EXPECT_EQ(dw[1], -inf);
    EXPECT_EQ(dw[2], -3.5);
}

TEST_F(PreluBackward, ErrorsCarryCannCodesAndMessages) {
    const Shape shape{2, 3};
    const std::vector<double> six(6, 1.0);
    DeviceTensor dy({shape, ACL_FLOAT}, six);
    DeviceTensor x({shape, ACL_FLOAT}, six);
    DeviceTensor w({{3}, ACL_FLOAT}, {1, 1, 1});
    auto dx = DeviceTensor::output({shape, ACL_FLOAT});
    auto dw = DeviceTensor::output({{3}, ACL_FLOAT});
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    const auto call = [&](const DeviceTensor* g, const DeviceTensor* s, const DeviceTensor* wt, const DeviceTensor* gi,
                          const DeviceTensor* gw) {
        const auto raw = [](const DeviceTensor* t) { return t == nullptr ? nullptr : t->get(); };
        return aclnnPreluBackwardGetWorkspaceSize(raw(g), raw(s), raw(wt), raw(gi), raw(gw), &ws, &ex);
    };
    // 1. null tensors
    expect_error(call(nullptr, &x, &w, dx.get(), dw.get()), ACLNN_ERR_PARAM_NULLPTR);
    expect_error(call(&dy, nullptr, &w, dx.get(), dw.get()), ACLNN_ERR_PARAM_NULLPTR);
    expect_error(call(&dy, &x, nullptr, dx.get(), dw.get()), ACLNN_ERR_PARAM_NULLPTR);
    expect_error(call(&dy, &x, &w, nullptr, dw.get()), ACLNN_ERR_PARAM_NULLPTR);
    expect_error(call(&dy, &x, &w, dx.get(), nullptr), ACLNN_ERR_PARAM_NULLPTR);
    // 2. dtypes: self's list, then every other tensor as self
    DeviceTensor xInt({shape, ACL_INT32}, six);
    DeviceTensor xDouble({shape, ACL_DOUBLE}, six);
    DeviceTensor dyHalf({shape, ACL_FLOAT16}, six);
    DeviceTensor wHalf({{3}, ACL_FLOAT16}, {1, 1, 1});
    auto dxHalf = DeviceTensor::output({shape, ACL_FLOAT16});
    auto dwHalf = DeviceTensor::output({{3}, ACL_FLOAT16});
    expect_error(call(&xInt, &xInt, &w, dx.get(), dw.get()), ACLNN_ERR_PARAM_INVALID);
    expect_error(call(&xDouble, &xDouble, &w, dx.get(), dw.get()), ACLNN_ERR_PARAM_INVALID);
    expect_error(call(&dyHalf, &x, &w, dx.get(), dw.get()), ACLNN_ERR_PARAM_INVALID);
    expect_error(call(&dy, &x, &wHalf, dx.get(), dw.get()), ACLNN_ERR_PARAM_INVALID);
    expect_error(call(&dy, &x, &w, dxHalf.get(), dw.get()), ACLNN_ERR_PARAM_INVALID);
    expect_error(call(&dy, &x, &w, dx.get(), dwHalf.get()), ACLNN_ERR_PARAM_INVALID);
    // 3. ranks
    const Shape nine{1, 3, 1, 1, 1, 1, 1, 1, 2};
    DeviceTensor rank9({nine, ACL_FLOAT}, six);
    expect_error(call(&rank9, &rank9, &w, &rank9, dw.get()), ACLNN_ERR_PARAM_INVALID);
    // 4. gradInput's shape
    auto dxOther = DeviceTensor::output({{3, 2}, ACL_FLOAT});
    expect_error(call(&dy, &x, &w, dxOther.get(), dw.get()), ACLNN_ERR_PARAM_INVALID);
    // 5. weight rule
    DeviceTensor w2({{2}, ACL_FLOAT}, {1, 1});
    expect_error(call(&dy, &x, &w2, dx.get(), dw.get()), ACLNN_ERR_PARAM_INVALID);       // 2 != channels
    auto dw13 = DeviceTensor::output({{1, 3}, ACL_FLOAT});
    expect_error(call(&dy, &x, &w, dx.get(), dw13.get()), ACLNN_ERR_PARAM_INVALID);     // gradWeight not [C]
    DeviceTensor w1({{1}, ACL_FLOAT}, {1});
    expect_error(call(&dy, &x, &w1, dx.get(), dw.get()), ACLNN_ERR_PARAM_INVALID);      // gradWeight != weight's
    DeviceTensor scalar({{}, ACL_FLOAT}, {1});
    auto dxScalar = DeviceTensor::output({{}, ACL_FLOAT});
    expect_error(call(&scalar, &scalar, &w, dxScalar.get(), dw.get()), ACLNN_ERR_PARAM_INVALID);  // 0-D, C weights
    DeviceTensor w7({{7}, ACL_FLOAT}, std::vector<double>(7, 1.0));
    DeviceTensor x7({{7}, ACL_FLOAT}, std::vector<double>(7, 1.0));
    auto dx7 = DeviceTensor::output({{7}, ACL_FLOAT});
    auto dw7 = DeviceTensor::output({{7}, ACL_FLOAT});
    expect_error(call(&x7, &x7, &w7, dx7.get(), dw7.get()), ACLNN_ERR_PARAM_INVALID);   // 1-D self has 1 channel
    // 6. gradOutput must broadcast to exactly self's shape
    DeviceTensor dy4({{4}, ACL_FLOAT}, {1, 1, 1, 1});
    expect_error(call(&dy4, &x, &w, dx.get(), dw.get()), ACLNN_ERR_PARAM_INVALID);
    DeviceTensor dyBig({{2, 2, 3}, ACL_FLOAT}, std::vector<double>(12, 1.0));
    expect_error(call(&dyBig, &x, &w, dx.get(), dw.get()), ACLNN_ERR_PARAM_INVALID);
    // workspaceSize / executor pointers, after the parameters
    EXPECT_EQ(aclnnPreluBackwardGetWorkspaceSize(dy.get(), x.get(), w.get(), dx->get(), dw->get(), nullptr, &ex),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_TRUE(has_error_message());
    EXPECT_EQ(aclnnPreluBackwardGetWorkspaceSize(dy.get(), x.get(), w.get(), dx->get(), dw->get(), &ws, nullptr),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_TRUE(has_error_message());
    EXPECT_EQ(aclnnPreluBackwardGetWorkspaceSize(nullptr, x.get(), w.get(), dx->get(), dw->get(), nullptr, nullptr),
              ACLNN_ERR_PARAM_NULLPTR);
    // a view reaching past its storage and the device block holding it
    DeviceTensor outside({shape, ACL_FLOAT, {3, 1}, 32, {6}});
    expect_error(call(&dy, &outside, &w, dx.get(), dw.get()), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(PreluBackward, TooSmallWorkspaceIsRefusedAndWritesNothing) {
    const Shape shape{2, 3};
    DeviceTensor dy({shape, ACL_FLOAT}, std::vector<double>(6, 1.0));
    DeviceTensor x({shape, ACL_FLOAT}, std::vector<double>(6, -1.0));
    DeviceTensor w({{3}, ACL_FLOAT}, {1, 1, 1});
    auto dx = DeviceTensor::output({shape, ACL_FLOAT});
    auto dw = DeviceTensor::output({{3}, ACL_FLOAT});
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnPreluBackwardGetWorkspaceSize(dy.get(), x.get(), w.get(), dx->get(), dw->get(), &ws, &ex),
              ACLNN_SUCCESS);
    ASSERT_GT(ws, 64u);
    DeviceBuffer small(64);
    EXPECT_EQ(aclnnPreluBackward(small.get(), 64, ex, stream_), ACLNN_ERR_PARAM_INVALID);
    EXPECT_TRUE(has_error_message());
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    for (double v : dx->read()) EXPECT_EQ(v, -7.0);
    for (double v : dw->read()) EXPECT_EQ(v, -7.0);
}

TEST_F(PreluBackward, NullDeviceAddressFaultsTheStream) {
    const NullAddressTensor self({2, 3});
    DeviceTensor dy({{2, 3}, ACL_FLOAT}, std::vector<double>(6, 1.0));
    DeviceTensor w({{3}, ACL_FLOAT}, {1, 1, 1});
    auto dx = DeviceTensor::output({{2, 3}, ACL_FLOAT});
    auto dw = DeviceTensor::output({{3}, ACL_FLOAT});
    expect_phase2_faults(
        [&](uint64_t* ws, aclOpExecutor** ex) {
            return aclnnPreluBackwardGetWorkspaceSize(dy.get(), self.get(), w.get(), dx->get(), dw->get(), ws, ex);
        },
        aclnnPreluBackward, stream_, {dx.get()});
}

TEST_F(PreluBackward, ManyBlocksAndDeterministicAcrossWorkerCounts) {
    const Shape shape{96, 64, 347};
    const auto n = static_cast<size_t>(numel(shape));
    const std::vector<double> dy = uniform(n, -2, 2, 80);
    const std::vector<double> x = representable(off_zero(uniform(n, -3, 3, 81)), ACL_FLOAT);
    const std::vector<double> w = uniform(64, -1, 1, 82);
    std::vector<std::vector<uint8_t>> gradInputs;
    std::vector<std::vector<uint8_t>> gradWeights;
    for (int threads : {1, 2, 8}) {
        restart_with_worker_threads(threads);
        DeviceTensor gradOutput({shape, ACL_FLOAT}, dy);
        DeviceTensor self({shape, ACL_FLOAT}, x);
        DeviceTensor weight({{64}, ACL_FLOAT}, w);
        auto gradInput = DeviceTensor::output({shape, ACL_FLOAT});
        auto gradWeight = DeviceTensor::output({{64}, ACL_FLOAT});
        ASSERT_EQ(run(gradOutput, self, weight, *gradInput, *gradWeight), ACLNN_SUCCESS);
        gradInputs.push_back(gradInput->bytes());
        gradWeights.push_back(gradWeight->bytes());
        if (threads == 1) {
            const PreluReference ref = prelu_reference(dy, x, representable(w, ACL_FLOAT), 347);
            expect_close(gradInput->read(), ref.gradInput, tolerance_for(ACL_FLOAT));
            expect_sums_close(gradWeight->read(), ref, ACL_FLOAT);
        }
    }
    EXPECT_EQ(gradInputs[0], gradInputs[1]);
    EXPECT_EQ(gradInputs[0], gradInputs[2]);
    EXPECT_EQ(gradWeights[0], gradWeights[1]);
    EXPECT_EQ(gradWeights[0], gradWeights[2]);
}

}  // namespace
