// acl-cpu: the dtype helpers of acl_base.h.
#include "acl/acl_base.h"
#include "aclcpu/dtype.hpp"
#include "aclcpu/half.hpp"

extern "C" {

float aclFloat16ToFloat(aclFloat16 value) { return aclcpu::half_to_float_saturating(value); }

aclFloat16 aclFloatToFloat16(float value) { return aclcpu::float_to_half_saturating(value); }

size_t aclDataTypeSize(aclDataType dataType) { return aclcpu::cann_dtype_size(aclcpu::code_of(dataType)); }

}  // extern "C"
