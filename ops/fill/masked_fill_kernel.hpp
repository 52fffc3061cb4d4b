// acl-cpu: the arithmetic of aclnnInplaceMaskedFillScalar, on the binary
// engine: selfRef and mask (cast to selfRef's dtype, 1 where true) in, the
// value where the mask is nonzero, selfRef's element elsewhere.
#pragma once

#include "common/internal.hpp"

#include "common/binary.hpp"
#include "common/scalar_value.hpp"

namespace aclcpu::ops {

/// The value, converted into selfRef's dtype (ConvertToTensor): as a float
/// for the fp32 vector blocks, and for the typed lanes.
struct MaskedFillParams {
    float vector;
    ComputeValue typed;
};

ACLCPU_DECLARE_BINARY_BLOCKS(masked_fill_blocks, MaskedFillParams, MaskedFillVector)

struct MaskedFillOp : VectorOp<masked_fill_blocks> {
    template <class V>
    static V apply(V self, V mask, const Params& p) {
        return mask != V(0) ? lane_value<V>(p.typed) : self;
    }
};

}  // namespace aclcpu::ops
