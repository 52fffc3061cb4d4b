// acl-cpu ops/common: the row engine's kernel (see rows.hpp), compiled for
// every SIMD target Highway dispatches to at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "common/rows.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include <hwy/highway.h>

#include "common/dtype.hpp"
#include "common/float_runs.hpp"
#include "common/rows-inl.h"
#include "common/rows.hpp"
#include "common/streaming_stores.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

/// One block slice's walk over its rows: the staged fp32 chunks of x, y,
/// gamma, beta and other, and what is loaded in them.
class RowWalk {
public:
    RowWalk(const RowKernel::Job& job, std::byte* staging) : job_(job), plan_(job.tiling), ops_(job.operands) {
        auto* floats = reinterpret_cast<float*>(staging);
        x_ = floats;
        y_ = floats + plan_.chunk;
        gamma_ = floats + 2 * plan_.chunk;
        beta_ = floats + 3 * plan_.chunk;
        other_ = floats + 4 * plan_.chunk;
        chunks_ = ceil_div(plan_.length, plan_.chunk);
        if (ops_.x.dtype() == ACL_FLOAT && plan_.inputDtype == ACL_FLOAT && ops_.x.is_linear() &&
            plan_.function != RowFunction::kAddRmsNorm) {
            xDense_ = static_cast<const float*>(job_.args.inputs[0]) + ops_.x.offset();
        }
        if (ops_.y.dtype() == ACL_FLOAT && plan_.resultDtype == ACL_FLOAT && ops_.y.is_linear()) {
            yDense_ = static_cast<float*>(job_.args.outputs[0]) + ops_.y.offset();
            streaming_ = ops_.y.numel() * int64_t{sizeof(float)} >= kStreamingOutputBytes;
        }
    }

    /// Whether the walk wrote with streaming stores (to be fenced).
    bool streams() const { return streaming_; }

    void run(int64_t row) {
        row_ = row;
        loadedChunk_ = -1;
        switch (plan_.function) {
            case RowFunction::kSoftmax:
            case RowFunction::kLogSoftmax: softmax(); break;
            case RowFunction::kRmsNorm:
            case RowFunction::kAddRmsNorm: rms_norm(); break;
            case RowFunction::kLayerNorm: layer_norm(); break;
            case RowFunction::kSoftmaxCrossEntropy: softmax_cross_entropy(); break;
            case RowFunction::kSoftmaxBackward: softmax_backward(); break;
            case RowFunction::kLogSoftmaxBackward: log_softmax_backward(); break;
            case RowFunction::kLayerNormBackward:
            case RowFunction::kRmsNormBackward: norm_backward(); break;
        }
    }

private:
    int64_t chunk_begin(int64_t c) const { return c * plan_.chunk; }
    int64_t chunk_size(int64_t c) const { return std::min(plan_.chunk, plan_.length - chunk_begin(c)); }

    /// Element index of chunk c's first element of the current row.
    int64_t row_begin(int64_t c) const { return row_ * plan_.length + chunk_begin(c); }

    /// x's chunk c of the current row (plus other's for AddRmsNorm),
    /// rounded to the input dtype: read in place when x is dense fp32 (no
    /// Cast), staged otherwise.
    const float* x_chunk(int64_t c) {
        if (xDense_) return xDense_ + row_begin(c);
        if (loadedChunk_ != c) {
            const int64_t n = chunk_size(c);
            gather(ops_.x, job_.args.inputs[0], row_begin(c), n, x_);
            if (plan_.function == RowFunction::kAddRmsNorm) {
                const float* other = other_chunk(c);
                for (int64_t i = 0; i < n; ++i) x_[i] += other[i];
            }
            round_through(plan_.inputDtype, x_, n);
            loadedChunk_ = c;
        }
        return x_;
    }

    /// other's chunk c of the current row, staged.
    float* other_chunk(int64_t c) {
        gather(ops_.other, job_.args.inputs[ops_.otherSlot], row_begin(c), chunk_size(c), other_);
        return other_;
    }

    /// gamma's and beta's chunk c (each when the operator has it); a
    /// one-chunk row of an affine shared by the rows loads them once per walk.
    void load_affine(int64_t c) {
        if (affineChunk_ == c && !ops_.affinePerRow) return;
        const int64_t n = chunk_size(c);
        const int64_t begin = ops_.affinePerRow ? row_begin(c) : chunk_begin(c);
        if (ops_.gammaSlot >= 0) gather(ops_.gamma, job_.args.inputs[ops_.gammaSlot], begin, n, gamma_);
        if (ops_.betaSlot >= 0) gather(ops_.beta, job_.args.inputs[ops_.betaSlot], begin, n, beta_);
        affineChunk_ = c;
    }

    /// Writes value(i, count) as elements [i, i + count) of y's chunk c of
    /// the current row (store_values' contract): in place when y is dense
    /// fp32 (no Cast), with streaming stores when y is too large for the
    /// caches; otherwise through y_, rounded and scattered.
    template <class Value>
    void write_chunk(int64_t c, const Value& value) {
        const int64_t n = chunk_size(c);
        if (yDense_ == nullptr) {
            store_row(y_, n, value);
            round_through(plan_.resultDtype, y_, n);
            scatter(y_, ops_.y, job_.args.outputs[0], row_begin(c), n);
            return;
        }
        float* out = yDense_ + row_begin(c);
        if (streams_run(streaming_, 1, n * int64_t{sizeof(float)})) {
            store_values_streaming(RowTag(), value, static_cast<size_t>(n), out);
        } else {
            store_row(out, n, value);
        }
    }

    void store_stat(int slot, const StridedLayout& layout, float value) {
        if (slot >= 0) scatter(&value, layout, job_.args.outputs[slot], row_, 1);
    }

    /// The sum over the row of term(x).
    template <class Term>
    float row_sum(const Term& term) {
        RowSum sum;
        for (int64_t c = 0; c < chunks_; ++c) sum.add(x_chunk(c), chunk_size(c), term);
        return sum.total();
    }

    /// The row's max and the sum of e^(x - max); e^(x - max) lands in y_:
    /// summed from there, and kept for the output when the row is one chunk.
    std::pair<float, float> max_and_exp_sum() {
        float max = -std::numeric_limits<float>::infinity();
        for (int64_t c = 0; c < chunks_; ++c) {
            max = row_max(x_chunk(c), chunk_size(c), max);
        }
        const RowVec maxV = hn::Set(RowTag(), max);
        RowSum sum;
        for (int64_t c = 0; c < chunks_; ++c) {
            sum.add_storing(x_chunk(c), chunk_size(c), [&](RowVec v) { return exp_ieee(RowTag(), hn::Sub(v, maxV)); },
                            y_);
        }
        return {max, sum.total()};
    }

    void softmax() {
        const auto [max, total] = max_and_exp_sum();
        if (plan_.function == RowFunction::kLogSoftmax) {
            const RowVec maxV = hn::Set(RowTag(), max);
            const RowVec logSum = hn::Set(RowTag(), std::log(total));
            for (int64_t c = 0; c < chunks_; ++c) {
                const float* x = x_chunk(c);
                write_chunk(c, [&](size_t i, size_t count) {
                    return hn::Sub(hn::Sub(load_row_lanes(x + i, count), maxV), logSum);
                });
            }
            return;
        }
        for (int64_t c = 0; c < chunks_; ++c) {
            if (chunks_ > 1) exp_shifted(x_chunk(c), max, y_, chunk_size(c));
            const RowVec totalV = hn::Set(RowTag(), total);
            write_chunk(c, [&](size_t i, size_t count) { return hn::Div(load_row_lanes(y_ + i, count), totalV); });
        }
    }

    /// As CANN's kernel (softmax_cross_entropy_with_logits_full_load.h,
    /// VfBackProp): backprop = e^(x - max) / sum - labels, and loss the sum
    /// of labels * (log(sum) - (x - max)) -- NaN where a label 0 meets a
    /// -inf logit (0 * inf), as there.
    void softmax_cross_entropy() {
        const auto [max, total] = max_and_exp_sum();
        const RowVec maxV = hn::Set(RowTag(), max);
        const RowVec totalV = hn::Set(RowTag(), total);
        const RowVec logSumV = hn::Set(RowTag(), std::log(total));
        RowSum loss;
        for (int64_t c = 0; c < chunks_; ++c) {
            const int64_t n = chunk_size(c);
            const float* x = x_chunk(c);
            if (chunks_ > 1) exp_shifted(x, max, y_, n);
            float* labels = other_chunk(c);
            write_chunk(c, [&](size_t i, size_t count) {
                return hn::Sub(hn::Div(load_row_lanes(y_ + i, count), totalV), load_row_lanes(labels + i, count));
            });
            // The loss terms replace the labels (read above for the last time).
            store_row(labels, n, [&](size_t i, size_t count) {
                const RowVec shifted = hn::Sub(load_row_lanes(x + i, count), maxV);
                return hn::Mul(hn::Sub(logSumV, shifted), load_row_lanes(labels + i, count));
            });
            loss.add(labels, n, [](RowVec term) { return term; });
        }
        store_stat(ops_.lossSlot, ops_.loss, loss.total());
    }

    /// As SoftmaxGrad's kernel (op_kernel/arch35/softmax_grad_ar_full_load.h,
    /// the one in ops-nn: Mul, Reduce SUM, Mul, Neg, MulAddDst): the row's
    /// sum of gradOutput * s, then s * gradOutput - s * sum fused.
    void softmax_backward() {
        RowSum dot;
        for (int64_t c = 0; c < chunks_; ++c) {
            const int64_t n = chunk_size(c);
            const float* grad = x_chunk(c);
            // The products replace the outputs (read here for the last time in this pass).
            float* s = other_chunk(c);
            store_row(s, n, [&](size_t i, size_t count) {
                return hn::Mul(load_row_lanes(grad + i, count), load_row_lanes(s + i, count));
            });
            dot.add(s, n, [](RowVec term) { return term; });
        }
        const RowVec sumV = hn::Set(RowTag(), dot.total());
        for (int64_t c = 0; c < chunks_; ++c) {
            const float* grad = x_chunk(c);
            const float* s = other_chunk(c);
            write_chunk(c, [&](size_t i, size_t count) {
                const RowVec sV = load_row_lanes(s + i, count);
                return hn::MulAdd(hn::Neg(sV), sumV, hn::Mul(sV, load_row_lanes(grad + i, count)));
            });
        }
    }

    /// As LogSoftmaxGrad's kernel (op_kernel/arch35/log_softmax_grad_ar_full_load.h:
    /// Reduce SUM, Exp, Mul, Sub): gradOutput - exp(l) * sum(gradOutput).
    void log_softmax_backward() {
        const RowVec sumV = hn::Set(RowTag(), row_sum([](RowVec v) { return v; }));
        for (int64_t c = 0; c < chunks_; ++c) {
            const float* grad = x_chunk(c);
            const float* l = other_chunk(c);
            write_chunk(c, [&](size_t i, size_t count) {
                const RowVec e = exp_ieee(RowTag(), load_row_lanes(l + i, count));
                return hn::Sub(load_row_lanes(grad + i, count), hn::Mul(e, sumV));
            });
        }
    }

    /// The current row's stat read from the input at slot (0 where absent).
    float read_stat(int slot, const StridedLayout& layout) const {
        float value = 0.0f;
        if (slot >= 0) gather(layout, job_.args.inputs[slot], row_, 1, &value);
        return value;
    }

    /// Stages chunk c of a backward norm: xhat = (x - mean) * rstd in place
    /// of other's chunk, g = dy * gamma (dy without gamma) in beta_ (no
    /// backward norm has a beta).  Returns dy's chunk.
    const float* stage_backward(int64_t c, float mean, float rstd) {
        const int64_t n = chunk_size(c);
        const float* dy = x_chunk(c);
        float* xhat = other_chunk(c);
        const RowVec meanV = hn::Set(RowTag(), mean);
        const RowVec rstdV = hn::Set(RowTag(), rstd);
        store_row(xhat, n, [&](size_t i, size_t count) {
            return hn::Mul(hn::Sub(load_row_lanes(xhat + i, count), meanV), rstdV);
        });
        load_affine(c);
        const bool scaled = ops_.gammaSlot >= 0;
        store_row(beta_, n, [&](size_t i, size_t count) {
            const RowVec grad = load_row_lanes(dy + i, count);
            return scaled ? hn::Mul(grad, load_row_lanes(gamma_ + i, count)) : grad;
        });
        return dy;
    }

    /// LayerNorm's and RmsNorm's dx (rows.hpp): a first pass sums g and
    /// g * xhat over the row, a second restages each chunk (rather than
    /// keeping the row: rows of any length) and writes dx and, when the
    /// operator asks for dgamma, the terms dy * xhat that a column sum over
    /// the rows reduces afterwards (deterministically, on the reduction
    /// engine).
    void norm_backward() {
        const bool centred = plan_.function == RowFunction::kLayerNormBackward;
        const float mean = read_stat(ops_.meanSlot, ops_.mean);
        const float rstd = read_stat(ops_.rstdSlot, ops_.rstd);
        RowSum gradSum;
        RowSum projection;
        for (int64_t c = 0; c < chunks_; ++c) {
            const int64_t n = chunk_size(c);
            stage_backward(c, mean, rstd);
            gradSum.add(beta_, n, [](RowVec term) { return term; });
            store_row(y_, n, [&](size_t i, size_t count) {
                return hn::Mul(load_row_lanes(beta_ + i, count), load_row_lanes(other_ + i, count));
            });
            projection.add(y_, n, [](RowVec term) { return term; });
        }
        const float inverseLength = 1.0f / static_cast<float>(plan_.length);
        const RowVec gradMeanV = hn::Set(RowTag(), centred ? gradSum.total() * inverseLength : 0.0f);
        const RowVec projectionMeanV = hn::Set(RowTag(), projection.total() * inverseLength);
        const RowVec rstdV = hn::Set(RowTag(), rstd);
        for (int64_t c = 0; c < chunks_; ++c) {
            const int64_t n = chunk_size(c);
            const float* dy = stage_backward(c, mean, rstd);
            if (ops_.termsSlot >= 0) {  // y_ is write_chunk's staging: the terms go first
                store_row(y_, n, [&](size_t i, size_t count) {
                    return hn::Mul(load_row_lanes(dy + i, count), load_row_lanes(other_ + i, count));
                });
                scatter(y_, ops_.terms, job_.args.outputs[ops_.termsSlot], row_begin(c), n);
            }
            write_chunk(c, [&](size_t i, size_t count) {
                const RowVec g = hn::Sub(load_row_lanes(beta_ + i, count), gradMeanV);
                return hn::Mul(hn::Sub(g, hn::Mul(load_row_lanes(other_ + i, count), projectionMeanV)), rstdV);
            });
        }
    }

    float rstd_of(float meanSquare) const { return 1.0f / std::sqrt(meanSquare + plan_.epsilon); }

    /// y = (x - mean) * rstd, times gamma and plus beta where present.
    void normalize(float mean, float rstd) {
        for (int64_t c = 0; c < chunks_; ++c) {
            const float* x = x_chunk(c);
            load_affine(c);
            const RowVec meanV = hn::Set(RowTag(), mean);
            const RowVec rstdV = hn::Set(RowTag(), rstd);
            const bool scaled = ops_.gammaSlot >= 0;
            const bool shifted = ops_.betaSlot >= 0;
            write_chunk(c, [&](size_t i, size_t count) {
                RowVec y = hn::Mul(hn::Sub(load_row_lanes(x + i, count), meanV), rstdV);
                if (scaled) y = hn::Mul(y, load_row_lanes(gamma_ + i, count));
                if (shifted) y = hn::Add(y, load_row_lanes(beta_ + i, count));
                return y;
            });
            if (ops_.sumSlot >= 0) scatter(x, ops_.sum, job_.args.outputs[ops_.sumSlot], row_begin(c), chunk_size(c));
        }
    }

    void rms_norm() {
        const float inverseLength = 1.0f / static_cast<float>(plan_.length);
        const float rstd = rstd_of(row_sum([](RowVec v) { return hn::Mul(v, v); }) * inverseLength);
        normalize(0.0f, rstd);
        store_stat(ops_.rstdSlot, ops_.rstd, rstd);
    }

    void layer_norm() {
        if (plan_.length == 0) {  // aclnn_layer_norm.cpp: rows of no element
            store_stat(ops_.meanSlot, ops_.mean, 0.0f);
            store_stat(ops_.rstdSlot, ops_.rstd, std::numeric_limits<float>::quiet_NaN());
            return;
        }
        const float inverseLength = 1.0f / static_cast<float>(plan_.length);
        const float mean = row_sum([](RowVec v) { return v; }) * inverseLength;
        const float variance = row_sum([meanV = hn::Set(RowTag(), mean)](RowVec v) {
            const RowVec centred = hn::Sub(v, meanV);
            return hn::Mul(centred, centred);
        }) * inverseLength;
        const float rstd = rstd_of(variance);
        normalize(mean, rstd);
        store_stat(ops_.meanSlot, ops_.mean, mean);
        store_stat(ops_.rstdSlot, ops_.rstd, rstd);
    }

    const RowKernel::Job& job_;
    const RowPlan& plan_;
    const RowOperands& ops_;
    float* x_;
    float* y_;
    float* gamma_;
    float* beta_;
    float* other_;
    const float* xDense_ = nullptr;  ///< x's first element when x is read in place
    float* yDense_ = nullptr;        ///< y's first element when y is written in place
    bool streaming_ = false;
    int64_t chunks_;
    int64_t row_ = 0;
    int64_t loadedChunk_ = -1;
    int64_t affineChunk_ = -1;
};

}  // namespace

void rows_slice(const RowKernel::Job& job, const BlockSlice& slice, std::byte* staging) {
    RowWalk walk(job, staging);
    for (int64_t row = slice.units.begin; row < slice.units.end; ++row) walk.run(row);
    if (walk.streams()) stream_fence();
}

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
namespace aclcpu::ops {

HWY_EXPORT(rows_slice);

namespace {
/// x, y, gamma, beta and other chunks, fp32.
constexpr int64_t kStagedRows = 5;
constexpr int64_t kStagedBytesPerElement = kStagedRows * int64_t{sizeof(float)};
}  // namespace

RowPlan plan_rows(RowFunction function, int64_t rows, int64_t length, const SocProfile& soc) {
    RowPlan plan;
    plan.function = function;
    plan.rows = rows;
    plan.length = length;
    plan.chunk = ub_chunk_elements(soc.ubSize, kStagedBytesPerElement, kRowSumPartials, length);
    plan.blocks = BlockSplit::front_loaded(rows, soc.vectorCoreCount, std::max<int64_t>(length, 1));
    return plan;
}

TensorView with_dim_last(const TensorView& view, size_t dim) {
    TensorView moved = view;
    size_t to = 0;
    for (size_t d = 0; d < view.shape.size(); ++d) {
        if (d == dim) continue;
        moved.shape[to] = view.shape[d];
        moved.strides[to] = view.strides[d];
        ++to;
    }
    moved.shape[to] = view.shape[dim];
    moved.strides[to] = view.strides[dim];
    return moved;
}

aclError RowKernel::launch(const LaunchArgs& args) const noexcept {
    if (aclError status = check_tensor_addresses(name(), args, operands_.input_count(), operands_.output_count()); status != ACL_SUCCESS) return status;
    const Job job{tiling_, operands_, args};
    const UbStaging staging = UbStaging::per_worker(tiling_.chunk * kStagedBytesPerElement);
    const int64_t bytesPerRow = tiling_.length * (element_size(operands_.x.dtype()) + element_size(operands_.y.dtype()) +
                                                  (operands_.otherSlot >= 0 ? element_size(operands_.other.dtype()) : 0));
    return launch_block_slices(name(), tiling_.blocks, bytesPerRow, 1, [&](const BlockSlice& slice) {
        HWY_DYNAMIC_DISPATCH(rows_slice)(job, slice, staging.for_block(slice.block));
    });
}

}  // namespace aclcpu::ops
#endif  // HWY_ONCE
