// acl-cpu: aclnnMm, aclnnBatchMatMul, aclnnMatmul and aclnnMv of ops-nn
// (matmul/mat_mul_v3, matmul/batch_mat_mul_v3, matmul/mv), on the engine of
// common/matmul.hpp.  Each is its checks, in the op_api's order, and a
// MatmulSpec; README.md tells the rules and where they come from.
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mv.h"

#include "common/dtype.hpp"
#include "common/matmul.hpp"
#include "common/op_checks.hpp"
#include "common/phase2.hpp"
#include "matmul/cube_rules.hpp"

namespace aclcpu::ops {
namespace {

// aclnn_mm.cpp: CheckNotNull (out first), BuildRule()->CheckInput,
// CheckShapeValid, CheckOutputShapeValid; out and an operand empty ->
// nothing to do.
aclnnStatus mm(const aclTensor* self, const aclTensor* mat2, aclTensor* out, int8_t cubeMathType,
               uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{out, "out"}, {self, "self"}, {mat2, "mat2"}}));
    ACLCPU_RETURN_IF_ERROR(check_cube_input(self, mat2, out, cubeMathType));
    ACLCPU_RETURN_IF_ERROR(check_dim_count(mat2, "mat2", 2));
    ACLCPU_RETURN_IF_ERROR(check_dim_count(self, "self", 2));
    const Dims& s = view_of(self).shape;
    const Dims& m2 = view_of(mat2).shape;
    if (s[1] != m2[0]) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "The k-axis of the two inputs are different, self Kdim[%ld], mat2 Kdim[%ld].",
                           static_cast<long>(s[1]), static_cast<long>(m2[0]));
    }
    ACLCPU_RETURN_IF_ERROR(check_dim_count(out, "out", 2));
    const Dims& o = view_of(out).shape;
    if (o[0] != s[0] || o[1] != m2[1]) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "output's shape is not match input, out_m[%ld] must be same with self_m[%ld], out_n[%ld] "
                           "must be same with mat2_n[%ld].",
                           static_cast<long>(o[0]), static_cast<long>(s[0]), static_cast<long>(o[1]),
                           static_cast<long>(m2[1]));
    }
    return hand_back_product({"aclnnMm", self, mat2, out, cubeMathType, view_of(self), view_of(mat2), view_of(out),
                              Dims{}},
                             workspaceSize, executor);
}

// aclnn_batch_matmul.cpp CheckShape: the op_api's argument names
// (selfTensor, ...) are in its messages.
aclnnStatus check_bmm_shapes(const aclTensor* self, const aclTensor* mat2, const aclTensor* out) {
    ACLCPU_RETURN_IF_ERROR(check_dim_count(self, "selfTensor", 3));
    ACLCPU_RETURN_IF_ERROR(check_dim_count(mat2, "otherTensor", 3));
    ACLCPU_RETURN_IF_ERROR(check_dim_count(out, "outTensor", 3));
    const Dims& s = view_of(self).shape;
    const Dims& m2 = view_of(mat2).shape;
    const Dims& o = view_of(out).shape;
    if ((m2[1] == 1 || m2[2] == 1) && format_of(mat2) == ACL_FORMAT_FRACTAL_NZ) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "The k-axis or n-axis can not be 1.");
    }
    if (s[2] != m2[1]) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "self's last dim and mat2's penultimate dim shoule be same, self [%ld], mat2 [%ld].",
                           static_cast<long>(s[2]), static_cast<long>(m2[1]));
    }
    if (s[0] != m2[0] && s[0] != 1 && m2[0] != 1) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "self's first dim and mat2's first dim shoule be same, or at least one of the self's first "
                           "dim and mat2's first dim is 1.Now self [%ld], mat2 [%ld].",
                           static_cast<long>(s[0]), static_cast<long>(m2[0]));
    }
    const int64_t batch = std::max(s[0], m2[0]);
    if (o[1] != s[1] || o[2] != m2[2] || o[0] != batch) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "output's shape is not match input, out_m[%ld] must be same with self_m[%ld], out_n[%ld] "
                           "must be same with other_n[%ld], out_batch[%ld] must be same with input_batch[%ld].",
                           static_cast<long>(o[1]), static_cast<long>(s[1]), static_cast<long>(o[2]),
                           static_cast<long>(m2[2]), static_cast<long>(o[0]), static_cast<long>(batch));
    }
    return ACLNN_SUCCESS;
}

/// BatchMatMul's product once checked.  CheckShape takes the larger batch
/// for out's, so a batch of 0 beside one of 1 passes it with out's batch 1:
/// nothing to compute from (the op_api's graph would copy an empty
/// product), acl-cpu writes nothing.
aclnnStatus hand_back_bmm(const char* name, const aclTensor* self, const aclTensor* mat2, aclTensor* out,
                          int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (view_of(self).shape[0] == 0 || view_of(mat2).shape[0] == 0) {
        return hand_back_product({name, self, mat2, out, cubeMathType, {}, {}, {}, {}}, workspaceSize, executor,
                                 /*nothingToDo=*/true);
    }
    const Dims batch = {view_of(out).shape[0]};
    return hand_back_product({name, self, mat2, out, cubeMathType, view_of(self), view_of(mat2), view_of(out), batch},
                             workspaceSize, executor);
}

// aclnn_batch_matmul.cpp: USE_FP32_ADD routed to KEEP_DTYPE, CheckParamsV2
// (null, CheckInput, CheckShape, CheckFormat); a batch, M or N of 0 ->
// nothing to do.
aclnnStatus batch_matmul(const aclTensor* self, const aclTensor* mat2, aclTensor* out, int8_t cubeMathType,
                         uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (cubeMathType == kUseFp32Add) cubeMathType = kKeepDtype;
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {mat2, "mat2"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_cube_input(self, mat2, out, cubeMathType));
    ACLCPU_RETURN_IF_ERROR(check_bmm_shapes(self, mat2, out));
    ACLCPU_RETURN_IF_ERROR(check_not_nz(self, out));
    return hand_back_bmm("aclnnBatchMatMul", self, mat2, out, cubeMathType, workspaceSize, executor);
}

// aclnn_batch_matmul.cpp aclnnBatchMatMulWeightNz: USE_FP32_ADD routed to
// KEEP_DTYPE, CheckParamsWeightNz (null, CheckDtypeValidWeightNz,
// CheckShape, CheckStorageShape, CheckMathType).  mat2's format is not
// checked: an ND mat2 is an ordinary BatchMatMul.
aclnnStatus batch_matmul_weight_nz(const aclTensor* self, const aclTensor* mat2, aclTensor* out, int8_t cubeMathType,
                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (cubeMathType == kUseFp32Add) cubeMathType = kKeepDtype;
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {mat2, "mat2"}, {out, "out"}}));
    const aclDataType selfDtype = view_of(self).dtype;
    const aclDataType outDtype = view_of(out).dtype;
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{self, "self"}, {mat2, "mat2"}}, kHalfDtypes));
    // NeedEnableFp32Output: a 16-bit pair may write FLOAT.
    const bool into32 = selfDtype == view_of(mat2).dtype && outDtype == ACL_FLOAT;
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(out, "out", into32 ? kCubeDtypes : kHalfDtypes));
    if (selfDtype != view_of(mat2).dtype) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "self's dtype [%s] and mat2's dtype [%s] are not equal.",
                           dtype_name(selfDtype), dtype_name(view_of(mat2).dtype));
    }
    if (outDtype != ACL_FLOAT && selfDtype != outDtype) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "self's dtype [%s] and out's dtype [%s] are not equal.",
                           dtype_name(selfDtype), dtype_name(outDtype));
    }
    ACLCPU_RETURN_IF_ERROR(check_bmm_shapes(self, mat2, out));
    if (storage_shape_of(mat2).size() != 5) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Only support mat2 storageShapeDim is 5, which are [%zu].",
                           storage_shape_of(mat2).size());
    }
    ACLCPU_RETURN_IF_ERROR(check_cube_input(self, mat2, out, cubeMathType));
    return hand_back_bmm("aclnnBatchMatMulWeightNz", self, mat2, out, cubeMathType, workspaceSize, executor);
}

/// The batch dims of a view of rank >= 2 ([1] when it has none, as the
/// op_api's GetBroadcastShape).
Dims batch_dims(const Dims& shape) {
    Dims batch(shape.data(), shape.size() - 2);
    if (batch.empty()) batch.push_back(1);
    return batch;
}

// aclnn_matmul.cpp CheckShapeValid: ranks 1-6, the k-axes, the batch dims
// broadcast (both ranks >= 2).
aclnnStatus check_matmul_shapes(const aclTensor* self, const aclTensor* mat2) {
    ACLCPU_RETURN_IF_ERROR(check_max_dim(self, "self", 6));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(mat2, "mat2", 6));
    const Dims& s = view_of(self).shape;
    const Dims& m2 = view_of(mat2).shape;
    const std::string shapes = shape_string(s) + ", " + shape_string(m2);
    if (s.empty() || m2.empty()) return param_error(ACLNN_ERR_PARAM_INVALID, "Matmul not support %s", shapes.c_str());
    const int64_t mat2K = m2.size() <= 2 ? m2[0] : m2[m2.size() - 2];
    if (s[s.size() - 1] != mat2K) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "The k-axis of the two inputs are different %s", shapes.c_str());
    }
    Dims broadcast;
    if (s.size() >= 2 && m2.size() >= 2 && !broadcast_shapes(batch_dims(s), batch_dims(m2), &broadcast)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Broadcast %s and %s failed.", shape_string(s).c_str(),
                           shape_string(m2).c_str());
    }
    return ACLNN_SUCCESS;
}

// aclnn_matmul.cpp: torch.matmul's ranks -- a vector self is one row, a
// vector mat2 one column, each dropped from out; batch dims broadcast.
// The op_api checks no out shape (its last ViewCopy needs out of the
// result's); acl-cpu checks it, 161002.
aclnnStatus matmul(const aclTensor* self, const aclTensor* mat2, aclTensor* out, int8_t cubeMathType,
                   uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {mat2, "mat2"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_cube_input(self, mat2, out, cubeMathType));
    ACLCPU_RETURN_IF_ERROR(check_matmul_shapes(self, mat2));
    ACLCPU_RETURN_IF_ERROR(check_not_nz(self, out));
    const bool selfVector = view_of(self).shape.size() == 1;
    const bool mat2Vector = view_of(mat2).shape.size() == 1;
    const TensorView a = selfVector ? unsqueezed(view_of(self), 0) : view_of(self);
    const TensorView b = mat2Vector ? unsqueezed(view_of(mat2), 1) : view_of(mat2);
    Dims batch;
    broadcast_shapes(Dims(a.shape.data(), a.shape.size() - 2), Dims(b.shape.data(), b.shape.size() - 2), &batch);
    Dims outShape = batch;
    if (!selfVector) outShape.push_back(a.shape[a.shape.size() - 2]);
    if (!mat2Vector) outShape.push_back(b.shape[b.shape.size() - 1]);
    ACLCPU_RETURN_IF_ERROR(check_shape_is(out, "out", outShape));
    TensorView c = view_of(out);
    if (mat2Vector) c = unsqueezed(c, c.shape.size());
    if (selfVector) c = unsqueezed(c, c.shape.size() - 1);
    return hand_back_product({"aclnnMatmul", self, mat2, out, cubeMathType, a, b, c, batch}, workspaceSize, executor);
}

// aclnn_matmul.cpp CheckWeightNzDtypeValid (A2: FLOAT weights too).
aclnnStatus check_weight_nz_dtypes(const aclTensor* self, const aclTensor* mat2, const aclTensor* out,
                                   int8_t cubeMathType) {
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{self, "self"}, {mat2, "mat2"}, {out, "out"}}, kCubeDtypes));
    const aclDataType s = view_of(self).dtype;
    const aclDataType m2 = view_of(mat2).dtype;
    if (cubeMathType == kKeepDtype && view_of(out).dtype == ACL_FLOAT16 && s == ACL_FLOAT) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Input tensor's dtype[DT_FLOAT] should be same with output's dtype[DT_FLOAT16].");
    }
    const bool mixedHalves = (s == ACL_FLOAT16 && m2 == ACL_BF16) || (s == ACL_BF16 && m2 == ACL_FLOAT16);
    if (format_of(mat2) == ACL_FORMAT_FRACTAL_NZ && mixedHalves) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "The dtypes of self and mat2 must be both DT_BF16 or both DT_FLOAT16, now self's dtype is "
                           "[%s], mat2's dtype is [%s]",
                           dtype_name(s), dtype_name(m2));
    }
    return ACLNN_SUCCESS;
}

// aclnn_matmul.cpp CheckWeightNzShapeValid.
aclnnStatus check_weight_nz_shapes(const aclTensor* self, const aclTensor* mat2) {
    if (format_of(mat2) != ACL_FORMAT_FRACTAL_NZ) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Format of mat2 must be FRACTAL_NZ, actual is %s.",
                           format_name(format_of(mat2)));
    }
    ACLCPU_RETURN_IF_ERROR(check_dim_count(self, "self", 2));
    ACLCPU_RETURN_IF_ERROR(check_dim_count(mat2, "mat2", 2));
    if (storage_shape_of(mat2).size() != 4) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Only support mat2 storageShapeDim is 4, which are [%zu].",
                           storage_shape_of(mat2).size());
    }
    const Dims& s = view_of(self).shape;
    const Dims& m2 = view_of(mat2).shape;
    if (m2[0] == 1 || m2[1] == 1) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Not supported mat2 n = 1 or k = 1 when format is FRACTAL_NZ, mat2: %s",
                           shape_string(m2).c_str());
    }
    if (s[1] != m2[0]) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "The k-axis of the two inputs are different %s, %s",
                           shape_string(s).c_str(), shape_string(m2).c_str());
    }
    return ACLNN_SUCCESS;
}

// aclnn_matmul.cpp aclnnMatmulWeightNz: CheckWeightNzParam (null, dtypes,
// shapes, CheckInput), then BuildMatMulWeightNzGraph (empty -> zeros, the
// storage's element count, the product).  The op_api checks no out shape
// (its Reshape needs the product's); acl-cpu checks it, 161002.
aclnnStatus matmul_weight_nz(const aclTensor* self, const aclTensor* mat2, aclTensor* out, int8_t cubeMathType,
                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {mat2, "mat2"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_weight_nz_dtypes(self, mat2, out, cubeMathType));
    ACLCPU_RETURN_IF_ERROR(check_weight_nz_shapes(self, mat2));
    ACLCPU_RETURN_IF_ERROR(check_cube_input(self, mat2, out, cubeMathType));
    ACLCPU_RETURN_IF_ERROR(check_shape_is(out, "out", {view_of(self).shape[0], view_of(mat2).shape[1]}));
    return hand_back_product({"aclnnMatmulWeightNz", self, mat2, out, cubeMathType, view_of(self), view_of(mat2),
                              view_of(out), Dims{}},
                             workspaceSize, executor);
}

// aclnn_mv.cpp: USE_FP32_ADD routed to KEEP_DTYPE; null; out's dtype
// vec's, and self's too unless self is empty; CheckInput; self [n, m], vec
// [m], out [n]; out empty -> nothing to do, self empty -> zeros.
aclnnStatus mv(const aclTensor* self, const aclTensor* vec, aclTensor* out, int8_t cubeMathType,
               uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (cubeMathType == kUseFp32Add) cubeMathType = kKeepDtype;
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {vec, "vec"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(out, "out", vec, "vec"));
    if (!is_empty(self)) ACLCPU_RETURN_IF_ERROR(check_same_dtype(self, "self", vec, "vec"));
    ACLCPU_RETURN_IF_ERROR(check_cube_input(self, vec, out, cubeMathType));
    ACLCPU_RETURN_IF_ERROR(check_dim_count(self, "self", 2));
    ACLCPU_RETURN_IF_ERROR(check_dim_count(vec, "vec", 1));
    ACLCPU_RETURN_IF_ERROR(check_dim_count(out, "out", 1));
    ACLCPU_RETURN_IF_ERROR(check_shape_is(vec, "vec", {view_of(self).shape[1]}));
    ACLCPU_RETURN_IF_ERROR(check_shape_is(out, "out", {view_of(self).shape[0]}));
    const TensorView column = unsqueezed(view_of(vec), 1);
    const TensorView c = unsqueezed(view_of(out), 1);
    return hand_back_product({"aclnnMv", self, vec, out, cubeMathType, view_of(self), column, c, Dims{}},
                             workspaceSize, executor);
}

}  // namespace
}  // namespace aclcpu::ops

extern "C" {

aclnnStatus aclnnMmGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out, int8_t cubeMathType,
                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::mm(self, mat2, out, cubeMathType, workspaceSize, executor);
}

aclnnStatus aclnnBatchMatMulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out,
                                             int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::batch_matmul(self, mat2, out, cubeMathType, workspaceSize, executor);
}

aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out,
                                        int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::matmul(self, mat2, out, cubeMathType, workspaceSize, executor);
}

aclnnStatus aclnnMatmulWeightNzGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out,
                                                int8_t cubeMathType, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
    return aclcpu::ops::matmul_weight_nz(self, mat2, out, cubeMathType, workspaceSize, executor);
}

aclnnStatus aclnnBatchMatMulWeightNzGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out,
                                                     int8_t cubeMathType, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
    return aclcpu::ops::batch_matmul_weight_nz(self, mat2, out, cubeMathType, workspaceSize, executor);
}

aclnnStatus aclnnMvGetWorkspaceSize(const aclTensor* self, const aclTensor* vec, aclTensor* out, int8_t cubeMathType,
                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::mv(self, vec, out, cubeMathType, workspaceSize, executor);
}

}  // extern "C"

ACLCPU_DEFINE_PHASE2(aclnnMm)
ACLCPU_DEFINE_PHASE2(aclnnBatchMatMul)
ACLCPU_DEFINE_PHASE2(aclnnMatmul)
ACLCPU_DEFINE_PHASE2(aclnnMv)
ACLCPU_DEFINE_PHASE2(aclnnMatmulWeightNz)
ACLCPU_DEFINE_PHASE2(aclnnBatchMatMulWeightNz)
