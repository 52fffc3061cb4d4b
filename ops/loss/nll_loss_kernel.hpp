// acl-cpu: the kernels of NLLLoss and NLLLossGrad (ops-nn loss/nll_loss,
// loss/nll_loss_grad), shared by their 2-d forms.  Both gather one element
// per row -- self[row, target[row]] -- so they are scalar walks over rows;
// NLLLoss's mean and sum reduce the per-row terms, staged in fp32 in the
// workspace, on the reduction engine, so the result depends on the row
// count only (never on the worker count).
#pragma once

#include "common/internal.hpp"

#include <cstdint>
#include <memory>

#include "aclcpu/nnopbase.hpp"
#include "common/block_launch.hpp"
#include "common/strided_layout.hpp"
#include "common/tiling.hpp"

namespace aclcpu::ops {

enum class NllReduction : uint8_t { kNone = 0, kMean = 1, kSum = 2 };

/// What both kernels read: self (or its gradient) over [rows, classes], the
/// class of each row in target over [rows], weight over [classes].
struct NllRows {
    StridedLayout self;
    StridedLayout target;
    StridedLayout weight;
    int64_t rows = 0;
    int64_t classes = 0;
    int64_t ignoreIndex = -100;
    NllReduction reduction = NllReduction::kMean;
    /// The kernel's dtype (op_api's promoteType on A2: BF16 stays, FLOAT16
    /// becomes FLOAT): each result is rounded to it before the Cast into out.
    aclDataType computeDtype = ACL_FLOAT;
    BlockSplit blocks;  ///< rows over blocks
};

/// Plans rows over soc's vector cores (the caller fills the rest).
BlockSplit plan_nll_rows(int64_t rows);

/// The class row `row` of target (INT64, INT32 or UINT8) at data picks, or
/// -1 for a row that adds nothing: its class is ignoreIndex, or outside
/// [0, classes).  CANN's kernels assume classes in range (the doc: "[0,
/// C - 1]"; A2's read outside the row or the weight for others, arch35's
/// assert); acl-cpu skips such a row as CANN's reference for the gradient
/// does (ops-nn loss/nll_loss_grad/tests/assets/golden.py), so that CANN's
/// own NLLLoss2d example, whose target holds C, runs.
int64_t row_class(const StridedLayout& target, const void* data, int64_t row, int64_t classes,
                  int64_t ignoreIndex) noexcept;

/// 561101 "out of host memory" (reported).
aclnnStatus out_of_host_memory();

/// The reduction-engine kernel summing `terms` rows of `rows` fp32 staged
/// as [terms, rows] into `terms` fp32 (*bytes: its workspace).  Host
/// allocation failure -> 561101.
aclnnStatus plan_row_sums(const char* api, int64_t terms, int64_t rows, std::shared_ptr<const OpKernel>* sum,
                          uint64_t* bytes);

/// value rounded to computeDtype, then cast into element `element` of out.
void store_rounded(float value, aclDataType computeDtype, const StridedLayout& out, void* data,
                   int64_t element) noexcept;

/// NLLLoss: inputs self, target, weight; outputs out ([rows] for none, one
/// element otherwise) and totalWeight (one element; not written for none).
/// none: out[r] = -(w[t] * x[r, t]), 0 for a row of no class (row_class);
/// mean: the sum of those over the sum of the rows' weights; sum: their sum;
/// totalWeight the sum of the weights.  rows == 0 (an empty self): mean
/// NaN, sum 0, totalWeight 0 (NLLLossEmptyTensorCompute).
class NllLossKernel final : public OpKernel {
public:
    /// sum: the reduction-engine kernel over the staged terms ([2, rows]
    /// fp32 at the workspace's start, into 2 fp32 at sumsOffset), taking
    /// reductionBytes at reductionOffset; null for none and for rows == 0.
    NllLossKernel(const char* name, NllRows rows, StridedLayout out, StridedLayout totalWeight,
                  std::shared_ptr<const OpKernel> sum, uint64_t sumsOffset, uint64_t reductionOffset) noexcept;

    const char* name() const noexcept override { return name_; }
    aclError launch(const LaunchArgs& args) const noexcept override;
    void describe(std::string& details) const override;

    /// The workspace of rows staged rows: terms, then the two sums, then the
    /// reduction's reductionBytes.  Sets the two offsets.
    static uint64_t workspace_bytes(int64_t rows, uint64_t reductionBytes, uint64_t* sumsOffset,
                                    uint64_t* reductionOffset) noexcept;

private:
    aclError write_reduced(const LaunchArgs& args, const float* sums) const noexcept;

    const char* name_;
    NllRows rows_;
    StridedLayout out_;
    StridedLayout totalWeight_;
    std::shared_ptr<const OpKernel> sum_;
    uint64_t sumsOffset_;
    uint64_t reductionOffset_;
};

/// NLLLossGrad: inputs gradOutput ([rows] for none, one element otherwise),
/// self (unread: its gradient's layout is out's), target, weight,
/// totalWeight; output out over [rows, classes]: zero but at each row's
/// class, -(g * w[t]) with g = gradOutput[r] (none), gradOutput[0] (sum) or
/// gradOutput[0] / totalWeight[0] (mean), in fp32; a row of no class
/// (row_class) is all zero.
class NllLossGradKernel final : public OpKernel {
public:
    NllLossGradKernel(const char* name, NllRows rows, StridedLayout gradOutput, StridedLayout totalWeight) noexcept;

    const char* name() const noexcept override { return name_; }
    aclError launch(const LaunchArgs& args) const noexcept override;
    void describe(std::string& details) const override;

private:
    const char* name_;
    NllRows rows_;  ///< rows_.self is out's layout
    StridedLayout gradOutput_;
    StridedLayout totalWeight_;
};

}  // namespace aclcpu::ops
