// aclnnWeightQuantBatchMatmulV2 against double-precision products computed
// here from the integer weights, scales and offsets: ANTIQUANT(w) = (w +
// offset) * scale rounded as the device's vector unit rounds it (fp16 x:
// the sum and the product each to fp16; bf16 x: fp32 steps, the product to
// bf16), then the sum over K with fp32 accumulation's error bound plus y's
// rounding.  INT8 and INT4 (two a byte, the low nibble first), per tensor,
// channel and group, with and without offset and bias, ggml's transposed
// views, odd sizes, M = 1, every error path, and results independent of
// the worker count.
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_weight_quant_batch_matmul_v2.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

/// An INT4 tensor: values (the view's, row-major) packed two a byte at
/// their storage positions (nibbles) of a [storage] buffer.
class Int4Tensor {
public:
    /// declaredStorage > 0: the storage aclCreateTensor is told (ggml's
    /// views with an offset declare it without the offset).
    Int4Tensor(const Shape& shape, const Shape& strides, int64_t offset, const std::vector<int>& values,
               int64_t declaredStorage = 0) {
        const std::vector<int64_t> positions = view_positions(shape, strides, offset);
        int64_t storage = 1;
        for (int64_t p : positions) storage = std::max(storage, p + 1);
        std::vector<uint8_t> bytes(static_cast<size_t>((storage + 1) / 2), 0x5A);
        for (size_t i = 0; i < positions.size(); ++i) {
            uint8_t& byte = bytes[static_cast<size_t>(positions[i] / 2)];
            const auto nibble = static_cast<uint8_t>(values[i] & 0x0F);
            byte = positions[i] % 2 == 0 ? static_cast<uint8_t>((byte & 0xF0) | nibble)
                                         : static_cast<uint8_t>((byte & 0x0F) | (nibble << 4));
        }
        require_success(aclrtMalloc(&data_, bytes.size(), ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
        require_success(aclrtMemcpy(data_, bytes.size(), bytes.data(), bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE),
                        "aclrtMemcpy");
        const Shape storageShape = {declaredStorage > 0 ? declaredStorage : storage};
        tensor_ = aclCreateTensor(shape.data(), shape.size(), ACL_INT4, strides.data(), offset, ACL_FORMAT_ND,
                                  storageShape.data(), 1, data_);
    }
    ~Int4Tensor() {
        aclDestroyTensor(tensor_);
        aclrtFree(data_);
    }
    Int4Tensor(const Int4Tensor&) = delete;
    Int4Tensor& operator=(const Int4Tensor&) = delete;
    aclTensor* get() const { return tensor_; }

private:
    void* data_ = nullptr;
    aclTensor* tensor_ = nullptr;
};

/// Which antiquant parameters a case has.
enum class Mode { kTensor, kChannel, kChannel2d, kGroup };

struct Case {
    int64_t m = 1;
    int64_t k = 64;
    int64_t n = 8;
    aclDataType xDtype = ACL_FLOAT16;
    aclDataType weightDtype = ACL_INT8;
    Mode mode = Mode::kChannel;
    int groupSize = 0;
    bool transposedWeight = false;  ///< ggml's [k, n] view of an [n, k] storage
    bool transposedX = false;
    bool offset = false;
    bool bias = false;
    int64_t weightOffset = 0;  ///< the weight view's offset (elements)
    double scaleLow = 0.002;   ///< the scales' range
    double scaleHigh = 0.05;
    double xMagnitude = 1;     ///< x in [-xMagnitude, xMagnitude]
};

std::string describe(const Case& c) {
    return "m " + std::to_string(c.m) + " k " + std::to_string(c.k) + " n " + std::to_string(c.n) + " x " +
           std::to_string(c.xDtype) + " w " + std::to_string(c.weightDtype) + " mode " +
           std::to_string(static_cast<int>(c.mode)) + " group " + std::to_string(c.groupSize) +
           (c.transposedWeight ? " wT" : "") + (c.transposedX ? " xT" : "") + (c.offset ? " offset" : "") +
           (c.bias ? " bias" : "") + " scales " + std::to_string(c.scaleLow) + ".." + std::to_string(c.scaleHigh);
}

/// ggml's call: x [m, k], the weight a [k, n] view of an [n, k] storage,
/// the scale a [k / groupSize, n] view of [n, k / groupSize].
Case ggml_case(int64_t m, int64_t k, int64_t n, aclDataType weightDtype, int groupSize = 32) {
    Case c;
    c.m = m;
    c.k = k;
    c.n = n;
    c.weightDtype = weightDtype;
    c.mode = Mode::kGroup;
    c.groupSize = groupSize;
    c.transposedWeight = true;
    return c;
}

/// The device's ANTIQUANT of w for an x of dtype xDtype.
double antiquant(double w, double scale, double offset, aclDataType xDtype) {
    if (xDtype == ACL_FLOAT16) return in_dtype(in_dtype(w + offset, ACL_FLOAT16) * scale, ACL_FLOAT16);
    return in_dtype(in_dtype(in_dtype(w + offset, ACL_FLOAT) * scale, ACL_FLOAT), ACL_BF16);
}

class WeightQuantMatmul : public AclTest {
protected:
    /// Runs c; returns y read back (and checks it against the reference).
    std::vector<double> run_case(const Case& c, bool check = true) {
        SCOPED_TRACE(describe(c));
        const Shape xStrides = c.transposedX ? Shape{1, c.m} : Shape{};
        DeviceTensor x(TensorSpec({c.m, c.k}, c.xDtype, xStrides), uniform(static_cast<size_t>(c.m * c.k), -c.xMagnitude, c.xMagnitude, 3));
        const int low = c.weightDtype == ACL_INT4 ? -8 : -128;
        const int high = c.weightDtype == ACL_INT4 ? 7 : 127;
        std::vector<int> ints;
        for (double v : uniform(static_cast<size_t>(c.k * c.n), low, high + 1, 5)) {
            ints.push_back(std::min(high, static_cast<int>(std::floor(v))));
        }
        const Shape wStrides = c.transposedWeight ? Shape{1, c.k} : Shape{c.n, 1};
        std::unique_ptr<DeviceTensor> weight8;
        std::unique_ptr<Int4Tensor> weight4;
        if (c.weightDtype == ACL_INT4) {
            weight4 = std::make_unique<Int4Tensor>(Shape{c.k, c.n}, wStrides, c.weightOffset, ints);
        } else {
            weight8 = std::make_unique<DeviceTensor>(TensorSpec({c.k, c.n}, ACL_INT8, wStrides, c.weightOffset),
                                                     std::vector<double>(ints.begin(), ints.end()));
        }
        const int64_t groups = c.mode == Mode::kGroup ? (c.k + c.groupSize - 1) / c.groupSize : 1;
        Shape pShape = {c.n};
        Shape pStrides = {};
        if (c.mode == Mode::kTensor) pShape = {1};
        if (c.mode == Mode::kChannel2d) pShape = {1, c.n};
        if (c.mode == Mode::kGroup) {
            pShape = {groups, c.n};
            if (c.transposedWeight) pStrides = {1, groups};  // ggml's [K/32, N] view
        }
        const size_t pCount = static_cast<size_t>(numel(pShape));
        DeviceTensor scale(TensorSpec(pShape, c.xDtype, pStrides), uniform(pCount, c.scaleLow, c.scaleHigh, 7));
        DeviceTensor offset(TensorSpec(pShape, c.xDtype, pStrides), uniform(pCount, -3, 3, 9));
        const aclDataType biasDtype = c.xDtype == ACL_FLOAT16 ? ACL_FLOAT16 : ACL_FLOAT;
        DeviceTensor bias(TensorSpec({c.n}, biasDtype), uniform(static_cast<size_t>(c.n), -1, 1, 13));
        auto y = DeviceTensor::output(TensorSpec({c.m, c.n}, c.xDtype));
        const aclTensor* w = weight4 ? weight4->get() : weight8->get();
        const aclnnStatus status = run_aclnn(stream_, aclnnWeightQuantBatchMatmulV2GetWorkspaceSize,
                                             aclnnWeightQuantBatchMatmulV2, x.get(), w, scale.get(),
                                             c.offset ? offset.get() : nullptr, nullptr, nullptr,
                                             c.bias ? bias.get() : nullptr, c.groupSize, y->get());
        EXPECT_EQ(status, ACLNN_SUCCESS) << aclGetRecentErrMsg();
        const std::vector<double> actual = y->read();
        if (check) expect_reference(c, x.read(), ints, scale.read(), offset.read(), bias.read(), actual);
        return actual;
    }

    static void expect_reference(const Case& c, const std::vector<double>& xs, const std::vector<int>& ints,
                                 const std::vector<double>& scales, const std::vector<double>& offsets,
                                 const std::vector<double>& biases, const std::vector<double>& actual) {
        const auto parameter = [&](const std::vector<double>& values, int64_t kk, int64_t j) {
            if (c.mode == Mode::kTensor) return values[0];
            if (c.mode == Mode::kGroup) return values[static_cast<size_t>(kk / c.groupSize * c.n + j)];
            return values[static_cast<size_t>(j)];
        };
        std::vector<double> dequantised(ints.size());
        for (int64_t kk = 0; kk < c.k; ++kk) {
            for (int64_t j = 0; j < c.n; ++j) {
                const double off = c.offset ? parameter(offsets, kk, j) : 0.0;
                const auto at = static_cast<size_t>(kk * c.n + j);
                dequantised[at] = antiquant(ints[at], parameter(scales, kk, j), off, c.xDtype);
            }
        }
        for (int64_t i = 0; i < c.m; ++i) {
            for (int64_t j = 0; j < c.n; ++j) {
                double sum = c.bias ? biases[static_cast<size_t>(j)] : 0.0;
                double magnitude = std::fabs(sum);
                for (int64_t kk = 0; kk < c.k; ++kk) {
                    const double term = xs[static_cast<size_t>(i * c.k + kk)] * dequantised[static_cast<size_t>(kk * c.n + j)];
                    sum += term;
                    magnitude += std::fabs(term);
                }
                const double ulp = c.xDtype == ACL_FLOAT16 ? std::ldexp(1, -11) : std::ldexp(1, -8);
                const double tol = 2.0 * static_cast<double>(c.k + 1) * std::ldexp(magnitude, -24) +
                                   ulp * std::fabs(sum) + 1e-7;
                ASSERT_LE(std::fabs(actual[static_cast<size_t>(i * c.n + j)] - sum), tol) << "at (" << i << "," << j << ")";
            }
        }
    }
};

// Both weight dtypes, both x dtypes, each antiquant mode, with and without
// offset and bias, M = 1 (the dot-product path) and M = 9 (GEMM tiles).
TEST_F(WeightQuantMatmul, ModesDtypesOffsetAndBias) {
    for (const aclDataType xDtype : {ACL_FLOAT16, ACL_BF16}) {
        for (const aclDataType wDtype : {ACL_INT8, ACL_INT4}) {
            for (const Mode mode : {Mode::kTensor, Mode::kChannel, Mode::kChannel2d, Mode::kGroup}) {
                for (const int64_t m : {1, 9}) {
                    for (const bool extras : {false, true}) {
                        Case c;
                        c.m = m;
                        c.k = 96;
                        c.n = 10;
                        c.xDtype = xDtype;
                        c.weightDtype = wDtype;
                        c.mode = mode;
                        c.groupSize = mode == Mode::kGroup ? 32 : 0;
                        c.offset = extras;
                        c.bias = extras;
                        run_case(c);
                    }
                }
            }
        }
    }
}

// ggml's calls: x [M, K] fp16, the weight a [K, N] view of an [N, K]
// storage, the scale a [K/32, N] view of [N, K/32], group size 32, no
// offset or bias; M = 1 (token generation) and a prompt's M.
TEST_F(WeightQuantMatmul, GgmlTransposedViews) {
    for (const aclDataType wDtype : {ACL_INT4, ACL_INT8}) {
        for (const int64_t m : {1, 4, 5, 33}) run_case(ggml_case(m, 256, 70, wDtype));
    }
    // K <= 32: ggml passes group size 0 and a [1, N] view.
    Case small;
    small.k = 32;
    small.n = 7;
    small.weightDtype = ACL_INT4;
    small.mode = Mode::kChannel2d;
    small.transposedWeight = true;
    run_case(small);
}

// Odd sizes (1, 7, 33, 257), a partial last group, a transposed x, view
// offsets (an odd nibble), K beyond one chunk, several column tiles.
TEST_F(WeightQuantMatmul, OddSizesOffsetsAndTiles) {
    for (const int64_t size : {1, 7, 33, 257}) {
        for (const aclDataType wDtype : {ACL_INT8, ACL_INT4}) {
            Case c;
            c.m = size;
            c.k = size + 1 + (size + 1) % 2;  // even: an INT4 transposed weight needs it
            c.n = 2 * size;
            c.weightDtype = wDtype;
            c.transposedWeight = size % 2 == 1;
            c.mode = c.k > 64 ? Mode::kGroup : Mode::kChannel;
            c.groupSize = c.k > 64 ? 64 : 0;
            c.offset = true;
            c.bias = true;
            run_case(c);
        }
    }
    Case c;
    c.m = 3;
    c.k = 1100;
    c.n = 600;
    c.xDtype = ACL_BF16;
    c.weightDtype = ACL_INT4;
    c.mode = Mode::kGroup;
    c.groupSize = 128;
    c.transposedX = true;
    c.weightOffset = 3;
    c.offset = true;
    run_case(c);
    c.m = 300;
    c.transposedWeight = true;
    c.weightOffset = 5;
    run_case(c);
}

// The few-row path of ggml's layouts (M = 1..4, groups of 32 or more): an
// odd column count (column pairs and a single one), both x dtypes, with an
// offset (computed tables), and scales inside and outside the range where
// an INT4 block's table is a static one scaled by the scale's exponent:
// negative, fp16-subnormal, and around fp16's 2^12 bound (some columns
// each side, x small so that y stays finite).  Then a K chunk (4096)
// boundary inside a group of 96.  (INT8's large scales stay below fp16's
// overflow of 127 s.)
TEST_F(WeightQuantMatmul, FewRowsBlocksAndScaledTables) {
    struct Scales {
        double low;
        double high;
        double xMagnitude;
    };
    for (const aclDataType wDtype : {ACL_INT4, ACL_INT8}) {
        const Scales large = wDtype == ACL_INT4 ? Scales{3000, 5000, 1.0 / 256} : Scales{200, 500, 1.0 / 256};
        for (const aclDataType xDtype : {ACL_FLOAT16, ACL_BF16}) {
            for (const int64_t m : {1, 2, 3, 4}) {
                for (const Scales scales : {Scales{0.002, 0.05, 1}, Scales{-0.05, -0.002, 1}, Scales{1e-7, 5e-5, 1},
                                            large}) {
                    for (const bool offset : {false, true}) {
                        Case c = ggml_case(m, 256, 37, wDtype, scales.low > 100 ? 64 : 32);
                        c.xDtype = xDtype;
                        c.offset = offset;
                        c.scaleLow = scales.low;
                        c.scaleHigh = scales.high;
                        c.xMagnitude = scales.xMagnitude;
                        run_case(c);
                    }
                }
            }
            for (const int64_t m : {1, 2}) {
                Case c = ggml_case(m, 4224, 3, wDtype, 96);
                c.xDtype = xDtype;
                run_case(c);
            }
        }
    }
}

// The tiles are constants: 1, 2 or 8 workers give the same bits.
TEST_F(WeightQuantMatmul, SameForAnyWorkerCount) {
    for (const aclDataType wDtype : {ACL_INT4, ACL_INT8}) {
        for (const int64_t m : {1, 3, 270}) {
            const Case c = ggml_case(m, 704, 1100, wDtype);
            expect_same_for_any_worker_count([&] { return std::vector<std::vector<double>>{run_case(c, false)}; });
        }
    }
}

/// The arguments of one call; the error tests change one at a time.
struct Args {
    const aclTensor* x;
    const aclTensor* weight;
    const aclTensor* scale;
    const aclTensor* offset = nullptr;
    const aclTensor* quantScale = nullptr;
    const aclTensor* quantOffset = nullptr;
    const aclTensor* bias = nullptr;
    int groupSize = 0;
    const aclTensor* y;
};

aclnnStatus phase1(const Args& a) {
    return phase1_of(aclnnWeightQuantBatchMatmulV2GetWorkspaceSize, a.x, a.weight, a.scale, a.offset, a.quantScale,
                     a.quantOffset, a.bias, a.groupSize, a.y);
}

// Every check of the op_api, in its order, with its code and words.
TEST_F(WeightQuantMatmul, ErrorPaths) {
    DeviceTensor x(TensorSpec({2, 64}, ACL_FLOAT16), std::vector<double>(128, 1));
    DeviceTensor w(TensorSpec({64, 8}, ACL_INT8), std::vector<double>(512, 1));
    DeviceTensor s(TensorSpec({8}, ACL_FLOAT16), std::vector<double>(8, 1));
    auto y = DeviceTensor::output(TensorSpec({2, 8}, ACL_FLOAT16));
    const Args good{x.get(), w.get(), s.get(), nullptr, nullptr, nullptr, nullptr, 0, y->get()};
    ASSERT_EQ(phase1(good), ACLNN_SUCCESS);
    // CheckNotNull: x, weight, antiquantScale, y (the others are optional).
    for (const char* name : {"x", "weight", "antiquantScale", "y"}) {
        Args a = good;
        const std::string n = name;
        (n == "x" ? a.x : n == "weight" ? a.weight : n == "antiquantScale" ? a.scale : a.y) = nullptr;
        expect_error_naming(phase1(a), ACLNN_ERR_PARAM_NULLPTR, name);
    }
    // CANN's op_api writes through both out-parameters unchecked; acl-cpu
    // refuses null ones with the 161001 of CANN's common input check instead
    // of crashing (found by fuzz_matmul).
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    expect_error_naming(aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(x.get(), w.get(), s.get(), nullptr, nullptr,
                                                                      nullptr, nullptr, 0, y->get(), nullptr,
                                                                      &executor),
                        ACLNN_ERR_PARAM_NULLPTR, "workspaceSize or executor");
    expect_error_naming(aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(x.get(), w.get(), s.get(), nullptr, nullptr,
                                                                      nullptr, nullptr, 0, y->get(), &workspaceSize,
                                                                      nullptr),
                        ACLNN_ERR_PARAM_NULLPTR, "workspaceSize or executor");
    const auto refused = [&](Args a, const std::string& words, aclnnStatus code = ACLNN_ERR_PARAM_INVALID) {
        SCOPED_TRACE(words);
        expect_error_naming(phase1(a), code, words);
    };
    // The valid call with one input replaced by a tensor of spec (ones).
    const auto refused_with = [&](const aclTensor* Args::*input, const TensorSpec& spec, const std::string& words) {
        DeviceTensor replacement(spec, std::vector<double>(static_cast<size_t>(numel(spec.shape)), 1));
        Args changed = good;
        changed.*input = replacement.get();
        refused(changed, words);
    };
    Args a = good;
    // ContiguousCheck.
    DeviceTensor xStrided(TensorSpec({2, 64}, ACL_FLOAT16, {128, 2}), std::vector<double>(128, 1));
    a.x = xStrided.get();
    refused(a, "only support x tensor is contiguous or transpose last two dims.");
    a = good;
    DeviceTensor wStrided(TensorSpec({64, 8}, ACL_INT8, {16, 2}), std::vector<double>(512, 1));
    a.weight = wStrided.get();
    refused(a, "only support weight tensor is contiguous or transpose last two dims.");
    a = good;
    DeviceTensor sStrided(TensorSpec({8}, ACL_FLOAT16, {2}), std::vector<double>(8, 1));
    a.scale = sStrided.get();
    refused(a, "only support antiquantScale tensor is contiguous or transpose last two dims.");
    a.scale = s.get();
    a.offset = sStrided.get();
    refused(a, "only support antiquantOffsetOptional tensor is contiguous or transpose last two dims.");
    a = good;
    auto yStrided = DeviceTensor::output(TensorSpec({2, 8}, ACL_FLOAT16, {1, 2}));
    a.y = yStrided->get();
    refused(a, "Parameter y of aclnnWeightQuantBatchMatmulV2GetWorkspaceSize has incorrect value not contiguous. "
               "Reason: The value of y must be contiguous.");
    a = good;
    DeviceTensor biasStrided(TensorSpec({8}, ACL_FLOAT16, {2}), std::vector<double>(8, 1));
    a.bias = biasStrided.get();
    refused(a, "only support biasOptional tensor is contiguous.");
    // CheckDtypeValid.
    refused_with(&Args::x, TensorSpec({2, 64}, ACL_FLOAT), "x");
    refused_with(&Args::weight, TensorSpec({64, 8}, ACL_INT32), "weight");
    refused_with(&Args::scale, TensorSpec({8}, ACL_FLOAT), "antiquantScale");
    a = good;
    auto yFloat = DeviceTensor::output(TensorSpec({2, 8}, ACL_FLOAT));
    a.y = yFloat->get();
    refused(a, "y");
    refused_with(&Args::quantScale, TensorSpec({8}, ACL_UINT64), "when quantScaleOptional is not null, y's dtype should be [DT_INT8], actual is [DT_FLOAT16].");
    a = good;
    auto yBf16 = DeviceTensor::output(TensorSpec({2, 8}, ACL_BF16));
    a.y = yBf16->get();
    refused(a, "when quantScaleOptional is null, y's dtype should be same as x [DT_FLOAT16], actual is [DT_BF16].");
    // CheckDimValid.
    refused_with(&Args::x, TensorSpec({1, 2, 64}, ACL_FLOAT16), "x's dim should be in range [2, 2]. actual is [3].");
    // Scale dtypes.
    refused_with(&Args::offset, TensorSpec({8}, ACL_INT32), "antiquantScale's dtype must be DT_UINT64 or DT_INT64 when antiquantOffset's dtype is DT_INT32, "
               "actual antiquantScale's dtype is [DT_FLOAT16].");
    a = good;
    DeviceTensor sBf16(TensorSpec({8}, ACL_BF16), std::vector<double>(8, 1));
    a.scale = sBf16.get();
    refused(a, "x's dtype must be same as antiquantScale's dtype, actual x's dtype is [DT_FLOAT16], "
               "antiquantScale's dtype is [DT_BF16].");
    a = good;
    a.offset = sBf16.get();
    refused(a, "antiquantOffsetOptional's dtype must be same as antiquantScale's dtype");
    a = good;
    DeviceTensor sU64(TensorSpec({8}, ACL_UINT64), std::vector<double>(8, 1));
    DeviceTensor w4(TensorSpec({64, 8}, ACL_INT8), std::vector<double>(512, 1));
    a.scale = sU64.get();
    a.x = x.get();
    a.offset = s.get();
    refused(a, "antiquantOffset's dtype must be DT_INT32 when antiquantScale's dtype is DT_UINT64/DT_INT64");
    // Bias dtype and rank.
    a = good;
    DeviceTensor biasFloat(TensorSpec({8}, ACL_FLOAT), std::vector<double>(8, 1));
    a.bias = biasFloat.get();
    refused(a, "When x dtype is [DF_FLOAT16], biasOptional's dtype should be [DT_FLOAT16], actual is [DT_FLOAT].");
    DeviceTensor bias3(TensorSpec({1, 1, 8}, ACL_FLOAT16), std::vector<double>(8, 1));
    a.bias = bias3.get();
    refused(a, "biasOptional's dim should be in range [1, 2]. actual is [3].");
    // Optional parameters.
    a = good;
    a.quantOffset = s.get();
    a.y = y->get();
    refused(a, "The sence quantScaleOptional is null and quantOffsetOptional is't null can't support.");
    // Shapes: k, m/k/n >= 1, y's m and n, INT4's even n.
    refused_with(&Args::weight, TensorSpec({63, 8}, ACL_INT8), "x's k and weight's k should be equal, actual x'k is 64, weight's k is 63.");
    a = good;
    DeviceTensor x0(TensorSpec({0, 64}, ACL_FLOAT16));
    auto y0 = DeviceTensor::output(TensorSpec({0, 8}, ACL_FLOAT16));
    a.x = x0.get();
    a.y = y0->get();
    refused(a, "m,k,n shouldn't be smaller than 1, actual m is 0, k is 64, n is 8.");
    a = good;
    auto y3 = DeviceTensor::output(TensorSpec({3, 8}, ACL_FLOAT16));
    a.y = y3->get();
    refused(a, "y's m and x's m should be equal, actual y's m is 3, x's m is 2.");
    auto y9 = DeviceTensor::output(TensorSpec({2, 9}, ACL_FLOAT16));
    a.y = y9->get();
    refused(a, "y's n and weight's n should be equal, actual y's n is 9, weight's n is 8.");
    a = good;
    Int4Tensor w4odd({64, 7}, {7, 1}, 0, std::vector<int>(448, 1));
    DeviceTensor s7(TensorSpec({7}, ACL_FLOAT16), std::vector<double>(7, 1));
    auto y7 = DeviceTensor::output(TensorSpec({2, 7}, ACL_FLOAT16));
    a.weight = w4odd.get();
    a.scale = s7.get();
    a.y = y7->get();
    refused(a, "In the int4 scenario, if weight is not transposed, n[7] should be an even number");
    // Group size.
    a = good;
    a.groupSize = -32;
    refused(a, "cannot support group_size[-32] less than 0.");
    a.groupSize = 48;
    refused(a, "antiquantGroupSize should be an integer multiple of 32, actual is 48.");
    a.groupSize = 64;
    refused(a, "antiquantGroupSize should not be greater than k-1, which is 63.actual antiquantGroupSize is 64.");
    // Antiquant shapes.
    a = good;
    a.groupSize = 32;
    refused(a, "antiquantScale shape must be [1] or [8] and group size is 0 when the size is 1, but it is [8] and "
               "group size is [32]");
    a = good;
    DeviceTensor s28(TensorSpec({2, 8}, ACL_FLOAT16), std::vector<double>(16, 1));
    a.scale = s28.get();
    refused(a, "antiquantScale shape must be [1, 8] or [1, 1]when the size is 2 and without group size, but it is "
               "[2,8]");
    a.groupSize = 32;
    ASSERT_EQ(phase1(a), ACLNN_SUCCESS);
    DeviceTensor s38(TensorSpec({3, 8}, ACL_FLOAT16), std::vector<double>(24, 1));
    a.scale = s38.get();
    refused(a, "antiquantScale shape must be [2, 8] when the size is 2 and with group size, but it is [3,8]");
    refused_with(&Args::offset, TensorSpec({1}, ACL_FLOAT16), "The ViewShape of antiquant offset must same with scale when it is not null, but they are [1] and [8]");
    // Bias shape.
    a = good;
    DeviceTensor bias7(TensorSpec({7}, ACL_FLOAT16), std::vector<double>(7, 1));
    a.bias = bias7.get();
    refused(a, "when bias's shape size is 1, it's shape should be [0], or [8], actual is [7].");
    DeviceTensor bias28(TensorSpec({2, 8}, ACL_FLOAT16), std::vector<double>(16, 1));
    a.bias = bias28.get();
    refused(a, "when bias's shape size is 2, it's shape should be [1, 8], actual is [2,8].");
    // What A2 computes and acl-cpu does not yet: 561112.
    a = good;
    DeviceTensor xForFixpipe(TensorSpec({2, 64}, ACL_FLOAT16), std::vector<double>(128, 1));
    a.scale = sU64.get();
    refused(a, "has no kernel in acl-cpu yet", ACLNN_ERR_INNER_OPP_KERNEL_PKG_NOT_FOUND);
}

// ggml's MUL_MAT_ID: an INT4 expert view at an offset past its declared
// storage (the storage without the offset) but inside its device block
// passes; past the block it is 161002.
TEST_F(WeightQuantMatmul, Int4ViewsReachTheirDeviceBlock) {
    DeviceTensor x(TensorSpec({1, 64}, ACL_FLOAT16), std::vector<double>(64, 1));
    DeviceTensor s(TensorSpec({2, 8}, ACL_FLOAT16, {1, 2}), std::vector<double>(16, 0.5));
    auto y = DeviceTensor::output(TensorSpec({1, 8}, ACL_FLOAT16));
    Int4Tensor expert({64, 8}, {1, 64}, 512, std::vector<int>(512, 3), 512);
    ASSERT_EQ(run_aclnn(stream_, aclnnWeightQuantBatchMatmulV2GetWorkspaceSize, aclnnWeightQuantBatchMatmulV2, x.get(),
                        expert.get(), s.get(), nullptr, nullptr, nullptr, nullptr, 32, y->get()),
              ACLNN_SUCCESS);
    EXPECT_EQ(y->read(), std::vector<double>(8, 96.0));
    // The view at an offset far past a block of 512 nibbles.
    Int4Tensor small({64, 8}, {1, 64}, 0, std::vector<int>(512, 3));
    const Shape shape = {64, 8}, strides = {1, 64}, storage = {512};
    void* data = nullptr;
    aclTensor* beyond = aclCreateTensor(shape.data(), 2, ACL_INT4, strides.data(), 100000, ACL_FORMAT_ND,
                                        storage.data(), 1, aclGetRawTensorAddr(small.get(), &data) == 0 ? data : nullptr);
    expect_error_naming(phase1_of(aclnnWeightQuantBatchMatmulV2GetWorkspaceSize, x.get(), beyond, s.get(), nullptr,
                                  nullptr, nullptr, nullptr, 32, y->get()),
                        ACLNN_ERR_PARAM_INVALID, "reaches outside its storage");
    aclDestroyTensor(beyond);
}

// An empty bias ([0]) is no bias (CheckBiasShape accepts it).
TEST_F(WeightQuantMatmul, EmptyBiasIsNoBias) {
    DeviceTensor x(TensorSpec({1, 64}, ACL_FLOAT16), std::vector<double>(64, 1));
    DeviceTensor w(TensorSpec({64, 2}, ACL_INT8), std::vector<double>(128, 2));
    DeviceTensor s(TensorSpec({2}, ACL_FLOAT16), std::vector<double>{0.5, 0.25});
    DeviceTensor bias(TensorSpec({0}, ACL_FLOAT16));
    auto y = DeviceTensor::output(TensorSpec({1, 2}, ACL_FLOAT16));
    ASSERT_EQ(run_aclnn(stream_, aclnnWeightQuantBatchMatmulV2GetWorkspaceSize, aclnnWeightQuantBatchMatmulV2, x.get(),
                        w.get(), s.get(), nullptr, nullptr, nullptr, bias.get(), 0, y->get()),
              ACLNN_SUCCESS);
    EXPECT_EQ(y->read(), (std::vector<double>{64, 32}));
}

}  // namespace

// A weight view of 2^62 x 2^62 whose strides say "transposed": the dense
// size IsTransposeLastTwoDims compares with overflowed int64 (UBSan; found
// by fuzz_matmul). It is no transposed matrix; x, scale and y are valid, so
// the weight is refused as not contiguous.
TEST_F(WeightQuantMatmul, TransposeCheckOfAViewWhoseSizeOverflows) {
    DeviceTensor x(TensorSpec({2, 64}, ACL_FLOAT16), std::vector<double>(128, 1));
    DeviceTensor s(TensorSpec({8}, ACL_FLOAT16), std::vector<double>(8, 1));
    auto y = DeviceTensor::output(TensorSpec({2, 8}, ACL_FLOAT16));
    DeviceBuffer storage(64);
    const int64_t huge = int64_t{1} << 62;
    const int64_t shape[] = {2, huge, huge};
    const int64_t strides[] = {0, 1, huge};
    aclTensor* weight = aclCreateTensor(shape, 3, ACL_INT8, strides, 0, ACL_FORMAT_ND, shape, 3, storage.get());
    ASSERT_NE(weight, nullptr);
    expect_error_naming(phase1({x.get(), weight, s.get(), nullptr, nullptr, nullptr, nullptr, 0, y->get()}),
                        ACLNN_ERR_PARAM_INVALID, "only support weight tensor is contiguous or transpose last two dims.");
    aclDestroyTensor(weight);
}
