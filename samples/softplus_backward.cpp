// aclnnSoftplusBackward sample, following the flow of CANN's documentation
// sample: gradInput = gradOutput * sigmoid(beta * self) where
// beta * self <= threshold, else gradOutput.  Exits non-zero when a result
// differs from the expected one.
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_softplus_backward.h"
#include "sample_common.h"

int main() {
    int32_t deviceId = 0;
    aclrtStream stream;
    CHECK_ACL(Init(deviceId, &stream));

    std::vector<int64_t> shape = {4, 2};
    void* gradOutputDeviceAddr = nullptr;
    void* selfDeviceAddr = nullptr;
    void* gradInputDeviceAddr = nullptr;
    aclTensor* gradOutput = nullptr;
    aclTensor* self = nullptr;
    aclTensor* gradInput = nullptr;
    std::vector<float> gradOutputHostData = {0, 1, 2, 3, 4, 5, 6, 7};
    std::vector<float> selfHostData = {0, 1, -1, 0.5f, -2, 1.5f, 3, -0.25f};
    std::vector<float> gradInputHostData(8, 0);
    float betaValue = 1.1f;
    float thresholdValue = 1.2f;
    CHECK_ACL(CreateAclTensor(gradOutputHostData, shape, &gradOutputDeviceAddr, ACL_FLOAT, &gradOutput));
    CHECK_ACL(CreateAclTensor(selfHostData, shape, &selfDeviceAddr, ACL_FLOAT, &self));
    CHECK_ACL(CreateAclTensor(gradInputHostData, shape, &gradInputDeviceAddr, ACL_FLOAT, &gradInput));
    aclScalar* beta = aclCreateScalar(&betaValue, ACL_FLOAT);
    aclScalar* threshold = aclCreateScalar(&thresholdValue, ACL_FLOAT);

    uint64_t workspaceSize = 0;
    aclOpExecutor* executor;
    CHECK_ACL(
        aclnnSoftplusBackwardGetWorkspaceSize(gradOutput, self, beta, threshold, gradInput, &workspaceSize, &executor));
    void* workspaceAddr = nullptr;
    CHECK_ACL(LaunchAclnn(aclnnSoftplusBackward, workspaceSize, executor, stream, &workspaceAddr));
    CHECK_ACL(aclrtSynchronizeStream(stream));

    std::vector<float> resultData;
    CHECK_ACL(CopyToHost(gradInputDeviceAddr, GetShapeSize(shape), &resultData));
    std::vector<double> expected;
    for (size_t i = 0; i < selfHostData.size(); i++) {
        const double t = static_cast<double>(betaValue) * selfHostData[i];
        expected.push_back(t > thresholdValue ? gradOutputHostData[i] : gradOutputHostData[i] / (1.0 + std::exp(-t)));
    }
    const int mismatches = ReportResults("result", resultData, expected);

    aclDestroyTensor(gradOutput);
    aclDestroyTensor(self);
    aclDestroyTensor(gradInput);
    aclDestroyScalar(beta);
    aclDestroyScalar(threshold);
    aclrtFree(gradOutputDeviceAddr);
    aclrtFree(selfDeviceAddr);
    aclrtFree(gradInputDeviceAddr);
    if (workspaceSize > 0) aclrtFree(workspaceAddr);
    Finalize(deviceId, stream);
    return mismatches == 0 ? 0 : 1;
}
