// half.hpp and the runtime's dtype helpers against references built from the
// IEEE definitions: a value's neighbours and the midpoints between them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "acl/acl_base.h"
#include "aclcpu/half.hpp"

namespace {

using aclcpu::bf16_to_float;
using aclcpu::float_to_bf16;
using aclcpu::float_to_half;
using aclcpu::half_to_float;

uint32_t bits_of(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

/// binary16 decoded from its fields: (-1)^s * 2^(e-15) * (1 + m/1024), or
/// 2^-14 * m/1024 for e == 0.
double half_reference(uint16_t bits) {
    const int exponent = (bits >> 10) & 0x1F;
    const int mantissa = bits & 0x3FF;
    const double sign = (bits & 0x8000) != 0 ? -1.0 : 1.0;
    if (exponent == 0x1F) {
        return mantissa == 0 ? sign * std::numeric_limits<double>::infinity()
                             : std::numeric_limits<double>::quiet_NaN();
    }
    return sign * (exponent == 0 ? std::ldexp(mantissa, -24) : std::ldexp(1024 + mantissa, exponent - 25));
}

TEST(Half, DecodesEveryPatternExactly) {
    for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
        const double expected = half_reference(static_cast<uint16_t>(bits));
        const float got = half_to_float(static_cast<uint16_t>(bits));
        if (std::isnan(expected)) {
            ASSERT_TRUE(std::isnan(got)) << bits;
            ASSERT_NE(bits_of(got) & 0x00400000u, 0u) << "NaN must come out quiet: " << bits;
        } else {
            ASSERT_EQ(static_cast<double>(got), expected) << bits;
            ASSERT_EQ(std::signbit(got), (bits & 0x8000) != 0) << bits;
        }
    }
}

/// For every pair of neighbouring finite halves: each value, the points just
/// around their midpoint, and the midpoint itself (ties go to the even one).
TEST(Half, EncodesRoundingToNearestEven) {
    for (uint16_t low = 0; low < 0x7BFF; ++low) {
        const uint16_t high = low + 1;
        const float a = static_cast<float>(half_reference(low));
        const float b = static_cast<float>(half_reference(high));
        const float midpoint = static_cast<float>((static_cast<double>(a) + b) / 2);  // exact in float
        ASSERT_EQ(float_to_half(a), low);
        ASSERT_EQ(float_to_half(-a), low | 0x8000);
        ASSERT_EQ(float_to_half(std::nextafter(midpoint, 0.0f)), low);
        ASSERT_EQ(float_to_half(std::nextafter(midpoint, std::numeric_limits<float>::infinity())), high);
        ASSERT_EQ(float_to_half(midpoint), (low & 1) == 0 ? low : high) << low;
    }
}

TEST(Half, EncodesOverflowInfinityAndNaNAsIeee) {
    EXPECT_EQ(float_to_half(65504.0f), 0x7BFF);
    EXPECT_EQ(float_to_half(std::nextafter(65520.0f, 0.0f)), 0x7BFF);
    EXPECT_EQ(float_to_half(65520.0f), 0x7C00);  // tie between 65504 and 2^16 goes to the even: Inf
    EXPECT_EQ(float_to_half(1e30f), 0x7C00);
    EXPECT_EQ(float_to_half(-1e30f), 0xFC00);
    EXPECT_EQ(float_to_half(std::numeric_limits<float>::infinity()), 0x7C00);
    EXPECT_EQ(float_to_half(-std::numeric_limits<float>::infinity()), 0xFC00);
    const uint16_t nan = float_to_half(std::numeric_limits<float>::signaling_NaN());
    EXPECT_EQ(nan & 0x7C00, 0x7C00);
    EXPECT_NE(nan & 0x0200, 0) << "NaN must come out quiet";
    EXPECT_EQ(float_to_half(std::ldexp(1.0f, -25)), 0x0000);  // tie to even zero
    EXPECT_EQ(float_to_half(std::nextafter(std::ldexp(1.0f, -25), 1.0f)), 0x0001);
    EXPECT_EQ(float_to_half(-0.0f), 0x8000);
    EXPECT_EQ(float_to_half(std::numeric_limits<float>::denorm_min()), 0x0000);
}

double bf16_reference(uint16_t bits) {
    const int exponent = (bits >> 7) & 0xFF;
    const int mantissa = bits & 0x7F;
    const double sign = (bits & 0x8000) != 0 ? -1.0 : 1.0;
    if (exponent == 0xFF) {
        return mantissa == 0 ? sign * std::numeric_limits<double>::infinity()
                             : std::numeric_limits<double>::quiet_NaN();
    }
    return sign * (exponent == 0 ? std::ldexp(mantissa, -133) : std::ldexp(128 + mantissa, exponent - 134));
}

TEST(Bf16, DecodesEveryPatternExactly) {
    for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
        const double expected = bf16_reference(static_cast<uint16_t>(bits));
        const float got = bf16_to_float(static_cast<uint16_t>(bits));
        if (std::isnan(expected)) {
            ASSERT_TRUE(std::isnan(got)) << bits;
        } else {
            ASSERT_EQ(static_cast<double>(got), expected) << bits;
        }
    }
}

TEST(Bf16, EncodesRoundingToNearestEven) {
    for (uint16_t low = 0; low < 0x7F7F; ++low) {
        const uint16_t high = low + 1;
        const double a = bf16_reference(low);
        const double b = bf16_reference(high);
        const float midpoint = static_cast<float>((a + b) / 2);  // exact in float
        ASSERT_EQ(float_to_bf16(static_cast<float>(a)), low);
        ASSERT_EQ(float_to_bf16(static_cast<float>(-a)), low | 0x8000);
        ASSERT_EQ(float_to_bf16(std::nextafter(midpoint, 0.0f)), low);
        ASSERT_EQ(float_to_bf16(std::nextafter(midpoint, std::numeric_limits<float>::infinity())), high);
        ASSERT_EQ(float_to_bf16(midpoint), (low & 1) == 0 ? low : high) << low;
    }
}

TEST(Bf16, EncodesOverflowInfinityAndNaN) {
    EXPECT_EQ(float_to_bf16(std::numeric_limits<float>::max()), 0x7F80);  // rounds up to Inf
    EXPECT_EQ(float_to_bf16(-std::numeric_limits<float>::max()), 0xFF80);
    EXPECT_EQ(float_to_bf16(std::numeric_limits<float>::infinity()), 0x7F80);
    const uint16_t nan = float_to_bf16(std::numeric_limits<float>::signaling_NaN());
    EXPECT_EQ(nan & 0x7F80, 0x7F80);
    EXPECT_NE(nan & 0x0040, 0) << "NaN must come out quiet";
}

TEST(StrongTypes, RoundTripThroughFloat) {
    static_assert(static_cast<float>(aclcpu::half_t::from_float(1.5f)) == 1.5f);
    static_assert(aclcpu::half_t::from_float(1.0f).bits == 0x3C00);
    static_assert(static_cast<float>(aclcpu::bf16_t::from_float(-2.0f)) == -2.0f);
    static_assert(aclcpu::bf16_t::from_float(1.0f).bits == 0x3F80);
    SUCCEED();
}

// CANN reads the all-ones exponent as an ordinary binade.
TEST(AclFloat16ToFloat, SaturationModeDecoding) {
    EXPECT_EQ(aclFloat16ToFloat(0x3C00), 1.0f);
    EXPECT_EQ(aclFloat16ToFloat(0x0001), std::ldexp(1.0f, -24));
    EXPECT_EQ(aclFloat16ToFloat(0x7BFF), 65504.0f);
    EXPECT_EQ(aclFloat16ToFloat(0x7C00), 65536.0f);
    EXPECT_EQ(aclFloat16ToFloat(0xFC00), -65536.0f);
    EXPECT_EQ(aclFloat16ToFloat(0x7E00), 98304.0f);
    EXPECT_EQ(aclFloat16ToFloat(0x7FFF), 131008.0f);
    for (uint32_t bits = 0; bits < 0x7C00; ++bits) {
        ASSERT_EQ(static_cast<double>(aclFloat16ToFloat(static_cast<aclFloat16>(bits))),
                  half_reference(static_cast<uint16_t>(bits)));
    }
}

TEST(AclFloatToFloat16, SaturatesEverythingBeyondRange) {
    EXPECT_EQ(aclFloatToFloat16(1.0f), 0x3C00);
    EXPECT_EQ(aclFloatToFloat16(std::ldexp(1.0f, -24)), 0x0001);
    EXPECT_EQ(aclFloatToFloat16(1.0f + std::ldexp(1.0f, -11)), 0x3C00);  // tie to even
    EXPECT_EQ(aclFloatToFloat16(65520.0f), 0x7BFF);
    EXPECT_EQ(aclFloatToFloat16(1e6f), 0x7BFF);
    EXPECT_EQ(aclFloatToFloat16(-1e6f), 0xFBFF);
    EXPECT_EQ(aclFloatToFloat16(std::numeric_limits<float>::infinity()), 0x7BFF);
    EXPECT_EQ(aclFloatToFloat16(-std::numeric_limits<float>::infinity()), 0xFBFF);
    EXPECT_EQ(aclFloatToFloat16(std::numeric_limits<float>::quiet_NaN()), 0x7BFF);
    EXPECT_EQ(aclFloatToFloat16(-std::numeric_limits<float>::quiet_NaN()), 0xFBFF);
}

// CANN's code, not its doc, is the contract: sub-byte integer types count as
// one byte, and types it has no case for (the 6- and 4-bit floats, unused
// codes) fall through to eight.
TEST(AclDataTypeSize, BytesPerElementAsCannComputesThem) {
    struct Case {
        aclDataType dtype;
        size_t bytes;
    };
    const Case cases[] = {
        {ACL_FLOAT, 4},         {ACL_FLOAT16, 2},       {ACL_INT8, 1},          {ACL_INT32, 4},
        {ACL_UINT8, 1},         {ACL_INT16, 2},         {ACL_UINT16, 2},        {ACL_UINT32, 4},
        {ACL_INT64, 8},         {ACL_UINT64, 8},        {ACL_DOUBLE, 8},        {ACL_BOOL, 1},
        {ACL_STRING, 0},        {ACL_COMPLEX64, 8},     {ACL_COMPLEX128, 16},   {ACL_BF16, 2},
        {ACL_INT4, 1},          {ACL_UINT1, 1},         {ACL_COMPLEX32, 4},     {ACL_HIFLOAT8, 1},
        {ACL_FLOAT8_E5M2, 1},   {ACL_FLOAT8_E4M3FN, 1}, {ACL_FLOAT8_E8M0, 1},   {ACL_FLOAT6_E3M2, 8},
        {ACL_FLOAT6_E2M3, 8},   {ACL_FLOAT4_E2M1, 8},   {ACL_FLOAT4_E1M2, 8},   {ACL_DT_UNDEFINED, 0},
        {static_cast<aclDataType>(5), 8},
    };
    for (const Case& c : cases) EXPECT_EQ(aclDataTypeSize(c.dtype), c.bytes) << "dtype " << c.dtype;
}

}  // namespace
