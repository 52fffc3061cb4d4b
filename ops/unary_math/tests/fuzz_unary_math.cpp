// Fuzzes phase 1 (and, for small tensors, phase 2) of the unary engine
// through every entry point of the unary math family: the first byte picks
// the entry point, the rest is tests/fuzz/fuzz_elementwise.hpp's one + out
// (out-of-place forms) or in-place one grammar.
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_tanh.h"
#include "fuzz_elementwise.hpp"

namespace {

using Phase1 = aclnnStatus (*)(const aclTensor*, aclTensor*, uint64_t*, aclOpExecutor**);
using InplacePhase1 = aclnnStatus (*)(aclTensor*, uint64_t*, aclOpExecutor**);
using Phase2 = aclcpu::fuzz::OperatorCall::Phase2;

struct Entry {
    const char* api;
    Phase1 phase1;
    InplacePhase1 inplace;
    Phase2 phase2;
};

#define ACLCPU_UNARY_ENTRY(op) {#op, op##GetWorkspaceSize, nullptr, op}
#define ACLCPU_INPLACE_ENTRY(op) {#op, nullptr, op##GetWorkspaceSize, op}
constexpr Entry kEntries[] = {
    ACLCPU_UNARY_ENTRY(aclnnAbs),         ACLCPU_UNARY_ENTRY(aclnnNeg),          ACLCPU_INPLACE_ENTRY(aclnnInplaceNeg),
    ACLCPU_UNARY_ENTRY(aclnnSign),        ACLCPU_UNARY_ENTRY(aclnnExp),          ACLCPU_INPLACE_ENTRY(aclnnInplaceExp),
    ACLCPU_UNARY_ENTRY(aclnnLog),         ACLCPU_INPLACE_ENTRY(aclnnInplaceLog), ACLCPU_UNARY_ENTRY(aclnnSqrt),
    ACLCPU_INPLACE_ENTRY(aclnnInplaceSqrt), ACLCPU_UNARY_ENTRY(aclnnSin),        ACLCPU_INPLACE_ENTRY(aclnnInplaceSin),
    ACLCPU_UNARY_ENTRY(aclnnCos),         ACLCPU_INPLACE_ENTRY(aclnnInplaceCos), ACLCPU_UNARY_ENTRY(aclnnTanh),
    ACLCPU_INPLACE_ENTRY(aclnnInplaceTanh),
};
#undef ACLCPU_UNARY_ENTRY
#undef ACLCPU_INPLACE_ENTRY

}  // namespace

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    using namespace elementwise;
    const Entry& entry = kEntries[in.byte() % (sizeof kEntries / sizeof kEntries[0])];
    if (entry.inplace != nullptr) {
        aclTensor* selfRef = inplace_one(in, call);
        call.run(entry.api, in, [&](uint64_t* size, aclOpExecutor** executor) {
            return entry.inplace(selfRef, size, executor);
        }, entry.phase2);
        return;
    }
    const Tensors t = one_and_out(in, call);
    call.run(entry.api, in, [&](uint64_t* size, aclOpExecutor** executor) {
        return entry.phase1(t.self, t.out, size, executor);
    }, entry.phase2);
}
