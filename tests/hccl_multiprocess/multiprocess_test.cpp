// HCCL with its ranks in separate processes, on loopback: each test forks
// one process per rank (from a parent that never touches AscendCL, so the
// forks copy no threads); rank 0's process makes the root info and passes
// it to the others through pipes, as a launcher would (CANN's examples use
// MPI_Bcast).  Each rank checks its own results against references it
// computes itself, and reports through its exit status.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"

namespace {

/// A rank that has not exited after this long is a hang: the test kills it.
constexpr std::chrono::seconds kHangLimit{60};

/// Exit statuses of a rank's process.
constexpr int kPassed = 0;
constexpr int kFailed = 1;

/// What one rank's process runs once its communicator exists; returns
/// whether everything it checked held (it prints what did not).
using RankBody = std::function<bool(uint32_t rank, uint32_t ranks, HcclComm comm, aclrtStream stream)>;

bool read_all(int fd, void* data, size_t bytes) {
    auto* out = static_cast<char*>(data);
    while (bytes > 0) {
        const ssize_t n = read(fd, out, bytes);
        if (n <= 0) return false;
        out += n;
        bytes -= static_cast<size_t>(n);
    }
    return true;
}

/// The body of rank `rank`'s process: set up, get the root info (rank 0
/// makes it and writes it to every other rank's pipe), join, run, tear down.
int rank_process(uint32_t rank, uint32_t ranks, const std::vector<std::vector<int>>& pipes, const RankBody& body) {
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return kFailed;
    HcclRootInfo root{};
    if (rank == 0) {
        if (HcclGetRootInfo(&root) != HCCL_SUCCESS) return kFailed;
        for (uint32_t r = 1; r < ranks; ++r) {
            if (write(pipes[r][1], &root, sizeof root) != static_cast<ssize_t>(sizeof root)) return kFailed;
        }
    } else if (!read_all(pipes[rank][0], &root, sizeof root)) {
        return kFailed;
    }
    HcclComm comm = nullptr;
    if (const HcclResult joined = HcclCommInitRootInfo(ranks, &root, rank, &comm); joined != HCCL_SUCCESS) {
        std::fprintf(stderr, "rank %u: HcclCommInitRootInfo: %d: %s\n", rank, joined, aclGetRecentErrMsg());
        return kFailed;
    }
    aclrtStream stream = nullptr;
    if (aclrtCreateStream(&stream) != ACL_SUCCESS) return kFailed;
    const bool passed = body(rank, ranks, comm, stream);
    aclrtDestroyStream(stream);
    HcclCommDestroy(comm);
    aclrtResetDevice(0);
    aclFinalize();
    return passed ? kPassed : kFailed;
}

/// Runs body in `ranks` processes with environment `env` (name=value)
/// added; expects every one to pass.
void run_processes(uint32_t ranks, const RankBody& body, const std::vector<std::string>& env = {}) {
    std::vector<std::vector<int>> pipes(ranks, std::vector<int>(2, -1));
    for (auto& fds : pipes) ASSERT_EQ(0, pipe(fds.data()));
    std::vector<pid_t> children;
    for (uint32_t r = 0; r < ranks; ++r) {
        const pid_t child = fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            for (const std::string& setting : env) putenv(const_cast<char*>(setting.c_str()));
            _exit(rank_process(r, ranks, pipes, body));
        }
        children.push_back(child);
    }
    for (auto& fds : pipes) close(fds[0]), close(fds[1]);
    const auto deadline = std::chrono::steady_clock::now() + kHangLimit;
    for (uint32_t r = 0; r < ranks; ++r) {
        int status = 0;
        pid_t done = 0;
        while ((done = waitpid(children[r], &status, WNOHANG)) == 0 && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        if (done == 0) {
            ADD_FAILURE() << "rank " << r << " hung: killed after " << kHangLimit.count() << " s";
            kill(children[r], SIGKILL);
            waitpid(children[r], &status, 0);
            continue;
        }
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == kPassed)
            << "rank " << r << " failed (status " << status << ")";
    }
}

#define RANK_CHECK(condition, ...)                                                        \
    do {                                                                                  \
        if (!(condition)) {                                                               \
            std::fprintf(stderr, "rank %u: %s failed: ", rank, #condition);               \
            std::fprintf(stderr, __VA_ARGS__);                                            \
            std::fprintf(stderr, "\n");                                                   \
            return false;                                                                 \
        }                                                                                 \
    } while (0)

/// A device buffer holding `host`, or the result of the device's bytes.
template <typename T>
void* to_device(const std::vector<T>& host) {
    void* device = nullptr;
    const size_t bytes = std::max<size_t>(1, host.size() * sizeof(T));
    if (aclrtMalloc(&device, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return nullptr;
    if (!host.empty()) aclrtMemcpy(device, bytes, host.data(), host.size() * sizeof(T), ACL_MEMCPY_HOST_TO_DEVICE);
    return device;
}

template <typename T>
std::vector<T> to_host(const void* device, size_t count) {
    std::vector<T> host(count);
    if (count != 0) aclrtMemcpy(host.data(), count * sizeof(T), device, count * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST);
    return host;
}

/// Rank r's input element i: small integers, exact in every type used.
double input_of(uint32_t r, uint64_t i) { return static_cast<double>((r + 1) * (i % 7)) - 3.0; }

// AllReduce of fp32 over 4 processes, with counts that do not divide by the
// rank count: every rank gets the sum, computed here in double.
TEST(MultiProcess, AllReduceSumsOverFourProcesses) {
    run_processes(4, [](uint32_t rank, uint32_t ranks, HcclComm comm, aclrtStream stream) {
        for (const uint64_t count : {uint64_t{1}, uint64_t{1003}, uint64_t{1} << 18}) {
            std::vector<float> mine(count);
            for (uint64_t i = 0; i < count; ++i) mine[i] = static_cast<float>(input_of(rank, i));
            void* send = to_device(mine);
            void* recv = to_device(std::vector<float>(count));
            RANK_CHECK(HcclAllReduce(send, recv, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream) ==
                           HCCL_SUCCESS, "%s", aclGetRecentErrMsg());
            RANK_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "%s", aclGetRecentErrMsg());
            const std::vector<float> got = to_host<float>(recv, count);
            for (uint64_t i = 0; i < count; ++i) {
                double expected = 0;
                for (uint32_t r = 0; r < ranks; ++r) expected += input_of(r, i);
                RANK_CHECK(got[i] == static_cast<float>(expected), "count %llu element %llu: %g, expected %g",
                           static_cast<unsigned long long>(count), static_cast<unsigned long long>(i), got[i],
                           expected);
            }
            aclrtFree(send);
            aclrtFree(recv);
        }
        return true;
    });
}

/// Sum over ranks of input_of(r, i).
double sum_of(uint32_t ranks, uint64_t i) {
    double sum = 0;
    for (uint32_t r = 0; r < ranks; ++r) sum += input_of(r, i);
    return sum;
}

/// Runs one collective on the stream and returns its output (count
/// floats) once the stream is through.
template <typename Call>
std::vector<float> run_collective(const std::vector<float>& input, size_t outputCount, aclrtStream stream,
                                  Call call) {
    void* send = to_device(input);
    void* recv = to_device(std::vector<float>(outputCount));
    std::vector<float> out;
    if (call(send, recv) == HCCL_SUCCESS && aclrtSynchronizeStream(stream) == ACL_SUCCESS) {
        out = to_host<float>(recv, outputCount);
    }
    aclrtFree(send);
    aclrtFree(recv);
    return out;
}

// Every collective over three processes (slices of uneven length), each
// against what CANN documents it computes.
TEST(MultiProcess, EveryCollectiveOverThreeProcesses) {
    run_processes(3, [](uint32_t rank, uint32_t ranks, HcclComm comm, aclrtStream stream) {
        constexpr uint64_t n = 1001;
        std::vector<float> mine(n), mineTimesRanks(n * ranks);
        for (uint64_t i = 0; i < n; ++i) mine[i] = static_cast<float>(input_of(rank, i));
        for (uint64_t i = 0; i < n * ranks; ++i) mineTimesRanks[i] = static_cast<float>(input_of(rank, i));
        constexpr auto fp32 = HCCL_DATA_TYPE_FP32;
        const uint32_t root = 1;

        auto got = run_collective(mine, n, stream, [&](void* s, void* r) {
            return HcclReduce(s, r, n, fp32, HCCL_REDUCE_MAX, root, comm, stream);
        });
        RANK_CHECK(got.size() == n, "HcclReduce failed: %s", aclGetRecentErrMsg());
        if (rank == root) {
            for (uint64_t i = 0; i < n; ++i) {
                double expected = input_of(0, i);
                for (uint32_t r = 1; r < ranks; ++r) expected = std::max(expected, input_of(r, i));
                RANK_CHECK(got[i] == static_cast<float>(expected), "HcclReduce element %llu", (unsigned long long)i);
            }
        }

        got = run_collective(mineTimesRanks, n, stream, [&](void* s, void* r) {
            return HcclReduceScatter(s, r, n, fp32, HCCL_REDUCE_SUM, comm, stream);
        });
        RANK_CHECK(got.size() == n, "HcclReduceScatter failed: %s", aclGetRecentErrMsg());
        for (uint64_t i = 0; i < n; ++i) {
            RANK_CHECK(got[i] == static_cast<float>(sum_of(ranks, rank * n + i)), "HcclReduceScatter element %llu",
                       (unsigned long long)i);
        }

        got = run_collective(mine, n * ranks, stream, [&](void* s, void* r) {
            return HcclAllGather(s, r, n, fp32, comm, stream);
        });
        RANK_CHECK(got.size() == n * ranks, "HcclAllGather failed: %s", aclGetRecentErrMsg());
        for (uint64_t i = 0; i < n * ranks; ++i) {
            RANK_CHECK(got[i] == static_cast<float>(input_of(static_cast<uint32_t>(i / n), i % n)),
                       "HcclAllGather element %llu", (unsigned long long)i);
        }

        {
            void* buffer = to_device(mine);
            RANK_CHECK(HcclBroadcast(buffer, n, fp32, root, comm, stream) == HCCL_SUCCESS, "%s", aclGetRecentErrMsg());
            RANK_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "%s", aclGetRecentErrMsg());
            const std::vector<float> broadcast = to_host<float>(buffer, n);
            aclrtFree(buffer);
            for (uint64_t i = 0; i < n; ++i) {
                RANK_CHECK(broadcast[i] == static_cast<float>(input_of(root, i)), "HcclBroadcast element %llu",
                           (unsigned long long)i);
            }
        }

        got = run_collective(mineTimesRanks, n, stream, [&](void* s, void* r) {
            return HcclScatter(s, r, n, fp32, root, comm, stream);
        });
        RANK_CHECK(got.size() == n, "HcclScatter failed: %s", aclGetRecentErrMsg());
        for (uint64_t i = 0; i < n; ++i) {
            RANK_CHECK(got[i] == static_cast<float>(input_of(root, rank * n + i)), "HcclScatter element %llu",
                       (unsigned long long)i);
        }

        got = run_collective(mineTimesRanks, n * ranks, stream, [&](void* s, void* r) {
            return HcclAlltoAll(s, n, fp32, r, n, fp32, comm, stream);
        });
        RANK_CHECK(got.size() == n * ranks, "HcclAlltoAll failed: %s", aclGetRecentErrMsg());
        for (uint64_t i = 0; i < n * ranks; ++i) {
            const uint32_t from = static_cast<uint32_t>(i / n);
            RANK_CHECK(got[i] == static_cast<float>(input_of(from, rank * n + i % n)), "HcclAlltoAll element %llu",
                       (unsigned long long)i);
        }

        // AlltoAllV: rank i sends j + 1 elements to rank j, from its element 10 * j on.
        std::vector<uint64_t> sendCounts(ranks), sdispls(ranks), recvCounts(ranks), rdispls(ranks);
        for (uint32_t j = 0; j < ranks; ++j) {
            sendCounts[j] = j + 1, sdispls[j] = 10 * j, recvCounts[j] = rank + 1, rdispls[j] = j * (rank + 1);
        }
        got = run_collective(mineTimesRanks, ranks * (rank + 1), stream, [&](void* s, void* r) {
            return HcclAlltoAllV(s, sendCounts.data(), sdispls.data(), fp32, r, recvCounts.data(), rdispls.data(),
                                 fp32, comm, stream);
        });
        RANK_CHECK(got.size() == ranks * (rank + 1), "HcclAlltoAllV failed: %s", aclGetRecentErrMsg());
        for (uint32_t from = 0; from < ranks; ++from) {
            for (uint32_t k = 0; k <= rank; ++k) {
                RANK_CHECK(got[from * (rank + 1) + k] == static_cast<float>(input_of(from, 10 * rank + k)),
                           "HcclAlltoAllV from %u element %u", from, k);
            }
        }

        // ReduceScatterV: rank j reduces j + 2 elements, which input i holds
        // from its element 20 * (ranks - 1 - j) + i on.
        std::vector<uint64_t> partCounts(ranks), partDispls(ranks);
        for (uint32_t j = 0; j < ranks; ++j) partCounts[j] = j + 2, partDispls[j] = 20 * (ranks - 1 - j) + rank;
        got = run_collective(mineTimesRanks, rank + 2, stream, [&](void* s, void* r) {
            return HcclReduceScatterV(s, partCounts.data(), partDispls.data(), r, rank + 2, fp32, HCCL_REDUCE_SUM,
                                      comm, stream);
        });
        RANK_CHECK(got.size() == rank + 2, "HcclReduceScatterV failed: %s", aclGetRecentErrMsg());
        for (uint32_t k = 0; k < rank + 2; ++k) {
            double expected = 0;
            for (uint32_t i = 0; i < ranks; ++i) expected += input_of(i, 20 * (ranks - 1 - rank) + i + k);
            RANK_CHECK(got[k] == static_cast<float>(expected), "HcclReduceScatterV element %u", k);
        }

        // AllGatherV: rank i sends its first i + 1 elements, which rank r
        // places from its element 5 * i + r on.
        std::vector<uint64_t> gatherCounts(ranks), gatherDispls(ranks);
        for (uint32_t i = 0; i < ranks; ++i) gatherCounts[i] = i + 1, gatherDispls[i] = 5 * i + rank;
        got = run_collective(mine, 5 * ranks + rank, stream, [&](void* s, void* r) {
            return HcclAllGatherV(s, rank + 1, r, gatherCounts.data(), gatherDispls.data(), fp32, comm, stream);
        });
        RANK_CHECK(got.size() == 5 * ranks + rank, "HcclAllGatherV failed: %s", aclGetRecentErrMsg());
        for (uint32_t from = 0; from < ranks; ++from) {
            for (uint32_t k = 0; k <= from; ++k) {
                RANK_CHECK(got[5 * from + rank + k] == static_cast<float>(input_of(from, k)),
                           "HcclAllGatherV from %u element %u", from, k);
            }
        }

        // A ring of sends and receives, then a barrier.
        const uint32_t next = (rank + 1) % ranks, previous = (rank + ranks - 1) % ranks;
        void* out = to_device(mine);
        void* in = to_device(std::vector<float>(n));
        HcclSendRecvItem items[2] = {{HCCL_SEND, out, n, fp32, next}, {HCCL_RECV, in, n, fp32, previous}};
        RANK_CHECK(HcclBatchSendRecv(items, 2, comm, stream) == HCCL_SUCCESS, "%s", aclGetRecentErrMsg());
        RANK_CHECK(HcclBarrier(comm, stream) == HCCL_SUCCESS, "%s", aclGetRecentErrMsg());
        RANK_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "%s", aclGetRecentErrMsg());
        const std::vector<float> received = to_host<float>(in, n);
        aclrtFree(out);
        aclrtFree(in);
        for (uint64_t i = 0; i < n; ++i) {
            RANK_CHECK(received[i] == static_cast<float>(input_of(previous, i)), "ring element %llu",
                       (unsigned long long)i);
        }
        return true;
    });
}

// fp16 is reduced in fp32 and rounded once, as in one process: 0.1 summed
// over four ranks rounds once from fp32 (0x3666 in fp16), never step by step.
TEST(MultiProcess, HalfPrecisionIsReducedInFloatAndRoundedOnce) {
    run_processes(4, [](uint32_t rank, uint32_t, HcclComm comm, aclrtStream stream) {
        const std::vector<uint16_t> tenth(64, 0x2e66);  // fp16 nearest to 0.1
        void* send = to_device(tenth);
        void* recv = to_device(std::vector<uint16_t>(64));
        RANK_CHECK(HcclAllReduce(send, recv, 64, HCCL_DATA_TYPE_FP16, HCCL_REDUCE_SUM, comm, stream) == HCCL_SUCCESS,
                   "%s", aclGetRecentErrMsg());
        RANK_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "%s", aclGetRecentErrMsg());
        const std::vector<uint16_t> got = to_host<uint16_t>(recv, 64);
        aclrtFree(send);
        aclrtFree(recv);
        // 4 x 0.0999755859375 = 0.39990234375, whose nearest fp16 is 0x3666.
        for (uint16_t bits : got) RANK_CHECK(bits == 0x3666, "got 0x%04x", bits);
        return true;
    });
}

// Ranks that disagree on a collective all fail it with HCCL_E_PARA (the
// stream: ACL_ERROR_RT_PARAM_INVALID) instead of misreading each other's
// bytes, and the communicator still works after.
TEST(MultiProcess, MismatchedCountsFailEveryRankAndTheCommunicatorGoesOn) {
    run_processes(3, [](uint32_t rank, uint32_t ranks, HcclComm comm, aclrtStream stream) {
        const std::vector<float> ones(16, 1.0f);
        void* send = to_device(ones);
        void* recv = to_device(std::vector<float>(16));
        const uint64_t count = rank == 2 ? 8 : 16;
        RANK_CHECK(HcclAllReduce(send, recv, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream) ==
                       HCCL_SUCCESS, "%s", aclGetRecentErrMsg());
        const aclError synced = aclrtSynchronizeStream(stream);
        RANK_CHECK(synced == ACL_ERROR_RT_PARAM_INVALID, "the stream returned %d", synced);
        const std::string message = aclGetRecentErrMsg();
        RANK_CHECK(message.find("disagree") != std::string::npos, "message: %s", message.c_str());
        HcclResult asyncError = HCCL_SUCCESS;
        RANK_CHECK(HcclGetCommAsyncError(comm, &asyncError) == HCCL_SUCCESS && asyncError == HCCL_E_PARA,
                   "async error %d", asyncError);
        RANK_CHECK(HcclAllReduce(send, recv, 16, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream) == HCCL_SUCCESS,
                   "%s", aclGetRecentErrMsg());
        RANK_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "%s", aclGetRecentErrMsg());
        const std::vector<float> got = to_host<float>(recv, 16);
        for (float value : got) RANK_CHECK(value == static_cast<float>(ranks), "got %g", value);
        aclrtFree(send);
        aclrtFree(recv);
        return true;
    });
}

// The V collectives' counts agree pairwise: when two ranks disagree on
// what goes between them, the third (which agrees with both) fails the call
// too -- no rank moves data the others will not receive -- and the
// communicator goes on to the next call.
TEST(MultiProcess, AVCollectiveDisagreementBetweenTwoRanksFailsEveryRank) {
    run_processes(
        3,
        [](uint32_t rank, uint32_t ranks, HcclComm comm, aclrtStream stream) {
            std::vector<uint64_t> counts(ranks, 4), displs(ranks);
            for (uint32_t j = 0; j < ranks; ++j) displs[j] = 4 * j;
            void* send = to_device(std::vector<float>(4 * ranks, 1.0f));
            void* recv = to_device(std::vector<float>(4 * ranks));
            const auto fails_everywhere = [&](HcclResult submitted) {
                if (submitted != HCCL_SUCCESS) return false;
                HcclResult asyncError = HCCL_SUCCESS;
                return aclrtSynchronizeStream(stream) == ACL_ERROR_RT_PARAM_INVALID &&
                       HcclGetCommAsyncError(comm, &asyncError) == HCCL_SUCCESS && asyncError == HCCL_E_PARA;
            };
            std::vector<uint64_t> recvCounts = counts;
            if (rank == 2) recvCounts[1] = 3;  // Rank 1 sends it 4.
            RANK_CHECK(fails_everywhere(HcclAlltoAllV(send, counts.data(), displs.data(), HCCL_DATA_TYPE_FP32, recv,
                                                      recvCounts.data(), displs.data(), HCCL_DATA_TYPE_FP32, comm,
                                                      stream)),
                       "HcclAlltoAllV: %s", aclGetRecentErrMsg());
            std::vector<uint64_t> sendCounts = counts;
            if (rank == 0) sendCounts[2] = 3;  // Rank 2 reduces 4.
            RANK_CHECK(fails_everywhere(HcclReduceScatterV(send, sendCounts.data(), displs.data(), recv, 4,
                                                           HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream)),
                       "HcclReduceScatterV: %s", aclGetRecentErrMsg());
            RANK_CHECK(fails_everywhere(HcclAllGatherV(send, 4, recv, recvCounts.data(), displs.data(),
                                                       HCCL_DATA_TYPE_FP32, comm, stream)),
                       "HcclAllGatherV: %s", aclGetRecentErrMsg());
            aclrtFree(send);
            aclrtFree(recv);
            return true;
        },
        {"HCCL_EXEC_TIMEOUT=5"});
}

// A process of the job dies (before its collective): the others' streams
// fail with a code -- the connection's loss (HCCL_E_REMOTE) or, at the
// latest, the execution timeout (HCCL_E_TIMEOUT) -- and nothing hangs.
TEST(MultiProcess, ADyingProcessFailsTheOthersWithinTheTimeout) {
    run_processes(
        4,
        [](uint32_t rank, uint32_t, HcclComm comm, aclrtStream stream) {
            // Every rank joined and met once; then rank 3 dies with its
            // communicator and stream live.
            RANK_CHECK(HcclBarrier(comm, stream) == HCCL_SUCCESS && aclrtSynchronizeStream(stream) == ACL_SUCCESS,
                       "%s", aclGetRecentErrMsg());
            if (rank == 3) _exit(kPassed);
            const std::vector<float> ones(1024, 1.0f);
            void* send = to_device(ones);
            void* recv = to_device(std::vector<float>(1024));
            const auto start = std::chrono::steady_clock::now();
            RANK_CHECK(HcclAllReduce(send, recv, 1024, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream) ==
                           HCCL_SUCCESS, "%s", aclGetRecentErrMsg());
            const aclError synced = aclrtSynchronizeStream(stream);
            const auto waited = std::chrono::steady_clock::now() - start;
            RANK_CHECK(synced == ACL_ERROR_RT_SUSPECT_REMOTE_ERROR || synced == ACL_ERROR_RT_TASK_TIMEOUT,
                       "the stream returned %d", synced);
            HcclResult asyncError = HCCL_SUCCESS;
            HcclGetCommAsyncError(comm, &asyncError);
            RANK_CHECK(asyncError == HCCL_E_REMOTE || asyncError == HCCL_E_TIMEOUT, "async error %d", asyncError);
            RANK_CHECK(waited < std::chrono::seconds(20), "failed only after %lld ms",
                       static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(waited).count()));
            aclrtFree(send);
            aclrtFree(recv);
            return true;
        },
        {"HCCL_EXEC_TIMEOUT=10", "HCCL_CONNECT_TIMEOUT=20"});
}

// A captured collective replays over the network: each replay all-reduces
// again (CANN's graph mode), in order with the stream's other work.
TEST(MultiProcess, ACapturedAllReduceRunsAtEveryReplay) {
    run_processes(2, [](uint32_t rank, uint32_t, HcclComm comm, aclrtStream stream) {
        void* buffer = to_device(std::vector<float>(256, rank == 0 ? 1.0f : 2.0f));
        RANK_CHECK(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == ACL_SUCCESS, "capture");
        RANK_CHECK(HcclAllReduce(buffer, buffer, 256, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream) ==
                       HCCL_SUCCESS, "%s", aclGetRecentErrMsg());
        aclmdlRI model = nullptr;
        RANK_CHECK(aclmdlRICaptureEnd(stream, &model) == ACL_SUCCESS, "%s", aclGetRecentErrMsg());
        for (int replay = 0; replay < 3; ++replay) {
            RANK_CHECK(aclmdlRIExecuteAsync(model, stream) == ACL_SUCCESS, "%s", aclGetRecentErrMsg());
        }
        RANK_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "%s", aclGetRecentErrMsg());
        // 1 + 2 = 3, then 3 + 3 = 6, then 12: every replay summed both ranks.
        for (float value : to_host<float>(buffer, 256)) RANK_CHECK(value == 12.0f, "got %g", value);
        aclmdlRIDestroy(model);
        aclrtFree(buffer);
        return true;
    });
}

// Ranks as threads and as processes in one communicator: the root's process
// runs ranks 0 and 1 as threads, another process ranks 2 and 3.  As soon as
// a rank of another process registers, every rank joins over the network.
TEST(MultiProcess, ThreadsAndProcessesInOneCommunicator) {
    int pipeFds[2];
    ASSERT_EQ(0, pipe(pipeFds));
    const auto run_two_ranks = [&](uint32_t first) {
        if (aclInit(nullptr) != ACL_SUCCESS) return kFailed;
        HcclRootInfo root{};
        if (first == 0) {
            if (HcclGetRootInfo(&root) != HCCL_SUCCESS) return kFailed;
            if (write(pipeFds[1], &root, sizeof root) != static_cast<ssize_t>(sizeof root)) return kFailed;
        } else if (!read_all(pipeFds[0], &root, sizeof root)) {
            return kFailed;
        }
        int failures = 0;
        std::vector<std::thread> threads;
        for (uint32_t rank = first; rank < first + 2; ++rank) {
            threads.emplace_back([&, rank] {
                aclrtSetDevice(static_cast<int32_t>(rank));
                HcclComm comm = nullptr;
                aclrtStream stream = nullptr;
                void* buffer = to_device(std::vector<float>(100, static_cast<float>(rank)));
                const bool passed = HcclCommInitRootInfo(4, &root, rank, &comm) == HCCL_SUCCESS &&
                                    aclrtCreateStream(&stream) == ACL_SUCCESS &&
                                    HcclAllReduce(buffer, buffer, 100, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm,
                                                  stream) == HCCL_SUCCESS &&
                                    aclrtSynchronizeStream(stream) == ACL_SUCCESS &&
                                    to_host<float>(buffer, 100) == std::vector<float>(100, 6.0f);
                if (!passed) std::fprintf(stderr, "rank %u: %s\n", rank, aclGetRecentErrMsg());
                failures += passed ? 0 : 1;
                aclrtFree(buffer);
                if (stream != nullptr) aclrtDestroyStream(stream);
                if (comm != nullptr) HcclCommDestroy(comm);
                aclrtResetDevice(static_cast<int32_t>(rank));
            });
        }
        for (std::thread& thread : threads) thread.join();
        aclFinalize();
        return failures == 0 ? kPassed : kFailed;
    };
    std::vector<pid_t> children;
    for (uint32_t first : {0u, 2u}) {
        const pid_t child = fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            setenv("ACLCPU_DEVICE_COUNT", "4", 1);
            setenv("HCCL_CONNECT_TIMEOUT", "20", 1);
            setenv("HCCL_EXEC_TIMEOUT", "20", 1);
            _exit(run_two_ranks(first));
        }
        children.push_back(child);
    }
    close(pipeFds[0]);
    close(pipeFds[1]);
    for (pid_t child : children) {
        int status = 0;
        waitpid(child, &status, 0);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == kPassed) << "status " << status;
    }
}

// A rank whose peers never call: HCCL_E_TIMEOUT after the execution timeout.
TEST(MultiProcess, ACollectiveNoPeerJoinsTimesOut) {
    run_processes(
        2,
        [](uint32_t rank, uint32_t, HcclComm comm, aclrtStream stream) {
            if (rank == 1) {
                std::this_thread::sleep_for(std::chrono::seconds(4));  // Outlives rank 0's timeout.
                return true;
            }
            void* buffer = to_device(std::vector<float>(4));
            RANK_CHECK(HcclAllReduce(buffer, buffer, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream) ==
                           HCCL_SUCCESS, "%s", aclGetRecentErrMsg());
            const aclError synced = aclrtSynchronizeStream(stream);
            RANK_CHECK(synced == ACL_ERROR_RT_TASK_TIMEOUT, "the stream returned %d", synced);
            HcclResult asyncError = HCCL_SUCCESS;
            HcclGetCommAsyncError(comm, &asyncError);
            RANK_CHECK(asyncError == HCCL_E_TIMEOUT, "async error %d", asyncError);
            aclrtFree(buffer);
            return true;
        },
        {"HCCL_EXEC_TIMEOUT=1"});
}

}  // namespace
