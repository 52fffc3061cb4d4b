// acl-cpu: aclnnEmbeddingDenseBackward (ops-nn index/embedding_dense_grad_v2/
// op_api/aclnn_embedding_dense_backward.cpp), the gradient of Embedding's
// weight: checks in the op_api's order, then one EmbeddingGradKernel launch
// (embedding_grad_kernel.hpp) that writes the whole of out -- zeros where no
// index lands, so an empty grad or indices gives out = 0 as the op_api's
// ZerosLike does.
#include "aclnnop/aclnn_embedding_dense_backward.h"

#include <cstdint>

#include "aclcpu/soc_profile.hpp"
#include "common/layout.hpp"
#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "index/embedding_grad_kernel.hpp"

namespace aclcpu::ops {
namespace {

constexpr DtypeList kGradDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeList kIndicesDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_INT8, ACL_UINT8,
                                      ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_BOOL};

/// The product of grad's dims but the last (dim, not 0): its rows.
int64_t grad_rows(const aclTensor* grad, int64_t dim) { return view_of(grad).numel() / dim; }

/// CheckDimension: grad's rows are indices' elements (an empty last dim of
/// grad passes), then CheckOutShape: out is [numWeights, grad's last dim].
aclnnStatus check_shapes(const aclTensor* grad, const aclTensor* indices, uint64_t numWeights, const aclTensor* out) {
    const Dims& gradShape = view_of(grad).shape;
    // CANN reads grad's last dim unchecked; a 0-d grad has none.
    if (gradShape.empty()) return param_error(ACLNN_ERR_PARAM_INVALID, "grad must have at least one dimension.");
    const int64_t dim = gradShape[gradShape.size() - 1];
    if (dim != 0 && grad_rows(grad, dim) != view_of(indices).numel()) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "grad shape [%s] is not match with indices shape [%s].",
                           shape_string(gradShape).c_str(), shape_string(view_of(indices).shape).c_str());
    }
    const Dims& outShape = view_of(out).shape;
    if (outShape.size() != 2) return param_error(ACLNN_ERR_PARAM_INVALID, "outDim shape is not equal to 2");
    if (static_cast<uint64_t>(outShape[0]) != numWeights || outShape[1] != dim) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "outshape [%s] is not match with infershape {%lu, %ld}.",
                           shape_string(outShape).c_str(), static_cast<unsigned long>(numWeights),
                           static_cast<long>(dim));
    }
    return ACLNN_SUCCESS;
}

aclnnStatus embedding_dense_backward(const aclTensor* grad, const aclTensor* indices, uint64_t numWeights,
                                     uint64_t paddingIdx, bool scaleGradByFreq, const aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{grad, "grad"}, {indices, "indices"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(grad, "grad", kGradDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(indices, "indices", kIndicesDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(out, "out", kGradDtypes));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{grad, "grad"}, {indices, "indices"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_shapes(grad, indices, numWeights, out));
    for (const aclTensor* tensor : {grad, indices, out}) {
        if (is_private_format(format_of(tensor))) {
            return param_error(ACLNN_ERR_PARAM_INVALID, "Format only support ND.");
        }
    }
    if (is_empty(out)) return hand_back_empty_executor({grad, indices}, {out}, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{grad, "grad"}, {indices, "indices"}, {out, "out"}}));
    EmbeddingGradOperands operands;
    operands.grad = StridedLayout::of(view_of(grad));
    operands.indices = StridedLayout::of(view_of(indices));
    operands.out = StridedLayout::of(view_of(out));
    operands.dim = view_of(out).shape[1];
    operands.rows = is_empty(grad) || is_empty(indices) ? 0 : grad_rows(grad, operands.dim);
    operands.numWeights = view_of(out).shape[0];
    operands.paddingIdx = paddingIdx;
    operands.scaleGradByFreq = scaleGradByFreq;
    const EmbeddingGradTiling tiling{BlockSplit::front_loaded(operands.numWeights, soc_profile().vectorCoreCount)};
    return hand_back_kernel<EmbeddingGradKernel>({grad, indices}, {out}, embedding_grad_workspace_bytes(operands),
                                                 workspaceSize, executor, "aclnnEmbeddingDenseBackward", tiling,
                                                 operands);
}

}  // namespace
}  // namespace aclcpu::ops

extern "C" aclnnStatus aclnnEmbeddingDenseBackwardGetWorkspaceSize(const aclTensor* grad, const aclTensor* indices,
                                                                   uint64_t numWeights, uint64_t paddingIdx,
                                                                   bool scaleGradByFreq, const aclTensor* out,
                                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::embedding_dense_backward(grad, indices, numWeights, paddingIdx, scaleGradByFreq, out,
                                                 workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnEmbeddingDenseBackward)
