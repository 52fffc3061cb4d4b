// acl-cpu: the foreach family's entry points -- CANN's checks of each
// (foreach/<op>/op_host/op_api/aclnn_foreach_*.cpp of ops-nn) and one launch
// of the tensor-list engine over all the lists' tensors.
#include "common/internal.hpp"

#include <cstdarg>
#include <cstddef>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_foreach_addcdiv_scalar.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar_v2.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar_v2.h"
#include "aclnnop/aclnn_foreach_lerp_scalar.h"
#include "aclnnop/aclnn_foreach_mul_scalar.h"
#include "aclnnop/aclnn_foreach_non_finite_check_and_unscale.h"
#include "aclnnop/aclnn_foreach_norm.h"
#include "aclnnop/aclnn_foreach_mul_scalar_v2.h"
#include "aclnnop/aclnn_foreach_sqrt.h"
#include "common/float_runs.hpp"
#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "foreach/foreach_kernel.hpp"
#include "foreach/non_finite_kernel.hpp"
#include "foreach/norm_kernel.hpp"
#include "not_yet/not_yet.hpp"

namespace aclcpu::ops {
namespace {

using Tensors = std::vector<const aclTensor*>;

/// A tensor-list argument and its name in messages.
struct NamedList {
    Tensors tensors;
    const char* name;
};

/// The lists of MulScalarV2, AddcmulScalarV2, AddcdivScalarV2 (A2's
/// TENSOR_DTYPE_DTYPE_SUPPORT_LIST) and of Sqrt and LerpScalar
/// (ASCEND910BC_TENSOR_DTYPE_DTYPE_SUPPORT_LIST).
constexpr DtypeList kScalarOpDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32};
constexpr DtypeList kFloatDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeList kFloatScalarDtypes = {ACL_FLOAT, ACL_DOUBLE};
constexpr DtypeList kHalfScalarDtypes = {ACL_FLOAT16, ACL_DOUBLE};
constexpr DtypeList kIntScalarDtypes = {ACL_INT32, ACL_INT64};
constexpr DtypeList kFloatOnly = {ACL_FLOAT};
constexpr DtypeList kHalfOnly = {ACL_FLOAT16};
constexpr DtypeList kIntOnly = {ACL_INT32};

/// FOREACH_SCALAR_*_SUPPORT_LIST: the scalar's dtypes for a list's (A2),
/// also the device scalar's of AddcdivScalar (aclnn_foreach_addcdiv_scalar.cpp).
DtypeList scalar_dtypes_for(aclDataType listDtype) {
    if (listDtype == ACL_FLOAT || listDtype == ACL_BF16) return kFloatScalarDtypes;
    return listDtype == ACL_FLOAT16 ? kHalfScalarDtypes : kIntScalarDtypes;
}

/// LerpScalar's weight: FLOAT or DOUBLE whatever the lists' dtype.
DtypeList float_scalar_dtypes(aclDataType) { return kFloatScalarDtypes; }

/// The device scalar of MulScalar and AddcmulScalar (their docs, A2): the
/// list's dtype, FLOAT for a BF16 list.
DtypeList device_scalar_dtypes_for(aclDataType listDtype) {
    if (listDtype == ACL_FLOAT || listDtype == ACL_BF16) return kFloatOnly;
    return listDtype == ACL_FLOAT16 ? kHalfOnly : kIntOnly;
}

/// Where an operator checks its scalar's dtype: before the lists' tensors
/// (AddcmulScalarV2, AddcdivScalarV2, AddcdivScalar, LerpScalar), after them
/// (MulScalarV2), or not at all (Sqrt).
enum class ScalarCheck { kNone, kBeforeLists, kAfterLists };

/// The scalar of an operator: an aclScalar (the V2 forms, LerpScalar) or a
/// one-element device tensor (the non-V2 forms).
struct ScalarArg {
    const aclScalar* scalar = nullptr;
    const aclTensor* tensor = nullptr;
    bool onDevice = false;
    const char* name = "scalar";
    ScalarCheck when = ScalarCheck::kNone;
    DtypeList (*dtypesFor)(aclDataType listDtype) = scalar_dtypes_for;
};

/// The V2 forms' aclScalar, checked `when`.
ScalarArg host_scalar(const aclScalar* scalar, ScalarCheck when) { return {scalar, nullptr, false, "scalar", when}; }

/// The non-V2 forms' device scalar, checked before or after the lists.
ScalarArg device_scalar(const aclTensor* scalar, ScalarCheck when,
                        DtypeList (*dtypesFor)(aclDataType) = scalar_dtypes_for) {
    return {nullptr, scalar, true, "scalar", when, dtypesFor};
}

aclnnStatus check_scalar(const ScalarArg& scalar, aclDataType listDtype) {
    if (scalar.onDevice) return check_dtype_supported(scalar.tensor, scalar.name, scalar.dtypesFor(listDtype));
    return check_scalar_dtype_supported(scalar.scalar, scalar.name, scalar.dtypesFor(listDtype));
}

/// A refusal of CANN's tiling (561002), reported.
__attribute__((format(printf, 1, 2))) aclnnStatus tiling_error(const char* format, ...) {
    va_list args;
    va_start(args, format);
    vreport_error(ACLNN_ERR_INNER_TILING_ERROR, kAclnnInnerTag, format, args);
    va_end(args);
    return ACLNN_ERR_INNER_TILING_ERROR;
}

/// A scalar tensor of one element, else the tiling's 561002.
aclnnStatus check_one_element(const aclTensor* tensor, const char* name) {
    const int64_t elements = view_of(tensor).numel();
    if (elements == 1) return ACLNN_SUCCESS;
    return tiling_error("%s must hold one element, but holds %ld.", name, static_cast<long>(elements));
}

/// The device scalar holds one element and lies inside its storage.
aclnnStatus check_device_scalar(const ScalarArg& scalar) {
    if (!scalar.onDevice) return ACLNN_SUCCESS;
    ACLCPU_RETURN_IF_ERROR(check_one_element(scalar.tensor, scalar.name));
    return check_view_in_storage(scalar.tensor, scalar.name);
}

/// CheckDtype: nothing to check for an empty first list; otherwise its first
/// tensor's dtype in supported, the scalar's for it, and every tensor of
/// every list not null (else 161002, inside CANN's dtype check) and of that
/// dtype.
aclnnStatus check_list_dtypes(const std::vector<NamedList>& lists, DtypeList supported, const ScalarArg& scalar) {
    const Tensors& first = lists.front().tensors;
    if (first.empty()) return ACLNN_SUCCESS;
    if (first[0] == nullptr) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Expected a proper Tensor but got null for argument %s[0].",
                           lists.front().name);
    }
    const aclDataType dtype = view_of(first[0]).dtype;
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(first[0], lists.front().name, supported));
    if (scalar.when == ScalarCheck::kBeforeLists) ACLCPU_RETURN_IF_ERROR(check_scalar(scalar, dtype));
    for (const NamedList& list : lists) {
        for (size_t i = 0; i < list.tensors.size(); ++i) {
            if (list.tensors[i] == nullptr) {
                return param_error(ACLNN_ERR_PARAM_INVALID,
                                   "Expected a proper Tensor but got null for argument %s[%zu].", list.name, i);
            }
            ACLCPU_RETURN_IF_ERROR(check_dtype_is(list.tensors[i], list.name, dtype));
        }
    }
    if (scalar.when == ScalarCheck::kAfterLists) ACLCPU_RETURN_IF_ERROR(check_scalar(scalar, dtype));
    return ACLNN_SUCCESS;
}

/// CheckShape: every list as long as the first (OP_CHECK_TENSORLIST_SIZE_EQUAL),
/// the first's ranks at most 8, tensor i of every list of the first's shape.
aclnnStatus check_list_shapes(const std::vector<NamedList>& lists) {
    const NamedList& first = lists.front();
    for (size_t k = 1; k < lists.size(); ++k) {
        if (lists[k].tensors.size() != first.tensors.size()) {
            return param_error(ACLNN_ERR_PARAM_INVALID,
                               "The %s tensorlist and %s tensorlist must have the same number of tensors, but got "
                               "%zu and %zu.",
                               first.name, lists[k].name, first.tensors.size(), lists[k].tensors.size());
        }
    }
    for (const aclTensor* tensor : first.tensors) ACLCPU_RETURN_IF_ERROR(check_max_dim(tensor, first.name));
    for (size_t k = 1; k < lists.size(); ++k) {
        for (size_t i = 0; i < first.tensors.size(); ++i) {
            ACLCPU_RETURN_IF_ERROR(check_same_shape(lists[k].tensors[i], lists[k].name, first.tensors[i], first.name));
        }
    }
    return ACLNN_SUCCESS;
}

/// CheckFormat: no private format (FRACTAL_NZ, NC1HWC0, ...) in any list;
/// then acl-cpu's guard that every view lies inside its storage.
aclnnStatus check_list_formats_and_views(const std::vector<NamedList>& lists) {
    for (const NamedList& list : lists) {
        for (const aclTensor* tensor : list.tensors) {
            switch (format_of(tensor)) {
                case ACL_FORMAT_ND: case ACL_FORMAT_NCHW: case ACL_FORMAT_NHWC: case ACL_FORMAT_HWCN:
                case ACL_FORMAT_NDHWC: case ACL_FORMAT_NCDHW: case ACL_FORMAT_NCL:
                    break;
                default:
                    return param_error(ACLNN_ERR_PARAM_INVALID,
                                       "Format only support ND、NCHW、NHWC、HWCN、NDHWC、NCDHW.");
            }
        }
    }
    for (const NamedList& list : lists) {
        for (const aclTensor* tensor : list.tensors) ACLCPU_RETURN_IF_ERROR(check_view_in_storage(tensor, list.name));
    }
    return ACLNN_SUCCESS;
}

/// The list arguments not null (161001, CANN's words), in order.
aclnnStatus check_lists_not_null(std::initializer_list<std::pair<const aclTensorList*, const char*>> args) {
    for (const auto& [list, name] : args) {
        if (list == nullptr) {
            return param_error(ACLNN_ERR_PARAM_NULLPTR, "Expected a proper Tensor but got null for argument %s.", name);
        }
    }
    return ACLNN_SUCCESS;
}

/// A foreach operator's phase 1: the lists (inputs, then out) and the scalar
/// not null (161001), CANN's dtype, shape and format checks (161002), then
/// one kernel over every non-empty position of the lists.
template <class Params, void (*Block)(const TensorListJob&, const BlockSlice&, const Params&)>
aclnnStatus foreach_phase1(const char* api, std::initializer_list<std::pair<const aclTensorList*, const char*>> args,
                           const ScalarArg& scalar, DtypeList supported,
                           Params (*params)(const ScalarArg&, aclDataType), uint64_t* workspaceSize,
                           aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_lists_not_null(args));
    if (scalar.when != ScalarCheck::kNone) {
        ACLCPU_RETURN_IF_ERROR(scalar.onDevice ? check_not_null(scalar.tensor, scalar.name)
                                               : check_not_null(scalar.scalar, scalar.name));
    }
    std::vector<NamedList> lists;
    for (const auto& [list, name] : args) lists.push_back({tensors_of(list), name});
    ACLCPU_RETURN_IF_ERROR(check_list_dtypes(lists, supported, scalar));
    ACLCPU_RETURN_IF_ERROR(check_list_shapes(lists));
    ACLCPU_RETURN_IF_ERROR(check_list_formats_and_views(lists));
    ACLCPU_RETURN_IF_ERROR(check_device_scalar(scalar));
    TensorLists tensorLists;
    for (size_t k = 0; k + 1 < lists.size(); ++k) tensorLists.inputs.push_back(lists[k].tensors);
    tensorLists.outputs.push_back(lists.back().tensors);
    if (lists.front().tensors.empty()) return hand_back_empty_executor({}, {}, workspaceSize, executor);
    const aclDataType dtype = view_of(lists.front().tensors[0]).dtype;
    if (dtype == ACL_INT32) {
        report_error(kNotYetStatus, kAclnnInnerTag, "%s failed: INT32 lists have no kernel in acl-cpu yet.", api);
        return kNotYetStatus;
    }
    TensorListOperands operands = tensorLists.operands();
    // The device scalar follows the lists' inputs: the kernel's extra input.
    const std::vector<const aclTensor*> inputs =
        scalar.onDevice ? tensorLists.flat_inputs({scalar.tensor}) : tensorLists.flat_inputs();
    if (operands.numel() == 0) {
        return hand_back_empty_executor(inputs, tensorLists.flat_outputs(), workspaceSize, executor);
    }
    return hand_back_kernel<TensorListKernel<Params, Block>>(inputs, tensorLists.flat_outputs(), 0, workspaceSize,
                                                             executor, api, std::move(operands), dtype,
                                                             params(scalar, dtype), scalar.onDevice ? 1 : 0);
}

/// The scalar as the kernel reads it: ConvertToTensor to the list's dtype,
/// FLOAT for a BF16 list (aclnn_foreach_mul_scalar_v2.cpp and its siblings),
/// so a FLOAT16 list's scalar is rounded to FLOAT16 first; a device scalar
/// is read, and rounded so, at launch.
ForeachScalar scalar_in_list_dtype(const ScalarArg& scalar, aclDataType listDtype) {
    ForeachScalar resolved;
    resolved.roundToHalf = listDtype == ACL_FLOAT16;
    if (scalar.onDevice) {
        resolved.deviceDtype = view_of(scalar.tensor).dtype;
        resolved.devicePosition = StridedLayout::of(view_of(scalar.tensor)).position_of(0);
        return resolved;
    }
    resolved.value = to_float(scalar.scalar);
    if (resolved.roundToHalf) round_through(ACL_FLOAT16, &resolved.value, 1);
    return resolved;
}

/// LerpScalar's weight, a FLOAT whatever the lists' dtype (the kernel's weightVal).
ForeachScalar scalar_as_float(const ScalarArg& scalar, aclDataType) {
    ForeachScalar resolved;
    resolved.value = to_float(scalar.scalar);
    return resolved;
}

ForeachNoScalar no_scalar(const ScalarArg&, aclDataType) { return {}; }

// ---- NonFiniteCheckAndUnscale (docs/aclnnForeachNonFiniteCheckAndUnscale.md,
// op_host/foreach_non_finite_check_and_unscale_tiling.cpp) -------------------

/// MAX_TENSOR_COUNT of the tiling.
constexpr size_t kMaxUnscaledTensors = 256;

/// The docs' 161002: each tensor's dtype FLOAT, FLOAT16 or BF16, foundInf's
/// and invScale's FLOAT; ranks at most 8.
aclnnStatus check_unscale_dtypes(const Tensors& grads, const aclTensor* foundInf, const aclTensor* invScale) {
    for (size_t i = 0; i < grads.size(); ++i) {
        if (grads[i] == nullptr) {
            return param_error(ACLNN_ERR_PARAM_INVALID,
                               "Expected a proper Tensor but got null for argument scaledGrads[%zu].", i);
        }
        ACLCPU_RETURN_IF_ERROR(check_dtype_supported(grads[i], "scaledGrads", kFloatDtypes));
        ACLCPU_RETURN_IF_ERROR(check_max_dim(grads[i], "scaledGrads"));
    }
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(foundInf, "foundInf", kFloatOnly));
    return check_dtype_supported(invScale, "invScale", kFloatOnly);
}

/// The tiling's 561002: 1 to 256 tensors of one dtype, none empty;
/// foundInf and invScale of one element each (the docs).
aclnnStatus check_unscale_tiling(const Tensors& grads, const aclTensor* foundInf, const aclTensor* invScale) {
    if (grads.empty() || grads.size() > kMaxUnscaledTensors) {
        return tiling_error("scaledGrads must hold 1 to 256 tensors, but holds %ld.", static_cast<long>(grads.size()));
    }
    for (size_t i = 0; i < grads.size(); ++i) {
        if (view_of(grads[i]).dtype != view_of(grads[0]).dtype) {
            return tiling_error("The dtypes of all tensors in scaledGrads must be the same; scaledGrads[%ld] differs.",
                                static_cast<long>(i));
        }
        if (is_empty(grads[i])) {
            return tiling_error("The shape size of scaledGrads[%ld] must be greater than 0.", static_cast<long>(i));
        }
    }
    ACLCPU_RETURN_IF_ERROR(check_one_element(foundInf, "foundInf"));
    return check_one_element(invScale, "invScale");
}

aclnnStatus non_finite_check_and_unscale(const aclTensorList* scaledGrads, const aclTensor* foundInf,
                                         const aclTensor* invScale, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_lists_not_null({{scaledGrads, "scaledGrads"}}));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{foundInf, "foundInf"}, {invScale, "invScale"}}));
    const Tensors grads = tensors_of(scaledGrads);
    ACLCPU_RETURN_IF_ERROR(check_unscale_dtypes(grads, foundInf, invScale));
    ACLCPU_RETURN_IF_ERROR(check_unscale_tiling(grads, foundInf, invScale));
    ACLCPU_RETURN_IF_ERROR(check_list_formats_and_views({{grads, "scaledGrads"}}));
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{foundInf, "foundInf"}, {invScale, "invScale"}}));
    TensorLists lists;
    lists.inputs.push_back(grads);
    lists.outputs.push_back(grads);
    std::vector<const aclTensor*> outputs = lists.flat_outputs();
    outputs.push_back(foundInf);
    const auto position = [](const aclTensor* t) { return StridedLayout::of(view_of(t)).position_of(0); };
    return hand_back_kernel<NonFiniteCheckKernel>(lists.flat_inputs({invScale}), outputs, 0, workspaceSize, executor,
                                                  "aclnnForeachNonFiniteCheckAndUnscale", lists.operands(),
                                                  position(invScale), position(foundInf));
}

// ---- Norm (docs/aclnnForeachNorm.md, op_kernel/foreach_norm.cpp) --------------

constexpr DtypeList kNormScalarDtypes = {ACL_FLOAT, ACL_DOUBLE, ACL_INT64};

/// The docs' 561002: every out tensor of one element (then the shared
/// checks refuse mixed dtypes and ranks over 8, as their 161002).
aclnnStatus check_norm_outputs(const Tensors& outs) {
    for (size_t i = 0; i < outs.size(); ++i) {
        if (outs[i] != nullptr && view_of(outs[i]).numel() != 1) {
            return tiling_error("The shape size of out[%ld] must be 1.", static_cast<long>(i));
        }
    }
    return ACLNN_SUCCESS;
}

aclnnStatus foreach_norm(const aclTensorList* x, const aclScalar* scalar, const aclTensorList* out,
                         uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_lists_not_null({{x, "x"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_not_null(scalar, "scalar"));
    const std::vector<NamedList> lists = {{tensors_of(x), "x"}, {tensors_of(out), "out"}};
    const ScalarArg order{scalar, nullptr, false, "scalar", ScalarCheck::kAfterLists,
                          [](aclDataType) { return kNormScalarDtypes; }};
    ACLCPU_RETURN_IF_ERROR(check_list_dtypes(lists, kFloatDtypes, order));
    if (lists[0].tensors.size() != lists[1].tensors.size()) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "The x tensorlist and out tensorlist must have the same number of tensors, but got %zu "
                           "and %zu.",
                           lists[0].tensors.size(), lists[1].tensors.size());
    }
    ACLCPU_RETURN_IF_ERROR(check_norm_outputs(lists[1].tensors));
    for (const NamedList& list : lists) {
        for (const aclTensor* tensor : list.tensors) ACLCPU_RETURN_IF_ERROR(check_max_dim(tensor, list.name));
    }
    ACLCPU_RETURN_IF_ERROR(check_list_formats_and_views(lists));
    if (lists[0].tensors.empty()) return hand_back_empty_executor({}, {}, workspaceSize, executor);
    TensorLists tensorLists;
    tensorLists.inputs.push_back(lists[0].tensors);
    std::vector<int64_t> xIndex;
    for (size_t i = 0; i < lists[0].tensors.size(); ++i) {
        if (!is_empty(lists[0].tensors[i])) xIndex.push_back(static_cast<int64_t>(i));
    }
    std::vector<StridedLayout> outs;
    for (const aclTensor* tensor : lists[1].tensors) outs.push_back(StridedLayout::of(view_of(tensor)));
    // The A2 kernel: int(p) == 1 -- p in [1, 2) -- is sum |x|, any other p
    // (NaN and infinities included) the Euclidean norm.
    const double p = to_double(scalar);
    const bool taxicab = p >= 1 && p < 2;
    TensorListOperands operands = tensorLists.operands();
    const int64_t workspace = ForeachNormKernel::workspace_bytes(operands);
    return hand_back_kernel<ForeachNormKernel>(tensorLists.flat_inputs(), lists[1].tensors, workspace, workspaceSize,
                                               executor, "aclnnForeachNorm", std::move(operands), std::move(outs),
                                               std::move(xIndex), taxicab);
}

}  // namespace
}  // namespace aclcpu::ops

using namespace aclcpu::ops;

extern "C" {

aclnnStatus aclnnForeachMulScalarV2GetWorkspaceSize(const aclTensorList* x, const aclScalar* scalar, aclTensorList* out,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
    return foreach_phase1<ForeachScalar, foreach_mul_scalar_block>(
        "aclnnForeachMulScalarV2", {{x, "x"}, {out, "out"}}, host_scalar(scalar, ScalarCheck::kAfterLists),
        kScalarOpDtypes, scalar_in_list_dtype, workspaceSize, executor);
}

aclnnStatus aclnnForeachAddcmulScalarV2GetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                        const aclTensorList* x3, const aclScalar* scalar,
                                                        aclTensorList* out, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
    return foreach_phase1<ForeachScalar, foreach_addcmul_scalar_block>(
        "aclnnForeachAddcmulScalarV2", {{x1, "x1"}, {x2, "x2"}, {x3, "x3"}, {out, "out"}},
        host_scalar(scalar, ScalarCheck::kBeforeLists), kScalarOpDtypes, scalar_in_list_dtype, workspaceSize,
        executor);
}

aclnnStatus aclnnForeachAddcdivScalarV2GetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                        const aclTensorList* x3, const aclScalar* scalar,
                                                        aclTensorList* out, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
    return foreach_phase1<ForeachScalar, foreach_addcdiv_scalar_block>(
        "aclnnForeachAddcdivScalarV2", {{x1, "x1"}, {x2, "x2"}, {x3, "x3"}, {out, "out"}},
        host_scalar(scalar, ScalarCheck::kBeforeLists), kScalarOpDtypes, scalar_in_list_dtype, workspaceSize,
        executor);
}

aclnnStatus aclnnForeachMulScalarGetWorkspaceSize(const aclTensorList* x, const aclTensor* scalar,
                                                  const aclTensorList* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
    return foreach_phase1<ForeachScalar, foreach_mul_scalar_block>(
        "aclnnForeachMulScalar", {{x, "x"}, {out, "out"}},
        device_scalar(scalar, ScalarCheck::kAfterLists, device_scalar_dtypes_for), kScalarOpDtypes,
        scalar_in_list_dtype, workspaceSize, executor);
}

aclnnStatus aclnnForeachAddcmulScalarGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                      const aclTensorList* x3, const aclTensor* scalar,
                                                      const aclTensorList* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
    return foreach_phase1<ForeachScalar, foreach_addcmul_scalar_block>(
        "aclnnForeachAddcmulScalar", {{x1, "x1"}, {x2, "x2"}, {x3, "x3"}, {out, "out"}},
        device_scalar(scalar, ScalarCheck::kBeforeLists, device_scalar_dtypes_for), kScalarOpDtypes,
        scalar_in_list_dtype, workspaceSize, executor);
}

aclnnStatus aclnnForeachAddcdivScalarGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                      const aclTensorList* x3, const aclTensor* scalar,
                                                      aclTensorList* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
    return foreach_phase1<ForeachScalar, foreach_addcdiv_scalar_block>(
        "aclnnForeachAddcdivScalar", {{x1, "x1"}, {x2, "x2"}, {x3, "x3"}, {out, "out"}},
        device_scalar(scalar, ScalarCheck::kBeforeLists), kFloatDtypes, scalar_in_list_dtype,
        workspaceSize, executor);
}

aclnnStatus aclnnForeachNonFiniteCheckAndUnscaleGetWorkspaceSize(const aclTensorList* scaledGrads,
                                                                 const aclTensor* foundInf,
                                                                 const aclTensor* invScale, uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor) {
    return non_finite_check_and_unscale(scaledGrads, foundInf, invScale, workspaceSize, executor);
}

aclnnStatus aclnnForeachNormGetWorkspaceSize(const aclTensorList* x, const aclScalar* scalar, const aclTensorList* out,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    return foreach_norm(x, scalar, out, workspaceSize, executor);
}

aclnnStatus aclnnForeachSqrtGetWorkspaceSize(const aclTensorList* x, aclTensorList* out, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
    return foreach_phase1<ForeachNoScalar, foreach_sqrt_block>("aclnnForeachSqrt", {{x, "x"}, {out, "out"}}, {},
                                                               kFloatDtypes, no_scalar, workspaceSize, executor);
}

aclnnStatus aclnnForeachLerpScalarGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                   const aclScalar* weight, aclTensorList* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
    return foreach_phase1<ForeachScalar, foreach_lerp_scalar_block>(
        "aclnnForeachLerpScalar", {{x1, "x1"}, {x2, "x2"}, {out, "out"}},
        {weight, nullptr, false, "weight", ScalarCheck::kBeforeLists, float_scalar_dtypes}, kFloatDtypes,
        scalar_as_float, workspaceSize, executor);
}

}  // extern "C"

ACLCPU_DEFINE_PHASE2(aclnnForeachMulScalarV2)
ACLCPU_DEFINE_PHASE2(aclnnForeachAddcmulScalarV2)
ACLCPU_DEFINE_PHASE2(aclnnForeachAddcdivScalarV2)
ACLCPU_DEFINE_PHASE2(aclnnForeachSqrt)
ACLCPU_DEFINE_PHASE2(aclnnForeachNonFiniteCheckAndUnscale)
ACLCPU_DEFINE_PHASE2(aclnnForeachNorm)
ACLCPU_DEFINE_PHASE2(aclnnForeachMulScalar)
ACLCPU_DEFINE_PHASE2(aclnnForeachAddcmulScalar)
ACLCPU_DEFINE_PHASE2(aclnnForeachAddcdivScalar)
ACLCPU_DEFINE_PHASE2(aclnnForeachLerpScalar)
