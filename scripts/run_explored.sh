#!/usr/bin/env bash
# Runs correct programs under seeded schedules (ACLCPU_SCHEDULE, see
# docs/schedule_exploration.md): whatever order the emulated device starts
# the work of different streams in, they must still pass.
#   - every sample (ctest label `sample`), under ACLCPU_EXPLORE_SAMPLE_SEEDS
#     (default 6) seeds of each policy;
#   - every test binary of the suite (the gtest executables ctest discovers
#     its tests from: runtime, operators, stress ...), under
#     ACLCPU_EXPLORE_SEEDS (default 6) seeds of each policy.  A binary runs
#     whole in one process per seed, ACLCPU_EXPLORE_JOBS (default 8) such
#     processes side by side: explored tests mostly wait (for the explorer's
#     1 s limits when a test waits by means the runtime cannot see), so
#     eight at a time keep two cores busy without starving a host thread
#     past those limits.  The operators' binary (ops_tests) runs under the
#     first ACLCPU_EXPLORE_OPS_SEEDS (default 1) of them only: its tests
#     order work on streams as the runtime's do, but grow with every
#     operator, and the runtime's own binaries are what the schedules probe.
# Seeds start at ACLCPU_EXPLORE_FIRST_SEED, by default derived from the
# commit, so that each commit explores other schedules and a failure
# replays: the failing policy, seed and tests are printed with the command.
# Left out are the schedule sample's planted bug, which an explored schedule
# must expose (sample.schedule_sample*, checked by their own tests), and the
# tests that run no device work (header, layering and README checks, the
# explorer's own tests against fake programs).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build_dir="${1:-${ACLCPU_BUILD_DIR:-$root/build}}"
sample_seeds="${ACLCPU_EXPLORE_SAMPLE_SEEDS:-6}"
suite_seeds="${ACLCPU_EXPLORE_SEEDS:-6}"
ops_seeds="${ACLCPU_EXPLORE_OPS_SEEDS:-1}"
jobs="${ACLCPU_EXPLORE_JOBS:-8}"
commit="$(git -C "$root" rev-parse --short=8 HEAD 2>/dev/null || echo 1)"
first_seed="${ACLCPU_EXPLORE_FIRST_SEED:-$((16#${commit} % 100000))}"
last_seed=$((first_seed + suite_seeds - 1))
policies=(random adversarial)
logs="$build_dir/explored"
rm -rf "$logs"
mkdir -p "$logs"

explore_samples() {
  local policy seed
  for policy in "${policies[@]}"; do
    for ((seed = first_seed; seed < first_seed + sample_seeds; ++seed)); do
      if ! ACLCPU_SCHEDULE="$policy:$seed" ctest --test-dir "$build_dir" -j "$(nproc)" -L sample \
             -E '^sample\.schedule_sample' >"$logs/samples.log" 2>&1; then
        grep -E "^[[:space:]]*[0-9]+ - |tests passed" "$logs/samples.log" | tail -20
        echo "== explored: samples FAILED under ACLCPU_SCHEDULE=$policy:$seed (log: $logs/samples.log)"
        return 1
      fi
    done
  done
  echo "== explored: samples passed under seeds $first_seed..$((first_seed + sample_seeds - 1)) of ${policies[*]}"
}

# The suite's test binaries: those ctest discovered gtest tests in.
test_binaries() {
  local listing binary
  for listing in "$build_dir"/tests/*\[1\]_tests.cmake; do
    binary="$build_dir/tests/$(basename "$listing" '[1]_tests.cmake')"
    [[ -x "$binary" ]] && echo "$binary"
  done
}

# run_one BINARY SCHEDULE: one whole binary under one schedule; on failure,
# prints the failed tests and how to replay them.
run_one() {
  local binary="$1" schedule="$2"
  local log="$logs/$(basename "$binary")@${schedule/:/-}.log"
  if ACLCPU_SCHEDULE="$schedule" timeout 900 "$binary" --gtest_brief=1 >"$log" 2>&1; then
    rm -f "$log"
    return 0
  fi
  local failed
  failed=$(sed -n 's/^\[  FAILED  \] \([^ ,]*\).*/\1/p' "$log" | sort -u | paste -sd: -)
  echo "== explored: $(basename "$binary") FAILED under ACLCPU_SCHEDULE=$schedule: ${failed:-crashed or timed out}"
  echo "   replay: ACLCPU_SCHEDULE=$schedule $binary${failed:+ --gtest_filter=$failed}   (log: $log)"
  grep -E -A6 "Failure|FAILED|Timeout|timed out|Abort|Sanitizer" "$log" | head -30 | sed 's/^/   | /'
  return 1
}
export -f run_one
export logs

explore_suite() {
  local binaries binary policy seed
  mapfile -t binaries < <(test_binaries)
  # Seed by seed, so that binaries that mostly wait run beside those that compute.
  for ((seed = first_seed; seed <= last_seed; ++seed)); do
    for policy in "${policies[@]}"; do
      for binary in "${binaries[@]}"; do
        [[ "$(basename "$binary")" == ops_tests && $((seed - first_seed)) -ge $ops_seeds ]] && continue
        echo "$binary $policy:$seed"
      done
    done
  done | xargs -P "$jobs" -L 1 bash -c 'run_one "$0" "$1"' || {
    echo "== explored: the test suite FAILED under a seeded schedule (above)"
    return 1
  }
  echo "== explored: every test binary passed under seeds $first_seed..$last_seed of ${policies[*]}"
}

explore_samples
explore_suite
