#include "matmul/cube_rules.hpp"

#include <functional>
#include <numeric>
#include <vector>

#include "common/op_checks.hpp"
#include "common/fractal_nz.hpp"
#include "common/phase1.hpp"

namespace aclcpu::ops {

aclnnStatus check_cube_input(const aclTensor* matA, const aclTensor* matB, const aclTensor* out, int8_t cubeMathType,
                             const aclTensor* bias) {
    // CheckInputTensorDtypeValid names the arguments matA, matB, bias, out.
    aclnnStatus status = check_dtype_supported({{matA, "matA"}, {matB, "matB"}}, kCubeDtypes);
    if (status == ACLNN_SUCCESS && bias != nullptr) status = check_dtype_supported(bias, "bias", kCubeDtypes);
    if (status == ACLNN_SUCCESS) status = check_dtype_supported(out, "out", kCubeDtypes);
    if (status != ACLNN_SUCCESS) {
        return param_error(status, "Unsupported data types for Cube");
    }
    if (cubeMathType < kFp16Fp32KeepDtype || cubeMathType > kUseFp32Add) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "The value of cubeMathType only support {0: KEEP_DTYPE, 1: ALLOW_FP32_DOWN_PRECISION, 2: "
                           "USE_FP16, 3: USE_HF32, 4: USE_FP32_ADD}, but got %d",
                           cubeMathType);
    }
    return ACLNN_SUCCESS;
}

aclnnStatus check_not_nz(const aclTensor* self, const aclTensor* out) {
    if (format_of(self) != ACL_FORMAT_FRACTAL_NZ && format_of(out) != ACL_FORMAT_FRACTAL_NZ) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, " The 'self' or 'out' tensor currently does not support NZ format");
}

CubePrecision cube_precision(aclDataType self, aclDataType mat2, aclDataType out, int8_t cubeMathType) noexcept {
    // GetUpperDtypeByLookUpTable: FP16 pairs stay FP16, BF16 pairs BF16
    // (USE_FP16 and USE_HF32 ignored with a warning), any other pair FP16
    // under USE_FP16 and FP32 otherwise.
    const bool lowPair = self == mat2 && self != ACL_FLOAT;
    CubePrecision precision;
    precision.input = lowPair ? self : (cubeMathType == kUseFp16 ? ACL_FLOAT16 : ACL_FLOAT);
    // ALLOW_FP32_DOWN_PRECISION and USE_HF32 set enableHf32, which the Cube
    // applies to fp32 inputs only.
    precision.hf32 = precision.input == ACL_FLOAT &&
                     (cubeMathType == kAllowFp32DownPrecision || cubeMathType == kUseHf32);
    // The kernel's output: FLOAT for FP16FP32_KEEP_DTYPE; FLOAT when out is
    // FLOAT unless USE_FP16 (UpdateOutputDtype) or the inputs are a
    // 16-bit pair (NeedEnableFp32Output); the input dtype otherwise, Cast to
    // out's after.
    const bool fp32Out = cubeMathType == kFp16Fp32KeepDtype ||
                         (out == ACL_FLOAT && (cubeMathType != kUseFp16 || lowPair));
    precision.result = fp32Out ? ACL_FLOAT : precision.input;
    return precision;
}

namespace {

/// mat2's strides as the engine reads an NZ mat2: its batch dims over whole
/// NZ matrices (the row and column strides unused); the layout of its
/// storage matrix -- [k, n], or [n, k] for a view of strides [1, k]
/// (GetTransposeAttrValue) -- with c0 16 (GetWeightNzShape).
aclnnStatus plan_nz_operand(const aclTensor* mat2, TensorView* b, NzOperand* nz) {
    const size_t rank = b->shape.size();
    const int64_t k = b->shape[rank - 2];
    const int64_t n = b->shape[rank - 1];
    nz->transposed = b->strides[rank - 2] == 1 && b->strides[rank - 1] == k;
    nz->layout = nz->transposed ? NzLayout::with_c0(n, k, 16) : NzLayout::with_c0(k, n, 16);
    int64_t stride = nz->layout.matrix_elements();
    for (size_t d = rank - 2; d-- > 0;) {
        b->strides[d] = stride;
        stride *= b->shape[d];
    }
    const Dims& storage = storage_shape_of(mat2);
    if (std::accumulate(storage.begin(), storage.end(), int64_t{1}, std::multiplies<>()) != stride) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "mat2's format only supports NZ, but now mat2's format is not NZ, "
                                                    "please convert the input format to NZ.");
    }
    return ACLNN_SUCCESS;
}

}  // namespace

aclnnStatus hand_back_product(const ProductPlan& plan, uint64_t* workspaceSize, aclOpExecutor** executor,
                              bool nothingToDo) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    std::vector<const aclTensor*> inputs = {plan.self, plan.mat2};
    if (plan.bias != nullptr) inputs.push_back(plan.bias);
    const TensorList outputs = {plan.out};
    if (nothingToDo || is_empty(plan.out)) return hand_back_empty_executor(inputs, outputs, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{plan.self, "self"}, {plan.mat2, "mat2"}, {plan.out, "out"}}));
    if (plan.bias != nullptr) ACLCPU_RETURN_IF_ERROR(check_view_in_storage(plan.bias, "self"));
    // A vector mat2 (Mv, Matmul) has no NZ layout the Cube reads.
    for (const aclTensor* tensor : {plan.self, plan.out, plan.bias}) {
        if (tensor == nullptr || format_of(tensor) != ACL_FORMAT_FRACTAL_NZ) continue;
        return param_error(ACLNN_ERR_PARAM_INVALID, "acl-cpu: %s reads FRACTAL_NZ in mat2 only.", plan.name);
    }
    MatmulSpec spec;
    TensorView b = plan.b;
    if (format_of(plan.mat2) == ACL_FORMAT_FRACTAL_NZ) {
        if (view_of(plan.mat2).shape.size() < 2) {
            return param_error(ACLNN_ERR_PARAM_INVALID, "acl-cpu: %s reads FRACTAL_NZ in mat2 only.", plan.name);
        }
        spec.bNz.emplace();
        ACLCPU_RETURN_IF_ERROR(plan_nz_operand(plan.mat2, &b, &*spec.bNz));
    }
    spec.name = plan.name;
    spec.batches = std::accumulate(plan.batch.begin(), plan.batch.end(), int64_t{1}, std::multiplies<>());
    spec.m = plan.a.shape[plan.a.shape.size() - 2];
    spec.k = plan.a.shape[plan.a.shape.size() - 1];
    spec.n = b.shape[b.shape.size() - 1];
    spec.a = MatrixBatch::of(plan.a, plan.batch);
    spec.b = MatrixBatch::of(b, plan.batch);
    spec.out = MatrixBatch::of(plan.c, plan.batch);
    spec.aDtype = plan.a.dtype;
    spec.bDtype = b.dtype;
    spec.outDtype = plan.c.dtype;
    spec.precision = cube_precision(spec.aDtype, spec.bDtype, spec.outDtype, plan.cubeMathType);
    if (plan.fp32Result) spec.precision.result = ACL_FLOAT;
    if (plan.bias != nullptr) {
        spec.addend = plan.addend;
        spec.addend->self = MatrixBatch::of(plan.biasView, plan.batch);
        spec.addend->dtype = plan.biasView.dtype;
    }
    return hand_back_matmul(std::move(spec), inputs, outputs, workspaceSize, executor);
}

}  // namespace aclcpu::ops
