// Conditional tasks of captured models: aclmdlRICondHandleCreate,
// aclmdlRICondHandleGetCondPtr, aclmdlRIAddCondTask and
// aclmdlRICaptureToModelRIBegin.  What each task does follows CANN's device
// code for it (src/runtime/core/src/task/stars_cond_isa_helper.cc:
// ConstructIfCondSetupBranch, ConstructWhileCondSetupBranch,
// ConstructSwitchCondSetupBranch); the default value is assigned when the
// model is executed (CaptureModel::PreModelExecute,
// src/runtime/feature/aclgraph/capture_model.cc); the checks and codes are
// those of src/acl/aclrt_impl/model_ri.cpp,
// src/runtime/feature/aclgraph/api_error_aclgraph.cc and
// v100/api_impl_aclgraph.cc (ModelCondHandleCreate,
// StreamAddCondTaskParasCheck) and aclgraph_cond_task.cc
// (CheckCondTaskParamsSize).
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <vector>

#include "runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

using GraphCondition = RuntimeTest;

/// A parent model captured on `stream` with one conditional task of `type`
/// whose branch i, when it runs, adds 1 to runs[i]; the handle's word is
/// `word`.
class CondModel {
public:
    CondModel(aclmdlRICondTaskType type, uint32_t branches, aclmdlRICondHandleFlag flag = aclmdlRICondHandleFlag(0),
              uint32_t defaultValue = 0)
        : runs(branches) {
        EXPECT_ACL_OK(aclmdlRICaptureBegin(stream_.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
        EXPECT_ACL_OK(aclmdlRICaptureGetInfo(stream_.get(), nullptr, &model_));
        EXPECT_ACL_OK(aclmdlRICondHandleCreate(model_, defaultValue, flag, &handle_));
        EXPECT_ACL_OK(aclmdlRICondHandleGetCondPtr(handle_, &word));
        std::vector<aclmdlRI> models(branches, nullptr);
        aclmdlRICondTaskParams params{handle_, type, branches, models.data()};
        EXPECT_ACL_OK(aclmdlRIAddCondTask(params, stream_.get(), 0));
        for (uint32_t i = 0; i < branches; ++i) {
            EXPECT_NE(nullptr, models[i]);
            if (models[i] == nullptr) continue;  // The branch's work would run at once, outside any model.
            EXPECT_ACL_OK(aclmdlRICaptureToModelRIBegin(side_.get(), models[i], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
            EXPECT_ACL_OK(aclcpu::enqueue(side_.get(), std::make_unique<FunctionTask>([this, i] {
                runs[i].fetch_add(1);
                if (body) body();
            })));
            aclmdlRI ended = nullptr;
            EXPECT_ACL_OK(aclmdlRICaptureEnd(side_.get(), &ended));
            EXPECT_EQ(models[i], ended);
        }
        aclmdlRI ended = nullptr;
        EXPECT_ACL_OK(aclmdlRICaptureEnd(stream_.get(), &ended));
        EXPECT_EQ(model_, ended);
    }
    ~CondModel() { aclmdlRIDestroy(model_); }

    /// Writes the word from the host, as CANN's examples do, and runs the model once.
    std::vector<int> run_with(uint64_t value) {
        EXPECT_ACL_OK(aclrtMemcpy(word, sizeof value, &value, sizeof value, ACL_MEMCPY_HOST_TO_DEVICE));
        return run();
    }
    /// Runs the model once; how often each branch ran.
    std::vector<int> run() {
        for (std::atomic<int>& count : runs) count = 0;
        EXPECT_ACL_OK(aclmdlRIExecuteAsync(model_, stream_.get()));
        EXPECT_ACL_OK(aclrtSynchronizeStream(stream_.get()));
        std::vector<int> counts;
        for (const std::atomic<int>& count : runs) counts.push_back(count.load());
        return counts;
    }
    uint64_t read_word() const {
        uint64_t value = 0;
        EXPECT_ACL_OK(aclrtMemcpy(&value, sizeof value, word, sizeof value, ACL_MEMCPY_DEVICE_TO_HOST));
        return value;
    }

    uint64_t* word = nullptr;
    std::vector<std::atomic<int>> runs;
    std::function<void()> body;  ///< Also run by each branch's task (a WHILE body's update).

private:
    Stream stream_;
    Stream side_;
    aclmdlRI model_ = nullptr;
    aclmdlRICondHandle handle_ = nullptr;
};

// IF: a word that is not 0 runs branch 0, a word of 0 branch 1 -- or
// nothing when the task has one branch (ConstructIfCondSetupBranch).
TEST_F(GraphCondition, AnIfRunsTheBranchItsWordChooses) {
    CondModel both(ACL_MODEL_RI_COND_TYPE_IF, 2);
    EXPECT_EQ((std::vector<int>{1, 0}), both.run_with(1));
    EXPECT_EQ((std::vector<int>{1, 0}), both.run_with(0xFFFFFFFF00000000ull)) << "all 64 bits count";
    EXPECT_EQ((std::vector<int>{0, 1}), both.run_with(0));
    CondModel one(ACL_MODEL_RI_COND_TYPE_IF, 1);
    EXPECT_EQ((std::vector<int>{1}), one.run_with(7));
    EXPECT_EQ((std::vector<int>{0}), one.run_with(0));
}

// SWITCH: the word is the index of the branch to run; a word past the last
// branch runs none (ConstructSwitchCondSetupBranch).
TEST_F(GraphCondition, ASwitchRunsTheBranchItsWordNames) {
    CondModel cases(ACL_MODEL_RI_COND_TYPE_SWITCH, 3);
    EXPECT_EQ((std::vector<int>{1, 0, 0}), cases.run_with(0));
    EXPECT_EQ((std::vector<int>{0, 0, 1}), cases.run_with(2));
    EXPECT_EQ((std::vector<int>{0, 0, 0}), cases.run_with(3));
}

// WHILE: the body runs as long as the word, read before each run, is not 0;
// the body's own work changes it (ConstructWhileCondSetupBranch and the
// jump back, ConstructCaptureConditionJumpBackFc).
TEST_F(GraphCondition, AWhileRunsItsBodyUntilTheBodyClearsTheWord) {
    CondModel loop(ACL_MODEL_RI_COND_TYPE_WHILE, 1);
    loop.body = [&loop] { __atomic_sub_fetch(loop.word, 1, __ATOMIC_RELEASE); };
    EXPECT_EQ((std::vector<int>{5}), loop.run_with(5));
    EXPECT_EQ(0u, loop.read_word());
    EXPECT_EQ((std::vector<int>{0}), loop.run_with(0));
}

// ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT: each aclmdlRIExecuteAsync sets the
// word to the default value before the run (CondHandle::InitCondTaskByDefValue
// from CaptureModel::PreModelExecute), so a value the host wrote before is
// lost -- what CANN's example 3_cond_model prints.  Flag 0 keeps the word.
TEST_F(GraphCondition, TheDefaultValueIsAssignedAtEachExecution) {
    CondModel assigned(ACL_MODEL_RI_COND_TYPE_IF, 2, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, 0);
    EXPECT_EQ((std::vector<int>{0, 1}), assigned.run_with(1));
    CondModel preset(ACL_MODEL_RI_COND_TYPE_SWITCH, 3, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, 2);
    EXPECT_EQ((std::vector<int>{0, 0, 1}), preset.run_with(0));
    EXPECT_EQ(2u, preset.read_word());
    CondModel kept(ACL_MODEL_RI_COND_TYPE_IF, 2);
    EXPECT_EQ(0u, kept.read_word()) << "a new handle's word is 0 (CondHandle::Setup)";
    EXPECT_EQ((std::vector<int>{1, 0}), kept.run_with(1));
    EXPECT_EQ((std::vector<int>{1, 0}), kept.run()) << "without the flag the word keeps its value";
}

// The checks of aclmdlRICondHandleCreate and aclmdlRICondHandleGetCondPtr:
// null pointers in the acl layer (100000), an unknown handle in the rts
// handle check (107017), a flag above ASSIGN_DEFAULT (107000), a model not
// being captured (107000, ApiImpl::ModelCondHandleCreate).
TEST_F(GraphCondition, HandleCreationChecksItsArguments) {
    Stream stream;
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    aclmdlRI model = nullptr;
    ASSERT_ACL_OK(aclmdlRICaptureGetInfo(stream.get(), nullptr, &model));
    aclmdlRICondHandle handle = nullptr;
    const auto flag = aclmdlRICondHandleFlag(0);
    EXPECT_ACL_FAILS(aclmdlRICondHandleCreate(nullptr, 0, flag, &handle), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclmdlRICondHandleCreate(model, 0, flag, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclmdlRICondHandleCreate(model, 0, aclmdlRICondHandleFlag(2), &handle),
                     ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_ACL_OK(aclmdlRICondHandleCreate(model, 0, flag, &handle));
    uint64_t* word = nullptr;
    EXPECT_ACL_FAILS(aclmdlRICondHandleGetCondPtr(nullptr, &word), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclmdlRICondHandleGetCondPtr(handle, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclmdlRICondHandleGetCondPtr(&word, &word), ACL_ERROR_RT_INVALID_HANDLE);
    aclmdlRI ended = nullptr;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), &ended));
    EXPECT_ACL_FAILS(aclmdlRICondHandleCreate(model, 0, flag, &handle), ACL_ERROR_RT_PARAM_INVALID)
        << "the capture has ended";
    ASSERT_ACL_OK(aclmdlRIDestroy(model));
    EXPECT_ACL_FAILS(aclmdlRICondHandleGetCondPtr(handle, &word), ACL_ERROR_RT_INVALID_HANDLE)
        << "a handle goes with its model";
}

// The checks of aclmdlRIAddCondTask (ApiErrorDecorator::StreamAddCondTask,
// ApiImpl::StreamAddCondTaskParasCheck, CheckCondTaskParamsSize) and of
// aclmdlRICaptureToModelRIBegin (a model captured already: 107026).
TEST_F(GraphCondition, AddingATaskChecksItsArguments) {
    Stream stream;
    Stream other;
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    aclmdlRI model = nullptr;
    ASSERT_ACL_OK(aclmdlRICaptureGetInfo(stream.get(), nullptr, &model));
    aclmdlRICondHandle handle = nullptr;
    ASSERT_ACL_OK(aclmdlRICondHandleCreate(model, 0, aclmdlRICondHandleFlag(0), &handle));
    aclmdlRI branches[3] = {};
    const auto params = [&](aclmdlRICondTaskType type, uint32_t size) {
        return aclmdlRICondTaskParams{handle, type, size, branches};
    };
    EXPECT_ACL_FAILS(aclmdlRIAddCondTask(params(ACL_MODEL_RI_COND_TYPE_IF, 1), nullptr, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclmdlRIAddCondTask(params(aclmdlRICondTaskType(3), 1), stream.get(), 0),
                     ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclmdlRIAddCondTask(params(ACL_MODEL_RI_COND_TYPE_IF, 1), stream.get(), 1),
                     ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclmdlRIAddCondTask({nullptr, ACL_MODEL_RI_COND_TYPE_IF, 1, branches}, stream.get(), 0),
                     ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclmdlRIAddCondTask({handle, ACL_MODEL_RI_COND_TYPE_IF, 1, nullptr}, stream.get(), 0),
                     ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclmdlRIAddCondTask(params(ACL_MODEL_RI_COND_TYPE_IF, 1), other.get(), 0),
                     ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    for (const auto& [type, size] : {std::pair{ACL_MODEL_RI_COND_TYPE_IF, 3u}, std::pair{ACL_MODEL_RI_COND_TYPE_IF, 0u},
                                      std::pair{ACL_MODEL_RI_COND_TYPE_WHILE, 2u},
                                      std::pair{ACL_MODEL_RI_COND_TYPE_SWITCH, 0u}}) {
        // Copies: the check's lambda cannot capture structured bindings in C++17.
        const auto condType = type;
        const auto branchCount = size;
        EXPECT_ACL_FAILS(aclmdlRIAddCondTask(params(condType, branchCount), stream.get(), 0),
                         ACL_ERROR_RT_PARAM_INVALID)
            << "type " << condType << ", size " << branchCount;
    }
    EXPECT_EQ(nullptr, branches[0]) << "a refused task makes no branch";
    ASSERT_ACL_OK(aclmdlRIAddCondTask(params(ACL_MODEL_RI_COND_TYPE_SWITCH, 3), stream.get(), 0));
    EXPECT_ACL_FAILS(aclmdlRIAddCondTask(params(ACL_MODEL_RI_COND_TYPE_IF, 1), stream.get(), 0),
                     ACL_ERROR_RT_PARAM_INVALID)
        << "a handle takes one task";
    EXPECT_ACL_FAILS(aclmdlRICaptureToModelRIBegin(other.get(), model, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
                     ACL_ERROR_RT_MODEL_CAPTURED);
    ASSERT_ACL_OK(aclmdlRICaptureToModelRIBegin(other.get(), branches[1], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    aclmdlRI ended = nullptr;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(other.get(), &ended));
    EXPECT_ACL_FAILS(aclmdlRICaptureToModelRIBegin(other.get(), branches[1], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
                     ACL_ERROR_RT_MODEL_CAPTURED);
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream.get(), &ended));
    // Branches never captured run nothing.
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream.get()));
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream.get()));
    ASSERT_ACL_OK(aclmdlRIDestroy(model));
    EXPECT_ACL_FAILS(aclmdlRICaptureToModelRIBegin(other.get(), branches[2], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
                     ACL_ERROR_RT_INVALID_HANDLE, ACL_ERROR_RT_PARAM_INVALID)
        << "the branches go with their model";
}

}  // namespace
}  // namespace aclcpu::test
