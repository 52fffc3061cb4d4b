#!/usr/bin/env bash
# Builds the Google Benchmark suite (Release, build-bench/ or $ACLCPU_BENCH_BUILD_DIR),
# runs all of it, then compares the operators with PyTorch's CPU kernels (skipped, with
# a message, when Debian's python3-torch is missing).  Results: bench/results/.
# ACLCPU_WORKER_THREADS (default: nproc) sets the threads of acl-cpu, STREAM and PyTorch;
# ACLCPU_BENCH_MIN_TIME (default 0.5) the seconds each case is timed for;
# ACLCPU_BENCH_FILTER (default: every case) a Google Benchmark filter, e.g.
# '^(Op/(Add|Sub|Mul|Div)|Stream)/' for the arithmetic family and the triad it is measured against;
# ACLCPU_BENCH_REPETITIONS (default 1) how many times each case runs: above 1, the runs
# of all cases are interleaved at random (so that a shared machine's drift spreads over
# them) and only their aggregates (median, mean, ...) are reported;
# ACLCPU_BENCH_RESULTS (default bench/results) where the results go.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build_dir="${ACLCPU_BENCH_BUILD_DIR:-$root/build-bench}"
results="${ACLCPU_BENCH_RESULTS:-$root/bench/results}"
min_time="${ACLCPU_BENCH_MIN_TIME:-0.5}"
filter="${ACLCPU_BENCH_FILTER:-.}"
repetitions="${ACLCPU_BENCH_REPETITIONS:-1}"
export ACLCPU_WORKER_THREADS="${ACLCPU_WORKER_THREADS:-$(nproc)}"

"$root/scripts/install_deps.sh"
cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release \
  -DACLCPU_BUILD_TESTS=OFF -DACLCPU_BUILD_SAMPLES=OFF -DACLCPU_BUILD_BENCH=ON >/dev/null
cmake --build "$build_dir" -j "$(nproc)" --target aclcpu_bench

mkdir -p "$results"
repeated=()
if (( repetitions > 1 )); then
  repeated=(--benchmark_repetitions="$repetitions" --benchmark_enable_random_interleaving=true
            --benchmark_report_aggregates_only=true)
fi
"$build_dir/bench/aclcpu_bench" --benchmark_min_time="$min_time" --benchmark_filter="$filter" "${repeated[@]}" \
  --benchmark_out="$results/aclcpu_bench.json" --benchmark_out_format=json
# Debian's interpreter: the python3 first on PATH may be another one, without torch.
if [[ -x /usr/bin/python3 ]]; then
  /usr/bin/python3 "$root/bench/compare_pytorch.py" --aclcpu-json "$results/aclcpu_bench.json" \
    --results-dir "$results" --min-time "$min_time"
else
  echo "run_benchmarks: PyTorch comparison skipped: /usr/bin/python3 is missing (apt-get install python3-torch)"
fi
