// Operator throughput: each operator x dtype x size, launched as a host
// program does (phase 1 + phase 2) and waited for, in bytes/s of the bytes
// model (OperatorCase::bytes_moved).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "bench_support.hpp"
#include "family_cases.hpp"
#include "operator_cases.hpp"

namespace {

using namespace aclcpu::bench;

/// One iteration is a launch and the synchronize that makes its result
/// visible: the same contract as a PyTorch CPU kernel returning, so the two
/// figures compare like for like.
template <typename Case>
void run_operator(benchmark::State& state, int64_t elements, aclDataType type) {
    RuntimeSession session;
    Case op(elements, type);
    measure_round_trip(state, op, session.stream());
    report_traffic(state, elements, op.bytes_moved());
}

/// Registers Op/<operator>/<dtype>/<elements> for every dtype and size.
template <typename Case>
void register_operator() {
    for (const FloatType& type : kFloatTypes) {
        for (const int64_t elements : operator_sizes()) {
            const std::string name = std::string("Op/") + Case::kName + "/" + type.name + "/" + std::to_string(elements);
            const aclDataType dataType = type.type;
            benchmark::RegisterBenchmark(name.c_str(), [elements, dataType](benchmark::State& state) {
                run_operator<Case>(state, elements, dataType);
            })->UseManualTime()->Unit(benchmark::kMicrosecond);
        }
    }
}

const bool kRegistered = [] {
    register_operator<SoftplusBackwardCase>();
    register_operator<HardshrinkBackwardCase>();
    register_operator<PreluBackwardCase>();
    register_operator<LogitGradCase>();
    register_operator<ScaledMaskedSoftmaxBackwardCase>();
    register_operator<ArithmeticCase<AddOp>>();
    register_operator<ArithmeticCase<AddOp, true>>();
    register_operator<ArithmeticCase<SubOp>>();
    register_operator<ArithmeticCase<MulOp>>();
    register_operator<ArithmeticCase<MulOp, true>>();
    register_operator<ArithmeticCase<DivOp>>();
    register_operator<UnaryCase<AbsOp>>();
    register_operator<UnaryCase<ExpOp>>();
    register_operator<UnaryCase<ReluOp>>();
    register_operator<UnaryCase<SiluOp>>();
    register_operator<UnaryCase<GeluOp>>();
    register_operator<UnaryCase<SqrtOp>>();
    register_operator<UnaryCase<LogOp>>();
    register_operator<UnaryCase<SinOp>>();
    register_operator<UnaryCase<CosOp>>();
    register_operator<UnaryCase<TanhOp>>();
    register_operator<UnaryCase<SigmoidOp>>();
    register_operator<UnaryCase<HardswishOp>>();
    register_operator<LayoutCase<LayoutKind::cast>>();
    register_operator<LayoutCase<LayoutKind::transpose>>();
    register_operator<LayoutCase<LayoutKind::broadcastCopy>>();
    register_operator<CallCase<LeakyReluSpec>>();
    register_operator<CallCase<SoftplusSpec>>();
    register_operator<CallCase<ClampSpec>>();
    register_operator<CallCase<PowSpec>>();
    register_operator<CallCase<GtScalarSpec>>();
    register_operator<CallCase<EqTensorSpec>>();
    register_operator<CallCase<SwiGluSpec>>();
    register_operator<CallCase<SoftmaxSpec>>();
    register_operator<CallCase<RmsNormSpec>>();
    register_operator<CallCase<LayerNormSpec>>();
    register_operator<CallCase<ReduceSumSpec>>();
    register_operator<CallCase<FillSpec>>();
    register_operator<CallCase<ArangeSpec>>();
    register_operator<CallCase<CatSpec>>();
    register_operator<CallCase<RepeatSpec>>();
    register_operator<CallCase<ConstantPadSpec>>();
    register_operator<CallCase<ReflectionPadSpec>>();
    register_operator<CallCase<RollSpec>>();
    register_operator<CallCase<SliceSpec>>();
    register_operator<CallCase<TrilSpec>>();
    return true;
}();

}  // namespace
