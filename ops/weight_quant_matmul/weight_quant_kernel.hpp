// acl-cpu ops/weight_quant_matmul: the kernel of WeightQuantBatchMatmulV2 --
// y = x @ ANTIQUANT(weight) + bias with an INT8 or INT4 weight,
// ANTIQUANT(w) = (w + offset) * scale per tensor, channel or group of K.
//
// The weight is dequantised in tiles the size of a cache, as the device's
// vector unit does it (fp16 x: the sum and the product rounded to fp16; bf16
// x: computed in fp32 and rounded to bf16), never whole: a product of M
// rows reads each weight byte once.  Few rows (token generation) take dot
// products of those tiles with x (the weight's bytes are the traffic);
// more rows multiply the tiles with gemm_f32.  Sums are fp32, y rounded
// once.  The column tiles (and row tiles) are the blocks, and the K chunks
// are constants: results do not depend on the worker count.
#pragma once

#include "common/internal.hpp"

#include <cstdint>

#include "aclcpu/nnopbase.hpp"

namespace aclcpu::ops {

/// Where an operand's element (row, col) lies: offset + row * rowStride +
/// col * colStride elements (INT4: nibbles) from its data pointer.
struct QuantOperand {
    int64_t offset = 0;
    int64_t rowStride = 0;
    int64_t colStride = 0;
};

/// A planned product.  Inputs: x, weight, antiquantScale, then
/// antiquantOffset and bias when present; output y.
struct WeightQuantSpec {
    int64_t m = 0;
    int64_t n = 0;
    int64_t k = 0;
    aclDataType xDtype = ACL_FLOAT16;  ///< also the scale's, offset's and the dequantised weight's
    QuantOperand x;                    ///< [m, k]
    aclDataType weightDtype = ACL_INT8;
    QuantOperand weight;               ///< [k, n]; rowStride or colStride is 1
    int64_t groupSize = 0;             ///< k rows share a scale row; >= k: one group
    QuantOperand scale;                ///< [groups, n]; a stride 0 broadcasts
    bool hasOffset = false;
    QuantOperand offset;               ///< as scale
    aclDataType biasDtype = ACL_DT_UNDEFINED;  ///< FLOAT16, FLOAT, or UNDEFINED: no bias
    QuantOperand bias;                 ///< [1, n]
    aclDataType yDtype = ACL_FLOAT16;
    QuantOperand y;                    ///< [m, n]
};

/// Hands back the executor computing spec (inputs in the order above, y the
/// output).  Precondition: m, n, k > 0.
aclnnStatus hand_back_weight_quant_matmul(WeightQuantSpec spec, TensorSpan inputs, TensorSpan outputs,
                                          uint64_t* workspaceSize, aclOpExecutor** executor) noexcept;

namespace weight_quant {

/// The most rows and columns of a tile (the kernels' stack buffers).
inline constexpr int64_t kMaxRun = 4096;
/// The most rows of x accumulate takes.
inline constexpr int64_t kMaxFewRows = 4;

/// One tile of the weight to dequantise: rows [k0, k0 + depth) and columns
/// [n0, n0 + cols), written as fp32 at out -- out[c * depth + r] when the
/// weight's K is its contiguous dim (kMajor), out[r * cols + c] otherwise.
struct Tile {
    int64_t k0 = 0;
    int64_t depth = 0;
    int64_t n0 = 0;
    int64_t cols = 0;
};

/// The data pointers of a launch's weight, scale and offset (null: none);
/// QuantOperand offsets count from them.
struct Sources {
    const std::byte* weight = nullptr;
    const std::byte* scale = nullptr;
    const std::byte* offset = nullptr;
};

/// Dequantises tile of spec's weight into out (per target, SIMD).
void dequantise(const WeightQuantSpec& spec, const Sources& sources, const Tile& tile, float* out) noexcept;

/// acc[r * tile.cols + c] += sum over the tile's rows kk of xs[r * tile.depth
/// + kk] * ANTIQUANT(weight)(tile.k0 + kk, tile.n0 + c), for r < rows: the
/// few-row product (rows <= kMaxFewRows), each weight element dequantised
/// into a buffer the size of L1 and used at once -- or, for a K-major
/// weight in blocks of 32 inside groups on AVX-512, dequantised in
/// registers per block (INT4: looked up in a table of the 16 values a
/// nibble takes) (per target, SIMD).
void accumulate(const WeightQuantSpec& spec, const Sources& sources, const Tile& tile, const float* xs, int64_t rows,
                float* acc) noexcept;

/// Whether the weight's K is its contiguous dim (a transposed [n, k] storage).
inline bool k_major(const WeightQuantSpec& spec) noexcept { return spec.weight.rowStride == 1; }

}  // namespace weight_quant
}  // namespace aclcpu::ops
