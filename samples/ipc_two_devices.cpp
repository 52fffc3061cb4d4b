// Runtime sample: IPC memory and an IPC event between two devices, the CANN
// way.  (acl-cpu emulates as many devices as ACLCPU_DEVICE_COUNT asks for;
// CTest runs this sample with two.)
//
// Device 0 owns a buffer, exports it by key and exports an IPC event; its
// stream fills the buffer and records the event.  Device 1 imports the
// buffer, opens the event, makes its stream wait for it and copies the
// buffer into its own memory.  The host checks device 1's copy.
#include <unistd.h>

#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "sample_common.h"

int main() {
    CHECK_ACL(aclInit(nullptr));
    uint32_t devices = 0;
    CHECK_ACL(aclrtGetDeviceCount(&devices));
    if (devices < 2) {
        std::printf("[SKIP] need 2 devices, found %u (set ACLCPU_DEVICE_COUNT=2)\n", devices);
        CHECK_ACL(aclFinalize());
        return 0;
    }
    const size_t count = 1 << 16;
    const size_t bytes = count * sizeof(float);
    std::vector<float> values(count);
    for (size_t i = 0; i < count; ++i) values[i] = 0.5f * static_cast<float>(i);

    // Device 0: the owner.
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream ownerStream = nullptr;
    CHECK_ACL(aclrtCreateStream(&ownerStream));
    void* owned = nullptr;
    CHECK_ACL(aclrtMalloc(&owned, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    char key[65] = {0};
    CHECK_ACL(aclrtIpcMemGetExportKey(owned, bytes, key, sizeof key, ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT));
    int32_t pid = static_cast<int32_t>(getpid());
    CHECK_ACL(aclrtIpcMemSetImportPid(key, &pid, 1));
    aclrtEvent filled = nullptr;
    CHECK_ACL(aclrtCreateEventExWithFlag(&filled, ACL_EVENT_IPC));
    aclrtIpcEventHandle eventHandle;
    CHECK_ACL(aclrtIpcGetEventHandle(filled, &eventHandle));

    // Device 1: the importer, whose stream waits for the owner's event.
    CHECK_ACL(aclrtSetDevice(1));
    aclrtStream importerStream = nullptr;
    CHECK_ACL(aclrtCreateStream(&importerStream));
    void* imported = nullptr;
    CHECK_ACL(aclrtIpcMemImportByKey(&imported, key, ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS));
    aclrtEvent opened = nullptr;
    CHECK_ACL(aclrtIpcOpenEventHandle(eventHandle, &opened));
    void* local = nullptr;
    CHECK_ACL(aclrtMalloc(&local, bytes, ACL_MEM_MALLOC_HUGE_FIRST));

    // Device 0 records the event once it has filled its buffer ...
    CHECK_ACL(aclrtSetDevice(0));
    CHECK_ACL(aclrtMemcpyAsync(owned, bytes, values.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE, ownerStream));
    CHECK_ACL(aclrtRecordEvent(filled, ownerStream));
    // ... device 1's stream waits for that record before it reads the buffer.
    CHECK_ACL(aclrtSetDevice(1));
    CHECK_ACL(aclrtStreamWaitEvent(importerStream, opened));
    CHECK_ACL(aclrtMemcpyAsync(local, bytes, imported, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, importerStream));
    CHECK_ACL(aclrtSynchronizeStream(importerStream));
    std::vector<float> result(count, -1.0f);
    CHECK_ACL(aclrtMemcpy(result.data(), bytes, local, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    size_t wrong = 0;
    for (size_t i = 0; i < count; ++i) wrong += result[i] != values[i];
    std::printf("device 1 copied %zu values of device 0 after its IPC event: %zu wrong\n", count, wrong);

    CHECK_ACL(aclrtFree(local));
    CHECK_ACL(aclrtIpcMemClose(key));
    CHECK_ACL(aclrtDestroyEvent(opened));
    CHECK_ACL(aclrtDestroyStream(importerStream));
    CHECK_ACL(aclrtResetDevice(1));
    CHECK_ACL(aclrtSetDevice(0));
    CHECK_ACL(aclrtDestroyEvent(filled));
    CHECK_ACL(aclrtFree(owned));
    CHECK_ACL(aclrtDestroyStream(ownerStream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    return wrong == 0 ? 0 : 1;
}
