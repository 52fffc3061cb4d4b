// acl-cpu ops/common: what every elementwise operator shares on the host
// side -- its tiling, its operands, and the launch of its blocks.
//
// Per block (a contiguous range of output elements, from the tiling) the
// operator's per-target block function (elementwise-inl.h) computes in fp32
// vectors: straight from and to device memory when every operand is dense in
// the output's layout and dtype, otherwise per UB chunk through fp32
// staging (gather, compute, round through the compute dtype, scatter).  An
// operator supplies only its tiling, its operands' layouts and the fp32
// vector function.
#pragma once

#include "common/internal.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "acl/error_codes/rt_error_codes.h"
#include "acl/acl_base.h"
#include "aclcpu/nnopbase.hpp"
#include "aclcpu/soc_profile.hpp"
#include "common/block_launch.hpp"
#include "common/dtype.hpp"
#include "common/strided_layout.hpp"
#include "common/tiling.hpp"

namespace aclcpu::ops {

/// The tiling shared by elementwise operators: blocks.count() contiguous
/// ranges of the output's elements, each processed chunkElements at a time
/// when it is staged.
struct ElementwiseTiling {
    BlockSplit blocks;
    int64_t chunkElements = 0;
};

/// The flat tiling of CANN's A2 elementwise vector kernels that stage
/// stagedNodes nodes (the operands and the result) in UB, an equal share of
/// UB each, 32-byte aligned, in chunks of laneBytes per element; blocks take
/// ceil(N / vectorCoreCount) elements, at least kMinBlockElements, rounded
/// up to one 32-byte UB block of blockDtype, the last block the rest.
inline ElementwiseTiling tile_elementwise(int64_t numel, int64_t stagedNodes, aclDataType blockDtype,
                                          int64_t laneBytes, const SocProfile& soc) {
    const int64_t nodeBytes = align_down(soc.ubSize / stagedNodes, kUbBlockBytes);
    ElementwiseTiling tiling;
    tiling.chunkElements = ub_chunk_elements(nodeBytes, laneBytes, kUbBlockBytes / laneBytes, numel);
    tiling.blocks = BlockSplit::by_factor(numel, soc.vectorCoreCount, kUbBlockBytes / element_size(blockDtype));
    return tiling;
}

/// The operands of an elementwise operator with N inputs: each input read
/// over the output's shape (StridedLayout::broadcast_to), and the output.
/// computeDtype is the dtype the operator's kernel computes in on the AI
/// Core; a FLOAT16/BF16 result is rounded to it before being cast to the
/// output's dtype.
template <size_t N>
struct ElementwiseOperands {
    std::array<StridedLayout, N> inputs;
    StridedLayout output;
    aclDataType computeDtype = ACL_FLOAT;

    /// The dtype of every operand when all have the one dtype FLOAT, FLOAT16
    /// or BF16, the kernel computes in it or in FLOAT (which holds each
    /// input exactly and rounds the result once into the output, as staging
    /// does), the output is linear, and every input runs contiguously along
    /// its innermost dimension for at least kMinStreamedRun elements (linear,
    /// or e.g. a row broadcast over the outer dims): then a block streams
    /// them from and to device memory, run by run.  ACL_DT_UNDEFINED
    /// otherwise.
    aclDataType streamed_dtype() const noexcept {
        const aclDataType dtype = output.dtype();
        const bool computable = dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16;
        const auto streamable = [dtype](const StridedLayout& layout) {
            return layout.runs_contiguously(kMinStreamedRun) && layout.dtype() == dtype;
        };
        const bool allStreamable =
            output.is_linear() && output.dtype() == dtype && std::all_of(inputs.begin(), inputs.end(), streamable);
        const bool computesExactly = computeDtype == dtype || computeDtype == ACL_FLOAT;
        return computable && allStreamable && computesExactly ? dtype : ACL_DT_UNDEFINED;
    }

    /// Below this run length, staging a chunk costs less than a pass per run.
    static constexpr int64_t kMinStreamedRun = 16;
};

/// UB bytes a block stages: N input chunks and one output chunk, in fp32,
/// each starting on a kStagingAlignment boundary.
constexpr int64_t elementwise_staging_bytes(size_t numInputs, int64_t chunkElements) noexcept {
    return static_cast<int64_t>(numInputs + 1) * UbStaging::workspace_stride(chunkElements * int64_t{sizeof(float)});
}

/// One launch of an elementwise operator: what each of its blocks reads.
/// Inputs are args.inputs[0..N), the output args.outputs[0].
template <size_t N>
struct ElementwiseJob {
    const ElementwiseTiling& tiling;
    const ElementwiseOperands<N>& operands;
    const LaunchArgs& args;
    UbStaging staging;
    /// operands.streamed_dtype(), decided once per kernel: every slice reads it.
    aclDataType streamedDtype;
};

/// Runs block(job, slice) for every slice of every block of the tiling (see
/// launch_block_slices), cut at UB chunk boundaries; blocks that stage in
/// the workspace stay whole.  A null data pointer is reported as
/// ACL_ERROR_RT_AICORE_EXCEPTION (the device would fault) and nothing is
/// written.  Deterministic: the result depends on the tiling only.
template <size_t N, class Block>
aclError run_elementwise(const char* opName, const ElementwiseJob<N>& job, const Block& block) noexcept {
    if (aclError status = check_tensor_addresses(opName, job.args, N, 1); status != ACL_SUCCESS) return status;
    int64_t bytesPerElement = element_size(job.operands.output.dtype());
    for (const StridedLayout& input : job.operands.inputs) bytesPerElement += element_size(input.dtype());
    // Streamed blocks never stage.
    const bool sharesStaging = job.staging.in_workspace() && job.streamedDtype == ACL_DT_UNDEFINED;
    return launch_block_slices(opName, job.tiling.blocks, bytesPerElement,
                               sharesStaging ? kUncutBlocks : job.tiling.chunkElements,
                               [&](const BlockSlice& slice) { block(job, slice); });
}

/// What every kernel tiled by an ElementwiseTiling shares: its name, its
/// tiling, and the blockDim it reports to the trace (describe).
using TiledKernel = TiledKernelOf<ElementwiseTiling>;

/// The planned launch of an elementwise operator with N inputs: what its
/// phase 1 hands to the executor.  The operator supplies only Block, its
/// per-slice function (a Highway dispatcher computing one slice of a block of
/// the job with the operator's Params), so every elementwise operator shares
/// this one kernel class.  Immutable; launch() may run concurrently.
template <size_t N, class Params, void (*Block)(const ElementwiseJob<N>&, const BlockSlice&, const Params&)>
class ElementwiseKernel final : public TiledKernel {
public:
    /// Blocks stage in a buffer of their worker when workspaceStagingBytes is
    /// 0, otherwise each in its slice of that many bytes of the phase-2
    /// workspace (phase 1 checked that the slices fit).
    ElementwiseKernel(const char* name, ElementwiseTiling tiling, ElementwiseOperands<N> operands, Params params,
                      int64_t workspaceStagingBytes = 0) noexcept
        : TiledKernel(name, tiling), operands_(operands), params_(params),
          workspaceStagingBytes_(workspaceStagingBytes), streamedDtype_(operands_.streamed_dtype()) {}

    aclError launch(const LaunchArgs& args) const noexcept override {
        const UbStaging staging = workspaceStagingBytes_ > 0
                                      ? UbStaging::in_workspace(args.workspace, workspaceStagingBytes_)
                                      : UbStaging::per_worker(elementwise_staging_bytes(N, tiling_.chunkElements));
        const ElementwiseJob<N> job{tiling_, operands_, args, staging, streamedDtype_};
        return run_elementwise(name_, job, [this](const ElementwiseJob<N>& j, const BlockSlice& slice) {
            Block(j, slice, params_);
        });
    }

private:
    ElementwiseOperands<N> operands_;
    Params params_;
    int64_t workspaceStagingBytes_;
    aclDataType streamedDtype_;
};

}  // namespace aclcpu::ops

/// The two halves of an elementwise operator's block function in its
/// kernel.cpp, which Highway's foreach_target.h compiles once per SIMD
/// target.  Inside HWY_NAMESPACE, ACLCPU_ELEMENTWISE_TARGET_BLOCK defines
/// `name` for the target: a slice of a block of the job computed with the
/// functor Op{{params}}.  Inside `#if HWY_ONCE`, at global scope,
/// ACLCPU_ELEMENTWISE_DISPATCH exports the targets' versions and defines
/// aclcpu::ops::name, the dispatcher that ElementwiseKernel<N, Params, name>
/// calls.
#define ACLCPU_ELEMENTWISE_TARGET_BLOCK(name, N, Params, Op)                                 \
    void name(const ElementwiseJob<N>& job, const BlockSlice& slice, const Params& params) { \
        elementwise_slice(job, slice, Op{{params}});                                         \
    }
#define ACLCPU_ELEMENTWISE_DISPATCH(name, N, Params)                                         \
    namespace aclcpu::ops {                                                                  \
    HWY_EXPORT(name);                                                                        \
    void name(const ElementwiseJob<N>& job, const BlockSlice& slice, const Params& params) { \
        HWY_DYNAMIC_DISPATCH(name)(job, slice, params);                                      \
    }                                                                                        \
    }

/// A family with several blocks lists them once, in its kernel header, as
/// `#define ACLCPU_<FAMILY>_BLOCKS(X) X(name, N, Params, Op) ...` (Op the
/// functor of its kernel.cpp), and expands that list three times: with
/// ACLCPU_DECLARE_ELEMENTWISE_BLOCK in the header, with
/// ACLCPU_ELEMENTWISE_TARGET_BLOCK inside HWY_NAMESPACE and with
/// ACLCPU_ELEMENTWISE_DISPATCH_BLOCK inside `#if HWY_ONCE` of the kernel.cpp.
#define ACLCPU_DECLARE_ELEMENTWISE_BLOCK(name, N, Params, Op) \
    void name(const ElementwiseJob<N>& job, const BlockSlice& slice, const Params& params);
#define ACLCPU_ELEMENTWISE_DISPATCH_BLOCK(name, N, Params, Op) ACLCPU_ELEMENTWISE_DISPATCH(name, N, Params)
