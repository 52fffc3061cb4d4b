// Labels and label lists (docs/zh/api_ref/10_label_management.md of
// hicann/runtime), and the stream jumps that need model-bound streams
// (06_stream_management.md aclrtActiveStream / aclrtSwitchStream).
#include <vector>

#include "runtime/runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

using LabelTest = RuntimeTest;

// aclrtCreateLabel / aclrtDestroyLabel: a label is destroyed once.
TEST_F(LabelTest, LabelIsDestroyedOnce) {
    aclrtLabel label = nullptr;
    ASSERT_ACL_OK(aclrtCreateLabel(&label));
    ASSERT_NE(nullptr, label);
    EXPECT_ACL_OK(aclrtDestroyLabel(label));
    EXPECT_ACL_FAILS(aclrtDestroyLabel(label), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtDestroyLabel(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtCreateLabel(nullptr), ACL_ERROR_INVALID_PARAM);
}

// aclrtCreateLabelList: labels from aclrtCreateLabel, num in (0, 65535].
TEST_F(LabelTest, LabelListHoldsLiveLabels) {
    std::vector<aclrtLabel> labels(3, nullptr);
    for (aclrtLabel& label : labels) ASSERT_ACL_OK(aclrtCreateLabel(&label));
    aclrtLabelList list = nullptr;
    ASSERT_ACL_OK(aclrtCreateLabelList(labels.data(), labels.size(), &list));
    ASSERT_NE(nullptr, list);
    EXPECT_ACL_OK(aclrtDestroyLabelList(list));
    EXPECT_ACL_FAILS(aclrtDestroyLabelList(list), ACL_ERROR_INVALID_PARAM);

    EXPECT_ACL_FAILS(aclrtCreateLabelList(labels.data(), 0, &list), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtCreateLabelList(labels.data(), 65536, &list), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtCreateLabelList(nullptr, 1, &list), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtCreateLabelList(labels.data(), labels.size(), nullptr), ACL_ERROR_INVALID_PARAM);
    for (aclrtLabel label : labels) EXPECT_ACL_OK(aclrtDestroyLabel(label));
    EXPECT_ACL_FAILS(aclrtCreateLabelList(labels.data(), labels.size(), &list), ACL_ERROR_INVALID_PARAM);
}

// aclrtSetLabel takes only streams bound to a model runtime instance
// (aclmdlRIBindStream), and aclrtSwitchLabelByIndex jumps between such
// labels: acl-cpu builds no model runtime instances, so both say so.
TEST_F(LabelTest, JumpsNeedModelBoundStreams) {
    aclrtLabel label = nullptr;
    ASSERT_ACL_OK(aclrtCreateLabel(&label));
    aclrtLabelList list = nullptr;
    ASSERT_ACL_OK(aclrtCreateLabelList(&label, 1, &list));
    Stream stream;
    DeviceBuffer index(sizeof(uint32_t));
    index.fill(0);
    EXPECT_ACL_FAILS(aclrtSetLabel(label, stream.get()), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_ACL_FAILS(aclrtSwitchLabelByIndex(index.get(), 1, list, stream.get()), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_ACL_FAILS(aclrtSwitchStream(index.get(), ACL_RT_EQUAL, index.get(), ACL_RT_SWITCH_INT32, stream.get(),
                                       nullptr, stream.get()),
                     ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_ACL_OK(aclrtDestroyLabelList(list));
    EXPECT_ACL_OK(aclrtDestroyLabel(label));
}

}  // namespace
}  // namespace aclcpu::test
