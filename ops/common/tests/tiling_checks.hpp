// White-box checks shared by the operators' tiling tests (ops/*/tests/
// tiling_*.cpp).  A tiling is a pure function of sizes and a SoC profile,
// so these tests call it directly, inside the operator libraries' walls:
// they are built with the libraries' objects and private headers
// (tests/CMakeLists.txt, ops_tiling_tests), the one kind of test that may.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>

#include "aclcpu/soc_profile.hpp"
#include "common/tiling.hpp"

namespace tiling_test {

using aclcpu::SocProfile;
using aclcpu::ops::BlockSplit;
using aclcpu::ops::kMinBlockElements;
using aclcpu::ops::Range;

/// Atlas A2's Ascend910B2: 48 vector cores of 192 KiB UB.
inline const SocProfile kA2{"Ascend910B2", 24, 48, 192 * 1024, 192ll << 20, 64ull << 30};
/// A small SoC (3 vector cores, 8 KiB UB), so that small problems already
/// fill every core and the UB limits bite.
inline const SocProfile kSmallSoc{"small", 1, 3, 8 * 1024, 1ll << 20, 1ull << 30};

/// Element counts around the edges a tiling has to get right: one element,
/// a partial UB block, exactly one block per core, one more, large.
inline const std::initializer_list<int64_t> kElementCounts = {1, 7, 8, 63, 64, 1000, 48 * 16, 48 * 16 + 1,
                                                              1 << 20, (1 << 20) + 3, 50'000'017};

/// The largest element counts a valid view can have (stride 0 over a
/// one-byte dtype): no tiling sum or product may pass INT64_MAX on the way.
inline const std::initializer_list<int64_t> kLargestElementCounts = {INT64_MAX, INT64_MAX - 1, INT64_MAX / 2 + 1};

/// The blocks partition [0, total): in order, no gap, no overlap, none
/// empty, at most maxBlocks of them.
inline void expect_partition(const BlockSplit& split, int64_t total, int64_t maxBlocks) {
    ASSERT_GE(split.count(), 1);
    EXPECT_LE(split.count(), maxBlocks);
    EXPECT_EQ(split.block(0).begin, 0);
    for (int64_t b = 0; b < split.count(); ++b) {
        const Range range = split.block(b);
        EXPECT_GT(range.size(), 0) << "block " << b << " is empty";
        if (b > 0) {
            EXPECT_EQ(range.begin, split.block(b - 1).end) << "block " << b;
        }
    }
    EXPECT_EQ(split.block(split.count() - 1).end, total);
    EXPECT_EQ(split.total(), total);
}

/// Divisions that round up without forming a + b - 1, which passes
/// INT64_MAX for the largest totals.
inline int64_t ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

/// The units of unitElements elements that make a block of at least
/// kMinBlockElements elements.
inline int64_t min_units(int64_t unitElements) { return ceil_div(kMinBlockElements, unitElements); }

/// The "block factor" split of CANN's elementwise tilings, with acl-cpu's
/// minimum block: every block but the last takes ceil(total / cores) units,
/// at least min_units(unitElements), rounded up to alignment, the last
/// block the rest (computed here from that rule, not from the split).
inline void expect_block_factor(const BlockSplit& split, int64_t total, int64_t cores, int64_t alignment,
                                int64_t unitElements = 1) {
    expect_partition(split, total, cores);
    const int64_t factor = ceil_div(std::max(ceil_div(total, cores), min_units(unitElements)), alignment) * alignment;
    for (int64_t b = 0; b + 1 < split.count(); ++b) EXPECT_EQ(split.block(b).size(), factor) << "block " << b;
    EXPECT_EQ(split.count(), ceil_div(total, factor));
}

/// The "front-loaded" split, with acl-cpu's minimum block: min(total,
/// cores) blocks, but no more than leave every block min_units(unitElements)
/// units (at least one block); sizes floor or ceil of total / blocks, the
/// longer ones first.
inline void expect_front_loaded(const BlockSplit& split, int64_t total, int64_t cores, int64_t unitElements = 1) {
    expect_partition(split, total, cores);
    const int64_t blocks = std::max<int64_t>(1, std::min({total, cores, total / min_units(unitElements)}));
    ASSERT_EQ(split.count(), blocks);
    for (int64_t b = 0; b < blocks; ++b) {
        EXPECT_EQ(split.block(b).size(), total / blocks + (b < total % blocks ? 1 : 0)) << "block " << b;
    }
}

/// A UB chunk: a positive multiple of alignment that fits ubBytes at
/// bytesPerElement, or exactly alignment when not even that fits.
inline void expect_ub_chunk(int64_t chunk, int64_t ubBytes, int64_t bytesPerElement, int64_t alignment) {
    EXPECT_GT(chunk, 0);
    EXPECT_EQ(chunk % alignment, 0) << "chunk " << chunk << " not a multiple of " << alignment;
    if (chunk > alignment) {
        EXPECT_LE(chunk * bytesPerElement, ubBytes) << "chunk " << chunk << " overflows UB";
    }
}

}  // namespace tiling_test
