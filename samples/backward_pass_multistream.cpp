// A small backward pass on two streams joined by an event, timed with events.
//
// Attention stream:  dScores = ScaledMaskedSoftmaxBackward(dProbs, probs, mask, 0.125)
//                    dPre    = SoftplusBackward(dScores, pre, beta 1, threshold 20)
// Activation stream: dH, dW  = PreluBackward(dAct, h, w)
//                    dH2     = HardshrinkBackward(dH, h2, lambd 0.5)
//                    record `activationDone`
// Attention stream:  wait `activationDone`
//                    dLogit  = LogitGrad(probs, dH2, eps -1)
//
// Every tensor is float [2, 4, 8, 32] (w is [4], channel = dim 1).  The host
// checks every result against a double-precision reference and exits
// non-zero on a mismatch.  C++11, as CANN's samples are.
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_hardshrink_backward.h"
#include "aclnnop/aclnn_logit_grad.h"
#include "aclnnop/aclnn_prelu_backward.h"
#include "aclnnop/aclnn_scaled_masked_softmax_backward.h"
#include "aclnnop/aclnn_softplus_backward.h"
#include "sample_common.h"

namespace {

const int64_t kB = 2, kN = 4, kS1 = 8, kS2 = 32;
const int64_t kCount = kB * kN * kS1 * kS2;

/// A tensor made by CreateAclTensor; it and its device memory are released
/// when it goes out of scope.
class Tensor {
public:
    /// ok() tells whether creation succeeded: CreateAclTensor sets the tensor last.
    template <typename T>
    Tensor(const std::vector<T>& values, const std::vector<int64_t>& shape, aclDataType dtype)
        : count_(GetShapeSize(shape)) {
        CreateAclTensor(values, shape, &device_, dtype, &tensor_);
    }
    ~Tensor() {
        aclDestroyTensor(tensor_);
        if (device_ != nullptr) aclrtFree(device_);
    }

    bool ok() const { return tensor_ != nullptr; }
    aclTensor* get() const { return tensor_; }
    int download(std::vector<float>* values) const { return CopyToHost(device_, count_, values); }

private:
    Tensor(const Tensor&) = delete;
    Tensor& operator=(const Tensor&) = delete;

    int64_t count_;
    void* device_ = nullptr;
    aclTensor* tensor_ = nullptr;
};

/// Deterministic values in [lo, hi).
std::vector<float> values_in(int64_t n, float lo, float hi, unsigned seed) {
    std::vector<float> v(static_cast<size_t>(n));
    unsigned state = seed * 2654435761u + 1u;
    for (size_t i = 0; i < v.size(); ++i) {
        state = state * 1664525u + 1013904223u;
        v[i] = lo + (hi - lo) * static_cast<float>(state >> 8) / 16777216.0f;
    }
    return v;
}

/// Counts the values of got not IsClose to expected, printing the first few
/// of them and a summary line.
int count_wrong(const char* name, const std::vector<float>& got, const std::vector<double>& expected, double tol) {
    int wrong = 0;
    for (size_t i = 0; i < got.size(); ++i) {
        if (!IsClose(got[i], expected[i], tol)) {
            if (wrong < 3) std::printf("%s[%zu] = %f, expected %f\n", name, i, got[i], expected[i]);
            ++wrong;
        }
    }
    std::printf("%-8s %zu values checked, %d wrong\n", name, got.size(), wrong);
    return wrong;
}

}  // namespace

int main() {
    const int32_t deviceId = 0;
    aclrtStream attention = nullptr;
    aclrtStream activation = nullptr;
    CHECK_ACL(Init(deviceId, &attention));
    CHECK_ACL(aclrtCreateStream(&activation));
    aclrtEvent start = nullptr;
    aclrtEvent end = nullptr;
    aclrtEvent activationDone = nullptr;
    CHECK_ACL(aclrtCreateEventWithFlag(&start, ACL_EVENT_TIME_LINE));
    CHECK_ACL(aclrtCreateEventWithFlag(&end, ACL_EVENT_TIME_LINE));
    CHECK_ACL(aclrtCreateEventWithFlag(&activationDone, ACL_EVENT_SYNC));

    int wrong = 0;
    {
        const std::vector<int64_t> shape = {kB, kN, kS1, kS2};
        const std::vector<int64_t> channels = {kN};
        const std::vector<float> zeros(static_cast<size_t>(kCount), 0.0f);
        // probs: rows of a softmax over S2.
        std::vector<float> probs = values_in(kCount, 0.5f, 1.5f, 1);
        for (int64_t r = 0; r < kCount / kS2; ++r) {
            float total = 0.0f;
            for (int64_t i = 0; i < kS2; ++i) total += probs[static_cast<size_t>(r * kS2 + i)];
            for (int64_t i = 0; i < kS2; ++i) probs[static_cast<size_t>(r * kS2 + i)] /= total;
        }
        const std::vector<float> maskDraw = values_in(kCount, 0.0f, 1.0f, 2);
        std::vector<char> maskValues(maskDraw.size());
        for (size_t i = 0; i < maskDraw.size(); ++i) maskValues[i] = maskDraw[i] < 0.2f;
        const std::vector<float> dProbsValues = values_in(kCount, -1.0f, 1.0f, 3);
        const std::vector<float> preValues = values_in(kCount, -4.0f, 4.0f, 4);
        const std::vector<float> dActValues = values_in(kCount, -1.0f, 1.0f, 5);
        const std::vector<float> hValues = values_in(kCount, -2.0f, 2.0f, 6);
        const std::vector<float> wValues = values_in(kN, 0.1f, 0.4f, 7);
        const std::vector<float> h2Values = values_in(kCount, -1.0f, 1.0f, 8);

        Tensor dProbs(dProbsValues, shape, ACL_FLOAT);
        Tensor y(probs, shape, ACL_FLOAT);
        Tensor mask(maskValues, shape, ACL_BOOL);
        Tensor pre(preValues, shape, ACL_FLOAT);
        Tensor dAct(dActValues, shape, ACL_FLOAT);
        Tensor h(hValues, shape, ACL_FLOAT);
        Tensor w(wValues, channels, ACL_FLOAT);
        Tensor h2(h2Values, shape, ACL_FLOAT);
        Tensor dScores(zeros, shape, ACL_FLOAT);
        Tensor dPre(zeros, shape, ACL_FLOAT);
        Tensor dH(zeros, shape, ACL_FLOAT);
        Tensor dW(std::vector<float>(static_cast<size_t>(kN), 0.0f), channels, ACL_FLOAT);
        Tensor dH2(zeros, shape, ACL_FLOAT);
        Tensor dLogit(zeros, shape, ACL_FLOAT);
        const Tensor* all[] = {&dProbs, &y, &mask, &pre, &dAct, &h, &w, &h2, &dScores, &dPre, &dH, &dW, &dH2, &dLogit};
        for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) {
            if (!all[i]->ok()) {
                std::printf("creating tensor %zu failed\n", i);
                return 1;
            }
        }
        float betaValue = 1.0f;
        float thresholdValue = 20.0f;
        float lambdValue = 0.5f;
        aclScalar* beta = aclCreateScalar(&betaValue, ACL_FLOAT);
        aclScalar* threshold = aclCreateScalar(&thresholdValue, ACL_FLOAT);
        aclScalar* lambd = aclCreateScalar(&lambdValue, ACL_FLOAT);

        uint64_t ws = 0;
        aclOpExecutor* ex = nullptr;
        // One workspace per launch, in launch order; all live until both streams are synchronised.
        void* workspaces[5] = {};
        CHECK_ACL(aclrtRecordEvent(start, attention));
        // Attention stream.
        CHECK_ACL(aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(dProbs.get(), y.get(), mask.get(), 0.125, false,
                                                                   dScores.get(), &ws, &ex));
        CHECK_ACL(LaunchAclnn(aclnnScaledMaskedSoftmaxBackward, ws, ex, attention, &workspaces[0]));
        CHECK_ACL(
            aclnnSoftplusBackwardGetWorkspaceSize(dScores.get(), pre.get(), beta, threshold, dPre.get(), &ws, &ex));
        CHECK_ACL(LaunchAclnn(aclnnSoftplusBackward, ws, ex, attention, &workspaces[1]));
        // Activation stream.
        CHECK_ACL(aclnnPreluBackwardGetWorkspaceSize(dAct.get(), h.get(), w.get(), dH.get(), dW.get(), &ws, &ex));
        CHECK_ACL(LaunchAclnn(aclnnPreluBackward, ws, ex, activation, &workspaces[2]));
        CHECK_ACL(aclnnHardshrinkBackwardGetWorkspaceSize(dH.get(), h2.get(), lambd, dH2.get(), &ws, &ex));
        CHECK_ACL(LaunchAclnn(aclnnHardshrinkBackward, ws, ex, activation, &workspaces[3]));
        CHECK_ACL(aclrtRecordEvent(activationDone, activation));
        // Join: LogitGrad on the attention stream consumes the activation stream's dH2.
        CHECK_ACL(aclrtStreamWaitEvent(attention, activationDone));
        CHECK_ACL(aclnnLogitGradGetWorkspaceSize(y.get(), dH2.get(), -1.0, dLogit.get(), &ws, &ex));
        CHECK_ACL(LaunchAclnn(aclnnLogitGrad, ws, ex, attention, &workspaces[4]));
        CHECK_ACL(aclrtRecordEvent(end, attention));

        CHECK_ACL(aclrtSynchronizeStream(attention));
        CHECK_ACL(aclrtSynchronizeStream(activation));
        float elapsed = 0.0f;
        CHECK_ACL(aclrtEventElapsedTime(&elapsed, start, end));
        std::printf("backward pass: %.3f ms on two streams\n", elapsed);
        for (void* workspace : workspaces) {
            if (workspace != nullptr) aclrtFree(workspace);
        }
        aclDestroyScalar(beta);
        aclDestroyScalar(threshold);
        aclDestroyScalar(lambd);

        std::vector<float> dScoresValues, dPreValues, dHValues, dWValues, dH2Values, dLogitValues;
        CHECK_ACL(dScores.download(&dScoresValues));
        CHECK_ACL(dPre.download(&dPreValues));
        CHECK_ACL(dH.download(&dHValues));
        CHECK_ACL(dW.download(&dWValues));
        CHECK_ACL(dH2.download(&dH2Values));
        CHECK_ACL(dLogit.download(&dLogitValues));

        // References, in double, from the inputs as the device saw them.
        std::vector<double> eScores(static_cast<size_t>(kCount));
        std::vector<double> ePre(eScores.size());
        std::vector<double> eH(eScores.size());
        std::vector<double> eW(static_cast<size_t>(kN), 0.0);
        std::vector<double> eH2(eScores.size());
        std::vector<double> eLogit(eScores.size());
        for (int64_t r = 0; r < kCount / kS2; ++r) {
            double sum = 0.0;
            for (int64_t i = 0; i < kS2; ++i) {
                const size_t k = static_cast<size_t>(r * kS2 + i);
                sum += static_cast<double>(dProbsValues[k]) * probs[k];
            }
            for (int64_t i = 0; i < kS2; ++i) {
                const size_t k = static_cast<size_t>(r * kS2 + i);
                eScores[k] = maskValues[k] ? 0.0 : 0.125 * (dProbsValues[k] * probs[k] - sum * probs[k]);
            }
        }
        for (size_t k = 0; k < eScores.size(); ++k) {
            const double x = preValues[k];
            ePre[k] = x > 20.0 ? dScoresValues[k] : dScoresValues[k] / (1.0 + std::exp(-x));
            const size_t c = k / static_cast<size_t>(kS1 * kS2) % static_cast<size_t>(kN);
            const double hv = hValues[k];
            const double dy = dActValues[k];
            eH[k] = hv > 0 ? dy : wValues[c] * dy;
            if (hv <= 0) eW[c] += hv * dy;
            eH2[k] = std::fabs(h2Values[k]) <= 0.5 ? 0.0 : dHValues[k];
            const double p = probs[k];
            eLogit[k] = dH2Values[k] / (p * (1.0 - p));
        }
        wrong += count_wrong("dScores", dScoresValues, eScores, 1e-5);
        wrong += count_wrong("dPre", dPreValues, ePre, 1e-5);
        wrong += count_wrong("dH", dHValues, eH, 1e-6);
        wrong += count_wrong("dW", dWValues, eW, 1e-4);
        wrong += count_wrong("dH2", dH2Values, eH2, 1e-6);
        wrong += count_wrong("dLogit", dLogitValues, eLogit, 1e-5);
    }

    CHECK_ACL(aclrtDestroyEvent(start));
    CHECK_ACL(aclrtDestroyEvent(end));
    CHECK_ACL(aclrtDestroyEvent(activationDone));
    CHECK_ACL(aclrtDestroyStream(attention));
    CHECK_ACL(aclrtDestroyStream(activation));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
    if (wrong != 0) {
        std::printf("%d results are wrong\n", wrong);
        return 1;
    }
    std::printf("backward pass sample passed\n");
    return 0;
}
