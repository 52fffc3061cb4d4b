// acl-cpu HCCL: white-box tests of the reduction kernels, against references computed independently here.
#include "core/reduction.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <type_traits>
#include <vector>

#include "aclcpu/half.hpp"

namespace {

/// The kernel with one destination, as most of these tests call it.
void reduce_into(HcclReduceOp op, HcclDataType dtype, void* dst, const void* const* sources, size_t sourceCount,
                 uint64_t count) {
    aclcpu::hccl::detail::reduce(op, dtype, &dst, 1, sources, sourceCount, count);
}

using aclcpu::bf16_t;
using aclcpu::half_t;
using aclcpu::hccl::detail::computes;
using aclcpu::hccl::detail::element_bytes;
using aclcpu::hccl::detail::reduce;

constexpr HcclReduceOp kOps[] = {HCCL_REDUCE_SUM, HCCL_REDUCE_PROD, HCCL_REDUCE_MAX, HCCL_REDUCE_MIN};
constexpr size_t kSourceCounts[] = {1, 2, 3, 8};
/// Around the kernel's 1024-element chunks: one element, one short of a chunk, one over, several and a tail.
constexpr uint64_t kCounts[] = {1, 1023, 1025, 5000};
constexpr uint64_t kSeed = 20240611;

template <class T, HcclDataType kDtype>
struct Element {
    using Type = T;
    static constexpr HcclDataType dtype = kDtype;
};

template <class Visit>
void for_each_integer_dtype(Visit visit) {
    visit(Element<int8_t, HCCL_DATA_TYPE_INT8>{});
    visit(Element<int16_t, HCCL_DATA_TYPE_INT16>{});
    visit(Element<int32_t, HCCL_DATA_TYPE_INT32>{});
    visit(Element<int64_t, HCCL_DATA_TYPE_INT64>{});
    visit(Element<uint8_t, HCCL_DATA_TYPE_UINT8>{});
    visit(Element<uint16_t, HCCL_DATA_TYPE_UINT16>{});
    visit(Element<uint32_t, HCCL_DATA_TYPE_UINT32>{});
    visit(Element<uint64_t, HCCL_DATA_TYPE_UINT64>{});
}

template <class Visit>
void for_each_floating_dtype(Visit visit) {
    visit(Element<half_t, HCCL_DATA_TYPE_FP16>{});
    visit(Element<bf16_t, HCCL_DATA_TYPE_BFP16>{});
    visit(Element<float, HCCL_DATA_TYPE_FP32>{});
    visit(Element<double, HCCL_DATA_TYPE_FP64>{});
}

template <class Visit>
void for_each_dtype(Visit visit) {
    for_each_integer_dtype(visit);
    for_each_floating_dtype(visit);
}

template <class T>
constexpr bool kIsNarrowFloat = std::is_same_v<T, half_t> || std::is_same_v<T, bf16_t>;

template <class T>
double to_double(T value) {
    if constexpr (kIsNarrowFloat<T>) {
        return static_cast<float>(value);
    } else {
        return static_cast<double>(value);
    }
}

/// `value` rounded once to T (nearest even).  half and bf16 go through float, so callers pass only doubles that
/// float holds exactly.
template <class T>
T from_double(double value) {
    if constexpr (kIsNarrowFloat<T>) {
        return T::from_float(static_cast<float>(value));
    } else {
        return static_cast<T>(value);
    }
}

template <class T>
std::string describe(T value) {
    std::ostringstream text;
    if constexpr (std::is_integral_v<T>) {
        text << +value;
    } else {
        text.precision(17);
        text << to_double(value);
    }
    return text.str();
}

template <class T>
using Buffers = std::vector<std::vector<T>>;

/// Bitwise equality (so +0 and -0 differ), naming the first element that differs.
template <class T>
::testing::AssertionResult same_bits(const std::vector<T>& expected, const std::vector<T>& actual) {
    if (expected.size() != actual.size()) return ::testing::AssertionFailure() << "sizes differ";
    for (size_t i = 0; i < expected.size(); ++i) {
        if (std::memcmp(&expected[i], &actual[i], sizeof(T)) != 0) {
            return ::testing::AssertionFailure()
                   << "element " << i << ": expected " << describe(expected[i]) << ", got " << describe(actual[i]);
        }
    }
    return ::testing::AssertionSuccess();
}

template <class T>
std::vector<const void*> pointers_to(const Buffers<T>& sources) {
    std::vector<const void*> pointers;
    for (const auto& source : sources) pointers.push_back(source.data());
    return pointers;
}

/// The kernel's result over `sources`, in a buffer pre-filled with a pattern no test expects.
template <class T>
std::vector<T> reduced(HcclReduceOp op, HcclDataType dtype, const Buffers<T>& sources) {
    std::vector<T> dst(sources[0].size());
    std::memset(dst.data(), 0xA5, dst.size() * sizeof(T));
    const std::vector<const void*> pointers = pointers_to(sources);
    reduce_into(op, dtype, dst.data(), pointers.data(), pointers.size(), dst.size());
    return dst;
}

/// The kernel's result for one element whose operands, in source order, are `operands`.
template <class T>
T reduced_scalars(HcclReduceOp op, HcclDataType dtype, const std::vector<T>& operands) {
    Buffers<T> sources;
    for (const T& operand : operands) sources.push_back({operand});
    return reduced(op, dtype, sources)[0];
}

// ---- references ----------------------------------------------------------------------------------------------

/// a op b modulo 2^64, truncated to T: the same residue as wrapping in T's width, since 2^64 is a multiple of it.
template <class T>
T combine_exactly(HcclReduceOp op, T a, T b) {
    const auto wide_a = static_cast<uint64_t>(a);
    const auto wide_b = static_cast<uint64_t>(b);
    switch (op) {
        case HCCL_REDUCE_SUM: return static_cast<T>(wide_a + wide_b);
        case HCCL_REDUCE_PROD: return static_cast<T>(wide_a * wide_b);
        case HCCL_REDUCE_MAX: return std::max(a, b);
        default: return std::min(a, b);
    }
}

/// Ties keep a, as the kernel documents.  The operands here are never NaN.
double combine_in_double(HcclReduceOp op, double a, double b) {
    switch (op) {
        case HCCL_REDUCE_SUM: return a + b;
        case HCCL_REDUCE_PROD: return a * b;
        case HCCL_REDUCE_MAX: return b > a ? b : a;
        default: return b < a ? b : a;
    }
}

/// Integers: exact modular arithmetic.  Floating types: double, in source order, rounded once to T; the floating
/// operands below make every step exact in float, so this is also what fp32 accumulation must give.
template <class T>
std::vector<T> reference(HcclReduceOp op, const Buffers<T>& sources) {
    std::vector<T> result(sources[0].size());
    for (size_t i = 0; i < result.size(); ++i) {
        if constexpr (std::is_integral_v<T>) {
            result[i] = sources[0][i];
            for (size_t s = 1; s < sources.size(); ++s) result[i] = combine_exactly(op, result[i], sources[s][i]);
        } else {
            double value = to_double(sources[0][i]);
            for (size_t s = 1; s < sources.size(); ++s) value = combine_in_double(op, value, to_double(sources[s][i]));
            result[i] = from_double<T>(value);
        }
    }
    return result;
}

// ---- operands ------------------------------------------------------------------------------------------------

/// Integers: uniform over the whole type, so sums and products wrap often.  Floating types, chosen so that every
/// in-order combination of up to 8 is exact in float: for sum, max and min multiples of 1/8 in [-64, 64] (a sum
/// of 8 needs at most 13 significant bits; bf16 rounds an operand to a coarser multiple of 1/8); for prod
/// +-{1/2, 3/4, 1, 3/2, 2, 3} (a product of 8 has a significand of at most 3^8 < 2^13 and stays in fp16's range).
template <class T>
T random_operand(HcclReduceOp op, std::mt19937_64& random) {
    if constexpr (std::is_integral_v<T>) {
        return static_cast<T>(random());
    } else if (op == HCCL_REDUCE_PROD) {
        constexpr double kFactors[] = {0.5, 0.75, 1.0, 1.5, 2.0, 3.0};
        const double factor = kFactors[random() % std::size(kFactors)];
        return from_double<T>(random() % 2 == 0 ? factor : -factor);
    } else {
        return from_double<T>(static_cast<double>(static_cast<int>(random() % 1025) - 512) / 8.0);
    }
}

template <class T>
Buffers<T> random_sources(HcclReduceOp op, size_t source_count, uint64_t count, std::mt19937_64& random) {
    Buffers<T> sources(source_count, std::vector<T>(count));
    for (auto& source : sources) {
        for (T& value : source) value = random_operand<T>(op, random);
    }
    return sources;
}

template <class T>
T quiet_nan() {
    return from_double<T>(std::numeric_limits<double>::quiet_NaN());
}

template <class T>
bool is_nan(T value) {
    return std::isnan(to_double(value));
}

/// Distance between two finite 16-bit floats (fp16 or bf16) in units in the last place.
int ulps_apart(uint16_t a, uint16_t b) {
    const auto ordered = [](uint16_t bits) { return (bits & 0x8000u) != 0 ? -(bits & 0x7FFF) : bits & 0x7FFF; };
    return std::abs(ordered(a) - ordered(b));
}

// ---- checks shared by the element types ------------------------------------------------------------------------

template <class E>
void expect_every_shape_matches_reference() {
    using T = typename E::Type;
    std::mt19937_64 random(kSeed);
    for (const HcclReduceOp op : kOps) {
        for (const size_t source_count : kSourceCounts) {
            for (const uint64_t count : kCounts) {
                SCOPED_TRACE(::testing::Message() << "dtype " << E::dtype << ", op " << op << ", " << source_count
                                                  << " sources, count " << count);
                const Buffers<T> sources = random_sources<T>(op, source_count, count, random);
                EXPECT_TRUE(same_bits(reference(op, sources), reduced(op, E::dtype, sources)));
            }
        }
    }
}

/// dst is the first, then the last of three sources, over several chunks; results as out of place.
template <class E>
void expect_in_place_matches_reference() {
    using T = typename E::Type;
    std::mt19937_64 random(kSeed);
    for (const HcclReduceOp op : kOps) {
        const Buffers<T> sources = random_sources<T>(op, 3, 5000, random);
        for (const size_t target : {size_t{0}, size_t{2}}) {
            SCOPED_TRACE(::testing::Message() << "dtype " << E::dtype << ", op " << op << ", dst is source " << target);
            Buffers<T> buffers = sources;
            const std::vector<const void*> pointers = pointers_to(buffers);
            reduce_into(op, E::dtype, buffers[target].data(), pointers.data(), pointers.size(), 5000);
            EXPECT_TRUE(same_bits(reference(op, sources), buffers[target]));
        }
    }
}

template <class E>
void expect_nan_propagates_through_max_and_min() {
    using T = typename E::Type;
    // (source, element): in the first full chunk, in the tail, and in every source at once.
    const std::pair<size_t, size_t> kNanPositions[] = {{0, 3}, {1, 600}, {2, 1024}, {0, 10}, {1, 10}, {2, 10}};
    std::mt19937_64 random(kSeed);
    for (const HcclReduceOp op : {HCCL_REDUCE_MAX, HCCL_REDUCE_MIN}) {
        SCOPED_TRACE(::testing::Message() << "dtype " << E::dtype << ", op " << op);
        Buffers<T> sources = random_sources<T>(op, 3, 1025, random);
        std::vector<T> expected = reference(op, sources);
        for (const auto& [source, element] : kNanPositions) {
            sources[source][element] = quiet_nan<T>();
            expected[element] = quiet_nan<T>();
        }
        const std::vector<T> actual = reduced(op, E::dtype, sources);
        for (size_t i = 0; i < actual.size(); ++i) {
            if (is_nan(expected[i])) {
                EXPECT_TRUE(is_nan(actual[i])) << "element " << i << " is " << describe(actual[i]);
            } else {
                EXPECT_EQ(0, std::memcmp(&expected[i], &actual[i], sizeof(T))) << "element " << i;
            }
        }
    }
}

/// +0 and -0 compare equal, so max and min keep whichever comes first; checked in a full chunk and the tail.
template <class E>
void expect_zero_ties_keep_the_earlier_source() {
    using T = typename E::Type;
    const std::vector<T> positive(1025, from_double<T>(0.0));
    const std::vector<T> negative(1025, from_double<T>(-0.0));
    for (const HcclReduceOp op : {HCCL_REDUCE_MAX, HCCL_REDUCE_MIN}) {
        SCOPED_TRACE(::testing::Message() << "dtype " << E::dtype << ", op " << op);
        EXPECT_TRUE(same_bits(positive, reduced(op, E::dtype, Buffers<T>{positive, negative})));
        EXPECT_TRUE(same_bits(negative, reduced(op, E::dtype, Buffers<T>{negative, positive})));
    }
}

/// Sums of 8 sources of arbitrary values: exactly fp32 accumulation in source order, rounded once; for fp16 and
/// bf16 that is also within one unit in the last place of the sum in double.
template <class E>
void expect_sum_of_arbitrary_values_accumulates_in_fp32() {
    using T = typename E::Type;
    std::mt19937_64 random(kSeed);
    std::uniform_real_distribution<double> magnitude(-1000.0, 1000.0);
    Buffers<T> sources(8, std::vector<T>(5000));
    for (auto& source : sources) {
        for (T& value : source) value = from_double<T>(static_cast<float>(magnitude(random)));
    }
    std::vector<T> expected(5000);
    for (size_t i = 0; i < expected.size(); ++i) {
        float sum = static_cast<float>(sources[0][i]);
        double exact = to_double(sources[0][i]);
        for (size_t s = 1; s < sources.size(); ++s) {
            sum += static_cast<float>(sources[s][i]);
            exact += to_double(sources[s][i]);
        }
        expected[i] = from_double<T>(sum);
        if constexpr (kIsNarrowFloat<T>) {
            ASSERT_LE(ulps_apart(expected[i].bits, from_double<T>(static_cast<float>(exact)).bits), 1)
                << "element " << i << ": " << exact;
        }
    }
    SCOPED_TRACE(::testing::Message() << "dtype " << E::dtype);
    EXPECT_TRUE(same_bits(expected, reduced(HCCL_REDUCE_SUM, E::dtype, sources)));
}

// The full-mesh all-reduce stores a reduced slice into every rank's output
// at once, one of which is, in place, one of the inputs: every destination
// gets the same bits, the in-place one included.
TEST(HcclReduction, EveryDestinationGetsTheResultOneOfThemInPlace) {
    const size_t count = 2 * 1024 + 5;  // full chunks and a tail
    std::vector<std::vector<float>> inputs(3, std::vector<float>(count));
    for (size_t s = 0; s < inputs.size(); ++s) {
        for (size_t i = 0; i < count; ++i) inputs[s][i] = static_cast<float>(s * 1000 + i) * 0.25f;
    }
    std::vector<float> expected(count);
    for (size_t i = 0; i < count; ++i) expected[i] = (inputs[0][i] + inputs[1][i]) + inputs[2][i];
    std::vector<float> other(count, -1.0f), another(count, -1.0f);
    const std::vector<const void*> sources = {inputs[0].data(), inputs[1].data(), inputs[2].data()};
    const std::vector<void*> destinations = {other.data(), inputs[1].data(), another.data()};
    reduce(HCCL_REDUCE_SUM, HCCL_DATA_TYPE_FP32, destinations.data(), destinations.size(), sources.data(),
           sources.size(), count);
    EXPECT_TRUE(same_bits(expected, other));
    EXPECT_TRUE(same_bits(expected, inputs[1]));
    EXPECT_TRUE(same_bits(expected, another));
    std::vector<float> copied(count, 0.0f);
    const std::vector<void*> copies = {copied.data(), other.data()};
    reduce(HCCL_REDUCE_MAX, HCCL_DATA_TYPE_FP32, copies.data(), copies.size(), sources.data(), 1, count);
    EXPECT_TRUE(same_bits(inputs[0], copied)) << "one source: a copy into every destination";
    EXPECT_TRUE(same_bits(inputs[0], other));
}

}  // namespace

TEST(HcclReduction, ElementBytesOfEveryDtype) {
    EXPECT_EQ(1u, element_bytes(HCCL_DATA_TYPE_INT8));
    EXPECT_EQ(2u, element_bytes(HCCL_DATA_TYPE_INT16));
    EXPECT_EQ(4u, element_bytes(HCCL_DATA_TYPE_INT32));
    EXPECT_EQ(2u, element_bytes(HCCL_DATA_TYPE_FP16));
    EXPECT_EQ(4u, element_bytes(HCCL_DATA_TYPE_FP32));
    EXPECT_EQ(8u, element_bytes(HCCL_DATA_TYPE_INT64));
    EXPECT_EQ(8u, element_bytes(HCCL_DATA_TYPE_UINT64));
    EXPECT_EQ(1u, element_bytes(HCCL_DATA_TYPE_UINT8));
    EXPECT_EQ(2u, element_bytes(HCCL_DATA_TYPE_UINT16));
    EXPECT_EQ(4u, element_bytes(HCCL_DATA_TYPE_UINT32));
    EXPECT_EQ(8u, element_bytes(HCCL_DATA_TYPE_FP64));
    EXPECT_EQ(2u, element_bytes(HCCL_DATA_TYPE_BFP16));
    EXPECT_EQ(0u, element_bytes(HCCL_DATA_TYPE_INT128));
    EXPECT_EQ(0u, element_bytes(static_cast<HcclDataType>(13)));
    EXPECT_EQ(0u, element_bytes(HCCL_DATA_TYPE_HIF8));
    EXPECT_EQ(0u, element_bytes(HCCL_DATA_TYPE_FP8E4M3));
    EXPECT_EQ(0u, element_bytes(HCCL_DATA_TYPE_FP8E5M2));
    EXPECT_EQ(0u, element_bytes(HCCL_DATA_TYPE_FP8E8M0));
    EXPECT_EQ(0u, element_bytes(static_cast<HcclDataType>(18)));
    EXPECT_EQ(0u, element_bytes(HCCL_DATA_TYPE_RESERVED));
}

TEST(HcclReduction, ComputesEveryOpOverEveryMovedDtypeOnly) {
    for_each_dtype([](auto element) {
        for (const HcclReduceOp op : kOps) EXPECT_TRUE(computes(op, decltype(element)::dtype)) << op;
        EXPECT_FALSE(computes(static_cast<HcclReduceOp>(4), decltype(element)::dtype));
        EXPECT_FALSE(computes(HCCL_REDUCE_RESERVED, decltype(element)::dtype));
    });
    for (const HcclReduceOp op : kOps) {
        EXPECT_FALSE(computes(op, HCCL_DATA_TYPE_INT128)) << op;
        EXPECT_FALSE(computes(op, HCCL_DATA_TYPE_HIF8)) << op;
        EXPECT_FALSE(computes(op, HCCL_DATA_TYPE_FP8E4M3)) << op;
        EXPECT_FALSE(computes(op, HCCL_DATA_TYPE_FP8E5M2)) << op;
        EXPECT_FALSE(computes(op, HCCL_DATA_TYPE_FP8E8M0)) << op;
        EXPECT_FALSE(computes(op, HCCL_DATA_TYPE_RESERVED)) << op;
    }
}

TEST(HcclReduction, EveryOpOverEveryDtypeMatchesTheReference) {
    for_each_dtype([](auto element) { expect_every_shape_matches_reference<decltype(element)>(); });
}

TEST(HcclReduction, IntegerSumsAndProductsWrapAround) {
    constexpr int32_t kInt32Max = std::numeric_limits<int32_t>::max();
    constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
    EXPECT_EQ(int8_t{-128}, reduced_scalars<int8_t>(HCCL_REDUCE_SUM, HCCL_DATA_TYPE_INT8, {127, 1}));
    EXPECT_EQ(uint8_t{0}, reduced_scalars<uint8_t>(HCCL_REDUCE_SUM, HCCL_DATA_TYPE_UINT8, {255, 1}));
    EXPECT_EQ(int16_t{0}, reduced_scalars<int16_t>(HCCL_REDUCE_PROD, HCCL_DATA_TYPE_INT16, {256, 256}));
    EXPECT_EQ(int16_t{-32768}, reduced_scalars<int16_t>(HCCL_REDUCE_PROD, HCCL_DATA_TYPE_INT16, {-32768, -1}));
    // 65535 * 65535 overflows int, to which uint16_t promotes.
    EXPECT_EQ(uint16_t{1}, reduced_scalars<uint16_t>(HCCL_REDUCE_PROD, HCCL_DATA_TYPE_UINT16, {65535, 65535}));
    EXPECT_EQ(-kInt32Max - 1, reduced_scalars<int32_t>(HCCL_REDUCE_SUM, HCCL_DATA_TYPE_INT32, {kInt32Max, 1}));
    EXPECT_EQ(uint32_t{0}, reduced_scalars<uint32_t>(HCCL_REDUCE_PROD, HCCL_DATA_TYPE_UINT32, {0x10000, 0x10000}));
    EXPECT_EQ(kInt64Min, reduced_scalars<int64_t>(HCCL_REDUCE_PROD, HCCL_DATA_TYPE_INT64, {kInt64Min, -1}));
    EXPECT_EQ(uint64_t{1}, reduced_scalars<uint64_t>(HCCL_REDUCE_SUM, HCCL_DATA_TYPE_UINT64, {~uint64_t{0}, 2}));
}

TEST(HcclReduction, FloatingSumsAccumulateInSourceOrderInTheAccumulatorType) {
    // In fp32, 1e8 + 1 rounds back to 1e8; a wider or reordered sum would give 1.
    EXPECT_EQ(0.0f, reduced_scalars<float>(HCCL_REDUCE_SUM, HCCL_DATA_TYPE_FP32, {1e8f, 1.0f, -1e8f}));
    EXPECT_EQ(1.0f, reduced_scalars<float>(HCCL_REDUCE_SUM, HCCL_DATA_TYPE_FP32, {1e8f, -1e8f, 1.0f}));
    EXPECT_EQ(0.0, reduced_scalars<double>(HCCL_REDUCE_SUM, HCCL_DATA_TYPE_FP64, {1e17, 1.0, -1e17}));
    // fp16 and bf16 rounding after each step would lose the 1 (2048 + 1 is a tie to even in fp16, 256 + 1 in bf16).
    const auto fp16 = [](float value) { return half_t::from_float(value); };
    const auto bf16 = [](float value) { return bf16_t::from_float(value); };
    EXPECT_EQ(1.0f, static_cast<float>(reduced_scalars<half_t>(HCCL_REDUCE_SUM, HCCL_DATA_TYPE_FP16,
                                                               {fp16(2048.0f), fp16(1.0f), fp16(-2048.0f)})));
    EXPECT_EQ(1.0f, static_cast<float>(reduced_scalars<bf16_t>(HCCL_REDUCE_SUM, HCCL_DATA_TYPE_BFP16,
                                                               {bf16(256.0f), bf16(1.0f), bf16(-256.0f)})));
}

TEST(HcclReduction, SumsOfArbitraryValuesAreFp32AccumulationRoundedOnce) {
    expect_sum_of_arbitrary_values_accumulates_in_fp32<Element<half_t, HCCL_DATA_TYPE_FP16>>();
    expect_sum_of_arbitrary_values_accumulates_in_fp32<Element<bf16_t, HCCL_DATA_TYPE_BFP16>>();
    expect_sum_of_arbitrary_values_accumulates_in_fp32<Element<float, HCCL_DATA_TYPE_FP32>>();
}

TEST(HcclReduction, MaxAndMinPropagateNan) {
    for_each_floating_dtype([](auto element) { expect_nan_propagates_through_max_and_min<decltype(element)>(); });
}

TEST(HcclReduction, MaxAndMinKeepTheEarlierOfEqualZeros) {
    for_each_floating_dtype([](auto element) { expect_zero_ties_keep_the_earlier_source<decltype(element)>(); });
}

TEST(HcclReduction, DstMayBeASource) {
    for_each_dtype([](auto element) { expect_in_place_matches_reference<decltype(element)>(); });
}

TEST(HcclReduction, OneSourceInPlaceLeavesItUnchanged) {
    std::vector<float> buffer = {1.5f, -2.0f, std::numeric_limits<float>::infinity()};
    const std::vector<float> original = buffer;
    const void* const source = buffer.data();
    reduce_into(HCCL_REDUCE_PROD, HCCL_DATA_TYPE_FP32, buffer.data(), &source, 1, buffer.size());
    EXPECT_TRUE(same_bits(original, buffer));
}

TEST(HcclReduction, ASourceMayAppearTwice) {
    const std::vector<int32_t> twice(2000, 21);
    const std::vector<int32_t> once(2000, 1);
    const std::vector<const void*> pointers = {twice.data(), once.data(), twice.data()};
    std::vector<int32_t> dst(2000);
    reduce_into(HCCL_REDUCE_SUM, HCCL_DATA_TYPE_INT32, dst.data(), pointers.data(), pointers.size(), dst.size());
    EXPECT_TRUE(same_bits(std::vector<int32_t>(2000, 43), dst));
}

TEST(HcclReduction, ZeroElementsLeaveDstUntouched) {
    const std::vector<float> source = {1.0f};
    const std::vector<const void*> pointers = {source.data(), source.data()};
    for (const size_t source_count : {size_t{1}, size_t{2}}) {
        std::vector<float> dst = {7.0f};
        reduce_into(HCCL_REDUCE_SUM, HCCL_DATA_TYPE_FP32, dst.data(), pointers.data(), source_count, 0);
        EXPECT_EQ(7.0f, dst[0]) << source_count << " sources";
    }
}
