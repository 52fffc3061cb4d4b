// Runtime sample: two streams joined by an event, a blocking callback served
// by a report thread, pinned asynchronous copies and event timing.
//
// Stream A fills a device buffer and records an event; stream B waits for the
// event, copies A's buffer and runs a callback; the host checks the result.
#include <pthread.h>

#include <atomic>
#include <cstdio>

#include "acl/acl.h"
#include "sample_common.h"

namespace {

std::atomic<bool> gStopReporting(false);
std::atomic<int> gCallbacksRun(0);

void* serve_reports(void*) {
    while (!gStopReporting.load()) aclrtProcessReport(100);
    return nullptr;
}

void on_copy_done(void* userData) {
    const char* label = static_cast<const char*>(userData);
    std::printf("callback: %s\n", label);
    gCallbacksRun.fetch_add(1);
}

}  // namespace

int main() {
    const size_t count = 1 << 20;
    const size_t bytes = count * sizeof(float);

    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream streamA = nullptr;
    aclrtStream streamB = nullptr;
    CHECK_ACL(aclrtCreateStream(&streamA));
    CHECK_ACL(aclrtCreateStream(&streamB));

    pthread_t reporter;
    pthread_create(&reporter, nullptr, serve_reports, nullptr);
    CHECK_ACL(aclrtSubscribeReport(static_cast<uint64_t>(reporter), streamB));

    void* hostIn = nullptr;
    void* hostOut = nullptr;
    CHECK_ACL(aclrtMallocHost(&hostIn, bytes));
    CHECK_ACL(aclrtMallocHost(&hostOut, bytes));
    float* input = static_cast<float*>(hostIn);
    for (size_t i = 0; i < count; ++i) input[i] = static_cast<float>(i);

    void* deviceA = nullptr;
    void* deviceB = nullptr;
    CHECK_ACL(aclrtMalloc(&deviceA, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&deviceB, bytes, ACL_MEM_MALLOC_HUGE_FIRST));

    aclrtEvent start = nullptr;
    aclrtEvent produced = nullptr;
    aclrtEvent end = nullptr;
    CHECK_ACL(aclrtCreateEventWithFlag(&start, ACL_EVENT_TIME_LINE));
    CHECK_ACL(aclrtCreateEventWithFlag(&produced, ACL_EVENT_SYNC));
    CHECK_ACL(aclrtCreateEventWithFlag(&end, ACL_EVENT_TIME_LINE));

    CHECK_ACL(aclrtRecordEvent(start, streamA));
    CHECK_ACL(aclrtMemcpyAsync(deviceA, bytes, hostIn, bytes, ACL_MEMCPY_HOST_TO_DEVICE, streamA));
    CHECK_ACL(aclrtRecordEvent(produced, streamA));

    CHECK_ACL(aclrtStreamWaitEvent(streamB, produced));
    CHECK_ACL(aclrtMemcpyAsync(deviceB, bytes, deviceA, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, streamB));
    CHECK_ACL(aclrtLaunchCallback(on_copy_done, const_cast<char*>("stream B copied stream A's buffer"),
                                  ACL_CALLBACK_BLOCK, streamB));
    CHECK_ACL(aclrtMemcpyAsync(hostOut, bytes, deviceB, bytes, ACL_MEMCPY_DEVICE_TO_HOST, streamB));
    CHECK_ACL(aclrtRecordEvent(end, streamB));

    CHECK_ACL(aclrtSynchronizeStream(streamB));
    float elapsedMs = 0.0f;
    CHECK_ACL(aclrtEventElapsedTime(&elapsedMs, start, end));

    int mismatches = 0;
    const float* output = static_cast<const float*>(hostOut);
    for (size_t i = 0; i < count; ++i) mismatches += output[i] != static_cast<float>(i);
    std::printf("copied %zu floats through two streams in %.3f ms, %d mismatches, %d callback(s)\n", count,
                static_cast<double>(elapsedMs), mismatches, gCallbacksRun.load());

    CHECK_ACL(aclrtUnSubscribeReport(static_cast<uint64_t>(reporter), streamB));
    gStopReporting.store(true);
    pthread_join(reporter, nullptr);

    CHECK_ACL(aclrtDestroyEvent(start));
    CHECK_ACL(aclrtDestroyEvent(produced));
    CHECK_ACL(aclrtDestroyEvent(end));
    CHECK_ACL(aclrtFree(deviceA));
    CHECK_ACL(aclrtFree(deviceB));
    CHECK_ACL(aclrtFreeHost(hostIn));
    CHECK_ACL(aclrtFreeHost(hostOut));
    CHECK_ACL(aclrtDestroyStream(streamA));
    CHECK_ACL(aclrtDestroyStream(streamB));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    return mismatches == 0 && gCallbacksRun.load() == 1 ? 0 : 1;
}
