// acl-cpu: aclnnWeightQuantBatchMatmulV2 of ops-nn
// (matmul/weight_quant_batch_matmul_v2/op_host/op_api/
// aclnn_weight_quant_batch_matmul_v2.cpp), Atlas A2's path: its checks in the
// op_api's order with its messages, then the kernel of
// weight_quant_kernel.hpp.  README.md tells the rules.
#include "aclnnop/aclnn_weight_quant_batch_matmul_v2.h"

#include <string>
#include <utility>
#include <vector>

#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "not_yet/not_yet.hpp"
#include "weight_quant_matmul/weight_quant_kernel.hpp"

namespace aclcpu::ops {
namespace {

constexpr const char* kApi = "aclnnWeightQuantBatchMatmulV2GetWorkspaceSize";
constexpr int64_t kMaxKN = 65535;  // M_K_N_MAX_VALUE

const Dims& shape_of(const aclTensor* t) { return view_of(t).shape; }
int64_t dim(const aclTensor* t, size_t fromEnd) { return shape_of(t)[shape_of(t).size() - fromEnd]; }
const char* dtype_of(const aclTensor* t) { return dtype_name(view_of(t).dtype); }
bool is_contiguous(const aclTensor* t) { return view_of(t).is_contiguous(); }

/// matmul_util.cpp IsTransposeLastTwoDims: ranks 2-6, the last two dims a
/// transposed dense matrix (not 1 x 1), batch dims dense above it.
bool is_transposed(const aclTensor* t) {
    const TensorView& v = view_of(t);
    const size_t rank = v.shape.size();
    if (rank < 2 || rank > 6) return false;
    if (v.strides[rank - 2] != 1 || v.strides[rank - 1] != v.shape[rank - 2]) return false;
    // A dense size past int64 is no matrix in memory.
    int64_t dense = 0;
    if (__builtin_mul_overflow(v.shape[rank - 1], v.shape[rank - 2], &dense)) return false;
    for (size_t d = rank - 2; d-- > 0;) {
        if (v.strides[d] != dense || __builtin_mul_overflow(dense, v.shape[d], &dense)) return false;
    }
    return !(v.shape[rank - 1] == 1 && v.shape[rank - 2] == 1);
}

/// "Parameter <name> of aclnnWeightQuantBatchMatmulV2GetWorkspaceSize has
/// incorrect value <actual>. Reason: <reason>." (OP_LOGE_FOR_INVALID_VALUE_WITH_REASON).
aclnnStatus invalid_value(const char* name, const char* actual, const char* reason) {
    return param_error(ACLNN_ERR_PARAM_INVALID, "Parameter %s of %s has incorrect value %s. Reason: %s.", name, kApi,
                       actual, reason);
}

// ContiguousCheck and OptionalContiguousCheck.
aclnnStatus check_layouts(const aclTensor* x, const aclTensor* weight, const aclTensor* scale, const aclTensor* offset,
                          const aclTensor* quantScale, const aclTensor* quantOffset, const aclTensor* bias,
                          const aclTensor* y) {
    if (!is_transposed(x) && !is_contiguous(x)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "only support x tensor is contiguous or transpose last two dims.");
    }
    const bool transposeWeight = is_transposed(weight);
    if (!transposeWeight && !is_contiguous(weight)) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "only support weight tensor is contiguous or transpose last two dims.");
    }
    if (!transposeWeight && !is_contiguous(scale)) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "only support antiquantScale tensor is contiguous or transpose last two dims.");
    }
    if (offset != nullptr && !transposeWeight && !is_contiguous(offset)) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "only support antiquantOffsetOptional tensor is contiguous or transpose last two dims.");
    }
    if (!is_contiguous(y)) return invalid_value("y", "not contiguous", "The value of y must be contiguous");
    const std::pair<const aclTensor*, const char*> optional[] = {
        {quantScale, "quantScaleOptional"}, {quantOffset, "quantOffsetOptional"}, {bias, "biasOptional"}};
    for (const auto& [t, name] : optional) {
        if (t != nullptr && !is_contiguous(t)) {
            return param_error(ACLNN_ERR_PARAM_INVALID, "only support %s tensor is contiguous.", name);
        }
    }
    return ACLNN_SUCCESS;
}

/// IsDimSupport: an optional tensor's rank within [low, high].
aclnnStatus check_rank(const aclTensor* t, const char* name, size_t low, size_t high) {
    if (t == nullptr) return ACLNN_SUCCESS;
    const size_t rank = shape_of(t).size();
    if (rank >= low && rank <= high) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "%s's dim should be in range [%zu, %zu]. actual is [%zu].", name, low,
                       high, rank);
}

/// IsFormatSupport: an optional tensor's storage format ND.
aclnnStatus check_nd(const aclTensor* t, const char* name) {
    if (t == nullptr || format_of(t) == ACL_FORMAT_ND) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "%s's format should be ND. actual is [%s].", name,
                       format_name(format_of(t)));
}

// BasicParamsCheck: CheckDtypeValid (A2's lists), CheckDimValid.
aclnnStatus check_dtypes_and_ranks(const aclTensor* x, const aclTensor* weight, const aclTensor* scale,
                                   const aclTensor* quantScale, const aclTensor* y) {
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(x, "x", {ACL_FLOAT16, ACL_BF16}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(weight, "weight", {ACL_INT8, ACL_INT4}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(scale, "antiquantScale", {ACL_FLOAT16, ACL_BF16, ACL_UINT64, ACL_INT64}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(y, "y", {ACL_FLOAT16, ACL_BF16, ACL_INT8}));
    if (quantScale != nullptr && view_of(y).dtype != ACL_INT8) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "when quantScaleOptional is not null, y's dtype should be [DT_INT8], actual is [%s].",
                           dtype_of(y));
    }
    if (quantScale == nullptr && view_of(y).dtype != view_of(x).dtype) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "when quantScaleOptional is null, y's dtype should be same as x [%s], actual is [%s].",
                           dtype_of(x), dtype_of(y));
    }
    ACLCPU_RETURN_IF_ERROR(check_rank(x, "x", 2, 2));
    ACLCPU_RETURN_IF_ERROR(check_rank(weight, "weight", 2, 2));
    return check_rank(y, "y", 2, 2);
}

bool is_fixpipe_scale(const aclTensor* scale) {
    return view_of(scale).dtype == ACL_UINT64 || view_of(scale).dtype == ACL_INT64;
}

// BasicParamsScaleCheck: CheckAntiquantForFixpipe, then
// CheckXYDtypeValidForFixpipe or CheckXDtypeValidForNormal.
aclnnStatus check_scale_dtypes(const aclTensor* x, const aclTensor* weight, const aclTensor* scale,
                               const aclTensor* offset, const aclTensor* y) {
    if (offset != nullptr && view_of(offset).dtype == ACL_INT32 && !is_fixpipe_scale(scale)) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "antiquantScale's dtype must be DT_UINT64 or DT_INT64 when antiquantOffset's dtype is "
                           "DT_INT32, actual antiquantScale's dtype is [%s].",
                           dtype_of(scale));
    }
    if (is_fixpipe_scale(scale)) {  // CheckXYDtypeValidForFixpipe, each in its words (%s: the dtype)
        const struct {
            const aclTensor* tensor;  ///< null: not checked
            aclDataType dtype;
            const char* format;
        } rules[] = {
            {x, ACL_FLOAT16,
             "x's dtype must be DT_FLOAT16 when antiquantScale's dtype is DT_UINT64/DT_INT64, actual x's dtype is "
             "[%s]."},
            {weight, ACL_INT8,
             "weight's dtype must be DT_INT8 when antiquantScale's dtype is DT_UINT64/DT_INT64,actual weight's "
             "dtype is [%s]."},
            {offset, ACL_INT32,
             "antiquantOffset's dtype must be DT_INT32 when antiquantScale's dtype is DT_UINT64/DT_INT64, actual "
             "antiquantOffset's dtype is [%s]."},
            {y, ACL_FLOAT16,
             "y's dtype should be [DT_FLOAT16] when antiquantScale's dtype is [DT_UINT64/DT_INT64], actual y's "
             "dtype is [%s]."},
        };
        for (const auto& rule : rules) {
            if (rule.tensor != nullptr && view_of(rule.tensor).dtype != rule.dtype) {
                return param_error(ACLNN_ERR_PARAM_INVALID, rule.format, dtype_of(rule.tensor));
            }
        }
        return ACLNN_SUCCESS;
    }
    if (view_of(x).dtype != view_of(scale).dtype) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "x's dtype must be same as antiquantScale's dtype, actual x's dtype is [%s], "
                           "antiquantScale's dtype is [%s].",
                           dtype_of(x), dtype_of(scale));
    }
    if (offset != nullptr && view_of(offset).dtype != view_of(scale).dtype) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "antiquantOffsetOptional's dtype must be same as antiquantScale's dtype, actual "
                           "antiquantOffsetOptional's dtype is [%s], antiquantScale's dtype is [%s].",
                           dtype_of(offset), dtype_of(scale));
    }
    return ACLNN_SUCCESS;
}

// BasicParamsBiasCheck: CheckBiasDtypeValid, CheckFormatValid (x, weight
// and bias are ReFormat'ed to ND unless FRACTAL_NZ, which only the weight
// may be; the scale is not),
// CheckBiasOptionalDimValid.
aclnnStatus check_bias_and_formats(const aclTensor* x, const aclTensor* scale,
                                   const aclTensor* bias) {
    if (bias != nullptr && view_of(x).dtype == ACL_FLOAT16 && view_of(bias).dtype != ACL_FLOAT16) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "When x dtype is [DF_FLOAT16], biasOptional's dtype should be [DT_FLOAT16], actual is [%s].",
                           dtype_of(bias));
    }
    if (bias != nullptr && view_of(x).dtype == ACL_BF16 && view_of(bias).dtype != ACL_FLOAT) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "biasOptional's dtype should be [DT_FLOAT], actual is [%s].",
                           dtype_of(bias));
    }
    if (format_of(x) == ACL_FORMAT_FRACTAL_NZ) ACLCPU_RETURN_IF_ERROR(check_nd(x, "x"));
    ACLCPU_RETURN_IF_ERROR(check_nd(scale, "antiquantScale"));
    if (bias != nullptr && format_of(bias) == ACL_FORMAT_FRACTAL_NZ) ACLCPU_RETURN_IF_ERROR(check_nd(bias, "biasOptional"));
    return check_rank(bias, "biasOptional", 1, 2);
}

// BasicOptionalParamsCheck: formats, ranks, CheckQuantScale (an INT64
// quantScale was retyped UINT64 by TensorPreProcess).
aclnnStatus check_optional_parameters(const aclTensor* scale, const aclTensor* offset, const aclTensor* quantScale,
                                      const aclTensor* quantOffset) {
    ACLCPU_RETURN_IF_ERROR(check_nd(offset, "antiquantOffsetOptional"));
    ACLCPU_RETURN_IF_ERROR(check_nd(quantScale, "quantScaleOptional"));
    ACLCPU_RETURN_IF_ERROR(check_nd(quantOffset, "quantOffsetOptional"));
    ACLCPU_RETURN_IF_ERROR(check_rank(scale, "antiquantScale", 1, 2));
    ACLCPU_RETURN_IF_ERROR(check_rank(offset, "antiquantOffsetOptional", 1, 2));
    ACLCPU_RETURN_IF_ERROR(check_rank(quantScale, "quantScaleOptional", 1, 2));
    ACLCPU_RETURN_IF_ERROR(check_rank(quantOffset, "quantOffsetOptional", 1, 2));
    if (quantScale == nullptr && quantOffset != nullptr) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "The sence quantScaleOptional is null and quantOffsetOptional is't null can't support.");
    }
    if (quantScale != nullptr && view_of(quantScale).dtype != ACL_UINT64 && view_of(quantScale).dtype != ACL_INT64) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "The type of quantScaleOptional only supports [UINT64], actual is [%s]. You should call "
                           "the aclnnTransQuantParam() interface.",
                           dtype_of(quantScale));
    }
    return ACLNN_SUCCESS;
}

// AdvancedWeightParamsCheck: CheckXWeight, CheckXWeightDimValue, CheckXWeightY.
aclnnStatus check_weight_shapes(const aclTensor* x, const aclTensor* weight, const aclTensor* y) {
    const int64_t kX = dim(x, 1);
    const int64_t mX = dim(x, 2);
    const int64_t kWeight = dim(weight, 2);
    const int64_t nWeight = dim(weight, 1);
    if (kX != kWeight) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "x's k and weight's k should be equal, actual x'k is %ld, weight's k is %ld.",
                           static_cast<long>(kX), static_cast<long>(kWeight));
    }
    if (kX < 1 || mX < 1 || nWeight < 1) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "m,k,n shouldn't be smaller than %d, actual m is %ld, k is %ld, n is %ld.", 1,
                           static_cast<long>(mX), static_cast<long>(kX), static_cast<long>(nWeight));
    }
    if (kX > kMaxKN || nWeight > kMaxKN || (is_transposed(x) && mX > kMaxKN)) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "k,n shouldn't be larger than %ld, actual k is %ld, n is %ld. When x is transposed, m "
                           "shouldn't be larger than %ld, actual m is %ld.",
                           static_cast<long>(kMaxKN), static_cast<long>(kX), static_cast<long>(nWeight),
                           static_cast<long>(kMaxKN), static_cast<long>(mX));
    }
    if (view_of(weight).dtype == ACL_INT4) {
        const bool transposeWeight = is_transposed(weight);
        if (transposeWeight && kWeight % 2 != 0) {
            return param_error(ACLNN_ERR_PARAM_INVALID,
                               "In the int4 scenario, if weight is transposed, k[%ld] should be an even number.",
                               static_cast<long>(kWeight));
        }
        if (!transposeWeight && nWeight % 2 != 0) {
            return param_error(ACLNN_ERR_PARAM_INVALID,
                               "In the int4 scenario, if weight is not transposed, n[%ld] should be an even number ",
                               static_cast<long>(nWeight));
        }
    }
    if (dim(y, 2) != mX) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "y's m and x's m should be equal, actual y's m is %ld, x's m is %ld.",
                           static_cast<long>(dim(y, 2)), static_cast<long>(mX));
    }
    if (dim(y, 1) != nWeight) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "y's n and weight's n should be equal, actual y's n is %ld, weight's n is %ld.",
                           static_cast<long>(dim(y, 1)), static_cast<long>(nWeight));
    }
    return ACLNN_SUCCESS;
}

// CheckAntiquantGroupSize.
aclnnStatus check_group_size(const aclTensor* x, int groupSize) {
    if (groupSize == 0) return ACLNN_SUCCESS;
    if (groupSize < 0) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "cannot support group_size[%d] less than 0.", groupSize);
    }
    if (groupSize % 32 != 0) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "antiquantGroupSize should be an integer multiple of 32, actual is %d.", groupSize);
    }
    if (int64_t{groupSize} + 1 > dim(x, 1)) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "antiquantGroupSize should not be greater than k-1, which is %ld.actual antiquantGroupSize "
                           "is %d.",
                           static_cast<long>(dim(x, 1) - 1), groupSize);
    }
    return ACLNN_SUCCESS;
}

// CheckAntiquantParamShape: [1] or [n] (group size 0), [1, 1] or [1, n]
// (group size 0), [ceil(k / group size), n]; the offset of the scale's shape.
aclnnStatus check_antiquant_shapes(const aclTensor* weight, const aclTensor* scale, const aclTensor* offset,
                                   int groupSize) {
    const int64_t k = dim(weight, 2);
    const int64_t n = dim(weight, 1);
    const Dims& s = shape_of(scale);
    const std::string shape = shape_string(s);
    if (s.size() == 1 && (groupSize > 0 || (s[0] != 1 && s[0] != n))) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "antiquantScale shape must be [1] or [%ld] and group size is 0 when the size is 1, but it "
                           "is %s and group size is [%d]",
                           static_cast<long>(n), shape.c_str(), groupSize);
    }
    if (s.size() == 2 && groupSize == 0 && (s[0] != 1 || (s[1] != n && s[1] != 1))) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "antiquantScale shape must be [%ld, %ld] or [1, 1]when the size is 2 and without group "
                           "size, but it is %s",
                           1L, static_cast<long>(n), shape.c_str());
    }
    if (s.size() == 2 && groupSize > 0) {
        const int64_t groups = (k + groupSize - 1) / groupSize;
        if (s[0] != groups || s[1] != n) {
            return param_error(ACLNN_ERR_PARAM_INVALID,
                               "antiquantScale shape must be [%ld, %ld] when the size is 2 and with group size, but "
                               "it is %s",
                               static_cast<long>(groups), static_cast<long>(n), shape.c_str());
        }
    }
    if (offset != nullptr && shape_of(offset) != s) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "The ViewShape of antiquant offset must same with scale when it is not null, but they are "
                           "%s and %s",
                           shape_string(shape_of(offset)).c_str(), shape.c_str());
    }
    return ACLNN_SUCCESS;
}

// CheckQuantParamShape and CheckBiasShape.
aclnnStatus check_output_parameter_shapes(const aclTensor* weight, const aclTensor* quantScale,
                                          const aclTensor* quantOffset, const aclTensor* bias) {
    const int64_t n = dim(weight, 1);
    if (quantScale != nullptr) {
        const Dims& q = shape_of(quantScale);
        const std::string shape = shape_string(q);
        if (q.size() == 1 && q[0] != 0 && q[0] != 1 && q[0] != n) {
            return param_error(ACLNN_ERR_PARAM_INVALID,
                               "when quantScaleOptional's shape size is 1, it's shape should be [%d], [%d] or [%ld], "
                               "actual is %s",
                               0, 1, static_cast<long>(n), shape.c_str());
        }
        if (q.size() == 2 && (q[0] != 1 || q[1] != n)) {
            return param_error(ACLNN_ERR_PARAM_INVALID,
                               "when quantScaleOptional's shape size is 2, it's shape should be [%d, %ld], actual is "
                               "%s.",
                               1, static_cast<long>(n), shape.c_str());
        }
        if (quantOffset != nullptr && shape_of(quantOffset) != q) {
            return param_error(ACLNN_ERR_PARAM_INVALID,
                               "expected tensor for quantOffsetOptional to have same size as tensor for "
                               "quantScaleOptional, but %s does not equal %s.",
                               shape_string(shape_of(quantOffset)).c_str(), shape.c_str());
        }
    }
    if (bias == nullptr) return ACLNN_SUCCESS;
    const Dims& b = shape_of(bias);
    if (b.size() == 1 && b[0] != 0 && b[0] != n) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "when bias's shape size is 1, it's shape should be [%d], or [%ld], actual is %s.", 0,
                           static_cast<long>(n), shape_string(b).c_str());
    }
    if (b.size() == 2 && (b[0] != 1 || b[1] != n)) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "when bias's shape size is 2, it's shape should be [%d, %ld], actual is %s.", 1,
                           static_cast<long>(n), shape_string(b).c_str());
    }
    return ACLNN_SUCCESS;
}

/// Where the kernel reads a [rows, cols] scale or offset: CheckContiguous
/// reads it as the weight is laid out -- a transposed weight's parameters
/// as a transposed dense matrix (CreateTransposedView over the storage,
/// whatever the view's strides), else dense; a dim of 1 broadcasts.
QuantOperand parameter_layout(const aclTensor* t, bool transposeWeight) {
    const Dims& s = shape_of(t);
    const int64_t rows = s.size() == 2 ? s[0] : 1;
    const int64_t cols = s[s.size() - 1];
    QuantOperand at{view_of(t).offset, transposeWeight ? 1 : cols, transposeWeight ? rows : 1};
    if (rows == 1) at.rowStride = 0;
    if (cols == 1) at.colStride = 0;
    return at;
}

/// A dense or transposed [rows, cols] matrix, as the kernel reads it.
QuantOperand matrix_layout(const aclTensor* t, bool transposed) {
    const int64_t rows = dim(t, 2);
    const int64_t cols = dim(t, 1);
    return {view_of(t).offset, transposed ? 1 : cols, transposed ? rows : 1};
}

WeightQuantSpec plan(const aclTensor* x, const aclTensor* weight, const aclTensor* scale, const aclTensor* offset,
                     const aclTensor* bias, int groupSize, const aclTensor* y) {
    WeightQuantSpec spec;
    spec.m = dim(x, 2);
    spec.k = dim(x, 1);
    spec.n = dim(weight, 1);
    spec.xDtype = view_of(x).dtype;
    spec.x = matrix_layout(x, is_transposed(x));
    spec.weightDtype = view_of(weight).dtype;
    const bool transposeWeight = is_transposed(weight);
    spec.weight = matrix_layout(weight, transposeWeight);
    spec.groupSize = groupSize > 0 ? groupSize : spec.k;
    spec.scale = parameter_layout(scale, transposeWeight);
    spec.hasOffset = offset != nullptr;
    if (spec.hasOffset) spec.offset = parameter_layout(offset, transposeWeight);
    if (bias != nullptr && !is_empty(bias)) {
        spec.biasDtype = view_of(bias).dtype;
        spec.bias = {view_of(bias).offset, 0, 1};
    }
    spec.yDtype = view_of(y).dtype;
    spec.y = matrix_layout(y, false);
    return spec;
}

aclnnStatus weight_quant_batch_matmul_v2(const aclTensor* x, const aclTensor* weight, const aclTensor* scale,
                                         const aclTensor* offset, const aclTensor* quantScale,
                                         const aclTensor* quantOffset, const aclTensor* bias, int groupSize,
                                         const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{x, "x"}, {weight, "weight"}, {scale, "antiquantScale"}, {y, "y"}}));
    ACLCPU_RETURN_IF_ERROR(check_layouts(x, weight, scale, offset, quantScale, quantOffset, bias, y));
    ACLCPU_RETURN_IF_ERROR(check_dtypes_and_ranks(x, weight, scale, quantScale, y));
    ACLCPU_RETURN_IF_ERROR(check_scale_dtypes(x, weight, scale, offset, y));
    ACLCPU_RETURN_IF_ERROR(check_bias_and_formats(x, scale, bias));
    ACLCPU_RETURN_IF_ERROR(check_optional_parameters(scale, offset, quantScale, quantOffset));
    ACLCPU_RETURN_IF_ERROR(check_weight_shapes(x, weight, y));
    ACLCPU_RETURN_IF_ERROR(check_group_size(x, groupSize));
    ACLCPU_RETURN_IF_ERROR(check_antiquant_shapes(weight, scale, offset, groupSize));
    ACLCPU_RETURN_IF_ERROR(check_output_parameter_shapes(weight, quantScale, quantOffset, bias));
    // Paths A2 has that acl-cpu does not compute yet: the INT8 y of
    // quantScale, the fixpipe antiquant (UINT64/INT64 scale) and the
    // FRACTAL_NZ weight.
    if (quantScale != nullptr || is_fixpipe_scale(scale) || format_of(weight) == ACL_FORMAT_FRACTAL_NZ) {
        return not_yet_phase1(kApi, "WeightQuantBatchMatmulV2", executor);
    }
    std::vector<const aclTensor*> inputs = {x, weight, scale};
    const std::pair<const aclTensor*, const char*> guarded[] = {
        {x, "x"}, {weight, "weight"}, {scale, "antiquantScale"}, {offset, "antiquantOffsetOptional"},
        {bias, "biasOptional"}, {y, "y"}};
    for (const auto& [t, name] : guarded) {
        if (t != nullptr) ACLCPU_RETURN_IF_ERROR(check_view_in_storage(t, name));
    }
    if (offset != nullptr) inputs.push_back(offset);
    if (bias != nullptr) inputs.push_back(bias);
    return hand_back_weight_quant_matmul(plan(x, weight, scale, offset, bias, groupSize, y),
                                         inputs, {y}, workspaceSize, executor);
}

}  // namespace
}  // namespace aclcpu::ops

extern "C" aclnnStatus aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(
    const aclTensor* x, const aclTensor* weight, const aclTensor* antiquantScale,
    const aclTensor* antiquantOffsetOptional, const aclTensor* quantScaleOptional, const aclTensor* quantOffsetOptional,
    const aclTensor* biasOptional, int antiquantGroupSize, const aclTensor* y, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
    return aclcpu::ops::weight_quant_batch_matmul_v2(x, weight, antiquantScale, antiquantOffsetOptional,
                                                     quantScaleOptional, quantOffsetOptional, biasOptional,
                                                     antiquantGroupSize, y, workspaceSize, executor);
}

ACLCPU_DEFINE_PHASE2(aclnnWeightQuantBatchMatmulV2)
