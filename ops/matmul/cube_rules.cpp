#include "matmul/cube_rules.hpp"

#include <functional>
#include <numeric>

#include "common/op_checks.hpp"
#include "common/phase1.hpp"

namespace aclcpu::ops {

namespace {
constexpr DtypeList kCubeDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
}  // namespace

aclnnStatus check_cube_input(const aclTensor* matA, const aclTensor* matB, const aclTensor* out, int8_t cubeMathType) {
    // CheckInputTensorDtypeValid names the arguments matA, matB, out.
    if (aclnnStatus status = check_dtype_supported({{matA, "matA"}, {matB, "matB"}, {out, "out"}}, kCubeDtypes);
        status != ACLNN_SUCCESS) {
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

aclnnStatus hand_back_product(const ProductPlan& plan, uint64_t* workspaceSize, aclOpExecutor** executor,
                              bool nothingToDo) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    const TensorList inputs = {plan.self, plan.mat2};
    const TensorList outputs = {plan.out};
    if (nothingToDo || is_empty(plan.out)) return hand_back_empty_executor(inputs, outputs, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{plan.self, "self"}, {plan.mat2, "mat2"}, {plan.out, "out"}}));
    for (const aclTensor* tensor : {plan.self, plan.mat2, plan.out}) {
        // aclnnTransMatmulWeight's layout (common/fractal_nz.hpp): refused
        // rather than read as ND until the engine stages its column tiles.
        if (format_of(tensor) == ACL_FORMAT_FRACTAL_NZ) {
            return param_error(ACLNN_ERR_PARAM_INVALID,
                               "acl-cpu: %s does not read a FRACTAL_NZ operand (aclnnTransMatmulWeight's layout) yet.",
                               plan.name);
        }
    }
    MatmulSpec spec;
    spec.name = plan.name;
    spec.batches = std::accumulate(plan.batch.begin(), plan.batch.end(), int64_t{1}, std::multiplies<>());
    spec.m = plan.a.shape[plan.a.shape.size() - 2];
    spec.k = plan.a.shape[plan.a.shape.size() - 1];
    spec.n = plan.b.shape[plan.b.shape.size() - 1];
    spec.a = MatrixBatch::of(plan.a, plan.batch);
    spec.b = MatrixBatch::of(plan.b, plan.batch);
    spec.out = MatrixBatch::of(plan.c, plan.batch);
    spec.aDtype = plan.a.dtype;
    spec.bDtype = plan.b.dtype;
    spec.outDtype = plan.c.dtype;
    spec.precision = cube_precision(spec.aDtype, spec.bDtype, spec.outDtype, plan.cubeMathType);
    return hand_back_matmul(std::move(spec), inputs, outputs, workspaceSize, executor);
}

}  // namespace aclcpu::ops
