// Virtual memory management: reserved address ranges, physical memory
// handles and mappings (CANN docs/zh/api_ref/11-04_virtual_memory_management.md).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "runtime/runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

using VmmTest = RuntimeTest;

aclrtPhysicalMemProp device_memory(aclrtMemAttr attr = ACL_MEM_HUGE) {
    aclrtPhysicalMemProp prop{};
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.memAttr = attr;
    prop.location = aclrtMemLocation{0, ACL_MEM_LOCATION_TYPE_DEVICE};
    return prop;
}

size_t granularity_of(aclrtPhysicalMemProp prop) {
    size_t granularity = 0;
    EXPECT_ACL_OK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity));
    return granularity;
}

size_t hbm_free() {
    size_t free = 0;
    size_t total = 0;
    EXPECT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total));
    return free;
}

/// A reservation of `bytes` from aclrtReserveMemAddress, released at scope end.
class Reservation {
public:
    explicit Reservation(size_t bytes) { EXPECT_ACL_OK(aclrtReserveMemAddress(&base_, bytes, 0, nullptr, 0)); }
    ~Reservation() {
        if (base_ != nullptr) {
            EXPECT_ACL_OK(aclrtReleaseMemAddress(base_));
        }
    }
    Reservation(const Reservation&) = delete;
    Reservation& operator=(const Reservation&) = delete;
    uint8_t* at(size_t offset) const { return static_cast<uint8_t*>(base_) + offset; }

private:
    void* base_ = nullptr;
};

// 11-04 aclrtMemGetAllocationGranularity: the granularity follows the memory
// attribute (aclrtMallocPhysical: ACL_MEM_HUGE is 2 MiB, ACL_MEM_HUGE1G 1 GiB).
TEST_F(VmmTest, GranularityFollowsThePageSizeOfTheAttribute) {
    EXPECT_EQ(size_t{2} << 20, granularity_of(device_memory(ACL_MEM_HUGE)));
    EXPECT_EQ(size_t{1} << 30, granularity_of(device_memory(ACL_MEM_HUGE1G)));
    const size_t normal = granularity_of(device_memory(ACL_MEM_NORMAL));
    EXPECT_GT(normal, 0u);
    EXPECT_EQ(0u, (size_t{2} << 20) % normal);
    aclrtPhysicalMemProp prop = device_memory();
    size_t granularity = 0;
    EXPECT_ACL_FAILS(aclrtMemGetAllocationGranularity(&prop, static_cast<aclrtMemGranularityOptions>(7), &granularity),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMemGetAllocationGranularity(nullptr, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity),
                     ACL_ERROR_INVALID_PARAM);
    prop.memAttr = static_cast<aclrtMemAttr>(99);
    EXPECT_ACL_FAILS(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity),
                     ACL_ERROR_INVALID_PARAM);
}

// CANN's src/acl/aclrt_impl/memory.cpp, aclrtMallocPhysicalImpl: handleType
// must be ACL_MEM_HANDLE_TYPE_NONE (aclrtPhysicalMemProp's documentation: the
// only one supported); the four ACL_DDR_MEM_* attributes are host memory and
// refused on a DEVICE location; attributes outside memAttrHandlers
// (ACL_HBM_MEM, ACL_DDR_MEM, ACL_HBM_MEM_P2P_*) are refused.
// aclrtMemGetAllocationGranularityImpl checks the attributes the same way,
// but not the handle type.
TEST_F(VmmTest, PhysicalMemoryTakesOnlyCannsHandleTypeAndAttributes) {
    aclrtDrvMemHandle handle = nullptr;
    size_t granularity = 0;
    aclrtPhysicalMemProp posix = device_memory();
    posix.handleType = ACL_MEM_HANDLE_TYPE_POSIX;
    EXPECT_ACL_FAILS(aclrtMallocPhysical(&handle, 4096, &posix, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_OK(aclrtMemGetAllocationGranularity(&posix, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity));
    for (aclrtMemAttr ddr : {ACL_DDR_MEM_HUGE, ACL_DDR_MEM_NORMAL, ACL_DDR_MEM_P2P_HUGE, ACL_DDR_MEM_P2P_NORMAL}) {
        aclrtPhysicalMemProp prop = device_memory(ddr);
        EXPECT_ACL_FAILS(aclrtMallocPhysical(&handle, 4096, &prop, 0), ACL_ERROR_INVALID_PARAM);
        EXPECT_ACL_FAILS(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity),
                         ACL_ERROR_INVALID_PARAM);
        prop.location.type = ACL_MEM_LOCATION_TYPE_HOST;
        EXPECT_ACL_OK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity));
    }
    for (aclrtMemAttr unmapped : {ACL_DDR_MEM, ACL_HBM_MEM, ACL_HBM_MEM_P2P_HUGE, ACL_HBM_MEM_P2P_NORMAL,
                                  ACL_HBM_MEM_P2P_HUGE1G}) {
        aclrtPhysicalMemProp prop = device_memory(unmapped);
        EXPECT_ACL_FAILS(aclrtMallocPhysical(&handle, 4096, &prop, 0), ACL_ERROR_INVALID_PARAM);
        EXPECT_ACL_FAILS(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity),
                         ACL_ERROR_INVALID_PARAM);
    }
    EXPECT_EQ(nullptr, handle);
}

// 11-04 aclrtReserveMemAddress / aclrtMallocPhysical / aclrtMapMem: the seven
// steps of the documented flow, with the mapped range used by copies, sets
// and asynchronous copies like aclrtMalloc memory.
TEST_F(VmmTest, MappedRangeBehavesAsDeviceMemory) {
    const aclrtPhysicalMemProp prop = device_memory();
    const size_t size = granularity_of(prop);
    Reservation reservation(2 * size);
    aclrtDrvMemHandle first = nullptr;
    aclrtDrvMemHandle second = nullptr;
    ASSERT_ACL_OK(aclrtMallocPhysical(&first, size, &prop, 0));
    ASSERT_ACL_OK(aclrtMallocPhysical(&second, size, &prop, 0));
    ASSERT_ACL_OK(aclrtMapMem(reservation.at(0), size, 0, first, 0));
    ASSERT_ACL_OK(aclrtMapMem(reservation.at(size), size, 0, second, 0));

    // Two physical allocations, one contiguous device range.
    std::vector<uint8_t> input(2 * size);
    for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<uint8_t>(i % 251);
    ASSERT_ACL_OK(aclrtMemcpy(reservation.at(0), size, input.data(), size, ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_ACL_OK(aclrtMemcpy(reservation.at(size), size, input.data() + size, size, ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_ACL_OK(aclrtMemset(reservation.at(10), 4, 0x7E, 4));
    input[10] = input[11] = input[12] = input[13] = 0x7E;
    std::vector<uint8_t> output(2 * size);
    Stream stream;
    DeviceBuffer staging(size);
    ASSERT_ACL_OK(
        aclrtMemcpyAsync(staging.get(), size, reservation.at(size), size, ACL_MEMCPY_DEVICE_TO_DEVICE, stream.get()));
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream.get()));
    ASSERT_ACL_OK(aclrtMemcpy(output.data(), size, reservation.at(0), size, ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT_ACL_OK(aclrtMemcpy(output.data() + size, size, staging.get(), size, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT_TRUE(output == input);

    // A copy that runs past the mapped bytes is not device memory.
    EXPECT_ACL_FAILS(aclrtMemcpy(reservation.at(size), size + 1, input.data(), size + 1, ACL_MEMCPY_HOST_TO_DEVICE),
                     ACL_ERROR_INVALID_PARAM);

    EXPECT_ACL_OK(aclrtUnmapMem(reservation.at(0)));
    EXPECT_ACL_OK(aclrtUnmapMem(reservation.at(size)));
    EXPECT_ACL_OK(aclrtFreePhysical(first));
    EXPECT_ACL_OK(aclrtFreePhysical(second));
}

// 11-04 aclrtReserveMemAddress / aclrtMapMem: physical pieces mapped back to
// back in one reservation make one contiguous device range -- one copy may
// cross from one piece into the next (as the virtual-memory sample's 2-D
// copy does); a range that reaches an unmapped hole is not device memory.
TEST_F(VmmTest, OneCopySpansPiecesMappedBackToBack) {
    const aclrtPhysicalMemProp prop = device_memory();
    const size_t size = granularity_of(prop);
    Reservation reservation(4 * size);
    aclrtDrvMemHandle pieces[3] = {nullptr, nullptr, nullptr};
    for (aclrtDrvMemHandle& piece : pieces) ASSERT_ACL_OK(aclrtMallocPhysical(&piece, size, &prop, 0));
    ASSERT_ACL_OK(aclrtMapMem(reservation.at(0), size, 0, pieces[0], 0));
    ASSERT_ACL_OK(aclrtMapMem(reservation.at(size), size, 0, pieces[1], 0));
    ASSERT_ACL_OK(aclrtMapMem(reservation.at(3 * size), size, 0, pieces[2], 0));  // a hole before it

    std::vector<uint8_t> input(2 * size);
    for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<uint8_t>(i % 253);
    ASSERT_ACL_OK(aclrtMemcpy(reservation.at(0), 2 * size, input.data(), 2 * size, ACL_MEMCPY_HOST_TO_DEVICE));
    Stream stream;
    DeviceBuffer straddle(size);
    ASSERT_ACL_OK(aclrtMemcpyAsync(straddle.get(), size, reservation.at(size / 2), size, ACL_MEMCPY_DEVICE_TO_DEVICE,
                                   stream.get()));
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream.get()));
    std::vector<uint8_t> output(size);
    ASSERT_ACL_OK(aclrtMemcpy(output.data(), size, straddle.get(), size, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT_TRUE(std::equal(output.begin(), output.end(), input.begin() + size / 2));

    EXPECT_ACL_FAILS(aclrtMemset(reservation.at(size), 2 * size, 0, 2 * size), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMemset(reservation.at(3 * size - 1), 2, 0, 2), ACL_ERROR_INVALID_PARAM);

    for (size_t offset : {size_t{0}, size, 3 * size}) EXPECT_ACL_OK(aclrtUnmapMem(reservation.at(offset)));
    for (aclrtDrvMemHandle piece : pieces) EXPECT_ACL_OK(aclrtFreePhysical(piece));
}

// 11-04 aclrtMallocPhysical takes device memory: aclrtGetMemInfo's free bytes
// shrink by the allocation and come back with aclrtFreePhysical.
TEST_F(VmmTest, PhysicalMemoryCountsAgainstTheDeviceCapacity) {
    const aclrtPhysicalMemProp prop = device_memory();
    const size_t size = granularity_of(prop);
    const size_t before = hbm_free();
    aclrtDrvMemHandle handle = nullptr;
    ASSERT_ACL_OK(aclrtMallocPhysical(&handle, size, &prop, 0));
    EXPECT_EQ(before - size, hbm_free());
    EXPECT_ACL_OK(aclrtFreePhysical(handle));
    EXPECT_EQ(before, hbm_free());
}

// 11-04 aclrtFreePhysical: while a mapping exists, the memory is not released;
// only aclrtUnmapMem of the last mapping gives it back.
TEST_F(VmmTest, FreeingAMappedHandleKeepsTheMemoryUntilUnmap) {
    const aclrtPhysicalMemProp prop = device_memory();
    const size_t size = granularity_of(prop);
    const size_t before = hbm_free();
    Reservation reservation(size);
    aclrtDrvMemHandle handle = nullptr;
    ASSERT_ACL_OK(aclrtMallocPhysical(&handle, size, &prop, 0));
    ASSERT_ACL_OK(aclrtMapMem(reservation.at(0), size, 0, handle, 0));
    ASSERT_ACL_OK(aclrtMemset(reservation.at(0), size, 0x5A, size));
    ASSERT_ACL_OK(aclrtFreePhysical(handle));
    EXPECT_EQ(0x5A, reservation.at(0)[size - 1]);
    EXPECT_EQ(before - size, hbm_free());
    EXPECT_ACL_FAILS(aclrtFreePhysical(handle), ACL_ERROR_RT_PARAM_INVALID);  // already freed
    EXPECT_ACL_OK(aclrtUnmapMem(reservation.at(0)));
    EXPECT_EQ(before, hbm_free());
}

// 11-04 aclrtMapMem: size equals the physical allocation's, offset is 0, the
// address lies in a reservation, and a range is mapped once.
TEST_F(VmmTest, MapRejectsWrongSizesOffsetsAddressesAndDoubleMaps) {
    const aclrtPhysicalMemProp prop = device_memory();
    const size_t size = granularity_of(prop);
    Reservation reservation(2 * size);
    aclrtDrvMemHandle handle = nullptr;
    ASSERT_ACL_OK(aclrtMallocPhysical(&handle, size, &prop, 0));
    EXPECT_ACL_FAILS(aclrtMapMem(reservation.at(0), size / 2, 0, handle, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMapMem(reservation.at(0), size, 4096, handle, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMapMem(reservation.at(0), size, 0, handle, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMapMem(reservation.at(4096), size, 0, handle, 0), ACL_ERROR_RT_ADDR_UNALIGNED);
    EXPECT_ACL_FAILS(aclrtMapMem(reservation.at(2 * size), size, 0, handle, 0), ACL_ERROR_INVALID_PARAM);
    std::vector<uint8_t> host(size);
    EXPECT_ACL_FAILS(aclrtMapMem(host.data(), size, 0, handle, 0));
    EXPECT_ACL_FAILS(aclrtMapMem(reservation.at(0), size, 0, nullptr, 0), ACL_ERROR_INVALID_PARAM);
    int notAHandle = 0;
    EXPECT_ACL_FAILS(aclrtMapMem(reservation.at(0), size, 0, &notAHandle, 0), ACL_ERROR_RT_PARAM_INVALID);

    ASSERT_ACL_OK(aclrtMapMem(reservation.at(0), size, 0, handle, 0));
    EXPECT_ACL_FAILS(aclrtMapMem(reservation.at(0), size, 0, handle, 0), ACL_ERROR_INVALID_PARAM);  // double map
    EXPECT_ACL_OK(aclrtUnmapMem(reservation.at(0)));
    EXPECT_ACL_FAILS(aclrtUnmapMem(reservation.at(0)), ACL_ERROR_RT_PARAM_INVALID);  // double unmap
    EXPECT_ACL_OK(aclrtFreePhysical(handle));
}

// 11-04 aclrtReleaseMemAddress: mappings must be undone first; the address
// must come from aclrtReserveMemAddress.  aclrtReserveMemAddress: size != 0.
TEST_F(VmmTest, ReserveAndReleaseRejectBadInput) {
    void* base = nullptr;
    EXPECT_ACL_FAILS(aclrtReserveMemAddress(&base, 0, 0, nullptr, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtReserveMemAddress(nullptr, 4096, 0, nullptr, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtReserveMemAddress(&base, SIZE_MAX, 0, nullptr, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtReleaseMemAddress(nullptr), ACL_ERROR_INVALID_PARAM);
    std::vector<uint8_t> host(64);
    EXPECT_ACL_FAILS(aclrtReleaseMemAddress(host.data()), ACL_ERROR_RT_PARAM_INVALID);

    const aclrtPhysicalMemProp prop = device_memory();
    const size_t size = granularity_of(prop);
    ASSERT_ACL_OK(aclrtReserveMemAddress(&base, size, 0, nullptr, 0));
    EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(base) % size);
    aclrtDrvMemHandle handle = nullptr;
    ASSERT_ACL_OK(aclrtMallocPhysical(&handle, size, &prop, 0));
    ASSERT_ACL_OK(aclrtMapMem(base, size, 0, handle, 0));
    EXPECT_ACL_FAILS(aclrtReleaseMemAddress(base), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_OK(aclrtUnmapMem(base));
    EXPECT_ACL_OK(aclrtFreePhysical(handle));
    EXPECT_ACL_OK(aclrtReleaseMemAddress(base));
    EXPECT_ACL_FAILS(aclrtReleaseMemAddress(base), ACL_ERROR_RT_PARAM_INVALID);  // double release
}

// aclrtReserveMemAddress takes flags 0 or 1 (1 kept for the early
// interface's callers, ggml's CANN backend among them) and refuses others:
// CANN's aclrtReserveMemAddressImpl (src/acl/aclrt_impl/memory.cpp).
TEST_F(VmmTest, ReserveTakesFlagsZeroOrOne) {
    const size_t size = granularity_of(device_memory());
    for (uint64_t flags : {0u, 1u}) {
        void* base = nullptr;
        ASSERT_ACL_OK(aclrtReserveMemAddress(&base, size, 0, nullptr, flags));
        EXPECT_ACL_OK(aclrtReleaseMemAddress(base));
    }
    void* base = nullptr;
    EXPECT_ACL_FAILS(aclrtReserveMemAddress(&base, size, 0, nullptr, 2), ACL_ERROR_INVALID_PARAM);
}

// 11-04 aclrtReserveMemAddress: a non-null expectPtr is the address the
// reservation must start at.
TEST_F(VmmTest, ReserveHonoursAFreeExpectedAddress) {
    const size_t size = size_t{2} << 20;
    // A range found free may be mapped by another thread of the process (the
    // runtime's, a sanitizer's) before it is asked for again: then the
    // request is rightly refused, and the test probes a new range.
    void* placed = nullptr;
    for (int attempt = 0; attempt < 16 && placed == nullptr; ++attempt) {
        void* probe = nullptr;
        ASSERT_ACL_OK(aclrtReserveMemAddress(&probe, size, 0, nullptr, 0));
        ASSERT_ACL_OK(aclrtReleaseMemAddress(probe));
        const aclError status = aclrtReserveMemAddress(&placed, size, 0, probe, 0);
        if (status == ACL_SUCCESS) {
            EXPECT_EQ(probe, placed);
        } else {
            EXPECT_EQ(ACL_ERROR_RT_MEMORY_ALLOCATION, status);
            placed = nullptr;
        }
    }
    ASSERT_NE(nullptr, placed) << "no free range was honoured in 16 attempts";
    void* clash = nullptr;
    EXPECT_ACL_FAILS(aclrtReserveMemAddress(&clash, size, 0, placed, 0), ACL_ERROR_RT_MEMORY_ALLOCATION);
    EXPECT_ACL_OK(aclrtReleaseMemAddress(placed));
}

// 11-04 aclrtMallocPhysical: prop is required, flags are reserved (0), and
// the memory attribute is one of aclrtMemAttr.
TEST_F(VmmTest, MallocPhysicalRejectsBadInput) {
    aclrtPhysicalMemProp prop = device_memory();
    aclrtDrvMemHandle handle = nullptr;
    EXPECT_ACL_FAILS(aclrtMallocPhysical(nullptr, 4096, &prop, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMallocPhysical(&handle, 0, &prop, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMallocPhysical(&handle, 4096, nullptr, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMallocPhysical(&handle, 4096, &prop, 2), ACL_ERROR_INVALID_PARAM);
    prop.memAttr = static_cast<aclrtMemAttr>(-1);
    EXPECT_ACL_FAILS(aclrtMallocPhysical(&handle, 4096, &prop, 0), ACL_ERROR_INVALID_PARAM);
    prop = device_memory();
    prop.location.id = 7;  // no such open device
    EXPECT_ACL_FAILS(aclrtMallocPhysical(&handle, 4096, &prop, 0), ACL_ERROR_RT_INVALID_DEVICEID);
    prop = device_memory();
    EXPECT_ACL_FAILS(aclrtMallocPhysical(&handle, SIZE_MAX - 1, &prop, 0));
    EXPECT_ACL_FAILS(aclrtFreePhysical(nullptr), ACL_ERROR_INVALID_PARAM);
}

// 11-04 aclrtMemMapNoAccess + aclrtMemSetAccess / aclrtMemGetAccess: the range
// is inaccessible until aclrtMemSetAccess grants access.
TEST_F(VmmTest, NoAccessMappingBecomesUsableAfterSetAccess) {
    const aclrtPhysicalMemProp prop = device_memory();
    const size_t size = granularity_of(prop);
    Reservation reservation(size);
    aclrtDrvMemHandle handle = nullptr;
    ASSERT_ACL_OK(aclrtMallocPhysical(&handle, size, &prop, 0));
    ASSERT_ACL_OK(aclrtMemMapNoAccess(reservation.at(0), size, 0, handle, 0));
    aclrtMemLocation device{0, ACL_MEM_LOCATION_TYPE_DEVICE};
    uint64_t flags = 99;
    ASSERT_ACL_OK(aclrtMemGetAccess(reservation.at(0), &device, &flags));
    EXPECT_EQ(uint64_t{ACL_RT_MEM_ACCESS_FLAGS_NONE}, flags);
    EXPECT_ACL_FAILS(aclrtMemset(reservation.at(0), size, 0, size), ACL_ERROR_INVALID_PARAM);

    aclrtMemAccessDesc desc{};
    desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
    desc.location = device;
    EXPECT_ACL_FAILS(aclrtMemSetAccess(reservation.at(0), size / 2, &desc, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMemSetAccess(reservation.at(0), size, &desc, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(aclrtMemSetAccess(reservation.at(0), size, &desc, 1));
    ASSERT_ACL_OK(aclrtMemGetAccess(reservation.at(0), &device, &flags));
    EXPECT_EQ(uint64_t{ACL_RT_MEM_ACCESS_FLAGS_READWRITE}, flags);
    EXPECT_ACL_OK(aclrtMemset(reservation.at(0), size, 0x11, size));
    EXPECT_EQ(0x11, reservation.at(0)[0]);

    desc.flags = static_cast<aclrtMemAccessFlags>(5);
    EXPECT_ACL_FAILS(aclrtMemSetAccess(reservation.at(0), size, &desc, 1), ACL_ERROR_INVALID_PARAM);
    aclrtMemLocation managed{0, ACL_MEM_LOCATION_TYPE_MANAGED};
    EXPECT_ACL_FAILS(aclrtMemGetAccess(reservation.at(0), &managed, &flags), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_OK(aclrtUnmapMem(reservation.at(0)));
    EXPECT_ACL_OK(aclrtFreePhysical(handle));
}

// 11-04 aclrtMemRetainAllocationHandle (one more aclrtFreePhysical per call),
// aclrtMemGetAllocationPropertiesFromHandle and aclrtMemGetAddressRange.
TEST_F(VmmTest, HandlesAndRangesAreFoundFromTheMappedAddress) {
    const aclrtPhysicalMemProp prop = device_memory();
    const size_t size = granularity_of(prop);
    Reservation reservation(2 * size);
    aclrtDrvMemHandle handle = nullptr;
    ASSERT_ACL_OK(aclrtMallocPhysical(&handle, size, &prop, 0));
    ASSERT_ACL_OK(aclrtMapMem(reservation.at(size), size, 0, handle, 0));

    aclrtDrvMemHandle retained = nullptr;
    ASSERT_ACL_OK(aclrtMemRetainAllocationHandle(reservation.at(size), &retained));
    EXPECT_EQ(handle, retained);
    EXPECT_ACL_FAILS(aclrtMemRetainAllocationHandle(reservation.at(0), &retained), ACL_ERROR_INVALID_PARAM);

    aclrtPhysicalMemProp read{};
    ASSERT_ACL_OK(aclrtMemGetAllocationPropertiesFromHandle(retained, &read));
    EXPECT_EQ(prop.memAttr, read.memAttr);
    EXPECT_EQ(prop.location.type, read.location.type);
    EXPECT_EQ(prop.location.id, read.location.id);

    void* base = nullptr;
    size_t length = 0;
    ASSERT_ACL_OK(aclrtMemGetAddressRange(reservation.at(size + 100), &base, &length));
    EXPECT_EQ(reservation.at(size), base);
    EXPECT_EQ(size, length);
    EXPECT_ACL_FAILS(aclrtMemGetAddressRange(reservation.at(0), &base, &length), ACL_ERROR_INVALID_PARAM);

    EXPECT_ACL_OK(aclrtUnmapMem(reservation.at(size)));
    EXPECT_ACL_OK(aclrtFreePhysical(handle));
    // The retained reference keeps the handle valid until its own free.
    ASSERT_ACL_OK(aclrtMemGetAllocationPropertiesFromHandle(handle, &read));
    EXPECT_ACL_OK(aclrtFreePhysical(handle));
    EXPECT_ACL_FAILS(aclrtMemGetAllocationPropertiesFromHandle(handle, &read), ACL_ERROR_RT_PARAM_INVALID);
}

// One physical handle mapped at two addresses: both see the same bytes.
TEST_F(VmmTest, TwoMappingsOfOneHandleShareTheirBytes) {
    const aclrtPhysicalMemProp prop = device_memory();
    const size_t size = granularity_of(prop);
    Reservation reservation(2 * size);
    aclrtDrvMemHandle handle = nullptr;
    ASSERT_ACL_OK(aclrtMallocPhysical(&handle, size, &prop, 0));
    ASSERT_ACL_OK(aclrtMapMem(reservation.at(0), size, 0, handle, 0));
    ASSERT_ACL_OK(aclrtMapMem(reservation.at(size), size, 0, handle, 0));
    ASSERT_ACL_OK(aclrtMemset(reservation.at(0), size, 0xC3, size));
    EXPECT_EQ(0xC3, reservation.at(size)[size / 2]);
    EXPECT_ACL_OK(aclrtUnmapMem(reservation.at(0)));
    EXPECT_ACL_OK(aclrtUnmapMem(reservation.at(size)));
    EXPECT_ACL_OK(aclrtFreePhysical(handle));
}

// The sharing and link functions answer 207000 with a message.
TEST_F(VmmTest, SharingAndLinksAreReportedUnsupported) {
    uint64_t shareable = 0;
    EXPECT_ACL_FAILS(aclrtMemExportToShareableHandle(nullptr, ACL_MEM_HANDLE_TYPE_NONE, 0, &shareable),
                     ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_ACL_FAILS(aclrtMemMapSetLink(nullptr, ACL_RT_MEM_ACCESS_LINK_HCCS), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

}  // namespace
}  // namespace aclcpu::test
