// aclnnLogitGrad sample, CANN's documentation sample: float {1,4}
// x {0.1,0.2,0.3,0.4}, dy {1,2,3,4}, eps -1 -> dx = dy / (x * (1 - x)),
// with workspaceSize pre-set to 16 MiB as the doc does.  Exits non-zero
// when a result differs from the expected one.
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_logit_grad.h"
#include "sample_common.h"

int main() {
    int32_t deviceId = 0;
    aclrtStream stream;
    CHECK_ACL(Init(deviceId, &stream));

    std::vector<int64_t> shape = {1, 4};
    void* xDeviceAddr = nullptr;
    void* dyDeviceAddr = nullptr;
    void* dxDeviceAddr = nullptr;
    aclTensor* x = nullptr;
    aclTensor* dy = nullptr;
    aclTensor* dx = nullptr;
    std::vector<float> xHostData = {0.1f, 0.2f, 0.3f, 0.4f};
    std::vector<float> dyHostData = {1, 2, 3, 4};
    std::vector<float> dxHostData(4, 0);
    double eps = -1.0;
    CHECK_ACL(CreateAclTensor(xHostData, shape, &xDeviceAddr, ACL_FLOAT, &x));
    CHECK_ACL(CreateAclTensor(dyHostData, shape, &dyDeviceAddr, ACL_FLOAT, &dy));
    CHECK_ACL(CreateAclTensor(dxHostData, shape, &dxDeviceAddr, ACL_FLOAT, &dx));

    uint64_t workspaceSize = 16 * 1024 * 1024;
    aclOpExecutor* executor;
    CHECK_ACL(aclnnLogitGradGetWorkspaceSize(x, dy, eps, dx, &workspaceSize, &executor));
    void* workspaceAddr = nullptr;
    CHECK_ACL(LaunchAclnn(aclnnLogitGrad, workspaceSize, executor, stream, &workspaceAddr));
    CHECK_ACL(aclrtSynchronizeStream(stream));

    std::vector<float> resultData;
    CHECK_ACL(CopyToHost(dxDeviceAddr, GetShapeSize(shape), &resultData));
    std::vector<double> expected;
    for (size_t i = 0; i < xHostData.size(); i++) {
        const double xi = xHostData[i];
        expected.push_back(dyHostData[i] / (xi * (1.0 - xi)));
    }
    const int mismatches = ReportResults("result", resultData, expected);

    aclDestroyTensor(x);
    aclDestroyTensor(dy);
    aclDestroyTensor(dx);
    aclrtFree(xDeviceAddr);
    aclrtFree(dyDeviceAddr);
    aclrtFree(dxDeviceAddr);
    if (workspaceSize > 0) aclrtFree(workspaceAddr);
    Finalize(deviceId, stream);
    return mismatches == 0 ? 0 : 1;
}
