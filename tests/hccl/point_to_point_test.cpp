// HcclSend / HcclRecv, matched in call order per (source, destination)
// pair, and HcclBatchSendRecv, whose items are all posted at once (a ring of
// sends and receives in one batch does not deadlock).
#include <memory>

#include "hccl/hccl_test_support.hpp"

namespace aclcpu::hccl_test {
namespace {

using PointToPoint = HcclTest;

uint64_t message_seed(uint32_t from, uint32_t to, uint32_t index) { return (from * 64 + to) * 1000 + index; }

// Even rank r sends to r + 1, which receives; then the other way round, on
// the same streams (each rank's order matches its peer's).
TEST_F(PointToPoint, PairsExchangeBothWays) {
    for (uint32_t ranks : {2u, 8u}) {
        with_group(ranks, [&](RankContext& rank) {
            const uint32_t peer = rank.rank ^ 1u;
            const bool even = rank.rank % 2 == 0;
            const size_t count = 1001;
            const HcclDataType dtype = HCCL_DATA_TYPE_FP16;
            DeviceMemory out(pattern_bytes(dtype, count, message_seed(rank.rank, peer, 0)));
            DeviceMemory in(count * type_size(dtype));
            if (even) {
                ASSERT_HCCL_OK(HcclSend(out.get(), count, dtype, peer, rank.comm, rank.stream));
                ASSERT_HCCL_OK(HcclRecv(in.get(), count, dtype, peer, rank.comm, rank.stream));
            } else {
                ASSERT_HCCL_OK(HcclRecv(in.get(), count, dtype, peer, rank.comm, rank.stream));
                ASSERT_HCCL_OK(HcclSend(out.get(), count, dtype, peer, rank.comm, rank.stream));
            }
            ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
            EXPECT_ELEMENTS_EQ(dtype, in.bytes(), pattern_bytes(dtype, count, message_seed(peer, rank.rank, 0)))
                << "rank " << rank.rank << " of " << ranks;
            EXPECT_ELEMENTS_EQ(dtype, out.bytes(), pattern_bytes(dtype, count, message_seed(rank.rank, peer, 0)));
        });
    }
}

// Several messages to the same peer arrive in the order sent, each with its
// own size; the receiver posts them on two streams alternately (the order is
// the order of the calls, whatever the stream).  Rank 0 also interleaves
// messages to ranks 1 and 2.
TEST_F(PointToPoint, MessagesToOnePeerArriveInCallOrder) {
    const size_t counts[] = {1, 10, 1000, 3, 257, 64};
    const HcclDataType dtype = HCCL_DATA_TYPE_INT32;
    with_group(3, [&](RankContext& rank) {
        aclrtStream second = nullptr;
        ASSERT_ACL_OK(aclrtCreateStream(&second));
        std::vector<std::unique_ptr<DeviceMemory>> buffers;
        for (uint32_t m = 0; m < std::size(counts); ++m) {
            if (rank.rank == 0) {
                for (uint32_t to : {1u, 2u}) {
                    buffers.push_back(
                        std::make_unique<DeviceMemory>(pattern_bytes(dtype, counts[m], message_seed(0, to, m))));
                    ASSERT_HCCL_OK(HcclSend(buffers.back()->get(), counts[m], dtype, to, rank.comm, rank.stream));
                }
            } else {
                buffers.push_back(std::make_unique<DeviceMemory>(counts[m] * type_size(dtype)));
                ASSERT_HCCL_OK(HcclRecv(buffers.back()->get(), counts[m], dtype, 0, rank.comm,
                                        m % 2 == 0 ? rank.stream : second));
            }
        }
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        ASSERT_ACL_OK(aclrtSynchronizeStream(second));
        if (rank.rank != 0) {
            for (uint32_t m = 0; m < std::size(counts); ++m) {
                EXPECT_ELEMENTS_EQ(dtype, buffers[m]->bytes(),
                                   pattern_bytes(dtype, counts[m], message_seed(0, rank.rank, m)))
                    << "message " << m << " on rank " << rank.rank;
            }
        }
        EXPECT_ACL_OK(aclrtDestroyStream(second));
    });
}

// Every rank sends to its successor and receives from its predecessor in
// one batch: a ring that a blocking send-then-receive would deadlock.
TEST_F(PointToPoint, BatchRingDoesNotDeadlock) {
    for (uint32_t ranks : {2u, 3u, 8u}) {
        for (bool receiveFirst : {false, true}) {
            with_group(ranks, [&](RankContext& rank) {
                const uint32_t next = (rank.rank + 1) % ranks, previous = (rank.rank + ranks - 1) % ranks;
                const size_t count = 513;
                const HcclDataType dtype = HCCL_DATA_TYPE_FP32;
                DeviceMemory out(pattern_bytes(dtype, count, message_seed(rank.rank, next, 0)));
                DeviceMemory in(count * sizeof(float));
                HcclSendRecvItem items[2] = {{HCCL_SEND, out.get(), count, dtype, next},
                                             {HCCL_RECV, in.get(), count, dtype, previous}};
                if (receiveFirst) std::swap(items[0], items[1]);
                ASSERT_HCCL_OK(HcclBatchSendRecv(items, 2, rank.comm, rank.stream));
                ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
                EXPECT_ELEMENTS_EQ(dtype, in.bytes(), pattern_bytes(dtype, count, message_seed(previous, rank.rank, 0)))
                    << "rank " << rank.rank << " of " << ranks << (receiveFirst ? ", receive first" : "");
            });
        }
    }
}

// Both neighbours at once, both directions: four items per rank, two
// messages per direction of each pair (matched in item order).
TEST_F(PointToPoint, BatchExchangesWithBothNeighbours) {
    const uint32_t ranks = 4;
    const HcclDataType dtype = HCCL_DATA_TYPE_INT8;
    const size_t count = 100;
    with_group(ranks, [&](RankContext& rank) {
        const uint32_t next = (rank.rank + 1) % ranks, previous = (rank.rank + ranks - 1) % ranks;
        std::vector<std::unique_ptr<DeviceMemory>> outs, ins;
        std::vector<HcclSendRecvItem> items;
        for (uint32_t m = 0; m < 2; ++m) {
            for (uint32_t peer : {next, previous}) {
                outs.push_back(std::make_unique<DeviceMemory>(
                    pattern_bytes(dtype, count + m, message_seed(rank.rank, peer, m))));
                items.push_back({HCCL_SEND, outs.back()->get(), count + m, dtype, peer});
                ins.push_back(std::make_unique<DeviceMemory>(count + m));
                items.push_back({HCCL_RECV, ins.back()->get(), count + m, dtype, peer});
            }
        }
        ASSERT_HCCL_OK(HcclBatchSendRecv(items.data(), static_cast<uint32_t>(items.size()), rank.comm, rank.stream));
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        size_t i = 0;
        for (uint32_t m = 0; m < 2; ++m) {
            for (uint32_t peer : {next, previous}) {
                EXPECT_ELEMENTS_EQ(dtype, ins[i++]->bytes(),
                                   pattern_bytes(dtype, count + m, message_seed(peer, rank.rank, m)))
                    << "message " << m << " from " << peer << " on rank " << rank.rank;
            }
        }
    });
}

// Plain sends and receives and batches share the per-pair order.
TEST_F(PointToPoint, BatchesAndSingleTransfersShareThePairOrder) {
    const HcclDataType dtype = HCCL_DATA_TYPE_INT64;
    with_group(2, [&](RankContext& rank) {
        std::vector<std::unique_ptr<DeviceMemory>> buffers;
        for (uint32_t m = 0; m < 4; ++m) {
            const size_t count = 10 + m;
            if (rank.rank == 0) {
                buffers.push_back(std::make_unique<DeviceMemory>(pattern_bytes(dtype, count, message_seed(0, 1, m))));
                if (m % 2 == 0) {
                    ASSERT_HCCL_OK(HcclSend(buffers.back()->get(), count, dtype, 1, rank.comm, rank.stream));
                } else {
                    HcclSendRecvItem item{HCCL_SEND, buffers.back()->get(), count, dtype, 1};
                    ASSERT_HCCL_OK(HcclBatchSendRecv(&item, 1, rank.comm, rank.stream));
                }
            } else {
                buffers.push_back(std::make_unique<DeviceMemory>(count * type_size(dtype)));
                if (m % 2 == 1) {
                    ASSERT_HCCL_OK(HcclRecv(buffers.back()->get(), count, dtype, 0, rank.comm, rank.stream));
                } else {
                    HcclSendRecvItem item{HCCL_RECV, buffers.back()->get(), count, dtype, 0};
                    ASSERT_HCCL_OK(HcclBatchSendRecv(&item, 1, rank.comm, rank.stream));
                }
            }
        }
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        if (rank.rank == 1) {
            for (uint32_t m = 0; m < 4; ++m) {
                EXPECT_ELEMENTS_EQ(dtype, buffers[m]->bytes(), pattern_bytes(dtype, 10 + m, message_seed(0, 1, m)))
                    << "message " << m;
            }
        }
    });
}

// Count 0 transfers are valid no-ops (null buffers allowed).
TEST_F(PointToPoint, CountZeroTransfers) {
    with_group(2, [&](RankContext& rank) {
        DeviceMemory buffer(16);
        if (rank.rank == 0) {
            ASSERT_HCCL_OK(HcclSend(buffer.get(), 0, HCCL_DATA_TYPE_FP32, 1, rank.comm, rank.stream));
            ASSERT_HCCL_OK(HcclSend(nullptr, 0, HCCL_DATA_TYPE_FP32, 1, rank.comm, rank.stream));
        } else {
            ASSERT_HCCL_OK(HcclRecv(buffer.get(), 0, HCCL_DATA_TYPE_FP32, 0, rank.comm, rank.stream));
            ASSERT_HCCL_OK(HcclRecv(nullptr, 0, HCCL_DATA_TYPE_FP32, 0, rank.comm, rank.stream));
        }
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        EXPECT_EQ(std::vector<uint8_t>(16, DeviceMemory::kSentinel), buffer.bytes());
    });
}

}  // namespace
}  // namespace aclcpu::hccl_test
