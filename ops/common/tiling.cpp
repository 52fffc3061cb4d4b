// acl-cpu ops/common: tiling arithmetic.
#include "common/tiling.hpp"

#include <algorithm>

namespace aclcpu::ops {

BlockSplit BlockSplit::by_factor(int64_t total, int64_t maxBlocks, int64_t alignment,
                                 int64_t unitElements) noexcept {
    BlockSplit split;
    if (total <= 0) return split;
    const int64_t share = std::max(ceil_div(total, std::max<int64_t>(maxBlocks, 1)), min_block_units(unitElements));
    const int64_t factor = align_up(share, alignment);
    split.count_ = ceil_div(total, factor);
    split.base_ = factor;
    // The last block is the one cut short, at total.
    split.shortBlock_ = split.count_ - 1;
    split.shortfall_ = int64_t(uint64_t(split.count_) * uint64_t(factor) - uint64_t(total));
    return split;
}

BlockSplit BlockSplit::front_loaded(int64_t total, int64_t maxBlocks, int64_t unitElements) noexcept {
    BlockSplit split;
    if (total <= 0) return split;
    const int64_t fullBlocks = std::max<int64_t>(total / min_block_units(unitElements), 1);
    split.count_ = std::min({total, std::max<int64_t>(maxBlocks, 1), fullBlocks});
    split.base_ = total / split.count_;
    split.longer_ = total % split.count_;
    return split;
}

int64_t ub_chunk_elements(int64_t ubBytes, int64_t bytesPerElement, int64_t alignment, int64_t total) {
    const int64_t fit = align_down(ubBytes / bytesPerElement, alignment);
    return std::max(alignment, align_up(std::min(fit, total), alignment));
}

}  // namespace aclcpu::ops
