// acl-cpu runtime: the work of the built-in device tasks (aclrtReduceAsync,
// aclrtRandomNumAsync), as the device's system engines do it without user
// code.  Pure functions of their arguments; the API checks the arguments and
// runs these on the stream's worker when the stream reaches the task.
#pragma once

#include <array>
#include <cstdint>

#include "acl/acl_base.h"
#include "aclcpu/philox.hpp"
#include "core/internal.hpp"

namespace aclcpu::detail {

enum class ReduceOp { kSum, kMax, kMin };

/// The data types aclrtReduceAsync accepts on an Atlas A2 (12_execution_control.md).
bool is_reducible(aclDataType dtype) noexcept;

/// dst[i] = op(dst[i], src[i]) for `elements` elements of a reducible dtype.
/// Half and bfloat16 are combined in float and rounded once; integer sums
/// wrap (two's complement), as an adder of the element's width does.
void reduce_into(void* dst, const void* src, uint64_t elements, aclDataType dtype, ReduceOp op) noexcept;

/// The generator of the random-number tasks: aclcpu/philox.hpp.
using Philox4x32 = aclcpu::Philox4x32;

enum class RandomDistribution { kDropoutBitmask, kUniform, kNormal, kTruncatedNormal };

/// A parameter of a random-number task: the raw bytes of a value of the
/// task's data type (little endian, as aclrtRandomParaInfo carries them).
using RandomValue = uint64_t;

/// One random-number task, its parameters already read.
struct RandomRequest {
    RandomDistribution distribution;
    aclDataType dtype;
    RandomValue first;   ///< min, mean or the dropout ratio.
    RandomValue second;  ///< max or stddev (unused by dropout).
    uint64_t seed;
    std::array<uint32_t, 4> counter;
    uint64_t count;
    void* result;
};

/// Bytes `count` results of `distribution` in `dtype` occupy: one bit each
/// for a dropout mask, one element each otherwise.
uint64_t random_result_bytes(RandomDistribution distribution, aclDataType dtype, uint64_t count) noexcept;

/// Why the parameters of request are unusable ("" when they are usable):
/// a uniform range with max < min, a negative stddev, a ratio outside [0, 1].
const char* random_parameter_problem(const RandomRequest& request) noexcept;

/// Writes request.count results to request.result:
/// - uniform: values in [min, max] (integers: min + r mod (max - min + 1));
/// - normal: mean + stddev * z, z standard normal (Box-Muller);
/// - truncated normal: as normal, redrawn until within two stddev of the mean;
/// - dropout bitmask: bit i (least significant bit first in each byte) is 1
///   (keep) with probability 1 - ratio.
void generate_random(const RandomRequest& request) noexcept;

}  // namespace aclcpu::detail
