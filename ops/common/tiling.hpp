// acl-cpu ops/common: the arithmetic of an AI Core tiling -- how an
// operator's work is split into blockDim contiguous blocks and each block
// into UB-sized chunks.  Pure functions of sizes and the SoC profile, so a
// tiling, and with it every result, never depends on the host's threads.
#pragma once

#include "common/internal.hpp"

#include <cstdint>

namespace aclcpu::ops {

/// Bytes of one UB block: the unit in which AI Core UB buffers are aligned.
inline constexpr int64_t kUbBlockBytes = 32;

/// The fewest elements a block takes (but the last, or the only one), so
/// that a launch too small to give every vector core this much runs on
/// fewer blocks -- a 1 Ki-element launch on one.  A block has a fixed cost
/// on the CPU (its dispatch, its layout checks, its loop set-up): about 280
/// instructions (callgrind, AVX2), against about 1.9 per element for fp32
/// Add, the cheapest kernel, and 6.5 for SoftplusBackward; at 4096 elements
/// it is under 4 % of the cheapest block.  A block this size of operands of
/// up to 8 bytes moves less than the 128 KiB a task must move
/// (launch_blocks), so the grouping of blocks into tasks, not this minimum,
/// still decides how many workers share a launch.  A power of two of at
/// least 256: whole 256-byte vector repeats of any dtype, and a multiple of
/// every block alignment.
inline constexpr int64_t kMinBlockElements = 4096;

// Work counts reach INT64_MAX (a view of stride 0 over one byte is valid),
// so these never form a sum or product beyond their result.
// Preconditions: a >= 0, b > 0.
constexpr int64_t ceil_div(int64_t a, int64_t b) noexcept { return a / b + (a % b != 0 ? 1 : 0); }
constexpr int64_t align_down(int64_t a, int64_t b) noexcept { return a / b * b; }
/// a rounded up to a multiple of b; the largest such multiple when that
/// would pass INT64_MAX.
constexpr int64_t align_up(int64_t a, int64_t b) noexcept {
    return ceil_div(a, b) > INT64_MAX / b ? align_down(INT64_MAX, b) : ceil_div(a, b) * b;
}

/// A half-open range [begin, end) of work units (elements, rows, ...).
struct Range {
    int64_t begin = 0;
    int64_t end = 0;
    int64_t size() const noexcept { return end - begin; }
    friend bool operator==(const Range& a, const Range& b) noexcept {
        return a.begin == b.begin && a.end == b.end;
    }
};

/// The split of [0, total) work units into count() contiguous blocks, kept
/// as a formula instead of a list so that tiling allocates nothing and a
/// block's range costs a few integer operations.  Block b covers units
/// [b * base + min(b, longer), ...) -- base units, one more for the first
/// `longer` blocks -- each unit standing for unitSize elements, except that
/// the last unit of block shortBlock is shortfall elements short (the blocks
/// after it shift down by as much).
class BlockSplit {
public:
    /// An empty split (no block).
    BlockSplit() noexcept = default;

    // Both splits take at least min_block_units(unitElements) units per
    // block, unitElements being the elements of work one unit stands for
    // (1 when units are elements).

    /// The "block factor" split: every block takes factor = ceil(total /
    /// maxBlocks) units, at least min_block_units(unitElements), rounded up
    /// to a multiple of alignment, and the last block the remainder;
    /// ceil(total / factor) blocks.  No block for total == 0.
    static BlockSplit by_factor(int64_t total, int64_t maxBlocks, int64_t alignment = 1,
                                int64_t unitElements = 1) noexcept;

    /// The "front-loaded" split: min(total, maxBlocks) blocks, fewer when
    /// that would leave a block under min_block_units(unitElements) units
    /// (at least one); the first total % blocks take ceil(total / blocks)
    /// units, the others floor.  No block for total == 0.
    static BlockSplit front_loaded(int64_t total, int64_t maxBlocks, int64_t unitElements = 1) noexcept;

    /// This split with each unit unitSize elements long, but block
    /// shortBlock's last unit shortfall elements short.
    BlockSplit in_units_of(int64_t unitSize, int64_t shortBlock, int64_t shortfall) const noexcept {
        BlockSplit split = *this;
        split.unitSize_ = unitSize;
        split.shortBlock_ = shortBlock;
        split.shortfall_ = shortfall;
        return split;
    }

    int64_t count() const noexcept { return count_; }
    /// Elements over all blocks (the end of the last block).
    int64_t total() const noexcept { return count_ == 0 ? 0 : block(count_ - 1).end; }
    /// Blocks that take one unit more than the others (front-loaded splits).
    int64_t longer_blocks() const noexcept { return longer_; }

    /// Block b's range of elements.  Precondition: 0 <= b < count().
    Range block(int64_t b) const noexcept {
        // The last block's nominal end may pass INT64_MAX before its
        // shortfall brings it back to total: computed modulo 2^64, exact
        // once the result is in range.
        const uint64_t firstUnit = uint64_t(b) * uint64_t(base_) + uint64_t(b < longer_ ? b : longer_);
        const uint64_t endUnit = firstUnit + uint64_t(base_) + (b < longer_ ? 1u : 0u);
        return {int64_t(firstUnit * uint64_t(unitSize_) - uint64_t(b > shortBlock_ ? shortfall_ : 0)),
                int64_t(endUnit * uint64_t(unitSize_) - uint64_t(b >= shortBlock_ ? shortfall_ : 0))};
    }

private:
    int64_t count_ = 0;
    int64_t base_ = 0;
    int64_t longer_ = 0;
    int64_t unitSize_ = 1;
    int64_t shortBlock_ = 0;
    int64_t shortfall_ = 0;
};

/// The units of unitElements elements each that make kMinBlockElements
/// elements (at least one).  Precondition: unitElements > 0.
constexpr int64_t min_block_units(int64_t unitElements) noexcept {
    return ceil_div(kMinBlockElements, unitElements);
}

/// The elements of a UB chunk: floor(ubBytes / bytesPerElement), aligned
/// down to alignment elements and capped at total aligned up to alignment.
/// At least alignment.
int64_t ub_chunk_elements(int64_t ubBytes, int64_t bytesPerElement, int64_t alignment, int64_t total);

}  // namespace aclcpu::ops
