#include "weight_quant_matmul/weight_quant_kernel.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "aclcpu/soc_profile.hpp"
#include "common/block_launch.hpp"
#include "common/dtype.hpp"
#include "common/float_runs.hpp"
#include "common/gemm.hpp"
#include "common/phase1.hpp"
#include "common/tiling.hpp"

namespace aclcpu::ops {
namespace {

using weight_quant::Sources;
using weight_quant::Tile;

/// Up to kFewRows rows of x take the dot-product path (accumulate): each
/// weight element is dequantised once per kFewRows rows, and the weight's
/// bytes are the traffic.  Its tiles are kFewCols columns of kFewDepth
/// rows of the weight: a chunk of 4096 takes ggml's columns whole (one
/// sequential stream; x's chunk at M = 1 is 16 KiB of fp32, in L1).
/// Measured: chunks of 4096 / M, x in L1 at every M, were slower at M = 4
/// (the per-column staging and sums come 4 times as often).
constexpr int64_t kFewRows = weight_quant::kMaxFewRows;
constexpr int64_t kFewCols = 64;
constexpr int64_t kFewDepth = 4096;
/// The GEMM path's tiles of y and K chunks: a dequantised chunk (512 KiB of
/// fp32) is used by kGemmRows rows.
constexpr int64_t kGemmRows = 256;
constexpr int64_t kGemmCols = 512;
constexpr int64_t kGemmDepth = 256;
static_assert(kFewCols <= weight_quant::kMaxRun && kFewDepth <= weight_quant::kMaxRun &&
              kGemmCols <= weight_quant::kMaxRun && kGemmDepth <= weight_quant::kMaxRun);

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t weight_bits(aclDataType dtype) { return dtype == ACL_INT4 ? 4 : 8; }

class WeightQuantKernel final : public OpKernel {
public:
    explicit WeightQuantKernel(WeightQuantSpec spec) noexcept
        : spec_(std::move(spec)),
          few_(spec_.m <= kFewRows),
          tileRows_(few_ ? spec_.m : kGemmRows),
          tileCols_(few_ ? kFewCols : kGemmCols),
          depth_(std::min(spec_.k, few_ ? kFewDepth : kGemmDepth)),
          rowTiles_(ceil_div(spec_.m, tileRows_)),
          colTiles_(ceil_div(spec_.n, tileCols_)),
          blocks_(BlockSplit::front_loaded(rowTiles_ * colTiles_, soc_profile().aiCoreCount,
                                           tileRows_ * tileCols_ * spec_.k)) {}

    const char* name() const noexcept override { return "aclnnWeightQuantBatchMatmulV2"; }
    void describe(std::string& details) const override { append_trace_arg(details, "blockDim", blocks_.count()); }

    aclError launch(const LaunchArgs& args) const noexcept override {
        const size_t inputs = 3 + (spec_.hasOffset ? 1 : 0) + (has_bias() ? 1 : 0);
        if (aclError status = check_tensor_addresses(name(), args, inputs, 1); status != ACL_SUCCESS) return status;
        const int64_t floats = tileRows_ * depth_ + tileCols_ * depth_ + tileRows_ * tileCols_;
        const UbStaging staging = UbStaging::per_worker(floats * int64_t{sizeof(float)});
        const int64_t bytesPerTile = tileCols_ * spec_.k * weight_bits(spec_.weightDtype) / 8 + tileRows_ * spec_.k * 2;
        return launch_block_slices(name(), blocks_, bytesPerTile, 1, [&](const BlockSlice& slice) {
            auto* ub = reinterpret_cast<float*>(staging.for_block(slice.block));
            for (int64_t tile = slice.units.begin; tile < slice.units.end; ++tile) run_tile(args, tile, ub);
        });
    }

private:
    bool has_bias() const noexcept { return spec_.biasDtype != ACL_DT_UNDEFINED; }

    /// xs[r * depth + kk] = x(row + r, k0 + kk) as fp32.
    void stage_x(const void* data, int64_t row, int64_t rows, int64_t k0, int64_t depth, float* xs) const {
        const auto* base = static_cast<const std::byte*>(data);
        const QuantOperand& x = spec_.x;
        for (int64_t r = 0; r < rows; ++r) {
            const int64_t first = x.offset + (row + r) * x.rowStride + k0 * x.colStride;
            if (x.colStride == 1 || depth == 1) {
                convert_float_run(spec_.xDtype, base + first * 2, ACL_FLOAT, xs + r * depth, depth);
                continue;
            }
            for (int64_t kk = 0; kk < depth; ++kk) {
                const std::byte* at = base + (first + kk * x.colStride) * 2;
                xs[r * depth + kk] = spec_.xDtype == ACL_BF16 ? cast_to_float(*reinterpret_cast<const bf16_t*>(at))
                                                              : cast_to_float(*reinterpret_cast<const half_t*>(at));
            }
        }
    }

    void run_tile(const LaunchArgs& args, int64_t tile, float* ub) const {
        const int64_t row = tile / colTiles_ * tileRows_;
        const int64_t col = tile % colTiles_ * tileCols_;
        const int64_t rows = std::min(tileRows_, spec_.m - row);
        const int64_t cols = std::min(tileCols_, spec_.n - col);
        float* xs = ub;
        float* w = xs + tileRows_ * depth_;
        float* acc = w + tileCols_ * depth_;
        const Sources sources{static_cast<const std::byte*>(args.inputs[1]),
                              static_cast<const std::byte*>(args.inputs[2]),
                              spec_.hasOffset ? static_cast<const std::byte*>(args.inputs[3]) : nullptr};
        std::fill(acc, acc + rows * cols, 0.0f);
        for (int64_t k0 = 0; k0 < spec_.k; k0 += depth_) {
            const Tile t{k0, std::min(depth_, spec_.k - k0), col, cols};
            stage_x(args.inputs[0], row, rows, k0, t.depth, xs);
            if (few_) {
                weight_quant::accumulate(spec_, sources, t, xs, rows, acc);
                continue;
            }
            weight_quant::dequantise(spec_, sources, t, w);
            const bool kMajor = weight_quant::k_major(spec_);
            gemm_f32({xs, rows, t.depth, t.depth, 1},
                     {w, t.depth, cols, kMajor ? 1 : cols, kMajor ? t.depth : 1}, 1.0f, {acc, rows, cols, cols, 1});
        }
        store(args, row, rows, col, cols, acc);
    }

    /// y's tile = acc + bias, rounded once to y's dtype.
    void store(const LaunchArgs& args, int64_t row, int64_t rows, int64_t col, int64_t cols, float* acc) const {
        if (has_bias()) {
            const auto* bias = static_cast<const std::byte*>(args.inputs[spec_.hasOffset ? 4 : 3]);
            for (int64_t c = 0; c < cols; ++c) {
                const std::byte* at = bias + (spec_.bias.offset + (col + c) * spec_.bias.colStride) *
                                                 element_size(spec_.biasDtype);
                const float b = spec_.biasDtype == ACL_FLOAT ? *reinterpret_cast<const float*>(at)
                                                             : cast_to_float(*reinterpret_cast<const half_t*>(at));
                for (int64_t r = 0; r < rows; ++r) acc[r * cols + c] += b;
            }
        }
        auto* y = static_cast<std::byte*>(args.outputs[0]);
        for (int64_t r = 0; r < rows; ++r) {
            const int64_t first = spec_.y.offset + (row + r) * spec_.y.rowStride + col;
            convert_float_run(ACL_FLOAT, acc + r * cols, spec_.yDtype, y + first * 2, cols);
        }
    }

    WeightQuantSpec spec_;
    bool few_;
    int64_t tileRows_;
    int64_t tileCols_;
    int64_t depth_;
    int64_t rowTiles_;
    int64_t colTiles_;
    BlockSplit blocks_;
};

}  // namespace

aclnnStatus hand_back_weight_quant_matmul(WeightQuantSpec spec, TensorSpan inputs, TensorSpan outputs,
                                          uint64_t* workspaceSize, aclOpExecutor** executor) noexcept {
    return hand_back_kernel<WeightQuantKernel>(inputs, outputs, 0, workspaceSize, executor, std::move(spec));
}

}  // namespace aclcpu::ops
