// aclnnApplyAdamWV2 against a double-precision reference of
// torch.optim.AdamW's documented update (which CANN's doc,
// optim/apply_adam_w_v2/docs/aclnnApplyAdamWV2.md, restates):
//   theta -= lr * weightDecay * theta
//   m = beta1 * m + (1 - beta1) * g;  v = beta2 * v + (1 - beta2) * g^2
//   vmax = max(vmax, v) (amsgrad);  t = step + 1 (step counts the steps taken)
//   theta -= lr * (m / (1 - beta1^t)) / (sqrt(v or vmax) / sqrt(1 - beta2^t) + eps)
// with g = -grad when maximize.  Several steps in a row, the state carried
// in m, v (and maxGradNorm) on the device; each step is checked against the
// reference applied to the values the device held before it.  Every dtype of
// the A2 list (FLOAT, FLOAT16, BF16), CANN's mixed forms, FLOAT and INT64
// steps, strided views, empty tensors, results identical for 1, 2 and 8
// workers, and every error path with its code and message.
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_apply_adam_w_v2.h"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

using ApplyAdamWV2 = AclTest;

struct Hyper {
    float lr = 0.01f;
    float beta1 = 0.9f;
    float beta2 = 0.999f;
    float weightDecay = 0.05f;
    float eps = 1e-8f;
    bool amsgrad = false;
    bool maximize = false;
};

/// The optimiser's state on the device.
struct State {
    std::unique_ptr<DeviceTensor> var, m, v, maxGradNorm, grad, step;
};

/// The dtypes of var, m, v, grad and maxGradNorm.
struct Dtypes {
    aclDataType var = ACL_FLOAT, m = ACL_FLOAT, v = ACL_FLOAT, grad = ACL_FLOAT, max = ACL_FLOAT;
};

State make_state(const Shape& shape, const Dtypes& dtypes, aclDataType stepDtype, bool withMax,
                 const Shape& strides = {}) {
    const auto n = static_cast<size_t>(numel(shape));
    State s;
    s.var = std::make_unique<DeviceTensor>(TensorSpec(shape, dtypes.var, strides), uniform(n, -2, 2, 1));
    s.m = std::make_unique<DeviceTensor>(TensorSpec(shape, dtypes.m), uniform(n, -0.1, 0.1, 2));
    s.v = std::make_unique<DeviceTensor>(TensorSpec(shape, dtypes.v), uniform(n, 0, 0.01, 3));
    if (withMax) s.maxGradNorm = std::make_unique<DeviceTensor>(TensorSpec(shape, dtypes.max), uniform(n, 0, 0.02, 4));
    s.grad = std::make_unique<DeviceTensor>(TensorSpec(shape, dtypes.grad), uniform(n, -1, 1, 5));
    s.step = std::make_unique<DeviceTensor>(TensorSpec({1}, stepDtype), std::vector<double>{0});
    return s;
}

aclnnStatus adam_w(aclrtStream stream, const State& s, const Hyper& h) {
    return run_aclnn(stream, aclnnApplyAdamWV2GetWorkspaceSize, aclnnApplyAdamWV2, s.var->get(), s.m->get(),
                     s.v->get(), s.maxGradNorm ? s.maxGradNorm->get() : nullptr,
                     static_cast<const aclTensor*>(s.grad->get()), static_cast<const aclTensor*>(s.step->get()),
                     h.lr, h.beta1, h.beta2, h.weightDecay, h.eps, h.amsgrad, h.maximize);
}

struct Values {
    std::vector<double> var, m, v, max;
};

Values read_state(const State& s) {
    return {s.var->read(), s.m->read(), s.v->read(), s.maxGradNorm ? s.maxGradNorm->read() : std::vector<double>{}};
}

/// torch.optim.AdamW's step in double from `before`.
Values reference_step(const Values& before, const std::vector<double>& grad, double step, const Hyper& h) {
    Values after = before;
    const double t = step + 1;
    const double bc1 = 1 - std::pow(double{h.beta1}, t);
    const double bc2 = 1 - std::pow(double{h.beta2}, t);
    for (size_t i = 0; i < grad.size(); ++i) {
        const double g = h.maximize ? -grad[i] : grad[i];
        double theta = before.var[i] * (1 - double{h.lr} * h.weightDecay);
        after.m[i] = h.beta1 * before.m[i] + (1 - double{h.beta1}) * g;
        after.v[i] = h.beta2 * before.v[i] + (1 - double{h.beta2}) * g * g;
        double second = after.v[i];
        if (h.amsgrad) second = after.max[i] = std::max(before.max[i], after.v[i]);
        theta -= h.lr * (after.m[i] / bc1) / (std::sqrt(second / bc2) + h.eps);
        after.var[i] = theta;
    }
    return after;
}

/// fp32 arithmetic of terms around 1 (var) and of m, v; an FLOAT16/BF16
/// tensor's half ulp on top.
Tolerance tolerance(aclDataType dtype) {
    Tolerance t = tolerance_for(dtype);
    t.atol = std::max(t.atol, 1e-6);
    return t;
}

/// `steps` steps, each checked against the reference from the device's state before it.
void run_steps(aclrtStream stream, State& s, const Hyper& h, const Dtypes& dtypes, int steps) {
    for (int step = 0; step < steps; ++step) {
        SCOPED_TRACE("step " + std::to_string(step));
        s.step->write({static_cast<double>(step)});
        s.grad->write(uniform(static_cast<size_t>(s.grad->elements()), -1, 1, 40 + step));
        const Values before = read_state(s);
        const Values expected = reference_step(before, s.grad->read(), step, h);
        ASSERT_EQ(adam_w(stream, s, h), ACLNN_SUCCESS);
        const Values after = read_state(s);
        expect_close(after.var, expected.var, tolerance(dtypes.var));
        expect_close(after.m, expected.m, tolerance(dtypes.m));
        expect_close(after.v, expected.v, tolerance(dtypes.v));
        if (h.amsgrad) expect_close(after.max, expected.max, tolerance(dtypes.max));
    }
}

TEST_F(ApplyAdamWV2, StepsInARowEveryDtype) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        SCOPED_TRACE(dtype);
        const Dtypes dtypes{dtype, dtype, dtype, dtype, dtype};
        State s = make_state({7, 33}, dtypes, ACL_FLOAT, false);
        run_steps(stream_, s, Hyper{}, dtypes, 5);
    }
}

TEST_F(ApplyAdamWV2, AmsgradMaximizeAndNoWeightDecay) {
    for (bool maximize : {false, true}) {
        for (aclDataType dtype : {ACL_FLOAT, ACL_BF16}) {
            SCOPED_TRACE(std::to_string(maximize) + " dtype " + std::to_string(dtype));
            const Dtypes dtypes{dtype, dtype, dtype, dtype, dtype};
            Hyper h;
            h.amsgrad = true;
            h.maximize = maximize;
            h.weightDecay = maximize ? 0.0f : 0.1f;
            State s = make_state({301}, dtypes, ACL_INT64, true);
            run_steps(stream_, s, h, dtypes, 4);
        }
    }
}

/// A FLOAT var, m, v with a FLOAT16 or BF16 grad and maxGradNorm (the A2
/// MixType kernel), and a mix CANN casts to FLOAT first: each tensor keeps
/// its dtype.
TEST_F(ApplyAdamWV2, MixedDtypes) {
    Hyper h;
    h.amsgrad = true;
    for (const Dtypes& dtypes : {Dtypes{ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT16, ACL_FLOAT16},
                                 Dtypes{ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_BF16, ACL_BF16},
                                 Dtypes{ACL_BF16, ACL_FLOAT, ACL_FLOAT16, ACL_FLOAT, ACL_BF16}}) {
        State s = make_state({5, 6}, dtypes, ACL_FLOAT, true);
        run_steps(stream_, s, h, dtypes, 3);
    }
}

/// A transposed var (CANN: Contiguous, then ViewCopy back): updated through
/// its view, the storage around it untouched.
TEST_F(ApplyAdamWV2, StridedVar) {
    const Dtypes dtypes;
    State s = make_state({6, 4}, dtypes, ACL_FLOAT, false, {1, 6});
    run_steps(stream_, s, Hyper{}, dtypes, 2);
    EXPECT_EQ(s.var->bytes_changed_outside_view(), 0u);
}

/// Without amsgrad a given maxGradNorm is neither read nor written.
TEST_F(ApplyAdamWV2, MaxGradNormIgnoredWithoutAmsgrad) {
    const Dtypes dtypes;
    State s = make_state({10}, dtypes, ACL_FLOAT, true);
    const std::vector<double> before = s.maxGradNorm->read();
    run_steps(stream_, s, Hyper{}, dtypes, 1);
    EXPECT_EQ(s.maxGradNorm->read(), before);
}

TEST_F(ApplyAdamWV2, EmptyTensorsLaunchNothing) {
    State s = make_state({0, 3}, Dtypes{}, ACL_FLOAT, false);
    uint64_t workspace = 5;
    EXPECT_EQ(run_two_phases(
                  [&](uint64_t* size, aclOpExecutor** executor) {
                      return aclnnApplyAdamWV2GetWorkspaceSize(s.var->get(), s.m->get(), s.v->get(), nullptr,
                                                               s.grad->get(), s.step->get(), 0.1f, 0.9f, 0.99f, 0.0f,
                                                               1e-8f, false, false, size, executor);
                  },
                  aclnnApplyAdamWV2, stream_, &workspace),
              ACLNN_SUCCESS);
    EXPECT_EQ(workspace, 0u);
}

TEST_F(ApplyAdamWV2, ManyBlocksAndDeterministicAcrossWorkerCounts) {
    expect_same_for_any_worker_count([&] {
        const Dtypes dtypes{ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_BF16, ACL_BF16};
        Hyper h;
        h.amsgrad = true;
        State s = make_state({1000, 131}, dtypes, ACL_FLOAT, true);
        EXPECT_EQ(adam_w(stream_, s, h), ACLNN_SUCCESS);
        const Values after = read_state(s);
        return std::vector<std::vector<double>>{after.var, after.m, after.v, after.max};
    });
}

// ---- error paths ----------------------------------------------------------

aclnnStatus phase1(const aclTensor* var, const aclTensor* m, const aclTensor* v, const aclTensor* max,
                   const aclTensor* grad, const aclTensor* step, bool amsgrad) {
    return phase1_of(aclnnApplyAdamWV2GetWorkspaceSize, const_cast<aclTensor*>(var), const_cast<aclTensor*>(m),
                     const_cast<aclTensor*>(v), const_cast<aclTensor*>(max), grad, step, 0.1f, 0.9f, 0.99f, 0.0f,
                     1e-8f, amsgrad, false);
}

TEST_F(ApplyAdamWV2, NullArgumentsAre161001) {
    State s = make_state({4}, Dtypes{}, ACL_FLOAT, true);
    const aclTensor *var = s.var->get(), *m = s.m->get(), *v = s.v->get(), *max = s.maxGradNorm->get(),
                    *grad = s.grad->get(), *step = s.step->get();
    expect_error_naming(phase1(nullptr, m, v, max, grad, step, true), ACLNN_ERR_PARAM_NULLPTR, "varRef");
    expect_error_naming(phase1(var, nullptr, v, max, grad, step, true), ACLNN_ERR_PARAM_NULLPTR, "mRef");
    expect_error_naming(phase1(var, m, nullptr, max, grad, step, true), ACLNN_ERR_PARAM_NULLPTR, "vRef");
    expect_error_naming(phase1(var, m, v, nullptr, grad, step, true), ACLNN_ERR_PARAM_NULLPTR,
                        "maxGradNormOptionalRef");
    expect_error_naming(phase1(var, m, v, max, nullptr, step, true), ACLNN_ERR_PARAM_NULLPTR, "grad");
    expect_error_naming(phase1(var, m, v, max, grad, nullptr, true), ACLNN_ERR_PARAM_NULLPTR, "step");
    EXPECT_EQ(phase1(var, m, v, nullptr, grad, step, false), ACLNN_SUCCESS);
    uint64_t size = 0;
    EXPECT_EQ(aclnnApplyAdamWV2GetWorkspaceSize(s.var->get(), s.m->get(), s.v->get(), nullptr, grad, step, 0.1f, 0.9f,
                                                0.99f, 0.0f, 1e-8f, false, false, &size, nullptr),
              ACLNN_ERR_PARAM_NULLPTR);
}

TEST_F(ApplyAdamWV2, InvalidArgumentsAre161002) {
    State s = make_state({4}, Dtypes{}, ACL_FLOAT, true);
    const aclTensor *var = s.var->get(), *m = s.m->get(), *v = s.v->get(), *max = s.maxGradNorm->get(),
                    *grad = s.grad->get(), *step = s.step->get();
    const DeviceTensor doubles(TensorSpec({4}, ACL_DOUBLE), uniform(4, 0, 1, 1));
    const DeviceTensor int32Step(TensorSpec({1}, ACL_INT32), {0});
    const DeviceTensor twoSteps(TensorSpec({2}, ACL_FLOAT), {0, 0});
    const DeviceTensor longer(TensorSpec({5}, ACL_FLOAT), uniform(5, 0, 1, 1));
    expect_error_naming(phase1(doubles.get(), m, v, max, grad, step, true), ACLNN_ERR_PARAM_INVALID, "DOUBLE");
    expect_error_naming(phase1(var, m, doubles.get(), max, grad, step, true), ACLNN_ERR_PARAM_INVALID, "DOUBLE");
    expect_error_naming(phase1(var, m, v, doubles.get(), grad, step, true), ACLNN_ERR_PARAM_INVALID, "DOUBLE");
    expect_error_naming(phase1(var, m, v, max, doubles.get(), step, true), ACLNN_ERR_PARAM_INVALID, "DOUBLE");
    expect_error_naming(phase1(var, m, v, max, grad, int32Step.get(), true), ACLNN_ERR_PARAM_INVALID, "INT32");
    expect_error_naming(phase1(var, longer.get(), v, max, grad, step, true), ACLNN_ERR_PARAM_INVALID, "mRef");
    expect_error_naming(phase1(var, m, v, longer.get(), grad, step, true), ACLNN_ERR_PARAM_INVALID,
                        "maxGradNormOptionalRef");
    expect_error_naming(phase1(var, m, v, max, longer.get(), step, true), ACLNN_ERR_PARAM_INVALID, "grad");
    expect_error_naming(phase1(var, m, v, max, grad, twoSteps.get(), true), ACLNN_ERR_PARAM_INVALID,
                        "Numel of step must be 1");
    // acl-cpu's guard: a view reaching past its storage and device block, maxGradNorm's even
    // without amsgrad (CANN copies it back), an empty var's neighbours too.
    const DeviceTensor outside(TensorSpec({4}, ACL_FLOAT, {1}, 64, {2}));
    expect_error_naming(phase1(var, m, v, outside.get(), grad, step, false), ACLNN_ERR_PARAM_INVALID,
                        "maxGradNormOptionalRef");
    const DeviceTensor empty(TensorSpec({0}, ACL_FLOAT));
    const DeviceTensor stepOutside(TensorSpec({1}, ACL_FLOAT, {1}, 64, {1}));
    expect_error_naming(phase1(empty.get(), empty.get(), empty.get(), nullptr, empty.get(), stepOutside.get(), false),
                        ACLNN_ERR_PARAM_INVALID, "step");
}

}  // namespace
