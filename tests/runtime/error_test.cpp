// Error reporting (aclGetRecentErrMsg, aclrtGetLastError, aclrtPeekAtLastError)
// and the runtime's answer to bad input: a CANN code and a message, never a
// crash, and no effect on work already queued.
#include <functional>
#include <string>
#include <vector>

#include "runtime/c_enum_codes.h"
#include "runtime/runtime_test_support.hpp"

// CANN marks aclrtQueryEvent and aclrtGetVersion deprecated, yet they are
// still its API and programs call them: tested on purpose.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace aclcpu::test {
namespace {

using ErrorTest = RuntimeTest;

/// One API call with a bad argument, named for the failure report.
struct BadCall {
    std::string name;
    std::function<aclError()> run;
};

void expect_each_fails(const std::vector<BadCall>& calls, std::initializer_list<aclError> accepted) {
    for (const BadCall& call : calls) {
        SCOPED_TRACE(call.name);
        EXPECT_TRUE(failed_with(ACLCPU_FRESH_CALL(call.run()), accepted)) << call.name;
    }
}

/// Calls that take a stream, each given `stream` as that stream and valid
/// values for every other argument.
std::vector<BadCall> calls_on_stream(aclrtStream stream, aclrtEvent event, DeviceBuffer& buffer, CallProbe& probe) {
    return {
        {"aclrtSynchronizeStream", [=] { return aclrtSynchronizeStream(stream); }},
        {"aclrtSynchronizeStreamWithTimeout",
         [=] { return aclrtSynchronizeStreamWithTimeout(stream, kAbsenceWindowMs); }},
        {"aclrtStreamQuery",
         [=] {
             aclrtStreamStatus status;
             return aclrtStreamQuery(stream, &status);
         }},
        {"aclrtMemsetAsync", [=, &buffer] { return aclrtMemsetAsync(buffer.get(), 64, 1, 64, stream); }},
        {"aclrtMemcpyAsync",
         [=, &buffer] {
             return aclrtMemcpyAsync(buffer.get(), 64, buffer.bytes() + 64, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, stream);
         }},
        {"aclrtRecordEvent", [=] { return aclrtRecordEvent(event, stream); }},
        {"aclrtResetEvent", [=] { return aclrtResetEvent(event, stream); }},
        {"aclrtStreamWaitEvent", [=] { return aclrtStreamWaitEvent(stream, event); }},
        {"aclrtLaunchHostFunc", [=, &probe] { return aclrtLaunchHostFunc(stream, &CallProbe::record, &probe); }},
        {"aclrtSubscribeReport", [=] { return aclrtSubscribeReport(current_report_thread_id(), stream); }},
        {"aclrtSetStreamFailureMode", [=] { return aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE); }},
        {"aclrtDestroyStream", [=] { return aclrtDestroyStream(stream); }},
    };
}

/// Calls that take an event, each given `event` and a valid stream and partner event.
std::vector<BadCall> calls_on_event(aclrtEvent event, aclrtStream stream, aclrtEvent partner) {
    return {
        {"aclrtRecordEvent", [=] { return aclrtRecordEvent(event, stream); }},
        {"aclrtResetEvent", [=] { return aclrtResetEvent(event, stream); }},
        {"aclrtStreamWaitEvent", [=] { return aclrtStreamWaitEvent(stream, event); }},
        {"aclrtQueryEvent",
         [=] {
             aclrtEventStatus status;
             return aclrtQueryEvent(event, &status);
         }},
        {"aclrtQueryEventStatus",
         [=] {
             aclrtEventRecordedStatus status;
             return aclrtQueryEventStatus(event, &status);
         }},
        {"aclrtSynchronizeEvent", [=] { return aclrtSynchronizeEvent(event); }},
        {"aclrtSynchronizeEventWithTimeout",
         [=] { return aclrtSynchronizeEventWithTimeout(event, kAbsenceWindowMs); }},
        {"aclrtEventElapsedTime start",
         [=] {
             float ms;
             return aclrtEventElapsedTime(&ms, event, partner);
         }},
        {"aclrtEventElapsedTime end",
         [=] {
             float ms;
             return aclrtEventElapsedTime(&ms, partner, event);
         }},
        {"aclrtDestroyEvent", [=] { return aclrtDestroyEvent(event); }},
    };
}

std::vector<BadCall> calls_on_context(aclrtContext context) {
    return {
        {"aclrtSetCurrentContext", [=] { return aclrtSetCurrentContext(context); }},
        {"aclrtDestroyContext", [=] { return aclrtDestroyContext(context); }},
    };
}

/// Storage that looks like nothing the runtime handed out.
alignas(64) unsigned char gMadeUpHandle[256];

TEST_F(ErrorTest, RecentErrMsgIsPerThreadAndClearedByReading) {
    run_on_new_thread([] {
        EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST));
        run_on_new_thread([] { EXPECT_EQ("", take_error_message()) << "another thread's message leaked"; });
        EXPECT_NE("", take_error_message());
        EXPECT_EQ("", take_error_message()) << "reading must clear the message";
    });
}

TEST_F(ErrorTest, GetLastErrorResetsAndPeekDoesNot) {
    run_on_new_thread([] {
        EXPECT_EQ(ACL_SUCCESS, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
        EXPECT_EQ(ACL_SUCCESS, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
        EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(-1));
        EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
        EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
        // A later successful call leaves the last error alone.
        uint32_t count = 0;
        EXPECT_ACL_OK(aclrtGetDeviceCount(&count));
        EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
        EXPECT_EQ(ACL_SUCCESS, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
        EXPECT_EQ(ACL_SUCCESS, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
    });
}

TEST_F(ErrorTest, LastErrorIsPerThread) {
    run_on_new_thread([] {
        EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST));
        run_on_new_thread([] { EXPECT_EQ(ACL_SUCCESS, aclrtGetLastError(ACL_RT_THREAD_LEVEL)); });
        EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
    });
}

TEST_F(ErrorTest, NullPointersAreInvalidParam) {
    Stream stream;
    Event event;
    ASSERT_ACL_OK(aclrtRecordEvent(event.get(), stream.get()));
    ASSERT_ACL_OK(aclrtSynchronizeEvent(event.get()));
    const aclrtStream s = stream.get();
    const aclrtEvent e = event.get();
    size_t bytes = 0;
    expect_each_fails(
        {
            {"aclrtGetDevice", [] { return aclrtGetDevice(nullptr); }},
            {"aclrtGetDeviceCount", [] { return aclrtGetDeviceCount(nullptr); }},
            {"aclrtGetRunMode", [] { return aclrtGetRunMode(nullptr); }},
            {"aclrtGetVersion", [] { return aclrtGetVersion(nullptr, nullptr, nullptr); }},
            {"aclrtCreateContext", [] { return aclrtCreateContext(nullptr, 0); }},
            {"aclrtGetCurrentContext", [] { return aclrtGetCurrentContext(nullptr); }},
            {"aclrtSetCurrentContext", [] { return aclrtSetCurrentContext(nullptr); }},
            {"aclrtDestroyContext", [] { return aclrtDestroyContext(nullptr); }},
            {"aclrtCtxGetSysParamOpt", [] { return aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, nullptr); }},
            {"aclrtCreateStream", [] { return aclrtCreateStream(nullptr); }},
            {"aclrtCreateStreamWithConfig", [] { return aclrtCreateStreamWithConfig(nullptr, 0, 0); }},
            {"aclrtStreamQuery", [=] { return aclrtStreamQuery(s, nullptr); }},
            {"aclrtStreamWaitEvent", [=] { return aclrtStreamWaitEvent(s, nullptr); }},
            {"aclrtCreateEvent", [] { return aclrtCreateEvent(nullptr); }},
            {"aclrtCreateEventWithFlag", [] { return aclrtCreateEventWithFlag(nullptr, ACL_EVENT_SYNC); }},
            {"aclrtCreateEventExWithFlag", [] { return aclrtCreateEventExWithFlag(nullptr, ACL_EVENT_SYNC); }},
            {"aclrtDestroyEvent", [] { return aclrtDestroyEvent(nullptr); }},
            {"aclrtRecordEvent", [=] { return aclrtRecordEvent(nullptr, s); }},
            {"aclrtQueryEvent", [=] { return aclrtQueryEvent(e, nullptr); }},
            {"aclrtQueryEventStatus", [=] { return aclrtQueryEventStatus(e, nullptr); }},
            {"aclrtSynchronizeEvent", [] { return aclrtSynchronizeEvent(nullptr); }},
            {"aclrtEventElapsedTime", [=] { return aclrtEventElapsedTime(nullptr, e, e); }},
            {"aclrtGetMemInfo free", [&] { return aclrtGetMemInfo(ACL_HBM_MEM, nullptr, &bytes); }},
            {"aclrtGetMemInfo total", [&] { return aclrtGetMemInfo(ACL_HBM_MEM, &bytes, nullptr); }},
            {"aclGetDeviceCapability", [] { return aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, nullptr); }},
        },
        {ACL_ERROR_INVALID_PARAM});
}

TEST_F(ErrorTest, BadStreamHandlesAreRejected) {
    Stream valid;
    Event event;
    DeviceBuffer buffer(256);
    CallProbe probe;
    aclrtStream destroyed = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&destroyed));
    ASSERT_ACL_OK(aclrtDestroyStream(destroyed));
    aclrtContext context = nullptr;
    ASSERT_ACL_OK(aclrtGetCurrentContext(&context));
    const struct {
        const char* kind;
        aclrtStream handle;
    } badStreams[] = {{"made-up pointer", gMadeUpHandle}, {"destroyed stream", destroyed},
                      {"event as stream", event.get()}, {"context as stream", context}};

    // Work queued before the bad calls must survive them.
    DeviceBuffer witness(4096);
    Gate gate;
    ASSERT_ACL_OK(gate.hold(valid.get()));
    ASSERT_ACL_OK(aclrtMemsetAsync(witness.get(), witness.size(), 0x6D, witness.size(), valid.get()));

    for (const auto& bad : badStreams) {
        SCOPED_TRACE(bad.kind);
        expect_each_fails(calls_on_stream(bad.handle, event.get(), buffer, probe), {});
    }
    gate.open();
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(valid.get(), kBoundedWaitMs));
    EXPECT_EQ(std::vector<uint8_t>(witness.size(), 0x6D), witness.read());
    EXPECT_ACL_OK(aclrtSynchronizeDeviceWithTimeout(kBoundedWaitMs));
    EXPECT_EQ(0, probe.calls.load());
    EXPECT_FALSE(gate.expired());
}

TEST_F(ErrorTest, BadEventHandlesAreRejected) {
    Stream valid;
    Event partner(ACL_EVENT_TIME_LINE);
    ASSERT_ACL_OK(aclrtRecordEvent(partner.get(), valid.get()));
    ASSERT_ACL_OK(aclrtSynchronizeEvent(partner.get()));
    aclrtEvent destroyed = nullptr;
    ASSERT_ACL_OK(aclrtCreateEvent(&destroyed));
    ASSERT_ACL_OK(aclrtDestroyEvent(destroyed));
    const struct {
        const char* kind;
        aclrtEvent handle;
    } badEvents[] = {{"made-up pointer", gMadeUpHandle}, {"destroyed event", destroyed},
                     {"stream as event", valid.get()}};

    DeviceBuffer witness(4096);
    Gate gate;
    ASSERT_ACL_OK(gate.hold(valid.get()));
    ASSERT_ACL_OK(aclrtMemsetAsync(witness.get(), witness.size(), 0x4B, witness.size(), valid.get()));

    for (const auto& bad : badEvents) {
        SCOPED_TRACE(bad.kind);
        expect_each_fails(calls_on_event(bad.handle, valid.get(), partner.get()), {});
    }
    gate.open();
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(valid.get(), kBoundedWaitMs));
    EXPECT_EQ(std::vector<uint8_t>(witness.size(), 0x4B), witness.read());
    EXPECT_FALSE(gate.expired());
}

TEST_F(ErrorTest, BadContextHandlesAreRejected) {
    aclrtContext original = nullptr;
    ASSERT_ACL_OK(aclrtGetCurrentContext(&original));
    aclrtContext destroyed = nullptr;
    ASSERT_ACL_OK(aclrtCreateContext(&destroyed, 0));
    ASSERT_ACL_OK(aclrtSetCurrentContext(original));
    ASSERT_ACL_OK(aclrtDestroyContext(destroyed));
    Stream stream;
    for (aclrtContext bad : {static_cast<aclrtContext>(gMadeUpHandle), destroyed, stream.get()}) {
        expect_each_fails(calls_on_context(bad), {});
    }
    // The current context is unchanged by the rejected calls.
    aclrtContext current = nullptr;
    EXPECT_ACL_OK(aclrtGetCurrentContext(&current));
    EXPECT_EQ(original, current);
}

TEST_F(ErrorTest, TheDefaultContextCannotBeDestroyed) {
    aclrtContext context = nullptr;
    ASSERT_ACL_OK(aclrtGetCurrentContext(&context));
    EXPECT_ACL_FAILS(aclrtDestroyContext(context));
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(nullptr, kBoundedWaitMs));
}

TEST_F(ErrorTest, InvalidStreamFailureModeIsRejected) {
    Stream stream;
    EXPECT_ACL_OK(aclrtSetStreamFailureMode(stream.get(), ACL_CONTINUE_ON_FAILURE));
    EXPECT_ACL_OK(aclrtSetStreamFailureMode(stream.get(), ACL_STOP_ON_FAILURE));
    EXPECT_ACL_FAILS(aclrtSetStreamFailureMode(stream.get(), 7), ACL_ERROR_INVALID_PARAM);
}

TEST_F(ErrorTest, StreamCallsWithoutAContextAreContextNull) {
    run_on_new_thread([] {
        aclrtStream stream = nullptr;
        EXPECT_ACL_FAILS(aclrtCreateStream(&stream), ACL_ERROR_RT_CONTEXT_NULL);
        void* ptr = nullptr;
        EXPECT_ACL_FAILS(aclrtMalloc(&ptr, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
        EXPECT_ACL_FAILS(aclrtSynchronizeStream(nullptr), ACL_ERROR_RT_CONTEXT_NULL);
    });
}

}  // namespace
}  // namespace aclcpu::test

namespace aclcpu::test {
namespace {

// A C caller may pass any integer where the API takes an enum.  CANN checks
// such arguments and answers ACL_ERROR_INVALID_PARAM (acl_rt.h: "a
// parameter is invalid"); the runtime must read them as integers, never
// load them as out-of-range enums (UBSan's enum check, on in the sanitizer
// build, reports such a load).
TEST_F(ErrorTest, EnumerationCodesOutsideTheEnumsAreInvalidParam) {
    DeviceBuffer device(64);
    std::vector<unsigned char> host(64);
    Stream stream;
    for (int code : {99, -99, 1 << 20}) {
        SCOPED_TRACE(code);
        EXPECT_TRUE(failed_with(ACLCPU_FRESH_CALL(c_enum_memcpy(device.get(), host.data(), 64, code)),
                                {ACL_ERROR_INVALID_PARAM}));
        EXPECT_TRUE(failed_with(ACLCPU_FRESH_CALL(c_enum_memcpy_async(device.get(), host.data(), 64, code, stream.get())),
                                {ACL_ERROR_INVALID_PARAM}));
        EXPECT_TRUE(failed_with(ACLCPU_FRESH_CALL(c_enum_get_mem_info(code)), {ACL_ERROR_INVALID_PARAM}));
        EXPECT_TRUE(failed_with(ACLCPU_FRESH_CALL(c_enum_device_capability(code)), {ACL_ERROR_INVALID_PARAM}));
        EXPECT_TRUE(failed_with(ACLCPU_FRESH_CALL(c_enum_set_sys_param(code)), {ACL_ERROR_INVALID_PARAM}));
        EXPECT_TRUE(failed_with(ACLCPU_FRESH_CALL(c_enum_get_sys_param(code)), {ACL_ERROR_RT_SYSPARAMOPT_NOT_SET}));
        EXPECT_TRUE(failed_with(ACLCPU_FRESH_CALL(c_enum_get_last_error(code)), {ACL_ERROR_INVALID_PARAM}));
        EXPECT_TRUE(failed_with(ACLCPU_FRESH_CALL(c_enum_peek_last_error(code)), {ACL_ERROR_INVALID_PARAM}));
        EXPECT_TRUE(failed_with(ACLCPU_FRESH_CALL(c_enum_launch_callback(code, stream.get())),
                                {ACL_ERROR_INVALID_PARAM}));
        c_enum_app_log(code);  // Ignored: no level to print it at.
    }
    EXPECT_ACL_OK(aclrtSynchronizeStream(stream.get()));
}

// aclrtMalloc's policy is a bit set (a huge-page choice OR'ed with a memory
// type), so codes outside the enum's enumerators are ordinary there.
TEST_F(ErrorTest, MallocPolicyIsReadAsABitSet) {
    void* ptr = nullptr;
    ASSERT_ACL_OK(c_enum_malloc(&ptr, 64, ACL_MEM_MALLOC_HUGE_FIRST | ACL_MEM_TYPE_HIGH_BAND_WIDTH));
    EXPECT_ACL_OK(aclrtFree(ptr));
}

}  // namespace
}  // namespace aclcpu::test
