// acl-cpu ops/common: the arithmetic of an AI Core tiling -- how an
// operator's work is split into blockDim contiguous blocks and each block
// into UB-sized chunks.  Pure functions of sizes and the SoC profile, so a
// tiling, and with it every result, never depends on the host's threads.
#pragma once

#include <cstdint>
#include <vector>

namespace aclcpu::ops {

/// Bytes of one UB block: the unit in which AI Core UB buffers are aligned.
inline constexpr int64_t kUbBlockBytes = 32;

constexpr int64_t ceil_div(int64_t a, int64_t b) noexcept { return (a + b - 1) / b; }
constexpr int64_t align_up(int64_t a, int64_t b) noexcept { return ceil_div(a, b) * b; }
constexpr int64_t align_down(int64_t a, int64_t b) noexcept { return a / b * b; }

/// A half-open range [begin, end) of work units (elements, rows, ...).
struct Range {
    int64_t begin = 0;
    int64_t end = 0;
    int64_t size() const noexcept { return end - begin; }
    friend bool operator==(const Range& a, const Range& b) noexcept {
        return a.begin == b.begin && a.end == b.end;
    }
};

/// The "block factor" split: every block takes factor = ceil(total /
/// maxBlocks) units, rounded up to a multiple of alignment, and the last
/// block the remainder; ceil(total / factor) blocks are used.  Returns no
/// block for total == 0.
std::vector<Range> split_by_factor(int64_t total, int64_t maxBlocks, int64_t alignment = 1);

/// The "front-loaded" split: min(total, maxBlocks) blocks; the first
/// total % blocks take ceil(total / blocks) units, the others floor.
/// Returns no block for total == 0.
std::vector<Range> split_front_loaded(int64_t total, int64_t maxBlocks);

/// The elements of a UB chunk: floor(ubBytes / bytesPerElement), aligned
/// down to alignment elements and capped at total aligned up to alignment.
/// At least alignment.
int64_t ub_chunk_elements(int64_t ubBytes, int64_t bytesPerElement, int64_t alignment, int64_t total);

}  // namespace aclcpu::ops
