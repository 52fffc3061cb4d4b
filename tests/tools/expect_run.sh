#!/usr/bin/env bash
# Runs a command and checks both its exit status and its output (stdout and
# stderr together): what the tools' CTest cases need, as CTest's own
# PASS_REGULAR_EXPRESSION ignores the exit status.
# Usage: expect_run.sh STATUS [PATTERN...] -- COMMAND [ARGS...]
#   STATUS    the exit status COMMAND must end with
#   PATTERN   an extended regular expression some line of the output must
#             match; !PATTERN: one no line may match
# On a failure, prints what failed and the whole output.
set -uo pipefail
expected_status="$1"
shift
patterns=()
while [[ $# -gt 0 && "$1" != -- ]]; do
  patterns+=("$1")
  shift
done
shift
output="$("$@" 2>&1)"
status=$?
failed=0
if [[ "$status" -ne "$expected_status" ]]; then
  echo "exit status $status, expected $expected_status"
  failed=1
fi
for pattern in "${patterns[@]}"; do
  if [[ "$pattern" == '!'* ]]; then
    if grep -Eq -- "${pattern#!}" <<<"$output"; then
      echo "a line of the output matches '${pattern#!}', which none may"
      failed=1
    fi
  elif ! grep -Eq -- "$pattern" <<<"$output"; then
    echo "no line of the output matches '$pattern'"
    failed=1
  fi
done
if [[ "$failed" -ne 0 ]]; then
  printf -- '--- output of: %s\n%s\n' "$*" "$output"
fi
exit "$failed"
