// acl-cpu: the dtypes the two-operand operators (arithmetic, pow) compute in
// on Atlas A2, one function per rule of CANN's op_api code.  A tensor-tensor pair promotes
// with promote_types (CANN's PromoteType); a tensor-scalar pair follows each
// operator's own A2 rule below, not the documented tensor-scalar table
// (which CANN applies on Ascend 950 only).
#pragma once

#include "common/internal.hpp"

#include "acl/acl_base.h"

namespace aclcpu::ops {

/// Adds and Subs: a floating tensor keeps its dtype whatever the scalar; a
/// DOUBLE scalar into a FLOAT out computes in FLOAT; a floating scalar or a
/// BOOL tensor promotes; an integer tensor keeps its dtype.  Complex
/// operands promote.
aclDataType add_sub_scalar_promotion(aclDataType self, aclDataType scalar, aclDataType out) noexcept;

/// AddV3 (self a scalar, other a tensor): a floating tensor computes in
/// FLOAT; otherwise as add_sub_scalar_promotion with the roles swapped.
aclDataType add_v3_promotion(aclDataType self, aclDataType other, aclDataType out) noexcept;

/// Rsubs: a floating tensor keeps its dtype, a floating scalar promotes,
/// otherwise the tensor's dtype.
aclDataType rsub_scalar_promotion(aclDataType self, aclDataType scalar) noexcept;

/// Muls (CANN's InferTensorScalarDtype): complex promotes; a floating
/// tensor keeps its dtype except BF16, which computes in FLOAT; a BOOL
/// tensor with a DOUBLE scalar, or a DOUBLE scalar into a FLOAT out,
/// computes in FLOAT; a floating scalar or a BOOL tensor promotes; else the
/// tensor's dtype.
aclDataType muls_compute_dtype(aclDataType self, aclDataType scalar, aclDataType out) noexcept;

/// PowTensorScalar (math/pow/op_api/aclnn_pow.cpp, InferTensorScalarDtype):
/// a DOUBLE exponent into a FLOAT out computes in FLOAT, otherwise Adds'
/// rule (add_sub_scalar_promotion).
aclDataType pow_tensor_scalar_promotion(aclDataType self, aclDataType exponent, aclDataType out) noexcept;

/// PowScalarTensor (aclnn_pow.cpp, InferScalarTensorDtype): a DOUBLE
/// exponent tensor into a FLOAT out computes in FLOAT; a complex base
/// promotes; a floating exponent keeps its dtype; a floating base or a BOOL
/// exponent promotes; else the exponent's dtype.
aclDataType pow_scalar_tensor_promotion(aclDataType base, aclDataType exponent, aclDataType out) noexcept;

/// True for the pairs of FLOAT16, FLOAT and BF16 (equal or not) that CANN's
/// A2 RealDiv and FloorDiv take as they are, computing in fp32 and
/// rounding only the result (the division family's rules are in
/// aclnn_div.cpp, the one place that uses them).
bool is_mixed_float_pair(aclDataType a, aclDataType b) noexcept;


}  // namespace aclcpu::ops
