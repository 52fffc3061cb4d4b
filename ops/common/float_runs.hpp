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

/// Rounds each of values[0, count) to dtype's precision and back (FLOAT16 and
/// BF16, nearest even); a no-op for other dtypes.  Kernels whose internal
/// dtype is 16-bit call it before storing into a wider output, as CANN's
/// kernel-then-Cast sequence rounds twice.
void round_through(aclDataType dtype, float* values, int64_t count) noexcept;

}  // namespace aclcpu::ops
