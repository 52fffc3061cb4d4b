// acl-cpu: the activation family of CANN's ops-nn -- aclnnRelu, aclnnSigmoid,
// aclnnHardsigmoid, aclnnHardswish (+Inplace each), aclnnSilu, aclnnGelu,
// aclnnGeluV2, aclnnElu, aclnnLeakyRelu, aclnnThreshold (+Inplace each) and
// aclnnSoftplus.
//
// Each operator is its checks, in the order of its A2 op_api code in
// hicann/ops-nn (activation/<op>/op_api/aclnn_<op>.cpp), with its A2 support
// lists; the dtype its graph computes in; and its arithmetic
// (activation_kernel.hpp).  The unary engine does the rest.
//
// Relu, Sigmoid, GeluV2, Elu and LeakyRelu write through workspaceSize and
// executor unchecked in CANN's code (the others check them first, with
// OP_CHECK_COMM_INPUT): acl-cpu checks theirs after the arguments, where
// CANN would crash, and answers 161001.  CANN reshapes
// Silu's, Hardswish's and GeluV2's tensors of more than 8 dimensions around
// its kernel; acl-cpu's strided views hold 8 at most and refuse more (161002).
#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_hardswish.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_threshold.h"

#include <cfloat>
#include <cmath>

#include "activation/activation_kernel.hpp"
#include "common/op_checks.hpp"
#include "common/phase2.hpp"
#include "common/unary.hpp"

namespace aclcpu::ops {
namespace {

/// The floats every AI Core activation kernel of A2 computes.
constexpr DtypeList kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
/// kFloats and DOUBLE (Elu and LeakyRelu run DOUBLE on AICPU).
constexpr DtypeList kFloatsAndDouble = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16};

/// OP_CHECK_RESULT_DTYPE_CAST_FAILED of a scalar's dtype to FLOAT (Elu) or
/// to self's dtype (Softplus).
aclnnStatus check_scalar_castable(const aclScalar* scalar, aclDataType to) {
    return check_can_cast(dtype_of(scalar), to);
}

// ---- Relu (activation/relu/op_api/aclnn_relu.cpp) --------------------------

/// FLOAT, FLOAT16, INT8, UINT8, INT32, INT64, and BF16 on A2.
constexpr DtypeList kReluDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_UINT8, ACL_INT32, ACL_INT64, ACL_BF16};

aclnnStatus phase1_relu(const char* api, const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize,
                        aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kReluDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(out, "out", view_of(self).dtype));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(self, "self"));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(out, "out"));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(self, "self", out, "out"));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    // A UINT8 tensor is its own Relu: in place there is nothing to do (after
    // acl-cpu's storage guard, which refuses a view reaching outside its storage).
    if (self == out && view_of(self).dtype == ACL_UINT8) {
        if (!is_empty(self)) ACLCPU_RETURN_IF_ERROR(check_view_in_storage(self, "self"));
        return hand_back_empty_executor({self}, {out}, workspaceSize, executor);
    }
    return hand_back_unary<ReluOp>(api, self, out, view_of(self).dtype, {}, workspaceSize, executor);
}

// ---- Sigmoid (activation/sigmoid/op_api/aclnn_sigmoid.cpp) -----------------

constexpr DtypeList kSigmoidDtypes = {ACL_FLOAT, ACL_FLOAT16,   ACL_DOUBLE,     ACL_INT8, ACL_INT16, ACL_INT32,
                                      ACL_INT64, ACL_BOOL,      ACL_COMPLEX64,  ACL_COMPLEX128, ACL_BF16, ACL_UINT8};
/// out's list, and selfRef's on A2.
constexpr DtypeList kSigmoidOutDtypes = {ACL_FLOAT,     ACL_FLOAT16,    ACL_DOUBLE,
                                         ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

aclnnStatus phase1_sigmoid(const char* api, const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize,
                           aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kSigmoidDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(out, "out", kSigmoidOutDtypes));
    ACLCPU_RETURN_IF_ERROR(check_same_shape_then_rank(self, out));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    // An integer or BOOL self is cast to out's dtype (no CanCast check).
    const aclDataType selfDtype = view_of(self).dtype;
    const aclDataType computeDtype = contains(kSigmoidOutDtypes, selfDtype) ? selfDtype : view_of(out).dtype;
    return hand_back_unary<SigmoidOp>(api, self, out, computeDtype, {}, workspaceSize, executor);
}

// ---- Hardsigmoid (activation/hard_sigmoid/op_api/aclnn_hardsigmoid.cpp) ----

constexpr DtypeList kHardsigmoidDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_BF16};

aclnnStatus phase1_hardsigmoid(const char* api, const aclTensor* self, const aclTensor* out,
                               uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_operands_not_null(workspaceSize, executor, self, out));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kHardsigmoidDtypes));
    ACLCPU_RETURN_IF_ERROR(check_rank_then_same_shape(self, out));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(out, "out", view_of(self).dtype));
    if (format_of(self) != format_of(out)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "The format of self [%s] and out [%s] must be the same.",
                           format_name(format_of(self)), format_name(format_of(out)));
    }
    return hand_back_unary<HardsigmoidOp>(api, self, out, view_of(self).dtype, {}, workspaceSize, executor);
}

// ---- Hardswish (activation/hard_swish/op_host/op_api/aclnn_hardswish.cpp) --

aclnnStatus phase1_hardswish(const char* api, const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize,
                             aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_operands_not_null(workspaceSize, executor, self, out));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kFloats));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(out, "out", kFloats));
    ACLCPU_RETURN_IF_ERROR(check_can_cast(view_of(self).dtype, view_of(out).dtype));
    ACLCPU_RETURN_IF_ERROR(check_same_shape_then_rank(self, out));
    return hand_back_unary<HardswishOp>(api, self, out, view_of(self).dtype, {}, workspaceSize, executor);
}

// ---- Silu (activation/swish/op_api/aclnn_silu.cpp) -------------------------

aclnnStatus phase1_silu(const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize,
                        aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_operands_not_null(workspaceSize, executor, self, out));
    // CheckDtypeValidActivation: both listed, out of self's dtype.
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kFloats));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(out, "out", kFloats));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(out, "out", view_of(self).dtype));
    ACLCPU_RETURN_IF_ERROR(check_same_shape_then_rank(self, out));
    // Silu ends early when either tensor is empty.
    if (is_empty(out)) return hand_back_empty_executor({self}, {out}, workspaceSize, executor);
    return hand_back_unary<SiluOp>("aclnnSilu", self, out, view_of(self).dtype, {}, workspaceSize, executor);
}

// ---- Gelu (activation/gelu/op_api/aclnn_gelu.cpp) --------------------------

aclnnStatus phase1_gelu(const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize,
                        aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_operands_not_null(workspaceSize, executor, self, out));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kFloats));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(out, "out", view_of(self).dtype));
    // CheckFormat: neither storage format private (each is checked alone: the two may differ).
    ACLCPU_RETURN_IF_ERROR(check_public_formats(self, self));
    ACLCPU_RETURN_IF_ERROR(check_public_formats(out, out));
    ACLCPU_RETURN_IF_ERROR(check_rank_then_same_shape(self, out));
    return hand_back_unary<GeluTanhOp>("aclnnGelu", self, out, view_of(self).dtype, {}, workspaceSize, executor);
}

// ---- GeluV2 (activation/gelu_v2/op_api/aclnn_gelu_v2.cpp) ------------------

/// GeluV2's approximate: TANH (1) names the tanh form; any other value, unchecked, is "none".
constexpr int64_t kGeluV2Tanh = 1;

aclnnStatus phase1_gelu_v2(const aclTensor* x, int64_t approximate, const aclTensor* y, uint64_t* workspaceSize,
                           aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{x, "x"}, {y, "y"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(y, "y", view_of(x).dtype));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(x, "x", kFloats));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(y, "y", x, "x"));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(x, "x"));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    const aclDataType dtype = view_of(x).dtype;
    if (approximate == kGeluV2Tanh) {
        return hand_back_unary<GeluTanhOp>("aclnnGeluV2", x, y, dtype, {}, workspaceSize, executor);
    }
    return hand_back_unary<GeluErfOp>("aclnnGeluV2", x, y, dtype, {}, workspaceSize, executor);
}

// ---- Elu (activation/elu/op_api/aclnn_elu.cpp) -----------------------------

aclnnStatus phase1_elu(const char* api, const aclTensor* self, const aclScalar* alpha, const aclScalar* scale,
                       const aclScalar* inputScale, const aclTensor* out, uint64_t* workspaceSize,
                       aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null(
        {{self, "self"}, {alpha, "alpha"}, {scale, "scale"}, {inputScale, "inputScale"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kFloatsAndDouble));
    ACLCPU_RETURN_IF_ERROR(check_scalar_castable(scale, ACL_FLOAT));
    ACLCPU_RETURN_IF_ERROR(check_scalar_castable(alpha, ACL_FLOAT));
    ACLCPU_RETURN_IF_ERROR(check_scalar_castable(inputScale, ACL_FLOAT));
    ACLCPU_RETURN_IF_ERROR(check_can_cast(view_of(self).dtype, view_of(out).dtype));
    ACLCPU_RETURN_IF_ERROR(check_same_shape_then_rank(self, out));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    const float alphaValue = to_float(alpha);
    const float inputScaleValue = to_float(inputScale);
    if (std::isfinite(alphaValue) && std::isfinite(inputScaleValue)) {
        return hand_back_unary<EluOp>(api, self, out, view_of(self).dtype,
                                      {alphaValue, to_float(scale), inputScaleValue}, workspaceSize, executor);
    }
    // NeedInfNanHandling: Threshold and Muls at FLOAT instead of the Elu kernel.
    return hand_back_unary<EluLimitOp>(api, self, out, ACL_FLOAT, {-alphaValue, to_float(scale)}, workspaceSize,
                                       executor);
}

// ---- LeakyRelu (activation/leaky_relu/op_api/aclnn_leaky_relu.cpp) ---------

aclnnStatus phase1_leaky_relu(const char* api, const aclTensor* self, const aclScalar* negativeSlope,
                              const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {negativeSlope, "negativeSlope"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kFloatsAndDouble));
    ACLCPU_RETURN_IF_ERROR(check_can_cast(view_of(self).dtype, view_of(out).dtype));
    ACLCPU_RETURN_IF_ERROR(check_rank_then_same_shape(self, out));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    // negativeSlope's dtype is not checked: any scalar is read as a float.
    return hand_back_unary<LeakyReluOp>(api, self, out, view_of(self).dtype, {to_float(negativeSlope)},
                                        workspaceSize, executor);
}

// ---- Softplus (activation/softplus_v2/op_api/aclnn_softplus.cpp) -----------

aclnnStatus phase1_softplus(const aclTensor* self, const aclScalar* beta, const aclScalar* threshold,
                            const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(
        check_not_null({{self, "self"}, {beta, "beta"}, {threshold, "threshold"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kFloats));
    const aclDataType selfDtype = view_of(self).dtype;
    ACLCPU_RETURN_IF_ERROR(check_scalar_castable(beta, selfDtype));
    ACLCPU_RETURN_IF_ERROR(check_scalar_castable(threshold, selfDtype));
    ACLCPU_RETURN_IF_ERROR(check_can_cast(selfDtype, view_of(out).dtype));
    ACLCPU_RETURN_IF_ERROR(check_rank_then_same_shape(self, out));
    const float betaValue = to_float(beta);
    // The kernel multiplies by 1 / beta, which its tiling makes +inf for a beta within FLT_EPSILON of 0.
    const float inverseBeta = std::fabs(betaValue) <= FLT_EPSILON ? HUGE_VALF : 1.0f / betaValue;
    return hand_back_unary<SoftplusOp>("aclnnSoftplus", self, out, selfDtype,
                                       {betaValue, to_float(threshold), inverseBeta}, workspaceSize, executor);
}

// ---- Threshold (activation/threshold/op_host/op_api/aclnn_threshold.cpp) ---

constexpr DtypeList kThresholdDtypes = {ACL_FLOAT, ACL_INT32, ACL_FLOAT16, ACL_INT8,
                                        ACL_UINT8, ACL_INT16, ACL_INT64,   ACL_BF16};

/// ExecThresholdGetWorkspaceSize (after OP_CHECK_COMM_INPUT): INT16 computes
/// as INT32 on A2; both scalars are converted into the compute dtype.
aclnnStatus phase1_threshold(const char* api, const aclTensor* self, const aclScalar* threshold,
                             const aclScalar* value, const aclTensor* out, uint64_t* workspaceSize,
                             aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(
        check_not_null({{self, "self"}, {out, "out"}, {threshold, "threshold"}, {value, "value"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kThresholdDtypes));
    ACLCPU_RETURN_IF_ERROR(check_can_cast(view_of(self).dtype, view_of(out).dtype));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(self, "self"));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(self, "self", out, "out"));
    const aclDataType computeDtype = view_of(self).dtype == ACL_INT16 ? ACL_INT32 : view_of(self).dtype;
    const ThresholdParams params{compute_value(threshold, computeDtype), compute_value(value, computeDtype)};
    return hand_back_unary<ThresholdOp>(api, self, out, computeDtype, params, workspaceSize, executor);
}

}  // namespace
}  // namespace aclcpu::ops

using namespace aclcpu::ops;

/// The out-of-place form of a one-tensor operator whose phase 1 takes its API name
/// (out is const in some of CANN's declarations).
#define ACLCPU_ACTIVATION(Name, OutType, phase1)                                                             \
    extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor* self, OutType out,                 \
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) { \
        return phase1("aclnn" #Name, self, out, workspaceSize, executor);                                   \
    }                                                                                                       \
    ACLCPU_DEFINE_PHASE2(aclnn##Name)

/// Its in-place form: the out-of-place phase 1 with selfRef as both tensors.
#define ACLCPU_INPLACE_ACTIVATION(Name, SelfRefType, phase1)                                                   \
    extern "C" aclnnStatus aclnnInplace##Name##GetWorkspaceSize(SelfRefType selfRef, uint64_t* workspaceSize, \
                                                               aclOpExecutor** executor) {                   \
        return phase1("aclnnInplace" #Name, selfRef, selfRef, workspaceSize, executor);                      \
    }                                                                                                        \
    ACLCPU_DEFINE_PHASE2(aclnnInplace##Name)

ACLCPU_ACTIVATION(Relu, const aclTensor*, phase1_relu)
ACLCPU_INPLACE_ACTIVATION(Relu, aclTensor*, phase1_relu)
ACLCPU_ACTIVATION(Sigmoid, aclTensor*, phase1_sigmoid)
ACLCPU_ACTIVATION(Hardsigmoid, aclTensor*, phase1_hardsigmoid)
ACLCPU_INPLACE_ACTIVATION(Hardsigmoid, const aclTensor*, phase1_hardsigmoid)
ACLCPU_ACTIVATION(Hardswish, const aclTensor*, phase1_hardswish)
ACLCPU_INPLACE_ACTIVATION(Hardswish, const aclTensor*, phase1_hardswish)

// Sigmoid's in-place form checks selfRef against out's list first.
extern "C" aclnnStatus aclnnInplaceSigmoidGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null(selfRef, "selfRef"));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(selfRef, "selfRef", kSigmoidOutDtypes));
    return phase1_sigmoid("aclnnInplaceSigmoid", selfRef, selfRef, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnInplaceSigmoid)

extern "C" aclnnStatus aclnnSiluGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
    return phase1_silu(self, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnSilu)

extern "C" aclnnStatus aclnnGeluGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
    return phase1_gelu(self, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnGelu)

extern "C" aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor* x, int64_t approximate, aclTensor* y,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
    return phase1_gelu_v2(x, approximate, y, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnGeluV2)

extern "C" aclnnStatus aclnnEluGetWorkspaceSize(const aclTensor* self, const aclScalar* alpha, const aclScalar* scale,
                                                const aclScalar* inputScale, aclTensor* out, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
    return phase1_elu("aclnnElu", self, alpha, scale, inputScale, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnElu)

extern "C" aclnnStatus aclnnInplaceEluGetWorkspaceSize(aclTensor* selfRef, const aclScalar* alpha,
                                                       const aclScalar* scale, const aclScalar* inputScale,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
    return phase1_elu("aclnnInplaceElu", selfRef, alpha, scale, inputScale, selfRef, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnInplaceElu)

extern "C" aclnnStatus aclnnLeakyReluGetWorkspaceSize(const aclTensor* self, const aclScalar* negativeSlope,
                                                      aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
    return phase1_leaky_relu("aclnnLeakyRelu", self, negativeSlope, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnLeakyRelu)

extern "C" aclnnStatus aclnnInplaceLeakyReluGetWorkspaceSize(aclTensor* selfRef, const aclScalar* negativeSlope,
                                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    return phase1_leaky_relu("aclnnInplaceLeakyRelu", selfRef, negativeSlope, selfRef, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnInplaceLeakyRelu)

extern "C" aclnnStatus aclnnSoftplusGetWorkspaceSize(const aclTensor* self, const aclScalar* beta,
                                                     const aclScalar* threshold, aclTensor* out,
                                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
    return phase1_softplus(self, beta, threshold, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnSoftplus)

extern "C" aclnnStatus aclnnThresholdGetWorkspaceSize(const aclTensor* self, const aclScalar* threshold,
                                                      const aclScalar* value, aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
    return phase1_threshold("aclnnThreshold", self, threshold, value, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnThreshold)

extern "C" aclnnStatus aclnnInplaceThresholdGetWorkspaceSize(aclTensor* selfRef, const aclScalar* threshold,
                                                             const aclScalar* value, uint64_t* workspaceSize,
                                                             aclOpExecutor** executor) {
    return phase1_threshold("aclnnInplaceThreshold", selfRef, threshold, value, selfRef, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnInplaceThreshold)
