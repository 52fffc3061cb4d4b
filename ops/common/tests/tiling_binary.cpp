// The binary engine's tiling (arithmetic, pow, comparison) against the rule
// its header states: block-factor blocks of whole 32-byte UB blocks of out's
// dtype, and chunks of a third of UB at the kernel's lane width.
#include "common/binary.hpp"
#include "common/tests/tiling_checks.hpp"

namespace {

using namespace tiling_test;

TEST(BinaryTiling, BlocksTakeWholeUbBlocksOfTheOutputDtype) {
    const std::pair<aclDataType, int64_t> outputs[] = {{ACL_FLOAT, 4},     {ACL_FLOAT16, 2},     {ACL_INT8, 1},
                                                       {ACL_INT64, 8},     {ACL_COMPLEX128, 16}, {ACL_BOOL, 1}};
    for (const SocProfile* soc : {&kA2, &kSmallSoc}) {
        for (const auto& [dtype, elementBytes] : outputs) {
            for (const int64_t n : kElementCounts) {
                SCOPED_TRACE(testing::Message() << soc->name << " dtype " << dtype << " n " << n);
                const auto tiling = aclcpu::ops::tile_binary(n, dtype, 4, *soc);
                expect_block_factor(tiling.blocks, n, soc->vectorCoreCount, std::max<int64_t>(1, 32 / elementBytes));
            }
        }
    }
}

TEST(BinaryTiling, ChunksAreAThirdOfUbAtTheLaneWidth) {
    for (const SocProfile* soc : {&kA2, &kSmallSoc}) {
        const int64_t node = soc->ubSize / 3 / 32 * 32;
        for (const int64_t laneBytes : {4, 8, 16}) {
            const int64_t alignment = 32 / laneBytes;
            for (const int64_t n : kElementCounts) {
                SCOPED_TRACE(testing::Message() << soc->name << " lane " << laneBytes << " n " << n);
                const auto tiling = aclcpu::ops::tile_binary(n, ACL_FLOAT, laneBytes, *soc);
                expect_ub_chunk(tiling.chunkElements, node, laneBytes, alignment);
                EXPECT_EQ(tiling.chunkElements,
                          std::min(node / laneBytes / alignment * alignment, (n + alignment - 1) / alignment * alignment));
            }
        }
    }
}

// A fuzzer's find: an in-place INT8 operator over a stride-0 view of
// INT64_MAX elements overflowed int64 while computing its UB chunk.
TEST(BinaryTiling, TheLargestViewsTileWithoutOverflow) {
    for (const SocProfile* soc : {&kA2, &kSmallSoc}) {
        const int64_t node = soc->ubSize / 3 / 32 * 32;
        for (const int64_t n : kLargestElementCounts) {
            SCOPED_TRACE(testing::Message() << soc->name << " n " << n);
            const auto tiling = aclcpu::ops::tile_binary(n, ACL_INT8, 4, *soc);
            expect_block_factor(tiling.blocks, n, soc->vectorCoreCount, 32);
            EXPECT_EQ(tiling.chunkElements, node / 4 / 8 * 8);
        }
    }
}

}  // namespace
