// aclnnMul, aclnnInplaceMul, aclnnMuls and aclnnInplaceMuls (out = self *
// other) against double-precision references (arithmetic_test_support.hpp),
// after math/mul/docs/aclnnMul&aclnnInplaceMul.md and
// math/muls/docs/aclnnMuls&aclnnInplaceMuls.md (hicann/ops-math); the A2
// tensor-scalar dtype comes from InferTensorScalarDtype in
// math/mul/op_api/aclnn_mul.cpp.
#include <cmath>
#include <limits>
#include <vector>

#include "aclnnop/aclnn_mul.h"
#include "arithmetic_test_support.hpp"

namespace {

using namespace arith;

const auto times = [](auto a, auto b) { return a * b; };

class Mul : public ArithmeticTest {
protected:
    TensorLaunch mul() { return tensor_launch(aclnnMulGetWorkspaceSize, aclnnMul); }
    InplaceLaunch inplace_mul() { return inplace_launch(aclnnInplaceMulGetWorkspaceSize, aclnnInplaceMul); }
    ScalarLaunch muls(const Scalar& other) { return scalar_launch(aclnnMulsGetWorkspaceSize, aclnnMuls, other.get()); }
    static aclnnStatus mul_phase1(const DeviceTensor& self, const DeviceTensor& other, const DeviceTensor& out) {
        return phase1_of(aclnnMulGetWorkspaceSize, self.get(), other.get(), out.get());
    }
};

// ---------------------------------------------------------------------------
// Dtypes.

class MulSameDtype : public Mul, public ::testing::WithParamInterface<aclDataType> {};

TEST_P(MulSameDtype, MultipliesBroadcastTensor) {
    const aclDataType t = GetParam();
    check_tensors(mul(), input({{3, 1, 5}, t}, 1), input({{4, 1}, t}, 2), {{3, 4, 5}, t}, t, times);
}

TEST_P(MulSameDtype, InplaceMulWritesSelfRef) {
    const aclDataType t = GetParam();
    check_inplace(inplace_mul(), input({{4, 6}, t, {1, 4}}, 3), input({{6}, t}, 4), t, times);
}

TEST_P(MulSameDtype, MulsWithScalarOfTheSameDtype) {
    // A floating tensor keeps its dtype, except BF16, which computes in FLOAT.
    const aclDataType t = GetParam();
    const Complex value = is_complex(t) ? Complex(0.5, -1.5) : Complex(t == ACL_BOOL ? 1 : -3);
    const Scalar other(value, t);
    const aclDataType compute = t == ACL_BF16 ? ACL_FLOAT : t;
    check_scalar(muls(other), input({{2, 7}, t}, 5), {{2, 7}, t}, compute,
                 [&](auto x) { return x * as<decltype(x)>(cast(value, t, compute)); });
}

INSTANTIATE_TEST_SUITE_P(Listed, MulSameDtype, ::testing::ValuesIn(kListedDtypes),
                         [](const auto& info) { return name(info.param); });

class MulMixedDtypes : public Mul, public ::testing::WithParamInterface<DtypeCase> {};

TEST_P(MulMixedDtypes, ComputeInThePromotedDtype) {
    const DtypeCase c = GetParam();
    check_tensors(mul(), input({{2, 3, 4}, c.self}, 10), input({{3, 1}, c.other}, 11), {{2, 3, 4}, c.out},
                  promote(c.self, c.other), times);
}

const std::vector<DtypeCase> kMixedCases = {
    // float with float
    {ACL_FLOAT16, ACL_FLOAT, ACL_FLOAT}, {ACL_BF16, ACL_FLOAT16, ACL_BF16}, {ACL_DOUBLE, ACL_FLOAT, ACL_DOUBLE},
    // integer with integer
    {ACL_INT8, ACL_UINT8, ACL_INT16}, {ACL_UINT8, ACL_INT32, ACL_INT64},
    // integer with float
    {ACL_INT16, ACL_FLOAT16, ACL_FLOAT16}, {ACL_INT64, ACL_FLOAT, ACL_FLOAT},
    // BOOL with others
    {ACL_BOOL, ACL_UINT8, ACL_UINT8}, {ACL_BF16, ACL_BOOL, ACL_BF16},
    // complex with real and complex
    {ACL_COMPLEX128, ACL_FLOAT16, ACL_COMPLEX128}, {ACL_INT8, ACL_COMPLEX64, ACL_COMPLEX64},
    {ACL_COMPLEX64, ACL_COMPLEX128, ACL_COMPLEX128},
};

INSTANTIATE_TEST_SUITE_P(Table, MulMixedDtypes, ::testing::ValuesIn(kMixedCases), case_name);

TEST_F(Mul, BoolProductIsLogicalAnd) {
    const DeviceTensor self({{4}, ACL_BOOL}, {0, 0, 1, 1}), other({{4}, ACL_BOOL}, {0, 1, 0, 1});
    auto out = DeviceTensor::output({{4}, ACL_BOOL});
    ASSERT_EQ(mul()(self, other, *out, nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(out->read(), (std::vector<double>{0, 0, 0, 1}));
}

// Mul is the one entry of the family that checks out's dtype against its list.
TEST_F(Mul, OutDtypeMustBeListedAndReachable) {
    const DeviceTensor f32({{2}, ACL_FLOAT}), u16({{2}, ACL_UINT16}), i32({{2}, ACL_INT32});
    const std::string listed = expect_error_naming(mul_phase1(f32, f32, u16), ACLNN_ERR_PARAM_INVALID, "DT_UINT16");
    EXPECT_NE(listed.find("out"), std::string::npos) << listed;
    expect_error_naming(mul_phase1(f32, i32, i32), ACLNN_ERR_PARAM_INVALID, "DT_INT32");
    expect_error_naming(mul_phase1(u16, f32, f32), ACLNN_ERR_PARAM_INVALID, "self");
}

// ---------------------------------------------------------------------------
// Muls: CANN's A2 InferTensorScalarDtype, and no promotion or cast checks.

class MulsPromotion : public Mul, public ::testing::WithParamInterface<ScalarCase> {};

TEST_P(MulsPromotion, ComputesInTheDtypeOfCannsRule) {
    const ScalarCase c = GetParam();
    const Scalar other(c.value, c.scalar);
    const Complex converted = cast(c.value, c.scalar, c.compute);
    check_scalar(muls(other), input({{3, 5}, c.self}, 20), {{3, 5}, c.out}, c.compute,
                 [&](auto x) { return x * as<decltype(x)>(converted); });
}

INSTANTIATE_TEST_SUITE_P(
    A2, MulsPromotion,
    ::testing::Values(ScalarCase{ACL_FLOAT16, 0.1, ACL_DOUBLE, ACL_FLOAT16, ACL_FLOAT16},
                      // BF16 with a DOUBLE scalar: the scalar as a float, one rounding of the product
                      ScalarCase{ACL_BF16, 0.1, ACL_DOUBLE, ACL_BF16, ACL_FLOAT},
                      ScalarCase{ACL_BOOL, 2.5, ACL_DOUBLE, ACL_FLOAT, ACL_FLOAT},
                      ScalarCase{ACL_INT32, 0.1, ACL_DOUBLE, ACL_FLOAT, ACL_FLOAT},
                      ScalarCase{ACL_INT32, 0.5, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16},
                      ScalarCase{ACL_INT8, 3, ACL_INT64, ACL_INT8, ACL_INT8},
                      ScalarCase{ACL_BOOL, 3, ACL_INT16, ACL_INT16, ACL_INT16}),
    scalar_case_name);

TEST_F(Mul, MulsCastsAFloatProductIntoAnIntegerOutTowardZeroSaturating) {
    // Muls checks neither promotion nor the cast into out on A2: a FLOAT
    // product goes through CANN's Cast into INT32.
    const double nan = std::nan("");
    const Scalar other(1.5, ACL_FLOAT);
    const DeviceTensor self({{5}, ACL_FLOAT}, {2.5, -2.5, 1e10, -1e10, nan});
    auto out = DeviceTensor::output({{5}, ACL_INT32});
    ASSERT_EQ(muls(other)(self, *out, nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(out->read(), (std::vector<double>{3, -3, 2147483647, -2147483648.0, 0}));
}

TEST_F(Mul, InplaceMulsWritesSelfRef) {
    const Scalar other(-2.0, ACL_INT32);
    const InplaceScalarLaunch launch = inplace_scalar_launch(aclnnInplaceMulsGetWorkspaceSize,
                                                             aclnnInplaceMuls, other.get());
    check_inplace_scalar(launch, input({{3, 3}, ACL_INT16, {1, 3}}, 21), ACL_INT16,
                         [](auto x) { return x * decltype(x)(-2); });
}

// ---------------------------------------------------------------------------
// Shapes, special values, empty tensors, errors.

TEST_F(Mul, BroadcastsAcrossEightDimensionsWithStridedOut) {
    check_tensors(mul(), input({{2, 1, 2, 1, 2, 1, 2, 1}, ACL_FLOAT16}, 30), input({{3, 1, 1, 1, 3}, ACL_FLOAT16}, 31),
                  {{2, 1, 2, 3, 2, 1, 2, 3}, ACL_FLOAT16, {}, 4}, ACL_FLOAT16, times);
    check_tensors(mul(), input({{4, 3}, ACL_INT64, {1, 4}}, 32), input({{4, 1}, ACL_INT64, {2, 1}, 3}, 33),
                  {{4, 3}, ACL_INT64, {4, 1}}, ACL_INT64, times);
}

TEST_F(Mul, InfinityNanSignedZerosAndWrapping) {
    const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
    const DeviceTensor self({{5}, ACL_FLOAT}, {0.0, -0.0, -0.0, inf, 3e38});
    const DeviceTensor other({{5}, ACL_FLOAT}, {inf, 5, -2, -1, 10});
    auto out = DeviceTensor::output({{5}, ACL_FLOAT});
    ASSERT_EQ(mul()(self, other, *out, nullptr), ACLNN_SUCCESS);
    expect_identical(out->read(), {nan, -0.0, 0.0, -inf, inf});

    struct Case {
        aclDataType t;
        double a, b, product;
    };
    for (const Case& c : {Case{ACL_INT8, 16, 16, 0}, Case{ACL_INT8, -128, -1, -128}, Case{ACL_UINT8, 16, 17, 16},
                          Case{ACL_INT32, 65536, 65536, 0}, Case{ACL_INT64, 0x1p32, 0x1p31, -0x1p63}}) {
        SCOPED_TRACE(name(c.t));
        const DeviceTensor a({{1}, c.t}, {c.a}), b({{1}, c.t}, {c.b});
        auto product = DeviceTensor::output({{1}, c.t}, 0);
        ASSERT_EQ(mul()(a, b, *product, nullptr), ACLNN_SUCCESS);
        EXPECT_EQ(product->read()[0], c.product);
    }
}

TEST_F(Mul, EmptyTensorsSucceedWithoutWriting) {
    const DeviceTensor self({{3, 0}, ACL_INT32}), other({{1}, ACL_INT32});
    auto out = DeviceTensor::output({{3, 0}, ACL_INT32});
    expect_empty_success([&](uint64_t* ws, aclOpExecutor** e) {
        return aclnnMulGetWorkspaceSize(self.get(), other.get(), out->get(), ws, e);
    }, aclnnMul, out.get());
    const Scalar two(2.0);
    expect_empty_success([&](uint64_t* ws, aclOpExecutor** e) {
        return aclnnInplaceMulsGetWorkspaceSize(self.get(), two.get(), ws, e);
    }, aclnnInplaceMuls);
}

TEST_F(Mul, ShapeErrorsNameTheirCause) {
    const DeviceTensor a({{2, 3}, ACL_FLOAT}), b({{2}, ACL_FLOAT}), wrongOut({{3, 2}, ACL_FLOAT});
    const DeviceTensor nine({rank9(), ACL_FLOAT}), out({{2, 3}, ACL_FLOAT});
    expect_error_naming(mul_phase1(a, b, out), ACLNN_ERR_PARAM_INVALID, "[2]");
    expect_error_naming(mul_phase1(a, a, wrongOut), ACLNN_ERR_PARAM_INVALID, "out");
    expect_error_naming(mul_phase1(a, nine, nine), ACLNN_ERR_PARAM_INVALID, "other");
    // CANN leaves Muls' rank unchecked; acl-cpu refuses it as every other entry does.
    const Scalar two(2.0);
    expect_error_naming(phase1_of(aclnnMulsGetWorkspaceSize, nine.get(), two.get(), nine.get()),
                        ACLNN_ERR_PARAM_INVALID, "self");
    const DeviceTensor selfRef({{3}, ACL_FLOAT}), wider({{2, 3}, ACL_FLOAT});
    expect_error_naming(phase1_of(aclnnInplaceMulGetWorkspaceSize, selfRef.get(), wider.get()),
                        ACLNN_ERR_PARAM_INVALID, "selfRef");
}

// A selfRef of 2^62 x 2^62 elements overflows int64 in bytes: 161002.  Its
// layout is built before the storage check, and once overflowed there
// (UBSan; found by fuzzing).
TEST_F(Mul, InplaceMulOfAViewWhoseSizeOverflowsIsRefused) {
    DeviceBuffer storage(64);
    const int64_t huge = int64_t{1} << 62;
    const int64_t shape[] = {huge, huge};
    const int64_t strides[] = {huge, 1};
    aclTensor* selfRef =
        aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, storage.get());
    ASSERT_NE(selfRef, nullptr);
    expect_error_naming(phase1_of(aclnnInplaceMulGetWorkspaceSize, selfRef, selfRef),
                        ACLNN_ERR_PARAM_INVALID, "overflows");
    aclDestroyTensor(selfRef);
}

// ggml's CANN backend declares a view's storage as the view's own extent and
// leaves its offset out (ggml_cann_create_tensor, acl_tensor.h): its Q8_0
// GET_ROWS multiplies other [1,1,5,8,1] at offset 640 with a storage of 40
// elements.  CANN checks no view against its storage and the memory is there
// on Atlas A2, so acl-cpu bounds such a view by the aclrtMalloc block its
// data points into; past the block, or outside device memory, it still
// refuses.
TEST_F(Mul, AViewPastItsDeclaredStorageReadsTheDeviceBlockItLiesIn) {
    constexpr int64_t kBlockFloats = 64;
    DeviceBuffer block(kBlockFloats * sizeof(float));
    std::vector<float> values(kBlockFloats);
    for (int64_t i = 0; i < kBlockFloats; ++i) values[i] = 0.5f * static_cast<float>(i);
    ASSERT_EQ(aclrtMemcpy(block.get(), block.size(), values.data(), block.size(), ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    const int64_t shape[] = {8};
    const int64_t strides[] = {1};
    const auto ggml_view = [&](int64_t offset, void* data) {
        return aclCreateTensor(shape, 1, ACL_FLOAT, strides, offset, ACL_FORMAT_ND, shape, 1, data);
    };
    const DeviceTensor other({{8}, ACL_FLOAT}, {1, -2, 3, -4, 5, -6, 7, -8});
    const auto out = DeviceTensor::output({{8}, ACL_FLOAT});
    aclTensor* self = ggml_view(40, block.get());
    ASSERT_EQ(run_aclnn(stream_, aclnnMulGetWorkspaceSize, aclnnMul, self, other.get(), out->get()), ACLNN_SUCCESS);
    const std::vector<double> got = out->read(), factors = other.read();
    for (int64_t i = 0; i < 8; ++i) EXPECT_EQ(got[i], 0.5 * static_cast<double>(40 + i) * factors[i]) << i;
    aclDestroyTensor(self);

    // aclrtMalloc's block holds CANN's rounded size, 64 * 4 + 32 bytes: 72 floats.
    aclTensor* pastBlock = ggml_view(65, block.get());
    expect_error_naming(phase1_of(aclnnMulGetWorkspaceSize, pastBlock, other.get(), out->get()),
                        ACLNN_ERR_PARAM_INVALID, "outside");
    aclDestroyTensor(pastBlock);
    std::vector<float> host(kBlockFloats);
    aclTensor* onHost = ggml_view(40, host.data());
    expect_error_naming(phase1_of(aclnnMulGetWorkspaceSize, onHost, other.get(), out->get()),
                        ACLNN_ERR_PARAM_INVALID, "outside");
    aclDestroyTensor(onHost);
}

TEST_F(Mul, InplaceMulRefusesAProductThatCannotCastBackIntoSelfRef) {
    const DeviceTensor selfRef({{2}, ACL_INT32}), other({{2}, ACL_FLOAT});
    expect_error_naming(phase1_of(aclnnInplaceMulGetWorkspaceSize, selfRef.get(), other.get()),
                        ACLNN_ERR_PARAM_INVALID, "DT_INT32");
}

// OP_CHECK_NULL's names in math/mul/op_api/aclnn_mul.cpp (a selfRef the
// in-place forms hand on as self: "self" names it either way).
TEST_F(Mul, NullArgumentsAreRefusedByName) {
    const NullNames nulls(1.0);
    nulls.expect_out_of_place(aclnnMulGetWorkspaceSize, aclnnMulsGetWorkspaceSize);
    nulls.expect_in_place(aclnnInplaceMulGetWorkspaceSize, "selfRef", aclnnInplaceMulsGetWorkspaceSize);
}

}  // namespace
