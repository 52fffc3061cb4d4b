// acl-cpu: the dropout family of ops-math's random/ folder -- aclnnDropoutGenMask,
// V2 and V2Tensor (dsa_gen_bit_mask/op_host/op_api/aclnn_dropout_gen_mask.cpp),
// aclnnDropout (aclnn_dropout.cpp beside it), aclnnDropoutDoMask and
// aclnnDropoutBackward (drop_out_do_mask/op_api/).  Checks in CANN's order with
// its codes and words; the arithmetic is dropout_kernel.hpp's.
#include "aclnnop/aclnn_dropout.h"
#include "aclnnop/aclnn_dropout_backward.h"
#include "aclnnop/aclnn_dropout_do_mask.h"
#include "aclnnop/aclnn_dropout_gen_mask.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "common/dtype.hpp"
#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "dropout/dropout_kernel.hpp"

namespace aclcpu::ops {
namespace {

constexpr DtypeList kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};  // ASCEND910B_DTYPE_SUPPORT_LIST
constexpr DtypeList kMaskDtypes = {ACL_UINT8};
constexpr DtypeList kRatioDtypes = {ACL_FLOAT16, ACL_BF16, ACL_FLOAT};  // P_DTYPE_SUPPORT_LIST
constexpr DtypeList kStorableOuts = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};
constexpr DtypeList kSeedDtypes = {ACL_INT64};
constexpr int64_t kMaskAlignBits = 128;                               // BIT_NUMBER / VEC_BIT_NUMBER

/// CANN's IsDoubleEqual (dropout_common.h): within one double epsilon.
bool is_double_equal(double a, double b) noexcept {
    return std::abs(a - b) <= std::numeric_limits<double>::epsilon();
}

/// Mask bytes for `elements` elements: whole 128-bit vectors, as every
/// CheckShape computes it -- in int64 with truncating division, so a
/// negative GenMask shape (product -1 ... -127, or past -127) asks for 0 or
/// a negative size; the sums wrap instead of overflowing.
int64_t mask_bytes_for(int64_t elements) noexcept {
    const auto rounded = static_cast<int64_t>(static_cast<uint64_t>(elements) + kMaskAlignBits - 1);
    return static_cast<int64_t>(static_cast<uint64_t>(rounded / kMaskAlignBits) * kMaskAlignBits) / 8;
}

int64_t elements_of(const aclIntArray* shape) noexcept {
    uint64_t size = 1;
    for (int64_t dim : values_of(shape)) size *= static_cast<uint64_t>(dim);
    return static_cast<int64_t>(size);
}

aclnnStatus check_probability(double p, const char* name) {
    if (p > 1 || p < 0) {  // NaN passes, as in CANN
        return param_error(ACLNN_ERR_PARAM_INVALID, "The value of %s has to be between 0 and 1, but current is %f.",
                           name, p);
    }
    return ACLNN_SUCCESS;
}

aclnnStatus check_mask_size(const aclTensor* mask, const char* name, int64_t elements, bool atLeast) {
    const int64_t need = mask_bytes_for(elements);
    const int64_t size = view_of(mask).numel();
    if (atLeast ? size < need : size != need) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Size of %s has to be %ld, but current is %ld.", name,
                           static_cast<long>(need), static_cast<long>(size));
    }
    return ACLNN_SUCCESS;
}

/// The dtypes out may take beyond CANN's CanCast: the float ones (a complex
/// out, which CANN's Cast would fill, is not implemented here).
aclnnStatus check_out_storable(const aclTensor* out) {
    return check_dtype_supported(out, "out", kStorableOuts);
}

/// DoMask's factor 1 / (1 - p): 1 - p as a float converted into self's
/// dtype (ConvertToTensor), its reciprocal in float -- rounded to FLOAT16
/// for FLOAT16, which divides in its own dtype (drop_out_do_mask/tests/assets/golden.py).
float keep_scale(double p, aclDataType selfDtype) noexcept {
    return visit_compute_dtype(selfDtype, [&](auto element) {
        using T = decltype(element);
        const float scale = 1.0f / cast_to_float(cast_from_float<T>(static_cast<float>(1 - p)));
        return std::is_same_v<T, half_t> ? cast_to_float(cast_from_float<T>(scale)) : scale;
    });
}

/// dropout_common.h's DoMask: self for p == 0, zeros for p == 1 (both within
/// a double epsilon), else the mask applied with 1 / (1 - p).
ApplyPlan apply_plan(const aclTensor* self, const aclTensor* mask, double p, const aclTensor* out) {
    ApplyPlan plan;
    plan.kind = is_double_equal(p, 0.0)   ? ApplyPlan::Kind::copy
                : is_double_equal(p, 1.0) ? ApplyPlan::Kind::zeros
                                          : ApplyPlan::Kind::scale;
    plan.scale = keep_scale(p, view_of(self).dtype);
    plan.self = StridedLayout::of(view_of(self));
    plan.mask = StridedLayout::of(view_of(mask));
    plan.out = StridedLayout::of(view_of(out));
    return plan;
}

/// The drop ratio as CreateDropout hands it to the mask engine: a float
/// scalar converted into the dtype of code ratioCode (any integer a caller
/// passed, read with code_of); nullopt (and the message) for a dtype outside
/// P_DTYPE_SUPPORT_LIST.
std::optional<double> ratio_in(double p, int64_t ratioCode) {
    const auto listed = [&](aclDataType dtype) { return ratioCode == dtype; };
    if (std::none_of(kRatioDtypes.begin(), kRatioDtypes.end(), listed)) {
        report_error(ACLNN_ERR_PARAM_INVALID, kAclnnParamTag,
                     "Scalar p not implemented for %s, should be in dtype support list %s.", dtype_name(ratioCode),
                     dtype_list_string(kRatioDtypes).c_str());
        return std::nullopt;
    }
    return visit_compute_dtype(static_cast<aclDataType>(ratioCode), [&](auto element) {
        using T = decltype(element);
        return static_cast<double>(cast_to_float(cast_from_float<T>(static_cast<float>(p))));
    });
}

/// A mask of out's bytes: all ones for p == 0, all zeros for p == 1 (CANN's
/// FillScalar), else random with drop ratio `ratio`.
MaskPlan mask_plan(double p, double ratio, const MaskSeed& seed, const aclTensor* out) {
    MaskPlan plan;
    plan.random = !is_double_equal(p, 0.0) && !is_double_equal(p, 1.0);
    plan.fill = is_double_equal(p, 0.0) ? 0xFF : 0x00;
    plan.dropRatio = ratio;
    plan.seed = seed;
    plan.bytes = StridedLayout::of(view_of(out));
    return plan;
}

// ---- DropoutGenMask, V2, V2Tensor -------------------------------------------

/// CheckParams of aclnn_dropout_gen_mask.cpp, then the empty out.
aclnnStatus check_gen_mask(const aclIntArray* shape, double prob, const aclTensor* out) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{shape, "shape"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(out, "out", kMaskDtypes));
    ACLCPU_RETURN_IF_ERROR(check_probability(prob, "prob"));
    return check_mask_size(out, "out", elements_of(shape), false);
}

/// V2Tensor's seed and offset tensors, where the kernel reads them: CANN
/// dereferences them unchecked, so what it would crash on (null, not INT64,
/// past the storage, empty) is refused here instead.
aclnnStatus locate_seed_tensors(const aclTensor* seedTensor, const aclTensor* offsetTensor, MaskSeed& seed) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{seedTensor, "seedTensor"}, {offsetTensor, "offsetTensor"}}));
    ACLCPU_RETURN_IF_ERROR(
        check_dtype_supported({{seedTensor, "seedTensor"}, {offsetTensor, "offsetTensor"}}, kSeedDtypes));
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{seedTensor, "seedTensor"}, {offsetTensor, "offsetTensor"}}));
    if (is_empty(seedTensor) || is_empty(offsetTensor)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "seedTensor and offsetTensor must hold an element each.");
    }
    seed.seedPosition = view_of(seedTensor).offset;
    seed.offsetPosition = view_of(offsetTensor).offset;
    return ACLNN_SUCCESS;
}

/// The shared end of the three GenMask entry points: ratioCode is V1's
/// FLOAT or V2's probDataType; seed.fromTensors for V2Tensor, which reads
/// seedTensor and offsetTensor.
aclnnStatus gen_mask(const char* api, const aclIntArray* shape, double prob, MaskSeed seed, int64_t ratioCode,
                     const aclTensor* seedTensor, const aclTensor* offsetTensor, aclTensor* out,
                     uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_gen_mask(shape, prob, out));
    if (is_empty(out)) return hand_back_empty_executor({}, {out}, workspaceSize, executor);
    const bool random = !is_double_equal(prob, 0.0) && !is_double_equal(prob, 1.0);
    double ratio = 0;
    if (random) {
        const std::optional<double> converted = ratio_in(prob, ratioCode);
        if (!converted) return ACLNN_ERR_INNER_NULLPTR;  // CreateDropout's nullptr -> CHECK_RET
        ratio = *converted;
    }
    if (!random) seed.fromTensors = false;  // a filled mask reads neither tensor
    if (seed.fromTensors) ACLCPU_RETURN_IF_ERROR(locate_seed_tensors(seedTensor, offsetTensor, seed));
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{out, "out"}}));
    if (seed.fromTensors) {
        return hand_back_dropout(api, mask_plan(prob, ratio, seed, out), std::nullopt, {seedTensor, offsetTensor},
                                 {out}, workspaceSize, executor);
    }
    return hand_back_dropout(api, mask_plan(prob, ratio, seed, out), std::nullopt, {}, {out}, workspaceSize,
                             executor);
}

// ---- Dropout ----------------------------------------------------------------

aclnnStatus check_dropout(const aclTensor* input, double p, const aclTensor* out, const aclTensor* maskOut) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{input, "input"}, {out, "out"}, {maskOut, "maskOut"}}));
    ACLCPU_RETURN_IF_ERROR(check_can_cast(view_of(input).dtype, view_of(out).dtype));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(input, "input", kFloats));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(maskOut, "maskOut", kMaskDtypes));
    ACLCPU_RETURN_IF_ERROR(check_out_storable(out));
    ACLCPU_RETURN_IF_ERROR(check_probability(p, "p"));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(input, "input"));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(input, "input", out, "out"));
    return check_mask_size(maskOut, "maskOut", view_of(input).numel(), false);
}

aclnnStatus dropout(const aclTensor* input, double p, bool train, int64_t seed, int64_t offset, aclTensor* out,
                    aclTensor* maskOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_dropout(input, p, out, maskOut));
    if (is_empty(input)) return hand_back_empty_executor({input}, {out, maskOut}, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{input, "input"}, {out, "out"}, {maskOut, "maskOut"}}));
    // p == 0 (exactly), !train and p == 1 leave maskOut as it was; DoMask then
    // copies or zeros.  Otherwise the mask's ratio is p as a float scalar.
    std::optional<MaskPlan> mask;
    if (train && p != 0 && p != 1) {
        mask = mask_plan(p, static_cast<float>(p),
                         MaskSeed{static_cast<uint64_t>(seed), static_cast<uint64_t>(offset)}, maskOut);
    }
    ApplyPlan apply = apply_plan(input, maskOut, train ? p : 0.0, out);
    return hand_back_dropout("aclnnDropout", std::move(mask), apply, {input}, {out, maskOut}, workspaceSize,
                             executor);
}

// ---- DropoutDoMask, DropoutBackward -------------------------------------------

/// The dtype checks DoMask and DropoutBackward share (CheckDtypeValid).
aclnnStatus check_do_mask_dtypes(const aclTensor* self, const char* selfName, const aclTensor* mask,
                                 const aclTensor* out) {
    ACLCPU_RETURN_IF_ERROR(check_can_cast(view_of(self).dtype, view_of(out).dtype));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, selfName, kFloats));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(mask, "mask", kMaskDtypes));
    return check_out_storable(out);
}

aclnnStatus do_mask(const aclTensor* self, const aclTensor* mask, double prob, aclTensor* out,
                    uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {mask, "mask"}, {out, "out"}}));
    // Before any other check, as aclnn_dropout_do_mask.cpp does: out is left as it was.
    if (is_empty(self) || is_empty(mask)) return hand_back_empty_executor({self, mask}, {out}, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_do_mask_dtypes(self, "self", mask, out));
    ACLCPU_RETURN_IF_ERROR(check_probability(prob, "prob"));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(self, "self"));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(self, "self", out, "out"));
    ACLCPU_RETURN_IF_ERROR(check_mask_size(mask, "mask", view_of(self).numel(), true));
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{self, "self"}, {mask, "mask"}, {out, "out"}}));
    return hand_back_dropout("aclnnDropoutDoMask", std::nullopt, apply_plan(self, mask, prob, out), {self, mask},
                             {out}, workspaceSize, executor);
}

/// ComputeProb of aclnn_dropout_backward.cpp.
double backward_probability(double scale) noexcept { return is_double_equal(scale, 0.0) ? 1 : 1 - 1 / scale; }

aclnnStatus dropout_backward(const aclTensor* gradOutput, const aclTensor* mask, double scale, aclTensor* out,
                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{gradOutput, "gradOutput"}, {mask, "mask"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_do_mask_dtypes(gradOutput, "gradOutput", mask, out));
    const double p = backward_probability(scale);
    if (p > 1 || p < 0) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "The value of scale is error, p = (scale == 0.0) ? 1 : (1 - 1 / scale) has to be between 0 "
                           "and 1, but got scale %f.",
                           scale);
    }
    ACLCPU_RETURN_IF_ERROR(check_max_dim(gradOutput, "gradOutput"));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(gradOutput, "gradOutput", out, "out"));
    ACLCPU_RETURN_IF_ERROR(check_mask_size(mask, "maskOut", view_of(gradOutput).numel(), false));
    if (is_empty(gradOutput)) return hand_back_empty_executor({gradOutput, mask}, {out}, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{gradOutput, "gradOutput"}, {mask, "mask"}, {out, "out"}}));
    return hand_back_dropout("aclnnDropoutBackward", std::nullopt, apply_plan(gradOutput, mask, p, out),
                             {gradOutput, mask}, {out}, workspaceSize, executor);
}

}  // namespace
}  // namespace aclcpu::ops

using aclcpu::ops::MaskSeed;

extern "C" aclnnStatus aclnnDropoutGenMaskGetWorkspaceSize(const aclIntArray* shape, double prob, int64_t seed,
                                                           int64_t offset, aclTensor* out, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
    // V1 hands the engine a FLOAT ratio (out's UINT8 read as FLOAT).
    return aclcpu::ops::gen_mask("aclnnDropoutGenMask", shape, prob,
                                 MaskSeed{static_cast<uint64_t>(seed), static_cast<uint64_t>(offset)}, ACL_FLOAT,
                                 nullptr, nullptr, out, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnDropoutGenMaskV2GetWorkspaceSize(const aclIntArray* shape, double prob, int64_t seed,
                                                             int64_t offset, aclDataType probDataType, aclTensor* out,
                                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::gen_mask("aclnnDropoutGenMaskV2", shape, prob,
                                 MaskSeed{static_cast<uint64_t>(seed), static_cast<uint64_t>(offset)},
                                 aclcpu::code_of(probDataType), nullptr, nullptr, out, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnDropoutGenMaskV2TensorGetWorkspaceSize(const aclIntArray* shape, double prob,
                                                                   const aclTensor* seedTensor,
                                                                   const aclTensor* offsetTensor, int64_t offset,
                                                                   aclDataType probDataType, aclTensor* out,
                                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
    MaskSeed seed{0, static_cast<uint64_t>(offset)};
    seed.fromTensors = true;
    return aclcpu::ops::gen_mask("aclnnDropoutGenMaskV2Tensor", shape, prob, seed, aclcpu::code_of(probDataType),
                                 seedTensor, offsetTensor, out, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnDropoutGetWorkspaceSize(const aclTensor* input, double p, bool train, int64_t seed,
                                                    int64_t offset, aclTensor* out, aclTensor* maskOut,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::dropout(input, p, train, seed, offset, out, maskOut, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnDropoutDoMaskGetWorkspaceSize(const aclTensor* self, const aclTensor* mask, double prob,
                                                          aclTensor* out, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor) {
    return aclcpu::ops::do_mask(self, mask, prob, out, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnDropoutBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* mask,
                                                            double scale, aclTensor* out, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
    return aclcpu::ops::dropout_backward(gradOutput, mask, scale, out, workspaceSize, executor);
}

ACLCPU_DEFINE_PHASE2(aclnnDropoutGenMask)
ACLCPU_DEFINE_PHASE2(aclnnDropoutGenMaskV2)
ACLCPU_DEFINE_PHASE2(aclnnDropoutGenMaskV2Tensor)
ACLCPU_DEFINE_PHASE2(aclnnDropout)
ACLCPU_DEFINE_PHASE2(aclnnDropoutDoMask)
ACLCPU_DEFINE_PHASE2(aclnnDropoutBackward)
