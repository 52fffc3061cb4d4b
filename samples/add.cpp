// aclnnAdd sample, following the flow of CANN's documentation sample:
// out = self + alpha * other, here a bias add where other is one row
// broadcast over the rows of self, then aclnnInplaceAdds adding a scalar to
// out in place on the same stream (no host wait between the two: the stream
// orders them).  Exits non-zero when a result differs from the expected one.
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "sample_common.h"

int main() {
    int32_t deviceId = 0;
    aclrtStream stream;
    CHECK_ACL(Init(deviceId, &stream));

    const std::vector<int64_t> selfShape = {4, 3};
    const std::vector<int64_t> biasShape = {3};
    void* selfDeviceAddr = nullptr;
    void* biasDeviceAddr = nullptr;
    void* outDeviceAddr = nullptr;
    aclTensor* self = nullptr;
    aclTensor* bias = nullptr;
    aclTensor* out = nullptr;
    std::vector<float> selfHostData = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    std::vector<float> biasHostData = {0.5f, -1.0f, 2.0f};
    std::vector<float> outHostData(12, 0);
    float alphaValue = 2.0f;
    float shiftValue = -0.25f;
    CHECK_ACL(CreateAclTensor(selfHostData, selfShape, &selfDeviceAddr, ACL_FLOAT, &self));
    CHECK_ACL(CreateAclTensor(biasHostData, biasShape, &biasDeviceAddr, ACL_FLOAT, &bias));
    CHECK_ACL(CreateAclTensor(outHostData, selfShape, &outDeviceAddr, ACL_FLOAT, &out));
    aclScalar* alpha = aclCreateScalar(&alphaValue, ACL_FLOAT);
    aclScalar* shift = aclCreateScalar(&shiftValue, ACL_FLOAT);
    float one = 1.0f;
    aclScalar* unitAlpha = aclCreateScalar(&one, ACL_FLOAT);

    // out = self + 2 * bias, the row broadcast over the four rows.
    uint64_t addWorkspaceSize = 0;
    aclOpExecutor* addExecutor;
    CHECK_ACL(aclnnAddGetWorkspaceSize(self, bias, alpha, out, &addWorkspaceSize, &addExecutor));
    void* addWorkspaceAddr = nullptr;
    CHECK_ACL(LaunchAclnn(aclnnAdd, addWorkspaceSize, addExecutor, stream, &addWorkspaceAddr));

    // out += 1 * (-0.25), queued behind the Add.
    uint64_t addsWorkspaceSize = 0;
    aclOpExecutor* addsExecutor;
    CHECK_ACL(aclnnInplaceAddsGetWorkspaceSize(out, shift, unitAlpha, &addsWorkspaceSize, &addsExecutor));
    void* addsWorkspaceAddr = nullptr;
    CHECK_ACL(LaunchAclnn(aclnnInplaceAdds, addsWorkspaceSize, addsExecutor, stream, &addsWorkspaceAddr));
    CHECK_ACL(aclrtSynchronizeStream(stream));

    std::vector<float> resultData;
    CHECK_ACL(CopyToHost(outDeviceAddr, GetShapeSize(selfShape), &resultData));
    std::vector<double> expected;
    for (size_t i = 0; i < selfHostData.size(); i++) {
        expected.push_back(selfHostData[i] + static_cast<double>(alphaValue) * biasHostData[i % 3] + shiftValue);
    }
    const int mismatches = ReportResults("result", resultData, expected);

    aclDestroyTensor(self);
    aclDestroyTensor(bias);
    aclDestroyTensor(out);
    aclDestroyScalar(alpha);
    aclDestroyScalar(shift);
    aclDestroyScalar(unitAlpha);
    aclrtFree(selfDeviceAddr);
    aclrtFree(biasDeviceAddr);
    aclrtFree(outDeviceAddr);
    if (addWorkspaceSize > 0) aclrtFree(addWorkspaceAddr);
    if (addsWorkspaceSize > 0) aclrtFree(addsWorkspaceAddr);
    Finalize(deviceId, stream);
    return mismatches == 0 ? 0 : 1;
}
