// Runtime sample: virtual memory and 2-D copies, the CANN way.
//
// A device address range is reserved, backed by two physical allocations
// mapped side by side, and used as one contiguous matrix: the host copies a
// column block of a pitched host matrix into it with aclrtMemcpy2dAsync,
// then copies it back to check it.  Finally the mappings are undone and the
// memory freed in CANN's order (unmap, free physical, release the range).
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "sample_common.h"

int main() {
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    aclrtPhysicalMemProp prop = {};
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.memAttr = ACL_MEM_HUGE;
    prop.location.id = 0;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    size_t granularity = 0;
    CHECK_ACL(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity));
    std::printf("allocation granularity: %zu bytes\n", granularity);

    // One reservation, two physical pieces mapped back to back.
    const size_t pieceBytes = granularity;
    void* base = nullptr;
    CHECK_ACL(aclrtReserveMemAddress(&base, 2 * pieceBytes, 0, nullptr, 0));
    aclrtDrvMemHandle pieces[2] = {nullptr, nullptr};
    for (int i = 0; i < 2; ++i) {
        CHECK_ACL(aclrtMallocPhysical(&pieces[i], pieceBytes, &prop, 0));
        CHECK_ACL(aclrtMapMem(static_cast<char*>(base) + i * pieceBytes, pieceBytes, 0, pieces[i], 0));
    }

    // A rows x columns block of a wider host matrix, rows spanning both pieces.
    const size_t hostColumns = 1000;
    const size_t columns = 600;
    const size_t rows = (2 * pieceBytes) / (columns * sizeof(float));
    std::vector<float> host(rows * hostColumns);
    for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i);
    CHECK_ACL(aclrtMemcpy2dAsync(base, columns * sizeof(float), host.data(), hostColumns * sizeof(float),
                                 columns * sizeof(float), rows, ACL_MEMCPY_HOST_TO_DEVICE, stream));
    std::vector<float> back(rows * columns, -1.0f);
    CHECK_ACL(aclrtMemcpy2dAsync(back.data(), columns * sizeof(float), base, columns * sizeof(float),
                                 columns * sizeof(float), rows, ACL_MEMCPY_DEVICE_TO_HOST, stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    size_t wrong = 0;
    for (size_t r = 0; r < rows; ++r) {
        for (size_t c = 0; c < columns; ++c) wrong += back[r * columns + c] != host[r * hostColumns + c];
    }
    std::printf("%zu x %zu block through two mapped pieces: %zu wrong\n", rows, columns, wrong);

    for (int i = 0; i < 2; ++i) CHECK_ACL(aclrtUnmapMem(static_cast<char*>(base) + i * pieceBytes));
    for (int i = 0; i < 2; ++i) CHECK_ACL(aclrtFreePhysical(pieces[i]));
    CHECK_ACL(aclrtReleaseMemAddress(base));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    return wrong == 0 ? 0 : 1;
}
