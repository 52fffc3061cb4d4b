// acl-cpu ops/common: streaming stores, compiled for every SIMD target
// Highway dispatches to at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "common/streaming_stores.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include <cstring>

#include "common/hwy_target.hpp"
#include "common/streaming_stores.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

/// Bytes from dst to the next vector boundary (at most `bytes`).
size_t head_bytes(const void* dst, size_t vectorBytes, size_t bytes) {
    const size_t misalignment = reinterpret_cast<uintptr_t>(dst) % vectorBytes;
    return misalignment == 0 ? 0 : std::min(vectorBytes - misalignment, bytes);
}

}  // namespace

void stream_copy_on_target(void* dst, const void* src, size_t bytes) {
    const hn::ScalableTag<uint8_t> d;
    const size_t lanes = hn::Lanes(d);
    auto* to = static_cast<uint8_t*>(dst);
    const auto* from = static_cast<const uint8_t*>(src);
    const size_t head = head_bytes(to, lanes, bytes);
    std::memcpy(to, from, head);
    size_t i = head;
    for (; i + lanes <= bytes; i += lanes) hn::Stream(hn::LoadU(d, from + i), d, to + i);
    std::memcpy(to + i, from + i, bytes - i);
}

void stream_fill_on_target(void* dst, const void* value, size_t width, size_t count) {
    const hn::ScalableTag<uint8_t> d;
    const size_t lanes = hn::Lanes(d);
    auto* to = static_cast<uint8_t*>(dst);
    const size_t bytes = width * count;
    if (lanes % width != 0 || reinterpret_cast<uintptr_t>(to) % width != 0) {
        for (size_t i = 0; i < bytes; i += width) std::memcpy(to + i, value, width);
        return;
    }
    // The head (whole elements, as dst is aligned to width) reaches a vector
    // boundary, where the pattern starts at an element again: every vector
    // holds lanes / width whole elements.
    const size_t head = head_bytes(to, lanes, bytes);
    HWY_ALIGN uint8_t pattern[HWY_MAX_BYTES];
    for (size_t i = 0; i < lanes; i += width) std::memcpy(pattern + i, value, width);
    for (size_t i = 0; i < head; i += width) std::memcpy(to + i, value, width);
    const auto vector = hn::Load(d, pattern);
    size_t i = head;
    for (; i + lanes <= bytes; i += lanes) hn::Stream(vector, d, to + i);
    for (; i < bytes; i += width) std::memcpy(to + i, value, width);
}

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
namespace aclcpu::ops {

HWY_EXPORT(stream_copy_on_target);
HWY_EXPORT(stream_fill_on_target);

void stream_copy(void* dst, const void* src, size_t bytes) noexcept {
    HWY_DYNAMIC_DISPATCH(stream_copy_on_target)(dst, src, bytes);
}

void stream_fill(void* dst, const void* value, size_t width, size_t count) noexcept {
    HWY_DYNAMIC_DISPATCH(stream_fill_on_target)(dst, value, width, count);
}

void stream_fence() noexcept { hwy::FlushStream(); }

}  // namespace aclcpu::ops
#endif
