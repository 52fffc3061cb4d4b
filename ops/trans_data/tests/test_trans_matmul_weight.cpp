// aclnnTransMatmulWeight and aclnnCalculateMatmulWeightSize(V2) against the
// FRACTAL_NZ layout written out here from its definition (TransData, ops-math
// conversion/trans_data): for a [rows, cols] matrix, element (r, c) at
// (c / c0) * ceil(rows / 16) * 16 * c0 + r * c0 + c % c0, c0 = 32 bytes of
// elements, everything else zero; the storage format and shape the tensor
// reports afterwards; the aligned element counts of op_api/
// aclnn_trans_matmul_weight.cpp (CalculateMatmulWeightSize); every error path.
#include <cstdint>
#include <cstring>
#include <vector>

#include "aclcpu_testkit/tensor_copy.hpp"
#include "aclnnop/aclnn_trans_matmul_weight.h"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

uint64_t weight_size_v2(const std::vector<int64_t>& shape, aclDataType dtype) {
    aclIntArray* array = aclCreateIntArray(shape.data(), shape.size());
    uint64_t size = 0;
    EXPECT_EQ(aclnnCalculateMatmulWeightSizeV2(array, dtype, &size), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    aclDestroyIntArray(array);
    return size;
}

aclnnStatus weight_size_status(const std::vector<int64_t>& shape, aclDataType dtype, bool v2) {
    aclIntArray* array = aclCreateIntArray(shape.data(), shape.size());
    uint64_t size = 0;
    const aclnnStatus status = v2 ? aclnnCalculateMatmulWeightSizeV2(array, dtype, &size)
                                  : aclnnCalculateMatmulWeightSize(array, &size);
    aclDestroyIntArray(array);
    return status;
}

TEST(MatmulWeightSize, AlignsTheLastTwoDimsAsTheOpApiDoes) {
    EXPECT_EQ(weight_size_v2({5, 7}, ACL_FLOAT16), 16u * 16u);
    EXPECT_EQ(weight_size_v2({2, 3, 17, 33}, ACL_BF16), 2u * 3u * 32u * 48u);
    EXPECT_EQ(weight_size_v2({17, 33}, ACL_INT8), 32u * 64u);
    EXPECT_EQ(weight_size_v2({16, 32}, ACL_INT8), 16u * 32u);
    // Every dtype but FLOAT16 and BF16 takes INT8's alignment, FLOAT too.
    EXPECT_EQ(weight_size_v2({5, 7}, ACL_FLOAT), 16u * 32u);
    EXPECT_EQ(weight_size_v2({5, 7}, static_cast<aclDataType>(63)), 16u * 32u);  // no dtype at all
    EXPECT_EQ(weight_size_v2({1, 1, 1, 1, 1, 1}, ACL_FLOAT16), 256u);
    // V1 aligns as FLOAT16 and takes zeros.
    const std::vector<int64_t> shape = {0, 7};
    aclIntArray* array = aclCreateIntArray(shape.data(), shape.size());
    uint64_t size = 1;
    EXPECT_EQ(aclnnCalculateMatmulWeightSize(array, &size), ACLNN_SUCCESS);
    EXPECT_EQ(size, 0u);
    aclDestroyIntArray(array);
}

TEST(MatmulWeightSize, Errors) {
    uint64_t size = 0;
    expect_error(aclnnCalculateMatmulWeightSizeV2(nullptr, ACL_FLOAT16, &size), ACLNN_ERR_PARAM_NULLPTR);
    const std::vector<int64_t> shape = {4, 4};
    aclIntArray* array = aclCreateIntArray(shape.data(), shape.size());
    expect_error_naming(aclnnCalculateMatmulWeightSizeV2(array, ACL_FLOAT16, nullptr), ACLNN_ERR_PARAM_NULLPTR,
                        "expected a value of type number for argument weightTensorSize but instead found type null.");
    expect_error(aclnnCalculateMatmulWeightSize(nullptr, &size), ACLNN_ERR_PARAM_NULLPTR);
    aclDestroyIntArray(array);
    expect_error(weight_size_status({7}, ACL_FLOAT16, true), ACLNN_ERR_PARAM_INVALID);
    expect_error_naming(weight_size_status({1, 2, 3, 4, 5, 6, 7}, ACL_FLOAT16, true), ACLNN_ERR_PARAM_INVALID,
                        "It is expected that tensorShape has 2-6 dimensions, but got dimensions 7.");
    expect_error(weight_size_status({7}, ACL_FLOAT16, false), ACLNN_ERR_PARAM_INVALID);
    expect_error_naming(weight_size_status({0, 7}, ACL_FLOAT16, true), ACLNN_ERR_PARAM_INVALID,
                        "No zeros are allow in shape");
    expect_error_naming(weight_size_status({-2, 7}, ACL_FLOAT16, true), ACLNN_ERR_PARAM_INVALID, "negative");
    expect_error_naming(weight_size_status({int64_t{1} << 62, 7}, ACL_FLOAT16, true), ACLNN_ERR_PARAM_INVALID,
                        "overflows");
}

/// A weight in device memory of CalculateMatmulWeightSizeV2's size, its
/// view given by the caller over bytes uploaded at the block's start.
class NzWeight {
public:
    NzWeight(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides, aclDataType dtype,
             const std::vector<uint8_t>& bytes, int64_t elementSize, uint64_t blockBytes = 0)
        : block_(blockBytes != 0 ? blockBytes : weight_size_v2(shape, dtype) * elementSize) {
        std::vector<uint8_t> image(block_.size(), 0xEE);
        if (!bytes.empty()) std::memcpy(image.data(), bytes.data(), std::min(bytes.size(), image.size()));
        block_.upload(image);
        tensor_ = aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), 0, ACL_FORMAT_ND, shape.data(),
                                  shape.size(), block_.get());
    }
    ~NzWeight() { aclDestroyTensor(tensor_); }
    aclTensor* get() const { return tensor_; }
    std::vector<uint8_t> bytes() const { return block_.download(); }

private:
    DeviceBuffer block_;
    aclTensor* tensor_ = nullptr;
};

class TransMatmulWeight : public AclTest {
protected:
    aclnnStatus trans(const NzWeight& weight) {
        return run_aclnn(stream_, aclnnTransMatmulWeightGetWorkspaceSize, aclnnTransMatmulWeight, weight.get());
    }

    /// The NZ image of `matrices` row-major [rows, cols] matrices of
    /// elementSize-byte elements, value(m, r, c) each.
    template <class Value>
    static std::vector<uint8_t> nz_image(int64_t matrices, int64_t rows, int64_t cols, int64_t elementSize,
                                         const Value& value) {
        const int64_t c0 = 32 / elementSize;
        const int64_t paddedRows = (rows + 15) / 16 * 16;
        const int64_t colTiles = (cols + c0 - 1) / c0;
        std::vector<uint8_t> image(static_cast<size_t>(matrices * colTiles * paddedRows * c0 * elementSize), 0);
        for (int64_t m = 0; m < matrices; ++m) {
            for (int64_t r = 0; r < rows; ++r) {
                for (int64_t c = 0; c < cols; ++c) {
                    const int64_t at = m * colTiles * paddedRows * c0 + (c / c0) * paddedRows * c0 + r * c0 + c % c0;
                    const uint64_t v = value(m, r, c);
                    std::memcpy(&image[static_cast<size_t>(at * elementSize)], &v, static_cast<size_t>(elementSize));
                }
            }
        }
        return image;
    }


    static aclFormat format_of(const aclTensor* tensor) {
        aclFormat format = ACL_FORMAT_UNDEFINED;
        EXPECT_EQ(aclGetFormat(tensor, &format), ACLNN_SUCCESS);
        return format;
    }

    /// Runs a dense [matrices..., rows, cols] weight and checks its NZ image.
    void expect_nz(const std::vector<int64_t>& shape, aclDataType dtype, int64_t elementSize,
                   const std::vector<int64_t>& expectedStorage) {
        SCOPED_TRACE("dtype " + std::to_string(dtype));
        const int64_t rows = shape[shape.size() - 2];
        const int64_t cols = shape[shape.size() - 1];
        int64_t matrices = 1;
        for (size_t d = 0; d + 2 < shape.size(); ++d) matrices *= shape[d];
        const auto value = [&](int64_t m, int64_t r, int64_t c) {
            return static_cast<uint64_t>((m * 131 + r * 17 + c) % 251 + 1) * 0x0101u;  // never 0, unlike the padding
        };
        std::vector<int64_t> strides(shape.size(), 1);
        for (size_t d = shape.size() - 1; d > 0; --d) strides[d - 1] = strides[d] * shape[d];
        std::vector<uint8_t> dense(static_cast<size_t>(matrices * rows * cols * elementSize));
        for (int64_t m = 0; m < matrices; ++m) {
            for (int64_t r = 0; r < rows; ++r) {
                for (int64_t c = 0; c < cols; ++c) {
                    const uint64_t v = value(m, r, c);
                    std::memcpy(&dense[static_cast<size_t>(((m * rows + r) * cols + c) * elementSize)], &v,
                                static_cast<size_t>(elementSize));
                }
            }
        }
        NzWeight weight(shape, strides, dtype, dense, elementSize);
        ASSERT_EQ(trans(weight), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        EXPECT_EQ(format_of(weight.get()), ACL_FORMAT_FRACTAL_NZ);
        EXPECT_EQ(aclcpu::testkit::take_array(aclGetStorageShape, weight.get()), expectedStorage);
        const std::vector<uint8_t> expected = nz_image(matrices, rows, cols, elementSize, value);
        const std::vector<uint8_t> got = weight.bytes();
        ASSERT_GE(got.size(), expected.size());
        EXPECT_EQ(std::vector<uint8_t>(got.begin(), got.begin() + static_cast<long>(expected.size())), expected);
    }
};

// ASCEND910B_DTYPE_DTYPE_SUPPORT_LIST: FLOAT16, BF16 (c0 16), INT8, UINT8,
// FLOAT8_E4M3FN, HIFLOAT8 (c0 32); 2 to 6 dims.
TEST_F(TransMatmulWeight, EveryListedDtypeLaidOutInFractals) {
    expect_nz({20, 40}, ACL_FLOAT16, 2, {3, 2, 16, 16});
    expect_nz({2, 3, 16, 16}, ACL_BF16, 2, {2, 3, 1, 1, 16, 16});
    expect_nz({33, 70}, ACL_INT8, 1, {3, 3, 16, 32});
    expect_nz({1, 1}, ACL_UINT8, 1, {1, 1, 16, 32});
    expect_nz({2, 17, 33}, ACL_FLOAT8_E4M3FN, 1, {2, 2, 2, 16, 32});
    expect_nz({1, 1, 1, 1, 5, 3}, ACL_HIFLOAT8, 1, {1, 1, 1, 1, 1, 1, 16, 32});
}

// ggml hands its weights over as [K, N] views of [N, K] data: the view is
// what gets laid out.
TEST_F(TransMatmulWeight, TransposedViewIsLaidOutAsItReads) {
    const int64_t k = 24, n = 18;  // data [n, k]; view [k, n], strides [1, k]
    std::vector<uint8_t> data(static_cast<size_t>(n * k * 2));
    const auto value = [](int64_t, int64_t r, int64_t c) { return static_cast<uint64_t>(r * 100 + c + 1); };
    for (int64_t row = 0; row < n; ++row) {
        for (int64_t col = 0; col < k; ++col) {
            const auto v = static_cast<uint16_t>(value(0, col, row));  // view (col, row) = data (row, col)
            std::memcpy(&data[static_cast<size_t>((row * k + col) * 2)], &v, 2);
        }
    }
    NzWeight weight({k, n}, {1, k}, ACL_FLOAT16, data, 2);
    ASSERT_EQ(trans(weight), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    const std::vector<uint8_t> expected = nz_image(1, k, n, 2, value);
    const std::vector<uint8_t> got = weight.bytes();
    EXPECT_EQ(std::vector<uint8_t>(got.begin(), got.begin() + static_cast<long>(expected.size())), expected);
}

TEST_F(TransMatmulWeight, EmptyWeightKeepsItsLayout) {
    NzWeight weight({0, 16}, {16, 1}, ACL_FLOAT16, {}, 2, 64);
    ASSERT_EQ(trans(weight), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(format_of(weight.get()), ACL_FORMAT_ND);
}

TEST_F(TransMatmulWeight, Errors) {
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    expect_error(aclnnTransMatmulWeightGetWorkspaceSize(nullptr, &workspace, &executor), ACLNN_ERR_PARAM_NULLPTR);
    const auto phase1 = [&](const std::vector<int64_t>& shape, aclDataType dtype, aclFormat format) {
        std::vector<int64_t> strides(shape.size(), 1);
        for (size_t d = shape.size(); d > 1; --d) strides[d - 2] = strides[d - 1] * shape[d - 1];
        aclTensor* tensor = aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), 0, format,
                                            shape.data(), shape.size(), nullptr);
        const aclnnStatus status = aclnnTransMatmulWeightGetWorkspaceSize(tensor, &workspace, &executor);
        aclDestroyTensor(tensor);
        return status;
    };
    expect_error_naming(phase1({4, 4}, ACL_FLOAT, ACL_FORMAT_ND), ACLNN_ERR_PARAM_INVALID, "DT_FLOAT");
    expect_error_naming(phase1({4, 4}, ACL_FLOAT16, ACL_FORMAT_NCHW), ACLNN_ERR_PARAM_INVALID,
                        "the format of input should be ND. Actual is [NCHW].");
    expect_error(phase1({1, 1, 1, 1, 1, 1, 1, 1, 1}, ACL_FLOAT16, ACL_FORMAT_ND), ACLNN_ERR_PARAM_INVALID);
    expect_error_naming(phase1({16}, ACL_FLOAT16, ACL_FORMAT_ND), ACLNN_ERR_PARAM_INVALID,
                        "It is expected that tensorShape has 2-6 dimensions, but got dimensions 1.");
    expect_error(phase1({1, 1, 1, 1, 1, 1, 16}, ACL_INT8, ACL_FORMAT_ND), ACLNN_ERR_PARAM_INVALID);
    // acl-cpu: the fractals need their whole size in device memory.
    expect_error_naming(phase1({16, 16}, ACL_FLOAT16, ACL_FORMAT_ND), ACLNN_ERR_PARAM_INVALID, "device memory");
    std::vector<uint8_t> dense(20 * 40 * 2, 1);
    NzWeight ndSized({20, 40}, {40, 1}, ACL_FLOAT16, dense, 2, dense.size());
    expect_error_naming(phase1_of(aclnnTransMatmulWeightGetWorkspaceSize, ndSized.get()), ACLNN_ERR_PARAM_INVALID,
                        "aclnnCalculateMatmulWeightSizeV2");
    EXPECT_EQ(format_of(ndSized.get()), ACL_FORMAT_ND);
}

}  // namespace
