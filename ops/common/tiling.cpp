// acl-cpu ops/common: tiling arithmetic.
#include "common/tiling.hpp"

#include <algorithm>

namespace aclcpu::ops {

std::vector<Range> split_by_factor(int64_t total, int64_t maxBlocks, int64_t alignment) {
    std::vector<Range> blocks;
    if (total <= 0) return blocks;
    const int64_t factor = align_up(ceil_div(total, std::max<int64_t>(maxBlocks, 1)), alignment);
    for (int64_t begin = 0; begin < total; begin += factor) blocks.push_back({begin, std::min(total, begin + factor)});
    return blocks;
}

std::vector<Range> split_front_loaded(int64_t total, int64_t maxBlocks) {
    std::vector<Range> blocks;
    if (total <= 0) return blocks;
    const int64_t count = std::min(total, std::max<int64_t>(maxBlocks, 1));
    const int64_t base = total / count;
    const int64_t longer = total % count;
    int64_t begin = 0;
    for (int64_t i = 0; i < count; ++i) {
        const int64_t size = base + (i < longer ? 1 : 0);
        blocks.push_back({begin, begin + size});
        begin += size;
    }
    return blocks;
}

int64_t ub_chunk_elements(int64_t ubBytes, int64_t bytesPerElement, int64_t alignment, int64_t total) {
    const int64_t fit = align_down(ubBytes / bytesPerElement, alignment);
    return std::max(alignment, std::min(fit, align_up(total, alignment)));
}

}  // namespace aclcpu::ops
