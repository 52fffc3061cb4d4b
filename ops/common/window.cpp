#include "common/window.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "aclcpu/soc_profile.hpp"
#include "common/block_launch.hpp"
#include "common/dtype.hpp"
#include "common/float_runs.hpp"
#include "common/op_checks.hpp"
#include "common/phase1.hpp"

namespace aclcpu::ops {
namespace {

/// The k in [0, kernel) whose position start + k * dilation is below limit:
/// [0, count).
int64_t taps_below(int64_t start, int64_t dilation, int64_t kernel, int64_t limit) noexcept {
    if (start >= limit) return 0;
    return std::min(kernel, (limit - 1 - start) / dilation + 1);
}

/// The first k whose position start + k * dilation is at least 0.
int64_t first_tap_inside(int64_t start, int64_t dilation) noexcept {
    return start >= 0 ? 0 : (-start + dilation - 1) / dilation;
}

/// The plan with its spatial axes padded to kMaxWindowDims by leading unit
/// axes, so that the kernel always walks three.
WindowPlan with_three_axes(WindowPlan plan) {
    const int missing = kMaxWindowDims - plan.spatial;
    if (missing == 0) return plan;
    for (int a = kMaxWindowDims - 1; a >= 0; --a) {
        plan.axes[a] = a >= missing ? plan.axes[a - missing] : WindowAxis{};
    }
    plan.input = with_unit_dims(plan.input, 2, missing);
    plan.output = with_unit_dims(plan.output, 2, missing);
    if (plan.reduce == WindowReduce::kColumns) {
        plan.output = with_unit_dims(plan.output, 2 + kMaxWindowDims, missing);
    }
    plan.spatial = kMaxWindowDims;
    return plan;
}

/// Converts one element from one dtype to another through FLOAT (CANN's Cast).
using ConvertElement = void (*)(const std::byte* from, std::byte* to);

template <class From, class To>
void convert_element(const std::byte* from, std::byte* to) {
    From value;
    std::memcpy(&value, from, sizeof(From));
    const To result = cast_from_float<To>(cast_to_float(value));
    std::memcpy(to, &result, sizeof(To));
}

ConvertElement converter(aclDataType from, aclDataType to) {
    return visit_loadable(
        from,
        [&](auto fromTag) -> ConvertElement {
            return visit_loadable(
                to,
                [&](auto toTag) -> ConvertElement {
                    using To = decltype(toTag);
                    if constexpr (std::is_same_v<To, bool8_t>) {
                        return nullptr;
                    } else {
                        return &convert_element<decltype(fromTag), To>;
                    }
                },
                [] { return ConvertElement{nullptr}; });
        },
        [] { return ConvertElement{nullptr}; });
}

}  // namespace

int64_t pooled_size(int64_t in, int64_t kernel, int64_t padBefore, int64_t padAfter, int64_t stride,
                    int64_t dilation, bool ceilMode, bool truncates) noexcept {
    // In 128 bits: the arguments are the caller's, unchecked; a size past
    // int64 saturates (no view has it, so the shape check refuses it).
    if (stride <= 0) return -1;  // refused by every caller's later check
    using Wide = __int128;
    const Wide span = Wide(in) + padBefore + padAfter - Wide(dilation) * (Wide(kernel) - 1) - 1 +
                      (ceilMode ? Wide(stride) - 1 : 0);
    const Wide quotient = span / stride - (!truncates && span % stride != 0 && span < 0 ? 1 : 0);
    Wide size = quotient + 1;
    if (ceilMode && (size - 1) * stride >= Wide(in) + padBefore) --size;
    return static_cast<int64_t>(std::clamp<Wide>(size, INT64_MIN, INT64_MAX));
}

aclnnStatus check_window_axes(const WindowAxis* axes, int spatial) {
    // The kernels address in int64; CANN's AI Core kernels take int32
    // attributes, so a window this wide never runs there either.
    constexpr int64_t kLimit = INT32_MAX;
    for (int a = 0; a < spatial; ++a) {
        const WindowAxis& axis = axes[a];
        const bool fits = axis.kernel <= kLimit && axis.dilation <= kLimit && axis.stride <= kLimit &&
                          std::abs(axis.padBefore) <= kLimit && std::abs(axis.padAfter) <= kLimit;
        if (!fits) {
            return param_error(ACLNN_ERR_PARAM_INVALID,
                               "Window sizes, dilations, strides and paddings must be at most %ld, but axis %d has "
                               "kernel %ld, dilation %ld, stride %ld, padding (%ld, %ld).",
                               static_cast<long>(kLimit), a, static_cast<long>(axis.kernel),
                               static_cast<long>(axis.dilation), static_cast<long>(axis.stride),
                               static_cast<long>(axis.padBefore), static_cast<long>(axis.padAfter));
        }
    }
    return ACLNN_SUCCESS;
}

TensorView with_unit_dims(const TensorView& view, size_t at, int count) {
    TensorView result = view;
    result.shape = Dims();
    result.strides = Dims();
    for (size_t d = 0; d < view.shape.size(); ++d) {
        if (d == at) {
            for (int i = 0; i < count; ++i) {
                result.shape.push_back(1);
                result.strides.push_back(0);
            }
        }
        result.shape.push_back(view.shape[d]);
        result.strides.push_back(view.strides[d]);
    }
    return result;
}

TensorView with_batch(const TensorView& view, size_t rank) {
    return view.shape.size() + 1 == rank ? with_unit_dims(view, 0, 1) : view;
}

ColumnGather::ColumnGather(const WindowPlan& plan) {
    WindowPlan padded = plan;
    // The pools' layout: with_three_axes then pads only the input (the
    // output is not used).
    padded.reduce = WindowReduce::kAverage;
    padded.output = plan.input;
    plan_ = with_three_axes(padded);
    for (const WindowAxis& axis : plan_.axes) {
        positions_ *= axis.outSize;
        taps_ *= axis.kernel;
    }
}

void ColumnGather::gather(const void* in, int64_t n, int64_t c0, int64_t channels, int64_t begin, int64_t end,
                          aclDataType roundThrough, float* dst) const {
    visit_storable(
        plan_.input.dtype,
        [&](auto tag) {
            using T = decltype(tag);
            gather_typed<T>(static_cast<const T*>(in), n, c0, channels, begin, end, roundThrough, dst);
        },
        [] {});
}

template <class T>
void ColumnGather::gather_typed(const T* in, int64_t n, int64_t c0, int64_t channels, int64_t begin, int64_t end,
                                aclDataType roundThrough, float* dst) const {
    const TensorView& input = plan_.input;
    const WindowAxis* axes = plan_.axes;
    const int64_t width = end - begin;
    int64_t first[kMaxWindowDims];  // the position `begin` as (o0, o1, o2)
    for (int64_t a = kMaxWindowDims - 1, rest = begin; a >= 0; --a) {
        first[a] = rest % axes[a].outSize;
        rest /= axes[a].outSize;
    }
    // The input offset of tap k at output position o along axis a, or -1
    // in the padding or between the elements of a dilated input.
    const auto offset_along = [&](int a, int64_t o, int64_t k) -> int64_t {
        const WindowAxis& axis = axes[a];
        const int64_t p = o * axis.stride - axis.padBefore + k * axis.dilation;
        if (p < 0 || p % axis.inputDilation != 0 || p / axis.inputDilation >= axis.inSize) return -1;
        return p / axis.inputDilation * input.strides[static_cast<size_t>(2 + a)];
    };
    float* row = dst;
    for (int64_t c = 0; c < channels; ++c) {
        const int64_t base = input.offset + n * input.strides[0] + (c0 + c) * input.strides[1];
        for (int64_t k0 = 0; k0 < axes[0].kernel; ++k0) {
            for (int64_t k1 = 0; k1 < axes[1].kernel; ++k1) {
                for (int64_t k2 = 0; k2 < axes[2].kernel; ++k2, row += width) {
                    int64_t o[kMaxWindowDims] = {first[0], first[1], first[2]};
                    // The offset along the outer two axes (-1: padding) changes once per innermost run.
                    const auto outer_offset = [&] {
                        const int64_t at0 = offset_along(0, o[0], k0), at1 = offset_along(1, o[1], k1);
                        return at0 >= 0 && at1 >= 0 ? at0 + at1 : -1;
                    };
                    int64_t outer = outer_offset();
                    for (int64_t j = 0; j < width; ++j) {
                        const int64_t at2 = offset_along(2, o[2], k2);
                        row[j] = outer >= 0 && at2 >= 0 ? cast_to_float(in[base + outer + at2]) : 0.0f;
                        if (++o[2] < axes[2].outSize) continue;
                        o[2] = 0;
                        if (++o[1] == axes[1].outSize) o[1] = 0, ++o[0];
                        outer = o[0] < axes[0].outSize ? outer_offset() : -1;
                    }
                    round_through(roundThrough, row, width);
                }
            }
        }
    }
}

WindowKernel::WindowKernel(const char* name, const WindowPlan& plan) : name_(name), plan_(with_three_axes(plan)) {
    const Dims& shape = plan_.output.shape;
    rowRank_ = static_cast<int>(shape.size()) - 1;
    rows_ = 1;
    for (int d = 0; d < rowRank_; ++d) rows_ *= shape[static_cast<size_t>(d)];
    rowLength_ = shape[static_cast<size_t>(rowRank_)];
    // A block takes kMinBlockElements worth of reads at least: a row reads
    // its length times the window (capped: only its size against the
    // minimum matters).
    int64_t windowReads = 1;
    if (plan_.reduce != WindowReduce::kColumns) {
        for (const WindowAxis& axis : plan_.axes) windowReads = std::min<int64_t>(windowReads * axis.kernel, 64);
    }
    blocks_ = BlockSplit::front_loaded(rows_, soc_profile().vectorCoreCount,
                                       std::max<int64_t>(std::min(rowLength_, kMinBlockElements) * windowReads, 1));
}

int64_t WindowKernel::start(int a, int64_t o) const noexcept {
    const WindowAxis& axis = plan_.axes[a];
    if (axis.nearestScale <= 0.0f) return o * axis.stride - axis.padBefore;
    return std::min(static_cast<int64_t>(std::floor(static_cast<float>(o) * axis.nearestScale)), axis.inSize - 1);
}

void WindowKernel::columns_row(const std::byte* in, std::byte* out, const int64_t* rowIndex) const {
    const TensorView& input = plan_.input;
    const TensorView& output = plan_.output;
    const int64_t inBytes = element_size(input.dtype);
    const int64_t outBytes = element_size(output.dtype);
    const ConvertElement convert = input.dtype == output.dtype ? nullptr : converter(input.dtype, output.dtype);
    // Row (n, c, k0, k1, k2, o0, o1): positions along axes 0 and 1 are fixed.
    int64_t inAt = input.offset + rowIndex[0] * input.strides[0] + rowIndex[1] * input.strides[1];
    int64_t outAt = output.offset;
    for (int d = 0; d < rowRank_; ++d) outAt += rowIndex[d] * output.strides[static_cast<size_t>(d)];
    bool inside = true;
    for (int a = 0; a < 2; ++a) {
        const WindowAxis& axis = plan_.axes[a];
        const int64_t p = start(a, rowIndex[5 + a]) + rowIndex[2 + a] * axis.dilation;
        inside = inside && p >= 0 && p < axis.inSize;
        inAt += p * input.strides[static_cast<size_t>(2 + a)];
    }
    const WindowAxis& last = plan_.axes[2];
    const int64_t k = rowIndex[4];
    const int64_t inStride = input.strides[4];
    const int64_t outStride = output.strides[static_cast<size_t>(rowRank_)];
    for (int64_t o = 0; o < rowLength_; ++o) {
        std::byte* to = out + (outAt + o * outStride) * outBytes;
        const int64_t p = start(2, o) + k * last.dilation;
        if (!inside || p < 0 || p >= last.inSize) {
            std::memset(to, 0, static_cast<size_t>(outBytes));
            continue;
        }
        const std::byte* from = in + (inAt + p * inStride) * inBytes;
        if (convert == nullptr) {
            std::memcpy(to, from, static_cast<size_t>(outBytes));
        } else {
            convert(from, to);
        }
    }
}

template <class T>
void WindowKernel::reduce_row(const T* in, T* out, const int64_t* rowIndex) const {
    const TensorView& input = plan_.input;
    const TensorView& output = plan_.output;
    const int64_t base = input.offset + rowIndex[0] * input.strides[0] + rowIndex[1] * input.strides[1];
    int64_t outAt = output.offset;
    for (int d = 0; d < rowRank_; ++d) outAt += rowIndex[d] * output.strides[static_cast<size_t>(d)];
    const auto load = [&](int64_t at) {
        const float value = cast_to_float(in[at]);
        return plan_.roundThroughHalf ? static_cast<float>(half_t::from_float(value)) : value;
    };
    for (int64_t o = 0; o < rowLength_; ++o) {
        const int64_t position[kMaxWindowDims] = {rowIndex[2], rowIndex[3], o};
        int64_t first[kMaxWindowDims], end[kMaxWindowDims], starts[kMaxWindowDims];
        int64_t valid = 1, padded = 1;
        for (int a = 0; a < kMaxWindowDims; ++a) {
            const WindowAxis& axis = plan_.axes[a];
            starts[a] = start(a, position[a]);
            first[a] = first_tap_inside(starts[a], axis.dilation);
            end[a] = taps_below(starts[a], axis.dilation, axis.kernel, axis.inSize);
            valid *= std::max<int64_t>(end[a] - first[a], 0);
            padded *= taps_below(starts[a], axis.dilation, axis.kernel, axis.inSize + axis.padAfter);
        }
        const bool isMax = plan_.reduce == WindowReduce::kMax;
        float acc = isMax ? -std::numeric_limits<float>::infinity() : 0.0f;
        for (int64_t k0 = first[0]; k0 < end[0]; ++k0) {
            for (int64_t k1 = first[1]; k1 < end[1]; ++k1) {
                int64_t at = base + (starts[0] + k0 * plan_.axes[0].dilation) * input.strides[2] +
                             (starts[1] + k1 * plan_.axes[1].dilation) * input.strides[3];
                for (int64_t k2 = first[2]; k2 < end[2]; ++k2) {
                    const float v = load(at + (starts[2] + k2 * plan_.axes[2].dilation) * input.strides[4]);
                    if (!isMax) {
                        acc += v;
                    } else if (!std::isnan(acc) && (v > acc || std::isnan(v))) {
                        acc = v;
                    }
                }
            }
        }
        if (!isMax) {
            const int64_t divisor = plan_.divisorOverride != 0 ? plan_.divisorOverride
                                    : plan_.countIncludePad    ? padded
                                                               : valid;
            acc = divisor == 0 ? acc / 0.0f : acc / static_cast<float>(divisor);
            if (plan_.roundThroughHalf) acc = static_cast<float>(half_t::from_float(acc));
        }
        out[outAt + o * output.strides[static_cast<size_t>(rowRank_)]] = cast_from_float<T>(acc);
    }
}

void WindowKernel::run_rows(const void* in, void* out, int64_t begin, int64_t end) const {
    const Dims& shape = plan_.output.shape;
    int64_t rowIndex[2 * kMaxWindowDims + 2] = {};
    for (int64_t row = begin; row < end; ++row) {
        int64_t rest = row;
        for (int d = rowRank_ - 1; d >= 0; --d) {
            rowIndex[d] = rest % shape[static_cast<size_t>(d)];
            rest /= shape[static_cast<size_t>(d)];
        }
        if (plan_.reduce == WindowReduce::kColumns) {
            columns_row(static_cast<const std::byte*>(in), static_cast<std::byte*>(out), rowIndex);
            continue;
        }
        visit_storable(
            plan_.input.dtype,
            [&](auto tag) {
                using T = decltype(tag);
                reduce_row<T>(static_cast<const T*>(in), static_cast<T*>(out), rowIndex);
            },
            [] {});
    }
}

aclError WindowKernel::launch(const LaunchArgs& args) const noexcept {
    if (aclError status = check_tensor_addresses(name_, args, 1, 1); status != ACL_SUCCESS) return status;
    // The output's elements fit int64, their bytes read and written may not.
    const __int128 moved = static_cast<__int128>(rows_) * rowLength_ *
                           (element_size(plan_.input.dtype) + element_size(plan_.output.dtype));
    const int64_t bytes = moved > INT64_MAX ? INT64_MAX : static_cast<int64_t>(moved);
    return launch_blocks(name_, blocks_.count(), bytes, [&](int64_t block) {
        const Range range = blocks_.block(block);
        run_rows(args.inputs[0], args.outputs[0], range.begin, range.end);
    });
}

void WindowKernel::describe(std::string& details) const {
    append_trace_arg(details, "blockDim", blocks_.count());
    append_trace_arg(details, "rows", rows_);
}

aclnnStatus hand_back_window(const char* api, const WindowPlan& plan, const aclTensor* input, const aclTensor* out,
                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{input, "self"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_window_axes(plan.axes, plan.spatial));
    return hand_back_kernel<WindowKernel>({input}, {out}, 0, workspaceSize, executor, api, plan);
}

}  // namespace aclcpu::ops
