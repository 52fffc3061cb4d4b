// Faults on the stream (the calls returned HCCL_SUCCESS): ranks whose calls
// do not match, a rank that never comes (execution timeout of 1 s), a rank
// that destroys its communicator while its peers wait.  Every rank's next
// synchronisation reports the failure, HcclGetCommAsyncError tells HCCL's
// code, and the stream goes on with the work after the failed collective.
#include <chrono>
#include <functional>
#include <memory>

#include "hccl/hccl_test_support.hpp"

namespace aclcpu::hccl_test {
namespace {

using Clock = std::chrono::steady_clock;

/// Generous bounds for "promptly": well below the suite's own timeouts
/// (kSuiteTimeoutSeconds), far above what a loaded CI machine needs.  Only
/// which of the two a failure took is asserted, never a speed.
constexpr double kPromptSeconds = 10.0;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

HcclResult async_error(HcclComm comm) {
    HcclResult code = HCCL_E_RESERVED;
    EXPECT_HCCL_OK(HcclGetCommAsyncError(comm, &code));
    return code;
}

/// Buffers every mismatch case may use: 64 floats of 1.0 to send, 64 to receive.
struct Buffers {
    DeviceMemory send{as_bytes(std::vector<float>(64, 1.0f))};
    DeviceMemory recv{64 * sizeof(float)};
};

struct Mismatch {
    const char* name;
    /// Enqueues the rank's (possibly deviating) call; false: this rank takes no part.
    std::function<bool(RankContext&, Buffers&)> call;
    /// Words the failure's message contains.
    std::vector<const char*> words;
};

const HcclDataType f32 = HCCL_DATA_TYPE_FP32;

std::vector<Mismatch> mismatches() {
    return {
        {"count",
         [](RankContext& r, Buffers& b) {
             EXPECT_HCCL_OK(HcclAllReduce(b.send.get(), b.recv.get(), r.rank == 2 ? 9 : 8, f32, HCCL_REDUCE_SUM,
                                          r.comm, r.stream));
             return true;
         },
         {"do not match", "count"}},
        {"data type",
         [](RankContext& r, Buffers& b) {
             EXPECT_HCCL_OK(HcclAllReduce(b.send.get(), b.recv.get(), 8, r.rank == 1 ? HCCL_DATA_TYPE_INT32 : f32,
                                          HCCL_REDUCE_SUM, r.comm, r.stream));
             return true;
         },
         {"do not match", "type"}},
        {"op",
         [](RankContext& r, Buffers& b) {
             EXPECT_HCCL_OK(HcclAllReduce(b.send.get(), b.recv.get(), 8, f32,
                                          r.rank == 2 ? HCCL_REDUCE_MAX : HCCL_REDUCE_SUM, r.comm, r.stream));
             return true;
         },
         {"do not match", "op"}},
        {"root",
         [](RankContext& r, Buffers& b) {
             EXPECT_HCCL_OK(HcclBroadcast(b.send.get(), 8, f32, r.rank == 2 ? 1 : 0, r.comm, r.stream));
             return true;
         },
         {"do not match", "root"}},
        {"kind",
         [](RankContext& r, Buffers& b) {
             if (r.rank == 1) {
                 EXPECT_HCCL_OK(HcclAllGather(b.send.get(), b.recv.get(), 8, f32, r.comm, r.stream));
             } else {
                 EXPECT_HCCL_OK(HcclAllReduce(b.send.get(), b.recv.get(), 8, f32, HCCL_REDUCE_SUM, r.comm, r.stream));
             }
             return true;
         },
         {"do not match", "HcclAllGather", "HcclAllReduce"}},
        {"all-to-all-v sizes",
         [](RankContext& r, Buffers& b) {
             // Rank 1 expects 3 elements from rank 0, which sends it 2.
             std::vector<uint64_t> counts(3, 2), displs = {0, 2, 4};
             std::vector<uint64_t> recvCounts = counts, rdispls = {0, 3, 6};
             if (r.rank == 1) recvCounts[0] = 3;
             EXPECT_HCCL_OK(HcclAlltoAllV(b.send.get(), counts.data(), displs.data(), f32, b.recv.get(),
                                          recvCounts.data(), rdispls.data(), f32, r.comm, r.stream));
             return true;
         },
         {"do not match"}},
        {"reduce-scatter-v sizes",
         [](RankContext& r, Buffers& b) {
             // Rank 2 reduces 2 elements, but rank 0 sends it 3.
             std::vector<uint64_t> counts(3, 2), displs = {0, 4, 8};
             if (r.rank == 0) counts[2] = 3;
             EXPECT_HCCL_OK(HcclReduceScatterV(b.send.get(), counts.data(), displs.data(), b.recv.get(), 2, f32,
                                               HCCL_REDUCE_SUM, r.comm, r.stream));
             return true;
         },
         {"do not match", "sends 3"}},
        {"all-gather-v sizes",
         [](RankContext& r, Buffers& b) {
             // Rank 1 expects 4 elements from rank 2, which sends 2.
             std::vector<uint64_t> counts(3, 2), displs = {0, 4, 8};
             if (r.rank == 1) counts[2] = 4;
             EXPECT_HCCL_OK(HcclAllGatherV(b.send.get(), 2, b.recv.get(), counts.data(), displs.data(), f32, r.comm,
                                           r.stream));
             return true;
         },
         {"do not match", "expects 4"}},
        {"all-to-all-vc matrix",
         [](RankContext& r, Buffers& b) {
             std::vector<uint64_t> matrix(9, 1);
             if (r.rank == 2) matrix[1] = 2;
             EXPECT_HCCL_OK(HcclAlltoAllVC(b.send.get(), matrix.data(), f32, b.recv.get(), f32, r.comm, r.stream));
             return true;
         },
         {"do not match", "matrix"}},
        {"transfer size",
         [](RankContext& r, Buffers& b) {
             if (r.rank == 0) {
                 EXPECT_HCCL_OK(HcclSend(b.send.get(), 8, f32, 1, r.comm, r.stream));
             }
             if (r.rank == 1) {
                 EXPECT_HCCL_OK(HcclRecv(b.recv.get(), 9, f32, 0, r.comm, r.stream));
             }
             return r.rank != 2;
         },
         {"do not match", "count"}},
    };
}

class Faults : public HcclTest {};

// Every mismatch fails every party's stream with 107000 and HCCL_E_PARA;
// the all-reduce enqueued after it still runs, and the stream then
// synchronises cleanly.
TEST_F(Faults, MismatchedCallsFailEveryPartysStream) {
    GroupOptions options;
    options.execTimeoutSeconds = 5;
    for (const Mismatch& mismatch : mismatches()) {
        SCOPED_TRACE(mismatch.name);
        with_group(
            3,
            [&](RankContext& rank) {
                Buffers buffers;
                DeviceMemory after(as_bytes(std::vector<float>(4, 1.0f + rank.rank)));
                const bool takesPart = mismatch.call(rank, buffers);
                ASSERT_HCCL_OK(HcclAllReduce(after.get(), after.get(), 4, f32, HCCL_REDUCE_SUM, rank.comm,
                                             rank.stream));
                take_error_message();
                const aclError synced = aclrtSynchronizeStream(rank.stream);
                const std::string message = take_error_message();
                if (takesPart) {
                    EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, synced) << "rank " << rank.rank << ": " << message;
                    EXPECT_TRUE(contains(message, mismatch.words)) << "rank " << rank.rank;
                    EXPECT_EQ(HCCL_E_PARA, async_error(rank.comm)) << "rank " << rank.rank;
                } else {
                    EXPECT_EQ(ACL_SUCCESS, synced) << "rank " << rank.rank << ": " << message;
                    EXPECT_EQ(HCCL_SUCCESS, async_error(rank.comm)) << "rank " << rank.rank;
                }
                EXPECT_EQ(std::vector<float>(4, 6.0f), after.values<float>())
                    << "the all-reduce after the failed call on rank " << rank.rank;
                EXPECT_ACL_OK(aclrtSynchronizeStream(rank.stream)) << "the error was reported once";
            },
            options);
    }
}

// Rank 2 never comes: ranks 0 and 1 fail with 107020 after the
// communicator's 1 s execution timeout, HCCL_E_TIMEOUT, and a message naming
// the missing rank.  When rank 2 comes late it fails at once; the next
// collective of all three then succeeds.
TEST_F(Faults, MissingRankTimesOut) {
    GroupOptions options;
    options.execTimeoutSeconds = 1;
    ThreadBarrier timedOut(3);
    with_group(
        3,
        [&](RankContext& rank) {
            DeviceMemory buffer(as_bytes(std::vector<float>(16, 1.0f)));
            if (rank.rank != 2) {
                const Clock::time_point start = Clock::now();
                ASSERT_HCCL_OK(HcclAllReduce(buffer.get(), buffer.get(), 16, f32, HCCL_REDUCE_SUM, rank.comm,
                                             rank.stream));
                take_error_message();
                EXPECT_EQ(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStream(rank.stream));
                const double waited = seconds_since(start);
                EXPECT_TRUE(contains(take_error_message(), {"timed out", "2"})) << "rank " << rank.rank;
                EXPECT_GE(waited, 0.9) << "rank " << rank.rank;
                EXPECT_LT(waited, kPromptSeconds) << "rank " << rank.rank;
                EXPECT_EQ(HCCL_E_TIMEOUT, async_error(rank.comm));
                EXPECT_EQ(std::vector<float>(16, 1.0f), buffer.values<float>()) << "a failed all-reduce wrote";
            }
            ASSERT_TRUE(timedOut.wait());
            if (rank.rank == 2) {
                EXPECT_EQ(HCCL_SUCCESS, async_error(rank.comm)) << "rank 2 took no part yet";
                ASSERT_HCCL_OK(HcclAllReduce(buffer.get(), buffer.get(), 16, f32, HCCL_REDUCE_SUM, rank.comm,
                                             rank.stream));
                EXPECT_EQ(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStream(rank.stream));
                // Failing at once, it names the rank the meeting waited for; timing
                // out itself, it would name ranks 0 and 1.
                EXPECT_TRUE(contains(take_error_message(), {"rank(s) 2"})) << "the late rank timed out itself";
                EXPECT_EQ(HCCL_E_TIMEOUT, async_error(rank.comm));
            }
            ASSERT_TRUE(timedOut.wait());
            ASSERT_HCCL_OK(HcclAllReduce(buffer.get(), buffer.get(), 16, f32, HCCL_REDUCE_SUM, rank.comm,
                                         rank.stream));
            EXPECT_ACL_OK(aclrtSynchronizeStream(rank.stream)) << "rank " << rank.rank;
            EXPECT_EQ(std::vector<float>(16, 3.0f), buffer.values<float>()) << "rank " << rank.rank;
        },
        options);
}

// A receive whose sender never sends times out the same way.
TEST_F(Faults, UnmatchedReceiveTimesOut) {
    GroupOptions options;
    options.execTimeoutSeconds = 1;
    ThreadBarrier done(2);  // Rank 1 keeps its communicator (and sends nothing) until rank 0 timed out.
    with_group(
        2,
        [&](RankContext& rank) {
            if (rank.rank != 0) {
                ASSERT_TRUE(done.wait());
                return;
            }
            DeviceMemory buffer(64);
            const Clock::time_point start = Clock::now();
            ASSERT_HCCL_OK(HcclRecv(buffer.get(), 16, f32, 1, rank.comm, rank.stream));
            take_error_message();
            EXPECT_EQ(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStream(rank.stream));
            EXPECT_TRUE(contains(take_error_message(), {"timed out", "1"}));
            EXPECT_GE(seconds_since(start), 0.9);
            EXPECT_LT(seconds_since(start), kPromptSeconds);
            EXPECT_EQ(HCCL_E_TIMEOUT, async_error(rank.comm));
            EXPECT_EQ(std::vector<uint8_t>(64, DeviceMemory::kSentinel), buffer.bytes());
            ASSERT_TRUE(done.wait());
        },
        options);
}

/// Ranks 0 and 1 all-reduce while rank 2 destroys its communicator -- after
/// they arrived (`destroyFirst` false) or before they call.  Their streams
/// fail at once with 507057 and HCCL_E_REMOTE, as do later collectives.
void expect_remote_failure(bool destroyFirst) {
    GroupOptions options;
    options.execTimeoutSeconds = 10;  // "At once" is well below it.
    ThreadBarrier step(3);
    with_group(
        3,
        [&](RankContext& rank) {
            DeviceMemory buffer(as_bytes(std::vector<float>(16, 1.0f)));
            if (rank.rank == 2) {
                if (!destroyFirst) {
                    ASSERT_TRUE(step.wait());
                }
                ASSERT_HCCL_OK(HcclCommDestroy(rank.comm));
                rank.comm = nullptr;
                if (destroyFirst) {
                    ASSERT_TRUE(step.wait());
                }
                return;
            }
            if (destroyFirst) {
                ASSERT_TRUE(step.wait());
            }
            const Clock::time_point start = Clock::now();
            ASSERT_HCCL_OK(HcclAllReduce(buffer.get(), buffer.get(), 16, f32, HCCL_REDUCE_SUM, rank.comm,
                                         rank.stream));
            if (!destroyFirst) {
                ASSERT_TRUE(step.wait());
            }
            take_error_message();
            EXPECT_EQ(ACL_ERROR_RT_SUSPECT_REMOTE_ERROR, aclrtSynchronizeStream(rank.stream)) << "rank " << rank.rank;
            EXPECT_TRUE(contains(take_error_message(), {"destroyed"})) << "rank " << rank.rank;
            EXPECT_LT(seconds_since(start), kPromptSeconds) << "rank " << rank.rank;
            EXPECT_EQ(HCCL_E_REMOTE, async_error(rank.comm)) << "rank " << rank.rank;
            // Later collectives cannot complete either, and say so at once.
            const Clock::time_point again = Clock::now();
            ASSERT_HCCL_OK(HcclBroadcast(buffer.get(), 16, f32, 0, rank.comm, rank.stream));
            EXPECT_EQ(ACL_ERROR_RT_SUSPECT_REMOTE_ERROR, aclrtSynchronizeStream(rank.stream)) << take_error_message();
            EXPECT_LT(seconds_since(again), kPromptSeconds);
        },
        options);
}

TEST_F(Faults, PeerDestroyedWhileWaiting) { expect_remote_failure(false); }

TEST_F(Faults, PeerDestroyedBeforeTheCall) { expect_remote_failure(true); }

// A transfer with a destroyed rank fails; transfers between the live ranks
// go on.
TEST_F(Faults, TransferWithADestroyedRankFails) {
    GroupOptions options;
    options.execTimeoutSeconds = 10;
    ThreadBarrier waiting(3);
    with_group(
        3,
        [&](RankContext& rank) {
            DeviceMemory buffer(as_bytes(std::vector<float>(8, 2.0f + rank.rank)));
            DeviceMemory received(8 * sizeof(float));
            if (rank.rank == 1) {
                ASSERT_TRUE(waiting.wait());
                ASSERT_HCCL_OK(HcclCommDestroy(rank.comm));
                rank.comm = nullptr;
                return;
            }
            if (rank.rank == 0) {
                const Clock::time_point start = Clock::now();
                ASSERT_HCCL_OK(HcclRecv(received.get(), 8, f32, 1, rank.comm, rank.stream));
                ASSERT_TRUE(waiting.wait());
                EXPECT_EQ(ACL_ERROR_RT_SUSPECT_REMOTE_ERROR, aclrtSynchronizeStream(rank.stream))
                    << take_error_message();
                EXPECT_LT(seconds_since(start), kPromptSeconds);
                EXPECT_EQ(HCCL_E_REMOTE, async_error(rank.comm));
                ASSERT_HCCL_OK(HcclSend(buffer.get(), 8, f32, 2, rank.comm, rank.stream));
                EXPECT_ACL_OK(aclrtSynchronizeStream(rank.stream));
            } else {
                ASSERT_TRUE(waiting.wait());
                ASSERT_HCCL_OK(HcclRecv(received.get(), 8, f32, 0, rank.comm, rank.stream));
                EXPECT_ACL_OK(aclrtSynchronizeStream(rank.stream));
                EXPECT_EQ(std::vector<float>(8, 2.0f), received.values<float>());
                EXPECT_EQ(HCCL_SUCCESS, async_error(rank.comm));
            }
        },
        options);
}

// Without a configuration, HCCL_EXEC_TIMEOUT (seconds, read when the
// communicator is made) is the execution timeout.
TEST_F(Faults, ExecTimeoutFromTheEnvironment) {
    HcclComm comms[2] = {nullptr, nullptr};
    {
        ScopedEnv execTimeout("HCCL_EXEC_TIMEOUT", "1");
        int32_t devices[2] = {0, 1};
        ASSERT_HCCL_OK(HcclCommInitAll(2, devices, comms));
    }
    run_ranks(1, [&](uint32_t) {
        ASSERT_ACL_OK(aclrtSetDevice(0));
        aclrtStream stream = nullptr;
        ASSERT_ACL_OK(aclrtCreateStream(&stream));
        DeviceMemory buffer(64);
        const Clock::time_point start = Clock::now();
        ASSERT_HCCL_OK(HcclBroadcast(buffer.get(), 16, f32, 1, comms[0], stream));
        EXPECT_EQ(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStream(stream)) << take_error_message();
        EXPECT_GE(seconds_since(start), 0.9);
        EXPECT_LT(seconds_since(start), kPromptSeconds);
        EXPECT_EQ(HCCL_E_TIMEOUT, async_error(comms[0]));
        EXPECT_EQ(HCCL_SUCCESS, async_error(comms[1]));
        EXPECT_ACL_OK(aclrtDestroyStream(stream));
    });
    EXPECT_HCCL_OK(HcclCommDestroy(comms[0]));
    EXPECT_HCCL_OK(HcclCommDestroy(comms[1]));
}

// A rank that destroys its communicator with its own collective still
// pending (hccl_comm.h asks to synchronise first) does not hang: its stream
// fails at once, and so does the peer that comes later.
TEST_F(Faults, DestroyingACommunicatorWithItsOwnCallPending) {
    GroupOptions options;
    options.execTimeoutSeconds = 10;
    ThreadBarrier destroyed(2);
    with_group(
        2,
        [&](RankContext& rank) {
            DeviceMemory buffer(as_bytes(std::vector<float>(8, 1.0f)));
            const Clock::time_point start = Clock::now();
            if (rank.rank == 0) {
                ASSERT_HCCL_OK(HcclAllReduce(buffer.get(), buffer.get(), 8, f32, HCCL_REDUCE_SUM, rank.comm,
                                             rank.stream));
                ASSERT_HCCL_OK(HcclCommDestroy(rank.comm));
                rank.comm = nullptr;
                EXPECT_EQ(ACL_ERROR_RT_SUSPECT_REMOTE_ERROR, aclrtSynchronizeStream(rank.stream))
                    << take_error_message();
                EXPECT_LT(seconds_since(start), kPromptSeconds);
                ASSERT_TRUE(destroyed.wait());
                return;
            }
            ASSERT_TRUE(destroyed.wait());
            ASSERT_HCCL_OK(HcclAllReduce(buffer.get(), buffer.get(), 8, f32, HCCL_REDUCE_SUM, rank.comm, rank.stream));
            EXPECT_EQ(ACL_ERROR_RT_SUSPECT_REMOTE_ERROR, aclrtSynchronizeStream(rank.stream)) << take_error_message();
            EXPECT_LT(seconds_since(start), kPromptSeconds);
            EXPECT_EQ(HCCL_E_REMOTE, async_error(rank.comm));
            EXPECT_EQ(std::vector<float>(8, 1.0f), buffer.values<float>());
        },
        options);
}

// HcclGetCommAsyncError keeps the first failure.
TEST_F(Faults, AsyncErrorKeepsTheFirstFailure) {
    GroupOptions options;
    options.execTimeoutSeconds = 1;
    ThreadBarrier done(2);  // Rank 1 keeps its communicator until rank 0 timed out.
    with_group(
        2,
        [&](RankContext& rank) {
            DeviceMemory buffer(64);
            ASSERT_HCCL_OK(HcclAllReduce(buffer.get(), buffer.get(), rank.rank == 0 ? 4 : 5, f32, HCCL_REDUCE_SUM,
                                         rank.comm, rank.stream));
            EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeStream(rank.stream));
            EXPECT_EQ(HCCL_E_PARA, async_error(rank.comm));
            if (rank.rank == 0) {  // Rank 1 does not come: a timeout, after the mismatch.
                ASSERT_HCCL_OK(HcclBarrier(rank.comm, rank.stream));
                EXPECT_EQ(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStream(rank.stream));
                EXPECT_EQ(HCCL_E_PARA, async_error(rank.comm));
            }
            ASSERT_TRUE(done.wait());
            take_error_message();
        },
        options);
}

}  // namespace
}  // namespace aclcpu::hccl_test
