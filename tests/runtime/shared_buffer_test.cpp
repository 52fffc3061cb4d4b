// Shared buffers (aclrtMbuf): the calls of api_ref
// 20_shared_buffer_management_reserved.md, with the behaviour their acltdt
// twins document in 17-03_shared_buffer_management.md.
#include <cstdint>
#include <cstring>

#include "runtime/runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

using SharedBufferTest = RuntimeTest;

/// A buffer from aclrtAllocBuf, freed at scope end unless released.
class Buf {
public:
    explicit Buf(size_t size) { EXPECT_ACL_OK(aclrtAllocBuf(&buf_, size)); }
    ~Buf() {
        if (buf_ != nullptr) {
            EXPECT_ACL_OK(aclrtFreeBuf(buf_));
        }
    }
    Buf(const Buf&) = delete;
    Buf& operator=(const Buf&) = delete;
    aclrtMbuf get() const { return buf_; }
    aclrtMbuf release() {
        aclrtMbuf buf = buf_;
        buf_ = nullptr;
        return buf;
    }

private:
    aclrtMbuf buf_ = nullptr;
};

// acltdtAllocBuf: a data area of `size` bytes; the valid length starts at 0
// and is what acltdtSetBufDataLen last set, at most the data area's size.
TEST_F(SharedBufferTest, DataAreaAndValidLength) {
    Buf buf(1000);
    void* data = nullptr;
    size_t size = 0;
    ASSERT_ACL_OK(aclrtGetBufData(buf.get(), &data, &size));
    ASSERT_NE(nullptr, data);
    EXPECT_EQ(1000u, size);
    std::memset(data, 0x5A, size);  // the whole area is usable
    size_t len = 1;
    ASSERT_ACL_OK(aclrtGetBufDataLen(buf.get(), &len));
    EXPECT_EQ(0u, len);
    ASSERT_ACL_OK(aclrtSetBufDataLen(buf.get(), 600));
    ASSERT_ACL_OK(aclrtGetBufDataLen(buf.get(), &len));
    EXPECT_EQ(600u, len);
    EXPECT_ACL_FAILS(aclrtSetBufDataLen(buf.get(), 1001), ACL_ERROR_INVALID_PARAM);
}

// acltdtSetBufUserData / acltdtGetBufUserData: a 96-byte private area,
// offset + size at most 96.
TEST_F(SharedBufferTest, PrivateAreaHolds96Bytes) {
    Buf buf(16);
    const char message[] = "context";
    ASSERT_ACL_OK(aclrtSetBufUserData(buf.get(), message, sizeof message, 88));
    char back[sizeof message] = {};
    ASSERT_ACL_OK(aclrtGetBufUserData(buf.get(), back, sizeof back, 88));
    EXPECT_STREQ(message, back);
    uint8_t whole[96] = {};
    EXPECT_ACL_OK(aclrtGetBufUserData(buf.get(), whole, sizeof whole, 0));
    EXPECT_ACL_FAILS(aclrtSetBufUserData(buf.get(), message, sizeof message, 90), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtGetBufUserData(buf.get(), whole, 1, 96), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtGetBufUserData(buf.get(), nullptr, 4, 0), ACL_ERROR_INVALID_PARAM);
}

// acltdtCopyBufRef: a new buffer over the same data area, which outlives the original.
TEST_F(SharedBufferTest, ReferenceCopySharesTheDataArea) {
    Buf original(64);
    ASSERT_ACL_OK(aclrtSetBufDataLen(original.get(), 10));
    aclrtMbuf copy = nullptr;
    ASSERT_ACL_OK(aclrtCopyBufRef(original.get(), &copy));
    ASSERT_NE(original.get(), copy);
    void* originalData = nullptr;
    void* copyData = nullptr;
    size_t size = 0;
    ASSERT_ACL_OK(aclrtGetBufData(original.get(), &originalData, &size));
    ASSERT_ACL_OK(aclrtGetBufData(copy, &copyData, &size));
    EXPECT_EQ(originalData, copyData);
    std::memcpy(originalData, "shared", 7);
    ASSERT_ACL_OK(aclrtFreeBuf(original.release()));
    EXPECT_STREQ("shared", static_cast<const char*>(copyData)) << "the data area lives while a reference does";
    size_t len = 0;
    ASSERT_ACL_OK(aclrtGetBufDataLen(copy, &len));
    EXPECT_EQ(10u, len);
    EXPECT_ACL_OK(aclrtFreeBuf(copy));
}

// acltdtAppendBufChain / GetBufChainNum / GetBufFromChain: the head is
// buffer 0, appended ones follow in order, at most 128 in a chain.
TEST_F(SharedBufferTest, ChainsHoldUpTo128BuffersInOrder) {
    Buf head(8);
    aclrtMbuf members[127] = {};
    for (aclrtMbuf& member : members) {
        ASSERT_ACL_OK(aclrtAllocBuf(&member, 8));
        ASSERT_ACL_OK(aclrtAppendBufChain(head.get(), member));
    }
    uint32_t num = 0;
    ASSERT_ACL_OK(aclrtGetBufChainNum(head.get(), &num));
    EXPECT_EQ(128u, num);
    aclrtMbuf found = nullptr;
    ASSERT_ACL_OK(aclrtGetBufFromChain(head.get(), 0, &found));
    EXPECT_EQ(head.get(), found);
    ASSERT_ACL_OK(aclrtGetBufFromChain(head.get(), 5, &found));
    EXPECT_EQ(members[4], found);
    EXPECT_ACL_FAILS(aclrtGetBufFromChain(head.get(), 128, &found), ACL_ERROR_INVALID_PARAM);
    Buf extra(8);
    EXPECT_ACL_FAILS(aclrtAppendBufChain(head.get(), extra.get()), ACL_ERROR_INVALID_PARAM);
    // A member is freed with its head, never alone.
    EXPECT_ACL_FAILS(aclrtFreeBuf(members[0]), ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(aclrtFreeBuf(head.release()));
    size_t len = 0;
    EXPECT_ACL_FAILS(aclrtGetBufDataLen(members[0], &len), ACL_ERROR_INVALID_PARAM);
}

TEST_F(SharedBufferTest, ChainsRefuseCyclesAndSecondMemberships) {
    Buf head(8);
    Buf other(8);
    Buf member(8);
    EXPECT_ACL_FAILS(aclrtAppendBufChain(head.get(), head.get()), ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(aclrtAppendBufChain(head.get(), member.get()));
    EXPECT_ACL_FAILS(aclrtAppendBufChain(other.get(), member.get()), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtAppendBufChain(member.get(), other.get()), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtAppendBufChain(other.get(), head.get()), ACL_ERROR_INVALID_PARAM);
    member.release();  // freed with its head
}

// acltdtAllocBuf: size at most 4G; every call refuses null and dead buffers.
TEST_F(SharedBufferTest, BadArgumentsAreRefused) {
    aclrtMbuf buf = nullptr;
    EXPECT_ACL_FAILS(aclrtAllocBuf(nullptr, 8), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtAllocBuf(&buf, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtAllocBuf(&buf, (size_t{4} << 30) + 1), ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(aclrtAllocBuf(&buf, 8));
    ASSERT_ACL_OK(aclrtFreeBuf(buf));
    EXPECT_ACL_FAILS(aclrtFreeBuf(buf), ACL_ERROR_INVALID_PARAM);
    size_t len = 0;
    EXPECT_ACL_FAILS(aclrtGetBufDataLen(buf, &len), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtFreeBuf(nullptr), ACL_ERROR_INVALID_PARAM);
    aclrtMbuf copy = nullptr;
    EXPECT_ACL_FAILS(aclrtCopyBufRef(buf, &copy), ACL_ERROR_INVALID_PARAM);
    Buf live(8);
    void* data = nullptr;
    EXPECT_ACL_FAILS(aclrtGetBufData(live.get(), &data, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtGetBufChainNum(live.get(), nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtCopyBufRef(live.get(), nullptr), ACL_ERROR_INVALID_PARAM);
}

}  // namespace
}  // namespace aclcpu::test
