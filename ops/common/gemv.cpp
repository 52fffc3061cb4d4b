// acl-cpu ops/common: gemv_f32, compiled for every SIMD target Highway
// dispatches to at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "common/gemv.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include <algorithm>

#include "common/gemv.hpp"
#include "common/hwy_target.hpp"
#include "common/simd-inl.h"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

/// Partial sums of a dot product: element p goes to partial p % kPartials,
/// kPartials / lanes vectors of at most 16 lanes, on every target.
constexpr int64_t kPartials = 32;
using DotTag = hn::CappedTag<float, 16>;
constexpr size_t kDotLanes = hn::MaxLanes(DotTag());
constexpr size_t kDotVectors = kPartials / kDotLanes;
static_assert(kDotVectors * kDotLanes == kPartials, "whole vectors of partials");

/// The elements of w as the product reads them: rounded to R.
template <class R, class T>
HWY_INLINE hn::Vec<DotTag> weights(DotTag d, const T* w, size_t count) {
    const auto widened = count == kDotLanes ? load_f32(d, w) : load_f32_partial(d, w, count);
    if constexpr (std::is_same_v<R, float> || std::is_same_v<R, T>) return widened;
    else return round_to<R>(d, widened);
}

/// The pairwise sums of kDotLanes columns' partials at once: partials
/// holds each column's kPartials partials in turn (p % kPartials order);
/// lane g of the result is column g's sum, its partials folded pairwise
/// (0+1, 2+3, ..., then those sums pairwise, ...).  Adjacent vectors fold
/// into one -- their even lanes plus their odd lanes: the sums of adjacent
/// pairs, in order -- until one is left, so every column gets that tree.
hn::Vec<DotTag> folded_columns(DotTag d, const float* partials) {
    constexpr size_t kVectors = kDotLanes * kDotVectors;
    hn::Vec<DotTag> v[kVectors];
    for (size_t i = 0; i < kVectors; ++i) v[i] = hn::Load(d, partials + i * kDotLanes);
    for (size_t n = kVectors; n > 1; n /= 2) {
        for (size_t i = 0; i < n / 2; ++i) {
#if HWY_TARGET == HWY_SCALAR
            v[i] = hn::Add(v[2 * i], v[2 * i + 1]);
#else
            v[i] = hn::Add(hn::ConcatEven(d, v[2 * i + 1], v[2 * i]), hn::ConcatOdd(d, v[2 * i + 1], v[2 * i]));
#endif
        }
    }
    return v[0];
}

/// Walks a column's elements a vector at a time from its first: offset()
/// is where the current vector lies -- in one run, or in runs of `run`
/// elements runStride apart (DenseMatrix).  A vector starting at a multiple
/// of its lanes never crosses a run (runs are multiples of 16).
class RunCursor {
public:
    explicit RunCursor(const DenseMatrix& b) : run_(b.run), jump_(b.runStride - b.run) {}
    int64_t offset() const { return offset_; }
    /// Whether the current vector starts a run (in runs only).
    bool at_run_start() const { return run_ != 0 && inRun_ == 0; }
    void advance() {
        offset_ += static_cast<int64_t>(kDotLanes);
        inRun_ += static_cast<int64_t>(kDotLanes);
        if (inRun_ == run_) {
            offset_ += jump_;
            inRun_ = 0;
        }
    }

private:
    int64_t run_;
    int64_t jump_;
    int64_t offset_ = 0;
    int64_t inRun_ = 0;
};

/// The columns one pass of accumulate_columns takes: 16 vectors of
/// partials in registers (kRows x kColumns x kDotVectors).  Each column is a
/// stream of the weight: the more side by side, the more of the memory's
/// latency overlaps (one row: 8 columns on 16 lanes read 1.5x the bytes a
/// second that 4 did).
template <int kRows>
constexpr int kRegisterColumns = std::max<int>(1, 16 / (kRows * static_cast<int>(kDotVectors)));

/// b's columns [col, col + kColumns) against rows [i, i + kRows) of a,
/// added to the partials (row r, column g at partials + (r * pitch + g) *
/// kPartials): element p goes to partial p % kPartials, p increasing, lanes
/// past b.rows zero in both loads.
template <class R, int kRows, int kColumns, class T>
void accumulate_columns(const StridedMatrix<const float>& a, const DenseMatrix& b, int64_t i, int64_t col,
                        float* partials, int64_t pitch) {
    const DotTag d;
    hn::Vec<DotTag> sums[kRows][kColumns][kDotVectors];
    const T* w[kColumns];
    for (int g = 0; g < kColumns; ++g) {
        w[g] = static_cast<const T*>(b.data) + (col + g) * b.stride;
        for (int r = 0; r < kRows; ++r) {
            for (size_t v = 0; v < kDotVectors; ++v) {
                sums[r][g][v] = hn::Load(d, partials + (r * pitch + g) * kPartials + v * kDotLanes);
            }
        }
    }
    RunCursor runs(b);
    for (int64_t p = 0; p < b.rows; p += kPartials) {
        HWY_UNROLL(4)
        for (size_t v = 0; v < kDotVectors; ++v) {
            const int64_t at = p + static_cast<int64_t>(v * kDotLanes);
            if (at >= b.rows) break;
            const size_t count = std::min(kDotLanes, static_cast<size_t>(b.rows - at));
            hn::Vec<DotTag> x[kRows];
            for (int r = 0; r < kRows; ++r) {
                const float* row = a.data + (i + r) * a.rowStride + at;
                x[r] = count == kDotLanes ? hn::LoadU(d, row) : load_f32_partial(d, row, count);
            }
            for (int g = 0; g < kColumns; ++g) {
                const auto weight = weights<R>(d, w[g] + runs.offset(), count);
                for (int r = 0; r < kRows; ++r) sums[r][g][v] = hn::MulAdd(x[r], weight, sums[r][g][v]);
            }
            runs.advance();
        }
    }
    for (int r = 0; r < kRows; ++r) {
        for (int g = 0; g < kColumns; ++g) {
            for (size_t v = 0; v < kDotVectors; ++v) {
                hn::Store(sums[r][g][v], d, partials + (r * pitch + g) * kPartials + v * kDotLanes);
            }
        }
    }
}

/// The columns whose partials a span keeps (kColumnSpan / rows, in whole
/// groups of the widest DotTag's 16 lanes): 8 KiB of partials, in L1.
constexpr int64_t kColumnSpan = 64;

/// Asks for the cache lines of [p, p + bytes) into L2: the next runs of a
/// span lie a column tile away, too far for the hardware's stream prefetch
/// to see.  kPrefetchRuns runs ahead, into L2 (whose queue holds more
/// misses than L1's: 17 -> 21 GB/s at 4096 x 14336).
constexpr int64_t kPrefetchRuns = 8;
void prefetch_bytes(const void* p, size_t bytes) {
    const auto* at = static_cast<const char*>(p);
    for (size_t byte = 0; byte < bytes; byte += 64) __builtin_prefetch(at + byte, 0, 2);
}

/// Adds b's runs of elements [at, at + count) (count <= kDotLanes) of the
/// span's columns [j, j + cols) times rows [i, i + kRows) of a to their
/// partials, column after column: the order the runs lie in memory
/// (FRACTAL_NZ: a run of every column, then the next runs).
template <class R, int kRows, class T>
void accumulate_runs(const StridedMatrix<const float>& a, const DenseMatrix& b, int64_t i, const T* w, int64_t at,
                     size_t count, int64_t cols, float* partials, int64_t pitch) {
    const DotTag d;
    hn::Vec<DotTag> x[kRows];
    for (int r = 0; r < kRows; ++r) {
        const float* row = a.data + (i + r) * a.rowStride + at;
        x[r] = count == kDotLanes ? hn::LoadU(d, row) : load_f32_partial(d, row, count);
    }
    float* vector = partials + at % kPartials;
    for (int64_t g = 0; g < cols; ++g, vector += kPartials) {
        const auto weight = weights<R>(d, w + g * b.stride, count);
        for (int r = 0; r < kRows; ++r) {
            float* p = vector + r * pitch * kPartials;
            hn::Store(hn::MulAdd(x[r], weight, hn::Load(d, p)), d, p);
        }
    }
}

/// c's rows [i, i + kRows) from b's dense columns, a span of columns at a
/// time, each partial fed in increasing p: columns lying in runs side by
/// side (b.stride == b.run: FRACTAL_NZ's column tiles) run after run with
/// the partials in memory, so that the weight streams in memory order;
/// others kRegisterColumns columns at a time with the partials in registers.
/// The partials fold kDotLanes columns at a time.
template <class R, int kRows, class T>
void columns_rows(const StridedMatrix<const float>& a, const DenseMatrix& b, float beta, const StridedMatrix<float>& c,
                  int64_t i) {
    constexpr int64_t kSpanCols = kColumnSpan / kRows / 16 * 16;
    constexpr int kColumns = kRegisterColumns<kRows>;
    static_assert(kSpanCols % kColumns == 0 && kSpanCols % static_cast<int64_t>(kDotLanes) == 0);
    const DotTag d;
    HWY_ALIGN float partials[kRows * kSpanCols * kPartials];
    for (int64_t j = 0; j < c.cols; j += kSpanCols) {
        const int64_t cols = std::min(kSpanCols, c.cols - j);
        // Whole groups of columns; the padding's partials stay 0.
        const int64_t groups = (cols + kColumns - 1) / kColumns;
        std::fill(partials, partials + kRows * kSpanCols * kPartials, 0.0f);
        if (b.run != 0 && b.stride == b.run) {
            const auto* w = static_cast<const T*>(b.data) + j * b.stride;
            for (int64_t ahead = 0; ahead < kPrefetchRuns; ++ahead) {
                prefetch_bytes(w + ahead * b.runStride, cols * b.run * sizeof(T));
            }
            RunCursor runs(b);
            for (int64_t at = 0; at < b.rows; at += static_cast<int64_t>(kDotLanes), runs.advance()) {
                const size_t count = std::min(kDotLanes, static_cast<size_t>(b.rows - at));
                if (runs.at_run_start()) {
                    prefetch_bytes(w + runs.offset() + kPrefetchRuns * b.runStride, cols * b.run * sizeof(T));
                }
                accumulate_runs<R, kRows, T>(a, b, i, w + runs.offset(), at, count, cols, partials, kSpanCols);
            }
        } else {
            for (int64_t g = 0; g < groups; ++g) {
                const int64_t col = j + g * kColumns;
                if (col + kColumns <= c.cols) {
                    accumulate_columns<R, kRows, kColumns, T>(a, b, i, col, partials + g * kColumns * kPartials,
                                                              kSpanCols);
                    continue;
                }
                for (int64_t one = col; one < c.cols; ++one) {
                    accumulate_columns<R, kRows, 1, T>(a, b, i, one, partials + (one - j) * kPartials, kSpanCols);
                }
            }
        }
        for (int r = 0; r < kRows; ++r) {
            for (int64_t g = 0; g < cols; g += static_cast<int64_t>(kDotLanes)) {
                float sums[kDotLanes];
                hn::StoreU(folded_columns(d, partials + (r * kSpanCols + g) * kPartials), d, sums);
                for (int64_t lane = 0; lane < std::min(static_cast<int64_t>(kDotLanes), cols - g); ++lane) {
                    float& out = c.data[(i + r) * c.rowStride + (j + g + lane) * c.colStride];
                    out = beta == 0.0f ? sums[lane] : sums[lane] + beta * out;
                }
            }
        }
    }
}

template <class R, class T>
void columns_product(const StridedMatrix<const float>& a, const DenseMatrix& b, float beta,
                     const StridedMatrix<float>& c) {
    int64_t i = 0;
    for (; i + 4 <= c.rows; i += 4) columns_rows<R, 4, T>(a, b, beta, c, i);
    switch (c.rows - i) {
        case 3: return columns_rows<R, 3, T>(a, b, beta, c, i);
        case 2: return columns_rows<R, 2, T>(a, b, beta, c, i);
        case 1: return columns_rows<R, 1, T>(a, b, beta, c, i);
        default: return;
    }
}

/// Row i of c, columns [j, j + count) (count <= kRowVectors lanes' worth),
/// from dense rows of b: one multiply-add chain per element, p increasing.
template <class R, class T>
void row_span(const float* x, const T* w, int64_t k, int64_t stride, float beta, float* out, int64_t colStride,
              int64_t count) {
    constexpr size_t kVectors = 4;
    const DotTag d;
    hn::Vec<DotTag> sums[kVectors];
    for (auto& sum : sums) sum = hn::Zero(d);
    const size_t vectors = (static_cast<size_t>(count) + kDotLanes - 1) / kDotLanes;
    for (int64_t p = 0; p < k; ++p) {
        const auto xp = hn::Set(d, x[p]);
        const T* row = w + p * stride;
        for (size_t v = 0; v < vectors; ++v) {
            const size_t lanes = std::min(kDotLanes, static_cast<size_t>(count) - v * kDotLanes);
            sums[v] = hn::MulAdd(xp, weights<R>(d, row + v * kDotLanes, lanes), sums[v]);
        }
    }
    float values[kVectors * kDotLanes];
    for (size_t v = 0; v < vectors; ++v) hn::StoreU(sums[v], d, values + v * kDotLanes);
    for (int64_t j = 0; j < count; ++j) {
        float& at = out[j * colStride];
        at = beta == 0.0f ? values[j] : values[j] + beta * at;
    }
}

template <class R, class T>
void rows_product(const StridedMatrix<const float>& a, const DenseMatrix& b, float beta,
                  const StridedMatrix<float>& c) {
    constexpr int64_t kSpan = 4 * static_cast<int64_t>(kDotLanes);
    const auto* w = static_cast<const T*>(b.data);
    for (int64_t i = 0; i < c.rows; ++i) {
        for (int64_t j = 0; j < c.cols; j += kSpan) {
            row_span<R>(a.data + i * a.rowStride, w + j, b.rows, b.stride, beta,
                        c.data + i * c.rowStride + j * c.colStride, c.colStride, std::min(kSpan, c.cols - j));
        }
    }
}

template <class R, class T>
void gemv_as(const StridedMatrix<const float>& a, const DenseMatrix& b, float beta, const StridedMatrix<float>& c) {
    if (b.denseRows) return rows_product<R, T>(a, b, beta, c);
    columns_product<R, T>(a, b, beta, c);
}

}  // namespace

template <class T>
void gemv_rounded(const StridedMatrix<const float>& a, const DenseMatrix& b, float beta,
                  const StridedMatrix<float>& c) {
    switch (b.roundedTo) {
        case ACL_FLOAT16: return gemv_as<half_t, T>(a, b, beta, c);
        case ACL_BF16: return gemv_as<bf16_t, T>(a, b, beta, c);
        default: return gemv_as<float, T>(a, b, beta, c);
    }
}

void gemv_on_target(const StridedMatrix<const float>& a, const DenseMatrix& b, float beta,
                    const StridedMatrix<float>& c) {
    switch (b.dtype) {
        case ACL_FLOAT16: return gemv_rounded<half_t>(a, b, beta, c);
        case ACL_BF16: return gemv_rounded<bf16_t>(a, b, beta, c);
        default: return gemv_rounded<float>(a, b, beta, c);
    }
}

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
namespace aclcpu::ops {

HWY_EXPORT(gemv_on_target);

void gemv_f32(const StridedMatrix<const float>& a, const DenseMatrix& b, float beta,
              const StridedMatrix<float>& c) noexcept {
    HWY_DYNAMIC_DISPATCH(gemv_on_target)(a, b, beta, c);
}

void product_f32(const StridedMatrix<const float>& a, const StridedMatrix<const float>& b, float beta,
                 const StridedMatrix<float>& c) noexcept {
    if (a.rows > kGemvMaxRows || a.colStride != 1 || b.rowStride < 0 || b.colStride < 0 ||
        (b.rowStride != 1 && b.colStride != 1)) {
        return gemm_f32(a, b, beta, c);
    }
    // Both strides 1 (a vector): a row of b reads as one column, a column as rows.
    const bool denseColumns = b.rowStride == 1 && (b.colStride != 1 || b.rows <= b.cols);
    const int64_t stride = denseColumns ? b.colStride : b.rowStride;
    gemv_f32(a, {b.data, ACL_FLOAT, b.rows, b.cols, stride, !denseColumns}, beta, c);
}

}  // namespace aclcpu::ops
#endif
