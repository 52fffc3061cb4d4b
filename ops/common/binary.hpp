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
// Cast gives it (gathers_as_cast) and out is a float (a scalar operand rides in the Params), the typed
// kernel (typed_lanes.hpp) otherwise.
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

/// Declares the dispatchers binary-inl.h's ACLCPU_BINARY_DISPATCH defines
/// and the BinaryBlocks `name` holding them.
#define ACLCPU_DECLARE_BINARY_BLOCKS(name, Params)                                                         \
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

/// A scalar operand as the typed path holds it: CANN's ConvertToTensor of
/// it into the compute dtype, for every lane type.
struct ScalarLanes {
    complex128_t value;
    int64_t integer;

    template <class V>
    V as(aclDataType computeDtype) const noexcept {
        if constexpr (std::is_same_v<V, int64_t>) {
            return round_lane(computeDtype, integer);
        } else if constexpr (is_complex_v<V>) {
            return V(static_cast<typename V::value_type>(value.real()),
                     static_cast<typename V::value_type>(value.imag()));
        } else {
            return round_lane(computeDtype, static_cast<V>(value.real()));
        }
    }
};

/// One operand of the typed kernel: launch input `input` read over the
/// output's shape, or a scalar.
struct TypedOperand {
    bool isScalar = false;
    int input = 0;
    StridedLayout layout;
    ScalarLanes scalar{};
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
                      int tensorInputs, StridedLayout out, aclDataType computeDtype, Params params) noexcept
        : Base(name, tiling, computeDtype, tensorInputs), operands_(operands), out_(out), params_(params) {}

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
            for (int64_t begin = slice.units.begin; begin < slice.units.end; begin += chunk) {
                const int64_t n = std::min(chunk, slice.units.end - begin);
                for (int k = 0; k < 2; ++k) load_operand(operands_[k], args, begin, n, lanes[k], round);
                for (int64_t i = 0; i < n; ++i) lanes[0][i] = round(Op::apply(lanes[0][i], lanes[1][i], params_));
                store_lanes(lanes[0], out_, args.outputs[0], begin, n);
            }
        });
    }

private:
    template <class V, class Round>
    void load_operand(const TypedOperand& operand, const LaunchArgs& args, int64_t begin, int64_t n, V* lanes,
                      const Round& round) const {
        if (operand.isScalar) {
            std::fill(lanes, lanes + n, operand.scalar.as<V>(this->computeDtype_));
        } else {
            load_lanes(operand.layout, args.inputs[operand.input], begin, n, lanes, round);
        }
    }

    std::array<TypedOperand, 2> operands_;
    StridedLayout out_;
    Params params_;
};

/// operand converted into the compute dtype: its layout over shape (a
/// tensor, launch input `input`) or its value (a scalar).
TypedOperand typed_operand(const NamedArg& operand, int input, const Dims& shape, aclDataType computeDtype) noexcept;

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
/// executor computing out = Op(a, b) in computeDtype, each operand a tensor
/// broadcast to out's shape or a scalar, or CANN's empty executor when a
/// tensor operand is empty.
template <class Op>
aclnnStatus hand_back_binary(const char* api, const NamedArg& a, const NamedArg& b, const aclTensor* out,
                             aclDataType computeDtype, const typename Op::Params& params, uint64_t* workspaceSize,
                             aclOpExecutor** executor) {
    const std::array<NamedArg, 2> operands = {a, b};
    std::array<const aclTensor*, 2> tensors{};
    int tensorCount = 0;
    bool empty = false;
    for (const NamedArg& operand : operands) {
        if (operand.isScalar) continue;
        tensors[tensorCount++] = operand.tensor;
        empty = empty || is_empty(operand.tensor);
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
    const std::array<TypedOperand, 2> typed = {typed_operand(a, 0, shape, computeDtype),
                                               typed_operand(b, a.isScalar ? 0 : 1, shape, computeDtype)};
    const bool exact = std::all_of(typed.begin(), typed.end(), [&](const TypedOperand& operand) {
        return operand.isScalar || gathers_as_cast(operand.layout.dtype(), computeDtype);
    });
    if (exact && unary_vector_path(computeDtype, outLayout.dtype())) {
        using Params = typename Op::Params;
        const ElementwiseTiling tiling =
            tile_elementwise(numel, tensorCount + 1, computeDtype, sizeof(float), soc_profile());
        if (tensorCount == 2) {
            const ElementwiseOperands<2> vectorOperands{{typed[0].layout, typed[1].layout}, outLayout, computeDtype};
            return hand_back_over<ElementwiseKernel<2, Params, Op::vector.tensors>>(
                tensors, tensorCount, out, workspaceSize, executor, api, tiling, vectorOperands, params);
        }
        const TypedOperand& tensor = a.isScalar ? typed[1] : typed[0];
        const TypedOperand& scalar = a.isScalar ? typed[0] : typed[1];
        const ElementwiseOperands<1> vectorOperands{{tensor.layout}, outLayout, computeDtype};
        const ScalarParams<Params> withScalar{params, scalar.scalar.as<float>(computeDtype)};
        if (a.isScalar) {
            return hand_back_over<ElementwiseKernel<1, ScalarParams<Params>, Op::vector.scalarTensor>>(
                tensors, tensorCount, out, workspaceSize, executor, api, tiling, vectorOperands, withScalar);
        }
        return hand_back_over<ElementwiseKernel<1, ScalarParams<Params>, Op::vector.tensorScalar>>(
            tensors, tensorCount, out, workspaceSize, executor, api, tiling, vectorOperands, withScalar);
    }
    return hand_back_over<TypedBinaryKernel<Op>>(
        tensors, tensorCount, out, workspaceSize, executor, api,
        tile_elementwise(numel, tensorCount + 1, outLayout.dtype(), lane_bytes(computeDtype), soc_profile()), typed,
        tensorCount, outLayout, computeDtype, params);
}

}  // namespace aclcpu::ops
