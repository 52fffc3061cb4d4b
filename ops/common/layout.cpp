// acl-cpu ops/common: the layout engine's kernel.
#include "common/layout.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

#include "aclcpu/soc_profile.hpp"
#include "common/float_runs.hpp"
#include "common/phase1.hpp"
#include "common/streaming_stores.hpp"
#include "common/transpose_tiles.hpp"
#include "common/typed_lanes.hpp"

namespace aclcpu::ops {
namespace {

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

/// Calls visit(Source{}, Destination{}): the same raw type when a step
/// keeps its dtype (moved bitwise, whatever the dtype), else the two
/// element types between which CANN's Cast converts.
template <class Visit>
void visit_step_types(aclDataType source, aclDataType destination, Visit&& visit) {
    if (source == destination) {
        visit_raw_width(element_size(source), [&](auto raw) { visit(raw, raw); });
        return;
    }
    visit_element(source, [&](auto from) { visit_element(destination, [&](auto to) { visit(from, to); }); });
}

template <class Source, class Destination>
Destination converted(const Source& x) {
    if constexpr (std::is_same_v<Source, Destination>) {
        return x;
    } else {
        return cast_element<Destination>(x);
    }
}

/// Copies one run: length elements from `from` (stepping sourceStride) to
/// `to` (stepping destinationStride), converted; a dense run of one dtype,
/// or of one value, with streaming stores when `streaming`.
template <class Source, class Destination>
void copy_run(const Source* from, Destination* to, int64_t length, int64_t sourceStride, int64_t destinationStride,
              aclDataType sourceDtype, aclDataType destinationDtype, bool streaming) {
    const auto bytes = static_cast<size_t>(length) * sizeof(Destination);
    streaming = streams_run(streaming, destinationStride, static_cast<int64_t>(bytes));
    if (sourceStride == 0) {
        const Destination value = converted<Source, Destination>(*from);
        if (streaming) return stream_fill(to, &value, sizeof(Destination), static_cast<size_t>(length));
        for (int64_t j = 0; j < length; ++j) to[j * destinationStride] = value;
    } else if (sourceStride == 1 && destinationStride == 1) {
        if constexpr (std::is_same_v<Source, Destination>) {
            if (streaming) return stream_copy(to, from, bytes);
            std::memcpy(to, from, bytes);
        } else if (!convert_float_run(sourceDtype, from, destinationDtype, to, length)) {
            for (int64_t j = 0; j < length; ++j) to[j] = converted<Source, Destination>(from[j]);
        }
    } else {
        for (int64_t j = 0; j < length; ++j) {
            to[j * destinationStride] = converted<Source, Destination>(from[j * sourceStride]);
        }
    }
}

/// Copies `columns` whole columns of `rows` rows of a transposing step
/// (JointLayout::transposes): row r's column c comes from
/// from[r + c * sourceStride] and goes to to[r * rowStride + c].  Elements
/// moved bitwise are transposed in registers (transpose_tile, with streaming
/// stores when `streaming`); converted ones pass through a buffer, square
/// tile by square tile, read column by column (a column is dense in the
/// source) and written row by row.  Either way each side touches its cache
/// lines one after another: a tile's lines lie a power-of-two stride apart
/// in the other layout and would evict one another in a set-associative
/// cache.
template <class Source, class Destination>
void copy_tiles(const Source* from, Destination* to, int64_t rows, int64_t columns, int64_t sourceStride,
                int64_t rowStride, bool streaming) {
    if constexpr (std::is_same_v<Source, Destination>) {
        if (transpose_tile(sizeof(Source), from, to, rows, columns, sourceStride, rowStride, streaming)) return;
    }
    constexpr int64_t kWidth = 16;
    constexpr int64_t kHeight = 64;
    Destination tile[kWidth][kHeight];  // [column][row]
    for (int64_t first = 0; first < columns; first += kWidth) {
        const int64_t width = std::min(kWidth, columns - first);
        for (int64_t top = 0; top < rows; top += kHeight) {
            const int64_t height = std::min(kHeight, rows - top);
            for (int64_t c = 0; c < width; ++c) {
                const Source* column = from + (first + c) * sourceStride + top;
                for (int64_t r = 0; r < height; ++r) tile[c][r] = converted<Source, Destination>(column[r]);
            }
            for (int64_t r = 0; r < height; ++r) {
                Destination* row = to + (top + r) * rowStride + first;
                for (int64_t c = 0; c < width; ++c) row[c] = tile[c][r];
            }
        }
    }
}

/// Copies elements [first, last) of one stripe of a transposing step, in
/// its order (column, row): `rows` rows, from and to at the stripe's row 0,
/// column 0.  A piece of a column at either end goes element by element.
template <class Source, class Destination>
void copy_stripe(const Source* from, Destination* to, int64_t rows, int64_t sourceStride, int64_t rowStride,
                 int64_t first, int64_t last, bool streaming) {
    const auto copy_column = [&](int64_t c, int64_t top, int64_t bottom) {
        for (int64_t r = top; r < bottom; ++r) {
            to[r * rowStride + c] = converted<Source, Destination>(from[r + c * sourceStride]);
        }
    };
    int64_t column = first / rows;
    const int64_t lastColumn = last / rows;
    if (column == lastColumn) return copy_column(column, first % rows, last % rows);
    if (first % rows != 0) copy_column(column++, first % rows, rows);
    copy_tiles(from + column * sourceStride, to + column, rows, lastColumn - column, sourceStride, rowStride,
               streaming);
    copy_column(lastColumn, 0, last % rows);
}

/// Copies elements [begin, begin + count) of one step, run by run.
template <class Source, class Destination>
void copy_runs(const JointLayout& joint, const CopyStep& step, const Source* input, Destination* output,
               int64_t begin, int64_t count, bool streaming) {
    const int inner = std::max(joint.rank - 1, 0);
    for_each_strided_run<2>(joint.rank, joint.sizes, {joint.sourceStrides, joint.destinationStrides},
                            {step.source.offset(), step.destination.offset()}, begin, count,
                            [&](const std::array<int64_t, 2>& at, int64_t length, int64_t /* done */) {
                                copy_run(input + at[0], output + at[1], length, joint.sourceStrides[inner],
                                         joint.destinationStrides[inner], step.source.dtype(),
                                         step.destination.dtype(), streaming);
                            });
}

/// Copies elements [begin, begin + count) of one step: a transposing step's
/// stripe by stripe in its own order (JointLayout::transposes), everything
/// else run by run.
template <class Source, class Destination>
void copy_elements(const JointLayout& joint, const CopyStep& step, const Source* input, Destination* output,
                   int64_t begin, int64_t count, bool streaming) {
    if (!joint.transposes()) return copy_runs(joint, step, input, output, begin, count, streaming);
    const int inner = joint.rank - 1;
    const int64_t columns = joint.sizes[inner];
    const int64_t planeRows = joint.sizes[inner - 1];
    const int64_t stripeRows = joint.stripe_rows();
    const int64_t end = begin + count;
    while (begin < end) {
        // The stripe holding begin, by the row-major index of its first element.
        const int64_t inPlane = begin % (planeRows * columns);
        const int64_t firstRow = inPlane / (stripeRows * columns) * stripeRows;
        const int64_t rows = std::min(stripeRows, planeRows - firstRow);
        const int64_t stripe = begin - inPlane + firstRow * columns;
        const int64_t stripeEnd = std::min(end, stripe + rows * columns);
        int64_t index[JointLayout::kMaxRank];
        const auto at = strided_positions<2>(joint.rank, joint.sizes, {joint.sourceStrides, joint.destinationStrides},
                                             {step.source.offset(), step.destination.offset()}, stripe, index);
        copy_stripe(input + at[0], output + at[1], rows, joint.sourceStrides[inner],
                    joint.destinationStrides[inner - 1], begin - stripe, stripeEnd - stripe, streaming);
        begin = stripeEnd;
    }
}

/// The bytes [first, last) a layout's elements take, counted from its
/// tensor's data pointer (first == last for no element).
ByteRange byte_range(const StridedLayout& layout) {
    if (layout.numel() == 0) return {};
    int64_t low = layout.offset();
    int64_t high = layout.offset();
    for (int d = 0; d < layout.rank(); ++d) {
        const int64_t reach = (layout.size(d) - 1) * layout.stride(d);
        (reach < 0 ? low : high) += reach;
    }
    const int64_t width = element_size(layout.dtype());
    return {low * width, (high + 1) * width};
}

/// True when a step reads and writes each element at the same offset from
/// its tensors' data: safe, when input and output are one tensor, whatever
/// the other steps do, as their destinations are elsewhere.
bool same_places(const CopyStep& step) {
    if (step.source.dtype() != step.destination.dtype() || step.source.offset() != step.destination.offset() ||
        step.source.rank() != step.destination.rank()) {
        return false;
    }
    for (int d = 0; d < step.source.rank(); ++d) {
        if (step.source.size(d) != step.destination.size(d) || step.source.stride(d) != step.destination.stride(d)) {
            return false;
        }
    }
    return true;
}

const std::byte* bytes_of(const void* data) { return static_cast<const std::byte*>(data); }

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

void copy_step(const JointLayout& joint, const CopyStep& step, const void* input, void* output, int64_t begin,
               int64_t count, bool streaming) {
    visit_step_types(step.source.dtype(), step.destination.dtype(), [&](auto sourceTag, auto destinationTag) {
        using Source = decltype(sourceTag);
        using Destination = decltype(destinationTag);
        copy_elements(joint, step, static_cast<const Source*>(input), static_cast<Destination*>(output), begin,
                      count, streaming);
    });
}

bool is_private_format(aclFormat format) noexcept {
    switch (format) {
        case ACL_FORMAT_ND: case ACL_FORMAT_NCHW: case ACL_FORMAT_NHWC: case ACL_FORMAT_HWCN:
        case ACL_FORMAT_NDHWC: case ACL_FORMAT_NCDHW: case ACL_FORMAT_NCL:
            return false;
        default:
            return true;
    }
}

CopyStep CopyStep::fill(const StridedLayout& destination, const ElementBytes& value) {
    TensorView element;
    element.dtype = destination.dtype();
    Dims space;
    space.resize(1);
    space[0] = destination.numel();
    return CopyStep{kFill, StridedLayout::broadcast_to(element, space), destination, value};
}

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

JointLayout JointLayout::of(const StridedLayout& source, const StridedLayout& destination) noexcept {
    // Walk both layouts from their innermost dims out, cutting at every
    // boundary of either; a rank-0 layout is one dense dim of its elements.
    struct Walk {
        const StridedLayout& layout;
        int dim;
        int64_t left;    // elements of the current dim not yet cut off
        int64_t stride;  // stride of the current dim's remaining part
        bool next() {
            if (--dim < 0) return false;
            left = layout.size(dim);
            stride = layout.stride(dim);
            return true;
        }
    };
    const auto start = [](const StridedLayout& layout) {
        Walk walk{layout, layout.rank(), layout.numel(), 1};
        if (layout.rank() > 0) walk.next();
        return walk;
    };
    Walk a = start(source);
    Walk b = start(destination);
    JointLayout reversed;  // innermost first
    while (a.left > 1 || b.left > 1) {
        const int64_t size = std::min(a.left > 1 ? a.left : b.left, b.left > 1 ? b.left : a.left);
        int& r = reversed.rank;
        reversed.sizes[r] = size;
        reversed.sourceStrides[r] = a.left > 1 ? a.stride : 0;
        reversed.destinationStrides[r] = b.left > 1 ? b.stride : 0;
        ++r;
        for (Walk* walk : {&a, &b}) {
            if (walk->left <= 1) continue;
            walk->left /= size;
            // The next piece of this dim steps over `size` elements; an
            // exhausted dim's product is never used (and may overflow).
            if (walk->left == 1) {
                walk->next();
            } else {
                walk->stride *= size;
            }
        }
    }
    // Outermost first, merging a dim into its inner neighbour where both layouts allow.
    JointLayout joint;
    // Whether outer steps over `size` elements of inner (a product past
    // int64 steps over nothing a view can hold).
    const auto spans = [](int64_t outer, int64_t inner, int64_t size) {
        int64_t product = 0;
        return !__builtin_mul_overflow(inner, size, &product) && outer == product;
    };
    for (int d = reversed.rank - 1; d >= 0; --d) {
        const int last = joint.rank - 1;
        const int64_t size = reversed.sizes[d];
        if (last >= 0 && spans(joint.sourceStrides[last], reversed.sourceStrides[d], size) &&
            spans(joint.destinationStrides[last], reversed.destinationStrides[d], size)) {
            joint.sizes[last] *= size;
            joint.sourceStrides[last] = reversed.sourceStrides[d];
            joint.destinationStrides[last] = reversed.destinationStrides[d];
            continue;
        }
        joint.sizes[joint.rank] = size;
        joint.sourceStrides[joint.rank] = reversed.sourceStrides[d];
        joint.destinationStrides[joint.rank] = reversed.destinationStrides[d];
        ++joint.rank;
    }
    return joint;
}

LayoutKernel::LayoutKernel(const char* name, std::vector<CopyStep> steps, int inputs)
    : name_(name), steps_(std::move(steps)), inputs_(inputs) {
    starts_.reserve(steps_.size() + 1);
    joints_.reserve(steps_.size());
    int64_t total = 0;
    int64_t tileElements = 0;
    reads_.reserve(steps_.size());
    for (const CopyStep& step : steps_) {
        starts_.push_back(total);
        total += step.destination.numel();
        reads_.push_back({step.is_fill() ? ByteRange{} : byte_range(step.source), same_places(step)});
        written_ = written_.joined(byte_range(step.destination));
        joints_.push_back(JointLayout::of(step.source, step.destination));
        const JointLayout& joint = joints_.back();
        if (joint.transposes()) {
            tileElements = std::max(tileElements, joint.stripe_rows() * JointLayout::kPanelColumns);
        }
    }
    starts_.push_back(total);
    streaming_ = written_.last - written_.first >= kStreamingOutputBytes;
    widestBytes_ = widest_element(steps_);
    tiling_ = tile_elementwise(total, 2, steps_.empty() ? ACL_FLOAT : steps_.front().destination.dtype(),
                               widestBytes_, soc_profile());
    sliceUnit_ = tiling_.chunkElements;
    if (tileElements > 0) {
        // Blocks and their slices start on whole panels of a stripe's
        // columns: a column cut at either end is copied element by element.
        tiling_.blocks = BlockSplit::by_factor(total, soc_profile().vectorCoreCount, tileElements);
        sliceUnit_ = tileElements;
    }
}

aclError LayoutKernel::launch(const LaunchArgs& args) const noexcept {
    if (aclError status = check_tensor_addresses(name_, args, static_cast<size_t>(inputs_), 1);
        status != ACL_SUCCESS) {
        return status;
    }
    return reads_what_it_overwrites(args) ? copy_from_snapshots(args) : copy_steps(nullptr, args);
}

bool LayoutKernel::reads_what_it_overwrites(const LaunchArgs& args) const noexcept {
    if (written_.empty()) return false;
    const std::byte* output = bytes_of(args.outputs[0]);
    for (size_t i = 0; i < steps_.size(); ++i) {
        const StepReads& reads = reads_[i];
        if (reads.bytes.empty()) continue;  // a fill step, or nothing read
        const void* input = args.inputs[steps_[i].input];
        if (reads.samePlaces && input == args.outputs[0]) continue;
        const std::byte* read = bytes_of(input);
        if (read + reads.bytes.first < output + written_.last && output + written_.first < read + reads.bytes.last) {
            return true;
        }
    }
    return false;
}

aclError LayoutKernel::copy_steps(const void* const* sources, const LaunchArgs& args) const noexcept {
    return launch_block_slices(name_, tiling_.blocks, 2 * widestBytes_, sliceUnit_, [&](const BlockSlice& slice) {
        copy_range(sources, args, slice.units.begin, slice.units.end);
        if (streaming_) stream_fence();
    });
}

aclError LayoutKernel::copy_from_snapshots(const LaunchArgs& args) const noexcept {
    try {
        // Each step reads a copy of the bytes its source spans, through the
        // same layout rebased onto the copy.
        std::vector<std::vector<std::byte>> snapshots(steps_.size());
        std::vector<const void*> sources(steps_.size());
        for (size_t i = 0; i < steps_.size(); ++i) {
            const ByteRange read = reads_[i].bytes;
            if (read.empty()) continue;  // a fill step reads its own element
            const std::byte* input = bytes_of(args.inputs[steps_[i].input]);
            snapshots[i].assign(input + read.first, input + read.last);
            sources[i] = snapshots[i].data() - read.first;
        }
        return copy_steps(sources.data(), args);
    } catch (const std::bad_alloc&) {
        report_error(ACL_ERROR_RT_MEMORY_ALLOCATION, kAclnnInnerTag,
                     "%s: out of host memory for a copy of its overlapping input.", name_);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
}

void LayoutKernel::copy_range(const void* const* sources, const LaunchArgs& args, int64_t begin, int64_t end) const {
    // The step holding begin, then each following one the range reaches.
    size_t step = static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), begin) - starts_.begin() - 1);
    for (; begin < end && step < steps_.size(); ++step) {
        const int64_t stepEnd = std::min(end, starts_[step + 1]);
        if (stepEnd > begin) {
            const CopyStep& at = steps_[step];
            const void* input = at.is_fill()          ? at.value.data()
                                : sources != nullptr ? sources[step]
                                                     : args.inputs[at.input];
            copy_step(joints_[step], steps_[step], input, args.outputs[0], begin - starts_[step], stepEnd - begin,
                      streaming_);
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
