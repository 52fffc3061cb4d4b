// What every operator of the unary engine (ops/common/unary.hpp) passes,
// whatever its arithmetic: the empty-tensor ending, the null arguments,
// shape and rank checks, and the fault of a null data address.  A family's
// tests list their operators' entry points and call these; they compare
// results through check_unary / check_unary_inplace, giving each element's
// double-precision reference.
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ops/op_test_support.hpp"

namespace optest {

/// The entry points of one operator, its scalars (if any) bound.
struct UnaryEntries {
    std::string name;
    std::function<aclnnStatus(const aclTensor*, aclTensor*, uint64_t*, aclOpExecutor**)> phase1;
    Phase2 phase2;
    /// The in-place form's phase 1 and 2; empty when the operator has none.
    std::function<aclnnStatus(aclTensor*, uint64_t*, aclOpExecutor**)> inplace;
    Phase2 inplacePhase2 = nullptr;
};

/// The operator of a family's table called name.
template <class Op>
const Op& op_named(const std::vector<Op>& operators, const std::string& name) {
    for (const Op& op : operators) {
        if (op.name == name) return op;
    }
    throw std::invalid_argument(name);
}

// ---------------------------------------------------------------------------
// Inputs and results.

/// The integer dtypes the unary operators list, and BOOL: whole-number inputs.
inline bool is_integer(aclDataType t) {
    return t == ACL_INT8 || t == ACL_INT16 || t == ACL_INT32 || t == ACL_INT64 || t == ACL_UINT8 || t == ACL_BOOL;
}

/// value as dtype holds it: both parts in COMPLEX64 (rounded) and
/// COMPLEX128, the real part alone in any other dtype.
inline Complex held_in(Complex value, aclDataType dtype) {
    if (dtype == ACL_COMPLEX64) return {static_cast<float>(value.real()), static_cast<float>(value.imag())};
    if (dtype == ACL_COMPLEX128) return value;
    return representable(value.real(), dtype);
}

/// n values in [low, high) for self's dtype (BOOL: 0 and 1, UINT8 from 0,
/// integers whole numbers), with an imaginary part in [-2, 2) when self is
/// complex; each as self holds it.
inline std::vector<Complex> unary_inputs(aclDataType self, double low, double high, size_t n, uint32_t seed) {
    if (self == ACL_BOOL) low = 0, high = 2;
    if (self == ACL_UINT8) low = std::max(low, 0.0);
    if (is_integer(self)) low = std::ceil(low), high = std::max(std::floor(high), low + 1);
    const std::vector<double> re = uniform(n, low, high, seed);
    const std::vector<double> im = uniform(n, -2, 2, seed + 1);
    const bool complex = self == ACL_COMPLEX64 || self == ACL_COMPLEX128;
    std::vector<Complex> values;
    for (size_t i = 0; i < n; ++i) {
        const double real = is_integer(self) ? std::floor(re[i]) : re[i];
        values.push_back(held_in(Complex(real, complex ? im[i] : 0), self));
    }
    return values;
}

/// The reference of one element: what out holds for self's value x.
using UnaryReference = std::function<Complex(Complex x)>;

/// Every element of out within tol of reference(values[i]) (both parts of a
/// complex out), and no byte outside out's view changed.
inline void expect_unary_results(const DeviceTensor& out, const std::vector<Complex>& values,
                                 const UnaryReference& reference, Tolerance tol) {
    const std::vector<Complex> actual = out.read_complex();
    ASSERT_EQ(actual.size(), values.size());
    const bool complexOut = out.dtype() == ACL_COMPLEX64 || out.dtype() == ACL_COMPLEX128;
    std::vector<double> got;
    std::vector<double> expected;
    for (size_t i = 0; i < values.size(); ++i) {
        const Complex want = reference(values[i]);
        got.push_back(actual[i].real());
        expected.push_back(want.real());
        if (complexOut) {
            got.push_back(actual[i].imag());
            expected.push_back(want.imag());
        }
    }
    expect_close(got, expected, tol);
    EXPECT_EQ(out.bytes_changed_outside_view(), 0u);
}

/// op's out-of-place form on self into out (both phases, synchronised);
/// *workspace (optional) receives phase 1's size.
inline aclnnStatus run_unary(const UnaryEntries& op, const DeviceTensor& self, DeviceTensor& out, aclrtStream stream,
                             uint64_t* workspace = nullptr) {
    return run_two_phases(
        [&](uint64_t* size, aclOpExecutor** executor) { return op.phase1(self.get(), out.get(), size, executor); },
        op.phase2, stream, workspace);
}

/// op on values laid out as selfSpec into a fresh out of outSpec: success,
/// no workspace, and expect_unary_results.
inline void check_unary(const UnaryEntries& op, aclrtStream stream, const TensorSpec& selfSpec,
                        const TensorSpec& outSpec, const std::vector<Complex>& values,
                        const UnaryReference& reference, Tolerance tol) {
    SCOPED_TRACE(op.name + " " + std::to_string(selfSpec.dtype) + " -> " + std::to_string(outSpec.dtype));
    DeviceTensor self(selfSpec);
    self.write_complex(values);
    auto out = DeviceTensor::output(outSpec);
    uint64_t workspace = 1;
    ASSERT_EQ(run_unary(op, self, *out, stream, &workspace), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(workspace, 0u);
    expect_unary_results(*out, values, reference, tol);
}

/// op's in-place form on values laid out as spec: success, and
/// expect_unary_results over selfRef.
inline void check_unary_inplace(const UnaryEntries& op, aclrtStream stream, const TensorSpec& spec,
                                const std::vector<Complex>& values, const UnaryReference& reference,
                                Tolerance tol) {
    SCOPED_TRACE(op.name + " " + std::to_string(spec.dtype));
    DeviceTensor selfRef(spec);
    selfRef.write_complex(values);
    ASSERT_EQ(run_two_phases([&](uint64_t* size,
                                 aclOpExecutor** executor) { return op.inplace(selfRef.get(), size, executor); },
                             op.inplacePhase2, stream, nullptr),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    expect_unary_results(selfRef, values, reference, tol);
}

/// op's phase 1 alone on self and out (phase1_only), for the error paths.
inline aclnnStatus unary_phase1(const UnaryEntries& op, const aclTensor* self, aclTensor* out) {
    return phase1_only([&](uint64_t* size, aclOpExecutor** executor) { return op.phase1(self, out, size, executor); });
}

// ---------------------------------------------------------------------------
// A family's fixture over its table of operators.

/// True when op lists dtype among its self dtypes.
template <class Op>
bool lists(const Op& op, aclDataType dtype) {
    return std::find(op.dtypes.begin(), op.dtypes.end(), dtype) != op.dtypes.end();
}

/// The fixture of a family's table of operators.  The family's operator type
/// (a UnaryEntries with `dtypes`, the self dtypes CANN lists) comes with
/// these free functions beside it, found by argument-dependent lookup:
/// out_dtype(op, self) the out dtype a listed self is tested with;
/// inputs(op, self, n, seed) n values of self's dtype; reference_into(op,
/// self, out) what out holds for each value; tolerance_into(op, self, out).
class UnaryFamilyTest : public AclTest {
protected:
    /// Runs op on values laid out as selfSpec into out (outSpec) and checks
    /// every element of out, and that nothing outside out's view changed.
    template <class Op>
    void check(const Op& op, const TensorSpec& selfSpec, const TensorSpec& outSpec,
               const std::vector<Complex>& values) {
        check_unary(op, stream_, selfSpec, outSpec, values, reference_into(op, selfSpec.dtype, outSpec.dtype),
                    tolerance_into(op, selfSpec.dtype, outSpec.dtype));
    }

    /// Every operator on every dtype it lists.
    template <class Op>
    void check_every_listed_dtype(const std::vector<Op>& operators) {
        for (const Op& op : operators) {
            for (aclDataType dtype : op.dtypes) {
                check(op, TensorSpec({3, 70}, dtype), TensorSpec({3, 70}, out_dtype(op, dtype)),
                      inputs(op, dtype, 210, 7));
            }
        }
    }

    /// A transposed self at an offset into a larger storage, into an out with
    /// gaps between its rows: FLOAT, FLOAT16, DOUBLE and the last listed
    /// dtype, each that op lists.
    template <class Op>
    void check_strided_and_offset_views(const std::vector<Op>& operators) {
        for (const Op& op : operators) {
            for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, op.dtypes.back()}) {
                if (!lists(op, dtype)) continue;
                const TensorSpec selfSpec({40, 24}, dtype, {1, 41}, 3, {41 * 24 + 3});
                const TensorSpec outSpec({40, 24}, out_dtype(op, dtype), {30, 1}, 5, {30 * 40 + 5});
                check(op, selfSpec, outSpec, inputs(op, dtype, 960, 11));
            }
        }
    }
};

// ---------------------------------------------------------------------------
// The checks every unary operator passes.

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
