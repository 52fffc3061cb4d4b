// acl-cpu: the activation gradients of ops-nn on the binary engine --
// aclnnGeluBackward (activation/gelu_grad/op_api/aclnn_gelu_backward.cpp),
// aclnnGeluBackwardV2 (activation/gelu_grad_v2/op_api/aclnn_gelu_backward_v2.cpp),
// aclnnSiluBackward (activation/silu_grad/op_api/aclnn_silu_backward.cpp),
// aclnnSigmoidBackward (activation/sigmoid_grad/op_api/aclnn_sigmoid_backward.cpp)
// and aclnnThresholdBackward (activation/threshold_grad_v2_d/op_api/
// aclnn_threshold_backward.cpp).  Checks in the order of each op_api's A2
// branch (DAV_2201: not a regbase arch, so SiluBackward neither broadcasts
// nor mixes dtypes); the arithmetic is activation_grad_kernel.hpp's.
#include "aclnnop/aclnn_gelu_backward.h"
#include "aclnnop/aclnn_gelu_backward_v2.h"
#include "aclnnop/aclnn_sigmoid_backward.h"
#include "aclnnop/aclnn_silu_backward.h"
#include "aclnnop/aclnn_threshold_backward.h"

#include <cstring>

#include "activation_grad/activation_grad_kernel.hpp"
#include "common/binary.hpp"
#include "common/op_checks.hpp"
#include "common/phase2.hpp"
#include "common/promotion.hpp"
#include "common/scalar_value.hpp"

namespace aclcpu::ops {
namespace {

constexpr DtypeList kGeluDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

/// The broadcast shape of a and b, which out must have: "Shape of out
/// should be %s, but current is %s." otherwise (GeluBackward's, V2's and
/// ThresholdBackward's wording).
aclnnStatus check_out_is_broadcast(const NamedArg& a, const NamedArg& b, const aclTensor* out) {
    Dims shape;
    ACLCPU_RETURN_IF_ERROR(check_broadcast(a.tensor, a.name, b.tensor, b.name, &shape));
    if (view_of(out).shape == shape) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "Shape of out should be %s, but current is %s.",
                       shape_string(shape).c_str(), shape_string(view_of(out).shape).c_str());
}

/// level2_base.h, CheckPromoteTypeGeluBackward (A2 admits BF16).
aclnnStatus check_gelu_promotion(const aclTensor* gradOutput, const aclTensor* self, aclDataType* promoted) {
    const aclDataType a = view_of(gradOutput).dtype;
    const aclDataType b = view_of(self).dtype;
    *promoted = promote_types(a, b);
    if (*promoted == ACL_DT_UNDEFINED) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "GradOutput dtype %s and Self dtype %s can not be promoted.",
                           dtype_name(a), dtype_name(b));
    }
    if (contains(kGeluDtypes, *promoted)) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "promoteType dtype %s should be in dtype support list %s.",
                       dtype_name(*promoted), dtype_list_string(kGeluDtypes).c_str());
}

/// Both inputs cast to `dtypes`, broadcast, the kernel, Cast(out); CANN's
/// empty executor when an input is empty.
template <class Op>
aclnnStatus hand_back_grad(const char* api, const aclTensor* gradOutput, const NamedArg& x, const aclTensor* gradInput,
                           BinaryDtypes dtypes, const typename Op::Params& params, uint64_t* workspaceSize,
                           aclOpExecutor** executor) {
    return hand_back_binary<Op>(api, {gradOutput, "gradOutput"}, x, gradInput, dtypes, params, workspaceSize,
                                executor);
}

// ---- GeluBackward, GeluBackwardV2 ------------------------------------------

/// GeluBackward does not check gradInput's dtype: the kernel's result is
/// cast into it.
aclnnStatus gelu_backward(const aclTensor* gradOutput, const aclTensor* self, const aclTensor* gradInput,
                          uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{gradOutput, "gradOutput"}, {self, "self"}, {gradInput, "gradInput"}}));
    aclDataType promoted = ACL_DT_UNDEFINED;
    ACLCPU_RETURN_IF_ERROR(check_gelu_promotion(gradOutput, self, &promoted));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{gradOutput, "gradOutput"}, {self, "self"}}));
    ACLCPU_RETURN_IF_ERROR(check_out_is_broadcast({gradOutput, "gradOutput"}, {self, "self"}, gradInput));
    return hand_back_grad<GeluTanhGradOp>("aclnnGeluBackward", gradOutput, {self, "self"}, gradInput, promoted, {},
                                          workspaceSize, executor);
}

aclnnStatus gelu_backward_v2(const aclTensor* gradOutput, const aclTensor* self, const char* approximate,
                             const aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{gradOutput, "gradOutput"}, {self, "self"}, {gradInput, "gradInput"}}));
    if (approximate == nullptr) {
        return param_error(ACLNN_ERR_PARAM_NULLPTR, "approximate only supports to set none or tanh, but got null.");
    }
    aclDataType promoted = ACL_DT_UNDEFINED;
    ACLCPU_RETURN_IF_ERROR(check_gelu_promotion(gradOutput, self, &promoted));
    if (promoted != view_of(gradInput).dtype) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Promote dtype of GradOutput and Self is %s, not matching with gradInput %s.",
                           dtype_name(promoted), dtype_name(view_of(gradInput).dtype));
    }
    ACLCPU_RETURN_IF_ERROR(check_out_is_broadcast({gradOutput, "gradOutput"}, {self, "self"}, gradInput));
    const bool tanh = std::strcmp(approximate, "tanh") == 0;
    if (!tanh && std::strcmp(approximate, "none") != 0) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "approximate only supports to set none or tanh, but got %s.",
                           approximate);
    }
    // V2 checks no rank; the engine's layouts hold 8 dims (acl-cpu's guard).
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{gradOutput, "gradOutput"}, {self, "self"}}));
    const char* api = "aclnnGeluBackwardV2";
    if (tanh) {
        return hand_back_grad<GeluTanhGradOp>(api, gradOutput, {self, "self"}, gradInput, promoted, {}, workspaceSize,
                                              executor);
    }
    return hand_back_grad<GeluErfGradOp>(api, gradOutput, {self, "self"}, gradInput, promoted, {}, workspaceSize,
                                         executor);
}

// ---- SiluBackward ------------------------------------------------------------

aclnnStatus silu_backward(const aclTensor* gradOutput, const aclTensor* self, const aclTensor* gradInput,
                          uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{gradOutput, "gradOutput"}, {self, "self"}, {gradInput, "gradInput"}}));
    ACLCPU_RETURN_IF_ERROR(
        check_dtype_supported({{gradOutput, "gradOutput"}, {self, "self"}, {gradInput, "gradInput"}}, kGeluDtypes));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(gradOutput, "gradOutput", gradInput, "gradInput"));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(self, "self", gradInput, "gradInput"));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{gradOutput, "gradOutput"}, {self, "self"}}));
    ACLCPU_RETURN_IF_ERROR(check_shape_is(gradOutput, "gradOutput", view_of(gradInput).shape));
    ACLCPU_RETURN_IF_ERROR(check_shape_is(self, "self", view_of(gradInput).shape));
    return hand_back_grad<SiluGradOp>("aclnnSiluBackward", gradOutput, {self, "self"}, gradInput,
                                      view_of(self).dtype, {}, workspaceSize, executor);
}

// ---- SigmoidBackward -------------------------------------------------------

constexpr DtypeList kSigmoidDtypes = {ACL_FLOAT,     ACL_FLOAT16,    ACL_DOUBLE,
                                      ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

aclnnStatus sigmoid_backward(const aclTensor* gradOutput, const aclTensor* output, const aclTensor* gradInput,
                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{gradOutput, "gradOutput"}, {output, "output"}, {gradInput, "gradInput"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{gradOutput, "gradOutput"}, {output, "output"}, {gradInput, "gradInput"}},
                                                 kSigmoidDtypes));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{gradOutput, "gradOutput"}, {output, "output"}}));
    const aclDataType promoted = promote_types(view_of(gradOutput).dtype, view_of(output).dtype);
    if (promoted == ACL_DT_UNDEFINED) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "GradOutput dtype %s and output dtype %s can not promote dtype.",
                           dtype_name(view_of(gradOutput).dtype), dtype_name(view_of(output).dtype));
    }
    if (!contains(kSigmoidDtypes, promoted)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "promote dtype %s should be in dtype support list [%s].",
                           dtype_name(promoted), dtype_list_string(kSigmoidDtypes).c_str());
    }
    ACLCPU_RETURN_IF_ERROR(check_can_cast(promoted, view_of(gradInput).dtype));
    Dims shape;
    if (!broadcast_shapes(view_of(gradOutput).shape, view_of(output).shape, &shape)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "the size of tensor self %s must match the size of tensor other %s.",
                           shape_string(view_of(gradOutput).shape).c_str(), shape_string(view_of(output).shape).c_str());
    }
    if (shape != view_of(gradInput).shape) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Exepected tensor for result to have same size as tensor for gradInput, but %s does not "
                           "equal %s.",
                           shape_string(shape).c_str(), shape_string(view_of(gradInput).shape).c_str());
    }
    return hand_back_grad<SigmoidGradOp>("aclnnSigmoidBackward", gradOutput, {output, "output"}, gradInput, promoted,
                                         {}, workspaceSize, executor);
}

// ---- ThresholdBackward -----------------------------------------------------

constexpr DtypeList kThresholdDtypes = {ACL_FLOAT, ACL_INT32, ACL_FLOAT16, ACL_INT8, ACL_UINT8, ACL_BF16};

/// CANN returns 161001 for a null threshold, out or workspaceSize without a
/// message (CHECK_RET); acl-cpu words them as check_not_null does.
aclnnStatus threshold_backward(const aclTensor* gradOutput, const aclTensor* self, const aclScalar* threshold,
                               const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{threshold, "threshold"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{gradOutput, "gradOutput"}, {self, "self"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{gradOutput, "gradOutput"}, {self, "self"}}, kThresholdDtypes));
    const aclDataType dtype = view_of(self).dtype;
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(gradOutput, "gradOutput", dtype));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(out, "out", dtype));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{gradOutput, "gradOutput"}, {self, "self"}}));
    ACLCPU_RETURN_IF_ERROR(check_out_is_broadcast({self, "self"}, {gradOutput, "gradOutput"}, out));
    // The integer kernels compare and select in fp32 (their lanes are float).
    const BinaryDtypes dtypes = is_floating(dtype) ? BinaryDtypes(dtype) : BinaryDtypes(ACL_FLOAT, ACL_FLOAT);
    return hand_back_grad<ThresholdGradOp>("aclnnThresholdBackward", gradOutput, {self, "self"}, out, dtypes,
                                           {to_float(threshold)}, workspaceSize, executor);
}

}  // namespace
}  // namespace aclcpu::ops

using namespace aclcpu::ops;

extern "C" aclnnStatus aclnnGeluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                         const aclTensor* gradInput, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
    return gelu_backward(gradOutput, self, gradInput, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnGeluBackward)

extern "C" aclnnStatus aclnnGeluBackwardV2GetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                           char* approximate, aclTensor* gradInput,
                                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
    return gelu_backward_v2(gradOutput, self, approximate, gradInput, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnGeluBackwardV2)

extern "C" aclnnStatus aclnnSiluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                         aclTensor* gradInput, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
    return silu_backward(gradOutput, self, gradInput, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnSiluBackward)

extern "C" aclnnStatus aclnnSigmoidBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output,
                                                            aclTensor* gradInput, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
    return sigmoid_backward(gradOutput, output, gradInput, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnSigmoidBackward)

extern "C" aclnnStatus aclnnThresholdBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                              const aclScalar* threshold, aclTensor* out,
                                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
    return threshold_backward(gradOutput, self, threshold, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnThresholdBackward)
