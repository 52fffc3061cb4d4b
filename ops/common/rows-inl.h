// acl-cpu ops/common: the row engine's vector pieces (see rows.hpp), per
// SIMD target.  Include after <hwy/highway.h> in a file compiled by
// foreach_target (a per-target include guard, as Highway's -inl headers).
#include "common/internal.hpp"

#if defined(ACLCPU_OPS_COMMON_ROWS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLCPU_OPS_COMMON_ROWS_INL_H_
#undef ACLCPU_OPS_COMMON_ROWS_INL_H_
#else
#define ACLCPU_OPS_COMMON_ROWS_INL_H_
#endif

#include <algorithm>
#include <cstdint>
#include <cstring>

#include <hwy/highway.h>

#include "common/hwy_target.hpp"
#include "common/rows.hpp"
#include "common/simd-inl.h"
#include "common/vector_math-inl.h"

ACLCPU_BEGIN_TARGET_NAMESPACE();

/// out[i] = e^(x[i] - shift) for i < n: Highway's Exp lane by lane (a
/// lane's result never depends on the target's width), 0 at -inf, NaN kept.
inline void exp_shifted(const float* x, float shift, float* out, int64_t n) {
    const hn::ScalableTag<float> d;
    const auto lanes = static_cast<int64_t>(hn::Lanes(d));
    const auto shiftV = hn::Set(d, shift);
    int64_t i = 0;
    for (; i + lanes <= n; i += lanes) hn::StoreU(exp_ieee(d, hn::Sub(hn::LoadU(d, x + i), shiftV)), d, out + i);
    if (i == n) return;
    float tail[kMaxFloatLanes] = {};
    std::memcpy(tail, x + i, static_cast<size_t>(n - i) * sizeof(float));
    hn::StoreU(exp_ieee(d, hn::Sub(hn::LoadU(d, tail), shiftV)), d, tail);
    std::memcpy(out + i, tail, static_cast<size_t>(n - i) * sizeof(float));
}

/// The row passes' vectors: at most 16 lanes (a divisor of
/// kRowSumPartials), so that a whole number of vectors holds one lane per
/// partial on every target.
using RowTag = hn::CappedTag<float, 16>;
using RowVec = hn::Vec<RowTag>;
inline constexpr size_t kRowLanes = hn::MaxLanes(RowTag());
/// Vectors of partials (independent accumulators) per kRowSumPartials elements.
inline constexpr size_t kRowVectors = static_cast<size_t>(kRowSumPartials) / kRowLanes;
static_assert(kRowVectors * kRowLanes == static_cast<size_t>(kRowSumPartials), "whole vectors of partials");

/// The count (<= the lanes) floats at p as a vector; the other lanes 0.
HWY_INLINE RowVec load_row_lanes(const float* p, size_t count) {
    const RowTag d;
    return count == hn::Lanes(d) ? hn::LoadU(d, p) : load_f32_partial(d, p, count);
}

/// The largest of max and x[i] for i < n, NaN ignored (x > max keeps the
/// current max when either is NaN), as the scalar comparison chain does;
/// kRowVectors independent running maxima (max is exact in any order).
inline float row_max(const float* x, int64_t n, float max) {
    const RowTag d;
    RowVec m[kRowVectors];
    for (auto& lanes : m) lanes = hn::Set(d, max);
    int64_t i = 0;
    for (; i + kRowSumPartials <= n; i += kRowSumPartials) {
        HWY_UNROLL(8)
        for (size_t k = 0; k < kRowVectors; ++k) {
            const RowVec v = hn::LoadU(d, x + i + k * kRowLanes);
            m[k] = hn::IfThenElse(hn::Gt(v, m[k]), v, m[k]);
        }
    }
    HWY_UNROLL(8)
    for (size_t k = 0; k < kRowVectors; ++k) {  // a constant trip count keeps m in registers
        const int64_t at = i + static_cast<int64_t>(k * kRowLanes);
        if (at >= n) break;
        const size_t count = std::min(kRowLanes, static_cast<size_t>(n - at));
        const RowVec v = load_row_lanes(x + at, count);
        m[k] = hn::IfThenElse(hn::And(hn::FirstN(d, count), hn::Gt(v, m[k])), v, m[k]);
    }
    for (size_t k = 1; k < kRowVectors; ++k) m[0] = hn::IfThenElse(hn::Gt(m[k], m[0]), m[k], m[0]);
    return hn::GetLane(hn::MaxOfLanes(d, m[0]));  // no lane is NaN
}

/// out[i] = value(i, count) for i < n in vectors, value returning the
/// vector of elements i.. of which the first count lanes are stored.
template <class Value>
HWY_INLINE void store_row(float* out, int64_t n, const Value& value) {
    store_values(RowTag(), value, static_cast<size_t>(n), out);
}

/// Partial sums of a row in a fixed order, whatever its chunks (chunks
/// start at multiples of kPartials) and whatever the target's vector
/// width: element i goes to partial i % kPartials (lane i % lanes of
/// vector (i / lanes) % kRowVectors), each partial compensated (Kahan), so
/// that a 100 000-element row of values near 1000 keeps its mean to fp32's
/// precision; the partials (each with its compensation) are then added as
/// a pairwise tree in double, rounded to fp32 once, so that folding 32
/// partials of such a row loses nothing.
class RowSum {
public:
    static constexpr int64_t kPartials = kRowSumPartials;

    RowSum() {
        for (size_t k = 0; k < kVectors; ++k) sums_[k] = errors_[k] = hn::Zero(RowTag());
    }

    /// Adds term(v[i]) for i < n, v being the row's elements from a
    /// multiple of kPartials, term mapping a RowVec to a RowVec lane by lane.
    template <class Term>
    void add(const float* v, int64_t n, const Term& term) {
        accumulate(v, n, term, [](int64_t, RowVec, size_t) {});
    }

    /// add, also storing term(v[i]) at out[i]: one pass where a row needs
    /// both the terms and their sum (softmax's e^(x - max)).
    template <class Term>
    void add_storing(const float* v, int64_t n, const Term& term, float* out) {
        accumulate(v, n, term, [out](int64_t at, RowVec terms, size_t count) {
            if (count == kLanes) {
                hn::StoreU(terms, RowTag(), out + at);
            } else {
                store_f32_partial(RowTag(), terms, out + at, count);
            }
        });
    }

    float total() const {
        const RowTag d;
        float sums[kPartials];
        float errors[kPartials];
        for (size_t k = 0; k < kVectors; ++k) {
            hn::StoreU(sums_[k], d, sums + k * kLanes);
            hn::StoreU(errors_[k], d, errors + k * kLanes);
        }
        double p[kPartials];
        for (int64_t k = 0; k < kPartials; ++k) p[k] = double{sums[k]} - double{errors[k]};
        for (int64_t n = kPartials; n > 1; n /= 2) {
            for (int64_t k = 0; k < n / 2; ++k) p[k] = p[2 * k] + p[2 * k + 1];
        }
        return static_cast<float>(p[0]);
    }

private:
    static constexpr size_t kLanes = kRowLanes;
    static constexpr size_t kVectors = kRowVectors;
    static_assert((kPartials & (kPartials - 1)) == 0, "total() folds a power of two of partials");

    /// add's walk; sink(at, terms, count) sees each vector of terms, of
    /// which the first count lanes are elements at...
    template <class Term, class Sink>
    void accumulate(const float* v, int64_t n, const Term& term, const Sink& sink) {
        const RowTag d;
        int64_t i = 0;
        for (; i + kPartials <= n; i += kPartials) {
            HWY_UNROLL(8)
            for (size_t k = 0; k < kVectors; ++k) {
                const int64_t at = i + static_cast<int64_t>(k * kLanes);
                const RowVec terms = term(hn::LoadU(d, v + at));
                sink(at, terms, kLanes);
                add_to(k, terms);
            }
        }
        HWY_UNROLL(8)
        for (size_t k = 0; k < kVectors; ++k) {  // a constant trip count keeps the sums in registers
            const int64_t at = i + static_cast<int64_t>(k * kLanes);
            if (at >= n) break;
            const size_t count = std::min(kLanes, static_cast<size_t>(n - at));
            const RowVec terms = term(load_row_lanes(v + at, count));
            sink(at, terms, count);
            add_to(k, terms, hn::FirstN(d, count));
        }
    }

    /// The Kahan step on the partials of vector k.  A partial that is no
    /// longer finite keeps no compensation: inf - inf would make it NaN where
    /// the plain sum (the device's) stays infinite.
    void add_to(size_t k, RowVec term) {
        const RowVec corrected = hn::Sub(term, errors_[k]);
        const RowVec sum = hn::Add(sums_[k], corrected);
        errors_[k] = hn::IfThenElseZero(hn::IsFinite(sum), hn::Sub(hn::Sub(sum, sums_[k]), corrected));
        sums_[k] = sum;
    }
    /// The Kahan step on the partials of vector k in the lanes of mask only.
    void add_to(size_t k, RowVec term, hn::Mask<RowTag> mask) {
        const RowVec sums = sums_[k];
        const RowVec errors = errors_[k];
        add_to(k, term);
        sums_[k] = hn::IfThenElse(mask, sums_[k], sums);
        errors_[k] = hn::IfThenElse(mask, errors_[k], errors);
    }

    RowVec sums_[kVectors];
    RowVec errors_[kVectors];
};

ACLCPU_END_TARGET_NAMESPACE();

#endif  // toggle guard
