// acl-cpu ops/common: the row engine -- operators whose output row depends
// on a whole row of their input: a reduction over the row in fp32, in a
// fixed order, followed by an elementwise pass (softmax, the norms).
//
// The rows are those of an iteration space [rows, length]: the input and
// output views with their reduced dims moved last (a non-last softmax dim
// is a strided row).  Blocks own whole rows (BlockSplit::front_loaded over
// vectorCoreCount); a row is read in UB-sized chunks of fp32, so a row of
// any length works in a block's staging (a dense fp32 x or y is read or
// written in place instead).  Results never depend on the worker count or
// the SIMD target: a row's arithmetic depends only on the row.
#pragma once

#include "common/internal.hpp"

#include <cstdint>
#include <string>

#include "aclcpu/nnopbase.hpp"
#include "aclcpu/soc_profile.hpp"
#include "common/block_launch.hpp"
#include "common/strided_layout.hpp"

namespace aclcpu::ops {

/// What a row operator computes per row of x (n = length, sums in fp32):
///   kSoftmax     y = exp(x - max) / sum(exp(x - max))
///   kLogSoftmax  y = (x - max) - log(sum(exp(x - max)))
///   kRmsNorm     rstd = 1 / sqrt(sum(x^2) / n + eps);  y = x * rstd * gamma
///   kLayerNorm   mean = sum(x) / n;  rstd = 1 / sqrt(sum((x - mean)^2) / n + eps);
///                y = (x - mean) * rstd [* gamma] [+ beta]; rows of no element: mean 0, rstd NaN
///                (GroupNorm: a row is a group of channels, gamma and beta per row)
///   kAddRmsNorm  x = x + other, rounded to the input dtype and written to sum; then kRmsNorm
///   kSoftmaxCrossEntropy  labels = other; y = softmax(x) - labels;
///                loss = sum(labels * (log(sum(exp(x - max))) - (x - max)))
///   kSoftmaxBackward     x = gradOutput, other = softmax's output s:
///                y = s * x - s * sum(x * s)
///   kLogSoftmaxBackward  x = gradOutput, other = log-softmax's output l:
///                y = x - exp(l) * sum(x)
///   kLayerNormBackward   x = dy, other = the forward's input, mean and rstd
///                read (statsRead); xhat = (other - mean) * rstd, g = x * gamma
///                (x without gamma): y = rstd * (g - sum(g) / n - xhat * sum(g * xhat) / n);
///                terms (when given) = x * xhat, which a column sum turns into dgamma
///   kRmsNormBackward     as kLayerNormBackward with mean 0 and no sum(g) / n:
///                y = rstd * (g - xhat * sum(g * xhat) / n), xhat = other * rstd
enum class RowFunction : uint8_t {
    kSoftmax,
    kLogSoftmax,
    kRmsNorm,
    kLayerNorm,
    kAddRmsNorm,
    kSoftmaxCrossEntropy,
    kSoftmaxBackward,
    kLogSoftmaxBackward,
    kLayerNormBackward,
    kRmsNormBackward,
};

/// A row's sums keep this many partial sums (element i in partial i % 32),
/// so a row's chunks start at multiples of it: independent accumulators
/// for every SIMD target (2 of AVX-512's vectors, 4 of AVX2's, 8 of SSE's).
inline constexpr int64_t kRowSumPartials = 32;

/// The per-launch constants of a row operator.
struct RowPlan {
    RowFunction function = RowFunction::kSoftmax;
    int64_t rows = 0;
    int64_t length = 0;         ///< elements per row (0 only for LayerNorm)
    int64_t chunk = 0;          ///< elements of a row staged at once (UB-sized)
    BlockSplit blocks;          ///< rows over blocks
    float epsilon = 0;
    aclDataType inputDtype = ACL_FLOAT;   ///< x is rounded to it after loading (a Cast before the kernel)
    aclDataType resultDtype = ACL_FLOAT;  ///< y is rounded to it before being stored in its own dtype
};

/// The operands, each over the iteration space it is indexed by: x, y,
/// other (a second input row: AddRmsNorm's x2, the labels) and sum
/// (AddRmsNorm's x1 + x2) over [rows, length], gamma and beta over [length]
/// (the same for every row) or, when affinePerRow, over [rows, length];
/// mean, rstd and loss over [rows]; terms (the backward norms' per-element
/// dgamma terms, fp32) over [rows, length].  Slots are the operands' indices
/// in the launch's inputs (x 0, other, gamma, beta; mean and rstd when
/// statsRead) and outputs (y 0, mean, rstd, loss, sum, terms); -1 where the
/// operator has no such operand.
struct RowOperands {
    StridedLayout x;
    StridedLayout y;
    StridedLayout other;
    StridedLayout gamma;
    StridedLayout beta;
    StridedLayout mean;
    StridedLayout rstd;
    StridedLayout loss;
    StridedLayout sum;
    StridedLayout terms;
    int otherSlot = -1;
    int gammaSlot = -1;
    int betaSlot = -1;
    int meanSlot = -1;
    int rstdSlot = -1;
    int lossSlot = -1;
    int sumSlot = -1;
    int termsSlot = -1;
    bool affinePerRow = false;
    /// mean and rstd are inputs (a backward norm reads its forward's).
    bool statsRead = false;

    size_t input_count() const noexcept {
        return 1 + size_t{otherSlot >= 0} + size_t{gammaSlot >= 0} + size_t{betaSlot >= 0} +
               (statsRead ? stat_count() : 0);
    }
    size_t output_count() const noexcept {
        return 1 + (statsRead ? 0 : stat_count()) + size_t{lossSlot >= 0} + size_t{sumSlot >= 0} +
               size_t{termsSlot >= 0};
    }

private:
    size_t stat_count() const noexcept { return size_t{meanSlot >= 0} + size_t{rstdSlot >= 0}; }
};

/// Plans rows x length for soc: blocks of whole rows, a UB chunk of the
/// staged fp32 buffers.  Precondition: rows > 0, length >= 0.
RowPlan plan_rows(RowFunction function, int64_t rows, int64_t length, const SocProfile& soc);

/// A TensorView whose dim `dim` is moved last (the others keep their order):
/// a softmax over dim is then a row operator over the result.
TensorView with_dim_last(const TensorView& view, size_t dim);

/// The kernel of every row operator.
class RowKernel final : public TiledKernelOf<RowPlan, RowOperands> {
public:
    using TiledKernelOf::TiledKernelOf;
    aclError launch(const LaunchArgs& args) const noexcept override;
};

}  // namespace aclcpu::ops
