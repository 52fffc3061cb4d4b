// acl-cpu: aclnnTanhBackward (ops-math math/tanh_grad/op_api/
// aclnn_tanh_backward.cpp): gradInput = gradOutput * (1 - output^2), output
// being Tanh's result, the two broadcast.  A2 (DAV_2201, not regbase): the
// three dtypes equal, gradInput of the broadcast shape, no Cast after the
// kernel.
#include "aclnnop/aclnn_tanh_backward.h"

#include "common/binary.hpp"
#include "common/op_checks.hpp"
#include "common/phase2.hpp"
#include "math_grad/tanh_grad_kernel.hpp"

namespace aclcpu::ops {
namespace {

constexpr DtypeList kTanhGradDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16};

aclnnStatus tanh_backward(const aclTensor* gradOutput, const aclTensor* output, const aclTensor* gradInput,
                          uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{gradOutput, "gradOutput"}, {output, "output"}, {gradInput, "gradInput"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{gradOutput, "gradOutput"}, {output, "output"}, {gradInput, "gradInput"}},
                                                 kTanhGradDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(gradOutput, "gradOutput", view_of(output).dtype));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(gradOutput, "gradOutput", view_of(gradInput).dtype));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{gradOutput, "gradOutput"}, {output, "output"}}));
    Dims shape;
    ACLCPU_RETURN_IF_ERROR(check_broadcast(gradOutput, "gradOutput", output, "output", &shape));
    ACLCPU_RETURN_IF_ERROR(check_shape_is(gradInput, "gradInput", shape));
    return hand_back_binary<TanhGradOp>("aclnnTanhBackward", {gradOutput, "gradOutput"}, {output, "output"},
                                        gradInput, view_of(gradOutput).dtype, {}, workspaceSize, executor);
}

}  // namespace
}  // namespace aclcpu::ops

extern "C" aclnnStatus aclnnTanhBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output,
                                                         aclTensor* gradInput, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
    return aclcpu::ops::tanh_backward(gradOutput, output, gradInput, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnTanhBackward)
