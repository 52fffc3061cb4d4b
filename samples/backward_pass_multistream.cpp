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
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_hardshrink_backward.h"
#include "aclnnop/aclnn_logit_grad.h"
#include "aclnnop/aclnn_prelu_backward.h"
#include "aclnnop/aclnn_scaled_masked_softmax_backward.h"
#include "aclnnop/aclnn_softplus_backward.h"

#define CHECK_ACL(call)                                                                           \
    do {                                                                                          \
        const int status_ = (call);                                                               \
        if (status_ != 0) {                                                                       \
            const char* message_ = aclGetRecentErrMsg();                                          \
            std::printf("%s failed with %d: %s\n", #call, status_, message_ ? message_ : "");     \
            return 1;                                                                             \
        }                                                                                         \
    } while (0)

namespace {

const int64_t kB = 2, kN = 4, kS1 = 8, kS2 = 32;
const int64_t kCount = kB * kN * kS1 * kS2;

/// A device tensor of float (or BOOL bytes) with its host values.
class Tensor {
public:
    Tensor(const std::vector<int64_t>& shape, aclDataType dtype, const std::vector<float>& values)
        : shape_(shape), dtype_(dtype), values_(values) {
        const size_t bytes = size_bytes();
        std::vector<char> host(bytes);
        for (size_t i = 0; i < values_.size(); ++i) {
            if (dtype_ == ACL_BOOL) {
                host[i] = static_cast<char>(values_[i] != 0.0f);
            } else {
                std::memcpy(&host[i * sizeof(float)], &values_[i], sizeof(float));
            }
        }
        if (aclrtMalloc(&device_, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return;
        if (aclrtMemcpy(device_, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) return;
        std::vector<int64_t> strides(shape_.size(), 1);
        for (size_t i = shape_.size(); i-- > 1;) strides[i - 1] = strides[i] * shape_[i];
        tensor_ = aclCreateTensor(shape_.data(), shape_.size(), dtype_, strides.data(), 0, ACL_FORMAT_ND,
                                  shape_.data(), shape_.size(), device_);
    }
    ~Tensor() {
        aclDestroyTensor(tensor_);
        if (device_ != nullptr) aclrtFree(device_);
    }

    bool ok() const { return tensor_ != nullptr; }
    aclTensor* get() const { return tensor_; }
    const std::vector<float>& values() const { return values_; }
    /// Copies the device values back into values().
    bool download() {
        const size_t bytes = size_bytes();
        return aclrtMemcpy(values_.data(), bytes, device_, bytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS;
    }

private:
    Tensor(const Tensor&) = delete;
    Tensor& operator=(const Tensor&) = delete;
    size_t size_bytes() const { return values_.size() * (dtype_ == ACL_BOOL ? 1 : sizeof(float)); }

    std::vector<int64_t> shape_;
    aclDataType dtype_;
    std::vector<float> values_;
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

typedef aclnnStatus (*Phase2)(void*, uint64_t, aclOpExecutor*, aclrtStream);

/// Workspaces stay alive until the streams are synchronised.
std::vector<void*> gWorkspaces;

/// Phase 2 of an operator whose phase 1 returned workspaceSize and executor.
int launch(Phase2 phase2, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
    void* workspace = nullptr;
    if (workspaceSize > 0) {
        if (aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 1;
        gWorkspaces.push_back(workspace);
    }
    return phase2(workspace, workspaceSize, executor, stream);
}

int count_wrong(const char* name, const std::vector<float>& got, const std::vector<double>& expected, double tol) {
    int wrong = 0;
    for (size_t i = 0; i < got.size(); ++i) {
        if (std::fabs(got[i] - expected[i]) > tol * (1.0 + std::fabs(expected[i]))) {
            if (wrong < 3) std::printf("%s[%zu] = %f, expected %f\n", name, i, got[i], expected[i]);
            ++wrong;
        }
    }
    std::printf("%-8s %zu values checked, %d wrong\n", name, got.size(), wrong);
    return wrong;
}

}  // namespace

int main() {
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream attention = nullptr;
    aclrtStream activation = nullptr;
    CHECK_ACL(aclrtCreateStream(&attention));
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
        std::vector<float> maskValues = values_in(kCount, 0.0f, 1.0f, 2);
        for (size_t i = 0; i < maskValues.size(); ++i) maskValues[i] = maskValues[i] < 0.2f ? 1.0f : 0.0f;

        Tensor dProbs(shape, ACL_FLOAT, values_in(kCount, -1.0f, 1.0f, 3));
        Tensor y(shape, ACL_FLOAT, probs);
        Tensor mask(shape, ACL_BOOL, maskValues);
        Tensor pre(shape, ACL_FLOAT, values_in(kCount, -4.0f, 4.0f, 4));
        Tensor dAct(shape, ACL_FLOAT, values_in(kCount, -1.0f, 1.0f, 5));
        Tensor h(shape, ACL_FLOAT, values_in(kCount, -2.0f, 2.0f, 6));
        Tensor w(channels, ACL_FLOAT, values_in(kN, 0.1f, 0.4f, 7));
        Tensor h2(shape, ACL_FLOAT, values_in(kCount, -1.0f, 1.0f, 8));
        Tensor dScores(shape, ACL_FLOAT, zeros);
        Tensor dPre(shape, ACL_FLOAT, zeros);
        Tensor dH(shape, ACL_FLOAT, zeros);
        Tensor dW(channels, ACL_FLOAT, std::vector<float>(static_cast<size_t>(kN), 0.0f));
        Tensor dH2(shape, ACL_FLOAT, zeros);
        Tensor dLogit(shape, ACL_FLOAT, zeros);
        const Tensor* all[] = {&dProbs, &y, &mask, &pre, &dAct, &h, &w, &h2, &dScores, &dPre, &dH, &dW, &dH2, &dLogit};
        for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) {
            if (!all[i]->ok()) {
                std::printf("creating tensor %zu failed\n", i);
                return 1;
            }
        }
        aclScalar* beta = nullptr;
        aclScalar* threshold = nullptr;
        aclScalar* lambd = nullptr;
        float betaValue = 1.0f;
        float thresholdValue = 20.0f;
        float lambdValue = 0.5f;
        beta = aclCreateScalar(&betaValue, ACL_FLOAT);
        threshold = aclCreateScalar(&thresholdValue, ACL_FLOAT);
        lambd = aclCreateScalar(&lambdValue, ACL_FLOAT);

        uint64_t ws = 0;
        aclOpExecutor* ex = nullptr;
        CHECK_ACL(aclrtRecordEvent(start, attention));
        // Attention stream.
        CHECK_ACL(aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(dProbs.get(), y.get(), mask.get(), 0.125, false,
                                                                   dScores.get(), &ws, &ex));
        CHECK_ACL(launch(aclnnScaledMaskedSoftmaxBackward, ws, ex, attention));
        CHECK_ACL(aclnnSoftplusBackwardGetWorkspaceSize(dScores.get(), pre.get(), beta, threshold, dPre.get(), &ws,
                                                        &ex));
        CHECK_ACL(launch(aclnnSoftplusBackward, ws, ex, attention));
        // Activation stream.
        CHECK_ACL(aclnnPreluBackwardGetWorkspaceSize(dAct.get(), h.get(), w.get(), dH.get(), dW.get(), &ws, &ex));
        CHECK_ACL(launch(aclnnPreluBackward, ws, ex, activation));
        CHECK_ACL(aclnnHardshrinkBackwardGetWorkspaceSize(dH.get(), h2.get(), lambd, dH2.get(), &ws, &ex));
        CHECK_ACL(launch(aclnnHardshrinkBackward, ws, ex, activation));
        CHECK_ACL(aclrtRecordEvent(activationDone, activation));
        // Join: LogitGrad on the attention stream consumes the activation stream's dH2.
        CHECK_ACL(aclrtStreamWaitEvent(attention, activationDone));
        CHECK_ACL(aclnnLogitGradGetWorkspaceSize(y.get(), dH2.get(), -1.0, dLogit.get(), &ws, &ex));
        CHECK_ACL(launch(aclnnLogitGrad, ws, ex, attention));
        CHECK_ACL(aclrtRecordEvent(end, attention));

        CHECK_ACL(aclrtSynchronizeStream(attention));
        CHECK_ACL(aclrtSynchronizeStream(activation));
        float elapsed = 0.0f;
        CHECK_ACL(aclrtEventElapsedTime(&elapsed, start, end));
        std::printf("backward pass: %.3f ms on two streams\n", elapsed);
        for (size_t i = 0; i < gWorkspaces.size(); ++i) aclrtFree(gWorkspaces[i]);
        aclDestroyScalar(beta);
        aclDestroyScalar(threshold);
        aclDestroyScalar(lambd);

        Tensor* outputs[] = {&dScores, &dPre, &dH, &dW, &dH2, &dLogit};
        for (size_t i = 0; i < sizeof(outputs) / sizeof(outputs[0]); ++i) {
            if (!outputs[i]->download()) {
                std::printf("copying output %zu back failed\n", i);
                return 1;
            }
        }

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
                sum += static_cast<double>(dProbs.values()[k]) * probs[k];
            }
            for (int64_t i = 0; i < kS2; ++i) {
                const size_t k = static_cast<size_t>(r * kS2 + i);
                eScores[k] = maskValues[k] != 0.0f ? 0.0 : 0.125 * (dProbs.values()[k] * probs[k] - sum * probs[k]);
            }
        }
        for (size_t k = 0; k < eScores.size(); ++k) {
            const double x = pre.values()[k];
            ePre[k] = x > 20.0 ? dScores.values()[k] : dScores.values()[k] / (1.0 + std::exp(-x));
            const size_t c = k / static_cast<size_t>(kS1 * kS2) % static_cast<size_t>(kN);
            const double hv = h.values()[k];
            const double dy = dAct.values()[k];
            eH[k] = hv > 0 ? dy : w.values()[c] * dy;
            if (hv <= 0) eW[c] += hv * dy;
            eH2[k] = std::fabs(h2.values()[k]) <= 0.5 ? 0.0 : dH.values()[k];
            const double p = probs[k];
            eLogit[k] = dH2.values()[k] / (p * (1.0 - p));
        }
        wrong += count_wrong("dScores", dScores.values(), eScores, 1e-5);
        wrong += count_wrong("dPre", dPre.values(), ePre, 1e-5);
        wrong += count_wrong("dH", dH.values(), eH, 1e-6);
        wrong += count_wrong("dW", dW.values(), eW, 1e-4);
        wrong += count_wrong("dH2", dH2.values(), eH2, 1e-6);
        wrong += count_wrong("dLogit", dLogit.values(), eLogit, 1e-5);
    }

    CHECK_ACL(aclrtDestroyEvent(start));
    CHECK_ACL(aclrtDestroyEvent(end));
    CHECK_ACL(aclrtDestroyEvent(activationDone));
    CHECK_ACL(aclrtDestroyStream(attention));
    CHECK_ACL(aclrtDestroyStream(activation));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    if (wrong != 0) {
        std::printf("%d results are wrong\n", wrong);
        return 1;
    }
    std::printf("backward pass sample passed\n");
    return 0;
}
