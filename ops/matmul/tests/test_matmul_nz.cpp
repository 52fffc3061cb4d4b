// mat2 in FRACTAL_NZ: aclnnMatmulWeightNz, aclnnBatchMatMulWeightNz and the
// Mm family reading an NZ mat2, against double products.  The NZ image is
// written here from the layout's definition (c0 16 for every dtype, as
// GetWeightNzShape: element (r, c) of a [rows, cols] matrix at
// ((c / 16) * ceil(rows / 16) * 16 + r) * 16 + c % 16, zero padded), for
// [k, n] views and for transposed [k, n] views of an [n, k] image (ggml's
// weights, CANN's GetTransposeAttrValue); once through aclnnTransMatmulWeight
// as ggml does it.  Odd sizes (7, 33, 257, a K beyond one chunk, an N
// beyond one tile), and every error path of the WeightNz checks.
#include <cstring>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_trans_matmul_weight.h"
#include "aclcpu_testkit/tensor_copy.hpp"
#include "matmul_test_support.hpp"

namespace {

using namespace optest;

int64_t up16(int64_t v) { return (v + 15) / 16 * 16; }

/// A FRACTAL_NZ mat2 over batch: the NZ image of row-major [rows, cols]
/// matrices of `values`, viewed as [batch..., rows, cols] (k = rows), or
/// transposed as [batch..., cols, rows] with strides [1, cols] (k = cols).
class NzMat2 {
public:
    NzMat2(const Shape& batch, int64_t rows, int64_t cols, aclDataType dtype, const std::vector<double>& values,
           bool transposed)
        : values_(values), transposed_(transposed), rows_(rows), cols_(cols) {
        for (double& v : values_) v = in_dtype(v, dtype);
        const int64_t matrix = up16(rows) * up16(cols);
        const int64_t count = numel(batch);
        const size_t width = dtype_bytes(dtype);
        std::vector<uint8_t> image(static_cast<size_t>(count * matrix) * width, 0);
        for (int64_t b = 0; b < count; ++b) {
            for (int64_t r = 0; r < rows; ++r) {
                for (int64_t c = 0; c < cols; ++c) {
                    const int64_t at = b * matrix + ((c / 16) * up16(rows) + r) * 16 + c % 16;
                    encode_at(&image[static_cast<size_t>(at) * width], dtype, values[(b * rows + r) * cols + c]);
                }
            }
        }
        buffer_ = std::make_unique<DeviceBuffer>(image.size());
        buffer_->upload(image);
        Shape storage = batch;
        for (const int64_t d : {up16(cols) / 16, up16(rows) / 16, int64_t{16}, int64_t{16}}) storage.push_back(d);
        shape_ = batch;
        shape_.push_back(transposed ? cols : rows);
        shape_.push_back(transposed ? rows : cols);
        Shape strides(batch.size(), 0);
        for (size_t d = batch.size(); d-- > 0;) {
            strides[d] = rows * cols * numel(Shape(batch.begin() + d + 1, batch.end()));
        }
        strides.push_back(transposed ? 1 : cols);
        strides.push_back(transposed ? cols : 1);
        tensor_ = aclCreateTensor(shape_.data(), shape_.size(), dtype, strides.data(), 0, ACL_FORMAT_FRACTAL_NZ,
                                  storage.data(), storage.size(), buffer_->get());
    }
    ~NzMat2() { aclDestroyTensor(tensor_); }
    aclTensor* get() const { return tensor_; }
    const Shape& shape() const { return shape_; }
    /// Element (k, n) of matrix b of the view (in the dtype).
    double at(int64_t b, int64_t k, int64_t n) const {
        const int64_t r = transposed_ ? n : k;
        const int64_t c = transposed_ ? k : n;
        return values_[static_cast<size_t>((b * rows_ + r) * cols_ + c)];
    }

private:
    std::vector<double> values_;
    bool transposed_;
    int64_t rows_;
    int64_t cols_;
    std::unique_ptr<DeviceBuffer> buffer_;
    Shape shape_;
    aclTensor* tensor_ = nullptr;
};

using Entry = aclnnStatus (*)(const aclTensor*, const aclTensor*, aclTensor*, int8_t, uint64_t*, aclOpExecutor**);

class NzMatmuls : public AclTest {
protected:
    /// Runs entry on self (of selfShape, [batch..., m, k]; a batch of 1 or
    /// none broadcast) and mat2, compares out ([batch..., m, n], outDtype)
    /// with the product in double (operands in their dtypes).
    void expect_product(Entry entry, Phase2 phase2, const Shape& selfShape, aclDataType dtype, const NzMat2& mat2,
                        aclDataType outDtype, int8_t cmt = 0) {
        DeviceTensor self(TensorSpec(selfShape, dtype));
        self.write(uniform(static_cast<size_t>(numel(selfShape)), -2, 2, 31));
        const Shape& b = mat2.shape();
        Shape outShape(b.begin(), b.end() - 2);
        if (outShape.empty() && selfShape.size() > 2) outShape.push_back(selfShape[0]);
        const int64_t m = selfShape[selfShape.size() - 2];
        const int64_t k = selfShape.back();
        const int64_t n = b.back();
        const int64_t batches = numel(outShape);
        const int64_t mat2Batches = numel(Shape(b.begin(), b.end() - 2));
        outShape.push_back(m);
        outShape.push_back(n);
        auto out = DeviceTensor::output(TensorSpec(outShape, outDtype));
        ASSERT_EQ(run_aclnn(stream_, entry, phase2, self.get(), mat2.get(), out->get(), cmt), ACLNN_SUCCESS);
        const std::vector<double> xs = self.read();
        const std::vector<double> got = out->read();
        const int64_t selfBatches = numel(Shape(selfShape.begin(), selfShape.end() - 2));
        for (int64_t bt = 0; bt < batches; ++bt) {
            for (int64_t i = 0; i < m; ++i) {
                for (int64_t j = 0; j < n; ++j) {
                    double sum = 0;
                    double magnitude = 0;
                    for (int64_t p = 0; p < k; ++p) {
                        const double term = xs[static_cast<size_t>(((selfBatches == 1 ? 0 : bt) * m + i) * k + p)] *
                                            mat2.at(mat2Batches == 1 ? 0 : bt, p, j);
                        sum += term;
                        magnitude += std::fabs(term);
                    }
                    const double tol = 2.0 * static_cast<double>(k) * std::ldexp(magnitude, -24) +
                                       (relative_ulp(outDtype) + relative_ulp(dtype)) * std::fabs(sum);
                    ASSERT_LE(std::fabs(got[static_cast<size_t>((bt * m + i) * n + j)] - sum), tol)
                        << "at batch " << bt << " (" << i << "," << j << ")";
                }
            }
        }
    }
};

std::vector<double> values_of(int64_t n, uint32_t seed) { return uniform(static_cast<size_t>(n), -2, 2, seed); }

// MatmulWeightNz: [k, n] images and transposed views, every dtype (FLOAT
// weights too on A2), odd sizes; a K past one chunk and an N past one tile;
// a few rows against a transposed view (ggml's token) through the engine's
// gemv path, across K chunks, c0 runs and 256-column tiles.
TEST_F(NzMatmuls, MatmulWeightNzSizesDtypesAndTransposes) {
    for (const aclDataType dtype : {ACL_FLOAT16, ACL_BF16, ACL_FLOAT}) {
        for (const bool transposed : {false, true}) {
            for (const auto& [m, k, n] :
                 {std::tuple<int64_t, int64_t, int64_t>{7, 33, 9}, {1, 257, 40}, {5, 16, 2}, {3, 600, 300}}) {
                SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n) +
                             (transposed ? " transposed" : ""));
                const int64_t rows = transposed ? n : k;
                const int64_t cols = transposed ? k : n;
                const NzMat2 mat2({}, rows, cols, dtype, values_of(rows * cols, 32), transposed);
                expect_product(aclnnMatmulWeightNzGetWorkspaceSize, aclnnMatmulWeightNz, {m, k}, dtype, mat2, dtype);
            }
        }
    }
    const NzMat2 wide({}, 600, 1100, ACL_FLOAT16, values_of(600 * 1100, 33), false);
    expect_product(aclnnMatmulWeightNzGetWorkspaceSize, aclnnMatmulWeightNz, {70, 600}, ACL_FLOAT16, wide, ACL_FLOAT);
}

// The Mm family takes an NZ mat2 where CANN does (Mm, BatchMatMul and its
// WeightNz form, Matmul's batch broadcast), transposed too.
TEST_F(NzMatmuls, MmFamilyReadsNzMat2) {
    const NzMat2 weight({}, 40, 24, ACL_FLOAT16, values_of(40 * 24, 34), true);  // view [24, 40]
    expect_product(aclnnMmGetWorkspaceSize, aclnnMm, {9, 24}, ACL_FLOAT16, weight, ACL_FLOAT16);
    expect_product(aclnnMatmulGetWorkspaceSize, aclnnMatmul, {3, 9, 24}, ACL_FLOAT16, weight, ACL_FLOAT);
    const NzMat2 batched({3}, 24, 40, ACL_BF16, values_of(3 * 24 * 40, 35), false);
    expect_product(aclnnBatchMatMulGetWorkspaceSize, aclnnBatchMatMul, {3, 9, 24}, ACL_BF16, batched, ACL_BF16);
    expect_product(aclnnBatchMatMulWeightNzGetWorkspaceSize, aclnnBatchMatMulWeightNz, {1, 9, 24}, ACL_BF16, batched,
                   ACL_FLOAT, 4);
    const NzMat2 batchedT({2}, 40, 24, ACL_FLOAT16, values_of(2 * 24 * 40, 36), true);
    expect_product(aclnnBatchMatMulWeightNzGetWorkspaceSize, aclnnBatchMatMulWeightNz, {2, 9, 24}, ACL_FLOAT16,
                   batchedT, ACL_FLOAT16);
}

// ggml's flow: an [n, k] weight laid out by aclnnTransMatmulWeight, then
// read through a transposed [k, n] NZ view of the same memory.
TEST_F(NzMatmuls, TransMatmulWeightThenTransposedView) {
    const int64_t n = 20;
    const int64_t k = 35;
    DeviceTensor weight(TensorSpec({n, k}, ACL_FLOAT16, {}, 0, {up16(n) * up16(k)}));
    const std::vector<double> values = values_of(n * k, 37);
    weight.write(values);
    ASSERT_EQ(run_aclnn(stream_, aclnnTransMatmulWeightGetWorkspaceSize, aclnnTransMatmulWeight, weight.get()),
              ACLNN_SUCCESS);
    const Shape storage = aclcpu::testkit::take_array(aclGetStorageShape, weight.get());
    const Shape view = {k, n};
    const Shape strides = {1, k};
    void* data = nullptr;
    ASSERT_EQ(aclGetRawTensorAddr(weight.get(), &data), ACL_SUCCESS);
    aclTensor* nz = aclCreateTensor(view.data(), 2, ACL_FLOAT16, strides.data(), 0, ACL_FORMAT_FRACTAL_NZ,
                                    storage.data(), storage.size(), data);
    DeviceTensor self(TensorSpec({6, k}, ACL_FLOAT16), values_of(6 * k, 38));
    auto out = DeviceTensor::output(TensorSpec({6, n}, ACL_FLOAT));
    ASSERT_EQ(run_aclnn(stream_, aclnnMmGetWorkspaceSize, aclnnMm, self.get(), nz, out->get(), int8_t{0}),
              ACLNN_SUCCESS);
    aclDestroyTensor(nz);
    const std::vector<double> xs = self.read();
    const std::vector<double> got = out->read();
    for (int64_t i = 0; i < 6; ++i) {
        for (int64_t j = 0; j < n; ++j) {
            double sum = 0;
            for (int64_t p = 0; p < k; ++p) sum += xs[i * k + p] * in_dtype(values[j * k + p], ACL_FLOAT16);
            EXPECT_NEAR(got[i * n + j], sum, 1e-5 * (1 + std::fabs(sum))) << i << "," << j;
        }
    }
}

// AddmmWeightNz: beta * self (broadcast) + alpha * (mat1 @ NZ mat2), and
// its own checks (the formats, the k- and n-axes of 1).
TEST_F(NzMatmuls, AddmmWeightNz) {
    const NzMat2 mat2({}, 40, 24, ACL_BF16, values_of(40 * 24, 47), false);
    DeviceTensor self(TensorSpec({24}, ACL_FLOAT), values_of(24, 48));
    DeviceTensor mat1(TensorSpec({5, 40}, ACL_BF16), values_of(5 * 40, 49));
    auto out = DeviceTensor::output(TensorSpec({5, 24}, ACL_FLOAT));
    const Scalar beta(0.5);
    const Scalar alpha(2.0);
    ASSERT_EQ(run_aclnn(stream_, aclnnAddmmWeightNzGetWorkspaceSize, aclnnAddmmWeightNz, self.get(), mat1.get(),
                        mat2.get(), beta.get(), alpha.get(), out->get(), int8_t{0}),
              ACLNN_SUCCESS);
    const std::vector<double> s = self.read();
    const std::vector<double> a = mat1.read();
    const std::vector<double> got = out->read();
    for (int64_t i = 0; i < 5; ++i) {
        for (int64_t j = 0; j < 24; ++j) {
            double sum = 0;
            for (int64_t p = 0; p < 40; ++p) sum += a[i * 40 + p] * mat2.at(0, p, j);
            EXPECT_NEAR(got[i * 24 + j], 0.5 * s[j] + 2 * sum, 1e-5 * (1 + std::fabs(sum))) << i << "," << j;
        }
    }
    const auto phase1 = [&](const aclTensor* m1, const aclTensor* m2, const DeviceTensor& o) {
        return phase1_of(aclnnAddmmWeightNzGetWorkspaceSize, self.get(), m1, m2, beta.get(), alpha.get(), o.get(),
                         int8_t{0});
    };
    DeviceTensor nd(TensorSpec({40, 24}, ACL_BF16), std::vector<double>(960, 1));
    expect_error_naming(phase1(mat1.get(), nd.get(), *out), ACLNN_ERR_PARAM_INVALID,
                        "Invalid format, Format of self is [ND], mat1 is [ND], mat2 is [ND].");
    DeviceTensor floats(TensorSpec({5, 40}, ACL_FLOAT), std::vector<double>(200, 1));
    expect_error_naming(phase1(floats.get(), mat2.get(), *out), ACLNN_ERR_PARAM_INVALID,
                        "Tensor mat1 not implemented for DT_FLOAT");
    const NzMat2 oneColumn({}, 40, 1, ACL_BF16, values_of(40, 50), false);
    auto out1 = DeviceTensor::output(TensorSpec({5, 1}, ACL_FLOAT));
    expect_error_naming(phase1(mat1.get(), oneColumn.get(), *out1), ACLNN_ERR_PARAM_INVALID,
                        "The k-axis or n-axis can not be 1.");
}

TEST_F(NzMatmuls, MatmulWeightNzErrorPaths) {
    const NzMat2 mat2({}, 32, 16, ACL_FLOAT16, values_of(32 * 16, 39), false);
    DeviceTensor self(TensorSpec({4, 32}, ACL_FLOAT16), values_of(4 * 32, 40));
    auto out = DeviceTensor::output(TensorSpec({4, 16}, ACL_FLOAT16));
    expect_each_null_is_161001_naming(aclnnMatmulWeightNzGetWorkspaceSize, {"self", "mat2", "out"}, self.get(),
                                      mat2.get(), out->get(), int8_t{0});
    const auto phase1 = [](const aclTensor* x, const aclTensor* y, const DeviceTensor& o, int8_t cmt = 0) {
        return phase1_of(aclnnMatmulWeightNzGetWorkspaceSize, x, y, o.get(), cmt);
    };
    // A self of another dtype than the FLOAT16 mat2 and out.
    const std::pair<aclDataType, const char*> refusedSelfDtypes[] = {
        {ACL_DOUBLE, "Tensor self not implemented for DT_DOUBLE"},
        {ACL_FLOAT, "Input tensor's dtype[DT_FLOAT] should be same with output's dtype[DT_FLOAT16]."},
        {ACL_BF16,
         "The dtypes of self and mat2 must be both DT_BF16 or both DT_FLOAT16, now self's dtype is [DT_BF16], mat2's "
         "dtype is [DT_FLOAT16]"}};
    for (const auto& [dtype, message] : refusedSelfDtypes) {
        DeviceTensor other(TensorSpec({4, 32}, dtype), std::vector<double>(128, 1));
        expect_error_naming(phase1(other.get(), mat2.get(), *out), ACLNN_ERR_PARAM_INVALID, message);
    }
    DeviceTensor nd(TensorSpec({32, 16}, ACL_FLOAT16), std::vector<double>(512, 1));
    expect_error_naming(phase1(self.get(), nd.get(), *out), ACLNN_ERR_PARAM_INVALID,
                        "Format of mat2 must be FRACTAL_NZ, actual is ND.");
    DeviceTensor self3(TensorSpec({1, 4, 32}, ACL_FLOAT16), std::vector<double>(128, 1));
    expect_error_naming(phase1(self3.get(), mat2.get(), *out), ACLNN_ERR_PARAM_INVALID, "but got self with sizes");
    const NzMat2 batched({1}, 32, 16, ACL_FLOAT16, values_of(512, 41), false);
    expect_error_naming(phase1(self.get(), batched.get(), *out), ACLNN_ERR_PARAM_INVALID, "but got mat2 with sizes");
    const NzMat2 oneColumn({}, 32, 1, ACL_FLOAT16, values_of(32, 42), false);
    auto out1 = DeviceTensor::output(TensorSpec({4, 1}, ACL_FLOAT16));
    expect_error_naming(phase1(self.get(), oneColumn.get(), *out1), ACLNN_ERR_PARAM_INVALID,
                        "Not supported mat2 n = 1 or k = 1 when format is FRACTAL_NZ, mat2: [32,1]");
    DeviceTensor self40(TensorSpec({4, 40}, ACL_FLOAT16), std::vector<double>(160, 1));
    expect_error_naming(phase1(self40.get(), mat2.get(), *out), ACLNN_ERR_PARAM_INVALID,
                        "The k-axis of the two inputs are different [4,40], [32,16]");
    expect_error_naming(phase1(self.get(), mat2.get(), *out, 9), ACLNN_ERR_PARAM_INVALID,
                        "The value of cubeMathType only support");
    auto outWide = DeviceTensor::output(TensorSpec({4, 17}, ACL_FLOAT16));
    expect_error_naming(phase1(self.get(), mat2.get(), *outWide), ACLNN_ERR_PARAM_INVALID, "out");
    // The storage holds more than the NZ image (CheckWeightNzStorageShape).
    DeviceBuffer buffer(4096);
    const Shape view = {32, 16};
    const Shape strides = {16, 1};
    const Shape storage = {2, 2, 16, 16};
    aclTensor* padded = aclCreateTensor(view.data(), 2, ACL_FLOAT16, strides.data(), 0, ACL_FORMAT_FRACTAL_NZ,
                                        storage.data(), storage.size(), buffer.get());
    expect_error_naming(phase1(self.get(), padded, *out), ACLNN_ERR_PARAM_INVALID,
                        "mat2's format only supports NZ, but now mat2's format is not NZ, please convert the input "
                        "format to NZ.");
    const Shape storage3 = {1, 2, 16, 16, 1};
    aclTensor* fiveDims = aclCreateTensor(view.data(), 2, ACL_FLOAT16, strides.data(), 0, ACL_FORMAT_FRACTAL_NZ,
                                          storage3.data(), 3, buffer.get());
    expect_error_naming(phase1(self.get(), fiveDims, *out), ACLNN_ERR_PARAM_INVALID,
                        "Only support mat2 storageShapeDim is 4, which are [3].");
    aclDestroyTensor(padded);
    aclDestroyTensor(fiveDims);
}

TEST_F(NzMatmuls, BatchMatMulWeightNzErrorPaths) {
    const NzMat2 mat2({2}, 32, 16, ACL_FLOAT16, values_of(2 * 32 * 16, 43), false);
    DeviceTensor self(TensorSpec({2, 4, 32}, ACL_FLOAT16), values_of(2 * 4 * 32, 44));
    auto out = DeviceTensor::output(TensorSpec({2, 4, 16}, ACL_FLOAT16));
    expect_each_null_is_161001_naming(aclnnBatchMatMulWeightNzGetWorkspaceSize, {"self", "mat2", "out"}, self.get(),
                                      mat2.get(), out->get(), int8_t{0});
    const auto phase1 = [](const aclTensor* x, const aclTensor* y, const DeviceTensor& o) {
        return phase1_of(aclnnBatchMatMulWeightNzGetWorkspaceSize, x, y, o.get(), int8_t{0});
    };
    DeviceTensor floats(TensorSpec({2, 4, 32}, ACL_FLOAT), std::vector<double>(256, 1));
    expect_error_naming(phase1(floats.get(), mat2.get(), *out), ACLNN_ERR_PARAM_INVALID,
                        "Tensor self not implemented for DT_FLOAT");
    auto outFloat = DeviceTensor::output(TensorSpec({2, 4, 16}, ACL_FLOAT));
    DeviceTensor bf16(TensorSpec({2, 4, 32}, ACL_BF16), std::vector<double>(256, 1));
    expect_error_naming(phase1(bf16.get(), mat2.get(), *outFloat), ACLNN_ERR_PARAM_INVALID,
                        "Tensor out not implemented");
    expect_error_naming(phase1(bf16.get(), mat2.get(), *out), ACLNN_ERR_PARAM_INVALID,
                        "self's dtype [DT_BF16] and mat2's dtype [DT_FLOAT16] are not equal.");
    auto outBf16 = DeviceTensor::output(TensorSpec({2, 4, 16}, ACL_BF16));
    expect_error_naming(phase1(self.get(), mat2.get(), *outBf16), ACLNN_ERR_PARAM_INVALID,
                        "self's dtype [DT_FLOAT16] and out's dtype [DT_BF16] are not equal.");
    const NzMat2 oneColumn({2}, 32, 1, ACL_FLOAT16, values_of(64, 45), false);
    auto out1 = DeviceTensor::output(TensorSpec({2, 4, 1}, ACL_FLOAT16));
    expect_error_naming(phase1(self.get(), oneColumn.get(), *out1), ACLNN_ERR_PARAM_INVALID,
                        "The k-axis or n-axis can not be 1.");
    const NzMat2 flat({}, 32, 16, ACL_FLOAT16, values_of(512, 46), false);
    expect_error_naming(phase1(self.get(), flat.get(), *out), ACLNN_ERR_PARAM_INVALID,
                        "otherTensor with sizes [32,16]");
    // Storage of 4 dims: the batch folded away.
    DeviceBuffer buffer(8192);
    const Shape view = {2, 32, 16};
    const Shape strides = {512, 16, 1};
    const Shape storage = {2, 2, 16, 16};
    aclTensor* folded = aclCreateTensor(view.data(), 3, ACL_FLOAT16, strides.data(), 0, ACL_FORMAT_FRACTAL_NZ,
                                        storage.data(), storage.size(), buffer.get());
    expect_error_naming(phase1(self.get(), folded, *out), ACLNN_ERR_PARAM_INVALID,
                        "Only support mat2 storageShapeDim is 5, which are [4].");
    aclDestroyTensor(folded);
}

}  // namespace
