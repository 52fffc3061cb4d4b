// Executor lifetime with the real operators: a single-use executor runs its
// phase 2 once and is gone; a missing executor or workspace is refused; a
// repeatable executor runs many times, each run on the addresses the
// executor held when the run was enqueued, until aclDestroyAclOpExecutor.
//
// Results are checked against double-precision references written here, at
// fp32 tolerance (rtol 1e-5; PreluBackward's gradWeight sums: rtol 1e-5 of
// the sum of |terms| plus |sum|).
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

#include "aclnnop/aclnn_hardshrink_backward.h"
#include "aclnnop/aclnn_logit_grad.h"
#include "aclnnop/aclnn_prelu_backward.h"
#include "aclnnop/aclnn_scaled_masked_softmax_backward.h"
#include "aclnnop/aclnn_softplus_backward.h"
#include "ops/op_test_support.hpp"
#include "ops/prelu_backward_support.hpp"

namespace {

using namespace optest;

/// Success when call, made on a clean error state, returns code and leaves a
/// message for aclGetRecentErrMsg.
template <class Call>
::testing::AssertionResult fails_with(aclnnStatus code, Call&& call) {
    aclGetRecentErrMsg();  // drops older messages
    const aclnnStatus status = call();
    if (status != code) return ::testing::AssertionFailure() << "returned " << status << ", expected " << code;
    if (!has_error_message()) return ::testing::AssertionFailure() << "returned " << code << " without a message";
    return ::testing::AssertionSuccess();
}

/// The device address a tensor's view starts from.
void* address_of(const DeviceTensor& tensor) {
    void* address = nullptr;
    EXPECT_EQ(aclGetRawTensorAddr(tensor.get(), &address), ACLNN_SUCCESS);
    return address;
}

// --- references ---------------------------------------------------------------

// beta * x is exact in fp32, so `beta * x > threshold` reads the same on the
// device and in double.
constexpr float kBeta = 2.0f;
constexpr float kThreshold = 3.0f;

std::vector<double> softplus_reference(const std::vector<double>& dy, const std::vector<double>& x) {
    std::vector<double> out(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        const double t = kBeta * x[i];
        out[i] = t > kThreshold ? dy[i] : dy[i] / (1.0 + std::exp(-t));
    }
    return out;
}

/// PreluBackward's outputs against the reference at fp32 tolerance.
void expect_prelu(const DeviceTensor& gradInput, const DeviceTensor& gradWeight, const PreluReference& ref) {
    expect_close(gradInput.read(), ref.gradInput, tolerance_for(ACL_FLOAT));
    expect_sums_close(gradWeight.read(), ref, ACL_FLOAT);
}

// --- data ---------------------------------------------------------------------

/// One set of SoftplusBackward inputs on the device, with their values.
struct SoftplusInputs {
    SoftplusInputs(const Shape& shape, uint32_t seed)
        : dy(representable(uniform(static_cast<size_t>(numel(shape)), -2, 2, seed), ACL_FLOAT)),
          x(representable(uniform(static_cast<size_t>(numel(shape)), -3, 3, seed + 1), ACL_FLOAT)),
          gradOutput({shape, ACL_FLOAT}, dy),
          self({shape, ACL_FLOAT}, x) {}

    std::vector<double> dy;
    std::vector<double> x;
    DeviceTensor gradOutput;
    DeviceTensor self;
};

/// One set of PreluBackward inputs ([outer, channels, inner], weight [channels]).
struct PreluInputs {
    PreluInputs(const Shape& shape, uint32_t seed)
        : dy(representable(uniform(static_cast<size_t>(numel(shape)), -2, 2, seed), ACL_FLOAT)),
          x(representable(uniform(static_cast<size_t>(numel(shape)), -3, 3, seed + 1), ACL_FLOAT)),
          w(representable(uniform(static_cast<size_t>(shape[1]), -1, 1, seed + 2), ACL_FLOAT)),
          gradOutput({shape, ACL_FLOAT}, dy),
          self({shape, ACL_FLOAT}, x),
          weight({{shape[1]}, ACL_FLOAT}, w),
          addresses{address_of(gradOutput), address_of(self), address_of(weight)} {}

    std::vector<double> dy;
    std::vector<double> x;
    std::vector<double> w;
    DeviceTensor gradOutput;
    DeviceTensor self;
    DeviceTensor weight;
    std::vector<void*> addresses;  ///< in the operator's input order
};

/// PreluBackward's two outputs.
struct PreluOutputs {
    explicit PreluOutputs(const Shape& shape)
        : gradInput(DeviceTensor::output({shape, ACL_FLOAT})),
          gradWeight(DeviceTensor::output({{shape[1]}, ACL_FLOAT})),
          addresses{address_of(*gradInput), address_of(*gradWeight)} {}

    std::unique_ptr<DeviceTensor> gradInput;
    std::unique_ptr<DeviceTensor> gradWeight;
    std::vector<void*> addresses;
};

class ExecutorLifetime : public AclTest {
protected:
    void synchronize() { EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, kBoundMs), ACL_SUCCESS); }

    /// Phase 1 of SoftplusBackward; fails the test unless it succeeds.
    aclOpExecutor* plan_softplus(const SoftplusInputs& in, const DeviceTensor& out) {
        uint64_t workspaceSize = 1;
        aclOpExecutor* executor = nullptr;
        EXPECT_EQ(aclnnSoftplusBackwardGetWorkspaceSize(in.gradOutput.get(), in.self.get(), beta_.get(),
                                                        threshold_.get(), out.get(), &workspaceSize, &executor),
                  ACLNN_SUCCESS);
        EXPECT_EQ(workspaceSize, 0u);
        return executor;
    }

    /// Phase 1 of LogitGrad (eps -1: every x in [0, 1] counts).
    aclOpExecutor* plan_logit_grad(const DeviceTensor& x, const DeviceTensor& dy, const DeviceTensor& out,
                                   uint64_t* workspaceSize) {
        aclOpExecutor* executor = nullptr;
        EXPECT_EQ(aclnnLogitGradGetWorkspaceSize(x.get(), dy.get(), -1.0, out.get(), workspaceSize, &executor),
                  ACLNN_SUCCESS);
        return executor;
    }

    /// Phase 1 of PreluBackward; the workspace it asks for is > 0.
    aclOpExecutor* plan_prelu(const PreluInputs& in, const PreluOutputs& out, uint64_t* workspaceSize) {
        aclOpExecutor* executor = nullptr;
        EXPECT_EQ(
            aclnnPreluBackwardGetWorkspaceSize(in.gradOutput.get(), in.self.get(), in.weight.get(),
                                               out.gradInput->get(), out.gradWeight->get(), workspaceSize, &executor),
            ACLNN_SUCCESS);
        EXPECT_GT(*workspaceSize, 0u);
        return executor;
    }

private:
    const Scalar beta_{kBeta};  // alive as long as any executor built on them
    const Scalar threshold_{kThreshold};
};

TEST_F(ExecutorLifetime, SingleUsePhaseTwoRunsOnceThenIsRefused) {
    const Shape shape{32, 500};
    const SoftplusInputs in(shape, 1);
    auto out = DeviceTensor::output({shape, ACL_FLOAT});
    aclOpExecutor* executor = plan_softplus(in, *out);
    ASSERT_NE(executor, nullptr);
    ASSERT_EQ(aclnnSoftplusBackward(nullptr, 0, executor, stream_), ACLNN_SUCCESS);
    synchronize();
    expect_close(out->read(), softplus_reference(in.dy, in.x), tolerance_for(ACL_FLOAT));

    // Cleared, so that a second run would show.
    const size_t bytes = static_cast<size_t>(numel(shape)) * sizeof(float);
    ASSERT_EQ(aclrtMemset(address_of(*out), bytes, 0, bytes), ACL_SUCCESS);
    EXPECT_TRUE(
        fails_with(ACLNN_ERR_PARAM_INVALID, [&] { return aclnnSoftplusBackward(nullptr, 0, executor, stream_); }));
    synchronize();
    EXPECT_EQ(out->read(), std::vector<double>(static_cast<size_t>(numel(shape)), 0.0));
}

TEST_F(ExecutorLifetime, SingleUseWithWorkspaceRunsOnceThenIsRefused) {
    const Shape shape{4000};
    const std::vector<double> x = representable(uniform(4000, 0.05, 0.95, 2), ACL_FLOAT);
    const std::vector<double> dy = representable(uniform(4000, -1, 1, 3), ACL_FLOAT);
    const DeviceTensor xt({shape, ACL_FLOAT}, x);
    const DeviceTensor dyt({shape, ACL_FLOAT}, dy);
    auto out = DeviceTensor::output({shape, ACL_FLOAT});
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = plan_logit_grad(xt, dyt, *out, &workspaceSize);
    ASSERT_GT(workspaceSize, 0u);
    DeviceBuffer workspace(workspaceSize);
    ASSERT_EQ(aclnnLogitGrad(workspace.get(), workspaceSize, executor, stream_), ACLNN_SUCCESS);
    synchronize();
    std::vector<double> expected;
    for (size_t i = 0; i < x.size(); ++i) expected.push_back(dy[i] / (x[i] * (1.0 - x[i])));
    expect_close(out->read(), expected, tolerance_for(ACL_FLOAT));

    const size_t bytes = x.size() * sizeof(float);
    ASSERT_EQ(aclrtMemset(address_of(*out), bytes, 0, bytes), ACL_SUCCESS);
    EXPECT_TRUE(fails_with(ACLNN_ERR_PARAM_INVALID,
                           [&] { return aclnnLogitGrad(workspace.get(), workspaceSize, executor, stream_); }));
    synchronize();
    EXPECT_EQ(out->read(), std::vector<double>(x.size(), 0.0));
}

TEST_F(ExecutorLifetime, NullExecutorIsRefusedByEveryOperator) {
    for (Phase2 phase2 :
         {Phase2{aclnnSoftplusBackward}, Phase2{aclnnHardshrinkBackward}, Phase2{aclnnScaledMaskedSoftmaxBackward},
          Phase2{aclnnPreluBackward}, Phase2{aclnnLogitGrad}}) {
        EXPECT_TRUE(fails_with(ACLNN_ERR_PARAM_NULLPTR, [&] { return phase2(nullptr, 0, nullptr, stream_); }));
    }
    synchronize();
}

TEST_F(ExecutorLifetime, MissingWorkspaceIsRefusedAndFreesTheExecutor) {
    // As CANN's CommonOpExecutorRun: the refused executor is deleted, so the
    // corrected call finds a stale handle and writes nothing.
    const Shape shape{2, 4, 16, 64};
    const auto n = static_cast<size_t>(numel(shape));
    const DeviceTensor gradOutput({shape, ACL_FLOAT}, uniform(n, -1, 1, 4));
    const DeviceTensor y({shape, ACL_FLOAT}, uniform(n, 0, 0.05, 5));
    const DeviceTensor mask({{1, 4, 16, 64}, ACL_BOOL}, std::vector<double>(n / 2, 0.0));
    auto softmaxOut = DeviceTensor::output({shape, ACL_FLOAT});
    uint64_t softmaxWorkspace = 0;
    aclOpExecutor* softmax = nullptr;
    ASSERT_EQ(aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(gradOutput.get(), y.get(), mask.get(), 0.5, false,
                                                               softmaxOut->get(), &softmaxWorkspace, &softmax),
              ACLNN_SUCCESS);
    auto logitOut = DeviceTensor::output({shape, ACL_FLOAT});
    uint64_t logitWorkspace = 0;
    aclOpExecutor* logit = plan_logit_grad(y, gradOutput, *logitOut, &logitWorkspace);

    struct Refusal {
        Phase2 phase2;
        aclOpExecutor* executor;
        uint64_t workspaceSize;
    };
    for (const Refusal& call : {Refusal{aclnnScaledMaskedSoftmaxBackward, softmax, softmaxWorkspace},
                                Refusal{aclnnLogitGrad, logit, logitWorkspace}}) {
        ASSERT_GT(call.workspaceSize, 0u);
        EXPECT_TRUE(fails_with(ACLNN_ERR_PARAM_NULLPTR,
                               [&] { return call.phase2(nullptr, call.workspaceSize, call.executor, stream_); }));
        DeviceBuffer workspace(call.workspaceSize);
        EXPECT_TRUE(fails_with(ACLNN_ERR_PARAM_INVALID, [&] {
            return call.phase2(workspace.get(), call.workspaceSize, call.executor, stream_);
        }));
        synchronize();
    }
    EXPECT_EQ(softmaxOut->read(), std::vector<double>(n, -7.0));
    EXPECT_EQ(logitOut->read(), std::vector<double>(n, -7.0));
}

TEST_F(ExecutorLifetime, RepeatableRunsFollowTheAddressesSetBetweenRuns) {
    const Shape shape{64, 1000};
    constexpr int kDataSets = 3;
    constexpr int kRuns = 7;
    std::vector<std::unique_ptr<SoftplusInputs>> inputs;
    std::vector<void*> dyAddresses;
    std::vector<void*> xAddresses;
    for (uint32_t k = 0; k < kDataSets; ++k) {
        inputs.push_back(std::make_unique<SoftplusInputs>(shape, 10 + 2 * k));
        dyAddresses.push_back(address_of(inputs.back()->gradOutput));
        xAddresses.push_back(address_of(inputs.back()->self));
    }
    std::vector<std::unique_ptr<DeviceTensor>> outs;
    std::vector<void*> outAddresses;
    for (int r = 0; r <= kRuns; ++r) {  // one more than runs: the destroyed executor's last target
        outs.push_back(DeviceTensor::output({shape, ACL_FLOAT}));
        outAddresses.push_back(address_of(*outs.back()));
    }

    const SoftplusInputs& first = *inputs[0];
    aclOpExecutor* executor = plan_softplus(first, *outs[0]);
    ASSERT_NE(executor, nullptr);
    ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
    aclTensor* gradOutput = first.gradOutput.get();
    aclTensor* self = first.self.get();
    aclTensor* gradInput = outs[0]->get();
    for (int r = 0; r < kRuns; ++r) {
        if (r > 0) {  // run 0 uses the addresses phase 1 saw
            ASSERT_EQ(aclSetInputTensorAddr(executor, 0, gradOutput, dyAddresses[r % kDataSets]), ACLNN_SUCCESS);
            ASSERT_EQ(aclSetInputTensorAddr(executor, 1, self, xAddresses[r % kDataSets]), ACLNN_SUCCESS);
            ASSERT_EQ(aclSetOutputTensorAddr(executor, 0, gradInput, outAddresses[r]), ACLNN_SUCCESS);
        }
        ASSERT_EQ(aclnnSoftplusBackward(nullptr, 0, executor, stream_), ACLNN_SUCCESS) << "run " << r;
        synchronize();
    }
    for (int r = 0; r < kRuns; ++r) {
        SCOPED_TRACE(r);
        const SoftplusInputs& in = *inputs[r % kDataSets];
        expect_close(outs[r]->read(), softplus_reference(in.dy, in.x), tolerance_for(ACL_FLOAT));
    }

    ASSERT_EQ(aclSetOutputTensorAddr(executor, 0, gradInput, outAddresses[kRuns]), ACLNN_SUCCESS);
    ASSERT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
    EXPECT_TRUE(
        fails_with(ACLNN_ERR_PARAM_INVALID, [&] { return aclnnSoftplusBackward(nullptr, 0, executor, stream_); }));
    EXPECT_TRUE(fails_with(ACLNN_ERR_PARAM_INVALID,
                           [&] { return aclSetInputTensorAddr(executor, 0, gradOutput, dyAddresses[0]); }));
    synchronize();
    EXPECT_EQ(outs[kRuns]->read(), std::vector<double>(static_cast<size_t>(numel(shape)), -7.0));
}

TEST_F(ExecutorLifetime, QueuedRunsKeepTheAddressesTheyWereEnqueuedWith) {
    // PreluBackward: three inputs and two outputs, so gradWeight is output 1.
    const Shape shape{4, 8, 1000};
    const PreluInputs a(shape, 20);
    const PreluInputs b(shape, 30);
    const PreluOutputs first(shape);
    const PreluOutputs second(shape);
    const PreluOutputs never(shape);  // where the addresses point when the runs finally execute

    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = plan_prelu(a, first, &workspaceSize);
    ASSERT_NE(executor, nullptr);
    ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
    DeviceBuffer workspace(workspaceSize);
    const std::vector<aclTensor*> inputTensors{a.gradOutput.get(), a.self.get(), a.weight.get()};
    const std::vector<aclTensor*> outputTensors{first.gradInput->get(), first.gradWeight->get()};
    const auto point_at = [&](const PreluInputs& in, const PreluOutputs& out) {
        for (size_t i = 0; i < inputTensors.size(); ++i) {
            ASSERT_EQ(aclSetInputTensorAddr(executor, i, inputTensors[i], in.addresses[i]), ACLNN_SUCCESS);
        }
        for (size_t i = 0; i < outputTensors.size(); ++i) {
            ASSERT_EQ(aclSetOutputTensorAddr(executor, i, outputTensors[i], out.addresses[i]), ACLNN_SUCCESS);
        }
    };
    EXPECT_TRUE(fails_with(ACLNN_ERR_PARAM_INVALID,
                           [&] { return aclSetInputTensorAddr(executor, 3, inputTensors[0], b.addresses[0]); }));
    EXPECT_TRUE(fails_with(ACLNN_ERR_PARAM_INVALID,
                           [&] { return aclSetOutputTensorAddr(executor, 2, outputTensors[0], b.addresses[0]); }));

    StreamGate gate(stream_);
    ASSERT_EQ(aclnnPreluBackward(workspace.get(), workspaceSize, executor, stream_), ACLNN_SUCCESS);
    point_at(b, second);
    ASSERT_EQ(aclnnPreluBackward(workspace.get(), workspaceSize, executor, stream_), ACLNN_SUCCESS);
    point_at(a, never);
    // Still queued behind the gate: nothing written yet.
    EXPECT_EQ(first.gradInput->read(), std::vector<double>(static_cast<size_t>(numel(shape)), -7.0));
    EXPECT_EQ(second.gradWeight->read(), std::vector<double>(static_cast<size_t>(shape[1]), -7.0));
    // Destroying the executor leaves its queued runs alone.
    ASSERT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
    EXPECT_TRUE(fails_with(ACLNN_ERR_PARAM_INVALID,
                           [&] { return aclnnPreluBackward(workspace.get(), workspaceSize, executor, stream_); }));

    gate.open();
    synchronize();
    EXPECT_FALSE(gate.expired());
    {
        SCOPED_TRACE("run on a");
        expect_prelu(*first.gradInput, *first.gradWeight, prelu_reference(a.dy, a.x, a.w, shape[2]));
    }
    {
        SCOPED_TRACE("run on b");
        expect_prelu(*second.gradInput, *second.gradWeight, prelu_reference(b.dy, b.x, b.w, shape[2]));
    }
    EXPECT_EQ(never.gradInput->read(), std::vector<double>(static_cast<size_t>(numel(shape)), -7.0));
    EXPECT_EQ(never.gradWeight->read(), std::vector<double>(static_cast<size_t>(shape[1]), -7.0));
}

// ACL Graph (CANN dev guide 04-01): an aclnn phase 2 on a captured stream
// runs nothing; the model replays the run -- on the addresses the executor
// held when it was captured, with whatever those buffers hold at each replay
// -- as often as it is executed, even after the single-use executor is gone.
TEST_F(ExecutorLifetime, ACapturedRunReplaysOnTheCurrentInputsAfterItsExecutorIsGone) {
    const Shape shape{16, 300};
    SoftplusInputs in(shape, 11);
    auto out = DeviceTensor::output({shape, ACL_FLOAT});
    aclOpExecutor* executor = plan_softplus(in, *out);
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    ASSERT_EQ(aclnnSoftplusBackward(nullptr, 0, executor, stream_), ACLNN_SUCCESS);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    synchronize();
    EXPECT_EQ(out->read(), std::vector<double>(static_cast<size_t>(numel(shape)), -7.0)) << "ran at capture";
    EXPECT_TRUE(fails_with(ACLNN_ERR_PARAM_INVALID, [&] { return aclnnSoftplusBackward(nullptr, 0, executor, stream_); }))
        << "the single-use executor was spent by the captured run";

    for (uint32_t replay = 0; replay < 3; ++replay) {
        SCOPED_TRACE("replay " + std::to_string(replay));
        in.dy = representable(uniform(in.dy.size(), -2, 2, 100 + replay), ACL_FLOAT);
        in.x = representable(uniform(in.x.size(), -3, 3, 200 + replay), ACL_FLOAT);
        in.gradOutput.write(in.dy);
        in.self.write(in.x);
        ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
        synchronize();
        expect_close(out->read(), softplus_reference(in.dy, in.x), tolerance_for(ACL_FLOAT));
    }
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

// A captured operator with a workspace replays into the same workspace,
// which the program keeps alive as long as the model (04-01 item 7).
TEST_F(ExecutorLifetime, ACapturedRunWithAWorkspaceReplays) {
    const Shape shape{4, 6, 50};
    const PreluInputs in(shape, 21);
    const PreluOutputs out(shape);
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = plan_prelu(in, out, &workspaceSize);
    DeviceBuffer workspace(workspaceSize);
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    ASSERT_EQ(aclnnPreluBackward(workspace.get(), workspaceSize, executor, stream_), ACLNN_SUCCESS);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    for (int replay = 0; replay < 2; ++replay) {
        out.gradWeight->write(std::vector<double>(static_cast<size_t>(shape[1]), -7.0));
        ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
        synchronize();
        expect_prelu(*out.gradInput, *out.gradWeight, prelu_reference(in.dy, in.x, in.w, shape[2]));
    }
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

// Task groups and their update (CANN dev guide 04-03, method two): the
// kernels captured between aclmdlRICaptureTaskGrpBegin and End form a group;
// kernels submitted to another stream between aclmdlRICaptureTaskUpdateBegin
// and End replace them in order, in that stream's order, for the replays
// that follow it.
TEST_F(ExecutorLifetime, AnUpdatedTaskGroupReplaysTheNewKernels) {
    const Shape shape{8, 128};
    SoftplusInputs first(shape, 31);
    SoftplusInputs second(shape, 41);
    auto out = DeviceTensor::output({shape, ACL_FLOAT});
    aclrtStream updater = nullptr;
    ASSERT_EQ(aclrtCreateStream(&updater), ACL_SUCCESS);

    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureTaskGrpBegin(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclnnSoftplusBackward(nullptr, 0, plan_softplus(first, *out), stream_), ACLNN_SUCCESS);
    aclrtTaskGrp group = nullptr;
    ASSERT_EQ(aclmdlRICaptureTaskGrpEnd(stream_, &group), ACL_SUCCESS);
    ASSERT_NE(group, nullptr);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);

    ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
    synchronize();
    expect_close(out->read(), softplus_reference(first.dy, first.x), tolerance_for(ACL_FLOAT));

    // The update reads the second inputs; the model's replays follow it
    // through an event.
    ASSERT_EQ(aclmdlRICaptureTaskUpdateBegin(updater, group), ACL_SUCCESS);
    ASSERT_EQ(aclnnSoftplusBackward(nullptr, 0, plan_softplus(second, *out), updater), ACLNN_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureTaskUpdateEnd(updater), ACL_SUCCESS);
    aclrtEvent updated = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&updated), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(updated, updater), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(stream_, updated), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIUpdate(model), ACL_SUCCESS);
    for (int replay = 0; replay < 2; ++replay) {
        ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
        synchronize();
        expect_close(out->read(), softplus_reference(second.dy, second.x), tolerance_for(ACL_FLOAT));
    }
    EXPECT_EQ(aclrtDestroyEvent(updated), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(updater), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(updater), ACL_SUCCESS);
}

// 25-01 (107029, 107033, 107034) and the update's count rule (04-03: the
// update holds as many kernels as the group, 507000 otherwise).
TEST_F(ExecutorLifetime, TaskGroupsKeepCannsRules) {
    const Shape shape{4, 64};
    SoftplusInputs in(shape, 51);
    auto out = DeviceTensor::output({shape, ACL_FLOAT});
    aclrtStream side = nullptr;
    ASSERT_EQ(aclrtCreateStream(&side), ACL_SUCCESS);
    EXPECT_TRUE(fails_with(ACL_ERROR_RT_STREAM_NOT_CAPTURED, [&] { return aclmdlRICaptureTaskGrpBegin(stream_); }));

    // Work captured on another stream of the model while a group records breaks group and capture.
    aclrtEvent fork = nullptr;
    ASSERT_EQ(aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(fork, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(side, fork), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureTaskGrpBegin(stream_), ACL_SUCCESS);
    EXPECT_TRUE(fails_with(ACL_ERROR_STREAM_TASK_GROUP_STATUS, [&] { return aclmdlRICaptureTaskGrpBegin(stream_); }));
    // The launch itself is refused (Stream::IsTaskGroupBreak, CANN's stream_capture.cc).
    EXPECT_EQ(aclnnSoftplusBackward(nullptr, 0, plan_softplus(in, *out), side), ACL_ERROR_STREAM_TASK_GROUP_INTR);
    aclrtTaskGrp group = reinterpret_cast<aclrtTaskGrp>(&group);
    EXPECT_TRUE(fails_with(ACL_ERROR_STREAM_TASK_GROUP_INTR, [&] { return aclmdlRICaptureTaskGrpEnd(stream_, &group); }));
    EXPECT_EQ(group, nullptr);
    aclmdlRI model = nullptr;
    EXPECT_TRUE(
        fails_with(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, [&] { return aclmdlRICaptureEnd(stream_, &model); }));

    // A capture cannot end with a group open.
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureTaskGrpBegin(stream_), ACL_SUCCESS);
    EXPECT_TRUE(fails_with(ACL_ERROR_STREAM_TASK_GROUP_STATUS, [&] { return aclmdlRICaptureEnd(stream_, &model); }));

    // An update must hold as many kernels as its group, and only kernels.
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureTaskGrpBegin(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclnnSoftplusBackward(nullptr, 0, plan_softplus(in, *out), stream_), ACLNN_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureTaskGrpEnd(stream_, &group), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    EXPECT_TRUE(fails_with(ACL_ERROR_RT_STREAM_CAPTURED, [&] {
        aclmdlRICaptureBegin(side, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
        const aclError status = aclmdlRICaptureTaskUpdateBegin(side, group);
        aclmdlRI discarded = nullptr;
        aclmdlRICaptureEnd(side, &discarded);
        aclmdlRIDestroy(discarded);
        return status;
    }));
    ASSERT_EQ(aclmdlRICaptureTaskUpdateBegin(side, group), ACL_SUCCESS);
    EXPECT_TRUE(fails_with(ACL_ERROR_STREAM_TASK_GROUP_STATUS, [&] { return aclmdlRICaptureTaskUpdateBegin(side, group); }));
    EXPECT_TRUE(fails_with(ACL_ERROR_RT_INTERNAL_ERROR, [&] { return aclmdlRICaptureTaskUpdateEnd(side); }))
        << "no kernel was submitted for the group's one";
    EXPECT_TRUE(fails_with(ACL_ERROR_STREAM_TASK_GROUP_STATUS, [&] { return aclmdlRICaptureTaskUpdateEnd(side); }));
    ASSERT_EQ(aclmdlRICaptureTaskUpdateBegin(side, group), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetAsync(address_of(*out), 4, 0, 4, side), ACL_SUCCESS);
    EXPECT_TRUE(fails_with(ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, [&] { return aclmdlRICaptureTaskUpdateEnd(side); }));
    // Kernel for kernel, the same operator: a LogitGrad cannot stand in for the group's SoftplusBackward.
    auto logitOut = DeviceTensor::output({shape, ACL_FLOAT});
    const DeviceTensor x({shape, ACL_FLOAT}, std::vector<double>(static_cast<size_t>(numel(shape)), 0.5));
    uint64_t logitWorkspace = 0;
    aclOpExecutor* logit = plan_logit_grad(x, in.gradOutput, *logitOut, &logitWorkspace);
    DeviceBuffer logitSpace(std::max<uint64_t>(logitWorkspace, 1));
    ASSERT_EQ(aclmdlRICaptureTaskUpdateBegin(side, group), ACL_SUCCESS);
    ASSERT_EQ(aclnnLogitGrad(logitSpace.get(), logitWorkspace, logit, side), ACLNN_SUCCESS);
    EXPECT_TRUE(fails_with(ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, [&] { return aclmdlRICaptureTaskUpdateEnd(side); }));

    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    EXPECT_TRUE(fails_with(ACL_ERROR_RT_PARAM_INVALID, [&] { return aclmdlRICaptureTaskUpdateBegin(side, group); }))
        << "a destroyed model's groups go with it";
    EXPECT_EQ(aclrtDestroyEvent(fork), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(side), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(side), ACL_SUCCESS);
}

}  // namespace
