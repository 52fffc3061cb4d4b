#!/usr/bin/env bash
# Builds acl-cpu and runs every check CI runs:
#   1. the test suite (unit tests, stress, samples, install tree);
#   2. the same suite and samples with the stream race checker on (no report allowed);
#   3. the samples and the suite under seeded schedules (scripts/run_explored.sh);
#   4. ggml's test-backend-ops on the CANN backend built against the install
#      tree (scripts/ggml_backend_ops.sh --strict --jobs 2: two threads, each with its own
#      CANN0 backend and stream, share each op's cases; skipped with a message when
#      ../shared/third_party has no ggml source), then a small llama-style
#      model on that backend and on ggml's CPU backend (scripts/ggml_model.sh);
#   5. the sanitizers: ASan+UBSan on everything, TSan on the concurrency tests;
#   6. the libFuzzer targets, ACLCPU_FUZZ_SECONDS (default 16) each.
# ACLCPU_GGML=0, ACLCPU_SANITIZERS=0 or ACLCPU_FUZZ=0 skip steps 4, 5 or 6.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build_dir="${ACLCPU_BUILD_DIR:-$root/build}"
"$root/scripts/build.sh"

# shellcheck source=scripts/ci_steps.sh
source "$root/scripts/ci_steps.sh"

step "test suite" ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)"
step "race checker on the suite and samples" "$root/scripts/run_race_checked.sh" "$build_dir"
step "seeded schedules on the samples and the suite" "$root/scripts/run_explored.sh" "$build_dir"
[[ "${ACLCPU_GGML:-1}" != 0 ]] &&
  step "ggml's test-backend-ops on CANN0" env ACLCPU_BUILD_DIR="$build_dir" "$root/scripts/ggml_backend_ops.sh" --strict --jobs 2 &&
  step "a llama-style model on ggml's CANN backend" env ACLCPU_BUILD_DIR="$build_dir" "$root/scripts/ggml_model.sh"
[[ "${ACLCPU_SANITIZERS:-1}" != 0 ]] &&
  step "sanitizers (ASan+UBSan: all tests, TSan: concurrency tests)" "$root/scripts/run_sanitizers.sh"
[[ "${ACLCPU_FUZZ:-1}" != 0 ]] && step "fuzzing" "$root/scripts/run_fuzzers.sh"

finish_steps
