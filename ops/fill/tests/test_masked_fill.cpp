// aclnnInplaceMaskedFillScalar (hicann/ops-math conversion/masked_fill/
// op_api/aclnn_masked_fill_scalar.cpp): selfRef = value where the BOOL mask,
// broadcast to selfRef, is true -- every A2 dtype, the value converted into
// selfRef's dtype, broadcast masks, strided and offset views (nothing outside
// them written), empty tensors and every error path.
#include <cmath>
#include <vector>

#include "aclnnop/aclnn_masked_fill_scalar.h"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

const std::vector<aclDataType> kDtypes = {ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_INT8, ACL_BOOL, ACL_BF16};

class MaskedFill : public AclTest {
protected:
    aclnnStatus run(const DeviceTensor& self, const DeviceTensor& mask, const Scalar& value,
                    uint64_t* workspace = nullptr) {
        return run_two_phases(
            [&](uint64_t* size, aclOpExecutor** executor) {
                return aclnnInplaceMaskedFillScalarGetWorkspaceSize(self.get(), mask.get(), value.get(), size,
                                                                    executor);
            },
            aclnnInplaceMaskedFillScalar, stream_, workspace);
    }

    /// Fills self (values 0, 1, 2, ... rounded to its dtype) where mask
    /// (every third element true, broadcast) with value, and expects
    /// expectedValue there (value as selfRef's dtype holds it).
    void check(const TensorSpec& selfSpec, const TensorSpec& maskSpec, const Scalar& value, double expectedValue) {
        std::vector<double> self;
        for (int64_t i = 0; i < numel(selfSpec.shape); ++i) self.push_back(representable(double(i % 7), selfSpec.dtype));
        std::vector<double> mask;
        for (int64_t i = 0; i < numel(maskSpec.shape); ++i) mask.push_back(i % 3 == 1 ? 1 : 0);
        DeviceTensor selfTensor(selfSpec, self);
        const DeviceTensor maskTensor(maskSpec, mask);
        uint64_t workspace = 1;
        ASSERT_EQ(run(selfTensor, maskTensor, value, &workspace), ACLNN_SUCCESS);
        EXPECT_EQ(workspace, 0u);
        std::vector<double> expected;
        for (int64_t i = 0; i < numel(selfSpec.shape); ++i) {
            const bool masked = broadcast_value(mask, maskSpec.shape, selfSpec.shape, i) != 0;
            expected.push_back(masked ? expectedValue : self[size_t(i)]);
        }
        EXPECT_EQ(selfTensor.read(), expected);
        EXPECT_EQ(selfTensor.bytes_changed_outside_view(), 0u);
    }
};

TEST_F(MaskedFill, EveryDtypeWithAFullAndABroadcastMask) {
    for (aclDataType dtype : kDtypes) {
        SCOPED_TRACE(dtype);
        const double value = dtype == ACL_BOOL ? 1 : -5;
        check({{4, 6}, dtype}, {{4, 6}, ACL_BOOL}, Scalar(value), value);
        check({{2, 4, 6}, dtype}, {{4, 1}, ACL_BOOL}, Scalar(value), value);
        check({{2, 4, 6}, dtype}, {{6}, ACL_BOOL}, Scalar(value), value);
    }
}

TEST_F(MaskedFill, ValueIsConvertedIntoSelfsDtype) {
    check({{3, 5}, ACL_INT32}, {{3, 5}, ACL_BOOL}, Scalar(2.9), 2);             // a float into an integer truncates
    check({{3, 5}, ACL_INT8}, {{3, 5}, ACL_BOOL}, Scalar(300, ACL_INT64), 44);  // an integer wraps
    check({{3, 5}, ACL_FLOAT16}, {{3, 5}, ACL_BOOL}, Scalar(0.1, ACL_DOUBLE), representable(0.1, ACL_FLOAT16));
    check({{3, 5}, ACL_BF16}, {{3, 5}, ACL_BOOL}, Scalar(0.1), representable(0.1, ACL_BF16));
    check({{3, 5}, ACL_FLOAT}, {{3, 5}, ACL_BOOL}, Scalar(-HUGE_VAL), -HUGE_VAL);  // ggml's -inf masks
    check({{3, 5}, ACL_INT64}, {{3, 5}, ACL_BOOL}, Scalar(double(int64_t{1} << 40), ACL_INT64),
          double(int64_t{1} << 40));
}

TEST_F(MaskedFill, StridedAndOffsetViewsAndZeroDim) {
    check({{6, 5}, ACL_FLOAT, {1, 7}, 3, {7 * 5 + 3}}, {{6, 5}, ACL_BOOL, {1, 6}, 2, {40}}, Scalar(9), 9);
    check({{6, 5}, ACL_INT32, {1, 7}, 3, {7 * 5 + 3}}, {{5}, ACL_BOOL, {2}, 1, {11}}, Scalar(9), 9);
    check({{}, ACL_FLOAT}, {{}, ACL_BOOL}, Scalar(4), 0);  // the one element is 0 and mask[0] false
    check({{3}, ACL_FLOAT16}, {{}, ACL_BOOL}, Scalar(4), 0);
}

TEST_F(MaskedFill, EmptyTensorsSucceedWithNoWork) {
    DeviceTensor self({{0, 3}, ACL_FLOAT}, {});
    const DeviceTensor mask({{3}, ACL_BOOL}, {1, 0, 1});
    uint64_t workspace = 1;
    EXPECT_EQ(run(self, mask, Scalar(1), &workspace), ACLNN_SUCCESS);
    EXPECT_EQ(workspace, 0u);
}

TEST_F(MaskedFill, ErrorsCarryCannCodesAndMessages) {
    const DeviceTensor self({{2, 3}, ACL_FLOAT}, std::vector<double>(6, 0.0));
    const DeviceTensor mask({{2, 3}, ACL_BOOL}, std::vector<double>(6, 1.0));
    const Scalar value(1);
    expect_each_null_is_161001_naming(aclnnInplaceMaskedFillScalarGetWorkspaceSize, {"selfRef", "mask", "value"},
                                      self.get(), static_cast<const aclTensor*>(mask.get()), value.get());
    const auto phase1 = [&](const TensorSpec& selfSpec, const TensorSpec& maskSpec) {
        const DeviceTensor s(selfSpec), m(maskSpec);
        return phase1_of(aclnnInplaceMaskedFillScalarGetWorkspaceSize, s.get(),
                         static_cast<const aclTensor*>(m.get()), value.get());
    };
    expect_error_naming(phase1({{2, 3}, ACL_DOUBLE}, {{2, 3}, ACL_BOOL}), ACLNN_ERR_PARAM_INVALID, "selfRef");
    expect_error_naming(phase1({{2, 3}, ACL_UINT8}, {{2, 3}, ACL_BOOL}), ACLNN_ERR_PARAM_INVALID, "selfRef");
    expect_error_naming(phase1({{2, 3}, ACL_FLOAT}, {{2, 3}, ACL_UINT8}), ACLNN_ERR_PARAM_INVALID, "mask");
    expect_error_naming(phase1({{2, 3}, ACL_FLOAT}, {{4}, ACL_BOOL}), ACLNN_ERR_PARAM_INVALID, "mask");
    // mask broadcasts with selfRef but widens it: "Shape of out should be [2,2,3]".
    expect_error_naming(phase1({{2, 3}, ACL_FLOAT}, {{2, 2, 3}, ACL_BOOL}), ACLNN_ERR_PARAM_INVALID, "out");
    const Shape rank9{1, 1, 1, 1, 1, 1, 1, 2, 3};
    expect_error(phase1({rank9, ACL_FLOAT}, {{2, 3}, ACL_BOOL}), ACLNN_ERR_PARAM_INVALID);
    expect_error(phase1({{2, 3}, ACL_FLOAT}, {rank9, ACL_BOOL}), ACLNN_ERR_PARAM_INVALID);
    expect_error(phase1({{2, 3}, ACL_FLOAT, {3, 1}, 64, {6}}, {{2, 3}, ACL_BOOL}), ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
