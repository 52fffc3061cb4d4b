// acl-cpu: the dtype helpers of acl_base.h.
#include "acl/acl_base.h"

// Shared with the kernels; ops/base/include is not on this library's include
// path, and the header depends on nothing but <cstdint>.
#include "../ops/base/include/aclcpu/half.hpp"

extern "C" {

float aclFloat16ToFloat(aclFloat16 value) { return aclcpu::half_to_float_saturating(value); }

aclFloat16 aclFloatToFloat16(float value) { return aclcpu::float_to_half_saturating(value); }

size_t aclDataTypeSize(aclDataType dataType) {
    switch (dataType) {
        case ACL_STRING:
        case ACL_DT_UNDEFINED:
            return 0;
        case ACL_INT4:
        case ACL_UINT1:
        case ACL_BOOL:
        case ACL_INT8:
        case ACL_UINT8:
        case ACL_HIFLOAT8:
        case ACL_FLOAT8_E5M2:
        case ACL_FLOAT8_E4M3FN:
        case ACL_FLOAT8_E8M0:
            return 1;
        case ACL_FLOAT16:
        case ACL_BF16:
        case ACL_INT16:
        case ACL_UINT16:
            return 2;
        case ACL_FLOAT:
        case ACL_INT32:
        case ACL_UINT32:
        case ACL_COMPLEX32:
            return 4;
        case ACL_COMPLEX128:
            return 16;
        case ACL_DOUBLE:
        case ACL_INT64:
        case ACL_UINT64:
        case ACL_COMPLEX64:
        default:
            // As CANN: every type without a case of its own (the 6- and 4-bit
            // floats, unused codes) is counted as eight bytes.
            return 8;
    }
}

}  // extern "C"
