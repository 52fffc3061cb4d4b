// Schedule exploration sample: a missing event that the default schedule
// hides.  Stream A adds two tensors into `sum`; stream B multiplies `sum` by a
// constant tensor into `product`; the host checks `product`.
//   schedule_sample          the planted bug: nothing orders B's multiply
//                            after A's add.  The host does 20 ms of other work
//                            between submitting the two, so on the default
//                            schedule (ACLCPU_SCHEDULE=fifo) A has long
//                            finished when B runs and the result is right on
//                            every run -- yet a device may run B first, and B
//                            then reads `sum` before A has written it.  The
//                            schedule explorer runs the program under other
//                            device-side orders:
//                              aclcpu-explore --policy adversarial --seeds 5 -- ./schedule_sample
//                            stops at the first seed whose output differs from
//                            fifo's and prints ACLCPU_SCHEDULE=adversarial:SEED,
//                            which replays that order on every run:
//                              ACLCPU_SCHEDULE=adversarial:SEED ./schedule_sample
//                            (The race checker, ACLCPU_CHECK=race, reports the
//                            same bug when the multiply is submitted.)
//   schedule_sample --fixed  the fix: A records an event after the add and B
//                            waits for it; right under every schedule.
// Prints "schedule_sample: result correct" and exits 0, or "schedule_sample:
// result WRONG (...)" with the first wrong element and exits 1.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"
#include "sample_common.h"

int main(int argc, char** argv) {
    const bool fixed = argc > 1 && std::strcmp(argv[1], "--fixed") == 0;
    const int32_t deviceId = 0;
    aclrtStream producerStream = nullptr;  // Stream A.
    aclrtStream consumerStream = nullptr;  // Stream B.
    CHECK_ACL(Init(deviceId, &producerStream));
    CHECK_ACL(aclrtCreateStream(&consumerStream));

    const std::vector<int64_t> shape = {8, 128};
    const size_t count = static_cast<size_t>(GetShapeSize(shape));
    std::vector<float> xHost(count);
    std::vector<float> yHost(count);
    const std::vector<float> scaleHost(count, 3.0f);
    const std::vector<float> zeros(count, 0.0f);
    for (size_t i = 0; i < count; ++i) {
        xHost[i] = 0.5f * static_cast<float>(i % 64);
        yHost[i] = 1.0f + static_cast<float>(i % 7);  // sum >= 1: a product read from the zeroed sum is wrong.
    }
    void* xAddr = nullptr;
    void* yAddr = nullptr;
    void* sumAddr = nullptr;
    void* scaleAddr = nullptr;
    void* productAddr = nullptr;
    aclTensor* x = nullptr;
    aclTensor* y = nullptr;
    aclTensor* sum = nullptr;
    aclTensor* scale = nullptr;
    aclTensor* product = nullptr;
    CHECK_ACL(CreateAclTensor(xHost, shape, &xAddr, ACL_FLOAT, &x));
    CHECK_ACL(CreateAclTensor(yHost, shape, &yAddr, ACL_FLOAT, &y));
    CHECK_ACL(CreateAclTensor(zeros, shape, &sumAddr, ACL_FLOAT, &sum));
    CHECK_ACL(CreateAclTensor(scaleHost, shape, &scaleAddr, ACL_FLOAT, &scale));
    CHECK_ACL(CreateAclTensor(zeros, shape, &productAddr, ACL_FLOAT, &product));
    float alphaValue = 1.0f;
    aclScalar* alpha = aclCreateScalar(&alphaValue, ACL_FLOAT);
    aclrtEvent sumWritten = nullptr;
    CHECK_ACL(aclrtCreateEvent(&sumWritten));

    // Stream A: sum = x + y.
    uint64_t addWorkspaceSize = 0;
    aclOpExecutor* addExecutor = nullptr;
    CHECK_ACL(aclnnAddGetWorkspaceSize(x, y, alpha, sum, &addWorkspaceSize, &addExecutor));
    void* addWorkspaceAddr = nullptr;
    CHECK_ACL(LaunchAclnn(aclnnAdd, addWorkspaceSize, addExecutor, producerStream, &addWorkspaceAddr));
    if (fixed) CHECK_ACL(aclrtRecordEvent(sumWritten, producerStream));

    // Other host work, long enough for the default schedule to finish the add.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));

    // Stream B: product = sum * scale.  Only the event orders it after the add.
    if (fixed) CHECK_ACL(aclrtStreamWaitEvent(consumerStream, sumWritten));
    uint64_t mulWorkspaceSize = 0;
    aclOpExecutor* mulExecutor = nullptr;
    CHECK_ACL(aclnnMulGetWorkspaceSize(sum, scale, product, &mulWorkspaceSize, &mulExecutor));
    void* mulWorkspaceAddr = nullptr;
    CHECK_ACL(LaunchAclnn(aclnnMul, mulWorkspaceSize, mulExecutor, consumerStream, &mulWorkspaceAddr));

    // The host waits for B alone: B's product is all it reads.
    CHECK_ACL(aclrtSynchronizeStream(consumerStream));
    std::vector<float> productHost;
    CHECK_ACL(CopyToHost(productAddr, static_cast<int64_t>(count), &productHost));
    std::vector<double> expected(count);
    for (size_t i = 0; i < count; ++i) expected[i] = (static_cast<double>(xHost[i]) + yHost[i]) * scaleHost[i];
    size_t firstWrong = 0;
    while (firstWrong < count && IsClose(productHost[firstWrong], expected[firstWrong], 1e-5)) ++firstWrong;
    const bool correct = firstWrong == count;
    if (correct) {
        LOG_PRINT("schedule_sample: result correct\n");
    } else {
        LOG_PRINT("schedule_sample: result WRONG (first bad element %zu: got %g, expected %g)\n", firstWrong,
                  productHost[firstWrong], expected[firstWrong]);
    }

    // Freeing A's buffers needs A's work done, which nothing has waited for yet.
    CHECK_ACL(aclrtSynchronizeStream(producerStream));
    aclDestroyTensor(x);
    aclDestroyTensor(y);
    aclDestroyTensor(sum);
    aclDestroyTensor(scale);
    aclDestroyTensor(product);
    aclDestroyScalar(alpha);
    aclrtFree(xAddr);
    aclrtFree(yAddr);
    aclrtFree(sumAddr);
    aclrtFree(scaleAddr);
    aclrtFree(productAddr);
    if (addWorkspaceSize > 0) aclrtFree(addWorkspaceAddr);
    if (mulWorkspaceSize > 0) aclrtFree(mulWorkspaceAddr);
    aclrtDestroyEvent(sumWritten);
    aclrtDestroyStream(consumerStream);
    Finalize(deviceId, producerStream);
    return correct ? 0 : 1;
}
