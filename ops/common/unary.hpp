// acl-cpu ops/common: the unary engine -- everything an elementwise operator
// with one tensor input and one output does after its own checks.
//
// CANN's op_api code of such an operator checks its arguments, then runs
// Contiguous(self) -> Cast(computeDtype) -> the kernel -> Cast(out) ->
// ViewCopy(out).  An operator here is the same two halves:
//   - its checks, in its CANN order, from the primitives of op_checks.hpp,
//     and the dtype its graph computes in;
//   - its arithmetic, an Op type:
//       Op::Params    its parameters (an empty struct when it has none);
//       Op::vector    its fp32 vector block (ACLCPU_ELEMENTWISE_DISPATCH), for
//                     the FLOAT, FLOAT16 and BF16 compute dtypes (both from
//                     VectorOp<block>, which an Op derives from);
//       Op::apply     `V apply(V x, const Params&)` for each lane type V of
//                     the typed path (typed_lanes.hpp) its dtypes need:
//                     float and double, complex64_t and complex128_t,
//                     int64_t for integer compute dtypes.
// and hand_back_unary<Op> does the rest: the empty-tensor ending, acl-cpu's
// storage guard, the tiling, and the choice of path -- the vector kernel when
// the result is stored as a float, the typed kernel otherwise.
#pragma once

#include "common/internal.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "aclcpu/nnopbase.hpp"
#include "aclcpu/soc_profile.hpp"
#include "common/elementwise.hpp"
#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/typed_lanes.hpp"

namespace aclcpu::ops {

/// The Params of an operator without parameters.
struct NoParams {};

/// The Params of a vector block: P of a `void (const ElementwiseJob<N>&,
/// const BlockSlice&, const P&)` (and of binary.hpp's BinaryBlocks<P>).
template <class Vector>
struct vector_params;
template <size_t N, class P>
struct vector_params<void(const ElementwiseJob<N>&, const BlockSlice&, const P&)> {
    using type = P;
};

/// An Op's vector block(s) and, from them, its Params: an Op derives from
/// VectorOp<its_block> and adds its apply overloads.
template <auto& kVector>
struct VectorOp {
    using Params = typename vector_params<std::remove_cv_t<std::remove_reference_t<decltype(kVector)>>>::type;
    static constexpr auto& vector = kVector;
};

/// Return types that restrict an Op's apply overloads to the lane types
/// they are written for: `template <class T> static if_real<T> apply(T x, ...)`.
template <class T>
using if_real = std::enable_if_t<std::is_floating_point_v<T>, T>;
template <class T>
using if_complex = std::enable_if_t<is_complex_v<T>, T>;

template <class V, size_t>
using lane_of = V;

template <class Op, class V, class Inputs, class = void>
struct applies_to_lanes : std::false_type {};
template <class Op, class V, size_t... K>
struct applies_to_lanes<Op, V, std::index_sequence<K...>,
                        std::void_t<decltype(Op::apply(std::declval<lane_of<V, K>>()...,
                                                       std::declval<const typename Op::Params&>()))>>
    : std::is_same<decltype(Op::apply(std::declval<lane_of<V, K>>()..., std::declval<const typename Op::Params&>())),
                   V> {};

/// True when Op has an apply of N lanes of type V.
template <class Op, class V, size_t N = 1>
using applies_to = applies_to_lanes<Op, V, std::make_index_sequence<N>>;

/// What the typed kernels of the engines share: the name, tiling (TiledKernel)
/// and compute dtype, the check of the launch's addresses, and the dispatch to
/// Derived::launch_as<V> for the lane type V of the compute dtype -- when
/// Derived::computes<V>; otherwise phase 1 chose a compute dtype the
/// operator has no arithmetic for, an internal error.
template <class Derived>
class TypedKernel : public TiledKernel {
public:
    TypedKernel(const char* name, ElementwiseTiling tiling, aclDataType computeDtype, int tensorInputs) noexcept
        : TiledKernel(name, tiling), computeDtype_(computeDtype), tensorInputs_(tensorInputs) {}

    aclError launch(const LaunchArgs& args) const noexcept override {
        if (aclError status = check_tensor_addresses(name_, args, tensorInputs_, 1); status != ACL_SUCCESS) {
            return status;
        }
        return visit_lane_type(computeDtype_, [&](auto tag) -> aclError {
            using V = decltype(tag);
            if constexpr (Derived::template computes<V>) {
                return static_cast<const Derived&>(*this).template launch_as<V>(args);
            } else {
                report_error(ACL_ERROR_RT_INTERNAL_ERROR, kAclnnInnerTag, "%s has no kernel for %s.", name_,
                             dtype_name(computeDtype_));
                return ACL_ERROR_RT_INTERNAL_ERROR;
            }
        });
    }

protected:
    /// v as the compute dtype holds it.
    template <class V>
    V round(V v) const noexcept { return round_lane(computeDtype_, v); }

    aclDataType computeDtype_;
    int tensorInputs_;
};

/// The typed kernel of an elementwise operator with N inputs: per UB chunk,
/// each input's elements (read over the output's shape) cast to the compute
/// dtype's lane type, Op::apply(lane_0, ..., lane_N-1, params), the result
/// rounded to the compute dtype and cast into out.  Immutable; launch() may
/// run concurrently.
template <size_t N, class Op>
class TypedElementwiseKernel final : public TypedKernel<TypedElementwiseKernel<N, Op>> {
    using Base = TypedKernel<TypedElementwiseKernel<N, Op>>;

public:
    using Params = typename Op::Params;
    template <class V>
    static constexpr bool computes = applies_to<Op, V, N>::value;

    TypedElementwiseKernel(const char* name, ElementwiseTiling tiling, std::array<StridedLayout, N> inputs,
                           StridedLayout out, aclDataType computeDtype, Params params) noexcept
        : Base(name, tiling, computeDtype, static_cast<int>(N)), inputs_(inputs), out_(out), params_(params) {}

    template <class V>
    aclError launch_as(const LaunchArgs& args) const noexcept {
        return launch_lanes<V>(args, std::make_index_sequence<N>());
    }

private:
    template <class V, size_t... K>
    aclError launch_lanes(const LaunchArgs& args, std::index_sequence<K...>) const noexcept {
        const int64_t chunk = this->tiling_.chunkElements;
        const int64_t slot = UbStaging::workspace_stride(chunk * int64_t{sizeof(V)});
        const UbStaging staging = UbStaging::per_worker(static_cast<int64_t>(N) * slot);
        int64_t bytesPerElement = element_size(out_.dtype());
        for (const StridedLayout& input : inputs_) bytesPerElement += element_size(input.dtype());
        return launch_block_slices(this->name_, this->tiling_.blocks, bytesPerElement, chunk,
                                   [&](const BlockSlice& slice) {
            std::byte* ub = staging.for_block(slice.block);
            const std::array<V*, N> lanes{reinterpret_cast<V*>(ub + static_cast<int64_t>(K) * slot)...};
            const auto round = [this](V lane) { return this->round(lane); };
            for (int64_t begin = slice.units.begin; begin < slice.units.end; begin += chunk) {
                const int64_t n = std::min(chunk, slice.units.end - begin);
                (load_lanes(inputs_[K], args.inputs[K], begin, n, lanes[K], round), ...);
                for (int64_t i = 0; i < n; ++i) lanes[0][i] = round(Op::apply(lanes[K][i]..., params_));
                store_lanes(lanes[0], out_, args.outputs[0], begin, n);
            }
        });
    }

    std::array<StridedLayout, N> inputs_;
    StridedLayout out_;
    Params params_;
};

/// Whether the vector kernel reads an input of dtype as CANN's Cast into
/// computeDtype gives it.  gather() converts to fp32 with one rounding, which
/// is the Cast into FLOAT; a FLOAT16 or BF16 compute dtype, which the input
/// is not rounded to, needs an input it holds exactly (its own dtype, BOOL,
/// INT8, UINT8).
bool gathers_as_cast(aclDataType dtype, aclDataType computeDtype) noexcept;

/// Whether the vector kernel computes a unary operator in computeDtype into
/// out exactly as CANN's graph does: an fp32-lane compute dtype, and an out
/// that scatter() stores (a float of any width).
inline bool unary_vector_path(aclDataType computeDtype, aclDataType outDtype) noexcept {
    const auto fp32Lanes = [](aclDataType dtype) {
        return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16;
    };
    return fp32Lanes(computeDtype) && (fp32Lanes(outDtype) || outDtype == ACL_DOUBLE);
}

/// The kernel of an elementwise operator with N inputs whose views phase 1
/// checked: out = Op(inputs...) in computeDtype, each input read over out's
/// shape as laid out in layouts; the vector kernel when the result is
/// stored as a float (unary_vector_path) from inputs it reads as CANN's Cast
/// does (gathers_as_cast), the typed kernel otherwise.
/// tensors are the executor's inputs, in declaration order.
template <size_t N, class Op>
aclnnStatus hand_back_elementwise(const char* api, TensorList tensors, const std::array<StridedLayout, N>& layouts,
                                  const aclTensor* out, aclDataType computeDtype, const typename Op::Params& params,
                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
    const StridedLayout outLayout = StridedLayout::of(view_of(out));
    const int64_t numel = outLayout.numel();
    const bool gathersAsCast = std::all_of(layouts.begin(), layouts.end(), [&](const StridedLayout& layout) {
        return gathers_as_cast(layout.dtype(), computeDtype);
    });
    if (gathersAsCast && unary_vector_path(computeDtype, outLayout.dtype())) {
        const ElementwiseOperands<N> operands{layouts, outLayout, computeDtype};
        return hand_back_kernel<ElementwiseKernel<N, typename Op::Params, Op::vector>>(
            tensors, {out}, 0, workspaceSize, executor, api,
            tile_elementwise(numel, N + 1, computeDtype, sizeof(float), soc_profile()), operands, params);
    }
    return hand_back_kernel<TypedElementwiseKernel<N, Op>>(
        tensors, {out}, 0, workspaceSize, executor, api,
        tile_elementwise(numel, N, outLayout.dtype(), lane_bytes(computeDtype), soc_profile()), layouts, outLayout,
        computeDtype, params);
}

/// A tensor of a dtype no Cast kernel reads or writes (an unused code,
/// STRING, the 8-bit floats, COMPLEX32 -- which CanCast, or a check of the
/// promoted dtype only, lets through): CANN's graph fails at its Cast,
/// l0op::Cast giving nullptr -> 561103.
inline aclnnStatus check_cast_kernel(const char* api, const aclTensor* tensor, const char* name) {
    if (has_element_type(view_of(tensor).dtype)) return ACLNN_SUCCESS;
    report_error(ACLNN_ERR_INNER_NULLPTR, kAclnnInnerTag, "%s: no Cast kernel takes %s's dtype %s.", api, name,
                 dtype_name(view_of(tensor).dtype));
    return ACLNN_ERR_INNER_NULLPTR;
}

/// The end of phase 1 of a unary operator whose checks passed: the
/// executor computing out = Op(self) in computeDtype (what CANN's graph
/// casts self to), or CANN's empty executor when self is empty.
template <class Op>
aclnnStatus hand_back_unary(const char* api, const aclTensor* self, const aclTensor* out, aclDataType computeDtype,
                            const typename Op::Params& params, uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (is_empty(self)) return hand_back_empty_executor({self}, {out}, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_cast_kernel(api, out, "out"));
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{self, "self"}, {out, "out"}}));
    return hand_back_elementwise<1, Op>(api, {self}, {StridedLayout::of(view_of(self))}, out, computeDtype, params,
                                        workspaceSize, executor);
}

}  // namespace aclcpu::ops
