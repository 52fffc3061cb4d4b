// acl-cpu ops/common: strided gather/scatter.
#include "common/strided_layout.hpp"

#include <algorithm>

#include "common/dtype.hpp"
#include "common/float_runs.hpp"

namespace aclcpu::ops {

StridedLayout StridedLayout::broadcast_to(const TensorView& view, const Dims& iterationShape) noexcept {
    StridedLayout layout;
    layout.dtype_ = view.dtype;
    layout.offset_ = view.offset;
    const size_t rank = iterationShape.size();
    const size_t lead = rank - view.shape.size();
    // Walk outer to inner, appending each dim or folding it into the previous one.  The
    // products saturate (numel) or keep dims apart (folding): a caller may build a layout
    // before check_view_in_storage rejects a view whose size overflows int64.
    for (size_t d = 0; d < rank; ++d) {
        const int64_t size = iterationShape[d];
        if (__builtin_mul_overflow(layout.numel_, size, &layout.numel_)) layout.numel_ = INT64_MAX;
        if (size == 1) continue;
        const bool broadcast = d < lead || view.shape[d - lead] == 1;
        const int64_t stride = broadcast ? 0 : view.strides[d - lead];
        const int last = layout.rank_ - 1;
        int64_t span = 0;
        int64_t merged = 0;
        if (last >= 0 && !__builtin_mul_overflow(stride, size, &span) && layout.strides_[last] == span &&
            !__builtin_mul_overflow(layout.sizes_[last], size, &merged)) {
            layout.sizes_[last] = merged;
            layout.strides_[last] = stride;
        } else {
            layout.sizes_[layout.rank_] = size;
            layout.strides_[layout.rank_] = stride;
            ++layout.rank_;
        }
    }
    return layout;
}

namespace {

/// The 16-bit float dtype T stands for.
template <class T>
constexpr aclDataType float_dtype = std::is_same_v<T, half_t> ? ACL_FLOAT16 : ACL_BF16;

template <class T>
void gather_as(const StridedLayout& layout, const T* data, int64_t begin, int64_t count, float* dst) {
    for_each_run(layout, begin, count, [&](int64_t position, int64_t length, int64_t stride, int64_t done) {
        const T* src = data + position;
        float* out = dst + done;
        if (stride == 1) {
            // The float dtypes' dense runs in SIMD (the other dtypes' casts are exact).
            if constexpr (std::is_same_v<T, half_t> || std::is_same_v<T, bf16_t>) {
                convert_float_run(float_dtype<T>, src, ACL_FLOAT, out, length);
            } else {
                for (int64_t j = 0; j < length; ++j) out[j] = cast_to_float(src[j]);
            }
        } else if (stride == 0) {
            std::fill(out, out + length, cast_to_float(*src));
        } else {
            for (int64_t j = 0; j < length; ++j) out[j] = cast_to_float(src[j * stride]);
        }
    });
}

template <class T>
void scatter_as(const float* src, const StridedLayout& layout, T* data, int64_t begin, int64_t count) {
    for_each_run(layout, begin, count, [&](int64_t position, int64_t length, int64_t stride, int64_t done) {
        T* dst = data + position;
        const float* in = src + done;
        if (stride == 1) {
            if constexpr (std::is_same_v<T, half_t> || std::is_same_v<T, bf16_t>) {
                convert_float_run(ACL_FLOAT, in, float_dtype<T>, dst, length);
            } else {
                for (int64_t j = 0; j < length; ++j) dst[j] = cast_from_float<T>(in[j]);
            }
        } else {
            for (int64_t j = 0; j < length; ++j) dst[j * stride] = cast_from_float<T>(in[j]);
        }
    });
}

}  // namespace

void gather(const StridedLayout& layout, const void* data, int64_t begin, int64_t count, float* dst) noexcept {
    visit_loadable(
        layout.dtype(),
        [&](auto tag) { gather_as(layout, static_cast<const decltype(tag)*>(data), begin, count, dst); },
        [] {});
}

void scatter(const float* src, const StridedLayout& layout, void* data, int64_t begin, int64_t count) noexcept {
    visit_storable(
        layout.dtype(),
        [&](auto tag) { scatter_as(src, layout, static_cast<decltype(tag)*>(data), begin, count); },
        [] {});
}

}  // namespace aclcpu::ops
