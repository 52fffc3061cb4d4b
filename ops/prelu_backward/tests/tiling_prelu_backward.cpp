// PreluBackward's tiling against the rule its header states: update blocks
// of whole UB blocks of self's dtype, reduce blocks of whole 64-channel
// repeats, chunks of whole repeats that fit UB, and a workspace of three
// disjoint regions (fp32 weight, per-block partial sums, staging).
#include "common/tests/tiling_checks.hpp"
#include "prelu_backward/prelu_backward_tiling.hpp"

namespace {

using namespace tiling_test;
using aclcpu::ops::PreluGeometry;

struct PreluCase {
    PreluGeometry geometry;
    aclDataType dtype;
};

const PreluCase kCases[] = {
    {{1, 1, 1}, ACL_FLOAT},                 {{6, 3, 2}, ACL_FLOAT16},
    {{64 * 1024, 64, 16}, ACL_BF16},        {{1 << 20, 1, 1 << 20}, ACL_FLOAT},
    {{3 * 1000 * 7, 1000, 7}, ACL_FLOAT16}, {{50'000'000, 5'000, 100}, ACL_FLOAT},
};

TEST(PreluBackwardTiling, UpdateAndReduceBlocksPartitionTheirWork) {
    for (const SocProfile* soc : {&kA2, &kSmallSoc}) {
        for (const PreluCase& c : kCases) {
            SCOPED_TRACE(testing::Message() << soc->name << " elements " << c.geometry.elements);
            const auto t = aclcpu::ops::tile_prelu_backward(c.geometry, c.dtype, *soc);
            expect_block_factor(t.updateBlocks, c.geometry.elements, soc->vectorCoreCount,
                                c.dtype == ACL_FLOAT ? 8 : 16);
            expect_block_factor(t.reduceBlocks, c.geometry.channels, soc->vectorCoreCount, 64, t.updateBlocks.count());
        }
    }
}

TEST(PreluBackwardTiling, ASmallLaunchIsOneBlockOfEachPhase) {
    const auto t = aclcpu::ops::tile_prelu_backward({64 * 16, 64, 16}, ACL_FLOAT, kA2);
    EXPECT_EQ(t.updateBlocks.count(), 1);
    EXPECT_EQ(t.reduceBlocks.count(), 1);
    // One row of partial sums.
    EXPECT_GE(t.stagingOffset - t.partialsOffset, 64u * 4);
    EXPECT_LT(t.stagingOffset - t.partialsOffset, 2u * 64 * 4);
}

TEST(PreluBackwardTiling, ChunksAreWholeRepeatsThatFitUb) {
    for (const PreluCase& c : kCases) {
        const auto t = aclcpu::ops::tile_prelu_backward(c.geometry, c.dtype, kA2);
        // Four tensors in the storage dtype, plus three fp32 copies for a 2-byte one.
        const int64_t bytesPerElement = c.dtype == ACL_FLOAT ? 16 : 4 * 2 + 3 * 4;
        expect_ub_chunk(t.chunkElements, kA2.ubSize - 16 * 1024, bytesPerElement, 64);
        EXPECT_LE(t.chunkElements, (t.updateBlocks.block(0).size() + 63) / 64 * 64);
    }
}

TEST(PreluBackwardTiling, WorkspaceRegionsAreDisjointAndInside) {
    for (const PreluCase& c : kCases) {
        const auto t = aclcpu::ops::tile_prelu_backward(c.geometry, c.dtype, kA2);
        const uint64_t weightBytes = static_cast<uint64_t>(c.geometry.channels) * 4;
        const uint64_t partialBytes = static_cast<uint64_t>(t.updateBlocks.count() * c.geometry.channels) * 4;
        EXPECT_EQ(t.weightOffset, 0u);
        EXPECT_GE(t.partialsOffset, t.weightOffset + weightBytes);
        EXPECT_GE(t.stagingOffset, t.partialsOffset + partialBytes);
        EXPECT_GE(t.workspaceSize,
                  t.stagingOffset + static_cast<uint64_t>(t.updateBlocks.count() * t.stagingBytesPerBlock));
        // Block b's partials start b rows of channels floats into their region.
        const int64_t last = t.updateBlocks.count() - 1;
        auto* base = reinterpret_cast<std::byte*>(uintptr_t{4096});
        EXPECT_EQ(reinterpret_cast<std::byte*>(t.partials_of(base, last)),
                  base + t.partialsOffset + static_cast<uint64_t>(last * c.geometry.channels) * 4);
    }
}

}  // namespace
