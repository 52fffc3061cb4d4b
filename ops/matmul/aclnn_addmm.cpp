// acl-cpu: aclnnAddmm, aclnnInplaceAddmm (ops-nn matmul/mat_mul_v3
// op_api/aclnn_addmm.cpp) and aclnnBaddbmm, aclnnInplaceBaddbmm
// (matmul/batch_mat_mul_v3 op_api/aclnn_baddbmm.cpp): out = beta * self +
// alpha * (mat1 @ mat2), self broadcast.  Each is its checks, in the
// op_api's order, and a product with an addend on the engine of
// common/matmul.hpp; README.md tells the rules.
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_baddbmm.h"

#include <cmath>
#include <limits>

#include "common/dtype.hpp"
#include "common/matmul.hpp"
#include "common/op_checks.hpp"
#include "common/phase2.hpp"
#include "matmul/cube_rules.hpp"

namespace aclcpu::ops {
namespace {


/// view broadcast to shape (trailing dims aligned; zero strides where view
/// has no dim or a dim of 1).  Precondition: view broadcasts to shape.
TensorView broadcast_view(const TensorView& view, const Dims& shape) {
    TensorView result = view;
    result.shape = shape;
    result.strides.resize(0);
    const size_t lead = shape.size() - view.shape.size();
    for (size_t d = 0; d < shape.size(); ++d) {
        const bool own = d >= lead && view.shape[d - lead] == shape[d];
        result.strides.push_back(own ? view.strides[d - lead] : 0);
    }
    return result;
}

/// A scalar as the op_api's choice of graph reads it: within FLT_EPSILON of
/// 0 is 0 (the Beta0 graphs, Addmm's Alpha0 graph).
float graph_scalar(const aclScalar* scalar) {
    const float value = to_float(scalar);
    return std::fabs(value) <= std::numeric_limits<float>::epsilon() ? 0.0f : value;
}

struct AddPlan {
    const char* name;
    const aclTensor* self;
    const aclTensor* mat1;
    const aclTensor* mat2;
    float alpha;
    float beta;
    aclTensor* out;
    int8_t cubeMathType;
    bool batched;  ///< Baddbmm
};

/// The roundings of the op_api's graphs on A2.  GemmV3WithAlphaBeta (fp32
/// throughout, one rounding) under USE_FP32_ADD with self, mat1 and mat2 of
/// one 16-bit dtype, or a 16-bit pair with a FLOAT out (and, unless
/// USE_FP32_ADD, self not broadcast), self of mat1's dtype or FLOAT.
/// Otherwise the product in the Cube's output dtype -- FLOAT for Addmm's
/// 16-bit pairs under KEEP_DTYPE, USE_HF32, USE_FP32_ADD, which it routes to
/// a FLOAT-out product --, Muls(self, beta) in self's dtype (FLOAT for a
/// 16-bit pair into FLOAT), Add / Axpy in their promoted dtype; beta 0:
/// Muls(product, alpha) in the product's dtype.
void plan_rounding(const AddPlan& p, bool selfBroadcasts, ProductPlan* plan) {
    const aclDataType selfDtype = view_of(p.self).dtype;
    const aclDataType aDtype = view_of(p.mat1).dtype;
    const aclDataType outDtype = view_of(p.out).dtype;
    const bool lowPair = aDtype == view_of(p.mat2).dtype && aDtype != ACL_FLOAT;
    const bool fp32Add = p.cubeMathType == kUseFp32Add;
    const bool into32 = lowPair && outDtype == ACL_FLOAT;
    const bool biasValid = selfDtype == aDtype || selfDtype == ACL_FLOAT;
    const bool gemmAlphaBeta = fp32Add && lowPair && selfDtype == aDtype;
    const bool fused = p.beta == 0.0f ? gemmAlphaBeta
                                      : gemmAlphaBeta || (into32 && biasValid && (fp32Add || !selfBroadcasts));
    MatmulAddend& addend = plan->addend;
    addend.alpha = p.alpha;
    addend.beta = p.beta;
    if (fused) {
        plan->fp32Result = true;
        addend.scaledDtype = ACL_FLOAT;
        addend.sumDtype = into32 ? ACL_FLOAT : aDtype;
        return;
    }
    const int8_t cmt = p.cubeMathType;
    plan->fp32Result = !p.batched && lowPair && (fp32Add || (p.beta != 0.0f && (cmt == kKeepDtype || cmt == kUseHf32)));
    const aclDataType product = plan->fp32Result ? ACL_FLOAT : cube_precision(aDtype, aDtype, outDtype, cmt).result;
    const bool scaled32 = lowPair && (outDtype == ACL_FLOAT || (!p.batched && fp32Add));
    addend.scaledDtype = scaled32 ? ACL_FLOAT : selfDtype;
    addend.sumDtype = p.beta == 0.0f ? product : promote_types(addend.scaledDtype, product);
}

/// The product with its addend: views as matrices over out's batch; Addmm's
/// alpha 0 or K 0 leave beta * self alone (its Alpha0 graph).
aclnnStatus hand_back_addend(const AddPlan& p, bool selfBroadcasts, uint64_t* workspaceSize,
                             aclOpExecutor** executor) {
    const TensorView& c = view_of(p.out);
    ProductPlan plan{p.name, p.mat1, p.mat2, p.out, p.cubeMathType, view_of(p.mat1), view_of(p.mat2), c,
                     Dims(c.shape.data(), c.shape.size() - 2)};
    plan.bias = p.self;
    plan.biasView = broadcast_view(view_of(p.self), c.shape);
    const int64_t k = plan.a.shape[plan.a.shape.size() - 1];
    if (!p.batched && (p.alpha == 0.0f || k == 0)) {
        plan.a.shape[plan.a.shape.size() - 1] = 0;
        plan.b.shape[plan.b.shape.size() - 2] = 0;
        plan.addend = {{}, ACL_FLOAT, 0, p.beta, view_of(p.self).dtype, view_of(p.self).dtype};
    } else {
        plan_rounding(p, selfBroadcasts, &plan);
    }
    return hand_back_product(plan, workspaceSize, executor);
}

/// Shape of self, broadcast with the product's (CheckBroadcastShape /
/// BroadcastInferShape).
Dims broadcast_with(const aclTensor* self, const Dims& product, bool* ok) {
    Dims shape;
    *ok = broadcast_shapes(view_of(self).shape, product, &shape);
    return shape;
}

/// Addmm's checks from CheckBroadcast on (CheckOutShape, then an empty
/// self or product -> nothing to do) and its product.
aclnnStatus finish_addmm(const AddPlan& p, uint64_t* workspaceSize, aclOpExecutor** executor) {
    const Dims& a = view_of(p.mat1).shape;
    const Dims& b = view_of(p.mat2).shape;
    const Dims& s = view_of(p.self).shape;
    if (s.size() > 2) return param_error(ACLNN_ERR_PARAM_INVALID, "The dim of self should be less than 3.");
    if (storage_shape_of(p.self).size() < 1) return param_error(ACLNN_ERR_PARAM_INVALID, "Self can not be empty.");
    const Dims product = {a[0], b[1]};
    bool ok = false;
    const Dims broadcast = broadcast_with(p.self, product, &ok);
    if (!ok) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "The size of tensor self %s must match the size %s.",
                           shape_string(s).c_str(), shape_string(product).c_str());
    }
    // CheckOutShape; an empty product wants an empty out.
    const bool emptyProduct = a[0] == 0 || b[1] == 0;
    if (emptyProduct ? !is_empty(p.out) : view_of(p.out).shape != product) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Shape of out should be [%ld,%ld], but the current is %s.",
                           static_cast<long>(a[0]), static_cast<long>(b[1]),
                           shape_string(view_of(p.out).shape).c_str());
    }
    if (is_empty(p.self) || emptyProduct) {
        ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
        return hand_back_empty_executor({p.self, p.mat1, p.mat2}, {p.out}, workspaceSize, executor);
    }
    // acl-cpu: a self larger than the product would not fit out (CANN's
    // ViewCopy would fail in phase 2).
    if (broadcast != product) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "acl-cpu: self %s broadcasts past the product %s.",
                           shape_string(s).c_str(), shape_string(product).c_str());
    }
    return hand_back_addend(p, s != product, workspaceSize, executor);
}

aclnnStatus check_addmm_nulls(const aclTensor* self, const aclTensor* mat1, const aclTensor* mat2,
                              const aclScalar* beta, const aclScalar* alpha, const aclTensor* out) {
    return check_not_null(
        {{self, "self"}, {mat1, "mat1"}, {mat2, "mat2"}, {beta, "beta"}, {alpha, "alpha"}, {out, "out"}});
}

// aclnn_addmm.cpp CheckInputParams: null (out last), BuildRule()->CheckInput
// with self as the bias, CheckMatmul, CheckBroadcast, CheckOutShape,
// CheckCubeMathTypeForAddMm (its range already checked).
aclnnStatus addmm(const char* name, const aclTensor* self, const aclTensor* mat1, const aclTensor* mat2,
                  const aclScalar* beta, const aclScalar* alpha, aclTensor* out, int8_t cubeMathType,
                  uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_addmm_nulls(self, mat1, mat2, beta, alpha, out));
    ACLCPU_RETURN_IF_ERROR(check_cube_input(mat1, mat2, out, cubeMathType, self));
    ACLCPU_RETURN_IF_ERROR(check_dim_count(mat1, "mat1", 2));
    ACLCPU_RETURN_IF_ERROR(check_dim_count(mat2, "mat2", 2));
    if (view_of(mat1).shape[1] != view_of(mat2).shape[0]) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "The k-axis of the two inputs are different.");
    }
    if (format_of(self) == ACL_FORMAT_FRACTAL_NZ) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "The formats of self should be ND, but the actual formats are [%s]",
                           format_name(format_of(self)));
    }
    return finish_addmm({name, self, mat1, mat2, graph_scalar(alpha), graph_scalar(beta), out, cubeMathType, false},
                        workspaceSize, executor);
}

// aclnn_addmm.cpp AddmmCheckWeightNzParam: null, formats (self and mat1 ND,
// mat2 NZ), CheckWeightNzDtypeValid (mat1, mat2 16-bit), CheckInput,
// CheckMatmulWeightNz, then Addmm's CheckBroadcast and CheckOutShape.
aclnnStatus addmm_weight_nz(const aclTensor* self, const aclTensor* mat1, const aclTensor* mat2,
                            const aclScalar* beta, const aclScalar* alpha, aclTensor* out, int8_t cubeMathType,
                            uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_addmm_nulls(self, mat1, mat2, beta, alpha, out));
    if (format_of(self) != ACL_FORMAT_ND || format_of(mat1) != ACL_FORMAT_ND ||
        format_of(mat2) != ACL_FORMAT_FRACTAL_NZ) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Invalid format, Format of self is [%s], mat1 is [%s], mat2 is [%s].",
                           format_name(format_of(self)), format_name(format_of(mat1)), format_name(format_of(mat2)));
    }
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kCubeDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{mat1, "mat1"}, {mat2, "mat2"}}, kHalfDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(out, "out", kCubeDtypes));
    ACLCPU_RETURN_IF_ERROR(check_cube_input(mat1, mat2, out, cubeMathType, self));
    const aclDataType aDtype = view_of(mat1).dtype;
    if (aDtype != view_of(mat2).dtype) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "invalid mat1 dtype [%s] or mat2 dtype [%s] ", dtype_name(aDtype),
                           dtype_name(view_of(mat2).dtype));
    }
    if (storage_shape_of(mat2).size() != 4) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Only support mat2 storageShapeDim is 4, which are [%zu].",
                           storage_shape_of(mat2).size());
    }
    const Dims& a = view_of(mat1).shape;
    const Dims& b = view_of(mat2).shape;
    if (a.size() != 2 || b.size() != 2) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "The dim of mat1 and mat2 should be 2.");
    }
    if (a[1] != b[0]) return param_error(ACLNN_ERR_PARAM_INVALID, "The k-axis of the two inputs are different.");
    if (b[0] == 1 || b[1] == 1) return param_error(ACLNN_ERR_PARAM_INVALID, "The k-axis or n-axis can not be 1.");
    return finish_addmm(
        {"aclnnAddmmWeightNz", self, mat1, mat2, graph_scalar(alpha), graph_scalar(beta), out, cubeMathType, false},
        workspaceSize, executor);
}

// aclnn_baddbmm.cpp CheckInputParams: null (inputs, then out), CheckInput
// with self as the bias, CheckShape, CheckBroadCast, CheckFormat,
// CheckCubeMathTypeForAddMm; a batch, M or N of 0 -> nothing to do.
aclnnStatus check_baddbmm_shapes(const aclTensor* self, const aclTensor* batch1, const aclTensor* batch2,
                                 const aclTensor* out) {
    ACLCPU_RETURN_IF_ERROR(check_dim_count(batch1, "batch1Tensor", 3));
    ACLCPU_RETURN_IF_ERROR(check_dim_count(batch2, "batch2Tensor", 3));
    const Dims& a = view_of(batch1).shape;
    const Dims& b = view_of(batch2).shape;
    if (a[2] != b[1]) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "batch1's last dim and batch2's penultimate dim shoule be same, batch1 [%ld], batch2 [%ld].",
                           static_cast<long>(a[2]), static_cast<long>(b[1]));
    }
    if (a[0] != b[0] && a[0] != 1 && b[0] != 1) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "mat1's batch dim and mat2's batch dim can not broadcast");
    }
    const bool selfEmpty = is_empty(self);
    const bool productEmpty = a[0] == 0 || a[1] == 0 || b[2] == 0;
    if (selfEmpty != productEmpty) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "self and batch1@batch2 should be both empty tensors, or not, self is [%d], batch1@batch2 "
                           "is [%d].",
                           selfEmpty, productEmpty);
    }
    // CheckBroadCast: against batch1's batch, as the op_api writes it.
    const Dims product = {a[0], a[1], b[2]};
    bool ok = false;
    const Dims broadcast = broadcast_with(self, product, &ok);
    if (!ok) return param_error(ACLNN_ERR_PARAM_INVALID, "Shape of self and batch1@batch2 can't broadcast.");
    if (broadcast != view_of(out).shape) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Shape of out should be %s, but current is %s.",
                           shape_string(broadcast).c_str(), shape_string(view_of(out).shape).c_str());
    }
    // acl-cpu: self of more than 3 dims would index past the op_api's
    // 3-d checks; a batch2 batch past out's has nowhere to go.
    if (broadcast.size() != 3 || (b[0] != broadcast[0] && b[0] != 1)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "acl-cpu: out %s does not hold batch1@batch2 [%ld,%ld,%ld].",
                           shape_string(broadcast).c_str(), static_cast<long>(std::max(a[0], b[0])),
                           static_cast<long>(a[1]), static_cast<long>(b[2]));
    }
    // The shapes print inside the op_api's brackets: "[[2,3,5]]", as CANN's.
    if ((broadcast[0] != 1 && a[0] == 1) || (broadcast[1] != 1 && a[1] == 1) || (broadcast[2] != 1 && b[2] == 1)) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "batch1@batch2's shape should be same with broadcastShape, broadcastShape [%s], bmmShape "
                           "[%s]",
                           shape_string(broadcast).c_str(), shape_string(product).c_str());
    }
    if (format_of(batch1) != format_of(batch2) || format_of(batch1) != format_of(out)) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Format of all input and output should be equal, batch1 [%s], batch2 [%s], out [%s].",
                           format_name(format_of(batch1)), format_name(format_of(batch2)),
                           format_name(format_of(out)));
    }
    return ACLNN_SUCCESS;
}

aclnnStatus baddbmm(const char* name, const aclTensor* self, const aclTensor* batch1, const aclTensor* batch2,
                    const aclScalar* beta, const aclScalar* alpha, aclTensor* out, int8_t cubeMathType,
                    uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null(
        {{self, "self"}, {batch1, "batch1"}, {batch2, "batch2"}, {beta, "beta"}, {alpha, "alpha"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_cube_input(batch1, batch2, out, cubeMathType, self));
    ACLCPU_RETURN_IF_ERROR(check_baddbmm_shapes(self, batch1, batch2, out));
    // Baddbmm has no alpha-0 graph: alpha is used as it is.
    const AddPlan plan{name, self, batch1, batch2, to_float(alpha), graph_scalar(beta), out, cubeMathType, true};
    if (is_empty(out)) {
        ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
        return hand_back_empty_executor({self, batch1, batch2}, {out}, workspaceSize, executor);
    }
    return hand_back_addend(plan, view_of(self).shape != view_of(out).shape, workspaceSize, executor);
}

}  // namespace
}  // namespace aclcpu::ops

using aclcpu::ops::addmm;
using aclcpu::ops::baddbmm;

extern "C" {

aclnnStatus aclnnAddmmGetWorkspaceSize(const aclTensor* self, const aclTensor* mat1, const aclTensor* mat2,
                                       const aclScalar* beta, const aclScalar* alpha, aclTensor* out,
                                       int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor) {
    return addmm("aclnnAddmm", self, mat1, mat2, beta, alpha, out, cubeMathType, workspaceSize, executor);
}

// The op_api's in-place forms pass selfRef as out.
aclnnStatus aclnnInplaceAddmmGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* mat1, const aclTensor* mat2,
                                              const aclScalar* beta, const aclScalar* alpha, int8_t cubeMathType,
                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
    return addmm("aclnnInplaceAddmm", selfRef, mat1, mat2, beta, alpha, const_cast<aclTensor*>(selfRef),
                 cubeMathType, workspaceSize, executor);
}

aclnnStatus aclnnAddmmWeightNzGetWorkspaceSize(const aclTensor* self, const aclTensor* mat1, const aclTensor* mat2,
                                               const aclScalar* beta, const aclScalar* alpha, aclTensor* out,
                                               int8_t cubeMathType, uint64_t* workspaceSize,
                                               aclOpExecutor** executor) {
    return aclcpu::ops::addmm_weight_nz(self, mat1, mat2, beta, alpha, out, cubeMathType, workspaceSize, executor);
}

aclnnStatus aclnnBaddbmmGetWorkspaceSize(const aclTensor* self, const aclTensor* batch1, const aclTensor* batch2,
                                         const aclScalar* beta, const aclScalar* alpha, aclTensor* out,
                                         int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor) {
    return baddbmm("aclnnBaddbmm", self, batch1, batch2, beta, alpha, out, cubeMathType, workspaceSize, executor);
}

aclnnStatus aclnnInplaceBaddbmmGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* batch1,
                                                const aclTensor* batch2, const aclScalar* beta, const aclScalar* alpha,
                                                int8_t cubeMathType, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
    return baddbmm("aclnnInplaceBaddbmm", selfRef, batch1, batch2, beta, alpha, const_cast<aclTensor*>(selfRef),
                   cubeMathType, workspaceSize, executor);
}

}  // extern "C"

ACLCPU_DEFINE_PHASE2(aclnnAddmm)
ACLCPU_DEFINE_PHASE2(aclnnInplaceAddmm)
ACLCPU_DEFINE_PHASE2(aclnnAddmmWeightNz)
ACLCPU_DEFINE_PHASE2(aclnnBaddbmm)
ACLCPU_DEFINE_PHASE2(aclnnInplaceBaddbmm)
