// acl-cpu: the dropout family's kernel -- writing a bit mask from
// Philox4x32-10 (GenMask, Dropout) and applying one (DoMask, Dropout,
// DropoutBackward).  README.md documents which counter and lane give element
// i's bit; a mask depends on nothing else, so every tiling and worker count
// gives the same bits.
#pragma once

#include "common/internal.hpp"

#include <cstdint>
#include <optional>

#include "aclcpu/philox.hpp"
#include "common/elementwise.hpp"
#include "common/phase1.hpp"
#include "common/strided_layout.hpp"

namespace aclcpu::ops {

/// Where the seed and the offset of a random mask come from.
struct MaskSeed {
    uint64_t seed = 0;
    uint64_t offset = 0;  ///< added to the offset tensor's element when there is one
    /// GenMaskV2Tensor: the seed is element seedPosition of input 0 and the
    /// offset element offsetPosition of input 1 plus `offset`, read when the
    /// kernel runs (both INT64).
    bool fromTensors = false;
    int64_t seedPosition = 0;
    int64_t offsetPosition = 0;
};

/// The bytes of a mask: bit b of byte j (least significant first) belongs
/// to element 8j + b and is 1 (keep) when that element's uniform draw is >=
/// dropRatio; or every byte the constant `fill` (0xFF for p == 0, 0 for
/// p == 1, as CANN fills them).
struct MaskPlan {
    bool random = true;
    uint8_t fill = 0;
    double dropRatio = 0;  ///< p rounded to the ratio's dtype (probDataType)
    MaskSeed seed;
    StridedLayout bytes;   ///< the mask tensor, UINT8, its bytes in row-major order
};

/// DoMask: out = self's element scaled by `scale` and rounded to self's
/// dtype where the mask bit is 1, else 0; or self copied (p == 0, !train),
/// or zeros (p == 1).  Then cast into out's dtype.
struct ApplyPlan {
    enum class Kind : uint8_t { scale, copy, zeros };
    Kind kind = Kind::scale;
    float scale = 1;
    StridedLayout self;
    StridedLayout mask;    ///< UINT8, at least ceil(numel / 8) bytes
    StridedLayout out;
};

/// One launch: a mask written (to the last output), then applied (self is
/// input 0, the mask input 1 -- or the mask just written -- and out
/// output 0).  Immutable; launch() may run concurrently.
class DropoutKernel final : public OpKernel {
public:
    DropoutKernel(const char* name, std::optional<MaskPlan> mask, std::optional<ApplyPlan> apply) noexcept
        : name_(name), mask_(std::move(mask)), apply_(std::move(apply)) {}

    const char* name() const noexcept override { return name_; }
    aclError launch(const LaunchArgs& args) const noexcept override;

private:
    const char* name_;
    std::optional<MaskPlan> mask_;
    std::optional<ApplyPlan> apply_;
};

/// The Philox counter where element `element`'s draw starts: offset in the
/// low 64 bits, plus one block per two elements (each draw takes two words).
inline Philox4x32::Counter mask_counter(uint64_t offset, uint64_t element) noexcept {
    return Philox4x32::advanced({static_cast<uint32_t>(offset), static_cast<uint32_t>(offset >> 32), 0, 0},
                                element / 2);
}

/// The end of phase 1: an executor running the kernel over inputs and outputs.
aclnnStatus hand_back_dropout(const char* api, std::optional<MaskPlan> mask, std::optional<ApplyPlan> apply,
                              TensorList inputs, TensorList outputs, uint64_t* workspaceSize,
                              aclOpExecutor** executor);

}  // namespace aclcpu::ops
