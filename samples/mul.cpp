// aclnnMul sample, following the flow of CANN's documentation sample:
// out = self * other where self is INT32 and other FLOAT, so the product is
// computed in the promoted dtype FLOAT (CANN's type deduction); then
// aclnnInplaceMuls scales out by a scalar on the same stream.  Exits
// non-zero when a result differs from the expected one.
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_mul.h"
#include "sample_common.h"

int main() {
    int32_t deviceId = 0;
    aclrtStream stream;
    CHECK_ACL(Init(deviceId, &stream));

    const std::vector<int64_t> shape = {4, 2};
    void* selfDeviceAddr = nullptr;
    void* otherDeviceAddr = nullptr;
    void* outDeviceAddr = nullptr;
    aclTensor* self = nullptr;
    aclTensor* other = nullptr;
    aclTensor* out = nullptr;
    std::vector<int32_t> selfHostData = {0, 1, 2, 3, -4, 5, -6, 7};
    std::vector<float> otherHostData = {1.5f, -2, 0.25f, 4, 0.5f, -1, 3, 0.125f};
    std::vector<float> outHostData(8, 0);
    float scaleValue = 0.5f;
    CHECK_ACL(CreateAclTensor(selfHostData, shape, &selfDeviceAddr, ACL_INT32, &self));
    CHECK_ACL(CreateAclTensor(otherHostData, shape, &otherDeviceAddr, ACL_FLOAT, &other));
    CHECK_ACL(CreateAclTensor(outHostData, shape, &outDeviceAddr, ACL_FLOAT, &out));
    aclScalar* scale = aclCreateScalar(&scaleValue, ACL_FLOAT);

    // out = self * other, INT32 x FLOAT promoted to FLOAT.
    uint64_t mulWorkspaceSize = 0;
    aclOpExecutor* mulExecutor;
    CHECK_ACL(aclnnMulGetWorkspaceSize(self, other, out, &mulWorkspaceSize, &mulExecutor));
    void* mulWorkspaceAddr = nullptr;
    CHECK_ACL(LaunchAclnn(aclnnMul, mulWorkspaceSize, mulExecutor, stream, &mulWorkspaceAddr));

    // out *= 0.5, queued behind the Mul.
    uint64_t mulsWorkspaceSize = 0;
    aclOpExecutor* mulsExecutor;
    CHECK_ACL(aclnnInplaceMulsGetWorkspaceSize(out, scale, &mulsWorkspaceSize, &mulsExecutor));
    void* mulsWorkspaceAddr = nullptr;
    CHECK_ACL(LaunchAclnn(aclnnInplaceMuls, mulsWorkspaceSize, mulsExecutor, stream, &mulsWorkspaceAddr));
    CHECK_ACL(aclrtSynchronizeStream(stream));

    std::vector<float> resultData;
    CHECK_ACL(CopyToHost(outDeviceAddr, GetShapeSize(shape), &resultData));
    std::vector<double> expected;
    for (size_t i = 0; i < selfHostData.size(); i++) {
        expected.push_back(static_cast<double>(selfHostData[i]) * otherHostData[i] * scaleValue);
    }
    const int mismatches = ReportResults("result", resultData, expected);

    aclDestroyTensor(self);
    aclDestroyTensor(other);
    aclDestroyTensor(out);
    aclDestroyScalar(scale);
    aclrtFree(selfDeviceAddr);
    aclrtFree(otherDeviceAddr);
    aclrtFree(outDeviceAddr);
    if (mulWorkspaceSize > 0) aclrtFree(mulWorkspaceAddr);
    if (mulsWorkspaceSize > 0) aclrtFree(mulsWorkspaceAddr);
    Finalize(deviceId, stream);
    return mismatches == 0 ? 0 : 1;
}
