// acl-cpu ops/common: the host side of the binary engine.
#include "common/binary.hpp"

namespace aclcpu::ops {

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
