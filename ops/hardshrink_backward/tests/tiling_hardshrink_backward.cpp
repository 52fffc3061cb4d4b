// HardShrinkGrad's tiling against the A2 rule its source states: blocks of
// ceil(N / cores) elements; chunks of what UB holds after its 16 KiB of
// queues and Select temporary, at the bytes an element costs (three queues,
// doubled above 1024 elements, plus two fp32 temporaries for BF16),
// aligned to 128 elements for FLOAT16 and 64 otherwise.
#include "common/tests/tiling_checks.hpp"
#include "hardshrink_backward/hardshrink_backward_tiling.hpp"

namespace {

using namespace tiling_test;

/// UB bytes per element as the A2 kernel lays out its queues.
int64_t bytes_per_element(aclDataType dtype, int64_t n) {
    const int64_t buffers = n > 1024 ? 2 : 1;
    const int64_t queues = 3 * buffers * (dtype == ACL_FLOAT ? 4 : 2);
    return queues + (dtype == ACL_BF16 ? 2 * 4 : 0);
}

TEST(HardshrinkBackwardTiling, BlocksAreCoreShares) {
    for (const SocProfile* soc : {&kA2, &kSmallSoc}) {
        for (const int64_t n : kElementCounts) {
            SCOPED_TRACE(testing::Message() << soc->name << " n " << n);
            expect_block_factor(aclcpu::ops::tile_hardshrink_backward(n, ACL_FLOAT, *soc).blocks, n,
                                soc->vectorCoreCount, 1);
        }
    }
}

TEST(HardshrinkBackwardTiling, ChunksFillUbAfterItsReservedBytes) {
    for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        const int64_t alignment = dtype == ACL_FLOAT16 ? 128 : 64;
        for (const int64_t n : kElementCounts) {
            SCOPED_TRACE(testing::Message() << "dtype " << dtype << " n " << n);
            const int64_t ub = kA2.ubSize - 16 * 1024;
            const int64_t chunk = aclcpu::ops::tile_hardshrink_backward(n, dtype, kA2).chunkElements;
            expect_ub_chunk(chunk, ub, bytes_per_element(dtype, n), alignment);
            const int64_t fit = ub / bytes_per_element(dtype, n) / alignment * alignment;
            EXPECT_EQ(chunk, std::min(fit, (n + alignment - 1) / alignment * alignment));
        }
    }
}

}  // namespace
