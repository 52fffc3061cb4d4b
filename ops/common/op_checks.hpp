// acl-cpu ops/common: the argument checks of phase 1, CANN's check macros
// (op_error_check.h) as functions.  Each check returns ACLNN_SUCCESS, or
// reports the failure through aclcpu::report_error with CANN's message (so
// aclGetRecentErrMsg returns it) and returns CANN's status code.  An
// operator chains them in its CANN order:
//
//     ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
//     ACLCPU_RETURN_IF_ERROR(check_not_null(self, "self"));
//     ...
#pragma once

#include "common/internal.hpp"

#include <cstdint>
#include <initializer_list>
#include <string>

#include "aclcpu/nnopbase.hpp"
#include "common/dtype.hpp"

/// Returns the status of expr from the calling function unless it is ACLNN_SUCCESS.
#define ACLCPU_RETURN_IF_ERROR(expr)                         \
    do {                                                     \
        const aclnnStatus aclcpuStatus_ = (expr);            \
        if (aclcpuStatus_ != ACLNN_SUCCESS) return aclcpuStatus_; \
    } while (0)

namespace aclcpu::ops {

/// Reports a parameter error with a printf-style message, as CANN's
/// OP_LOGE does (aclGetRecentErrMsg returns it); returns code.  For the
/// checks an operator words itself.
__attribute__((format(printf, 2, 3))) aclnnStatus param_error(aclnnStatus code, const char* format, ...);

/// "[2,3,4]"
std::string shape_string(const Dims& shape);

/// CANN's spelling of a format in messages ("ND", "FRACTAL_NZ", ...).
const char* format_name(aclFormat format) noexcept;

/// True when the tensor's view has no element.
bool is_empty(const aclTensor* tensor) noexcept;

/// OP_CHECK_COMM_INPUT: workspaceSize or executor null -> 161001.
aclnnStatus check_comm_input(const uint64_t* workspaceSize, aclOpExecutor* const* executor);

/// OP_CHECK_NULL: a null tensor / scalar / integer list argument -> 161001.
aclnnStatus check_not_null(const aclTensor* tensor, const char* name);
aclnnStatus check_not_null(const aclScalar* scalar, const char* name);
aclnnStatus check_not_null(const aclIntArray* array, const char* name);

/// OP_CHECK_DTYPE_NOT_SUPPORT: tensor's dtype outside supported -> 161002.
aclnnStatus check_dtype_supported(const aclTensor* tensor, const char* name, DtypeList supported);

/// OP_CHECK_DTYPE_NOT_MATCH: tensor's dtype is not expected -> 161002.
aclnnStatus check_dtype_is(const aclTensor* tensor, const char* name, aclDataType expected);

/// The format check of Abs and Tanh: self and out of one format, and that a
/// public one (ND, NCHW, NHWC, HWCN, NDHWC, NCDHW, NCL), not a private
/// layout such as FRACTAL_NZ -> 161002.
aclnnStatus check_public_formats(const aclTensor* self, const aclTensor* out);

/// OP_CHECK_DTYPE_NOT_SAME: the two tensors' dtypes differ -> 161002.
aclnnStatus check_same_dtype(const aclTensor* a, const char* aName, const aclTensor* b, const char* bName);

/// OP_CHECK_RESULT_DTYPE_CAST_FAILED: !can_cast(from, to) -> 161002.
aclnnStatus check_can_cast(aclDataType from, aclDataType to);

/// The promotion of two tensors' dtypes into *promoted; no promotion, or a
/// promoted dtype outside supported -> 161002.
aclnnStatus check_promote_dtype(const aclTensor* a, const char* aName, const aclTensor* b, const char* bName,
                                DtypeList supported, aclDataType* promoted);

/// OP_CHECK_MAX_DIM: rank above maxDims -> 161002.
aclnnStatus check_max_dim(const aclTensor* tensor, const char* name, size_t maxDims = kMaxDims);

/// OP_CHECK_MIN_DIM: rank below minDims -> 161002.
aclnnStatus check_min_dim(const aclTensor* tensor, const char* name, size_t minDims);

/// OP_CHECK_WRONG_DIMENSION: rank other than expected -> 161002.
aclnnStatus check_dim_count(const aclTensor* tensor, const char* name, size_t expected);
/// OP_CHECK_SHAPE_NOT_EQUAL: the view shapes differ -> 161002.
aclnnStatus check_same_shape(const aclTensor* a, const char* aName, const aclTensor* b, const char* bName);

/// OP_CHECK_SHAPE_NOT_EQUAL_WITH_EXPECTED_SIZE: view shape != expected -> 161002.
aclnnStatus check_shape_is(const aclTensor* tensor, const char* name, const Dims& expected);

/// The checks of a one-input operator (self, out), in the orders CANN's
/// op_api code uses them.
/// OP_CHECK_COMM_INPUT, then self and out (named outName) not null -> 161001.
aclnnStatus check_operands_not_null(const uint64_t* workspaceSize, aclOpExecutor* const* executor,
                                    const aclTensor* self, const aclTensor* out, const char* outName = "out");
/// CheckSameShape1In1Out (ops-math common/inc/op_api/level2_base.h): equal
/// shapes, then self's rank at most 8 -> 161002.
aclnnStatus check_same_shape_then_rank(const aclTensor* self, const aclTensor* out);
/// OP_CHECK_MAX_DIM then OP_CHECK_SHAPE_NOT_EQUAL -> 161002.
aclnnStatus check_rank_then_same_shape(const aclTensor* self, const aclTensor* out);

/// The NumPy broadcast of two shapes into *result; false (result
/// unspecified) when a pair of trailing-aligned dims differs and neither is 1.
bool broadcast_shapes(const Dims& a, const Dims& b, Dims* result);

/// OP_CHECK_BROADCAST_AND_INFER_SHAPE: the broadcast of the two view shapes
/// into *result; not broadcastable -> 161002.
aclnnStatus check_broadcast(const aclTensor* a, const char* aName, const aclTensor* b, const char* bName,
                            Dims* result);

/// OP_CHECK_DTYPE_NOT_SUPPORT for a scalar operand ("Tensor other not
/// implemented for ...", as CANN prints it) -> 161002.
aclnnStatus check_scalar_dtype_supported(const aclScalar* scalar, const char* name, DtypeList supported);

/// self and other broadcast, and out has the broadcast shape; the two
/// ranks at most 8 first -> 161002.
aclnnStatus check_broadcast_into(const aclTensor* self, const aclTensor* other, const aclTensor* out,
                                  const char* outName);

/// selfRef and other broadcast (else 161002), and selfRef already has the
/// broadcast shape: else 161002 with `message`, given the broadcast shape
/// then selfRef's.
aclnnStatus check_broadcasts_onto(const aclTensor* selfRef, const aclTensor* other, const char* otherName,
                                  const char* message);

/// CheckInplace of the in-place tensor forms: selfRef and other not null,
/// broadcastable, and selfRef already of the broadcast shape -> 161001 /
/// 161002.
aclnnStatus check_inplace_broadcast(const aclTensor* selfRef, const aclTensor* other);

/// An argument and its name in messages, for the checks over several
/// arguments below: each applies one check to the arguments in the order
/// given and returns the first failure, as the same single checks in a row.
struct NamedArg {
    NamedArg(const aclTensor* t, const char* n) noexcept : tensor(t), name(n) {}
    NamedArg(const aclScalar* s, const char* n) noexcept : scalar(s), name(n), isScalar(true) {}
    /// An integer list (Permute's dims, Repeat's repeats, ...): only
    /// check_not_null applies to it.
    NamedArg(const aclIntArray* a, const char* n) noexcept : intArray(a), name(n), isIntArray(true) {}
    const aclTensor* tensor = nullptr;
    const aclScalar* scalar = nullptr;
    const aclIntArray* intArray = nullptr;
    const char* name;
    bool isScalar = false;
    bool isIntArray = false;
};
using NamedArgs = std::initializer_list<NamedArg>;

/// check_not_null of each argument, tensor, scalar or integer list.
aclnnStatus check_not_null(NamedArgs args);
/// check_dtype_supported / check_max_dim / check_view_in_storage of each
/// tensor argument.
aclnnStatus check_dtype_supported(NamedArgs tensors, DtypeList supported);
aclnnStatus check_max_dim(NamedArgs tensors);
aclnnStatus check_view_in_storage(NamedArgs tensors);
/// check_view_in_storage of each tensor argument that is given (optional
/// tensors may be null).
aclnnStatus check_given_views_in_storage(NamedArgs tensors);

/// acl-cpu's own guard, run last in phase 1 so that a kernel never touches
/// memory outside a tensor: a non-empty view must stay inside its storage
/// (offset + sum((size_d - 1) * stride_d) < storage element count) or
/// inside the live aclrtMalloc block its data points into, and never past
/// that block's reservation (see reach_allowed in op_checks.cpp), neither
/// the view's nor the storage's byte size may overflow int64, and the
/// storage may not exceed 2^48 bytes, which no address space holds ->
/// 161002. Past it, size_d * stride_d and any index up to it times a stride
/// fit in int64.
aclnnStatus check_view_in_storage(const aclTensor* tensor, const char* name);

}  // namespace aclcpu::ops
