// The unary math family (Abs, Neg, Sign, Exp, Log, Sqrt, Sin, Cos, Tanh and
// their in-place forms) against double-precision references: every dtype of
// each A2 support list (math/<op>/op_api/aclnn_<op>.cpp in hicann/ops-math),
// strided and offset views, in-place aliasing, special values, the typed
// path's integers and complex numbers, and every error path with its code.
//
// A reference models CANN's graph: self (as the device holds it) cast to the
// compute dtype, the function in double (std::complex<double>), the result
// rounded to the compute dtype and cast into out.
#include <cmath>
#include <algorithm>
#include <complex>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_tanh.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"
#include "ops/unary_test_support.hpp"

namespace {

using namespace optest;

using RealFunction = std::function<double(double)>;
using ComplexFunction = std::function<Complex(Complex)>;

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::nan("");

/// One operator: its entry points, its function over reals and complex numbers,
/// the inputs it is tested on, its listed dtypes (and those of its in-place
/// form), and for each listed self dtype the dtype CANN's graph computes in.
struct UnaryOp : UnaryEntries {
    RealFunction real;
    ComplexFunction complex;
    double low;
    double high;
    std::vector<aclDataType> dtypes;
    std::vector<aclDataType> inplaceDtypes;
    std::function<aclDataType(aclDataType)> computeDtype;
};

aclDataType same(aclDataType t) { return t; }

const std::vector<aclDataType> kFloatsAndComplex = {ACL_FLOAT,  ACL_FLOAT16,   ACL_BF16,
                                                    ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128};
const std::vector<aclDataType> kTrigDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE,    ACL_INT8,       ACL_INT16,
                                              ACL_INT32, ACL_INT64,   ACL_BOOL,      ACL_COMPLEX64, ACL_COMPLEX128,
                                              ACL_UINT8, ACL_BF16};
const std::vector<aclDataType> kNegDtypes = {ACL_INT8,   ACL_INT32,     ACL_INT64,      ACL_FLOAT16, ACL_FLOAT,
                                             ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};
aclDataType float_for_integers(aclDataType t) { return is_integer(t) ? ACL_FLOAT : t; }

const std::vector<UnaryOp>& operators() {
    static const std::vector<UnaryOp> ops = {
        {"Exp", aclnnExpGetWorkspaceSize, aclnnExp, aclnnInplaceExpGetWorkspaceSize, aclnnInplaceExp,
         [](double x) { return std::exp(x); }, [](Complex z) { return std::exp(z); }, -6, 6,
         {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BOOL, ACL_INT64},
         {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128}, float_for_integers},
        {"Log", aclnnLogGetWorkspaceSize, aclnnLog, aclnnInplaceLogGetWorkspaceSize, aclnnInplaceLog,
         [](double x) { return std::log(x); }, [](Complex z) { return std::log(z); }, 0.01, 50,
         {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BOOL, ACL_INT64, ACL_INT32,
          ACL_INT16, ACL_INT8, ACL_UINT8},
         kFloatsAndComplex, float_for_integers},
        {"Sqrt", aclnnSqrtGetWorkspaceSize, aclnnSqrt, aclnnInplaceSqrtGetWorkspaceSize, aclnnInplaceSqrt,
         [](double x) { return std::sqrt(x); }, [](Complex z) { return std::sqrt(z); }, 0, 100,
         {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_INT32, ACL_INT64, ACL_INT16, ACL_INT8,
          ACL_BOOL, ACL_BF16, ACL_UINT8},
         kFloatsAndComplex, [](aclDataType t) { return t == ACL_INT64 ? ACL_DOUBLE : float_for_integers(t); }},
        {"Sin", aclnnSinGetWorkspaceSize, aclnnSin, aclnnInplaceSinGetWorkspaceSize, aclnnInplaceSin,
         [](double x) { return std::sin(x); }, [](Complex z) { return std::sin(z); }, -10, 10, kTrigDtypes,
         kFloatsAndComplex, float_for_integers},
        {"Cos", aclnnCosGetWorkspaceSize, aclnnCos, aclnnInplaceCosGetWorkspaceSize, aclnnInplaceCos,
         [](double x) { return std::cos(x); }, [](Complex z) { return std::cos(z); }, -10, 10, kTrigDtypes,
         kFloatsAndComplex, float_for_integers},
        {"Tanh", aclnnTanhGetWorkspaceSize, aclnnTanh, aclnnInplaceTanhGetWorkspaceSize, aclnnInplaceTanh,
         [](double x) { return std::tanh(x); }, nullptr, -5, 5,
         {ACL_FLOAT, ACL_FLOAT16, ACL_BOOL, ACL_UINT8, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_BF16},
         {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}, float_for_integers},
        {"Neg", aclnnNegGetWorkspaceSize, aclnnNeg, aclnnInplaceNegGetWorkspaceSize, aclnnInplaceNeg,
         [](double x) { return -x; }, [](Complex z) { return -z; }, -100, 100, kNegDtypes, kNegDtypes, same},
        {"Abs", aclnnAbsGetWorkspaceSize, aclnnAbs, nullptr, nullptr, [](double x) { return std::fabs(x); },
         [](Complex z) { return Complex(std::abs(z)); }, -100, 100,
         {ACL_DOUBLE, ACL_FLOAT, ACL_FLOAT16, ACL_INT64, ACL_INT32, ACL_INT16, ACL_INT8, ACL_UINT8, ACL_BOOL, ACL_BF16,
          ACL_COMPLEX64},
         {}, same},
        // op_kernel/arch35/sign.h: (x > 0) - (x < 0) by two compares and selects (NaN and zeros give 0).
        {"Sign", aclnnSignGetWorkspaceSize, aclnnSign, nullptr, nullptr,
         [](double x) { return static_cast<double>((x > 0) - (x < 0)); },
         [](Complex z) { return std::abs(z) == 0 ? Complex(0) : z / std::abs(z); }, -3, 3,
         {ACL_DOUBLE, ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT64, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BOOL, ACL_BF16},
         {}, same},
    };
    return ops;
}

/// op's entry points (a null in-place entry makes an empty std::function:
/// no in-place form).
/// The operators' entry points, for the checks every unary operator passes.
std::vector<UnaryEntries> entries() { return {operators().begin(), operators().end()}; }

const UnaryOp& op_named(const std::string& name) { return optest::op_named(operators(), name); }

/// The out dtype a listed self dtype is tested with: the compute dtype,
/// except Abs of COMPLEX64 (FLOAT) and a BOOL sign (BOOL).
aclDataType out_dtype(const UnaryOp& op, aclDataType self) {
    if (op.name == "Abs" && self == ACL_COMPLEX64) return ACL_FLOAT;
    if (op.name == "Sign") return self;
    return op.computeDtype(self);
}

/// The result CANN's graph gives for x: x cast to the compute dtype, f,
/// rounded to the compute dtype (an integer compute dtype wraps).
Complex reference(const UnaryOp& op, Complex x, aclDataType self) {
    const aclDataType compute = op.name == "Sign" && self == ACL_BOOL ? ACL_INT32 : op.computeDtype(self);
    const Complex input = held_in(x, compute);
    const bool complex = compute == ACL_COMPLEX64 || compute == ACL_COMPLEX128;
    const Complex result = complex ? op.complex(input) : Complex(op.real(input.real()));
    return held_in(result, compute);
}

Tolerance tolerance(aclDataType compute, aclDataType out) {
    if (out == ACL_DOUBLE || out == ACL_COMPLEX128) return compute == ACL_DOUBLE || compute == ACL_COMPLEX128
                                                                ? Tolerance{1e-12, 1e-14}
                                                                : tolerance_for(compute);
    if (out == ACL_COMPLEX64) return {1e-5, 1e-6};
    // A 16-bit compute dtype rounds before out's cast: its tolerance holds.
    return tolerance_for(compute == ACL_FLOAT16 || compute == ACL_BF16 ? compute : out);
}

std::vector<Complex> inputs(const UnaryOp& op, aclDataType self, size_t n, uint32_t seed) {
    return unary_inputs(self, op.low, op.high, n, seed);
}

/// What an out of dtype out holds for self's value x, and its tolerance.
UnaryReference reference_into(const UnaryOp& op, aclDataType self, aclDataType out) {
    return [&op, self, out](Complex x) { return held_in(reference(op, x, self), out); };
}
Tolerance tolerance_into(const UnaryOp& op, aclDataType self, aclDataType out) {
    return tolerance(op.computeDtype(self), out);
}

class UnaryMath : public UnaryFamilyTest {
protected:
    aclnnStatus run(const UnaryOp& op, const DeviceTensor& self, DeviceTensor& out) {
        return run_unary(op, self, out, stream_);
    }
};

TEST_F(UnaryMath, EveryListedDtypeAgainstTheDoubleReference) { check_every_listed_dtype(operators()); }

// Views: a transposed self with an offset into a larger storage, and an out
// with gaps between its rows; the vector path's staged chunks and the typed
// path's strided loads both serve them.
TEST_F(UnaryMath, StridedAndOffsetViews) { check_strided_and_offset_views(operators()); }

// Enough elements for every block of the A2 tiling and for dense streaming
// through SIMD registers, in each float dtype.
TEST_F(UnaryMath, LargeDenseTensorsUseEveryBlock) {
    for (const UnaryOp& op : operators()) {
        for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
            if (!lists(op, dtype)) continue;
            check(op, TensorSpec({1 << 17}, dtype), TensorSpec({1 << 17}, out_dtype(op, dtype)),
                  inputs(op, dtype, 1 << 17, 13));
        }
    }
}

// Outputs of 32 MiB and more are written with streaming stores from their
// first vector boundary on, with ordinary stores before it and after the last
// whole vector (ops/common/streaming_stores.hpp): Neg (exact in every dtype)
// into outputs that start 1 to 3 elements into their allocation and end
// mid-vector, in each float dtype.
TEST_F(UnaryMath, OutputsPastTheCachesAreStoredExactly) {
    const std::pair<aclDataType, int64_t> cases[] = {{ACL_FLOAT, 1}, {ACL_FLOAT16, 3}, {ACL_BF16, 2}};
    for (const auto& [dtype, offset] : cases) {
        SCOPED_TRACE(name(dtype));
        const int64_t rows = dtype == ACL_FLOAT ? 2049 : 4099, columns = 4099, n = rows * columns;
        const std::vector<Complex> values = sample(dtype, static_cast<size_t>(n), 5, -100, 100);
        DeviceTensor self(TensorSpec({rows, columns}, dtype));
        self.write_complex(values);
        auto out = DeviceTensor::output(TensorSpec({rows, columns}, dtype, {}, offset, {n + offset}));
        ASSERT_EQ(run(op_named("Neg"), self, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        const std::vector<Complex> got = out->read_complex();
        size_t wrong = 0;
        for (size_t i = 0; i < got.size(); ++i) wrong += got[i] != -values[i];
        EXPECT_EQ(wrong, 0u);
        EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
    }
}

TEST_F(UnaryMath, InplaceFormsWriteSelfRef) {
    for (const UnaryOp& op : operators()) {
        if (op.inplace == nullptr) continue;
        for (aclDataType dtype : op.inplaceDtypes) {
            check_unary_inplace(op, stream_, TensorSpec({10, 30}, dtype, {1, 10}), inputs(op, dtype, 300, 17),
                                reference_into(op, dtype, dtype), tolerance_into(op, dtype, dtype));
        }
    }
}

// IEEE's special values, in fp32 (the vector path, whose Highway functions
// hold on narrower ranges) and in DOUBLE (the typed path).
TEST_F(UnaryMath, SpecialValuesFollowIeee) {
    const std::vector<double> specials = {0.0, -0.0, kInf, -kInf, kNaN, 1e-40, -1e-40, 88.0, 89.0, 100.0, 104.0,
                                          120.0, -90.0, -104.0, -200.0, 38999.0, 39001.0, 1e5, -3e7, 1e30, 3.4e38};
    std::vector<Complex> values(specials.begin(), specials.end());
    for (const UnaryOp& op : operators()) {
        for (aclDataType dtype : {ACL_FLOAT, ACL_DOUBLE}) {
            if (!lists(op, dtype)) continue;
            const Shape shape = {static_cast<int64_t>(values.size())};
            // Large arguments of sin and cos: fp32 libm against the double of the same input.
            check(op, TensorSpec(shape, dtype), TensorSpec(shape, out_dtype(op, dtype)), values);
        }
    }
}

TEST_F(UnaryMath, IntegersWrapAsTheDeviceDoes) {
    const UnaryOp& neg = op_named("Neg");
    const UnaryOp& abs = op_named("Abs");
    check(neg, TensorSpec({4}, ACL_INT8), TensorSpec({4}, ACL_INT8), {-128, 127, 0, -1});
    check(abs, TensorSpec({4}, ACL_INT32), TensorSpec({4}, ACL_INT32), {-2147483648.0, 2147483647.0, -5, 0});
    check(neg, TensorSpec({3}, ACL_INT64), TensorSpec({3}, ACL_INT64), {-4e18, 4e18, 0});
}

TEST_F(UnaryMath, SignOfZerosAndNaNIsZero) {
    // op_kernel/arch35/sign.h: (x > 0) - (x < 0) by two compares and selects.
    const UnaryOp& sign = op_named("Sign");
    for (aclDataType dtype : {ACL_FLOAT, ACL_DOUBLE, ACL_BF16}) {
        DeviceTensor self(TensorSpec({4}, dtype), {0.0, -0.0, kNaN, -2.0});
        auto out = DeviceTensor::output(TensorSpec({4}, dtype));
        ASSERT_EQ(run(sign, self, *out), ACLNN_SUCCESS);
        const std::vector<double> got = out->read();
        EXPECT_EQ(got, (std::vector<double>{0, 0, 0, -1}));
    }
}

TEST_F(UnaryMath, ResultsCastIntoAWiderOrComplexOut) {
    const UnaryOp& exp = op_named("Exp");
    check(exp, TensorSpec({2, 5}, ACL_FLOAT16), TensorSpec({2, 5}, ACL_FLOAT), inputs(exp, ACL_FLOAT16, 10, 3));
    check(exp, TensorSpec({2, 5}, ACL_FLOAT), TensorSpec({2, 5}, ACL_COMPLEX64), inputs(exp, ACL_FLOAT, 10, 3));
    check(op_named("Neg"), TensorSpec({6}, ACL_INT32), TensorSpec({6}, ACL_FLOAT),
          inputs(op_named("Neg"), ACL_INT32, 6, 5));
}

TEST_F(UnaryMath, EmptyTensorsNeedNoWork) { expect_empty_tensors_need_no_work(entries(), stream_); }

// ---- error paths ---------------------------------------------------------

class UnaryMathErrors : public UnaryMath {};

TEST_F(UnaryMathErrors, NullArgumentsAre161001) { expect_null_arguments_are_161001(entries()); }

// CanCast lets FLOAT into an out of an 8-bit float or COMPLEX32, which no
// Cast kernel writes: CANN's graph fails at l0op::Cast (561103).  The engine
// must not write such an out as a float (it did, past the storage, once the
// 8-bit floats became addressable).
TEST_F(UnaryMathErrors, AnOutWithoutAnElementTypeIs561103) {
    DeviceTensor self(TensorSpec({4}, ACL_FLOAT));
    DeviceBuffer bytes(64);
    const int64_t shape[] = {4};
    const int64_t stride[] = {1};
    for (aclDataType dtype : {ACL_FLOAT8_E4M3FN, ACL_HIFLOAT8, ACL_COMPLEX32}) {
        SCOPED_TRACE(dtype);
        aclTensor* out = aclCreateTensor(shape, 1, dtype, stride, 0, ACL_FORMAT_ND, shape, 1, bytes.get());
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        expect_error(aclnnExpGetWorkspaceSize(self.get(), out, &workspace, &executor), ACLNN_ERR_INNER_NULLPTR);
        aclDestroyTensor(out);
    }
}

TEST_F(UnaryMathErrors, UnlistedDtypesAre161002) {
    for (const UnaryOp& op : operators()) {
        for (aclDataType dtype : {ACL_UINT16, ACL_UINT32, ACL_UINT64, ACL_INT16, ACL_UINT8, ACL_COMPLEX128}) {
            if (lists(op, dtype)) continue;
            SCOPED_TRACE(op.name + " " + std::to_string(dtype));
            DeviceTensor self(TensorSpec({2}, dtype));
            DeviceTensor out(TensorSpec({2}, ACL_FLOAT));
            expect_error(unary_phase1(op, self.get(), out.get()), ACLNN_ERR_PARAM_INVALID);
        }
    }
}

TEST_F(UnaryMathErrors, ShapeAndRankMismatchesAre161002) { expect_shape_and_rank_mismatches_are_161002(entries()); }

TEST_F(UnaryMathErrors, OutDtypesOutsideTheRulesAre161002) {
    DeviceTensor f32(TensorSpec({2}, ACL_FLOAT));
    DeviceTensor i32(TensorSpec({2}, ACL_INT32));
    DeviceTensor f16(TensorSpec({2}, ACL_FLOAT16));
    DeviceTensor c64(TensorSpec({2}, ACL_COMPLEX64));
    // A float result cannot be cast to an integer out (CheckPromoteType / CanCast).
    for (const char* name : {"Exp", "Log", "Sqrt", "Sin", "Cos", "Tanh", "Neg"}) {
        expect_error(unary_phase1(op_named(name), f32.get(), i32.get()), ACLNN_ERR_PARAM_INVALID);
    }
    // Abs and Sign keep self's dtype; Abs of COMPLEX64 is FLOAT.
    expect_error(unary_phase1(op_named("Abs"), f32.get(), f16.get()), ACLNN_ERR_PARAM_INVALID);
    expect_error(unary_phase1(op_named("Abs"), c64.get(), c64.get()), ACLNN_ERR_PARAM_INVALID);
    expect_error(unary_phase1(op_named("Sign"), f32.get(), f16.get()), ACLNN_ERR_PARAM_INVALID);
    // Log's out list has no integer.
    expect_error(unary_phase1(op_named("Log"), i32.get(), i32.get()), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(UnaryMathErrors, InplaceFormsCheckTheirOwnLists) {
    // Exp, Sqrt and Tanh accept integer selfs out of place but not in place.
    DeviceTensor i64(TensorSpec({2}, ACL_INT64));
    for (const char* name : {"Exp", "Sqrt", "Tanh", "Log", "Sin", "Cos"}) {
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        expect_error(op_named(name).inplace(i64.get(), &workspace, &executor), ACLNN_ERR_PARAM_INVALID);
    }
}

TEST_F(UnaryMathErrors, AbsAndTanhRefusePrivateAndMismatchedFormats) {
    const int64_t shape[] = {2, 2};
    const int64_t strides[] = {2, 1};
    DeviceBuffer buffer(64);
    aclTensor* nd = aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, buffer.get());
    aclTensor* nchw = aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_NCHW, shape, 2, buffer.get());
    aclTensor* nz = aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_FRACTAL_NZ, shape, 2, buffer.get());
    for (const char* name : {"Abs", "Tanh"}) {
        expect_error(unary_phase1(op_named(name), nd, nchw), ACLNN_ERR_PARAM_INVALID);
        expect_error(unary_phase1(op_named(name), nz, nz), ACLNN_ERR_PARAM_INVALID);
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        ASSERT_EQ(op_named(name).phase1(nchw, nchw, &workspace, &executor), ACLNN_SUCCESS);
        aclDestroyAclOpExecutor(executor);
    }
    aclDestroyTensor(nd);
    aclDestroyTensor(nchw);
    aclDestroyTensor(nz);
}

TEST_F(UnaryMathErrors, ANullDataAddressFaultsInPhase2) { expect_null_data_address_faults(entries(), stream_); }

}  // namespace
