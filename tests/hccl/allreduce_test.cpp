// HcclAllReduce: every type and operation an Atlas A2 reduces, on 2, 3 and
// 8 ranks, against references that combine the ranks in rank order
// (hccl_test_support); counts that do not divide among the ranks, counts
// below the rank count, count 0, in place, and counts that cross the
// library's blocks.
#include <cmath>
#include <limits>
#include <memory>

#include "aclcpu_testkit/device_data.hpp"
#include "hccl/hccl_test_support.hpp"

namespace aclcpu::hccl_test {
namespace {

struct Combo {
    HcclDataType dtype;
    HcclReduceOp op;
};

/// Every reduction of an Atlas A2: seven types, four ops, prod not over int16 or bf16.
std::vector<Combo> a2_reductions() {
    std::vector<Combo> combos;
    for (HcclDataType dtype : {HCCL_DATA_TYPE_INT8, HCCL_DATA_TYPE_INT16, HCCL_DATA_TYPE_INT32, HCCL_DATA_TYPE_INT64,
                               HCCL_DATA_TYPE_FP16, HCCL_DATA_TYPE_FP32, HCCL_DATA_TYPE_BFP16}) {
        for (HcclReduceOp op : {HCCL_REDUCE_SUM, HCCL_REDUCE_PROD, HCCL_REDUCE_MAX, HCCL_REDUCE_MIN}) {
            if (op == HCCL_REDUCE_PROD && (dtype == HCCL_DATA_TYPE_INT16 || dtype == HCCL_DATA_TYPE_BFP16)) continue;
            combos.push_back({dtype, op});
        }
    }
    return combos;
}

uint64_t seed_of(uint64_t call, uint32_t rank, uint32_t ranks) { return call * 1009 + rank * 31 + ranks * 100003; }

/// Every rank's input of one call.
std::vector<std::vector<uint8_t>> all_inputs(HcclDataType dtype, HcclReduceOp op, size_t count, uint64_t call,
                                             uint32_t ranks) {
    std::vector<std::vector<uint8_t>> inputs;
    for (uint32_t r = 0; r < ranks; ++r) inputs.push_back(reduction_input(dtype, op, count, seed_of(call, r, ranks)));
    return inputs;
}

/// All-reduces every combo's input on every rank (out of place, one
/// stream, one synchronisation) and checks every rank's output and that
/// its input is untouched.
void check_combos(uint32_t ranks, size_t count, const std::vector<Combo>& combos) {
    with_group(ranks, [&](RankContext& rank) {
        std::vector<std::vector<std::vector<uint8_t>>> inputs;
        std::vector<std::unique_ptr<DeviceMemory>> sends, recvs;
        for (size_t c = 0; c < combos.size(); ++c) {
            inputs.push_back(all_inputs(combos[c].dtype, combos[c].op, count, c, ranks));
            sends.push_back(std::make_unique<DeviceMemory>(inputs[c][rank.rank]));
            recvs.push_back(std::make_unique<DeviceMemory>(count * type_size(combos[c].dtype)));
            ASSERT_HCCL_OK(HcclAllReduce(sends[c]->get(), recvs[c]->get(), count, combos[c].dtype, combos[c].op,
                                         rank.comm, rank.stream));
        }
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        for (size_t c = 0; c < combos.size(); ++c) {
            const HcclDataType dtype = combos[c].dtype;
            EXPECT_ELEMENTS_EQ(dtype, recvs[c]->bytes(), reduce_reference(dtype, combos[c].op, inputs[c], 0, count))
                << type_name(dtype) << " " << op_name(combos[c].op) << " on rank " << rank.rank << " of " << ranks;
            EXPECT_ELEMENTS_EQ(dtype, sends[c]->bytes(), inputs[c][rank.rank]) << "the input changed";
        }
        HcclResult asyncError = HCCL_E_RESERVED;
        EXPECT_HCCL_OK(HcclGetCommAsyncError(rank.comm, &asyncError));
        EXPECT_EQ(HCCL_SUCCESS, asyncError);
    });
}

class AllReduce : public HcclTest, public ::testing::WithParamInterface<uint32_t> {};

// 1001 elements: no rank count divides it, so the ranks' slices differ.
TEST_P(AllReduce, EveryA2TypeAndOpCombinesTheRanksInRankOrder) { check_combos(GetParam(), 1001, a2_reductions()); }

// Fewer elements than ranks (and just more): some ranks own no slice.
TEST_P(AllReduce, CountsAroundTheRankCount) {
    const uint32_t ranks = GetParam();
    for (size_t count : {size_t{1}, size_t{ranks - 1}, size_t{ranks + 1}}) {
        if (count == 0) continue;
        check_combos(ranks, count, {{HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM}, {HCCL_DATA_TYPE_INT8, HCCL_REDUCE_MAX}});
    }
}

// In place (sendBuf == recvBuf), as data-parallel training all-reduces its gradients.
TEST_P(AllReduce, InPlace) {
    const uint32_t ranks = GetParam();
    const size_t count = 1001;
    const std::vector<Combo> combos = {{HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM},
                                       {HCCL_DATA_TYPE_INT8, HCCL_REDUCE_PROD},
                                       {HCCL_DATA_TYPE_FP16, HCCL_REDUCE_MAX},
                                       {HCCL_DATA_TYPE_BFP16, HCCL_REDUCE_MIN},
                                       {HCCL_DATA_TYPE_INT64, HCCL_REDUCE_SUM}};
    with_group(ranks, [&](RankContext& rank) {
        std::vector<std::vector<std::vector<uint8_t>>> inputs;
        std::vector<std::unique_ptr<DeviceMemory>> buffers;
        for (size_t c = 0; c < combos.size(); ++c) {
            inputs.push_back(all_inputs(combos[c].dtype, combos[c].op, count, c + 50, ranks));
            buffers.push_back(std::make_unique<DeviceMemory>(inputs[c][rank.rank]));
            ASSERT_HCCL_OK(HcclAllReduce(buffers[c]->get(), buffers[c]->get(), count, combos[c].dtype, combos[c].op,
                                         rank.comm, rank.stream));
        }
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        for (size_t c = 0; c < combos.size(); ++c) {
            EXPECT_ELEMENTS_EQ(combos[c].dtype, buffers[c]->bytes(),
                               reduce_reference(combos[c].dtype, combos[c].op, inputs[c], 0, count))
                << type_name(combos[c].dtype) << " " << op_name(combos[c].op) << " in place on rank " << rank.rank;
        }
    });
}

INSTANTIATE_TEST_SUITE_P(Ranks, AllReduce, ::testing::Values(2u, 3u, 8u),
                         [](const ::testing::TestParamInfo<uint32_t>& info) {
                             return std::to_string(info.param) + "ranks";
                         });

using AllReduceValues = HcclTest;

// The fp32 sum is the rank-order fp32 sum bit for bit, and within rounding
// of the exact (double) sum.
TEST_F(AllReduceValues, Fp32SumIsTheRankOrderSumBitForBit) {
    const uint32_t ranks = 8;
    const size_t count = 4099;
    const auto inputs = all_inputs(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, count, 7, ranks);
    with_group(ranks, [&](RankContext& rank) {
        DeviceMemory send(inputs[rank.rank]);
        DeviceMemory recv(count * sizeof(float));
        ASSERT_HCCL_OK(HcclAllReduce(send.get(), recv.get(), count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, rank.comm,
                                     rank.stream));
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        const std::vector<float> got = recv.values<float>();
        size_t wrong = 0, inexact = 0;
        for (size_t i = 0; i < count; ++i) {
            float ordered = 0.0f;
            double exact = 0.0, magnitude = 0.0;
            for (uint32_t r = 0; r < ranks; ++r) {
                float x;
                std::memcpy(&x, &inputs[r][i * sizeof(float)], sizeof x);
                ordered = r == 0 ? x : ordered + x;
                exact += x;
                magnitude += std::fabs(x);
            }
            wrong += std::memcmp(&got[i], &ordered, sizeof(float)) != 0;
            inexact += std::fabs(got[i] - exact) > ranks * magnitude * std::numeric_limits<float>::epsilon();
        }
        EXPECT_EQ(0u, wrong) << "elements that differ from the rank-order fp32 sum on rank " << rank.rank;
        EXPECT_EQ(0u, inexact) << "elements beyond rounding of the exact sum on rank " << rank.rank;
    });
}

// fp16 and bf16 accumulate in fp32 and round once: 2048 + 1 + 1 is 2050 in
// fp16 (a fp16 running sum would stay at 2048), 256 + 1 + 1 is 258 in bf16.
TEST_F(AllReduceValues, NarrowFloatsAccumulateInFp32AndRoundOnce) {
    struct Case {
        HcclDataType dtype;
        double values[3];
        double want;
    };
    const Case cases[] = {{HCCL_DATA_TYPE_FP16, {2048, 1, 1}, 2050},
                          {HCCL_DATA_TYPE_BFP16, {256, 1, 1}, 258},
                          {HCCL_DATA_TYPE_FP16, {1, 1, 2048}, 2050},
                          {HCCL_DATA_TYPE_FP16, {65504, 65504, -65504}, 65504}};  // fp32 holds the overflow
    with_group(3, [&](RankContext& rank) {
        std::vector<std::unique_ptr<DeviceMemory>> buffers;
        for (const Case& c : cases) {
            const uint16_t bits = c.dtype == HCCL_DATA_TYPE_FP16 ? testkit::double_to_fp16_bits(c.values[rank.rank])
                                                                 : testkit::double_to_bf16_bits(c.values[rank.rank]);
            buffers.push_back(std::make_unique<DeviceMemory>(as_bytes(std::vector<uint16_t>(5, bits))));
            ASSERT_HCCL_OK(HcclAllReduce(buffers.back()->get(), buffers.back()->get(), 5, c.dtype, HCCL_REDUCE_SUM,
                                         rank.comm, rank.stream));
        }
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        for (size_t i = 0; i < std::size(cases); ++i) {
            const std::vector<uint8_t> got = buffers[i]->bytes();
            for (size_t e = 0; e < 5; ++e) {
                EXPECT_EQ(cases[i].want, element_value(cases[i].dtype, got.data(), e))
                    << "case " << i << " (" << type_name(cases[i].dtype) << ") element " << e;
            }
        }
    });
}

// Integer sums and products wrap around (two's complement).
TEST_F(AllReduceValues, IntegersWrap) {
    with_group(2, [&](RankContext& rank) {
        DeviceMemory int8s(as_bytes(std::vector<int8_t>{127, -128, 100, 64}));
        DeviceMemory int32s(as_bytes(std::vector<int32_t>{std::numeric_limits<int32_t>::max(), 65536}));
        DeviceMemory int64s(as_bytes(std::vector<int64_t>{std::numeric_limits<int64_t>::max(), -1}));
        DeviceMemory int8Prod(as_bytes(std::vector<int8_t>{16, -128, 3}));
        ASSERT_HCCL_OK(HcclAllReduce(int8s.get(), int8s.get(), 4, HCCL_DATA_TYPE_INT8, HCCL_REDUCE_SUM, rank.comm,
                                     rank.stream));
        ASSERT_HCCL_OK(HcclAllReduce(int32s.get(), int32s.get(), 2, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, rank.comm,
                                     rank.stream));
        ASSERT_HCCL_OK(HcclAllReduce(int64s.get(), int64s.get(), 2, HCCL_DATA_TYPE_INT64, HCCL_REDUCE_SUM, rank.comm,
                                     rank.stream));
        ASSERT_HCCL_OK(HcclAllReduce(int8Prod.get(), int8Prod.get(), 3, HCCL_DATA_TYPE_INT8, HCCL_REDUCE_PROD,
                                     rank.comm, rank.stream));
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        EXPECT_EQ((std::vector<int8_t>{-2, 0, -56, -128}), int8s.values<int8_t>());
        EXPECT_EQ((std::vector<int32_t>{-2, 131072}), int32s.values<int32_t>());
        EXPECT_EQ((std::vector<int64_t>{-2, -2}), int64s.values<int64_t>());
        EXPECT_EQ((std::vector<int8_t>{0, 0, 9}), int8Prod.values<int8_t>());
    });
}

// Max and min propagate NaN (docs/hccl.md), whichever rank holds it.
TEST_F(AllReduceValues, MaxAndMinPropagateNaN) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    with_group(3, [&](RankContext& rank) {
        // Element e holds NaN on rank e (element 3: on no rank).
        std::vector<float> values = {1.0f + rank.rank, 2.0f - rank.rank, 3.0f, -4.0f * rank.rank};
        if (rank.rank < 3) values[rank.rank] = nan;
        std::vector<uint16_t> halves;
        for (float v : values) halves.push_back(testkit::double_to_fp16_bits(v));
        DeviceMemory maxIn(as_bytes(values)), minIn(as_bytes(values)), halfIn(as_bytes(halves));
        DeviceMemory maxOut(16), minOut(16), halfOut(8);
        ASSERT_HCCL_OK(HcclAllReduce(maxIn.get(), maxOut.get(), 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_MAX, rank.comm,
                                     rank.stream));
        ASSERT_HCCL_OK(HcclAllReduce(minIn.get(), minOut.get(), 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_MIN, rank.comm,
                                     rank.stream));
        ASSERT_HCCL_OK(HcclAllReduce(halfIn.get(), halfOut.get(), 4, HCCL_DATA_TYPE_FP16, HCCL_REDUCE_MAX, rank.comm,
                                     rank.stream));
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        const std::vector<float> maxima = maxOut.values<float>(), minima = minOut.values<float>();
        const std::vector<uint8_t> halfMaxima = halfOut.bytes();
        for (size_t e = 0; e < 3; ++e) {
            EXPECT_TRUE(std::isnan(maxima[e])) << "max element " << e << " is " << maxima[e];
            EXPECT_TRUE(std::isnan(minima[e])) << "min element " << e << " is " << minima[e];
            EXPECT_TRUE(std::isnan(element_value(HCCL_DATA_TYPE_FP16, halfMaxima.data(), e))) << "fp16 max " << e;
        }
        EXPECT_EQ(0.0f, maxima[3]);
        EXPECT_EQ(-8.0f, minima[3]);
        EXPECT_EQ(0.0, element_value(HCCL_DATA_TYPE_FP16, halfMaxima.data(), 3));
    });
}

// Count 0 is a valid no-op, with buffers or with null pointers.
TEST_F(AllReduceValues, CountZeroIsANoOp) {
    with_group(3, [&](RankContext& rank) {
        DeviceMemory send(as_bytes(std::vector<float>{1.0f, 2.0f}));
        DeviceMemory recv(8);
        ASSERT_HCCL_OK(HcclAllReduce(send.get(), recv.get(), 0, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, rank.comm,
                                     rank.stream));
        ASSERT_HCCL_OK(HcclAllReduce(nullptr, nullptr, 0, HCCL_DATA_TYPE_INT8, HCCL_REDUCE_MAX, rank.comm,
                                     rank.stream));
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        EXPECT_EQ(std::vector<uint8_t>(8, DeviceMemory::kSentinel), recv.bytes());
        HcclResult asyncError = HCCL_E_RESERVED;
        EXPECT_HCCL_OK(HcclGetCommAsyncError(rank.comm, &asyncError));
        EXPECT_EQ(HCCL_SUCCESS, asyncError);
    });
}

// 1 Mi + 3 fp32 elements per rank on 3 ranks (4 MiB, many 256 KiB blocks,
// uneven slices), out of place; then 512 Ki + 1 int32 elements in place.
TEST_F(AllReduceValues, LargeCountsCrossBlocks) {
    const uint32_t ranks = 3;
    const size_t count = (size_t{1} << 20) + 3, inPlaceCount = (size_t{1} << 19) + 1;
    const auto inputs = all_inputs(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, count, 11, ranks);
    const auto inPlaceInputs = all_inputs(HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, inPlaceCount, 12, ranks);
    const auto want = reduce_reference(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, inputs, 0, count);
    const auto inPlaceWant = reduce_reference(HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, inPlaceInputs, 0, inPlaceCount);
    with_group(ranks, [&](RankContext& rank) {
        DeviceMemory send(inputs[rank.rank]);
        DeviceMemory recv(count * sizeof(float));
        DeviceMemory inPlace(inPlaceInputs[rank.rank]);
        ASSERT_HCCL_OK(HcclAllReduce(send.get(), recv.get(), count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, rank.comm,
                                     rank.stream));
        ASSERT_HCCL_OK(HcclAllReduce(inPlace.get(), inPlace.get(), inPlaceCount, HCCL_DATA_TYPE_INT32,
                                     HCCL_REDUCE_SUM, rank.comm, rank.stream));
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        EXPECT_ELEMENTS_EQ(HCCL_DATA_TYPE_FP32, recv.bytes(), want) << "rank " << rank.rank;
        EXPECT_ELEMENTS_EQ(HCCL_DATA_TYPE_INT32, inPlace.bytes(), inPlaceWant) << "in place, rank " << rank.rank;
    });
}

// A communicator of one rank: the all-reduce is a copy.
TEST_F(AllReduceValues, OneRankCopies) {
    with_group(1, [&](RankContext& rank) {
        const std::vector<float> values = {1.5f, -2.25f, 3.0f};
        DeviceMemory send(as_bytes(values));
        DeviceMemory recv(12);
        ASSERT_HCCL_OK(HcclAllReduce(send.get(), recv.get(), 3, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_PROD, rank.comm,
                                     rank.stream));
        ASSERT_ACL_OK(aclrtSynchronizeStream(rank.stream));
        EXPECT_EQ(values, recv.values<float>());
    });
}

// HcclCommInitAll makes all eight ranks from one thread; that thread then
// enqueues every rank's all-reduce (enqueueing never blocks) and
// synchronises every stream.
TEST_F(AllReduceValues, InitAllDrivenFromOneThread) {
    const uint32_t ranks = 8;
    const size_t count = 333;
    const auto inputs = all_inputs(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_MAX, count, 21, ranks);
    const auto want = reduce_reference(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_MAX, inputs, 0, count);
    run_ranks(1, [&](uint32_t) {
        std::vector<int32_t> devices = {0, 1, 2, 3, 4, 5, 6, 7};
        std::vector<HcclComm> comms(ranks, nullptr);
        ASSERT_HCCL_OK(HcclCommInitAll(ranks, devices.data(), comms.data()));
        std::vector<aclrtStream> streams(ranks, nullptr);
        std::vector<std::unique_ptr<DeviceMemory>> sends, recvs;
        for (uint32_t r = 0; r < ranks; ++r) {
            ASSERT_ACL_OK(aclrtSetDevice(devices[r]));
            ASSERT_ACL_OK(aclrtCreateStream(&streams[r]));
            sends.push_back(std::make_unique<DeviceMemory>(inputs[r]));
            recvs.push_back(std::make_unique<DeviceMemory>(count * sizeof(float)));
        }
        for (uint32_t r = 0; r < ranks; ++r) {
            uint32_t id = 99, size = 0;
            EXPECT_HCCL_OK(HcclGetRankId(comms[r], &id));
            EXPECT_HCCL_OK(HcclGetRankSize(comms[r], &size));
            EXPECT_EQ(r, id);
            EXPECT_EQ(ranks, size);
            EXPECT_HCCL_OK(HcclAllReduce(sends[r]->get(), recvs[r]->get(), count, HCCL_DATA_TYPE_FP32,
                                         HCCL_REDUCE_MAX, comms[r], streams[r]));
        }
        for (uint32_t r = 0; r < ranks; ++r) {
            EXPECT_ACL_OK(aclrtSynchronizeStream(streams[r]));
            EXPECT_ELEMENTS_EQ(HCCL_DATA_TYPE_FP32, recvs[r]->bytes(), want) << "rank " << r;
        }
        for (uint32_t r = 0; r < ranks; ++r) {
            EXPECT_ACL_OK(aclrtDestroyStream(streams[r]));
            EXPECT_HCCL_OK(HcclCommDestroy(comms[r]));
        }
    });
}

}  // namespace
}  // namespace aclcpu::hccl_test
