// acl-cpu runtime: reductions and random numbers of the built-in device tasks.
#include "core/builtin_tasks.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "aclcpu/dtype.hpp"
#include "aclcpu/half.hpp"

namespace aclcpu::detail {
namespace {

// ---- reductions -------------------------------------------------------------

template <typename T>
T combine(ReduceOp op, T a, T b) noexcept {
    switch (op) {
        case ReduceOp::kSum:
            if constexpr (std::is_integral_v<T>) {
                using Unsigned = std::make_unsigned_t<T>;
                return static_cast<T>(static_cast<Unsigned>(a) + static_cast<Unsigned>(b));
            } else {
                return a + b;
            }
        case ReduceOp::kMax:
            return std::max(a, b);
        case ReduceOp::kMin:
            return std::min(a, b);
    }
    return a;
}

template <typename T>
void reduce_elements(void* dst, const void* src, uint64_t elements, ReduceOp op) noexcept {
    auto* out = static_cast<T*>(dst);
    const auto* in = static_cast<const T*>(src);
    for (uint64_t i = 0; i < elements; ++i) out[i] = combine(op, out[i], in[i]);
}

/// Half and bfloat16: combined in float, rounded once on the way back.
template <typename Narrow>
void reduce_narrow_elements(void* dst, const void* src, uint64_t elements, ReduceOp op) noexcept {
    auto* out = static_cast<Narrow*>(dst);
    const auto* in = static_cast<const Narrow*>(src);
    for (uint64_t i = 0; i < elements; ++i) {
        out[i] = Narrow::from_float(combine(op, static_cast<float>(out[i]), static_cast<float>(in[i])));
    }
}

// ---- random numbers ----------------------------------------------------------

constexpr double kTwoPi = 6.283185307179586476925286766559;
/// A truncated normal keeps draws within this many standard deviations.
constexpr double kTruncationStddevs = 2.0;

bool is_signed_integer(aclDataType dtype) noexcept { return dtype == ACL_INT32 || dtype == ACL_INT64; }

/// A floating parameter's value (FLOAT, FLOAT16 or BF16 bytes).
double float_value(RandomValue bits, aclDataType dtype) noexcept {
    switch (dtype) {
        case ACL_FLOAT16:
            return half_to_float(static_cast<uint16_t>(bits));
        case ACL_BF16:
            return bf16_to_float(static_cast<uint16_t>(bits));
        default: {
            float value;
            const auto word = static_cast<uint32_t>(bits);
            std::memcpy(&value, &word, sizeof value);
            return value;
        }
    }
}

/// An integer parameter's value as an offset-free 64-bit pattern: sign
/// extended for INT32, so that unsigned arithmetic on it is exact.
uint64_t integer_value(RandomValue bits, aclDataType dtype) noexcept {
    if (dtype == ACL_INT32) return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(bits)));
    if (dtype == ACL_UINT32) return static_cast<uint32_t>(bits);
    return bits;
}

bool integer_less(uint64_t a, uint64_t b, aclDataType dtype) noexcept {
    return is_signed_integer(dtype) ? static_cast<int64_t>(a) < static_cast<int64_t>(b) : a < b;
}

/// Element `index` of the result array.  CANN documents no alignment for
/// randomResultAddr, so the element is stored byte-wise.
template <class T>
void store_at(void* result, uint64_t index, T value) noexcept {
    std::memcpy(static_cast<unsigned char*>(result) + index * sizeof(T), &value, sizeof(T));
}

void store_float(void* result, uint64_t index, aclDataType dtype, double value) noexcept {
    switch (dtype) {
        case ACL_FLOAT16:
            store_at(result, index, half_t::from_float(static_cast<float>(value)));
            return;
        case ACL_BF16:
            store_at(result, index, bf16_t::from_float(static_cast<float>(value)));
            return;
        default:
            store_at(result, index, static_cast<float>(value));
            return;
    }
}

void store_integer(void* result, uint64_t index, aclDataType dtype, uint64_t value) noexcept {
    if (dtype == ACL_INT32 || dtype == ACL_UINT32) {
        store_at(result, index, static_cast<uint32_t>(value));
    } else {
        store_at(result, index, value);
    }
}

double standard_normal(Philox4x32& generator) noexcept {
    const double radius = std::sqrt(-2.0 * std::log(1.0 - generator.next_unit()));  // 1 - u lies in (0, 1]
    return radius * std::cos(kTwoPi * generator.next_unit());
}

void generate_uniform(const RandomRequest& request, Philox4x32& generator) noexcept {
    if (is_floating(request.dtype)) {
        const double low = float_value(request.first, request.dtype);
        const double high = float_value(request.second, request.dtype);
        for (uint64_t i = 0; i < request.count; ++i) {
            store_float(request.result, i, request.dtype, low + (high - low) * generator.next_unit());
        }
        return;
    }
    const uint64_t low = integer_value(request.first, request.dtype);
    const uint64_t span = integer_value(request.second, request.dtype) - low + 1;  // 0: all 2^64 values
    for (uint64_t i = 0; i < request.count; ++i) {
        const uint64_t draw = generator.next64();
        store_integer(request.result, i, request.dtype, low + (span == 0 ? draw : draw % span));
    }
}

void generate_normal(const RandomRequest& request, Philox4x32& generator, bool truncated) noexcept {
    const double mean = float_value(request.first, request.dtype);
    const double stddev = float_value(request.second, request.dtype);
    for (uint64_t i = 0; i < request.count; ++i) {
        double z = standard_normal(generator);
        while (truncated && std::fabs(z) > kTruncationStddevs) z = standard_normal(generator);
        store_float(request.result, i, request.dtype, mean + stddev * z);
    }
}

void generate_dropout_bitmask(const RandomRequest& request, Philox4x32& generator) noexcept {
    const double ratio = float_value(request.first, request.dtype);
    auto* bytes = static_cast<uint8_t*>(request.result);
    std::memset(bytes, 0, random_result_bytes(request.distribution, request.dtype, request.count));
    for (uint64_t i = 0; i < request.count; ++i) {
        if (generator.next_unit() >= ratio) bytes[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
    }
}

}  // namespace

bool is_reducible(aclDataType dtype) noexcept {
    return dtype == ACL_INT8 || dtype == ACL_INT16 || dtype == ACL_INT32 || dtype == ACL_FLOAT16 ||
           dtype == ACL_FLOAT || dtype == ACL_BF16;
}

void reduce_into(void* dst, const void* src, uint64_t elements, aclDataType dtype, ReduceOp op) noexcept {
    switch (dtype) {
        case ACL_INT8:
            return reduce_elements<int8_t>(dst, src, elements, op);
        case ACL_INT16:
            return reduce_elements<int16_t>(dst, src, elements, op);
        case ACL_INT32:
            return reduce_elements<int32_t>(dst, src, elements, op);
        case ACL_FLOAT:
            return reduce_elements<float>(dst, src, elements, op);
        case ACL_FLOAT16:
            return reduce_narrow_elements<half_t>(dst, src, elements, op);
        case ACL_BF16:
            return reduce_narrow_elements<bf16_t>(dst, src, elements, op);
        default:
            return;
    }
}

uint64_t random_result_bytes(RandomDistribution distribution, aclDataType dtype, uint64_t count) noexcept {
    if (distribution == RandomDistribution::kDropoutBitmask) return count / 8 + (count % 8 != 0 ? 1 : 0);
    return count * static_cast<uint64_t>(element_size(dtype));
}

const char* random_parameter_problem(const RandomRequest& request) noexcept {
    switch (request.distribution) {
        case RandomDistribution::kUniform:
            if (!is_floating(request.dtype)) {
                const bool reversed = integer_less(integer_value(request.second, request.dtype),
                                                   integer_value(request.first, request.dtype), request.dtype);
                return reversed ? "the uniform range has max < min" : "";
            }
            // Written so that a NaN bound fails too.
            return float_value(request.first, request.dtype) <= float_value(request.second, request.dtype)
                       ? ""
                       : "the uniform range has max < min (or a NaN bound)";
        case RandomDistribution::kNormal:
        case RandomDistribution::kTruncatedNormal: {
            const double mean = float_value(request.first, request.dtype);
            const double stddev = float_value(request.second, request.dtype);
            return std::isfinite(mean) && stddev >= 0.0 && std::isfinite(stddev)
                       ? ""
                       : "the mean is not finite or the stddev is negative or not finite";
        }
        case RandomDistribution::kDropoutBitmask: {
            const double ratio = float_value(request.first, request.dtype);
            return ratio >= 0.0 && ratio <= 1.0 ? "" : "the dropout ratio lies outside [0, 1]";
        }
    }
    return "";
}

void generate_random(const RandomRequest& request) noexcept {
    Philox4x32 generator(request.seed, request.counter);
    switch (request.distribution) {
        case RandomDistribution::kUniform:
            return generate_uniform(request, generator);
        case RandomDistribution::kNormal:
            return generate_normal(request, generator, false);
        case RandomDistribution::kTruncatedNormal:
            return generate_normal(request, generator, true);
        case RandomDistribution::kDropoutBitmask:
            return generate_dropout_bitmask(request, generator);
    }
}

}  // namespace aclcpu::detail
