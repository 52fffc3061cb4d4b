// The helpers every CANN operator sample defines (CHECK_RET, LOG_PRINT,
// GetShapeSize, Init, CreateAclTensor), plus the few more acl-cpu's samples
// share, written once.  C++11, like the samples themselves.
#ifndef ACL_CPU_SAMPLE_COMMON_H_
#define ACL_CPU_SAMPLE_COMMON_H_

#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"

#define CHECK_RET(cond, return_expr) \
    do {                             \
        if (!(cond)) {               \
            return_expr;             \
        }                            \
    } while (0)

#define LOG_PRINT(message, ...)         \
    do {                                \
        printf(message, ##__VA_ARGS__); \
    } while (0)

/// Runs an acl or aclnn call; if it fails, prints the call, its status and
/// aclGetRecentErrMsg(), and returns 1 from the enclosing function.
#define CHECK_ACL(call)                                                                     \
    do {                                                                                    \
        const int status_ = (call);                                                         \
        if (status_ != ACL_SUCCESS) {                                                       \
            const char* message_ = aclGetRecentErrMsg();                                    \
            LOG_PRINT("%s failed with %d: %s\n", #call, status_, message_ ? message_ : ""); \
            return 1;                                                                       \
        }                                                                                   \
    } while (0)

inline int64_t GetShapeSize(const std::vector<int64_t>& shape) {
    int64_t shapeSize = 1;
    for (size_t i = 0; i < shape.size(); ++i) shapeSize *= shape[i];
    return shapeSize;
}

/// aclInit -> aclrtSetDevice -> aclrtCreateStream.
inline int Init(int32_t deviceId, aclrtStream* stream) {
    aclError ret = aclInit(nullptr);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return ret);
    ret = aclrtSetDevice(deviceId);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); return ret);
    ret = aclrtCreateStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret); return ret);
    return 0;
}

/// Init's inverse: aclrtDestroyStream -> aclrtResetDevice -> aclFinalize.
inline void Finalize(int32_t deviceId, aclrtStream stream) {
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
}

/// Copies hostData to new device memory and describes it as a row-major tensor.
template <typename T>
int CreateAclTensor(const std::vector<T>& hostData, const std::vector<int64_t>& shape, void** deviceAddr,
                    aclDataType dataType, aclTensor** tensor) {
    const size_t size = static_cast<size_t>(GetShapeSize(shape)) * sizeof(T);
    aclError ret = aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
    ret = aclrtMemcpy(*deviceAddr, size, hostData.data(), size, ACL_MEMCPY_HOST_TO_DEVICE);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret);
    std::vector<int64_t> strides(shape.size(), 1);
    for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; i--) strides[i] = shape[i + 1] * strides[i + 1];
    *tensor = aclCreateTensor(shape.data(), shape.size(), dataType, strides.data(), 0, ACL_FORMAT_ND, shape.data(),
                              shape.size(), *deviceAddr);
    return 0;
}

/// Copies count values of type T back from the device.
template <typename T>
int CopyToHost(const void* deviceAddr, int64_t count, std::vector<T>* hostData) {
    hostData->assign(static_cast<size_t>(count), T());
    const size_t size = static_cast<size_t>(count) * sizeof(T);
    aclError ret = aclrtMemcpy(hostData->data(), size, deviceAddr, size, ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy result from device to host failed. ERROR: %d\n", ret); return ret);
    return 0;
}

/// Phase 2 of every aclnn operator: aclnnXxx(workspace, workspaceSize, executor, stream).
typedef aclnnStatus (*AclnnLaunch)(void*, uint64_t, aclOpExecutor*, aclrtStream);

/// Allocates the workspace phase 1 asked for (none when workspaceSize is 0)
/// and launches phase 2 on stream.  The workspace, returned in
/// *workspaceAddr, must stay allocated until the stream is synchronised.
inline int LaunchAclnn(AclnnLaunch launch, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream,
                       void** workspaceAddr) {
    *workspaceAddr = nullptr;
    if (workspaceSize > 0) {
        const aclError ret = aclrtMalloc(workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret); return ret);
    }
    return launch(*workspaceAddr, workspaceSize, executor, stream);
}

/// Whether result is expected to within tolerance, relative to 1 + |expected|.
inline bool IsClose(double result, double expected, double tolerance) {
    return std::fabs(result - expected) <= tolerance * (1.0 + std::fabs(expected));
}

/// Prints result[i] next to expected[i]; returns how many are not IsClose
/// with a tolerance of 1e-5.
inline int ReportResults(const char* name, const std::vector<float>& result, const std::vector<double>& expected) {
    int mismatches = 0;
    for (size_t i = 0; i < result.size(); ++i) {
        const bool ok = IsClose(result[i], expected[i], 1e-5);
        mismatches += ok ? 0 : 1;
        LOG_PRINT("%s[%zu] is: %f (expected %f)%s\n", name, i, result[i], expected[i], ok ? "" : "  MISMATCH");
    }
    return mismatches;
}

#endif  // ACL_CPU_SAMPLE_COMMON_H_
