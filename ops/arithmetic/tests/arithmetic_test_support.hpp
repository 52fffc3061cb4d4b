// Shared support for the tests of the arithmetic family (Add, AddV3, Sub,
// Rsub, Mul, Div and their scalar, in-place and rounding forms).
//
// The references model what CANN's Atlas A2 graph does, as hicann/ops-math
// describes it: the API documents (math/{add,sub,mul,muls,div}/docs/*.md),
// the shared tables docs/zh/context/deduction_relationship.md (promotion)
// and conversion_relationship.md (casts), and where the documents are
// silent the op_api code (math/add/op_api/aclnn_add.cpp and its siblings):
// every operand is cast to the compute dtype, the operation runs there and
// each step rounds to it (integers wrap), and the result is cast to out.
// All of it is computed here in double (or std::complex<double>) from the
// values the device saw, never with the library's kernels:
//   expected = cast(in_dtype(op(cast(a, A, C), cast(b, B, C)), C), C, OUT).
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"

namespace arith {

using namespace optest;

// ---------------------------------------------------------------------------
// Dtypes.

/// The twelve dtypes of Add's A2 support list (math/add/docs/aclnnAdd&aclnnInplaceAdd.md);
/// Sub, Mul and Div list the same twelve, Rsub all but BOOL, AddV3 five of them.
inline const std::vector<aclDataType> kListedDtypes = {
    ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16,  ACL_INT8,      ACL_UINT8,
    ACL_INT16, ACL_INT32,   ACL_INT64,  ACL_BOOL, ACL_COMPLEX64, ACL_COMPLEX128,
};

/// CANN's tensor-tensor PromoteType over the twelve listed dtypes, transcribed
/// from table 1 of hicann/ops-math docs/zh/context/deduction_relationship.md
/// (ACL_DT_UNDEFINED for a dtype outside the twelve).
inline aclDataType promote(aclDataType a, aclDataType b) {
    constexpr aclDataType f32 = ACL_FLOAT, f16 = ACL_FLOAT16, f64 = ACL_DOUBLE, bf = ACL_BF16, s8 = ACL_INT8,
                          u8 = ACL_UINT8, s16 = ACL_INT16, s32 = ACL_INT32, s64 = ACL_INT64, b1 = ACL_BOOL,
                          c64 = ACL_COMPLEX64, c128 = ACL_COMPLEX128;
    // Rows and columns in the order of kListedDtypes.
    static const aclDataType table[12][12] = {
        /* f32  */ {f32, f32, f64, f32, f32, f32, f32, f32, f32, f32, c64, c128},
        /* f16  */ {f32, f16, f64, f32, f16, f16, f16, f16, f16, f16, c64, c128},
        /* f64  */ {f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, c128, c128},
        /* bf16 */ {f32, f32, f64, bf, bf, bf, bf, bf, bf, bf, c64, c128},
        /* s8   */ {f32, f16, f64, bf, s8, s16, s16, s32, s64, s8, c64, c128},
        /* u8   */ {f32, f16, f64, bf, s16, u8, s16, s32, s64, u8, c64, c128},
        /* s16  */ {f32, f16, f64, bf, s16, s16, s16, s32, s64, s16, c64, c128},
        /* s32  */ {f32, f16, f64, bf, s32, s32, s32, s32, s64, s32, c64, c128},
        /* s64  */ {f32, f16, f64, bf, s64, s64, s64, s64, s64, s64, c64, c128},
        /* bool */ {f32, f16, f64, bf, s8, u8, s16, s32, s64, b1, c64, c128},
        /* c64  */ {c64, c64, c128, c64, c64, c64, c64, c64, c64, c64, c64, c128},
        /* c128 */ {c128, c128, c128, c128, c128, c128, c128, c128, c128, c128, c128, c128},
    };
    const auto index = [](aclDataType t) {
        for (size_t i = 0; i < kListedDtypes.size(); ++i) {
            if (kListedDtypes[i] == t) return static_cast<int>(i);
        }
        return -1;
    };
    const int i = index(a), j = index(b);
    return i < 0 || j < 0 ? ACL_DT_UNDEFINED : table[i][j];
}

/// Rounds a quotient as aclnnDivMod's mode says
/// (math/div/docs/aclnnDivMod&aclnnInplaceDivMod.md): 0 as it is, 1 toward
/// zero, 2 down.  Complex quotients only take mode 0.
inline double round_quotient(double q, int mode) {
    return mode == 1 ? std::trunc(q) : mode == 2 ? std::floor(q) : q;
}
inline Complex round_quotient(Complex q, int /*mode*/) { return q; }

/// v as the arithmetic type T of a reference: a double keeps the real part.
/// Lets a generic reference use a scalar converted to the compute dtype.
template <class T>
T as(Complex v) {
    if constexpr (std::is_same_v<T, double>) {
        return v.real();
    } else {
        return v;
    }
}

inline double real_of(double v) { return v; }
inline double real_of(Complex v) { return v.real(); }

/// How CANN's A2 graph applies alpha in a +- alpha * b (math/add/op_api/aclnn_add.cpp,
/// math/sub/op_api/aclnn_sub.cpp, math/sub/op_api/aclnn_rsub.cpp): not at all
/// (alpha is 1), fused into Axpy (alpha a float attribute, the product not
/// rounded to the compute dtype), or as a separate Mul in the compute dtype
/// (alpha converted to it, the product rounded to it).
enum class AlphaStep { one, fused, separate };

/// alpha * b as that step computes it, b already in compute.
template <class T>
T scaled(T b, AlphaStep step, Complex alpha, aclDataType alphaDtype, aclDataType compute) {
    switch (step) {
        case AlphaStep::one: return b;
        case AlphaStep::fused: {
            const double alphaFloat = static_cast<float>(cast(alpha, alphaDtype, ACL_FLOAT).real());
            return as<T>(Complex(alphaFloat)) * b;
        }
        case AlphaStep::separate: break;
    }
    return in_dtype(as<T>(cast(alpha, alphaDtype, compute)) * b, compute);
}

/// The row-major index, into an operand of `shape`, that element i of
/// outShape reads when the operand is broadcast to outShape.
inline size_t broadcast_index(const Shape& shape, const Shape& outShape, int64_t i) {
    int64_t index = 0, stride = 1;
    const size_t lead = outShape.size() - shape.size();
    for (size_t d = outShape.size(); d-- > 0;) {
        const int64_t coordinate = i % outShape[d];
        i /= outShape[d];
        if (d < lead) continue;
        const int64_t size = shape[d - lead];
        index += (size == 1 ? 0 : coordinate) * stride;
        stride *= size;
    }
    return static_cast<size_t>(index);
}

/// A device tensor of spec holding values (real dtypes take the real parts).
inline std::unique_ptr<DeviceTensor> device_tensor(const TensorSpec& spec, const std::vector<Complex>& values) {
    auto tensor = std::make_unique<DeviceTensor>(spec);
    tensor->write_complex(values);
    return tensor;
}

/// Applies op as the device computes it (operands cast to compute, result
/// rounded to compute, then cast to outDtype), in complex arithmetic when
/// any dtype involved is complex and in real arithmetic otherwise (so that
/// x / 0 follows IEEE).
template <class Op>
Complex apply(const Op& op, Complex x, aclDataType xDtype, Complex y, aclDataType yDtype, aclDataType compute,
              aclDataType outDtype) {
    if (is_complex(xDtype) || is_complex(yDtype) || is_complex(compute) || is_complex(outDtype)) {
        const Complex r = in_dtype(Complex(op(cast(x, xDtype, compute), cast(y, yDtype, compute))), compute);
        return cast(r, compute, outDtype);
    }
    const double r =
        in_dtype(real_of(op(cast(x.real(), xDtype, compute), cast(y.real(), yDtype, compute))), compute);
    return {cast(r, compute, outDtype), 0.0};
}

/// One operand of a check: its view and its row-major values.
struct Input {
    TensorSpec spec;
    std::vector<Complex> values;
};

/// A launch of a tensor-tensor operator, both phases, synchronised.
using TensorLaunch =
    std::function<aclnnStatus(const DeviceTensor& self, const DeviceTensor& other, DeviceTensor& out, uint64_t* ws)>;
/// A launch of a tensor-scalar operator (the scalar is in the closure).
using ScalarLaunch = std::function<aclnnStatus(const DeviceTensor& self, DeviceTensor& out, uint64_t* ws)>;

/// Launches on self and other (values first rounded to their dtypes) into a
/// fresh out and expects success, no workspace (the family has none),
/// every element of out within tolerance_of(compute, out) of
/// apply(op, self_i, other_i) with both operands broadcast to out's shape,
/// and no byte written outside out's view.  op takes (and returns) double
/// or Complex: a generic lambda serves both.
template <class Op>
void check_tensors(const TensorLaunch& launch, Input self, Input other, const TensorSpec& outSpec,
                   aclDataType compute, const Op& op) {
    self.values = representable(self.values, self.spec.dtype);
    other.values = representable(other.values, other.spec.dtype);
    const auto a = device_tensor(self.spec, self.values);
    const auto b = device_tensor(other.spec, other.values);
    auto out = DeviceTensor::output(outSpec);
    uint64_t workspace = 1;
    ASSERT_EQ(launch(*a, *b, *out, &workspace), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(workspace, 0u);
    std::vector<Complex> expected;
    for (int64_t i = 0; i < numel(outSpec.shape); ++i) {
        expected.push_back(apply(op, self.values[broadcast_index(self.spec.shape, outSpec.shape, i)], self.spec.dtype,
                                 other.values[broadcast_index(other.spec.shape, outSpec.shape, i)],
                                 other.spec.dtype, compute, outSpec.dtype));
    }
    expect_close(out->read_complex(), expected, tolerance_of(compute, outSpec.dtype));
    EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
}

/// check_tensors for a tensor-scalar operator: op(x) takes self's value
/// already cast to compute (the test converts the scalar into compute, as
/// CANN's graph does, inside op).
template <class Op>
void check_scalar(const ScalarLaunch& launch, Input self, const TensorSpec& outSpec, aclDataType compute,
                  const Op& op) {
    self.values = representable(self.values, self.spec.dtype);
    const auto a = device_tensor(self.spec, self.values);
    auto out = DeviceTensor::output(outSpec);
    uint64_t workspace = 1;
    ASSERT_EQ(launch(*a, *out, &workspace), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(workspace, 0u);
    std::vector<Complex> expected;
    for (int64_t i = 0; i < numel(outSpec.shape); ++i) {
        const auto unary = [&](auto x, auto /*unused*/) { return op(x); };
        expected.push_back(
            apply(unary, self.values[static_cast<size_t>(i)], self.spec.dtype, Complex(0), ACL_BOOL, compute,
                  outSpec.dtype));
    }
    expect_close(out->read_complex(), expected, tolerance_of(compute, outSpec.dtype));
    EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
}

/// An in-place launch: selfRef is read and written.
using InplaceLaunch = std::function<aclnnStatus(const DeviceTensor& selfRef, const DeviceTensor& other, uint64_t* ws)>;
using InplaceScalarLaunch = std::function<aclnnStatus(const DeviceTensor& selfRef, uint64_t* ws)>;

/// check_tensors for an in-place operator: selfRef (which has the broadcast
/// shape) receives op(selfRef, other) in its own dtype, and nothing outside
/// its view changes.
template <class Op>
void check_inplace(const InplaceLaunch& launch, Input self, Input other, aclDataType compute, const Op& op) {
    self.values = representable(self.values, self.spec.dtype);
    other.values = representable(other.values, other.spec.dtype);
    const auto a = device_tensor(self.spec, self.values);
    const auto b = device_tensor(other.spec, other.values);
    uint64_t workspace = 1;
    ASSERT_EQ(launch(*a, *b, &workspace), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(workspace, 0u);
    std::vector<Complex> expected;
    for (int64_t i = 0; i < numel(self.spec.shape); ++i) {
        expected.push_back(apply(op, self.values[static_cast<size_t>(i)], self.spec.dtype,
                                 other.values[broadcast_index(other.spec.shape, self.spec.shape, i)],
                                 other.spec.dtype, compute, self.spec.dtype));
    }
    expect_close(a->read_complex(), expected, tolerance_of(compute, self.spec.dtype));
    EXPECT_EQ(a->bytes_changed_outside_view(), 0u);
    EXPECT_EQ(b->bytes_changed_outside_view(), 0u);
}

template <class Op>
void check_inplace_scalar(const InplaceScalarLaunch& launch, Input self, aclDataType compute, const Op& op) {
    self.values = representable(self.values, self.spec.dtype);
    const auto a = device_tensor(self.spec, self.values);
    uint64_t workspace = 1;
    ASSERT_EQ(launch(*a, &workspace), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(workspace, 0u);
    std::vector<Complex> expected;
    for (int64_t i = 0; i < numel(self.spec.shape); ++i) {
        const auto unary = [&](auto x, auto /*unused*/) { return op(x); };
        expected.push_back(apply(unary, self.values[static_cast<size_t>(i)], self.spec.dtype, Complex(0), ACL_BOOL,
                                 compute, self.spec.dtype));
    }
    expect_close(a->read_complex(), expected, tolerance_of(compute, self.spec.dtype));
    EXPECT_EQ(a->bytes_changed_outside_view(), 0u);
}

// ---------------------------------------------------------------------------
// Errors and empty tensors.

/// A phase 1 taking (workspaceSize, executor) and the matching phase 2.
using Phase1 = std::function<aclnnStatus(uint64_t*, aclOpExecutor**)>;

/// The fixture of the family: a stream, and phase 1 + phase 2 in one call.
class ArithmeticTest : public AclTest {
protected:
    aclnnStatus run(const Phase1& phase1, Phase2 phase2, uint64_t* workspace = nullptr) {
        return run_two_phases(phase1, phase2, stream_, workspace);
    }
    /// The launches of check_tensors and its siblings, from an entry's phase 1
    /// get(tensors..., extras..., [out,] workspaceSize, executor) -- extras
    /// being its scalars and mode, bound here -- and its phase 2.
    template <class Get, class... Extras>
    TensorLaunch tensor_launch(Get get, Phase2 phase2, Extras... extras) {
        return [this, get, phase2, extras...](const DeviceTensor& a, const DeviceTensor& b, DeviceTensor& out,
                                              uint64_t* ws) {
            return run([&](uint64_t* size, aclOpExecutor** e) {
                return get(a.get(), b.get(), extras..., out.get(), size, e);
            }, phase2, ws);
        };
    }
    template <class Get, class... Extras>
    ScalarLaunch scalar_launch(Get get, Phase2 phase2, Extras... extras) {
        return [this, get, phase2, extras...](const DeviceTensor& a, DeviceTensor& out, uint64_t* ws) {
            return run([&](uint64_t* size, aclOpExecutor** e) { return get(a.get(), extras..., out.get(), size, e); },
                       phase2, ws);
        };
    }
    template <class Get, class... Extras>
    InplaceLaunch inplace_launch(Get get, Phase2 phase2, Extras... extras) {
        return [this, get, phase2, extras...](const DeviceTensor& a, const DeviceTensor& b, uint64_t* ws) {
            return run([&](uint64_t* size, aclOpExecutor** e) { return get(a.get(), b.get(), extras..., size, e); },
                       phase2, ws);
        };
    }
    template <class Get, class... Extras>
    InplaceScalarLaunch inplace_scalar_launch(Get get, Phase2 phase2, Extras... extras) {
        return [this, get, phase2, extras...](const DeviceTensor& a, uint64_t* ws) {
            return run([&](uint64_t* size, aclOpExecutor** e) { return get(a.get(), extras..., size, e); }, phase2,
                       ws);
        };
    }
    /// An empty launch: phase 1 succeeds with workspace 0 (every op_api file
    /// of the family returns an empty executor for an empty input), phase 2
    /// runs, and out (if any) keeps its fill.
    void expect_empty_success(const Phase1& phase1, Phase2 phase2, const DeviceTensor* out = nullptr) {
        uint64_t workspace = 99;
        EXPECT_EQ(run(phase1, phase2, &workspace), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        EXPECT_EQ(workspace, 0u);
        if (out != nullptr) {
            for (const Complex& v : out->read_complex()) EXPECT_EQ(v, Complex(-7.0));
        }
    }
};

/// The null-argument checks of an operator without alpha (Mul, Div, DivMod):
/// OP_CHECK_NULL's names for its tensor form and its scalar form, on a FLOAT
/// tensor x and a scalar s, extras (DivMod's mode) after the other operand.
class NullNames {
public:
    explicit NullNames(double scalar) : s_(scalar) {}
    /// Form(x, x, extras..., x) and Form(x, s, extras..., x): self, other, out.
    template <class TensorForm, class ScalarForm, class... Extras>
    void expect_out_of_place(TensorForm tensorForm, ScalarForm scalarForm, Extras... extras) const {
        const std::vector<std::string> names = {"self", "other", "out"};
        expect_each_null_is_161001_naming(tensorForm, names, x(), x(), extras..., x());
        expect_each_null_is_161001_naming(scalarForm, names, x(), s_.get(), extras..., x());
    }
    /// Form(x, x, extras...): self (as the tensor form names it: selfRef or
    /// self), other; Form(x, s, extras...): self, other.
    template <class TensorForm, class ScalarForm, class... Extras>
    void expect_in_place(TensorForm tensorForm, const std::string& self, ScalarForm scalarForm,
                         Extras... extras) const {
        expect_each_null_is_161001_naming(tensorForm, {self, "other"}, x(), x(), extras...);
        expect_each_null_is_161001_naming(scalarForm, {"self", "other"}, x(), s_.get(), extras...);
    }

private:
    aclTensor* x() const { return t_.get(); }

    const DeviceTensor t_{TensorSpec({2}, ACL_FLOAT)};
    const Scalar s_;
};

/// A mixed-dtype case of a tensor-tensor operator: self's, other's and
/// out's dtypes.
struct DtypeCase {
    aclDataType self, other, out;
};

/// The name of a DtypeCase test: SELF_OTHER_OUT.
inline std::string case_name(const ::testing::TestParamInfo<DtypeCase>& info) {
    return name(info.param.self) + "_" + name(info.param.other) + "_" + name(info.param.out);
}

/// body(alpha, value) for each alpha value, alpha a Scalar of dtype, under
/// a trace of the value.
template <class Body>
void for_each_alpha(std::initializer_list<double> values, aclDataType dtype, const Body& body) {
    for (double value : values) {
        SCOPED_TRACE(value);
        const Scalar alpha(value, dtype);
        body(alpha, value);
    }
}

/// A tensor-scalar case: self's dtype, the scalar's value and dtype, out's
/// dtype and the dtype CANN's rule computes in.
struct ScalarCase {
    aclDataType self;
    Complex value;
    aclDataType scalar, out, compute;
};

/// The name of a ScalarCase test: SELF_SCALAR_OUT.
inline std::string scalar_case_name(const ::testing::TestParamInfo<ScalarCase>& info) {
    return name(info.param.self) + "_" + name(info.param.scalar) + "_" + name(info.param.out);
}

/// A rank-9 shape of 6 elements: one more dimension than the family's
/// documents allow ("不超过8维", at most 8 dims).
inline Shape rank9() { return {1, 1, 1, 1, 1, 1, 1, 2, 3}; }

/// An operand of spec holding sample() values.
inline Input input(const TensorSpec& spec, uint32_t seed, double lo = -4, double hi = 4) {
    return {spec, sample(spec.dtype, static_cast<size_t>(numel(spec.shape)), seed, lo, hi)};
}

/// An operand of spec holding the given real values.
inline Input input(const TensorSpec& spec, const std::vector<double>& values) { return {spec, complexes(values)}; }

/// A tensor of spec holding 1 in every element of its view.
inline std::unique_ptr<DeviceTensor> ones(const TensorSpec& spec) {
    return device_tensor(spec, std::vector<Complex>(static_cast<size_t>(numel(spec.shape)), Complex(1.0)));
}

}  // namespace arith
