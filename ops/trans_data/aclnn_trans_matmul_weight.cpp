// acl-cpu: aclnnTransMatmulWeight and aclnnCalculateMatmulWeightSize(V2) of
// ops-math (conversion/trans_data/op_api/aclnn_trans_matmul_weight.cpp).
//
// TransMatmulWeight lays a matmul weight out in place as FRACTAL_NZ
// (common/fractal_nz.hpp): phase 1 records the new storage format and shape
// on the caller's tensor, as CANN's op_api does; phase 2 copies the view
// into the workspace (the op_api's Contiguous) and writes it back as
// fractals with zero padding (its TransData and TensorMove).  The caller's
// memory must hold CalculateMatmulWeightSizeV2's element count.
//
// The size functions follow CalculateMatmulWeightSize: the last two dims
// are rounded up to 16 (FLOAT16, BF16) or, for every other dtype, the
// second-to-last to 16 and the last to 32 -- FLOAT included, which the code
// does not refuse.
#include "aclnnop/aclnn_trans_matmul_weight.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>

#include "aclcpu/memcheck.hpp"
#include "aclcpu/soc_profile.hpp"
#include "common/block_launch.hpp"
#include "common/fractal_nz.hpp"
#include "common/matrix_batch.hpp"
#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "common/tiling.hpp"

namespace aclcpu::ops {
namespace {

/// ASCEND910B_DTYPE_DTYPE_SUPPORT_LIST.
constexpr DtypeList kWeightDtypes = {ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_FLOAT8_E4M3FN, ACL_HIFLOAT8, ACL_UINT8};
constexpr size_t kMinWeightDims = 2;
constexpr size_t kMaxWeightDims = 6;

/// CheckShapeDim / CheckShapeDimV2 (the same bounds on Atlas A2).
aclnnStatus check_weight_dims(size_t dims) {
    if (dims >= kMinWeightDims && dims <= kMaxWeightDims) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "It is expected that tensorShape has 2-6 dimensions, but got dimensions %zu.",
                       dims);
}

/// CalculateMatmulWeightSize: the elements of the shape with its last two
/// dims aligned; null when an aligned product overflows int64 (acl-cpu's
/// guard: CANN's product wraps).
bool aligned_weight_elements(const std::vector<int64_t>& shape, int64_t dtypeCode, uint64_t* elements) {
    const bool twoByte = dtypeCode == ACL_FLOAT16 || dtypeCode == ACL_BF16;
    int64_t product = 1;
    for (size_t i = 0; i < shape.size(); ++i) {
        int64_t dim = shape[i];
        if (i + 2 >= shape.size()) {
            const int64_t align = twoByte || i + 2 == shape.size() ? 16 : 32;
            if (__builtin_add_overflow(dim, align - 1, &dim)) return false;
            dim = dim / align * align;
        }
        if (__builtin_mul_overflow(product, dim, &product)) return false;
    }
    *elements = static_cast<uint64_t>(product);
    return true;
}

/// dtypeCode: any integer a C caller passes (only FLOAT16 and BF16 align apart).
aclnnStatus calculate_weight_size(const aclIntArray* tensorShape, int64_t dtypeCode, bool refuseZeros,
                                  uint64_t* weightTensorSize) {
    ACLCPU_RETURN_IF_ERROR(check_not_null(tensorShape, "tensorShape"));
    if (weightTensorSize == nullptr) {
        return param_error(ACLNN_ERR_PARAM_NULLPTR,
                           "expected a value of type number for argument weightTensorSize but instead found type null.");
    }
    const std::vector<int64_t>& shape = values_of(tensorShape);
    ACLCPU_RETURN_IF_ERROR(check_weight_dims(shape.size()));
    for (const int64_t dim : shape) {
        if (refuseZeros && dim == 0) return param_error(ACLNN_ERR_PARAM_INVALID, "No zeros are allow in shape");
        if (dim < 0) {
            return param_error(ACLNN_ERR_PARAM_INVALID, "acl-cpu: tensorShape %s has a negative dim.",
                               shape_string(Dims(shape.data(), shape.size())).c_str());
        }
    }
    if (!aligned_weight_elements(shape, dtypeCode, weightTensorSize)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "acl-cpu: the aligned size of tensorShape %s overflows int64.",
                           shape_string(Dims(shape.data(), shape.size())).c_str());
    }
    return ACLNN_SUCCESS;
}

/// The weight as phase 2 moves it: the batch of its view, the NZ layout it
/// gets, and the blocks, one unit per (matrix, column tile).
struct NzPlan {
    MatrixBatch source;
    NzLayout layout;
    int64_t matrices = 0;
    int64_t elementSize = 0;
    BlockSplit blocks;
};

/// Copies elementSize bytes: the dtypes are moved, never computed with.
void copy_element(std::byte* to, const std::byte* from, int64_t elementSize) {
    std::memcpy(to, from, static_cast<size_t>(elementSize));
}

class TransMatmulWeightKernel final : public OpKernel {
public:
    explicit TransMatmulWeightKernel(NzPlan plan) noexcept : plan_(std::move(plan)) {}

    const char* name() const noexcept override { return "aclnnTransMatmulWeight"; }
    void describe(std::string& details) const override {
        append_trace_arg(details, "blockDim", plan_.blocks.count());
    }

    aclError launch(const LaunchArgs& args) const noexcept override {
        if (aclError status = check_tensor_addresses(name(), args, 1, 1); status != ACL_SUCCESS) return status;
        const auto* weight = static_cast<const std::byte*>(args.inputs[0]);
        auto* staged = static_cast<std::byte*>(args.workspace);
        // Both passes over every matrix: the fractals overwrite the view in place.
        if (aclError status = stage(weight, staged); status != ACL_SUCCESS) return status;
        return write_fractals(staged, static_cast<std::byte*>(args.outputs[0]));
    }

private:
    const NzLayout& nz() const noexcept { return plan_.layout; }
    int64_t matrix_bytes() const noexcept { return nz().rows * nz().cols * plan_.elementSize; }

    /// The view, dense, matrix after matrix.
    aclError stage(const std::byte* weight, std::byte* staged) const noexcept {
        const BlockSplit matrices = BlockSplit::front_loaded(plan_.matrices, plan_.blocks.count(), matrix_bytes());
        return launch_blocks(name(), matrices.count(), plan_.matrices * matrix_bytes(), [&](int64_t block) {
            const Range range = matrices.block(block);
            for (int64_t m = range.begin; m < range.end; ++m) {
                const std::byte* from = weight + plan_.source.start(m) * plan_.elementSize;
                std::byte* to = staged + m * matrix_bytes();
                for (int64_t r = 0; r < nz().rows; ++r) {
                    for (int64_t c = 0; c < nz().cols; ++c, to += plan_.elementSize) {
                        copy_element(to, from + plan_.source.element(r, c) * plan_.elementSize, plan_.elementSize);
                    }
                }
            }
        });
    }

    /// Column tile `tile` of every matrix the unit range covers, padding
    /// zeroed: each fractal row is c0 elements of one staged row.
    aclError write_fractals(const std::byte* staged, std::byte* weight) const noexcept {
        const int64_t tileBytes = nz().column_tile_elements() * plan_.elementSize;
        return launch_blocks(name(), plan_.blocks.count(), plan_.matrices * nz().colTiles * tileBytes,
                             [&](int64_t block) {
            const Range units = plan_.blocks.block(block);
            for (int64_t unit = units.begin; unit < units.end; ++unit) {
                const int64_t m = unit / nz().colTiles;
                const int64_t firstCol = unit % nz().colTiles * nz().c0;
                const int64_t cols = std::min(nz().c0, nz().cols - firstCol);
                std::byte* tile = weight + (m * nz().matrix_elements() + nz().element(0, firstCol)) * plan_.elementSize;
                std::memset(tile, 0, static_cast<size_t>(tileBytes));
                const std::byte* row = staged + m * matrix_bytes() + firstCol * plan_.elementSize;
                for (int64_t r = 0; r < nz().rows; ++r, row += nz().cols * plan_.elementSize) {
                    std::memcpy(tile + r * nz().c0 * plan_.elementSize, row, static_cast<size_t>(cols * plan_.elementSize));
                }
            }
        });
    }

    NzPlan plan_;
};

/// CheckParams: not null (161001), dtype, storage format ND, rank <= 8 (161002).
aclnnStatus check_weight(const aclTensor* weight) {
    ACLCPU_RETURN_IF_ERROR(check_not_null(weight, "mmWeightRef"));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(weight, "mmWeightRef", kWeightDtypes));
    if (format_of(weight) != ACL_FORMAT_ND) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "the format of input should be ND. Actual is [%s].",
                           format_name(format_of(weight)));
    }
    return check_max_dim(weight, "mmWeightRef");
}

aclnnStatus trans_matmul_weight(aclTensor* weight, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_weight(weight));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));  // acl-cpu: CANN dereferences them
    if (is_empty(weight)) return hand_back_empty_executor({weight}, {weight}, workspaceSize, executor);
    const TensorView& view = view_of(weight);
    ACLCPU_RETURN_IF_ERROR(check_weight_dims(view.shape.size()));
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage(weight, "mmWeightRef"));
    const size_t rank = view.shape.size();
    const Dims batchShape(view.shape.data(), rank - 2);
    NzPlan plan;
    // The 8-bit floats are only moved: their CANN size, as the layout's.
    plan.elementSize = static_cast<int64_t>(cann_dtype_size(view.dtype));
    plan.layout = NzLayout::of(view.shape[rank - 2], view.shape[rank - 1], plan.elementSize);
    plan.source = MatrixBatch::of(view, batchShape);
    plan.matrices = std::accumulate(batchShape.begin(), batchShape.end(), int64_t{1}, std::multiplies<>());
    const int64_t nzBytes = plan.matrices * plan.layout.matrix_elements() * plan.elementSize;
    // The fractals fill more than the view: the block must hold them all.
    if (device_reach(data_of(weight), static_cast<uint64_t>(nzBytes)) != DeviceReach::kInBlock) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "acl-cpu: mmWeightRef's data must be device memory holding its FRACTAL_NZ layout, %lld "
                           "bytes (aclnnCalculateMatmulWeightSizeV2's element count).",
                           static_cast<long long>(nzBytes));
    }
    plan.blocks = BlockSplit::front_loaded(plan.matrices * plan.layout.colTiles, soc_profile().vectorCoreCount,
                                           plan.layout.column_tile_elements() * plan.elementSize);
    set_storage_layout(weight, ACL_FORMAT_FRACTAL_NZ, plan.layout.storage_shape(batchShape));
    const auto staging = static_cast<uint64_t>(plan.matrices * view.shape[rank - 2] * view.shape[rank - 1] *
                                               plan.elementSize);
    return hand_back_kernel<TransMatmulWeightKernel>({weight}, {weight}, staging, workspaceSize, executor,
                                                     std::move(plan));
}

}  // namespace
}  // namespace aclcpu::ops

using namespace aclcpu::ops;

extern "C" {

aclnnStatus aclnnCalculateMatmulWeightSize(const aclIntArray* tensorShape, uint64_t* weightTensorSize) {
    return calculate_weight_size(tensorShape, ACL_FLOAT16, false, weightTensorSize);
}

aclnnStatus aclnnCalculateMatmulWeightSizeV2(const aclIntArray* tensorShape, aclDataType dataType,
                                             uint64_t* weightTensorSize) {
    return calculate_weight_size(tensorShape, aclcpu::code_of(dataType), true, weightTensorSize);
}

aclnnStatus aclnnTransMatmulWeightGetWorkspaceSize(aclTensor* mmWeightRef, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
    return trans_matmul_weight(mmWeightRef, workspaceSize, executor);
}

}  // extern "C"

ACLCPU_DEFINE_PHASE2(aclnnTransMatmulWeight)
