// acl-cpu ops/common: the reduction engine -- one output element per kept
// index of the input, combining the input's elements over a set of reduced
// dims (ReduceSum, Mean, Amax, Amin, ...).  An operator is its checks plus a
// ReductionSpec; the engine plans and runs the rest.
//
// Phase 1 (plan_reduction) splits the input view into its kept dims (the
// output's index space, row-major) and its reduced dims (the reduction's
// index space, row-major), each with the input's strides, so any strided or
// offset view is read in place.  The order in which elements are combined
// is a function of the shapes alone -- never of the strides, the worker
// count or the SIMD target:
//   - when the input's innermost non-1 dim is reduced (a "lane" reduction,
//     e.g. a row sum), reduced element r of a block's range goes to lane
//     partial (r - rangeBegin) % kReductionLanes, each lane in index order,
//     then the lanes fold by a fixed pairwise tree;
//   - when it is kept (a "row" reduction over outer dims), each output
//     combines its elements in reduced-index order: whole rows of outputs
//     are combined into an accumulator row.
// The tiling is the AI Core's: with at least one output per vector core,
// blocks take ranges of outputs; with fewer, the reduced extent is split
// over up to vectorCoreCount / outputs blocks, each writing its partial to
// the workspace, and a combine step folds each output's partials in block
// order.
#pragma once

#include "common/internal.hpp"

#include <cstdint>
#include <memory>

#include "aclcpu/nnopbase.hpp"
#include "common/phase1.hpp"
#include "common/strided_layout.hpp"
#include "common/tiling.hpp"

namespace aclcpu::ops {

/// How a reduction combines two values.  Any/All are Max/Min over values
/// cast to BOOL (castDtype ACL_BOOL), as CANN's ReduceAny/ReduceAll are.
/// argmax (argmin) results in the index (in the reduced index space) of the
/// first largest (smallest) element, the first NaN beating any number.
enum class ReduceCombine : uint8_t { sum, max, min, prod, argmax, argmin };

/// Lp norms (LpNormV2's kernels, ops-nn norm/lp_norm_v2/op_kernel/arch35/
/// lp_norm_v2_dag.h): each element, in fp32, is mapped before the combine
/// and the result is mapped after it.
///   p0: sum(x != 0); p1: sum(|x|); p2: sqrt(sum(x * x));
///   inf: max(|x|); ninf: min(|x|); other: sum(|x| ^ p) ^ (1 / p).
/// An empty reduced extent (an empty self, Norm's FillScalar(0)) gives
/// every output the sum of nothing.
enum class LpNorm : uint8_t { none, p0, p1, p2, inf, ninf, other };

/// Lane partials of a lane reduction; fixed, so that every SIMD target
/// combines in the same order.
inline constexpr int64_t kReductionLanes = 16;

/// What an operator asks of the engine.
struct ReductionSpec {
    ReduceCombine combine = ReduceCombine::sum;
    /// Each input element is cast to castDtype first (CANN's Cast before the
    /// reduce kernel); the kernel accumulates in its lane type (fp32 for
    /// FLOAT/FLOAT16/BF16, double, complex, int64 for integers and BOOL,
    /// wrapping) and rounds the result to castDtype, then casts into out.
    aclDataType castDtype = ACL_FLOAT;
    /// Divide by the reduced element count (Mean: a multiplication by its
    /// fp32 reciprocal in fp32, as ReduceMean's kernel; a division otherwise).
    bool mean = false;
    /// argmax: the dtype the kernel writes the index in (ArgMaxV2's INT32
    /// on A2) before the Cast into out.
    aclDataType indexDtype = ACL_INT32;
    /// A norm's element and result maps (castDtype FLOAT, combine sum, max
    /// or min as the norm says), with its order p.
    LpNorm norm = LpNorm::none;
    float p = 2.0f;
};

/// How an operator's op_api checks its dim list (CheckDimValid).
struct DimListRules {
    /// An empty list reduces every dim (otherwise none).
    bool emptyMeansAll = true;
    /// aclnn_mean.cpp's wording: "provided dim %ld must be in the range of
    /// [%ld, %ld]." for every dim first, then "provided dim %ld is
    /// repeated."; otherwise, dim by dim, "Provided dim %ld must be in the
    /// range of [%ld, %ld]." and "Dim %lu appears multiple times in the list
    /// of dims.".
    bool meanWording = false;
    /// aclnn_amax.cpp / aclnn_amin.cpp: a reduced dim of size 0 (of a
    /// non-0-d input) -> "Expected reducution dim %lu to have non-zero size.".
    bool nonEmptyReducedDims = false;
};

/// The reduced dims of shape as a bit mask, from CANN's dim list (negative
/// dims wrap; a 0-d input takes dims in [-1, 0] and has none to reduce).
/// Any violation of rules -> 161002 with CANN's message.
aclnnStatus reduced_dims_mask(const aclIntArray* dims, const Dims& shape, const DimListRules& rules, uint32_t* mask);

/// The output shape of reducing shape over mask: reduced dims dropped, or 1
/// with keepDim.
Dims reduced_shape(const Dims& shape, uint32_t mask, bool keepDim);

/// The end of phase 1 of a reduction of self (non-empty, checked in its
/// storage by the caller's checks) over the dims in mask into out (whose
/// numel is that of the reduced shape).  Checks out in its storage
/// (check_view_in_storage), plans, and hands back the executor and its
/// workspace size (the per-block partials of a split reduction).  An
/// argmax/argmin may also write the chosen values into `values` (of out's
/// shape; MaxDim, MinDim).
aclnnStatus hand_back_reduction(const char* api, const ReductionSpec& spec, const aclTensor* self, uint32_t mask,
                                const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor,
                                const aclTensor* values = nullptr);

/// The kernel hand_back_reduction plans, over views: for an operator that
/// computes the reduction's input itself first (MseLoss's squared
/// differences, into its workspace).  At launch, the kernel reads inputs[0]
/// (of `in`), writes outputs[0] (of `out`) and takes *workspaceBytes of
/// workspace (the partials of a split reduction, 0 otherwise).  Host
/// allocation failure -> nullptr.
std::shared_ptr<const OpKernel> plan_reduction_kernel(const char* api, const ReductionSpec& spec,
                                                      const TensorView& in, uint32_t mask, const TensorView& out,
                                                      uint64_t* workspaceBytes) noexcept;

/// A scan (Cumsum) along one dim: out[.., k, ..] = the sum of self's
/// elements 0..k (exclusive: 0..k-1; reverse: k..end) along dim, each cast
/// into castDtype first and accumulated as the reduction's lanes are (fp32
/// for FLOAT/FLOAT16/BF16, double, int64 wrapping, complex), every output
/// rounded once into castDtype and cast into out.  Each line along dim is
/// one sequential sum, so the result depends on the shapes only.
struct ScanSpec {
    aclDataType castDtype = ACL_FLOAT;
    bool exclusive = false;
    bool reverse = false;
};

/// The end of phase 1 of a scan of self (non-empty, of out's shape) along
/// dim (in [0, rank), or 0 for a 0-d self): checks both views in their
/// storage, then hands back the executor (no workspace).
aclnnStatus hand_back_scan(const char* api, const ScanSpec& spec, const aclTensor* self, int64_t dim,
                           const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);

}  // namespace aclcpu::ops
