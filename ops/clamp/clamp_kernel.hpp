// acl-cpu: the arithmetic of the clamp family (Clamp, ClampMin, ClampMax and
// their tensor and in-place forms): CANN's ClipByValueV2, min(max(x, lo), hi)
// in the compute dtype.
//
// NaN: ClipByValueV2's kernel (ops-math conversion/clip_by_value_v2/
// op_kernel_aicpu/clip_by_value_v2_aicpu.cpp, ClampScalar) gives NaN when x,
// lo or hi is NaN; the fp32 vector blocks (clamp_kernel.cpp) do the same.
// lo > hi gives hi everywhere (the Min runs last).
//
// The scalar forms run on the unary engine with both bounds in Params; the
// tensor forms are elementwise with self and one or two bound tensors, a
// missing bound (ClampMinTensor's max, ClampMaxTensor's min) again in Params.
#pragma once

#include "common/internal.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "common/elementwise.hpp"
#include "common/scalar_value.hpp"
#include "common/unary.hpp"

namespace aclcpu::ops {

/// Both bounds converted into the compute dtype (ConvertToTensor), a missing
/// one replaced as CANN's NormalizeMinScalar / NormalizeMaxScalar replace it.
struct ClampBounds {
    ComputeValue lo;
    ComputeValue hi;
};

/// The family's blocks (see ACLCPU_DECLARE_ELEMENTWISE_BLOCK), each the fp32
/// functor of clamp_kernel.cpp.
#define ACLCPU_CLAMP_BLOCKS(X)                                            \
    X(clamp_block, 1, ClampBounds, ClampVector)                           \
    X(clamp_min_tensor_block, 2, ClampBounds, ClampMinTensorVector)       \
    X(clamp_max_tensor_block, 2, ClampBounds, ClampMaxTensorVector)       \
    X(clamp_tensors_block, 3, ClampBounds, ClampTensorsVector)
ACLCPU_CLAMP_BLOCKS(ACLCPU_DECLARE_ELEMENTWISE_BLOCK)

/// ClampScalar: NaN from any NaN operand, else min(max(x, lo), hi).
template <class V>
V clamp_lane(V x, V lo, V hi) {
    if constexpr (std::is_floating_point_v<V>) {
        if (std::isnan(x) || std::isnan(lo) || std::isnan(hi)) return std::numeric_limits<V>::quiet_NaN();
    }
    return std::min(std::max(x, lo), hi);
}

/// The lane types clamp computes: float, double, and int64_t for the integers.
template <class V>
using if_clamp_lane = std::enable_if_t<std::is_floating_point_v<V> || std::is_same_v<V, int64_t>, V>;

/// Clamp, ClampMin, ClampMax: both bounds are scalars.
struct ClampOp : VectorOp<clamp_block> {
    template <class V>
    static if_clamp_lane<V> apply(V x, const Params& b) {
        return clamp_lane(x, lane_value<V>(b.lo), lane_value<V>(b.hi));
    }
};

/// ClampMinTensor: lo a tensor, hi the normalised maximum.
struct ClampMinTensorOp : VectorOp<clamp_min_tensor_block> {
    template <class V>
    static if_clamp_lane<V> apply(V x, V lo, const Params& b) { return clamp_lane(x, lo, lane_value<V>(b.hi)); }
};

/// ClampMaxTensor: hi a tensor, lo the normalised minimum.
struct ClampMaxTensorOp : VectorOp<clamp_max_tensor_block> {
    template <class V>
    static if_clamp_lane<V> apply(V x, V hi, const Params& b) { return clamp_lane(x, lane_value<V>(b.lo), hi); }
};

/// ClampTensor with both bounds tensors.
struct ClampTensorsOp : VectorOp<clamp_tensors_block> {
    template <class V>
    static if_clamp_lane<V> apply(V x, V lo, V hi, const Params&) { return clamp_lane(x, lo, hi); }
};

}  // namespace aclcpu::ops
