// acl-cpu ops/common: CANN's conversion of a scalar into a compute dtype.
#include "common/scalar_value.hpp"

#include <complex>

#include "aclcpu/half.hpp"

namespace aclcpu::ops {

ComputeValue compute_value(const aclScalar* scalar, aclDataType dtype) noexcept {
    ComputeValue value;
    switch (dtype) {
        case ACL_FLOAT: value.real = to_float(scalar); break;
        case ACL_FLOAT16: value.real = static_cast<float>(half_t::from_float(to_float(scalar))); break;
        case ACL_BF16: value.real = static_cast<float>(bf16_t::from_float(to_float(scalar))); break;
        case ACL_DOUBLE: value.real = to_double(scalar); break;
        case ACL_COMPLEX64: {
            const std::complex<double> z = to_complex(scalar);
            value.real = static_cast<float>(z.real());
            value.imag = static_cast<float>(z.imag());
            break;
        }
        case ACL_COMPLEX128: {
            const std::complex<double> z = to_complex(scalar);
            value.real = z.real();
            value.imag = z.imag();
            break;
        }
        case ACL_BOOL: value.integer = to_int64(scalar) != 0; break;
        // Narrower integers wrap as the typed kernel's lanes do.
        default: value.integer = round_lane(dtype, to_int64(scalar)); break;
    }
    return value;
}

}  // namespace aclcpu::ops
