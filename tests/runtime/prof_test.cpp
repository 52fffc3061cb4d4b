// The profiling API (acl_prof.h): aclprofInit..aclprofFinalize around
// aclprofStart..aclprofStop leaves a timeline trace in the result directory
// with the msproftx marks and ranges and the stream marks; the call order
// and arguments CANN documents are enforced.  The MindStudio mstx markers
// (mstx/ms_tools_ext.h) land on the same trace.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "mstx/ms_tools_ext.h"
#include "runtime/runtime_test_support.hpp"

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

// 19-03_subscription_to_operator_information.md: subscriptions report the
// operators of a loaded model; acl-cpu loads none and says so.
TEST_F(Profiling, OperatorSubscriptionIsUnsupported) {
    EXPECT_ACL_FAILS(aclprofModelSubscribe(1, nullptr), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_EQ(aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, nullptr), nullptr);
    EXPECT_NE(take_error_message().find("aclprofCreateSubscribeConfig"), std::string::npos);
    EXPECT_EQ(aclprofGetOpFlag(nullptr, 0, 0), ACL_SUBSCRIBE_NONE);
    EXPECT_EQ(aclprofGetOpDuration(nullptr, 0, 0), 0u);
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
