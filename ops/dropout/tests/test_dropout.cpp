// The dropout family (ops-math random/dsa_gen_bit_mask and drop_out_do_mask):
// Philox4x32-10's known answers; GenMask's bits against the mapping of
// ops/dropout/README.md computed here, the same for 1/2/8 workers and any
// split, the kept fraction, p == 0 / 1; DoMask against a reference from
// the mask bits; Dropout = GenMask + DoMask, train=false; DropoutBackward;
// empty tensors; every error path with its code and words.
#include <cmath>
#include <cstdint>
#include <vector>

#include "aclcpu/philox.hpp"
#include "aclnnop/aclnn_dropout.h"
#include "aclnnop/aclnn_dropout_backward.h"
#include "aclnnop/aclnn_dropout_do_mask.h"
#include "aclnnop/aclnn_dropout_gen_mask.h"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;
using aclcpu::Philox4x32;

// Random123's known-answer vectors for philox4x32_10 (kat_vectors).
static_assert([] {
    Philox4x32 zero(0, {0, 0, 0, 0});
    return zero.next32() == 0x6627e8d5u && zero.next32() == 0xe169c58du && zero.next32() == 0xbc57ac4cu &&
           zero.next32() == 0x9b00dbd8u;
}());
static_assert([] {
    Philox4x32 pi(0x299f31d0a4093822ull, {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u});
    return pi.next32() == 0xd16cfe09u && pi.next32() == 0x94fdccebu && pi.next32() == 0x5001e420u &&
           pi.next32() == 0x24126ea1u;
}());
// The counter's carry runs through all four words.
static_assert([] {
    const Philox4x32::Counter c = Philox4x32::advanced({0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 7}, 2);
    return c[0] == 1 && c[1] == 0 && c[2] == 0 && c[3] == 8;
}());

/// Element i's bit as README.md documents it: the Philox block of counter
/// (offset, 0) + i / 2 under key seed; words 2(i % 2) and 2(i % 2) + 1 make a
/// 64-bit value v (low word first); keep when (v >> 11) * 2^-53 >= ratio.
bool documented_keep(uint64_t seed, uint64_t offset, uint64_t i, double ratio) {
    Philox4x32 block(seed, Philox4x32::advanced({uint32_t(offset), uint32_t(offset >> 32), 0, 0}, i / 2));
    uint32_t words[4];
    for (uint32_t& w : words) w = block.next32();
    const uint64_t v = words[2 * (i % 2)] | uint64_t{words[2 * (i % 2) + 1]} << 32;
    return static_cast<double>(v >> 11) * 0x1.0p-53 >= ratio;
}

double fp16(double v) { return fp16_bits_to_double(double_to_fp16_bits(v)); }
double bf16(double v) { return bf16_bits_to_double(double_to_bf16_bits(v)); }

int64_t mask_bytes(int64_t elements) { return (elements + 127) / 128 * 16; }

bool bit(const std::vector<double>& bytes, int64_t i) { return (static_cast<unsigned>(bytes[i / 8]) >> (i % 8)) & 1u; }

class Dropout : public AclTest {
protected:
    std::vector<double> gen_mask_v2(const Shape& shape, double p, int64_t seed, int64_t offset,
                                    aclDataType probDtype = ACL_FLOAT) {
        aclIntArray* dims = aclCreateIntArray(shape.data(), shape.size());
        auto out = DeviceTensor::output({{mask_bytes(numel(shape))}, ACL_UINT8}, 0x5A);
        EXPECT_EQ(run_aclnn(stream_, aclnnDropoutGenMaskV2GetWorkspaceSize, aclnnDropoutGenMaskV2, dims, p, seed,
                            offset, probDtype, out->get()),
                  ACLNN_SUCCESS);
        aclDestroyIntArray(dims);
        return out->read();
    }
    aclnnStatus do_mask(const DeviceTensor& self, const DeviceTensor& mask, double p, DeviceTensor& out) {
        return run_aclnn(stream_, aclnnDropoutDoMaskGetWorkspaceSize, aclnnDropoutDoMask, self.get(), mask.get(), p,
                         out.get());
    }
};

TEST_F(Dropout, GenMaskFollowsTheDocumentedMappingForEachRatioDtype) {
    const Shape shape{5, 77};  // 385 elements: 4 vectors of 128 bits, 64 bytes, every one generated
    const double p = 0.3;
    for (aclDataType probDtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        SCOPED_TRACE(probDtype);
        const double ratio = probDtype == ACL_FLOAT16 ? fp16(p) : probDtype == ACL_BF16 ? bf16(p) : double(float(p));
        const std::vector<double> mask = gen_mask_v2(shape, p, 1234, 7, probDtype);
        ASSERT_EQ(mask.size(), 64u);
        for (int64_t i = 0; i < 512; ++i) ASSERT_EQ(bit(mask, i), documented_keep(1234, 7, i, ratio)) << i;
    }
    // V1 hands the engine a FLOAT ratio: V2's FLOAT mask.
    aclIntArray* dims = aclCreateIntArray(shape.data(), shape.size());
    auto out = DeviceTensor::output({{4, 16}, ACL_UINT8});
    ASSERT_EQ(run_aclnn(stream_, aclnnDropoutGenMaskGetWorkspaceSize, aclnnDropoutGenMask, dims, p, int64_t{1234},
                        int64_t{7}, out->get()),
              ACLNN_SUCCESS);
    aclDestroyIntArray(dims);
    EXPECT_EQ(out->read(), gen_mask_v2(shape, p, 1234, 7));
}

TEST_F(Dropout, GenMaskIsTheSameForAnyWorkerCountAndSplit) {
    // 2^17 elements: 16 KiB of mask over several blocks and slices.
    const Shape big{1 << 17};
    expect_same_for_any_worker_count([&] { return std::vector<std::vector<double>>{gen_mask_v2(big, 0.5, 99, 3)}; });
    // Another shape splits differently; element i's bit stays (the prefix).
    const std::vector<double> whole = gen_mask_v2(big, 0.5, 99, 3);
    const std::vector<double> part = gen_mask_v2({3, 1001}, 0.5, 99, 3);
    EXPECT_EQ(part, std::vector<double>(whole.begin(), whole.begin() + static_cast<long>(part.size())));
    // One counter step is two elements: offset + 1 shifts the mask by 2 bits.
    const std::vector<double> shifted = gen_mask_v2({4096}, 0.5, 99, 4);
    for (int64_t i = 0; i < 4096; ++i) ASSERT_EQ(bit(shifted, i), bit(whole, i + 2)) << i;
}

TEST_F(Dropout, KeptFractionIsOneMinusP) {
    const int64_t n = 1 << 16;
    for (double p : {0.1, 0.5, 0.9}) {
        const std::vector<double> mask = gen_mask_v2({n}, p, 2024, 0);
        int64_t kept = 0;
        for (int64_t i = 0; i < n; ++i) kept += bit(mask, i);
        // Six standard deviations of a binomial; the seed is fixed, so this never flakes.
        const double sigma = std::sqrt(p * (1 - p) / double(n));
        EXPECT_NEAR(double(kept) / double(n), 1 - p, 6 * sigma) << p;
    }
}

TEST_F(Dropout, GenMaskFillsForPZeroAndOne) {
    // FillScalar: -1 (every bit kept) for p == 0, 0 for p == 1, the padding bytes too;
    // an invalid probDataType is not looked at then.
    EXPECT_EQ(gen_mask_v2({3, 5}, 0.0, 1, 2, ACL_INT32), std::vector<double>(16, 255.0));
    EXPECT_EQ(gen_mask_v2({200}, 1.0, 1, 2, ACL_INT32), std::vector<double>(32, 0.0));
}

TEST_F(Dropout, GenMaskV2TensorReadsSeedAndOffsetWhenItRuns) {
    const Shape shape{300};
    DeviceTensor seed({{1}, ACL_INT64}, {77});
    DeviceTensor offset({{2}, ACL_INT64, {1}, 1}, {5, 0});  // element 0 of the view is 5
    aclIntArray* dims = aclCreateIntArray(shape.data(), shape.size());
    auto out = DeviceTensor::output({{48}, ACL_UINT8});
    ASSERT_EQ(run_aclnn(stream_, aclnnDropoutGenMaskV2TensorGetWorkspaceSize, aclnnDropoutGenMaskV2Tensor, dims, 0.25,
                        seed.get(), offset.get(), int64_t{6}, ACL_BF16, out->get()),
              ACLNN_SUCCESS);
    aclDestroyIntArray(dims);
    EXPECT_EQ(out->read(), gen_mask_v2(shape, 0.25, 77, 11, ACL_BF16));  // offset = 5 + 6
}

/// The factor DoMask multiplies by: 1 / (1 - p), 1 - p converted into the
/// input's dtype, and for FLOAT16 the quotient too (golden.py divides in
/// the input's dtype, BF16 in FLOAT).
double keep_scale(double p, aclDataType dtype) {
    if (dtype == ACL_FLOAT16) return fp16(1.0 / fp16(1 - p));
    if (dtype == ACL_BF16) return 1.0 / bf16(double(float(1 - p)));
    return 1.0 / double(float(1 - p));
}

/// DoMask's reference: x * keep_scale where the bit is set, else 0; for p
/// == 0 x, for p == 1 zeros (dropout_common.h).
std::vector<double> do_mask_reference(const std::vector<double>& x, const std::vector<double>& mask, double p,
                                      aclDataType dtype) {
    std::vector<double> y;
    for (size_t i = 0; i < x.size(); ++i) {
        y.push_back(p == 0 ? x[i] : p == 1 ? 0.0 : bit(mask, int64_t(i)) ? x[i] * keep_scale(p, dtype) : 0.0);
    }
    return y;
}

TEST_F(Dropout, DoMaskEveryDtypeAndPThroughStridedViews) {
    const Shape shape{7, 40};  // 280 elements, 48 mask bytes
    const std::vector<double> x = uniform(280, -3, 3, 1);
    std::vector<double> bytes = uniform(48, 0, 256, 2);
    for (double& b : bytes) b = std::floor(b);
    // The mask as a strided view, larger than needed (DoMask only asks for at least 48 bytes).
    DeviceTensor mask({{50}, ACL_UINT8, {2}, 3}, [&] {
        std::vector<double> m = bytes;
        m.resize(50, 0);
        return m;
    }());
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        for (double p : {0.0, 0.3, 1.0}) {
            SCOPED_TRACE(std::to_string(dtype) + " p=" + std::to_string(p));
            DeviceTensor self({shape, dtype, {1, 7}, 2}, x);
            auto out = DeviceTensor::output({shape, dtype, {41, 1}, 1});
            ASSERT_EQ(do_mask(self, mask, p, *out), ACLNN_SUCCESS);
            expect_close(out->read(), do_mask_reference(self.read(), bytes, p, dtype), tolerance_for(dtype));
            EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
        }
    }
    // The result is rounded to self's dtype before the cast into out's.
    DeviceTensor self({{4}, ACL_FLOAT16}, {1.0, 0.1, -2.5, 3.0});
    DeviceTensor ones({{16}, ACL_UINT8}, std::vector<double>(16, 255));
    auto out = DeviceTensor::output({{4}, ACL_FLOAT});
    ASSERT_EQ(do_mask(self, ones, 0.3, *out), ACLNN_SUCCESS);
    // 1 - p = fp16(0.7); golden.py divides 1 by it in FLOAT16, then multiplies in FLOAT16.
    const double scale = keep_scale(0.3, ACL_FLOAT16);
    EXPECT_EQ(out->read(), (std::vector<double>{fp16(1.0 * scale), fp16(fp16(0.1) * scale), fp16(-2.5 * scale),
                                                fp16(3.0 * scale)}));
}

TEST_F(Dropout, DropoutIsGenMaskThenDoMask) {
    const Shape shape{3, 100};
    const std::vector<double> x = uniform(300, -1, 1, 3);
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        SCOPED_TRACE(dtype);
        DeviceTensor input({shape, dtype}, x);
        auto out = DeviceTensor::output({shape, ACL_FLOAT});
        auto maskOut = DeviceTensor::output({{48}, ACL_UINT8}, 0x11);  // 300 elements: 3 vectors of 128 bits
        ASSERT_EQ(run_aclnn(stream_, aclnnDropoutGetWorkspaceSize, aclnnDropout, input.get(), 0.4, true,
                            int64_t{42}, int64_t{8}, out->get(), maskOut->get()),
                  ACLNN_SUCCESS);
        const std::vector<double> mask = maskOut->read();
        EXPECT_EQ(mask, gen_mask_v2(shape, 0.4, 42, 8));  // Dropout's ratio is p as a FLOAT
        DeviceTensor maskIn({{48}, ACL_UINT8}, mask);
        auto expected = DeviceTensor::output({shape, ACL_FLOAT});
        ASSERT_EQ(do_mask(input, maskIn, 0.4, *expected), ACLNN_SUCCESS);
        EXPECT_EQ(out->read(), expected->read());
    }
}

TEST_F(Dropout, DropoutLeavesTheMaskForPZeroOneAndInference) {
    // aclnn_dropout.cpp: p == 0, !train and p == 1 use maskOut as it is; out is
    // input, input, zeros.
    const std::vector<double> x{1.5, -2, std::nan(""), 4};
    DeviceTensor input({{2, 2}, ACL_FLOAT}, x);
    struct Case { double p; bool train; std::vector<double> out; };
    for (const Case& c : {Case{0.0, true, x}, Case{0.5, false, x}, Case{1.0, true, {0, 0, 0, 0}}}) {
        SCOPED_TRACE(c.p);
        auto out = DeviceTensor::output({{2, 2}, ACL_FLOAT});
        auto maskOut = DeviceTensor::output({{16}, ACL_UINT8}, 0x11);
        ASSERT_EQ(run_aclnn(stream_, aclnnDropoutGetWorkspaceSize, aclnnDropout, input.get(), c.p, c.train,
                            int64_t{1}, int64_t{0}, out->get(), maskOut->get()),
                  ACLNN_SUCCESS);
        const std::vector<double> got = out->read();
        for (size_t i = 0; i < 4; ++i) {
            if (std::isnan(c.out[i])) EXPECT_TRUE(std::isnan(got[i]));
            else EXPECT_EQ(got[i], c.out[i]) << i;
        }
        EXPECT_EQ(maskOut->read(), std::vector<double>(16, 0x11));
    }
}

TEST_F(Dropout, BackwardScalesByScaleWhereKept) {
    const std::vector<double> grad = uniform(200, -2, 2, 4);
    std::vector<double> bytes = uniform(32, 0, 256, 5);
    for (double& b : bytes) b = std::floor(b);
    DeviceTensor mask({{2, 16}, ACL_UINT8}, bytes);
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        // scale 2 -> p 0.5; scale 1 -> p 0 (a copy); scale 0 -> p 1 (zeros).
        for (double scale : {2.0, 1.0, 0.0}) {
            SCOPED_TRACE(std::to_string(dtype) + " scale=" + std::to_string(scale));
            DeviceTensor g({{10, 20}, dtype}, grad);
            auto out = DeviceTensor::output({{10, 20}, dtype});
            ASSERT_EQ(run_aclnn(stream_, aclnnDropoutBackwardGetWorkspaceSize, aclnnDropoutBackward, g.get(),
                                mask.get(), scale, out->get()),
                      ACLNN_SUCCESS);
            const double p = scale == 0 ? 1 : 1 - 1 / scale;
            expect_close(out->read(), do_mask_reference(g.read(), bytes, p, dtype), tolerance_for(dtype));
        }
    }
}

TEST_F(Dropout, EmptyAndZeroDimTensors) {
    auto emptyMask = DeviceTensor::output({{0}, ACL_UINT8});
    auto emptyIn = DeviceTensor::output({{2, 0}, ACL_FLOAT});
    auto emptyOut = DeviceTensor::output({{2, 0}, ACL_FLOAT});
    const Shape zero{2, 0};
    aclIntArray* dims = aclCreateIntArray(zero.data(), zero.size());
    EXPECT_EQ(run_aclnn(stream_, aclnnDropoutGenMaskV2GetWorkspaceSize, aclnnDropoutGenMaskV2, dims, 0.5,
                        int64_t{1}, int64_t{0}, ACL_FLOAT, emptyMask->get()),
              ACLNN_SUCCESS);
    aclDestroyIntArray(dims);
    EXPECT_EQ(run_aclnn(stream_, aclnnDropoutGetWorkspaceSize, aclnnDropout, emptyIn->get(), 0.5, true, int64_t{1},
                        int64_t{0}, emptyOut->get(), emptyMask->get()),
              ACLNN_SUCCESS);
    EXPECT_EQ(run_aclnn(stream_, aclnnDropoutBackwardGetWorkspaceSize, aclnnDropoutBackward, emptyIn->get(),
                        emptyMask->get(), 2.0, emptyOut->get()),
              ACLNN_SUCCESS);
    // DoMask returns before its checks for an empty self or mask: out keeps its values.
    DeviceTensor self({{4}, ACL_FLOAT}, {1, 2, 3, 4});
    auto out = DeviceTensor::output({{5}, ACL_INT32}, 9);
    EXPECT_EQ(do_mask(self, *emptyMask, 7.0, *out), ACLNN_SUCCESS);
    EXPECT_EQ(out->read(), std::vector<double>(5, 9));
    // CheckShape divides in int64, truncating: a shape of -200 elements asks for (-200 + 127) / 128 = 0 vectors.
    const Shape negative{-200};
    dims = aclCreateIntArray(negative.data(), negative.size());
    EXPECT_EQ(run_aclnn(stream_, aclnnDropoutGenMaskGetWorkspaceSize, aclnnDropoutGenMask, dims, 0.5, int64_t{1},
                        int64_t{0}, emptyMask->get()),
              ACLNN_SUCCESS);
    aclDestroyIntArray(dims);
    // A 0-d input is one element: 16 mask bytes, and out scaled by 2 where bit 0 is kept.
    DeviceTensor scalar({{}, ACL_BF16}, {1.5});
    auto scalarOut = DeviceTensor::output({{}, ACL_BF16});
    auto mask = DeviceTensor::output({{16}, ACL_UINT8});
    ASSERT_EQ(run_aclnn(stream_, aclnnDropoutGetWorkspaceSize, aclnnDropout, scalar.get(), 0.5, true, int64_t{3},
                        int64_t{0}, scalarOut->get(), mask->get()),
              ACLNN_SUCCESS);
    EXPECT_EQ(scalarOut->read()[0], bit(mask->read(), 0) ? 3.0 : 0.0);
}

TEST_F(Dropout, GenMaskErrors) {
    const Shape shape{100};
    aclIntArray* dims = aclCreateIntArray(shape.data(), shape.size());
    auto out = DeviceTensor::output({{16}, ACL_UINT8});
    auto wrongSize = DeviceTensor::output({{13}, ACL_UINT8});
    auto wrongDtype = DeviceTensor::output({{16}, ACL_INT8});
    const auto v2 = [&](const aclIntArray* s, double p, aclDataType probDtype, aclTensor* o) {
        return phase1_of(aclnnDropoutGenMaskV2GetWorkspaceSize, s, p, int64_t{0}, int64_t{0}, probDtype, o);
    };
    expect_error_naming(v2(nullptr, 0.5, ACL_FLOAT, out->get()), ACLNN_ERR_PARAM_NULLPTR, "shape");
    expect_error_naming(v2(dims, 0.5, ACL_FLOAT, nullptr), ACLNN_ERR_PARAM_NULLPTR, "out");
    expect_error_naming(v2(dims, 0.5, ACL_FLOAT, wrongDtype->get()), ACLNN_ERR_PARAM_INVALID, "DT_INT8");
    expect_error_naming(v2(dims, 1.5, ACL_FLOAT, out->get()), ACLNN_ERR_PARAM_INVALID, "prob has to be between 0 and 1");
    expect_error_naming(v2(dims, -0.1, ACL_FLOAT, out->get()), ACLNN_ERR_PARAM_INVALID, "but current is -0.1");
    expect_error_naming(v2(dims, 0.5, ACL_FLOAT, wrongSize->get()), ACLNN_ERR_PARAM_INVALID,
                        "Size of out has to be 16, but current is 13.");
    // CreateDropout logs the dtype and returns nullptr: CHECK_RET's 561103.
    expect_error_naming(v2(dims, 0.5, ACL_INT32, out->get()), ACLNN_ERR_INNER_NULLPTR,
                        "Scalar p not implemented for DT_INT32");
    expect_error_naming(phase1_of(aclnnDropoutGenMaskV2TensorGetWorkspaceSize, dims, 0.5,
                                  static_cast<const aclTensor*>(nullptr), static_cast<const aclTensor*>(nullptr),
                                  int64_t{0}, ACL_FLOAT, out->get()),
                        ACLNN_ERR_PARAM_NULLPTR, "seedTensor");
    EXPECT_EQ(phase1_of(aclnnDropoutGenMaskGetWorkspaceSize, dims, 0.5, int64_t{0}, int64_t{0},
                        static_cast<aclTensor*>(nullptr)),
              ACLNN_ERR_PARAM_NULLPTR);
    aclOpExecutor* executor = nullptr;
    EXPECT_EQ(aclnnDropoutGenMaskGetWorkspaceSize(dims, 0.5, 0, 0, out->get(), nullptr, &executor),
              ACLNN_ERR_PARAM_NULLPTR);
    // V2Tensor's seed and offset: INT64, an element each (refused here; CANN reads them unchecked).
    DeviceTensor intSeed({{1}, ACL_INT32}, {1});
    DeviceTensor seed({{1}, ACL_INT64}, {1});
    auto noOffset = DeviceTensor::output({{0}, ACL_INT64});
    const auto v2Tensor = [&](const aclTensor* s, const aclTensor* o) {
        return phase1_of(aclnnDropoutGenMaskV2TensorGetWorkspaceSize, dims, 0.5, s, o, int64_t{0}, ACL_FLOAT,
                         out->get());
    };
    expect_error_naming(v2Tensor(intSeed.get(), seed.get()), ACLNN_ERR_PARAM_INVALID, "DT_INT32");
    expect_error_naming(v2Tensor(seed.get(), noOffset->get()), ACLNN_ERR_PARAM_INVALID, "an element each");
    aclDestroyIntArray(dims);
}

TEST_F(Dropout, DropoutErrors) {
    DeviceTensor input({{2, 100}, ACL_FLOAT}, std::vector<double>(200, 1));
    auto out = DeviceTensor::output({{2, 100}, ACL_FLOAT});
    auto mask = DeviceTensor::output({{32}, ACL_UINT8});
    auto intOut = DeviceTensor::output({{2, 100}, ACL_INT32});
    auto doubleIn = DeviceTensor::output({{2, 100}, ACL_DOUBLE});
    auto otherShape = DeviceTensor::output({{200}, ACL_FLOAT});
    auto shortMask = DeviceTensor::output({{16}, ACL_UINT8});
    auto call = [&](const aclTensor* in, double p, aclTensor* o, aclTensor* m) {
        return phase1_of(aclnnDropoutGetWorkspaceSize, in, p, true, int64_t{0}, int64_t{0}, o, m);
    };
    expect_error_naming(call(nullptr, 0.5, out->get(), mask->get()), ACLNN_ERR_PARAM_NULLPTR, "input");
    expect_error_naming(call(input.get(), 0.5, out->get(), nullptr), ACLNN_ERR_PARAM_NULLPTR, "maskOut");
    expect_error_naming(call(input.get(), 0.5, intOut->get(), mask->get()), ACLNN_ERR_PARAM_INVALID, "DT_INT32");
    expect_error_naming(call(doubleIn->get(), 0.5, doubleIn->get(), mask->get()), ACLNN_ERR_PARAM_INVALID,
                        "DT_DOUBLE");
    expect_error_naming(call(input.get(), 0.5, out->get(), out->get()), ACLNN_ERR_PARAM_INVALID, "maskOut");
    auto complexOut = DeviceTensor::output({{2, 100}, ACL_COMPLEX64});
    expect_error_naming(call(input.get(), 0.5, complexOut->get(), mask->get()), ACLNN_ERR_PARAM_INVALID,
                        "DT_COMPLEX64");  // CanCast allows it; acl-cpu does not cast into complex here
    expect_error_naming(call(input.get(), 2.0, out->get(), mask->get()), ACLNN_ERR_PARAM_INVALID,
                        "The value of p has to be between 0 and 1");
    expect_error_naming(call(input.get(), 0.5, otherShape->get(), mask->get()), ACLNN_ERR_PARAM_INVALID, "[200]");
    expect_error_naming(call(input.get(), 0.5, out->get(), shortMask->get()), ACLNN_ERR_PARAM_INVALID,
                        "Size of maskOut has to be 32, but current is 16.");
}

TEST_F(Dropout, DoMaskAndBackwardErrors) {
    DeviceTensor self({{2, 100}, ACL_FLOAT}, std::vector<double>(200, 1));
    auto out = DeviceTensor::output({{2, 100}, ACL_FLOAT});
    auto mask = DeviceTensor::output({{32}, ACL_UINT8});
    auto bigMask = DeviceTensor::output({{40}, ACL_UINT8});
    auto shortMask = DeviceTensor::output({{31}, ACL_UINT8});
    auto intSelf = DeviceTensor::output({{2, 100}, ACL_INT32});
    auto otherShape = DeviceTensor::output({{100, 2}, ACL_FLOAT});
    const auto doMask = [&](const aclTensor* s, const aclTensor* m, double p, aclTensor* o) {
        return phase1_of(aclnnDropoutDoMaskGetWorkspaceSize, s, m, p, o);
    };
    expect_error_naming(doMask(self.get(), nullptr, 0.5, out->get()), ACLNN_ERR_PARAM_NULLPTR, "mask");
    expect_error_naming(doMask(intSelf->get(), mask->get(), 0.5, intSelf->get()), ACLNN_ERR_PARAM_INVALID,
                        "DT_INT32");
    expect_error_naming(doMask(self.get(), self.get(), 0.5, out->get()), ACLNN_ERR_PARAM_INVALID, "mask");
    expect_error_naming(doMask(self.get(), mask->get(), -1.0, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "The value of prob has to be between 0 and 1");
    expect_error_naming(doMask(self.get(), mask->get(), 0.5, otherShape->get()), ACLNN_ERR_PARAM_INVALID,
                        "[100,2]");
    expect_error_naming(doMask(self.get(), shortMask->get(), 0.5, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "Size of mask has to be 32, but current is 31.");
    EXPECT_EQ(doMask(self.get(), bigMask->get(), 0.5, out->get()), ACLNN_SUCCESS);  // at least, not exactly
    const Shape nine{1, 1, 1, 1, 1, 1, 1, 2, 100};
    DeviceTensor rank9({nine, ACL_FLOAT}, std::vector<double>(200, 1));
    auto rank9Out = DeviceTensor::output({nine, ACL_FLOAT});
    expect_error_naming(doMask(rank9.get(), mask->get(), 0.5, rank9Out->get()), ACLNN_ERR_PARAM_INVALID, "self");

    const auto backward = [&](const aclTensor* g, const aclTensor* m, double scale, aclTensor* o) {
        return phase1_of(aclnnDropoutBackwardGetWorkspaceSize, g, m, scale, o);
    };
    expect_error_naming(backward(nullptr, mask->get(), 2.0, out->get()), ACLNN_ERR_PARAM_NULLPTR, "gradOutput");
    expect_error_naming(backward(intSelf->get(), mask->get(), 2.0, intSelf->get()), ACLNN_ERR_PARAM_INVALID,
                        "DT_INT32");
    // scale 0.5 gives p = -1.
    expect_error_naming(backward(self.get(), mask->get(), 0.5, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "but got scale 0.5");
    expect_error_naming(backward(self.get(), mask->get(), 2.0, otherShape->get()), ACLNN_ERR_PARAM_INVALID,
                        "[100,2]");
    expect_error_naming(backward(self.get(), bigMask->get(), 2.0, out->get()), ACLNN_ERR_PARAM_INVALID,
                        "Size of maskOut has to be 32, but current is 40.");
}

}  // namespace
