// acl-cpu ops/common: the per-target fp32 folds of the reduction engine (a
// Highway "-inl" header, included by reduction.cpp once per target).
//
// Both folds combine lane by lane in a fixed order, so their results are
// the same on every target: fold_lanes keeps kReductionLanes partials
// whatever the vector width (16 / Lanes vectors of them), fold_row is one
// combine per element.
#include "common/internal.hpp"

#if defined(ACLCPU_OPS_COMMON_REDUCTION_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLCPU_OPS_COMMON_REDUCTION_INL_H_
#undef ACLCPU_OPS_COMMON_REDUCTION_INL_H_
#else
#define ACLCPU_OPS_COMMON_REDUCTION_INL_H_
#endif

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "common/hwy_target.hpp"
#include "common/reduction.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace reduction {

/// At most kReductionLanes lanes, so that a vector holds whole lane groups.
using LaneTag = hn::CappedTag<float, kReductionLanes>;

/// combine(a, b) lane by lane; max and min propagate NaN (either operand
/// NaN gives NaN), as the scalar combine does.
template <ReduceCombine kCombine, class D, class V>
V combine(D /*d*/, V a, V b) {
    if constexpr (kCombine == ReduceCombine::sum) {
        return hn::Add(a, b);
    } else if constexpr (kCombine == ReduceCombine::prod) {
        return hn::Mul(a, b);
    } else {
        const V chosen = kCombine == ReduceCombine::max ? hn::IfThenElse(hn::Gt(a, b), a, b)
                                                        : hn::IfThenElse(hn::Lt(a, b), a, b);
        const auto nan = hn::Or(hn::IsNaN(a), hn::IsNaN(b));
        return hn::IfThenElse(nan, hn::Add(a, b), chosen);
    }
}

/// *a = combine(*a, b), in one lane.
template <ReduceCombine kCombine>
void combine_one(float* a, float b) {
    const hn::CappedTag<float, 1> one;
    hn::StoreU(combine<kCombine>(one, hn::LoadU(one, a), hn::Set(one, b)), one, a);
}

template <ReduceCombine kCombine>
void fold_lanes(const float* x, int64_t n, float* lanes) {
    const LaneTag d;
    using V = hn::Vec<LaneTag>;
    constexpr size_t kMaxVectors = kReductionLanes;  // 1-lane targets
    const size_t width = hn::Lanes(d);
    const size_t vectors = static_cast<size_t>(kReductionLanes) / width;
    V acc[kMaxVectors];
    for (size_t k = 0; k < vectors; ++k) acc[k] = hn::LoadU(d, lanes + k * width);
    int64_t i = 0;
    for (; i + kReductionLanes <= n; i += kReductionLanes) {
        for (size_t k = 0; k < vectors; ++k) acc[k] = combine<kCombine>(d, acc[k], hn::LoadU(d, x + i + k * width));
    }
    for (size_t k = 0; k < vectors; ++k) hn::StoreU(acc[k], d, lanes + k * width);
    for (int64_t j = 0; i + j < n; ++j) combine_one<kCombine>(lanes + j, x[i + j]);
}

template <ReduceCombine kCombine>
void fold_row(float* acc, const float* x, int64_t n) {
    const LaneTag d;
    const auto width = static_cast<int64_t>(hn::Lanes(d));
    int64_t i = 0;
    for (; i + width <= n; i += width) {
        hn::StoreU(combine<kCombine>(d, hn::LoadU(d, acc + i), hn::LoadU(d, x + i)), d, acc + i);
    }
    for (; i < n; ++i) combine_one<kCombine>(acc + i, x[i]);
}

template <ReduceCombine kCombine>
using CombineTag = std::integral_constant<ReduceCombine, kCombine>;

/// Calls f(CombineTag<combine>{}) for the runtime combine.
template <class F>
void with_combine(ReduceCombine combine, const F& f) {
    switch (combine) {
        case ReduceCombine::sum: f(CombineTag<ReduceCombine::sum>{}); break;
        case ReduceCombine::max: f(CombineTag<ReduceCombine::max>{}); break;
        case ReduceCombine::min: f(CombineTag<ReduceCombine::min>{}); break;
        case ReduceCombine::prod: f(CombineTag<ReduceCombine::prod>{}); break;
        case ReduceCombine::argmax:
        case ReduceCombine::argmin: break;  // reduction.cpp's scalar path
    }
}

}  // namespace reduction

/// lanes[j] = combine(lanes[j], x[i]) for each i < n with i % 16 == j, in
/// increasing i.
void fold_lanes_on_target(ReduceCombine combine, const float* x, int64_t n, float* lanes) {
    reduction::with_combine(combine, [&](auto tag) { reduction::fold_lanes<decltype(tag)::value>(x, n, lanes); });
}

/// acc[i] = combine(acc[i], x[i]) for i < n.
void fold_row_on_target(ReduceCombine combine, float* acc, const float* x, int64_t n) {
    reduction::with_combine(combine, [&](auto tag) { reduction::fold_row<decltype(tag)::value>(acc, x, n); });
}

ACLCPU_END_TARGET_NAMESPACE();

#endif  // include guard
