// aclScalar: the value is copied at creation, for every dtype CANN accepts,
// and reads back as CANN's ToFloat / ToDouble convert it.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>

#include "aclcpu/nnopbase.hpp"
#include "test_support.hpp"

namespace {

using nnopbase_test::take_error_message;

struct Read {
    aclDataType dtype;
    double asDouble;
    float asFloat;
};

/// Creates a scalar from a local copy of value, clobbers the local, and
/// reads the scalar back: what comes back must be the value at creation.
template <typename T>
Read create_and_read(T value, aclDataType dtype) {
    T local = value;
    aclScalar* scalar = aclCreateScalar(&local, dtype);
    EXPECT_NE(scalar, nullptr);
    if (scalar == nullptr) return {ACL_DT_UNDEFINED, 0, 0};
    std::memset(static_cast<void*>(&local), 0x5A, sizeof local);
    Read read{aclcpu::dtype_of(scalar), aclcpu::to_double(scalar), aclcpu::to_float(scalar)};
    EXPECT_EQ(aclDestroyScalar(scalar), ACLNN_SUCCESS);
    return read;
}

template <typename T>
void expect_reads(T value, aclDataType dtype, double asDouble, float asFloat) {
    const Read read = create_and_read(value, dtype);
    EXPECT_EQ(read.dtype, dtype);
    EXPECT_EQ(read.asDouble, asDouble) << "dtype " << dtype;
    EXPECT_EQ(read.asFloat, asFloat) << "dtype " << dtype;
}

TEST(Scalar, FloatingTypesConvertExactly) {
    expect_reads(1.5f, ACL_FLOAT, 1.5, 1.5f);
    expect_reads(0.1, ACL_DOUBLE, 0.1, 0.1f);
    expect_reads(uint16_t{0xBE00}, ACL_FLOAT16, -1.5, -1.5f);
    expect_reads(uint16_t{0x0001}, ACL_FLOAT16, std::ldexp(1.0, -24), std::ldexp(1.0f, -24));
    expect_reads(uint16_t{0x3FC0}, ACL_BF16, 1.5, 1.5f);
    expect_reads(uint16_t{0xC2F7}, ACL_BF16, -123.5, -123.5f);
}

// CANN's fp16_t reads the all-ones exponent as an ordinary binade.
TEST(Scalar, Float16InfinityPatternReadsAsCannDoes) {
    expect_reads(uint16_t{0x7C00}, ACL_FLOAT16, 65536.0, 65536.0f);
}

TEST(Scalar, IntegerTypesConvertWithOneRounding) {
    expect_reads(int8_t{-7}, ACL_INT8, -7.0, -7.0f);
    expect_reads(uint8_t{200}, ACL_UINT8, 200.0, 200.0f);
    expect_reads(int16_t{-30000}, ACL_INT16, -30000.0, -30000.0f);
    expect_reads(uint16_t{60000}, ACL_UINT16, 60000.0, 60000.0f);
    expect_reads(int32_t{-2000000001}, ACL_INT32, -2000000001.0, -2000000000.0f);
    expect_reads(uint32_t{4000000001u}, ACL_UINT32, 4000000001.0, 4000000000.0f);
    // 2^60 + 2^36 + 1 rounds once to float as 2^60 + 2^37; rounding through
    // double first would land on the tie 2^60 + 2^36 and then on 2^60.
    const int64_t wide = (int64_t{1} << 60) + (int64_t{1} << 36) + 1;
    expect_reads(wide, ACL_INT64, std::ldexp(1.0, 60) + std::ldexp(1.0, 36),
                 std::ldexp(1.0f, 60) + std::ldexp(1.0f, 37));
    expect_reads(-wide, ACL_INT64, -(std::ldexp(1.0, 60) + std::ldexp(1.0, 36)),
                 -(std::ldexp(1.0f, 60) + std::ldexp(1.0f, 37)));
    expect_reads(std::numeric_limits<uint64_t>::max(), ACL_UINT64, std::ldexp(1.0, 64), std::ldexp(1.0f, 64));
}

TEST(Scalar, BoolReadsAsZeroOrOne) {
    expect_reads(true, ACL_BOOL, 1.0, 1.0f);
    expect_reads(false, ACL_BOOL, 0.0, 0.0f);
}

// CANN's aclScalar has no complex -> real conversion and answers 0; the
// value is still copied whole (the dtype survives and creation succeeds).
TEST(Scalar, ComplexIsAcceptedAndReadsAsZero) {
    expect_reads(std::complex<float>(1.0f, 2.0f), ACL_COMPLEX64, 0.0, 0.0f);
    expect_reads(std::complex<double>(3.0, 4.0), ACL_COMPLEX128, 0.0, 0.0f);
}

TEST(Scalar, ComplexToInt64SaturatesItsRealPart) {
    // The integer an integer kernel takes from a complex scalar: the real
    // part, truncated, saturated, NaN as 0, as for a real scalar (a real
    // part of 3e296 was an undefined conversion, found by fuzzing).
    const auto to_int64 = [](std::complex<double> value) {
        aclScalar* scalar = aclCreateScalar(&value, ACL_COMPLEX128);
        const int64_t integer = aclcpu::to_int64(scalar);
        aclDestroyScalar(scalar);
        return integer;
    };
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    EXPECT_EQ(to_int64({-2.75, 9.0}), -2);
    EXPECT_EQ(to_int64({3e296, 0.0}), kMax);
    EXPECT_EQ(to_int64({-3e296, 0.0}), std::numeric_limits<int64_t>::min());
    EXPECT_EQ(to_int64({std::nan(""), 1.0}), 0);
    std::complex<float> single(1e30f, 0.0f);
    aclScalar* scalar = aclCreateScalar(&single, ACL_COMPLEX64);
    EXPECT_EQ(aclcpu::to_int64(scalar), kMax);
    aclDestroyScalar(scalar);
}

TEST(Scalar, EightBitFloatsDecodeAsOcpSpecifies) {
    expect_reads(uint8_t{0x3C}, ACL_FLOAT8_E5M2, 1.0, 1.0f);            // 0 01111 00
    expect_reads(uint8_t{0xC1}, ACL_FLOAT8_E5M2, -std::ldexp(1.25, 1), -2.5f);
    expect_reads(uint8_t{0x01}, ACL_FLOAT8_E5M2, std::ldexp(1.0, -16), std::ldexp(1.0f, -16));
    expect_reads(uint8_t{0x38}, ACL_FLOAT8_E4M3FN, 1.0, 1.0f);          // 0 0111 000
    expect_reads(uint8_t{0x7E}, ACL_FLOAT8_E4M3FN, 448.0, 448.0f);      // the largest finite
    expect_reads(uint8_t{0x81}, ACL_FLOAT8_E4M3FN, -std::ldexp(1.0, -9), -std::ldexp(1.0f, -9));
    expect_reads(uint8_t{127}, ACL_FLOAT8_E8M0, 1.0, 1.0f);
    expect_reads(uint8_t{130}, ACL_FLOAT8_E8M0, 8.0, 8.0f);
    EXPECT_TRUE(std::isnan(create_and_read(uint8_t{0x7F}, ACL_FLOAT8_E4M3FN).asDouble));
    EXPECT_TRUE(std::isnan(create_and_read(uint8_t{0xFF}, ACL_FLOAT8_E8M0).asFloat));
    EXPECT_EQ(create_and_read(uint8_t{0x12}, ACL_HIFLOAT8).dtype, ACL_HIFLOAT8);
}

TEST(Scalar, UnsupportedDtypesAreRefusedWithAMessage) {
    int64_t value = 1;
    for (aclDataType dtype : {ACL_STRING, ACL_INT4, ACL_UINT1, ACL_COMPLEX32, ACL_DT_UNDEFINED, ACL_FLOAT4_E2M1,
                              static_cast<aclDataType>(5)}) {
        take_error_message();
        EXPECT_EQ(aclCreateScalar(&value, dtype), nullptr) << "dtype " << dtype;
        EXPECT_NE(take_error_message().find("no supported data type"), std::string::npos) << "dtype " << dtype;
    }
}

TEST(Scalar, NullValueIsRefused) {
    take_error_message();
    EXPECT_EQ(aclCreateScalar(nullptr, ACL_FLOAT), nullptr);
    EXPECT_NE(take_error_message().find("aclCreateScalar"), std::string::npos);
}

TEST(Scalar, DestroyingNullSucceeds) { EXPECT_EQ(aclDestroyScalar(nullptr), ACLNN_SUCCESS); }

}  // namespace
