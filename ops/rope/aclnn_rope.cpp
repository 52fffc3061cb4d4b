// acl-cpu: aclnnRotaryPositionEmbedding, CANN's RotaryPositionEmbedding aclnn
// API (ops-transformer posembedding/rotary_position_embedding).
//
// CANN generates the wrapper from the OpDef (op_host/rotary_position_embedding_def.cpp):
// null tensors (161001), x, cos, sin and out of one dtype among FLOAT,
// FLOAT16, BF16 (161002).  Its check order is not public; acl-cpu checks the
// workspaceSize/executor pointers first, as for the other generated
// wrappers.  An empty x succeeds with no work (the doc: an empty x is not
// held to the shape rules).  Then acl-cpu's storage guard (161002), and
// the A2 tilings' checks, each a tiling
// failure (561002, the doc's code for shapes and modes): mode 0 runs
// rope_rotate_half_tiling.cpp, mode 1 rope_interleaved_tiling.cpp, and any
// other mode is refused (on A2 the rotate-half tiling takes every mode but
// 1 and would rotate halves for the doc's quarter and interleave-half modes,
// which only later SoCs compute).  The workspace is the tilings' 16 MiB.
#include "aclnnop/aclnn_rotary_position_embedding.h"

#include <algorithm>

#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "rope/rope_kernel.hpp"

namespace aclcpu::ops {
namespace {

constexpr DtypeList kDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_BF16};
constexpr size_t kRank = 4;
constexpr int64_t kHalfMaxLength = 896;  // D_LENGTH_LIMIT: D > 896 is refused, 896 is not
constexpr uint64_t kWorkspace = 16u * 1024u * 1024u;

aclnnStatus tiling_error(const char* message) {
    report_error(ACLNN_ERR_INNER_TILING_ERROR, kAclnnInnerTag, "RotaryPositionEmbedding tiling failed: %s", message);
    return ACLNN_ERR_INNER_TILING_ERROR;
}

aclnnStatus check_params(const aclTensor* x, const aclTensor* cos, const aclTensor* sin, const aclTensor* out) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{x, "x"}, {cos, "cos"}, {sin, "sin"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{x, "x"}, {cos, "cos"}, {sin, "sin"}, {out, "out"}}, kDtypes));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(x, "x", cos, "cos"));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(x, "x", sin, "sin"));
    return check_same_dtype(x, "x", out, "out");
}

/// The checks both tilings make (RotateHalfTiling::CheckShapeSupport's
/// messages), plus out's shape (the infershape's y = x).  The D limit is
/// the rotate-half tiling's; the interleaved tiling has its own (below) and
/// does not test D's parity, which acl-cpu requires of both modes (the
/// doc's rule; an odd D has no pairs to rotate).
aclnnStatus check_shapes(RopeMode mode, const Dims& x, const Dims& cos, const Dims& sin, const Dims& out) {
    if (x.size() != kRank || cos.size() != kRank || sin.size() != kRank) {
        return tiling_error("the input shape must be 4-dimensional.");
    }
    const int64_t length = x[3];
    if (mode == RopeMode::kHalf && length > kHalfMaxLength) {
        return tiling_error("input last dim (head_dim) should be less than 896.");
    }
    if (length % 2 != 0) return tiling_error("input last dim (head_dim) must be an even number.");
    if (cos != sin) return tiling_error("cos shape and sin shape should be equal.");
    if (cos[3] != length) {
        report_error(ACLNN_ERR_INNER_TILING_ERROR, kAclnnInnerTag,
                     "RotaryPositionEmbedding tiling failed: input last dim (head_dim) should be equal, but get x "
                     "[%lld] and cos [%lld].", static_cast<long long>(length), static_cast<long long>(cos[3]));
        return ACLNN_ERR_INNER_TILING_ERROR;
    }
    if (out != x) return tiling_error("the shape of out should be equal to the shape of x.");
    for (size_t d = 0; d < 3; ++d) {
        if (cos[d] != 1 && cos[d] != x[d]) return tiling_error("unknow input layout, unable to calculate.");
    }
    return ACLNN_SUCCESS;
}

/// BNSD layouts the rotate-half tiling sends to smaller operators
/// (CheckBnsdBlockSkip, its empirical thresholds): D/2 a whole number of
/// 32-byte blocks and B*N > 8*S, or not and 2*B*N > ceil(S / cores) with D < 80.
bool bnsd_blocked(const Dims& x, aclDataType dtype, const SocProfile& soc) {
    const int64_t broadcastRows = x[0] * x[1];
    const int64_t halfLength = x[3] / 2;
    const bool aligned = halfLength % (32 / element_size(dtype)) == 0;
    if (aligned) return broadcastRows > 8 * x[2];
    const int64_t rowsPerCore = (x[2] + soc.vectorCoreCount - 1) / soc.vectorCoreCount;
    return 2 * broadcastRows > rowsPerCore && x[3] < 80;
}

/// ChooseTilingMode of rope_rotate_half_tiling.cpp, for cos dims that are
/// each 1 or x's: the forms it has a tiling for.
aclnnStatus check_half_layout(const Dims& x, const Dims& r, aclDataType dtype, const SocProfile& soc) {
    const bool same0 = r[0] == x[0], same1 = r[1] == x[1], same2 = r[2] == x[2];
    if (same0 && same1 && same2) return ACLNN_SUCCESS;
    if (r[0] == 1 && r[1] == 1 && r[2] == 1) {
        // "S = 1 -> x: BND": its row count is set only when a dim of x is 1.
        if (x[0] == 1 || x[1] == 1 || x[2] == 1) return ACLNN_SUCCESS;
        return tiling_error("unknow input layout, unable to calculate.");
    }
    if (!same0 && !same1) {
        if (bnsd_blocked(x, dtype, soc)) {
            return tiling_error("when input is BNSD layout and  B * N is large or D is not aligned, please do not use "
                                "RotaryPositionEmbedding fusion operator.");
        }
        return ACLNN_SUCCESS;
    }
    if ((!same0 && !same2) || (!same1 && !same2)) return ACLNN_SUCCESS;  // BSND, SBND
    // One dim broadcast: r B1SD, BS1D/SB1D always; 1SND only as x B1SD or BS1D.
    if (same0 || x[1] == 1 || x[2] == 1) return ACLNN_SUCCESS;
    return tiling_error("unknow input layout, unable to calculate.");
}

/// rope_interleaved_tiling.cpp's TilingSplit layouts (S11D for SBND, 1S1D
/// for BSND, 11SD for BNSD, tried in that order) and TilingSplitN's limit:
/// one D-long row of x, cos, sin, their gather offsets (and three fp32
/// buffers for 16-bit dtypes), D padded to 32 bytes, must fit in the UB.
aclnnStatus check_interleaved_layout(const Dims& x, const Dims& r, aclDataType dtype, const SocProfile& soc) {
    const bool supported = (r[1] == 1 && r[2] == 1 && r[0] == x[0]) || (r[0] == 1 && r[2] == 1 && r[1] == x[1]) ||
                           (r[0] == 1 && r[1] == 1 && r[2] == x[2]);
    if (!supported) return tiling_error("The shape of the input x, cos and sin is not supported.");
    const int64_t size = element_size(dtype);
    const int64_t align = size == 4 ? 8 : 16;
    const int64_t bytesPerElement = 3 * size + 4 + (size == 4 ? 0 : 3 * 4);
    const int64_t maxLength = soc.ubSize / bytesPerElement;  // compared before padding: no overflow
    if (x[3] > maxLength || (x[3] + align - 1) / align * align > maxLength) {
        return tiling_error("The D dimension of the input shape is too large.");
    }
    return ACLNN_SUCCESS;
}

aclnnStatus check_tiling(int64_t mode, const aclTensor* x, const aclTensor* cos, const aclTensor* sin,
                         const aclTensor* out, const SocProfile& soc) {
    if (mode != 0 && mode != 1) {
        report_error(ACLNN_ERR_INNER_TILING_ERROR, kAclnnInnerTag,
                     "RotaryPositionEmbedding tiling failed: mode %lld is not supported on this SoC, only 0 (half) "
                     "and 1 (interleave).", static_cast<long long>(mode));
        return ACLNN_ERR_INNER_TILING_ERROR;
    }
    const auto rope = static_cast<RopeMode>(mode);
    const Dims& xShape = view_of(x).shape;
    const Dims& cosShape = view_of(cos).shape;
    ACLCPU_RETURN_IF_ERROR(check_shapes(rope, xShape, cosShape, view_of(sin).shape, view_of(out).shape));
    const aclDataType dtype = view_of(x).dtype;
    return rope == RopeMode::kHalf ? check_half_layout(xShape, cosShape, dtype, soc)
                                   : check_interleaved_layout(xShape, cosShape, dtype, soc);
}

aclnnStatus get_workspace_size(const aclTensor* x, const aclTensor* cos, const aclTensor* sin, int64_t mode,
                               const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_params(x, cos, sin, out));
    const TensorList inputs = {x, cos, sin};
    const TensorList outputs = {out};
    if (is_empty(x)) return hand_back_empty_executor(inputs, outputs, workspaceSize, executor);
    // acl-cpu's storage guard first: it bounds x's dims, whose products the tiling checks take.
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{x, "x"}, {cos, "cos"}, {sin, "sin"}, {out, "out"}}));
    const SocProfile& soc = soc_profile();
    ACLCPU_RETURN_IF_ERROR(check_tiling(mode, x, cos, sin, out, soc));

    const Dims& shape = view_of(x).shape;
    const int64_t rows = shape[0] * shape[1] * shape[2];
    const RopeOperands operands{StridedLayout::of(view_of(x)), StridedLayout::broadcast_to(view_of(cos), shape),
                                StridedLayout::broadcast_to(view_of(sin), shape), StridedLayout::of(view_of(out))};
    return hand_back_kernel<RopeKernel>(inputs, outputs, kWorkspace, workspaceSize, executor,
                                        "aclnnRotaryPositionEmbedding",
                                        plan_rope(static_cast<RopeMode>(mode), rows, shape[3], soc), operands);
}

}  // namespace
}  // namespace aclcpu::ops

extern "C" aclnnStatus aclnnRotaryPositionEmbeddingGetWorkspaceSize(const aclTensor* x, const aclTensor* cos,
                                                                    const aclTensor* sin, int64_t mode,
                                                                    const aclTensor* out, uint64_t* workspaceSize,
                                                                    aclOpExecutor** executor) {
    return aclcpu::ops::get_workspace_size(x, cos, sin, mode, out, workspaceSize, executor);
}

ACLCPU_DEFINE_PHASE2(aclnnRotaryPositionEmbedding)
