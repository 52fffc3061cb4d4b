// acl-cpu ops/common: the block/chunk loop every elementwise operator runs.
//
// Per block (a contiguous range of output elements, from the tiling), per
// UB chunk: gather each input's chunk into fp32 staging, compute the chunk
// in fp32, round it through the operator's compute dtype, scatter it into
// the output view.  An operator supplies only its tiling, its operands'
// layouts and the fp32 chunk function.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "aclcpu/runtime.hpp"
#include "common/block_launch.hpp"
#include "common/dtype.hpp"
#include "common/strided_layout.hpp"
#include "common/tiling.hpp"

namespace aclcpu::ops {

/// The tiling shared by elementwise operators: blockDim = blocks.size()
/// contiguous ranges of the output's elements, each processed chunkElements
/// at a time.
struct ElementwiseTiling {
    std::vector<Range> blocks;
    int64_t chunkElements = 0;
};

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
};

/// UB bytes a block stages: N input chunks and one output chunk, in fp32,
/// each starting on a kStagingAlignment boundary.
constexpr int64_t elementwise_staging_bytes(size_t numInputs, int64_t chunkElements) noexcept {
    return static_cast<int64_t>(numInputs + 1) * UbStaging::workspace_stride(chunkElements * int64_t{sizeof(float)});
}

/// Runs an elementwise operator: for each chunk, compute(in, out, n) with
/// in[k] the n values of input k and out the n results (never aliasing an
/// input), all fp32.  Inputs are args.inputs[0..N), the output
/// args.outputs[0].  A null data pointer is reported as
/// ACL_ERROR_RT_AICORE_EXCEPTION (the device would fault) and nothing is
/// written.  Deterministic: the result depends on the tiling only.
template <size_t N, class Compute>
aclError run_elementwise(const char* opName, const ElementwiseTiling& tiling, const ElementwiseOperands<N>& operands,
                         const LaunchArgs& args, const UbStaging& staging, const Compute& compute) noexcept {
    if (aclError status = check_tensor_addresses(opName, args, N, 1); status != ACL_SUCCESS) return status;
    const int64_t chunk = tiling.chunkElements;
    const int64_t slot = UbStaging::workspace_stride(chunk * int64_t{sizeof(float)});
    const bool roundResult = operands.computeDtype != operands.output.dtype();
    return launch_blocks(opName, static_cast<int64_t>(tiling.blocks.size()), [&](int64_t blockIdx) {
        std::byte* ub = staging.for_block(blockIdx);
        std::array<float*, N> staged;
        std::array<const float*, N> in;
        for (size_t k = 0; k < N; ++k) {
            staged[k] = reinterpret_cast<float*>(ub + static_cast<int64_t>(k) * slot);
            in[k] = staged[k];
        }
        float* out = reinterpret_cast<float*>(ub + static_cast<int64_t>(N) * slot);
        const Range block = tiling.blocks[static_cast<size_t>(blockIdx)];
        for (int64_t begin = block.begin; begin < block.end; begin += chunk) {
            const int64_t n = std::min(chunk, block.end - begin);
            for (size_t k = 0; k < N; ++k) gather(operands.inputs[k], args.inputs[k], begin, n, staged[k]);
            compute(in, out, n);
            if (roundResult) round_through(operands.computeDtype, out, n);
            scatter(out, operands.output, args.outputs[0], begin, n);
        }
    });
}

}  // namespace aclcpu::ops
