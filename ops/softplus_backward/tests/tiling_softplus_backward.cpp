// SoftplusV2Grad's tiling against the rule its header states: block-factor
// blocks of whole 32-byte UB blocks of the compute dtype, and fp32 chunks
// of a third of UB.
#include "common/tests/tiling_checks.hpp"
#include "softplus_backward/softplus_backward_tiling.hpp"

namespace {

using namespace tiling_test;

TEST(SoftplusBackwardTiling, BlocksTakeWholeUbBlocksOfTheComputeDtype) {
    for (const SocProfile* soc : {&kA2, &kSmallSoc}) {
        for (const auto& [dtype, elementBytes] : {std::pair{ACL_FLOAT, 4}, {ACL_FLOAT16, 2}, {ACL_BF16, 2}}) {
            for (const int64_t n : kElementCounts) {
                SCOPED_TRACE(testing::Message() << soc->name << " dtype " << dtype << " n " << n);
                const auto tiling = aclcpu::ops::tile_softplus_backward(n, dtype, *soc);
                expect_block_factor(tiling.blocks, n, soc->vectorCoreCount, 32 / elementBytes);
            }
        }
    }
}

// Issue 14: a 1 Ki-element launch ran as 43 blocks of 24 elements.
TEST(SoftplusBackwardTiling, ASmallLaunchIsOneBlock) {
    const auto tiling = aclcpu::ops::tile_softplus_backward(1024, ACL_FLOAT, kA2);
    ASSERT_EQ(tiling.blocks.count(), 1);
    EXPECT_EQ(tiling.blocks.block(0), (Range{0, 1024}));
    EXPECT_EQ(aclcpu::ops::tile_softplus_backward(48 * kMinBlockElements, ACL_BF16, kA2).blocks.count(), 48);
}

TEST(SoftplusBackwardTiling, ChunksAreAThirdOfUbInFp32) {
    for (const SocProfile* soc : {&kA2, &kSmallSoc}) {
        const int64_t node = soc->ubSize / 3 / 32 * 32;
        for (const int64_t n : kElementCounts) {
            const auto tiling = aclcpu::ops::tile_softplus_backward(n, ACL_FLOAT16, *soc);
            expect_ub_chunk(tiling.chunkElements, node, 4, 8);
            // Never more than the elements there are (rounded to one UB block).
            EXPECT_EQ(tiling.chunkElements, std::min(node / 4 / 8 * 8, (n + 7) / 8 * 8)) << soc->name << " n " << n;
        }
    }
}

}  // namespace
