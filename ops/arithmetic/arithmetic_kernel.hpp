// acl-cpu: the kernels of the arithmetic family (Add, Sub, Rsub, Mul, Div and
// their scalar, in-place and rounding forms).
//
// Phase 1 reduces every entry point to one ArithmeticPlan: the operation, the
// dtype CANN's A2 graph computes in (both operands are cast to it and every
// step rounds to it), how alpha enters, the operands (tensors read over the
// output's shape, or scalars already converted to the compute dtype), and
// the output's view.  Two kernels run a plan:
//   - the vector kernel, when the compute dtype is FLOAT, FLOAT16 or BF16 and
//     every operand converts exactly into it: Highway fp32 vectors, straight
//     from and to device memory when the operands are dense (the elementwise
//     machinery of ops/common);
//   - the typed kernel for everything else (DOUBLE, integers, BOOL, complex,
//     integer and BOOL outputs of float results): per UB chunk, the operands
//     converted into the compute type as CANN's Cast does, computed with
//     wrapping integer arithmetic, rounded and cast into the output.
#pragma once

#include "common/internal.hpp"

#include <array>
#include <cstdint>
#include <memory>

#include "aclcpu/nnopbase.hpp"
#include "common/elementwise.hpp"
#include "common/scalar_value.hpp"
#include "common/strided_layout.hpp"

namespace aclcpu::ops {

/// The operation, in terms of the l0 operators CANN's graph runs.
enum class ArithmeticOp : uint8_t {
    add,  ///< a + alpha * b; BOOL: a OR (b AND alpha)
    sub,  ///< a - alpha * b; BOOL: a XOR (b AND alpha)
    mul,  ///< a * b; BOOL: a AND b
    div,  ///< a / b, rounded as DivRounding says
};

/// aclnnDivMod's mode: the quotient as it is, rounded toward zero, or down.
enum class DivRounding : uint8_t { none = 0, trunc = 1, floor = 2 };

/// How add and sub apply alpha on A2.
enum class AlphaStep : uint8_t {
    none,      ///< alpha is 1: one Add or Sub
    fused,     ///< Axpy: a +- alpha*b in fp32 with alpha a float attribute, rounded once to the compute dtype
    separate,  ///< Mul(b, alpha) rounded to the compute dtype, then Add or Sub
};

/// One operand: a tensor, input number `input` of the launch, read over the
/// output's shape; or a scalar.
struct ArithmeticOperand {
    bool isScalar = false;
    int input = 0;
    StridedLayout layout;
    ComputeValue value;
};

/// Everything a launch computes: out = op(a, b) element by element.
struct ArithmeticPlan {
    ArithmeticOp op = ArithmeticOp::add;
    aclDataType computeDtype = ACL_FLOAT;
    AlphaStep alphaStep = AlphaStep::none;
    ComputeValue alpha;     ///< separate step: alpha in the compute dtype
    float alphaFloat = 1;   ///< fused step: CANN's float attribute
    DivRounding rounding = DivRounding::none;
    /// False where CANN's graph feeds the operands to the kernel uncast (its
    /// mixed-dtype RealDiv and FloorDiv): only the result rounds to the compute dtype.
    bool roundOperands = true;
    std::array<ArithmeticOperand, 2> operands;  ///< a, b
    StridedLayout out;

    int tensor_inputs() const noexcept { return !operands[0].isScalar + !operands[1].isScalar; }
};

/// The kernel that runs plan over tiling: the vector kernel when the plan
/// allows it, the typed kernel otherwise.  apiName names the operator in
/// traces and errors.  Throws std::bad_alloc.
std::shared_ptr<const OpKernel> make_arithmetic_kernel(const char* apiName, const ArithmeticPlan& plan,
                                                       const ElementwiseTiling& tiling);

/// The typed kernel, for any plan.
std::shared_ptr<const OpKernel> make_typed_arithmetic_kernel(const char* apiName, const ArithmeticPlan& plan,
                                                             const ElementwiseTiling& tiling);

/// Bytes per element of the lanes the kernel chosen for plan stages in UB:
/// what tile_arithmetic sizes its chunks by.
int64_t arithmetic_lane_bytes(const ArithmeticPlan& plan);

/// The vector kernel's parameters: a + alpha*b (add, sub and rsub, with
/// alpha negated for the subtractions; roundProduct rounds alpha*b to the
/// 16-bit compute dtype first), a * b, or a / b rounded.  The operands come
/// in the launch's input order, swapped when swapOperands; with one tensor
/// input the other operand is `scalar`, and swapOperands puts it first.
struct VectorArithmeticParams {
    float alpha = 1;
    float scalar = 0;
    bool swapOperands = false;
    bool roundProduct = false;
    aclDataType computeDtype = ACL_FLOAT;
    DivRounding rounding = DivRounding::none;
};

void vector_axpy_block(const ElementwiseJob<2>& job, const BlockSlice& slice, const VectorArithmeticParams& params);
void vector_mul_block(const ElementwiseJob<2>& job, const BlockSlice& slice, const VectorArithmeticParams& params);
void vector_div_block(const ElementwiseJob<2>& job, const BlockSlice& slice, const VectorArithmeticParams& params);
void vector_axpy_scalar_block(const ElementwiseJob<1>& job, const BlockSlice& slice,
                              const VectorArithmeticParams& params);
void vector_mul_scalar_block(const ElementwiseJob<1>& job, const BlockSlice& slice,
                             const VectorArithmeticParams& params);
void vector_div_scalar_block(const ElementwiseJob<1>& job, const BlockSlice& slice,
                             const VectorArithmeticParams& params);

}  // namespace aclcpu::ops
