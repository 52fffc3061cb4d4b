// acl-cpu ops/common: convert_float_run, compiled for every SIMD target
// Highway dispatches to at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "common/float_runs.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>

#include "aclcpu/half.hpp"
#include "common/float_runs.hpp"
#include "common/hwy_target.hpp"
#include "common/simd-inl.h"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

template <class From, class To>
void convert(const void* src, void* dst, size_t n) {
    const auto* from = static_cast<const From*>(src);
    auto* to = static_cast<To*>(dst);
    const hn::ScalableTag<float> d;
    const size_t lanes = hn::Lanes(d);
    size_t i = 0;
    for (; i + lanes <= n; i += lanes) store_f32(d, load_f32(d, from + i), to + i);
    if (i < n) store_f32_partial(d, load_f32_partial(d, from + i, n - i), to + i, n - i);
}

/// values[i] rounded to T and back, in place.
template <class T>
void round_in_place(float* values, size_t n) {
    const hn::ScalableTag<float> d;
    const size_t lanes = hn::Lanes(d);
    size_t i = 0;
    for (; i + lanes <= n; i += lanes) hn::StoreU(round_to<T>(d, hn::LoadU(d, values + i)), d, values + i);
    if (i < n) {
        const size_t rest = n - i;
        store_f32_partial(d, round_to<T>(d, load_f32_partial(d, values + i, rest)), values + i, rest);
    }
}

}  // namespace

void round_through_on_target(aclDataType dtype, float* values, int64_t count) {
    if (dtype == ACL_FLOAT16) round_in_place<half_t>(values, static_cast<size_t>(count));
    else if (dtype == ACL_BF16) round_in_place<bf16_t>(values, static_cast<size_t>(count));
}

/// The pair's conversion; false for a pair that is not two different floats.
bool convert_float_run_on_target(aclDataType from, const void* src, aclDataType to, void* dst, int64_t n) {
    const auto count = static_cast<size_t>(n);
    const auto pair = [&](aclDataType a, aclDataType b) { return from == a && to == b; };
    if (pair(ACL_FLOAT, ACL_FLOAT16)) convert<float, half_t>(src, dst, count);
    else if (pair(ACL_FLOAT, ACL_BF16)) convert<float, bf16_t>(src, dst, count);
    else if (pair(ACL_FLOAT16, ACL_FLOAT)) convert<half_t, float>(src, dst, count);
    else if (pair(ACL_BF16, ACL_FLOAT)) convert<bf16_t, float>(src, dst, count);
    else if (pair(ACL_FLOAT16, ACL_BF16)) convert<half_t, bf16_t>(src, dst, count);
    else if (pair(ACL_BF16, ACL_FLOAT16)) convert<bf16_t, half_t>(src, dst, count);
    else return false;
    return true;
}

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
namespace aclcpu::ops {

HWY_EXPORT(convert_float_run_on_target);
HWY_EXPORT(round_through_on_target);

void round_through(aclDataType dtype, float* values, int64_t count) noexcept {
    HWY_DYNAMIC_DISPATCH(round_through_on_target)(dtype, values, count);
}

bool convert_float_run(aclDataType from, const void* src, aclDataType to, void* dst, int64_t n) noexcept {
    return HWY_DYNAMIC_DISPATCH(convert_float_run_on_target)(from, src, to, dst, n);
}

}  // namespace aclcpu::ops
#endif
