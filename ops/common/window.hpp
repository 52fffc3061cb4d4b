// acl-cpu ops/common: the window engine -- operators whose every output
// element is computed from a window of an N-C-spatial input: Im2col gathers
// each window element into its own column, AvgPool2d averages a window,
// MaxPool takes its maximum, UpsampleNearest2d copies the one element its
// window holds.
//
// Each spatial axis maps an output position o to the window of input
// positions start(o) + k * dilation, k < kernel: start(o) = o * stride -
// padBefore for a pool or a convolution, or the nearest source position for
// resampling; positions outside [0, inSize) are padding.  Input and
// output are read and written in place through their strides (any strided
// or offset view); a window operator's output is split into rows (one per
// output position but the innermost), and the rows into blocks.
//
// Convolution (ops/convolution) is Im2col's column gather, read through
// ColumnGather into a block's UB staging, followed by a GEMM over the
// columns; its transposed form gathers from the zero-inserted input
// (WindowAxis::inputDilation).
#pragma once

#include "common/internal.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "aclcpu/nnopbase.hpp"
#include "common/tiling.hpp"

namespace aclcpu::ops {

/// Spatial dims a window operator handles (1-D and 2-D now, 3-D later).
inline constexpr int kMaxWindowDims = 3;

/// One spatial axis of a window operator.
struct WindowAxis {
    int64_t inSize = 1;
    int64_t outSize = 1;
    int64_t kernel = 1;
    int64_t dilation = 1;
    int64_t stride = 1;
    /// The window of output o starts at o * stride - padBefore.
    int64_t padBefore = 0;
    /// The padded input ends at inSize + padAfter: a window's count with
    /// padding (AvgPool's countIncludePad) stops there.
    int64_t padAfter = 0;
    /// > 0: nearest resampling instead, start(o) = min(floor(o * scale),
    /// inSize - 1) in fp32 (kernel 1).
    float nearestScale = 0.0f;
    /// ColumnGather only (the WindowKernel operators leave it 1): the input
    /// seen with inputDilation - 1 zeros between its elements, position p
    /// holding element p / inputDilation when p is a multiple -- the
    /// zero-inserted input a transposed convolution gathers from.
    int64_t inputDilation = 1;
};

/// What an operator does with a window.
enum class WindowReduce {
    /// out[n, c, k..., o...] = window element k of output position o (0 in
    /// the padding): Im2col, and (kernel 1) nearest resampling.
    kColumns,
    /// out[n, c, o...] = the window's sum over its divisor.
    kAverage,
    /// out[n, c, o...] = the window's maximum (padding excluded, NaN wins).
    kMax,
};

/// A window operator as phase 1 plans it.
struct WindowPlan {
    WindowReduce reduce = WindowReduce::kColumns;
    int spatial = 2;
    WindowAxis axes[kMaxWindowDims];
    /// The input as [N, C, spatial...] (a batchless input with N = 1).
    TensorView input;
    /// The output as [N, C, spatial...] (pools) or [N, C, kernel...,
    /// spatial...] (kColumns).
    TensorView output;
    /// kAverage: the divisor is divisorOverride when not 0, else the
    /// window's element count, padding included when countIncludePad.
    bool countIncludePad = true;
    int64_t divisorOverride = 0;
    /// kAverage: input and result rounded through FLOAT16 (AvgPool2d's
    /// cubeMathType USE_FP16 on a FLOAT input).
    bool roundThroughHalf = false;
};

/// The output size of one pooled axis as CANN's op_api computes it: floor
/// division (or truncation toward zero, truncates = true, as AvgPool2d's
/// PoolingOutShape does), and with ceilMode the last window dropped when it
/// would start in the right padding.
int64_t pooled_size(int64_t in, int64_t kernel, int64_t padBefore, int64_t padAfter, int64_t stride,
                    int64_t dilation, bool ceilMode, bool truncates = false) noexcept;

/// acl-cpu's guard, after CANN's checks: every kernel size, dilation,
/// stride and padding of the first `spatial` axes at most INT32_MAX, so that
/// no window position overflows -> 161002.
aclnnStatus check_window_axes(const WindowAxis* axes, int spatial);

/// The kernel of a window operator.  Immutable; launch() may run concurrently.
class WindowKernel final : public OpKernel {
public:
    /// Precondition: the plan's views are inside their storage and not
    /// empty; input and output dtypes are those the reduce handles (any
    /// dtype pair for kColumns, equal floating dtypes for the pools).
    WindowKernel(const char* name, const WindowPlan& plan);

    const char* name() const noexcept override { return name_; }
    aclError launch(const LaunchArgs& args) const noexcept override;
    void describe(std::string& details) const override;

    /// Computes output rows [begin, end) from in into out (data pointers).
    void run_rows(const void* in, void* out, int64_t begin, int64_t end) const;

private:
    template <class T>
    void reduce_row(const T* in, T* out, const int64_t* rowIndex) const;
    void columns_row(const std::byte* in, std::byte* out, const int64_t* rowIndex) const;
    /// The window start of output position o along axis a (computed, not
    /// tabulated: a broadcast view may have more positions than memory).
    int64_t start(int a, int64_t o) const noexcept;

    const char* name_;
    WindowPlan plan_;
    /// The output's dims but the innermost: one row each.
    int rowRank_ = 0;
    int64_t rows_ = 0;
    int64_t rowLength_ = 0;
    BlockSplit blocks_;
};

/// Ends phase 1 of a window operator, the checks its entry points share
/// last: self's and out's views inside their storage, check_window_axes,
/// then a WindowKernel over plan, launched with input and out.
aclnnStatus hand_back_window(const char* api, const WindowPlan& plan, const aclTensor* input, const aclTensor* out,
                             uint64_t* workspaceSize, aclOpExecutor** executor);

/// Convolution's column gather (the kColumns layout, read by a block into
/// its UB staging rather than written to a tensor): for batch n, channels
/// [c0, c0 + channels) and the output positions [begin, end) of the
/// flattened output spatial dims, the float matrix whose row (c, k...) holds
/// window element k of each position (0 in the padding and between the
/// elements of a dilated input), each element rounded through roundThrough
/// (FLOAT16 or BF16; FLOAT leaves it).  Immutable; gather() may run
/// concurrently.
class ColumnGather {
public:
    /// plan: the input view and the axes (1 to 3 of them); its output and
    /// reduce are not used.
    explicit ColumnGather(const WindowPlan& plan);

    /// The output positions: the product of the axes' outSize.
    int64_t positions() const noexcept { return positions_; }
    /// The window elements: the product of the axes' kernel.
    int64_t taps() const noexcept { return taps_; }

    /// Writes channels * taps() rows of end - begin floats to dst, row r at
    /// dst + r * (end - begin).
    void gather(const void* in, int64_t n, int64_t c0, int64_t channels, int64_t begin, int64_t end,
                aclDataType roundThrough, float* dst) const;

private:
    template <class T>
    void gather_typed(const T* in, int64_t n, int64_t c0, int64_t channels, int64_t begin, int64_t end,
                      aclDataType roundThrough, float* dst) const;

    WindowPlan plan_;
    int64_t positions_ = 1;
    int64_t taps_ = 1;
};

/// view with `count` size-1 dims (stride 0) inserted before dim `at`.
TensorView with_unit_dims(const TensorView& view, size_t at, int count);

/// The view as `rank` dims: a batchless view (rank - 1 dims) with a leading
/// size-1 batch added (CHW -> 1CHW), any other as it is.
TensorView with_batch(const TensorView& view, size_t rank);

}  // namespace aclcpu::ops
