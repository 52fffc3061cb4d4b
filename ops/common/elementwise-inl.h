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
#include <cstdint>
#include <utility>

#include "common/elementwise.hpp"
#include "common/float_runs.hpp"
#include "common/simd-inl.h"
#include "common/streaming_stores.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();

/// What an operator's fp32 vector functor derives from: its Params, as p,
/// and the descriptor D and vector V the engine calls it with (fp32 at the
/// target's full width).  The functor adds `V operator()(D d, V v_0, ...)
/// const`; its block constructs it as Op{{params}}.
template <class Params>
struct VectorFunction {
    using D = hn::ScalableTag<float>;
    using V = hn::Vec<D>;
    Params p;
};

/// The vectors op(d, in_0[i..], ...) of the inputs' elements i.. loaded as
/// fp32, as store_values reads them: value(i, n), n lanes valid.
template <class D, class Op, class... In>
auto op_of_inputs(D d, const Op& op, const In*... in) {
    return [d, &op, in...](size_t i, size_t n) {
        return n == hn::Lanes(d) ? op(d, load_f32(d, in + i)...) : op(d, load_f32_partial(d, in + i, n)...);
    };
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
    // Outputs too large for the caches take streaming stores (streaming_stores.hpp).
    const bool streaming = operands.output.numel() * int64_t{sizeof(T)} >= kStreamingOutputBytes;
    const hn::ScalableTag<float> d;
    for (int64_t begin = units.begin; begin < units.end;) {
        const int64_t length = std::min({units.end - begin, operands.inputs[K].run_length_at(begin)...});
        const auto count = static_cast<size_t>(length);
        const auto value = op_of_inputs(
            d, op, static_cast<const T*>(job.args.inputs[K]) + operands.inputs[K].position_of(begin)...);
        if (streams_run(streaming, 1, length * int64_t{sizeof(T)})) {
            store_values_streaming(d, value, count, out + begin);
        } else {
            store_values(d, value, count, out + begin);
        }
        begin += length;
    }
    if (streaming) stream_fence();
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
        const hn::ScalableTag<float> d;
        store_values(d, op_of_inputs(d, op, static_cast<const float*>(staged(K))...), static_cast<size_t>(n), out);
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
