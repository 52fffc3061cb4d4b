// acl-cpu: the fill family's kernel (fill_kernel.hpp).
#include "fill/fill_kernel.hpp"

#include <algorithm>
#include <type_traits>

#include "aclcpu/soc_profile.hpp"
#include "common/block_launch.hpp"
#include "common/phase1.hpp"
#include "common/streaming_stores.hpp"
#include "common/typed_lanes.hpp"

namespace aclcpu::ops {
namespace {

/// Range's element i in lane type V (op_kernel/arch35/range_float.h and
/// range_int.h): the float kernel turns the index into a float and computes
/// start + index * step with Axpy (the product rounded, then the sum);
/// DOUBLE and the integers compute in their own type, integers wrapping.
template <class V>
V arange_element(const FillPlan& plan, int64_t i) {
    if constexpr (std::is_same_v<V, int64_t>) {
        const auto product = static_cast<uint64_t>(i) * static_cast<uint64_t>(plan.step.integer);
        return static_cast<int64_t>(static_cast<uint64_t>(plan.start.integer) + product);
    } else {
        const V product = static_cast<V>(i) * lane_value<V>(plan.step);
        return lane_value<V>(plan.start) + product;
    }
}

}  // namespace

aclError FillKernel::launch(const LaunchArgs& args) const noexcept {
    if (aclError status = check_tensor_addresses(name_, args, 0, 1); status != ACL_SUCCESS) return status;
    const int64_t width = element_size(plan_.out.dtype());
    // A fill is a pure write: past the caches, streamed (streaming_stores.hpp).
    const bool streaming = plan_.count * width >= kStreamingOutputBytes;
    return visit_element(plan_.out.dtype(), [&](auto elementTag) {
        using T = decltype(elementTag);
        T* target = static_cast<T*>(args.outputs[0]);
        return visit_lane_type(plan_.computeDtype, [&](auto laneTag) {
            using V = decltype(laneTag);
            const T constant = cast_element<T>(lane_value<V>(plan_.value));
            const auto write_run = [&](T* run, int64_t length, int64_t stride, int64_t index) {
                if (plan_.kind == FillPlan::Kind::arange) {
                    if constexpr (std::is_same_v<V, float>) {
                        // Computed in FLOAT: rounding into out once is what the cast does.
                        if (stride == 1 && plan_.computeDtype == ACL_FLOAT &&
                            arange_float_run(lane_value<float>(plan_.start), lane_value<float>(plan_.step), index,
                                             length, plan_.out.dtype(), run, streams_run(streaming, 1, length * width))) {
                            return;
                        }
                    }
                    for (int64_t j = 0; j < length; ++j) {
                        run[j * stride] =
                            cast_element<T>(round_lane(plan_.computeDtype, arange_element<V>(plan_, index + j)));
                    }
                } else if (streams_run(streaming, stride, length * width)) {
                    stream_fill(run, &constant, sizeof(T), static_cast<size_t>(length));
                } else if (stride != 1) {
                    for (int64_t j = 0; j < length; ++j) run[j * stride] = constant;
                } else {
                    std::fill_n(run, length, constant);
                }
            };
            return launch_block_slices(
                name_, tiling_.blocks, width, tiling_.chunkElements, [&](const BlockSlice& slice) {
                    const int64_t begin = slice.units.begin;
                    for_each_run(plan_.out, begin, slice.units.end - begin,
                                 [&](int64_t position, int64_t length, int64_t stride, int64_t done) {
                                     write_run(target + position, length, stride, begin + done);
                                 });
                    if (streaming) stream_fence();
                });
        });
    });
}

aclnnStatus hand_back_fill(const char* api, const FillPlan& plan, TensorList inputs, const aclTensor* target,
                           uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (plan.count == 0) return hand_back_empty_executor(inputs, {target}, workspaceSize, executor);
    const ElementwiseTiling tiling =
        tile_elementwise(plan.count, 1, plan.out.dtype(), element_size(plan.out.dtype()), soc_profile());
    return hand_back_kernel<FillKernel>(inputs, {target}, 0, workspaceSize, executor, api, tiling, plan);
}

}  // namespace aclcpu::ops
