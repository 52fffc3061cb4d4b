// aclnnPreluBackward sample, following CANN's documented flow: init, device
// tensors, phase 1, workspace, phase 2, synchronise, copy back, release.
//
// self is [4, 2] (channel = dim 1) with weight [2]:
//   gradInput = self > 0 ? gradOutput : weight[c] * gradOutput
//   gradWeight[c] = sum over rows of (self > 0 ? 0 : self * gradOutput)
// The program prints both outputs and exits non-zero if they are wrong.
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_prelu_backward.h"

#define CHECK_RET(cond, expr) \
    do {                      \
        if (!(cond)) {        \
            expr;             \
        }                     \
    } while (0)

#define LOG_PRINT(...) std::printf(__VA_ARGS__)

namespace {

int64_t element_count(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (size_t i = 0; i < shape.size(); ++i) n *= shape[i];
    return n;
}

/// Copies host data to new device memory and describes it as a row-major ND tensor.
int make_tensor(const std::vector<float>& host, const std::vector<int64_t>& shape, void** device, aclTensor** tensor) {
    const size_t bytes = static_cast<size_t>(element_count(shape)) * sizeof(float);
    aclError ret = aclrtMalloc(device, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed: %d\n", ret); return ret);
    ret = aclrtMemcpy(*device, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed: %d\n", ret); return ret);
    std::vector<int64_t> strides(shape.size(), 1);
    for (size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
    *tensor = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(),
                              shape.size(), *device);
    return *tensor == nullptr ? 1 : 0;
}

std::vector<float> download(const void* device, int64_t count) {
    std::vector<float> host(static_cast<size_t>(count), 0.0f);
    const size_t bytes = host.size() * sizeof(float);
    if (aclrtMemcpy(host.data(), bytes, device, bytes, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) host.clear();
    return host;
}

}  // namespace

int main() {
    const int32_t deviceId = 0;
    aclrtStream stream = nullptr;
    aclError ret = aclInit(nullptr);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed: %d\n", ret); return 1);
    ret = aclrtSetDevice(deviceId);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed: %d\n", ret); return 1);
    ret = aclrtCreateStream(&stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed: %d\n", ret); return 1);

    const std::vector<int64_t> selfShape = {4, 2};
    const std::vector<int64_t> weightShape = {2};
    const std::vector<float> selfData = {-3.0f, 2.0f, 1.5f, -0.5f, 0.0f, 4.0f, -2.0f, -1.0f};
    const std::vector<float> gradOutputData = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f};
    const std::vector<float> weightData = {0.25f, 0.5f};

    void* gradOutputDev = nullptr;
    void* selfDev = nullptr;
    void* weightDev = nullptr;
    void* gradInputDev = nullptr;
    void* gradWeightDev = nullptr;
    aclTensor* gradOutput = nullptr;
    aclTensor* self = nullptr;
    aclTensor* weight = nullptr;
    aclTensor* gradInput = nullptr;
    aclTensor* gradWeight = nullptr;
    CHECK_RET(make_tensor(gradOutputData, selfShape, &gradOutputDev, &gradOutput) == 0, return 1);
    CHECK_RET(make_tensor(selfData, selfShape, &selfDev, &self) == 0, return 1);
    CHECK_RET(make_tensor(weightData, weightShape, &weightDev, &weight) == 0, return 1);
    CHECK_RET(make_tensor(std::vector<float>(8, 0.0f), selfShape, &gradInputDev, &gradInput) == 0, return 1);
    CHECK_RET(make_tensor(std::vector<float>(2, 0.0f), weightShape, &gradWeightDev, &gradWeight) == 0, return 1);

    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    aclnnStatus status = aclnnPreluBackwardGetWorkspaceSize(gradOutput, self, weight, gradInput, gradWeight,
                                                            &workspaceSize, &executor);
    CHECK_RET(status == ACL_SUCCESS,
              LOG_PRINT("aclnnPreluBackwardGetWorkspaceSize failed: %d %s\n", status, aclGetRecentErrMsg());
              return 1);
    void* workspace = nullptr;
    if (workspaceSize > 0) {
        ret = aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("workspace allocation failed: %d\n", ret); return 1);
    }
    status = aclnnPreluBackward(workspace, workspaceSize, executor, stream);
    CHECK_RET(status == ACL_SUCCESS, LOG_PRINT("aclnnPreluBackward failed: %d\n", status); return 1);
    ret = aclrtSynchronizeStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed: %d\n", ret); return 1);

    const std::vector<float> gradInputResult = download(gradInputDev, 8);
    const std::vector<float> gradWeightResult = download(gradWeightDev, 2);
    CHECK_RET(gradInputResult.size() == 8 && gradWeightResult.size() == 2, LOG_PRINT("copy back failed\n"); return 1);

    int wrong = 0;
    std::vector<double> expectedWeight(2, 0.0);
    for (size_t i = 0; i < gradInputResult.size(); ++i) {
        const size_t c = i % 2;
        const bool positive = selfData[i] > 0.0f;
        const double expected = positive ? gradOutputData[i] : weightData[c] * gradOutputData[i];
        if (!positive) expectedWeight[c] += static_cast<double>(selfData[i]) * gradOutputData[i];
        LOG_PRINT("gradInput[%zu] is: %f\n", i, gradInputResult[i]);
        wrong += std::fabs(gradInputResult[i] - expected) > 1e-6;
    }
    for (size_t c = 0; c < gradWeightResult.size(); ++c) {
        LOG_PRINT("gradWeight[%zu] is: %f\n", c, gradWeightResult[c]);
        wrong += std::fabs(gradWeightResult[c] - expectedWeight[c]) > 1e-5;
    }

    aclDestroyTensor(gradOutput);
    aclDestroyTensor(self);
    aclDestroyTensor(weight);
    aclDestroyTensor(gradInput);
    aclDestroyTensor(gradWeight);
    aclrtFree(gradOutputDev);
    aclrtFree(selfDev);
    aclrtFree(weightDev);
    aclrtFree(gradInputDev);
    aclrtFree(gradWeightDev);
    if (workspaceSize > 0) aclrtFree(workspace);
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();

    if (wrong != 0) {
        LOG_PRINT("%d results are wrong\n", wrong);
        return 1;
    }
    LOG_PRINT("aclnnPreluBackward sample passed\n");
    return 0;
}
