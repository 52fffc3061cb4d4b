// The "not yet" answer: an aclnn entry point that acl-cpu declares but no
// operator defines links, fails with ACLNN_ERR_INNER_OPP_KERNEL_PKG_NOT_FOUND
// (561112, CANN's code for an operator without a kernel binary: opbase
// src/nnopbase/composite_op/aclnn_engine/op_kernel.h, OpKernel::GetWorkspace)
// and names itself in aclGetRecentErrMsg, in both phases; phase 1 leaves no
// executor.  One entry point per operator library (the ones below belong to
// later issues; when one gets its operator, pick another not-yet one).
#include <string>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_recurrent_gated_delta_rule.h"
#include "aclnnop/aclnn_ger.h"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

constexpr aclnnStatus kNotYet = ACLNN_ERR_INNER_OPP_KERNEL_PKG_NOT_FOUND;

/// The call just made failed with kNotYet and a message naming api and op.
void expect_not_yet(aclnnStatus status, const std::string& api, const std::string& op) {
    EXPECT_EQ(status, kNotYet);
    const std::string message = aclGetRecentErrMsg();
    EXPECT_NE(message.find(api), std::string::npos) << message;
    EXPECT_NE(message.find("Op " + op + " "), std::string::npos) << message;
}

class NotYet : public AclTest {
protected:
    /// Phase 1 of a not-yet operator through phase1(&workspaceSize,
    /// &executor): kNotYet, named, and *executor set to null; then phase 2
    /// given that executor: kNotYet too, named.
    template <class Phase1>
    void expect_both_phases_not_yet(const Phase1& phase1, Phase2 phase2, const std::string& op) {
        uint64_t workspaceSize = 0;
        auto* executor = reinterpret_cast<aclOpExecutor*>(&workspaceSize);  // any non-null value
        expect_not_yet(phase1(&workspaceSize, &executor), "aclnn" + op + "GetWorkspaceSize", op);
        EXPECT_EQ(executor, nullptr);
        expect_not_yet(phase2(nullptr, 0, executor, stream_), "aclnn" + op, op);
    }
};

TEST_F(NotYet, AnOpapiNnOperatorFailsInBothPhases) {
    NullAddressTensor self({4, 1, 2}), weight({3, 2, 2}), output({2, 1, 2});
    expect_both_phases_not_yet(
        [&](uint64_t* workspaceSize, aclOpExecutor** executor) {
            return aclnnConvTbcGetWorkspaceSize(self.get(), weight.get(), nullptr, 0, output.get(), 0, workspaceSize,
                                                executor);
        },
        aclnnConvTbc, "ConvTbc");
}

TEST_F(NotYet, AnOpapiMathOperatorFailsInBothPhases) {
    NullAddressTensor self({2}), vec2({3}), out({2, 3});
    expect_both_phases_not_yet(
        [&](uint64_t* workspaceSize, aclOpExecutor** executor) {
            return aclnnGerGetWorkspaceSize(self.get(), vec2.get(), out.get(), workspaceSize, executor);
        },
        aclnnGer, "Ger");
}

TEST_F(NotYet, AnOpapiTransformerOperatorFailsInBothPhases) {
    NullAddressTensor query({1, 1, 1, 8}), out({1, 1, 1, 8});
    expect_both_phases_not_yet(
        [&](uint64_t* workspaceSize, aclOpExecutor** executor) {
            return aclnnRecurrentGatedDeltaRuleGetWorkspaceSize(query.get(), query.get(), query.get(), nullptr,
                                                               nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                                               1.0f, out.get(), workspaceSize, executor);
        },
        aclnnRecurrentGatedDeltaRule, "RecurrentGatedDeltaRule");
}

// The not-yet definitions are weak: an operator's own definition replaces
// them, so aclnnAdd answers its own checks (a null self: 161001), not 561112.
TEST_F(NotYet, AnImplementedOperatorIsNotShadowed) {
    NullAddressTensor other({2}), out({2});
    const float one = 1.0f;
    aclScalar* alpha = aclCreateScalar(const_cast<float*>(&one), ACL_FLOAT);
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    expect_error(aclnnAddGetWorkspaceSize(nullptr, other.get(), alpha, out.get(), &workspaceSize, &executor),
                 ACLNN_ERR_PARAM_NULLPTR);
    aclDestroyScalar(alpha);
}

}  // namespace
