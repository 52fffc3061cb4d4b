// Runtime sample: the synchronisation primitives beyond events, the CANN
// way -- stream priorities (aclrtCreateStreamV2), a notify between two
// streams, and a stream waiting on a device word (aclrtValueWrite /
// aclrtValueWait).
//
// The producer (priority 0) fills a buffer and records a notify; the
// consumer (priority 7) waits for the notify, copies the buffer and sets a
// device flag word; a reader stream waits for the flag and copies the
// result to the host.  Only the waits order the three streams; the host
// synchronises with the reader alone and checks the result.
#include <cstdio>

#include "acl/acl.h"
#include "sample_common.h"

namespace {

/// A stream of priority (0 highest, 7 lowest).
int create_stream(uint32_t priority, aclrtStream* stream) {
    aclrtStreamConfigHandle* config = aclrtCreateStreamConfigHandle();
    CHECK_RET(config != nullptr, return 1);
    CHECK_ACL(aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_PRIORITY, &priority, sizeof priority));
    CHECK_ACL(aclrtCreateStreamV2(stream, config));
    CHECK_ACL(aclrtDestroyStreamConfigHandle(config));
    return 0;
}

}  // namespace

int main() {
    const size_t count = 1 << 16;
    const size_t bytes = count * sizeof(int32_t);
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream producer = nullptr;
    aclrtStream consumer = nullptr;
    aclrtStream reader = nullptr;
    CHECK_RET(create_stream(0, &producer) == 0, return 1);
    CHECK_RET(create_stream(7, &consumer) == 0, return 1);
    CHECK_RET(create_stream(3, &reader) == 0, return 1);
    uint32_t priority = 99;
    CHECK_ACL(aclrtStreamGetPriority(consumer, &priority));
    std::printf("consumer stream priority: %u\n", priority);

    void* source = nullptr;
    void* copy = nullptr;
    void* flag = nullptr;
    CHECK_ACL(aclrtMalloc(&source, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&copy, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&flag, sizeof(uint64_t), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemset(flag, sizeof(uint64_t), 0, sizeof(uint64_t)));
    // Pinned host memory: asynchronous copies of it stay asynchronous (with
    // a pageable side the call would wait for the copy).
    int32_t* values = nullptr;
    int32_t* result = nullptr;
    CHECK_ACL(aclrtMallocHost(reinterpret_cast<void**>(&values), bytes));
    CHECK_ACL(aclrtMallocHost(reinterpret_cast<void**>(&result), bytes));
    for (size_t i = 0; i < count; ++i) {
        values[i] = static_cast<int32_t>(i);
        result[i] = -1;
    }

    aclrtNotify ready = nullptr;
    CHECK_ACL(aclrtCreateNotify(&ready, ACL_NOTIFY_DEFAULT));
    // The producer fills the source and records the notify ...
    CHECK_ACL(aclrtMemcpyAsync(source, bytes, values, bytes, ACL_MEMCPY_HOST_TO_DEVICE, producer));
    CHECK_ACL(aclrtRecordNotify(ready, producer));
    // ... the consumer waits for it (timeout 0: aclrtSetOpWaitTimeout's),
    // copies the source and raises the flag word ...
    CHECK_ACL(aclrtWaitAndResetNotify(ready, consumer, 0));
    CHECK_ACL(aclrtMemcpyAsync(copy, bytes, source, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, consumer));
    CHECK_ACL(aclrtValueWrite(flag, 1, 0, consumer));
    // ... and the reader waits for the flag before it reads the copy.  No
    // host call waits in between: the three streams order themselves.
    CHECK_ACL(aclrtValueWait(flag, 1, ACL_STREAM_WAIT_VALUE_EQ, reader));
    CHECK_ACL(aclrtMemcpyAsync(result, bytes, copy, bytes, ACL_MEMCPY_DEVICE_TO_HOST, reader));

    CHECK_ACL(aclrtSynchronizeStream(reader));
    size_t wrong = 0;
    for (size_t i = 0; i < count; ++i) wrong += result[i] != values[i];
    std::printf("reader copied %zu values after the flag, %zu wrong\n", count, wrong);

    CHECK_ACL(aclrtDestroyNotify(ready));
    CHECK_ACL(aclrtFreeHost(values));
    CHECK_ACL(aclrtFreeHost(result));
    CHECK_ACL(aclrtFree(source));
    CHECK_ACL(aclrtFree(copy));
    CHECK_ACL(aclrtFree(flag));
    for (aclrtStream stream : {producer, consumer, reader}) CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    return wrong == 0 ? 0 : 1;
}
