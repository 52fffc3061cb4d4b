// acl-cpu ops/common: the host side of the tensor-list engine
// (tensor_lists.hpp).
#include "common/tensor_lists.hpp"

#include <algorithm>

#include "aclcpu/soc_profile.hpp"
#include <hwy/highway.h>

namespace aclcpu::ops {
namespace {

bool has_elements(const aclTensor* tensor) { return view_of(tensor).numel() > 0; }

/// The tensors of lists at the positions where the first list's tensor has
/// elements, list-major.
void append_non_empty(const std::vector<std::vector<const aclTensor*>>& lists,
                      const std::vector<const aclTensor*>& first, std::vector<const aclTensor*>& flat) {
    for (const std::vector<const aclTensor*>& list : lists) {
        for (size_t t = 0; t < first.size(); ++t) {
            if (has_elements(first[t])) flat.push_back(list[t]);
        }
    }
}

}  // namespace

TensorListOperands TensorLists::operands() const {
    TensorListOperands operands;
    operands.inputLists = inputs.size();
    operands.outputLists = outputs.size();
    const std::vector<const aclTensor*>& first = inputs.front();
    for (const aclTensor* tensor : first) {
        if (!has_elements(tensor)) continue;
        operands.starts.push_back(operands.starts.back() + view_of(tensor).numel());
        ++operands.tensors;
    }
    std::vector<const aclTensor*> flat = flat_inputs();
    append_non_empty(outputs, first, flat);
    operands.layouts.reserve(flat.size());
    for (const aclTensor* tensor : flat) operands.layouts.push_back(StridedLayout::of(view_of(tensor)));
    operands.direct.assign(static_cast<size_t>(operands.tensors), 1);
    for (size_t k = 0; k < operands.layouts.size(); ++k) {
        const StridedLayout& layout = operands.layouts[k];
        if (!layout.is_linear() || layout.dtype() != ACL_FLOAT) operands.direct[k % operands.tensors] = 0;
    }
    return operands;
}

std::vector<const aclTensor*> TensorLists::flat_inputs(std::initializer_list<const aclTensor*> extraInputs) const {
    std::vector<const aclTensor*> flat;
    append_non_empty(inputs, inputs.front(), flat);
    flat.insert(flat.end(), extraInputs.begin(), extraInputs.end());
    return flat;
}

std::vector<const aclTensor*> TensorLists::flat_outputs() const {
    std::vector<const aclTensor*> flat;
    append_non_empty(outputs, inputs.front(), flat);
    return flat;
}

int64_t tensor_list_staging_slot(int64_t chunkElements) noexcept {
    const int64_t lanes = static_cast<int64_t>(HWY_MAX_BYTES / sizeof(float));  // the widest target's
    return UbStaging::workspace_stride((chunkElements + lanes - 1) / lanes * lanes * int64_t{sizeof(float)});
}

ElementwiseTiling tile_tensor_lists(const TensorListOperands& operands, aclDataType blockDtype) {
    const auto lists = static_cast<int64_t>(operands.inputLists + operands.outputLists);
    return tile_elementwise(operands.numel(), lists, blockDtype, sizeof(float), soc_profile());
}

aclError check_tensor_list_addresses(const char* opName, const TensorListJob& job, size_t extraInputs) noexcept {
    const auto tensors = static_cast<size_t>(job.operands.tensors);
    return check_tensor_addresses(opName, job.args, job.operands.inputLists * tensors + extraInputs,
                                  job.operands.outputLists * tensors);
}

aclError run_tensor_lists(const char* opName, const TensorListJob& job,
                          BorrowedCall<void(const BlockSlice& slice)> block) noexcept {
    int64_t bytesPerElement = 0;
    for (int64_t k = 0; k < static_cast<int64_t>(job.operands.layouts.size()); k += job.operands.tensors) {
        bytesPerElement += element_size(job.operands.layouts[k].dtype());
    }
    return launch_block_slices(opName, job.tiling.blocks, bytesPerElement, job.tiling.chunkElements, block);
}

}  // namespace aclcpu::ops
