#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) in the AddressSanitizer
# tree that scripts/run_sanitizers.sh tests, build-asan/ (or
# $ACLCPU_FUZZ_BUILD_DIR; configured as scripts/sanitized_trees.sh says, so
# that after the sanitizer run nothing is left to build), and runs each for
# ${ACLCPU_FUZZ_SECONDS:-16} seconds on a copy of its seed corpus (see
# corpus_of below).
# Prints the executions per target; fails if any target crashed, hung
# (-timeout) or ran out of memory.  A crashing input is left in
# $build_dir/fuzz-artifacts/ to be added to the seed corpus.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build_dir="${ACLCPU_FUZZ_BUILD_DIR:-$root/build-asan}"
seconds="${ACLCPU_FUZZ_SECONDS:-16}"
# corpus_of TARGET: the seed corpus of a target -- an operator's in its
# folder: ops/<name>/tests/corpus/<target> in a family with several targets
# (when that folder exists), else ops/<name>/tests/corpus; the object
# targets' and fuzz_backward's under tests/fuzz/corpus.
declare -A corpus_of=([fuzz_tensor]="$root/tests/fuzz/corpus/fuzz_tensor"
                      [fuzz_scalar]="$root/tests/fuzz/corpus/fuzz_scalar"
                      [fuzz_runtime_memory]="$root/tests/fuzz/corpus/fuzz_runtime_memory"
                      [fuzz_runtime_sync]="$root/tests/fuzz/corpus/fuzz_runtime_sync"
                      [fuzz_runtime_capture]="$root/tests/fuzz/corpus/fuzz_runtime_capture"
                      [fuzz_runtime_build]="$root/tests/fuzz/corpus/fuzz_runtime_build"
                      [fuzz_hccl]="$root/tests/fuzz/corpus/fuzz_hccl"
                      [fuzz_hccl_store]="$root/tests/fuzz/corpus/fuzz_hccl_store"
                      [fuzz_backward]="$root/tests/fuzz/corpus/fuzz_backward")
for source in "$root"/ops/*/tests/fuzz_*.cpp; do
  target=$(basename "$source" .cpp)
  corpus="$(dirname "$source")/corpus"
  [[ -d "$corpus/$target" ]] && corpus="$corpus/$target"
  corpus_of[$target]="$corpus"
done
targets=("${!corpus_of[@]}")
# memcheck_of TARGET: ACLCPU_MEMCHECK for it.  The operator targets run without
# acl-cpu's own memory checking: their harness has ASan poison the bytes past each
# device buffer, and ASan keeps its own quarantine of freed memory, while acl-cpu's
# quarantine of freed device blocks (up to 256 MiB) made every input keep memory, so
# that libFuzzer scanned all of it for leaks after each input (fuzz_backward: about
# 60 executions a second with it, 5,900 without).  The runtime and HCCL targets keep
# it: its guard zones and use-after-free reports are part of what they test.
declare -A memcheck_of=([fuzz_backward]=0)
for source in "$root"/ops/*/tests/fuzz_*.cpp; do memcheck_of[$(basename "$source" .cpp)]=0; done

# shellcheck source=scripts/sanitized_trees.sh
source "$root/scripts/sanitized_trees.sh"
configure_asan_tree "$build_dir"
cmake --build "$build_dir" -j "$(nproc)" --target "${targets[@]}"

work="$build_dir/fuzz-work"
artifacts="$build_dir/fuzz-artifacts"
rm -rf "$work"
mkdir -p "$work" "$artifacts"
# fuzz RUN TARGET: runs TARGET on a copy of its seed corpus, logged as RUN
# (a target run twice, under other settings, has two names); writes its
# summary line to RUN.result and its exit status to RUN.status.
fuzz() {
  local run="$1" target="$2" status=0
  local corpus="$work/$run" log="$work/$run.log"
  cp -r "${corpus_of[$target]}" "$corpus"
  ACLCPU_MEMCHECK="${memcheck_of[$target]:-1}" \
  "$build_dir/tests/fuzz/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts/$run-" "$corpus" >"$log" 2>&1 || status=$?
  local runs
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  printf '%-40s %10s executions in %ss\n' "$run" "${runs:-?}" "$seconds" >"$work/$run.result"
  echo "$status" >"$work/$run.status"
}
# A target is one thread of libFuzzer (the runtime's own workers aside):
# ACLCPU_FUZZ_JOBS (default: one per core) run side by side.
slots="${ACLCPU_FUZZ_JOBS:-$(nproc)}"
start_fuzz() {
  while (($(jobs -rp | wc -l) >= slots)); do wait -n || true; done
  "$@" &
}
runs=()
for target in "${targets[@]}"; do
  start_fuzz fuzz "$target" "$target"
  runs+=("$target")
done
# The runtime's synchronisation target once more under a seeded schedule
# (docs/schedule_exploration.md): the explorer holding, driving and querying
# under random call sequences.  A crash replays with the same variable set.
ACLCPU_SCHEDULE=adversarial:1 start_fuzz fuzz "fuzz_runtime_sync@adversarial:1" fuzz_runtime_sync
runs+=("fuzz_runtime_sync@adversarial:1")
wait

failed=()
for run in "${runs[@]}"; do
  cat "$work/$run.result"
  if [[ "$(cat "$work/$run.status")" != 0 ]]; then
    failed+=("$run")
    echo "---- $run failed (exit $(cat "$work/$run.status")); the end of its log ($work/$run.log):"
    tail -n 40 "$work/$run.log"
  fi
done
if [[ ${#failed[@]} -ne 0 ]]; then
  echo "fuzz: ${#failed[@]} target(s) failed: ${failed[*]}; inputs in $artifacts"
  exit 1
fi
echo "fuzz: ${#targets[@]} targets (and fuzz_runtime_sync under a seeded schedule) ran ${seconds}s each without a crash"
