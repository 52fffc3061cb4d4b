// acl-cpu: arange_float_run (fill_kernel.hpp), compiled for every SIMD target
// Highway dispatches to at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fill/arange_run.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>

#include "common/hwy_target.hpp"
#include "common/simd-inl.h"
#include "common/streaming_stores.hpp"
#include "fill/fill_kernel.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

template <class T>
void arange_run(float start, float step, int32_t first, size_t n, void* dst, bool streaming) {
    const hn::ScalableTag<float> d;
    const hn::RebindToSigned<decltype(d)> di;
    const auto lanes = hn::Iota(di, 0);  // built once: Iota goes through memory
    const auto value = [&](size_t i, size_t /*n*/) {
        // The index as a float, as static_cast<float> of an int32 (or int64) rounds it.
        const auto index = hn::ConvertTo(d, hn::Add(lanes, hn::Set(di, first + static_cast<int32_t>(i))));
        return hn::Add(hn::Set(d, start), hn::Mul(index, hn::Set(d, step)));
    };
    if (streaming) {
        store_values_streaming(d, value, n, static_cast<T*>(dst));
    } else {
        store_values(d, value, n, static_cast<T*>(dst));
    }
}

}  // namespace

bool arange_float_run_on_target(float start, float step, int64_t first, int64_t n, aclDataType out, void* dst,
                                bool streaming) {
    const auto count = static_cast<size_t>(n);
    const auto index = static_cast<int32_t>(first);
    switch (out) {
        case ACL_FLOAT: arange_run<float>(start, step, index, count, dst, streaming); return true;
        case ACL_FLOAT16: arange_run<half_t>(start, step, index, count, dst, streaming); return true;
        case ACL_BF16: arange_run<bf16_t>(start, step, index, count, dst, streaming); return true;
        default: return false;
    }
}

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
namespace aclcpu::ops {

HWY_EXPORT(arange_float_run_on_target);

bool arange_float_run(float start, float step, int64_t first, int64_t n, aclDataType out, void* dst,
                      bool streaming) noexcept {
    if (first < 0 || n < 0 || first + n > kArangeRunIndexLimit) return false;
    return HWY_DYNAMIC_DISPATCH(arange_float_run_on_target)(start, step, first, n, out, dst, streaming);
}

}  // namespace aclcpu::ops
#endif
