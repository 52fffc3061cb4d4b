// ScaledMaskedSoftmaxGradV2's A2 tiling against the rule its header states:
// B*N*S1 lines front-loaded over the cores, rows padded to a 64-float
// repeat, the SoftmaxGrad path up to 1024 padded floats and the manual
// 64-block reduction beyond, loops of at least one line and at most a
// block's, and at least the 16 MiB system workspace.
#include "common/tests/tiling_checks.hpp"
#include "scaled_masked_softmax_backward/scaled_masked_softmax_backward_tiling.hpp"

namespace {

using namespace tiling_test;
using aclcpu::ops::RowReduction;
using aclcpu::ops::SoftmaxBackwardShape;

const SoftmaxBackwardShape kShapes[] = {
    {1, 1, 1, 1}, {2, 3, 5, 64}, {1, 2, 47, 65}, {4, 8, 128, 1024}, {1, 1, 100, 1025}, {2, 2, 16, 4096},
};

TEST(ScaledMaskedSoftmaxBackwardTiling, LinesFrontLoadedOverTheCores) {
    for (const SocProfile* soc : {&kA2, &kSmallSoc}) {
        for (const SoftmaxBackwardShape& s : kShapes) {
            SCOPED_TRACE(testing::Message() << soc->name << " S1 " << s.rows << " S2 " << s.length);
            const auto t = aclcpu::ops::tile_scaled_masked_softmax_backward(s, ACL_FLOAT16, 0.5, *soc);
            expect_front_loaded(t.blocks, s.batch * s.heads * s.rows, soc->vectorCoreCount, s.length);
        }
    }
}

TEST(ScaledMaskedSoftmaxBackwardTiling, ShortRowsShareBlocksWhole) {
    // 64 rows of 16: one block.  512 rows of 64: 8 blocks of 64 whole rows.
    const auto one = aclcpu::ops::tile_scaled_masked_softmax_backward({1, 1, 64, 16}, ACL_FLOAT, 1.0, kA2);
    ASSERT_EQ(one.blocks.count(), 1);
    EXPECT_EQ(one.blocks.block(0), (Range{0, 64}));
    const auto eight = aclcpu::ops::tile_scaled_masked_softmax_backward({2, 4, 64, 64}, ACL_FLOAT, 1.0, kA2);
    ASSERT_EQ(eight.blocks.count(), 8);
    for (int64_t b = 0; b < 8; ++b) EXPECT_EQ(eight.blocks.block(b), (Range{b * 64, (b + 1) * 64}));
}

TEST(ScaledMaskedSoftmaxBackwardTiling, RowsPadToARepeatAndPickTheirReduction) {
    for (const SoftmaxBackwardShape& s : kShapes) {
        for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
            SCOPED_TRACE(testing::Message() << "S2 " << s.length << " dtype " << dtype);
            const auto t = aclcpu::ops::tile_scaled_masked_softmax_backward(s, dtype, 0.1, kA2);
            EXPECT_EQ(t.paddedLength, (s.length + 63) / 64 * 64);
            EXPECT_EQ(t.reduction,
                      t.paddedLength <= 1024 ? RowReduction::kFoldedBlocksOf8 : RowReduction::kBlocksOf64);
            EXPECT_GE(t.linesPerLoop, 1);
            EXPECT_LE(t.linesPerLoop, t.blocks.block(0).size());
            EXPECT_EQ(t.scale, 0.1f);
            EXPECT_GE(t.workspaceSize, 16u << 20);
            EXPECT_GE(t.workspaceSize, static_cast<uint64_t>(t.blocks.count() * t.stagingBytesPerBlock));
        }
    }
}

TEST(ScaledMaskedSoftmaxBackwardTiling, AFullBlockLoopFitsUb) {
    // 4096 floats of gradOutput and y rows (fp16, cast to fp32) and the
    // select buffer leave room for 7 lines in 192 KiB: (192 Ki - 18 Ki) /
    // (4096 * (2 * 2 + 2 * 4)).
    const auto t = aclcpu::ops::tile_scaled_masked_softmax_backward({1, 1, 4800, 4096}, ACL_FLOAT16, 1.0, kA2);
    EXPECT_EQ(t.reduction, RowReduction::kBlocksOf64);
    EXPECT_EQ(t.linesPerLoop, (192 * 1024 - 18 * 1024) / (4096 * 12));
}

}  // namespace
