// acl-cpu ops/matmul: what the Mm family shares -- the Cube's checks and
// dtype rules of Atlas A2 (matmul/common/op_host/op_api/matmul_util.cpp
// Dav2201MatMulRule, cube_util.cpp) and the hand-over of a planned product
// to the engine (common/matmul.hpp).
#pragma once

#include "common/internal.hpp"

#include <cstdint>

#include "aclcpu/nnopbase.hpp"
#include "common/dtype.hpp"
#include "common/matmul.hpp"

namespace aclcpu::ops {

/// cubeMathType's values (cube_util.h); -1 is the op_api's inner
/// FP16FP32_KEEP_DTYPE, which A2 accepts.
inline constexpr int8_t kFp16Fp32KeepDtype = -1;
inline constexpr int8_t kKeepDtype = 0;
inline constexpr int8_t kAllowFp32DownPrecision = 1;
inline constexpr int8_t kUseFp16 = 2;
inline constexpr int8_t kUseHf32 = 3;
inline constexpr int8_t kUseFp32Add = 4;

/// Dav2201MatMulRule::GetSupportedDTypes; the WeightNz forms of BatchMatMul
/// take the 16-bit ones only.
inline constexpr DtypeList kCubeDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
inline constexpr DtypeList kHalfDtypes = {ACL_FLOAT16, ACL_BF16};

/// Dav2201MatMulRule::CheckInput: matA, matB, bias (when given) and out
/// FLOAT, FLOAT16 or BF16, then cubeMathType one of -1..4 -> 161002.
aclnnStatus check_cube_input(const aclTensor* matA, const aclTensor* matB, const aclTensor* out, int8_t cubeMathType,
                             const aclTensor* bias = nullptr);

/// CheckFormat of BatchMatMul and Matmul: self and out not FRACTAL_NZ -> 161002.
aclnnStatus check_not_nz(const aclTensor* self, const aclTensor* out);

/// The precision of the Cube for these operand dtypes, out's dtype and
/// cubeMathType (Dav2201MatMulRule::PromoteDtype).
CubePrecision cube_precision(aclDataType self, aclDataType mat2, aclDataType out, int8_t cubeMathType) noexcept;

/// A checked product: the views as matrices (a [.., m, k], b [.., k, n], c
/// [.., m, n]; their batch dims broadcast to batch), over the tensors the
/// executor records.
struct ProductPlan {
    const char* name;
    const aclTensor* self;
    const aclTensor* mat2;
    const aclTensor* out;
    int8_t cubeMathType;
    TensorView a;
    TensorView b;
    TensorView c;
    Dims batch;
    /// Addmm / Baddbmm: the tensor added (input 2), its view broadcast to
    /// c's shape (zero strides), and the addend's scalars and roundings.
    const aclTensor* bias = nullptr;
    TensorView biasView = {};
    MatmulAddend addend = {};
    /// The product leaves the Cube in FLOAT whatever out's dtype (Addmm's
    /// 16-bit pairs under USE_FP32_ADD, GemmV3WithAlphaBeta).
    bool fp32Result = false;
};

/// The end of phase 1 for a checked product: check_comm_input, out empty
/// (or nothingToDo) -> an executor doing nothing, the views inside their
/// storage, self and out not FRACTAL_NZ, mat2 in FRACTAL_NZ read as its
/// layout (its storage holding exactly the NZ matrices), then the engine's
/// executor (k == 0 writes zeros).
aclnnStatus hand_back_product(const ProductPlan& plan, uint64_t* workspaceSize, aclOpExecutor** executor,
                              bool nothingToDo = false);

}  // namespace aclcpu::ops
