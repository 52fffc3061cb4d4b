#!/usr/bin/env bash
# Runs correct programs under seeded schedules (ACLCPU_SCHEDULE, see
# docs/schedule_exploration.md): whatever order the emulated device starts
# the work of different streams in, they must still pass.
#   - every sample, under ACLCPU_EXPLORE_SAMPLE_SEEDS (default 20) seeds of
#     each policy;
#   - the whole test suite, under ACLCPU_EXPLORE_SEEDS (default 2) seeds of
#     each policy (20 is the full sweep, about 40 suite runs: a soak, not
#     the default).
# Seeds start at ACLCPU_EXPLORE_FIRST_SEED, by default derived from the
# commit, so that each commit explores other schedules and a failure
# replays: the failing policy and seed are printed.
# Left out are the schedule sample's planted bug, which an explored schedule
# must expose (sample.schedule_sample*, checked by their own tests).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build_dir="${1:-${ACLCPU_BUILD_DIR:-$root/build}}"
sample_seeds="${ACLCPU_EXPLORE_SAMPLE_SEEDS:-20}"
suite_seeds="${ACLCPU_EXPLORE_SEEDS:-2}"
commit="$(git -C "$root" rev-parse --short=8 HEAD 2>/dev/null || echo 1)"
first_seed="${ACLCPU_EXPLORE_FIRST_SEED:-$((16#${commit} % 100000))}"
planted='^sample\.schedule_sample'

# explore LABEL SEEDS CTEST_ARGS...: runs ctest under SEEDS seeds of each policy.
explore() {
  local what="$1" seeds="$2"
  shift 2
  local policy seed
  for policy in random adversarial; do
    for ((seed = first_seed; seed < first_seed + seeds; ++seed)); do
      if ! ACLCPU_SCHEDULE="$policy:$seed" ctest --test-dir "$build_dir" -j "$(nproc)" -E "$planted" "$@" \
             >"$build_dir/explored.log" 2>&1; then
        grep -E "^[[:space:]]*[0-9]+ - |tests passed" "$build_dir/explored.log" | tail -20
        echo "== explored: $what FAILED under ACLCPU_SCHEDULE=$policy:$seed (replay with that variable set;" \
             "log: $build_dir/explored.log)"
        return 1
      fi
    done
  done
  echo "== explored: $what passed under seeds $first_seed..$((first_seed + seeds - 1)) of random and adversarial"
}

explore "samples" "$sample_seeds" -L sample
explore "test suite" "$suite_seeds"
