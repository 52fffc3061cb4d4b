// acl-cpu ops/common: the host side of the binary engine.
#include "common/binary.hpp"

namespace aclcpu::ops {

bool converts_exactly(aclDataType dtype, aclDataType computeDtype) noexcept {
    if (dtype == computeDtype) return true;
    switch (dtype) {
        // 8-bit integers and BOOL fit the 8-bit significand of every fp32-lane dtype.
        case ACL_BOOL: case ACL_INT8: case ACL_UINT8:
            return computeDtype == ACL_FLOAT || computeDtype == ACL_FLOAT16 || computeDtype == ACL_BF16;
        case ACL_FLOAT16: case ACL_BF16: case ACL_INT16:
            return computeDtype == ACL_FLOAT;
        default:
            return false;
    }
}

TypedOperand typed_operand(const NamedArg& operand, int input, const Dims& shape, aclDataType computeDtype) noexcept {
    TypedOperand typed;
    typed.isScalar = operand.isScalar;
    if (operand.isScalar) {
        typed.scalar.value = is_complex(computeDtype) ? to_complex(operand.scalar) : to_double(operand.scalar);
        typed.scalar.integer = to_int64(operand.scalar);
    } else {
        typed.input = input;
        typed.layout = StridedLayout::broadcast_to(view_of(operand.tensor), shape);
    }
    return typed;
}

}  // namespace aclcpu::ops
