#!/usr/bin/env bash
# Builds and runs CANN's own aclnn operator examples (the examples/
# test_aclnn_*.cpp programs of CANN's operator repositories hicann/ops-math,
# ops-nn, ops-transformer and ops-cv) unchanged against acl-cpu's install
# tree, compiled and linked as those repositories' build.sh compiles an eager
# example: g++ FILE -I $prefix/include -I $prefix/include/aclnnop -I
# $prefix/include/aclnn -L $prefix/lib64 -lopapi_<repo> -lascendcl -lnnopbase
# (ops-nn: -lopapi_nn -lopapi_math, as its build.sh)
# (ops-nn's build.sh passes include/aclnnop too: its IndexCopy examples
# include "aclnn_index_copy.h" without the folder).
#
# Usage: run_cann_op_examples.sh REPOSITORY... [-- NAME...]
#   REPOSITORY  a copy of one of CANN's operator repositories (its folder name
#               or its README says which: ops-math, ops-nn, ops-transformer,
#               ops-cv); none given or none present: the script says so and
#               exits 0 (CI has no network, and the examples are not ours to
#               ship).
#   NAME        run only the examples whose path contains one of these.
# The repositories' experimental/ folders are left out: their operators are
# contributed variants installed as custom operator packages, with their own
# dtype lists, not the built-in operators acl-cpu emulates.
# Environment: ACLCPU_PREFIX, an install tree to use (default: build/ is
# installed into a temporary prefix); ACLCPU_EXAMPLE_TIMEOUT seconds per
# example (default 120); ACLCPU_EXAMPLE_LOGS, a folder that keeps each
# example's output (default: thrown away).
#
# An example runs only when every aclnn entry point it calls is implemented
# (defined by acl-cpu, not one of the "not yet" stubs, which are weak
# symbols); the others are counted "not yet".  An example passes when it
# builds, exits 0 and prints no line of its own failure checks ("failed",
# "ERROR"); its printed numbers are the operator's result, which the
# operator's tests check against double-precision references.  Exits
# non-zero when an example of an implemented operator fails.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
repositories=()
while [[ $# -gt 0 && "$1" != "--" ]]; do
  [[ -d "$1" ]] && repositories+=("$(cd "$1" && pwd)")
  shift
done
[[ "${1:-}" == "--" ]] && shift
if [[ ${#repositories[@]} -eq 0 ]]; then
  echo "== CANN operator examples: no copy of CANN's operator repositories given; skipped"
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prefix="${ACLCPU_PREFIX:-}"
if [[ -z "$prefix" ]]; then
  prefix="$work/acl-cpu"
  cmake --install "${ACLCPU_BUILD_DIR:-$root/build}" --prefix "$prefix" >/dev/null
fi
logs="${ACLCPU_EXAMPLE_LOGS:-$work/logs}"
mkdir -p "$logs"
export LD_LIBRARY_PATH="$prefix/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# The entry points acl-cpu defines (strong symbols; a "not yet" stub is weak).
nm -D --defined-only "$prefix/lib64/libopapi.so" | awk '$2 == "T" { print $3 }' | sort -u >"$work/implemented"

# library_of REPOSITORY: the operator libraries its examples link, as CANN names
# them (ops-nn's build.sh links -lopapi_nn -lopapi_math: its examples call
# Cast, aclnnTransMatmulWeight and the other ops-math operators).
library_of() {
  local name
  name="$(basename "$1")"
  [[ -f "$1/README.md" ]] && name="$name $(head -5 "$1/README.md")"
  case "$name" in
    *ops-nn*|*ops_nn*) echo opapi_nn opapi_math ;;
    *transformer*) echo opapi_transformer ;;
    *ops-cv*|*ops_cv*) echo opapi_cv ;;
    *) echo opapi_math ;;
  esac
}

# selected PATH: whether PATH is among the NAMEs asked for (all when none).
selected() {
  local path="$1" name
  shift
  [[ $# -eq 0 ]] && return 0
  for name in "$@"; do [[ "$path" == *"$name"* ]] && return 0; done
  return 1
}

passed=() failed=() pending=0
for repository in "${repositories[@]}"; do
  library="$(library_of "$repository")"
  while IFS= read -r source; do
    name="$(basename "$repository")/${source#"$repository/"}"
    selected "$name" "$@" || continue
    # The entry points the example calls, both phases.
    # An example's own aclnn-named helpers (aclnnAvgPool2dTest, defined at
    # the start of a line after their return type) are not entry points.
    { grep -o -E '^[A-Za-z_][A-Za-z0-9_:<>*& ]*[ *&]aclnn[A-Z][A-Za-z0-9]*\(' "$source" |
        grep -v -E '^\s*return\b' | grep -o -E 'aclnn[A-Za-z0-9]*' || true; } | sort -u >"$work/defined"
    { grep -o -E '\baclnn[A-Z][A-Za-z0-9]*\(' "$source" || true; } | tr -d '(' | sort -u |
      comm -23 - "$work/defined" >"$work/calls"
    [[ -s "$work/calls" ]] || continue
    if [[ -n "$(comm -23 "$work/calls" "$work/implemented")" ]]; then
      pending=$((pending + 1))
      continue
    fi
    log="$logs/$(echo "$name" | tr / _).log"
    binary="$work/example"
    if g++ -std=c++17 "$source" -I "$prefix/include" -I "$prefix/include/aclnnop" -I "$prefix/include/aclnn" \
         -L "$prefix/lib64" \
         $(printf -- '-l%s ' $library) -lascendcl -lnnopbase -o "$binary" >"$log" 2>&1 &&
       timeout "${ACLCPU_EXAMPLE_TIMEOUT:-120}" "$binary" >>"$log" 2>&1 &&
       ! grep -q -i -E "failed|\[?error\]?[ :]" "$log"; then
      passed+=("$name")
      echo "PASS  $name"
    else
      failed+=("$name")
      echo "FAIL  $name"
      tail -12 "$log" | sed 's/^/      /'
    fi
  done < <(find "$repository" -path "$repository/experimental" -prune -o \
                -path '*/examples/*' -name 'test_aclnn_*.cpp' -print | sort)
done

echo "== CANN operator examples against $prefix"
echo "examples of implemented operators: ${#passed[@]} passed, ${#failed[@]} failed;" \
     "$pending call an operator acl-cpu has not written yet"
[[ ${#failed[@]} -eq 0 ]]
