// acl-cpu: what the arithmetic family's phase 1 entries share.
#include "arithmetic/arithmetic_phase1.hpp"

namespace aclcpu::ops {

aclnnStatus check_promotable(aclDataType self, aclDataType other, aclDataType promoted) {
    if (promoted != ACL_DT_UNDEFINED) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "Self dtype %s and other dtype %s can not promote dtype.",
                       dtype_name(self), dtype_name(other));
}

aclnnStatus check_alpha_castable(const aclScalar* alpha, aclDataType promoted) {
    const aclDataType dtype = dtype_of(alpha);
    const bool castable = promoted == ACL_BOOL ? dtype == ACL_BOOL || is_integral(dtype) : can_cast(dtype, promoted);
    if (castable) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "Alpha dtype %s can't be cast to the promote dtype %s.",
                       dtype_name(dtype), dtype_name(promoted));
}

bool alpha_is_one(const aclScalar* alpha) noexcept {
    const float value = to_float(alpha);
    return !(value > 1.0f || value < 1.0f);
}

namespace {

/// The dtypes the typed lanes write (typed_lanes.hpp's visit_element).
constexpr DtypeList kWritableDtypes = {ACL_FLOAT,  ACL_FLOAT16, ACL_BF16,   ACL_DOUBLE, ACL_INT8,
                                       ACL_INT16,  ACL_INT32,   ACL_INT64,  ACL_UINT8,  ACL_UINT16,
                                       ACL_UINT32, ACL_UINT64,  ACL_BOOL,   ACL_COMPLEX64, ACL_COMPLEX128};

}  // namespace

aclnnStatus check_out_writable(const aclTensor* out) { return check_dtype_supported(out, "out", kWritableDtypes); }

}  // namespace aclcpu::ops
