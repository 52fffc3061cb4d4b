// Fuzzes phase 1 (and, for small tensors, phase 2) of the unary engine
// through every entry point of the activation family: the first byte picks
// the entry point, then tests/fuzz/fuzz_elementwise.hpp's one + out
// (out-of-place forms) or in-place one grammar, then the entry's scalars
// (Elu: alpha, scale, inputScale; LeakyRelu: negativeSlope; Softplus: beta,
// threshold) and, for GeluV2, a byte read as a signed approximate.
#include <memory>

#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_hardswish.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_softplus.h"
#include "fuzz_elementwise.hpp"

namespace {

using Phase2 = aclcpu::fuzz::OperatorCall::Phase2;
/// An entry's phase 1 over the decoded arguments: out is selfRef in the in-place forms.
using Phase1 = aclnnStatus (*)(const aclTensor* self, aclTensor* out, const aclScalar* const* scalars,
                               int64_t approximate, uint64_t* workspaceSize, aclOpExecutor** executor);

struct Entry {
    const char* api;
    bool inplace;
    int scalars;
    bool approximate;
    Phase1 phase1;
    Phase2 phase2;
};

#define ACLCPU_ENTRY(op, isInplace, scalarCount, hasApproximate, ...)                                          \
    {#op, isInplace, scalarCount, hasApproximate,                                                               \
     [](const aclTensor* self, aclTensor* out, const aclScalar* const* s, int64_t approximate,                  \
        uint64_t* workspaceSize, aclOpExecutor** executor) -> aclnnStatus {                                    \
         (void)self, (void)out, (void)s, (void)approximate;                                                     \
         return op##GetWorkspaceSize(__VA_ARGS__, workspaceSize, executor);                                    \
     },                                                                                                         \
     op}
constexpr Entry kEntries[] = {
    ACLCPU_ENTRY(aclnnRelu, false, 0, false, self, out),
    ACLCPU_ENTRY(aclnnInplaceRelu, true, 0, false, out),
    ACLCPU_ENTRY(aclnnSigmoid, false, 0, false, self, out),
    ACLCPU_ENTRY(aclnnInplaceSigmoid, true, 0, false, out),
    ACLCPU_ENTRY(aclnnHardsigmoid, false, 0, false, self, out),
    ACLCPU_ENTRY(aclnnInplaceHardsigmoid, true, 0, false, out),
    ACLCPU_ENTRY(aclnnHardswish, false, 0, false, self, out),
    ACLCPU_ENTRY(aclnnInplaceHardswish, true, 0, false, out),
    ACLCPU_ENTRY(aclnnSilu, false, 0, false, self, out),
    ACLCPU_ENTRY(aclnnGelu, false, 0, false, self, out),
    ACLCPU_ENTRY(aclnnGeluV2, false, 0, true, self, approximate, out),
    ACLCPU_ENTRY(aclnnElu, false, 3, false, self, s[0], s[1], s[2], out),
    ACLCPU_ENTRY(aclnnInplaceElu, true, 3, false, out, s[0], s[1], s[2]),
    ACLCPU_ENTRY(aclnnLeakyRelu, false, 1, false, self, s[0], out),
    ACLCPU_ENTRY(aclnnInplaceLeakyRelu, true, 1, false, out, s[0]),
    ACLCPU_ENTRY(aclnnSoftplus, false, 2, false, self, s[0], s[1], out),
};
#undef ACLCPU_ENTRY

}  // namespace

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    using namespace elementwise;
    const Entry& entry = kEntries[in.byte() % (sizeof kEntries / sizeof kEntries[0])];
    Tensors t;
    if (entry.inplace) {
        t.out = inplace_one(in, call);
        t.self = t.out;
    } else {
        t = one_and_out(in, call);
    }
    std::unique_ptr<Scalar> scalars[3];
    const aclScalar* values[3] = {};
    for (int i = 0; i < entry.scalars; ++i) {
        scalars[i] = std::make_unique<Scalar>(in.scalar());
        values[i] = scalars[i]->get();
    }
    const int64_t approximate = entry.approximate ? static_cast<int8_t>(in.byte()) : 0;
    call.run(entry.api, in, [&](uint64_t* size, aclOpExecutor** executor) {
        return entry.phase1(t.self, t.out, values, approximate, size, executor);
    }, entry.phase2);
}
