// aclnnScaledMaskedSoftmaxBackward: per row of S2,
//   out = scale * (gradOutput*y - sum(gradOutput*y) * y), 0 where mask is true.
//
// Two references, both written here: the double-precision formula, with a
// tolerance for the cancellation in (p - s*y): |got - ref| <= rtol * scale *
// (|p| + |y| * sum|p|) + atol with rtol = tolerance_for(dtype).rtol (fp32
// 1e-5, fp16 1e-3, bf16 8e-3); and an fp32 replica of CANN's ST golden
// (executor_aclnnScaledMaskedSoftmaxBackward.py), which reproduces the A2
// kernel's summation order, compared bitwise.
#include <cmath>
#include <cstring>
#include <vector>

#include "aclnnop/aclnn_scaled_masked_softmax_backward.h"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

constexpr uint64_t kSystemWorkspace = 16ull << 20;

/// Row-major index of (b, n, s1) in a [B, N, S1, *] tensor, the mask broadcast on dims 0-1.
int64_t mask_row(const Shape& data, const Shape& mask, int64_t row) {
    const int64_t s1 = row % data[2];
    const int64_t n = row / data[2] % data[1];
    const int64_t b = row / (data[2] * data[1]);
    return ((mask[0] == 1 ? 0 : b) * mask[1] + (mask[1] == 1 ? 0 : n)) * mask[2] + s1;
}

struct SoftmaxReference {
    std::vector<double> out;
    std::vector<double> magnitude;
};

SoftmaxReference reference(const std::vector<double>& dy, const std::vector<double>& y,
                           const std::vector<double>& mask, const Shape& shape, const Shape& maskShape, double scale) {
    const int64_t length = shape[3];
    const int64_t rows = numel(shape) / length;
    SoftmaxReference ref{std::vector<double>(dy.size()), std::vector<double>(dy.size())};
    for (int64_t r = 0; r < rows; ++r) {
        const size_t base = static_cast<size_t>(r * length);
        const size_t maskBase = static_cast<size_t>(mask_row(shape, maskShape, r) * length);
        double sum = 0;
        double absSum = 0;
        for (int64_t i = 0; i < length; ++i) {
            sum += dy[base + i] * y[base + i];
            absSum += std::fabs(dy[base + i] * y[base + i]);
        }
        for (int64_t i = 0; i < length; ++i) {
            const size_t k = base + static_cast<size_t>(i);
            const bool masked = mask[maskBase + static_cast<size_t>(i)] != 0;
            ref.out[k] = masked ? 0.0 : scale * (dy[k] * y[k] - sum * y[k]);
            ref.magnitude[k] = masked ? 0.0 : std::fabs(scale) * (std::fabs(dy[k] * y[k]) + std::fabs(y[k]) * absSum);
        }
    }
    return ref;
}

void expect_reference(const std::vector<double>& got, const SoftmaxReference& ref, aclDataType dtype) {
    ASSERT_EQ(got.size(), ref.out.size());
    const double rtol = tolerance_for(dtype).rtol;
    int reported = 0;
    for (size_t i = 0; i < got.size() && reported < 10; ++i) {
        const bool ok = std::isfinite(ref.out[i]) ? std::fabs(got[i] - ref.out[i]) <= rtol * ref.magnitude[i] + 1e-6
                                                  : close(got[i], ref.out[i], {0, 0});
        if (!ok) {
            ADD_FAILURE() << "element " << i << ": got " << got[i] << ", expected " << ref.out[i];
            ++reported;
        }
    }
}

// --- fp32 replica of the ST golden -------------------------------------------

/// torch: while size > 1: pad an odd level with one zero, add neighbours.
float golden_tree(std::vector<float> v) {
    while (v.size() > 1) {
        if (v.size() % 2 != 0) v.push_back(0.0f);
        std::vector<float> next(v.size() / 2);
        for (size_t i = 0; i < next.size(); ++i) next[i] = v[2 * i] + v[2 * i + 1];
        v = next;
    }
    return v[0];
}

float golden_reduce_sum(std::vector<float> line) {
    size_t block = 64;
    if (line.size() <= 1024) {
        block = 8;
        line.resize((line.size() + 63) / 64 * 64, 0.0f);
    }
    const size_t blocks = (line.size() + block - 1) / block;
    std::vector<float> sums(blocks);
    for (size_t b = 0; b < blocks; ++b) {
        const size_t end = std::min(line.size(), (b + 1) * block);
        sums[b] = golden_tree(std::vector<float>(line.begin() + static_cast<long>(b * block),
                                                 line.begin() + static_cast<long>(end)));
    }
    if (block == 8) {
        for (size_t i = 1; i < blocks / 8; ++i) {
            for (size_t k = 0; k < 8; ++k) sums[k] += sums[i * 8 + k];
        }
        sums.resize(8);
    }
    return golden_tree(sums);
}

/// The golden's output for one dtype, as doubles of the stored dtype.
std::vector<double> golden(const std::vector<double>& dy, const std::vector<double>& y,
                           const std::vector<double>& mask, const Shape& shape, const Shape& maskShape, float scale,
                           aclDataType dtype) {
    const int64_t length = shape[3];
    const int64_t rows = numel(shape) / length;
    std::vector<double> out(dy.size());
    for (int64_t r = 0; r < rows; ++r) {
        const size_t base = static_cast<size_t>(r * length);
        const size_t maskBase = static_cast<size_t>(mask_row(shape, maskShape, r) * length);
        std::vector<float> grad(static_cast<size_t>(length));
        for (size_t i = 0; i < grad.size(); ++i) {
            grad[i] = static_cast<float>(dy[base + i]) * static_cast<float>(y[base + i]);
        }
        const float sum = golden_reduce_sum(grad);
        for (size_t i = 0; i < grad.size(); ++i) {
            float v = grad[i] - sum * static_cast<float>(y[base + i]);
            v = v * scale;
            if (mask[maskBase + i] != 0) v = 0.0f;
            out[base + i] = representable(static_cast<double>(v), dtype);
        }
    }
    return out;
}

std::vector<double> random_mask(size_t n, uint32_t seed) {
    std::vector<double> mask = uniform(n, 0, 1, seed);
    for (double& m : mask) m = m < 0.3 ? 1.0 : 0.0;
    return mask;
}

/// A softmax output: positive rows summing to about 1.
std::vector<double> softmax_like(size_t n, int64_t length, uint32_t seed) {
    std::vector<double> y = uniform(n, 0.1, 1.0, seed);
    for (size_t r = 0; r < n / static_cast<size_t>(length); ++r) {
        double total = 0;
        for (int64_t i = 0; i < length; ++i) total += y[r * static_cast<size_t>(length) + static_cast<size_t>(i)];
        for (int64_t i = 0; i < length; ++i) y[r * static_cast<size_t>(length) + static_cast<size_t>(i)] /= total;
    }
    return y;
}

class ScaledMaskedSoftmaxBackward : public AclTest {
protected:
    /// Runs the operator; returns phase 1's status (phase 2 must then succeed).
    aclnnStatus run(const DeviceTensor& gradOutput, const DeviceTensor& y, const DeviceTensor& mask, double scale,
                    const aclTensor* out, uint64_t* workspace = nullptr) {
        return run_two_phases(
            [&](uint64_t* workspaceSize, aclOpExecutor** executor) {
                return aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(gradOutput.get(), y.get(), mask.get(), scale,
                                                                        false, const_cast<aclTensor*>(out),
                                                                        workspaceSize, executor);
            },
            aclnnScaledMaskedSoftmaxBackward, stream_, workspace);
    }

    struct Inputs {
        std::vector<double> dy;
        std::vector<double> y;
        std::vector<double> mask;
    };

    static Inputs inputs(const Shape& shape, const Shape& maskShape, aclDataType dtype, uint32_t seed) {
        const auto n = static_cast<size_t>(numel(shape));
        return {representable(uniform(n, -2, 2, seed), dtype),
                representable(softmax_like(n, shape[3], seed + 1), dtype),
                random_mask(static_cast<size_t>(numel(maskShape)), seed + 2)};
    }

    /// Runs the operator on 1, 2 and 8 workers: every run writes the same
    /// bytes, and the first matches the reference and the golden fp32 order.
    void expect_same_bytes_for_any_worker_count(const TensorSpec& dySpec, const TensorSpec& ySpec,
                                                const Shape& maskShape, double scale, uint32_t seed) {
        const Inputs in = inputs(dySpec.shape, maskShape, dySpec.dtype, seed);
        std::vector<std::vector<uint8_t>> results;
        for (int threads : {1, 2, 8}) {
            restart_with_worker_threads(threads);
            DeviceTensor gradOutput(dySpec, in.dy);
            DeviceTensor y(ySpec, in.y);
            DeviceTensor mask({maskShape, ACL_BOOL}, in.mask);
            auto out = DeviceTensor::output({dySpec.shape, dySpec.dtype});
            ASSERT_EQ(run(gradOutput, y, mask, scale, out->get()), ACLNN_SUCCESS);
            results.push_back(out->bytes());
            if (threads != 1) continue;
            const std::vector<double> got = out->read();
            expect_reference(got, reference(in.dy, in.y, in.mask, dySpec.shape, maskShape, scale), dySpec.dtype);
            EXPECT_EQ(got, golden(in.dy, in.y, in.mask, dySpec.shape, maskShape, static_cast<float>(scale),
                                  dySpec.dtype));
        }
        EXPECT_EQ(results[0], results[1]);
        EXPECT_EQ(results[0], results[2]);
    }

    /// Checks against the double reference and, bitwise, against the golden.
    void check(const TensorSpec& dySpec, const TensorSpec& ySpec, const TensorSpec& maskSpec,
               const TensorSpec& outSpec, double scale, uint32_t seed) {
        const Inputs in = inputs(dySpec.shape, maskSpec.shape, dySpec.dtype, seed);
        DeviceTensor gradOutput(dySpec, in.dy);
        DeviceTensor y(ySpec, in.y);
        DeviceTensor mask(maskSpec, in.mask);
        auto out = DeviceTensor::output(outSpec);
        uint64_t workspace = 0;
        ASSERT_EQ(run(gradOutput, y, mask, scale, out->get(), &workspace), ACLNN_SUCCESS);
        EXPECT_EQ(workspace, kSystemWorkspace);
        const std::vector<double> got = out->read();
        expect_reference(got, reference(in.dy, in.y, in.mask, dySpec.shape, maskSpec.shape, scale), dySpec.dtype);
        const std::vector<double> bits = golden(in.dy, in.y, in.mask, dySpec.shape, maskSpec.shape,
                                                static_cast<float>(scale), dySpec.dtype);
        int mismatches = 0;
        for (size_t i = 0; i < got.size(); ++i) mismatches += got[i] != bits[i];
        EXPECT_EQ(mismatches, 0) << "elements differing from the golden's fp32 order";
        EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
    }
};

TEST_F(ScaledMaskedSoftmaxBackward, EveryDtypeAndRowLengthMatchesTheKernelOrder) {
    // Row lengths on both reduction paths: padded <= 1024 (8-element blocks
    // folded into 8 partials) and longer (64-element blocks).
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        for (int64_t length : {1, 7, 64, 100, 1000, 1024, 1025, 1500, 4096}) {
            SCOPED_TRACE(::testing::Message() << "dtype " << dtype << " S2 " << length);
            const Shape shape{1, 2, 3, length};
            check({shape, dtype}, {shape, dtype}, {shape, ACL_BOOL}, {shape, dtype}, 0.75,
                  static_cast<uint32_t>(length));
        }
    }
}

TEST_F(ScaledMaskedSoftmaxBackward, EveryMaskBroadcast) {
    const Shape shape{2, 3, 5, 40};
    for (const Shape& maskShape : {Shape{2, 3, 5, 40}, Shape{1, 3, 5, 40}, Shape{2, 1, 5, 40}, Shape{1, 1, 5, 40}}) {
        SCOPED_TRACE(::testing::Message() << "mask [" << maskShape[0] << "," << maskShape[1] << ",5,40]");
        check({shape, ACL_FLOAT16}, {shape, ACL_FLOAT16}, {maskShape, ACL_BOOL}, {shape, ACL_FLOAT16}, 1.0, 3);
        check({shape, ACL_FLOAT}, {shape, ACL_FLOAT}, {maskShape, ACL_BOOL}, {shape, ACL_FLOAT}, -2.5, 4);
    }
}

TEST_F(ScaledMaskedSoftmaxBackward, MaskedPositionsAreExactlyZero) {
    const double inf = HUGE_VAL;
    const double nan = std::nan("");
    // Row 0: inf gradOutput at a masked position makes the row sum inf;
    // row 1: NaN y at a masked position makes it NaN.  Masked outputs stay +0.
    const Shape shape{1, 1, 2, 4};
    const std::vector<double> dy{inf, 1.0, 2.0, -1.0, 1.0, 1.0, 1.0, 1.0};
    const std::vector<double> yv{0.25, 0.25, 0.25, 0.25, nan, 0.5, 0.25, 0.25};
    const std::vector<double> maskValues{1, 0, 0, 1, 1, 0, 1, 0};
    DeviceTensor gradOutput({shape, ACL_FLOAT}, dy);
    DeviceTensor y({shape, ACL_FLOAT}, yv);
    DeviceTensor mask({shape, ACL_BOOL}, maskValues);
    auto out = DeviceTensor::output({shape, ACL_FLOAT});
    ASSERT_EQ(run(gradOutput, y, mask, 2.0, out->get()), ACLNN_SUCCESS);
    const std::vector<uint8_t> bytes = out->bytes();
    const std::vector<double> got = out->read();
    for (size_t i = 0; i < maskValues.size(); ++i) {
        if (maskValues[i] != 0) {
            float value;
            std::memcpy(&value, &bytes[i * sizeof(float)], sizeof value);
            EXPECT_EQ(std::signbit(value), false) << i;
            EXPECT_EQ(value, 0.0f) << i;
        } else {
            EXPECT_FALSE(std::isfinite(got[i])) << i;
        }
    }
    const SoftmaxReference ref = reference(dy, yv, maskValues, shape, shape, 2.0);
    expect_reference(got, ref, ACL_FLOAT);
}

TEST_F(ScaledMaskedSoftmaxBackward, EmptyTensorsNeedNoWorkspace) {
    for (const Shape& shape : {Shape{2, 0, 3, 4}, Shape{0, 1, 1, 8}, Shape{1, 1, 1, 0}}) {
        DeviceTensor gradOutput({shape, ACL_FLOAT}, {});
        DeviceTensor y({shape, ACL_FLOAT}, {});
        DeviceTensor mask({shape, ACL_BOOL}, {});
        auto out = DeviceTensor::output({shape, ACL_FLOAT});
        uint64_t workspace = 1;
        EXPECT_EQ(run(gradOutput, y, mask, 1.0, out->get(), &workspace), ACLNN_SUCCESS);
        EXPECT_EQ(workspace, 0u);
        EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
    }
}

TEST_F(ScaledMaskedSoftmaxBackward, StridedInputsAndOutput) {
    // gradOutput with dims 1 and 2 swapped over a [2,4,3,8] storage; y rows
    // of 10 from offset 3; the [1,3,4,8] mask rows of 9 from offset 1; out
    // rows of 12 from offset 5 (its gaps must stay untouched).
    const Shape shape{2, 3, 4, 8};
    for (aclDataType dtype : {ACL_FLOAT, ACL_BF16}) {
        SCOPED_TRACE(dtype);
        check({shape, dtype, {96, 8, 24, 1}, 0, {2, 4, 3, 8}}, {shape, dtype, {120, 40, 10, 1}, 3},
              {{1, 3, 4, 8}, ACL_BOOL, {108, 36, 9, 1}, 1}, {shape, dtype, {144, 48, 12, 1}, 5}, 0.5, 7);
    }
}

TEST_F(ScaledMaskedSoftmaxBackward, OutIsWrittenWithGradOutputsDtype) {
    // CANN overwrites out's dtype with gradOutput's: a FLOAT16 out whose
    // storage holds the FLOAT elements receives FLOAT values.
    const Shape shape{1, 1, 2, 16};
    const Inputs in = inputs(shape, shape, ACL_FLOAT, 11);
    DeviceTensor gradOutput({shape, ACL_FLOAT}, in.dy);
    DeviceTensor y({shape, ACL_FLOAT}, in.y);
    DeviceTensor mask({shape, ACL_BOOL}, in.mask);
    auto out = DeviceTensor::output({shape, ACL_FLOAT16, {}, 0, {64}});
    ASSERT_EQ(run(gradOutput, y, mask, 1.0, out->get()), ACLNN_SUCCESS);
    const std::vector<uint8_t> bytes = out->bytes();
    const std::vector<double> expected = golden(in.dy, in.y, in.mask, shape, shape, 1.0f, ACL_FLOAT);
    for (size_t i = 0; i < expected.size(); ++i) {
        float value;
        std::memcpy(&value, &bytes[i * sizeof(float)], sizeof value);
        EXPECT_EQ(value, static_cast<float>(expected[i])) << i;
    }
    // Without room for FLOAT elements the call is refused.
    auto tight = DeviceTensor::output({shape, ACL_FLOAT16});
    expect_error(phase1_of(aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize, gradOutput.get(), y.get(), mask.get(),
                           1.0, false, tight->get()),
                 ACLNN_ERR_PARAM_INVALID);
}

TEST_F(ScaledMaskedSoftmaxBackward, ErrorsCarryCannCodesAndMessages) {
    const Shape shape{1, 2, 4, 16};
    const auto n = static_cast<size_t>(numel(shape));
    DeviceTensor dy({shape, ACL_FLOAT16}, std::vector<double>(n, 1.0));
    DeviceTensor y({shape, ACL_FLOAT16}, std::vector<double>(n, 0.5));
    DeviceTensor mask({shape, ACL_BOOL}, std::vector<double>(n, 0.0));
    auto out = DeviceTensor::output({shape, ACL_FLOAT16});
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    const auto call = [&](const aclTensor* g, const aclTensor* yy, const aclTensor* m, const aclTensor* o,
                          bool fixTriuMask = false) {
        return aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(g, yy, m, 1.0, fixTriuMask, const_cast<aclTensor*>(o),
                                                                &ws, &ex);
    };
    // 1. null tensors (mask is mandatory)
    expect_error(call(nullptr, y.get(), mask.get(), out->get()), ACLNN_ERR_PARAM_NULLPTR);
    expect_error(call(dy.get(), nullptr, mask.get(), out->get()), ACLNN_ERR_PARAM_NULLPTR);
    expect_error(call(dy.get(), y.get(), nullptr, out->get()), ACLNN_ERR_PARAM_NULLPTR);
    expect_error(call(dy.get(), y.get(), mask.get(), nullptr), ACLNN_ERR_PARAM_NULLPTR);
    // 2. dtypes
    DeviceTensor int32Data({shape, ACL_INT32}, std::vector<double>(n, 1.0));
    DeviceTensor halfMask({shape, ACL_FLOAT16}, std::vector<double>(n, 0.0));
    expect_error(call(int32Data.get(), y.get(), mask.get(), out->get()), ACLNN_ERR_PARAM_INVALID);
    expect_error(call(dy.get(), int32Data.get(), mask.get(), out->get()), ACLNN_ERR_PARAM_INVALID);
    expect_error(call(dy.get(), y.get(), halfMask.get(), out->get()), ACLNN_ERR_PARAM_INVALID);
    expect_error(call(dy.get(), y.get(), mask.get(), int32Data.get()), ACLNN_ERR_PARAM_INVALID);
    // 3. FRACTAL_NZ storage, for data and for the mask (NCHW is accepted)
    DeviceBuffer raw(n * 2);
    const int64_t dims[] = {1, 2, 4, 16};
    const int64_t strides[] = {128, 64, 16, 1};
    aclTensor* nz = aclCreateTensor(dims, 4, ACL_FLOAT16, strides, 0, ACL_FORMAT_FRACTAL_NZ, dims, 4, raw.get());
    aclTensor* nzMask = aclCreateTensor(dims, 4, ACL_BOOL, strides, 0, ACL_FORMAT_FRACTAL_NZ, dims, 4, raw.get());
    aclTensor* nchw = aclCreateTensor(dims, 4, ACL_FLOAT16, strides, 0, ACL_FORMAT_NCHW, dims, 4, raw.get());
    expect_error(call(nz, y.get(), mask.get(), out->get()), ACLNN_ERR_PARAM_INVALID);
    expect_error(call(dy.get(), y.get(), mask.get(), nz), ACLNN_ERR_PARAM_INVALID);
    expect_error(call(dy.get(), y.get(), nzMask, out->get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(call(dy.get(), nchw, mask.get(), out->get()), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);
    aclDestroyTensor(nz);
    aclDestroyTensor(nzMask);
    aclDestroyTensor(nchw);
    // 4. shapes
    DeviceTensor rank3({{2, 4, 16}, ACL_FLOAT16}, std::vector<double>(n, 1.0));
    expect_error(call(rank3.get(), rank3.get(), mask.get(), rank3.get()), ACLNN_ERR_PARAM_INVALID);
    const Shape wide{1, 1, 1, 4097};
    DeviceTensor tooLong({wide, ACL_FLOAT16}, std::vector<double>(4097, 1.0));
    DeviceTensor tooLongMask({wide, ACL_BOOL}, std::vector<double>(4097, 0.0));
    expect_error(call(tooLong.get(), tooLong.get(), tooLongMask.get(), tooLong.get()), ACLNN_ERR_PARAM_INVALID);
    DeviceTensor other({{1, 2, 16, 4}, ACL_FLOAT16}, std::vector<double>(n, 1.0));
    expect_error(call(dy.get(), other.get(), mask.get(), out->get()), ACLNN_ERR_PARAM_INVALID);  // y shape
    expect_error(call(dy.get(), y.get(), mask.get(), other.get()), ACLNN_ERR_PARAM_INVALID);     // out shape
    DeviceTensor mask3({{2, 4, 16}, ACL_BOOL}, std::vector<double>(n, 0.0));
    expect_error(call(dy.get(), y.get(), mask3.get(), out->get()), ACLNN_ERR_PARAM_INVALID);     // mask rank
    DeviceTensor maskLast({{1, 2, 4, 8}, ACL_BOOL}, std::vector<double>(64, 0.0));
    expect_error(call(dy.get(), y.get(), maskLast.get(), out->get()), ACLNN_ERR_PARAM_INVALID);  // mask S2
    const Shape big{4, 4, 4, 16};
    DeviceTensor dyBig({big, ACL_FLOAT16}, std::vector<double>(1024, 1.0));
    auto outBig = DeviceTensor::output({big, ACL_FLOAT16});
    expect_error(call(dyBig.get(), dyBig.get(), mask.get(), outBig->get()), ACLNN_ERR_PARAM_INVALID);  // mask [1,2]
    // 5. fixTriuMask
    expect_error(call(dy.get(), y.get(), mask.get(), out->get(), true), ACLNN_ERR_PARAM_INVALID);
    // workspaceSize / executor pointers
    EXPECT_EQ(aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(dy.get(), y.get(), mask.get(), 1.0, false, out->get(),
                                                               nullptr, &ex),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_TRUE(has_error_message());
    EXPECT_EQ(aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(dy.get(), y.get(), mask.get(), 1.0, false, out->get(),
                                                               &ws, nullptr),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_TRUE(has_error_message());
    // the tiling's dtype check: y's dtype differs from gradOutput's
    DeviceTensor yFloat({shape, ACL_FLOAT}, std::vector<double>(n, 0.5));
    expect_error(call(dy.get(), yFloat.get(), mask.get(), out->get()), ACLNN_ERR_INNER_TILING_ERROR);
    // a view reaching past its storage and the device block holding it
    DeviceTensor outside({shape, ACL_FLOAT16, {128, 64, 16, 1}, 64, {numel(shape)}});
    expect_error(call(dy.get(), outside.get(), mask.get(), out->get()), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(ScaledMaskedSoftmaxBackward, OutWhoseBytesAsGradOutputsDtypeOverflowIsRefused) {
    // A FLOAT16 out whose storage (2^61 + 2 elements) fits int64 bytes, but
    // whose last element written as FLOAT (byte 4 * (2^61 + 2)) does not:
    // 161002, not a signed overflow (found by fuzzing).
    const Shape shape{1, 1, 1, 2};
    DeviceTensor gradOutput({shape, ACL_FLOAT}, {1.0, 2.0});
    DeviceTensor y({shape, ACL_FLOAT}, {0.5, 0.5});
    DeviceTensor mask({shape, ACL_BOOL}, {0.0, 0.0});
    DeviceBuffer storage(64);
    const int64_t stride = (int64_t{1} << 61) + 1;
    const int64_t strides[] = {2 * stride, 2 * stride, 2 * stride, stride};
    const int64_t storageShape[] = {stride + 1};
    aclTensor* out = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT16, strides, 0, ACL_FORMAT_ND, storageShape,
                                     1, storage.get());
    ASSERT_NE(out, nullptr);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    expect_error(aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(gradOutput.get(), y.get(), mask.get(), 1.0, false,
                                                                  out, &ws, &ex),
                 ACLNN_ERR_PARAM_INVALID);
    aclDestroyTensor(out);
}

TEST_F(ScaledMaskedSoftmaxBackward, TooSmallWorkspaceIsRefusedAndWritesNothing) {
    const Shape shape{1, 1, 2, 16};
    DeviceTensor dy({shape, ACL_FLOAT}, std::vector<double>(32, 1.0));
    DeviceTensor y({shape, ACL_FLOAT}, std::vector<double>(32, 0.5));
    DeviceTensor mask({shape, ACL_BOOL}, std::vector<double>(32, 0.0));
    auto out = DeviceTensor::output({shape, ACL_FLOAT});
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(dy.get(), y.get(), mask.get(), 1.0, false, out->get(),
                                                               &ws, &ex),
              ACLNN_SUCCESS);
    DeviceBuffer small(64);
    EXPECT_EQ(aclnnScaledMaskedSoftmaxBackward(small.get(), 64, ex, stream_), ACLNN_ERR_PARAM_INVALID);
    EXPECT_TRUE(has_error_message());
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    for (double v : out->read()) EXPECT_EQ(v, -7.0);
}

TEST_F(ScaledMaskedSoftmaxBackward, NullDeviceAddressFaultsTheStream) {
    const Shape shape{1, 1, 2, 16};
    const NullAddressTensor y(shape);
    DeviceTensor dy({shape, ACL_FLOAT}, std::vector<double>(32, 1.0));
    DeviceTensor mask({shape, ACL_BOOL}, std::vector<double>(32, 0.0));
    auto out = DeviceTensor::output({shape, ACL_FLOAT});
    expect_phase2_faults(
        [&](uint64_t* ws, aclOpExecutor** ex) {
            return aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(dy.get(), y.get(), mask.get(), 1.0, false,
                                                                    out->get(), ws, ex);
        },
        aclnnScaledMaskedSoftmaxBackward, stream_, {out.get()});
}

TEST_F(ScaledMaskedSoftmaxBackward, ManyBlocksAndDeterministicAcrossWorkerCounts) {
    // 4*8*40 = 1280 rows over 48 blocks (32 take 27 rows, 16 take 26), on
    // the 64-element-block path, through a strided y (staged, blocks whole).
    const Shape shape{4, 8, 40, 1500};
    expect_same_bytes_for_any_worker_count({shape, ACL_BF16}, {shape, ACL_BF16, {8 * 40 * 1504, 40 * 1504, 1504, 1}},
                                           {1, 8, 40, 1500}, 0.125, 21);
}

TEST_F(ScaledMaskedSoftmaxBackward, ContiguousRowsCutIntoSlicesAndDeterministicAcrossWorkerCounts) {
    // 2*8*160 = 2560 contiguous fp32 rows of 1024 over 48 blocks: 53-54 rows,
    // about 700 KiB moved per block, so each block runs as two slices of rows
    // (common/block_launch.hpp), which workers may take in any order.
    const Shape shape{2, 8, 160, 1024};
    expect_same_bytes_for_any_worker_count({shape, ACL_FLOAT}, {shape, ACL_FLOAT}, {2, 1, 160, 1024}, 0.5, 22);
}

}  // namespace
