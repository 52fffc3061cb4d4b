// acl-cpu: what the arithmetic family's phase 1 entries share -- checks
// worded as CANN's op_api words them, CANN's conversion of scalars into the
// compute dtype, and the ending that tiles a plan and hands back its executor.
#pragma once

#include "common/internal.hpp"

#include <cstdint>

#include "aclcpu/nnopbase.hpp"
#include "arithmetic/arithmetic_kernel.hpp"
#include "common/dtype.hpp"
#include "common/phase1.hpp"

namespace aclcpu::ops {

/// The promoted dtype must exist -> else 161002 "Self dtype %s and other
/// dtype %s can not promote dtype."
aclnnStatus check_promotable(aclDataType self, aclDataType other, aclDataType promoted);

/// Add's and Sub's alpha rule: with a BOOL promoted dtype alpha must be an
/// integer or BOOL, otherwise CanCast(alpha, promoted) -> else 161002.
aclnnStatus check_alpha_castable(const aclScalar* alpha, aclDataType promoted);

/// CANN's test of alpha == 1 in Add, Sub and AddV3: compared as a float, so
/// that a NaN alpha counts as 1.
bool alpha_is_one(const aclScalar* alpha) noexcept;

/// An operand read from tensor (launch input `input`) over shape.
ArithmeticOperand tensor_operand(const aclTensor* tensor, int input, const Dims& shape) noexcept;
/// A scalar operand converted into dtype.
ArithmeticOperand scalar_operand(const aclScalar* scalar, aclDataType dtype) noexcept;

/// alpha applied as CANN's A2 graphs apply it: nothing when it is 1 (as
/// alpha_is_one says, or as given by `one` for Rsub's exact test), Axpy in
/// fp32 when the compute dtype is one of axpyDtypes, else Mul then Add/Sub
/// in the compute dtype.  The plan's op and compute dtype must be set.
void apply_alpha(ArithmeticPlan& plan, const aclScalar* alpha, bool one, DtypeList axpyDtypes) noexcept;

/// The end of every arithmetic phase 1: views inside their storage, then
/// the plan tiled and handed back as an executor over inputs (declaration
/// order) and out.  Host allocation failure -> 561101.
aclnnStatus hand_back_arithmetic(const char* apiName, ArithmeticPlan& plan, TensorList inputs, const aclTensor* out,
                                 uint64_t* workspaceSize, aclOpExecutor** executor);

}  // namespace aclcpu::ops
