# The steps of scripts/run_tests.sh, sourced (under set -euo pipefail):
#   step NAME COMMAND...  runs a step, recording its outcome and duration;
#                         a failing step never stops the steps after it.
#   finish_steps          prints the summary -- then, for each failing step,
#                         its lines that name what failed, so that the end of
#                         a long log still says which test it was -- and
#                         exits 1 when a step failed, else 0.
summary=()
failures=()
failed=0
step_logs="$(mktemp -d)"
trap 'rm -rf "$step_logs"' EXIT

step() {
  local name="$1" start=$SECONDS outcome=passed log="$step_logs/${#summary[@]}.log"
  shift
  "$@" 2>&1 | tee "$log" || { outcome=FAILED; failed=1; }
  summary+=("$name: $outcome ($((SECONDS - start)) s)")
  if [[ "$outcome" == FAILED ]]; then
    # A log with no such line must not end the run (grep's status under pipefail).
    failures+=("== $name:" "$(grep -E "FAILED|Failed|replay:|^   \| |\*\*\*|timed out|Timeout|^== ops with" "$log" |
                              tail -60 || true)")
  fi
}

finish_steps() {
  echo "== summary"
  printf '   %s\n' "${summary[@]}"
  [[ ${#failures[@]} -eq 0 ]] || printf '%s\n' "${failures[@]}"
  exit "$failed"
}
