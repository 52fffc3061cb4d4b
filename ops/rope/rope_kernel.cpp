// acl-cpu: the RotaryPositionEmbedding kernel (see rope_kernel.hpp),
// compiled for every SIMD target Highway dispatches to at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "rope/rope_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "common/hwy_target.hpp"
#include "rope/rope_kernel.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

using RopeTag = hn::ScalableTag<float>;

/// y[lo + i] = a[i] c[i] - b[i] s[i] and y[hi + i] = b[i] c'[i] + a[i] s'[i]
/// for the halves a = x[lo..], b = x[hi..] (c', s' at hi): mode 0's row.
void rotate_half(const float* x, const float* c, const float* s, float* y, int64_t half) {
    const RopeTag d;
    const auto lanes = static_cast<int64_t>(hn::Lanes(d));
    int64_t i = 0;
    for (; i + lanes <= half; i += lanes) {
        const auto a = hn::LoadU(d, x + i);
        const auto b = hn::LoadU(d, x + half + i);
        hn::StoreU(hn::Sub(hn::Mul(a, hn::LoadU(d, c + i)), hn::Mul(b, hn::LoadU(d, s + i))), d, y + i);
        hn::StoreU(hn::Add(hn::Mul(b, hn::LoadU(d, c + half + i)), hn::Mul(a, hn::LoadU(d, s + half + i))), d,
                   y + half + i);
    }
    for (; i < half; ++i) {
        const float a = x[i];
        const float b = x[half + i];
        y[i] = a * c[i] - b * s[i];
        y[half + i] = b * c[half + i] + a * s[half + i];
    }
}

/// Mode 1's row: each pair (a, b) = (x[2i], x[2i+1]) becomes
/// (a c - b s, b c' + a s').  Vectors hold whole pairs (an even lane count).
void rotate_interleaved(const float* x, const float* c, const float* s, float* y, int64_t length) {
    const RopeTag d;
    const auto lanes = static_cast<int64_t>(hn::Lanes(d));
    int64_t i = 0;
    if (lanes % 2 == 0) {
        for (; i + lanes <= length; i += lanes) {
            const auto v = hn::LoadU(d, x + i);
            const auto swappedTimesSin = hn::Mul(hn::Reverse2(d, v), hn::LoadU(d, s + i));
            // -(b s) in even lanes, +(a s') in odd ones: negation is exact.
            const auto rotated = hn::OddEven(swappedTimesSin, hn::Neg(swappedTimesSin));
            hn::StoreU(hn::Add(hn::Mul(v, hn::LoadU(d, c + i)), rotated), d, y + i);
        }
    }
    for (; i < length; i += 2) {
        const float a = x[i];
        const float b = x[i + 1];
        y[i] = a * c[i] - b * s[i];
        y[i + 1] = b * c[i + 1] + a * s[i + 1];
    }
}

}  // namespace

/// One block slice: per row, x, cos and sin gathered into fp32 staging, the
/// row rotated, and scattered into y rounded to its dtype.
void rope_slice(const RopeKernel::Job& job, const BlockSlice& slice, std::byte* staging) {
    const RopePlan& plan = job.tiling;
    const RopeOperands& ops = job.operands;
    const int64_t n = plan.length;
    auto* x = reinterpret_cast<float*>(staging);
    float* c = x + n;
    float* s = c + n;
    float* y = s + n;
    for (int64_t row = slice.units.begin; row < slice.units.end; ++row) {
        const int64_t first = row * n;
        gather(ops.x, job.args.inputs[0], first, n, x);
        gather(ops.cos, job.args.inputs[1], first, n, c);
        gather(ops.sin, job.args.inputs[2], first, n, s);
        if (plan.mode == RopeMode::kHalf) {
            rotate_half(x, c, s, y, n / 2);
        } else {
            rotate_interleaved(x, c, s, y, n);
        }
        scatter(y, ops.y, job.args.outputs[0], first, n);
    }
}

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
namespace aclcpu::ops {

HWY_EXPORT(rope_slice);

namespace {
/// x, cos, sin and y rows, fp32.
constexpr int64_t kStagedBytesPerElement = 4 * int64_t{sizeof(float)};
}  // namespace

RopePlan plan_rope(RopeMode mode, int64_t rows, int64_t length, const SocProfile& soc) {
    RopePlan plan;
    plan.mode = mode;
    plan.length = length;
    plan.blocks = BlockSplit::front_loaded(rows, soc.vectorCoreCount, length);
    return plan;
}

aclError RopeKernel::launch(const LaunchArgs& args) const noexcept {
    if (aclError status = check_tensor_addresses(name(), args, 3, 1); status != ACL_SUCCESS) return status;
    const Job job{tiling_, operands_, args};
    const UbStaging staging = UbStaging::per_worker(tiling_.length * kStagedBytesPerElement);
    const int64_t bytesPerRow = tiling_.length * (3 * element_size(operands_.x.dtype()) + element_size(operands_.y.dtype()));
    return launch_block_slices(name(), tiling_.blocks, bytesPerRow, 1, [&](const BlockSlice& slice) {
        HWY_DYNAMIC_DISPATCH(rope_slice)(job, slice, staging.for_block(slice.block));
    });
}

}  // namespace aclcpu::ops
#endif  // HWY_ONCE
