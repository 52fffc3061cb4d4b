// aclTensor: creation rules, getters and their ownership, the private view.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "aclcpu/nnopbase.hpp"
#include "aclcpu_testkit/tensor_copy.hpp"
#include "c_caller.h"
#include "test_support.hpp"

namespace {

using aclcpu::testkit::take_array;
using nnopbase_test::take_error_message;

struct TensorDeleter {
    void operator()(aclTensor* tensor) const { EXPECT_EQ(aclDestroyTensor(tensor), ACLNN_SUCCESS); }
};
using TensorPtr = std::unique_ptr<aclTensor, TensorDeleter>;

TensorPtr make_tensor(const std::vector<int64_t>& shape, const int64_t* strides, int64_t offset, void* data,
                      aclDataType dtype = ACL_FLOAT) {
    return TensorPtr(aclCreateTensor(shape.data(), shape.size(), dtype, strides, offset, ACL_FORMAT_ND, shape.data(),
                                     shape.size(), data));
}

TEST(Tensor, NullStridesMeanRowMajor) {
    auto tensor = make_tensor({2, 3, 4}, nullptr, 0, nullptr);
    ASSERT_NE(tensor, nullptr);
    EXPECT_EQ(take_array(aclGetViewStrides, tensor.get()), (std::vector<int64_t>{12, 4, 1}));
    EXPECT_TRUE(aclcpu::view_of(tensor.get()).is_contiguous());
}

TEST(Tensor, RowMajorStridesOfAnEmptyShapeArePlainSuffixProducts) {
    auto tensor = make_tensor({2, 0, 3}, nullptr, 0, nullptr);
    ASSERT_NE(tensor, nullptr);
    EXPECT_EQ(take_array(aclGetViewStrides, tensor.get()), (std::vector<int64_t>{0, 3, 1}));
    EXPECT_EQ(aclcpu::view_of(tensor.get()).numel(), 0);
}

TEST(Tensor, GettersReturnWhatWasGiven) {
    float storage[64] = {};
    const int64_t viewDims[] = {4, 2};
    const int64_t strides[] = {1, 4};
    const int64_t storageDims[] = {2, 4, 8};
    TensorPtr tensor(aclCreateTensor(viewDims, 2, ACL_FLOAT16, strides, 3, ACL_FORMAT_NCHW, storageDims, 3, storage));
    ASSERT_NE(tensor, nullptr);
    EXPECT_EQ(take_array(aclGetViewShape, tensor.get()), (std::vector<int64_t>{4, 2}));
    EXPECT_EQ(take_array(aclGetViewStrides, tensor.get()), (std::vector<int64_t>{1, 4}));
    EXPECT_EQ(take_array(aclGetStorageShape, tensor.get()), (std::vector<int64_t>{2, 4, 8}));
    int64_t offset = -1;
    EXPECT_EQ(aclGetViewOffset(tensor.get(), &offset), ACLNN_SUCCESS);
    EXPECT_EQ(offset, 3);
    aclFormat format = ACL_FORMAT_UNDEFINED;
    EXPECT_EQ(aclGetFormat(tensor.get(), &format), ACLNN_SUCCESS);
    EXPECT_EQ(format, ACL_FORMAT_NCHW);
    aclDataType dtype = ACL_DT_UNDEFINED;
    EXPECT_EQ(aclGetDataType(tensor.get(), &dtype), ACLNN_SUCCESS);
    EXPECT_EQ(dtype, ACL_FLOAT16);
    void* addr = nullptr;
    EXPECT_EQ(aclGetRawTensorAddr(tensor.get(), &addr), ACLNN_SUCCESS);
    EXPECT_EQ(addr, storage);

    const aclcpu::TensorView& view = aclcpu::view_of(tensor.get());
    EXPECT_EQ(view.shape, (aclcpu::Dims{4, 2}));
    EXPECT_EQ(view.strides, (aclcpu::Dims{1, 4}));
    EXPECT_EQ(view.offset, 3);
    EXPECT_EQ(view.dtype, ACL_FLOAT16);
    EXPECT_EQ(view.numel(), 8);
    EXPECT_FALSE(view.is_contiguous());
    EXPECT_EQ(aclcpu::format_of(tensor.get()), ACL_FORMAT_NCHW);
    EXPECT_EQ(aclcpu::data_of(tensor.get()), storage);
    EXPECT_EQ(aclcpu::storage_shape_of(tensor.get()), (aclcpu::Dims{2, 4, 8}));
}

TEST(Tensor, ContiguityIgnoresStridesOfUnitDims) {
    const int64_t strides[] = {4, 99, 1};
    auto tensor = make_tensor({2, 1, 4}, strides, 0, nullptr);
    ASSERT_NE(tensor, nullptr);
    EXPECT_TRUE(aclcpu::view_of(tensor.get()).is_contiguous());
    const int64_t padded[] = {8, 8, 1};
    EXPECT_FALSE(aclcpu::view_of(make_tensor({2, 1, 4}, padded, 0, nullptr).get()).is_contiguous());
}

// Found by fuzz_softplus_backward: dims whose product passes INT64_MAX made
// the row-major strides, numel and the contiguity test overflow int64.
TEST(Tensor, HugeDimsSaturateTheElementCountAndWrapTheRowMajorStrides) {
    const int64_t huge = int64_t{1} << 62;
    auto tensor = make_tensor({huge, huge, 4}, nullptr, 0, nullptr);
    ASSERT_NE(tensor, nullptr);
    // 4 * 2^62 = 2^64 wraps to 0, as CANN's int64 suffix products do.
    EXPECT_EQ(take_array(aclGetViewStrides, tensor.get()), (std::vector<int64_t>{0, 4, 1}));
    const aclcpu::TensorView& view = aclcpu::view_of(tensor.get());
    EXPECT_EQ(view.numel(), std::numeric_limits<int64_t>::max());
    EXPECT_FALSE(view.is_contiguous());
    EXPECT_EQ(aclcpu::view_of(make_tensor({huge, 0, huge}, nullptr, 0, nullptr).get()).numel(), 0);
}

TEST(Tensor, RankZeroIsAScalarTensor) {
    float value = 2.0f;
    TensorPtr tensor(aclCreateTensor(nullptr, 0, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, &value));
    ASSERT_NE(tensor, nullptr);
    EXPECT_TRUE(take_array(aclGetViewShape, tensor.get()).empty());
    EXPECT_EQ(aclcpu::view_of(tensor.get()).numel(), 1);
}

TEST(Tensor, RankAboveEightIsAcceptedHere) {
    const std::vector<int64_t> shape = {1, 2, 1, 2, 1, 2, 1, 2, 3};
    auto tensor = make_tensor(shape, nullptr, 0, nullptr);
    ASSERT_NE(tensor, nullptr);
    EXPECT_EQ(take_array(aclGetViewShape, tensor.get()), shape);
    EXPECT_EQ(take_array(aclGetViewStrides, tensor.get()), (std::vector<int64_t>{48, 24, 24, 12, 12, 6, 6, 3, 1}));
    EXPECT_EQ(aclcpu::view_of(tensor.get()).numel(), 48);
}

TEST(Tensor, NullDimsWithACountAreRefused) {
    const int64_t dims[] = {2};
    take_error_message();
    EXPECT_EQ(aclCreateTensor(nullptr, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, nullptr), nullptr);
    EXPECT_NE(take_error_message().find("nullptr"), std::string::npos);
    EXPECT_EQ(aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 1, nullptr), nullptr);
    EXPECT_NE(take_error_message().find("nullptr"), std::string::npos);
}

TEST(Tensor, NegativeViewDimsStridesOrOffsetAreRefused) {
    const int64_t good[] = {2, 3};
    const int64_t negative[] = {2, -3};
    take_error_message();
    EXPECT_EQ(aclCreateTensor(negative, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, good, 2, nullptr), nullptr);
    EXPECT_NE(take_error_message().find("non-negative"), std::string::npos);
    EXPECT_EQ(aclCreateTensor(good, 2, ACL_FLOAT, negative, 0, ACL_FORMAT_ND, good, 2, nullptr), nullptr);
    EXPECT_EQ(aclCreateTensor(good, 2, ACL_FLOAT, nullptr, -1, ACL_FORMAT_ND, good, 2, nullptr), nullptr);
    EXPECT_NE(take_error_message().find("non-negative"), std::string::npos);
}

// CANN's aclTensor constructor (opbase src/nnopbase/common/utils/
// common_types.cpp) stores storage dims unchecked, and ggml's SET_ROWS of no
// rows describes its empty source with a storage of 1 - stride elements
// (ggml_cann_create_tensor, acl_tensor.h): such a tensor is made and reads
// back as given.
TEST(Tensor, NegativeStorageDimsAreKeptAsCannKeepsThem) {
    const int64_t view[] = {0, 256};
    const int64_t strides[] = {512, 2};
    const int64_t storage[] = {-511};
    float data[4] = {};
    aclTensor* tensor = aclCreateTensor(view, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, data);
    ASSERT_NE(tensor, nullptr);
    EXPECT_EQ(take_array(aclGetStorageShape, tensor), (std::vector<int64_t>{-511}));
    aclDestroyTensor(tensor);
}

TEST(Tensor, InitTensorRedescribesOrLeavesTheTensorAlone) {
    float a[8] = {};
    float b[8] = {};
    auto tensor = make_tensor({8}, nullptr, 0, a);
    ASSERT_NE(tensor, nullptr);
    const int64_t dims[] = {2, 2};
    EXPECT_EQ(aclInitTensor(tensor.get(), dims, 2, ACL_INT32, nullptr, 1, ACL_FORMAT_ND, dims, 2, b), ACLNN_SUCCESS);
    EXPECT_EQ(take_array(aclGetViewShape, tensor.get()), (std::vector<int64_t>{2, 2}));
    EXPECT_EQ(take_array(aclGetViewStrides, tensor.get()), (std::vector<int64_t>{2, 1}));
    EXPECT_EQ(aclcpu::view_of(tensor.get()).dtype, ACL_INT32);
    EXPECT_EQ(aclcpu::view_of(tensor.get()).offset, 1);
    EXPECT_EQ(aclcpu::data_of(tensor.get()), b);

    const int64_t negative[] = {-2};
    EXPECT_EQ(aclInitTensor(tensor.get(), negative, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, a),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclInitTensor(tensor.get(), nullptr, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, a),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(take_array(aclGetViewShape, tensor.get()), (std::vector<int64_t>{2, 2}));
    EXPECT_EQ(aclcpu::data_of(tensor.get()), b);
    EXPECT_EQ(aclInitTensor(nullptr, dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2, a),
              ACLNN_ERR_PARAM_NULLPTR);
}

TEST(Tensor, GettersRefuseNullArguments) {
    auto tensor = make_tensor({2}, nullptr, 0, nullptr);
    ASSERT_NE(tensor, nullptr);
    int64_t* values = nullptr;
    uint64_t count = 0;
    for (auto getter : {aclGetViewShape, aclGetStorageShape, aclGetViewStrides}) {
        EXPECT_EQ(getter(nullptr, &values, &count), ACLNN_ERR_PARAM_NULLPTR);
        EXPECT_EQ(getter(tensor.get(), nullptr, &count), ACLNN_ERR_PARAM_NULLPTR);
        EXPECT_EQ(getter(tensor.get(), &values, nullptr), ACLNN_ERR_PARAM_NULLPTR);
    }
    EXPECT_EQ(values, nullptr);
    int64_t offset = 0;
    aclFormat format;
    aclDataType dtype;
    void* addr = nullptr;
    EXPECT_EQ(aclGetViewOffset(nullptr, &offset), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclGetViewOffset(tensor.get(), nullptr), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclGetFormat(nullptr, &format), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclGetFormat(tensor.get(), nullptr), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclGetDataType(nullptr, &dtype), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclGetDataType(tensor.get(), nullptr), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclGetRawTensorAddr(nullptr, &addr), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclGetRawTensorAddr(tensor.get(), nullptr), ACLNN_ERR_PARAM_NULLPTR);
    take_error_message();
    EXPECT_EQ(aclSetRawTensorAddr(nullptr, &offset), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_NE(take_error_message().find("aclSetRawTensorAddr"), std::string::npos);
}

TEST(Tensor, RawAddressCanBeReplaced) {
    float a[4] = {};
    float b[4] = {};
    auto tensor = make_tensor({4}, nullptr, 0, a);
    ASSERT_NE(tensor, nullptr);
    EXPECT_EQ(aclSetRawTensorAddr(tensor.get(), b), ACLNN_SUCCESS);
    void* addr = nullptr;
    EXPECT_EQ(aclGetRawTensorAddr(tensor.get(), &addr), ACLNN_SUCCESS);
    EXPECT_EQ(addr, b);
}

TEST(Tensor, DestroyingNullSucceeds) { EXPECT_EQ(aclDestroyTensor(nullptr), ACLNN_SUCCESS); }

}  // namespace

// A C caller may pass any integer as a data type or format: CANN stores what
// it is given and an operator's dtype check refuses it later.  The code is
// carried as an integer, never loaded as an out-of-range enum (which UBSan's
// enum check, on in the sanitizer build, would report).
TEST(Tensor, CodesThatAreNoEnumeratorAreKeptAndReadAsUndefined) {
    int dtype = 0, format = 0;
    ASSERT_EQ(c_caller_tensor_round_trip(99, 1000, &dtype, &format), 0);
    EXPECT_EQ(dtype, 99);
    EXPECT_EQ(format, 1000);
    EXPECT_EQ(c_caller_tensor_round_trip(-77, -5, &dtype, &format), 0);
    EXPECT_EQ(dtype, -77);
    EXPECT_EQ(format, -5);
}

TEST(Tensor, UnknownCodesReachOperatorsAsUndefined) {
    float storage[4] = {};
    aclTensor* tensor = c_caller_create_tensor(99, 1000, storage);
    ASSERT_NE(tensor, nullptr);
    EXPECT_EQ(aclcpu::view_of(tensor).dtype, ACL_DT_UNDEFINED);
    EXPECT_EQ(aclcpu::format_of(tensor), ACL_FORMAT_UNDEFINED);
    EXPECT_EQ(aclDestroyTensor(tensor), ACLNN_SUCCESS);
}

TEST(Scalar, UnknownDtypeCodesAreRefusedWithAMessage) {
    EXPECT_EQ(c_caller_create_scalar(ACL_FLOAT), 1);
    EXPECT_EQ(c_caller_create_scalar(99), 0);
    EXPECT_NE(take_error_message().find("no supported data type[99]"), std::string::npos);
    EXPECT_EQ(c_caller_create_scalar(-1000), 0);
    EXPECT_NE(take_error_message().find("no supported data type[-1000]"), std::string::npos);
}

TEST(DataTypeSize, UnknownCodesCountEightBytesAsCann) {
    EXPECT_EQ(c_caller_dtype_size(99), 8u);
    EXPECT_EQ(c_caller_dtype_size(-1000), 8u);
    EXPECT_EQ(c_caller_dtype_size(ACL_BF16), 2u);
}
