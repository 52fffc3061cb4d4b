#!/usr/bin/env bash
# Builds and runs CANN's own runtime example programs (the example/ folder of
# CANN's runtime repository, hicann/runtime) unchanged against acl-cpu's
# install tree, each with its own run.sh, as a CANN user runs them.
#
# Usage: run_cann_runtime_examples.sh [REPOSITORY] [NAME...]
#   REPOSITORY  a copy of CANN's runtime repository, or of its example/ and
#               pkg_inc/ folders (default: $CANN_RUNTIME_REPOSITORY); when it
#               is absent the script says so and exits 0: CI has no network,
#               and the examples are not ours to ship.  (One example reads a
#               header of pkg_inc/; two make their data with python3-numpy.)
#   NAME      run only the examples whose path contains one of these strings.
# Environment: ACLCPU_PREFIX, an install tree to use (default: build/ is
# installed into a temporary prefix); ACLCPU_DEVICE_COUNT (default 2: the
# multi-device examples need two); ACLCPU_EXAMPLE_TIMEOUT seconds per example
# (default 300).
#
# An example passes when its run.sh exits 0 and prints no "[FAILURE]" line
# (the examples' own scripts mark a failed check so; "[ERROR]" lines may be
# the errors an example provokes on purpose).
# An example that launches an Ascend C device kernel of its own is listed
# apart: acl-cpu has no Ascend C compiler, so the install tree's
# ascendc_library declares an empty library -- the program fails to link, or
# aclrtBinaryLoad* answers 207000 for its kernel binary (an example that only
# links the library builds and runs).  Exits non-zero when any other example
# fails.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
repository="${1:-${CANN_RUNTIME_REPOSITORY:-}}"
[[ $# -gt 0 ]] && shift
if [[ -z "$repository" || ! -d "$repository/example" ]]; then
  echo "== CANN runtime examples: no copy of CANN's runtime repository given (argument or CANN_RUNTIME_REPOSITORY); skipped"
  exit 0
fi
repository="$(cd "$repository" && pwd)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prefix="${ACLCPU_PREFIX:-}"
if [[ -z "$prefix" ]]; then
  prefix="$work/acl-cpu"
  cmake --install "${ACLCPU_BUILD_DIR:-$root/build}" --prefix "$prefix" >/dev/null
fi
# The examples write their build/ and out/ folders beside their sources.
cp -r "$repository/example" "$work/example"
[[ -d "$repository/pkg_inc" ]] && cp -r "$repository/pkg_inc" "$work/pkg_inc"
# shellcheck source=/dev/null
source "$prefix/set_env.sh"
export ASCEND_INSTALL_PATH="$prefix" ACLCPU_DEVICE_COUNT="${ACLCPU_DEVICE_COUNT:-2}"

# selected DIR: whether DIR is among the NAMEs asked for (all when none).
selected() {
  [[ $# -eq 1 ]] && return 0
  local dir="$1" name
  shift
  for name in "$@"; do [[ "$dir" == *"$name"* ]] && return 0; done
  return 1
}

passed=() failed=() kernels=()
while IFS= read -r script; do
  dir="$(dirname "$script")"
  name="${dir#"$work/example/"}"
  selected "$name" "$@" || continue
  log="$work/$(echo "$name" | tr / _).log"
  if (cd "$dir" && timeout "${ACLCPU_EXAMPLE_TIMEOUT:-300}" bash run.sh) >"$log" 2>&1 &&
     ! grep -q '\[FAILURE\]' "$log"; then
    passed+=("$name")
    echo "PASS  $name"
  elif grep -q -E "ascendc_(fatbin_)?library" "$dir/CMakeLists.txt" 2>/dev/null &&
       grep -q -E "undefined reference|aclrtBinaryLoad.* 207000" "$log"; then
    kernels+=("$name")
    echo "KERN  $name (launches an Ascend C kernel)"
  else
    failed+=("$name")
    echo "FAIL  $name"
    tail -15 "$log" | sed 's/^/      /'
  fi
done < <(find "$work/example" -name run.sh | sort)

echo "== CANN runtime examples against $prefix"
echo "   launch an Ascend C kernel of their own (do not link): ${#kernels[@]}"
printf '     %s\n' "${kernels[@]+"${kernels[@]}"}"
echo "examples: ${#passed[@]} passed, ${#failed[@]} failed"
[[ ${#failed[@]} -eq 0 ]]
