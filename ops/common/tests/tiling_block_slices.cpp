// How launch_block_slices cuts an operator's blocks into tasks
// (common/block_launch.hpp): a worker takes another stream's ready item only
// between tasks, so a long operator's blocks are cut into slices of bounded
// bytes -- at granule boundaries counted from each block's start, so that a
// slice never splits what the kernel computes as one (a UB chunk, a row) --
// while small launches keep their blocks whole.  The slices are collected
// from the launcher itself, running on this thread's arena.
#include "common/tests/tiling_checks.hpp"

#include <mutex>
#include <stdexcept>
#include <vector>

#include "acl/acl_base.h"
#include "acl/error_codes/rt_error_codes.h"
#include "common/block_launch.hpp"

namespace {

using namespace tiling_test;
using aclcpu::ops::BlockSlice;
using aclcpu::ops::kMaxSliceBytes;
using aclcpu::ops::kUncutBlocks;
using aclcpu::ops::launch_block_slices;
using aclcpu::ops::plan_slices;

constexpr int64_t kCores = 48;

/// Every slice launch_block_slices runs for blocks, sorted by position.
std::vector<BlockSlice> run_slices(const BlockSplit& blocks, int64_t bytesPerUnit, int64_t granule) {
    std::mutex mutex;
    std::vector<BlockSlice> slices;
    const aclError status =
        launch_block_slices("SliceTest", blocks, bytesPerUnit, granule, [&](const BlockSlice& slice) {
            std::lock_guard<std::mutex> lock(mutex);
            slices.push_back(slice);
        });
    EXPECT_EQ(status, ACL_SUCCESS);
    std::sort(slices.begin(), slices.end(),
              [](const BlockSlice& a, const BlockSlice& b) { return a.units.begin < b.units.begin; });
    return slices;
}

/// The slices tile every block exactly, in order, each inside its block,
/// starting a whole number of granules after the block's first unit and
/// moving at most kMaxSliceBytes unless it is a single granule.
void expect_tiles_blocks(const BlockSplit& blocks, int64_t bytesPerUnit, int64_t granule) {
    const std::vector<BlockSlice> slices = run_slices(blocks, bytesPerUnit, granule);
    size_t next = 0;
    for (int64_t b = 0; b < blocks.count(); ++b) {
        const Range block = blocks.block(b);
        int64_t covered = block.begin;
        do {
            ASSERT_LT(next, slices.size()) << "block " << b << " not covered past " << covered;
            const BlockSlice& slice = slices[next++];
            EXPECT_EQ(slice.block, b);
            EXPECT_EQ(slice.units.begin, covered);
            EXPECT_LE(slice.units.end, block.end);
            EXPECT_EQ((slice.units.begin - block.begin) % granule, 0);
            if (slice.units.size() > granule) {
                EXPECT_LE(slice.units.size() * bytesPerUnit, kMaxSliceBytes);
            }
            covered = slice.units.end;
        } while (covered < block.end);
    }
    EXPECT_EQ(next, slices.size());
}

TEST(BlockSlices, TileEveryBlockAtGranuleBoundaries) {
    for (const int64_t n : kElementCounts) {
        for (const int64_t granule : {int64_t{1}, int64_t{7}, int64_t{4096}, int64_t{16384}}) {
            SCOPED_TRACE(testing::Message() << "n " << n << " granule " << granule);
            expect_tiles_blocks(BlockSplit::by_factor(n, kCores, 8), 12, granule);
            expect_tiles_blocks(BlockSplit::front_loaded(n, kCores), 3, granule);
        }
    }
}

TEST(BlockSlices, ALongLaunchIsCutIntoTasksOfBoundedBytes) {
    // 16 Mi fp32 elements, two inputs and an output: 4 MiB per block.
    const BlockSplit blocks = BlockSplit::by_factor(int64_t{16} << 20, kCores, 8);
    const auto plan = plan_slices(blocks, 12, 16384);
    EXPECT_LE(plan.sliceUnits * 12, kMaxSliceBytes);
    EXPECT_GE(plan.slicesPerBlock, 8);
    expect_tiles_blocks(blocks, 12, 16384);
}

TEST(BlockSlices, SmallLaunchesAndUncutBlocksStayWhole) {
    // 1 Ki elements is one block (kMinBlockElements); a block that fits a slice is one.
    const BlockSplit small = BlockSplit::by_factor(1024, kCores, 8);
    EXPECT_EQ(plan_slices(small, 12, 1).slicesPerBlock, 1);
    EXPECT_EQ(run_slices(small, 12, 1).size(), 1u);
    const BlockSplit large = BlockSplit::by_factor(int64_t{16} << 20, kCores, 8);
    EXPECT_EQ(plan_slices(large, 12, kUncutBlocks).slicesPerBlock, 1);
    const std::vector<BlockSlice> whole = run_slices(large, 12, kUncutBlocks);
    ASSERT_EQ(static_cast<int64_t>(whole.size()), large.count());
    for (int64_t b = 0; b < large.count(); ++b) EXPECT_EQ(whole[static_cast<size_t>(b)].units, large.block(b));
}

TEST(BlockSlices, TheLargestViewsKeepACountOfSlicesATaskIndexHolds) {
    for (const int64_t n : kLargestElementCounts) {
        SCOPED_TRACE(n);
        const BlockSplit blocks = BlockSplit::by_factor(n, kCores, 32);
        const auto plan = plan_slices(blocks, 16, 4096);
        EXPECT_LE(plan.slicesPerBlock, int64_t{1} << 20);
        const auto reach = static_cast<__int128>(plan.sliceUnits) * plan.slicesPerBlock;
        EXPECT_GE(reach, blocks.block(0).size());
        EXPECT_LT(reach - plan.sliceUnits, blocks.block(0).size());
        EXPECT_EQ(plan.sliceUnits % 4096, 0);
    }
}

TEST(BlockSlices, AnExceptionInASliceIsReportedNotThrown) {
    const BlockSplit blocks = BlockSplit::by_factor(int64_t{4} << 20, kCores, 8);
    const aclError status = launch_block_slices("SliceTest", blocks, 12, 1, [](const BlockSlice& slice) {
        if (slice.block == 3) throw std::runtime_error("planted");
    });
    EXPECT_EQ(status, ACL_ERROR_RT_INTERNAL_ERROR);
}

}  // namespace
