// Labels and label lists (docs/zh/api_ref/10_label_management.md of
// hicann/runtime); the jumps to them are in model_build_test.cpp.
#include <vector>

#include "runtime/runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

using LabelTest = RuntimeTest;

// aclrtCreateLabel / aclrtDestroyLabel: a label is destroyed once; the
// second destroy fails CANN's handle check (rtLabelDestroy:
// RT_VALIDATE_AND_UNWRAP_OBJECT → ValidateLabelHandleForApi →
// ValidateInnerObject, RT_ERROR_INVALID_HANDLE), as does setting it.
TEST_F(LabelTest, LabelIsDestroyedOnce) {
    aclrtLabel label = nullptr;
    ASSERT_ACL_OK(aclrtCreateLabel(&label));
    ASSERT_NE(nullptr, label);
    EXPECT_ACL_OK(aclrtDestroyLabel(label));
    EXPECT_ACL_FAILS(aclrtDestroyLabel(label), ACL_ERROR_RT_INVALID_HANDLE);
    Stream stream;
    EXPECT_ACL_FAILS(aclrtSetLabel(label, stream.get()), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_ACL_FAILS(aclrtDestroyLabel(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtCreateLabel(nullptr), ACL_ERROR_INVALID_PARAM);
}

// aclrtCreateLabelList: labels from aclrtCreateLabel, num in (0, 65535]
// (rtsLabelSwitchListCreate: RT_ERROR_INVALID_VALUE for num, then the
// handle check of every label, RT_ERROR_INVALID_HANDLE).
TEST_F(LabelTest, LabelListHoldsLiveLabels) {
    std::vector<aclrtLabel> labels(3, nullptr);
    for (aclrtLabel& label : labels) ASSERT_ACL_OK(aclrtCreateLabel(&label));
    aclrtLabelList list = nullptr;
    ASSERT_ACL_OK(aclrtCreateLabelList(labels.data(), labels.size(), &list));
    ASSERT_NE(nullptr, list);
    EXPECT_ACL_OK(aclrtDestroyLabelList(list));
    EXPECT_ACL_FAILS(aclrtDestroyLabelList(list), ACL_ERROR_INVALID_PARAM);

    EXPECT_ACL_FAILS(aclrtCreateLabelList(labels.data(), 0, &list), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtCreateLabelList(labels.data(), 65536, &list), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtCreateLabelList(nullptr, 1, &list), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtCreateLabelList(labels.data(), labels.size(), nullptr), ACL_ERROR_INVALID_PARAM);
    for (aclrtLabel label : labels) EXPECT_ACL_OK(aclrtDestroyLabel(label));
    EXPECT_ACL_FAILS(aclrtCreateLabelList(labels.data(), labels.size(), &list), ACL_ERROR_RT_INVALID_HANDLE);
}

}  // namespace
}  // namespace aclcpu::test
