// acl-cpu ops/common: the per-target block body of the tensor-list engine
// (tensor_lists.hpp; a Highway "-inl" header, included as elementwise-inl.h).
//
// An operator's fp32 functor derives from VectorFunction<Params> and is
// called as op(d, v_0, ..., v_NIn-1), returning std::array<V, NOut> (one
// vector per output list); it must act lane by lane.
#include "common/internal.hpp"

#if defined(ACLCPU_OPS_COMMON_TENSOR_LISTS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLCPU_OPS_COMMON_TENSOR_LISTS_INL_H_
#undef ACLCPU_OPS_COMMON_TENSOR_LISTS_INL_H_
#else
#define ACLCPU_OPS_COMMON_TENSOR_LISTS_INL_H_
#endif

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "common/elementwise-inl.h"
#include "common/simd-inl.h"
#include "common/tensor_lists.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();

namespace detail {

/// out_j[0, n) = op(in_0[0, n), ...) in whole unaligned vectors: n is a multiple of
/// the vector length (in device memory), or the staging slots are padded to
/// whole vectors (tensor_list_staging_slot) and lanes past n are computed
/// but never scattered.
template <size_t NIn, size_t NOut, class Op, size_t... K, size_t... J>
void compute_staged(const Op& op, float* const* staged, int64_t n, std::index_sequence<K...>,
                    std::index_sequence<J...>) {
    const hn::ScalableTag<float> d;
    const auto lanes = static_cast<int64_t>(hn::Lanes(d));
    for (int64_t i = 0; i < n; i += lanes) {
        const auto out = op(d, hn::LoadU(d, staged[K] + i)...);
        (hn::StoreU(out[J], d, staged[NIn + J] + i), ...);
    }
}

}  // namespace detail

/// Computes one slice of a block of job with op: per tensor the slice
/// touches, per UB chunk, the inputs gathered, op applied, the outputs
/// scattered -- or, when all of the tensor's operands are linear FLOAT
/// (TensorListOperands::direct), op applied in whole vectors straight in
/// device memory and only the chunk's tail staged.  Both give the same bits.
template <size_t NIn, size_t NOut, class Op>
void tensor_list_slice(const TensorListJob& job, const BlockSlice& slice, const Op& op) {
    const TensorListOperands& operands = job.operands;
    const int64_t chunk = job.tiling.chunkElements;
    const int64_t slot = tensor_list_staging_slot(chunk);
    std::byte* ub = job.staging.for_block(slice.block);
    std::array<float*, NIn + NOut> staged;
    for (size_t k = 0; k < staged.size(); ++k) {
        staged[k] = reinterpret_cast<float*>(ub + static_cast<int64_t>(k) * slot);
    }
    const int64_t tensors = operands.tensors;
    const auto stage = [&](int64_t t, int64_t local, int64_t n) {
        for (size_t k = 0; k < NIn; ++k) {
            gather(operands.input(k, t), job.args.inputs[k * tensors + t], local, n, staged[k]);
        }
        detail::compute_staged<NIn, NOut>(op, staged.data(), n, std::make_index_sequence<NIn>(),
                                          std::make_index_sequence<NOut>());
        for (size_t j = 0; j < NOut; ++j) {
            scatter(staged[NIn + j], operands.output(j, t), job.args.outputs[j * tensors + t], local, n);
        }
    };
    const auto lanes = static_cast<int64_t>(hn::Lanes(hn::ScalableTag<float>()));
    for_each_tensor_piece(operands, slice.units, chunk, [&](int64_t t, int64_t local, int64_t n) {
        const int64_t whole = operands.direct[t] ? n / lanes * lanes : 0;
        if (whole > 0) {
            std::array<float*, NIn + NOut> memory;
            for (size_t k = 0; k < NIn + NOut; ++k) {
                const int64_t index = static_cast<int64_t>(k) * tensors + t;
                void* data = k < NIn ? const_cast<void*>(job.args.inputs[index])
                                     : job.args.outputs[index - NIn * tensors];
                memory[k] = static_cast<float*>(data) + operands.layouts[index].offset() + local;
            }
            detail::compute_staged<NIn, NOut>(op, memory.data(), whole, std::make_index_sequence<NIn>(),
                                              std::make_index_sequence<NOut>());
        }
        if (whole < n) stage(t, local + whole, n - whole);
    });
}

ACLCPU_END_TARGET_NAMESPACE();

#endif  // ACLCPU_OPS_COMMON_TENSOR_LISTS_INL_H_
