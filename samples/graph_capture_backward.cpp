// A captured multi-stream backward pass replayed in a loop (ACL Graph).
//
// Captured once, on the origin stream, from aclmdlRICaptureBegin to
// aclmdlRICaptureEnd:
//
// Origin stream: copy the step's dy, pre, h, p from pinned host buffers
//                record `fork`
//                dPre    = SoftplusBackward(dy, pre, beta 1, threshold 20)
// Side stream:   wait `fork`                      (the side stream joins the capture)
//                dH      = HardshrinkBackward(dy, h, lambd 0.5)
//                dLogit  = LogitGrad(p, dH, eps 0.01)
//                copy dLogit to its pinned host buffer
//                record `join`
// Origin stream: wait `join`                      (the side stream joins back)
//                copy dPre and dH to their pinned host buffers
//
// Nothing runs at capture time.  Then, for each of kSteps steps, the host
// writes new inputs into the pinned buffers, replays the model with
// aclmdlRIExecuteAsync on the origin stream, synchronises it and checks every
// gradient against a double-precision reference.  The model is also written
// as JSON (aclmdlRIDebugJsonPrint) to graph_capture_backward_model.json in
// the working directory.  Every tensor is float [4, 8, 64].  Exits non-zero
// on a mismatch.  C++11, as CANN's samples are.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_hardshrink_backward.h"
#include "aclnnop/aclnn_logit_grad.h"
#include "aclnnop/aclnn_softplus_backward.h"
#include "sample_common.h"

namespace {

const int64_t kCount = 4 * 8 * 64;
const size_t kBytes = static_cast<size_t>(kCount) * sizeof(float);
const int kSteps = 5;
const double kEps = 0.01;
const char kModelJson[] = "graph_capture_backward_model.json";

/// A device buffer, its pinned host twin and a tensor describing the device
/// side; all released when it goes out of scope.
class Buffer {
public:
    explicit Buffer(const std::vector<int64_t>& shape) {
        if (aclrtMalloc(&device_, kBytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return;
        if (aclrtMallocHost(&host_, kBytes) != ACL_SUCCESS) return;
        std::memset(host_, 0, kBytes);
        if (aclrtMemset(device_, kBytes, 0, kBytes) != ACL_SUCCESS) return;
        const int64_t strides[] = {shape[1] * shape[2], shape[2], 1};
        tensor_ = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape.data(),
                                  shape.size(), device_);
    }
    ~Buffer() {
        aclDestroyTensor(tensor_);
        if (device_ != nullptr) aclrtFree(device_);
        if (host_ != nullptr) aclrtFreeHost(host_);
    }

    bool ok() const { return tensor_ != nullptr; }
    aclTensor* tensor() const { return tensor_; }
    float* host() const { return static_cast<float*>(host_); }
    /// Enqueues the copy of the host buffer to the device on stream.
    aclError upload(aclrtStream stream) const {
        return aclrtMemcpyAsync(device_, kBytes, host_, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream);
    }
    /// Enqueues the copy of the device buffer to the host on stream.
    aclError download(aclrtStream stream) const {
        return aclrtMemcpyAsync(host_, kBytes, device_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream);
    }

private:
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;

    void* device_ = nullptr;
    void* host_ = nullptr;
    aclTensor* tensor_ = nullptr;
};

/// Deterministic values in [lo, hi), written to out.
void fill_values(float* out, int64_t n, float lo, float hi, unsigned seed) {
    unsigned state = seed * 2654435761u + 1u;
    for (int64_t i = 0; i < n; ++i) {
        state = state * 1664525u + 1013904223u;
        out[i] = lo + (hi - lo) * static_cast<float>(state >> 8) / 16777216.0f;
    }
}

/// Counts the values of got not IsClose to expected (printing the first few)
/// and raises *maxError to the largest absolute error seen.
int count_wrong(const char* name, const float* got, const std::vector<double>& expected, double tol,
                double* maxError) {
    int wrong = 0;
    for (size_t i = 0; i < expected.size(); ++i) {
        const double error = std::fabs(got[i] - expected[i]);
        if (error > *maxError) *maxError = error;
        if (!IsClose(got[i], expected[i], tol)) {
            if (wrong < 3) std::printf("%s[%zu] = %f, expected %f\n", name, i, got[i], expected[i]);
            ++wrong;
        }
    }
    return wrong;
}

/// How many task slices ("ph":"X") the JSON file at path holds; -1 if it
/// cannot be read.
int count_json_tasks(const char* path) {
    std::ifstream in(path);
    if (!in) return -1;
    std::stringstream text;
    text << in.rdbuf();
    const std::string json = text.str();
    int tasks = 0;
    for (size_t at = json.find("\"ph\":\"X\""); at != std::string::npos; at = json.find("\"ph\":\"X\"", at + 1)) {
        ++tasks;
    }
    return tasks;
}

}  // namespace

int main() {
    const int32_t deviceId = 0;
    aclrtStream origin = nullptr;
    aclrtStream side = nullptr;
    CHECK_ACL(Init(deviceId, &origin));
    CHECK_ACL(aclrtCreateStream(&side));
    // Captures record only events made by aclrtCreateEventExWithFlag.
    aclrtEvent fork = nullptr;
    aclrtEvent join = nullptr;
    CHECK_ACL(aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC));
    CHECK_ACL(aclrtCreateEventExWithFlag(&join, ACL_EVENT_SYNC));

    int wrong = 0;
    {
        const std::vector<int64_t> shape = {4, 8, 64};
        Buffer dy(shape), pre(shape), h(shape), p(shape);  // inputs
        Buffer dPre(shape), dH(shape), dLogit(shape);      // gradients
        const Buffer* all[] = {&dy, &pre, &h, &p, &dPre, &dH, &dLogit};
        for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) {
            if (!all[i]->ok()) {
                std::printf("creating buffer %zu failed\n", i);
                return 1;
            }
        }
        float betaValue = 1.0f;
        float thresholdValue = 20.0f;
        float lambdValue = 0.5f;
        aclScalar* beta = aclCreateScalar(&betaValue, ACL_FLOAT);
        aclScalar* threshold = aclCreateScalar(&thresholdValue, ACL_FLOAT);
        aclScalar* lambd = aclCreateScalar(&lambdValue, ACL_FLOAT);

        // ---- Capture.  Phase 2 of each operator enqueues one task: captured,
        // it becomes a node of the model, run at every replay.  The workspaces
        // must stay allocated as long as the model may run.
        uint64_t ws = 0;
        aclOpExecutor* ex = nullptr;
        void* workspaces[3] = {};
        CHECK_ACL(aclmdlRICaptureBegin(origin, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
        CHECK_ACL(dy.upload(origin));
        CHECK_ACL(pre.upload(origin));
        CHECK_ACL(h.upload(origin));
        CHECK_ACL(p.upload(origin));
        CHECK_ACL(aclrtRecordEvent(fork, origin));
        CHECK_ACL(aclrtStreamWaitEvent(side, fork));
        CHECK_ACL(aclnnSoftplusBackwardGetWorkspaceSize(dy.tensor(), pre.tensor(), beta, threshold, dPre.tensor(),
                                                        &ws, &ex));
        CHECK_ACL(LaunchAclnn(aclnnSoftplusBackward, ws, ex, origin, &workspaces[0]));
        CHECK_ACL(aclnnHardshrinkBackwardGetWorkspaceSize(dy.tensor(), h.tensor(), lambd, dH.tensor(), &ws, &ex));
        CHECK_ACL(LaunchAclnn(aclnnHardshrinkBackward, ws, ex, side, &workspaces[1]));
        CHECK_ACL(aclnnLogitGradGetWorkspaceSize(p.tensor(), dH.tensor(), kEps, dLogit.tensor(), &ws, &ex));
        CHECK_ACL(LaunchAclnn(aclnnLogitGrad, ws, ex, side, &workspaces[2]));
        CHECK_ACL(dLogit.download(side));
        CHECK_ACL(aclrtRecordEvent(join, side));
        CHECK_ACL(aclrtStreamWaitEvent(origin, join));
        CHECK_ACL(dPre.download(origin));
        CHECK_ACL(dH.download(origin));
        aclmdlRI model = nullptr;
        CHECK_ACL(aclmdlRICaptureEnd(origin, &model));
        CHECK_ACL(aclmdlRISetName(model, "backward"));
        // Captured work waits for a replay: the streams are idle, the gradients untouched.
        CHECK_ACL(aclrtSynchronizeStream(origin));
        CHECK_ACL(aclrtSynchronizeStream(side));
        for (int64_t k = 0; k < kCount; ++k) {
            if (dPre.host()[k] != 0.0f || dH.host()[k] != 0.0f || dLogit.host()[k] != 0.0f) {
                std::printf("captured work ran before the model was executed\n");
                return 1;
            }
        }

        uint32_t streamCount = 0;
        CHECK_ACL(aclmdlRIGetStreams(model, nullptr, &streamCount));
        std::printf("captured model \"backward\": %u streams\n", streamCount);
        if (aclmdlRIDebugJsonPrint(model, kModelJson, ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY) == ACL_SUCCESS) {
            std::printf("model written to %s: %d tasks\n", kModelJson, count_json_tasks(kModelJson));
        } else {
            std::printf("could not write %s (%s); going on\n", kModelJson, aclGetRecentErrMsg());
        }

        // ---- Replay: new inputs in the pinned buffers, one replay per step.
        const float lowerBound = static_cast<float>(kEps);
        const float upperBound = 1.0f - lowerBound;
        std::vector<double> ePre(static_cast<size_t>(kCount));
        std::vector<double> eH(ePre.size());
        std::vector<double> eLogit(ePre.size());
        for (int step = 0; step < kSteps; ++step) {
            const unsigned seed = 4u * static_cast<unsigned>(step);
            fill_values(dy.host(), kCount, -1.0f, 1.0f, seed + 1);
            fill_values(pre.host(), kCount, -4.0f, 4.0f, seed + 2);
            fill_values(h.host(), kCount, -1.0f, 1.0f, seed + 3);
            fill_values(p.host(), kCount, 0.005f, 0.995f, seed + 4);
            CHECK_ACL(aclmdlRIExecuteAsync(model, origin));
            CHECK_ACL(aclrtSynchronizeStream(origin));

            // References, in double, from the inputs the step wrote.
            for (size_t k = 0; k < ePre.size(); ++k) {
                const double g = dy.host()[k];
                const double x = pre.host()[k];
                ePre[k] = x > 20.0 ? g : g / (1.0 + std::exp(-x));
                eH[k] = std::fabs(h.host()[k]) <= 0.5 ? 0.0 : g;
                const float pv = p.host()[k];
                eLogit[k] = pv < lowerBound || pv > upperBound ? 0.0 : eH[k] / (pv * (1.0 - pv));
            }
            double maxError = 0.0;
            int stepWrong = count_wrong("dPre", dPre.host(), ePre, 1e-5, &maxError);
            stepWrong += count_wrong("dH", dH.host(), eH, 1e-6, &maxError);
            stepWrong += count_wrong("dLogit", dLogit.host(), eLogit, 1e-5, &maxError);
            std::printf("step %d: %lld values checked, %d wrong, max error %.3g\n", step,
                        static_cast<long long>(3 * kCount), stepWrong, maxError);
            wrong += stepWrong;
        }

        CHECK_ACL(aclmdlRIDestroy(model));
        for (size_t i = 0; i < sizeof(workspaces) / sizeof(workspaces[0]); ++i) {
            if (workspaces[i] != nullptr) aclrtFree(workspaces[i]);
        }
        aclDestroyScalar(beta);
        aclDestroyScalar(threshold);
        aclDestroyScalar(lambd);
    }

    CHECK_ACL(aclrtDestroyEvent(fork));
    CHECK_ACL(aclrtDestroyEvent(join));
    CHECK_ACL(aclrtDestroyStream(side));
    CHECK_ACL(aclrtDestroyStream(origin));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
    if (wrong != 0) {
        std::printf("%d results are wrong\n", wrong);
        return 1;
    }
    std::printf("graph capture backward sample passed: %d replays of one captured backward pass\n", kSteps);
    return 0;
}
