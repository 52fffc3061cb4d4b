// acl-cpu: NLLLoss's and NLLLossGrad's kernels (see nll_loss_kernel.hpp).
#include "loss/nll_loss_kernel.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>

#include "aclcpu/soc_profile.hpp"
#include "common/float_runs.hpp"
#include "common/reduction.hpp"

namespace aclcpu::ops {
namespace {

/// The launch slots both kernels share (their declaration orders).
constexpr int kTargetSlot = 1;
constexpr int kWeightSlot = 2;

float load(const StridedLayout& layout, const void* data, int64_t element) noexcept {
    float value = 0;
    gather(layout, data, element, 1, &value);
    return value;
}

/// Rows of their classes' elements (target, weight, one of self) per unit.
constexpr int64_t kRowBytes = 16;

}  // namespace

int64_t row_class(const StridedLayout& target, const void* data, int64_t row, int64_t classes,
                  int64_t ignoreIndex) noexcept {
    const int64_t position = target.position_of(row);
    int64_t value = 0;
    switch (target.dtype()) {
        case ACL_INT64: value = static_cast<const int64_t*>(data)[position]; break;
        case ACL_INT32: value = static_cast<const int32_t*>(data)[position]; break;
        default: value = static_cast<const uint8_t*>(data)[position]; break;  // UINT8: the op_api's Cast is exact
    }
    return value == ignoreIndex || value < 0 || value >= classes ? -1 : value;
}

void store_rounded(float value, aclDataType computeDtype, const StridedLayout& out, void* data,
                   int64_t element) noexcept {
    round_through(computeDtype, &value, 1);
    scatter(&value, out, data, element, 1);
}

aclnnStatus out_of_host_memory() {
    report_error(ACLNN_ERR_INNER_CREATE_EXECUTOR, kAclnnInnerTag, "Create executor failed: out of host memory.");
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
}

aclnnStatus plan_row_sums(const char* api, int64_t terms, int64_t rows, std::shared_ptr<const OpKernel>* sum,
                          uint64_t* bytes) {
    TensorView staged;
    staged.shape = {terms, rows};
    staged.strides = {rows, 1};
    staged.dtype = ACL_FLOAT;
    TensorView sums;
    sums.shape = {terms};
    sums.strides = {1};
    sums.dtype = ACL_FLOAT;
    *sum = plan_reduction_kernel(api, ReductionSpec{}, staged, 0b10u, sums, bytes);
    return *sum != nullptr ? ACLNN_SUCCESS : out_of_host_memory();
}

BlockSplit plan_nll_rows(int64_t rows) {
    return BlockSplit::front_loaded(rows, soc_profile().vectorCoreCount);
}

NllLossKernel::NllLossKernel(const char* name, NllRows rows, StridedLayout out, StridedLayout totalWeight,
                             std::shared_ptr<const OpKernel> sum, uint64_t sumsOffset,
                             uint64_t reductionOffset) noexcept
    : name_(name), rows_(std::move(rows)), out_(std::move(out)), totalWeight_(std::move(totalWeight)),
      sum_(std::move(sum)), sumsOffset_(sumsOffset), reductionOffset_(reductionOffset) {}

uint64_t NllLossKernel::workspace_bytes(int64_t rows, uint64_t reductionBytes, uint64_t* sumsOffset,
                                        uint64_t* reductionOffset) noexcept {
    *sumsOffset = static_cast<uint64_t>(UbStaging::workspace_stride(2 * rows * int64_t{sizeof(float)}));
    *reductionOffset = *sumsOffset + static_cast<uint64_t>(UbStaging::workspace_stride(2 * int64_t{sizeof(float)}));
    return *reductionOffset + reductionBytes;
}

void NllLossKernel::describe(std::string& details) const {
    append_trace_arg(details, "blockDim", rows_.blocks.count());
}

aclError NllLossKernel::write_reduced(const LaunchArgs& args, const float* sums) const noexcept {
    const float loss = rows_.reduction == NllReduction::kMean ? sums[0] / sums[1] : sums[0];
    store_rounded(loss, rows_.computeDtype, out_, args.outputs[0], 0);
    store_rounded(sums[1], rows_.computeDtype, totalWeight_, args.outputs[1], 0);
    return ACL_SUCCESS;
}

aclError NllLossKernel::launch(const LaunchArgs& args) const noexcept {
    if (aclError status = check_tensor_addresses(name_, args, 3, 2); status != ACL_SUCCESS) return status;
    const void* target = args.inputs[kTargetSlot];
    const bool none = rows_.reduction == NllReduction::kNone;
    if (rows_.rows == 0) {  // an empty self: the sums of nothing
        const float nothing[2] = {0.0f, 0.0f};
        return none ? ACL_SUCCESS : write_reduced(args, nothing);
    }
    // Each row's term -(w * x) and weight w (0 and 0 for an ignored row):
    // written out for none, staged as [2, rows] fp32 for the reduction.
    auto* terms = static_cast<float*>(args.workspace);
    const aclError status = launch_block_slices(name_, rows_.blocks, kRowBytes, 1, [&](const BlockSlice& slice) {
        for (int64_t row = slice.units.begin; row < slice.units.end; ++row) {
            const int64_t cls = row_class(rows_.target, target, row, rows_.classes, rows_.ignoreIndex);
            const float weight = cls < 0 ? 0.0f : load(rows_.weight, args.inputs[kWeightSlot], cls);
            const float term =
                cls < 0 ? 0.0f : -(weight * load(rows_.self, args.inputs[0], row * rows_.classes + cls));
            if (none) {
                store_rounded(term, rows_.computeDtype, out_, args.outputs[0], row);
            } else {
                terms[row] = term;
                terms[rows_.rows + row] = weight;
            }
        }
    });
    if (status != ACL_SUCCESS || none) return status;
    auto* bytes = static_cast<std::byte*>(args.workspace);
    auto* sums = reinterpret_cast<float*>(bytes + sumsOffset_);
    const void* sumInputs[1] = {terms};
    void* sumOutputs[1] = {sums};
    if (aclError reduced = sum_->launch({sumInputs, sumOutputs, bytes + reductionOffset_,
                                         args.workspaceSize - reductionOffset_});
        reduced != ACL_SUCCESS) {
        return reduced;
    }
    return write_reduced(args, sums);
}

NllLossGradKernel::NllLossGradKernel(const char* name, NllRows rows, StridedLayout gradOutput,
                                     StridedLayout totalWeight) noexcept
    : name_(name), rows_(std::move(rows)), gradOutput_(std::move(gradOutput)), totalWeight_(std::move(totalWeight)) {}

void NllLossGradKernel::describe(std::string& details) const {
    append_trace_arg(details, "blockDim", rows_.blocks.count());
}

aclError NllLossGradKernel::launch(const LaunchArgs& args) const noexcept {
    // Slots in aclnnNLLLossBackward's order: gradOutput, self, target, weight, totalWeight.
    constexpr int kGradTarget = 2;
    constexpr int kGradWeight = 3;
    constexpr int kGradTotalWeight = 4;
    if (aclError status = check_tensor_addresses(name_, args, 5, 1); status != ACL_SUCCESS) return status;
    const void* target = args.inputs[kGradTarget];
    const void* gradOutput = args.inputs[0];
    // mean: gradOutput / totalWeight once, in fp32 (the kernel's tmpOut_).
    float shared = load(gradOutput_, gradOutput, 0);
    if (rows_.reduction == NllReduction::kMean) shared /= load(totalWeight_, args.inputs[kGradTotalWeight], 0);
    static constexpr float kZeros[256] = {};
    const StridedLayout& out = rows_.self;
    const int64_t classes = rows_.classes;
    return launch_block_slices(name_, rows_.blocks, classes * element_size(out.dtype()), 1,
                               [&](const BlockSlice& slice) {
        for (int64_t row = slice.units.begin; row < slice.units.end; ++row) {
            for (int64_t c = 0; c < classes; c += 256) {
                scatter(kZeros, out, args.outputs[0], row * classes + c, std::min<int64_t>(256, classes - c));
            }
            const int64_t cls = row_class(rows_.target, target, row, rows_.classes, rows_.ignoreIndex);
            if (cls < 0) continue;
            const float grad = rows_.reduction == NllReduction::kNone ? load(gradOutput_, gradOutput, row) : shared;
            const float weight = load(rows_.weight, args.inputs[kGradWeight], cls);
            store_rounded(-(grad * weight), rows_.computeDtype, out, args.outputs[0], row * classes + cls);
        }
    });
}

}  // namespace aclcpu::ops
