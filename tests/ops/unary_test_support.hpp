// What every operator of the unary engine (ops/common/unary.hpp) passes,
// whatever its arithmetic: the empty-tensor ending, the null arguments,
// shape and rank checks, and the fault of a null data address.  A family's
// tests list their operators' entry points and call these.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ops/op_test_support.hpp"

namespace optest {

/// The entry points of one operator, its scalars (if any) bound.
struct UnaryEntries {
    std::string name;
    std::function<aclnnStatus(const aclTensor*, aclTensor*, uint64_t*, aclOpExecutor**)> phase1;
    Phase2 phase2;
    /// The in-place form's phase 1; empty when the operator has none.
    std::function<aclnnStatus(aclTensor*, uint64_t*, aclOpExecutor**)> inplace;
};

/// Empty tensors: success, workspace 0, nothing to run.
inline void expect_empty_tensors_need_no_work(const std::vector<UnaryEntries>& operators, aclrtStream stream) {
    for (const UnaryEntries& op : operators) {
        DeviceTensor self(TensorSpec({0, 4}, ACL_FLOAT));
        auto out = DeviceTensor::output(TensorSpec({0, 4}, ACL_FLOAT));
        uint64_t workspace = 1;
        EXPECT_EQ(run_two_phases([&](uint64_t* size,
                                     aclOpExecutor** executor) { return op.phase1(self.get(), out->get(), size, executor); },
                                 op.phase2, stream, &workspace),
                  ACLNN_SUCCESS)
            << op.name;
        EXPECT_EQ(workspace, 0u) << op.name;
    }
}

/// A null self, out, workspace size, executor or selfRef: 161001 with a message.
inline void expect_null_arguments_are_161001(const std::vector<UnaryEntries>& operators) {
    DeviceTensor tensor(TensorSpec({2, 2}, ACL_FLOAT));
    for (const UnaryEntries& op : operators) {
        SCOPED_TRACE(op.name);
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        expect_error(op.phase1(nullptr, tensor.get(), &workspace, &executor), ACLNN_ERR_PARAM_NULLPTR);
        expect_error(op.phase1(tensor.get(), nullptr, &workspace, &executor), ACLNN_ERR_PARAM_NULLPTR);
        expect_error(op.phase1(tensor.get(), tensor.get(), nullptr, &executor), ACLNN_ERR_PARAM_NULLPTR);
        expect_error(op.phase1(tensor.get(), tensor.get(), &workspace, nullptr), ACLNN_ERR_PARAM_NULLPTR);
        if (op.inplace) expect_error(op.inplace(nullptr, &workspace, &executor), ACLNN_ERR_PARAM_NULLPTR);
    }
}

/// self and out of different shapes, or of rank 9: 161002 with a message.
inline void expect_shape_and_rank_mismatches_are_161002(const std::vector<UnaryEntries>& operators) {
    DeviceTensor self(TensorSpec({2, 3}, ACL_FLOAT));
    DeviceTensor other(TensorSpec({3, 2}, ACL_FLOAT));
    const Shape nine(9, 1);
    DeviceTensor deep(TensorSpec(nine, ACL_FLOAT));
    DeviceTensor deepOut(TensorSpec(nine, ACL_FLOAT));
    for (const UnaryEntries& op : operators) {
        SCOPED_TRACE(op.name);
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        expect_error(op.phase1(self.get(), other.get(), &workspace, &executor), ACLNN_ERR_PARAM_INVALID);
        expect_error(op.phase1(deep.get(), deepOut.get(), &workspace, &executor), ACLNN_ERR_PARAM_INVALID);
    }
}

/// A self whose data address is null passes phase 1 and faults in phase 2,
/// writing nothing (expect_phase2_faults).
inline void expect_null_data_address_faults(const std::vector<UnaryEntries>& operators, aclrtStream stream) {
    NullAddressTensor self({4, 4});
    for (const UnaryEntries& op : operators) {
        SCOPED_TRACE(op.name);
        auto out = DeviceTensor::output(TensorSpec({4, 4}, ACL_FLOAT));
        expect_phase2_faults(
            [&](uint64_t* size, aclOpExecutor** executor) { return op.phase1(self.get(), out->get(), size, executor); },
            op.phase2, stream, {out.get()});
    }
}

}  // namespace optest
