// acl-cpu ops/common: the layout engine's kernel.
#include "common/layout.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

#include "aclcpu/soc_profile.hpp"
#include "common/phase1.hpp"
#include "common/typed_lanes.hpp"

namespace aclcpu::ops {
namespace {

/// Elements [begin, begin + count) of the source gathered as they are (no
/// cast) into staging, then cast into the destination.
template <class Source, class Destination>
void copy_through(const StridedLayout& source, const void* input, const StridedLayout& destination, void* output,
                  int64_t begin, int64_t count, Source* staging) {
    const Source* from = static_cast<const Source*>(input);
    for_each_run(source, begin, count, [&](int64_t position, int64_t length, int64_t stride, int64_t done) {
        for (int64_t j = 0; j < length; ++j) staging[done + j] = from[position + j * stride];
    });
    Destination* to = static_cast<Destination*>(output);
    for_each_run(destination, begin, count, [&](int64_t position, int64_t length, int64_t stride, int64_t done) {
        for (int64_t j = 0; j < length; ++j) {
            if constexpr (std::is_same_v<Source, Destination>) {
                to[position + j * stride] = staging[done + j];
            } else {
                to[position + j * stride] = cast_element<Destination>(staging[done + j]);
            }
        }
    });
}

/// An element of `bytes` bytes moved as it is.
template <int64_t bytes>
struct RawElement {
    unsigned char value[bytes];
};

/// Calls visit(T{}) with T an element of the given width moved bitwise.
template <class Visit>
void visit_raw_width(int64_t bytes, Visit&& visit) {
    switch (bytes) {
        case 1: return visit(uint8_t{});
        case 2: return visit(uint16_t{});
        case 4: return visit(uint32_t{});
        case 8: return visit(uint64_t{});
        default: return visit(RawElement<16>{});
    }
}

/// Writes a fill step's element into elements [begin, begin + count) of its destination.
void fill_step(const CopyStep& step, void* output, int64_t begin, int64_t count) {
    visit_raw_width(element_size(step.destination.dtype()), [&](auto tag) {
        using Raw = decltype(tag);
        Raw value;
        std::memcpy(&value, step.value.data(), sizeof(Raw));
        Raw* to = static_cast<Raw*>(output);
        for_each_run(step.destination, begin, count, [&](int64_t position, int64_t length, int64_t stride, int64_t) {
            for (int64_t j = 0; j < length; ++j) to[position + j * stride] = value;
        });
    });
}

/// Copies elements [begin, begin + count) of one step: a fill writes its
/// element; a memcpy when both sides are dense and of one dtype, else
/// through staging -- bitwise within one dtype (whatever it is), cast
/// between two.
void copy_step(const CopyStep& step, const void* input, void* output, int64_t begin, int64_t count,
               std::byte* staging) {
    if (step.is_fill()) return fill_step(step, output, begin, count);
    const StridedLayout& source = step.source;
    const StridedLayout& destination = step.destination;
    if (source.dtype() == destination.dtype()) {
        const int64_t width = element_size(source.dtype());
        if (source.is_linear() && destination.is_linear()) {
            std::memcpy(static_cast<std::byte*>(output) + (destination.offset() + begin) * width,
                        static_cast<const std::byte*>(input) + (source.offset() + begin) * width,
                        static_cast<size_t>(count * width));
            return;
        }
        visit_raw_width(width, [&](auto tag) {
            using Raw = decltype(tag);
            copy_through<Raw, Raw>(source, input, destination, output, begin, count, reinterpret_cast<Raw*>(staging));
        });
        return;
    }
    visit_element(source.dtype(), [&](auto sourceTag) {
        using Source = decltype(sourceTag);
        visit_element(destination.dtype(), [&](auto destinationTag) {
            copy_through<Source, decltype(destinationTag)>(source, input, destination, output, begin, count,
                                                           reinterpret_cast<Source*>(staging));
        });
    });
}

/// The bytes [first, last) a layout's elements take from data (empty for no element).
std::pair<const std::byte*, const std::byte*> byte_span(const StridedLayout& layout, const void* data) {
    if (layout.numel() == 0) return {nullptr, nullptr};
    int64_t low = layout.offset();
    int64_t high = layout.offset();
    for (int d = 0; d < layout.rank(); ++d) {
        const int64_t reach = (layout.size(d) - 1) * layout.stride(d);
        (reach < 0 ? low : high) += reach;
    }
    const int64_t width = element_size(layout.dtype());
    const auto* base = static_cast<const std::byte*>(data);
    return {base + low * width, base + (high + 1) * width};
}

/// The bytes [first, last) spanned by every place the steps write (empty when none).
std::pair<const std::byte*, const std::byte*> written_span(const std::vector<CopyStep>& steps, const void* output) {
    std::pair<const std::byte*, const std::byte*> all{nullptr, nullptr};
    for (const CopyStep& step : steps) {
        const auto span = byte_span(step.destination, output);
        if (span.first == nullptr) continue;
        all = all.first == nullptr ? span
                                   : std::make_pair(std::min(all.first, span.first), std::max(all.second, span.second));
    }
    return all;
}

/// True when a step reads and writes each element in the same place: safe
/// whatever the other steps do, as their destinations are elsewhere.
bool reads_in_place(const CopyStep& step, const void* input, const void* output) {
    if (input != output || step.source.dtype() != step.destination.dtype() ||
        step.source.offset() != step.destination.offset() || step.source.rank() != step.destination.rank()) {
        return false;
    }
    for (int d = 0; d < step.source.rank(); ++d) {
        if (step.source.size(d) != step.destination.size(d) || step.source.stride(d) != step.destination.stride(d)) {
            return false;
        }
    }
    return true;
}

/// True when a step reads memory that the launch writes in another place
/// (`written`: the span of all the steps' writes, this step's and the
/// others'): then a block could read what another block has already
/// overwritten (CANN's graph reads from a contiguous copy, which cannot
/// happen).
bool reads_what_it_overwrites(const CopyStep& step, const LaunchArgs& args,
                              std::pair<const std::byte*, const std::byte*> written) {
    if (step.is_fill()) return false;
    const void* input = args.inputs[step.input];
    const auto read = byte_span(step.source, input);
    if (read.first == nullptr || written.first == nullptr) return false;
    if (read.first >= written.second || written.first >= read.second) return false;
    return !reads_in_place(step, input, args.outputs[0]);
}

/// The widest element of the steps: what one staged element takes in UB.
int64_t widest_element(const std::vector<CopyStep>& steps) {
    int64_t widest = 1;
    for (const CopyStep& step : steps) {
        widest = std::max({widest, element_size(step.source.dtype()), element_size(step.destination.dtype())});
    }
    return widest;
}

/// A layout over the first `rank` of dims, walking the strides `stride` picks.
template <class Stride>
StridedLayout layout_of(const StepDim* dims, size_t rank, StepOrigin origin, Stride&& stride) {
    TensorView view;
    view.dtype = origin.dtype;
    view.offset = origin.offset;
    view.shape.resize(rank);
    view.strides.resize(rank);
    for (size_t d = 0; d < rank; ++d) {
        view.shape[d] = dims[d].size;
        view.strides[d] = stride(dims[d]);
    }
    return StridedLayout::of(view);
}

/// append_copy / append_fill over dims (no size-1 dim, none empty): fill ==
/// nullptr copies from input.  Past a layout's rank, the smallest dim is
/// peeled into a step per index (fewest steps).
void append_steps(std::vector<CopyStep>& steps, int input, std::vector<StepDim> dims, StepOrigin source,
                  StepOrigin destination, const ElementBytes* fill) {
    if (dims.size() > kMaxDims) {
        const auto smallest = std::min_element(dims.begin(), dims.end(), [](const StepDim& a, const StepDim& b) {
            return a.size < b.size;
        });
        const StepDim peeled = *smallest;
        dims.erase(smallest);
        for (int64_t i = 0; i < peeled.size; ++i) {
            append_steps(steps, input, dims, {source.dtype, source.offset + i * peeled.sourceStride},
                         {destination.dtype, destination.offset + i * peeled.destinationStride}, fill);
        }
        return;
    }
    const StridedLayout to =
        layout_of(dims.data(), dims.size(), destination, [](const StepDim& d) { return d.destinationStride; });
    if (fill != nullptr) {
        steps.push_back(CopyStep::fill(to, *fill));
    } else {
        steps.push_back(CopyStep{
            input, layout_of(dims.data(), dims.size(), source, [](const StepDim& d) { return d.sourceStride; }), to});
    }
}

/// The dims that count: size-1 ones dropped; none when the space is empty.
std::vector<StepDim> counted_dims(const std::vector<StepDim>& dims) {
    std::vector<StepDim> kept;
    for (const StepDim& d : dims) {
        if (d.size == 0) return {};
        if (d.size != 1) kept.push_back(d);
    }
    return kept;
}

bool is_empty_space(const std::vector<StepDim>& dims) {
    return std::any_of(dims.begin(), dims.end(), [](const StepDim& d) { return d.size == 0; });
}

}  // namespace

std::vector<StepDim> step_dims(const TensorView& source, const TensorView& destination) {
    std::vector<StepDim> dims;
    for (size_t d = 0; d < destination.shape.size(); ++d) {
        dims.push_back({destination.shape[d], source.strides[d], destination.strides[d]});
    }
    return dims;
}

void append_copy(std::vector<CopyStep>& steps, int input, const std::vector<StepDim>& dims, StepOrigin source,
                 StepOrigin destination) {
    if (is_empty_space(dims)) return;
    append_steps(steps, input, counted_dims(dims), source, destination, nullptr);
}

void append_fill(std::vector<CopyStep>& steps, const std::vector<StepDim>& dims, StepOrigin destination,
                 const ElementBytes& value) {
    if (is_empty_space(dims)) return;
    append_steps(steps, CopyStep::kFill, counted_dims(dims), destination, destination, &value);
}

int64_t steps_needed(const std::vector<StepDim>& dims) {
    if (is_empty_space(dims)) return 0;
    std::vector<int64_t> sizes;
    for (const StepDim& d : counted_dims(dims)) sizes.push_back(d.size);
    std::sort(sizes.begin(), sizes.end());
    int64_t count = 1;
    for (size_t i = 0; i + kMaxDims < sizes.size(); ++i) {
        if (__builtin_mul_overflow(count, sizes[i], &count)) return INT64_MAX;
    }
    return count;
}

aclnnStatus check_step_count(const char* api, int64_t count) {
    if (count <= kMaxSteps) return ACLNN_SUCCESS;
    report_error(ACLNN_ERR_INNER, kAclnnInnerTag, "%s: the copy needs %ld steps, more than acl-cpu's %ld.", api,
                 static_cast<long>(count), static_cast<long>(kMaxSteps));
    return ACLNN_ERR_INNER;
}

ElementBytes element_of(const aclScalar* scalar, aclDataType dtype) {
    ElementBytes bytes{};
    visit_element(dtype, [&](auto tag) {
        using T = decltype(tag);
        const aclDataType from = dtype_of(scalar);
        T element;
        if (is_complex(from)) {
            element = cast_element<T>(to_complex(scalar));
        } else if (is_floating(from)) {
            element = cast_element<T>(to_double(scalar));
        } else {
            element = cast_element<T>(to_int64(scalar));
        }
        std::memcpy(bytes.data(), &element, sizeof(T));
    });
    return bytes;
}

LayoutKernel::LayoutKernel(const char* name, std::vector<CopyStep> steps, int inputs)
    : name_(name), steps_(std::move(steps)), inputs_(inputs) {
    starts_.reserve(steps_.size() + 1);
    int64_t total = 0;
    for (const CopyStep& step : steps_) {
        starts_.push_back(total);
        total += step.destination.numel();
    }
    starts_.push_back(total);
    // The copies stage a chunk of source elements; the output's dtype sizes the blocks.
    widestBytes_ = widest_element(steps_);
    const int64_t width = widestBytes_;
    tiling_ = tile_elementwise(total, 2, steps_.empty() ? ACL_FLOAT : steps_.front().destination.dtype(), width,
                               soc_profile());
    stagingBytes_ = tiling_.chunkElements * width;
}

aclError LayoutKernel::launch(const LaunchArgs& args) const noexcept {
    if (aclError status = check_tensor_addresses(name_, args, static_cast<size_t>(inputs_), 1);
        status != ACL_SUCCESS) {
        return status;
    }
    const auto written = written_span(steps_, args.outputs[0]);
    const bool overlapping = std::any_of(steps_.begin(), steps_.end(), [&](const CopyStep& step) {
        return reads_what_it_overwrites(step, args, written);
    });
    return overlapping ? copy_from_snapshots(args) : copy_steps(steps_, args);
}

aclError LayoutKernel::copy_steps(const std::vector<CopyStep>& steps, const LaunchArgs& args) const noexcept {
    const UbStaging staging = UbStaging::per_worker(stagingBytes_);
    const int64_t bytesPerElement = 2 * widestBytes_;
    const int64_t chunk = tiling_.chunkElements;
    return launch_block_slices(name_, tiling_.blocks, bytesPerElement, chunk, [&](const BlockSlice& slice) {
        std::byte* ub = staging.for_block(slice.block);
        for (int64_t begin = slice.units.begin; begin < slice.units.end; begin += chunk) {
            copy_range(steps, args, begin, std::min(begin + chunk, slice.units.end), ub);
        }
    });
}

aclError LayoutKernel::copy_from_snapshots(const LaunchArgs& args) const noexcept {
    try {
        std::vector<std::vector<std::byte>> snapshots(steps_.size());
        std::vector<const void*> inputs(steps_.size());
        std::vector<CopyStep> steps;
        std::vector<std::byte> staging(static_cast<size_t>(stagingBytes_));
        const int64_t chunk = tiling_.chunkElements;
        for (size_t i = 0; i < steps_.size(); ++i) {
            const CopyStep& step = steps_[i];
            if (step.is_fill()) {
                steps.push_back(step);
                continue;
            }
            const int64_t count = step.source.numel();
            snapshots[i].resize(static_cast<size_t>(count * element_size(step.source.dtype())));
            const CopyStep snapshot{0, step.source, StridedLayout::linear(count, step.source.dtype())};
            for (int64_t begin = 0; begin < count; begin += chunk) {
                copy_step(snapshot, args.inputs[step.input], snapshots[i].data(), begin, std::min(chunk, count - begin),
                          staging.data());
            }
            inputs[i] = snapshots[i].data();
            steps.push_back(CopyStep{static_cast<int>(i), snapshot.destination, step.destination});
        }
        const LaunchArgs fromSnapshots{inputs.data(), args.outputs, args.workspace, args.workspaceSize};
        return copy_steps(steps, fromSnapshots);
    } catch (const std::bad_alloc&) {
        report_error(ACL_ERROR_RT_MEMORY_ALLOCATION, kAclnnInnerTag,
                     "%s: out of host memory for a copy of its overlapping input.", name_);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
}

void LayoutKernel::copy_range(const std::vector<CopyStep>& steps, const LaunchArgs& args, int64_t begin, int64_t end,
                              std::byte* staging) const {
    // The step holding begin, then each following one the range reaches.
    size_t step = static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), begin) - starts_.begin() - 1);
    for (; begin < end && step < steps.size(); ++step) {
        const int64_t stepEnd = std::min(end, starts_[step + 1]);
        if (stepEnd > begin) {
            const void* input = steps[step].is_fill() ? nullptr : args.inputs[steps[step].input];
            copy_step(steps[step], input, args.outputs[0], begin - starts_[step], stepEnd - begin, staging);
        }
        begin = stepEnd;
    }
}

void LayoutKernel::describe(std::string& details) const {
    append_trace_arg(details, "blockDim", tiling_.blocks.count());
    append_trace_arg(details, "steps", static_cast<int64_t>(steps_.size()));
}

aclnnStatus hand_back_layout(const char* api, std::vector<CopyStep> steps, TensorSpan inputs, const aclTensor* out,
                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    steps.erase(std::remove_if(steps.begin(), steps.end(),
                               [](const CopyStep& step) { return step.destination.numel() == 0; }),
                steps.end());
    if (steps.empty()) return hand_back_empty_executor(inputs, {out}, workspaceSize, executor);
    const int count = static_cast<int>(inputs.size());
    return hand_back_kernel<LayoutKernel>(inputs, {out}, 0, workspaceSize, executor, api, std::move(steps), count);
}

}  // namespace aclcpu::ops
