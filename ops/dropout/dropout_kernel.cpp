// acl-cpu: the dropout family's kernel (dropout_kernel.hpp).
#include "dropout/dropout_kernel.hpp"

#include <array>

#include "aclcpu/soc_profile.hpp"
#include "common/block_launch.hpp"
#include "common/dtype.hpp"

namespace aclcpu::ops {
namespace {

/// Elements an apply step stages (a multiple of 8: whole mask bytes).
constexpr int64_t kApplyChunk = 1024;
/// What a mask byte costs, in bytes moved, when slicing a launch: eight
/// uniform draws of Philox4x32-10 take about as long as moving this much.
constexpr int64_t kMaskByteCost = 64;

/// The mask byte of the next eight elements: bit b (least significant
/// first) is 1 when element b's draw is >= dropRatio.
uint8_t next_mask_byte(Philox4x32& generator, double dropRatio) noexcept {
    unsigned byte = 0;
    for (unsigned bit = 0; bit < 8; ++bit) byte |= unsigned{generator.next_unit() >= dropRatio} << bit;
    return static_cast<uint8_t>(byte);
}

/// Writes bytes [range.begin, range.end) of the mask: each slice starts its
/// own generator at its first element's counter, so a byte never depends
/// on which slice computes it.
void write_mask_bytes(const MaskPlan& plan, uint64_t seed, uint64_t offset, uint8_t* data, Range range) noexcept {
    Philox4x32 generator(seed, mask_counter(offset, 8 * static_cast<uint64_t>(range.begin)));
    for_each_run(plan.bytes, range.begin, range.size(), [&](int64_t position, int64_t length, int64_t stride, int64_t) {
        for (int64_t j = 0; j < length; ++j) {
            data[position + j * stride] = plan.random ? next_mask_byte(generator, plan.dropRatio) : plan.fill;
        }
    });
}

aclError write_mask(const char* name, const MaskPlan& plan, const LaunchArgs& args, uint8_t* data) noexcept {
    uint64_t seed = plan.seed.seed;
    uint64_t offset = plan.seed.offset;
    if (plan.seed.fromTensors) {
        seed = static_cast<uint64_t>(static_cast<const int64_t*>(args.inputs[0])[plan.seed.seedPosition]);
        offset += static_cast<uint64_t>(static_cast<const int64_t*>(args.inputs[1])[plan.seed.offsetPosition]);
    }
    const ElementwiseTiling tiling = tile_elementwise(plan.bytes.numel(), 1, ACL_UINT8, 1, soc_profile());
    return launch_block_slices(name, tiling.blocks, kMaskByteCost, 1, [&](const BlockSlice& slice) {
        write_mask_bytes(plan, seed, offset, data, slice.units);
    });
}

/// Elements [begin, begin + count) of self through the mask into out.
void apply_chunk(const ApplyPlan& plan, const void* self, const void* mask, void* out, int64_t begin,
                 int64_t count) noexcept {
    std::array<float, kApplyChunk> values{};
    if (plan.kind != ApplyPlan::Kind::zeros) gather(plan.self, self, begin, count, values.data());
    if (plan.kind == ApplyPlan::Kind::scale) {
        std::array<float, kApplyChunk / 8 + 1> bytes{};
        const int64_t firstByte = begin / 8;
        gather(plan.mask, mask, firstByte, (begin + count - 1) / 8 - firstByte + 1, bytes.data());
        visit_compute_dtype(plan.self.dtype(), [&](auto element) {
            using T = decltype(element);
            for (int64_t j = 0; j < count; ++j) {
                const int64_t i = begin + j;
                const bool keep = (static_cast<unsigned>(bytes[i / 8 - firstByte]) >> (i % 8)) & 1u;
                // The product rounds into self's dtype, as the kernel's own output does, before any cast.
                values[j] = keep ? cast_to_float(cast_from_float<T>(values[j] * plan.scale)) : 0.0f;
            }
        });
    }
    scatter(values.data(), plan.out, out, begin, count);
}

aclError apply_mask(const char* name, const ApplyPlan& plan, const void* self, const void* mask, void* out) noexcept {
    const int64_t numel = plan.out.numel();
    const ElementwiseTiling tiling = tile_elementwise(numel, 3, plan.self.dtype(), 4, soc_profile());
    const int64_t bytesPerElement = element_size(plan.self.dtype()) + element_size(plan.out.dtype());
    return launch_block_slices(name, tiling.blocks, bytesPerElement, kApplyChunk, [&](const BlockSlice& slice) {
        for (int64_t begin = slice.units.begin; begin < slice.units.end; begin += kApplyChunk) {
            apply_chunk(plan, self, mask, out, begin, std::min(kApplyChunk, slice.units.end - begin));
        }
    });
}

}  // namespace

aclError DropoutKernel::launch(const LaunchArgs& args) const noexcept {
    // Inputs: the seed and offset tensors, or self then a mask read (not written) here.
    const bool readsMaskInput = apply_ && apply_->kind == ApplyPlan::Kind::scale && !mask_;
    const size_t inputs = (mask_ && mask_->seed.fromTensors ? 2 : 0) + (apply_ ? 1 : 0) + (readsMaskInput ? 1 : 0);
    const size_t outputs = (apply_ ? 1 : 0) + (mask_ ? 1 : 0);
    if (aclError status = check_tensor_addresses(name_, args, inputs, outputs); status != ACL_SUCCESS) return status;
    void* maskOut = mask_ ? args.outputs[outputs - 1] : nullptr;
    if (mask_) {
        if (aclError status = write_mask(name_, *mask_, args, static_cast<uint8_t*>(maskOut)); status != ACL_SUCCESS) {
            return status;
        }
    }
    if (!apply_) return ACL_SUCCESS;
    return apply_mask(name_, *apply_, args.inputs[0], mask_ ? maskOut : args.inputs[1], args.outputs[0]);
}

aclnnStatus hand_back_dropout(const char* api, std::optional<MaskPlan> mask, std::optional<ApplyPlan> apply,
                              TensorList inputs, TensorList outputs, uint64_t* workspaceSize,
                              aclOpExecutor** executor) {
    return hand_back_kernel<DropoutKernel>(inputs, outputs, 0, workspaceSize, executor, api, std::move(mask),
                                           std::move(apply));
}

}  // namespace aclcpu::ops
