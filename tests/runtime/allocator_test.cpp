// User allocators registered per stream (docs/zh/api_ref/11-08_custom_memory_allocator.md;
// the descriptor calls in 25-03_Operation_APIs.md).
#include <cstdlib>

#include "acl/acl_rt_allocator.h"
#include "runtime/runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

using AllocatorTest = RuntimeTest;

void* alloc_block(aclrtAllocator, size_t size) { return std::malloc(size); }
void free_block(aclrtAllocator, aclrtAllocatorBlock block) { std::free(block); }
void* alloc_near(aclrtAllocator, size_t size, aclrtAllocatorAddr) { return std::malloc(size); }
void* address_of(aclrtAllocatorBlock block) { return block; }
void* other_alloc(aclrtAllocator, size_t) { return nullptr; }

int allocatorObject = 0;
int otherObject = 0;

/// A descriptor with every callback set, destroyed at scope end.
class Descriptor {
public:
    explicit Descriptor(void* object = &allocatorObject) : desc_(aclrtAllocatorCreateDesc()) {
        EXPECT_NE(nullptr, desc_);
        EXPECT_ACL_OK(aclrtAllocatorSetObjToDesc(desc_, object));
        EXPECT_ACL_OK(aclrtAllocatorSetAllocFuncToDesc(desc_, alloc_block));
        EXPECT_ACL_OK(aclrtAllocatorSetFreeFuncToDesc(desc_, free_block));
        EXPECT_ACL_OK(aclrtAllocatorSetAllocAdviseFuncToDesc(desc_, alloc_near));
        EXPECT_ACL_OK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc_, address_of));
    }
    ~Descriptor() { EXPECT_ACL_OK(aclrtAllocatorDestroyDesc(desc_)); }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    aclrtAllocatorDesc get() const { return desc_; }

private:
    aclrtAllocatorDesc desc_;
};

struct Registered {
    aclrtAllocatorDesc desc = nullptr;
    aclrtAllocator object = nullptr;
    aclrtAllocatorAllocFunc alloc = nullptr;
    aclrtAllocatorFreeFunc free = nullptr;
    aclrtAllocatorAllocAdviseFunc advise = nullptr;
    aclrtAllocatorGetAddrFromBlockFunc addressOf = nullptr;
};

aclError get_by_stream(aclrtStream stream, Registered& out) {
    return aclrtAllocatorGetByStream(stream, &out.desc, &out.object, &out.alloc, &out.free, &out.advise,
                                     &out.addressOf);
}

// aclrtAllocatorGetByStream hands back what aclrtAllocatorRegister recorded for the stream.
TEST_F(AllocatorTest, RegisteredAllocatorIsFoundByItsStream) {
    Stream stream;
    Descriptor desc;
    ASSERT_ACL_OK(aclrtAllocatorRegister(stream.get(), desc.get()));
    Registered found;
    ASSERT_ACL_OK(get_by_stream(stream.get(), found));
    EXPECT_EQ(desc.get(), found.desc);
    EXPECT_EQ(&allocatorObject, found.object);
    EXPECT_EQ(&alloc_block, found.alloc);
    EXPECT_EQ(&free_block, found.free);
    EXPECT_EQ(&alloc_near, found.advise);
    EXPECT_EQ(&address_of, found.addressOf);
    // Only allocatorDesc is a required output.
    aclrtAllocatorDesc only = nullptr;
    EXPECT_ACL_OK(aclrtAllocatorGetByStream(stream.get(), &only, nullptr, nullptr, nullptr, nullptr, nullptr));
    EXPECT_EQ(desc.get(), only);
    EXPECT_ACL_OK(aclrtAllocatorUnregister(stream.get()));
}

// Registrations are per stream; for one stream the last registration wins.
TEST_F(AllocatorTest, RegistrationsArePerStreamAndTheLastOneWins) {
    Stream first;
    Stream second;
    Descriptor a;
    Descriptor b(&otherObject);
    ASSERT_ACL_OK(aclrtAllocatorRegister(first.get(), a.get()));
    Registered found;
    EXPECT_ACL_FAILS(get_by_stream(second.get(), found), ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(aclrtAllocatorRegister(first.get(), b.get()));
    ASSERT_ACL_OK(get_by_stream(first.get(), found));
    EXPECT_EQ(b.get(), found.desc);
    EXPECT_EQ(&otherObject, found.object);
    EXPECT_ACL_OK(aclrtAllocatorUnregister(first.get()));
}

// The registration is a copy: setting the descriptor afterwards does not change it.
TEST_F(AllocatorTest, RegistrationKeepsTheCallbacksOfItsMoment) {
    Stream stream;
    Descriptor desc;
    ASSERT_ACL_OK(aclrtAllocatorRegister(stream.get(), desc.get()));
    ASSERT_ACL_OK(aclrtAllocatorSetAllocFuncToDesc(desc.get(), other_alloc));
    Registered found;
    ASSERT_ACL_OK(get_by_stream(stream.get(), found));
    EXPECT_EQ(&alloc_block, found.alloc);
    EXPECT_ACL_OK(aclrtAllocatorUnregister(stream.get()));
}

// Unregistering ends the registration; unregistering again, or a stream that
// never registered, does nothing and succeeds.
TEST_F(AllocatorTest, UnregisterIsIdempotent) {
    Stream stream;
    Descriptor desc;
    ASSERT_ACL_OK(aclrtAllocatorRegister(stream.get(), desc.get()));
    EXPECT_ACL_OK(aclrtAllocatorUnregister(stream.get()));
    Registered found;
    EXPECT_ACL_FAILS(get_by_stream(stream.get(), found), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_OK(aclrtAllocatorUnregister(stream.get()));
    Stream never;
    EXPECT_ACL_OK(aclrtAllocatorUnregister(never.get()));
}

// A stream destroyed with its registration leaves nothing for a later stream.
TEST_F(AllocatorTest, DestroyedStreamTakesItsRegistrationAlong) {
    Descriptor desc;
    {
        Stream doomed;
        ASSERT_ACL_OK(aclrtAllocatorRegister(doomed.get(), desc.get()));
    }
    for (int i = 0; i < 8; ++i) {  // whichever of them reuses the address
        Stream later;
        Registered found;
        EXPECT_ACL_FAILS(get_by_stream(later.get(), found), ACL_ERROR_INVALID_PARAM);
    }
}

// The register needs a named stream and a descriptor with the object, alloc,
// free and get-address callbacks set (11-08 aclrtAllocatorRegister).
TEST_F(AllocatorTest, RegisterRejectsIncompleteDescriptorsAndNullStreams) {
    Stream stream;
    Descriptor complete;
    EXPECT_ACL_FAILS(aclrtAllocatorRegister(nullptr, complete.get()), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtAllocatorRegister(stream.get(), nullptr), ACL_ERROR_INVALID_PARAM);
    aclrtAllocatorDesc partial = aclrtAllocatorCreateDesc();
    ASSERT_NE(nullptr, partial);
    ASSERT_ACL_OK(aclrtAllocatorSetObjToDesc(partial, &allocatorObject));
    ASSERT_ACL_OK(aclrtAllocatorSetAllocFuncToDesc(partial, alloc_block));
    ASSERT_ACL_OK(aclrtAllocatorSetFreeFuncToDesc(partial, free_block));
    EXPECT_ACL_FAILS(aclrtAllocatorRegister(stream.get(), partial), ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(partial, address_of));
    EXPECT_ACL_OK(aclrtAllocatorRegister(stream.get(), partial)) << "the advise callback is optional";
    EXPECT_ACL_OK(aclrtAllocatorUnregister(stream.get()));
    EXPECT_ACL_OK(aclrtAllocatorDestroyDesc(partial));
    EXPECT_ACL_FAILS(aclrtAllocatorRegister(stream.get(), partial), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtAllocatorUnregister(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(AllocatorTest, DescriptorCallsRejectNullsAndDeadDescriptors) {
    Descriptor desc;
    EXPECT_ACL_FAILS(aclrtAllocatorSetObjToDesc(desc.get(), nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtAllocatorSetAllocFuncToDesc(nullptr, alloc_block), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtAllocatorSetFreeFuncToDesc(desc.get(), nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtAllocatorSetAllocAdviseFuncToDesc(desc.get(), nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc.get(), nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtAllocatorDestroyDesc(nullptr), ACL_ERROR_INVALID_PARAM);
    aclrtAllocatorDesc dead = aclrtAllocatorCreateDesc();
    ASSERT_ACL_OK(aclrtAllocatorDestroyDesc(dead));
    EXPECT_ACL_FAILS(aclrtAllocatorDestroyDesc(dead), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtAllocatorSetObjToDesc(dead, &allocatorObject), ACL_ERROR_INVALID_PARAM);
    Registered found;
    EXPECT_ACL_FAILS(aclrtAllocatorGetByStream(nullptr, &found.desc, nullptr, nullptr, nullptr, nullptr, nullptr),
                     ACL_ERROR_INVALID_PARAM);
    Stream stream;
    EXPECT_ACL_FAILS(aclrtAllocatorGetByStream(stream.get(), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr),
                     ACL_ERROR_INVALID_PARAM);
}

}  // namespace
}  // namespace aclcpu::test
