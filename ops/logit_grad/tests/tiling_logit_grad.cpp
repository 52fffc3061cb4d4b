// LogitGrad's A2 tiling against the rule its header states: 8192-element
// chunks spread front-loaded over the cores, the one short chunk ending the
// last longer block (or the last block), and a fixed 16 MiB workspace.
#include "common/tests/tiling_checks.hpp"
#include "logit_grad/logit_grad_tiling.hpp"

namespace {

using namespace tiling_test;

TEST(LogitGradTiling, WholeChunksFrontLoadedOverTheCores) {
    for (const SocProfile* soc : {&kA2, &kSmallSoc}) {
        for (const int64_t n : kElementCounts) {
            SCOPED_TRACE(testing::Message() << soc->name << " n " << n);
            const auto tiling = aclcpu::ops::tile_logit_grad(n, *soc);
            const BlockSplit& blocks = tiling.elementwise.blocks;
            const int64_t chunks = (n + 8191) / 8192;
            const int64_t blockDim = std::min(chunks, soc->vectorCoreCount);
            expect_partition(blocks, n, soc->vectorCoreCount);
            ASSERT_EQ(blocks.count(), blockDim);
            // The block holding the short chunk: the last longer one, or the last.
            const int64_t longer = chunks % blockDim;
            const int64_t shortBlock = (longer != 0 ? longer : blockDim) - 1;
            for (int64_t b = 0; b < blockDim; ++b) {
                const int64_t wholeChunks = chunks / blockDim + (b < longer ? 1 : 0);
                const int64_t expected = wholeChunks * 8192 - (b == shortBlock ? chunks * 8192 - n : 0);
                EXPECT_EQ(blocks.block(b).size(), expected) << "block " << b;
            }
            EXPECT_EQ(tiling.elementwise.chunkElements, 8192);
            EXPECT_EQ(tiling.workspaceSize, 16u << 20);
        }
    }
}

}  // namespace
