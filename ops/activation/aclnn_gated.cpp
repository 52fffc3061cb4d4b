// acl-cpu: the gated activations of CANN's ops-nn -- aclnnSwiGlu and its
// gradient aclnnSwiGluGrad (activation/swi_glu, swi_glu_grad; their op_api
// sources are not published: the checks follow their docs) and aclnnGeGlu,
// aclnnGeGluV3
// (activation/ge_glu_v2/op_host/op_api/aclnn_geglu.cpp).  x is split in two
// halves along dim; gated_kernel.hpp has the arithmetic.
//
// Neither CANN entry checks workspaceSize and executor: acl-cpu does after
// the arguments, where CANN would crash, and answers 161001.
#include "aclnnop/aclnn_geglu.h"
#include "aclnnop/aclnn_swi_glu.h"
#include "aclnnop/aclnn_swi_glu_grad.h"

#include <cstdint>

#include "activation/activation_kernel.hpp"
#include "activation/gated_kernel.hpp"
#include "aclcpu/soc_profile.hpp"
#include "common/op_checks.hpp"
#include "common/phase2.hpp"

namespace aclcpu::ops {
namespace {

constexpr DtypeList kGatedDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_BF16};

/// dim within [-rank, rank - 1] (rank 0 counting as 1) -> else 161002.
aclnnStatus check_split_dim(int64_t rank, int64_t dim, int64_t* splitDim) {
    const int64_t dims = rank == 0 ? 1 : rank;
    if (dim < -dims || dim > dims - 1) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Expected dim value %ld to be in range [%ld, %ld] but check failed.",
                           static_cast<long>(dim), static_cast<long>(-dims), static_cast<long>(dims - 1));
    }
    *splitDim = dim < 0 ? dims + dim : dim;
    return ACLNN_SUCCESS;
}

/// Size of dimension d of a view, 0 past its rank (op::Shape's unset dims).
int64_t dim_size(const Dims& shape, int64_t d) { return d < static_cast<int64_t>(shape.size()) ? shape[d] : 0; }

/// CheckSliceDimSizes and CheckOtherDimsMatch: x's split dim even, each
/// output's rank x's, its split dim half of x's and its other dims x's.
aclnnStatus check_halved_shape(const aclTensor* x, int64_t rank, int64_t splitDim, NamedArgs outputs) {
    const Dims& shape = view_of(x).shape;
    const int64_t size = dim_size(shape, splitDim);
    if (size % 2 != 0) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "selfSliceDimSize[%ld] must be even number.",
                           static_cast<long>(size));
    }
    for (const NamedArg& output : outputs) {
        if (dim_size(view_of(output.tensor).shape, splitDim) != size / 2) {
            return param_error(ACLNN_ERR_PARAM_INVALID, "Expected %s slice dim size to be equal to %ld.", output.name,
                               static_cast<long>(size / 2));
        }
    }
    for (const NamedArg& output : outputs) {
        const Dims& outShape = view_of(output.tensor).shape;
        bool match = static_cast<int64_t>(outShape.size()) == rank;
        for (int64_t d = 0; match && d < rank; ++d) match = d == splitDim || outShape[d] == dim_size(shape, d);
        if (!match) {
            return param_error(ACLNN_ERR_PARAM_INVALID,
                               "Except the slice dim, all other shape dims of %s must be those of the input.",
                               output.name);
        }
    }
    return ACLNN_SUCCESS;
}

/// The view of one half of x along splitDim (second: the upper half).
TensorView half_of(const aclTensor* x, int64_t splitDim, bool second) {
    TensorView view = view_of(x);
    const int64_t half = view.shape[splitDim] / 2;
    view.shape[splitDim] = half;
    if (second) view.offset += half * view.strides[splitDim];
    return view;
}

/// The launch of a gated activation whose checks passed: out (and outGelu
/// when geluBlock is set) from the activated and the other half of x.
aclnnStatus hand_back_gated(const char* api, const aclTensor* x, int64_t splitDim, bool activateUpper,
                            GateBlock gateBlock, GateParams params, const aclTensor* out, const aclTensor* outGelu,
                            GeluBlock geluBlock, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{x, "x"}, {out, "out"}}));
    if (outGelu != nullptr) ACLCPU_RETURN_IF_ERROR(check_view_in_storage(outGelu, "outGelu"));
    const aclDataType dtype = view_of(x).dtype;
    const StridedLayout activated = StridedLayout::of(half_of(x, splitDim, activateUpper));
    const StridedLayout other = StridedLayout::of(half_of(x, splitDim, !activateUpper));
    const StridedLayout outLayout = StridedLayout::of(view_of(out));
    // x fills input slot 0 and is read through both halves' layouts.
    const GatedPass<2, GateParams> gate{{{activated, other}, outLayout, dtype}, gateBlock, params, {0, 0}, 0};
    GatedPass<1, NoParams> gelu;
    if (outGelu != nullptr) gelu = {{{activated}, StridedLayout::of(view_of(outGelu)), dtype}, geluBlock, {}, {0}, 1};
    const ElementwiseTiling tiling = tile_elementwise(outLayout.numel(), 3, dtype, sizeof(float), soc_profile());
    using Kernel = GatedKernel<2, GateParams, 1, NoParams>;
    if (outGelu == nullptr) {
        return hand_back_kernel<Kernel>({x}, {out}, 0, workspaceSize, executor, api, tiling, gate, gelu);
    }
    return hand_back_kernel<Kernel>({x}, {out, outGelu}, 0, workspaceSize, executor, api, tiling, gate, gelu);
}

// ---- SwiGlu (docs/aclnnSwiGlu.md) ---------------------------------------------

aclnnStatus phase1_swiglu(const aclTensor* x, int64_t dim, const aclTensor* out, uint64_t* workspaceSize,
                          aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{x, "x"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{x, "x"}, {out, "out"}}, kGatedDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(out, "out", view_of(x).dtype));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{x, "x"}, {out, "out"}}));
    const int64_t rank = static_cast<int64_t>(view_of(x).shape.size());
    if (rank == 0) return param_error(ACLNN_ERR_PARAM_INVALID, "x must have at least one dimension.");
    int64_t splitDim = 0;
    ACLCPU_RETURN_IF_ERROR(check_split_dim(rank, dim, &splitDim));
    ACLCPU_RETURN_IF_ERROR(check_halved_shape(x, rank, splitDim, {{out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    if (is_empty(x)) return hand_back_empty_executor({x}, {out}, workspaceSize, executor);
    GateParams params;
    params.sigmoidThenMultiply = view_of(x).dtype == ACL_FLOAT;
    // Swish of the lower half A, times the upper half B.
    return hand_back_gated("aclnnSwiGlu", x, splitDim, false, &swiglu_block, params, out, nullptr, nullptr,
                           workspaceSize, executor);
}

// ---- SwiGluGrad (docs/aclnnSwiGluGrad.md) -------------------------------------

/// The doc's checks: null (161001); dtypes of yGrad, x, out and their
/// agreement; dim; yGrad x's shape with dim halved, out x's shape (161002).
aclnnStatus phase1_swiglu_grad(const aclTensor* yGrad, const aclTensor* x, int64_t dim, const aclTensor* out,
                               uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{yGrad, "yGrad"}, {x, "x"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{yGrad, "yGrad"}, {x, "x"}, {out, "out"}}, kGatedDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(yGrad, "yGrad", view_of(x).dtype));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(out, "out", view_of(x).dtype));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{yGrad, "yGrad"}, {x, "x"}, {out, "out"}}));
    const int64_t rank = static_cast<int64_t>(view_of(x).shape.size());
    if (rank == 0) return param_error(ACLNN_ERR_PARAM_INVALID, "x must have at least one dimension.");
    int64_t splitDim = 0;
    ACLCPU_RETURN_IF_ERROR(check_split_dim(rank, dim, &splitDim));
    ACLCPU_RETURN_IF_ERROR(check_halved_shape(x, rank, splitDim, {{yGrad, "yGrad"}}));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(out, "out", x, "x"));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    if (is_empty(x)) return hand_back_empty_executor({yGrad, x}, {out}, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{yGrad, "yGrad"}, {x, "x"}, {out, "out"}}));
    const aclDataType dtype = view_of(x).dtype;
    const StridedLayout a = StridedLayout::of(half_of(x, splitDim, false));
    const StridedLayout b = StridedLayout::of(half_of(x, splitDim, true));
    const StridedLayout l = StridedLayout::of(view_of(yGrad));
    // Input slots: yGrad 0, x 1 (read through both halves); both passes write out.
    const GatedPass<3, NoParams> gradA{
        {{a, b, l}, StridedLayout::of(half_of(out, splitDim, false)), dtype}, &swiglu_grad_a_block, {}, {1, 1, 0}, 0};
    const GatedPass<3, NoParams> gradB{
        {{a, b, l}, StridedLayout::of(half_of(out, splitDim, true)), dtype}, &swiglu_grad_b_block, {}, {1, 1, 0}, 0};
    const ElementwiseTiling tiling = tile_elementwise(l.numel(), 4, dtype, sizeof(float), soc_profile());
    return hand_back_kernel<GatedKernel<3, NoParams, 3, NoParams>>({yGrad, x}, {out}, 0, workspaceSize, executor,
                                                                   "aclnnSwiGluGrad", tiling, gradA, gradB);
}

// ---- GeGlu, GeGluV3 (activation/ge_glu_v2/op_host/op_api/aclnn_geglu.cpp) -----

/// GeGlu's approximate: 0 "none" (the erf form), 1 "tanh".
constexpr int64_t kGeGluTanh = 1;

aclnnStatus phase1_geglu(const char* api, const aclTensor* self, int64_t dim, int64_t approximate,
                         bool activateLeft, const aclTensor* out, const aclTensor* outGelu, uint64_t* workspaceSize,
                         aclOpExecutor** executor) {
    // CheckNotNull, CheckDtypeValid (out's and outGelu's dtype match self's
    // unless self is empty or of rank 0), CheckShape, checkApproximate.
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {out, "out"}, {outGelu, "outGelu"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{self, "self"}, {out, "out"}, {outGelu, "outGelu"}}, kGatedDtypes));
    const int64_t rank = static_cast<int64_t>(view_of(self).shape.size());
    const bool nothingToDo = is_empty(self) || rank == 0;
    if (!nothingToDo) {
        ACLCPU_RETURN_IF_ERROR(check_dtype_is(out, "out", view_of(self).dtype));
        ACLCPU_RETURN_IF_ERROR(check_dtype_is(outGelu, "outGelu", view_of(self).dtype));
    }
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{self, "self"}, {out, "out"}, {outGelu, "outGelu"}}));
    int64_t splitDim = 0;
    ACLCPU_RETURN_IF_ERROR(check_split_dim(rank, dim, &splitDim));
    ACLCPU_RETURN_IF_ERROR(
        check_halved_shape(self, rank == 0 ? 1 : rank, splitDim, {{out, "out"}, {outGelu, "outGelu"}}));
    if (approximate < 0 || approximate > kGeGluTanh) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Approximate should be 0 or 1, but current is %ld",
                           static_cast<long>(approximate));
    }
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    if (nothingToDo) return hand_back_empty_executor({self}, {out, outGelu}, workspaceSize, executor);
    GateParams params;
    params.erf = approximate != kGeGluTanh;
    params.roundGeluToHalf = view_of(self).dtype == ACL_FLOAT16;
    // activateLeft false: A * Gelu(B), the upper half activated.
    return hand_back_gated(api, self, splitDim, !activateLeft, &geglu_block, params, out, outGelu,
                           params.erf ? &geglu_erf_block : &gelu_tanh_block, workspaceSize, executor);
}

}  // namespace
}  // namespace aclcpu::ops

using namespace aclcpu::ops;

extern "C" aclnnStatus aclnnSwiGluGetWorkspaceSize(const aclTensor* x, int64_t dim, const aclTensor* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
    return phase1_swiglu(x, dim, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnSwiGlu)

extern "C" aclnnStatus aclnnSwiGluGradGetWorkspaceSize(const aclTensor* yGrad, const aclTensor* x, int64_t dim,
                                                       const aclTensor* out, uint64_t* workspaceSize,
                                                       aclOpExecutor** executor) {
    return phase1_swiglu_grad(yGrad, x, dim, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnSwiGluGrad)

extern "C" aclnnStatus aclnnGeGluGetWorkspaceSize(const aclTensor* self, int64_t dim, int64_t approximate,
                                                  aclTensor* out, aclTensor* outGelu, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
    return phase1_geglu("aclnnGeGlu", self, dim, approximate, false, out, outGelu, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnGeGlu)

extern "C" aclnnStatus aclnnGeGluV3GetWorkspaceSize(const aclTensor* self, int64_t dim, int64_t approximate,
                                                    bool activateLeft, aclTensor* out, aclTensor* outGelu,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
    return phase1_geglu("aclnnGeGluV3", self, dim, approximate, activateLeft, out, outGelu, workspaceSize,
                        executor);
}
ACLCPU_DEFINE_PHASE2(aclnnGeGluV3)
