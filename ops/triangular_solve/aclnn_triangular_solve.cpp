// acl-cpu: aclnnTriangularSolve of ops-math (math/triangular_solve): X with
// op(A) X = self for a batch of square triangular A, op(A) = A or, with
// transpose, A's transpose (conjugate transpose for the complex dtypes: the
// op_api hands transpose to the AICPU kernel MatrixTriangularSolve as its
// `adjoint` attribute, op_host/op_api/triangular_solve.cpp).
//
// The checks follow op_host/op_api/aclnn_triangular_solve.cpp in order:
// null (561103, ACLNN_ERR_INNER_NULLPTR, not 161001), dtypes, shapes (A
// square, self's rows A's, batch dims broadcast, xOut and mOut of the
// broadcast shapes); A or self empty -> success, nothing written; then
// unitriangular only for FLOAT.  mOut, when given, receives the broadcast A
// whole (a ViewCopy of it, taken before unitriangular replaces the
// diagonal), not only its triangle as the doc says.  Only A's triangle is
// read; a zero on the diagonal divides as the dtype does (inf or NaN), as
// the doc warns; unitriangular divides by A * 0 + 1 (the op_api's
// A * (1 - eye) + eye), NaN where A's diagonal is inf or NaN.  Each dtype is computed in itself (DOUBLE in double).
#include "aclnnop/aclnn_triangular_solve.h"

#include "aclcpu/soc_profile.hpp"
#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "common/block_launch.hpp"
#include "common/matmul.hpp"
#include "common/strided_layout.hpp"
#include "common/tiling.hpp"
#include "common/typed_lanes.hpp"

#include <complex>
#include <functional>
#include <numeric>
#include <type_traits>

namespace aclcpu::ops {
namespace {

constexpr DtypeList kSolveDtypes = {ACL_FLOAT, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128};

struct SolvePlan {
    aclDataType dtype = ACL_FLOAT;
    int64_t batches = 0;
    int64_t m = 0;  ///< A is m x m
    int64_t n = 0;  ///< self and X are m x n
    bool lower = false;      ///< op(A) is lower triangular
    bool transpose = false;  ///< op(A)[i][k] = conj(A[k][i])
    bool unitriangular = false;
    BlockSplit blocks;  ///< (batch, column of X) units; mOut's copy rides on a batch's first column
};

struct SolveOperands {
    MatrixBatch a;
    MatrixBatch b;
    MatrixBatch x;
    MatrixBatch m;
    bool copiesA = false;
};

template <class T>
T conjugated(T v) {
    if constexpr (is_complex_v<T>) {
        return std::conj(v);
    } else {
        return v;
    }
}

/// Column j of X in batch bt by substitution, from the diagonal's end the
/// triangle starts at; X's earlier rows are read back from xOut.
template <class T>
void solve_column(const SolvePlan& plan, const SolveOperands& ops, const T* a, const T* b, T* x, int64_t bt,
                  int64_t j) {
    a += ops.a.start(bt);
    b += ops.b.start(bt);
    x += ops.x.start(bt);
    const auto op_a = [&](int64_t i, int64_t k) {  // op(A)[i][k]
        return plan.transpose ? conjugated(a[ops.a.element(k, i)]) : a[ops.a.element(i, k)];
    };
    for (int64_t step = 0; step < plan.m; ++step) {
        const int64_t i = plan.lower ? step : plan.m - 1 - step;
        T sum = b[ops.b.element(i, j)];
        for (int64_t done = 0; done < step; ++done) {
            const int64_t k = plan.lower ? done : plan.m - 1 - done;
            sum -= op_a(i, k) * x[ops.x.element(k, j)];
        }
        const T diagonal = op_a(i, i);
        // unitriangular: the op_api's A * (1 - eye) + eye, whose diagonal is
        // 1 but NaN where A's is inf or NaN.
        x[ops.x.element(i, j)] = sum / (plan.unitriangular ? diagonal * T(0) + T(1) : diagonal);
    }
}

template <class T>
void copy_a(const SolvePlan& plan, const SolveOperands& ops, const T* a, T* m, int64_t bt) {
    a += ops.a.start(bt);
    m += ops.m.start(bt);
    for (int64_t i = 0; i < plan.m; ++i) {
        for (int64_t k = 0; k < plan.m; ++k) m[ops.m.element(i, k)] = a[ops.a.element(i, k)];
    }
}

class TriangularSolveKernel final : public OpKernel {
public:
    TriangularSolveKernel(SolvePlan plan, SolveOperands operands) noexcept
        : plan_(std::move(plan)), ops_(std::move(operands)) {}

    const char* name() const noexcept override { return "aclnnTriangularSolve"; }
    void describe(std::string& details) const override {
        append_trace_arg(details, "blockDim", plan_.blocks.count());
    }

    aclError launch(const LaunchArgs& args) const noexcept override {
        const size_t outputs = ops_.copiesA ? 2 : 1;
        if (aclError status = check_tensor_addresses(name(), args, 2, outputs); status != ACL_SUCCESS) return status;
        return visit_lane_type(plan_.dtype, [&](auto tag) { return run<decltype(tag)>(args); });
    }

private:
    template <class T>
    aclError run(const LaunchArgs& args) const noexcept {
        if constexpr (std::is_same_v<T, int64_t>) {
            return ACL_ERROR_RT_INTERNAL_ERROR;  // not a solve dtype (checked in phase 1)
        } else {
            const auto* a = static_cast<const T*>(args.inputs[1]);
            const auto* b = static_cast<const T*>(args.inputs[0]);
            auto* x = static_cast<T*>(args.outputs[0]);
            auto* m = ops_.copiesA ? static_cast<T*>(args.outputs[1]) : nullptr;
            const int64_t bytesPerUnit = plan_.m * plan_.m * int64_t{sizeof(T)};
            return launch_block_slices(name(), plan_.blocks, bytesPerUnit, 1, [&](const BlockSlice& slice) {
                for (int64_t unit = slice.units.begin; unit < slice.units.end; ++unit) {
                    const int64_t bt = unit / plan_.n;
                    const int64_t j = unit % plan_.n;
                    solve_column(plan_, ops_, a, b, x, bt, j);
                    if (m != nullptr && j == 0) copy_a(plan_, ops_, a, m, bt);
                }
            });
        }
    }

    SolvePlan plan_;
    SolveOperands ops_;
};

/// CheckShape: ranks 2-8, A square, self's rows A's, the batch dims
/// broadcast; xOut (batch, m, n), mOut (batch, m, m).  *batchShape is the
/// broadcast batch shape.
aclnnStatus check_solve_shapes(const aclTensor* self, const aclTensor* A, const aclTensor* xOut,
                               const aclTensor* mOut, Dims* batchShape) {
    for (const auto& [tensor, name] : {std::pair{self, "self"}, std::pair{A, "A"}, std::pair{xOut, "xOut"}}) {
        ACLCPU_RETURN_IF_ERROR(check_min_dim(tensor, name, 2));
    }
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{self, "self"}, {A, "A"}, {xOut, "xOut"}}));
    const Dims& aShape = view_of(A).shape;
    const Dims& bShape = view_of(self).shape;
    const int64_t m = aShape[aShape.size() - 2];
    if (m != aShape[aShape.size() - 1]) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "A must be batchs of square matrices, but they are %ld by %ld "
                           "matrices.", static_cast<long>(m), static_cast<long>(aShape[aShape.size() - 1]));
    }
    const int64_t bRows = bShape[bShape.size() - 2];
    if (bRows != m) {
        // The op_api's message continues a string literal over a line with a
        // backslash: the next line's indentation is part of it.
        return param_error(ACLNN_ERR_PARAM_INVALID, "Incompatible matrix sizes for triangular_solve: each A matrix is "
                           "%ld by %ld             but each b matrix is %ld by %ld.", static_cast<long>(m),
                           static_cast<long>(m), static_cast<long>(bRows), static_cast<long>(bShape[bShape.size() - 1]));
    }
    Dims squareB = bShape;
    squareB[squareB.size() - 1] = bRows;
    Dims broadcast;
    if (!broadcast_shapes(aShape, squareB, &broadcast)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Broadcast fail, the size of tensor a must match the size of "
                           "tensor b at non-singleton diemnsion.");
    }
    Dims xShape = broadcast;
    xShape[xShape.size() - 1] = bShape[bShape.size() - 1];
    ACLCPU_RETURN_IF_ERROR(check_shape_is(xOut, "xOut", xShape));
    if (mOut != nullptr) {
        ACLCPU_RETURN_IF_ERROR(check_min_dim(mOut, "mOut", 2));
        ACLCPU_RETURN_IF_ERROR(check_max_dim(mOut, "mOut"));
        ACLCPU_RETURN_IF_ERROR(check_shape_is(mOut, "mOut", broadcast));
    }
    *batchShape = Dims(broadcast.data(), broadcast.size() - 2);
    return ACLNN_SUCCESS;
}

aclnnStatus check_solve_dtypes(const aclTensor* self, const aclTensor* A, const aclTensor* xOut,
                               const aclTensor* mOut) {
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{self, "self"}, {A, "A"}, {xOut, "xOut"}}, kSolveDtypes));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(self, "self", A, "A"));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(self, "self", xOut, "xOut"));
    if (mOut == nullptr) return ACLNN_SUCCESS;
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(mOut, "mOut", kSolveDtypes));
    return check_same_dtype(self, "self", mOut, "mOut");
}

aclnnStatus triangular_solve(const aclTensor* self, const aclTensor* A, bool upper, bool transpose,
                             bool unitriangular, const aclTensor* xOut, const aclTensor* mOut,
                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (aclnnStatus status = check_not_null({{self, "self"}, {A, "A"}, {xOut, "xOut"}}); status != ACLNN_SUCCESS) {
        return ACLNN_ERR_INNER_NULLPTR;  // CheckParams: CHECK_RET(CheckNotNull(...), ACLNN_ERR_INNER_NULLPTR)
    }
    ACLCPU_RETURN_IF_ERROR(check_solve_dtypes(self, A, xOut, mOut));
    Dims batchShape;
    ACLCPU_RETURN_IF_ERROR(check_solve_shapes(self, A, xOut, mOut, &batchShape));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    const TensorList inputs = {self, A};
    std::vector<const aclTensor*> outputs = {xOut};
    if (mOut != nullptr) outputs.push_back(mOut);
    if (is_empty(A) || is_empty(self)) return hand_back_empty_executor(inputs, outputs, workspaceSize, executor);
    if (unitriangular && view_of(A).dtype != ACL_FLOAT) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "unitriangular mode only support float.");
    }
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{self, "self"}, {A, "A"}, {xOut, "xOut"}}));
    if (mOut != nullptr) ACLCPU_RETURN_IF_ERROR(check_view_in_storage(mOut, "mOut"));
    SolvePlan plan;
    plan.dtype = view_of(A).dtype;
    plan.batches = std::accumulate(batchShape.begin(), batchShape.end(), int64_t{1}, std::multiplies<>());
    plan.m = view_of(A).shape[view_of(A).shape.size() - 1];
    plan.n = view_of(self).shape[view_of(self).shape.size() - 1];
    plan.lower = upper == transpose;
    plan.transpose = transpose;
    plan.unitriangular = unitriangular;
    plan.blocks = BlockSplit::front_loaded(plan.batches * plan.n, soc_profile().vectorCoreCount, plan.m * plan.m);
    SolveOperands operands;
    operands.a = MatrixBatch::of(view_of(A), batchShape);
    operands.b = MatrixBatch::of(view_of(self), batchShape);
    operands.x = MatrixBatch::of(view_of(xOut), batchShape);
    if (mOut != nullptr) operands.m = MatrixBatch::of(view_of(mOut), batchShape);
    operands.copiesA = mOut != nullptr;
    return hand_back_kernel<TriangularSolveKernel>(inputs, outputs, 0, workspaceSize, executor, std::move(plan),
                                                   std::move(operands));
}

}  // namespace
}  // namespace aclcpu::ops

extern "C" aclnnStatus aclnnTriangularSolveGetWorkspaceSize(const aclTensor* self, const aclTensor* A, bool upper,
                                                           bool transpose, bool unitriangular, aclTensor* xOut,
                                                           aclTensor* mOut, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
    return aclcpu::ops::triangular_solve(self, A, upper, transpose, unitriangular, xOut, mOut, workspaceSize,
                                         executor);
}

ACLCPU_DEFINE_PHASE2(aclnnTriangularSolve)
