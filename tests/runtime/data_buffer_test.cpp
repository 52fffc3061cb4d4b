// aclDataBuffer: a (pointer, size) pair over memory the caller owns
// (hicann/runtime include/external/acl/acl_base_rt.h, aclCreateDataBuffer and
// the functions after it).
#include <cstdint>

#include "runtime/runtime_test_support.hpp"

// CANN marks aclGetDataBufferSize deprecated, yet programs still call it.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace aclcpu::test {
namespace {

// A data buffer needs no aclInit: it only describes memory.
TEST(DataBufferTest, DescribesTheCallersMemory) {
    char storage[96];
    aclDataBuffer* buffer = aclCreateDataBuffer(storage, sizeof storage);
    ASSERT_NE(nullptr, buffer);
    EXPECT_EQ(static_cast<void*>(storage), aclGetDataBufferAddr(buffer));
    EXPECT_EQ(sizeof storage, aclGetDataBufferSizeV2(buffer));
    EXPECT_EQ(sizeof storage, aclGetDataBufferSize(buffer));
    EXPECT_ACL_OK(aclDestroyDataBuffer(buffer));
}

// aclUpdateDataBuffer: the buffer then describes the new memory.
TEST(DataBufferTest, UpdatePointsTheBufferElsewhere) {
    char first[8];
    char second[32];
    aclDataBuffer* buffer = aclCreateDataBuffer(first, sizeof first);
    ASSERT_NE(nullptr, buffer);
    ASSERT_ACL_OK(aclUpdateDataBuffer(buffer, second, sizeof second));
    EXPECT_EQ(static_cast<void*>(second), aclGetDataBufferAddr(buffer));
    EXPECT_EQ(sizeof second, aclGetDataBufferSizeV2(buffer));
    EXPECT_ACL_OK(aclDestroyDataBuffer(buffer));
}

// An empty buffer (null data, size 0) describes an empty tensor.
TEST(DataBufferTest, EmptyBufferIsValid) {
    aclDataBuffer* buffer = aclCreateDataBuffer(nullptr, 0);
    ASSERT_NE(nullptr, buffer);
    EXPECT_EQ(nullptr, aclGetDataBufferAddr(buffer));
    EXPECT_EQ(0u, aclGetDataBufferSizeV2(buffer));
    EXPECT_ACL_OK(aclDestroyDataBuffer(buffer));
}

// aclGetDataBufferSize returns uint32_t, which is why CANN added the V2 call.
TEST(DataBufferTest, SizeV2KeepsSizesAboveFourGiB) {
    const size_t size = (size_t{1} << 32) + 16;
    char anchor;
    aclDataBuffer* buffer = aclCreateDataBuffer(&anchor, size);
    ASSERT_NE(nullptr, buffer);
    EXPECT_EQ(size, aclGetDataBufferSizeV2(buffer));
    EXPECT_EQ(16u, aclGetDataBufferSize(buffer));
    EXPECT_ACL_OK(aclDestroyDataBuffer(buffer));
}

// Null, unknown and destroyed buffers: the error code where there is one,
// null or 0 from the getters, and a message from aclGetRecentErrMsg.
TEST(DataBufferTest, DeadBuffersAreRejected) {
    char storage[4];
    aclDataBuffer* buffer = aclCreateDataBuffer(storage, sizeof storage);
    ASSERT_NE(nullptr, buffer);
    ASSERT_ACL_OK(aclDestroyDataBuffer(buffer));
    EXPECT_ACL_FAILS(aclDestroyDataBuffer(buffer), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclUpdateDataBuffer(buffer, storage, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclDestroyDataBuffer(nullptr), ACL_ERROR_INVALID_PARAM);
    take_error_message();
    EXPECT_EQ(nullptr, aclGetDataBufferAddr(buffer));
    EXPECT_NE("", take_error_message());
    EXPECT_EQ(0u, aclGetDataBufferSizeV2(buffer));
    EXPECT_EQ(0u, aclGetDataBufferSize(nullptr));
    EXPECT_NE("", take_error_message());
}

}  // namespace
}  // namespace aclcpu::test
