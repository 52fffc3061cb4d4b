// acl-cpu ops/common: copies and fills of large outputs with non-temporal
// (streaming) stores.
//
// An ordinary store first reads the cache line it writes; an output larger
// than the caches is then read once for nothing, which halves the bandwidth
// of a pure write (a fill, a broadcast copy).  Streaming stores write whole
// lines without reading them and without evicting what the caches hold.
// They are weakly ordered: a block ends with stream_fence() before it
// reports completion, so that whoever waits for it sees its writes.
#pragma once

#include "common/internal.hpp"

#include <cstddef>
#include <cstdint>

namespace aclcpu::ops {

/// Outputs of at least this many bytes are written with streaming stores:
/// past what the caches of the machine class hold, where reading the lines
/// first costs a pass over memory and keeping them evicts everything else.
inline constexpr int64_t kStreamingOutputBytes = int64_t{32} << 20;

/// Dense runs shorter than this are written with ordinary stores even in a
/// streaming launch: the call would cost more than the lines it saves.
inline constexpr int64_t kShortestStreamedRunBytes = 1024;

/// Whether a dense run of `bytes` bytes (elements `stride` apart) in a
/// launch that streams its output (an output of kStreamingOutputBytes or
/// more) is written with streaming stores.
constexpr bool streams_run(bool launchStreams, int64_t stride, int64_t bytes) noexcept {
    return launchStreams && stride == 1 && bytes >= kShortestStreamedRunBytes;
}

/// Copies `bytes` bytes from src to dst (not overlapping), dst's aligned
/// part with streaming stores.
void stream_copy(void* dst, const void* src, size_t bytes) noexcept;

/// Writes `count` copies of the element of `width` bytes (1, 2, 4, 8 or 16)
/// at value into dst, its aligned part with streaming stores (all of it
/// with ordinary stores when dst is not aligned to width).
void stream_fill(void* dst, const void* value, size_t width, size_t count) noexcept;

/// Orders the calling thread's streaming stores before its later stores
/// (the release of its block's completion among them).
void stream_fence() noexcept;

}  // namespace aclcpu::ops
