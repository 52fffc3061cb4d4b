// aclnnRotaryPositionEmbedding against a double reference of the doc's
// formulas (half: y = x cos + cat(-x2, x1) sin; interleave: pairs
// (-x[2i+1], x[2i]) times sin): both modes, every A2 dtype, every cos/sin
// form the A2 tilings accept, strided and offset views, empty x, the
// fp32-then-round-once arithmetic, determinism, and every error path.
#include <cmath>
#include <cstring>
#include <vector>

#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "aclcpu/half.hpp"
#include "ops/op_test_support.hpp"

// ggml's CANN backend declares the entry points itself (src/ggml-cann/aclnn_ops.cpp);
// the header's declarations must agree with these for a translation unit to hold both.
extern "C" {
aclnnStatus aclnnRotaryPositionEmbeddingGetWorkspaceSize(const aclTensor* x, const aclTensor* cos, const aclTensor* sin,
                                                         int64_t mode, const aclTensor* yOut, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor);
aclnnStatus aclnnRotaryPositionEmbedding(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                         aclrtStream stream);
}

namespace {

using namespace optest;

constexpr uint64_t kWorkspace = 16u * 1024u * 1024u;

/// The doc's formula at element i of x (shape [B, S, N, D], row-major), cos
/// and sin values broadcast from their shape.
double rope_reference(const std::vector<double>& x, const std::vector<double>& cos, const std::vector<double>& sin,
                      const Shape& xShape, const Shape& rShape, int64_t mode, int64_t i) {
    const int64_t length = xShape[3];
    const int64_t j = i % length;
    const int64_t rowStart = i - j;
    double rotated = 0;
    if (mode == 0) {
        const int64_t half = length / 2;
        rotated = j < half ? -x[rowStart + j + half] : x[rowStart + j - half];
    } else {
        rotated = j % 2 == 0 ? -x[i + 1] : x[i - 1];
    }
    const double c = broadcast_value(cos, rShape, xShape, i);
    const double s = broadcast_value(sin, rShape, xShape, i);
    return x[i] * c + rotated * s;
}

class Rope : public AclTest {
protected:
    aclnnStatus run(const DeviceTensor& x, const DeviceTensor& cos, const DeviceTensor& sin, int64_t mode,
                    DeviceTensor& out, uint64_t* workspace = nullptr) {
        return run_two_phases(
            [&](uint64_t* workspaceSize, aclOpExecutor** executor) {
                return aclnnRotaryPositionEmbeddingGetWorkspaceSize(x.get(), cos.get(), sin.get(), mode, out.get(),
                                                                    workspaceSize, executor);
            },
            aclnnRotaryPositionEmbedding, stream_, workspace);
    }

    /// Runs on random x, cos and sin of the specs and checks every element
    /// of out against the reference and no byte outside out's view.
    void check(const TensorSpec& xSpec, const TensorSpec& rSpec, const TensorSpec& outSpec, int64_t mode,
               uint32_t seed = 1) {
        const std::vector<double> x = representable(uniform(size_t(numel(xSpec.shape)), -2, 2, seed), xSpec.dtype);
        const std::vector<double> cos =
            representable(uniform(size_t(numel(rSpec.shape)), -1, 1, seed + 1), rSpec.dtype);
        const std::vector<double> sin =
            representable(uniform(size_t(numel(rSpec.shape)), -1, 1, seed + 2), rSpec.dtype);
        const DeviceTensor xt(xSpec, x), ct(rSpec, cos), st(rSpec, sin);
        auto out = DeviceTensor::output(outSpec);
        uint64_t workspace = 0;
        ASSERT_EQ(run(xt, ct, st, mode, *out, &workspace), ACLNN_SUCCESS);
        EXPECT_EQ(workspace, kWorkspace);
        std::vector<double> expected;
        for (int64_t i = 0; i < numel(xSpec.shape); ++i) {
            expected.push_back(rope_reference(x, cos, sin, xSpec.shape, rSpec.shape, mode, i));
        }
        // Two products of up to 2 in magnitude cancel: fp32 leaves up to a few 2^-24 * 4 absolute.
        Tolerance tol = tolerance_for(outSpec.dtype);
        tol.atol = 1e-6;
        expect_close(out->read(), expected, tol);
        EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
    }

    void check_dense(const Shape& xShape, const Shape& rShape, aclDataType dtype, int64_t mode, uint32_t seed = 1) {
        check({xShape, dtype}, {rShape, dtype}, {xShape, dtype}, mode, seed);
    }
};

TEST_F(Rope, BothModesEveryDtypeBsndWith1S1D) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        for (int64_t mode : {0, 1}) {
            SCOPED_TRACE(testing::Message() << dtype << " mode " << mode);
            // D of 2, one vector's worth and more, and a remainder past the vectors.
            for (int64_t d : {2, 16, 64, 86, 128}) check_dense({2, 5, 3, d}, {1, 5, 1, d}, dtype, mode);
        }
    }
}

TEST_F(Rope, EveryHalfModeLayoutOfTheDoc) {
    // BNSD: 11SD, B1SD, BNSD; BSND: 1S1D, BS1D, BSND; SBND: S11D, SB1D, SBND
    // (x of B=2, N=3, S=5), and 111D where a dim of x is 1.
    const Shape bnsd{2, 3, 5, 32}, bsnd{2, 5, 3, 32}, sbnd{5, 2, 3, 32};
    for (aclDataType dtype : {ACL_FLOAT, ACL_BF16}) {
        SCOPED_TRACE(dtype);
        check_dense(bnsd, {1, 1, 5, 32}, dtype, 0);
        check_dense(bnsd, {2, 1, 5, 32}, dtype, 0);
        check_dense(bnsd, bnsd, dtype, 0);
        check_dense(bsnd, {1, 5, 1, 32}, dtype, 0);
        check_dense(bsnd, {2, 5, 1, 32}, dtype, 0);
        check_dense(bsnd, bsnd, dtype, 0);
        check_dense(sbnd, {5, 1, 1, 32}, dtype, 0);
        check_dense(sbnd, {5, 2, 1, 32}, dtype, 0);
        check_dense(sbnd, sbnd, dtype, 0);
        check_dense({1, 5, 3, 32}, {1, 1, 1, 32}, dtype, 0);
        check_dense({2, 5, 1, 32}, {1, 5, 1, 32}, dtype, 0);  // x BS1D, cos 1S1D
    }
}

TEST_F(Rope, EveryInterleaveModeLayoutOfTheDoc) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16}) {
        SCOPED_TRACE(dtype);
        check_dense({2, 3, 5, 24}, {1, 1, 5, 24}, dtype, 1);  // BNSD, 11SD
        check_dense({2, 5, 3, 24}, {1, 5, 1, 24}, dtype, 1);  // BSND, 1S1D
        check_dense({5, 2, 3, 24}, {5, 1, 1, 24}, dtype, 1);  // SBND, S11D
        check_dense({1, 1, 1, 24}, {1, 1, 1, 24}, dtype, 1);
    }
}

TEST_F(Rope, HeadDimLimits) {
    check_dense({1, 2, 1, 896}, {1, 2, 1, 896}, ACL_FLOAT, 0);  // the tiling refuses D > 896 only
    check_dense({1, 2, 2, 2000}, {1, 2, 1, 2000}, ACL_FLOAT, 1);  // the interleaved tiling has no such limit
}

TEST_F(Rope, StridedAndOffsetViews) {
    const Shape x{2, 4, 3, 8};
    // x transposed (S and N swapped in memory), cos with a gap between rows, out offset.
    check({x, ACL_FLOAT, {96, 8, 32, 1}, 0}, {{1, 4, 1, 8}, ACL_FLOAT, {64, 16, 8, 1}, 3, {80}},
          {x, ACL_FLOAT, {96, 24, 8, 1}, 5, {200}}, 0);
    // D strided: every other element.
    check({x, ACL_FLOAT16, {192, 48, 16, 2}, 1, {400}}, {{1, 4, 1, 8}, ACL_FLOAT16}, {x, ACL_FLOAT16, {192, 48, 16, 2}, 0, {400}}, 1);
}

TEST_F(Rope, SixteenBitDtypesAreComputedInFp32AndRoundedOnce) {
    // u = the dtype's ulp at 1; x = (1 + u, 1.5), cos = (1 + u, 1), sin = (u, 0):
    // y[0] = (1 + u)^2 - 1.5u = 1 + 0.5u + u^2, exact in fp32, rounds once to 1 + u.
    // Rounding the product to the dtype first (1 + 2u) would leave 1 + 0.5u, a tie -> 1.
    for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
        SCOPED_TRACE(dtype);
        const double u = dtype == ACL_FLOAT16 ? std::ldexp(1.0, -10) : std::ldexp(1.0, -7);
        const Shape shape{1, 1, 1, 2};
        const DeviceTensor x({shape, dtype}, {1 + u, 1.5}), c({shape, dtype}, {1 + u, 1}), s({shape, dtype}, {u, 0});
        auto out = DeviceTensor::output({shape, dtype});
        ASSERT_EQ(run(x, c, s, 0, *out), ACLNN_SUCCESS);
        EXPECT_EQ(out->read(), (std::vector<double>{1 + u, 1.5}));
    }
}

TEST_F(Rope, EmptyXSucceedsWithNoWork) {
    for (const Shape& shape : {Shape{0, 3, 2, 8}, Shape{2, 0, 2, 8}, Shape{2, 3, 2, 0}}) {
        DeviceTensor x({shape, ACL_FLOAT}, {}), c({{1, 1, 1, 8}, ACL_FLOAT}, std::vector<double>(8, 1.0));
        auto out = DeviceTensor::output({shape, ACL_FLOAT});
        uint64_t workspace = 1;
        EXPECT_EQ(run(x, c, c, 0, *out, &workspace), ACLNN_SUCCESS);
        EXPECT_EQ(workspace, 0u);
    }
}

TEST_F(Rope, DeterministicAcrossWorkerCounts) {
    const Shape x{4, 64, 8, 128}, r{1, 64, 1, 128};
    const std::vector<double> xs = representable(uniform(size_t(numel(x)), -2, 2, 3), ACL_BF16);
    const std::vector<double> cs = representable(uniform(size_t(numel(r)), -1, 1, 4), ACL_BF16);
    const std::vector<double> ss = representable(uniform(size_t(numel(r)), -1, 1, 5), ACL_BF16);
    std::vector<std::vector<uint8_t>> results;
    for (int threads : {1, 2, 8}) {
        restart_with_worker_threads(threads);
        for (int64_t mode : {0, 1}) {
            const DeviceTensor xt({x, ACL_BF16}, xs), ct({r, ACL_BF16}, cs), st({r, ACL_BF16}, ss);
            auto out = DeviceTensor::output({x, ACL_BF16});
            ASSERT_EQ(run(xt, ct, st, mode, *out), ACLNN_SUCCESS);
            results.push_back(out->bytes());
        }
    }
    EXPECT_EQ(results[0], results[2]);
    EXPECT_EQ(results[0], results[4]);
    EXPECT_EQ(results[1], results[3]);
    EXPECT_EQ(results[1], results[5]);
}

/// Phase 1 on fresh tensors of the views: the code, with a message.
class RopeErrors : public Rope {
protected:
    aclnnStatus phase1(const TensorSpec& x, const TensorSpec& cos, const TensorSpec& sin, int64_t mode,
                       const TensorSpec& out) {
        const DeviceTensor xt(x), ct(cos), st(sin), ot(out);
        return phase1_of(aclnnRotaryPositionEmbeddingGetWorkspaceSize, xt.get(), ct.get(), st.get(), mode,
                         static_cast<const aclTensor*>(ot.get()));
    }
};

TEST_F(RopeErrors, NullPointersAre161001) {
    const TensorSpec x({1, 2, 1, 4}, ACL_FLOAT), r({1, 2, 1, 4}, ACL_FLOAT);
    const DeviceTensor xt(x), ct(r), st(r), ot(x);
    expect_each_null_is_161001(aclnnRotaryPositionEmbeddingGetWorkspaceSize, xt.get(), ct.get(), st.get(),
                               int64_t{0}, static_cast<const aclTensor*>(ot.get()));
}

TEST_F(RopeErrors, DtypesOutsideTheOpDefAre161002) {
    const Shape x{1, 2, 1, 4}, r{1, 2, 1, 4};
    const TensorSpec f32x(x, ACL_FLOAT), f32r(r, ACL_FLOAT);
    expect_error(phase1({x, ACL_DOUBLE}, {r, ACL_DOUBLE}, {r, ACL_DOUBLE}, 0, {x, ACL_DOUBLE}), ACLNN_ERR_PARAM_INVALID);
    expect_error(phase1({x, ACL_INT32}, f32r, f32r, 0, f32x), ACLNN_ERR_PARAM_INVALID);
    expect_error_naming(phase1(f32x, {r, ACL_FLOAT16}, f32r, 0, f32x), ACLNN_ERR_PARAM_INVALID, "cos");
    expect_error_naming(phase1(f32x, f32r, {r, ACL_BF16}, 0, f32x), ACLNN_ERR_PARAM_INVALID, "sin");
    expect_error_naming(phase1(f32x, f32r, f32r, 0, {x, ACL_FLOAT16}), ACLNN_ERR_PARAM_INVALID, "out");
}

TEST_F(RopeErrors, ShapesLayoutsAndModesTheTilingRefusesAre561002) {
    const auto refused = [&](const Shape& x, const Shape& cos, const Shape& sin, int64_t mode, const Shape& out,
                             const char* word) {
        SCOPED_TRACE(word);
        expect_error_naming(phase1({x, ACL_FLOAT}, {cos, ACL_FLOAT}, {sin, ACL_FLOAT}, mode, {out, ACL_FLOAT}),
                            ACLNN_ERR_INNER_TILING_ERROR, word);
    };
    const Shape x{2, 4, 3, 8}, r{1, 4, 1, 8};
    refused(x, r, r, 2, x, "mode 2");
    refused(x, r, r, -1, x, "mode -1");
    refused({8, 3, 8}, {4, 1, 8}, {4, 1, 8}, 0, {8, 3, 8}, "4-dimensional");
    refused(x, {4, 1, 8}, {4, 1, 8}, 1, x, "4-dimensional");
    refused({1, 2, 1, 898}, {1, 2, 1, 898}, {1, 2, 1, 898}, 0, {1, 2, 1, 898}, "896");
    refused({1, 2, 1, 7}, {1, 2, 1, 7}, {1, 2, 1, 7}, 0, {1, 2, 1, 7}, "even");
    refused({1, 2, 1, 7}, {1, 2, 1, 7}, {1, 2, 1, 7}, 1, {1, 2, 1, 7}, "even");
    refused(x, r, {1, 4, 2, 8}, 0, x, "cos shape and sin shape");
    refused(x, {1, 4, 1, 6}, {1, 4, 1, 6}, 0, x, "x [8] and cos [6]");
    refused(x, r, r, 0, {2, 4, 3, 6}, "shape of out");
    refused(x, {1, 2, 1, 8}, {1, 2, 1, 8}, 0, x, "unknow input layout");
    // Half mode: 111D only where a dim of x is 1, 1SND only for x B1SD or BS1D,
    // and the BNSD cases the tiling sends to smaller operators.
    refused(x, {1, 1, 1, 8}, {1, 1, 1, 8}, 0, x, "unknow input layout");
    refused(x, {1, 4, 3, 8}, {1, 4, 3, 8}, 0, x, "unknow input layout");
    refused({8, 8, 2, 64}, {1, 1, 2, 64}, {1, 1, 2, 64}, 0, {8, 8, 2, 64}, "BNSD");
    // Interleave: S11D, 1S1D and 11SD only, and D within the UB.
    refused(x, {2, 4, 1, 8}, {2, 4, 1, 8}, 1, x, "not supported");
    refused(x, x, x, 1, x, "not supported");
    refused({1, 1, 1, 12296}, {1, 1, 1, 12296}, {1, 1, 1, 12296}, 1, {1, 1, 1, 12296}, "too large");
}

TEST_F(RopeErrors, AcceptedNeighboursOfTheRefusedCases) {
    check_dense({8, 8, 2, 64}, {1, 1, 2, 64}, ACL_FLOAT, 1);// BNSD refused in half mode only
    check_dense({8, 8, 16, 64}, {1, 1, 16, 64}, ACL_FLOAT, 0);     // B*N = 64 <= 8 * S
    check_dense({1, 1, 1, 12288}, {1, 1, 1, 12288}, ACL_FLOAT, 1);  // the largest fp32 D of the interleaved tiling
}

TEST_F(RopeErrors, ViewsPastTheirStorageAre161002) {
    const Shape x{1, 2, 1, 4};
    expect_error(phase1({x, ACL_FLOAT, {8, 4, 4, 1}, 64, {8}}, {x, ACL_FLOAT}, {x, ACL_FLOAT}, 0, {x, ACL_FLOAT}),
                 ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
