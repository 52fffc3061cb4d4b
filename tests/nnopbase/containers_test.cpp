// The host arrays and the owning lists.
#include <gtest/gtest.h>

#include "aclcpu/nnopbase.hpp"

namespace {

TEST(Arrays, SizeIsTheNumberOfValuesCopied) {
    const int64_t ints[] = {1, 2, 3};
    const float floats[] = {1.0f, 2.0f};
    const bool bools[] = {true, false, true, true};
    aclIntArray* intArray = aclCreateIntArray(ints, 3);
    aclFloatArray* floatArray = aclCreateFloatArray(floats, 2);
    aclBoolArray* boolArray = aclCreateBoolArray(bools, 4);
    ASSERT_NE(intArray, nullptr);
    ASSERT_NE(floatArray, nullptr);
    ASSERT_NE(boolArray, nullptr);
    uint64_t size = 0;
    EXPECT_EQ(aclGetIntArraySize(intArray, &size), ACLNN_SUCCESS);
    EXPECT_EQ(size, 3u);
    EXPECT_EQ(aclGetFloatArraySize(floatArray, &size), ACLNN_SUCCESS);
    EXPECT_EQ(size, 2u);
    EXPECT_EQ(aclGetBoolArraySize(boolArray, &size), ACLNN_SUCCESS);
    EXPECT_EQ(size, 4u);
    EXPECT_EQ(aclDestroyIntArray(intArray), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyFloatArray(floatArray), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyBoolArray(boolArray), ACLNN_SUCCESS);
}

// As CANN's aclArray: no values, no elements, whatever the size says.
TEST(Arrays, NullValuesMakeAnEmptyArray) {
    aclIntArray* array = aclCreateIntArray(nullptr, 5);
    ASSERT_NE(array, nullptr);
    uint64_t size = 99;
    EXPECT_EQ(aclGetIntArraySize(array, &size), ACLNN_SUCCESS);
    EXPECT_EQ(size, 0u);
    EXPECT_EQ(aclDestroyIntArray(array), ACLNN_SUCCESS);
}

TEST(Arrays, SizeGettersRefuseNullArguments) {
    const int64_t ints[] = {1};
    aclIntArray* array = aclCreateIntArray(ints, 1);
    uint64_t size = 0;
    EXPECT_EQ(aclGetIntArraySize(nullptr, &size), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclGetIntArraySize(array, nullptr), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclGetFloatArraySize(nullptr, &size), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclGetBoolArraySize(nullptr, &size), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclGetTensorListSize(nullptr, &size), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclGetScalarListSize(nullptr, &size), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclDestroyIntArray(array), ACLNN_SUCCESS);
}

TEST(Arrays, DestroyingNullSucceeds) {
    EXPECT_EQ(aclDestroyIntArray(nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyFloatArray(nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyBoolArray(nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyTensorList(nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyScalarList(nullptr), ACLNN_SUCCESS);
}

// The lists take their elements: the test hands them over and never frees
// them itself (a leak or double free shows under a sanitizer build).
TEST(Lists, OwnTheirElements) {
    const int64_t dims[] = {2};
    const aclTensor* tensors[] = {
        aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, nullptr),
        aclCreateTensor(dims, 1, ACL_FLOAT16, nullptr, 0, ACL_FORMAT_ND, dims, 1, nullptr),
        nullptr,
    };
    aclTensorList* tensorList = aclCreateTensorList(tensors, 3);
    ASSERT_NE(tensorList, nullptr);
    uint64_t size = 0;
    EXPECT_EQ(aclGetTensorListSize(tensorList, &size), ACLNN_SUCCESS);
    EXPECT_EQ(size, 3u);
    EXPECT_EQ(aclDestroyTensorList(tensorList), ACLNN_SUCCESS);

    float a = 1.0f;
    int32_t b = 2;
    const aclScalar* scalars[] = {aclCreateScalar(&a, ACL_FLOAT), aclCreateScalar(&b, ACL_INT32)};
    aclScalarList* scalarList = aclCreateScalarList(scalars, 2);
    ASSERT_NE(scalarList, nullptr);
    EXPECT_EQ(aclGetScalarListSize(scalarList, &size), ACLNN_SUCCESS);
    EXPECT_EQ(size, 2u);
    EXPECT_EQ(aclDestroyScalarList(scalarList), ACLNN_SUCCESS);
}

TEST(Lists, NullValuesMakeAnEmptyList) {
    aclTensorList* list = aclCreateTensorList(nullptr, 4);
    ASSERT_NE(list, nullptr);
    uint64_t size = 99;
    EXPECT_EQ(aclGetTensorListSize(list, &size), ACLNN_SUCCESS);
    EXPECT_EQ(size, 0u);
    EXPECT_EQ(aclDestroyTensorList(list), ACLNN_SUCCESS);
}

}  // namespace
