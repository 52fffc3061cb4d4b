// acl-cpu ops/common: the host side of the binary engine.
#include "common/binary.hpp"

namespace aclcpu::ops {

TypedOperand typed_operand(const NamedArg& operand, int input, const Dims& shape, aclDataType operandDtype) noexcept {
    TypedOperand typed;
    typed.isScalar = operand.isScalar;
    if (operand.isScalar) {
        typed.scalar = compute_value(operand.scalar, operandDtype);
    } else {
        typed.input = input;
        typed.layout = StridedLayout::broadcast_to(view_of(operand.tensor), shape);
    }
    return typed;
}

}  // namespace aclcpu::ops
