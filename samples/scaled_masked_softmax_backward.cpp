// aclnnScaledMaskedSoftmaxBackward sample, following CANN's documented flow:
// float [2, 2, 2, 2] gradOutput and y, a BOOL mask of the same shape, scale
// 1.0, fixTriuMask false.  Per row of the last axis:
//   out = gradOutput * y - sum(gradOutput * y) * y, and 0 where mask is true.
// The program prints out and exits non-zero if it is wrong.
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_scaled_masked_softmax_backward.h"

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
template <class T>
int make_tensor(const std::vector<T>& host, const std::vector<int64_t>& shape, aclDataType dtype, void** device,
                aclTensor** tensor) {
    const size_t bytes = static_cast<size_t>(element_count(shape)) * sizeof(T);
    aclError ret = aclrtMalloc(device, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed: %d\n", ret); return ret);
    ret = aclrtMemcpy(*device, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed: %d\n", ret); return ret);
    std::vector<int64_t> strides(shape.size(), 1);
    for (size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
    *tensor = aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), 0, ACL_FORMAT_ND, shape.data(),
                              shape.size(), *device);
    return *tensor == nullptr ? 1 : 0;
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

    const std::vector<int64_t> shape = {2, 2, 2, 2};
    const int64_t count = element_count(shape);
    std::vector<float> gradOutputData(static_cast<size_t>(count));
    std::vector<float> yData(static_cast<size_t>(count));
    std::vector<char> maskData(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) {
        gradOutputData[static_cast<size_t>(i)] = 0.5f * static_cast<float>(i + 1);
        yData[static_cast<size_t>(i)] = i % 2 == 0 ? 0.25f : 0.75f;  // each row of 2 is a softmax output
        maskData[static_cast<size_t>(i)] = static_cast<char>(i % 4 == 3);
    }

    void* gradOutputDev = nullptr;
    void* yDev = nullptr;
    void* maskDev = nullptr;
    void* outDev = nullptr;
    aclTensor* gradOutput = nullptr;
    aclTensor* y = nullptr;
    aclTensor* mask = nullptr;
    aclTensor* out = nullptr;
    CHECK_RET(make_tensor(gradOutputData, shape, ACL_FLOAT, &gradOutputDev, &gradOutput) == 0, return 1);
    CHECK_RET(make_tensor(yData, shape, ACL_FLOAT, &yDev, &y) == 0, return 1);
    CHECK_RET(make_tensor(maskData, shape, ACL_BOOL, &maskDev, &mask) == 0, return 1);
    CHECK_RET(make_tensor(std::vector<float>(static_cast<size_t>(count), 0.0f), shape, ACL_FLOAT, &outDev, &out) == 0,
              return 1);

    const double scale = 1.0;
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    aclnnStatus status = aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(gradOutput, y, mask, scale, false, out,
                                                                          &workspaceSize, &executor);
    CHECK_RET(status == ACL_SUCCESS,
              LOG_PRINT("aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize failed: %d %s\n", status,
                        aclGetRecentErrMsg());
              return 1);
    void* workspace = nullptr;
    if (workspaceSize > 0) {
        ret = aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("workspace allocation failed: %d\n", ret); return 1);
    }
    status = aclnnScaledMaskedSoftmaxBackward(workspace, workspaceSize, executor, stream);
    CHECK_RET(status == ACL_SUCCESS, LOG_PRINT("aclnnScaledMaskedSoftmaxBackward failed: %d\n", status); return 1);
    ret = aclrtSynchronizeStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed: %d\n", ret); return 1);

    std::vector<float> result(static_cast<size_t>(count), 0.0f);
    const size_t bytes = result.size() * sizeof(float);
    ret = aclrtMemcpy(result.data(), bytes, outDev, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy back failed: %d\n", ret); return 1);

    int wrong = 0;
    const int64_t length = shape[3];
    for (int64_t row = 0; row < count / length; ++row) {
        double sum = 0.0;
        for (int64_t i = 0; i < length; ++i) {
            const size_t k = static_cast<size_t>(row * length + i);
            sum += static_cast<double>(gradOutputData[k]) * yData[k];
        }
        for (int64_t i = 0; i < length; ++i) {
            const size_t k = static_cast<size_t>(row * length + i);
            const double expected = maskData[k] ? 0.0 : scale * (gradOutputData[k] * yData[k] - sum * yData[k]);
            LOG_PRINT("out[%zu] is: %f\n", k, result[k]);
            wrong += std::fabs(result[k] - expected) > 1e-5;
        }
    }

    aclDestroyTensor(gradOutput);
    aclDestroyTensor(y);
    aclDestroyTensor(mask);
    aclDestroyTensor(out);
    aclrtFree(gradOutputDev);
    aclrtFree(yDev);
    aclrtFree(maskDev);
    aclrtFree(outDev);
    if (workspaceSize > 0) aclrtFree(workspace);
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();

    if (wrong != 0) {
        LOG_PRINT("%d results are wrong\n", wrong);
        return 1;
    }
    LOG_PRINT("aclnnScaledMaskedSoftmaxBackward sample passed\n");
    return 0;
}
