// aclOpExecutor through phase 2 on a real stream: lifetime (single-use,
// repeatable, destroyed), CANN's check order, and the address table.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <future>
#include <memory>
#include <vector>

#include "acl/acl.h"
#include "aclcpu/device_task.hpp"
#include "aclcpu/nnopbase.hpp"
#include "aclnn/aclnn_base.h"
#include "test_support.hpp"

namespace {

using nnopbase_test::take_error_message;

/// out[i] = in[i] + addend for every element, and a record of what it saw.
class AddKernel final : public aclcpu::OpKernel {
public:
    explicit AddKernel(int64_t count, float addend = 1.0f) : count_(count), addend_(addend) {}

    const char* name() const noexcept override { return "aclnnTestAdd"; }
    aclError launch(const aclcpu::LaunchArgs& args) const noexcept override {
        const auto* in = static_cast<const float*>(args.inputs[0]);
        auto* out = static_cast<float*>(args.outputs[0]);
        for (int64_t i = 0; i < count_; ++i) out[i] = in[i] + addend_;
        lastWorkspace.store(args.workspace);
        lastWorkspaceSize.store(args.workspaceSize);
        runs.fetch_add(1);
        return ACL_SUCCESS;
    }

    mutable std::atomic<int> runs{0};
    mutable std::atomic<void*> lastWorkspace{nullptr};
    mutable std::atomic<uint64_t> lastWorkspaceSize{0};

private:
    int64_t count_;
    float addend_;
};

/// Holds its stream until open() is called, so that work can be queued
/// behind it deterministically.
class Gate final : public aclcpu::DeviceTask {
public:
    explicit Gate(std::shared_future<void> opened) : opened_(std::move(opened)) {}
    aclError run() noexcept override {
        opened_.wait();
        return ACL_SUCCESS;
    }
    const char* name() const noexcept override { return "test gate"; }

private:
    std::shared_future<void> opened_;
};

class Executor : public ::testing::Test {
protected:
    // The test kernel works on host vectors to observe exactly what each run
    // saw; device-memory checking (which would refuse them) has its own tests.
    static void SetUpTestSuite() {
        setenv("ACLCPU_MEMCHECK", "0", 1);
        ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    }
    static void TearDownTestSuite() {
        EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
        EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
        EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
        unsetenv("ACLCPU_MEMCHECK");
    }

    void SetUp() override {
        input_.assign(kCount, 0.0f);
        for (int64_t i = 0; i < kCount; ++i) input_[i] = static_cast<float>(i) * 0.5f;
        output_.assign(kCount, -1.0f);
        inTensor_ = aclCreateTensor(&kCount, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, &kCount, 1, input_.data());
        outTensor_ = aclCreateTensor(&kCount, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, &kCount, 1, output_.data());
        ASSERT_NE(inTensor_, nullptr);
        ASSERT_NE(outTensor_, nullptr);
        take_error_message();
    }
    void TearDown() override {
        EXPECT_EQ(aclDestroyTensor(inTensor_), ACLNN_SUCCESS);
        EXPECT_EQ(aclDestroyTensor(outTensor_), ACLNN_SUCCESS);
    }

    aclOpExecutor* plan(uint64_t workspaceSize = 0) {
        return aclcpu::make_executor(kernel_, {inTensor_}, {outTensor_}, workspaceSize);
    }
    aclnnStatus run(aclOpExecutor* executor, void* workspace = nullptr, uint64_t workspaceSize = 0) {
        return aclcpu::run_executor("aclnnTestAdd", workspace, workspaceSize, executor, stream_);
    }
    static void sync() { ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS); }

    /// Expects out[i] == in[i] + 1 for every element.
    static void expect_added(const std::vector<float>& in, const std::vector<float>& out) {
        for (int64_t i = 0; i < kCount; ++i) ASSERT_EQ(out[i], in[i] + 1.0f) << "element " << i;
    }

    static constexpr int64_t kCount = 37;
    static aclrtStream stream_;
    std::shared_ptr<AddKernel> kernel_ = std::make_shared<AddKernel>(kCount);
    std::vector<float> input_;
    std::vector<float> output_;
    aclTensor* inTensor_ = nullptr;
    aclTensor* outTensor_ = nullptr;
};

aclrtStream Executor::stream_ = nullptr;

TEST_F(Executor, SingleUseRunsOnceThenIsGone) {
    aclOpExecutor* executor = plan();
    ASSERT_NE(executor, nullptr);
    ASSERT_EQ(run(executor), ACLNN_SUCCESS);
    sync();
    expect_added(input_, output_);
    EXPECT_EQ(kernel_->runs.load(), 1);

    EXPECT_EQ(run(executor), ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(take_error_message().find("not valid"), std::string::npos);
    EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_ERR_PARAM_INVALID);
    sync();
    EXPECT_EQ(kernel_->runs.load(), 1);
}

TEST_F(Executor, NullExecutorIsRefusedFirst) {
    EXPECT_EQ(run(nullptr, nullptr, 64), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_NE(take_error_message().find("executor is nullptr"), std::string::npos);
}

TEST_F(Executor, MissingWorkspaceIsRefusedAndFreesTheExecutor) {
    aclOpExecutor* executor = plan(64);
    ASSERT_NE(executor, nullptr);
    ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
    EXPECT_EQ(run(executor, nullptr, 64), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_NE(take_error_message().find("workspace is nullptr"), std::string::npos);
    EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_ERR_PARAM_INVALID);
    sync();
    EXPECT_EQ(kernel_->runs.load(), 0);
}

TEST_F(Executor, WorkspaceSmallerThanPlannedIsRefusedBeforeAnyWrite) {
    std::vector<unsigned char> workspace(32);
    aclOpExecutor* executor = plan(64);
    ASSERT_NE(executor, nullptr);
    EXPECT_EQ(run(executor, workspace.data(), workspace.size()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(take_error_message().find("smaller than"), std::string::npos);
    sync();
    EXPECT_EQ(kernel_->runs.load(), 0);
}

TEST_F(Executor, KernelSeesTheWorkspace) {
    std::vector<unsigned char> workspace(64);
    ASSERT_EQ(run(plan(64), workspace.data(), workspace.size()), ACLNN_SUCCESS);
    sync();
    EXPECT_EQ(kernel_->lastWorkspace.load(), workspace.data());
    EXPECT_EQ(kernel_->lastWorkspaceSize.load(), 64u);
}

TEST_F(Executor, RepeatableRunsUntilDestroyed) {
    aclOpExecutor* executor = plan();
    ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
    constexpr int kRuns = 100;
    for (int i = 0; i < kRuns; ++i) ASSERT_EQ(run(executor), ACLNN_SUCCESS);
    sync();
    EXPECT_EQ(kernel_->runs.load(), kRuns);
    expect_added(input_, output_);

    EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
    EXPECT_EQ(run(executor), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclSetInputTensorAddr(executor, 0, nullptr, input_.data()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(kernel_->runs.load(), kRuns);
}

// A run is queued with the addresses of the moment: refreshing them affects
// later runs only.  The gate keeps both runs queued while the test rewires.
TEST_F(Executor, AddressRefreshAffectsLaterRunsOnly) {
    aclOpExecutor* executor = plan();
    ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
    std::vector<float> secondInput(kCount);
    for (int64_t i = 0; i < kCount; ++i) secondInput[i] = 100.0f - static_cast<float>(i);
    std::vector<float> secondOutput(kCount, -1.0f);

    std::promise<void> opener;
    ASSERT_EQ(aclcpu::enqueue(stream_, std::make_unique<Gate>(opener.get_future().share())), ACL_SUCCESS);
    ASSERT_EQ(run(executor), ACLNN_SUCCESS);
    EXPECT_EQ(aclSetInputTensorAddr(executor, 0, inTensor_, secondInput.data()), ACLNN_SUCCESS);
    EXPECT_EQ(aclSetOutputTensorAddr(executor, 0, outTensor_, secondOutput.data()), ACLNN_SUCCESS);
    ASSERT_EQ(run(executor), ACLNN_SUCCESS);
    opener.set_value();
    sync();

    expect_added(input_, output_);
    expect_added(secondInput, secondOutput);
    EXPECT_EQ(aclcpu::data_of(inTensor_), secondInput.data());
    EXPECT_EQ(aclcpu::data_of(outTensor_), secondOutput.data());
    EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
}

TEST_F(Executor, SetTensorAddrCountsOverInputsThenOutputs) {
    aclOpExecutor* executor = plan();
    ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
    std::vector<float> otherOutput(kCount, -1.0f);
    // Index 1 over all tensors is the first output; no tensor to update.
    EXPECT_EQ(aclSetTensorAddr(executor, 1, nullptr, otherOutput.data()), ACLNN_SUCCESS);
    ASSERT_EQ(run(executor), ACLNN_SUCCESS);
    sync();
    expect_added(input_, otherOutput);
    EXPECT_EQ(output_[0], -1.0f) << "the old output must be left alone";
    EXPECT_EQ(aclcpu::data_of(outTensor_), output_.data());
    EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
}

TEST_F(Executor, CapitalisedAliasesBehaveAlike) {
    aclOpExecutor* executor = plan();
    ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
    std::vector<float> otherInput(kCount, 7.0f);
    std::vector<float> otherOutput(kCount, -1.0f);
    EXPECT_EQ(AclSetInputTensorAddr(executor, 0, nullptr, otherInput.data()), ACLNN_SUCCESS);
    EXPECT_EQ(AclSetOutputTensorAddr(executor, 0, nullptr, otherOutput.data()), ACLNN_SUCCESS);
    ASSERT_EQ(run(executor), ACLNN_SUCCESS);
    sync();
    expect_added(otherInput, otherOutput);
    EXPECT_EQ(AclSetTensorAddr(executor, 0, inTensor_, input_.data()), ACLNN_SUCCESS);
    EXPECT_EQ(AclSetTensorAddr(executor, 1, outTensor_, output_.data()), ACLNN_SUCCESS);
    ASSERT_EQ(run(executor), ACLNN_SUCCESS);
    sync();
    expect_added(input_, output_);
    EXPECT_EQ(AclSetTensorAddr(executor, 2, nullptr, nullptr), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
}

TEST_F(Executor, SettersRefuseOutOfRangeIndicesAndNullExecutors) {
    aclOpExecutor* executor = plan();
    ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
    void* addr = output_.data();
    EXPECT_EQ(aclSetInputTensorAddr(executor, 1, outTensor_, input_.data()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(take_error_message().find("out of range"), std::string::npos);
    EXPECT_EQ(aclSetOutputTensorAddr(executor, 1, nullptr, addr), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclSetTensorAddr(executor, 2, nullptr, addr), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclcpu::data_of(outTensor_), output_.data()) << "a refused call must not touch the tensor";
    EXPECT_EQ(aclSetInputTensorAddr(nullptr, 0, inTensor_, addr), ACLNN_ERR_INNER_NULLPTR);
    EXPECT_EQ(aclSetOutputTensorAddr(nullptr, 0, outTensor_, addr), ACLNN_ERR_INNER_NULLPTR);
    EXPECT_EQ(aclSetTensorAddr(nullptr, 0, inTensor_, addr), ACLNN_ERR_INNER_NULLPTR);
    EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
}

TEST_F(Executor, NullHandlesGiveInnerNullptr) {
    EXPECT_EQ(aclSetAclOpExecutorRepeatable(nullptr), ACLNN_ERR_INNER_NULLPTR);
    EXPECT_EQ(aclDestroyAclOpExecutor(nullptr), ACLNN_ERR_INNER_NULLPTR);
}

TEST_F(Executor, EmptyExecutorLaunchesNothing) {
    aclOpExecutor* executor = aclcpu::make_executor(nullptr, {}, {}, 0);
    ASSERT_NE(executor, nullptr);
    EXPECT_EQ(run(executor), ACLNN_SUCCESS);
    EXPECT_EQ(run(executor), ACLNN_ERR_PARAM_INVALID) << "an empty executor is single-use too";

    aclOpExecutor* repeatable = aclcpu::make_executor(nullptr, {inTensor_}, {outTensor_}, 0);
    ASSERT_EQ(aclSetAclOpExecutorRepeatable(repeatable), ACLNN_SUCCESS);
    EXPECT_EQ(run(repeatable), ACLNN_SUCCESS);
    EXPECT_EQ(run(repeatable), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyAclOpExecutor(repeatable), ACLNN_SUCCESS);
    sync();
    EXPECT_EQ(output_[0], -1.0f);
}

TEST_F(Executor, AclnnInitAndFinalizeSucceed) {
    EXPECT_EQ(aclnnInit(nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(aclnnFinalize(), ACLNN_SUCCESS);
}

}  // namespace
