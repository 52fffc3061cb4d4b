// The other collectives on 2, 3 and 8 ranks: HcclBroadcast, HcclAllGather,
// HcclAllGatherV, HcclReduceScatter, HcclReduceScatterV, HcclReduce,
// HcclScatter, HcclAlltoAll, HcclAlltoAllV, HcclAlltoAllVC and HcclBarrier, each against what hccl.h says every
// rank's buffers hold afterwards, computed here from the ranks' inputs.
#include <atomic>
#include <memory>
#include <numeric>
#include <thread>

#include "hccl/hccl_test_support.hpp"

namespace aclcpu::hccl_test {
namespace {

class Collectives : public HcclTest, public ::testing::WithParamInterface<uint32_t> {
protected:
    uint32_t ranks() const { return GetParam(); }
    /// Every root on small groups, three of eight.
    std::vector<uint32_t> roots() const {
        if (ranks() <= 3) {
            std::vector<uint32_t> all(ranks());
            std::iota(all.begin(), all.end(), 0u);
            return all;
        }
        return {0, 5, ranks() - 1};
    }
};

uint64_t seed_of(uint64_t call, uint32_t rank) { return call * 7919 + rank; }

const HcclDataType kMovedTypes[] = {HCCL_DATA_TYPE_FP32, HCCL_DATA_TYPE_INT8, HCCL_DATA_TYPE_INT64,
                                    HCCL_DATA_TYPE_FP16, HCCL_DATA_TYPE_UINT16, HCCL_DATA_TYPE_FP64};

TEST_P(Collectives, BroadcastFromEveryRoot) {
    const size_t count = 1001;
    with_group(ranks(), [&](RankContext& rank) {
        struct Call {
            uint32_t root;
            HcclDataType dtype;
            std::unique_ptr<DeviceMemory> buffer;
        };
        std::vector<Call> calls;
        for (uint32_t root : roots()) {
            for (HcclDataType dtype : kMovedTypes) {
                const uint64_t call = calls.size();
                calls.push_back({root, dtype, std::make_unique<DeviceMemory>(
                                                  pattern_bytes(dtype, count, seed_of(call, rank.rank)))});
                ASSERT_HCCL_OK(HcclBroadcast(calls.back().buffer->get(), count, dtype, root, rank.comm, rank.stream));
            }
        }
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        for (size_t call = 0; call < calls.size(); ++call) {
            EXPECT_ELEMENTS_EQ(calls[call].dtype, calls[call].buffer->bytes(),
                               pattern_bytes(calls[call].dtype, count, seed_of(call, calls[call].root)))
                << type_name(calls[call].dtype) << " from root " << calls[call].root << " on rank " << rank.rank;
        }
    });
}

TEST_P(Collectives, AllGatherInRankOrder) {
    const size_t count = 333;
    with_group(ranks(), [&](RankContext& rank) {
        std::vector<std::unique_ptr<DeviceMemory>> sends, recvs;
        for (size_t t = 0; t < std::size(kMovedTypes); ++t) {
            sends.push_back(
                std::make_unique<DeviceMemory>(pattern_bytes(kMovedTypes[t], count, seed_of(t, rank.rank))));
            recvs.push_back(std::make_unique<DeviceMemory>(count * rank.ranks * type_size(kMovedTypes[t])));
            ASSERT_HCCL_OK(HcclAllGather(sends[t]->get(), recvs[t]->get(), count, kMovedTypes[t], rank.comm,
                                         rank.stream));
        }
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        for (size_t t = 0; t < std::size(kMovedTypes); ++t) {
            std::vector<uint8_t> want;
            for (uint32_t r = 0; r < rank.ranks; ++r) {
                const std::vector<uint8_t> block = pattern_bytes(kMovedTypes[t], count, seed_of(t, r));
                want.insert(want.end(), block.begin(), block.end());
            }
            EXPECT_ELEMENTS_EQ(kMovedTypes[t], recvs[t]->bytes(), want)
                << type_name(kMovedTypes[t]) << " on rank " << rank.rank;
        }
    });
}

struct Reduction {
    HcclDataType dtype;
    HcclReduceOp op;
};

const Reduction kReductions[] = {{HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM},  {HCCL_DATA_TYPE_FP32, HCCL_REDUCE_MAX},
                                 {HCCL_DATA_TYPE_INT8, HCCL_REDUCE_SUM},  {HCCL_DATA_TYPE_FP16, HCCL_REDUCE_SUM},
                                 {HCCL_DATA_TYPE_BFP16, HCCL_REDUCE_MIN}, {HCCL_DATA_TYPE_INT32, HCCL_REDUCE_PROD},
                                 {HCCL_DATA_TYPE_INT64, HCCL_REDUCE_MIN}, {HCCL_DATA_TYPE_INT16, HCCL_REDUCE_MAX}};

std::vector<std::vector<uint8_t>> inputs_of(const Reduction& reduction, size_t count, uint64_t call, uint32_t ranks) {
    std::vector<std::vector<uint8_t>> inputs;
    for (uint32_t r = 0; r < ranks; ++r) {
        inputs.push_back(reduction_input(reduction.dtype, reduction.op, count, seed_of(call, r)));
    }
    return inputs;
}

// recvBuf of rank r: elements [r * recvCount, (r + 1) * recvCount) of every
// rank's input, combined in rank order.
TEST_P(Collectives, ReduceScatterGivesEachRankItsSlice) {
    const size_t count = 337;
    with_group(ranks(), [&](RankContext& rank) {
        std::vector<std::vector<std::vector<uint8_t>>> inputs;
        std::vector<std::unique_ptr<DeviceMemory>> sends, recvs;
        for (size_t c = 0; c < std::size(kReductions); ++c) {
            inputs.push_back(inputs_of(kReductions[c], count * rank.ranks, c, rank.ranks));
            sends.push_back(std::make_unique<DeviceMemory>(inputs[c][rank.rank]));
            recvs.push_back(std::make_unique<DeviceMemory>(count * type_size(kReductions[c].dtype)));
            ASSERT_HCCL_OK(HcclReduceScatter(sends[c]->get(), recvs[c]->get(), count, kReductions[c].dtype,
                                             kReductions[c].op, rank.comm, rank.stream));
        }
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        for (size_t c = 0; c < std::size(kReductions); ++c) {
            const Reduction& red = kReductions[c];
            EXPECT_ELEMENTS_EQ(red.dtype, recvs[c]->bytes(),
                               reduce_reference(red.dtype, red.op, inputs[c], rank.rank * count, count))
                << type_name(red.dtype) << " " << op_name(red.op) << " on rank " << rank.rank;
            EXPECT_ELEMENTS_EQ(red.dtype, sends[c]->bytes(), inputs[c][rank.rank]) << "the input changed";
        }
    });
}

// Only the root's recvBuf is written; the others may pass none.
TEST_P(Collectives, ReduceWritesOnlyTheRoot) {
    const size_t count = 1001;
    with_group(ranks(), [&](RankContext& rank) {
        struct Call {
            uint32_t root;
            Reduction reduction;
            std::vector<std::vector<uint8_t>> inputs;
            std::unique_ptr<DeviceMemory> send, recv;
        };
        std::vector<Call> calls;
        for (uint32_t root : roots()) {
            for (const Reduction& reduction : kReductions) {
                Call call{root, reduction, inputs_of(reduction, count, calls.size() + 100, rank.ranks), {}, {}};
                call.send = std::make_unique<DeviceMemory>(call.inputs[rank.rank]);
                call.recv = std::make_unique<DeviceMemory>(count * type_size(reduction.dtype));
                // Every other call, the ranks other than the root pass no recvBuf.
                void* recv = rank.rank != root && calls.size() % 2 == 1 ? nullptr : call.recv->get();
                ASSERT_HCCL_OK(HcclReduce(call.send->get(), recv, count, reduction.dtype, reduction.op, root,
                                          rank.comm, rank.stream));
                calls.push_back(std::move(call));
            }
        }
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        for (const Call& call : calls) {
            const HcclDataType dtype = call.reduction.dtype;
            const std::vector<uint8_t> want =
                rank.rank == call.root
                    ? reduce_reference(dtype, call.reduction.op, call.inputs, 0, count)
                    : std::vector<uint8_t>(count * type_size(dtype), DeviceMemory::kSentinel);
            EXPECT_ELEMENTS_EQ(dtype, call.recv->bytes(), want)
                << type_name(dtype) << " " << op_name(call.reduction.op) << " to root " << call.root << " on rank "
                << rank.rank;
            EXPECT_ELEMENTS_EQ(dtype, call.send->bytes(), call.inputs[rank.rank]) << "the input changed";
        }
    });
}

// recvBuf of rank r: block r of the root's sendBuf; the other ranks' sendBuf
// is not read (here: null every other call).
TEST_P(Collectives, ScatterFromEveryRoot) {
    const size_t count = 101;
    with_group(ranks(), [&](RankContext& rank) {
        struct Call {
            uint32_t root;
            HcclDataType dtype;
            std::unique_ptr<DeviceMemory> send, recv;
        };
        std::vector<Call> calls;
        for (uint32_t root : roots()) {
            for (HcclDataType dtype : kMovedTypes) {
                const uint64_t call = calls.size();
                Call c{root, dtype,
                       std::make_unique<DeviceMemory>(
                           pattern_bytes(dtype, count * rank.ranks, seed_of(call, rank.rank))),
                       std::make_unique<DeviceMemory>(count * type_size(dtype))};
                void* send = rank.rank != root && call % 2 == 1 ? nullptr : c.send->get();
                ASSERT_HCCL_OK(HcclScatter(send, c.recv->get(), count, dtype, root, rank.comm, rank.stream));
                calls.push_back(std::move(c));
            }
        }
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        for (size_t call = 0; call < calls.size(); ++call) {
            const std::vector<uint8_t> rootSend =
                pattern_bytes(calls[call].dtype, count * rank.ranks, seed_of(call, calls[call].root));
            EXPECT_ELEMENTS_EQ(calls[call].dtype, calls[call].recv->bytes(),
                               elements_of(rootSend, calls[call].dtype, rank.rank * count, count))
                << type_name(calls[call].dtype) << " from root " << calls[call].root << " on rank " << rank.rank;
        }
    });
}

// Block j of rank i's sendBuf becomes block i of rank j's recvBuf.
TEST_P(Collectives, AlltoAllTransposesBlocks) {
    const size_t count = 77;
    with_group(ranks(), [&](RankContext& rank) {
        std::vector<std::unique_ptr<DeviceMemory>> sends, recvs;
        for (size_t t = 0; t < std::size(kMovedTypes); ++t) {
            const HcclDataType dtype = kMovedTypes[t];
            sends.push_back(
                std::make_unique<DeviceMemory>(pattern_bytes(dtype, count * rank.ranks, seed_of(t, rank.rank))));
            recvs.push_back(std::make_unique<DeviceMemory>(count * rank.ranks * type_size(dtype)));
            ASSERT_HCCL_OK(HcclAlltoAll(sends[t]->get(), count, dtype, recvs[t]->get(), count, dtype, rank.comm,
                                        rank.stream));
        }
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        for (size_t t = 0; t < std::size(kMovedTypes); ++t) {
            const HcclDataType dtype = kMovedTypes[t];
            std::vector<uint8_t> want;
            for (uint32_t i = 0; i < rank.ranks; ++i) {
                const auto block = elements_of(pattern_bytes(dtype, count * rank.ranks, seed_of(t, i)), dtype,
                                               rank.rank * count, count);
                want.insert(want.end(), block.begin(), block.end());
            }
            EXPECT_ELEMENTS_EQ(dtype, recvs[t]->bytes(), want) << type_name(dtype) << " on rank " << rank.rank;
        }
    });
}

/// Elements rank i sends rank j in the all-to-all-v tests (some none).
uint64_t v_count(uint32_t i, uint32_t j) { return ((i * 7 + j * 3 + 1) % 6) * 13 + (i + j) % 3; }

// sendCounts[j] elements at sdispls[j] go to rank j, which receives them at
// rdispls[i]: here the send blocks are laid out backwards with gaps, the
// receive blocks forwards with other gaps, which stay untouched.
TEST_P(Collectives, AlltoAllVHonoursCountsAndDisplacements) {
    const HcclDataType types[] = {HCCL_DATA_TYPE_FP32, HCCL_DATA_TYPE_INT8, HCCL_DATA_TYPE_FP16};
    with_group(ranks(), [&](RankContext& rank) {
        const uint32_t n = rank.ranks, me = rank.rank;
        // Rank i's send layout (computable by every rank).
        const auto send_layout = [n](uint32_t i, std::vector<uint64_t>& counts, std::vector<uint64_t>& displs) {
            counts.assign(n, 0);
            displs.assign(n, 0);
            uint64_t at = 1;
            for (uint32_t j = n; j-- > 0;) {
                counts[j] = v_count(i, j);
                displs[j] = at;
                at += counts[j] + 3;
            }
            return at;
        };
        std::vector<uint64_t> sendCounts, sdispls, recvCounts(n), rdispls(n);
        const uint64_t sendTotal = send_layout(me, sendCounts, sdispls);
        uint64_t recvTotal = 2;
        for (uint32_t i = 0; i < n; ++i) {
            recvCounts[i] = v_count(i, me);
            rdispls[i] = recvTotal;
            recvTotal += recvCounts[i] + 2;
        }
        std::vector<std::unique_ptr<DeviceMemory>> sends, recvs;
        for (size_t t = 0; t < std::size(types); ++t) {
            sends.push_back(std::make_unique<DeviceMemory>(pattern_bytes(types[t], sendTotal, seed_of(t, me))));
            recvs.push_back(std::make_unique<DeviceMemory>(recvTotal * type_size(types[t])));
            ASSERT_HCCL_OK(HcclAlltoAllV(sends[t]->get(), sendCounts.data(), sdispls.data(), types[t],
                                         recvs[t]->get(), recvCounts.data(), rdispls.data(), types[t], rank.comm,
                                         rank.stream));
        }
        // The arrays are read at the call: scribbling over them now changes nothing.
        std::fill(sendCounts.begin(), sendCounts.end(), 999999);
        std::fill(rdispls.begin(), rdispls.end(), 999999);
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        for (size_t t = 0; t < std::size(types); ++t) {
            const size_t width = type_size(types[t]);
            std::vector<uint8_t> want(recvTotal * width, DeviceMemory::kSentinel);
            uint64_t at = 2;
            for (uint32_t i = 0; i < n; ++i) {
                std::vector<uint64_t> counts, displs;
                send_layout(i, counts, displs);
                const std::vector<uint8_t> peerSend = pattern_bytes(types[t], send_layout(i, counts, displs),
                                                                    seed_of(t, i));
                const auto block = elements_of(peerSend, types[t], displs[me], counts[me]);
                std::copy(block.begin(), block.end(), want.begin() + static_cast<std::ptrdiff_t>(at * width));
                at += counts[me] + 2;
            }
            EXPECT_ELEMENTS_EQ(types[t], recvs[t]->bytes(), want) << type_name(types[t]) << " on rank " << me;
        }
    });
}

/// The V collectives' part of rank r (some none), and where rank `owner`
/// keeps each rank's part in its buffer: backwards from 1 + owner with gaps
/// of 3 elements, so every rank lays its buffer out differently.  Returns
/// the buffer's length in elements.
uint64_t v_part(uint32_t r) { return v_count(r, r); }

uint64_t v_layout(uint32_t owner, uint32_t n, std::vector<uint64_t>& counts, std::vector<uint64_t>& displs) {
    counts.assign(n, 0);
    displs.assign(n, 0);
    uint64_t at = 1 + owner;
    for (uint32_t j = n; j-- > 0;) {
        counts[j] = v_part(j);
        displs[j] = at;
        at += counts[j] + 3;
    }
    return at;
}

// recvBuf of rank r (v_part(r) elements) = the sendCounts[r] elements at
// sendDispls[r] of every rank's input, combined in rank order; each rank
// lays its input out differently.
TEST_P(Collectives, ReduceScatterVReducesEachRanksPartWhereverItLies) {
    std::vector<Reduction> reductions;
    for (const Reduction& reduction : kReductions) {
        if (reduction.op != HCCL_REDUCE_PROD) reductions.push_back(reduction);
    }
    with_group(ranks(), [&](RankContext& rank) {
        const uint32_t n = rank.ranks, me = rank.rank;
        std::vector<std::vector<uint64_t>> counts(n), displs(n);
        std::vector<uint64_t> lengths(n);
        for (uint32_t i = 0; i < n; ++i) lengths[i] = v_layout(i, n, counts[i], displs[i]);
        std::vector<std::vector<std::vector<uint8_t>>> inputs;
        std::vector<std::unique_ptr<DeviceMemory>> sends, recvs;
        for (size_t c = 0; c < reductions.size(); ++c) {
            const Reduction& red = reductions[c];
            inputs.emplace_back();
            for (uint32_t i = 0; i < n; ++i) {
                inputs[c].push_back(reduction_input(red.dtype, red.op, lengths[i], seed_of(c, i)));
            }
            sends.push_back(std::make_unique<DeviceMemory>(inputs[c][me]));
            recvs.push_back(std::make_unique<DeviceMemory>((v_part(me) + 2) * type_size(red.dtype)));
            ASSERT_HCCL_OK(HcclReduceScatterV(sends[c]->get(), counts[me].data(), displs[me].data(), recvs[c]->get(),
                                              v_part(me), red.dtype, red.op, rank.comm, rank.stream));
        }
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        for (size_t c = 0; c < reductions.size(); ++c) {
            const Reduction& red = reductions[c];
            std::vector<std::vector<uint8_t>> parts;
            for (uint32_t i = 0; i < n; ++i) {
                parts.push_back(elements_of(inputs[c][i], red.dtype, displs[i][me], v_part(me)));
            }
            std::vector<uint8_t> want = reduce_reference(red.dtype, red.op, parts, 0, v_part(me));
            want.resize((v_part(me) + 2) * type_size(red.dtype), DeviceMemory::kSentinel);
            EXPECT_ELEMENTS_EQ(red.dtype, recvs[c]->bytes(), want)
                << type_name(red.dtype) << " " << op_name(red.op) << " on rank " << me;
        }
    });
}

// Rank i's v_part(i) elements land at recvDispls[i] of every rank, whose
// layouts differ; the gaps between the parts stay untouched.
TEST_P(Collectives, AllGatherVPlacesEachRanksInputWhereEveryRankAsks) {
    const HcclDataType types[] = {HCCL_DATA_TYPE_FP32, HCCL_DATA_TYPE_INT8, HCCL_DATA_TYPE_FP16};
    with_group(ranks(), [&](RankContext& rank) {
        const uint32_t n = rank.ranks, me = rank.rank;
        std::vector<uint64_t> counts, displs;
        const uint64_t length = v_layout(me, n, counts, displs);
        std::vector<std::unique_ptr<DeviceMemory>> sends, recvs;
        for (size_t t = 0; t < std::size(types); ++t) {
            sends.push_back(std::make_unique<DeviceMemory>(pattern_bytes(types[t], v_part(me), seed_of(t, me))));
            recvs.push_back(std::make_unique<DeviceMemory>(length * type_size(types[t])));
            ASSERT_HCCL_OK(HcclAllGatherV(sends[t]->get(), v_part(me), recvs[t]->get(), counts.data(), displs.data(),
                                          types[t], rank.comm, rank.stream));
        }
        // The arrays are read at the call.
        std::fill(displs.begin(), displs.end(), 999999);
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        v_layout(me, n, counts, displs);
        for (size_t t = 0; t < std::size(types); ++t) {
            const size_t width = type_size(types[t]);
            std::vector<uint8_t> want(length * width, DeviceMemory::kSentinel);
            for (uint32_t i = 0; i < n; ++i) {
                const std::vector<uint8_t> input = pattern_bytes(types[t], v_part(i), seed_of(t, i));
                std::copy(input.begin(), input.end(), want.begin() + static_cast<std::ptrdiff_t>(displs[i] * width));
            }
            EXPECT_ELEMENTS_EQ(types[t], recvs[t]->bytes(), want) << type_name(types[t]) << " on rank " << me;
        }
    });
}

// sendCountMatrix[i * n + j] elements from rank i to rank j, packed in rank
// order in both buffers.
TEST_P(Collectives, AlltoAllVCPacksByTheCountMatrix) {
    const HcclDataType types[] = {HCCL_DATA_TYPE_FP32, HCCL_DATA_TYPE_INT64, HCCL_DATA_TYPE_BFP16};
    with_group(ranks(), [&](RankContext& rank) {
        const uint32_t n = rank.ranks, me = rank.rank;
        std::vector<uint64_t> matrix(uint64_t{n} * n);
        for (uint32_t i = 0; i < n; ++i) {
            for (uint32_t j = 0; j < n; ++j) matrix[i * n + j] = v_count(i, j);
        }
        const auto sent_by = [&](uint32_t i) {
            uint64_t total = 0;
            for (uint32_t j = 0; j < n; ++j) total += matrix[i * n + j];
            return total;
        };
        uint64_t received = 0;
        for (uint32_t i = 0; i < n; ++i) received += matrix[i * n + me];
        std::vector<std::unique_ptr<DeviceMemory>> sends, recvs;
        for (size_t t = 0; t < std::size(types); ++t) {
            sends.push_back(std::make_unique<DeviceMemory>(pattern_bytes(types[t], sent_by(me), seed_of(t, me))));
            recvs.push_back(std::make_unique<DeviceMemory>(received * type_size(types[t])));
            ASSERT_HCCL_OK(HcclAlltoAllVC(sends[t]->get(), matrix.data(), types[t], recvs[t]->get(), types[t],
                                          rank.comm, rank.stream));
        }
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        for (size_t t = 0; t < std::size(types); ++t) {
            std::vector<uint8_t> want;
            for (uint32_t i = 0; i < n; ++i) {
                uint64_t offset = 0;
                for (uint32_t j = 0; j < me; ++j) offset += matrix[i * n + j];
                const auto block = elements_of(pattern_bytes(types[t], sent_by(i), seed_of(t, i)), types[t], offset,
                                               matrix[i * n + me]);
                want.insert(want.end(), block.begin(), block.end());
            }
            EXPECT_ELEMENTS_EQ(types[t], recvs[t]->bytes(), want) << type_name(types[t]) << " on rank " << me;
        }
    });
}

// Every collective with count 0 is a valid no-op: no buffer changes.
TEST_P(Collectives, CountZeroIsANoOpForEveryCollective) {
    with_group(ranks(), [&](RankContext& rank) {
        const uint32_t n = rank.ranks;
        DeviceMemory send(64), recv(64);
        const HcclDataType f32 = HCCL_DATA_TYPE_FP32;
        std::vector<uint64_t> zeros(uint64_t{n} * n, 0);
        ASSERT_HCCL_OK(HcclBroadcast(recv.get(), 0, f32, n - 1, rank.comm, rank.stream));
        ASSERT_HCCL_OK(HcclAllGather(send.get(), recv.get(), 0, f32, rank.comm, rank.stream));
        ASSERT_HCCL_OK(HcclReduceScatter(send.get(), recv.get(), 0, f32, HCCL_REDUCE_SUM, rank.comm, rank.stream));
        ASSERT_HCCL_OK(HcclReduce(send.get(), recv.get(), 0, f32, HCCL_REDUCE_MIN, 0, rank.comm, rank.stream));
        ASSERT_HCCL_OK(HcclScatter(send.get(), recv.get(), 0, f32, 0, rank.comm, rank.stream));
        ASSERT_HCCL_OK(HcclAlltoAll(send.get(), 0, f32, recv.get(), 0, f32, rank.comm, rank.stream));
        ASSERT_HCCL_OK(HcclAlltoAllV(send.get(), zeros.data(), zeros.data(), f32, recv.get(), zeros.data(),
                                     zeros.data(), f32, rank.comm, rank.stream));
        ASSERT_HCCL_OK(HcclAlltoAllVC(send.get(), zeros.data(), f32, recv.get(), f32, rank.comm, rank.stream));
        ASSERT_HCCL_OK(HcclBroadcast(nullptr, 0, f32, 0, rank.comm, rank.stream));
        ASSERT_HCCL_OK(HcclAllGather(nullptr, nullptr, 0, f32, rank.comm, rank.stream));
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        EXPECT_EQ(std::vector<uint8_t>(64, DeviceMemory::kSentinel), recv.bytes());
        EXPECT_EQ(std::vector<uint8_t>(64, DeviceMemory::kSentinel), send.bytes());
        HcclResult asyncError = HCCL_E_RESERVED;
        EXPECT_HCCL_OK(HcclGetCommAsyncError(rank.comm, &asyncError));
        EXPECT_EQ(HCCL_SUCCESS, asyncError);
    });
}

// CANN's in-place forms: AllGather's sendBuf is block r of recvBuf,
// ReduceScatter's recvBuf is block r of sendBuf, Reduce's root passes one
// buffer as both.
TEST_P(Collectives, InPlaceForms) {
    const size_t count = 257;
    with_group(ranks(), [&](RankContext& rank) {
        const uint32_t n = rank.ranks, me = rank.rank;
        const HcclDataType f32 = HCCL_DATA_TYPE_FP32, f16 = HCCL_DATA_TYPE_FP16;
        // AllGather: only my block holds my data beforehand.
        std::vector<uint8_t> gatherInit(count * n * sizeof(float), DeviceMemory::kSentinel);
        const std::vector<uint8_t> myBlock = pattern_bytes(f32, count, seed_of(1, me));
        std::copy(myBlock.begin(), myBlock.end(), gatherInit.begin() + me * count * sizeof(float));
        DeviceMemory gather(gatherInit);
        ASSERT_HCCL_OK(HcclAllGather(static_cast<float*>(gather.get()) + me * count, gather.get(), count, f32,
                                     rank.comm, rank.stream));
        // ReduceScatter.
        std::vector<std::vector<uint8_t>> scatterInputs;
        for (uint32_t r = 0; r < n; ++r) {
            scatterInputs.push_back(reduction_input(f32, HCCL_REDUCE_SUM, count * n, 2 + r));
        }
        DeviceMemory scatter(scatterInputs[me]);
        ASSERT_HCCL_OK(HcclReduceScatter(scatter.get(), static_cast<float*>(scatter.get()) + me * count, count, f32,
                                         HCCL_REDUCE_SUM, rank.comm, rank.stream));
        // Reduce to the last rank, in place there.
        std::vector<std::vector<uint8_t>> reduceInputs;
        for (uint32_t r = 0; r < n; ++r) reduceInputs.push_back(reduction_input(f16, HCCL_REDUCE_SUM, count, 40 + r));
        DeviceMemory reduce(reduceInputs[me]);
        ASSERT_HCCL_OK(HcclReduce(reduce.get(), reduce.get(), count, f16, HCCL_REDUCE_SUM, n - 1, rank.comm,
                                  rank.stream));
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        std::vector<uint8_t> gathered;
        for (uint32_t r = 0; r < n; ++r) {
            const std::vector<uint8_t> block = pattern_bytes(f32, count, seed_of(1, r));
            gathered.insert(gathered.end(), block.begin(), block.end());
        }
        EXPECT_ELEMENTS_EQ(f32, gather.bytes(), gathered) << "all-gather in place on rank " << me;
        std::vector<uint8_t> scattered = scatterInputs[me];  // The other blocks stay as they were.
        const std::vector<uint8_t> mine = reduce_reference(f32, HCCL_REDUCE_SUM, scatterInputs, me * count, count);
        std::copy(mine.begin(), mine.end(), scattered.begin() + me * count * sizeof(float));
        EXPECT_ELEMENTS_EQ(f32, scatter.bytes(), scattered) << "reduce-scatter in place on rank " << me;
        EXPECT_ELEMENTS_EQ(f16, reduce.bytes(),
                           me == n - 1 ? reduce_reference(f16, HCCL_REDUCE_SUM, reduceInputs, 0, count)
                                       : reduceInputs[me])
            << "reduce in place on rank " << me;
    });
}

INSTANTIATE_TEST_SUITE_P(Ranks, Collectives, ::testing::Values(2u, 3u, 8u),
                         [](const ::testing::TestParamInfo<uint32_t>& info) {
                             return std::to_string(info.param) + "ranks";
                         });

/// What a host function on a rank's stream shares with the test.
struct BarrierProbe {
    std::atomic<bool> released{false};
    std::atomic<bool> expired{false};
    std::atomic<int> passed{0};
};

void hold_until_released(void* probe) {
    auto* p = static_cast<BarrierProbe*>(probe);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!p->released.load()) {
        if (std::chrono::steady_clock::now() > deadline) {
            p->expired.store(true);
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

void count_passage(void* probe) { static_cast<BarrierProbe*>(probe)->passed.fetch_add(1); }

using Barrier = HcclTest;

// Rank 2's stream is held before its barrier: the other ranks' streams do
// not get past theirs until it is released.
TEST_F(Barrier, StreamsWaitForEveryRank) {
    BarrierProbe probe;
    ThreadBarrier enqueued(3);
    with_group(3, [&](RankContext& rank) {
        if (rank.rank == 2) {
            ASSERT_ACL_OK(aclrtLaunchHostFunc(rank.stream, hold_until_released, &probe));
        }
        ASSERT_HCCL_OK(HcclBarrier(rank.comm, rank.stream));
        if (rank.rank != 2) {
            ASSERT_ACL_OK(aclrtLaunchHostFunc(rank.stream, count_passage, &probe));
        }
        ASSERT_TRUE(enqueued.wait());
        if (rank.rank == 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            EXPECT_EQ(0, probe.passed.load()) << "a rank got past the barrier before rank 2 reached it";
            probe.released.store(true);
        }
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
    });
    EXPECT_EQ(2, probe.passed.load());
    EXPECT_FALSE(probe.expired.load()) << "the hold was never released";
}

TEST_F(Barrier, ManyBarriersOnEightRanks) {
    with_group(8, [&](RankContext& rank) {
        for (int i = 0; i < 20; ++i) ASSERT_HCCL_OK(HcclBarrier(rank.comm, rank.stream));
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        HcclResult asyncError = HCCL_E_RESERVED;
        EXPECT_HCCL_OK(HcclGetCommAsyncError(rank.comm, &asyncError));
        EXPECT_EQ(HCCL_SUCCESS, asyncError);
    });
}

}  // namespace
}  // namespace aclcpu::hccl_test
