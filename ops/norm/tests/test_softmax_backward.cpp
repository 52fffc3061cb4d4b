// aclnnSoftmaxBackward and aclnnLogSoftmaxBackward against double-precision
// references written here: the derivatives of softmax and log-softmax
// (activation/softmax_grad and activation/log_softmax_grad in hicann/ops-nn,
// docs/aclnn*Backward.md's formulas), every A2 dtype of the op_apis, every
// dim, strided and offset views, rows of several UB chunks, out of another
// dtype, special values, empty tensors, every error path in each op_api's
// order, and results independent of the worker count.  The gradients are
// also checked against finite differences of our own aclnnSoftmax and
// aclnnLogSoftmax: the backward operators must be the derivatives of the
// forward ones users pair them with.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_logsoftmax_backward.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_softmax_backward.h"
#include "../../layout/tests/layout_test_support.hpp"  // RawTensor: a tensor of a dtype DeviceTensor cannot write
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

constexpr double kInf = std::numeric_limits<double>::infinity();

enum class Grad { kSoftmax, kLogSoftmax };

const char* name_of(Grad grad) { return grad == Grad::kSoftmax ? "SoftmaxBackward" : "LogSoftmaxBackward"; }

/// The elements of one row along dim of a row-major shape: index j of the
/// row that starts at (outer o, inner k).
struct Rows {
    int64_t outer = 1;
    int64_t length = 1;
    int64_t inner = 1;

    Rows(const Shape& shape, int64_t dim) {
        if (shape.empty()) return;
        const auto axis = static_cast<size_t>(dim < 0 ? dim + static_cast<int64_t>(shape.size()) : dim);
        length = shape[axis];
        for (size_t d = 0; d < axis; ++d) outer *= shape[d];
        for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
    }
    size_t at(int64_t o, int64_t k, int64_t j) const { return static_cast<size_t>((o * length + j) * inner + k); }
};

/// The gradient with respect to the forward input, in double: for softmax
/// s, g - s * sum(g s) ... written as s (g - sum(g s)); for log-softmax l,
/// g - e^l sum(g).
std::vector<double> grad_reference(Grad grad, const std::vector<double>& g, const std::vector<double>& y,
                                   const Shape& shape, int64_t dim) {
    const Rows rows(shape, dim);
    std::vector<double> dx(g.size());
    for (int64_t o = 0; o < rows.outer; ++o) {
        for (int64_t k = 0; k < rows.inner; ++k) {
            double sum = 0;
            for (int64_t j = 0; j < rows.length; ++j) {
                const size_t i = rows.at(o, k, j);
                sum += grad == Grad::kSoftmax ? g[i] * y[i] : g[i];
            }
            for (int64_t j = 0; j < rows.length; ++j) {
                const size_t i = rows.at(o, k, j);
                dx[i] = grad == Grad::kSoftmax ? y[i] * (g[i] - sum) : g[i] - std::exp(y[i]) * sum;
            }
        }
    }
    return dx;
}

class SoftmaxBackwards : public AclTest {
protected:
    aclnnStatus backward(Grad grad, const DeviceTensor& gradOutput, const DeviceTensor& output, int64_t dim,
                         DeviceTensor& out) {
        if (grad == Grad::kSoftmax) {
            return run_aclnn(stream_, aclnnSoftmaxBackwardGetWorkspaceSize, aclnnSoftmaxBackward, gradOutput.get(),
                             output.get(), dim, out.get());
        }
        return run_aclnn(stream_, aclnnLogSoftmaxBackwardGetWorkspaceSize, aclnnLogSoftmaxBackward, gradOutput.get(),
                         output.get(), dim, out.get());
    }

    /// Runs grad on the given gradOutput and forward output values and
    /// compares with the reference: computed in gradOutput's dtype, then
    /// cast into out's.
    void expect_backward(Grad grad, const TensorSpec& inSpec, const TensorSpec& outSpec, int64_t dim,
                         const std::vector<double>& g, const std::vector<double>& y) {
        SCOPED_TRACE(std::string(name_of(grad)) + " dim " + std::to_string(dim));
        const DeviceTensor gradOutput(inSpec, g);
        const DeviceTensor output(inSpec, y);
        auto out = DeviceTensor::output(outSpec);
        ASSERT_EQ(backward(grad, gradOutput, output, dim, *out), ACLNN_SUCCESS);
        const auto expected = representable(
            representable(grad_reference(grad, gradOutput.read(), output.read(), inSpec.shape, dim), inSpec.dtype),
            outSpec.dtype);
        expect_close(out->read(), expected, tolerance_for(inSpec.dtype));
    }

    /// expect_backward of both operators, each with a forward output of its
    /// own kind (a softmax row sums to 1; a log-softmax row is its log).
    void expect_backwards(const TensorSpec& inSpec, const TensorSpec& outSpec, int64_t dim) {
        const auto n = static_cast<size_t>(std::max<int64_t>(numel(inSpec.shape), 1));
        const auto g = uniform(n, -2.0, 2.0, 17);
        const auto logits = uniform(n, -4.0, 4.0, 18);
        const Rows rows(inSpec.shape, dim);
        std::vector<double> softmax(n);
        std::vector<double> logSoftmax(n);
        for (int64_t o = 0; o < rows.outer; ++o) {
            for (int64_t k = 0; k < rows.inner; ++k) {
                double sum = 0;
                for (int64_t j = 0; j < rows.length; ++j) sum += std::exp(logits[rows.at(o, k, j)]);
                for (int64_t j = 0; j < rows.length; ++j) {
                    const size_t i = rows.at(o, k, j);
                    softmax[i] = std::exp(logits[i]) / sum;
                    logSoftmax[i] = logits[i] - std::log(sum);
                }
            }
        }
        expect_backward(Grad::kSoftmax, inSpec, outSpec, dim, g, softmax);
        expect_backward(Grad::kLogSoftmax, inSpec, outSpec, dim, g, logSoftmax);
    }
};

const std::vector<aclDataType> kDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// aclnn_softmax_backward.cpp / aclnn_logsoftmax_backward.cpp: FLOAT, FLOAT16, BF16 (A2 has BF16).
TEST_F(SoftmaxBackwards, EveryListedDtypeAlongEveryDim) {
    const Shape shape = {3, 5, 7};
    for (aclDataType dtype : kDtypes) {
        for (int64_t dim : {-1, 0, 1, 2}) expect_backwards(TensorSpec(shape, dtype), TensorSpec(shape, dtype), dim);
    }
}

// The op_apis Cast the kernel's result (gradOutput's dtype) into out's,
// whatever it is (an integer out truncates, as Cast does).
TEST_F(SoftmaxBackwards, OutOfAnotherDtype) {
    expect_backwards(TensorSpec({4, 10}, ACL_FLOAT), TensorSpec({4, 10}, ACL_FLOAT16), 1);
    expect_backwards(TensorSpec({4, 10}, ACL_BF16), TensorSpec({4, 10}, ACL_FLOAT), 0);
    expect_backwards(TensorSpec({4, 10}, ACL_FLOAT), TensorSpec({4, 10}, ACL_DOUBLE), 1);
}

TEST_F(SoftmaxBackwards, StridedAndOffsetViews) {
    for (int64_t dim : {0, 1}) {
        expect_backwards(TensorSpec({4, 6}, ACL_FLOAT, {1, 5}, 3, {40}), TensorSpec({4, 6}, ACL_FLOAT, {8, 1}, 2, {40}),
                         dim);
        expect_backwards(TensorSpec({4, 6}, ACL_FLOAT16, {1, 5}, 3, {40}),
                         TensorSpec({4, 6}, ACL_BF16, {1, 4}, 1, {30}), dim);
    }
}

TEST_F(SoftmaxBackwards, RowsOfOneZeroDimAndSeveralChunks) {
    expect_backwards(TensorSpec({5, 1}, ACL_FLOAT), TensorSpec({5, 1}, ACL_FLOAT), 1);
    expect_backwards(TensorSpec({}, ACL_FLOAT), TensorSpec({}, ACL_FLOAT), 0);
    expect_backwards(TensorSpec({}, ACL_FLOAT16), TensorSpec({}, ACL_FLOAT16), -1);
    // Rows longer than a UB chunk: the sum pass and the output pass each walk the chunks.
    expect_backwards(TensorSpec({2, 100000}, ACL_FLOAT), TensorSpec({2, 100000}, ACL_FLOAT), 1);
    expect_backwards(TensorSpec({100000, 2}, ACL_BF16), TensorSpec({100000, 2}, ACL_BF16), 0);
}

// The op_apis ask only for equal shapes, so out may be gradOutput (torch's
// in-place backward): each element is read before it is overwritten.
TEST_F(SoftmaxBackwards, OutMayBeGradOutput) {
    for (const Grad grad : {Grad::kSoftmax, Grad::kLogSoftmax}) {
        for (const int64_t length : {int64_t{1000}, int64_t{100000}}) {
            SCOPED_TRACE(std::string(name_of(grad)) + " length " + std::to_string(length));
            const Shape shape{2, length};
            const auto n = static_cast<size_t>(2 * length);
            DeviceTensor gradOutput(TensorSpec(shape, ACL_FLOAT), uniform(n, -1.0, 1.0, 5));
            const DeviceTensor output(TensorSpec(shape, ACL_FLOAT), uniform(n, -3.0, 0.0, 6));
            const auto expected = representable(
                grad_reference(grad, gradOutput.read(), output.read(), shape, 1), ACL_FLOAT);
            ASSERT_EQ(backward(grad, gradOutput, output, 1, gradOutput), ACLNN_SUCCESS);
            expect_close(gradOutput.read(), expected, tolerance_for(ACL_FLOAT));
        }
    }
}

// IEEE arithmetic through the sums: an infinite gradient makes its row's sum
// infinite and the row NaN where s * inf - s * inf meets; a log-softmax
// output of -inf (a zero probability) takes no share of the sum.
TEST_F(SoftmaxBackwards, SpecialValues) {
    const std::vector<double> g = {1.0, kInf, 0.5, 0.25, 1.0, 2.0, 3.0, 4.0};
    const std::vector<double> s = {0.25, 0.25, 0.25, 0.25, 0.0, 0.5, 0.5, 0.0};
    expect_backward(Grad::kSoftmax, TensorSpec({2, 4}, ACL_FLOAT), TensorSpec({2, 4}, ACL_FLOAT), 1, g, s);
    const std::vector<double> l = {-1.0, -2.0, -kInf, -0.5, -kInf, -0.1, -3.0, -kInf};
    expect_backward(Grad::kLogSoftmax, TensorSpec({2, 4}, ACL_FLOAT), TensorSpec({2, 4}, ACL_FLOAT), 1,
                    {1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0}, l);
}

// Both op_apis: an empty gradOutput or output succeeds with no workspace
// before any check but the null ones (on A2, which is not a regbase SoC).
TEST_F(SoftmaxBackwards, EmptyTensorsSucceedBeforeTheOtherChecks) {
    const DeviceTensor empty(TensorSpec({0, 3}, ACL_FLOAT));
    const DeviceTensor ints(TensorSpec({2, 3}, ACL_INT32), uniform(6, -1, 1, 1));
    auto out = DeviceTensor::output(TensorSpec({7}, ACL_INT8));
    for (auto entry : {aclnnSoftmaxBackwardGetWorkspaceSize, aclnnLogSoftmaxBackwardGetWorkspaceSize}) {
        uint64_t workspace = 1;
        aclOpExecutor* executor = nullptr;
        EXPECT_EQ(entry(empty.get(), ints.get(), 9, out->get(), &workspace, &executor), ACLNN_SUCCESS);
        EXPECT_EQ(workspace, 0u);
        EXPECT_EQ(entry(ints.get(), empty.get(), 9, out->get(), &workspace, &executor), ACLNN_SUCCESS);
    }
    EXPECT_EQ(run_aclnn(stream_, aclnnSoftmaxBackwardGetWorkspaceSize, aclnnSoftmaxBackward, empty.get(), empty.get(),
                        int64_t{1}, out->get()),
              ACLNN_SUCCESS);
}

TEST_F(SoftmaxBackwards, ErrorPathsInEachOpApisOrder) {
    const DeviceTensor x(TensorSpec({2, 3}, ACL_FLOAT), uniform(6, -1, 1, 1));
    const DeviceTensor half(TensorSpec({2, 3}, ACL_FLOAT16), uniform(6, -1, 1, 1));
    const DeviceTensor doubles(TensorSpec({2, 3}, ACL_DOUBLE), uniform(6, -1, 1, 1));
    const DeviceTensor wrongShape(TensorSpec({3, 2}, ACL_FLOAT), uniform(6, -1, 1, 1));
    const DeviceTensor rank9(TensorSpec({1, 1, 1, 1, 1, 1, 1, 1, 2}, ACL_FLOAT), {1.0, 2.0});
    auto out = DeviceTensor::output(TensorSpec({2, 3}, ACL_FLOAT));
    auto outWrongShape = DeviceTensor::output(TensorSpec({6}, ACL_FLOAT));
    // The op_apis check no out dtype: l0op::Cast fails on one no Cast kernel takes (561103).
    const layouttest::RawTensor outFloat8(layouttest::Described{{2, 3}, ACL_FLOAT8_E5M2});
    // The null checks name the arguments in each op_api's order.
    expect_each_null_is_161001_naming(aclnnSoftmaxBackwardGetWorkspaceSize, {"gradOutput", "output", "out"}, x.get(),
                                      x.get(), int64_t{1}, out->get());
    expect_each_null_is_161001_naming(aclnnLogSoftmaxBackwardGetWorkspaceSize, {"gradOutput", "output", "out"},
                                      x.get(), x.get(), int64_t{1}, out->get());
    for (auto entry : {aclnnSoftmaxBackwardGetWorkspaceSize, aclnnLogSoftmaxBackwardGetWorkspaceSize}) {
        SCOPED_TRACE(entry == aclnnSoftmaxBackwardGetWorkspaceSize ? "SoftmaxBackward" : "LogSoftmaxBackward");
        // DOUBLE is not in the backward lists (the forward Softmax takes it).
        expect_error_naming(phase1_of(entry, doubles.get(), doubles.get(), int64_t{1}, out->get()),
                            ACLNN_ERR_PARAM_INVALID, "DOUBLE");
        expect_error_naming(phase1_of(entry, x.get(), half.get(), int64_t{1}, out->get()), ACLNN_ERR_PARAM_INVALID,
                            "output");
        expect_error(phase1_of(entry, x.get(), wrongShape.get(), int64_t{1}, out->get()), ACLNN_ERR_PARAM_INVALID);
        expect_error(phase1_of(entry, x.get(), x.get(), int64_t{1}, outWrongShape->get()), ACLNN_ERR_PARAM_INVALID);
        expect_error_naming(phase1_of(entry, x.get(), x.get(), int64_t{2}, out->get()), ACLNN_ERR_PARAM_INVALID,
                            "provided dim 2 not in the range of input size 2");
        expect_error(phase1_of(entry, rank9.get(), rank9.get(), int64_t{1}, rank9.get()), ACLNN_ERR_PARAM_INVALID);
        expect_error_naming(phase1_of(entry, x.get(), x.get(), int64_t{1}, outFloat8.get()), ACLNN_ERR_INNER_NULLPTR,
                            "FLOAT8_E5M2");
    }
    // The order differs: SoftmaxBackward checks dim before the shapes,
    // LogSoftmaxBackward the shapes before dim.
    expect_error_naming(phase1_of(aclnnSoftmaxBackwardGetWorkspaceSize, x.get(), wrongShape.get(), int64_t{5},
                                  out->get()),
                        ACLNN_ERR_PARAM_INVALID, "dim 5");
    const std::string logMessage = expect_error_naming(
        phase1_of(aclnnLogSoftmaxBackwardGetWorkspaceSize, x.get(), wrongShape.get(), int64_t{5}, out->get()),
        ACLNN_ERR_PARAM_INVALID, "output");
    EXPECT_EQ(logMessage.find("dim 5"), std::string::npos) << logMessage;
}

// Rows are tiled over blocks by rows only: bitwise the same for 1, 2 and 8 workers.
TEST_F(SoftmaxBackwards, ManyBlocksBitwiseEqualForAnyWorkerCount) {
    const Shape shape = {600, 1000};
    const auto g = uniform(600000, -1.0, 1.0, 4);
    const auto y = uniform(600000, -5.0, 0.0, 3);
    expect_same_for_any_worker_count([&] {
        std::vector<std::vector<double>> results;
        for (const Grad grad : {Grad::kSoftmax, Grad::kLogSoftmax}) {
            const DeviceTensor gradOutput(TensorSpec(shape, ACL_FLOAT), g);
            const DeviceTensor output(TensorSpec(shape, ACL_FLOAT), y);
            auto out = DeviceTensor::output(TensorSpec(shape, ACL_FLOAT));
            EXPECT_EQ(backward(grad, gradOutput, output, 1, *out), ACLNN_SUCCESS);
            results.push_back(out->read());
        }
        return results;
    });
}

// The backward operators are the derivatives of our forward ones: for
// L = sum(w * f(x)), dL/dx_i by central differences of aclnnSoftmax /
// aclnnLogSoftmax in fp32 matches the backward operator fed with f(x) and
// gradOutput w.  With h = 1e-2 on values of order 1, the truncation error
// (h^2 f''' / 6) is ~1e-5 and fp32 rounding of L (~1e-7 * |L| / h) ~1e-5,
// so 1e-3 absolute holds with a wide margin and still catches a wrong
// formula (whose errors are of order 1e-1).
TEST_F(SoftmaxBackwards, MatchFiniteDifferencesOfTheForwardOperators) {
    const Shape shape = {3, 8};
    const auto x = uniform(24, -2.0, 2.0, 21);
    const auto w = uniform(24, -1.0, 1.0, 22);
    for (const Grad grad : {Grad::kSoftmax, Grad::kLogSoftmax}) {
        SCOPED_TRACE(name_of(grad));
        const auto forward = [&](const std::vector<double>& input) {
            const DeviceTensor self(TensorSpec(shape, ACL_FLOAT), input);
            auto out = DeviceTensor::output(TensorSpec(shape, ACL_FLOAT));
            const aclnnStatus status =
                grad == Grad::kSoftmax
                    ? run_aclnn(stream_, aclnnSoftmaxGetWorkspaceSize, aclnnSoftmax, self.get(), int64_t{1}, out->get())
                    : run_aclnn(stream_, aclnnLogSoftmaxGetWorkspaceSize, aclnnLogSoftmax, self.get(), int64_t{1},
                                out->get());
            EXPECT_EQ(status, ACLNN_SUCCESS);
            return out->read();
        };
        const auto loss = [&](const std::vector<double>& input) {
            const auto y = forward(input);
            double sum = 0;
            for (size_t i = 0; i < y.size(); ++i) sum += w[i] * y[i];
            return sum;
        };
        const double h = 1e-2;
        std::vector<double> numeric(x.size());
        for (size_t i = 0; i < x.size(); ++i) {
            auto up = x;
            auto down = x;
            up[i] += h;
            down[i] -= h;
            numeric[i] = (loss(up) - loss(down)) / (2 * h);
        }
        const DeviceTensor gradOutput(TensorSpec(shape, ACL_FLOAT), w);
        const DeviceTensor output(TensorSpec(shape, ACL_FLOAT), forward(x));
        auto out = DeviceTensor::output(TensorSpec(shape, ACL_FLOAT));
        ASSERT_EQ(backward(grad, gradOutput, output, 1, *out), ACLNN_SUCCESS);
        expect_close(out->read(), numeric, Tolerance{0.0, 1e-3});
    }
}

}  // namespace
