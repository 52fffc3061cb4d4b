// aclnnMseLoss and aclnnMseLossBackward against double-precision references
// from the definitions -- mean((x - t)^2), sum((x - t)^2), (x - t)^2 and
// their derivative 2 (x - t) dy (/ N for the mean) -- on every A2 dtype
// (ops-nn loss/mse_loss/op_api/aclnn_mse_loss.cpp, loss/mse_loss_grad_v2/
// op_host/op_api/aclnn_mse_loss_backward.cpp: FLOAT, FLOAT16, BF16), mixed
// self/target dtypes (MseLoss promotes), broadcasting, strided and offset
// views, 0-d and empty tensors (MseLoss's mean of nothing is NaN, its sum
// 0), the reduction's split over blocks bitwise identical for 1, 2 and 8
// workers, and every error path with its code and message.
#include <cmath>
#include <limits>
#include <vector>

#include "aclnnop/aclnn_mse_loss.h"
#include "aclnnop/aclnn_mse_loss_backward.h"
#include "aclnnop/aclnn_mse_loss_out.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

const double kNaN = std::nan("");
constexpr int64_t kNone = 0, kMean = 1, kSum = 2;

class MseLoss : public AclTest {
protected:
    /// MseLoss (alongDimZero: MseLossOut) on self and target (values
    /// rounded to their dtypes) into a fresh out of outSpec; returns out's values.
    std::vector<double> loss(const Operand& self, const Operand& target, int64_t reduction, const TensorSpec& outSpec,
                             uint64_t* workspace = nullptr, bool alongDimZero = false) {
        const DeviceTensor s(self.spec, representable(self.values, self.spec.dtype));
        const DeviceTensor t(target.spec, representable(target.values, target.spec.dtype));
        auto out = DeviceTensor::output(outSpec);
        uint64_t size = 0;
        const auto phase1 = [&](uint64_t* ws, aclOpExecutor** executor) {
            return (alongDimZero ? aclnnMseLossOutGetWorkspaceSize : aclnnMseLossGetWorkspaceSize)(
                s.get(), t.get(), reduction, out->get(), ws, executor);
        };
        EXPECT_EQ(run_two_phases(phase1, alongDimZero ? aclnnMseLossOut : aclnnMseLoss, stream_, &size), ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        if (workspace != nullptr) *workspace = size;
        EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
        return out->read();
    }
};

/// The squares of the broadcast pair, in double.
std::vector<double> squares(const Operand& self, const Operand& target, const Shape& shape) {
    const std::vector<double> x = representable(self.values, self.spec.dtype);
    const std::vector<double> t = representable(target.values, target.spec.dtype);
    std::vector<double> result;
    for (int64_t i = 0; i < numel(shape); ++i) {
        const double d = broadcast_value(x, self.spec.shape, shape, i) - broadcast_value(t, target.spec.shape, shape, i);
        result.push_back(d * d);
    }
    return result;
}

double sum_of(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s;
}

/// The fp32 sum of n squares of size about 1 (each rounded once, summed in
/// 16 lanes and a tree): relative error well under n * 2^-24 / 16 + 1e-6.
Tolerance reduced_tolerance(aclDataType out) {
    const Tolerance tol = tolerance_for(out);
    return {std::max(tol.rtol, 2e-5), 1e-6};
}

TEST_F(MseLoss, EachReductionEveryDtype) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        SCOPED_TRACE(name(dtype));
        const Shape shape = {7, 19};
        const Operand self{{shape, dtype}, uniform(133, -2, 2, 1)};
        const Operand target{{shape, dtype}, uniform(133, -2, 2, 2)};
        const std::vector<double> sq = squares(self, target, shape);
        std::vector<double> none;
        for (double v : sq) none.push_back(representable(v, dtype));
        expect_close(loss(self, target, kNone, {shape, dtype}), none, tolerance_for(dtype));
        const double n = static_cast<double>(sq.size());
        expect_close(loss(self, target, kMean, {{}, dtype}), {sum_of(sq) / n}, reduced_tolerance(dtype));
        expect_close(loss(self, target, kSum, {{}, dtype}), {sum_of(sq)}, reduced_tolerance(dtype));
    }
}

// Self and target promote (FLOAT16 with FLOAT: FLOAT; BF16 with FLOAT16:
// FLOAT) and broadcast; out may be any listed dtype.
TEST_F(MseLoss, PromotesBroadcastsAndCasts) {
    const Operand self{{{3, 1, 5}, ACL_FLOAT16}, uniform(15, -3, 3, 3)};
    const Operand target{{{4, 5}, ACL_FLOAT}, uniform(20, -3, 3, 4)};
    const std::vector<double> sq = squares(self, target, {3, 4, 5});
    expect_close(loss(self, target, kNone, {{3, 4, 5}, ACL_FLOAT}), sq, tolerance_for(ACL_FLOAT));
    expect_close(loss(self, target, kSum, {{}, ACL_FLOAT16}), {representable(sum_of(sq), ACL_FLOAT16)},
                 reduced_tolerance(ACL_FLOAT16));
    const Operand bf{{{4, 5}, ACL_BF16}, uniform(20, -3, 3, 5)};
    const Operand half{{{4, 5}, ACL_FLOAT16}, uniform(20, -3, 3, 6)};
    expect_close(loss(bf, half, kMean, {{}, ACL_FLOAT}), {sum_of(squares(bf, half, {4, 5})) / 20},
                 reduced_tolerance(ACL_FLOAT));
}

TEST_F(MseLoss, StridedViewsZeroDimAndSpecialValues) {
    // A transposed self with an offset, into a strided out.
    const Operand self{{{4, 5}, ACL_FLOAT, {1, 6}, 3, {40}}, uniform(20, -2, 2, 7)};
    const Operand target{{{4, 5}, ACL_FLOAT}, uniform(20, -2, 2, 8)};
    const std::vector<double> sq = squares(self, target, {4, 5});
    expect_close(loss(self, target, kNone, {{4, 5}, ACL_FLOAT, {10, 2}, 1, {45}}), sq, tolerance_for(ACL_FLOAT));
    expect_close(loss(self, target, kMean, {{}, ACL_FLOAT}), {sum_of(sq) / 20}, reduced_tolerance(ACL_FLOAT));
    const Operand x0{{{}, ACL_FLOAT}, {1.5}};
    const Operand t0{{{}, ACL_FLOAT}, {-0.5}};
    expect_close(loss(x0, t0, kNone, {{}, ACL_FLOAT}), {4}, {0, 0});
    expect_close(loss(x0, t0, kMean, {{}, ACL_FLOAT}), {4}, {0, 0});
    // inf - inf is NaN and poisons the sum; a large difference overflows fp32.
    const Operand special{{{3}, ACL_FLOAT}, {INFINITY, 3e20, 1}};
    const Operand same{{{3}, ACL_FLOAT}, {INFINITY, 0, 1}};
    expect_close(loss(special, same, kNone, {{3}, ACL_FLOAT}), {kNaN, INFINITY, 0}, {0, 0});
    expect_close(loss(special, same, kSum, {{}, ACL_FLOAT}), {kNaN}, {0, 0});
}

// MseLossEmptyTensorCompute: none writes nothing, mean fills NaN, sum 0.
TEST_F(MseLoss, EmptyInputs) {
    const Operand empty{{{0, 3}, ACL_FLOAT}, {}};
    const Operand row{{{3}, ACL_FLOAT}, {1, 2, 3}};
    uint64_t workspace = 1;
    EXPECT_TRUE(loss(empty, row, kNone, {{0, 3}, ACL_FLOAT}, &workspace).empty());
    EXPECT_EQ(workspace, 0u);
    expect_close(loss(empty, row, kMean, {{}, ACL_FLOAT}), {kNaN}, {0, 0});
    expect_close(loss(row, empty, kSum, {{}, ACL_FLOAT16}), {0}, {0, 0});
}

// 2^20 + 37 squares split over the vector cores' blocks: the same bits for
// 1, 2 and 8 workers.
TEST_F(MseLoss, ReductionsAreBitwiseIdenticalAcrossWorkerCounts) {
    const int64_t n = (int64_t{1} << 20) + 37;
    const Operand self{{{n}, ACL_FLOAT}, uniform(static_cast<size_t>(n), -1, 1, 9)};
    const Operand target{{{1}, ACL_FLOAT}, {0.25}};
    uint64_t workspace = 0;
    expect_same_for_any_worker_count([&] {
        std::vector<std::vector<double>> results;
        results.push_back(loss(self, target, kSum, {{}, ACL_FLOAT}, &workspace));
        results.push_back(loss(self, target, kMean, {{}, ACL_FLOAT}));
        return results;
    });
    EXPECT_GT(workspace, static_cast<uint64_t>(n) * 4);
    const double sum = sum_of(squares(self, target, {n}));
    expect_close(loss(self, target, kSum, {{}, ACL_FLOAT}), {sum}, {1e-5, 0});
}

// aclnn_mse_loss_out.cpp: "mean" and "sum" reduce along dim 0 only (out is
// the broadcast shape without it), over the squares rounded to the promoted
// dtype (its MseLoss "none"), the result rounded to it, then cast into out.
TEST_F(MseLoss, OutReducesAlongDimZero) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        SCOPED_TRACE(name(dtype));
        const Operand self{{{7, 19}, dtype}, uniform(133, -2, 2, 1)};
        const Operand target{{{19}, dtype}, uniform(19, -2, 2, 2)};
        const std::vector<double> sq = squares(self, target, {7, 19});
        std::vector<double> sums(19, 0.0);
        for (size_t i = 0; i < sq.size(); ++i) sums[i % 19] += representable(sq[i], dtype);
        std::vector<double> means;
        for (double& v : sums) {
            means.push_back(representable(v / 7, dtype));
            v = representable(v, dtype);
        }
        expect_close(loss(self, target, kMean, {{19}, dtype}, nullptr, true), means, reduced_tolerance(dtype));
        expect_close(loss(self, target, kSum, {{19}, ACL_FLOAT}, nullptr, true), sums, reduced_tolerance(dtype));
        std::vector<double> none;
        for (double v : sq) none.push_back(representable(v, dtype));
        expect_close(loss(self, target, kNone, {{7, 19}, dtype}, nullptr, true), none, tolerance_for(dtype));
    }
    // Promoted and broadcast to [3, 4, 5]: out [4, 5]; a 1-D pair reduces to 0-d, a 0-d pair stays.
    const Operand half{{{3, 1, 5}, ACL_FLOAT16}, uniform(15, -3, 3, 3)};
    const Operand f32{{{4, 5}, ACL_FLOAT}, uniform(20, -3, 3, 4)};
    const std::vector<double> sq = squares(half, f32, {3, 4, 5});
    std::vector<double> sums(20, 0.0);
    for (size_t i = 0; i < sq.size(); ++i) sums[i % 20] += sq[i];
    expect_close(loss(half, f32, kSum, {{4, 5}, ACL_FLOAT}, nullptr, true), sums, reduced_tolerance(ACL_FLOAT));
    const Operand row{{{6}, ACL_FLOAT}, {1, 2, 3, 4, 5, 6}};
    const Operand zero{{{}, ACL_FLOAT}, {0.5}};
    const double rowMean = (0.25 + 2.25 + 6.25 + 12.25 + 20.25 + 30.25) / 6;
    expect_close(loss(row, zero, kMean, {{}, ACL_FLOAT}, nullptr, true), {rowMean}, reduced_tolerance(ACL_FLOAT));
    const Operand one{{{}, ACL_FLOAT}, {2.0}};
    expect_close(loss(one, zero, kSum, {{}, ACL_FLOAT}, nullptr, true), {2.25}, {0, 0});
}

// MseLossOut's empty self or target: no work at all (unlike MseLoss's fills);
// out's shape is still checked first.
TEST_F(MseLoss, OutEmptyInputsAndShapeErrors) {
    const Operand empty{{{0, 3}, ACL_FLOAT}, {}};
    const Operand row{{{3}, ACL_FLOAT}, {1, 2, 3}};
    uint64_t workspace = 1;
    expect_close(loss(empty, row, kMean, {{3}, ACL_FLOAT}, &workspace, true), {-7, -7, -7}, {0, 0});
    EXPECT_EQ(workspace, 0u);
    const DeviceTensor x({{2, 3}, ACL_FLOAT}, uniform(6, -1, 1, 1));
    const DeviceTensor scalarOut({{}, ACL_FLOAT}), columns({{3}, ACL_FLOAT}), whole({{2, 3}, ACL_FLOAT});
    const auto phase1 = [&](int64_t reduction, const DeviceTensor& out) {
        return phase1_of(aclnnMseLossOutGetWorkspaceSize, x.get(), x.get(), reduction, out.get());
    };
    EXPECT_EQ(phase1(kMean, columns), ACLNN_SUCCESS);
    expect_error(phase1(kMean, scalarOut), ACLNN_ERR_PARAM_INVALID);
    expect_error(phase1(kSum, whole), ACLNN_ERR_PARAM_INVALID);
    expect_error(phase1(kNone, columns), ACLNN_ERR_PARAM_INVALID);
    expect_error(phase1(3, columns), ACLNN_ERR_PARAM_INVALID);
    expect_each_null_is_161001_naming(aclnnMseLossOutGetWorkspaceSize, {"self", "target", "out"}, x.get(), x.get(),
                                      kMean, columns.get());
}

TEST_F(MseLoss, Errors) {
    const DeviceTensor f32({{2, 3}, ACL_FLOAT}, uniform(6, -1, 1, 1));
    auto out = DeviceTensor::output({{}, ACL_FLOAT});
    expect_each_null_is_161001_naming(aclnnMseLossGetWorkspaceSize, {"self", "target", "out"}, f32.get(), f32.get(),
                                      kMean, out->get());
    const DeviceTensor i32({{2, 3}, ACL_INT32}, {1, 2, 3, 4, 5, 6});
    const DeviceTensor f64({{2, 3}, ACL_DOUBLE}, {1, 2, 3, 4, 5, 6});
    expect_error_naming(phase1_of(aclnnMseLossGetWorkspaceSize, i32.get(), i32.get(), kMean, out->get()),
                        ACLNN_ERR_PARAM_INVALID, "promotable");
    expect_error_naming(phase1_of(aclnnMseLossGetWorkspaceSize, f64.get(), f32.get(), kMean, out->get()),
                        ACLNN_ERR_PARAM_INVALID, "DT_DOUBLE");
    // INT32 with FLOAT promotes to FLOAT, but INT32 itself is not listed.
    expect_error_naming(phase1_of(aclnnMseLossGetWorkspaceSize, i32.get(), f32.get(), kMean, out->get()),
                        ACLNN_ERR_PARAM_INVALID, "DT_INT32");
    auto out64 = DeviceTensor::output({{}, ACL_DOUBLE});
    expect_error_naming(phase1_of(aclnnMseLossGetWorkspaceSize, f32.get(), f32.get(), kMean, out64->get()),
                        ACLNN_ERR_PARAM_INVALID, "DT_DOUBLE");
    for (int64_t reduction : {int64_t{-1}, int64_t{3}}) {
        expect_error_naming(phase1_of(aclnnMseLossGetWorkspaceSize, f32.get(), f32.get(), reduction, out->get()),
                            ACLNN_ERR_PARAM_INVALID, "reduction");
    }
    auto vector = DeviceTensor::output({{1}, ACL_FLOAT});
    expect_error_naming(phase1_of(aclnnMseLossGetWorkspaceSize, f32.get(), f32.get(), kSum, vector->get()),
                        ACLNN_ERR_PARAM_INVALID, "0-dimensional");
    auto wrong = DeviceTensor::output({{3, 2}, ACL_FLOAT});
    expect_error(phase1_of(aclnnMseLossGetWorkspaceSize, f32.get(), f32.get(), kNone, wrong->get()),
                 ACLNN_ERR_PARAM_INVALID);
    const DeviceTensor other({{3, 2}, ACL_FLOAT}, uniform(6, -1, 1, 2));
    expect_error_naming(phase1_of(aclnnMseLossGetWorkspaceSize, f32.get(), other.get(), kMean, out->get()),
                        ACLNN_ERR_PARAM_INVALID, "must match");
    const DeviceTensor rank9({{1, 1, 1, 1, 1, 1, 1, 2, 3}, ACL_FLOAT}, uniform(6, -1, 1, 3));
    expect_error(phase1_of(aclnnMseLossGetWorkspaceSize, rank9.get(), f32.get(), kMean, out->get()),
                 ACLNN_ERR_PARAM_INVALID);
    // Two one-element views whose broadcast has 2^60 elements: more squares
    // than a workspace stages (acl-cpu's guard; CANN's workspace would not
    // allocate).
    const DeviceTensor column({{int64_t{1} << 30, 1}, ACL_FLOAT, {0, 1}, 0, {1}});
    const DeviceTensor row({{1, int64_t{1} << 30}, ACL_FLOAT, {1, 0}, 0, {1}});
    expect_error_naming(phase1_of(aclnnMseLossGetWorkspaceSize, column.get(), row.get(), kSum, out->get()),
                        ACLNN_ERR_PARAM_INVALID, "workspace");
}

// ---- MseLossBackward -------------------------------------------------------

class MseLossBackward : public AclTest {
protected:
    /// MseLossBackward on (dy, self, target) into a fresh out of outSpec;
    /// expects out within tol of 2 (x - t) dy (/ self's numel for mean).
    void check(const Operand& dy, const Operand& self, const Operand& target, int64_t reduction,
               const TensorSpec& outSpec, Tolerance tol) {
        const std::vector<double> g = representable(dy.values, dy.spec.dtype);
        const std::vector<double> x = representable(self.values, self.spec.dtype);
        const std::vector<double> t = representable(target.values, target.spec.dtype);
        const DeviceTensor dyTensor(dy.spec, g);
        const DeviceTensor selfTensor(self.spec, x);
        const DeviceTensor targetTensor(target.spec, t);
        auto out = DeviceTensor::output(outSpec);
        ASSERT_EQ(run_aclnn(stream_, aclnnMseLossBackwardGetWorkspaceSize, aclnnMseLossBackward, dyTensor.get(),
                            selfTensor.get(), targetTensor.get(), reduction, out->get()),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        const double scale = reduction == kMean ? 2.0 / static_cast<double>(numel(self.spec.shape)) : 2.0;
        std::vector<double> expected;
        for (int64_t i = 0; i < numel(outSpec.shape); ++i) {
            const double d = broadcast_value(x, self.spec.shape, outSpec.shape, i) -
                             broadcast_value(t, target.spec.shape, outSpec.shape, i);
            const double value = d * scale * broadcast_value(g, dy.spec.shape, outSpec.shape, i);
            expected.push_back(cast(representable(value, self.spec.dtype), self.spec.dtype, outSpec.dtype));
        }
        expect_close(out->read(), expected, tol);
        EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
    }
};

TEST_F(MseLossBackward, EachReductionEveryDtype) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        SCOPED_TRACE(name(dtype));
        const Shape shape = {5, 17};
        for (int64_t reduction : {kNone, kMean, kSum}) {
            SCOPED_TRACE(reduction);
            check({{shape, dtype}, uniform(85, -2, 2, 1)}, {{shape, dtype}, uniform(85, -3, 3, 2)},
                  {{shape, dtype}, uniform(85, -3, 3, 3)}, reduction, {shape, dtype}, tolerance_for(dtype));
        }
    }
}

// The usual call: a 0-d gradOutput (the loss's gradient) broadcast over
// self; a target row broadcast too; out in another listed dtype; strided
// and offset views.
TEST_F(MseLossBackward, BroadcastsViewsAndOutDtype) {
    check({{{}, ACL_FLOAT}, {0.5}}, {{{3, 4}, ACL_FLOAT}, uniform(12, -3, 3, 4)}, {{{4}, ACL_FLOAT}, uniform(4, -3, 3, 5)},
          kMean, {{3, 4}, ACL_FLOAT}, tolerance_for(ACL_FLOAT));
    check({{{3, 1}, ACL_FLOAT16}, uniform(3, -2, 2, 6)}, {{{3, 4}, ACL_FLOAT16}, uniform(12, -3, 3, 7)},
          {{{3, 4}, ACL_FLOAT16}, uniform(12, -3, 3, 8)}, kSum, {{3, 4}, ACL_FLOAT}, tolerance_for(ACL_FLOAT16));
    check({{{4, 3}, ACL_FLOAT}, uniform(12, -2, 2, 9)}, {{{4, 3}, ACL_FLOAT, {1, 5}, 2, {20}}, uniform(12, -3, 3, 10)},
          {{{4, 3}, ACL_FLOAT}, uniform(12, -3, 3, 11)}, kNone, {{4, 3}, ACL_BF16, {6, 2}, 1, {24}},
          tolerance_for(ACL_BF16));
    check({{{}, ACL_FLOAT}, {2}}, {{{}, ACL_FLOAT}, {1.5}}, {{{}, ACL_FLOAT}, {0.25}}, kMean, {{}, ACL_FLOAT}, {0, 0});
}

TEST_F(MseLossBackward, EmptyInputs) {
    const DeviceTensor empty({{0, 4}, ACL_FLOAT});
    const DeviceTensor row({{4}, ACL_FLOAT}, {1, 2, 3, 4});
    auto out = DeviceTensor::output({{0, 4}, ACL_FLOAT});
    uint64_t workspace = 1;
    const auto phase1 = [&](uint64_t* ws, aclOpExecutor** executor) {
        return aclnnMseLossBackwardGetWorkspaceSize(row.get(), empty.get(), row.get(), kMean, out->get(), ws,
                                                    executor);
    };
    EXPECT_EQ(run_two_phases(phase1, aclnnMseLossBackward, stream_, &workspace), ACLNN_SUCCESS);
    EXPECT_EQ(workspace, 0u);
}

TEST_F(MseLossBackward, Errors) {
    const DeviceTensor f32({{2, 3}, ACL_FLOAT}, uniform(6, -1, 1, 1));
    auto out = DeviceTensor::output({{2, 3}, ACL_FLOAT});
    expect_each_null_is_161001_naming(aclnnMseLossBackwardGetWorkspaceSize, {"gradOutput", "self", "target", "out"},
                                      f32.get(), f32.get(), f32.get(), kMean, out->get());
    const DeviceTensor f16({{2, 3}, ACL_FLOAT16}, uniform(6, -1, 1, 1));
    const DeviceTensor f64({{2, 3}, ACL_DOUBLE}, uniform(6, -1, 1, 1));
    // One dtype for gradOutput, self and target (no promotion), in the list.
    expect_error_naming(
        phase1_of(aclnnMseLossBackwardGetWorkspaceSize, f16.get(), f32.get(), f32.get(), kMean, out->get()),
        ACLNN_ERR_PARAM_INVALID, "same dtype");
    expect_error_naming(
        phase1_of(aclnnMseLossBackwardGetWorkspaceSize, f32.get(), f32.get(), f16.get(), kMean, out->get()),
        ACLNN_ERR_PARAM_INVALID, "same dtype");
    expect_error_naming(
        phase1_of(aclnnMseLossBackwardGetWorkspaceSize, f64.get(), f64.get(), f64.get(), kMean, out->get()),
        ACLNN_ERR_PARAM_INVALID, "DT_DOUBLE");
    auto out64 = DeviceTensor::output({{2, 3}, ACL_DOUBLE});
    expect_error_naming(
        phase1_of(aclnnMseLossBackwardGetWorkspaceSize, f32.get(), f32.get(), f32.get(), kMean, out64->get()),
        ACLNN_ERR_PARAM_INVALID, "DT_DOUBLE");
    expect_error_naming(phase1_of(aclnnMseLossBackwardGetWorkspaceSize, f32.get(), f32.get(), f32.get(), int64_t{5},
                                  out->get()),
                        ACLNN_ERR_PARAM_INVALID, "reduction");
    const DeviceTensor other({{3, 2}, ACL_FLOAT}, uniform(6, -1, 1, 2));
    expect_error_naming(
        phase1_of(aclnnMseLossBackwardGetWorkspaceSize, other.get(), f32.get(), f32.get(), kMean, out->get()),
        ACLNN_ERR_PARAM_INVALID, "must match");
    expect_error_naming(
        phase1_of(aclnnMseLossBackwardGetWorkspaceSize, f32.get(), f32.get(), other.get(), kMean, out->get()),
        ACLNN_ERR_PARAM_INVALID, "target");
    auto wrong = DeviceTensor::output({{3, 2}, ACL_FLOAT});
    expect_error(phase1_of(aclnnMseLossBackwardGetWorkspaceSize, f32.get(), f32.get(), f32.get(), kMean, wrong->get()),
                 ACLNN_ERR_PARAM_INVALID);
    const DeviceTensor rank9({{1, 1, 1, 1, 1, 1, 1, 2, 3}, ACL_FLOAT}, uniform(6, -1, 1, 3));
    expect_error(phase1_of(aclnnMseLossBackwardGetWorkspaceSize, rank9.get(), f32.get(), f32.get(), kMean, out->get()),
                 ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
