#include "common/matmul.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#include "aclcpu/soc_profile.hpp"
#include "common/block_launch.hpp"
#include "common/dtype.hpp"
#include "common/float_runs.hpp"
#include "common/gemm.hpp"
#include "common/gemv.hpp"
#include "common/tiling.hpp"

namespace aclcpu::ops {

TensorView unsqueezed(const TensorView& view, size_t dim) {
    TensorView result = view;
    result.shape.resize(0);
    result.strides.resize(0);
    for (size_t d = 0; d <= view.shape.size(); ++d) {
        if (d == dim) {
            result.shape.push_back(1);
            result.strides.push_back(0);
        }
        if (d < view.shape.size()) {
            result.shape.push_back(view.shape[d]);
            result.strides.push_back(view.strides[d]);
        }
    }
    return result;
}

float round_to_hf32(float value) noexcept {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    if ((bits & 0x7f800000u) == 0x7f800000u) return value;  // Inf and NaN stay
    constexpr int kDropped = 23 - 11;
    bits += ((1u << (kDropped - 1)) - 1) + ((bits >> kDropped) & 1u);
    bits &= ~((1u << kDropped) - 1);
    std::memcpy(&value, &bits, sizeof bits);
    return value;
}

namespace {

/// A strided rows x cols piece of an operand: element (i, j) at
/// data + (i * rowStride + j * colStride) elements of dtype.
struct Piece {
    const std::byte* data;
    aclDataType dtype;
    int64_t rows;
    int64_t cols;
    int64_t rowStride;
    int64_t colStride;
};

template <class T>
void load_scalar(const Piece& p, float* dst, int64_t dstRow, int64_t dstCol) {
    const auto* src = reinterpret_cast<const T*>(p.data);
    for (int64_t i = 0; i < p.rows; ++i) {
        for (int64_t j = 0; j < p.cols; ++j) dst[i * dstRow + j * dstCol] = cast_to_float(src[i * p.rowStride + j * p.colStride]);
    }
}

/// Converts a contiguous run of len elements of dtype at src to fp32 at dst.
void load_run(aclDataType dtype, const std::byte* src, float* dst, int64_t len) {
    if (dtype == ACL_FLOAT) {
        std::memcpy(dst, src, static_cast<size_t>(len) * sizeof(float));
    } else {
        convert_float_run(dtype, src, ACL_FLOAT, dst, len);
    }
}

/// Rounds count staged values of an operand of dtype as precision says.
void round_staged(aclDataType dtype, const CubePrecision& precision, float* dst, int64_t count) {
    if (precision.input != ACL_FLOAT && precision.input != dtype) {
        round_through(precision.input, dst, count);
    } else if (precision.hf32 && dtype == ACL_FLOAT) {
        for (int64_t i = 0; i < count; ++i) dst[i] = round_to_hf32(dst[i]);
    }
}

/// Stages p as fp32 at dst, laid out along p's faster dim (dense rows when
/// its columns are closer than its rows or when denseRows, dense columns
/// otherwise), rounded as precision says; returns the staged matrix.
StridedMatrix<const float> stage(const Piece& p, const CubePrecision& precision, float* dst, bool denseRows = false) {
    const bool byRows = denseRows || std::llabs(p.colStride) <= std::llabs(p.rowStride);
    const int64_t dstRow = byRows ? p.cols : 1;
    const int64_t dstCol = byRows ? 1 : p.rows;
    const int64_t runs = byRows ? p.rows : p.cols;
    const int64_t runLength = byRows ? p.cols : p.rows;
    const int64_t runStride = byRows ? p.rowStride : p.colStride;
    const int64_t size = element_size(p.dtype);
    if ((byRows ? p.colStride : p.rowStride) == 1 || runLength == 1) {
        for (int64_t r = 0; r < runs; ++r) {
            load_run(p.dtype, p.data + r * runStride * size, dst + r * runLength, runLength);
        }
    } else if (p.dtype == ACL_FLOAT16) {
        load_scalar<half_t>(p, dst, dstRow, dstCol);
    } else if (p.dtype == ACL_BF16) {
        load_scalar<bf16_t>(p, dst, dstRow, dstCol);
    } else {
        load_scalar<float>(p, dst, dstRow, dstCol);
    }
    round_staged(p.dtype, precision, dst, p.rows * p.cols);
    return {dst, p.rows, p.cols, dstRow, dstCol};
}

/// Stages rows [row, row + rows) x columns [col, col + cols) of the NZ
/// matrix at base as dense fp32 rows at dst: each c0-wide column tile is the
/// strided matrix of row stride c0, one run of c0 per row.  Precondition:
/// col is a multiple of c0 (the engine's tiles and chunks are).
void stage_nz(const std::byte* base, aclDataType dtype, const NzLayout& nz, int64_t row, int64_t rows, int64_t col,
              int64_t cols, float* dst) {
    const int64_t size = element_size(dtype);
    for (int64_t tile = col; tile < col + cols; tile += nz.c0) {
        const int64_t width = std::min(nz.c0, col + cols - tile);
        for (int64_t r = 0; r < rows; ++r) {
            load_run(dtype, base + nz.element(row + r, tile) * size, dst + r * cols + (tile - col), width);
        }
    }
}

/// Whether gemm_f32 reads the operand where it lies: fp32 kept as it is, with
/// strides it accepts.
bool reads_in_place(aclDataType dtype, const MatrixBatch& batch, const CubePrecision& precision) {
    return dtype == ACL_FLOAT && precision.input == ACL_FLOAT && !precision.hf32 && batch.rowStride >= 0 &&
           batch.colStride >= 0;
}

/// c (rows x cols, dense rows) = alpha * c + beta * self, rounded as the
/// addend says; self's piece is staged at scratch.
void add_scaled_self(float* c, int64_t rows, int64_t cols, const MatmulAddend& addend, const Piece& self,
                     float* scratch) {
    const int64_t count = rows * cols;
    if (addend.beta == 0.0f) {
        for (int64_t i = 0; i < count; ++i) c[i] *= addend.alpha;
    } else {
        const StridedMatrix<const float> s = stage(self, CubePrecision{}, scratch);
        for (int64_t i = 0; i < count; ++i) scratch[i] *= addend.beta;
        round_through(addend.scaledDtype, scratch, count);
        for (int64_t i = 0; i < rows; ++i) {
            for (int64_t j = 0; j < cols; ++j) {
                c[i * cols + j] = addend.alpha * c[i * cols + j] + s.data[i * s.rowStride + j * s.colStride];
            }
        }
    }
    round_through(addend.sumDtype, c, count);
}

/// Writes the fp32 tile c (rows x cols, dense rows, already rounded) at out,
/// converted to out's dtype.
void store(const float* c, int64_t rows, int64_t cols, const Piece& out) {
    auto* base = const_cast<std::byte*>(out.data);
    const int64_t size = element_size(out.dtype);
    for (int64_t i = 0; i < rows; ++i) {
        std::byte* row = base + i * out.rowStride * size;
        const float* src = c + i * cols;
        if (out.colStride == 1 && out.dtype != ACL_FLOAT) {
            convert_float_run(ACL_FLOAT, src, out.dtype, row, cols);
            continue;
        }
        for (int64_t j = 0; j < cols; ++j) {
            std::byte* at = row + j * out.colStride * size;
            if (out.dtype == ACL_FLOAT16) {
                *reinterpret_cast<half_t*>(at) = half_t::from_float(src[j]);
            } else if (out.dtype == ACL_BF16) {
                *reinterpret_cast<bf16_t*>(at) = bf16_t::from_float(src[j]);
            } else {
                *reinterpret_cast<float*>(at) = src[j];
            }
        }
    }
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// At most kGemvMaxRows rows of a, against b's dense columns or rows, go
/// through gemv_f32 rather than gemm_f32 (which would stage b as fp32: three
/// times its bytes moved for one multiply-add per element), in tiles of
/// kGemvTileCols columns, so that a decoder's one-token products still
/// spread over the blocks.
constexpr int64_t kGemvTileCols = 256;
/// gemv_f32's K chunks: a weight column's whole length at a decoder's
/// sizes, so that each column is one stream for the hardware prefetcher
/// (512-element chunks made streams of 1 KiB and halved the rate).
constexpr int64_t kGemvChunkK = 16384;

/// How gemv_f32 reads b, if it can take this product: few rows of a, b
/// dense along k or along n, and read as the Cube reads it -- kept, or
/// rounded to the Cube's FLOAT16 or BF16 (not to HF32).
struct GemvPlan {
    bool denseRows;
    aclDataType roundedTo;
};

std::optional<GemvPlan> gemv_plan(const MatmulSpec& spec) {
    if (spec.m > kGemvMaxRows || spec.b.rowStride < 0 || spec.b.colStride < 0) return std::nullopt;
    if (spec.precision.hf32 && spec.bDtype == ACL_FLOAT) return std::nullopt;
    const aclDataType input = spec.precision.input;
    const aclDataType roundedTo = input == ACL_FLOAT || input == spec.bDtype ? ACL_FLOAT : input;
    // An NZ image of [n, k] (ggml's weights) has its columns along k in
    // c0-element runs; the other NZ reading keeps the GEMM path.
    if (spec.bNz) return spec.bNz->transposed ? std::optional<GemvPlan>{GemvPlan{false, roundedTo}} : std::nullopt;
    if (spec.b.rowStride != 1 && spec.b.colStride != 1) return std::nullopt;
    return GemvPlan{spec.b.rowStride != 1, roundedTo};
}

class MatmulKernel final : public OpKernel {
public:
    explicit MatmulKernel(MatmulSpec spec) noexcept
        : spec_(std::move(spec)),
          gemv_(gemv_plan(spec_)),
          tileCols_(gemv_ ? kGemvTileCols : kTileCols),
          rowTiles_(ceil_div(spec_.m, kTileRows)),
          colTiles_(ceil_div(spec_.n, tileCols_)),
          blocks_(BlockSplit::front_loaded(spec_.batches * rowTiles_ * colTiles_, soc_profile().aiCoreCount,
                                           std::max<int64_t>(tile_rows() * tile_cols() * spec_.k, 1))) {}

    const char* name() const noexcept override { return spec_.name; }
    void describe(std::string& details) const override { append_trace_arg(details, "blockDim", blocks_.count()); }

    aclError launch(const LaunchArgs& args) const noexcept override {
        const size_t inputs = spec_.addend ? 3 : 2;
        if (aclError status = check_tensor_addresses(name(), args, inputs, 1); status != ACL_SUCCESS) return status;
        const int64_t tiles = spec_.addend ? 2 : 1;  // c, and self's staging
        const int64_t stagingFloats =
            chunk_k() * (staged_rows() + staged_cols()) + tiles * staged_rows() * tileCols_;
        const UbStaging staging = UbStaging::per_worker(stagingFloats * int64_t{sizeof(float)});
        // What one tile reads and writes: small products' blocks then share
        // a task (run_pieces) rather than each paying a dispatch.
        const int64_t bytesPerTile = (tile_rows() * element_size(spec_.aDtype) +
                                      tile_cols() * element_size(spec_.bDtype)) * spec_.k +
                                     tile_rows() * tile_cols() * element_size(spec_.outDtype);
        return launch_block_slices(name(), blocks_, bytesPerTile, 1, [&](const BlockSlice& slice) {
            auto* ub = reinterpret_cast<float*>(staging.for_block(slice.block));
            for (int64_t tile = slice.units.begin; tile < slice.units.end; ++tile) run_tile(args, tile, ub);
        });
    }

private:
    /// The K chunks of a tile's products (and the longest, for the
    /// staging), the rows of a staged, and the columns of b staged
    /// (gemv_f32 reads b in place).
    int64_t chunk_step() const noexcept { return gemv_ ? kGemvChunkK : kChunkK; }
    int64_t chunk_k() const noexcept { return std::min(spec_.k, chunk_step()); }
    int64_t staged_rows() const noexcept { return gemv_ ? kGemvMaxRows : kTileRows; }
    int64_t staged_cols() const noexcept { return gemv_ ? 0 : kTileCols; }

    /// The rows and columns of a full tile of this product.
    int64_t tile_rows() const noexcept { return std::min(kTileRows, spec_.m); }
    int64_t tile_cols() const noexcept { return std::min(tileCols_, spec_.n); }

    Piece piece(const void* data, aclDataType dtype, const MatrixBatch& mb, int64_t b, int64_t row, int64_t col,
                int64_t rows, int64_t cols) const {
        const int64_t at = mb.start(b) + row * mb.rowStride + col * mb.colStride;
        return {static_cast<const std::byte*>(data) + at * element_size(dtype), dtype, rows, cols, mb.rowStride,
                mb.colStride};
    }

    /// The product's operand piece as gemm_f32 reads it: in place, or staged
    /// at ub (in dense rows when denseRows, as gemv_f32 reads a).
    StridedMatrix<const float> operand(const Piece& p, const MatrixBatch& mb, float* ub, bool denseRows = false) const {
        if (reads_in_place(p.dtype, mb, spec_.precision) && (!denseRows || p.colStride == 1)) {
            return {reinterpret_cast<const float*>(p.data), p.rows, p.cols, p.rowStride, p.colStride};
        }
        return stage(p, spec_.precision, ub, denseRows);
    }

    /// b's rows [k0, k0 + depth) x columns [col, col + cols) of matrix b of
    /// the NZ operand, staged at ub (dense rows of the NZ matrix).
    StridedMatrix<const float> nz_operand(const void* data, int64_t b, int64_t k0, int64_t depth, int64_t col,
                                          int64_t cols, float* ub) const {
        const NzOperand& nz = *spec_.bNz;
        const auto* base = static_cast<const std::byte*>(data) + spec_.b.start(b) * element_size(spec_.bDtype);
        if (nz.transposed) {
            stage_nz(base, spec_.bDtype, nz.layout, col, cols, k0, depth, ub);
        } else {
            stage_nz(base, spec_.bDtype, nz.layout, k0, depth, col, cols, ub);
        }
        round_staged(spec_.bDtype, spec_.precision, ub, depth * cols);
        return nz.transposed ? StridedMatrix<const float>{ub, depth, cols, 1, depth}
                             : StridedMatrix<const float>{ub, depth, cols, cols, 1};
    }

    /// b's rows [k0, k0 + depth) x columns [col, col + cols) of batch b's
    /// transposed NZ operand (the NZ image of [n, k]) as gemv_f32 reads it in
    /// place: column j's elements along k in c0-element runs, a column tile
    /// apart.  Precondition: k0 is a multiple of c0 (chunks are).
    DenseMatrix nz_columns(const void* data, int64_t b, int64_t k0, int64_t depth, int64_t col, int64_t cols) const {
        const NzLayout& nz = spec_.bNz->layout;
        const int64_t size = element_size(spec_.bDtype);
        const auto* base = static_cast<const std::byte*>(data) + (spec_.b.start(b) + nz.element(col, k0)) * size;
        return {base, spec_.bDtype, depth, cols, nz.c0, false, gemv_->roundedTo, nz.c0, nz.column_tile_elements()};
    }

    void run_tile(const LaunchArgs& args, int64_t tile, float* ub) const {
        const int64_t b = tile / (rowTiles_ * colTiles_);
        const int64_t row = tile / colTiles_ % rowTiles_ * kTileRows;
        const int64_t col = tile % colTiles_ * tileCols_;
        const int64_t rows = std::min(kTileRows, spec_.m - row);
        const int64_t cols = std::min(tileCols_, spec_.n - col);
        float* aStage = ub;
        float* bStage = aStage + chunk_k() * staged_rows();
        float* c = bStage + chunk_k() * staged_cols();
        // k == 0 still makes one call: its beta 0 writes the zeros.
        for (int64_t k0 = 0; k0 == 0 || k0 < spec_.k; k0 += chunk_step()) {
            const int64_t depth = std::min(chunk_step(), spec_.k - k0);
            const auto a = operand(piece(args.inputs[0], spec_.aDtype, spec_.a, b, row, k0, rows, depth), spec_.a, aStage,
                                   gemv_.has_value());
            const float beta = k0 == 0 ? 0.0f : 1.0f;
            if (spec_.bNz) {
                if (gemv_) {
                    gemv_f32(a, nz_columns(args.inputs[1], b, k0, depth, col, cols), beta, {c, rows, cols, cols, 1});
                } else {
                    gemm_f32(a, nz_operand(args.inputs[1], b, k0, depth, col, cols, bStage), beta,
                             {c, rows, cols, cols, 1});
                }
                continue;
            }
            const Piece bp = piece(args.inputs[1], spec_.bDtype, spec_.b, b, k0, col, depth, cols);
            if (gemv_) {
                const int64_t stride = gemv_->denseRows ? bp.rowStride : bp.colStride;
                gemv_f32(a, {bp.data, bp.dtype, depth, cols, stride, gemv_->denseRows, gemv_->roundedTo}, beta,
                         {c, rows, cols, cols, 1});
            } else {
                gemm_f32(a, operand(bp, spec_.b, bStage), beta, {c, rows, cols, cols, 1});
            }
        }
        round_through(spec_.precision.result, c, rows * cols);
        if (spec_.addend) {
            const MatmulAddend& addend = *spec_.addend;
            add_scaled_self(c, rows, cols, addend,
                            piece(args.inputs[2], addend.dtype, addend.self, b, row, col, rows, cols),
                            c + staged_rows() * tileCols_);
        }
        store(c, rows, cols, piece(args.outputs[0], spec_.outDtype, spec_.out, b, row, col, rows, cols));
    }

    MatmulSpec spec_;
    std::optional<GemvPlan> gemv_;  ///< set when products go through gemv_f32
    int64_t tileCols_;
    int64_t rowTiles_;
    int64_t colTiles_;
    BlockSplit blocks_;
};

}  // namespace

aclnnStatus hand_back_matmul(MatmulSpec spec, TensorSpan inputs, TensorSpan outputs, uint64_t* workspaceSize,
                             aclOpExecutor** executor) noexcept {
    return hand_back_kernel<MatmulKernel>(inputs, outputs, 0, workspaceSize, executor, std::move(spec));
}

}  // namespace aclcpu::ops
