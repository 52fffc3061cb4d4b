// acl-cpu ops/common: one elementwise function over lists of tensors -- the
// engine of the foreach family and of the optimisers (ops/foreach,
// ops/optim).
//
// An operator takes NIn input lists and NOut output lists of T tensors each,
// tensor t of every list having the same number of elements; its fp32
// function maps the NIn input elements at one position to the NOut output
// elements there (tensor_lists-inl.h).  The launch is ONE kernel over the
// concatenation of the lists' tensors, as CANN's foreach kernels run: the
// blocks split the total element count (a block may span several tensors and
// a tensor several blocks), and each block walks its range tensor by tensor
// in UB chunks -- inputs gathered to fp32 staging, the function computed,
// each output rounded to its dtype and scattered through its view.  Every
// element's result depends on its inputs only: the same for any tiling or
// worker count.
#pragma once

#include "common/internal.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <utility>
#include <vector>

#include "acl/acl_base.h"
#include "aclcpu/nnopbase.hpp"
#include "common/block_launch.hpp"
#include "common/elementwise.hpp"
#include "common/strided_layout.hpp"

namespace aclcpu::ops {

/// The tensors of a list operator's launch.  layouts holds, list-major, the
/// inputs' lists then the outputs' lists, T layouts each; the launch's
/// address tables hold the same tensors in the same order (inputs then any
/// extra inputs, see TensorListKernel).  Empty tensors are left out of
/// every list (their positions carry nothing), so T counts the non-empty
/// ones.
struct TensorListOperands {
    size_t inputLists = 0;
    size_t outputLists = 0;
    int64_t tensors = 0;
    std::vector<StridedLayout> layouts;
    /// starts[t] is the position of tensor t's first element in the
    /// concatenation; starts[T] the total.
    std::vector<int64_t> starts{0};
    /// direct[t]: every operand of tensor t is linear FLOAT, so a block
    /// computes it in device memory without staging.
    std::vector<char> direct;

    const StridedLayout& input(size_t list, int64_t t) const noexcept { return layouts[list * tensors + t]; }
    const StridedLayout& output(size_t list, int64_t t) const noexcept {
        return layouts[(inputLists + list) * tensors + t];
    }
    int64_t numel() const noexcept { return starts.back(); }
};

/// The lists of tensors of an operator as phase 1 hands them to the engine
/// and to the executor: inputs[k][t], outputs[j][t], every list as long as
/// inputs[0], tensor t of every list as many elements as inputs[0][t]
/// (phase 1 checked it).
struct TensorLists {
    std::vector<std::vector<const aclTensor*>> inputs;
    std::vector<std::vector<const aclTensor*>> outputs;

    /// The operands, empty tensors left out.
    TensorListOperands operands() const;
    /// The executor's address tables in the operands' order (empty tensors
    /// left out), extraInputs appended to the inputs.
    std::vector<const aclTensor*> flat_inputs(std::initializer_list<const aclTensor*> extraInputs = {}) const;
    std::vector<const aclTensor*> flat_outputs() const;
};

/// One launch of a list operator: what each block reads.
struct TensorListJob {
    const ElementwiseTiling& tiling;
    const TensorListOperands& operands;
    const LaunchArgs& args;
    UbStaging staging;
};

/// Calls run(t, local, n) for the pieces of elements [range.begin,
/// range.end) of the lists' concatenation, in order: tensor t's elements
/// [local, local + n), at most chunk of them at a time.
template <class Run>
void for_each_tensor_piece(const TensorListOperands& operands, Range range, int64_t chunk, Run&& run) {
    // The tensor holding the range's first element; the range goes on tensor by tensor.
    int64_t t = std::upper_bound(operands.starts.begin(), operands.starts.end(), range.begin) -
                operands.starts.begin() - 1;
    for (int64_t at = range.begin; at < range.end;) {
        while (operands.starts[t + 1] <= at) ++t;
        const int64_t n = std::min({chunk, range.end - at, operands.starts[t + 1] - at});
        run(t, at - operands.starts[t], n);
        at += n;
    }
}

/// UB bytes a block stages: a chunk of fp32 per list, each padded to whole
/// vectors of the widest target and aligned (tensor_lists-inl.h computes in
/// whole vectors).
int64_t tensor_list_staging_slot(int64_t chunkElements) noexcept;

/// The flat tiling of a list operator: the elementwise engine's over the
/// total element count, every list's chunk staged in UB.
ElementwiseTiling tile_tensor_lists(const TensorListOperands& operands, aclDataType blockDtype);

/// ACL_SUCCESS when every address of the job's lists and its extraInputs
/// extra inputs is non-null; otherwise the fault check_tensor_addresses reports.
aclError check_tensor_list_addresses(const char* opName, const TensorListJob& job, size_t extraInputs) noexcept;

/// Runs block(slice) for every slice of the tiling's blocks, cut at UB
/// chunk boundaries (as run_elementwise does).
aclError run_tensor_lists(const char* opName, const TensorListJob& job,
                          BorrowedCall<void(const BlockSlice& slice)> block) noexcept;

namespace detail {
template <class Params, class = void>
struct ResolvesAtLaunch : std::false_type {};
template <class Params>
struct ResolvesAtLaunch<Params, std::void_t<decltype(std::declval<const Params&>().at_launch(
                                    std::declval<const void* const*>()))>> : std::true_type {};
}  // namespace detail

/// The planned launch of a list operator: Block (a Highway dispatcher, see
/// ACLCPU_TENSOR_LIST_DISPATCH) computes one slice with the operator's
/// Params.  Params that depend on device memory (AdamW's step) define
/// `Params at_launch(const void* const* extraInputs) const`, called once per
/// launch, after the address check, with the addresses of the extraInputs
/// inputs that follow the lists'.  Immutable; launch() may run concurrently.
template <class Params, void (*Block)(const TensorListJob&, const BlockSlice&, const Params&)>
class TensorListKernel final : public TiledKernel {
public:
    TensorListKernel(const char* name, TensorListOperands operands, aclDataType blockDtype, Params params,
                     size_t extraInputs = 0)
        : TiledKernel(name, tile_tensor_lists(operands, blockDtype)), operands_(std::move(operands)),
          params_(params), extraInputs_(extraInputs) {}

    aclError launch(const LaunchArgs& args) const noexcept override {
        const int64_t lists = static_cast<int64_t>(operands_.inputLists + operands_.outputLists);
        const TensorListJob job{tiling_, operands_, args,
                                UbStaging::per_worker(lists * tensor_list_staging_slot(tiling_.chunkElements))};
        if (aclError status = check_tensor_list_addresses(name_, job, extraInputs_); status != ACL_SUCCESS) {
            return status;
        }
        const Params params = resolved(args);
        return run_tensor_lists(name_, job, [&](const BlockSlice& slice) { Block(job, slice, params); });
    }

private:
    TensorListOperands operands_;
    Params params_;
    size_t extraInputs_;

    Params resolved(const LaunchArgs& args) const noexcept {
        if constexpr (detail::ResolvesAtLaunch<Params>::value) {
            return params_.at_launch(args.inputs + operands_.inputLists * operands_.tensors);
        } else {
            return params_;
        }
    }
};

}  // namespace aclcpu::ops

/// An operator's block function in its kernel.cpp (see
/// ACLCPU_ELEMENTWISE_TARGET_BLOCK): inside HWY_NAMESPACE,
/// ACLCPU_TENSOR_LIST_TARGET_BLOCK defines `name` for the target, computing
/// NIn -> NOut lists with the functor Op{{params}}; inside `#if HWY_ONCE`,
/// ACLCPU_TENSOR_LIST_DISPATCH defines aclcpu::ops::name, the dispatcher
/// TensorListKernel<Params, name> calls.
#define ACLCPU_TENSOR_LIST_TARGET_BLOCK(name, NIn, NOut, Params, Op)                     \
    void name(const TensorListJob& job, const BlockSlice& slice, const Params& params) { \
        tensor_list_slice<NIn, NOut>(job, slice, Op{{params}});                          \
    }
#define ACLCPU_TENSOR_LIST_DISPATCH(name, Params)                                        \
    namespace aclcpu::ops {                                                              \
    HWY_EXPORT(name);                                                                    \
    void name(const TensorListJob& job, const BlockSlice& slice, const Params& params) { \
        HWY_DYNAMIC_DISPATCH(name)(job, slice, params);                                  \
    }                                                                                    \
    }
#define ACLCPU_DECLARE_TENSOR_LIST_BLOCK(name, Params) \
    void name(const TensorListJob& job, const BlockSlice& slice, const Params& params);
