// aclnnPreluBackward sample, following the flow of CANN's documentation
// sample.  self is float [4, 2] (channel = dim 1) with weight [2]:
//   gradInput = self > 0 ? gradOutput : weight[c] * gradOutput
//   gradWeight[c] = sum over rows of (self > 0 ? 0 : self * gradOutput)
// Exits non-zero when a result differs from the expected one.
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_prelu_backward.h"
#include "sample_common.h"

int main() {
    int32_t deviceId = 0;
    aclrtStream stream;
    CHECK_ACL(Init(deviceId, &stream));

    std::vector<int64_t> selfShape = {4, 2};
    std::vector<int64_t> weightShape = {2};
    void* gradOutputDeviceAddr = nullptr;
    void* selfDeviceAddr = nullptr;
    void* weightDeviceAddr = nullptr;
    void* gradInputDeviceAddr = nullptr;
    void* gradWeightDeviceAddr = nullptr;
    aclTensor* gradOutput = nullptr;
    aclTensor* self = nullptr;
    aclTensor* weight = nullptr;
    aclTensor* gradInput = nullptr;
    aclTensor* gradWeight = nullptr;
    std::vector<float> gradOutputHostData = {1, 2, 3, 4, 5, 6, 7, 8};
    std::vector<float> selfHostData = {-3, 2, 1.5f, -0.5f, 0, 4, -2, -1};
    std::vector<float> weightHostData = {0.25f, 0.5f};
    std::vector<float> gradInputHostData(8, 0);
    std::vector<float> gradWeightHostData(2, 0);
    CHECK_ACL(CreateAclTensor(gradOutputHostData, selfShape, &gradOutputDeviceAddr, ACL_FLOAT, &gradOutput));
    CHECK_ACL(CreateAclTensor(selfHostData, selfShape, &selfDeviceAddr, ACL_FLOAT, &self));
    CHECK_ACL(CreateAclTensor(weightHostData, weightShape, &weightDeviceAddr, ACL_FLOAT, &weight));
    CHECK_ACL(CreateAclTensor(gradInputHostData, selfShape, &gradInputDeviceAddr, ACL_FLOAT, &gradInput));
    CHECK_ACL(CreateAclTensor(gradWeightHostData, weightShape, &gradWeightDeviceAddr, ACL_FLOAT, &gradWeight));

    uint64_t workspaceSize = 0;
    aclOpExecutor* executor;
    CHECK_ACL(
        aclnnPreluBackwardGetWorkspaceSize(gradOutput, self, weight, gradInput, gradWeight, &workspaceSize, &executor));
    void* workspaceAddr = nullptr;
    CHECK_ACL(LaunchAclnn(aclnnPreluBackward, workspaceSize, executor, stream, &workspaceAddr));
    CHECK_ACL(aclrtSynchronizeStream(stream));

    std::vector<float> gradInputResult;
    std::vector<float> gradWeightResult;
    CHECK_ACL(CopyToHost(gradInputDeviceAddr, GetShapeSize(selfShape), &gradInputResult));
    CHECK_ACL(CopyToHost(gradWeightDeviceAddr, GetShapeSize(weightShape), &gradWeightResult));
    std::vector<double> expectedGradInput;
    std::vector<double> expectedGradWeight(weightHostData.size(), 0.0);
    for (size_t i = 0; i < selfHostData.size(); i++) {
        const size_t c = i % weightHostData.size();
        const bool positive = selfHostData[i] > 0;
        expectedGradInput.push_back(positive ? gradOutputHostData[i] : weightHostData[c] * gradOutputHostData[i]);
        if (!positive) expectedGradWeight[c] += static_cast<double>(selfHostData[i]) * gradOutputHostData[i];
    }
    const int mismatches = ReportResults("gradInput", gradInputResult, expectedGradInput) +
                           ReportResults("gradWeight", gradWeightResult, expectedGradWeight);

    aclDestroyTensor(gradOutput);
    aclDestroyTensor(self);
    aclDestroyTensor(weight);
    aclDestroyTensor(gradInput);
    aclDestroyTensor(gradWeight);
    aclrtFree(gradOutputDeviceAddr);
    aclrtFree(selfDeviceAddr);
    aclrtFree(weightDeviceAddr);
    aclrtFree(gradInputDeviceAddr);
    aclrtFree(gradWeightDeviceAddr);
    if (workspaceSize > 0) aclrtFree(workspaceAddr);
    Finalize(deviceId, stream);
    return mismatches == 0 ? 0 : 1;
}
