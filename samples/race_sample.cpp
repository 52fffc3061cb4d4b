// Race checker sample.  Stream A computes an operator's output while stream
// B copies that output away.
//   race_sample          the planted race: nothing orders the copy after the
//                        operator, so on a device it may read the output
//                        before, during or after it is written.  Run with
//                        ACLCPU_CHECK=race: acl-cpu reports the race when the
//                        copy is enqueued, whatever order the emulator happens
//                        to run the two in.
//   race_sample --fixed  the fix: stream B waits for an event recorded after
//                        the operator; no report, and the program exits
//                        non-zero if the copy differs from the gradient.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_softplus_backward.h"
#include "sample_common.h"

int main(int argc, char** argv) {
    const bool fixed = argc > 1 && std::strcmp(argv[1], "--fixed") == 0;
    const int32_t deviceId = 0;
    aclrtStream computeStream = nullptr;
    aclrtStream copyStream = nullptr;
    CHECK_ACL(Init(deviceId, &computeStream));
    CHECK_ACL(aclrtCreateStream(&copyStream));

    const std::vector<int64_t> shape = {4, 256};
    const int64_t count = GetShapeSize(shape);
    const size_t bytes = static_cast<size_t>(count) * sizeof(float);
    std::vector<float> gradOutputHost(static_cast<size_t>(count), 1.0f);
    std::vector<float> selfHost(static_cast<size_t>(count), 0.5f);
    std::vector<float> zeros(static_cast<size_t>(count), 0.0f);
    void* gradOutputAddr = nullptr;
    void* selfAddr = nullptr;
    void* gradInputAddr = nullptr;
    aclTensor* gradOutput = nullptr;
    aclTensor* self = nullptr;
    aclTensor* gradInput = nullptr;
    CHECK_ACL(CreateAclTensor(gradOutputHost, shape, &gradOutputAddr, ACL_FLOAT, &gradOutput));
    CHECK_ACL(CreateAclTensor(selfHost, shape, &selfAddr, ACL_FLOAT, &self));
    CHECK_ACL(CreateAclTensor(zeros, shape, &gradInputAddr, ACL_FLOAT, &gradInput));
    void* snapshotAddr = nullptr;
    CHECK_ACL(aclrtMalloc(&snapshotAddr, bytes, ACL_MEM_MALLOC_HUGE_FIRST));

    float betaValue = 1.0f;
    float thresholdValue = 20.0f;
    aclScalar* beta = aclCreateScalar(&betaValue, ACL_FLOAT);
    aclScalar* threshold = aclCreateScalar(&thresholdValue, ACL_FLOAT);
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    CHECK_ACL(
        aclnnSoftplusBackwardGetWorkspaceSize(gradOutput, self, beta, threshold, gradInput, &workspaceSize, &executor));
    void* workspaceAddr = nullptr;
    CHECK_ACL(LaunchAclnn(aclnnSoftplusBackward, workspaceSize, executor, computeStream, &workspaceAddr));

    aclrtEvent computed = nullptr;
    CHECK_ACL(aclrtCreateEvent(&computed));
    if (fixed) {
        // copyStream waits for everything computeStream did before the record.
        CHECK_ACL(aclrtRecordEvent(computed, computeStream));
        CHECK_ACL(aclrtStreamWaitEvent(copyStream, computed));
    }
    CHECK_ACL(aclrtMemcpyAsync(snapshotAddr, bytes, gradInputAddr, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, copyStream));

    CHECK_ACL(aclrtSynchronizeStream(copyStream));
    CHECK_ACL(aclrtSynchronizeStream(computeStream));
    std::vector<float> snapshot;
    CHECK_ACL(CopyToHost(snapshotAddr, count, &snapshot));
    // gradOutput * sigmoid(beta * self) with gradOutput = 1, beta = 1, self = 0.5.
    const std::vector<double> expected(snapshot.size(), 1.0 / (1.0 + std::exp(-0.5)));
    int mismatches = 0;
    for (size_t i = 0; i < snapshot.size(); ++i) mismatches += IsClose(snapshot[i], expected[i], 1e-5) ? 0 : 1;
    LOG_PRINT("copied %zu gradients %s, %d mismatches\n", snapshot.size(),
              fixed ? "after the event" : "racing the operator", mismatches);

    aclDestroyTensor(gradOutput);
    aclDestroyTensor(self);
    aclDestroyTensor(gradInput);
    aclDestroyScalar(beta);
    aclDestroyScalar(threshold);
    aclrtFree(gradOutputAddr);
    aclrtFree(selfAddr);
    aclrtFree(gradInputAddr);
    aclrtFree(snapshotAddr);
    if (workspaceSize > 0) aclrtFree(workspaceAddr);
    aclrtDestroyEvent(computed);
    aclrtDestroyStream(copyStream);
    Finalize(deviceId, computeStream);
    // Without the fix the copy may legitimately have read the output early.
    return !fixed || mismatches == 0 ? 0 : 1;
}
