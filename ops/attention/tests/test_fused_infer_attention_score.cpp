// aclnnFusedInferAttentionScoreV2 against a double reference written from
// the doc's formula, softmax(scaleValue * Q K^T + pseShift, masked) V, with
// the keys each row sees per sparseMode as the doc and the prompt tiling's
// GetSparseParam define them: every accepted layout, FLOAT16 and BF16, GQA,
// pse and masks with broadcast (zero-stride) dims, the causal and band
// modes, S1 = 1 (the incremental path), odd and long sequences (1, 7, 257,
// past one key tile), rows that see nothing, softmaxLse, empty tensors,
// determinism over worker counts, and every error path with its code and
// message (CANN's wording, op_host/fused_infer_attention_score_tiling.cpp and
// prompt_flash_attention_tiling.cpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "aclcpu_testkit/tensor_copy.hpp"
#include "aclnnop/aclnn_fused_infer_attention_score_v2.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v3.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v4.h"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;
using aclcpu::testkit::copy_tensor;

struct Case {
    std::string layout = "BNSD";
    int64_t b = 1, n = 2, n2 = 2, s1 = 4, s2 = 8, d = 16;
    aclDataType dtype = ACL_FLOAT16;
    double scale = 0.25;
    int64_t pre = 65535, next = 65535, sparseMode = 0, innerPrecise = 0;
    Shape pseShape;  ///< empty: no pse
    Shape pseStrides;
    Shape maskShape;  ///< empty: no mask
    Shape maskStrides;
    aclDataType maskDtype = ACL_BOOL;
    double maskDensity = 0.3;
    bool lse = false;
    std::vector<int64_t> qLens, kvLens;  ///< actual sequence lengths; empty: none
    uint32_t seed = 1;

    int64_t q_len(int64_t b) const { return qLens.empty() || s1 == 1 ? s1 : qLens[qLens.size() == 1 ? 0 : b]; }
    int64_t kv_len(int64_t b) const { return kvLens.empty() ? s2 : kvLens[kvLens.size() == 1 ? 0 : b]; }
};

bool bnsd_input(const std::string& layout) { return layout == "BNSD" || layout == "BNSD_BSND"; }

/// The shape of query (heads n, sequence s) or key/value in the layout.
Shape layout_shape(const std::string& layout, int64_t b, int64_t n, int64_t s, int64_t d) {
    if (layout == "BSH") return {b, s, n * d};
    if (layout == "BSND") return {b, s, n, d};
    return {b, n, s, d};
}

/// Row-major index of element (b, n, s, d) in a tensor of that layout.
int64_t at(const std::string& layout, int64_t N, int64_t S, int64_t D, int64_t b, int64_t n, int64_t s, int64_t d) {
    if (bnsd_input(layout)) return ((b * N + n) * S + s) * D + d;
    return ((b * S + s) * N + n) * D + d;  // BSND, and BSH whose H is N * D
}

/// The mask's value at (b, i, j) as the doc reads its shapes.
double mask_at(const Case& c, const std::vector<double>& m, int64_t b, int64_t i, int64_t j) {
    const Shape& s = c.maskShape;
    const size_t r = s.size();
    const int64_t mb = s[0] == 1 ? 0 : b;
    int64_t row = 0, batch = 0;
    if (r == 2 && c.s1 > 1) {
        row = i;
    } else {
        batch = mb;
        row = c.s1 > 1 ? i : 0;
    }
    if (r == 2) return c.s1 > 1 ? m[row * s[1] + j] : m[batch * s[1] + j];
    if (r == 3) return m[(batch * s[1] + row) * s[2] + j];
    return m[((batch * s[1]) * s[2] + row) * s[3] + j];
}

/// Whether row i of batch b sees key j per sparseMode and the actual
/// lengths (the doc; mode 0 with a mask keeps preTokens/nextTokens, modes
/// 3 and 4 count from the batch's right-down corner, GetSparseParam).
bool in_band(const Case& c, int64_t b, int64_t i, int64_t j) {
    if (i >= c.q_len(b) || j >= c.kv_len(b)) return false;
    if (c.s1 == 1) return true;
    const int64_t k = j - i, diag = c.kv_len(b) - c.q_len(b);
    switch (c.sparseMode) {
        case 0: return c.maskShape.empty() || (k >= -c.pre && k <= c.next);
        case 2: return k <= 0;
        case 3: return k <= diag;
        case 4: return k >= diag - c.pre && k <= diag + c.next;
        default: return true;
    }
}

struct Reference {
    std::vector<double> out;  ///< in out's layout
    std::vector<double> lse;  ///< [B, N, S1]
};

Reference reference(const Case& c, const std::vector<double>& q, const std::vector<double>& k,
                    const std::vector<double>& v, const std::vector<double>& pse, const std::vector<double>& mask) {
    const std::string outLayout = c.layout == "BNSD_BSND" ? "BSND" : c.layout;
    Reference r;
    r.out.assign(size_t(c.b * c.n * c.s1 * c.d), 0.0);
    r.lse.assign(size_t(c.b * c.n * c.s1), -std::numeric_limits<double>::infinity());
    const bool compressed = c.s1 > 1 && c.sparseMode >= 2;
    for (int64_t b = 0; b < c.b; ++b) {
        for (int64_t n = 0; n < c.n; ++n) {
            const int64_t n2 = n / (c.n / c.n2);
            for (int64_t i = 0; i < c.s1; ++i) {
                std::vector<double> s(size_t(c.s2), -std::numeric_limits<double>::infinity());
                double max = -std::numeric_limits<double>::infinity();
                for (int64_t j = 0; j < c.s2; ++j) {
                    if (!in_band(c, b, i, j)) continue;
                    if (!c.maskShape.empty() && !compressed && mask_at(c, mask, b, i, j) != 0) continue;
                    double dot = 0;
                    for (int64_t e = 0; e < c.d; ++e) {
                        dot += q[at(c.layout, c.n, c.s1, c.d, b, n, i, e)] * k[at(c.layout, c.n2, c.s2, c.d, b, n2, j, e)];
                    }
                    s[j] = c.scale * dot;
                    if (!c.pseShape.empty()) {
                        const Shape& p = c.pseShape;
                        s[j] += pse[((((p[0] == 1 ? 0 : b) * p[1] + n) * p[2] + i) * p[3]) + j];
                    }
                    max = std::max(max, s[j]);
                }
                if (max == -std::numeric_limits<double>::infinity()) continue;  // sees nothing: 0
                double sum = 0;
                std::vector<double> acc(size_t(c.d), 0.0);
                for (int64_t j = 0; j < c.s2; ++j) {
                    const double p = std::exp(s[j] - max);
                    sum += p;
                    for (int64_t e = 0; e < c.d; ++e) acc[e] += p * v[at(c.layout, c.n2, c.s2, c.d, b, n2, j, e)];
                }
                for (int64_t e = 0; e < c.d; ++e) r.out[at(outLayout, c.n, c.s1, c.d, b, n, i, e)] = acc[e] / sum;
                r.lse[(b * c.n + n) * c.s1 + i] = max + std::log(sum);
            }
        }
    }
    return r;
}

class Fia : public AclTest {
protected:
    /// Phase 1 and 2 of the operator over the tensors (pse, mask, lse may be null).
    aclnnStatus run(const Case& c, const aclTensor* q, const aclTensor* k, const aclTensor* v, const aclTensor* pse,
                    const aclTensor* mask, const aclTensor* out, const aclTensor* lse, bool phase2 = true) {
        TensorList keys({copy_tensor(k)}), values({copy_tensor(v)});
        const IntArray qLens = c.qLens.empty() ? IntArray::none() : IntArray(c.qLens);
        const IntArray kvLens = c.kvLens.empty() ? IntArray::none() : IntArray(c.kvLens);
        std::string layout = c.layout;
        const auto phase1 = [&](uint64_t* workspaceSize, aclOpExecutor** executor) {
            return aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
                q, keys.get(), values.get(), pse, mask, qLens.get(), kvLens.get(), nullptr, nullptr, nullptr, nullptr,
                nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                nullptr, nullptr, c.n, c.scale, c.pre, c.next, layout.data(), c.n2, c.sparseMode, c.innerPrecise, 0, 0, c.lse,
                0, 0, out, lse, workspaceSize, executor);
        };
        if (!phase2) return phase1_only(phase1);
        return run_two_phases(phase1, aclnnFusedInferAttentionScoreV2, stream_, nullptr);
    }

    /// Random operands of the case, the operator's out (and lse) against the reference.
    void check(const Case& c) {
        const Shape qShape = layout_shape(c.layout, c.b, c.n, c.s1, c.d);
        const Shape kvShape = layout_shape(c.layout, c.b, c.n2, c.s2, c.d);
        const Shape outShape = c.layout == "BNSD_BSND" ? Shape{c.b, c.s1, c.n, c.d} : qShape;
        const auto q = representable(uniform(size_t(numel(qShape)), -1, 1, c.seed), c.dtype);
        const auto k = representable(uniform(size_t(numel(kvShape)), -1, 1, c.seed + 1), c.dtype);
        const auto v = representable(uniform(size_t(numel(kvShape)), -1, 1, c.seed + 2), c.dtype);
        std::vector<double> pse, mask;
        std::unique_ptr<DeviceTensor> pseT, maskT;
        if (!c.pseShape.empty()) {
            pse = representable(uniform(size_t(numel(c.pseShape)), -2, 2, c.seed + 3), c.dtype);
            if (!c.pseStrides.empty()) broadcast_over_zero_strides(c.pseShape, c.pseStrides, &pse);
            pseT = std::make_unique<DeviceTensor>(TensorSpec(c.pseShape, c.dtype, c.pseStrides), pse);
        }
        if (!c.maskShape.empty()) {
            mask = uniform(size_t(numel(c.maskShape)), 0, 1, c.seed + 4);
            for (double& m : mask) m = m < c.maskDensity ? 1 : 0;
            if (!c.maskStrides.empty()) broadcast_over_zero_strides(c.maskShape, c.maskStrides, &mask);
            maskT = std::make_unique<DeviceTensor>(TensorSpec(c.maskShape, c.maskDtype, c.maskStrides), mask);
        }
        const DeviceTensor qt({qShape, c.dtype}, q), kt({kvShape, c.dtype}, k), vt({kvShape, c.dtype}, v);
        auto out = DeviceTensor::output({outShape, c.dtype});
        std::unique_ptr<DeviceTensor> lse;
        if (c.lse) lse = DeviceTensor::output({{c.b, c.n, c.s1, 1}, ACL_FLOAT});
        ASSERT_EQ(run(c, qt.get(), kt.get(), vt.get(), pseT ? pseT->get() : nullptr, maskT ? maskT->get() : nullptr,
                      out->get(), lse ? lse->get() : nullptr),
                  ACLNN_SUCCESS);
        const Reference ref = reference(c, q, k, v, pse, mask);
        // Inputs exact in fp32; P rounded to the dtype before P V (relative
        // 2^-11 / 2^-8), fp32 sums, out rounded once: |error| stays within
        // a few of the dtype's ulps of values up to 1.
        const double tol = c.dtype == ACL_BF16 ? 2e-2 : 3e-3;
        expect_close(out->read(), ref.out, {tol, tol});
        if (lse) expect_close(lse->read(), ref.lse, {1e-5, 1e-5});
    }

    /// Values of a view with zero strides: every element that shares storage takes the first one's value.
    static void broadcast_over_zero_strides(const Shape& shape, const Shape& strides, std::vector<double>* values) {
        const std::vector<int64_t> positions = aclcpu::testkit::view_positions(shape, strides, 0);
        std::vector<double> first(size_t(*std::max_element(positions.begin(), positions.end()) + 1), NAN);
        for (size_t i = 0; i < positions.size(); ++i) {
            double& slot = first[size_t(positions[i])];
            if (std::isnan(slot)) slot = (*values)[i];
            (*values)[i] = slot;
        }
    }
};

TEST_F(Fia, EveryLayoutAndDtype) {
    for (const char* layout : {"BNSD", "BSND", "BSH", "BNSD_BSND"}) {
        for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
            SCOPED_TRACE(testing::Message() << layout << " " << dtype);
            Case c;
            c.layout = layout;
            c.dtype = dtype;
            c.b = 2, c.n = 3, c.n2 = 3, c.s1 = 5, c.s2 = 9, c.d = 16;
            check(c);
        }
    }
}

TEST_F(Fia, GroupedKeyValueHeads) {
    for (const char* layout : {"BNSD", "BSND", "BSH"}) {
        SCOPED_TRACE(layout);
        Case c;
        c.layout = layout;
        c.n = 8, c.n2 = 2, c.s1 = 3, c.s2 = 6, c.d = 32;
        check(c);
        c.n2 = 1;  // multi-query
        check(c);
    }
}

TEST_F(Fia, OddAndLongSequences) {
    // 1, 7 and 257 rows and keys: the tails of the 128-row query tile and of
    // the 512-key tile, and a sequence over several key tiles (online softmax).
    for (int64_t s : {1, 7, 257}) {
        SCOPED_TRACE(s);
        Case c;
        c.s1 = s, c.s2 = s, c.d = 8, c.n = 1, c.n2 = 1;
        check(c);
    }
    Case c;
    c.s1 = 130, c.s2 = 1100, c.d = 24, c.n = 2, c.n2 = 1, c.layout = "BSND";
    check(c);
}

TEST_F(Fia, DecodeWithOneQueryRow) {
    // ggml's token generation: BSND, S1 = 1, a pse mask broadcast over heads.
    Case c;
    c.layout = "BSND";
    c.b = 2, c.n = 4, c.n2 = 2, c.s1 = 1, c.s2 = 300, c.d = 64;
    c.pseShape = {2, 4, 1, 300};
    c.pseStrides = {300, 0, 300, 1};
    check(c);
    // The incremental path's masks: (B, KV_S), (B, 1, KV_S), (B, 1, 1, KV_S), KV_S padded.
    Case m;
    m.b = 2, m.s1 = 1, m.s2 = 20, m.maskDtype = ACL_INT8;
    for (const Shape& shape : {Shape{2, 20}, Shape{2, 1, 20}, Shape{2, 1, 1, 32}, Shape{1, 32}}) {
        SCOPED_TRACE(testing::PrintToString(shape));
        m.maskShape = shape;
        check(m);
    }
}

TEST_F(Fia, PseShiftWithBroadcastDims) {
    Case c;
    c.layout = "BSND";
    c.b = 2, c.n = 4, c.n2 = 4, c.s1 = 6, c.s2 = 10;
    c.pseShape = {1, 4, 6, 10};  // batch 1
    check(c);
    c.pseShape = {2, 4, 8, 16};  // larger than S1 x S2, cut
    check(c);
    c.pseShape = {2, 4, 6, 10};  // ggml's view: heads at stride 0
    c.pseStrides = {60, 0, 10, 1};
    check(c);
}

TEST_F(Fia, MasksOfEveryDocumentedShape) {
    Case c;
    c.b = 2, c.s1 = 6, c.s2 = 10;
    for (aclDataType dtype : {ACL_BOOL, ACL_INT8, ACL_UINT8}) {
        for (const Shape& shape : {Shape{6, 10}, Shape{2, 6, 10}, Shape{1, 6, 10}, Shape{2, 1, 6, 10},
                                   Shape{1, 1, 6, 10}, Shape{1, 1, 16, 16}}) {
            SCOPED_TRACE(testing::Message() << dtype << " " << testing::PrintToString(shape));
            c.maskDtype = dtype;
            c.maskShape = shape;
            check(c);
        }
    }
    c.maskShape = {2, 1, 6, 10};  // batch at stride 0
    c.maskStrides = {0, 60, 10, 1};
    check(c);
}

TEST_F(Fia, RowsThatSeeNothingGiveZeros) {
    Case c;
    c.s1 = 4, c.s2 = 8, c.maskShape = {4, 8}, c.maskDensity = 2.0;  // everything masked
    c.lse = true;
    check(c);
    c.maskDensity = 0.7;  // some rows
    c.seed = 5;
    check(c);
    c.maskShape.clear();
    c.s2 = 0;  // no keys at all
    check(c);
}

TEST_F(Fia, SparseModesAndTokens) {
    Case c;
    c.s1 = 9, c.s2 = 13, c.lse = true;
    c.maskShape = {9, 13};
    c.maskDensity = 0.2;
    for (auto [pre, next] : {std::pair<int64_t, int64_t>{65535, 65535}, {2, 0}, {0, 3}, {-1, 4}, {5, -2}}) {
        SCOPED_TRACE(testing::Message() << "mode 0 pre " << pre << " next " << next);
        c.pre = pre, c.next = next;
        check(c);
    }
    c.sparseMode = 1;  // allMask: the tokens are ignored
    c.pre = 0, c.next = 0;
    check(c);
    // The compressed 2048 x 2048 mask stands for the causal band.
    c.maskShape = {2048, 2048};
    c.maskDensity = 0;
    for (int64_t mode : {2, 3}) {
        SCOPED_TRACE(mode);
        c.sparseMode = mode;
        check(c);
    }
    c.sparseMode = 4;
    for (auto [pre, next] : {std::pair<int64_t, int64_t>{3, 0}, {2, 2}, {-1, 5}, {6, -2}}) {
        SCOPED_TRACE(testing::Message() << "band pre " << pre << " next " << next);
        c.pre = pre, c.next = next;
        check(c);
    }
    c.s1 = 13, c.s2 = 9, c.sparseMode = 3, c.maskShape = {1, 1, 2048, 2048};  // S1 > S2: the first rows see nothing
    check(c);
}

TEST_F(Fia, ActualSequenceLengths) {
    Case c;
    c.b = 3, c.s1 = 6, c.s2 = 10, c.lse = true;
    c.qLens = {6, 2, 0}, c.kvLens = {10, 4, 7};  // rows past the query's length give 0
    check(c);
    c.kvLens = {5};  // one value for every batch
    check(c);
    c.qLens = {4, 6, 3, 99}, c.kvLens = {0, 10, 3, 99};  // more than B: the first B count
    check(c);
    for (int64_t mode : {3, 4}) {  // the corner is each batch's
        SCOPED_TRACE(mode);
        c.sparseMode = mode, c.pre = 1, c.next = 0, c.maskShape = {2048, 2048}, c.maskDensity = 0;
        check(c);
    }
    Case decode;  // S1 = 1: the query's lengths do not count, the KV's do
    decode.b = 2, decode.s1 = 1, decode.s2 = 9, decode.qLens = {0}, decode.kvLens = {3, 9};
    check(decode);
}

TEST_F(Fia, InnerPreciseModesAndLse) {
    Case c;
    c.lse = true;
    c.layout = "BSH";
    for (int64_t mode : {0, 1, 2, 3}) {
        c.innerPrecise = mode;
        check(c);
    }
}

TEST_F(Fia, StridedAndOffsetOperands) {
    // query BNSD as a transposed view of BSND memory, key with a gap between heads, out offset.
    Case c;
    c.n = 2, c.n2 = 2, c.s1 = 3, c.s2 = 4, c.d = 8;
    const Shape qShape{1, 2, 3, 8}, kShape{1, 2, 4, 8};
    const auto q = representable(uniform(48, -1, 1, 3), ACL_FLOAT16);
    const auto k = representable(uniform(64, -1, 1, 4), ACL_FLOAT16);
    const auto v = representable(uniform(64, -1, 1, 5), ACL_FLOAT16);
    const DeviceTensor qt({qShape, ACL_FLOAT16, {48, 8, 16, 1}}, q);
    const DeviceTensor kt({kShape, ACL_FLOAT16, {80, 40, 8, 1}, 2, {90}}, k);
    const DeviceTensor vt({kShape, ACL_FLOAT16}, v);
    auto out = DeviceTensor::output({qShape, ACL_FLOAT16, {48, 24, 8, 1}, 3, {60}});
    ASSERT_EQ(run(c, qt.get(), kt.get(), vt.get(), nullptr, nullptr, out->get(), nullptr), ACLNN_SUCCESS);
    expect_close(out->read(), reference(c, q, k, v, {}, {}).out, {3e-3, 3e-3});
    EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
}

TEST_F(Fia, EmptyTensors) {
    Case c;
    const Shape empty{0, 2, 4, 16};
    const DeviceTensor q({empty, ACL_FLOAT16}, {}), k({{1, 2, 8, 16}, ACL_FLOAT16}, std::vector<double>(256, 1.0));
    auto out = DeviceTensor::output({empty, ACL_FLOAT16});
    EXPECT_EQ(run(c, q.get(), k.get(), k.get(), nullptr, nullptr, out->get(), nullptr), ACLNN_SUCCESS);
}

TEST_F(Fia, DeterministicAcrossWorkerCounts) {
    Case c;
    c.b = 2, c.n = 4, c.n2 = 2, c.s1 = 300, c.s2 = 700, c.d = 64, c.layout = "BSND";
    const Shape qShape = layout_shape(c.layout, c.b, c.n, c.s1, c.d);
    const Shape kvShape = layout_shape(c.layout, c.b, c.n2, c.s2, c.d);
    const auto q = representable(uniform(size_t(numel(qShape)), -1, 1, 7), ACL_FLOAT16);
    const auto k = representable(uniform(size_t(numel(kvShape)), -1, 1, 8), ACL_FLOAT16);
    std::vector<std::vector<uint8_t>> results;
    for (int threads : {1, 2, 8}) {
        restart_with_worker_threads(threads);
        const DeviceTensor qt({qShape, ACL_FLOAT16}, q), kt({kvShape, ACL_FLOAT16}, k);
        auto out = DeviceTensor::output({qShape, ACL_FLOAT16});
        ASSERT_EQ(run(c, qt.get(), kt.get(), kt.get(), nullptr, nullptr, out->get(), nullptr), ACLNN_SUCCESS);
        results.push_back(out->bytes());
    }
    EXPECT_EQ(results[0], results[1]);
    EXPECT_EQ(results[0], results[2]);
}

// ---- errors ----

class FiaErrors : public Fia {
protected:
    /// Phase 1 of the case on fresh tensors of the given shapes (empty: absent).
    aclnnStatus phase1(const Case& c, const TensorSpec& q, const TensorSpec& kv, const TensorSpec& out,
                       const TensorSpec& pse = {{}, ACL_FLOAT16}, const TensorSpec& mask = {{}, ACL_BOOL},
                       const TensorSpec& lse = {{}, ACL_FLOAT}) {
        const DeviceTensor qt(q), kt(kv), vt(kv), ot(out);
        std::unique_ptr<DeviceTensor> pt, mt, lt;
        if (!pse.shape.empty()) pt = std::make_unique<DeviceTensor>(pse);
        if (!mask.shape.empty()) mt = std::make_unique<DeviceTensor>(mask);
        if (!lse.shape.empty()) lt = std::make_unique<DeviceTensor>(lse);
        return run(c, qt.get(), kt.get(), vt.get(), pt ? pt->get() : nullptr, mt ? mt->get() : nullptr, ot.get(),
                   lt ? lt->get() : nullptr, false);
    }
};

const Shape kQ{1, 2, 4, 16}, kKv{1, 2, 8, 16};

TEST_F(FiaErrors, NullsAre161001) {
    Case c;
    const DeviceTensor q({kQ, ACL_FLOAT16}), kv({kKv, ACL_FLOAT16}), out({kQ, ACL_FLOAT16});
    TensorList keys({copy_tensor(kv.get())}), values({copy_tensor(kv.get())});
    char layout[] = "BNSD";
    const auto call = [&](const aclTensor* query, const aclTensorList* key, const aclTensorList* value,
                          const aclTensor* attentionOut, char* inputLayout, bool lseFlag, uint64_t* size,
                          aclOpExecutor** executor) {
        return aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
            query, key, value, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
            nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
            2, 1.0, 65535, 65535, inputLayout, 2, 0, 0, 0, 0, lseFlag, 0, 0, attentionOut, nullptr, size, executor);
    };
    uint64_t size = 0;
    aclOpExecutor* executor = nullptr;
    expect_error_naming(call(nullptr, keys.get(), values.get(), out.get(), layout, false, &size, &executor),
                        ACLNN_ERR_PARAM_NULLPTR, "query");
    expect_error_naming(call(q.get(), nullptr, values.get(), out.get(), layout, false, &size, &executor),
                        ACLNN_ERR_PARAM_NULLPTR, "key");
    expect_error_naming(call(q.get(), keys.get(), nullptr, out.get(), layout, false, &size, &executor),
                        ACLNN_ERR_PARAM_NULLPTR, "value");
    expect_error_naming(call(q.get(), keys.get(), values.get(), nullptr, layout, false, &size, &executor),
                        ACLNN_ERR_PARAM_NULLPTR, "attentionOut");
    expect_error_naming(call(q.get(), keys.get(), values.get(), out.get(), nullptr, false, &size, &executor),
                        ACLNN_ERR_PARAM_NULLPTR, "inputLayout");
    expect_error_naming(call(q.get(), keys.get(), values.get(), out.get(), layout, true, &size, &executor),
                        ACLNN_ERR_PARAM_NULLPTR, "softmaxLse");
    expect_error(call(q.get(), keys.get(), values.get(), out.get(), layout, false, nullptr, &executor),
                 ACLNN_ERR_PARAM_NULLPTR);
    expect_error(call(q.get(), keys.get(), values.get(), out.get(), layout, false, &size, nullptr),
                 ACLNN_ERR_PARAM_NULLPTR);
}

TEST_F(FiaErrors, DtypesOutsideTheOpDefAre161002) {
    Case c;
    expect_error_naming(phase1(c, {kQ, ACL_FLOAT}, {kKv, ACL_FLOAT}, {kQ, ACL_FLOAT}), ACLNN_ERR_PARAM_INVALID,
                        "query");
    expect_error_naming(phase1(c, {kQ, ACL_FLOAT16}, {kKv, ACL_FLOAT}, {kQ, ACL_FLOAT16}), ACLNN_ERR_PARAM_INVALID,
                        "key");
    expect_error_naming(phase1(c, {kQ, ACL_FLOAT16}, {kKv, ACL_FLOAT16}, {kQ, ACL_FLOAT}), ACLNN_ERR_PARAM_INVALID,
                        "attentionOut");
    expect_error_naming(phase1(c, {kQ, ACL_FLOAT16}, {kKv, ACL_FLOAT16}, {kQ, ACL_FLOAT16}, {{1, 2, 4, 8}, ACL_FLOAT}),
                        ACLNN_ERR_PARAM_INVALID, "pseShift");
    expect_error_naming(phase1(c, {kQ, ACL_FLOAT16}, {kKv, ACL_FLOAT16}, {kQ, ACL_FLOAT16}, {{}, ACL_FLOAT16},
                               {{4, 8}, ACL_FLOAT16}),
                        ACLNN_ERR_PARAM_INVALID, "attenMask");
    c.lse = true;
    expect_error_naming(phase1(c, {kQ, ACL_FLOAT16}, {kKv, ACL_FLOAT16}, {kQ, ACL_FLOAT16}, {{}, ACL_FLOAT16},
                               {{}, ACL_BOOL}, {{1, 2, 4, 1}, ACL_FLOAT16}),
                        ACLNN_ERR_PARAM_INVALID, "softmaxLse");
}

TEST_F(FiaErrors, PathsAclCpuDoesNotImplementAre561002) {
    Case c;
    const TensorSpec q(kQ, ACL_FLOAT16), kv(kKv, ACL_FLOAT16);
    expect_error_naming(phase1(c, {kQ, ACL_INT8}, {kKv, ACL_INT8}, {kQ, ACL_FLOAT16}), ACLNN_ERR_INNER_TILING_ERROR,
                        "INT8 query");
    expect_error_naming(phase1(c, q, {kKv, ACL_INT8}, q), ACLNN_ERR_INNER_TILING_ERROR, "antiquantisation");
    // An optional input of a quantised, paged or padded path.
    const DeviceTensor qt(q), kt(kv), ot(q), scale({{1}, ACL_FLOAT});
    TensorList keys({copy_tensor(kt.get())}), values({copy_tensor(kt.get())}), two({copy_tensor(kt.get()), copy_tensor(kt.get())});
    char layout[] = "BNSD";
    uint64_t size = 0;
    aclOpExecutor* executor = nullptr;
    expect_error_naming(aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
                            qt.get(), keys.get(), values.get(), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                            nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, scale.get(), nullptr, nullptr,
                            nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 2, 1.0, 65535, 65535, layout, 2, 0, 0,
                            0, 0, false, 0, 0, ot.get(), nullptr, &size, &executor),
                        ACLNN_ERR_INNER_TILING_ERROR, "queryPaddingSize");
    expect_error_naming(aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
                            qt.get(), keys.get(), values.get(), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                            nullptr, nullptr, nullptr, nullptr, nullptr, scale.get(), nullptr, nullptr, nullptr, nullptr,
                            nullptr, nullptr, nullptr, nullptr, nullptr, 2, 1.0, 65535, 65535, layout, 2, 0, 0, 0, 0,
                            false, 0, 0, ot.get(), nullptr, &size, &executor),
                        ACLNN_ERR_INNER_TILING_ERROR, "blockTable");
    expect_error_naming(aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
                            qt.get(), two.get(), two.get(), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                            nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                            nullptr, nullptr, nullptr, nullptr, nullptr, 2, 1.0, 65535, 65535, layout, 2, 0, 0, 0, 0,
                            false, 0, 0, ot.get(), nullptr, &size, &executor),
                        ACLNN_ERR_INNER_TILING_ERROR, "tensor list");
    for (const char* other : {"TND", "NSD", "BSH_NBSD", "BNSD_NBSD", "bnsd"}) {
        c.layout = other;
        expect_error_naming(phase1(c, q, kv, q), ACLNN_ERR_INNER_TILING_ERROR, other);
    }
    c.layout = "SH";
    expect_error_naming(phase1(c, q, kv, q), ACLNN_ERR_INNER_TILING_ERROR, "SH layout is not supported!");
}

/// V3 and V4 add optional inputs of paths acl-cpu refuses (rope parts for
/// multi-head latent attention, a query dequantisation scale, learnable
/// sinks) and reach the same inner operator as V2 (ops-transformer
/// aclnn_fused_infer_attention_score_v4.cpp): without them they compute
/// V2's result bit for bit; with any of them, 561002 naming it.
TEST_F(FiaErrors, VersionsThreeAndFourComputeAsTwoAndRefuseTheirNewInputs) {
    const Shape q{1, 4, 3, 16}, kv{1, 2, 9, 16};
    const DeviceTensor qt({q, ACL_FLOAT16}, uniform(size_t(numel(q)), -1, 1, 5));
    const DeviceTensor kt({kv, ACL_FLOAT16}, uniform(size_t(numel(kv)), -1, 1, 6));
    const DeviceTensor vt({kv, ACL_FLOAT16}, uniform(size_t(numel(kv)), -1, 1, 7));
    const DeviceTensor rope({{1, 4, 3, 8}, ACL_FLOAT16}), sink({{4}, ACL_FLOAT});
    TensorList keys({copy_tensor(kt.get())}), values({copy_tensor(vt.get())});
    char layout[] = "BNSD";
    std::vector<std::vector<double>> results;
    for (int version = 2; version <= 4; ++version) {
        auto out = DeviceTensor::output({q, ACL_FLOAT16});
        auto lse = DeviceTensor::output({{1, 4, 3, 1}, ACL_FLOAT});
        const auto phase1 = [&](uint64_t* size, aclOpExecutor** executor) {
            if (version == 3) {
                return aclnnFusedInferAttentionScoreV3GetWorkspaceSize(
                    qt.get(), keys.get(), values.get(), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                    nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                    nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 4, 0.25, 65535, 65535, layout, 2, 0, 1, 0,
                    0, true, 0, 0, out->get(), lse->get(), size, executor);
            }
            if (version == 4) {
                return aclnnFusedInferAttentionScoreV4GetWorkspaceSize(
                    qt.get(), keys.get(), values.get(), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                    nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                    nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 4, 0.25, 65535, 65535,
                    layout, 2, 0, 1, 0, 0, true, 0, 0, 0, out->get(), lse->get(), size, executor);
            }
            return aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
                qt.get(), keys.get(), values.get(), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                nullptr, nullptr, nullptr, 4, 0.25, 65535, 65535, layout, 2, 0, 1, 0, 0, true, 0, 0, out->get(),
                lse->get(), size, executor);
        };
        const auto phase2 = version == 2 ? aclnnFusedInferAttentionScoreV2
                            : version == 3 ? aclnnFusedInferAttentionScoreV3
                                           : aclnnFusedInferAttentionScoreV4;
        ASSERT_EQ(run_two_phases(phase1, phase2, stream_, nullptr), ACLNN_SUCCESS) << "V" << version;
        std::vector<double> both = out->read();
        const std::vector<double> lseValues = lse->read();
        both.insert(both.end(), lseValues.begin(), lseValues.end());
        results.push_back(both);
    }
    EXPECT_EQ(results[1], results[0]);
    EXPECT_EQ(results[2], results[0]);

    auto out = DeviceTensor::output({q, ACL_FLOAT16});
    uint64_t size = 0;
    aclOpExecutor* executor = nullptr;
    const auto v3 = [&](const aclTensor* queryRope, const aclTensor* keyRope) {
        return aclnnFusedInferAttentionScoreV3GetWorkspaceSize(
            qt.get(), keys.get(), values.get(), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
            nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
            nullptr, queryRope, keyRope, nullptr, 4, 0.25, 65535, 65535, layout, 2, 0, 1, 0, 0, false, 0, 0,
            out->get(), nullptr, &size, &executor);
    };
    const auto v4 = [&](const aclTensor* dequantScaleQuery, const aclTensor* learnableSink) {
        return aclnnFusedInferAttentionScoreV4GetWorkspaceSize(
            qt.get(), keys.get(), values.get(), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
            nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
            nullptr, nullptr, nullptr, nullptr, dequantScaleQuery, learnableSink, 4, 0.25, 65535, 65535, layout, 2, 0,
            1, 0, 0, false, 0, 0, 0, out->get(), nullptr, &size, &executor);
    };
    expect_error_naming(v3(rope.get(), nullptr), ACLNN_ERR_INNER_TILING_ERROR, "queryRope");
    expect_error_naming(v3(nullptr, rope.get()), ACLNN_ERR_INNER_TILING_ERROR, "keyRope");
    expect_error_naming(v4(sink.get(), nullptr), ACLNN_ERR_INNER_TILING_ERROR, "dequantScaleQuery");
    expect_error_naming(v4(nullptr, sink.get()), ACLNN_ERR_INNER_TILING_ERROR, "learnableSink");
}

TEST_F(FiaErrors, ShapesAndParametersTheTilingRefusesAre561002) {
    const auto refused = [&](const Case& c, const TensorSpec& q, const TensorSpec& kv, const TensorSpec& out,
                             const char* word, const TensorSpec& pse = {{}, ACL_FLOAT16},
                             const TensorSpec& mask = {{}, ACL_BOOL}, const TensorSpec& lse = {{}, ACL_FLOAT}) {
        SCOPED_TRACE(word);
        expect_error_naming(phase1(c, q, kv, out, pse, mask, lse), ACLNN_ERR_INNER_TILING_ERROR, word);
    };
    const TensorSpec q(kQ, ACL_FLOAT16), kv(kKv, ACL_FLOAT16);
    Case c;
    refused(c, q, kv, {{1, 2, 4, 8}, ACL_FLOAT16}, "expect Attention Out Shape");
    refused(c, {{1, 2, 4}, ACL_FLOAT16}, kv, {{1, 2, 4}, ACL_FLOAT16}, "queryDims must be 4");
    refused(c, {{0, 2, 4, 16}, ACL_FLOAT16}, kv, q, "query input shoud not be empty");
    refused(c, {{1, 2, 4, 528}, ACL_FLOAT16}, {{1, 2, 8, 528}, ACL_FLOAT16}, {{1, 2, 4, 528}, ACL_FLOAT16},
            "less than or equal to 512");
    Case zero = c;
    zero.n = 0;
    refused(zero, q, kv, q, "Q numhead is 0!");
    Case wrongN = c;
    wrongN.n = 4, wrongN.n2 = 4;
    refused(wrongN, q, kv, q, "numHeads(2) in query shape must be equal to numHeads(4) in attr!");
    Case gqa = c;
    gqa.n2 = 1;
    refused(gqa, q, kv, q, "in key shape do not match numKeyValueHeads(1)");
    Case odd = c;
    odd.n2 = 3;
    refused(odd, {{1, 3, 4, 16}, ACL_FLOAT16}, {{1, 3, 8, 16}, ACL_FLOAT16}, {{1, 3, 4, 16}, ACL_FLOAT16},
            "numHeads(3) in query shape must be equal to numHeads(2)");
    Case divisible = c;
    divisible.layout = "BSH", divisible.n = 3, divisible.n2 = 2;
    refused(divisible, {{1, 4, 48}, ACL_FLOAT16}, {{1, 8, 32}, ACL_FLOAT16}, {{1, 4, 48}, ACL_FLOAT16},
            "must be divisible by numKeyValueHeads(2)");
    Case bsh = c;
    bsh.layout = "BSH", bsh.n = 4;
    refused(bsh, {{1, 4, 30}, ACL_FLOAT16}, {{1, 8, 30}, ACL_FLOAT16}, {{1, 4, 30}, ACL_FLOAT16},
            "must be a multiple of numHeads");
    Case negative = c;
    negative.n2 = -1;
    refused(negative, q, kv, q, "is negative");
    // BNSD's out check reads value's D first (CheckOutShapeInBNSD): key's own checks show in BSND.
    refused(c, q, {{1, 2, 8, 8}, ACL_FLOAT16}, q, "expect Attention Out Shape [1, 2, 4, 8]");
    Case bsnd = c;
    bsnd.layout = "BSND";
    const TensorSpec qs({1, 4, 2, 16}, ACL_FLOAT16);
    refused(bsnd, qs, {{1, 8, 2, 8}, ACL_FLOAT16}, qs, "does not match query shape");
    refused(bsnd, qs, {{2, 8, 2, 16}, ACL_FLOAT16}, qs, "does not match query shape");
    refused(bsnd, qs, {{1, 8, 32}, ACL_FLOAT16}, qs, "input dim of q(4), k(3), v(3)");
    refused(c, q, kv, {kQ, ACL_BF16}, "attentionOut dtype");
    Case bs = c;
    bs.layout = "BNSD_BSND";
    refused(bs, {{1, 2, 1, 16}, ACL_FLOAT16}, kv, {{1, 1, 2, 16}, ACL_FLOAT16}, "BNSD_BSND layout is not supported");
    // pse: its dtype follows query's, its shape [1 or B, N, >= S1, >= S2].
    refused(c, q, kv, q, "pse shift type is not fp16", {{1, 2, 4, 8}, ACL_BF16});
    refused(c, q, kv, q, "pse shift shape must be 4 dimension", {{2, 4, 8}, ACL_FLOAT16});
    refused(c, q, kv, q, "pse shift shape must be [1 or 1, 2, >=4, >=8]", {{1, 2, 3, 8}, ACL_FLOAT16});
    // masks.
    refused(c, q, kv, q, "attenMask batch(1) must be 1 or 1", {{}, ACL_FLOAT16}, {{4, 7}, ACL_BOOL});
    refused(c, q, kv, q, "attenMask dim(1) must be 2 or 3 or 4!", {{}, ACL_FLOAT16}, {{8}, ACL_BOOL});
    refused(c, q, kv, q, "attenMask batch(1)", {{}, ACL_FLOAT16}, {{1, 2, 4, 8}, ACL_BOOL});
    Case causal = c;
    causal.sparseMode = 2;
    refused(causal, q, kv, q, "attenMask should not be null when sparse_mode is 2.");
    refused(causal, q, kv, q, "(2048, 2048)", {{}, ACL_FLOAT16}, {{4, 8}, ACL_BOOL});
    Case mode = c;
    mode.sparseMode = 5;
    refused(mode, q, kv, q, "sparse_mode = 5 is out of range.");
    Case band = c;
    band.sparseMode = 4, band.pre = -1, band.next = -1;
    refused(band, q, kv, q, "must not be negative number in band mode", {{}, ACL_FLOAT16}, {{2048, 2048}, ACL_BOOL});
    Case tokens = c;
    tokens.pre = -1, tokens.next = -1;
    const TensorSpec mask({4, 8}, ACL_BOOL);
    refused(tokens, q, kv, q, "cannot neither be negative", {{}, ACL_FLOAT16}, mask);
    tokens.pre = 1, tokens.next = -2;
    refused(tokens, q, kv, q, "nexttoken line should be higher than pretoken line.", {{}, ACL_FLOAT16}, mask);
    tokens.pre = 10, tokens.next = -4;
    refused(tokens, q, kv, q, "smaller than length of q", {{}, ACL_FLOAT16}, mask);
    tokens.pre = -8, tokens.next = 10;
    refused(tokens, q, kv, q, "smaller than length of k and v", {{}, ACL_FLOAT16}, mask);
    Case decode = c;
    refused(decode, {{1, 2, 1, 16}, ACL_FLOAT16}, kv, {{1, 2, 1, 16}, ACL_FLOAT16}, "when the query's S is 1",
            {{}, ACL_FLOAT16}, {{3, 8}, ACL_BOOL});
    Case lengths = c;
    lengths.qLens = {4, 4};
    lengths.kvLens = {9};
    refused(lengths, q, kv, q, "The key/value's actual sequence lengths[0](9) must be in range[0, 8]!");
    lengths.kvLens.clear(), lengths.qLens = {-1};
    refused(lengths, q, kv, q, "The query's actual sequence lengths[0](-1) must be in range[0, 4]!");
    Case batch3 = c;
    batch3.b = 3, batch3.qLens = {4, 4};
    const TensorSpec q3({3, 2, 4, 16}, ACL_FLOAT16), kv3({3, 2, 8, 16}, ACL_FLOAT16);
    refused(batch3, q3, kv3, q3, "Dim(2) of the query's actual sequence lengths must equal to 1 or greater than or "
                                 "equal to batch size(3)!");
    Case precise = c;
    precise.innerPrecise = 4;
    refused(precise, q, kv, q, "innerPrecise [4]");
    Case lse = c;
    lse.lse = true;
    refused(lse, q, kv, q, "SoftmaxLse shape dim should be 4!", {{}, ACL_FLOAT16}, {{}, ACL_BOOL}, {{1, 2, 4}, ACL_FLOAT});
    refused(lse, q, kv, q, "does not match BNS1[1, 2, 4, 1]", {{}, ACL_FLOAT16}, {{}, ACL_BOOL},
            {{1, 2, 4, 2}, ACL_FLOAT});
}

TEST_F(FiaErrors, ViewsPastTheirStorageAre161002) {
    Case c;
    expect_error(phase1(c, {kQ, ACL_FLOAT16, {128, 64, 16, 1}, 64, {64}}, {kKv, ACL_FLOAT16}, {kQ, ACL_FLOAT16}),
                 ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
