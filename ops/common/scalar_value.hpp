// acl-cpu ops/common: a scalar argument as CANN's graph feeds it to a kernel
// -- converted into the compute dtype by aclOpExecutor::ConvertToTensor --
// and read back as a lane of the typed path or of the fp32 vector path.
#pragma once

#include "common/internal.hpp"

#include <cstdint>
#include <type_traits>

#include "aclcpu/nnopbase.hpp"
#include "common/typed_lanes.hpp"

namespace aclcpu::ops {

/// A number in the compute dtype: a scalar after CANN's ConvertToTensor.
/// Floating dtypes keep it in real (rounded to the dtype), complex ones in
/// real and imag, integers and BOOL in integer (a floating scalar truncated,
/// then wrapped into a narrower integer).
struct ComputeValue {
    double real = 0;
    double imag = 0;
    int64_t integer = 0;
};

/// scalar converted into dtype as CANN's ConvertToTensor converts it.
ComputeValue compute_value(const aclScalar* scalar, aclDataType dtype) noexcept;

/// value as a lane of type V (typed_lanes.hpp): int64_t reads the integer,
/// a complex lane real and imag, float and double the real part.
template <class V>
V lane_value(const ComputeValue& value) noexcept {
    if constexpr (std::is_same_v<V, int64_t>) return value.integer;
    else if constexpr (is_complex_v<V>) return V(value.real, value.imag);
    else return static_cast<V>(value.real);
}

}  // namespace aclcpu::ops
