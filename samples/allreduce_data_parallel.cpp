// A data-parallel training step on four devices: each rank computes the
// gradient of its own shard with aclnnSoftplusBackward, then HcclAllReduce
// sums the ranks' gradients on the same stream, ordered after the operator,
// and every rank checks that it holds the sum of all shards' gradients.
// Exits non-zero when a rank's result differs from the expected one.
//
// The same step runs in either of HCCL's layouts:
//   allreduce_data_parallel                 one process, a host thread per
//                                           rank (as CANN's HCCL examples);
//   allreduce_data_parallel --processes 4   four processes, one rank each
//                                           (this program forks them);
//   RANK_ID=r RANK_SIZE=4 ROOT_INFO_FILE=f allreduce_data_parallel
//                                           this process is rank r, as a
//                                           launcher starts it on any host:
//                                           rank 0 writes the root info to f
//                                           (a path no earlier run left), the
//                                           others read it from there;
//   mpirun -np 4 -x ROOT_INFO_FILE=f allreduce_data_parallel
//                                           the same, the rank and size from
//                                           the MPI launcher (Open MPI's
//                                           OMPI_COMM_WORLD_*, MPICH's PMI_*).
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <string>
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

/// Publishes the root info at path, whole or not at all (written aside,
/// then renamed), for the ranks of other processes.
int publish_root_info(const HcclRootInfo& rootInfo, const std::string& path) {
    const std::string written = path + ".part";
    std::ofstream(written, std::ios::binary).write(reinterpret_cast<const char*>(&rootInfo), sizeof rootInfo);
    if (std::rename(written.c_str(), path.c_str()) != 0) {
        LOG_PRINT("cannot publish the root info at %s\n", path.c_str());
        return 1;
    }
    return 0;
}

/// Reads the root info rank 0 publishes at path, waiting up to a minute.
int read_root_info(const std::string& path, HcclRootInfo* rootInfo) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    while (std::chrono::steady_clock::now() < deadline) {
        std::ifstream file(path, std::ios::binary);
        if (file.read(reinterpret_cast<char*>(rootInfo), sizeof *rootInfo)) return 0;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    LOG_PRINT("no root info appeared at %s within a minute\n", path.c_str());
    return 1;
}

int report(int wrong, const char* layout) {
    LOG_PRINT("allreduce_data_parallel: %u ranks (%s), summed gradients %s\n", kRanks, layout,
              wrong == 0 ? "correct" : "WRONG");
    return wrong == 0 ? 0 : 1;
}

/// Every rank in this process, one host thread each.
int run_threads() {
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
    return report(wrong, "threads of one process");
}

/// This process is rank `rank`; the root info passes through rootInfoPath.
int run_process(uint32_t rank, const std::string& rootInfoPath) {
    CHECK_ACL(aclInit(nullptr));
    HcclRootInfo rootInfo;
    if (rank == 0) {
        CHECK_HCCL(HcclGetRootInfo(&rootInfo));
        if (publish_root_info(rootInfo, rootInfoPath) != 0) return 1;
    } else if (read_root_info(rootInfoPath, &rootInfo) != 0) {
        return 1;
    }
    int mismatches = 0;
    const int failed = run_rank(rank, &rootInfo, &mismatches);
    // Every rank has joined, so has read the file: the next run may use the path.
    if (rank == 0) std::remove(rootInfoPath.c_str());
    aclFinalize();
    LOG_PRINT("allreduce_data_parallel: rank %u of %u, summed gradients %s\n", rank, kRanks,
              failed + mismatches == 0 ? "correct" : "WRONG");
    return failed + mismatches == 0 ? 0 : 1;
}

/// Forks one process per rank (before any AscendCL call: the children
/// inherit no threads) and waits for them.
int run_processes() {
    char directory[] = "/tmp/allreduce_data_parallel.XXXXXX";
    if (mkdtemp(directory) == nullptr) return 1;
    const std::string rootInfoPath = std::string(directory) + "/root_info";
    std::vector<pid_t> children;
    for (uint32_t rank = 0; rank < kRanks; ++rank) {
        const pid_t child = fork();
        if (child == 0) _exit(run_process(rank, rootInfoPath));
        if (child > 0) children.push_back(child);
    }
    int wrong = children.size() == kRanks ? 0 : 1;
    for (const pid_t child : children) {
        int status = 0;
        waitpid(child, &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++wrong;
    }
    std::remove(rootInfoPath.c_str());
    rmdir(directory);
    return report(wrong, "one process each");
}

}  // namespace

/// The first of `names` set in the environment (nullptr: none is).
const char* first_variable(std::initializer_list<const char*> names) {
    for (const char* name : names) {
        if (const char* value = std::getenv(name)) return value;
    }
    return nullptr;
}

int main(int argc, char** argv) {
    if (argc == 3 && std::strcmp(argv[1], "--processes") == 0) {
        if (std::strtoul(argv[2], nullptr, 10) != kRanks) {
            LOG_PRINT("this step is written for %u ranks\n", kRanks);
            return 1;
        }
        return run_processes();
    }
    const char* rankId = first_variable({"RANK_ID", "OMPI_COMM_WORLD_RANK", "PMI_RANK"});
    if (rankId == nullptr) return run_threads();
    const char* rankSize = first_variable({"RANK_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE"});
    const char* rootInfoFile = std::getenv("ROOT_INFO_FILE");
    if (rankSize == nullptr || std::strtoul(rankSize, nullptr, 10) != kRanks || rootInfoFile == nullptr) {
        LOG_PRINT("a rank of its own process needs RANK_SIZE=%u and ROOT_INFO_FILE besides RANK_ID\n", kRanks);
        return 1;
    }
    const uint32_t rank = static_cast<uint32_t>(std::strtoul(rankId, nullptr, 10));
    if (rank >= kRanks) {
        LOG_PRINT("RANK_ID %u is not below RANK_SIZE %u\n", rank, kRanks);
        return 1;
    }
    return run_process(rank, rootInfoFile);
}
