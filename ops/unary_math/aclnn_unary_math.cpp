// acl-cpu: the unary math family of CANN's ops-math -- aclnnAbs, aclnnNeg
// (+Inplace), aclnnSign, aclnnExp, aclnnLog, aclnnSqrt, aclnnSin, aclnnCos
// and aclnnTanh (+Inplace each).
//
// Each operator is its checks, in the order of its A2 op_api code in
// hicann/ops-math (math/<op>/op_api/aclnn_<op>.cpp), with its A2 support
// lists; the dtype its graph casts self to before the kernel; and its
// arithmetic (unary_math_kernel.hpp).  The unary engine does the rest.
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_tanh.h"

#include "common/op_checks.hpp"
#include "common/phase2.hpp"
#include "common/unary.hpp"
#include "unary_math/unary_math_kernel.hpp"

namespace aclcpu::ops {
namespace {

constexpr DtypeList kIntegers = {ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_BOOL};
/// The out dtypes of Log, Sin, Cos and Sqrt's in-place form: what their kernels write.
constexpr DtypeList kFloatsAndComplex = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128};

/// dtype, or FLOAT when it is one that CANN's graph casts to FLOAT first.
aclDataType float_if_in(aclDataType dtype, DtypeList castToFloat) {
    return contains(castToFloat, dtype) ? ACL_FLOAT : dtype;
}

/// How the CheckParams of Abs, Neg, Exp, Log, Sqrt, Sin, Cos and Tanh begin:
/// CheckNotNull of self and out (acl-cpu's check of workspaceSize and
/// executor with it), then self in its support list.
aclnnStatus check_operands_then_self_dtype(const aclTensor* self, const aclTensor* out, DtypeList selfDtypes,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_operands_not_null(workspaceSize, executor, self, out));
    return check_dtype_supported(self, "self", selfDtypes);
}

/// An in-place form's own checks: selfRef not null and in its support list.
aclnnStatus check_inplace(const aclTensor* selfRef, DtypeList supported) {
    ACLCPU_RETURN_IF_ERROR(check_not_null(selfRef, "selfRef"));
    return check_dtype_supported(selfRef, "selfRef", supported);
}

// ---- Abs (math/abs/op_api/aclnn_abs.cpp) ----------------------------------

constexpr DtypeList kAbsDtypes = {ACL_DOUBLE, ACL_FLOAT, ACL_FLOAT16, ACL_INT64, ACL_INT32, ACL_INT16,
                                  ACL_INT8,   ACL_UINT8, ACL_BOOL,    ACL_BF16,  ACL_COMPLEX64};

aclnnStatus phase1_abs(const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize,
                       aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_operands_then_self_dtype(self, out, kAbsDtypes, workspaceSize, executor));
    const aclDataType selfDtype = view_of(self).dtype;
    // A complex self has a real out of its precision; any other, its own dtype.
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(out, "out", selfDtype == ACL_COMPLEX64 ? ACL_FLOAT : selfDtype));
    ACLCPU_RETURN_IF_ERROR(check_public_formats(self, out));
    ACLCPU_RETURN_IF_ERROR(check_rank_then_same_shape(self, out));
    // UINT8 and BOOL pass through unchanged (a ViewCopy): |x| = x.
    return hand_back_unary<AbsOp>("aclnnAbs", self, out, selfDtype, {}, workspaceSize, executor);
}

// ---- Neg (math/neg/op_api/aclnn_neg.cpp) ----------------------------------

constexpr DtypeList kNegDtypes = {ACL_INT8,  ACL_INT32,     ACL_INT64,      ACL_FLOAT16, ACL_FLOAT,
                                  ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

aclnnStatus phase1_neg(const char* api, const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize,
                aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_operands_then_self_dtype(self, out, kNegDtypes, workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_can_cast(view_of(self).dtype, view_of(out).dtype));
    ACLCPU_RETURN_IF_ERROR(check_rank_then_same_shape(self, out));
    return hand_back_unary<NegOp>(api, self, out, view_of(self).dtype, {}, workspaceSize, executor);
}

// ---- Sign (math/sign/op_api/aclnn_sign.cpp) -------------------------------

constexpr DtypeList kSignDtypes = {ACL_DOUBLE, ACL_FLOAT,     ACL_FLOAT16,    ACL_INT32,
                                   ACL_INT64,  ACL_COMPLEX64, ACL_COMPLEX128, ACL_BOOL};

/// CheckDtypeValid of Sign on A2: a listed self needs an out of its dtype;
/// BF16, outside the list, is admitted with any out.
aclnnStatus check_sign_dtypes(const aclTensor* self, const aclTensor* result) {
    const aclDataType selfDtype = view_of(self).dtype;
    const aclDataType resultDtype = view_of(result).dtype;
    if (!contains(kSignDtypes, selfDtype)) {
        if (selfDtype == ACL_BF16) return ACLNN_SUCCESS;
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "On Ascend910B, self dtype [%s] should be in dtype support list [%s] or be BF16.",
                           dtype_name(selfDtype), dtype_list_string(kSignDtypes).c_str());
    }
    if (selfDtype == resultDtype) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "Self dtype should be same as result dtype. self [%s], result [%s]",
                       dtype_name(selfDtype), dtype_name(resultDtype));
}

aclnnStatus phase1_sign(const aclTensor* self, const aclTensor* result, uint64_t* workspaceSize,
                        aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_operands_not_null(workspaceSize, executor, self, result, "result"));
    ACLCPU_RETURN_IF_ERROR(check_sign_dtypes(self, result));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(self, "self", result, "result"));
    // CANN reshapes tensors of more than 8 dims around its kernel; acl-cpu's
    // strided views hold 8 at most and refuse more rather than misread them.
    ACLCPU_RETURN_IF_ERROR(check_max_dim(self, "self"));
    // BOOL is computed as INT32 and cast back: sign(true) = true.
    const aclDataType selfDtype = view_of(self).dtype;
    return hand_back_unary<SignOp>("aclnnSign", self, result, selfDtype == ACL_BOOL ? ACL_INT32 : selfDtype, {},
                                   workspaceSize, executor);
}

// ---- Exp (math/exp/op_api/aclnn_exp.cpp) ----------------------------------

constexpr DtypeList kExpDtypes = {ACL_FLOAT,     ACL_FLOAT16,    ACL_BF16, ACL_DOUBLE,
                                  ACL_COMPLEX64, ACL_COMPLEX128, ACL_BOOL, ACL_INT64};
constexpr DtypeList kExpToFloat = {ACL_BOOL, ACL_INT64};

aclnnStatus phase1_exp(const char* api, const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize,
                aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_operands_then_self_dtype(self, out, kExpDtypes, workspaceSize, executor));
    const aclDataType computeDtype = float_if_in(view_of(self).dtype, kExpToFloat);
    ACLCPU_RETURN_IF_ERROR(check_can_cast(computeDtype, view_of(out).dtype));
    ACLCPU_RETURN_IF_ERROR(check_same_shape_then_rank(self, out));
    return hand_back_unary<ExpOp>(api, self, out, computeDtype, {}, workspaceSize, executor);
}

// ---- Log (math/log/op_api/aclnn_log.cpp) ----------------------------------

constexpr DtypeList kLogDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128,
                                  ACL_BOOL,  ACL_INT64,   ACL_INT32, ACL_INT16,  ACL_INT8,      ACL_UINT8};

aclnnStatus phase1_log(const char* api, const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize,
                aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_operands_then_self_dtype(self, out, kLogDtypes, workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(out, "out", kFloatsAndComplex));
    // CheckPromoteType casts self's own dtype, not the kernel's.
    ACLCPU_RETURN_IF_ERROR(check_can_cast(view_of(self).dtype, view_of(out).dtype));
    ACLCPU_RETURN_IF_ERROR(check_same_shape_then_rank(self, out));
    // l0op::Log (math/log/op_api/log.cpp) writes FLOAT for integer and BOOL inputs.
    return hand_back_unary<LogOp>(api, self, out, float_if_in(view_of(self).dtype, kIntegers), {}, workspaceSize,
                                  executor);
}

// ---- Sqrt (math/sqrt/op_api/aclnn_sqrt.cpp) --------------------------------

constexpr DtypeList kSqrtDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_INT32,
                                   ACL_INT64, ACL_INT16,   ACL_INT8,   ACL_BOOL,      ACL_BF16,       ACL_UINT8};

aclnnStatus phase1_sqrt(const char* api, const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize,
                 aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_operands_then_self_dtype(self, out, kSqrtDtypes, workspaceSize, executor));
    const aclDataType selfDtype = view_of(self).dtype;
    ACLCPU_RETURN_IF_ERROR(check_can_cast(float_if_in(selfDtype, kIntegers), view_of(out).dtype));
    ACLCPU_RETURN_IF_ERROR(check_same_shape_then_rank(self, out));
    // The graph casts INT64 to DOUBLE, the other integers and BOOL to FLOAT.
    const aclDataType computeDtype = selfDtype == ACL_INT64 ? ACL_DOUBLE : float_if_in(selfDtype, kIntegers);
    return hand_back_unary<SqrtOp>(api, self, out, computeDtype, {}, workspaceSize, executor);
}

// ---- Sin and Cos (math/sin, math/cos op_api) ------------------------------

constexpr DtypeList kTrigDtypes = {ACL_FLOAT,  ACL_FLOAT16, ACL_DOUBLE,    ACL_INT8,       ACL_INT16, ACL_INT32,
                                   ACL_INT64,  ACL_BOOL,    ACL_COMPLEX64, ACL_COMPLEX128, ACL_UINT8, ACL_BF16};

/// Sin and Cos check the same lists in the same order, with no cast check:
/// the graph casts self to FLOAT unless its dtype is one of out's.
template <class Op>
aclnnStatus phase1_trig(const char* api, const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize,
                 aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_operands_then_self_dtype(self, out, kTrigDtypes, workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(out, "out", kFloatsAndComplex));
    ACLCPU_RETURN_IF_ERROR(check_same_shape_then_rank(self, out));
    const aclDataType selfDtype = view_of(self).dtype;
    const aclDataType computeDtype = contains(kFloatsAndComplex, selfDtype) ? selfDtype : ACL_FLOAT;
    return hand_back_unary<Op>(api, self, out, computeDtype, {}, workspaceSize, executor);
}

// ---- Tanh (math/tanh/op_api/aclnn_tanh.cpp) -------------------------------

constexpr DtypeList kTanhDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BOOL,  ACL_UINT8, ACL_INT8,
                                   ACL_INT16, ACL_INT32,   ACL_INT64, ACL_BF16};

aclnnStatus phase1_tanh(const char* api, const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize,
                 aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_operands_then_self_dtype(self, out, kTanhDtypes, workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(out, "out", kTanhDtypes));
    const aclDataType computeDtype = float_if_in(view_of(self).dtype, kIntegers);
    ACLCPU_RETURN_IF_ERROR(check_can_cast(computeDtype, view_of(out).dtype));
    ACLCPU_RETURN_IF_ERROR(check_public_formats(self, out));
    ACLCPU_RETURN_IF_ERROR(check_rank_then_same_shape(self, out));
    // Tanh ends early when either tensor is empty.
    if (is_empty(out)) return hand_back_empty_executor({self}, {out}, workspaceSize, executor);
    return hand_back_unary<TanhOp>(api, self, out, computeDtype, {}, workspaceSize, executor);
}

}  // namespace
}  // namespace aclcpu::ops

using namespace aclcpu::ops;

/// An in-place form: its own checks of selfRef, then the out-of-place
/// phase 1 with selfRef as both tensors.
#define ACLCPU_INPLACE_UNARY(Name, phase1, supported)                                                       \
    extern "C" aclnnStatus aclnnInplace##Name##GetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize, \
                                                               aclOpExecutor** executor) {                  \
        ACLCPU_RETURN_IF_ERROR(check_inplace(selfRef, supported));                                          \
        return phase1("aclnnInplace" #Name, selfRef, selfRef, workspaceSize, executor);                     \
    }                                                                                                       \
    ACLCPU_DEFINE_PHASE2(aclnnInplace##Name)

/// The out-of-place form of an operator whose phase 1 takes its API name.
#define ACLCPU_UNARY(Name, phase1)                                                                          \
    extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor* self, aclTensor* out,              \
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) { \
        return phase1("aclnn" #Name, self, out, workspaceSize, executor);                                   \
    }                                                                                                       \
    ACLCPU_DEFINE_PHASE2(aclnn##Name)

extern "C" aclnnStatus aclnnAbsGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
    return aclcpu::ops::phase1_abs(self, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnAbs)

extern "C" aclnnStatus aclnnSignGetWorkspaceSize(const aclTensor* self, aclTensor* result, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
    return aclcpu::ops::phase1_sign(self, result, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnSign)

namespace {
constexpr DtypeList kExpInplaceDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128};
constexpr DtypeList kTanhInplaceDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
}  // namespace

ACLCPU_UNARY(Neg, aclcpu::ops::phase1_neg)
ACLCPU_INPLACE_UNARY(Neg, aclcpu::ops::phase1_neg, kNegDtypes)
ACLCPU_UNARY(Exp, aclcpu::ops::phase1_exp)
ACLCPU_INPLACE_UNARY(Exp, aclcpu::ops::phase1_exp, kExpInplaceDtypes)
ACLCPU_UNARY(Log, aclcpu::ops::phase1_log)
ACLCPU_INPLACE_UNARY(Log, aclcpu::ops::phase1_log, kFloatsAndComplex)
ACLCPU_UNARY(Sqrt, aclcpu::ops::phase1_sqrt)
ACLCPU_INPLACE_UNARY(Sqrt, aclcpu::ops::phase1_sqrt, kFloatsAndComplex)
ACLCPU_UNARY(Sin, aclcpu::ops::phase1_trig<SinOp>)
ACLCPU_INPLACE_UNARY(Sin, aclcpu::ops::phase1_trig<SinOp>, kFloatsAndComplex)
ACLCPU_UNARY(Cos, aclcpu::ops::phase1_trig<CosOp>)
ACLCPU_INPLACE_UNARY(Cos, aclcpu::ops::phase1_trig<CosOp>, kFloatsAndComplex)
ACLCPU_UNARY(Tanh, aclcpu::ops::phase1_tanh)
ACLCPU_INPLACE_UNARY(Tanh, aclcpu::ops::phase1_tanh, kTanhInplaceDtypes)
