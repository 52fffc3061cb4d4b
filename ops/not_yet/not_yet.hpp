// acl-cpu ops/not_yet: what an aclnn entry point answers while acl-cpu has
// no operator behind it.  The stubs generate_stubs.py writes for every
// declared function without a definition call these (README.md).
#pragma once

#include "common/internal.hpp"

#include "aclcpu/error_report.hpp"
#include "aclnn/acl_meta.h"

namespace aclcpu::ops {

/// The code of a call to an operator acl-cpu does not have yet.  CANN's
/// OpKernel::GetWorkspace (opbase src/nnopbase/composite_op/aclnn_engine/
/// op_kernel.h) answers ACLNN_ERR_INNER_OPP_KERNEL_PKG_NOT_FOUND (561112),
/// "Op %s does not has any binary.", when the installed operator package
/// holds no kernel for an operator: the situation of a declared operator
/// acl-cpu has no kernel for.  The parameter codes (161xxx) would blame the
/// caller's arguments, and 561003 (find kernel) means a kernel exists but
/// not for these dtypes or shapes.
inline constexpr aclnnStatus kNotYetStatus = ACLNN_ERR_INNER_OPP_KERNEL_PKG_NOT_FOUND;

/// Reports that entry point `api` of operator `op` (both as CANN spells
/// them) is not implemented yet; returns kNotYetStatus.
inline aclnnStatus not_yet(const char* api, const char* op) noexcept {
    report_error(kNotYetStatus, kAclnnInnerTag,
                 "%s failed: Op %s has no kernel in acl-cpu yet (declared, not implemented).", api, op);
    return kNotYetStatus;
}

/// Phase 1 of a not-yet operator: reported as not_yet, and *executor (when
/// the caller passed one) left null, so that no caller ever launches it.
inline aclnnStatus not_yet_phase1(const char* api, const char* op, aclOpExecutor** executor) noexcept {
    if (executor != nullptr) *executor = nullptr;
    return not_yet(api, op);
}

}  // namespace aclcpu::ops
