// acl-cpu bench: the machine's peak fp32 FMA rate, the ceiling a matrix
// product is measured against (matmul_bench.cpp's "of_peak").
#pragma once

#include <cstdint>

namespace aclcpu::bench {

/// Runs `rounds` rounds of kFmaAccumulators independent vector FMAs on the
/// calling thread, with the widest SIMD target Highway dispatches to;
/// returns the flops done (2 per lane per FMA).  The accumulators hide the
/// FMA latency, so the loop is bound by the FMA ports alone.
double fma_flops(int64_t rounds);

/// The target's name (AVX3_ZEN4, AVX2, ...).
const char* fma_target();

}  // namespace aclcpu::bench
