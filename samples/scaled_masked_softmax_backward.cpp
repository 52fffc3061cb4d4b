// aclnnScaledMaskedSoftmaxBackward sample, following the flow of CANN's
// documentation sample: float [2, 2, 2, 2] gradOutput and y, a BOOL mask of
// the same shape, scale 1.0, fixTriuMask false.  Per row of the last axis:
//   out = scale * (gradOutput * y - sum(gradOutput * y) * y), 0 where mask is true.
// Exits non-zero when a result differs from the expected one.
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_scaled_masked_softmax_backward.h"
#include "sample_common.h"

int main() {
    int32_t deviceId = 0;
    aclrtStream stream;
    CHECK_ACL(Init(deviceId, &stream));

    std::vector<int64_t> shape = {2, 2, 2, 2};
    void* gradOutputDeviceAddr = nullptr;
    void* yDeviceAddr = nullptr;
    void* maskDeviceAddr = nullptr;
    void* outDeviceAddr = nullptr;
    aclTensor* gradOutput = nullptr;
    aclTensor* y = nullptr;
    aclTensor* mask = nullptr;
    aclTensor* out = nullptr;
    std::vector<float> gradOutputHostData = {0.5f, 1, 1.5f, 2, 2.5f, 3, 3.5f, 4, 4.5f, 5, 5.5f, 6, 6.5f, 7, 7.5f, 8};
    // Each row of 2 is a softmax output.
    std::vector<float> yHostData = {0.25f, 0.75f, 0.25f, 0.75f, 0.25f, 0.75f, 0.25f, 0.75f,
                                    0.25f, 0.75f, 0.25f, 0.75f, 0.25f, 0.75f, 0.25f, 0.75f};
    std::vector<char> maskHostData = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    std::vector<float> outHostData(16, 0);
    double scale = 1.0;
    CHECK_ACL(CreateAclTensor(gradOutputHostData, shape, &gradOutputDeviceAddr, ACL_FLOAT, &gradOutput));
    CHECK_ACL(CreateAclTensor(yHostData, shape, &yDeviceAddr, ACL_FLOAT, &y));
    CHECK_ACL(CreateAclTensor(maskHostData, shape, &maskDeviceAddr, ACL_BOOL, &mask));
    CHECK_ACL(CreateAclTensor(outHostData, shape, &outDeviceAddr, ACL_FLOAT, &out));

    uint64_t workspaceSize = 0;
    aclOpExecutor* executor;
    CHECK_ACL(aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(gradOutput, y, mask, scale, false, out, &workspaceSize,
                                                               &executor));
    void* workspaceAddr = nullptr;
    CHECK_ACL(LaunchAclnn(aclnnScaledMaskedSoftmaxBackward, workspaceSize, executor, stream, &workspaceAddr));
    CHECK_ACL(aclrtSynchronizeStream(stream));

    std::vector<float> resultData;
    CHECK_ACL(CopyToHost(outDeviceAddr, GetShapeSize(shape), &resultData));
    const size_t rowLength = static_cast<size_t>(shape.back());
    std::vector<double> expected;
    for (size_t row = 0; row < resultData.size(); row += rowLength) {
        double sum = 0.0;
        for (size_t k = row; k < row + rowLength; k++) sum += static_cast<double>(gradOutputHostData[k]) * yHostData[k];
        for (size_t k = row; k < row + rowLength; k++) {
            expected.push_back(maskHostData[k] ? 0.0 : scale * (gradOutputHostData[k] - sum) * yHostData[k]);
        }
    }
    const int mismatches = ReportResults("out", resultData, expected);

    aclDestroyTensor(gradOutput);
    aclDestroyTensor(y);
    aclDestroyTensor(mask);
    aclDestroyTensor(out);
    aclrtFree(gradOutputDeviceAddr);
    aclrtFree(yDeviceAddr);
    aclrtFree(maskDeviceAddr);
    aclrtFree(outDeviceAddr);
    if (workspaceSize > 0) aclrtFree(workspaceAddr);
    Finalize(deviceId, stream);
    return mismatches == 0 ? 0 : 1;
}
