// acl-cpu HCCL: the element-wise reductions (sum, product, max, min) of the reducing collectives.
#pragma once

#include "core/internal.hpp"

#include <cstddef>
#include <cstdint>

#include "hccl/hccl_types.h"

namespace aclcpu::hccl::detail {

/// Bytes of one element of `dtype`; 0 for a type acl-cpu does not move (INT128, HIF8, the FP8 types and values
/// outside the enum).
size_t element_bytes(HcclDataType dtype) noexcept;

/// True when `op` over `dtype` is a reduction acl-cpu computes: sum, prod, max and min over int8/16/32/64,
/// uint8/16/32/64, fp16, fp32, fp64 and bf16.  The API layer restricts further to what the emulated SoC supports.
bool computes(HcclReduceOp op, HcclDataType dtype) noexcept;

/// For i in [0, count): r = sources[0][i] op sources[1][i] op ... op sources[sourceCount - 1][i], combined strictly
/// in source order, so the result is the same bytes whatever thread computes it; r is stored into every one of
/// `destinations` (a reduced slice goes to every rank at once, read from memory only once).
///
/// - fp16 and bf16 are combined in fp32 and rounded once to the element type at the end (to nearest even);
///   fp32 is combined in fp32 and fp64 in fp64.
/// - Integers are combined in their own type; sum and prod wrap around (two's complement).
/// - Floating-point max and min propagate NaN: if any operand is NaN the result is NaN.  Between operands that
///   compare equal, +0 and -0 included, the earlier source's value is kept.
/// - With one source, every destination becomes a copy of it.
///
/// A destination may be exactly any source (in place) but must not partially overlap one, nor another
/// destination.  Every pointer is aligned to the element type.  Requires computes(op, dtype) and sourceCount >= 1.
void reduce(HcclReduceOp op, HcclDataType dtype, void* const* destinations, size_t destinationCount,
            const void* const* sources, size_t sourceCount, uint64_t count) noexcept;

}  // namespace aclcpu::hccl::detail
