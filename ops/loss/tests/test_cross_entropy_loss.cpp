// aclnnCrossEntropyLoss and aclnnCrossEntropyLossGrad against double
// references from the definitions (ops-nn loss/cross_entropy_loss/docs/
// aclnnCrossEntropyLoss.md): logProb = x - log(sum(exp(x))) per row; l_n =
// -w[t] logProb[n, t] (0 ignored), with label smoothing ls: (1 - ls) l_n -
// ls / C sum_c w[c] logProb[n, c]; mean over the sum of the rows' weights.
// The A2 configuration (op_host/cross_entropy_loss_def.cpp): input FLOAT16,
// FLOAT, BF16, target INT64, weight FLOAT.  The gradient against central
// differences of the forward; every reduction, weights, ignoreIndex (all
// ignored: mean NaN), out-of-range classes (skipped), empty
// batches, 1, 2 and 8 workers bitwise identical, and the error paths.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "aclnnop/aclnn_cross_entropy_loss.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"
#include "ops/dtype_reference.hpp"
#include "ops/gradient_test_support.hpp"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

const double kNaN = std::nan("");
constexpr int64_t kIgnore = -100;

/// The reference loss and logProb of x [n, c] rows.
struct Reference {
    std::vector<double> logProb;
    std::vector<double> rowLoss;
    double total = 0;   ///< sum of the rows' losses
    double weights = 0; ///< sum of the rows' weights
};

Reference reference(const std::vector<double>& x, const std::vector<int64_t>& t, const std::vector<double>& w,
                    int64_t classes, int64_t ignoreIndex, double ls) {
    Reference r;
    for (size_t n = 0; n < t.size(); ++n) {
        const double* row = &x[n * static_cast<size_t>(classes)];
        double max = row[0];
        for (int64_t c = 1; c < classes; ++c) max = std::max(max, row[c]);
        double sum = 0;
        for (int64_t c = 0; c < classes; ++c) sum += std::exp(row[c] - max);
        const double lse = std::log(sum) + max;
        double smooth = 0;
        for (int64_t c = 0; c < classes; ++c) {
            r.logProb.push_back(row[c] - lse);
            smooth += (row[c] - lse) * (w.empty() ? 1.0 : w[static_cast<size_t>(c)]);
        }
        const bool ignored = t[n] == ignoreIndex;
        const double weight = ignored ? 0 : w.empty() ? 1.0 : w[static_cast<size_t>(t[n])];
        const double nll = ignored ? 0 : -weight * (row[t[n]] - lse);
        const double loss = ignored ? 0 : (1 - ls) * nll - ls / static_cast<double>(classes) * smooth;
        r.rowLoss.push_back(loss);
        r.total += loss;
        r.weights += weight;
    }
    return r;
}

class CrossEntropyLoss : public AclTest {
protected:
    /// The forward; returns {loss..., logProb...}.
    std::vector<double> forward(const TensorSpec& inputSpec, const std::vector<double>& x,
                                const std::vector<int64_t>& t, const std::vector<double>& w, const char* reduction,
                                int64_t ignoreIndex, double ls, uint64_t* workspace = nullptr) {
        const int64_t n = inputSpec.shape[0];
        const DeviceTensor input(inputSpec, x);
        const DeviceTensor target({{n}, ACL_INT64}, std::vector<double>(t.begin(), t.end()));
        std::unique_ptr<DeviceTensor> weight;
        if (!w.empty()) weight = std::make_unique<DeviceTensor>(TensorSpec{{inputSpec.shape[1]}, ACL_FLOAT}, w);
        const bool none = std::strcmp(reduction, "none") == 0;
        // A 0-d loss for sum (CANN's infershape says [1]; acl-cpu takes both).
        auto loss = DeviceTensor::output({none ? Shape{n} : reduction[0] == 's' ? Shape{} : Shape{1}, inputSpec.dtype});
        auto logProb = DeviceTensor::output({inputSpec.shape, inputSpec.dtype});
        auto zloss = DeviceTensor::output({{none ? n : 1}, inputSpec.dtype});
        auto lse = DeviceTensor::output({{n}, inputSpec.dtype});
        std::string text = reduction;
        const auto phase1 = [&](uint64_t* ws, aclOpExecutor** executor) {
            return aclnnCrossEntropyLossGetWorkspaceSize(input.get(), target.get(), weight ? weight->get() : nullptr,
                                                         text.data(), ignoreIndex, ls, 0.0, false, loss->get(),
                                                         logProb->get(), zloss->get(), lse->get(), ws, executor);
        };
        EXPECT_EQ(run_two_phases(phase1, aclnnCrossEntropyLoss, stream_, workspace), ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        std::vector<double> result = loss->read();
        for (double v : logProb->read()) result.push_back(v);
        return result;
    }

    void check(aclDataType dtype, const std::vector<double>& x, const std::vector<int64_t>& t,
               const std::vector<double>& w, int64_t classes, int64_t ignoreIndex, double ls) {
        const auto n = static_cast<int64_t>(t.size());
        const Reference r = reference(x, t, w, classes, ignoreIndex, ls);
        std::vector<double> logProb;
        for (double v : r.logProb) logProb.push_back(representable(v, dtype));
        const Tolerance tol{std::max(tolerance_for(dtype).rtol, 2e-5), 2e-5};
        for (const char* reduction : {"none", "mean", "sum"}) {
            SCOPED_TRACE(reduction);
            std::vector<double> expected;
            if (std::strcmp(reduction, "none") == 0) {
                for (double v : r.rowLoss) expected.push_back(representable(v, dtype));
            } else {
                expected.push_back(representable(reduction[0] == 'm' ? r.total / r.weights : r.total, dtype));
            }
            expected.insert(expected.end(), logProb.begin(), logProb.end());
            expect_close(forward({{n, classes}, dtype}, x, t, w, reduction, ignoreIndex, ls), expected, tol);
        }
    }
};

TEST_F(CrossEntropyLoss, EveryDtypeReductionWeightAndSmoothing) {
    const std::vector<int64_t> t = {0, 4, 2, kIgnore, 1, 4, 3};
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        SCOPED_TRACE(name(dtype));
        const std::vector<double> x = representable(uniform(35, -4, 4, 1), dtype);
        check(dtype, x, t, {}, 5, kIgnore, 0);
        check(dtype, x, t, uniform(5, 0.25, 2, 2), 5, kIgnore, 0);
        // A class ignored, label smoothing with weights.
        check(dtype, x, {0, 4, 2, 4, 1, 4, 3}, uniform(5, 0.25, 2, 3), 5, 4, 0.25);
        check(dtype, x, t, {}, 5, kIgnore, 1);
    }
}

// CANN's example (examples/test_aclnn_cross_entropy_loss.cpp): mean 1.0937543.
TEST_F(CrossEntropyLoss, CannExample) {
    const std::vector<double> got =
        forward({{2, 5}, ACL_FLOAT}, {5, 0, 3, 3, 7, 9, 3, 5, 2, 4}, {0, 0}, {}, "mean", kIgnore, 0);
    expect_close(std::vector<double>{got[0], got[1], got[6]}, {1.0937543, -2.159461, -0.0280476}, {1e-6, 1e-6});
}

// Every row ignored: mean 0 / 0 = NaN, sum 0; no rows: mean NaN, sum 0
// (the arch35 empty kernel), no workspace.
TEST_F(CrossEntropyLoss, AllIgnoredAndEmpty) {
    const std::vector<double> x = uniform(6, -1, 1, 4);
    EXPECT_TRUE(std::isnan(forward({{2, 3}, ACL_FLOAT}, x, {1, 1}, {}, "mean", 1, 0)[0]));
    EXPECT_EQ(forward({{2, 3}, ACL_FLOAT}, x, {1, 1}, {}, "sum", 1, 0)[0], 0);
    uint64_t workspace = 1;
    expect_close(forward({{0, 3}, ACL_FLOAT}, {}, {}, {}, "mean", kIgnore, 0, &workspace), {kNaN}, {0, 0});
    EXPECT_EQ(workspace, 0u);
    expect_close(forward({{0, 3}, ACL_BF16}, {}, {}, {}, "sum", kIgnore, 0), {0}, {0, 0});
}

// Strided input; the rows over many blocks give the same bits for 1, 2 and 8 workers.
TEST_F(CrossEntropyLoss, StridedAndWorkerCounts) {
    const std::vector<double> x = uniform(12, -2, 2, 5);
    const Reference r = reference(x, {2, 0, 1, 2}, {}, 3, kIgnore, 0);
    expect_close(std::vector<double>{forward({{4, 3}, ACL_FLOAT, {1, 4}, 1, {13}}, x, {2, 0, 1, 2}, {}, "sum",
                                             kIgnore, 0)[0]},
                 {r.total}, {1e-5, 1e-6});
    std::vector<int64_t> t;
    for (int64_t i = 0; i < 1500; ++i) t.push_back(i % 3);
    const std::vector<double> big = uniform(4500, -3, 3, 6);
    expect_same_for_any_worker_count([&] {
        return std::vector<std::vector<double>>{forward({{1500, 3}, ACL_FLOAT}, big, t, {1, 2, 3}, "mean", kIgnore,
                                                        0.1)};
    });
}

// A class outside [0, C) adds nothing, as an ignored row (see NLLLoss's test).
TEST_F(CrossEntropyLoss, OutOfRangeClassesAddNothing) {
    const std::vector<double> x = uniform(6, -1, 1, 11);
    const Reference r = reference(x, {0, kIgnore}, {}, 3, kIgnore, 0);
    const std::vector<double> got = forward({{2, 3}, ACL_FLOAT}, x, {0, 3}, {}, "mean", kIgnore, 0);
    expect_close(std::vector<double>{got[0]}, {r.total / r.weights}, {1e-6, 1e-6});
}

TEST_F(CrossEntropyLoss, Errors) {
    const DeviceTensor input({{2, 3}, ACL_FLOAT}, uniform(6, -1, 1, 1));
    const DeviceTensor target({{2}, ACL_INT64}, {0, 1});
    auto loss = DeviceTensor::output({{1}, ACL_FLOAT});
    auto logProb = DeviceTensor::output({{2, 3}, ACL_FLOAT});
    auto lse = DeviceTensor::output({{2}, ACL_FLOAT});
    char text[] = "mean";
    char* mean = text;
    // Each required tensor null in turn (weightOptional may be null).
    const char* names[] = {"input", "target", "lossOut", "logProbOut", "zlossOut", "lseForZlossOut"};
    for (size_t i = 0; i < 6; ++i) {
        const aclTensor* tensors[] = {input.get(), target.get(), loss->get(), logProb->get(), loss->get(), lse->get()};
        tensors[i] = nullptr;
        expect_error_naming(phase1_of(aclnnCrossEntropyLossGetWorkspaceSize, tensors[0], tensors[1],
                                      static_cast<const aclTensor*>(nullptr), mean, kIgnore, 0.0, 0.0, false,
                                      tensors[2], tensors[3], tensors[4], tensors[5]),
                            ACLNN_ERR_PARAM_NULLPTR, names[i]);
    }
    const auto phase1 = [&](const aclTensor* x, const aclTensor* t, const aclTensor* w, const char* reduction,
                            double ls, const aclTensor* l, const aclTensor* p) {
        std::string text = reduction;
        return phase1_of(aclnnCrossEntropyLossGetWorkspaceSize, x, t, w, text.data(), kIgnore, ls, 0.0, false, l, p,
                         loss->get(), lse->get());
    };
    const DeviceTensor target32({{2}, ACL_INT32}, {0, 1});
    expect_error_naming(phase1(input.get(), target32.get(), nullptr, "mean", 0, loss->get(), logProb->get()),
                        ACLNN_ERR_PARAM_INVALID, "target");
    const DeviceTensor weight16({{3}, ACL_FLOAT16}, {1, 1, 1});
    expect_error_naming(phase1(input.get(), target.get(), weight16.get(), "mean", 0, loss->get(), logProb->get()),
                        ACLNN_ERR_PARAM_INVALID, "weight");
    auto logProb16 = DeviceTensor::output({{2, 3}, ACL_FLOAT16});
    expect_error(phase1(input.get(), target.get(), nullptr, "mean", 0, loss->get(), logProb16->get()),
                 ACLNN_ERR_PARAM_INVALID);
    const auto tiling = [&](aclnnStatus status, const char* words) {
        expect_error_naming(status, ACLNN_ERR_INNER_TILING_ERROR, words);
    };
    tiling(phase1(input.get(), target.get(), nullptr, "avg", 0, loss->get(), logProb->get()), "reduction");
    tiling(phase1(input.get(), target.get(), nullptr, "mean", 1.5, loss->get(), logProb->get()), "label_smoothing");
    const DeviceTensor target3({{3}, ACL_INT64}, {0, 1, 2});
    tiling(phase1(input.get(), target3.get(), nullptr, "mean", 0, loss->get(), logProb->get()), "dim 0");
    const DeviceTensor weight4({{4}, ACL_FLOAT}, {1, 1, 1, 1});
    tiling(phase1(input.get(), target.get(), weight4.get(), "mean", 0, loss->get(), logProb->get()), "weight");
    const DeviceTensor input3({{2, 3, 1}, ACL_FLOAT}, uniform(6, -1, 1, 1));
    tiling(phase1(input3.get(), target.get(), nullptr, "mean", 0, loss->get(), logProb->get()), "2-dimensional");
    tiling(phase1(input.get(), target.get(), nullptr, "none", 0, loss->get(), logProb->get()), "lossOut");
    const DeviceTensor noClasses({{2, 0}, ACL_FLOAT});
    tiling(phase1(noClasses.get(), target.get(), nullptr, "mean", 0, loss->get(), logProb->get()), "C-dimension");
    // Not written on A2, but an accepted view must be in its storage (acl-cpu's guard; found by fuzz_reduction).
    const DeviceTensor outside({{2000, 3}, ACL_FLOAT, {3, 1}, 0, {1}});
    expect_error_naming(phase1_of(aclnnCrossEntropyLossGetWorkspaceSize, input.get(), target.get(),
                                  static_cast<const aclTensor*>(nullptr), mean, kIgnore, 0.0, 0.0, false,
                                  static_cast<const aclTensor*>(loss->get()),
                                  static_cast<const aclTensor*>(logProb->get()), outside.get(),
                                  static_cast<const aclTensor*>(lse->get())),
                        ACLNN_ERR_PARAM_INVALID, "zlossOut");
}

// ---- CrossEntropyLossGrad ----------------------------------------------------

class CrossEntropyLossGrad : public CrossEntropyLoss {
protected:
    std::vector<double> grad(const TensorSpec& spec, const std::vector<double>& logProb,
                             const std::vector<int64_t>& t, const std::vector<double>& w,
                             const std::vector<double>& dy, const char* reduction, int64_t ignoreIndex) {
        const int64_t n = spec.shape[0];
        const bool none = std::strcmp(reduction, "none") == 0;
        const DeviceTensor gradLoss({none ? Shape{n} : Shape{}, spec.dtype}, dy);
        const DeviceTensor lp(spec, logProb);
        const DeviceTensor target({{n}, ACL_INT64}, std::vector<double>(t.begin(), t.end()));
        std::unique_ptr<DeviceTensor> weight;
        if (!w.empty()) weight = std::make_unique<DeviceTensor>(TensorSpec{{spec.shape[1]}, ACL_FLOAT}, w);
        auto out = DeviceTensor::output({spec.shape, spec.dtype});
        std::string text = reduction;
        EXPECT_EQ(run_aclnn(stream_, aclnnCrossEntropyLossGradGetWorkspaceSize, aclnnCrossEntropyLossGrad,
                            gradLoss.get(), lp.get(), target.get(), weight ? weight->get() : nullptr,
                            static_cast<const aclTensor*>(nullptr), static_cast<const aclTensor*>(nullptr),
                            text.data(), ignoreIndex, 0.0, 0.0, static_cast<const aclTensor*>(out->get())),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        return out->read();
    }
};

// The reference: exp(logProb) s - s at the class, s = w[t] g.
TEST_F(CrossEntropyLossGrad, EveryDtypeAndReduction) {
    const std::vector<int64_t> t = {1, kIgnore, 3, 0, 3};
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        SCOPED_TRACE(name(dtype));
        const Reference r = reference(uniform(20, -2, 2, 7), t, {}, 4, kIgnore, 0);
        const std::vector<double> logProb = representable(r.logProb, dtype);
        const std::vector<double> w = uniform(4, 0.5, 2, 8);
        for (const char* reduction : {"none", "mean", "sum"}) {
            SCOPED_TRACE(reduction);
            const bool none = reduction[0] == 'n';
            const std::vector<double> dy =
                representable(none ? uniform(5, -1, 1, 9) : std::vector<double>{0.75}, dtype);
            double weights = 0;
            for (int64_t c : t) weights += c == kIgnore ? 0 : w[static_cast<size_t>(c)];
            std::vector<double> expected;
            for (size_t n = 0; n < t.size(); ++n) {
                const double g = none ? dy[n] : reduction[0] == 'm' ? dy[0] / weights : dy[0];
                const double s = t[n] == kIgnore ? 0 : w[static_cast<size_t>(t[n])] * g;
                for (int64_t c = 0; c < 4; ++c) {
                    const double e = std::exp(logProb[n * 4 + static_cast<size_t>(c)]) * s;
                    expected.push_back(representable(c == t[n] ? e - s : e, dtype));
                }
            }
            expect_close(grad({{5, 4}, dtype}, logProb, t, w, dy, reduction, kIgnore), expected,
                         {tolerance_for(dtype).rtol, 1e-6});
        }
    }
}

// The gradient of the mean loss against central differences of our forward.
TEST_F(CrossEntropyLossGrad, MatchesCentralDifferencesOfTheForward) {
    const std::vector<double> x = uniform(12, -2, 2, 10);
    const std::vector<int64_t> t = {2, 0, kIgnore};
    const std::vector<double> w = {0.5, 1, 2, 1.5};
    const Reference r = reference(x, t, w, 4, kIgnore, 0);
    const double h = 1.0 / 64;
    std::vector<double> differences;
    for (size_t i = 0; i < x.size(); ++i) {
        std::vector<double> plus = x, minus = x;
        plus[i] += h;
        minus[i] -= h;
        differences.push_back((forward({{3, 4}, ACL_FLOAT}, plus, t, w, "mean", kIgnore, 0)[0] -
                               forward({{3, 4}, ACL_FLOAT}, minus, t, w, "mean", kIgnore, 0)[0]) /
                              (2 * h));
    }
    expect_close(grad({{3, 4}, ACL_FLOAT}, r.logProb, t, w, {1}, "mean", kIgnore), differences,
                 kCentralDifferenceTolerance);
}

TEST_F(CrossEntropyLossGrad, Errors) {
    const DeviceTensor dy({{}, ACL_FLOAT}, {1});
    const DeviceTensor logProb({{2, 3}, ACL_FLOAT}, uniform(6, -3, -1, 1));
    const DeviceTensor target({{2}, ACL_INT64}, {0, 1});
    auto out = DeviceTensor::output({{2, 3}, ACL_FLOAT});
    char text[] = "mean";
    char* mean = text;
    const aclTensor* none = nullptr;
    const aclTensor* o = out->get();
    const char* names[] = {"gradLoss", "logProb", "target", "out"};
    for (size_t i = 0; i < 4; ++i) {
        const aclTensor* tensors[] = {dy.get(), logProb.get(), target.get(), o};
        tensors[i] = nullptr;
        expect_error_naming(phase1_of(aclnnCrossEntropyLossGradGetWorkspaceSize, tensors[0], tensors[1], tensors[2],
                                      none, none, none, mean, kIgnore, 0.0, 0.0, tensors[3]),
                            ACLNN_ERR_PARAM_NULLPTR, names[i]);
    }
    const auto phase1 = [&](const aclTensor* g, const char* reduction, double ls, const aclTensor* output) {
        std::string text = reduction;
        return phase1_of(aclnnCrossEntropyLossGradGetWorkspaceSize, g, logProb.get(), target.get(), none, none, none,
                         text.data(), kIgnore, ls, 0.0, output);
    };
    const DeviceTensor dy16({{}, ACL_FLOAT16}, {1});
    expect_error_naming(phase1(dy16.get(), "mean", 0, o), ACLNN_ERR_PARAM_INVALID, "gradLoss");
    expect_error_naming(phase1(dy.get(), "mean", 0.1, o), ACLNN_ERR_INNER_TILING_ERROR, "label_smoothing");
    expect_error_naming(phase1(dy.get(), "none", 0, o), ACLNN_ERR_INNER_TILING_ERROR, "gradLoss");
    expect_error_naming(phase1(dy.get(), "max", 0, o), ACLNN_ERR_INNER_TILING_ERROR, "reduction");
    auto wrong = DeviceTensor::output({{3, 2}, ACL_FLOAT});
    expect_error_naming(phase1(dy.get(), "sum", 0, wrong->get()), ACLNN_ERR_INNER_TILING_ERROR, "out");
}

}  // namespace
