// acl-cpu: the flash-attention kernel (see attention_kernel.hpp), compiled
// for every SIMD target Highway dispatches to at run time (the softmax's
// exponentials are Highway's).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "attention/attention_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "attention/attention_kernel.hpp"
#include "common/dtype.hpp"
#include "common/float_runs.hpp"
#include "common/gemv.hpp"
#include "common/hwy_target.hpp"
#include "common/vector_math-inl.h"

#ifndef ACLCPU_ATTENTION_STAGING_ONCE
#define ACLCPU_ATTENTION_STAGING_ONCE
namespace aclcpu::ops {
namespace {

constexpr float kMinusInf = -std::numeric_limits<float>::infinity();

/// A unit's fp32 buffers, carved out of the block's UB staging.
struct AttentionStaging {
    float* q;      ///< the query tile, rows x dk
    float* k;      ///< a key tile, cols x dk
    float* v;      ///< a value tile, cols x dv
    float* s;      ///< scores, then P: rows x cols
    float* acc;    ///< P . V summed over the key tiles: rows x dv
    float* max;    ///< running row max
    float* sum;    ///< running row sum of P
    float* extra;  ///< one row of pse or mask values: kKeyTile
};

int64_t staging_floats(const AttentionPlan& p) {
    const int64_t rows = std::min(kQueryTile, p.s1);
    const int64_t cols = std::min(kKeyTile, p.s2);
    return rows * p.dk + cols * (p.dk + p.dv) + rows * cols + rows * p.dv + 2 * rows + kKeyTile;
}

AttentionStaging carve(float* ub, const AttentionPlan& p) {
    const int64_t rows = std::min(kQueryTile, p.s1);
    const int64_t cols = std::min(kKeyTile, p.s2);
    AttentionStaging st;
    st.q = ub;
    st.k = st.q + rows * p.dk;
    st.v = st.k + cols * p.dk;
    st.s = st.v + cols * p.dv;
    st.acc = st.s + rows * cols;
    st.max = st.acc + rows * p.dv;
    st.sum = st.max + rows;
    st.extra = st.sum + rows;
    return st;
}

}  // namespace
}  // namespace aclcpu::ops
#endif  // ACLCPU_ATTENTION_STAGING_ONCE

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

using Tag = hn::ScalableTag<float>;

/// The greatest of row[0, n) (-inf for an empty row).
float row_max(const float* row, int64_t n) {
    const Tag d;
    const auto lanes = static_cast<int64_t>(hn::Lanes(d));
    int64_t c = 0;
    float best = kMinusInf;
    if (n >= lanes) {
        auto m = hn::LoadU(d, row);
        for (c = lanes; c + lanes <= n; c += lanes) m = hn::Max(m, hn::LoadU(d, row + c));
        best = hn::GetLane(hn::MaxOfLanes(d, m));
    }
    for (; c < n; ++c) best = std::max(best, row[c]);
    return best;
}

/// row[c] = e^(row[c] - max) for c < n; returns their sum (lane-wise
/// partial sums, then the lanes: a fixed order for the target).
float exp_row(float* row, int64_t n, float max) {
    const Tag d;
    const auto lanes = static_cast<int64_t>(hn::Lanes(d));
    const auto shift = hn::Set(d, max);
    auto sum = hn::Zero(d);
    int64_t c = 0;
    for (; c + lanes <= n; c += lanes) {
        const auto e = exp_ieee(d, hn::Sub(hn::LoadU(d, row + c), shift));
        hn::StoreU(e, d, row + c);
        sum = hn::Add(sum, e);
    }
    if (c < n) {
        // The tail through one vector padded with -inf, whose exponentials are 0.
        HWY_ALIGN float tail[HWY_MAX_BYTES / sizeof(float)];
        std::fill(tail, tail + lanes, kMinusInf);
        std::copy(row + c, row + n, tail);
        const auto e = exp_ieee(d, hn::Sub(hn::Load(d, tail), shift));
        hn::Store(e, d, tail);
        std::copy(tail, tail + (n - c), row + c);
        sum = hn::Add(sum, e);
    }
    return hn::GetLane(hn::SumOfLanes(d, sum));
}

/// The keys a unit's rows see: j - i in [low, high], j < kvLength.
struct SeenKeys {
    int64_t low;
    int64_t high;
    int64_t kvLength;
};

/// Turns row r's scores (keys j0..j0+cols) into P: scaled, pse added,
/// unseen keys -inf, exponentials against the new running max (the row's
/// accumulator and sum rescaled to it), rounded to the Cube's input dtype.
void softmax_row(const AttentionKernel::Job& job, const AttentionStaging& st, const SeenKeys& seen, int64_t bn,
                 int64_t i, int64_t r, int64_t j0, int64_t cols) {
    const AttentionPlan& p = job.tiling;
    const AttentionOperands& ops = job.operands;
    float* row = st.s + r * cols;
    for (int64_t c = 0; c < cols; ++c) row[c] *= p.scale;
    const int64_t first = (bn * p.s1 + i) * p.s2 + j0;
    if (ops.pseInput >= 0) {
        gather(ops.pse, job.args.inputs[ops.pseInput], first, cols, st.extra);
        for (int64_t c = 0; c < cols; ++c) row[c] += st.extra[c];
    }
    if (ops.maskInput >= 0) {
        gather(ops.mask, job.args.inputs[ops.maskInput], first, cols, st.extra);
        for (int64_t c = 0; c < cols; ++c) row[c] = st.extra[c] != 0.0f ? kMinusInf : row[c];
    }
    // The band (key tiles end at the actual KV length already).
    const int64_t seenBegin = std::clamp<int64_t>(i + seen.low - j0, 0, cols);
    const int64_t seenEnd = std::clamp<int64_t>(i + seen.high + 1 - j0, 0, cols);
    std::fill(row, row + seenBegin, kMinusInf);
    std::fill(row + std::max(seenEnd, seenBegin), row + cols, kMinusInf);

    const float tileMax = row_max(row, cols);
    if (tileMax == kMinusInf) {
        std::fill(row, row + cols, 0.0f);  // sees nothing in this tile: adds nothing
        return;
    }
    const float newMax = std::max(st.max[r], tileMax);
    const float rescale = std::exp(st.max[r] - newMax);  // 0 while the row had seen nothing
    const float tileSum = exp_row(row, cols, newMax);
    st.max[r] = newMax;
    st.sum[r] = st.sum[r] * rescale + tileSum;
    if (rescale != 1.0f) {
        float* acc = st.acc + r * p.dv;
        for (int64_t c = 0; c < p.dv; ++c) acc[c] *= rescale;
    }
    round_through(p.cubeInput, row, cols);
}

/// Out's rows (acc / sum, 0 for a row that saw no key) and, when asked, the
/// log-sum-exp max + ln(sum) (-inf for such a row), scattered.
void finish_unit(const AttentionKernel::Job& job, const AttentionStaging& st, int64_t bn, int64_t i0, int64_t rows) {
    const AttentionPlan& p = job.tiling;
    const AttentionOperands& ops = job.operands;
    for (int64_t r = 0; r < rows; ++r) {
        float* acc = st.acc + r * p.dv;
        const float sum = st.sum[r];
        for (int64_t c = 0; c < p.dv; ++c) acc[c] = sum > 0.0f ? acc[c] / sum : 0.0f;
        st.max[r] = sum > 0.0f ? st.max[r] + std::log(sum) : kMinusInf;
    }
    scatter(st.acc, ops.out, job.args.outputs[0], (bn * p.s1 + i0) * p.dv, rows * p.dv);
    if (ops.hasLse) scatter(st.max, ops.lse, job.args.outputs[1], bn * p.s1 + i0, rows);
}

}  // namespace

/// The band of batch b's rows, counted from its corner when asked.
SeenKeys seen_keys(const AttentionPlan& p, int64_t b, int64_t queryLength) {
    const int64_t kvLength = p.kvLengths.empty() ? p.s2 : p.kvLengths[static_cast<size_t>(b)];
    const int64_t corner = p.fromCorner ? kvLength - queryLength : 0;
    return {p.bandLow + corner, p.bandHigh + corner, kvLength};
}

/// One unit: kQueryTile query rows of one (b, n) against the keys they may see.
void attention_unit(const AttentionKernel::Job& job, int64_t unit, float* ub) {
    const AttentionPlan& p = job.tiling;
    const AttentionOperands& ops = job.operands;
    const AttentionStaging st = carve(ub, p);
    const int64_t bn = unit / p.query_tiles();
    const int64_t b = bn / p.heads;
    const int64_t i0 = unit % p.query_tiles() * kQueryTile;
    const int64_t tileRows = std::min(kQueryTile, p.s1 - i0);
    const int64_t queryLength = p.queryLengths.empty() ? p.s1 : p.queryLengths[static_cast<size_t>(b)];
    const int64_t rows = std::clamp<int64_t>(queryLength - i0, 0, tileRows);  // the rest see nothing
    const int64_t bn2 = b * p.kvHeads + bn % p.heads / (p.heads / p.kvHeads);
    const SeenKeys seen = seen_keys(p, b, queryLength);
    gather(ops.query, job.args.inputs[0], (bn * p.s1 + i0) * p.dk, rows * p.dk, st.q);
    std::fill(st.max, st.max + tileRows, kMinusInf);
    std::fill(st.sum, st.sum + tileRows, 0.0f);
    std::fill(st.acc, st.acc + tileRows * p.dv, 0.0f);
    // Only the keys some row of the tile sees.
    const int64_t jBegin = std::max<int64_t>(0, i0 + seen.low);
    const int64_t jEnd = std::min<int64_t>(seen.kvLength, i0 + rows - 1 + seen.high + 1);
    for (int64_t j0 = jBegin; rows > 0 && j0 < jEnd; j0 += kKeyTile) {
        const int64_t cols = std::min(kKeyTile, jEnd - j0);
        gather(ops.key, job.args.inputs[1], (bn2 * p.s2 + j0) * p.dk, cols * p.dk, st.k);
        // A decoding step's few rows go through gemv_f32 (BLIS's packing
        // outweighs such products).
        product_f32({st.q, rows, p.dk, p.dk, 1}, {st.k, p.dk, cols, 1, p.dk}, 0.0f, {st.s, rows, cols, cols, 1});
        for (int64_t r = 0; r < rows; ++r) softmax_row(job, st, seen, bn, i0 + r, r, j0, cols);
        gather(ops.value, job.args.inputs[2], (bn2 * p.s2 + j0) * p.dv, cols * p.dv, st.v);
        product_f32({st.s, rows, cols, cols, 1}, {st.v, cols, p.dv, p.dv, 1}, 1.0f, {st.acc, rows, p.dv, p.dv, 1});
    }
    finish_unit(job, st, bn, i0, tileRows);
}

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
namespace aclcpu::ops {

HWY_EXPORT(attention_unit);

AttentionPlan plan_attention(AttentionPlan sizes, const SocProfile& soc) {
    AttentionPlan plan = std::move(sizes);
    const int64_t units = plan.batch * plan.heads * plan.query_tiles();
    // A unit's work: its rows against every key, both products.
    const int64_t unitWork = std::min(kQueryTile, plan.s1) * std::max<int64_t>(plan.s2, 1) * (plan.dk + plan.dv);
    plan.blocks = BlockSplit::front_loaded(units, soc.aiCoreCount, std::max<int64_t>(unitWork, 1));
    return plan;
}

aclError AttentionKernel::launch(const LaunchArgs& args) const noexcept {
    const size_t outputs = operands_.hasLse ? 2 : 1;
    if (aclError status = check_tensor_addresses(name(), args, operands_.inputCount, outputs); status != ACL_SUCCESS) {
        return status;
    }
    const Job job{tiling_, operands_, args};
    const UbStaging staging = UbStaging::per_worker(staging_floats(tiling_) * int64_t{sizeof(float)});
    // Units are never cut: a slice is whole units, each of which reads its
    // query tile and every key and value it sees.
    const int64_t bytesPerUnit =
        std::min(kQueryTile, tiling_.s1) * tiling_.dk * 2 + tiling_.s2 * (tiling_.dk + tiling_.dv) * 2;
    return launch_block_slices(name(), tiling_.blocks, bytesPerUnit, 1, [&](const BlockSlice& slice) {
        auto* ub = reinterpret_cast<float*>(staging.for_block(slice.block));
        for (int64_t unit = slice.units.begin; unit < slice.units.end; ++unit) {
            HWY_DYNAMIC_DISPATCH(attention_unit)(job, unit, ub);
        }
    });
}

}  // namespace aclcpu::ops
#endif  // HWY_ONCE
