// Allocation with configurations, frees that synchronise, 2-D copies, 32-bit
// sets, copies through addresses held in device memory, pointer queries
// (CANN docs/zh/api_ref/11-01 ... 11-05).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl_rt_memory_soma.h"
#include "runtime/c_enum_codes.h"
#include "runtime/runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

using MemoryExtrasTest = RuntimeTest;

std::vector<uint8_t> pattern(size_t size) {
    std::vector<uint8_t> bytes(size);
    for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<uint8_t>(i % 251);
    return bytes;
}

// 11-01 aclrtMallocWithCfg: cfg may be NULL; an ACL_RT_MEM_ATTR_DEVICE_ID
// attribute names the device; the memory is freed with aclrtFree.
TEST_F(MemoryExtrasTest, MallocWithCfgAllocatesOnTheCurrentOrNamedDevice) {
    void* plain = nullptr;
    ASSERT_ACL_OK(aclrtMallocWithCfg(&plain, 1000, ACL_MEM_MALLOC_HUGE_FIRST, nullptr));
    EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(plain) % 64);
    aclrtMallocAttribute attr{};
    attr.attr = ACL_RT_MEM_ATTR_DEVICE_ID;
    attr.value.deviceId = 0;
    aclrtMallocConfig cfg{&attr, 1};
    void* named = nullptr;
    // Several policies or-ed together are accepted (11-01 aclrtMallocWithCfg constraints).
    ASSERT_ACL_OK(aclrtMallocWithCfg(
        &named, 64, static_cast<aclrtMemMallocPolicy>(ACL_MEM_MALLOC_HUGE_FIRST | ACL_MEM_TYPE_HIGH_BAND_WIDTH), &cfg));
    ASSERT_ACL_OK(aclrtMemset(named, 64, 0x2C, 64));
    EXPECT_ACL_OK(aclrtFree(named));
    EXPECT_ACL_OK(aclrtFree(plain));
    void* scheduler = nullptr;
    ASSERT_ACL_OK(aclrtMallocForTaskScheduler(&scheduler, 256, ACL_MEM_MALLOC_NORMAL_ONLY, nullptr));
    EXPECT_ACL_OK(aclrtFree(scheduler));
}

TEST_F(MemoryExtrasTest, MallocWithCfgRejectsBadConfigurations) {
    void* ptr = nullptr;
    EXPECT_ACL_FAILS(aclrtMallocWithCfg(&ptr, 0, ACL_MEM_MALLOC_HUGE_FIRST, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMallocWithCfg(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST, nullptr), ACL_ERROR_INVALID_PARAM);
    aclrtMallocConfig noAttrs{nullptr, 1};
    EXPECT_ACL_FAILS(aclrtMallocWithCfg(&ptr, 64, ACL_MEM_MALLOC_HUGE_FIRST, &noAttrs), ACL_ERROR_INVALID_PARAM);
    aclrtMallocAttribute unknown{};
    unknown.attr = static_cast<aclrtMallocAttrType>(42);
    aclrtMallocConfig badType{&unknown, 1};
    EXPECT_ACL_FAILS(aclrtMallocWithCfg(&ptr, 64, ACL_MEM_MALLOC_HUGE_FIRST, &badType), ACL_ERROR_INVALID_PARAM);
    aclrtMallocAttribute absent{};
    absent.attr = ACL_RT_MEM_ATTR_DEVICE_ID;
    absent.value.deviceId = 9;
    aclrtMallocConfig absentDevice{&absent, 1};
    EXPECT_ACL_FAILS(aclrtMallocWithCfg(&ptr, 64, ACL_MEM_MALLOC_HUGE_FIRST, &absentDevice),
                     ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_ACL_FAILS(aclrtMallocHostWithCfg(&ptr, 0, nullptr), ACL_ERROR_INVALID_PARAM);
}

// aclrtMallocWithCfg's policy, like aclrtMalloc's, is a bit set: a C caller's
// code outside the enumerators must be read as an integer, never loaded as
// the enum (UBSan's enum check, on in the sanitizer build, reported it; found
// by fuzz_runtime_memory, corpus input malloc_with_cfg_policy_code).
TEST_F(MemoryExtrasTest, MallocWithCfgReadsAnyPolicyCode) {
    void* ptr = nullptr;
    ASSERT_ACL_OK(c_enum_malloc_with_cfg(&ptr, 64, -1));
    EXPECT_ACL_OK(aclrtFree(ptr));
}

// CANN's src/acl/aclrt_impl/memory.cpp, CheckMemcpy2dParam, takes
// ACL_MEMCPY_DEFAULT for both 2-D copies; the rts layer
// (src/runtime/api/impl/api_error.cc, ApiErrorDecorator::MemCopy2DSync /
// MemCopy2DAsync) takes the direction from the memory and refuses one it does
// not copy -- host to host, and synchronously device to device -- with 107000.
TEST_F(MemoryExtrasTest, Memcpy2dDefaultTakesItsDirectionFromTheMemory) {
    DeviceBuffer device(256);
    std::vector<uint8_t> host(256, 9);
    std::vector<uint8_t> back(256, 0);
    ASSERT_ACL_OK(aclrtMemcpy2d(device.get(), 16, host.data(), 16, 16, 16, ACL_MEMCPY_DEFAULT));
    ASSERT_ACL_OK(aclrtMemcpy2dAsync(device.bytes() + 128, 16, device.get(), 16, 16, 8, ACL_MEMCPY_DEFAULT, nullptr));
    ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
    ASSERT_ACL_OK(aclrtMemcpy2d(back.data(), 16, device.get(), 16, 16, 16, ACL_MEMCPY_DEFAULT));
    EXPECT_EQ(host, back);
    EXPECT_ACL_FAILS(aclrtMemcpy2d(back.data(), 16, host.data(), 16, 16, 16, ACL_MEMCPY_DEFAULT),
                     ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtMemcpy2dAsync(back.data(), 16, host.data(), 16, 16, 16, ACL_MEMCPY_DEFAULT, nullptr),
                     ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtMemcpy2d(device.bytes() + 128, 16, device.get(), 16, 16, 8, ACL_MEMCPY_DEFAULT),
                     ACL_ERROR_RT_PARAM_INVALID);
}

// 11-03 aclrtMemcpy2d / aclrtMemcpy2dAsync: a kind code outside the enum
// from a C caller is ACL_ERROR_INVALID_PARAM, read as an integer (the kind
// was loaded as the enum first: UBSan's enum check in the sanitizer build;
// found by fuzz_runtime_memory, corpus input memcpy_2d_kind_code).
TEST_F(MemoryExtrasTest, Memcpy2dReadsAnyKindCode) {
    DeviceBuffer device(64);
    std::vector<unsigned char> host(64);
    Stream stream;
    for (int code : {255, -1}) {
        SCOPED_TRACE(code);
        EXPECT_TRUE(failed_with(ACLCPU_FRESH_CALL(c_enum_memcpy_2d(device.get(), host.data(), 64, code, nullptr)),
                                {ACL_ERROR_INVALID_PARAM}));
        EXPECT_TRUE(failed_with(ACLCPU_FRESH_CALL(c_enum_memcpy_2d(device.get(), host.data(), 64, code, stream.get())),
                                {ACL_ERROR_INVALID_PARAM}));
    }
}

// 11-03 aclrtMemcpyBatchAsync, failIndex: "若错误不涉及特定复制操作，该值将
// 为SIZE_MAX" -- a stream that does not exist concerns no copy (failIndex was
// left as the caller set it; found by fuzz_runtime_memory, corpus input
// batch_async_bad_stream).
TEST_F(MemoryExtrasTest, BatchCopyOnABadStreamFailsWithoutACopyIndex) {
    DeviceBuffer device(64);
    std::vector<unsigned char> host(64);
    void* dsts[] = {device.get()};
    void* srcs[] = {host.data()};
    size_t sizes[] = {64};
    aclrtMemcpyBatchAttr attrs[1] = {};
    attrs[0].dstLoc = aclrtMemLocation{0, ACL_MEM_LOCATION_TYPE_DEVICE};
    attrs[0].srcLoc = aclrtMemLocation{0, ACL_MEM_LOCATION_TYPE_HOST};
    size_t attrsIndexes[] = {0};
    size_t failIndex = 0;
    Stream destroyed;
    const aclrtStream stale = destroyed.release();
    ASSERT_ACL_OK(aclrtDestroyStream(stale));
    EXPECT_ACL_FAILS(aclrtMemcpyBatchAsync(dsts, sizes, srcs, sizes, 1, attrs, attrsIndexes, 1, &failIndex, stale));
    EXPECT_EQ(SIZE_MAX, failIndex);
}

// 11-03 aclrtMemcpyBatch: an empty copy in a batch copies nothing, but its
// addresses are checked like the others' (CANN's ApiImpl::MemcpyBatch
// checks every copy's locations with ApiImpl::CheckMemCpyAttr): null
// addresses are not the declared device memory, so the batch fails on that
// copy with 107000 and copies nothing -- null never reaches memmove (UBSan
// reported that once; found by fuzz_runtime_memory, corpus input
// batch_empty_copy_null).
TEST_F(MemoryExtrasTest, BatchChecksTheAddressesOfAnEmptyCopy) {
    DeviceBuffer device(64);
    std::vector<unsigned char> host(64, 7);
    void* dsts[] = {nullptr, device.get()};
    void* srcs[] = {nullptr, host.data()};
    size_t sizes[] = {0, 64};
    aclrtMemcpyBatchAttr attrs[1] = {};
    attrs[0].dstLoc = aclrtMemLocation{0, ACL_MEM_LOCATION_TYPE_DEVICE};
    attrs[0].srcLoc = aclrtMemLocation{0, ACL_MEM_LOCATION_TYPE_HOST};
    size_t attrsIndexes[] = {0};
    size_t failIndex = 0;
    const std::vector<unsigned char> before = device.read();
    EXPECT_ACL_FAILS(aclrtMemcpyBatch(dsts, sizes, srcs, sizes, 2, attrs, attrsIndexes, 1, &failIndex),
                     ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(0u, failIndex);
    EXPECT_EQ(before, device.read());
    // With real addresses the empty copy passes and the other one is made.
    dsts[0] = device.get();
    srcs[0] = host.data();
    ASSERT_ACL_OK(aclrtMemcpyBatch(dsts, sizes, srcs, sizes, 2, attrs, attrsIndexes, 1, &failIndex));
    EXPECT_EQ(host, device.read());
}

// 11-02 aclrtMallocHost / aclrtMallocHostWithCfg: "返回0表示成功，返回其他值
// 表示失败".  A size no host can hold must fail; the runtime's rounding of
// SIZE_MAX up to its 64-byte alignment wrapped to 0, and the call handed out
// a tiny block as SIZE_MAX bytes (found by fuzz_runtime_memory, corpus input
// malloc_host_size_max).
TEST_F(MemoryExtrasTest, MallocHostRefusesSizesNoHostCanHold) {
    void* ptr = nullptr;
    for (uint64_t size : {uint64_t{SIZE_MAX}, uint64_t{SIZE_MAX} - 63, uint64_t{1} << 63}) {
        SCOPED_TRACE(size);
        EXPECT_ACL_FAILS(aclrtMallocHost(&ptr, static_cast<size_t>(size)), ACL_ERROR_BAD_ALLOC);
        EXPECT_ACL_FAILS(aclrtMallocHostWithCfg(&ptr, size, nullptr), ACL_ERROR_BAD_ALLOC);
    }
}

// 11-02 aclrtMallocHostWithCfg: pinned host memory, freed by aclrtFreeHost.
TEST_F(MemoryExtrasTest, MallocHostWithCfgGivesPinnedMemory) {
    void* host = nullptr;
    ASSERT_ACL_OK(aclrtMallocHostWithCfg(&host, 4096, nullptr));
    EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(host) % 64);
    aclrtPtrAttributes attributes{};
    ASSERT_ACL_OK(aclrtPointerGetAttributes(host, &attributes));
    EXPECT_EQ(ACL_MEM_LOCATION_TYPE_HOST, attributes.location.type);
    EXPECT_ACL_OK(aclrtFreeHostWithDevSync(host));
    EXPECT_ACL_FAILS(aclrtFreeHostWithDevSync(host), ACL_ERROR_INVALID_PARAM);  // already freed
}

// 11-01 aclrtFreeWithDevSync: waits for the device's tasks before freeing
// (aclrtFree does not).
TEST_F(MemoryExtrasTest, FreeWithDevSyncWaitsForTheDevice) {
    void* ptr = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&ptr, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    Stream stream;
    Gate gate;
    ASSERT_ACL_OK(gate.hold(stream.get()));
    CallProbe probe;
    ASSERT_ACL_OK(aclrtLaunchHostFunc(stream.get(), &CallProbe::record, &probe));
    std::thread opener([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(kAbsenceWindowMs));
        gate.open();
    });
    EXPECT_ACL_OK(aclrtFreeWithDevSync(ptr));
    EXPECT_EQ(1, probe.calls.load());
    opener.join();
    EXPECT_ACL_FAILS(aclrtFreeWithDevSync(ptr), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtFreeWithDevSync(nullptr), ACL_ERROR_INVALID_PARAM);
}

// 11-03 aclrtMemcpy2d / aclrtMemcpy2dAsync: height rows of width bytes, with
// the pitches between rows; width <= both pitches.
TEST_F(MemoryExtrasTest, Memcpy2dCopiesRowsBetweenPitches) {
    const size_t width = 5;
    const size_t height = 4;
    const size_t spitch = 8;
    const size_t dpitch = 16;
    const std::vector<uint8_t> source = pattern(spitch * height);
    DeviceBuffer device(dpitch * height);
    device.fill(0);
    ASSERT_ACL_OK(aclrtMemcpy2d(device.get(), dpitch, source.data(), spitch, width, height, ACL_MEMCPY_HOST_TO_DEVICE));
    const std::vector<uint8_t> copied = device.read();
    for (size_t row = 0; row < height; ++row) {
        for (size_t column = 0; column < dpitch; ++column) {
            const uint8_t expected = column < width ? source[row * spitch + column] : 0;
            EXPECT_EQ(expected, copied[row * dpitch + column]) << row << "," << column;
        }
    }
    // Back again, asynchronously, packed (pitch == width).
    PinnedBuffer packed(width * height);
    Stream stream;
    ASSERT_ACL_OK(aclrtMemcpy2dAsync(packed.bytes(), width, device.get(), dpitch, width, height,
                                     ACL_MEMCPY_DEVICE_TO_HOST, stream.get()));
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream.get()));
    for (size_t row = 0; row < height; ++row) {
        EXPECT_EQ(0, std::memcmp(packed.bytes() + row * width, source.data() + row * spitch, width));
    }
}

TEST_F(MemoryExtrasTest, Memcpy2dRejectsCANNsInvalidShapesAndKinds) {
    DeviceBuffer device(4096);
    std::vector<uint8_t> host(4096);
    // width > pitch (11-03 aclrtMemcpy2dAsync: width <= dpitch and spitch).
    EXPECT_ACL_FAILS(aclrtMemcpy2d(device.get(), 8, host.data(), 16, 9, 2, ACL_MEMCPY_HOST_TO_DEVICE),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMemcpy2d(device.get(), 16, host.data(), 8, 9, 2, ACL_MEMCPY_HOST_TO_DEVICE),
                     ACL_ERROR_INVALID_PARAM);
    // height > 5 * 1024 * 1024: the rts layer's limit (ApiErrorDecorator::MemCopy2DCheckParam, 107000).
    EXPECT_ACL_FAILS(
        aclrtMemcpy2d(device.get(), 1, host.data(), 1, 1, (size_t{5} << 20) + 1, ACL_MEMCPY_HOST_TO_DEVICE),
        ACL_ERROR_RT_PARAM_INVALID);
    // Only host-to-device and device-to-host for the synchronous copy (11-03 aclrtMemcpy2d constraints): the
    // acl layer takes device to device (CheckMemcpy2dParam), ApiErrorDecorator::MemCopy2DSync refuses it (207000).
    EXPECT_ACL_FAILS(aclrtMemcpy2d(device.get(), 16, device.get(), 16, 8, 2, ACL_MEMCPY_DEVICE_TO_DEVICE),
                     ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_ACL_FAILS(aclrtMemcpy2d(device.get(), 16, host.data(), 16, 8, 2, static_cast<aclrtMemcpyKind>(77)),
                     ACL_ERROR_INVALID_PARAM);
    // The last row of the destination runs past the device block (with memory
    // checking on, as in Debug builds, into its guard zone).
    EXPECT_ACL_FAILS(aclrtMemcpy2d(device.get(), 8192, host.data(), 1, 1, 2, ACL_MEMCPY_HOST_TO_DEVICE),
                     ACL_ERROR_INVALID_PARAM, ACL_ERROR_RT_AICORE_EXCEPTION);
    // Pitches whose extent overflows the address space.
    EXPECT_ACL_FAILS(aclrtMemcpy2d(device.get(), SIZE_MAX / 2, host.data(), 1, 1, 4, ACL_MEMCPY_HOST_TO_DEVICE),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMemcpy2d(nullptr, 16, host.data(), 16, 8, 2, ACL_MEMCPY_HOST_TO_DEVICE),
                     ACL_ERROR_INVALID_PARAM);
    // The asynchronous copy also takes device-to-device.
    EXPECT_ACL_OK(
        aclrtMemcpy2dAsync(device.get(), 16, device.bytes() + 2048, 16, 8, 2, ACL_MEMCPY_DEVICE_TO_DEVICE, nullptr));
    EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
}

// 11-03 aclrtMemsetD32 / aclrtMemsetD32Async: N 32-bit values; memSize >= N * 4.
TEST_F(MemoryExtrasTest, MemsetD32FillsWords) {
    DeviceBuffer device(64);
    device.fill(0);
    ASSERT_ACL_OK(aclrtMemsetD32(device.get(), 64, 0xA1B2C3D4u, 15));
    std::vector<uint8_t> bytes = device.read();
    for (size_t i = 0; i < 15; ++i) {
        uint32_t word = 0;
        std::memcpy(&word, bytes.data() + 4 * i, 4);
        EXPECT_EQ(0xA1B2C3D4u, word);
    }
    EXPECT_EQ(0u, bytes[60]);
    Stream stream;
    ASSERT_ACL_OK(aclrtMemsetD32Async(device.get(), 64, 7u, 16, stream.get()));
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream.get()));
    bytes = device.read();
    uint32_t last = 0;
    std::memcpy(&last, bytes.data() + 60, 4);
    EXPECT_EQ(7u, last);

    EXPECT_ACL_FAILS(aclrtMemsetD32(device.get(), 63, 1u, 16), ACL_ERROR_INVALID_PARAM);  // memSize < N * 4
    EXPECT_ACL_FAILS(aclrtMemsetD32(device.get(), SIZE_MAX, 1u, SIZE_MAX / 2), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMemsetD32(nullptr, 64, 1u, 1), ACL_ERROR_INVALID_PARAM);
    std::vector<uint32_t> pageable(16);
    EXPECT_ACL_FAILS(aclrtMemsetD32(pageable.data(), 64, 1u, 16), ACL_ERROR_INVALID_PARAM);
}

// 11-03 aclrtMemsetD32Async: a fill of host memory is not put on the stream:
// it is done when the call returns, even behind a held stream.
TEST_F(MemoryExtrasTest, MemsetD32AsyncOfHostMemoryIsDoneAtOnce) {
    PinnedBuffer host(16);
    Stream stream;
    Gate gate;
    ASSERT_ACL_OK(gate.hold(stream.get()));
    ASSERT_ACL_OK(aclrtMemsetD32Async(host.bytes(), 16, 0x01020304u, 4, stream.get()));
    uint32_t word = 0;
    std::memcpy(&word, host.bytes() + 12, 4);
    EXPECT_EQ(0x01020304u, word);
    gate.open();
    EXPECT_ACL_OK(aclrtSynchronizeStream(stream.get()));
}

// 11-03 aclrtMemcpyAsyncWithOffset: dst and src hold the base addresses (read
// when the copy runs), offsets are added to them; only
// ACL_MEMCPY_INNER_DEVICE_TO_DEVICE.
TEST_F(MemoryExtrasTest, MemcpyAsyncWithOffsetReadsTheBasesWhenItRuns) {
    DeviceBuffer source(256);
    DeviceBuffer destination(256);
    DeviceBuffer bases(2 * sizeof(void*));
    const std::vector<uint8_t> input = pattern(256);
    ASSERT_ACL_OK(aclrtMemcpy(source.get(), 256, input.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE));
    destination.fill(0);
    auto** dstBase = reinterpret_cast<void**>(bases.bytes());
    auto** srcBase = reinterpret_cast<const void**>(bases.bytes() + sizeof(void*));
    Stream stream;
    Gate gate;
    ASSERT_ACL_OK(gate.hold(stream.get()));
    ASSERT_ACL_OK(aclrtMemcpyAsyncWithOffset(dstBase, 200, 16, srcBase, 100, 32, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE,
                                             stream.get()));
    // Written after the submission, before the copy runs.
    void* addresses[2] = {destination.get(), source.get()};
    ASSERT_ACL_OK(aclrtMemcpy(bases.get(), sizeof addresses, addresses, sizeof addresses, ACL_MEMCPY_HOST_TO_DEVICE));
    gate.open();
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream.get()));
    const std::vector<uint8_t> output = destination.read();
    EXPECT_EQ(0, std::memcmp(output.data() + 16, input.data() + 32, 100));
    EXPECT_EQ(0u, output[15]);
    EXPECT_EQ(0u, output[116]);

    EXPECT_ACL_FAILS(
        aclrtMemcpyAsyncWithOffset(dstBase, 200, 0, srcBase, 100, 0, ACL_MEMCPY_DEVICE_TO_DEVICE, stream.get()),
        ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(
        aclrtMemcpyAsyncWithOffset(dstBase, 50, 0, srcBase, 100, 0, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, stream.get()),
        ACL_ERROR_INVALID_PARAM);
    void* hostBase = destination.get();
    EXPECT_ACL_FAILS(
        aclrtMemcpyAsyncWithOffset(&hostBase, 200, 0, srcBase, 100, 0, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, stream.get()),
        ACL_ERROR_INVALID_PARAM);
}

// A base address that is not device memory faults the stream when the copy
// runs (the device's DMA cannot reach it).
TEST_F(MemoryExtrasTest, MemcpyAsyncWithOffsetFaultsOnAHostBase) {
    DeviceBuffer device(64);
    DeviceBuffer bases(2 * sizeof(void*));
    std::vector<uint8_t> host(64);
    void* addresses[2] = {host.data(), device.get()};
    ASSERT_ACL_OK(aclrtMemcpy(bases.get(), sizeof addresses, addresses, sizeof addresses, ACL_MEMCPY_HOST_TO_DEVICE));
    Stream stream;
    ASSERT_ACL_OK(aclrtMemcpyAsyncWithOffset(reinterpret_cast<void**>(bases.bytes()), 64, 0,
                                             reinterpret_cast<const void**>(bases.bytes() + sizeof(void*)), 64, 0,
                                             ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, stream.get()));
    EXPECT_ACL_FAILS(aclrtSynchronizeStream(stream.get()), ACL_ERROR_RT_SYS_DMA);
}

// 11-03 aclrtGetMemcpyDescSize / aclrtSetMemcpyDesc / aclrtMemcpyAsyncWithDesc:
// the descriptor lives in device memory and is read when the copy runs.
TEST_F(MemoryExtrasTest, MemcpyWithDescriptorCopiesWhatTheDescriptorSays) {
    size_t descSize = 0;
    ASSERT_ACL_OK(aclrtGetMemcpyDescSize(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, &descSize));
    ASSERT_GT(descSize, 0u);
    EXPECT_ACL_FAILS(aclrtGetMemcpyDescSize(ACL_MEMCPY_DEVICE_TO_DEVICE, &descSize), ACL_ERROR_INVALID_PARAM);
    DeviceBuffer desc(descSize);
    DeviceBuffer source(128);
    DeviceBuffer destination(128);
    const std::vector<uint8_t> input = pattern(128);
    ASSERT_ACL_OK(aclrtMemcpy(source.get(), 128, input.data(), 128, ACL_MEMCPY_HOST_TO_DEVICE));
    destination.fill(0);
    ASSERT_ACL_OK(aclrtSetMemcpyDesc(desc.get(), ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, source.get(), destination.get(), 96,
                                     nullptr));
    ASSERT_ACL_OK(aclrtMemcpyAsyncWithDesc(desc.get(), ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, nullptr));
    ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
    const std::vector<uint8_t> output = destination.read();
    EXPECT_EQ(0, std::memcmp(output.data(), input.data(), 96));
    EXPECT_EQ(0u, output[96]);

    std::vector<uint8_t> hostDesc(descSize);
    EXPECT_ACL_FAILS(aclrtSetMemcpyDesc(hostDesc.data(), ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, source.get(),
                                        destination.get(), 96, nullptr),
                     ACL_ERROR_INVALID_PARAM);
    int config = 0;
    EXPECT_ACL_FAILS(
        aclrtSetMemcpyDesc(desc.get(), ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, source.get(), destination.get(), 96, &config),
        ACL_ERROR_INVALID_PARAM);
}

// 11-05 aclrtPointerGetAttributes: where memory is and its page size.
TEST_F(MemoryExtrasTest, PointerAttributesTellDeviceHostAndUnregisteredMemory) {
    DeviceBuffer small(64);
    DeviceBuffer large(size_t{4} << 20);
    PinnedBuffer pinned(64);
    std::vector<uint8_t> pageable(64);
    aclrtPtrAttributes attributes{};
    ASSERT_ACL_OK(aclrtPointerGetAttributes(small.bytes() + 8, &attributes));
    EXPECT_EQ(ACL_MEM_LOCATION_TYPE_DEVICE, attributes.location.type);
    EXPECT_EQ(0u, attributes.location.id);
    EXPECT_EQ(4096u, attributes.pageSize);
    ASSERT_ACL_OK(aclrtPointerGetAttributes(large.get(), &attributes));
    EXPECT_EQ(uint32_t{2} << 20, attributes.pageSize);
    ASSERT_ACL_OK(aclrtPointerGetAttributes(pinned.bytes(), &attributes));
    EXPECT_EQ(ACL_MEM_LOCATION_TYPE_HOST, attributes.location.type);
    ASSERT_ACL_OK(aclrtPointerGetAttributes(pageable.data(), &attributes));
    EXPECT_EQ(ACL_MEM_LOCATION_TYPE_UNREGISTERED, attributes.location.type);
    EXPECT_ACL_FAILS(aclrtPointerGetAttributes(nullptr, &attributes), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtPointerGetAttributes(small.get(), nullptr), ACL_ERROR_INVALID_PARAM);
}

// 11-04 aclrtMemGetAddressRange: the block of aclrtMalloc or aclrtMallocHost memory.
TEST_F(MemoryExtrasTest, AddressRangeOfDeviceAndPinnedBlocks) {
    DeviceBuffer device(1000);
    PinnedBuffer pinned(300);
    void* base = nullptr;
    size_t size = 0;
    ASSERT_ACL_OK(aclrtMemGetAddressRange(device.bytes() + 999, &base, &size));
    EXPECT_EQ(device.get(), base);
    EXPECT_GE(size, 1000u);
    ASSERT_ACL_OK(aclrtMemGetAddressRange(pinned.bytes() + 10, &base, &size));
    EXPECT_EQ(pinned.bytes(), base);
    EXPECT_EQ(300u, size);
    std::vector<uint8_t> pageable(16);
    EXPECT_ACL_FAILS(aclrtMemGetAddressRange(pageable.data(), &base, &size), ACL_ERROR_INVALID_PARAM);
}

// 11-01 aclrtCheckMemType: 1 when every address is of the given type.
TEST_F(MemoryExtrasTest, CheckMemTypeMatchesDeviceMemoryOnly) {
    DeviceBuffer device(64);
    std::vector<uint8_t> host(64);
    void* onlyDevice[] = {device.get(), device.bytes() + 32};
    void* mixed[] = {device.get(), host.data()};
    uint32_t result = 7;
    ASSERT_ACL_OK(aclrtCheckMemType(onlyDevice, 2, ACL_RT_MEM_TYPE_DEV, &result, 0));
    EXPECT_EQ(1u, result);
    ASSERT_ACL_OK(aclrtCheckMemType(mixed, 2, ACL_RT_MEM_TYPE_DEV, &result, 0));
    EXPECT_EQ(0u, result);
    ASSERT_ACL_OK(aclrtCheckMemType(onlyDevice, 2, ACL_RT_MEM_TYPE_DVPP, &result, 0));
    EXPECT_EQ(0u, result);
    EXPECT_ACL_FAILS(aclrtCheckMemType(onlyDevice, 2, 0x40, &result, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtCheckMemType(onlyDevice, 2, ACL_RT_MEM_TYPE_DEV, &result, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtCheckMemType(nullptr, 2, ACL_RT_MEM_TYPE_DEV, &result, 0), ACL_ERROR_INVALID_PARAM);
}

// 11-01 aclrtGetMemUsageInfo: current and peak bytes per component.
TEST_F(MemoryExtrasTest, MemUsageInfoReportsCurrentAndPeakBytes) {
    aclrtMemUsageInfo info[4]{};
    size_t count = 0;
    {
        DeviceBuffer buffer(size_t{1} << 20);
        ASSERT_ACL_OK(aclrtGetMemUsageInfo(0, info, 4, &count));
        ASSERT_EQ(1u, count);
        EXPECT_GE(info[0].curMemSize, uint64_t{1} << 20);
    }
    ASSERT_ACL_OK(aclrtGetMemUsageInfo(0, info, 4, &count));
    EXPECT_LT(info[0].curMemSize, uint64_t{1} << 20);
    EXPECT_GE(info[0].memPeakSize, uint64_t{1} << 20);
    EXPECT_ACL_FAILS(aclrtGetMemUsageInfo(5, info, 4, &count), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_ACL_FAILS(aclrtGetMemUsageInfo(0, nullptr, 4, &count), ACL_ERROR_INVALID_PARAM);
}

// 11-01 aclrtMemFlush / aclrtMemInvalidate: "this version needs no cache
// handling between CPU and NPU"; size must not be 0.
TEST_F(MemoryExtrasTest, FlushAndInvalidateCheckTheirArgumentsOnly) {
    DeviceBuffer device(64);
    EXPECT_ACL_OK(aclrtMemFlush(device.get(), 64));
    EXPECT_ACL_OK(aclrtMemInvalidate(device.get(), 64));
    EXPECT_ACL_FAILS(aclrtMemFlush(device.get(), 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMemInvalidate(nullptr, 64), ACL_ERROR_INVALID_PARAM);
}

// 11-02 aclrtHostRegister: host memory (4 KB aligned) becomes reachable by the
// device through the returned address; aclrtHostUnregister undoes it.
TEST_F(MemoryExtrasTest, RegisteredHostMemoryIsDeviceMemoryUntilUnregistered) {
    constexpr size_t kSize = 8192;
    void* host = std::aligned_alloc(4096, kSize);
    ASSERT_NE(nullptr, host);
    void* devPtr = nullptr;
    ASSERT_ACL_OK(aclrtHostRegister(host, kSize, ACL_HOST_REGISTER_MAPPED, &devPtr));
    ASSERT_NE(nullptr, devPtr);
    void* again = nullptr;
    ASSERT_ACL_OK(aclrtHostGetDevicePointer(host, &again, 0));
    EXPECT_EQ(devPtr, again);
    // The device's view and the host's are the same bytes.
    ASSERT_ACL_OK(aclrtMemsetAsync(devPtr, kSize, 0x3C, kSize, nullptr));
    ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
    EXPECT_EQ(0x3C, static_cast<uint8_t*>(host)[kSize - 1]);
    void* ignored = nullptr;
    EXPECT_ACL_FAILS(aclrtHostRegister(static_cast<uint8_t*>(host) + 4096, 4096, ACL_HOST_REGISTER_MAPPED, &ignored),
                     ACL_ERROR_INVALID_PARAM);  // already registered
    ASSERT_ACL_OK(aclrtHostUnregister(host));
    EXPECT_ACL_FAILS(aclrtHostUnregister(host), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtHostGetDevicePointer(host, &again, 0), ACL_ERROR_INVALID_PARAM);
    std::free(host);
}

TEST_F(MemoryExtrasTest, HostRegisterRejectsBadInput) {
    void* host = std::aligned_alloc(4096, 8192);
    ASSERT_NE(nullptr, host);
    void* devPtr = nullptr;
    EXPECT_ACL_FAILS(aclrtHostRegister(static_cast<uint8_t*>(host) + 64, 4096, ACL_HOST_REGISTER_MAPPED, &devPtr),
                     ACL_ERROR_INVALID_PARAM);  // not 4 KB aligned
    EXPECT_ACL_FAILS(aclrtHostRegister(host, 0, ACL_HOST_REGISTER_MAPPED, &devPtr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtHostRegister(nullptr, 4096, ACL_HOST_REGISTER_MAPPED, &devPtr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtHostRegister(host, 4096, ACL_HOST_REGISTER_MAPPED, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtHostRegister(host, 4096, ACL_HOST_REGISTER_IOMEMORY, &devPtr),
                     ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_ACL_FAILS(aclrtHostRegisterV2(host, 4096, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtHostRegisterV2(host, 4096, 0x1), ACL_ERROR_INVALID_PARAM);
    // ACL_HOST_REG_PINNED is for pageable memory only (11-02 aclrtHostRegisterV2).
    void* pinned = nullptr;
    ASSERT_ACL_OK(aclrtMallocHost(&pinned, 4096));
    EXPECT_ACL_FAILS(aclrtHostRegisterV2(pinned, 4096, ACL_HOST_REG_PINNED), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_OK(aclrtFreeHost(pinned));
    // Registered as pinned only: no device pointer to ask for.
    ASSERT_ACL_OK(aclrtHostRegisterV2(host, 4096, ACL_HOST_REG_PINNED));
    EXPECT_ACL_FAILS(aclrtHostGetDevicePointer(host, &devPtr, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_OK(aclrtHostUnregister(host));
    std::free(host);

    aclrtHostMemMapCapability capability = ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED;
    ASSERT_ACL_OK(aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_AIV, &capability));
    EXPECT_EQ(ACL_RT_HOST_MEM_MAP_SUPPORTED, capability);
    EXPECT_ACL_FAILS(aclrtHostMemMapCapabilities(3, ACL_RT_HAC_TYPE_AIV, &capability), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_ACL_FAILS(aclrtHostMemMapCapabilities(0, static_cast<aclrtHacType>(40), &capability),
                     ACL_ERROR_INVALID_PARAM);
}

// CANN's example 3_memory_advanced/host_register/0_simple_zero_copy maps
// page-locked memory from aclrtMallocHost (ACL_HOST_REG_MAPPED) and reads
// its device pointer: the driver's page-locked memory comes in whole pages,
// which is what registration asks for (ApiImpl::HostRegisterV2 hands the
// range to the driver unchanged).
TEST_F(MemoryExtrasTest, MallocHostMemoryIsPageAlignedAndCanBeMapped) {
    for (size_t bytes : {size_t{1}, size_t{100}, size_t{4096}, size_t{5000}}) {
        void* pinned = nullptr;
        ASSERT_ACL_OK(aclrtMallocHost(&pinned, bytes));
        EXPECT_EQ(reinterpret_cast<uintptr_t>(pinned) % 4096, 0u) << bytes;
        ASSERT_ACL_OK(aclrtHostRegisterV2(pinned, bytes, ACL_HOST_REG_MAPPED));
        void* device = nullptr;
        ASSERT_ACL_OK(aclrtHostGetDevicePointer(pinned, &device, 0));
        EXPECT_EQ(device, pinned);
        EXPECT_ACL_OK(aclrtHostUnregister(pinned));
        EXPECT_ACL_OK(aclrtFreeHost(pinned));
    }
}

// 11-01 aclrtGetMemUceInfo / aclrtMemUceRepair read the HBM's ECC records:
// 207000 with a message.
TEST_F(MemoryExtrasTest, UncorrectableErrorQueriesAreUnsupported) {
    size_t count = 0;
    EXPECT_ACL_FAILS(aclrtGetMemUceInfo(0, nullptr, 0, &count), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_ACL_FAILS(aclrtMemUceRepair(0, nullptr, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

/// Two emulated devices, device 0 set.
class PeerAccessTest : public RuntimeTest {
protected:
    void TearDown() override {
        EXPECT_ACL_OK(aclrtResetDevice(1));
        RuntimeTest::TearDown();
    }

private:
    ScopedEnv deviceCount_{"ACLCPU_DEVICE_COUNT", std::string("2")};
};

// 04 aclrtDeviceCanAccessPeer / aclrtDeviceEnablePeerAccess /
// aclrtDevicePeerAccessStatus / aclrtDeviceDisablePeerAccess: enabling is
// one-directional, from the current device to the peer.
TEST_F(PeerAccessTest, EnablingIsOneDirectional) {
    int32_t can = 0;
    ASSERT_ACL_OK(aclrtDeviceCanAccessPeer(&can, 0, 1));
    EXPECT_EQ(1, can);
    int32_t status = 7;
    ASSERT_ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
    EXPECT_EQ(0, status);
    ASSERT_ACL_OK(aclrtDeviceEnablePeerAccess(1, 0));
    ASSERT_ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
    EXPECT_EQ(1, status);
    ASSERT_ACL_OK(aclrtDevicePeerAccessStatus(1, 0, &status));
    EXPECT_EQ(0, status);
    ASSERT_ACL_OK(aclrtDeviceDisablePeerAccess(1));
    ASSERT_ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
    EXPECT_EQ(0, status);
    EXPECT_ACL_FAILS(aclrtDeviceDisablePeerAccess(1), ACL_ERROR_RT_PARAM_INVALID);

    EXPECT_ACL_FAILS(aclrtDeviceCanAccessPeer(&can, 0, 0), ACL_ERROR_INVALID_PARAM);  // same device
    EXPECT_ACL_FAILS(aclrtDeviceCanAccessPeer(&can, 0, 2), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_ACL_FAILS(aclrtDeviceEnablePeerAccess(0, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtDevicePeerAccessStatus(0, -1, &status), ACL_ERROR_RT_INVALID_DEVICEID);
}

// CANN's src/acl/aclrt_impl/memory.cpp, aclrtDeviceEnablePeerAccessImpl:
// the reserved flags are checked before anything else, with
// ACL_ERROR_FEATURE_UNSUPPORTED (200006).
TEST_F(PeerAccessTest, EnablingWithFlagsIsUnsupported) {
    EXPECT_ACL_FAILS(aclrtDeviceEnablePeerAccess(1, 1), ACL_ERROR_FEATURE_UNSUPPORTED);
    EXPECT_ACL_FAILS(aclrtDeviceEnablePeerAccess(0, 1), ACL_ERROR_FEATURE_UNSUPPORTED);  // and the same device
    EXPECT_ACL_FAILS(aclrtDeviceEnablePeerAccess(9, 0x80), ACL_ERROR_FEATURE_UNSUPPORTED);  // and no such device
    int32_t status = 7;
    ASSERT_ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
    EXPECT_EQ(0, status);
}

// CANN's FAQ 跨DeviceP2P数据交互配置失败.md: a device-to-device copy between
// two devices fails until aclrtDeviceEnablePeerAccess.  The driver refuses
// it, so no code is documented: acl-cpu gives 107000 and a message naming
// aclrtDeviceEnablePeerAccess, and writes nothing.  Access enabled in either
// direction lets the two devices copy both ways.
TEST_F(PeerAccessTest, DeviceToDeviceCopyNeedsPeerAccess) {
    int32_t status = 7;
    ASSERT_ACL_OK(aclrtDevicePeerAccessStatus(1, 0, &status));
    ASSERT_EQ(0, status);
    DeviceBuffer onZero(1024);
    onZero.fill(0x5A);
    ASSERT_ACL_OK(aclrtSetDevice(1));
    void* onOne = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&onOne, 1024, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtMemset(onOne, 1024, 0, 1024));
    take_error_message();
    EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtMemcpy(onOne, 1024, onZero.get(), 1024, ACL_MEMCPY_DEVICE_TO_DEVICE));
    EXPECT_NE(std::string::npos, take_error_message().find("aclrtDeviceEnablePeerAccess"));
    EXPECT_ACL_FAILS(aclrtMemcpyAsync(onOne, 1024, onZero.get(), 1024, ACL_MEMCPY_DEVICE_TO_DEVICE, nullptr),
                     ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
    std::vector<uint8_t> read(1024, 0xFF);
    ASSERT_ACL_OK(aclrtMemcpy(read.data(), 1024, onOne, 1024, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT_EQ(std::vector<uint8_t>(1024, 0), read);

    ASSERT_ACL_OK(aclrtDeviceEnablePeerAccess(0, 0));
    ASSERT_ACL_OK(aclrtMemcpy(onOne, 1024, onZero.get(), 1024, ACL_MEMCPY_DEVICE_TO_DEVICE));
    ASSERT_ACL_OK(aclrtMemcpy(read.data(), 1024, onOne, 1024, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT_EQ(std::vector<uint8_t>(1024, 0x5A), read);
    ASSERT_ACL_OK(aclrtSetDevice(0));
    EXPECT_ACL_OK(aclrtMemcpy(onZero.get(), 1024, onOne, 1024, ACL_MEMCPY_DEVICE_TO_DEVICE));
    ASSERT_ACL_OK(aclrtSetDevice(1));
    EXPECT_ACL_OK(aclrtDeviceDisablePeerAccess(0));
    EXPECT_ACL_OK(aclrtFree(onOne));
    ASSERT_ACL_OK(aclrtSetDevice(0));
}

// 11-07 aclrtIpcMemImportByKey, ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS
// "Enables direct access to memory allocations on a peer device": as CANN's
// ApiImpl::IpcOpenMemory enables P2P with the exporter's device, the
// importing device may then copy from the memory; without the flag it may not.
TEST_F(PeerAccessTest, IpcImportWithPeerAccessEnablesIt) {
    DeviceBuffer onZero(256);
    onZero.fill(0x3C);
    char key[65] = {};
    ASSERT_ACL_OK(aclrtIpcMemGetExportKey(onZero.get(), 256, key, sizeof key,
                                          ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION));
    ASSERT_ACL_OK(aclrtSetDevice(1));
    void* onOne = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&onOne, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    void* imported = nullptr;
    ASSERT_ACL_OK(aclrtIpcMemImportByKey(&imported, key, ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT));
    EXPECT_ACL_FAILS(aclrtMemcpy(onOne, 256, imported, 256, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_ACL_OK(aclrtIpcMemImportByKey(&imported, key, ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS));
    int32_t status = 0;
    ASSERT_ACL_OK(aclrtDevicePeerAccessStatus(1, 0, &status));
    EXPECT_EQ(1, status);
    ASSERT_ACL_OK(aclrtMemcpy(onOne, 256, imported, 256, ACL_MEMCPY_DEVICE_TO_DEVICE));
    std::vector<uint8_t> read(256);
    ASSERT_ACL_OK(aclrtMemcpy(read.data(), 256, onOne, 256, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT_EQ(std::vector<uint8_t>(256, 0x3C), read);
    EXPECT_ACL_OK(aclrtDeviceDisablePeerAccess(0));
    EXPECT_ACL_OK(aclrtIpcMemClose(key));
    EXPECT_ACL_OK(aclrtIpcMemClose(key));
    EXPECT_ACL_OK(aclrtFree(onOne));
    ASSERT_ACL_OK(aclrtSetDevice(0));
    EXPECT_ACL_OK(aclrtIpcMemClose(key));
}

// With peer access enabled, a device-to-device copy moves data between devices.
TEST_F(PeerAccessTest, DeviceToDeviceCopiesCrossDevices) {
    ASSERT_ACL_OK(aclrtDeviceEnablePeerAccess(1, 0));
    DeviceBuffer onZero(256);
    const std::vector<uint8_t> input = pattern(256);
    ASSERT_ACL_OK(aclrtMemcpy(onZero.get(), 256, input.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_ACL_OK(aclrtSetDevice(1));
    void* onOne = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&onOne, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtMemcpyAsync(onOne, 256, onZero.get(), 256, ACL_MEMCPY_DEVICE_TO_DEVICE, nullptr));
    ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
    std::vector<uint8_t> output(256);
    ASSERT_ACL_OK(aclrtMemcpy(output.data(), 256, onOne, 256, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT_TRUE(output == input);
    EXPECT_ACL_OK(aclrtFree(onOne));
    EXPECT_ACL_OK(aclrtDeviceDisablePeerAccess(1));
}

// 11-05 aclrtMemP2PMap: device memory of one device mapped for another, once
// peer access between them is enabled.
TEST_F(PeerAccessTest, P2PMapNeedsPeerAccess) {
    DeviceBuffer onZero(4096);
    EXPECT_ACL_FAILS(aclrtMemP2PMap(onZero.get(), 4096, 1, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_ACL_OK(aclrtDeviceEnablePeerAccess(1, 0));
    EXPECT_ACL_OK(aclrtMemP2PMap(onZero.get(), 4096, 1, 0));
    EXPECT_ACL_FAILS(aclrtMemP2PMap(onZero.get(), 4096, 0, 0), ACL_ERROR_INVALID_PARAM);  // its own device
    EXPECT_ACL_FAILS(aclrtMemP2PMap(onZero.get(), 4096, 1, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMemP2PMap(onZero.get(), 1 << 20, 1, 0), ACL_ERROR_INVALID_PARAM);  // past the block
    std::vector<uint8_t> host(64);
    EXPECT_ACL_FAILS(aclrtMemP2PMap(host.data(), 64, 1, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_OK(aclrtDeviceDisablePeerAccess(1));
}

aclrtMemcpyBatchAttr batch_attr(aclrtMemLocationType dst, aclrtMemLocationType src) {
    aclrtMemcpyBatchAttr attr{};
    attr.dstLoc = aclrtMemLocation{0, dst};
    attr.srcLoc = aclrtMemLocation{0, src};
    return attr;
}

// 11-03 aclrtMemcpyBatch / aclrtMemcpyBatchAsync: attrs[k] applies from
// attrsIndexes[k] to the next index; directions are host to device or
// device to host; failIndex names the copy a check failed on.  The checks of
// the attributes and their indexes are the rts layer's (ApiErrorDecorator::
// MemcpyBatch, ApiImpl::CheckMemCpyAttr): 107000.
TEST_F(MemoryExtrasTest, BatchCopiesFollowTheirAttributes) {
    DeviceBuffer first(64);
    DeviceBuffer second(64);
    const std::vector<uint8_t> input = pattern(64);
    std::vector<uint8_t> back(64, 0);
    void* dsts[] = {first.get(), second.get(), back.data()};
    void* srcs[] = {const_cast<uint8_t*>(input.data()), const_cast<uint8_t*>(input.data()), first.get()};
    size_t destMaxs[] = {64, 64, 64};
    size_t sizes[] = {64, 32, 64};
    aclrtMemcpyBatchAttr attrs[] = {batch_attr(ACL_MEM_LOCATION_TYPE_DEVICE, ACL_MEM_LOCATION_TYPE_HOST),
                                    batch_attr(ACL_MEM_LOCATION_TYPE_HOST, ACL_MEM_LOCATION_TYPE_DEVICE)};
    size_t attrsIndexes[] = {0, 2};
    size_t failIndex = 0;
    ASSERT_ACL_OK(aclrtMemcpyBatch(dsts, destMaxs, srcs, sizes, 3, attrs, attrsIndexes, 2, &failIndex));
    EXPECT_TRUE(back == input);
    EXPECT_EQ(0, std::memcmp(second.read().data(), input.data(), 32));

    // Asynchronously: the same batch on a stream.
    std::fill(back.begin(), back.end(), 0);
    ASSERT_ACL_OK(aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, 3, attrs, attrsIndexes, 2, &failIndex, nullptr));
    ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
    EXPECT_TRUE(back == input);

    // The third copy claims a device source that is host memory.
    srcs[2] = back.data();
    EXPECT_ACL_FAILS(aclrtMemcpyBatch(dsts, destMaxs, srcs, sizes, 3, attrs, attrsIndexes, 2, &failIndex),
                     ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(2u, failIndex);
    srcs[2] = first.get();
    // Host to host is not a batch direction.
    aclrtMemcpyBatchAttr hostToHost[] = {batch_attr(ACL_MEM_LOCATION_TYPE_HOST, ACL_MEM_LOCATION_TYPE_HOST), attrs[1]};
    EXPECT_ACL_FAILS(aclrtMemcpyBatch(dsts, destMaxs, srcs, sizes, 3, hostToHost, attrsIndexes, 2, &failIndex),
                     ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(0u, failIndex);
    // attrsIndexes must start at 0 and increase; numAttrs <= numBatches.
    size_t unordered[] = {0, 0};
    EXPECT_ACL_FAILS(aclrtMemcpyBatch(dsts, destMaxs, srcs, sizes, 3, attrs, unordered, 2, &failIndex),
                     ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(SIZE_MAX, failIndex);
    EXPECT_ACL_FAILS(aclrtMemcpyBatchV2(dsts, destMaxs, srcs, sizes, 1, attrs, attrsIndexes, 2),
                     ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtMemcpyBatchAsyncV2(nullptr, destMaxs, srcs, sizes, 3, attrs, attrsIndexes, 2, nullptr),
                     ACL_ERROR_INVALID_PARAM);
    // destMax smaller than the size.
    destMaxs[1] = 16;
    EXPECT_ACL_FAILS(aclrtMemcpyBatch(dsts, destMaxs, srcs, sizes, 3, attrs, attrsIndexes, 2, &failIndex),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(1u, failIndex);
}

// CANN's checks of a batch by layer.  The acl layer (src/acl/aclrt_impl/
// memory.cpp, ValidateMemcpyBatchParams) refuses a non-zero rsv byte in any
// attribute with 100000, after its destMax check and before any rts check.
// The rts layer (src/runtime/api/impl/api_error.cc, ApiErrorDecorator::
// MemcpyBatch / MemcpyBatchAsync; api_impl.cc, ApiImpl::CheckMemCpyAttr and
// ValidateMemCpyParamsAndAttributes) gives 107000: numAttrs 0 or above the
// count, a first index not 0, a synchronous batch of more than
// DEVMM_MEMCPY_BATCH_MAX_COUNT (4096) copies, a declared location or device
// that is not the pointer's, a device-to-device pair, and (asynchronously)
// an empty copy in a batch that is not all empty.  HOST_NUMA declares host
// memory.
TEST_F(MemoryExtrasTest, BatchChecksFollowCannsLayers) {
    DeviceBuffer device(64);
    DeviceBuffer other(64);
    std::vector<uint8_t> host(64, 3);
    void* dsts[] = {device.get(), other.get()};
    void* srcs[] = {host.data(), host.data()};
    size_t destMaxs[] = {64, 64};
    size_t sizes[] = {64, 64};
    aclrtMemcpyBatchAttr attrs[] = {batch_attr(ACL_MEM_LOCATION_TYPE_DEVICE, ACL_MEM_LOCATION_TYPE_HOST),
                                    batch_attr(ACL_MEM_LOCATION_TYPE_DEVICE, ACL_MEM_LOCATION_TYPE_HOST),
                                    batch_attr(ACL_MEM_LOCATION_TYPE_DEVICE, ACL_MEM_LOCATION_TYPE_HOST)};
    size_t failIndex = 7;
    size_t starts[] = {0, 1, 2};
    EXPECT_ACL_FAILS(aclrtMemcpyBatch(dsts, destMaxs, srcs, sizes, 2, attrs, starts, 0, &failIndex),
                     ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(SIZE_MAX, failIndex);
    EXPECT_ACL_FAILS(aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, 2, attrs, starts, 3, &failIndex, nullptr),
                     ACL_ERROR_RT_PARAM_INVALID);
    size_t notFromZero[] = {1};
    EXPECT_ACL_FAILS(aclrtMemcpyBatch(dsts, destMaxs, srcs, sizes, 2, attrs, notFromZero, 1, &failIndex),
                     ACL_ERROR_RT_PARAM_INVALID);
    size_t pastTheEnd[] = {0, 2};
    EXPECT_ACL_FAILS(aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, 2, attrs, pastTheEnd, 2, &failIndex, nullptr),
                     ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(SIZE_MAX, failIndex);

    // A rsv byte: the acl layer's 100000 comes before the rts layer's index check.
    attrs[1].rsv[15] = 1;
    EXPECT_ACL_FAILS(aclrtMemcpyBatch(dsts, destMaxs, srcs, sizes, 2, attrs, pastTheEnd, 2, &failIndex),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMemcpyBatchAsyncV2(dsts, destMaxs, srcs, sizes, 2, attrs, starts, 2, nullptr),
                     ACL_ERROR_INVALID_PARAM);
    attrs[1].rsv[15] = 0;

    // The declared device is not the memory's.
    attrs[1].dstLoc.id = 1;
    EXPECT_ACL_FAILS(aclrtMemcpyBatch(dsts, destMaxs, srcs, sizes, 2, attrs, starts, 2, &failIndex),
                     ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(1u, failIndex);
    attrs[1].dstLoc.id = 0;
    // Device to device, declared as such.
    srcs[1] = device.get();
    attrs[1].srcLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    EXPECT_ACL_FAILS(aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, 2, attrs, starts, 2, &failIndex, nullptr),
                     ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(1u, failIndex);
    srcs[1] = host.data();
    attrs[1].srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST_NUMA;
    // Asynchronously, an empty copy fails where the synchronous batch passes it.
    sizes[0] = 0;
    EXPECT_ACL_FAILS(aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, 2, attrs, starts, 2, &failIndex, nullptr),
                     ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(0u, failIndex);
    ASSERT_ACL_OK(aclrtMemcpyBatch(dsts, destMaxs, srcs, sizes, 2, attrs, starts, 2, &failIndex));
    EXPECT_EQ(host, other.read());

    // More copies than a synchronous batch takes.
    constexpr size_t kTooMany = 4097;
    std::vector<void*> manyDsts(kTooMany, device.get());
    std::vector<void*> manySrcs(kTooMany, host.data());
    std::vector<size_t> manySizes(kTooMany, 1);
    size_t firstOnly[] = {0};
    EXPECT_ACL_FAILS(aclrtMemcpyBatch(manyDsts.data(), manySizes.data(), manySrcs.data(), manySizes.data(), kTooMany,
                                      attrs, firstOnly, 1, &failIndex),
                     ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(SIZE_MAX, failIndex);
}

aclrtMemPoolProps pool_on_device0(size_t maxSize) {
    aclrtMemPoolProps props{};
    props.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    props.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    props.location = aclrtMemLocation{0, ACL_MEM_LOCATION_TYPE_DEVICE};
    props.maxSize = maxSize;
    return props;
}

uint64_t pool_attribute(aclrtMemPool pool, aclrtMemPoolAttr attr) {
    uint64_t value = 0;
    EXPECT_ACL_OK(aclrtMemPoolGetAttr(pool, attr, &value));
    return value;
}

// 11-10 aclrtMemPoolMallocAsync / aclrtMemPoolFreeAsync: a freed block goes
// back to the pool (not to the device) in stream order and is reused for the
// next allocation of a fitting size.
TEST_F(MemoryExtrasTest, StreamOrderedPoolReusesBlocksFreedInStreamOrder) {
    const aclrtMemPoolProps props = pool_on_device0(size_t{64} << 20);
    aclrtMemPool pool = nullptr;
    ASSERT_ACL_OK(aclrtMemPoolCreate(&pool, &props));
    uint64_t keep = uint64_t{16} << 20;  // Keep idle memory instead of giving it back.
    ASSERT_ACL_OK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &keep));
    Stream stream;
    void* first = nullptr;
    ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&first, 4096, pool, stream.get()));
    ASSERT_ACL_OK(aclrtMemsetAsync(first, 4096, 0x66, 4096, stream.get()));
    EXPECT_GE(pool_attribute(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 4096u);

    Gate gate;
    ASSERT_ACL_OK(gate.hold(stream.get()));
    ASSERT_ACL_OK(aclrtMemPoolFreeAsync(first, stream.get()));
    // The free has not run yet: a new allocation cannot take the block.
    void* second = nullptr;
    ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&second, 4096, pool, stream.get()));
    EXPECT_NE(first, second);
    EXPECT_ACL_FAILS(aclrtMemPoolFreeAsync(first, stream.get()), ACL_ERROR_RT_PARAM_INVALID);  // double free
    gate.open();
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream.get()));
    void* third = nullptr;
    ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&third, 1000, pool, stream.get()));
    EXPECT_EQ(first, third);
    // Two blocks reserved, both in use again.
    EXPECT_EQ(pool_attribute(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT),
              pool_attribute(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT));

    ASSERT_ACL_OK(aclrtMemPoolFreeAsync(second, stream.get()));
    ASSERT_ACL_OK(aclrtMemPoolFreeAsync(third, stream.get()));
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream.get()));
    EXPECT_EQ(0u, pool_attribute(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT));
    EXPECT_GT(pool_attribute(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 0u);
    // 11-10 aclrtMemPoolTrimTo: gives idle memory back down to minBytesToKeep.
    ASSERT_ACL_OK(aclrtMemPoolTrimTo(pool, 0));
    EXPECT_EQ(0u, pool_attribute(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT));
    EXPECT_GE(pool_attribute(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH), 8192u);
    EXPECT_ACL_OK(aclrtMemPoolDestroy(pool));
    EXPECT_ACL_FAILS(aclrtMemPoolDestroy(pool), ACL_ERROR_RT_PARAM_INVALID);
}

// 25-02 aclrtMemPoolAttr: the *_CURRENT values are read-only, the high-water
// marks can only be reset to 0, the reuse switches take 0 or 1.
TEST_F(MemoryExtrasTest, StreamOrderedPoolAttributesAndLimits) {
    aclrtMemPoolProps props = pool_on_device0(size_t{1} << 20);
    aclrtMemPool pool = nullptr;
    ASSERT_ACL_OK(aclrtMemPoolCreate(&pool, &props));
    uint32_t on = 7;
    ASSERT_ACL_OK(aclrtMemPoolGetAttr(pool, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, &on));
    EXPECT_EQ(1u, on);
    on = 0;
    ASSERT_ACL_OK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, &on));
    on = 2;
    EXPECT_ACL_FAILS(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, &on),
                     ACL_ERROR_INVALID_PARAM);
    uint64_t value = 5;
    EXPECT_ACL_FAILS(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, &value), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, &value), ACL_ERROR_INVALID_PARAM);
    value = 0;
    EXPECT_ACL_OK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, &value));
    EXPECT_ACL_FAILS(aclrtMemPoolGetAttr(pool, static_cast<aclrtMemPoolAttr>(42), &value), ACL_ERROR_INVALID_PARAM);
    // maxSize bounds what the pool reserves.
    void* ptr = nullptr;
    EXPECT_ACL_FAILS(aclrtMemPoolMallocAsync(&ptr, size_t{2} << 20, pool, nullptr), ACL_ERROR_RT_MEMORY_ALLOCATION);
    EXPECT_ACL_FAILS(aclrtMemPoolMallocAsync(&ptr, 0, pool, nullptr), ACL_ERROR_INVALID_PARAM);
    std::vector<uint8_t> host(64);
    EXPECT_ACL_FAILS(aclrtMemPoolFreeAsync(host.data(), nullptr), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_OK(aclrtMemPoolDestroy(pool));
    EXPECT_ACL_FAILS(aclrtMemPoolMallocAsync(&ptr, 64, pool, nullptr), ACL_ERROR_RT_PARAM_INVALID);

    props.location.type = ACL_MEM_LOCATION_TYPE_HOST;
    EXPECT_ACL_FAILS(aclrtMemPoolCreate(&pool, &props), ACL_ERROR_INVALID_PARAM);
    props = pool_on_device0(0);
    props.location.id = 5;
    EXPECT_ACL_FAILS(aclrtMemPoolCreate(&pool, &props), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_ACL_FAILS(aclrtMemPoolCreate(nullptr, &props), ACL_ERROR_INVALID_PARAM);
}

// A pool destroyed while a block is still in use lives on until that block
// is freed; the block stays usable meanwhile.
TEST_F(MemoryExtrasTest, DestroyedPoolKeepsBlocksInUseUntilFreed) {
    const aclrtMemPoolProps props = pool_on_device0(0);
    aclrtMemPool pool = nullptr;
    ASSERT_ACL_OK(aclrtMemPoolCreate(&pool, &props));
    void* ptr = nullptr;
    ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&ptr, 256, pool, nullptr));
    ASSERT_ACL_OK(aclrtMemPoolDestroy(pool));
    EXPECT_ACL_OK(aclrtMemset(ptr, 256, 1, 256));
    EXPECT_ACL_FAILS(aclrtFree(ptr), ACL_ERROR_RT_PARAM_INVALID);  // pool memory goes back with aclrtMemPoolFreeAsync
    ASSERT_ACL_OK(aclrtMemPoolFreeAsync(ptr, nullptr));
    ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
    EXPECT_ACL_FAILS(aclrtMemset(ptr, 256, 1, 256));  // back with the device: no longer a live block
}

constexpr size_t kManagedPage = size_t{2} << 20;

int32_t managed_int(aclrtMemManagedRangeAttribute attribute, const void* ptr, size_t size) {
    int32_t value = 99;
    EXPECT_ACL_OK(aclrtMemManagedGetAttr(attribute, ptr, size, &value, sizeof value));
    return value;
}

// 11-05 aclrtMemAllocManaged: rounded up to 2 MiB, usable by host and device
// alike, freed with aclrtFree.
TEST_F(MemoryExtrasTest, ManagedMemoryIsSharedByHostAndDevice) {
    void* managed = nullptr;
    ASSERT_ACL_OK(aclrtMemAllocManaged(&managed, 1000, ACL_RT_MEM_ATTACH_GLOBAL));
    void* base = nullptr;
    size_t size = 0;
    ASSERT_ACL_OK(aclrtMemGetAddressRange(managed, &base, &size));
    EXPECT_EQ(kManagedPage, size);
    std::memset(managed, 0x21, 1000);  // the host writes directly
    std::vector<uint8_t> read(1000);
    ASSERT_ACL_OK(aclrtMemcpy(read.data(), 1000, managed, 1000, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT_EQ(std::vector<uint8_t>(1000, 0x21), read);
    EXPECT_ACL_OK(aclrtFree(managed));
    EXPECT_ACL_FAILS(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, managed, kManagedPage, &size, 4),
                     ACL_ERROR_INVALID_PARAM);  // freed: no longer managed memory
    EXPECT_ACL_FAILS(aclrtMemAllocManaged(&managed, 0, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMemAllocManaged(&managed, 64, 2), ACL_ERROR_INVALID_PARAM);
}

// 11-05 aclrtMemManagedAdvise / aclrtMemManagedGetAttr(s), with 25-02
// aclrtMemManagedRangeAttribute: all pages must agree, else -2 (or 0 for
// read mostly); the host is -1.
TEST_F(MemoryExtrasTest, ManagedAdviceIsReportedPerPage) {
    void* managed = nullptr;
    ASSERT_ACL_OK(aclrtMemAllocManaged(&managed, 2 * kManagedPage, ACL_RT_MEM_ATTACH_GLOBAL));
    uint8_t* second = static_cast<uint8_t*>(managed) + kManagedPage;
    const aclrtMemManagedLocation device0{ACL_MEM_LOCATIONTYPE_DEVICE, 0};
    const aclrtMemManagedLocation host{ACL_MEM_LOCATIONTYPE_HOST, 0};
    ASSERT_ACL_OK(aclrtMemManagedAdvise(managed, kManagedPage, ACL_MEM_ADVISE_SET_READ_MOSTLY, host));
    EXPECT_EQ(1, managed_int(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, managed, kManagedPage));
    EXPECT_EQ(0, managed_int(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, managed, 2 * kManagedPage));

    ASSERT_ACL_OK(aclrtMemManagedAdvise(managed, kManagedPage, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, device0));
    ASSERT_ACL_OK(aclrtMemManagedAdvise(second, kManagedPage, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, host));
    EXPECT_EQ(0, managed_int(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, managed, kManagedPage));
    EXPECT_EQ(-1, managed_int(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, second, kManagedPage));
    EXPECT_EQ(-2, managed_int(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, managed, 2 * kManagedPage));
    EXPECT_EQ(ACL_MEM_LOCATIONTYPE_HOST, managed_int(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, second, 1));

    ASSERT_ACL_OK(aclrtMemManagedAdvise(managed, 2 * kManagedPage, ACL_MEM_ADVISE_SET_ACCESSED_BY, device0));
    ASSERT_ACL_OK(aclrtMemManagedAdvise(managed, kManagedPage, ACL_MEM_ADVISE_SET_ACCESSED_BY, host));
    int32_t accessors[3] = {};
    aclrtMemManagedRangeAttribute attributes[] = {ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY,
                                                  ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY};
    int32_t readMostly = 7;
    void* data[] = {accessors, &readMostly};
    size_t dataSizes[] = {sizeof accessors, sizeof readMostly};
    ASSERT_ACL_OK(aclrtMemManagedGetAttrs(attributes, 2, managed, 2 * kManagedPage, data, dataSizes));
    EXPECT_EQ(0, accessors[0]);   // device 0 accesses both pages
    EXPECT_EQ(-2, accessors[1]);  // the host only the first: not reported for the range
    EXPECT_EQ(-2, accessors[2]);
    EXPECT_EQ(0, readMostly);

    // Bad input: size not 2 MiB aligned, outside the allocation, unknown advice, dataSize.
    EXPECT_ACL_FAILS(aclrtMemManagedAdvise(managed, 4096, ACL_MEM_ADVISE_SET_READ_MOSTLY, host),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMemManagedAdvise(managed, 3 * kManagedPage, ACL_MEM_ADVISE_SET_READ_MOSTLY, host),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMemManagedAdvise(managed, kManagedPage, static_cast<aclrtMemManagedAdviseType>(9), host),
                     ACL_ERROR_INVALID_PARAM);
    const aclrtMemManagedLocation absent{ACL_MEM_LOCATIONTYPE_DEVICE, 4};
    EXPECT_ACL_FAILS(aclrtMemManagedAdvise(managed, kManagedPage, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, absent),
                     ACL_ERROR_RT_INVALID_DEVICEID);
    int64_t wide = 0;
    EXPECT_ACL_FAILS(
        aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, managed, kManagedPage, &wide, sizeof wide),
        ACL_ERROR_INVALID_PARAM);
    DeviceBuffer plain(64);
    EXPECT_ACL_FAILS(aclrtMemManagedAdvise(plain.get(), kManagedPage, ACL_MEM_ADVISE_SET_READ_MOSTLY, host),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_OK(aclrtFree(managed));
}

// 11-05 aclrtMemManagedPrefetchAsync / aclrtMemManagedPrefetchBatchAsync: a
// prefetch in stream order; its location becomes the last prefetch location.
TEST_F(MemoryExtrasTest, ManagedPrefetchRecordsTheLastPrefetchLocation) {
    void* managed = nullptr;
    ASSERT_ACL_OK(aclrtMemAllocManaged(&managed, 2 * kManagedPage, ACL_RT_MEM_ATTACH_GLOBAL));
    uint8_t* second = static_cast<uint8_t*>(managed) + kManagedPage;
    const aclrtMemManagedLocation device0{ACL_MEM_LOCATIONTYPE_DEVICE, 0};
    const aclrtMemManagedLocation host{ACL_MEM_LOCATIONTYPE_HOST, 0};
    Stream stream;
    ASSERT_ACL_OK(aclrtMemManagedPrefetchAsync(managed, 2 * kManagedPage, device0, 0, stream.get()));
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream.get()));
    EXPECT_EQ(0, managed_int(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, managed, 2 * kManagedPage));
    EXPECT_EQ(ACL_MEM_LOCATIONTYPE_DEVICE,
              managed_int(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, managed, kManagedPage));

    const void* ptrs[] = {managed, second};
    size_t sizes[] = {kManagedPage, kManagedPage};
    aclrtMemManagedLocation locations[] = {device0, host};
    size_t starts[] = {0, 1};
    ASSERT_ACL_OK(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 2, locations, starts, 2, 0, stream.get()));
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream.get()));
    EXPECT_EQ(-1, managed_int(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, second, kManagedPage));
    EXPECT_EQ(-2, managed_int(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, managed, 2 * kManagedPage));

    EXPECT_ACL_FAILS(aclrtMemManagedPrefetchAsync(managed, kManagedPage, device0, 1, stream.get()),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtMemManagedPrefetchAsync(managed, 100, device0, 0, stream.get()), ACL_ERROR_INVALID_PARAM);
    // The batch's indexes are checked by the rts layer (src/runtime/api/impl/api_error_uvm.cc,
    // ApiErrorDecorator::MemManagedPrefetchBatchAsync): 107000.
    size_t unordered[] = {1, 0};
    EXPECT_ACL_FAILS(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 2, locations, unordered, 2, 0, stream.get()),
                     ACL_ERROR_RT_PARAM_INVALID);
    size_t repeated[] = {0, 0};
    EXPECT_ACL_FAILS(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 2, locations, repeated, 2, 0, stream.get()),
                     ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_OK(aclrtFree(managed));
}

}  // namespace
}  // namespace aclcpu::test
