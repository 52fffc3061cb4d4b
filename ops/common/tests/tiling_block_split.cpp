// The minimum block every tiling shares (common/tiling.hpp): a launch too
// small to give each vector core kMinBlockElements elements runs on fewer
// blocks, one when it is no larger than that, while large launches keep
// CANN's split.  Units other than elements (rows, 8192-element chunks) count
// by the elements they stand for, and a unit is never split.
#include "common/tests/tiling_checks.hpp"

namespace {

using namespace tiling_test;

constexpr int64_t kCores = 48;
/// 32-byte UB blocks of fp32, fp16 and int8, HardShrinkGrad's and
/// PReluGradReduce's 64 and HardShrinkGrad's fp16 128.
constexpr int64_t kAlignments[] = {1, 8, 16, 32, 64, 128};

TEST(MinimumBlock, IsWholeVectorRepeatsOfEveryAlignment) {
    // A power of two of at least one 256-byte repeat of int8.
    EXPECT_GE(kMinBlockElements, 256);
    EXPECT_EQ(kMinBlockElements & (kMinBlockElements - 1), 0);
    for (const int64_t alignment : kAlignments) EXPECT_EQ(kMinBlockElements % alignment, 0) << alignment;
}

TEST(MinimumBlock, ALaunchOfUpToTheMinimumIsOneBlock) {
    for (const int64_t alignment : kAlignments) {
        for (const int64_t n : {int64_t{1}, int64_t{24}, int64_t{1024}, kMinBlockElements}) {
            SCOPED_TRACE(testing::Message() << "alignment " << alignment << " n " << n);
            const BlockSplit split = BlockSplit::by_factor(n, kCores, alignment);
            ASSERT_EQ(split.count(), 1);
            EXPECT_EQ(split.block(0), (Range{0, n}));
        }
    }
    EXPECT_EQ(BlockSplit::front_loaded(kMinBlockElements, kCores).count(), 1);
}

TEST(MinimumBlock, NoBlockButTheLastIsSmaller) {
    for (const int64_t alignment : kAlignments) {
        for (const int64_t n : {kMinBlockElements + 1, 3 * kMinBlockElements - 5, 47 * kMinBlockElements + 9}) {
            SCOPED_TRACE(testing::Message() << "alignment " << alignment << " n " << n);
            const BlockSplit split = BlockSplit::by_factor(n, kCores, alignment);
            expect_block_factor(split, n, kCores, alignment);
            EXPECT_EQ(split.count(), ceil_div(n, kMinBlockElements));
            for (int64_t b = 0; b + 1 < split.count(); ++b) EXPECT_EQ(split.block(b).size(), kMinBlockElements);
        }
    }
}

TEST(MinimumBlock, LaunchesThatFillEveryCoreKeepCannsSplit) {
    for (const int64_t n : {kCores * kMinBlockElements, int64_t{1} << 20, int64_t{50'000'017}}) {
        SCOPED_TRACE(testing::Message() << "n " << n);
        const BlockSplit split = BlockSplit::by_factor(n, kCores, 8);
        EXPECT_EQ(split.block(0).size(), ceil_div(ceil_div(n, kCores), 8) * 8);
        EXPECT_EQ(split.count(), ceil_div(n, split.block(0).size()));
        expect_front_loaded(BlockSplit::front_loaded(n, kCores), n, kCores);
        EXPECT_EQ(BlockSplit::front_loaded(n, kCores).count(), kCores);
    }
}

TEST(MinimumBlock, FrontLoadedUnitsCountByTheirElements) {
    // Rows of 16 elements: 256 rows make a minimum block.
    const int64_t rowsPerBlock = kMinBlockElements / 16;
    for (const int64_t rows : {int64_t{1}, int64_t{64}, rowsPerBlock, 2 * rowsPerBlock - 1, 5 * rowsPerBlock + 7,
                               kCores * rowsPerBlock + 1}) {
        SCOPED_TRACE(testing::Message() << "rows " << rows);
        const BlockSplit split = BlockSplit::front_loaded(rows, kCores, 16);
        expect_front_loaded(split, rows, kCores, 16);
        EXPECT_EQ(split.count(), std::clamp<int64_t>(rows / rowsPerBlock, 1, kCores));
        if (rows >= rowsPerBlock) {
            for (int64_t b = 0; b < split.count(); ++b) EXPECT_GE(split.block(b).size(), rowsPerBlock) << b;
        }
    }
}

TEST(MinimumBlock, AUnitOfAtLeastTheMinimumCountsAsABlock) {
    // LogitGrad's 8192-element chunks, a row longer than the minimum.
    for (const int64_t unitElements : {kMinBlockElements, int64_t{8192}, int64_t{1} << 40}) {
        for (const int64_t units : {int64_t{1}, int64_t{3}, kCores, kCores + 5}) {
            SCOPED_TRACE(testing::Message() << "unit " << unitElements << " units " << units);
            expect_front_loaded(BlockSplit::front_loaded(units, kCores, unitElements), units, kCores, unitElements);
            EXPECT_EQ(BlockSplit::front_loaded(units, kCores, unitElements).count(), std::min(units, kCores));
            EXPECT_EQ(BlockSplit::by_factor(units, kCores, 1, unitElements).block(0).size(), ceil_div(units, kCores));
        }
    }
}

TEST(MinimumBlock, TheLargestCountsSplitWithoutOverflow) {
    for (const int64_t n : kLargestElementCounts) {
        SCOPED_TRACE(testing::Message() << "n " << n);
        expect_block_factor(BlockSplit::by_factor(n, kCores, 32), n, kCores, 32);
        expect_front_loaded(BlockSplit::front_loaded(n, kCores, 7), n, kCores, 7);
    }
}

}  // namespace
