// acl-cpu bench: peak_fma.hpp's FMA-bound loop, compiled for every SIMD
// target Highway dispatches to.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "peak_fma.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>
#include <hwy/targets.h>

#include <cstdint>

#include "peak_fma.hpp"

HWY_BEFORE_NAMESPACE();
namespace aclcpu::bench::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// FMA latency (4 cycles) x FMA ports (2) needs 8 chains in flight; 12 leave
/// slack and still fit the 16 (32 on AVX-512) vector registers.  Named
/// variables, not an array: the compiler keeps an indexed array in memory.
#define ACLCPU_FMA_CHAINS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)
constexpr int kFmaAccumulators = 12;

double fma_flops(int64_t rounds) {
    const hn::ScalableTag<float> d;
    // x -> x * m + a converges to a fixed point: no overflow, no denormals.
    const auto m = hn::Set(d, 0.999f);
    const auto a = hn::Set(d, 0.001f);
#define ACLCPU_FMA_INIT(i) auto acc##i = hn::Set(d, static_cast<float>(i));
#define ACLCPU_FMA_STEP(i) acc##i = hn::MulAdd(acc##i, m, a);
#define ACLCPU_FMA_SUM(i) sum = hn::Add(sum, acc##i);
    ACLCPU_FMA_CHAINS(ACLCPU_FMA_INIT)
    for (int64_t r = 0; r < rounds; ++r) {
        ACLCPU_FMA_CHAINS(ACLCPU_FMA_STEP)
    }
    auto sum = hn::Zero(d);
    ACLCPU_FMA_CHAINS(ACLCPU_FMA_SUM)
    // The result is used, so the loop cannot be dropped.
    volatile float sink = hn::GetLane(sum);
    (void)sink;
    return 2.0 * static_cast<double>(rounds) * kFmaAccumulators * static_cast<double>(hn::Lanes(d));
}

const char* target_name() { return hwy::TargetName(HWY_TARGET); }

}  // namespace aclcpu::bench::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace aclcpu::bench {

HWY_EXPORT(fma_flops);
HWY_EXPORT(target_name);

double fma_flops(int64_t rounds) { return HWY_DYNAMIC_DISPATCH(fma_flops)(rounds); }

const char* fma_target() { return HWY_DYNAMIC_DISPATCH(target_name)(); }

}  // namespace aclcpu::bench
#endif
