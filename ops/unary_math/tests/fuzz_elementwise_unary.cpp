// Fuzzes phase 1 (and, for small tensors, phase 2) of the one-tensor
// elementwise operators -- the unary engine's families (unary math,
// activation, Clamp's scalar forms, Threshold) and its relatives that read
// or write one tensor's layout: Clamp's tensor forms, the gated activations
// (two views of one input; GeGlu's second output) and the fill family (no
// input at all).  One target for them all, the first byte picking the entry
// point.  After it, in this order (tests/fuzz/make_seeds.py's
// elementwise_unary_seeds() encodes the same):
//   the tensors   tests/fuzz/fuzz_elementwise.hpp's one + out grammar
//                 (out-of-place forms) or in-place one (selfRef; Arange's out);
//   bounds        the entry's extra input tensors (Clamp's tensor bounds;
//                 SwiGluGrad's yGrad);
//   outGelu       a second output tensor (GeGlu, GeGluV3);
//   scalars       the entry's scalars (Elu: alpha, scale, inputScale;
//                 LeakyRelu: negativeSlope; Softplus: beta, threshold;
//                 Threshold: threshold, value; Clamp: min, max;
//                 Fill: value; Arange: start, end, step);
//   integers      signed bytes (GeluV2: approximate; SwiGlu, SwiGluGrad: dim;
//                 GeGlu: dim, approximate);
//   activateLeft  a bit (GeGluV3).
#include <memory>

#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_geglu.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_hardswish.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_swi_glu.h"
#include "aclnnop/aclnn_swi_glu_grad.h"
#include "aclnnop/aclnn_tanh.h"
#include "aclnnop/aclnn_threshold.h"
#include "aclnnop/aclnn_zero.h"
#include "fuzz_elementwise.hpp"

namespace {

using Phase2 = aclcpu::fuzz::OperatorCall::Phase2;

/// The decoded arguments of one call; out is selfRef in the in-place forms.
struct Args {
    const aclTensor* self = nullptr;
    aclTensor* out = nullptr;
    const aclTensor* bounds[2] = {};
    aclTensor* outGelu = nullptr;
    const aclScalar* s[3] = {};
    int64_t ints[2] = {};
    bool activateLeft = false;
};
using Phase1 = aclnnStatus (*)(const Args& a, uint64_t* workspaceSize, aclOpExecutor** executor);

/// What an entry point decodes beyond its first tensors (see the file's comment).
struct Entry {
    const char* api;
    bool inplace;
    int bounds;
    bool outGelu;
    int scalars;
    int ints;
    bool activateLeft;
    Phase1 phase1;
    Phase2 phase2;
};

#define ACLCPU_ENTRY(op, isInplace, boundCount, hasOutGelu, scalarCount, intCount, hasFlag, ...)                  \
    {#op, isInplace, boundCount, hasOutGelu, scalarCount, intCount, hasFlag,                                       \
     [](const Args& a, uint64_t* workspaceSize, aclOpExecutor** executor) -> aclnnStatus {                        \
         return op##GetWorkspaceSize(__VA_ARGS__ workspaceSize, executor);                                        \
     },                                                                                                            \
     op}
/// A one-tensor entry without other arguments: self and out, or selfRef.
#define ACLCPU_UNARY(op) ACLCPU_ENTRY(op, false, 0, false, 0, 0, false, a.self, a.out, )
#define ACLCPU_INPLACE(op) ACLCPU_ENTRY(op, true, 0, false, 0, 0, false, a.out, )
constexpr Entry kEntries[] = {
    // The unary math family.
    ACLCPU_UNARY(aclnnAbs), ACLCPU_UNARY(aclnnNeg), ACLCPU_INPLACE(aclnnInplaceNeg), ACLCPU_UNARY(aclnnSign),
    ACLCPU_UNARY(aclnnExp), ACLCPU_INPLACE(aclnnInplaceExp), ACLCPU_UNARY(aclnnLog), ACLCPU_INPLACE(aclnnInplaceLog),
    ACLCPU_UNARY(aclnnSqrt), ACLCPU_INPLACE(aclnnInplaceSqrt), ACLCPU_UNARY(aclnnSin), ACLCPU_INPLACE(aclnnInplaceSin),
    ACLCPU_UNARY(aclnnCos), ACLCPU_INPLACE(aclnnInplaceCos), ACLCPU_UNARY(aclnnTanh),
    ACLCPU_INPLACE(aclnnInplaceTanh),
    // The activation family.
    ACLCPU_UNARY(aclnnRelu), ACLCPU_INPLACE(aclnnInplaceRelu), ACLCPU_UNARY(aclnnSigmoid),
    ACLCPU_INPLACE(aclnnInplaceSigmoid), ACLCPU_UNARY(aclnnHardsigmoid), ACLCPU_INPLACE(aclnnInplaceHardsigmoid),
    ACLCPU_UNARY(aclnnHardswish), ACLCPU_INPLACE(aclnnInplaceHardswish), ACLCPU_UNARY(aclnnSilu),
    ACLCPU_UNARY(aclnnGelu),
    ACLCPU_ENTRY(aclnnGeluV2, false, 0, false, 0, 1, false, a.self, a.ints[0], a.out, ),
    ACLCPU_ENTRY(aclnnElu, false, 0, false, 3, 0, false, a.self, a.s[0], a.s[1], a.s[2], a.out, ),
    ACLCPU_ENTRY(aclnnInplaceElu, true, 0, false, 3, 0, false, a.out, a.s[0], a.s[1], a.s[2], ),
    ACLCPU_ENTRY(aclnnLeakyRelu, false, 0, false, 1, 0, false, a.self, a.s[0], a.out, ),
    ACLCPU_ENTRY(aclnnInplaceLeakyRelu, true, 0, false, 1, 0, false, a.out, a.s[0], ),
    ACLCPU_ENTRY(aclnnSoftplus, false, 0, false, 2, 0, false, a.self, a.s[0], a.s[1], a.out, ),
    ACLCPU_ENTRY(aclnnThreshold, false, 0, false, 2, 0, false, a.self, a.s[0], a.s[1], a.out, ),
    ACLCPU_ENTRY(aclnnInplaceThreshold, true, 0, false, 2, 0, false, a.out, a.s[0], a.s[1], ),
    ACLCPU_ENTRY(aclnnSwiGlu, false, 0, false, 0, 1, false, a.self, a.ints[0], a.out, ),
    ACLCPU_ENTRY(aclnnGeGlu, false, 0, true, 0, 2, false, a.self, a.ints[0], a.ints[1], a.out, a.outGelu, ),
    ACLCPU_ENTRY(aclnnGeGluV3, false, 0, true, 0, 2, true, a.self, a.ints[0], a.ints[1], a.activateLeft, a.out,
                 a.outGelu, ),
    // The clamp family.
    ACLCPU_ENTRY(aclnnClamp, false, 0, false, 2, 0, false, a.self, a.s[0], a.s[1], a.out, ),
    ACLCPU_ENTRY(aclnnClampMin, false, 0, false, 1, 0, false, a.self, a.s[0], a.out, ),
    ACLCPU_ENTRY(aclnnClampMax, false, 0, false, 1, 0, false, a.self, a.s[0], a.out, ),
    ACLCPU_ENTRY(aclnnInplaceClampMax, true, 0, false, 1, 0, false, a.out, a.s[0], ),
    ACLCPU_ENTRY(aclnnClampTensor, false, 2, false, 0, 0, false, a.self, a.bounds[0], a.bounds[1], a.out, ),
    ACLCPU_ENTRY(aclnnClampMinTensor, false, 1, false, 0, 0, false, a.self, a.bounds[0], a.out, ),
    ACLCPU_ENTRY(aclnnInplaceClampMinTensor, true, 1, false, 0, 0, false, a.out, a.bounds[0], ),
    ACLCPU_ENTRY(aclnnClampMaxTensor, false, 1, false, 0, 0, false, a.self, a.bounds[0], a.out, ),
    ACLCPU_ENTRY(aclnnInplaceClampMaxTensor, true, 1, false, 0, 0, false, a.out, a.bounds[0], ),
    // The fill family.
    ACLCPU_ENTRY(aclnnInplaceFillScalar, true, 0, false, 1, 0, false, a.out, a.s[0], ),
    ACLCPU_INPLACE(aclnnInplaceZero),
    ACLCPU_ENTRY(aclnnArange, true, 0, false, 3, 0, false, a.s[0], a.s[1], a.s[2], a.out, ),
    // SwiGlu's gradient: its bound is yGrad.
    ACLCPU_ENTRY(aclnnSwiGluGrad, false, 1, false, 0, 1, false, a.bounds[0], a.self, a.ints[0], a.out, ),
};
#undef ACLCPU_UNARY
#undef ACLCPU_INPLACE
#undef ACLCPU_ENTRY

}  // namespace

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    using namespace elementwise;
    const Entry& entry = kEntries[in.byte() % (sizeof kEntries / sizeof kEntries[0])];
    Args a;
    if (entry.inplace) {
        a.out = inplace_one(in, call);
        a.self = a.out;
    } else {
        const Tensors t = one_and_out(in, call);
        a.self = t.self;
        a.out = t.out;
    }
    for (int i = 0; i < entry.bounds; ++i) a.bounds[i] = call.input(in.tensor());
    if (entry.outGelu) a.outGelu = call.output(in.tensor());
    std::unique_ptr<Scalar> scalars[3];
    for (int i = 0; i < entry.scalars; ++i) {
        scalars[i] = std::make_unique<Scalar>(in.scalar());
        a.s[i] = scalars[i]->get();
    }
    for (int i = 0; i < entry.ints; ++i) a.ints[i] = static_cast<int8_t>(in.byte());
    if (entry.activateLeft) a.activateLeft = in.bit();
    call.run(entry.api, in, [&](uint64_t* size, aclOpExecutor** executor) {
        return entry.phase1(a, size, executor);
    }, entry.phase2);
}
