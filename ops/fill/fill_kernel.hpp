// acl-cpu: the kernel of the fill family (InplaceFillScalar, InplaceZero,
// Arange): a zero-input elementwise kernel that writes elements of a
// (possibly strided) view without reading one.  Element i of the view in
// row-major order receives either one constant, converted once into out's
// dtype in phase 1, or Arange's start + i * step computed as CANN's Range
// kernel computes it (fill_kernel.cpp).
#pragma once

#include "common/internal.hpp"

#include <cstdint>

#include "aclcpu/nnopbase.hpp"
#include "common/elementwise.hpp"
#include "common/phase1.hpp"
#include "common/scalar_value.hpp"
#include "common/strided_layout.hpp"

namespace aclcpu::ops {

/// What a launch writes into out's first `count` elements (row-major).
struct FillPlan {
    enum class Kind : uint8_t {
        constant,  ///< value, in out's dtype
        arange,    ///< start + i * step in computeDtype, then cast into out's dtype
    };
    Kind kind = Kind::constant;
    /// The lane type the values are computed in: out's dtype for a constant;
    /// FLOAT (FLOAT, FLOAT16, BF16 outs), DOUBLE or INT64 for Arange.
    aclDataType computeDtype = ACL_FLOAT;
    ComputeValue value;
    ComputeValue start;
    ComputeValue step;
    int64_t count = 0;
    StridedLayout out;
};

/// Immutable; launch() may run concurrently.
class FillKernel final : public TiledKernel {
public:
    FillKernel(const char* name, ElementwiseTiling tiling, const FillPlan& plan) noexcept
        : TiledKernel(name, tiling), plan_(plan) {}

    aclError launch(const LaunchArgs& args) const noexcept override;

private:
    FillPlan plan_;
};

/// Indices of an arange_float_run stay below this: they convert to fp32
/// through int32 lanes.
inline constexpr int64_t kArangeRunIndexLimit = int64_t{1} << 31;

/// Writes Range's elements first .. first + n - 1 computed in fp32 (the index
/// as a float times step, rounded, plus start: the Axpy of range_float.h) into
/// n dense elements at dst of dtype out, FLOAT, FLOAT16 or BF16, rounded once
/// to nearest even -- with streaming stores (streaming_stores.hpp; the caller
/// fences) when `streaming`.  Returns false, writing nothing, for another
/// dtype or indices outside [0, kArangeRunIndexLimit).
bool arange_float_run(float start, float step, int64_t first, int64_t n, aclDataType out, void* dst,
                      bool streaming) noexcept;

/// The end of phase 1 of a fill operator: an executor writing plan into
/// target (already checked to lie in its storage), declared with the
/// operator's inputs; CANN's empty executor when plan.count is 0.
aclnnStatus hand_back_fill(const char* api, const FillPlan& plan, TensorList inputs, const aclTensor* target,
                           uint64_t* workspaceSize, aclOpExecutor** executor);

}  // namespace aclcpu::ops
