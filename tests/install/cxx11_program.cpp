// A compact CANN-style host program, built with plain g++ -std=c++11 against
// the install tree by check_install_tree.sh: aclnnSoftplusBackward on a
// {2,3} float tensor, with the RAII-through-function-pointer style of
// CANN's quick_op_invocation guide.  Exits non-zero on any failure or a
// wrong result.
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_softplus_backward.h"

#define CHECK_RET(cond, what)                                                                           \
    do {                                                                                                \
        if (!(cond)) {                                                                                  \
            const char* message = aclGetRecentErrMsg();                                                 \
            std::printf("%s failed: %s\n", what, message != nullptr ? message : "(no message)");        \
            return 1;                                                                                   \
        }                                                                                               \
    } while (0)

typedef std::unique_ptr<aclTensor, aclnnStatus (*)(const aclTensor*)> TensorPtr;
typedef std::unique_ptr<aclScalar, aclnnStatus (*)(const aclScalar*)> ScalarPtr;
typedef std::unique_ptr<void, aclError (*)(void*)> DevicePtr;

static int run(aclrtStream stream) {
    const std::vector<int64_t> shape = {2, 3};
    const std::vector<int64_t> strides = {3, 1};
    const std::vector<float> dy = {1, 2, 3, 4, 5, 6};
    const std::vector<float> x = {-2, -1, 0, 1, 2, 30};
    const size_t bytes = dy.size() * sizeof(float);

    void* raw[3] = {nullptr, nullptr, nullptr};
    for (int i = 0; i < 3; ++i) CHECK_RET(aclrtMalloc(&raw[i], bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
    DevicePtr dyDev(raw[0], aclrtFree), xDev(raw[1], aclrtFree), outDev(raw[2], aclrtFree);
    CHECK_RET(aclrtMemcpy(dyDev.get(), bytes, dy.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS, "aclrtMemcpy");
    CHECK_RET(aclrtMemcpy(xDev.get(), bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS, "aclrtMemcpy");

    TensorPtr gradOutput(aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND,
                                         shape.data(), shape.size(), dyDev.get()), aclDestroyTensor);
    TensorPtr self(aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND,
                                   shape.data(), shape.size(), xDev.get()), aclDestroyTensor);
    TensorPtr gradInput(aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND,
                                        shape.data(), shape.size(), outDev.get()), aclDestroyTensor);
    float betaValue = 1.0f;
    float thresholdValue = 20.0f;
    ScalarPtr beta(aclCreateScalar(&betaValue, ACL_FLOAT), aclDestroyScalar);
    ScalarPtr threshold(aclCreateScalar(&thresholdValue, ACL_FLOAT), aclDestroyScalar);

    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    CHECK_RET(aclnnSoftplusBackwardGetWorkspaceSize(gradOutput.get(), self.get(), beta.get(), threshold.get(),
                                                    gradInput.get(), &workspaceSize, &executor) == ACL_SUCCESS,
              "aclnnSoftplusBackwardGetWorkspaceSize");
    void* workspace = nullptr;
    if (workspaceSize > 0) {
        CHECK_RET(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
    }
    DevicePtr workspaceOwner(workspace, aclrtFree);
    CHECK_RET(aclnnSoftplusBackward(workspace, workspaceSize, executor, stream) == ACL_SUCCESS, "aclnnSoftplusBackward");
    CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");

    std::vector<float> out(dy.size(), 0.0f);
    CHECK_RET(aclrtMemcpy(out.data(), bytes, outDev.get(), bytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS, "aclrtMemcpy");
    int wrong = 0;
    for (size_t i = 0; i < out.size(); ++i) {
        const double t = x[i];
        const double expected = t > 20.0 ? dy[i] : dy[i] / (1.0 + std::exp(-t));
        if (std::fabs(out[i] - expected) > 1e-5 * (1.0 + std::fabs(expected))) {
            std::printf("gradInput[%zu] = %f, expected %f\n", i, out[i], expected);
            ++wrong;
        }
    }
    if (wrong == 0) std::printf("aclnnSoftplusBackward: all %zu results correct\n", out.size());
    return wrong == 0 ? 0 : 1;
}

int main() {
    aclrtStream stream = nullptr;
    CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
    CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
    CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");
    const int status = run(stream);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return status;
}
