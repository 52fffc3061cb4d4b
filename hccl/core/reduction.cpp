// acl-cpu HCCL: the element-wise reductions, one loop nest per element type and operation.
#include "core/reduction.hpp"

#include <cstring>
#include <functional>
#include <type_traits>

#include "aclcpu/half.hpp"

namespace aclcpu::hccl::detail {
namespace {

using aclcpu::bf16_t;
using aclcpu::half_t;

/// Elements combined per pass over the sources: the chunk's accumulators (8 KiB at most) stay in L1 while each
/// source streams through once, and each destination is written once.
constexpr size_t kChunkElements = 1024;

/// Full chunks pass their length as this compile-time constant, the tail as a plain size_t: GCC -O2 (its
/// "very cheap" cost model) vectorises only loops whose trip count is a known multiple of the vector width.
using FullChunk = std::integral_constant<size_t, kChunkElements>;

template <class T>
constexpr bool kIsNarrowFloat = std::is_same_v<T, half_t> || std::is_same_v<T, bf16_t>;

/// The type elements are combined in: fp16 and bf16 in float, every other type in itself.
template <class T>
using Accumulator = std::conditional_t<kIsNarrowFloat<T>, float, T>;

template <class T>
constexpr Accumulator<T> widen(T element) noexcept {
    return static_cast<Accumulator<T>>(element);
}

/// The single rounding of fp16 and bf16 (to nearest even); exact for every other type.
template <class T>
constexpr T narrow(Accumulator<T> value) noexcept {
    if constexpr (kIsNarrowFloat<T>) {
        return T::from_float(value);
    } else {
        return value;
    }
}

template <class T>
constexpr bool is_nan(T value) noexcept {
    if constexpr (std::is_floating_point_v<T>) {
        return value != value;
    } else {
        return false;
    }
}

/// Sum and prod.  Integers are combined in the unsigned form of their promoted type, where overflow wraps
/// instead of being undefined; the conversion back keeps the low bits (two's complement: GCC defines it so,
/// C++20 requires it).
template <class Operation>
struct Arithmetic {
    template <class T>
    static constexpr T apply(T a, T b) noexcept {
        if constexpr (std::is_integral_v<T>) {
            using Unsigned = std::make_unsigned_t<decltype(+a)>;
            return static_cast<T>(Operation{}(static_cast<Unsigned>(a), static_cast<Unsigned>(b)));
        } else {
            return Operation{}(a, b);
        }
    }
};

/// Max and min: b replaces the earlier a only if b is NaN or strictly preferred, so a NaN, once in, stays, and
/// ties keep a.  `|` on the tests as integers rather than `||` evaluates both unconditionally, which lets GCC
/// turn the choice into a vector blend.
template <class Prefers>
struct Extremum {
    template <class T>
    static constexpr T apply(T a, T b) noexcept {
        return (static_cast<int>(is_nan(b)) | static_cast<int>(Prefers{}(b, a))) != 0 ? b : a;
    }
};

using Sum = Arithmetic<std::plus<>>;
using Prod = Arithmetic<std::multiplies<>>;
using Max = Extremum<std::greater<>>;
using Min = Extremum<std::less<>>;

template <class T>
const T* elements_from(const void* source, uint64_t first) noexcept {
    return static_cast<const T*>(source) + first;
}

// The loops below read and write through restrict pointers: the accumulators are a local array, so no source or
// dst can alias them, and two sources that are the same buffer are only read.

template <class Op, class T, class Length>
void combine_pair(Accumulator<T>* __restrict acc, const T* __restrict a, const T* __restrict b,
                  Length length) noexcept {
    for (size_t i = 0; i < length; ++i) acc[i] = Op::apply(widen(a[i]), widen(b[i]));
}

template <class Op, class T, class Length>
void fold_in(Accumulator<T>* __restrict acc, const T* __restrict source, Length length) noexcept {
    for (size_t i = 0; i < length; ++i) acc[i] = Op::apply(acc[i], widen(source[i]));
}

template <class T, class Length>
void store(T* __restrict dst, const Accumulator<T>* __restrict acc, Length length) noexcept {
    for (size_t i = 0; i < length; ++i) dst[i] = narrow<T>(acc[i]);
}

/// Where the combined elements go: every destination, at the same offset.
struct Destinations {
    void* const* at;
    size_t count;
};

/// Elements [first, first + length) of a reduction of at least two sources.  The destinations are written only
/// after every source has been read, which is what lets one of them be a source.
template <class Op, class T, class Length>
void reduce_chunk(Destinations destinations, const void* const* sources, size_t source_count, uint64_t first,
                  Length length) noexcept {
    Accumulator<T> acc[kChunkElements];
    combine_pair<Op>(acc, elements_from<T>(sources[0], first), elements_from<T>(sources[1], first), length);
    for (size_t s = 2; s < source_count; ++s) fold_in<Op>(acc, elements_from<T>(sources[s], first), length);
    for (size_t d = 0; d < destinations.count; ++d) store(static_cast<T*>(destinations.at[d]) + first, acc, length);
}

template <class Op, class T>
void reduce_elements(Destinations destinations, const void* const* sources, size_t source_count,
                     uint64_t count) noexcept {
    const uint64_t tail = count % kChunkElements;
    const uint64_t full = count - tail;
    for (uint64_t first = 0; first < full; first += kChunkElements) {
        reduce_chunk<Op, T>(destinations, sources, source_count, first, FullChunk{});
    }
    if (tail != 0) reduce_chunk<Op, T>(destinations, sources, source_count, full, static_cast<size_t>(tail));
}

/// Calls visit(T{}) with T the element type of `dtype` and returns true; returns false for a type acl-cpu does
/// not move.
template <class Visit>
bool visit_element_type(HcclDataType dtype, Visit&& visit) {
    switch (dtype) {
        case HCCL_DATA_TYPE_INT8: visit(int8_t{}); return true;
        case HCCL_DATA_TYPE_INT16: visit(int16_t{}); return true;
        case HCCL_DATA_TYPE_INT32: visit(int32_t{}); return true;
        case HCCL_DATA_TYPE_INT64: visit(int64_t{}); return true;
        case HCCL_DATA_TYPE_UINT8: visit(uint8_t{}); return true;
        case HCCL_DATA_TYPE_UINT16: visit(uint16_t{}); return true;
        case HCCL_DATA_TYPE_UINT32: visit(uint32_t{}); return true;
        case HCCL_DATA_TYPE_UINT64: visit(uint64_t{}); return true;
        case HCCL_DATA_TYPE_FP16: visit(half_t{}); return true;
        case HCCL_DATA_TYPE_BFP16: visit(bf16_t{}); return true;
        case HCCL_DATA_TYPE_FP32: visit(float{}); return true;
        case HCCL_DATA_TYPE_FP64: visit(double{}); return true;
        default: return false;
    }
}

/// Calls visit(Op{}) with Op the operation `op` names and returns true; returns false for an unknown op.
template <class Visit>
bool visit_operation(HcclReduceOp op, Visit&& visit) {
    switch (op) {
        case HCCL_REDUCE_SUM: visit(Sum{}); return true;
        case HCCL_REDUCE_PROD: visit(Prod{}); return true;
        case HCCL_REDUCE_MAX: visit(Max{}); return true;
        case HCCL_REDUCE_MIN: visit(Min{}); return true;
        default: return false;
    }
}

}  // namespace

size_t element_bytes(HcclDataType dtype) noexcept {
    size_t bytes = 0;
    visit_element_type(dtype, [&bytes](auto element) { bytes = sizeof(element); });
    return bytes;
}

bool computes(HcclReduceOp op, HcclDataType dtype) noexcept {
    const auto ignore = [](auto) {};
    return element_bytes(dtype) != 0 && visit_operation(op, ignore);
}

void reduce(HcclReduceOp op, HcclDataType dtype, void* const* destinations, size_t destinationCount,
            const void* const* sources, size_t sourceCount, uint64_t count) noexcept {
    if (sourceCount == 1) {
        // One operand combines with nothing: the bytes are copied, not rounded through the accumulator type.
        for (size_t d = 0; d < destinationCount && count != 0; ++d) {
            if (destinations[d] != sources[0]) std::memcpy(destinations[d], sources[0], count * element_bytes(dtype));
        }
        return;
    }
    visit_element_type(dtype, [&](auto element) {
        using T = decltype(element);
        visit_operation(op, [&](auto operation) {
            reduce_elements<decltype(operation), T>(Destinations{destinations, destinationCount}, sources,
                                                    sourceCount, count);
        });
    });
}

}  // namespace aclcpu::hccl::detail
