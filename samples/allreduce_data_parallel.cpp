// A data-parallel training step on four devices, one host thread per rank as
// CANN's HCCL samples run them: each rank computes the gradient of its own
// shard with aclnnSoftplusBackward, then HcclAllReduce sums the ranks'
// gradients on the same stream, ordered after the operator, and every rank
// checks that it holds the sum of all shards' gradients.  Exits non-zero
// when a rank's result differs from the expected one.
#include <cmath>
#include <cstdio>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_softplus_backward.h"
#include "hccl/hccl.h"
#include "sample_common.h"

namespace {

const uint32_t kRanks = 4;
const int64_t kElements = 1024;
const float kBeta = 1.0f;
const float kThreshold = 20.0f;

/// Rank r's shard: its activations and the gradient flowing back into them.
float activation(uint32_t rank, int64_t i) { return 0.01f * static_cast<float>(i % 97) - 0.3f * rank; }
float upstream_gradient(uint32_t rank, int64_t i) { return 1.0f + 0.001f * static_cast<float>(i) + rank; }

double expected_gradient_sum(int64_t i) {
    double sum = 0.0;
    for (uint32_t rank = 0; rank < kRanks; ++rank) {
        const double t = static_cast<double>(kBeta) * activation(rank, i);
        sum += t > kThreshold ? upstream_gradient(rank, i) : upstream_gradient(rank, i) / (1.0 + std::exp(-t));
    }
    return sum;
}

#define CHECK_HCCL(call)                                                                    \
    do {                                                                                    \
        const HcclResult status_ = (call);                                                  \
        if (status_ != HCCL_SUCCESS) {                                                      \
            const char* message_ = aclGetRecentErrMsg();                                    \
            LOG_PRINT("%s failed with %d: %s\n", #call, status_, message_ ? message_ : ""); \
            return 1;                                                                       \
        }                                                                                   \
    } while (0)

int run_rank(uint32_t rank, const HcclRootInfo* rootInfo, int* mismatches) {
    CHECK_ACL(aclrtSetDevice(static_cast<int32_t>(rank)));
    HcclComm comm = nullptr;
    CHECK_HCCL(HcclCommInitRootInfo(kRanks, rootInfo, rank, &comm));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    std::vector<float> activations(kElements), gradOutputs(kElements);
    for (int64_t i = 0; i < kElements; ++i) {
        activations[i] = activation(rank, i);
        gradOutputs[i] = upstream_gradient(rank, i);
    }
    const std::vector<int64_t> shape = {kElements};
    void* selfAddr = nullptr;
    void* gradOutputAddr = nullptr;
    void* gradientAddr = nullptr;
    aclTensor* self = nullptr;
    aclTensor* gradOutput = nullptr;
    aclTensor* gradient = nullptr;
    CHECK_ACL(CreateAclTensor(activations, shape, &selfAddr, ACL_FLOAT, &self));
    CHECK_ACL(CreateAclTensor(gradOutputs, shape, &gradOutputAddr, ACL_FLOAT, &gradOutput));
    CHECK_ACL(CreateAclTensor(std::vector<float>(kElements, 0.0f), shape, &gradientAddr, ACL_FLOAT, &gradient));
    aclScalar* beta = aclCreateScalar(const_cast<float*>(&kBeta), ACL_FLOAT);
    aclScalar* threshold = aclCreateScalar(const_cast<float*>(&kThreshold), ACL_FLOAT);

    // Backward on the rank's shard, then the all-reduce of its gradient in
    // place: both on one stream, so the collective reads the finished
    // gradient without any host synchronisation in between.
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    CHECK_ACL(aclnnSoftplusBackwardGetWorkspaceSize(gradOutput, self, beta, threshold, gradient, &workspaceSize,
                                                    &executor));
    void* workspaceAddr = nullptr;
    CHECK_ACL(LaunchAclnn(aclnnSoftplusBackward, workspaceSize, executor, stream, &workspaceAddr));
    CHECK_HCCL(HcclAllReduce(gradientAddr, gradientAddr, kElements, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm,
                             stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));

    std::vector<float> summed;
    CHECK_ACL(CopyToHost(gradientAddr, kElements, &summed));
    for (int64_t i = 0; i < kElements; ++i) {
        if (!IsClose(summed[i], expected_gradient_sum(i), 1e-5)) {
            if (*mismatches == 0) {
                LOG_PRINT("rank %u: gradient[%lld] is %f, expected %f\n", rank, static_cast<long long>(i), summed[i],
                          expected_gradient_sum(i));
            }
            ++*mismatches;
        }
    }

    aclDestroyTensor(self);
    aclDestroyTensor(gradOutput);
    aclDestroyTensor(gradient);
    aclDestroyScalar(beta);
    aclDestroyScalar(threshold);
    aclrtFree(selfAddr);
    aclrtFree(gradOutputAddr);
    aclrtFree(gradientAddr);
    if (workspaceAddr != nullptr) aclrtFree(workspaceAddr);
    CHECK_HCCL(HcclCommDestroy(comm));
    CHECK_ACL(aclrtDestroyStream(stream));
    return 0;
}

}  // namespace

int main() {
    CHECK_ACL(aclInit(nullptr));
    uint32_t devices = 0;
    CHECK_ACL(aclrtGetDeviceCount(&devices));
    if (devices < kRanks) {
        LOG_PRINT("allreduce_data_parallel needs %u devices (ACLCPU_DEVICE_COUNT), found %u\n", kRanks, devices);
        return 1;
    }
    HcclRootInfo rootInfo;
    CHECK_HCCL(HcclGetRootInfo(&rootInfo));

    std::vector<int> failures(kRanks, 0), mismatches(kRanks, 0);
    std::vector<std::thread> ranks;
    for (uint32_t rank = 0; rank < kRanks; ++rank) {
        ranks.emplace_back([&, rank] { failures[rank] = run_rank(rank, &rootInfo, &mismatches[rank]); });
    }
    int wrong = 0;
    for (uint32_t rank = 0; rank < kRanks; ++rank) {
        ranks[rank].join();
        wrong += failures[rank] + mismatches[rank];
    }
    aclFinalize();
    LOG_PRINT("allreduce_data_parallel: %u ranks, summed gradients %s\n", kRanks, wrong == 0 ? "correct" : "WRONG");
    return wrong == 0 ? 0 : 1;
}
