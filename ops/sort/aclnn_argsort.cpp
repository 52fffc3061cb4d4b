// acl-cpu: aclnnArgsort of CANN's ops-math (math/sort/op_api/aclnn_argsort.cpp):
// its checks in CANN's order and a kernel of its own.  CANN moves dim last
// (Transpose), runs Sort on each line and casts its INT32 indices into out's
// INT64; acl-cpu sorts each line along dim in place of the transposes, the
// lines spread over blocks, each line a std::stable_sort of its indices --
// ties keep index order, a NaN sorts above +inf (last ascending, first
// descending: Sort pads its lines with NaN ascending and -inf descending,
// math/sort/op_kernel/arch35/common/merge_intra_core_base.h).
#include "aclnnop/aclnn_argsort.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <string>
#include <type_traits>

#include "aclcpu/soc_profile.hpp"
#include "common/block_launch.hpp"
#include "common/layout.hpp"
#include "common/lines_along_dim.hpp"
#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "common/strided_layout.hpp"
#include "common/tiling.hpp"
#include "common/typed_lanes.hpp"

namespace aclcpu::ops {
namespace {

/// The lines of the sort: self's and out's along dim.
struct ArgsortPlan {
    aclDataType dtype = ACL_FLOAT;
    bool descending = false;
    LinesAlongDim lines;
    BlockSplit blocks;
};

/// A line's sort key: fp32 for the floating dtypes (exact for FLOAT16 and
/// BF16), int64 for the integers.
template <class T>
using KeyOf = std::conditional_t<std::is_integral_v<T>, int64_t, float>;

/// Whether a sorts before b: NaN above every number.
template <class Key>
bool before(Key a, Key b, bool descending) {
    if constexpr (std::is_floating_point_v<Key>) {
        if (std::isnan(a) || std::isnan(b)) return descending ? !std::isnan(b) : !std::isnan(a);
    }
    return descending ? a > b : a < b;
}

class ArgsortKernel final : public OpKernel {
public:
    ArgsortKernel(const char* name, const ArgsortPlan& plan) noexcept : name_(name), plan_(plan) {}
    const char* name() const noexcept override { return name_; }
    void describe(std::string& details) const override { append_trace_arg(details, "blockDim", plan_.blocks.count()); }

    /// Each block sorts its lines one by one in its slot of the workspace:
    /// a line's keys, then its indices.
    static int64_t slot_bytes(int64_t length) { return length * (int64_t{sizeof(int64_t)} * 2); }

    aclError launch(const LaunchArgs& args) const noexcept override {
        if (aclError status = check_tensor_addresses(name_, args, 1, 1); status != ACL_SUCCESS) return status;
        const int64_t length = plan_.lines.length;
        const UbStaging staging = UbStaging::in_workspace(args.workspace, slot_bytes(length));
        const int64_t bytesMoved = plan_.lines.count * length * (element_size(plan_.dtype) + 8);
        return launch_blocks(name_, plan_.blocks.count(), bytesMoved, [&](int64_t blockIdx) {
            std::byte* slot = staging.for_block(blockIdx);
            const Range lines = plan_.blocks.block(blockIdx);
            visit_element(plan_.dtype, [&](auto tag) {
                using T = decltype(tag);
                for (int64_t line = lines.begin; line < lines.end; ++line) {
                    sort_line(static_cast<const T*>(args.inputs[0]), static_cast<int64_t*>(args.outputs[0]), line,
                              reinterpret_cast<KeyOf<T>*>(slot),
                              reinterpret_cast<int64_t*>(slot + length * int64_t{sizeof(int64_t)}));
                }
            });
        });
    }

private:
    template <class T, class Key>
    void sort_line(const T* in, int64_t* out, int64_t line, Key* keys, int64_t* order) const {
        const LinesAlongDim& lines = plan_.lines;
        const std::array<int64_t, 2> start = lines.starts(line);
        for (int64_t k = 0; k < lines.length; ++k) {
            keys[k] = cast_element<Key>(in[start[0] + k * lines.steps[0]]);
            order[k] = k;
        }
        const bool descending = plan_.descending;
        std::stable_sort(order, order + lines.length,
                         [&](int64_t a, int64_t b) { return before(keys[a], keys[b], descending); });
        for (int64_t k = 0; k < lines.length; ++k) out[start[1] + k * lines.steps[1]] = order[k];
    }

    const char* name_;
    ArgsortPlan plan_;
};

/// ASCEND910B_DTYPE_DTYPE_SUPPORT_LIST and OUT_DTYPE_SUPPORT_LIST.
constexpr DtypeList kArgsortDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT8,  ACL_INT16,
                                      ACL_INT32, ACL_INT64,   ACL_UINT8, ACL_BF16};
constexpr DtypeList kArgsortOutDtypes = {ACL_INT64};

/// CheckDimValid: dim in [-rank, rank - 1] ([-1, 0] for a 0-d self); the
/// sorted dim at most INT_MAX long, and not of size 1 for BF16 (A2's Sort).
aclnnStatus check_sort_dim(const aclTensor* self, int64_t dim) {
    const Dims& shape = view_of(self).shape;
    const auto rank = static_cast<int64_t>(shape.size());
    const int64_t minimum = rank == 0 ? -1 : -rank;
    const int64_t maximum = rank == 0 ? 0 : rank - 1;
    if (dim < minimum || dim > maximum) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "dim must be within the range of [%ld, %ld], but it is %ld.",
                           static_cast<long>(minimum), static_cast<long>(maximum), static_cast<long>(dim));
    }
    if (rank == 0) return ACLNN_SUCCESS;
    const int64_t size = shape[dim < 0 ? dim + rank : dim];
    if (size > INT_MAX) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "the dim being sorted can not have more than INT_MAX elements");
    }
    if (size == 1 && view_of(self).dtype == ACL_BF16) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "The sort axis value is not support 1 when input type is BF16.");
    }
    return ACLNN_SUCCESS;
}

aclnnStatus argsort(const aclTensor* self, int64_t dim, bool descending, const aclTensor* out,
                    uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_sort_dim(self, dim));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kArgsortDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(out, "out", kArgsortOutDtypes));
    if (is_private_format(format_of(self)) || is_private_format(format_of(out))) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Format only support ND,NCL,NCHW,NHWC,HWCN,NDHWC,NCDHW,input format is [%s] and out "
                           "format is [%s].",
                           format_name(format_of(self)), format_name(format_of(out)));
    }
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{self, "self"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(self, "self", out, "out"));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    if (is_empty(self)) return hand_back_empty_executor({self}, {out}, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{self, "self"}, {out, "out"}}));
    const auto rank = static_cast<int64_t>(view_of(self).shape.size());
    ArgsortPlan plan;
    plan.dtype = view_of(self).dtype;
    plan.descending = descending;
    plan.lines = LinesAlongDim::of(view_of(self), view_of(out), dim < 0 ? dim + rank : dim);
    plan.blocks = BlockSplit::by_factor(plan.lines.count, soc_profile().vectorCoreCount, 1, plan.lines.length);
    const auto workspace = static_cast<uint64_t>(
        UbStaging::workspace_bytes(plan.blocks.count(), ArgsortKernel::slot_bytes(plan.lines.length)));
    return hand_back_kernel<ArgsortKernel>({self}, {out}, workspace, workspaceSize, executor, "aclnnArgsort", plan);
}

}  // namespace
}  // namespace aclcpu::ops

using namespace aclcpu::ops;

extern "C" aclnnStatus aclnnArgsortGetWorkspaceSize(const aclTensor* self, int64_t dim, bool descending,
                                                    aclTensor* out, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
    return argsort(self, dim, descending, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnArgsort)
