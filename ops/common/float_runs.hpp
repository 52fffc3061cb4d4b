// acl-cpu ops/common: dense runs of elements converted between the three
// float dtypes of the AI Core's vector unit, in SIMD.
#pragma once

#include "common/internal.hpp"

#include <cstdint>

#include "acl/acl_base.h"

namespace aclcpu::ops {

/// Converts n dense elements at src of dtype `from` into dst of dtype `to`,
/// both among FLOAT, FLOAT16 and BF16 and different, exactly as CANN's Cast
/// and aclcpu/half.hpp do (widening exact; narrowing to nearest even, Inf
/// kept, NaN made quiet).  Returns false, converting nothing, for any other
/// pair.  The ranges must not overlap.
bool convert_float_run(aclDataType from, const void* src, aclDataType to, void* dst, int64_t n) noexcept;

}  // namespace aclcpu::ops
