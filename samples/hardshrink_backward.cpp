// aclnnHardshrinkBackward sample, CANN's documentation sample: float {2,2}
// gradOutput {0,0,1,1}, self {1,2,3,4}, lambd 2 -> gradInput {0,0,1,1}.
// Exits non-zero when a result differs from the expected one.
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_hardshrink_backward.h"
#include "sample_common.h"

int main() {
    int32_t deviceId = 0;
    aclrtStream stream;
    CHECK_ACL(Init(deviceId, &stream));

    std::vector<int64_t> shape = {2, 2};
    void* gradOutputDeviceAddr = nullptr;
    void* selfDeviceAddr = nullptr;
    void* gradInputDeviceAddr = nullptr;
    aclTensor* gradOutput = nullptr;
    aclTensor* self = nullptr;
    aclTensor* gradInput = nullptr;
    std::vector<float> gradOutputHostData = {0, 0, 1, 1};
    std::vector<float> selfHostData = {1, 2, 3, 4};
    std::vector<float> gradInputHostData(4, 0);
    const std::vector<double> expectedData = {0, 0, 1, 1};
    float lambdValue = 2.0f;
    CHECK_ACL(CreateAclTensor(gradOutputHostData, shape, &gradOutputDeviceAddr, ACL_FLOAT, &gradOutput));
    CHECK_ACL(CreateAclTensor(selfHostData, shape, &selfDeviceAddr, ACL_FLOAT, &self));
    CHECK_ACL(CreateAclTensor(gradInputHostData, shape, &gradInputDeviceAddr, ACL_FLOAT, &gradInput));
    aclScalar* lambd = aclCreateScalar(&lambdValue, ACL_FLOAT);

    uint64_t workspaceSize = 0;
    aclOpExecutor* executor;
    CHECK_ACL(aclnnHardshrinkBackwardGetWorkspaceSize(gradOutput, self, lambd, gradInput, &workspaceSize, &executor));
    void* workspaceAddr = nullptr;
    CHECK_ACL(LaunchAclnn(aclnnHardshrinkBackward, workspaceSize, executor, stream, &workspaceAddr));
    CHECK_ACL(aclrtSynchronizeStream(stream));

    std::vector<float> resultData;
    CHECK_ACL(CopyToHost(gradInputDeviceAddr, GetShapeSize(shape), &resultData));
    const int mismatches = ReportResults("result", resultData, expectedData);

    aclDestroyTensor(gradOutput);
    aclDestroyTensor(self);
    aclDestroyTensor(gradInput);
    aclDestroyScalar(lambd);
    aclrtFree(gradOutputDeviceAddr);
    aclrtFree(selfDeviceAddr);
    aclrtFree(gradInputDeviceAddr);
    if (workspaceSize > 0) aclrtFree(workspaceAddr);
    Finalize(deviceId, stream);
    return mismatches == 0 ? 0 : 1;
}
