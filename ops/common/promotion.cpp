// acl-cpu: the dtypes the two-operand operators compute in on Atlas A2.
#include "common/promotion.hpp"

#include "common/dtype.hpp"

namespace aclcpu::ops {

aclDataType add_sub_scalar_promotion(aclDataType self, aclDataType scalar, aclDataType out) noexcept {
    if (is_complex(self) || is_complex(scalar)) return promote_types(self, scalar);
    if (is_floating(self)) return self;
    if (scalar == ACL_DOUBLE && out == ACL_FLOAT) return ACL_FLOAT;
    if (is_floating(scalar) || self == ACL_BOOL) return promote_types(self, scalar);
    return self;
}

aclDataType add_v3_promotion(aclDataType self, aclDataType other, aclDataType out) noexcept {
    if (is_floating(other) && !is_complex(self)) return ACL_FLOAT;
    return add_sub_scalar_promotion(other, self, out);
}

aclDataType rsub_scalar_promotion(aclDataType self, aclDataType scalar) noexcept {
    if (is_floating(self)) return self;
    if (is_floating(scalar)) return promote_types(self, scalar);
    return self;
}

aclDataType muls_compute_dtype(aclDataType self, aclDataType scalar, aclDataType out) noexcept {
    if (is_complex(self) || is_complex(scalar)) return promote_types(self, scalar);
    if (is_floating(self)) return self == ACL_BF16 ? ACL_FLOAT : self;
    if ((self == ACL_BOOL && scalar == ACL_DOUBLE) || (scalar == ACL_DOUBLE && out == ACL_FLOAT)) return ACL_FLOAT;
    if (is_floating(scalar) || self == ACL_BOOL) return promote_types(self, scalar);
    return self;
}

aclDataType pow_tensor_scalar_promotion(aclDataType self, aclDataType exponent, aclDataType out) noexcept {
    if (exponent == ACL_DOUBLE && out == ACL_FLOAT) return ACL_FLOAT;
    return add_sub_scalar_promotion(self, exponent, out);
}

aclDataType pow_scalar_tensor_promotion(aclDataType base, aclDataType exponent, aclDataType out) noexcept {
    if (exponent == ACL_DOUBLE && out == ACL_FLOAT) return ACL_FLOAT;
    if (is_complex(base)) return promote_types(base, exponent);
    if (is_floating(exponent)) return exponent;
    if (is_floating(base) || exponent == ACL_BOOL) return promote_types(exponent, base);
    return exponent;
}

bool is_mixed_float_pair(aclDataType a, aclDataType b) noexcept {
    const auto vector_float = [](aclDataType dtype) {
        return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16;
    };
    return vector_float(a) && vector_float(b);
}

}  // namespace aclcpu::ops
