// acl-cpu: what the arithmetic family's phase 1 entries share -- checks
// worded as CANN's op_api words them, and the ending that hands the
// operation to the binary engine.
#pragma once

#include "common/internal.hpp"

#include "aclcpu/nnopbase.hpp"
#include "arithmetic/arithmetic_kernel.hpp"
#include "common/binary.hpp"
#include "common/dtype.hpp"
#include "common/op_checks.hpp"
#include "common/phase2.hpp"

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

/// An out of a dtype acl-cpu's kernels do not write (COMPLEX32, the 8-bit
/// floats, codes of no size, which CanCast admits into an out; CANN would
/// cast into them) -> 161002, rather than writing past the out's elements.
aclnnStatus check_out_writable(const aclTensor* out);

/// The end of every arithmetic phase 1: hand_back_binary<Op>, out checked
/// writable first unless a tensor operand is empty.
template <class Op>
aclnnStatus hand_back_arithmetic(const char* api, const NamedArg& a, const NamedArg& b, const aclTensor* out,
                                 BinaryDtypes dtypes, const typename Op::Params& params, uint64_t* workspaceSize,
                                 aclOpExecutor** executor) {
    if (!is_empty_tensor(a) && !is_empty_tensor(b)) ACLCPU_RETURN_IF_ERROR(check_out_writable(out));
    return hand_back_binary<Op>(api, a, b, out, dtypes, params, workspaceSize, executor);
}

}  // namespace aclcpu::ops

/// Defines the entry points of Add's and Sub's family member `api` writing
/// out: phase 1, extern "C" with CANN's signature (const aclTensor* self,
/// const Other* other, const aclScalar* alpha, aclTensor* out,
/// workspaceSize, executor), forwarding to impl(#api, self, other, alpha,
/// out, workspaceSize, executor); and phase 2.
#define ACLCPU_ALPHA_ENTRY(api, Other, impl)                                                              \
    extern "C" aclnnStatus api##GetWorkspaceSize(const aclTensor* self, const Other* other,               \
                                                 const aclScalar* alpha, aclTensor* out,                  \
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {     \
        return impl(#api, self, other, alpha, out, workspaceSize, executor);                              \
    }                                                                                                     \
    ACLCPU_DEFINE_PHASE2(api)

/// The in-place form, (SelfRef* selfRef, const Other* other, const
/// aclScalar* alpha, workspaceSize, executor): selfRef is both self and out.
#define ACLCPU_INPLACE_ALPHA_ENTRY(api, SelfRef, Other, impl)                                             \
    extern "C" aclnnStatus api##GetWorkspaceSize(SelfRef* selfRef, const Other* other,                    \
                                                 const aclScalar* alpha, uint64_t* workspaceSize,         \
                                                 aclOpExecutor** executor) {                              \
        return impl(#api, selfRef, other, alpha, selfRef, workspaceSize, executor);                       \
    }                                                                                                     \
    ACLCPU_DEFINE_PHASE2(api)
