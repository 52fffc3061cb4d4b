// acl-cpu ops/common: the binary engine -- everything an elementwise operator
// with two operands (each a tensor or a scalar) and one output does after
// its own checks; the two-operand counterpart of unary.hpp.
//
// CANN's op_api code of such an operator checks its arguments, then runs
// Contiguous + Cast(computeDtype) on each tensor, ConvertToTensor(scalar,
// computeDtype) on a scalar, the kernel (broadcasting the two), Cast(out)
// and ViewCopy(out).  An operator here is:
//   - its checks, in its CANN order, and the dtype its graph computes in;
//   - its arithmetic, an Op type:
//       Op::Params    its parameters (NoParams when it has none);
//       Op::vector    its fp32 vector blocks, a BinaryBlocks<Params> made by
//                     ACLCPU_DECLARE_BINARY_BLOCKS / binary-inl.h, for the
//                     FLOAT, FLOAT16 and BF16 compute dtypes;
//       Op::apply     `V apply(V a, V b, const Params&)` for each lane type
//                     V of the typed path its compute dtypes need.
// A predicate's apply returns 1 or 0 in the lane type: CANN's kernel writes
// BOOL and its Cast(out) gives 1/0 in any out dtype (ggml reads GtScalar and
// EqTensor into FLOAT).
//
// hand_back_binary<Op> does the rest: the empty-tensor ending, acl-cpu's
// storage guard, the tiling, and the path -- the vector kernel when the
// compute dtype has fp32 lanes, every tensor operand reaches it as CANN's
// Cast gives it (gathers_as_cast) and out is a float (a scalar operand rides
// in the Params), the typed kernel (typed_lanes.hpp) otherwise.  Integer
// lanes are int64_t, rounded to the compute dtype after apply (so a narrow
// type's overflow wraps as on the device, and BOOL's sum, difference and
// product are its or, exclusive or and and).
#pragma once

#include "common/internal.hpp"

#include <algorithm>
#include <array>
#include <complex>
#include <string>
#include <type_traits>
#include <utility>

#include "aclcpu/nnopbase.hpp"
#include "aclcpu/soc_profile.hpp"
#include "common/elementwise.hpp"
#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "common/scalar_value.hpp"
#include "common/typed_lanes.hpp"
#include "common/unary.hpp"

namespace aclcpu::ops {

/// The Params of a vector block with one tensor and one scalar operand: the
/// operator's own and the scalar, already in the compute dtype.
template <class Params>
struct ScalarParams {
    Params params;
    float scalar;
};

/// An operator's three vector blocks: both operands tensors, the scalar on
/// the right, the scalar on the left.
template <class Params>
struct BinaryBlocks {
    void (*tensors)(const ElementwiseJob<2>&, const BlockSlice&, const Params&);
    void (*tensorScalar)(const ElementwiseJob<1>&, const BlockSlice&, const ScalarParams<Params>&);
    void (*scalarTensor)(const ElementwiseJob<1>&, const BlockSlice&, const ScalarParams<Params>&);
};

template <class P>
struct vector_params<BinaryBlocks<P>> {
    using type = P;
};

/// Declares the dispatchers binary-inl.h's ACLCPU_BINARY_DISPATCH defines
/// and the BinaryBlocks `name` holding them.  A family lists its blocks
/// once, in its kernel header, as `#define ACLCPU_<FAMILY>_BLOCKS(X)
/// X(name, Params, Op) ...` (Op the functor of its kernel.cpp), and expands
/// the list with this macro there and with ACLCPU_BINARY_TARGET_BLOCKS and
/// ACLCPU_BINARY_DISPATCH in the kernel.cpp.
#define ACLCPU_DECLARE_BINARY_BLOCKS(name, Params, Op)                                                     \
    void name##_tensors(const ElementwiseJob<2>& job, const BlockSlice& slice, const Params& params);      \
    void name##_tensor_scalar(const ElementwiseJob<1>& job, const BlockSlice& slice,                       \
                              const ScalarParams<Params>& params);                                         \
    void name##_scalar_tensor(const ElementwiseJob<1>& job, const BlockSlice& slice,                       \
                              const ScalarParams<Params>& params);                                         \
    inline constexpr BinaryBlocks<Params> name = {&name##_tensors, &name##_tensor_scalar, &name##_scalar_tensor};

/// True when Op has a binary apply for lane type V.
template <class Op, class V, class = void>
struct applies_binary_to : std::false_type {};
template <class Op, class V>
struct applies_binary_to<Op, V,
                         std::void_t<decltype(Op::apply(std::declval<V>(), std::declval<V>(),
                                                        std::declval<const typename Op::Params&>()))>>
    : std::true_type {};

/// The dtypes of a binary operator's graph: its kernel computes in and
/// rounds its result to `result`; its operands reach the kernel cast to
/// `operands`, which is the same dtype but for the kernels CANN's A2 graph
/// feeds 16- and 32-bit floats uncast (the mixed-dtype RealDiv and FloorDiv,
/// BF16 Muls): for them `operands` is FLOAT, which holds each exactly, and a
/// scalar is a float attribute.  Both must have the same lane type.
struct BinaryDtypes {
    BinaryDtypes(aclDataType dtype) noexcept : operands(dtype), result(dtype) {}  // NOLINT: one dtype for both
    BinaryDtypes(aclDataType operandDtype, aclDataType resultDtype) noexcept
        : operands(operandDtype), result(resultDtype) {}
    aclDataType operands;
    aclDataType result;
};

/// The tiling of a binary operator: CANN's graph makes a scalar operand a
/// tensor (ConvertToTensor), so its kernel always stages two operands and
/// its result, a third of UB each, in chunks of laneBytes per element (4 for
/// the fp32 vector path, up to 16 for COMPLEX128); blocks take whole 32-byte
/// UB blocks of out's dtype (tile_elementwise).  No workspace.
inline ElementwiseTiling tile_binary(int64_t numel, aclDataType outDtype, int64_t laneBytes, const SocProfile& soc) {
    return tile_elementwise(numel, 3, outDtype, laneBytes, soc);
}

/// One operand of the typed kernel: launch input `input` read over the
/// output's shape, or a scalar.
struct TypedOperand {
    bool isScalar = false;
    int input = 0;
    StridedLayout layout;
    ComputeValue scalar;  ///< in the operands' dtype
};

/// The typed kernel of a binary operator: per UB chunk, each tensor
/// operand's elements cast to the compute dtype's lane type (a scalar
/// operand filled in), Op::apply, the result rounded to the compute dtype
/// and cast into out.  Immutable; launch() may run concurrently.
template <class Op>
class TypedBinaryKernel final : public TypedKernel<TypedBinaryKernel<Op>> {
    using Base = TypedKernel<TypedBinaryKernel<Op>>;

public:
    using Params = typename Op::Params;
    template <class V>
    static constexpr bool computes = applies_binary_to<Op, V>::value;

    TypedBinaryKernel(const char* name, ElementwiseTiling tiling, std::array<TypedOperand, 2> operands,
                      int tensorInputs, StridedLayout out, BinaryDtypes dtypes, Params params) noexcept
        : Base(name, tiling, dtypes.result, tensorInputs), operands_(operands), out_(out),
          operandDtype_(dtypes.operands), params_(params) {}

    template <class V>
    aclError launch_as(const LaunchArgs& args) const noexcept {
        const int64_t chunk = this->tiling_.chunkElements;
        const int64_t laneBytes = UbStaging::workspace_stride(chunk * int64_t{sizeof(V)});
        const UbStaging staging = UbStaging::per_worker(2 * laneBytes);
        int64_t bytesPerElement = element_size(out_.dtype());
        for (const TypedOperand& operand : operands_) {
            if (!operand.isScalar) bytesPerElement += element_size(operand.layout.dtype());
        }
        return launch_block_slices(this->name_, this->tiling_.blocks, bytesPerElement, chunk,
                                   [&](const BlockSlice& slice) {
            std::byte* ub = staging.for_block(slice.block);
            V* lanes[2] = {reinterpret_cast<V*>(ub), reinterpret_cast<V*>(ub + laneBytes)};
            const auto round = [this](V lane) { return this->round(lane); };
            const auto cast = [this](V lane) { return round_lane(operandDtype_, lane); };
            for (int64_t begin = slice.units.begin; begin < slice.units.end; begin += chunk) {
                const int64_t n = std::min(chunk, slice.units.end - begin);
                for (int k = 0; k < 2; ++k) load_operand(operands_[k], args, begin, n, lanes[k], cast);
                for (int64_t i = 0; i < n; ++i) lanes[0][i] = round(Op::apply(lanes[0][i], lanes[1][i], params_));
                store_lanes(lanes[0], out_, args.outputs[0], begin, n);
            }
        });
    }

private:
    template <class V, class Cast>
    void load_operand(const TypedOperand& operand, const LaunchArgs& args, int64_t begin, int64_t n, V* lanes,
                      const Cast& cast) const {
        if (operand.isScalar) {
            std::fill(lanes, lanes + n, lane_value<V>(operand.scalar));
        } else {
            load_lanes(operand.layout, args.inputs[operand.input], begin, n, lanes, cast);
        }
    }

    std::array<TypedOperand, 2> operands_;
    StridedLayout out_;
    aclDataType operandDtype_;
    Params params_;
};

/// operand converted into operandDtype: its layout over shape (a tensor,
/// launch input `input`) or its value (a scalar).
TypedOperand typed_operand(const NamedArg& operand, int input, const Dims& shape, aclDataType operandDtype) noexcept;

/// True when operand is an empty tensor.
inline bool is_empty_tensor(const NamedArg& operand) noexcept { return !operand.isScalar && is_empty(operand.tensor); }

/// hand_back_kernel<Kernel> over the first `count` (1 or 2) of tensors and
/// out (an initializer_list's array lives only as long as its full
/// expression, so each count spells its own).
template <class Kernel, class... Args>
aclnnStatus hand_back_over(const std::array<const aclTensor*, 2>& tensors, int count, const aclTensor* out,
                           uint64_t* workspaceSize, aclOpExecutor** executor, Args&&... kernelArgs) {
    if (count == 2) {
        return hand_back_kernel<Kernel>({tensors[0], tensors[1]}, {out}, 0, workspaceSize, executor,
                                        std::forward<Args>(kernelArgs)...);
    }
    return hand_back_kernel<Kernel>({tensors[0]}, {out}, 0, workspaceSize, executor,
                                    std::forward<Args>(kernelArgs)...);
}

/// The end of phase 1 of a binary operator whose checks passed: the
/// executor computing out = Op(a, b) in dtypes, each operand a tensor
/// broadcast to out's shape or a scalar, or CANN's empty executor when a
/// tensor operand is empty.  The executor's inputs are the tensor operands
/// in the order a, b.
template <class Op>
aclnnStatus hand_back_binary(const char* api, const NamedArg& a, const NamedArg& b, const aclTensor* out,
                             BinaryDtypes dtypes, const typename Op::Params& params, uint64_t* workspaceSize,
                             aclOpExecutor** executor) {
    const std::array<NamedArg, 2> operands = {a, b};
    std::array<const aclTensor*, 2> tensors{};
    int tensorCount = 0;
    bool empty = false;
    for (const NamedArg& operand : operands) {
        if (operand.isScalar) continue;
        tensors[tensorCount++] = operand.tensor;
        empty = empty || is_empty_tensor(operand);
    }
    if (empty) {
        return tensorCount == 2 ? hand_back_empty_executor({tensors[0], tensors[1]}, {out}, workspaceSize, executor)
                                : hand_back_empty_executor({tensors[0]}, {out}, workspaceSize, executor);
    }
    for (const NamedArg& operand : operands) {
        if (!operand.isScalar) ACLCPU_RETURN_IF_ERROR(check_cast_kernel(api, operand.tensor, operand.name));
    }
    ACLCPU_RETURN_IF_ERROR(check_cast_kernel(api, out, "out"));
    for (const NamedArg& operand : operands) {
        if (!operand.isScalar) ACLCPU_RETURN_IF_ERROR(check_view_in_storage(operand.tensor, operand.name));
    }
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage(out, "out"));
    const StridedLayout outLayout = StridedLayout::of(view_of(out));
    const Dims& shape = view_of(out).shape;
    const int64_t numel = outLayout.numel();
    const std::array<TypedOperand, 2> typed = {typed_operand(a, 0, shape, dtypes.operands),
                                               typed_operand(b, a.isScalar ? 0 : 1, shape, dtypes.operands)};
    const bool exact = std::all_of(typed.begin(), typed.end(), [&](const TypedOperand& operand) {
        return operand.isScalar || gathers_as_cast(operand.layout.dtype(), dtypes.operands);
    });
    if (exact && unary_vector_path(dtypes.result, outLayout.dtype())) {
        using Params = typename Op::Params;
        const ElementwiseTiling tiling = tile_binary(numel, outLayout.dtype(), sizeof(float), soc_profile());
        if (tensorCount == 2) {
            const ElementwiseOperands<2> vectorOperands{{typed[0].layout, typed[1].layout}, outLayout, dtypes.result};
            return hand_back_over<ElementwiseKernel<2, Params, Op::vector.tensors>>(
                tensors, tensorCount, out, workspaceSize, executor, api, tiling, vectorOperands, params);
        }
        const TypedOperand& tensor = a.isScalar ? typed[1] : typed[0];
        const TypedOperand& scalar = a.isScalar ? typed[0] : typed[1];
        const ElementwiseOperands<1> vectorOperands{{tensor.layout}, outLayout, dtypes.result};
        const ScalarParams<Params> withScalar{params, lane_value<float>(scalar.scalar)};
        if (a.isScalar) {
            return hand_back_over<ElementwiseKernel<1, ScalarParams<Params>, Op::vector.scalarTensor>>(
                tensors, tensorCount, out, workspaceSize, executor, api, tiling, vectorOperands, withScalar);
        }
        return hand_back_over<ElementwiseKernel<1, ScalarParams<Params>, Op::vector.tensorScalar>>(
            tensors, tensorCount, out, workspaceSize, executor, api, tiling, vectorOperands, withScalar);
    }
    return hand_back_over<TypedBinaryKernel<Op>>(
        tensors, tensorCount, out, workspaceSize, executor, api,
        tile_binary(numel, outLayout.dtype(), lane_bytes(dtypes.result), soc_profile()), typed, tensorCount, outLayout,
        dtypes, params);
}

}  // namespace aclcpu::ops

/// Defines the entry points of binary operator `api` writing out: phase 1,
/// extern "C" with CANN's signature (const aclTensor* self, const Other*
/// other, Out* out, workspaceSize, executor), forwarding to impl(#api,
/// self, other, out, workspaceSize, executor); and phase 2.
#define ACLCPU_BINARY_ENTRY(api, Other, Out, impl)                                                       \
    extern "C" aclnnStatus api##GetWorkspaceSize(const aclTensor* self, const Other* other, Out* out,    \
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {    \
        return impl(#api, self, other, out, workspaceSize, executor);                                    \
    }                                                                                                    \
    ACLCPU_DEFINE_PHASE2(api)

/// The in-place form, (SelfRef* selfRef, const Other* other, workspaceSize,
/// executor): selfRef is both self and out.
#define ACLCPU_INPLACE_BINARY_ENTRY(api, SelfRef, Other, impl)                                           \
    extern "C" aclnnStatus api##GetWorkspaceSize(SelfRef* selfRef, const Other* other,                   \
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {    \
        return impl(#api, selfRef, other, selfRef, workspaceSize, executor);                             \
    }                                                                                                    \
    ACLCPU_DEFINE_PHASE2(api)

/// Binary operator aclnn<Name> (ACLCPU_BINARY_ENTRY, its out an Out*) and
/// its in-place form aclnnInplace<Name> (ACLCPU_INPLACE_BINARY_ENTRY, its
/// selfRef a SelfRef*), whose phase 1 inplaceImpl is impl itself unless
/// CANN checks the in-place form on its own.
#define ACLCPU_BINARY_ENTRIES(Name, Other, Out, impl, SelfRef, inplaceImpl) \
    ACLCPU_BINARY_ENTRY(aclnn##Name, Other, Out, impl)                     \
    ACLCPU_INPLACE_BINARY_ENTRY(aclnnInplace##Name, SelfRef, Other, inplaceImpl)
