// vector_math-inl.h's fast paths against the Highway functions they stand in
// for, bit for bit: a vector takes a fast path only when all its lanes are in
// its range, which is sound only if each lane's result is the same either way
// (elementwise-inl.h's lane-by-lane contract).  Compiled for every SIMD target
// and run on the best one this CPU has; a new Highway whose pieces changed
// fails here rather than in an operator's tolerance.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "common/tests/vector_math_ranges.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "common/hwy_target.hpp"
#include "common/vector_math-inl.h"

#ifndef ACLCPU_VECTOR_MATH_RANGES_FUNCTIONS
#define ACLCPU_VECTOR_MATH_RANGES_FUNCTIONS
namespace vector_math_test {
/// Which fast path to compare with its Highway function.
enum Function : int { kExp, kExpm1, kTanh, kLog };
}  // namespace vector_math_test
#endif

ACLCPU_BEGIN_TARGET_NAMESPACE();

template <class D, class V>
V fast_path(D d, int function, V x) {
    switch (function) {
        case vector_math_test::kExp: return detail::exp_in_fast_range(d, x);
        case vector_math_test::kExpm1: return detail::expm1_in_fast_range(d, x);
        case vector_math_test::kTanh: return tanh_ieee(d, x);
        default: return log_ieee(d, x);
    }
}

template <class D, class V>
V highway(D d, int function, V x) {
    switch (function) {
        case vector_math_test::kExp: return hn::Exp(d, x);
        case vector_math_test::kExpm1: return hn::Expm1(d, x);
        case vector_math_test::kTanh: return hn::Tanh(d, x);
        default: return hn::Log(d, x);
    }
}

/// How many floats of bit patterns first, first + stride, ... up to last
/// (inclusive) the fast path and Highway's function give different bits for.
uint64_t mismatches(int function, uint32_t first, uint32_t last, uint32_t stride) {
    const hn::ScalableTag<float> d;
    const hn::RebindToUnsigned<decltype(d)> du;
    const size_t lanes = hn::Lanes(d);
    const auto step = hn::Set(du, static_cast<uint32_t>(lanes) * stride);
    auto bits = hn::Min(hn::Add(hn::Mul(hn::Iota(du, 0), hn::Set(du, stride)), hn::Set(du, first)), hn::Set(du, last));
    uint64_t count = 0;
    for (uint64_t done = first; done <= last; done += lanes * uint64_t{stride}) {
        const auto x = hn::BitCast(d, bits);
        const auto differ = hn::Ne(hn::BitCast(du, fast_path(d, function, x)), hn::BitCast(du, highway(d, function, x)));
        count += hn::CountTrue(du, differ);
        bits = hn::Min(hn::Add(bits, step), hn::Set(du, last));
    }
    return count;
}

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
#include <gtest/gtest.h>

namespace aclcpu::ops {
HWY_EXPORT(mismatches);
}  // namespace aclcpu::ops

namespace {

using namespace vector_math_test;

uint32_t bits_of(float x) {
    uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    return bits;
}

/// Both signs of every stride-th float of magnitude up to limit, and the
/// last hundred floats below it one by one.
uint64_t mismatches_below(Function function, float limit, uint32_t stride) {
    const auto mismatches = HWY_DYNAMIC_DISPATCH(aclcpu::ops::mismatches);
    const uint32_t last = bits_of(limit) - 1;
    uint64_t count = 0;
    for (const uint32_t sign : {0u, 0x80000000u}) {
        count += mismatches(function, sign, sign | last, stride);
        count += mismatches(function, sign | (last - 100), sign | last, 1);
    }
    return count;
}

// Every 61st float: about 36 million of each sign below 87.
constexpr uint32_t kStride = 61;

TEST(VectorMathRanges, FastExpIsHighwaysExpBelow87) {
    EXPECT_EQ(mismatches_below(kExp, 87.0f, kStride), 0u);
}

TEST(VectorMathRanges, FastExpm1IsHighwaysExpm1Below87) {
    EXPECT_EQ(mismatches_below(kExpm1, 87.0f, kStride), 0u);
}

TEST(VectorMathRanges, TanhIsHighwaysTanhInAndAroundItsFastRange) {
    EXPECT_EQ(mismatches_below(kTanh, 60.0f, kStride), 0u);
}

TEST(VectorMathRanges, LogIsHighwaysLogOverAllPositiveFloats) {
    const auto mismatches = HWY_DYNAMIC_DISPATCH(aclcpu::ops::mismatches);
    // Subnormals (the slow path) and normals, from the smallest float to FLT_MAX.
    EXPECT_EQ(mismatches(kLog, 1, bits_of(FLT_MAX), kStride), 0u);
    EXPECT_EQ(mismatches(kLog, bits_of(FLT_MIN) - 100, bits_of(FLT_MIN) + 100, 1), 0u);
}

}  // namespace
#endif  // HWY_ONCE
