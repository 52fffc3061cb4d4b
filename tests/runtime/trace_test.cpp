// The timeline trace (ACLCPU_TRACE): a known program on two streams leaves a
// Chrome trace-event file with the expected tracks, slices, flows, counters
// and names, both after aclFinalize and after an exit without it.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <chrono>
#include <cstdlib>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "acl/acl.h"
#include "aclcpu_testkit/trace_file.hpp"
#include "aclcpu/instrumentation.hpp"
#include "aclcpu/stream_gate.hpp"
#include "aclnnop/aclnn_softplus_backward.h"
#include "runtime/runtime_test_support.hpp"

extern char** environ;

namespace aclcpu::test {
namespace {

using nlohmann::json;
using testkit::any_touches;
using testkit::flows;
using testkit::linked;
using testkit::load_trace;
using testkit::touches;
using testkit::TraceIndex;

constexpr int64_t kRows = 4;
constexpr int64_t kCols = 256;
constexpr size_t kTensorBytes = kRows * kCols * sizeof(float);
/// Set in the child process that exits without aclFinalize.
constexpr const char* kChildVariable = "ACLCPU_TRACE_TEST_CHILD";

std::string trace_path(const char* name) {
    return (::testing::TempDir().empty() ? std::string("/tmp/") : ::testing::TempDir()) + name + "_" +
           std::to_string(::getpid()) + ".json";
}

/// A row-major float tensor [kRows, kCols] over device memory.
aclTensor* float_tensor(void* data) {
    const int64_t shape[] = {kRows, kCols};
    const int64_t strides[] = {kCols, 1};
    return aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, data);
}

void callback(void* calls) { static_cast<CallProbe*>(calls)->calls += 1; }

/// The known program, after aclInit and aclrtSetDevice:
///   producer: memset(gradOutput) -> memcpy H2D(self) -> SoftplusBackward -> record `done`
///   consumer: wait `done` -> memcpy D2D(gradInput -> copy) -> blocking callback
/// then both streams are synchronised.
void run_known_program() {
    Stream producer;
    Stream consumer;
    Event done;
    DeviceBuffer gradOutput(kTensorBytes);
    DeviceBuffer self(kTensorBytes);
    DeviceBuffer gradInput(kTensorBytes);
    DeviceBuffer copy(kTensorBytes);
    PinnedBuffer input(kTensorBytes);
    std::fill(input.bytes(), input.bytes() + kTensorBytes, 0);
    CallProbe calls;
    ReportThread reporter(consumer.get());
    ASSERT_ACL_OK(reporter.subscribe_result());

    ASSERT_ACL_OK(aclrtMemsetAsync(gradOutput.get(), kTensorBytes, 0, kTensorBytes, producer.get()));
    ASSERT_ACL_OK(aclrtMemcpyAsync(self.get(), kTensorBytes, input.bytes(), kTensorBytes,
                                   ACL_MEMCPY_HOST_TO_DEVICE, producer.get()));
    aclTensor* gradOutputTensor = float_tensor(gradOutput.get());
    aclTensor* selfTensor = float_tensor(self.get());
    aclTensor* gradInputTensor = float_tensor(gradInput.get());
    float one = 1.0f;
    float twenty = 20.0f;
    aclScalar* beta = aclCreateScalar(&one, ACL_FLOAT);
    aclScalar* threshold = aclCreateScalar(&twenty, ACL_FLOAT);
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_ACL_OK(aclnnSoftplusBackwardGetWorkspaceSize(gradOutputTensor, selfTensor, beta, threshold,
                                                        gradInputTensor, &workspaceSize, &executor));
    ASSERT_EQ(workspaceSize, 0u);
    ASSERT_ACL_OK(aclnnSoftplusBackward(nullptr, 0, executor, producer.get()));
    ASSERT_ACL_OK(aclrtRecordEvent(done.get(), producer.get()));

    ASSERT_ACL_OK(aclrtStreamWaitEvent(consumer.get(), done.get()));
    ASSERT_ACL_OK(aclrtMemcpyAsync(copy.get(), kTensorBytes, gradInput.get(), kTensorBytes,
                                   ACL_MEMCPY_DEVICE_TO_DEVICE, consumer.get()));
    ASSERT_ACL_OK(aclrtLaunchCallback(callback, &calls, ACL_CALLBACK_BLOCK, consumer.get()));
    ASSERT_ACL_OK(aclrtSynchronizeStream(consumer.get()));
    ASSERT_ACL_OK(aclrtSynchronizeStream(producer.get()));
    EXPECT_EQ(calls.calls.load(), 1);
    aclDestroyTensor(gradOutputTensor);
    aclDestroyTensor(selfTensor);
    aclDestroyTensor(gradInputTensor);
    aclDestroyScalar(beta);
    aclDestroyScalar(threshold);
}

std::vector<std::string> names_of(const std::vector<json>& slices) {
    std::vector<std::string> names;
    for (const json& slice : slices) names.push_back(slice["name"]);
    return names;
}

std::vector<double> counter_values(const json& trace, const std::string& name, const char* series) {
    std::vector<std::pair<double, double>> samples;
    for (const json& event : trace["traceEvents"]) {
        if (event["ph"] == "C" && event["name"] == name) samples.emplace_back(event["ts"], event["args"][series]);
    }
    std::sort(samples.begin(), samples.end());
    std::vector<double> values;
    for (const auto& sample : samples) values.push_back(sample.second);
    return values;
}

class TraceTest : public ::testing::Test {
protected:
    void TearDown() override { std::remove(path_.c_str()); }

    /// Runs the known program traced to path_ and loads the trace.
    json trace_known_program() {
        DefaultEnvironment environment;
        ScopedEnv trace("ACLCPU_TRACE", path_);
        ScopedEnv workers("ACLCPU_WORKER_THREADS", std::string("4"));
        EXPECT_ACL_OK(aclInit(nullptr));
        EXPECT_ACL_OK(aclrtSetDevice(0));
        run_known_program();
        EXPECT_ACL_OK(aclrtResetDevice(0));
        EXPECT_ACL_OK(aclFinalize());
        return load_trace(path_);
    }

    std::string path_ = trace_path("acl_cpu_trace");
};

TEST_F(TraceTest, NamesProcessesAndTracks) {
    const json trace = trace_known_program();
    ASSERT_FALSE(trace.is_discarded()) << "the trace is not valid JSON";
    const TraceIndex index(trace);
    EXPECT_EQ(index.processes.count("Host API"), 1u);
    EXPECT_EQ(index.processes.count("Device 0"), 1u);
    // Streams are numbered as they first get work: the producer, then the consumer.
    for (const char* track : {"Host thread 0", "Stream 0", "Stream 1"}) {
        EXPECT_EQ(index.tracks.count(track), 1u) << track;
    }
    const bool worker = std::any_of(index.tracks.begin(), index.tracks.end(), [](const auto& track) {
        return track.first.rfind("AI Core worker ", 0) == 0;
    });
    EXPECT_TRUE(worker) << "no AI Core worker track";
}

TEST_F(TraceTest, StreamTracksHoldEachItemWithItsArguments) {
    const json trace = trace_known_program();
    ASSERT_FALSE(trace.is_discarded());
    const TraceIndex index(trace);
    const std::vector<json> producer = index.slices_on(trace, "Stream 0");
    const std::vector<json> consumer = index.slices_on(trace, "Stream 1");
    EXPECT_EQ(names_of(producer), (std::vector<std::string>{"aclrtMemsetAsync", "aclrtMemcpyAsync",
                                                            "aclnnSoftplusBackward", "aclrtRecordEvent"}));
    EXPECT_EQ(names_of(consumer), (std::vector<std::string>{"aclrtStreamWaitEvent", "aclrtMemcpyAsync",
                                                            "aclrtLaunchCallback", "aclrtLaunchCallback"}));
    ASSERT_EQ(producer.size(), 4u);
    ASSERT_EQ(consumer.size(), 4u);
    EXPECT_EQ(producer[0]["cat"], "memset");
    EXPECT_EQ(producer[0]["args"]["bytes"], kTensorBytes);
    EXPECT_EQ(producer[1]["cat"], "memcpy");
    const json& op = producer[2];
    EXPECT_EQ(op["cat"], "op");
    EXPECT_EQ(op["args"]["dtypes"], json({"DT_FLOAT", "DT_FLOAT", "DT_FLOAT"}));
    EXPECT_EQ(op["args"]["shapes"], json({{kRows, kCols}, {kRows, kCols}, {kRows, kCols}}));
    EXPECT_EQ(op["args"]["bytes"], 3 * kTensorBytes);
    EXPECT_EQ(op["args"]["workspace"], 0);
    EXPECT_GE(op["args"]["blockDim"].get<int64_t>(), 1);
    EXPECT_EQ(producer[3]["cat"], "event_record");
    EXPECT_EQ(consumer[0]["cat"], "event_wait");
    EXPECT_EQ(consumer[2]["cat"], "callback");
    EXPECT_EQ(consumer[3]["cat"], "host_wait");
    // Stream order: each item starts after the previous one ended; the wait
    // ends no earlier than the record it waited for began.
    for (const auto* track : {&producer, &consumer}) {
        for (size_t i = 1; i < track->size(); ++i) {
            const json& before = (*track)[i - 1];
            EXPECT_GE((*track)[i]["ts"].get<double>() + 1e-3,
                      before["ts"].get<double>() + before["dur"].get<double>());
        }
    }
    EXPECT_GE(consumer[0]["ts"].get<double>() + consumer[0]["dur"].get<double>() + 1e-3,
              producer[3]["ts"].get<double>());

    // One slice per block of the operator, each on a worker track.
    int64_t blocks = 0;
    for (const json& event : trace["traceEvents"]) {
        if (event["ph"] != "X" || event["cat"] != "block") continue;
        EXPECT_EQ(event["name"], "aclnnSoftplusBackward");
        EXPECT_EQ(event["args"]["blockDim"], op["args"]["blockDim"]);
        EXPECT_EQ(event["pid"], index.processes.at("Device 0"));
        blocks += 1;
    }
    EXPECT_EQ(blocks, op["args"]["blockDim"].get<int64_t>());
}

TEST_F(TraceTest, FlowsLinkApiCallsToWorkAndRecordsToWaits) {
    const json trace = trace_known_program();
    ASSERT_FALSE(trace.is_discarded());
    const TraceIndex index(trace);
    const auto starts = flows(trace, "s");
    const auto ends = flows(trace, "f");
    for (const auto& [id, end] : ends) {
        EXPECT_EQ(starts.count(id), 1u) << "flow " << id << " has no start";
    }
    std::vector<json> items = index.slices_on(trace, "Stream 0");
    const std::vector<json> consumer = index.slices_on(trace, "Stream 1");
    items.insert(items.end(), consumer.begin(), consumer.end());
    for (const json& item : items) EXPECT_TRUE(any_touches(ends, item)) << item["name"] << " has no incoming flow";
    // Every API call that enqueued work starts a flow.
    for (const json& call : index.slices_on(trace, "Host thread 0")) {
        const std::string name = call["name"];
        const bool enqueues = name == "aclrtMemsetAsync" || name == "aclrtMemcpyAsync" ||
                              name == "aclnnSoftplusBackward" || name == "aclrtRecordEvent" ||
                              name == "aclrtStreamWaitEvent" || name == "aclrtLaunchCallback";
        if (enqueues) {
            EXPECT_TRUE(any_touches(starts, call)) << name << " starts no flow";
        }
    }
    // The record on the producer starts the flow that ends at the consumer's wait.
    const json record = index.slices_on(trace, "Stream 0")[3];
    const json& wait = consumer[0];
    EXPECT_TRUE(linked(trace, record, wait)) << "no flow from the event record to the wait";
}

TEST_F(TraceTest, CountsDeviceMemoryAndQueueDepth) {
    const json trace = trace_known_program();
    ASSERT_FALSE(trace.is_discarded());
    const std::vector<double> memory = counter_values(trace, "Device memory", "bytes in use");
    ASSERT_FALSE(memory.empty());
    // Four tensors of kTensorBytes (CANN rounds each request up by 32 bytes of padding).
    EXPECT_GE(*std::max_element(memory.begin(), memory.end()), 4.0 * kTensorBytes);
    EXPECT_EQ(memory.back(), 0.0);
    for (const char* stream : {"Queue depth, Stream 0", "Queue depth, Stream 1"}) {
        const std::vector<double> depth = counter_values(trace, stream, "items");
        ASSERT_FALSE(depth.empty()) << stream;
        EXPECT_GE(*std::max_element(depth.begin(), depth.end()), 1.0) << stream;
        EXPECT_EQ(depth.back(), 0.0) << stream;
    }
}

TEST_F(TraceTest, HostApiTrackHoldsTheCalls) {
    const json trace = trace_known_program();
    ASSERT_FALSE(trace.is_discarded());
    const std::vector<std::string> calls = names_of(TraceIndex(trace).slices_on(trace, "Host thread 0"));
    for (const char* api : {"aclrtMalloc", "aclrtMallocHost", "aclrtMemsetAsync", "aclnnSoftplusBackward",
                            "aclrtSynchronizeStream", "aclrtFree"}) {
        EXPECT_NE(std::find(calls.begin(), calls.end(), api), calls.end()) << api;
    }
    for (const json& event : trace["traceEvents"]) {
        if (event.contains("ts")) {
            EXPECT_GE(event["ts"].get<double>(), 0.0);
        }
    }
}

/// A captured fork and join of two streams, replayed twice on a third:
///   origin: memset(a) -> record fork ............ wait join -> memcpy D2D(b -> c)
///   side:                 wait fork -> memcpy D2D(a -> b) -> record join
void run_captured_program() {
    constexpr size_t kBytes = 4096;
    Stream origin;
    Stream side;
    Stream runner;
    DeviceBuffer a(kBytes);
    DeviceBuffer b(kBytes);
    DeviceBuffer c(kBytes);
    aclrtEvent fork = nullptr;
    aclrtEvent join = nullptr;
    ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC));
    ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&join, ACL_EVENT_SYNC));
    ASSERT_ACL_OK(aclmdlRICaptureBegin(origin.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_ACL_OK(aclrtMemsetAsync(a.get(), kBytes, 1, kBytes, origin.get()));
    ASSERT_ACL_OK(aclrtRecordEvent(fork, origin.get()));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(side.get(), fork));
    ASSERT_ACL_OK(aclrtMemcpyAsync(b.get(), kBytes, a.get(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, side.get()));
    ASSERT_ACL_OK(aclrtRecordEvent(join, side.get()));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(origin.get(), join));
    ASSERT_ACL_OK(aclrtMemcpyAsync(c.get(), kBytes, b.get(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, origin.get()));
    aclmdlRI model = nullptr;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(origin.get(), &model));
    ASSERT_ACL_OK(aclmdlRISetName(model, "forked"));
    for (int replay = 0; replay < 2; ++replay) ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, runner.get()));
    ASSERT_ACL_OK(aclrtSynchronizeStream(runner.get()));
    ASSERT_ACL_OK(aclmdlRIDestroy(model));
    ASSERT_ACL_OK(aclrtDestroyEvent(fork));
    ASSERT_ACL_OK(aclrtDestroyEvent(join));
}

/// Holds back the end of every graph launch, so that a worker runs the
/// launched graph's nodes before the launch item has ended.  Installed before
/// aclInit, it is told of an item's end before the trace is.
class SlowLaunchEnd final : public aclcpu::instrument::Observer {
public:
    void on_submit(int32_t, aclcpu::instrument::StreamId stream, uint64_t place,
                   const aclcpu::instrument::WorkInfo& work) override {
        std::lock_guard<std::mutex> lock(mutex_);
        if (std::string(work.category) == "graph_launch") launches_.emplace(stream, place);
    }
    void on_work_end(aclcpu::instrument::StreamId stream, uint64_t place) override {
        bool launch = false;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            launch = launches_.count({stream, place}) != 0;
        }
        if (launch) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }

private:
    std::mutex mutex_;
    std::set<std::pair<aclcpu::instrument::StreamId, uint64_t>> launches_;
};

/// The trace of run_captured_program, with `observer` (if any) installed
/// ahead of the trace writer.
json captured_program_trace(const std::string& path, const std::shared_ptr<aclcpu::instrument::Observer>& observer) {
    DefaultEnvironment environment;
    ScopedEnv trace("ACLCPU_TRACE", path);
    ScopedEnv workers("ACLCPU_WORKER_THREADS", "2");
    if (observer) aclcpu::instrument::install(observer);
    EXPECT_ACL_OK(aclInit(nullptr));
    EXPECT_ACL_OK(aclrtSetDevice(0));
    run_captured_program();
    EXPECT_ACL_OK(aclrtResetDevice(0));
    EXPECT_ACL_OK(aclFinalize());
    if (observer) aclcpu::instrument::uninstall(observer.get());
    return load_trace(path);
}

/// The graph tracks' node slices, one list per captured stream.
std::vector<std::vector<json>> graph_nodes(const json& trace, const TraceIndex& index) {
    std::vector<std::vector<json>> nodes;
    for (const auto& entry : index.tracks) {
        if (entry.first.rfind("Graph ", 0) == 0) nodes.push_back(index.slices_on(trace, entry.first));
    }
    return nodes;
}

/// The "graph" slices: the spans the replays ran, on the runner's track.
std::vector<json> graph_spans(const json& trace, const TraceIndex& index) {
    std::vector<json> spans;
    for (const auto& entry : index.tracks) {
        for (const json& slice : index.slices_on(trace, entry.first)) {
            if (slice["cat"] == "graph") spans.push_back(slice);
        }
    }
    return spans;
}

/// Every node of a replay begins inside a replay's span (1 ns slack: the
/// trace prints microseconds with three decimals).
void expect_nodes_inside_spans(const std::vector<json>& nodes, const std::vector<json>& spans) {
    for (const json& node : nodes) {
        const double begin = node["ts"];
        const bool inside = std::any_of(spans.begin(), spans.end(), [&](const json& span) {
            return begin + 1e-3 >= span["ts"].get<double>() &&
                   begin <= span["ts"].get<double>() + span["dur"].get<double>() + 1e-3;
        });
        EXPECT_TRUE(inside) << node;
    }
}

// A replay is drawn on the stream that runs it -- its launch, then the span
// the graph ran as a "graph" slice -- and the model's nodes on a track per
// captured stream, with an arrow along each captured cross-stream edge.
TEST_F(TraceTest, AReplayShowsItsNodesOnTracksOfTheCapturedStreams) {
    const json trace = captured_program_trace(path_, nullptr);
    ASSERT_FALSE(trace.is_discarded());
    const TraceIndex index(trace);
    const std::vector<std::vector<json>> nodes = graph_nodes(trace, index);
    ASSERT_EQ(nodes.size(), 2u) << "one track per captured stream";
    const std::vector<json>& originNodes = nodes[0];
    const std::vector<json>& sideNodes = nodes[1];
    EXPECT_EQ(names_of(originNodes), (std::vector<std::string>{"aclrtMemsetAsync", "aclrtRecordEvent",
                                                               "aclrtMemcpyAsync", "aclrtMemsetAsync",
                                                               "aclrtRecordEvent", "aclrtMemcpyAsync"}));
    EXPECT_EQ(names_of(sideNodes),
              (std::vector<std::string>{"aclrtMemcpyAsync", "aclrtRecordEvent", "aclrtMemcpyAsync", "aclrtRecordEvent"}));

    // The runner's track: launch and graph span per replay; every node of a
    // replay lies inside its span.
    const std::vector<json> spans = graph_spans(trace, index);
    ASSERT_EQ(spans.size(), 2u);
    EXPECT_EQ(spans[0]["name"], "forked");
    expect_nodes_inside_spans(originNodes, spans);

    // Captured cross-stream edges: fork record -> side copy, join record -> origin copy.
    const auto starts = flows(trace, "s");
    const auto ends = flows(trace, "f");
    const auto linked = [&](const json& from, const json& to) {
        return std::any_of(ends.begin(), ends.end(), [&](const auto& entry) {
            const auto start = starts.find(entry.first);
            return start != starts.end() && touches(start->second, from) && touches(entry.second, to);
        });
    };
    EXPECT_TRUE(linked(originNodes[1], sideNodes[0])) << "no arrow from the fork to the side stream";
    EXPECT_TRUE(linked(sideNodes[1], originNodes[2])) << "no arrow from the join to the origin stream";
}

// The launch item hands the graph to the flow graph and ends after that: a
// node can begin before the launch has ended (seen in CI under a seeded
// schedule).  The graph's span starts with its launch, so it still holds
// every node.
TEST_F(TraceTest, AGraphSpanHoldsNodesThatBeganBeforeItsLaunchEnded) {
    const json trace = captured_program_trace(path_, std::make_shared<SlowLaunchEnd>());
    ASSERT_FALSE(trace.is_discarded());
    const TraceIndex index(trace);
    const std::vector<std::vector<json>> nodes = graph_nodes(trace, index);
    const std::vector<json> spans = graph_spans(trace, index);
    ASSERT_EQ(nodes.size(), 2u);
    ASSERT_EQ(spans.size(), 2u);
    for (const std::vector<json>& stream : nodes) expect_nodes_inside_spans(stream, spans);
}

/// A gate that hands its opening to the test.
class HandedGate final : public GateArming {
public:
    void arm(aclcpu::Gate gate) override { armed_.set_value(std::move(gate)); }
    const char* name() const noexcept override { return "meeting"; }
    aclcpu::Gate wait_armed() { return armed_.get_future().get(); }

private:
    std::promise<aclcpu::Gate> armed_;
};

// A gate opened by another stream's gate (a collective's last rank opening
// the others') is drawn with an arrow from the opener's gate slice to it; a
// gate opened plainly gets none.
TEST_F(TraceTest, AGateOpenedByAnotherHasAnArrowFromIt) {
    {
        DefaultEnvironment environment;
        ScopedEnv trace("ACLCPU_TRACE", path_);
        ASSERT_ACL_OK(aclInit(nullptr));
        ASSERT_ACL_OK(aclrtSetDevice(0));
        {
            Stream opener, opened, plain;
            auto openerArming = std::make_shared<HandedGate>();
            auto openedArming = std::make_shared<HandedGate>();
            auto plainArming = std::make_shared<HandedGate>();
            ASSERT_ACL_OK(enqueue_gate(opener.get(), openerArming));
            ASSERT_ACL_OK(enqueue_gate(opened.get(), openedArming));
            ASSERT_ACL_OK(enqueue_gate(plain.get(), plainArming));
            const aclcpu::Gate openerGate = openerArming->wait_armed();
            // The opener's own gate opens first and its stream runs on, as
            // a meeting's settlement may do.
            openerGate.open();
            ASSERT_ACL_OK(aclrtSynchronizeStream(opener.get()));
            openedArming->wait_armed().open(openerGate);
            const aclcpu::Gate plainGate = plainArming->wait_armed();
            plainGate.open(plainGate);
            ASSERT_ACL_OK(aclrtSynchronizeStream(opened.get()));
            ASSERT_ACL_OK(aclrtSynchronizeStream(plain.get()));
        }
        ASSERT_ACL_OK(aclrtResetDevice(0));
        ASSERT_ACL_OK(aclFinalize());
    }
    const json trace = load_trace(path_);
    ASSERT_FALSE(trace.is_discarded());
    const TraceIndex index(trace);
    const std::vector<json> opener = index.slices_on(trace, "Stream 0");
    const std::vector<json> opened = index.slices_on(trace, "Stream 1");
    const std::vector<json> plain = index.slices_on(trace, "Stream 2");
    ASSERT_EQ(opener.size(), 1u);
    ASSERT_EQ(opened.size(), 1u);
    ASSERT_EQ(plain.size(), 1u);
    EXPECT_EQ(opened[0]["cat"], "gate");
    EXPECT_TRUE(linked(trace, opener[0], opened[0])) << "no arrow from the opener's gate to the gate it opened";
    EXPECT_FALSE(linked(trace, opener[0], plain[0]));
    EXPECT_FALSE(linked(trace, plain[0], plain[0])) << "a gate opened by itself is not an arrow";
}


/// Runs in a child process only: the known program, then exit without
/// aclFinalize (nor aclrtResetDevice).
TEST(TraceExit, Child) {
    if (std::getenv(kChildVariable) == nullptr) GTEST_SKIP() << "runs as the child of ValidAfterExitWithoutFinalize";
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) std::_Exit(2);
    run_known_program();
    std::exit(::testing::Test::HasFailure() ? 1 : 0);
}

TEST(TraceExit, ValidAfterExitWithoutFinalize) {
    const std::string path = trace_path("acl_cpu_trace_exit");
    DefaultEnvironment environment;
    ScopedEnv trace("ACLCPU_TRACE", path);
    ScopedEnv child(kChildVariable, std::string("1"));
    std::string self(4096, '\0');
    const ssize_t length = ::readlink("/proc/self/exe", self.data(), self.size() - 1);
    ASSERT_GT(length, 0);
    self.resize(static_cast<size_t>(length));
    std::string filter = "--gtest_filter=TraceExit.Child";
    char* argv[] = {self.data(), filter.data(), nullptr};
    pid_t pid = 0;
    ASSERT_EQ(::posix_spawn(&pid, self.c_str(), nullptr, nullptr, argv, environ), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0);

    const json loaded = load_trace(path);
    std::remove(path.c_str());
    ASSERT_FALSE(loaded.is_discarded()) << "the trace of a program that exits without aclFinalize is not valid JSON";
    const TraceIndex index(loaded);
    EXPECT_EQ(names_of(index.slices_on(loaded, "Stream 0")),
              (std::vector<std::string>{"aclrtMemsetAsync", "aclrtMemcpyAsync", "aclnnSoftplusBackward",
                                        "aclrtRecordEvent"}));
}

}  // namespace
}  // namespace aclcpu::test
