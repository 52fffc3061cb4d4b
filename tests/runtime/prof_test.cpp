// The profiling API (acl_prof.h): aclprofInit..aclprofFinalize around
// aclprofStart..aclprofStop leaves a timeline trace in the result directory
// with the msproftx marks and ranges and the stream marks; the call order
// and arguments CANN documents are enforced.  The MindStudio mstx markers
// (mstx/ms_tools_ext.h) land on the same trace.  Operator subscription
// (aclprofModelSubscribe) writes a record per operator of each replay of a
// subscribed aclmdlRI into the user's pipe.
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "aclnnop/aclnn_hardshrink_backward.h"
#include "aclnnop/aclnn_softplus_backward.h"
#include "mstx/ms_tools_ext.h"
#include "runtime/runtime_test_support.hpp"

// aprof_pub.h (CANN's libprofapi header, which acl-cpu does not ship).
extern "C" int32_t MsprofSetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId);

namespace aclcpu::test {
namespace {

using nlohmann::json;

std::string fresh_directory(const char* name) {
    const std::string path = ::testing::TempDir() + name + "_" + std::to_string(::getpid());
    std::filesystem::remove_all(path);
    return path;
}

/// The one trace file a collection left in directory.
json only_trace_in(const std::string& directory) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(directory)) files.push_back(entry.path());
    EXPECT_EQ(files.size(), 1u) << "in " << directory;
    if (files.empty()) return json();
    std::ifstream file(files.front());
    return json::parse(file, nullptr, false);
}

/// The names of the trace's events of category cat and phase ph.
std::multiset<std::string> names_of(const json& trace, const std::string& cat, const std::string& ph) {
    std::multiset<std::string> names;
    for (const json& event : trace["traceEvents"]) {
        if (event.value("cat", "") == cat && event["ph"] == ph) names.insert(event["name"].get<std::string>());
    }
    return names;
}

class Profiling : public RuntimeTest {
protected:
    void SetUp() override {
        RuntimeTest::SetUp();
        directory_ = fresh_directory("aclprof");
    }
    void TearDown() override {
        std::filesystem::remove_all(directory_);
        RuntimeTest::TearDown();
    }

    aclprofConfig* device0_config() {
        uint32_t devices[] = {0};
        return aclprofCreateConfig(devices, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_ACL_API | ACL_PROF_MSPROFTX);
    }

    std::string directory_;
};

// 19-02_msproftx_extension_apis.md (aclprofMark, aclprofPush/aclprofPop,
// aclprofRangeStart/aclprofRangeStop, aclprofMarkEx) and
// 19-04 (aclprofGetStepTimestamp), between aclprofStart and aclprofStop
// (19-01_data_profiling_apis.md): each lands on the collection's timeline.
TEST_F(Profiling, CollectionWritesMarksAndRangesToTheTimeline) {
    ASSERT_ACL_OK(aclprofInit(directory_.c_str(), directory_.size()));
    aclprofConfig* config = device0_config();
    ASSERT_NE(config, nullptr) << take_error_message();
    ASSERT_ACL_OK(aclprofStart(config));

    void* stamp = aclprofCreateStamp();
    ASSERT_NE(stamp, nullptr) << take_error_message();
    const char kMessage[] = "forward pass";
    ASSERT_ACL_OK(aclprofSetStampTraceMessage(stamp, kMessage, sizeof kMessage - 1));
    ASSERT_ACL_OK(aclprofMark(stamp));
    ASSERT_ACL_OK(aclprofPush(stamp));
    ASSERT_ACL_OK(aclprofPop());
    uint32_t rangeId = 0;
    ASSERT_ACL_OK(aclprofRangeStart(stamp, &rangeId));
    // A range may end on another thread (aclprofRangeStop).
    std::thread([&] { EXPECT_ACL_OK(aclprofRangeStop(rangeId)); }).join();
    aclprofDestroyStamp(stamp);

    Stream stream;
    ASSERT_ACL_OK(aclprofMarkEx("on the stream", 13, stream.get()));
    aclprofStepInfo* step = aclprofCreateStepInfo();
    ASSERT_ACL_OK(aclprofGetStepTimestamp(step, ACL_STEP_START, stream.get()));
    ASSERT_ACL_OK(aclprofGetStepTimestamp(step, ACL_STEP_END, stream.get()));
    aclprofDestroyStepInfo(step);
    ASSERT_ACL_OK(aclprofStop(config));
    ASSERT_ACL_OK(aclprofDestroyConfig(config));
    ASSERT_ACL_OK(aclprofFinalize());

    const json trace = only_trace_in(directory_);
    ASSERT_TRUE(trace.is_object()) << "the trace is not valid JSON";
    EXPECT_EQ(names_of(trace, "msproftx", "i"), std::multiset<std::string>{kMessage});
    EXPECT_EQ(names_of(trace, "msproftx", "X"), std::multiset<std::string>{kMessage});
    EXPECT_EQ(names_of(trace, "msproftx", "b"), std::multiset<std::string>{kMessage});
    EXPECT_EQ(names_of(trace, "msproftx", "e"), std::multiset<std::string>{kMessage});
    EXPECT_EQ(names_of(trace, "task", "X"),
              (std::multiset<std::string>{"on the stream", "Step 1 start", "Step 1 end"}));
}

// 19-01_data_profiling_apis.md, 接口约束说明: aclprofStart/aclprofStop/
// aclprofFinalize fail without aclprofInit; a second aclprofStart on a
// device already profiled fails; aclprofStop takes the config of a running
// collection.  msproftx calls belong between aclprofStart and aclprofStop (19-02).
TEST_F(Profiling, CallOrderIsEnforced) {
    aclprofConfig* config = device0_config();
    ASSERT_NE(config, nullptr);
    EXPECT_ACL_FAILS(aclprofStart(config), ACL_ERROR_PROF_NOT_RUN);
    EXPECT_ACL_FAILS(aclprofFinalize(), ACL_ERROR_PROF_NOT_RUN);
    ASSERT_ACL_OK(aclprofInit(directory_.c_str(), directory_.size()));
    EXPECT_ACL_FAILS(aclprofInit(directory_.c_str(), directory_.size()), ACL_ERROR_REPEAT_INITIALIZE);
    EXPECT_ACL_FAILS(aclprofStop(config), ACL_ERROR_PROF_NOT_RUN);
    EXPECT_ACL_FAILS(aclprofMarkEx("early", 5, nullptr), ACL_ERROR_PROF_NOT_RUN);
    EXPECT_EQ(aclprofCreateStamp(), nullptr);
    EXPECT_FALSE(take_error_message().empty());

    ASSERT_ACL_OK(aclprofStart(config));
    EXPECT_ACL_FAILS(aclprofStart(config), ACL_ERROR_PROF_ALREADY_RUN);
    EXPECT_ACL_FAILS(aclprofPop(), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclprofRangeStop(12345), ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(aclprofStop(config));
    ASSERT_ACL_OK(aclprofFinalize());
    ASSERT_ACL_OK(aclprofDestroyConfig(config));
    EXPECT_ACL_FAILS(aclprofDestroyConfig(config), ACL_ERROR_INVALID_PARAM);
}

// 19-01 (aclprofInit: length at most 4096; aclprofSetConfig: at most 256
// bytes of a known aclprofConfigType) and 25-03 (aclprofCreateConfig).
TEST_F(Profiling, ArgumentsAreChecked) {
    EXPECT_ACL_FAILS(aclprofInit(nullptr, 4), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclprofInit(directory_.c_str(), 5000), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclprofSetConfig(static_cast<aclprofConfigType>(99), "1", 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, nullptr, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_OK(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "200MB", 5));
    uint32_t missing[] = {7};
    EXPECT_EQ(aclprofCreateConfig(missing, 1, ACL_AICORE_NONE, nullptr, 0), nullptr);
    EXPECT_FALSE(take_error_message().empty());
    uint32_t twice[] = {0, 0};
    EXPECT_EQ(aclprofCreateConfig(twice, 2, ACL_AICORE_NONE, nullptr, 0), nullptr);
    EXPECT_EQ(aclprofCreateConfig(nullptr, 0, static_cast<aclprofAicoreMetrics>(42), nullptr, 0), nullptr);
    EXPECT_EQ(aclprofStr2Id(nullptr), UINT64_MAX);
    // 19-02 aclprofStr2Id: the same text, the same id.
    EXPECT_EQ(aclprofStr2Id("MatMul"), aclprofStr2Id("MatMul"));
    EXPECT_NE(aclprofStr2Id("MatMul"), aclprofStr2Id("Add"));
}

// ---- operator subscription (19-03_subscription_to_operator_information.md) ----

/// A pipe whose ends are closed at scope end unless something closed them.
class Pipe {
public:
    Pipe() { EXPECT_EQ(0, ::pipe(fds_)); }
    ~Pipe() {
        if (fds_[0] >= 0) ::close(fds_[0]);
    }
    Pipe(const Pipe&) = delete;
    Pipe& operator=(const Pipe&) = delete;
    /// The write end, as aclprofCreateSubscribeConfig takes it.
    int* write_end() { return &fds_[1]; }
    /// Everything written until every write end is closed.
    std::vector<char> read_to_end() {
        std::vector<char> bytes;
        char chunk[4096];
        ssize_t got = 0;
        while ((got = ::read(fds_[0], chunk, sizeof(chunk))) > 0) bytes.insert(bytes.end(), chunk, chunk + got);
        return bytes;
    }

private:
    int fds_[2] = {-1, -1};
};

/// A captured model of two operators behind two memsets (no operators):
/// SoftplusBackward, then HardshrinkBackward on its result.
class TwoOperatorModel {
public:
    static constexpr int64_t kElements = 16;
    static constexpr size_t kBytes = kElements * sizeof(float);

    TwoOperatorModel() : gradOutput_(kBytes), self_(kBytes), softplus_(kBytes), hardshrink_(kBytes) {
        EXPECT_ACL_OK(aclmdlRICaptureBegin(stream_.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
        EXPECT_ACL_OK(aclrtMemsetAsync(gradOutput_.get(), kBytes, 0, kBytes, stream_.get()));
        EXPECT_ACL_OK(aclrtMemsetAsync(self_.get(), kBytes, 0, kBytes, stream_.get()));
        launch_softplus_backward();
        launch_hardshrink_backward();
        EXPECT_ACL_OK(aclmdlRICaptureEnd(stream_.get(), &model_));
        EXPECT_ACL_OK(aclmdlRIGetId(model_, &id_));
    }
    ~TwoOperatorModel() {
        aclmdlRIDestroy(model_);
        for (aclTensor* tensor : tensors_) aclDestroyTensor(tensor);
        for (aclScalar* scalar : scalars_) aclDestroyScalar(scalar);
    }
    TwoOperatorModel(const TwoOperatorModel&) = delete;
    TwoOperatorModel& operator=(const TwoOperatorModel&) = delete;

    uint32_t id() const { return id_; }
    void replay() {
        ASSERT_ACL_OK(aclmdlRIExecuteAsync(model_, stream_.get()));
        ASSERT_ACL_OK(aclrtSynchronizeStream(stream_.get()));
    }

private:
    aclTensor* tensor(void* data) {
        const int64_t shape[] = {kElements};
        const int64_t strides[] = {1};
        tensors_.push_back(aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, data));
        return tensors_.back();
    }
    aclScalar* scalar(float value) {
        scalars_.push_back(aclCreateScalar(&value, ACL_FLOAT));
        return scalars_.back();
    }
    void launch_softplus_backward() {
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        ASSERT_ACL_OK(aclnnSoftplusBackwardGetWorkspaceSize(tensor(gradOutput_.get()), tensor(self_.get()),
                                                            scalar(1.0f), scalar(20.0f), tensor(softplus_.get()),
                                                            &workspace, &executor));
        ASSERT_ACL_OK(aclnnSoftplusBackward(nullptr, 0, executor, stream_.get()));
    }
    void launch_hardshrink_backward() {
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        ASSERT_ACL_OK(aclnnHardshrinkBackwardGetWorkspaceSize(tensor(softplus_.get()), tensor(self_.get()),
                                                              scalar(0.5f), tensor(hardshrink_.get()), &workspace,
                                                              &executor));
        ASSERT_ACL_OK(aclnnHardshrinkBackward(nullptr, 0, executor, stream_.get()));
    }

    Stream stream_;
    DeviceBuffer gradOutput_;
    DeviceBuffer self_;
    DeviceBuffer softplus_;
    DeviceBuffer hardshrink_;
    std::vector<aclTensor*> tensors_;
    std::vector<aclScalar*> scalars_;
    aclmdlRI model_ = nullptr;
    uint32_t id_ = 0;
};

/// The records of `replays` replays of a fresh TwoOperatorModel, read after
/// aclprofModelUnSubscribe closed the pipe.
std::vector<char> records_of_replays(int replays, uint32_t* modelId = nullptr) {
    TwoOperatorModel model;
    Pipe pipe;
    aclprofSubscribeConfig* config = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, pipe.write_end());
    EXPECT_NE(nullptr, config) << take_error_message();
    EXPECT_ACL_OK(aclprofModelSubscribe(model.id(), config));
    for (int i = 0; i < replays; ++i) model.replay();
    EXPECT_ACL_OK(aclprofModelUnSubscribe(model.id()));
    EXPECT_ACL_OK(aclprofDestroySubscribeConfig(config));
    if (modelId != nullptr) *modelId = model.id();
    return pipe.read_to_end();
}

std::string op_type(const std::vector<char>& records, uint32_t index) {
    size_t length = 0;
    EXPECT_ACL_OK(aclprofGetOpTypeLen(records.data(), records.size(), index, &length));
    std::string type(length, '?');
    EXPECT_ACL_OK(aclprofGetOpType(records.data(), records.size(), index, type.data(), length));
    return type.c_str();
}

std::string op_name(const std::vector<char>& records, uint32_t index) {
    size_t length = 0;
    EXPECT_ACL_OK(aclprofGetOpNameLen(records.data(), records.size(), index, &length));
    std::string name(length, '?');
    EXPECT_ACL_OK(aclprofGetOpName(records.data(), records.size(), index, name.data(), length));
    return name.c_str();
}

// 19-03: a subscribed model reports its operators -- type, name, start, end,
// duration, model -- each time it runs; 25-03 aclprofCreateSubscribeConfig:
// after aclprofModelUnSubscribe the pipe's write end is closed once the data
// is sent (so the reader's read() ends).  The memsets are no operators.
TEST_F(Profiling, SubscribedModelReportsEachOperatorOfEachReplay) {
    uint32_t modelId = 0;
    const std::vector<char> records = records_of_replays(2, &modelId);
    size_t recordSize = 0;
    ASSERT_ACL_OK(aclprofGetOpDescSize(&recordSize));
    ASSERT_EQ(4 * recordSize, records.size());
    uint32_t count = 0;
    ASSERT_ACL_OK(aclprofGetOpNum(records.data(), records.size(), &count));
    ASSERT_EQ(4u, count);
    uint64_t previousEnd = 0;
    for (uint32_t i = 0; i < count; ++i) {
        const bool softplus = i % 2 == 0;
        EXPECT_EQ(softplus ? "SoftplusBackward" : "HardshrinkBackward", op_type(records, i)) << i;
        EXPECT_EQ(0u, op_name(records, i).find(softplus ? "aclnnSoftplusBackward_" : "aclnnHardshrinkBackward_"));
        EXPECT_EQ(modelId, aclprofGetModelId(records.data(), records.size(), i));
        EXPECT_EQ(ACL_SUBSCRIBE_OP, aclprofGetOpFlag(records.data(), records.size(), i));
        const uint64_t start = aclprofGetOpStart(records.data(), records.size(), i);
        const uint64_t end = aclprofGetOpEnd(records.data(), records.size(), i);
        EXPECT_LE(previousEnd, start) << "record " << i << " began before the operator it follows ended";
        EXPECT_LE(start, end);
        EXPECT_EQ(end - start, aclprofGetOpDuration(records.data(), records.size(), i));
        previousEnd = end;
    }
    EXPECT_EQ(op_name(records, 0), op_name(records, 2)) << "one node, one name in every replay";
    EXPECT_NE(op_name(records, 0), op_name(records, 1));
}

// 19-03 aclprofModelUnSubscribe: reporting stops; replays after it write nothing.
TEST_F(Profiling, NothingIsReportedAfterUnsubscribing) {
    TwoOperatorModel model;
    Pipe pipe;
    aclprofSubscribeConfig* config = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, pipe.write_end());
    ASSERT_NE(nullptr, config);
    ASSERT_ACL_OK(aclprofModelSubscribe(model.id(), config));
    model.replay();
    ASSERT_ACL_OK(aclprofModelUnSubscribe(model.id()));
    model.replay();
    size_t recordSize = 0;
    ASSERT_ACL_OK(aclprofGetOpDescSize(&recordSize));
    EXPECT_EQ(2 * recordSize, pipe.read_to_end().size());
    EXPECT_ACL_OK(aclprofDestroySubscribeConfig(config));
}

// 19-03 constraints: no subscription of a model that does not exist, none
// twice, no unsubscription of a model not subscribed, one configuration per
// device, no aclprofInit while subscribed; 25-03: the config needs a pipe
// and a 0/1 timeInfoSwitch, and a config asking for nothing is refused.
// aprof_pub.h MsprofSetDeviceIdByGeModelIdx makes a model id known.
TEST_F(Profiling, SubscriptionFollowsCannsRules) {
    Pipe pipe;
    EXPECT_EQ(nullptr, aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, nullptr));
    EXPECT_NE("", take_error_message());
    EXPECT_EQ(nullptr, aclprofCreateSubscribeConfig(2, ACL_AICORE_NONE, pipe.write_end()));
    EXPECT_NE("", take_error_message());
    aclprofSubscribeConfig* config = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, pipe.write_end());
    aclprofSubscribeConfig* silent = aclprofCreateSubscribeConfig(0, ACL_AICORE_NONE, pipe.write_end());
    aclprofSubscribeConfig* other = aclprofCreateSubscribeConfig(1, ACL_AICORE_MEMORY_BANDWIDTH, pipe.write_end());
    ASSERT_TRUE(config != nullptr && silent != nullptr && other != nullptr);

    constexpr uint32_t kRegistered = 0xFFFF0001u;
    constexpr uint32_t kUnknown = 0xFFFF0002u;
    EXPECT_ACL_FAILS(aclprofModelSubscribe(kUnknown, config), ACL_ERROR_INVALID_MODEL_ID);
    ASSERT_EQ(0, MsprofSetDeviceIdByGeModelIdx(kRegistered, 0));
    EXPECT_ACL_FAILS(aclprofModelSubscribe(kRegistered, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclprofModelSubscribe(kRegistered, silent), ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(aclprofModelSubscribe(kRegistered, config));
    EXPECT_ACL_FAILS(aclprofModelSubscribe(kRegistered, config), ACL_ERROR_PROF_REPEAT_SUBSCRIBE);
    TwoOperatorModel model;
    EXPECT_ACL_FAILS(aclprofModelSubscribe(model.id(), other), ACL_ERROR_INVALID_PROFILING_CONFIG);
    EXPECT_ACL_FAILS(aclprofInit(directory_.c_str(), directory_.size()), ACL_ERROR_PROF_API_CONFLICT);
    EXPECT_ACL_FAILS(aclprofModelUnSubscribe(kUnknown), ACL_ERROR_INVALID_MODEL_ID);
    EXPECT_ACL_FAILS(aclprofModelUnSubscribe(model.id()), ACL_ERROR_INVALID_MODEL_ID);
    ASSERT_ACL_OK(aclprofModelUnSubscribe(kRegistered));
    EXPECT_ACL_FAILS(aclprofModelUnSubscribe(kRegistered), ACL_ERROR_INVALID_MODEL_ID);
    EXPECT_TRUE(pipe.read_to_end().empty()) << "a model that never ran reports nothing, and its pipe is closed";

    ASSERT_ACL_OK(aclprofInit(directory_.c_str(), directory_.size()));
    EXPECT_ACL_FAILS(aclprofModelSubscribe(model.id(), config), ACL_ERROR_PROF_API_CONFLICT);
    ASSERT_ACL_OK(aclprofFinalize());
    for (aclprofSubscribeConfig* made : {config, silent, other}) EXPECT_ACL_OK(aclprofDestroySubscribeConfig(made));
    EXPECT_ACL_FAILS(aclprofDestroySubscribeConfig(config), ACL_ERROR_INVALID_PARAM);
}

// 19-03 aclprofGetOpNum .. aclprofGetOpAttriValue: the buffer must hold
// whole records and the index one of them; aclprofGetOpType / Name with a
// buffer shorter than aclprofGetOpTypeLen cut the text.
TEST_F(Profiling, RecordGettersCheckTheirArguments) {
    std::vector<char> records = records_of_replays(1);
    ASSERT_FALSE(records.empty());
    const void* data = records.data();
    const size_t size = records.size();
    uint32_t count = 0;
    EXPECT_ACL_FAILS(aclprofGetOpDescSize(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclprofGetOpNum(nullptr, size, &count), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclprofGetOpNum(data, size, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclprofGetOpNum(data, size - 1, &count), ACL_ERROR_INVALID_PARAM);
    size_t length = 0;
    EXPECT_ACL_FAILS(aclprofGetOpTypeLen(data, size, 2, &length), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclprofGetOpNameLen(data, size, 0, nullptr), ACL_ERROR_INVALID_PARAM);
    char text[64];
    EXPECT_ACL_FAILS(aclprofGetOpType(data, size, 0, text, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclprofGetOpType(data, size, 0, text, 4), ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(aclprofGetOpType(data, size, 0, text, std::strlen("SoftplusBackward")));
    EXPECT_STREQ("SoftplusBackwar", text);
    EXPECT_ACL_FAILS(aclprofGetOpName(data, size, 2, text, sizeof(text)), ACL_ERROR_INVALID_PARAM);

    EXPECT_EQ(0u, aclprofGetOpStart(data, size, 2));
    EXPECT_NE("", take_error_message());
    EXPECT_EQ(0u, aclprofGetOpDuration(nullptr, size, 0));
    EXPECT_NE("", take_error_message());
    EXPECT_EQ(static_cast<size_t>(ACL_ERROR_INVALID_PARAM), aclprofGetModelId(data, size, 7));
    EXPECT_NE("", take_error_message());
    EXPECT_EQ(ACL_SUBSCRIBE_NONE, aclprofGetOpFlag(data, size, 2));
    EXPECT_NE("", take_error_message());
    EXPECT_EQ(nullptr, aclprofGetOpAttriValue(data, size, 0, ACL_SUBSCRIBE_ATTRI_THREADID));
    EXPECT_NE("", take_error_message()) << "the thread id belongs to ACL_SUBSCRIBE_OP_THREAD records";

    records[size - 1] ^= 0x5A;  // No record any more: every getter refuses the buffer.
    EXPECT_ACL_FAILS(aclprofGetOpNum(data, size, &count), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(0u, aclprofGetOpEnd(data, size, 0));
    EXPECT_NE("", take_error_message());
}

// acl_rt.h aclrtProfTrace: a marker on the stream, with the user's bytes.
TEST_F(Profiling, ProfTraceMarksTheStream) {
    Stream stream;
    uint32_t userdata = 0xCAFE;
    EXPECT_ACL_FAILS(aclrtProfTrace(nullptr, 4, stream.get()), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtProfTrace(&userdata, 0, stream.get()), ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(aclprofInit(directory_.c_str(), directory_.size()));
    aclprofConfig* config = device0_config();
    ASSERT_ACL_OK(aclprofStart(config));
    ASSERT_ACL_OK(aclrtProfTrace(&userdata, sizeof userdata, stream.get()));
    ASSERT_ACL_OK(aclprofStop(config));
    ASSERT_ACL_OK(aclprofFinalize());
    ASSERT_ACL_OK(aclprofDestroyConfig(config));
    const json trace = only_trace_in(directory_);
    bool found = false;
    for (const json& event : trace["traceEvents"]) {
        if (event.value("name", "") == "aclrtProfTrace" && event["ph"] == "X" && event.value("cat", "") == "task") {
            EXPECT_EQ(event["args"]["userdata"], "feca0000");
            found = true;
        }
    }
    EXPECT_TRUE(found);
}

// MindStudio's mstx API reference (mstxMarkA, mstxRangeStartA/End, the
// domain functions): a mark or range with a stream is recorded on the host
// and in the stream's order, without one on the host only; a domain groups
// its marks and ranges; a range may end on another thread.
TEST_F(Profiling, MstxMarksAndRangesLandOnTheCollection) {
    Stream stream;
    ASSERT_ACL_OK(aclprofInit(directory_.c_str(), directory_.size()));
    aclprofConfig* config = device0_config();
    ASSERT_ACL_OK(aclprofStart(config));
    mstxMarkA("host mark", nullptr);
    mstxMarkA("stream mark", stream.get());
    const mstxRangeId range = mstxRangeStartA("range", stream.get());
    EXPECT_NE(range, static_cast<mstxRangeId>(MSTX_INVALID_ID));
    std::thread([&] { mstxRangeEnd(range); }).join();
    mstxDomainHandle_t domain = mstxDomainCreateA("inner_loop");
    ASSERT_NE(domain, nullptr) << take_error_message();
    mstxDomainMarkA(domain, "domain mark", nullptr);
    const mstxRangeId domainRange = mstxDomainRangeStartA(domain, "domain range", nullptr);
    EXPECT_NE(domainRange, static_cast<mstxRangeId>(MSTX_INVALID_ID));
    mstxDomainRangeEnd(domain, domainRange);
    mstxDomainDestroy(domain);
    EXPECT_EQ(take_error_message(), "") << "no call above is an error";
    ASSERT_ACL_OK(aclprofStop(config));
    ASSERT_ACL_OK(aclprofDestroyConfig(config));
    ASSERT_ACL_OK(aclprofFinalize());

    const json trace = only_trace_in(directory_);
    ASSERT_TRUE(trace.is_object()) << "the trace is not valid JSON";
    EXPECT_EQ(names_of(trace, "msproftx", "i"),
              (std::multiset<std::string>{"host mark", "stream mark", "inner_loop::domain mark"}));
    EXPECT_EQ(names_of(trace, "msproftx", "b"), (std::multiset<std::string>{"range", "inner_loop::domain range"}));
    EXPECT_EQ(names_of(trace, "msproftx", "e"), (std::multiset<std::string>{"range", "inner_loop::domain range"}));
    EXPECT_EQ(names_of(trace, "task", "X"),
              (std::multiset<std::string>{"stream mark", "range (start)", "range (end)"}));
}

// Without a profiling tool attached, mstx records nothing, but a program's
// ranges still pair up: distinct non-zero ids, ended without complaint.
TEST_F(Profiling, MstxWithoutATraceKeepsRangesPaired) {
    Stream stream;
    const mstxRangeId first = mstxRangeStartA("first", stream.get());
    const mstxRangeId second = mstxRangeStartA("second", nullptr);
    EXPECT_NE(first, static_cast<mstxRangeId>(MSTX_INVALID_ID));
    EXPECT_NE(second, static_cast<mstxRangeId>(MSTX_INVALID_ID));
    EXPECT_NE(first, second);
    mstxMarkA("nothing records this", stream.get());
    mstxRangeEnd(second);
    mstxRangeEnd(first);
    EXPECT_EQ(take_error_message(), "");
    mstxRangeEnd(first);
    EXPECT_NE(take_error_message(), "") << "a range ends once";
}

// mstx API reference: a message of at most 255 bytes, never null; a domain
// name of 1..1023 bytes of letters, digits and '_' (nullptr otherwise); a
// destroyed domain's marks and ranges are refused (range id 0).
TEST_F(Profiling, MstxRefusesBadArguments) {
    mstxMarkA(nullptr, nullptr);
    EXPECT_NE(take_error_message(), "");
    EXPECT_EQ(mstxRangeStartA(nullptr, nullptr), static_cast<mstxRangeId>(MSTX_INVALID_ID));
    EXPECT_NE(take_error_message(), "");
    const std::string tooLong(256, 'x');
    EXPECT_EQ(mstxRangeStartA(tooLong.c_str(), nullptr), static_cast<mstxRangeId>(MSTX_INVALID_ID));
    EXPECT_NE(take_error_message(), "");
    EXPECT_NE(mstxRangeStartA(tooLong.substr(1).c_str(), nullptr), static_cast<mstxRangeId>(MSTX_INVALID_ID));

    for (const std::string& name : {std::string(), std::string("has space"), std::string("dash-ed"),
                                    std::string(1024, 'a')}) {
        EXPECT_EQ(mstxDomainCreateA(name.c_str()), nullptr) << "\"" << name << "\"";
        EXPECT_NE(take_error_message(), "");
    }
    EXPECT_EQ(mstxDomainCreateA(nullptr), nullptr);
    mstxDomainHandle_t domain = mstxDomainCreateA(std::string(1023, 'a').c_str());
    ASSERT_NE(domain, nullptr) << take_error_message();
    EXPECT_EQ(mstxDomainCreateA(std::string(1023, 'a').c_str()), domain) << "a live name names one domain";
    const mstxRangeId undomained = mstxRangeStartA("plain", nullptr);
    mstxDomainRangeEnd(domain, undomained);
    EXPECT_NE(take_error_message(), "") << "a range ends in the domain that opened it";
    mstxRangeEnd(undomained);
    EXPECT_EQ(take_error_message(), "");

    mstxDomainDestroy(domain);
    mstxDomainMarkA(domain, "after destroy", nullptr);
    EXPECT_NE(take_error_message(), "");
    EXPECT_EQ(mstxDomainRangeStartA(domain, "after destroy", nullptr), static_cast<mstxRangeId>(MSTX_INVALID_ID));
    EXPECT_NE(take_error_message(), "");
    mstxDomainDestroy(domain);
    EXPECT_NE(take_error_message(), "") << "a domain is destroyed once";
}

}  // namespace
}  // namespace aclcpu::test
