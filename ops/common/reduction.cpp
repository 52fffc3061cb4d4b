// acl-cpu ops/common: the reduction engine (reduction.hpp): its plan, its
// tiling and its kernel.  The fp32 folds are compiled for every SIMD target
// Highway dispatches to (reduction-inl.h).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "common/reduction.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "common/reduction-inl.h"

#if HWY_ONCE

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "aclcpu/soc_profile.hpp"
#include "common/block_launch.hpp"
#include "common/lines_along_dim.hpp"
#include "common/op_checks.hpp"
#include "common/reduction.hpp"
#include "common/typed_lanes.hpp"

namespace aclcpu::ops {

HWY_EXPORT(fold_lanes_on_target);
HWY_EXPORT(fold_row_on_target);

aclnnStatus reduced_dims_mask(const aclIntArray* dims, const Dims& shape, const DimListRules& rules, uint32_t* mask) {
    const std::vector<int64_t>& list = values_of(dims);
    const size_t rank = shape.size();
    const int64_t dimCount = rank == 0 ? 1 : static_cast<int64_t>(rank);
    const auto out_of_range = [&](int64_t dim) {
        return param_error(ACLNN_ERR_PARAM_INVALID, rules.meanWording
                                                        ? "provided dim %ld must be in the range of [%ld, %ld]."
                                                        : "Provided dim %ld must be in the range of [%ld, %ld].",
                           static_cast<long>(dim), static_cast<long>(-dimCount), static_cast<long>(dimCount - 1));
    };
    if (rules.meanWording) {
        for (const int64_t dim : list) {
            if (dim >= dimCount || dim < -dimCount) return out_of_range(dim);
        }
    }
    // Ranks are checked after the dims (CANN's order): a rank may exceed
    // the mask's bits here, never once the mask is used.
    std::vector<bool> seen(static_cast<size_t>(dimCount));
    uint32_t result = 0;
    for (const int64_t dim : list) {
        if (dim >= dimCount || dim < -dimCount) return out_of_range(dim);
        const int64_t index = dim < 0 ? dim + dimCount : dim;
        if (rules.nonEmptyReducedDims && rank != 0 && shape[index] == 0) {
            return param_error(ACLNN_ERR_PARAM_INVALID, "Expected reducution dim %lu to have non-zero size.",
                               static_cast<unsigned long>(index));
        }
        if (seen[static_cast<size_t>(index)]) {
            if (rules.meanWording) {
                return param_error(ACLNN_ERR_PARAM_INVALID, "provided dim %ld is repeated.", static_cast<long>(dim));
            }
            return param_error(ACLNN_ERR_PARAM_INVALID, "Dim %lu appears multiple times in the list of dims.",
                               static_cast<unsigned long>(index));
        }
        seen[static_cast<size_t>(index)] = true;
        if (index < 32) result |= 1u << index;
    }
    if (list.empty() && rules.emptyMeansAll) result = rank >= 32 ? ~0u : (1u << rank) - 1u;
    *mask = rank == 0 ? 0 : result;
    return ACLNN_SUCCESS;
}

Dims reduced_shape(const Dims& shape, uint32_t mask, bool keepDim) {
    std::vector<int64_t> result;
    for (size_t d = 0; d < shape.size(); ++d) {
        if ((mask >> d & 1u) == 0) result.push_back(shape[d]);
        else if (keepDim) result.push_back(1);
    }
    return Dims(result.data(), result.size());
}

namespace {

/// One index space of the input (its kept or its reduced dims), row-major,
/// with the input's strides.
struct IndexSpace {
    int rank = 0;
    int64_t sizes[kMaxDims] = {};
    int64_t strides[kMaxDims] = {};
    int64_t numel = 1;

    /// Appends a dim, merged into the previous one when the two are one run
    /// of memory (which keeps the row-major order of the space).
    void append(int64_t size, int64_t stride) {
        numel *= size;
        // Wrapping, and no merge past int64: an empty view's sizes and
        // strides are arbitrary (Norm reduces an empty self), and whether
        // they merge changes no position read.
        const auto run = static_cast<int64_t>(static_cast<uint64_t>(stride) * static_cast<uint64_t>(size));
        int64_t merged = 0;
        if (rank > 0 && strides[rank - 1] == run && !__builtin_mul_overflow(sizes[rank - 1], size, &merged)) {
            sizes[rank - 1] = merged;
            strides[rank - 1] = stride;
            return;
        }
        sizes[rank] = size;
        strides[rank] = stride;
        ++rank;
    }

    /// Calls visit(position) for elements [begin, begin + count) of the
    /// space, in order, position being base + the element's offset.
    template <class Visit>
    void for_each(int64_t base, int64_t begin, int64_t count, const Visit& visit) const {
        if (count == 0) return;  // an empty space (a size-0 dim) has no position
        for_each_strided_run<1>(rank, sizes, {strides}, {base}, begin, count,
                                [&](const std::array<int64_t, 1>& position, int64_t length, int64_t /*done*/) {
                                    const int64_t stride = rank == 0 ? 0 : strides[rank - 1];
                                    for (int64_t j = 0; j < length; ++j) visit(position[0] + j * stride);
                                });
    }

    int64_t position_of(int64_t base, int64_t i) const {
        int64_t index[2 * kMaxDims];
        return strided_positions<1>(rank, sizes, {strides}, {base}, i, index)[0];
    }
};

/// view less its size-1 dims, which address nothing: an out of one element
/// may have more dims than a layout holds (ReduceSum's CheckShapeAndScalarSame
/// admits any one-element shape).
TensorView without_unit_dims(const TensorView& view) {
    std::vector<int64_t> shape;
    std::vector<int64_t> strides;
    for (size_t d = 0; d < view.shape.size(); ++d) {
        if (view.shape[d] == 1) continue;
        shape.push_back(view.shape[d]);
        strides.push_back(view.strides[d]);
    }
    TensorView squeezed = view;
    squeezed.shape = Dims(shape.data(), shape.size());
    squeezed.strides = Dims(strides.data(), strides.size());
    return squeezed;
}

struct ReductionPlan {
    ReductionSpec spec;
    aclDataType inDtype = ACL_FLOAT;
    int64_t inOffset = 0;
    IndexSpace kept;
    IndexSpace reduced;
    /// Whether the input's innermost non-1 dim is kept: rows of outputs are
    /// combined (see reduction.hpp).
    bool rowReduction = false;
    StridedLayout out;
    /// MaxDim's and MinDim's values beside the indices in out.
    bool withValues = false;
    StridedLayout values;
    BlockSplit outputBlocks;
    /// The split of the reduced extent (one block unless a few outputs
    /// share the vector cores).
    BlockSplit reducedBlocks;
};

ReductionPlan plan_of(const ReductionSpec& spec, const TensorView& in, uint32_t mask, const TensorView& out) {
    ReductionPlan plan;
    plan.spec = spec;
    plan.inDtype = in.dtype;
    plan.inOffset = in.offset;
    for (size_t d = 0; d < in.shape.size(); ++d) {
        if (in.shape[d] == 1) continue;
        const bool reduced = (mask >> d & 1u) != 0;
        (reduced ? plan.reduced : plan.kept).append(in.shape[d], in.strides[d]);
        plan.rowReduction = !reduced;
    }
    plan.out = StridedLayout::of(without_unit_dims(out));
    const SocProfile& soc = soc_profile();
    const int64_t outputs = plan.kept.numel;
    // An empty reduced extent is one block of no element (see LpNorm).
    const int64_t reducedCount = std::max<int64_t>(plan.reduced.numel, 1);
    if (outputs >= soc.vectorCoreCount) {
        plan.outputBlocks = BlockSplit::by_factor(outputs, soc.vectorCoreCount, 1, reducedCount);
        plan.reducedBlocks = BlockSplit::by_factor(reducedCount, 1);
    } else {
        plan.outputBlocks = BlockSplit::front_loaded(outputs, outputs, reducedCount);
        plan.reducedBlocks = BlockSplit::by_factor(
            reducedCount, std::max<int64_t>(1, soc.vectorCoreCount / plan.outputBlocks.count()), kReductionLanes);
    }
    return plan;
}

// ---- lane arithmetic -------------------------------------------------------

template <class V>
V identity(ReduceCombine combine) {
    if constexpr (is_complex_v<V>) {
        return V(combine == ReduceCombine::prod ? 1 : 0);
    } else {
        switch (combine) {
            case ReduceCombine::sum: return V(0);
            case ReduceCombine::prod: return V(1);
            case ReduceCombine::max:
                return std::numeric_limits<V>::has_infinity ? -std::numeric_limits<V>::infinity()
                                                            : std::numeric_limits<V>::lowest();
            case ReduceCombine::min:
                return std::numeric_limits<V>::has_infinity ? std::numeric_limits<V>::infinity()
                                                            : std::numeric_limits<V>::max();
            case ReduceCombine::argmax:
            case ReduceCombine::argmin: break;
        }
        return V(0);
    }
}

/// The scalar combine: integers wrap (two's complement, as the device's
/// adders), max and min propagate NaN as the vector folds do.
template <class V>
V combine(ReduceCombine combine, V a, V b) {
    if constexpr (std::is_same_v<V, int64_t>) {
        switch (combine) {
            case ReduceCombine::sum: return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
            case ReduceCombine::prod: return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
            case ReduceCombine::max: return a > b ? a : b;
            case ReduceCombine::min: return a < b ? a : b;
            case ReduceCombine::argmax:
            case ReduceCombine::argmin: break;
        }
        return a;
    } else if constexpr (is_complex_v<V>) {
        // Phase 1 admits only sums and products of complex values.
        return combine == ReduceCombine::prod ? a * b : a + b;
    } else {
        switch (combine) {
            case ReduceCombine::sum: return a + b;
            case ReduceCombine::prod: return a * b;
            case ReduceCombine::max: return std::isnan(a) || std::isnan(b) ? a + b : (a > b ? a : b);
            case ReduceCombine::min: return std::isnan(a) || std::isnan(b) ? a + b : (a < b ? a : b);
            case ReduceCombine::argmax:
            case ReduceCombine::argmin: break;
        }
        return a;
    }
}

/// Whether x replaces best as ArgMax's (ArgMin's) candidate: strictly
/// larger (smaller), or the first NaN -- so that ties keep the first index.
template <class V>
bool replaces(ReduceCombine combine, V x, V best) {
    if constexpr (std::is_floating_point_v<V>) {
        if (std::isnan(best)) return false;
        if (std::isnan(x)) return true;
    }
    if constexpr (is_complex_v<V>) {
        return false;  // phase 1 admits no complex ArgMax
    } else {
        return combine == ReduceCombine::argmax ? x > best : x < best;
    }
}

/// An input element as the kernel's lane: CANN's Cast into castDtype, held
/// in the lane type.
template <class V, class T>
V load_element(T x, aclDataType castDtype) {
    if constexpr (!is_complex_v<V>) {
        if (castDtype == ACL_BOOL) return V(cast_element<bool8_t>(x).value);
    }
    return round_lane(castDtype, cast_element<V>(x));
}

/// A norm's element map (reduction.hpp's LpNorm), on fp32 lanes.
template <class V>
V norm_element(const ReductionSpec& spec, V x) {
    if constexpr (std::is_same_v<V, float>) {
        switch (spec.norm) {
            case LpNorm::none: break;
            case LpNorm::p0: return x == 0.0f ? 0.0f : 1.0f;
            case LpNorm::p2: return x * x;
            case LpNorm::other: return std::pow(std::fabs(x), spec.p);
            case LpNorm::p1:
            case LpNorm::inf:
            case LpNorm::ninf: return std::fabs(x);
        }
    }
    return x;
}

/// A result lane as the reduce kernel writes it: a norm's root or Mean's
/// scaling, then rounded to castDtype.
template <class V>
V finish(const ReductionSpec& spec, V acc, int64_t count) {
    if constexpr (std::is_same_v<V, float>) {
        if (spec.norm == LpNorm::p2) acc = std::sqrt(acc);
        if (spec.norm == LpNorm::other) acc = std::pow(acc, 1.0f / spec.p);
    }
    if (spec.mean) {
        if constexpr (std::is_same_v<V, float>) {
            acc = acc * (1.0f / static_cast<float>(count));
        } else if constexpr (std::is_same_v<V, int64_t>) {
            acc = acc / count;
        } else {
            acc = acc / static_cast<V>(count);
        }
    }
    if constexpr (!is_complex_v<V>) {
        if (spec.castDtype == ACL_BOOL) return V(acc != V(0) ? 1 : 0);
    }
    return round_lane(spec.castDtype, acc);
}

/// The fixed pairwise tree over the lane partials.
template <class V>
V fold_tree(ReduceCombine c, V* lanes) {
    for (int64_t width = kReductionLanes / 2; width > 0; width /= 2) {
        for (int64_t j = 0; j < width; ++j) lanes[j] = combine(c, lanes[j], lanes[j + width]);
    }
    return lanes[0];
}

// ---- the kernel ----------------------------------------------------------

/// Elements a block stages at once: a reduction's chunk of reduced
/// elements, or a row of outputs.  A multiple of kReductionLanes.
constexpr int64_t kChunk = 1024;

template <class V>
struct BlockBuffers {
    V values[kChunk];
    V results[kChunk];
    /// ArgMax, ArgMin: the index of results[j].
    int64_t indices[kChunk];
};

class ReductionKernel final : public OpKernel {
public:
    ReductionKernel(const char* name, const ReductionPlan& plan) noexcept : name_(name), plan_(plan) {}
    const char* name() const noexcept override { return name_; }
    void describe(std::string& details) const override {
        append_trace_arg(details, "blockDim", plan_.outputBlocks.count() * plan_.reducedBlocks.count());
    }

    aclError launch(const LaunchArgs& args) const noexcept override {
        const size_t outputs = plan_.withValues ? 2 : 1;
        if (aclError status = check_tensor_addresses(name_, args, 1, outputs); status != ACL_SUCCESS) return status;
        return visit_lane_type(plan_.spec.castDtype, [&](auto lane) { return run<decltype(lane)>(args); });
    }

private:
    int64_t splits() const noexcept { return plan_.reducedBlocks.count(); }

    bool is_arg() const noexcept {
        return plan_.spec.combine == ReduceCombine::argmax || plan_.spec.combine == ReduceCombine::argmin;
    }

    template <class V>
    aclError run(const LaunchArgs& args) const noexcept {
        const int64_t outputs = plan_.kept.numel;
        const int64_t bytesMoved = outputs * plan_.reduced.numel * element_size(plan_.inDtype);
        const UbStaging staging = UbStaging::per_worker(sizeof(BlockBuffers<V>));
        // The workspace of a split reduction (none otherwise): ArgMax's
        // indices of the partials (int64), then the partials.
        const int64_t partialCount = is_arg() && splits() > 1 ? outputs * splits() : 0;
        auto* partialIndices = static_cast<int64_t*>(args.workspace);
        V* partials = reinterpret_cast<V*>(partialIndices + partialCount);
        const aclError status = launch_blocks(
            name_, plan_.outputBlocks.count() * splits(), bytesMoved, [&](int64_t blockIdx) {
                auto* buffers = reinterpret_cast<BlockBuffers<V>*>(staging.for_block(blockIdx));
                const Range outs = plan_.outputBlocks.block(blockIdx / splits());
                Range reduced = plan_.reducedBlocks.block(blockIdx % splits());
                reduced.end = std::min(reduced.end, plan_.reduced.numel);
                for (int64_t first = outs.begin; first < outs.end; first += kChunk) {
                    const int64_t n = std::min(kChunk, outs.end - first);
                    reduce_outputs(args.inputs[0], first, n, reduced, *buffers);
                    if (splits() == 1) {
                        store(*buffers, args.outputs, first, n);
                        continue;
                    }
                    const int64_t slot = blockIdx % splits() * outputs + first;
                    std::copy_n(buffers->results, n, partials + slot);
                    if (is_arg()) std::copy_n(buffers->indices, n, partialIndices + slot);
                }
            });
        if (status != ACL_SUCCESS || splits() == 1) return status;
        // The combine step: each output's partials in block order.
        return launch_blocks(name_, plan_.outputBlocks.count(), outputs * splits() * int64_t{sizeof(V)},
                             [&](int64_t blockIdx) {
                                 auto* buffers = reinterpret_cast<BlockBuffers<V>*>(staging.for_block(blockIdx));
                                 const Range outs = plan_.outputBlocks.block(blockIdx);
                                 for (int64_t first = outs.begin; first < outs.end; first += kChunk) {
                                     const int64_t n = std::min(kChunk, outs.end - first);
                                     for (int64_t j = 0; j < n; ++j) {
                                         buffers->results[j] = partials[first + j];
                                         if (is_arg()) buffers->indices[j] = partialIndices[first + j];
                                         for (int64_t s = 1; s < splits(); ++s) {
                                             const int64_t slot = s * outputs + first + j;
                                             take(*buffers, j, partials[slot], is_arg() ? partialIndices[slot] : 0);
                                         }
                                     }
                                     store(*buffers, args.outputs, first, n);
                                 }
                             });
    }

    /// Combines value (at reduced index `index`, for ArgMax) into output j
    /// of buffers.results.
    template <class V>
    void take(BlockBuffers<V>& buffers, int64_t j, V value, int64_t index) const {
        if (!is_arg()) {
            buffers.results[j] = combine(plan_.spec.combine, buffers.results[j], value);
        } else if (replaces(plan_.spec.combine, value, buffers.results[j])) {
            buffers.results[j] = value;
            buffers.indices[j] = index;
        }
    }

    /// results[j] = the combine of output first + j over the reduced range.
    template <class V>
    void reduce_outputs(const void* in, int64_t first, int64_t n, Range reduced, BlockBuffers<V>& buffers) const {
        visit_element(plan_.inDtype, [&](auto tag) {
            using T = decltype(tag);
            const T* elements = static_cast<const T*>(in);
            const aclDataType castDtype = plan_.spec.castDtype;
            // The elements [begin, begin + count) of space from base, as
            // lanes: read in place when they are dense fp32 lanes already,
            // else staged in buffers.values.
            const auto load = [&](const IndexSpace& space, int64_t base, int64_t begin, int64_t count) -> const V* {
                if constexpr (std::is_same_v<T, float> && std::is_same_v<V, float>) {
                    if (castDtype == ACL_FLOAT && plan_.spec.norm == LpNorm::none && space.rank == 1 &&
                        space.strides[0] == 1) {
                        return elements + base + begin;
                    }
                }
                int64_t j = 0;
                space.for_each(base, begin, count, [&](int64_t position) {
                    buffers.values[j++] = norm_element(plan_.spec, load_element<V>(elements[position], castDtype));
                });
                return buffers.values;
            };
            if (plan_.rowReduction) {
                reduce_rows(n, reduced, buffers, [&](int64_t reducedPosition) {
                    return load(plan_.kept, reducedPosition, first, n);
                });
            } else {
                for (int64_t j = 0; j < n; ++j) {
                    const int64_t base = plan_.kept.position_of(plan_.inOffset, first + j);
                    reduce_lanes(j, reduced, buffers, [&](int64_t begin, int64_t count) {
                        return load(plan_.reduced, base, begin, count);
                    });
                }
            }
        });
    }

    /// results[j] = the combine of one output's reduced elements over
    /// `reduced` (with its index in indices[j], for ArgMax), each chunk's
    /// lanes at load(begin, count).
    template <class V, class Load>
    void reduce_lanes(int64_t j, Range reduced, BlockBuffers<V>& buffers, const Load& load) const {
        const ReduceCombine c = plan_.spec.combine;
        if (is_arg()) {
            // One candidate, in index order: ties keep the first index.
            for (int64_t begin = reduced.begin; begin < reduced.end; begin += kChunk) {
                const int64_t count = std::min(kChunk, reduced.end - begin);
                const V* values = load(begin, count);
                if (begin == reduced.begin) {
                    buffers.results[j] = values[0];
                    buffers.indices[j] = begin;
                }
                for (int64_t i = 0; i < count; ++i) take(buffers, j, values[i], begin + i);
            }
            return;
        }
        V lanes[kReductionLanes];
        std::fill_n(lanes, kReductionLanes, identity<V>(c));
        for (int64_t begin = reduced.begin; begin < reduced.end; begin += kChunk) {
            const int64_t count = std::min(kChunk, reduced.end - begin);
            const V* values = load(begin, count);
            if constexpr (std::is_same_v<V, float>) {
                HWY_DYNAMIC_DISPATCH(fold_lanes_on_target)(c, values, count, lanes);
            } else {
                for (int64_t i = 0; i < count; ++i) {
                    lanes[i % kReductionLanes] = combine(c, lanes[i % kReductionLanes], values[i]);
                }
            }
        }
        buffers.results[j] = fold_tree(c, lanes);
    }

    /// results[0, n) = the combine, in reduced-index order, of the rows of
    /// lanes at load(reducedPosition).
    template <class V, class Load>
    void reduce_rows(int64_t n, Range reduced, BlockBuffers<V>& buffers, const Load& load) const {
        const ReduceCombine c = plan_.spec.combine;
        if (is_arg()) {
            int64_t index = reduced.begin;
            plan_.reduced.for_each(plan_.inOffset, reduced.begin, reduced.size(), [&](int64_t reducedPosition) {
                const V* values = load(reducedPosition);
                if (index == reduced.begin) {
                    std::copy_n(values, n, buffers.results);
                    std::fill_n(buffers.indices, n, index);
                }
                for (int64_t j = 0; j < n; ++j) take(buffers, j, values[j], index);
                ++index;
            });
            return;
        }
        std::fill_n(buffers.results, n, identity<V>(c));
        plan_.reduced.for_each(plan_.inOffset, reduced.begin, reduced.size(), [&](int64_t reducedPosition) {
            const V* values = load(reducedPosition);
            if constexpr (std::is_same_v<V, float>) {
                HWY_DYNAMIC_DISPATCH(fold_row_on_target)(c, buffers.results, values, n);
            } else {
                for (int64_t j = 0; j < n; ++j) buffers.results[j] = combine(c, buffers.results[j], values[j]);
            }
        });
    }

    /// Outputs first .. first + n - 1 finished (finish) and cast into out
    /// (an ArgMax's indices into outputs[0], its values into outputs[1]
    /// when asked for).
    template <class V>
    void store(BlockBuffers<V>& buffers, void* const* outputs, int64_t first, int64_t n) const {
        if (is_arg()) {
            for (int64_t j = 0; j < n; ++j) buffers.indices[j] = round_lane(plan_.spec.indexDtype, buffers.indices[j]);
            store_lanes(buffers.indices, plan_.out, outputs[0], first, n);
            if (plan_.withValues) store_lanes(buffers.results, plan_.values, outputs[1], first, n);
            return;
        }
        for (int64_t j = 0; j < n; ++j) buffers.results[j] = finish(plan_.spec, buffers.results[j], plan_.reduced.numel);
        store_lanes(buffers.results, plan_.out, outputs[0], first, n);
    }

    const char* name_;
    ReductionPlan plan_;
};

}  // namespace

namespace {

/// The workspace of a split reduction (none otherwise): each block's
/// partials, and ArgMax's indices of them (int64).
uint64_t partials_bytes(const ReductionPlan& plan) {
    const int64_t splits = plan.reducedBlocks.count();
    const bool arg = plan.spec.combine == ReduceCombine::argmax || plan.spec.combine == ReduceCombine::argmin;
    const int64_t partialBytes = lane_bytes(plan.spec.castDtype) + (arg ? 8 : 0);
    return splits == 1 ? 0 : static_cast<uint64_t>(splits * plan.kept.numel * partialBytes);
}

}  // namespace

std::shared_ptr<const OpKernel> plan_reduction_kernel(const char* api, const ReductionSpec& spec,
                                                      const TensorView& in, uint32_t mask, const TensorView& out,
                                                      uint64_t* workspaceBytes) noexcept {
    try {
        const ReductionPlan plan = plan_of(spec, in, mask, out);
        *workspaceBytes = partials_bytes(plan);
        return std::allocate_shared<ReductionKernel>(HandoverAllocator<ReductionKernel>(), api, plan);
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

aclnnStatus hand_back_reduction(const char* api, const ReductionSpec& spec, const aclTensor* self, uint32_t mask,
                                const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor,
                                const aclTensor* values) {
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{self, "self"}, {out, "out"}}));
    if (values != nullptr) ACLCPU_RETURN_IF_ERROR(check_view_in_storage(values, "values"));
    ReductionPlan plan = plan_of(spec, view_of(self), mask, view_of(out));
    if (values != nullptr) {
        plan.withValues = true;
        plan.values = StridedLayout::of(without_unit_dims(view_of(values)));
    }
    const uint64_t workspace = partials_bytes(plan);
    if (values != nullptr) {
        return hand_back_kernel<ReductionKernel>({self}, {out, values}, workspace, workspaceSize, executor, api, plan);
    }
    return hand_back_kernel<ReductionKernel>({self}, {out}, workspace, workspaceSize, executor, api, plan);
}

namespace {
// ---- the scan -------------------------------------------------------------

/// The lines of a scan: self's and out's along dim.
struct ScanPlan {
    ScanSpec spec;
    aclDataType inDtype = ACL_FLOAT;
    aclDataType outDtype = ACL_FLOAT;
    LinesAlongDim lines;
    BlockSplit blocks;
};

class ScanKernel final : public OpKernel {
public:
    ScanKernel(const char* name, const ScanPlan& plan) noexcept : name_(name), plan_(plan) {}
    const char* name() const noexcept override { return name_; }
    void describe(std::string& details) const override {
        append_trace_arg(details, "blockDim", plan_.blocks.count());
    }

    aclError launch(const LaunchArgs& args) const noexcept override {
        if (aclError status = check_tensor_addresses(name_, args, 1, 1); status != ACL_SUCCESS) return status;
        return visit_lane_type(plan_.spec.castDtype, [&](auto lane) { return run<decltype(lane)>(args); });
    }

private:
    template <class V>
    aclError run(const LaunchArgs& args) const noexcept {
        const UbStaging staging = UbStaging::per_worker(sizeof(BlockBuffers<V>));
        const int64_t bytesMoved =
            plan_.lines.count * plan_.lines.length * (element_size(plan_.inDtype) + element_size(plan_.outDtype));
        return launch_blocks(name_, plan_.blocks.count(), bytesMoved, [&](int64_t blockIdx) {
            auto* buffers = reinterpret_cast<BlockBuffers<V>*>(staging.for_block(blockIdx));
            const Range lines = plan_.blocks.block(blockIdx);
            for (int64_t line = lines.begin; line < lines.end; ++line) {
                scan_line(args.inputs[0], args.outputs[0], line, *buffers);
            }
        });
    }

    /// One line, chunk by chunk in scan order (backwards when reverse).
    template <class V>
    void scan_line(const void* in, void* out, int64_t line, BlockBuffers<V>& buffers) const {
        const LinesAlongDim& lines = plan_.lines;
        const std::array<int64_t, 2> start = lines.starts(line);
        const int64_t last = lines.length - 1;
        // Element k of the scan order is at first + k * step.
        const int64_t inFirst = plan_.spec.reverse ? start[0] + last * lines.steps[0] : start[0];
        const int64_t outFirst = plan_.spec.reverse ? start[1] + last * lines.steps[1] : start[1];
        const int64_t inStep = plan_.spec.reverse ? -lines.steps[0] : lines.steps[0];
        const int64_t outStep = plan_.spec.reverse ? -lines.steps[1] : lines.steps[1];
        V acc = V(0);
        for (int64_t k = 0; k < lines.length; k += kChunk) {
            const int64_t n = std::min(kChunk, lines.length - k);
            visit_element(plan_.inDtype, [&](auto tag) {
                const auto* elements = static_cast<const decltype(tag)*>(in);
                for (int64_t j = 0; j < n; ++j) {
                    buffers.values[j] = load_element<V>(elements[inFirst + (k + j) * inStep], plan_.spec.castDtype);
                }
            });
            for (int64_t j = 0; j < n; ++j) {
                const V x = buffers.values[j];
                if (plan_.spec.exclusive) buffers.results[j] = acc;
                acc = combine(ReduceCombine::sum, acc, x);
                if (!plan_.spec.exclusive) buffers.results[j] = acc;
                buffers.results[j] = round_lane(plan_.spec.castDtype, buffers.results[j]);
            }
            visit_element(plan_.outDtype, [&](auto tag) {
                using T = decltype(tag);
                auto* target = static_cast<T*>(out);
                for (int64_t j = 0; j < n; ++j) {
                    target[outFirst + (k + j) * outStep] = cast_element<T>(buffers.results[j]);
                }
            });
        }
    }

    const char* name_;
    ScanPlan plan_;
};

}  // namespace

aclnnStatus hand_back_scan(const char* api, const ScanSpec& spec, const aclTensor* self, int64_t dim,
                           const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{self, "self"}, {out, "out"}}));
    const TensorView& in = view_of(self);
    const TensorView& to = view_of(out);
    ScanPlan plan;
    plan.spec = spec;
    plan.inDtype = in.dtype;
    plan.outDtype = to.dtype;
    plan.lines = LinesAlongDim::of(in, to, dim);
    plan.blocks = BlockSplit::by_factor(plan.lines.count, soc_profile().vectorCoreCount, 1, plan.lines.length);
    return hand_back_kernel<ScanKernel>({self}, {out}, 0, workspaceSize, executor, api, plan);
}

}  // namespace aclcpu::ops
#endif  // HWY_ONCE
