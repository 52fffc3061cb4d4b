// DVPP (acl/ops/acl_dvpp.h): the Ascend chip's media processing unit, which
// acl-cpu does not emulate.  Every function links and answers CANN's "not
// supported" (ACL_ERROR_RT_FEATURE_NOT_SUPPORT, 207000) -- a getter or
// constructor its "nothing" -- with the reason in aclGetRecentErrMsg.
#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"
#include "runtime/runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

using DvppTest = RuntimeTest;

TEST_F(DvppTest, EveryCallAnswersNotSupportedWithTheReason) {
    void* buffer = nullptr;
    EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, acldvppMalloc(&buffer, 64));
    EXPECT_EQ(nullptr, buffer);
    EXPECT_NE(std::string::npos, take_error_message().find("acldvppMalloc is not supported by acl-cpu: DVPP"));
    EXPECT_EQ(nullptr, acldvppCreateChannelDesc());
    EXPECT_NE(std::string::npos, take_error_message().find("acldvppCreateChannelDesc is not supported"));
    EXPECT_EQ(0u, acldvppGetPicDescWidth(nullptr));
    EXPECT_NE(std::string::npos, take_error_message().find("acldvppGetPicDescWidth is not supported"));
}

}  // namespace
}  // namespace aclcpu::test
