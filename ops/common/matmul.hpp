// acl-cpu ops/common: the matrix-product engine of the Mm family -- a batch
// of products out[b] = a[b] x b[b] over broadcast batch dims, any strides
// and offsets, FLOAT/FLOAT16/BF16 operands, with the precision of Atlas A2's
// Cube (inputs rounded to the Cube's input dtype, fp32 accumulation, the
// sum rounded to the Cube's output dtype, then Cast to out's).
//
// The work is out's tiles (kTileRows x kTileCols of one matrix), cut into
// blockDim blocks; each tile walks K in chunks of kChunkK, staging a chunk
// of a and b as fp32 in the worker's UB staging (converted and rounded;
// negative strides too, which gemm_f32 refuses) unless the operand is fp32
// used as is (a FRACTAL_NZ b: each c0-wide column tile staged as the
// strided matrix of row stride c0), and accumulates with gemm_f32 (one
// thread) into an fp32 tile; Addmm's addend is applied to the tile before
// it is stored.
// A tile's sum depends only on the shapes, strides and values, never on the
// worker that runs it: results are bitwise identical for any worker count.
#pragma once

#include "common/internal.hpp"

#include <cstdint>
#include <optional>

#include "aclcpu/nnopbase.hpp"
#include "common/fractal_nz.hpp"
#include "common/phase1.hpp"
#include "common/matrix_batch.hpp"

namespace aclcpu::ops {

/// Out's tile and the K chunk of one gemm_f32 call.
inline constexpr int64_t kTileRows = 512;
inline constexpr int64_t kTileCols = 1024;
inline constexpr int64_t kChunkK = 512;

/// view with a size-1 dim inserted before dim (0 <= dim <= rank): a vector
/// as a one-row or one-column matrix.
TensorView unsqueezed(const TensorView& view, size_t dim);

/// What the Cube does with the values: operands rounded to `input` (FLOAT:
/// kept, or to HF32 with hf32; FLOAT16 or BF16: rounded to it), products
/// summed in fp32, the sum rounded to `result` (the Cube's output dtype),
/// then to out's dtype (CANN's Cast after the kernel).
struct CubePrecision {
    aclDataType input = ACL_FLOAT;
    bool hf32 = false;
    aclDataType result = ACL_FLOAT;
};

/// out = alpha * product + beta * self (Addmm, Baddbmm), rounded as CANN's
/// graph rounds it: the product to the Cube's result dtype, beta * self to
/// scaledDtype (Muls), the sum to sumDtype (Add / Axpy), then to out's.
/// beta 0 leaves self unread (its NaN and Inf ignored, as torch does).
struct MatmulAddend {
    MatrixBatch self;  ///< over out's batch shape, broadcast to [m, n]
    aclDataType dtype = ACL_FLOAT;
    float alpha = 1;
    float beta = 0;
    aclDataType scaledDtype = ACL_FLOAT;
    aclDataType sumDtype = ACL_FLOAT;
};

/// b stored as FRACTAL_NZ (aclnnTransMatmulWeight's layout): each matrix,
/// from b.start(batch), is the NZ image of [k, n] -- or of [n, k] when
/// transposed (a view with strides [1, k], as CANN's MatmulWeightNz reads
/// ggml's weights).  b's row and column strides are unused.
struct NzOperand {
    NzLayout layout;
    bool transposed = false;
};

/// A planned product: input 0 is a ([m, k] matrices), input 1 is b ([k, n]),
/// input 2 self when there is an addend, output 0 is out ([m, n]), each with
/// its dtype.
struct MatmulSpec {
    const char* name = nullptr;  ///< the aclnn API name (static storage)
    int64_t batches = 0;
    int64_t m = 0;
    int64_t n = 0;
    int64_t k = 0;
    MatrixBatch a;
    MatrixBatch b;
    MatrixBatch out;
    aclDataType aDtype = ACL_FLOAT;
    aclDataType bDtype = ACL_FLOAT;
    aclDataType outDtype = ACL_FLOAT;
    CubePrecision precision;
    std::optional<MatmulAddend> addend;
    std::optional<NzOperand> bNz;
};

/// Hands back the executor running spec over inputs (a, b, self if an
/// addend, then any the operator declares) and outputs (out first).
/// Precondition: out has batches * m * n > 0 elements, distinct, and
/// overlaps neither a nor b; self may be out itself (in place: each tile
/// reads its part of self before writing it).
aclnnStatus hand_back_matmul(MatmulSpec spec, TensorSpan inputs, TensorSpan outputs, uint64_t* workspaceSize,
                             aclOpExecutor** executor) noexcept;

/// value rounded to HF32 (fp32's range, 11 mantissa bits; to nearest even).
float round_to_hf32(float value) noexcept;

}  // namespace aclcpu::ops
