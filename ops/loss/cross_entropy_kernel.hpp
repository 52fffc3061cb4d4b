// acl-cpu: the kernels of CrossEntropyLoss and CrossEntropyLossGrad (ops-nn
// loss/cross_entropy_loss, loss/cross_entropy_loss_grad, their A2 kernels
// op_kernel/cross_entropy_loss*.h and cross_entropy_loss_grad_weight_*.h),
// composed from the engines: the row engine's log-softmax (forward) and
// log-softmax gradient (backward) over the rows, staged in fp32 in the
// workspace, a per-row pass gathering each row's class, and the reduction
// engine for the sums a mean or sum needs -- so the results never depend on
// the worker count.
#pragma once

#include "common/internal.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>

#include "aclcpu/nnopbase.hpp"
#include "common/strided_layout.hpp"
#include "common/tiling.hpp"
#include "loss/nll_loss_kernel.hpp"

namespace aclcpu::ops {

/// What both kernels read besides the rows: target over [rows] (INT64),
/// the optional fp32 weight over [classes] (weightSlot -1 when absent:
/// every class weighs 1).
struct CrossEntropyRows {
    StridedLayout target;
    StridedLayout weight;
    int weightSlot = -1;
    int64_t rows = 0;
    int64_t classes = 0;
    int64_t ignoreIndex = -100;
    NllReduction reduction = NllReduction::kMean;
    float labelSmoothing = 0;
    aclDataType dtype = ACL_FLOAT;  ///< the input's: results are rounded to it
    BlockSplit blocks;              ///< rows over blocks
};

/// The workspace's parts: fp32 rows x classes (the log-probabilities, or the
/// gradient's one-hot rows), the per-row terms (`terms` per row), the sums,
/// and the reduction's bytes.
struct CrossEntropyWorkspace {
    uint64_t terms = 0;
    uint64_t sums = 0;
    uint64_t reduction = 0;
    uint64_t total = 0;

    static CrossEntropyWorkspace plan(int64_t rows, int64_t classes, int64_t termsPerRow,
                                      uint64_t reductionBytes) noexcept;
};

/// What both kernels hold: the rows, the reduction of the staged terms
/// (null where the kernel sums nothing) and the workspace's parts.
class CrossEntropyKernelBase : public OpKernel {
public:
    const char* name() const noexcept override { return name_; }
    void describe(std::string& details) const override;

protected:
    CrossEntropyKernelBase(const char* name, CrossEntropyRows rows, std::shared_ptr<const OpKernel> sum,
                           CrossEntropyWorkspace workspace) noexcept;
    /// The sums of `terms` staged at the workspace's terms, into its sums.
    aclError sum_terms(const LaunchArgs& args) const noexcept;
    float* workspace_at(const LaunchArgs& args, uint64_t offset) const noexcept {
        return reinterpret_cast<float*>(static_cast<std::byte*>(args.workspace) + offset);
    }

    const char* name_;
    CrossEntropyRows rows_;
    std::shared_ptr<const OpKernel> sum_;
    CrossEntropyWorkspace workspace_;
};

/// CrossEntropyLoss: inputs input, target[, weight]; outputs loss, logProb
/// (zloss and lseForZloss, not computed on A2, are not written).  logProb =
/// log-softmax(input) rounded to its dtype; per row (0 when ignored): ln =
/// logProb[t] w[t] and, with label smoothing ls, smooth = sum_c logProb[c]
/// w[c]; loss = (ls - 1) ln - ls / C smooth (-ln without smoothing) per row
/// for none, over the sum of the rows' weights for mean, summed for sum.
/// No rows: mean NaN, sum 0 (the arch35 empty kernel).
class CrossEntropyLossKernel final : public CrossEntropyKernelBase {
public:
    /// logSoftmax: the row engine over input into the workspace's rows;
    /// sum: the reduction of the [3, rows] terms into 3 sums (null for none
    /// and for no rows).
    CrossEntropyLossKernel(const char* name, CrossEntropyRows rows, std::shared_ptr<const OpKernel> logSoftmax,
                           std::shared_ptr<const OpKernel> sum, StridedLayout loss, StridedLayout logProb,
                           CrossEntropyWorkspace workspace) noexcept;

    aclError launch(const LaunchArgs& args) const noexcept override;

private:
    /// Writes row's logProb and its loss (none) or terms; returns nothing.
    void row_terms(const LaunchArgs& args, const float* logProb, float* terms, int64_t row) const noexcept;
    void write_reduced(const LaunchArgs& args, const float* sums) const noexcept;

    std::shared_ptr<const OpKernel> logSoftmax_;
    StridedLayout loss_;
    StridedLayout logProb_;
};

/// CrossEntropyLossGrad: inputs gradLoss, logProb, target[, weight]; output
/// out.  Per row, s = w[t] g (0 when ignored) with g = gradLoss[n] (none),
/// gradLoss (sum) or gradLoss over the sum of the rows' weights (mean); out
/// = exp(logProb) s, less s at the row's class: the row engine's
/// log-softmax gradient of the one-hot rows -s [c == t] staged in the
/// workspace.
class CrossEntropyLossGradKernel final : public CrossEntropyKernelBase {
public:
    /// rowsBackward: the row engine over (one-hot rows, logProb) into out;
    /// sum: the reduction of the [rows] weights into one (mean only).
    CrossEntropyLossGradKernel(const char* name, CrossEntropyRows rows, std::shared_ptr<const OpKernel> rowsBackward,
                               std::shared_ptr<const OpKernel> sum, StridedLayout gradLoss,
                               CrossEntropyWorkspace workspace) noexcept;

    aclError launch(const LaunchArgs& args) const noexcept override;

private:
    std::shared_ptr<const OpKernel> rowsBackward_;
    StridedLayout gradLoss_;
};

}  // namespace aclcpu::ops
