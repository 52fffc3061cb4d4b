// The row and reduction engines against the memory bound (issue 31's speed
// clause): a row Softmax, RmsNorm and LayerNorm over >= 16 Mi fp32 elements
// against STREAM's triad (they read and write once, like an elementwise
// operator: >= 0.7 of it), a full ReduceSum against a read-only sweep
// (>= 0.8 of it).  Each iteration times one operator round trip, then one
// sweep of as many elements on as many threads (each after an untimed run
// of itself), so that both figures see the same load of a shared machine;
// the counters are each one's median GB/s and their ratio:
//   Roofline/<operator>/fp32/<elements>  GBps  baseline_GBps  ratio
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "family_cases.hpp"
#include "stream_kernels.hpp"

namespace {

using namespace aclcpu::bench;

/// Spec's operator (fp32, `elements` elements) and Sweep, alternately.
template <class Spec, int64_t (*Sweep)(StreamArrays&)>
void operator_against_sweep(benchmark::State& state, int64_t elements) {
    RuntimeSession session;
    CallCase<Spec> op(elements, ACL_FLOAT);
    StreamArrays arrays(elements);
    Workspace workspace;
    const aclrtStream stream = session.stream();
    const SweepComparison measured = against_sweep(state, arrays, Sweep, [&] {
        const aclnnStatus launched = op.launch(workspace, stream);
        const aclError synchronized = aclrtSynchronizeStream(stream);
        return succeeded(state, launched != 0 ? launched : synchronized);
    });
    report_traffic(state, elements, op.bytes_moved());
    const double opRate = static_cast<double>(op.bytes_moved()) / measured.opSeconds / 1e9;
    state.counters["GBps"] = opRate;
    state.counters["baseline_GBps"] = measured.sweepGBps;
    state.counters["ratio"] = opRate / measured.sweepGBps;
}

template <class Spec, int64_t (*Sweep)(StreamArrays&)>
void register_against(const char* baseline) {
    for (const int64_t elements : {int64_t{16} << 20, int64_t{64} << 20}) {
        const std::string name = std::string("Roofline/") + Spec::kName + "_vs_" + baseline + "/fp32/" +
                                 std::to_string(elements);
        benchmark::RegisterBenchmark(name.c_str(), operator_against_sweep<Spec, Sweep>, elements)
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond);
    }
}

const bool kRegistered = [] {
    register_against<SoftmaxSpec, stream_triad_sweep>("Triad");
    register_against<RmsNormSpec, stream_triad_sweep>("Triad");
    register_against<LayerNormSpec, stream_triad_sweep>("Triad");
    register_against<ReduceSumSpec, stream_read_sweep>("Read");
    return true;
}();

}  // namespace
