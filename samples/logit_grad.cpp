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
    auto ret = Init(deviceId, &stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("Init acl failed. ERROR: %d\n", ret); return ret);

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
    ret = CreateAclTensor(xHostData, shape, &xDeviceAddr, aclDataType::ACL_FLOAT, &x);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(dyHostData, shape, &dyDeviceAddr, aclDataType::ACL_FLOAT, &dy);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(dxHostData, shape, &dxDeviceAddr, aclDataType::ACL_FLOAT, &dx);
    CHECK_RET(ret == ACL_SUCCESS, return ret);

    uint64_t workspaceSize = 16 * 1024 * 1024;
    aclOpExecutor* executor;
    ret = aclnnLogitGradGetWorkspaceSize(x, dy, eps, dx, &workspaceSize, &executor);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("aclnnLogitGradGetWorkspaceSize failed. ERROR: %d\n%s\n", ret, aclGetRecentErrMsg());
              return ret);
    void* workspaceAddr = nullptr;
    if (workspaceSize > 0) {
        ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret); return ret);
    }
    ret = aclnnLogitGrad(workspaceAddr, workspaceSize, executor, stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnLogitGrad failed. ERROR: %d\n", ret); return ret);
    ret = aclrtSynchronizeStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret);

    std::vector<float> resultData;
    ret = CopyToHost(dxDeviceAddr, GetShapeSize(shape), &resultData);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
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
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    return mismatches == 0 ? 0 : 1;
}
