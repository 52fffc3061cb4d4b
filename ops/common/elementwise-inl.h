// acl-cpu ops/common: the per-target block body of every elementwise
// operator (a Highway "-inl" header; see simd-inl.h for how to include it).
//
// An operator's fp32 function is a functor called as op(d, v_0, ..., v_N-1)
// on Highway fp32 vectors (descriptor d) and returning the result vector;
// it must act lane by lane, so that a lane's result never depends on the
// vector width or on which lanes are padding.
#include "common/internal.hpp"

#if defined(ACLCPU_OPS_COMMON_ELEMENTWISE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLCPU_OPS_COMMON_ELEMENTWISE_INL_H_
#undef ACLCPU_OPS_COMMON_ELEMENTWISE_INL_H_
#else
#define ACLCPU_OPS_COMMON_ELEMENTWISE_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <utility>

#include "common/elementwise.hpp"
#include "common/simd-inl.h"

ACLCPU_BEGIN_TARGET_NAMESPACE();

/// out[i] = op(d, in_0[i], ...) for i < count, loading each input as fp32
/// and storing rounded to Out, whole vectors and then one padded tail.
template <class D, class Op, class Out, class... In>
void map_lanes(D d, const Op& op, size_t count, Out* out, const In*... in) {
    const size_t lanes = hn::Lanes(d);
    size_t i = 0;
    for (; i + lanes <= count; i += lanes) store_f32(d, op(d, load_f32(d, in + i)...), out + i);
    if (i < count) store_f32_partial(d, op(d, load_f32_partial(d, in + i, count - i)...), out + i, count - i);
}

namespace detail {

/// A slice whose operands stream (ElementwiseOperands::streamed_dtype):
/// each stretch over which every input stays inside one of its contiguous
/// runs -- the whole slice when all are linear -- goes through registers
/// straight from and to device memory.
template <class T, size_t N, class Op, size_t... K>
void map_streamed(const ElementwiseJob<N>& job, Range units, const Op& op, std::index_sequence<K...>) {
    const auto& operands = job.operands;
    T* out = static_cast<T*>(job.args.outputs[0]) + operands.output.offset();
    for (int64_t begin = units.begin; begin < units.end;) {
        const int64_t length = std::min({units.end - begin, operands.inputs[K].run_length_at(begin)...});
        map_lanes(hn::ScalableTag<float>(), op, static_cast<size_t>(length), out + begin,
                  static_cast<const T*>(job.args.inputs[K]) + operands.inputs[K].position_of(begin)...);
        begin += length;
    }
}

/// Any other slice: per UB chunk, the inputs gathered into fp32 staging, the
/// result computed into staging, rounded through the compute dtype and
/// scattered into the output's view.
template <size_t N, class Op, size_t... K>
void map_staged(const ElementwiseJob<N>& job, const BlockSlice& slice, const Op& op, std::index_sequence<K...>) {
    const auto& operands = job.operands;
    const int64_t chunk = job.tiling.chunkElements;
    const int64_t slot = UbStaging::workspace_stride(chunk * int64_t{sizeof(float)});
    std::byte* ub = job.staging.for_block(slice.block);
    const auto staged = [&](size_t k) { return reinterpret_cast<float*>(ub + static_cast<int64_t>(k) * slot); };
    float* out = staged(N);
    const Range units = slice.units;
    for (int64_t begin = units.begin; begin < units.end; begin += chunk) {
        const int64_t n = std::min(chunk, units.end - begin);
        (gather(operands.inputs[K], job.args.inputs[K], begin, n, staged(K)), ...);
        map_lanes(hn::ScalableTag<float>(), op, static_cast<size_t>(n), out, static_cast<const float*>(staged(K))...);
        if (operands.computeDtype != operands.output.dtype()) round_through(operands.computeDtype, out, n);
        scatter(out, operands.output, job.args.outputs[0], begin, n);
    }
}

}  // namespace detail

/// Computes one slice of a block of job with op (see run_elementwise).
template <size_t N, class Op>
void elementwise_slice(const ElementwiseJob<N>& job, const BlockSlice& slice, const Op& op) {
    constexpr auto inputs = std::make_index_sequence<N>();
    switch (job.streamedDtype) {
        case ACL_FLOAT: return detail::map_streamed<float>(job, slice.units, op, inputs);
        case ACL_FLOAT16: return detail::map_streamed<half_t>(job, slice.units, op, inputs);
        case ACL_BF16: return detail::map_streamed<bf16_t>(job, slice.units, op, inputs);
        default: return detail::map_staged(job, slice, op, inputs);
    }
}

ACLCPU_END_TARGET_NAMESPACE();

#endif  // ACLCPU_OPS_COMMON_ELEMENTWISE_INL_H_
