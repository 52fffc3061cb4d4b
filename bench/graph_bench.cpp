// ACL Graph figures (issue 13): 64 small operators (1 Ki-element fp32
// SoftplusBackward, each with its own operands) submitted eagerly on one
// stream against the same 64 captured once with aclmdlRICaptureBegin /
// aclmdlRICaptureEnd and replayed with aclmdlRIExecuteAsync.  Throughput
// figures count operators (graph nodes) in items_per_second, so
// Graph/Replay64 over Graph/Eager64 reads off the replay speed-up; capture
// cost is Graph/Capture64 against Graph/Eager64Submit.  Every case is timed
// per iteration (UseManualTime) and carries median_us / p99_us.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "operator_cases.hpp"

namespace {

using namespace aclcpu::bench;

constexpr int64_t kGraphOps = 64;
constexpr int64_t kGraphOpElements = 1024;
/// Replays (or eager batches of 64) queued before one aclrtSynchronizeStream
/// in the amortised variants.
constexpr int64_t kBatchesPerSync = 16;
/// What the outputs hold before a run that must overwrite them.
constexpr double kUnwritten = -7.0;

/// One SoftplusBackward with its own operands, its output readable so that
/// replayed results can be compared with eager ones.
class SmallOp {
public:
    explicit SmallOp(int64_t elements)
        : gradOutput_(spec(elements)), self_(spec(elements)), gradInput_(spec(elements)) {
        gradOutput_.fill_pattern(-1.0, 1.0);
        // beta * self crosses the threshold for the top fifth of the values.
        self_.fill_pattern(-10.0, 15.0);
        clear_output();
    }

    aclnnStatus launch(Workspace& workspace, aclrtStream stream) {
        return launch_two_phase(
            [&](uint64_t* size, aclOpExecutor** executor) {
                return aclnnSoftplusBackwardGetWorkspaceSize(gradOutput_.get(), self_.get(), beta_.get(),
                                                             threshold_.get(), gradInput_.get(), size, executor);
            },
            aclnnSoftplusBackward, workspace, stream);
    }

    std::vector<double> output() const { return gradInput_.read(); }
    void clear_output() {
        gradInput_.write(std::vector<double>(static_cast<size_t>(gradInput_.elements()), kUnwritten));
    }

private:
    static aclcpu::testkit::TensorSpec spec(int64_t elements) {
        return aclcpu::testkit::TensorSpec({elements / kRowLength, kRowLength}, ACL_FLOAT);
    }

    DeviceTensor gradOutput_;
    DeviceTensor self_;
    DeviceTensor gradInput_;
    Scalar beta_{1.0f};
    Scalar threshold_{10.0f};
};

/// A session with kGraphOps small operators and the workspace they share.
class GraphBench {
public:
    GraphBench() {
        for (int64_t i = 0; i < kGraphOps; ++i) ops_.push_back(std::make_unique<SmallOp>(kGraphOpElements));
    }

    aclrtStream stream() const { return session_.stream(); }

    /// Phase 1 + phase 2 of every operator on the stream, in order.
    aclnnStatus submit_all() {
        for (auto& op : ops_) {
            const aclnnStatus status = op->launch(workspace_, stream());
            if (status != 0) return status;
        }
        return 0;
    }

    /// aclmdlRICaptureBegin + submit_all() + aclmdlRICaptureEnd.
    aclError capture(aclmdlRI* model) {
        *model = nullptr;
        aclError status = aclmdlRICaptureBegin(stream(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
        if (status != ACL_SUCCESS) return status;
        const aclnnStatus submitted = submit_all();
        status = aclmdlRICaptureEnd(stream(), model);
        if (submitted != 0) return submitted;
        return status;
    }

    /// Runs the operators eagerly once (which also sizes the workspace, so
    /// that no capture allocates), and returns their outputs.
    bool eager_outputs(benchmark::State& state, std::vector<std::vector<double>>& outputs) {
        if (!succeeded(state, submit_all()) || !succeeded(state, aclrtSynchronizeStream(stream()))) return false;
        outputs.clear();
        for (const auto& op : ops_) outputs.push_back(op->output());
        return true;
    }

    /// Captures the operators into a model and checks, once, that a replay
    /// leaves the same outputs as an eager run: outputs are reset first, so
    /// a replay that skipped a node is caught too.  nullptr on failure
    /// (the case is skipped with the reason).
    aclmdlRI captured_and_checked(benchmark::State& state) {
        std::vector<std::vector<double>> eager;
        if (!eager_outputs(state, eager)) return nullptr;
        const std::vector<double> unwritten(static_cast<size_t>(kGraphOpElements), kUnwritten);
        for (const auto& output : eager) {
            if (output == unwritten) {
                state.SkipWithError("an eager launch left its output unwritten");
                return nullptr;
            }
        }
        for (auto& op : ops_) op->clear_output();
        aclmdlRI model = nullptr;
        if (!succeeded(state, capture(&model))) {
            if (model != nullptr) aclmdlRIDestroy(model);
            return nullptr;
        }
        if (!succeeded(state, aclmdlRIExecuteAsync(model, stream())) ||
            !succeeded(state, aclrtSynchronizeStream(stream()))) {
            aclmdlRIDestroy(model);
            return nullptr;
        }
        for (size_t i = 0; i < ops_.size(); ++i) {
            if (ops_[i]->output() != eager[i]) {
                state.SkipWithError(
                    ("replayed output of operator " + std::to_string(i) + " differs from eager").c_str());
                aclmdlRIDestroy(model);
                return nullptr;
            }
        }
        return model;
    }

private:
    RuntimeSession session_;  // Outlives the operators' device memory.
    Workspace workspace_;
    std::vector<std::unique_ptr<SmallOp>> ops_;
};

void report_nodes(benchmark::State& state, int64_t nodesPerIteration) {
    state.SetItemsProcessed(state.iterations() * nodesPerIteration);
    state.counters["nodes_per_iteration"] = static_cast<double>(nodesPerIteration);
}

/// batches x (64 operators, phase 1 + phase 2) on one stream, then
/// aclrtSynchronizeStream.
void graph_eager(benchmark::State& state, int64_t batches) {
    GraphBench bench;
    std::vector<std::vector<double>> outputs;
    if (!bench.eager_outputs(state, outputs)) return;
    time_each_iteration(state, [&] {
        aclnnStatus status = 0;
        for (int64_t b = 0; b < batches && status == 0; ++b) status = bench.submit_all();
        const aclError synchronized = aclrtSynchronizeStream(bench.stream());
        return succeeded(state, status != 0 ? status : synchronized);
    });
    report_nodes(state, batches * kGraphOps);
}

/// replays x aclmdlRIExecuteAsync of the captured 64 operators, then
/// aclrtSynchronizeStream.
void graph_replay(benchmark::State& state, int64_t replays) {
    GraphBench bench;
    aclmdlRI model = bench.captured_and_checked(state);
    if (model == nullptr) return;
    time_each_iteration(state, [&] {
        aclError status = ACL_SUCCESS;
        for (int64_t r = 0; r < replays && status == ACL_SUCCESS; ++r)
            status = aclmdlRIExecuteAsync(model, bench.stream());
        const aclError synchronized = aclrtSynchronizeStream(bench.stream());
        return succeeded(state, status != ACL_SUCCESS ? status : synchronized);
    });
    report_nodes(state, replays * kGraphOps);
    aclmdlRIDestroy(model);
}

/// The submitting thread's cost of 64 operators (phase 1 + phase 2): the
/// stream is drained before each iteration, untimed, and runs the operators
/// while they are being submitted.
void graph_eager_submit(benchmark::State& state) {
    GraphBench bench;
    std::vector<std::vector<double>> outputs;
    if (!bench.eager_outputs(state, outputs)) return;
    time_each_iteration(
        state, [&] { return succeeded(state, bench.submit_all()); }, [&] { aclrtSynchronizeStream(bench.stream()); });
    aclrtSynchronizeStream(bench.stream());
    report_nodes(state, kGraphOps);
}

/// aclmdlRICaptureBegin + the same 64 operators + aclmdlRICaptureEnd; the
/// model (never executed) is destroyed before the next iteration, outside
/// the timing, as Graph/Eager64Submit synchronises its work outside it.
void graph_capture(benchmark::State& state) {
    GraphBench bench;
    std::vector<std::vector<double>> outputs;
    if (!bench.eager_outputs(state, outputs)) return;
    aclmdlRI model = nullptr;
    const auto destroy = [&model] {
        const aclError status = model != nullptr ? aclmdlRIDestroy(model) : ACL_SUCCESS;
        model = nullptr;
        return status;
    };
    time_each_iteration(
        state, [&] { return succeeded(state, bench.capture(&model)); }, [&] { succeeded(state, destroy()); });
    succeeded(state, destroy());
    report_nodes(state, kGraphOps);
}

const bool kRegistered = [] {
    const std::string batched = "x" + std::to_string(kBatchesPerSync);
    benchmark::RegisterBenchmark("Graph/Eager64", graph_eager, int64_t{1})
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("Graph/Replay64", graph_replay, int64_t{1})
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("Graph/Eager64" + batched).c_str(), graph_eager, kBatchesPerSync)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("Graph/Replay64" + batched).c_str(), graph_replay, kBatchesPerSync)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("Graph/Eager64Submit", graph_eager_submit)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("Graph/Capture64", graph_capture)->UseManualTime()->Unit(benchmark::kMicrosecond);
    return true;
}();

}  // namespace
