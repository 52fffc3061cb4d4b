#!/usr/bin/env bash
# ggml's operator benchmark on acl-cpu beside ggml's own CPU backend, in one
# run: `test-backend-ops perf -o OP` on CANN0 (ggml's CANN backend built
# against a fresh install tree) and on CPU, per op, then a table of each
# case's microseconds per run on both and their ratio.
#
# Usage: scripts/ggml_perf.sh [--ops OP,...] [GGML_SOURCE]
#   --ops        the ggml ops (default: the top ones of a decoder's step:
#                MUL_MAT, FLASH_ATTN_EXT, SOFT_MAX, ROPE, RMS_NORM, ADD, MUL,
#                GET_ROWS, CPY)
#   GGML_SOURCE  a ggml tree or tarball (default ../shared/third_party/ggml-d99724f.tar.gz
#                beside the repository; skipped with a message when absent)
# Environment: ACLCPU_BUILD_DIR (default build/).  Not part of CI: a
# benchmark, minutes long; state the machine and its load beside its table.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build_dir="${ACLCPU_BUILD_DIR:-$root/build}"
ops_arg="MUL_MAT,FLASH_ATTN_EXT,SOFT_MAX,ROPE,RMS_NORM,ADD,MUL,GET_ROWS,CPY"
source_arg=""
while (($#)); do
  case "$1" in
    --ops) ops_arg="$2"; shift ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) source_arg="$1" ;;
  esac
  shift
done

# shellcheck source=scripts/ggml_tree.sh
source "$root/scripts/ggml_tree.sh"
ggml_source_or_skip ggml_perf "$source_arg"
ggml_install_aclcpu
ggml_unpack
ggml_build="$ggml_work/build"
ggml_configure "$ggml_build" -DGGML_BUILD_TESTS=ON
cmake --build "$ggml_build" -j2 --target test-backend-ops
# shellcheck disable=SC1091
source "$ggml_prefix/set_env.sh"
logs="$ggml_work/perf-logs"
rm -rf "$logs"
mkdir -p "$logs"

IFS=, read -r -a ops <<<"$ops_arg"
echo "| case | CANN0 us/run | CPU us/run | CANN0 / CPU |"
echo "|---|---:|---:|---:|"
for op in "${ops[@]}"; do
  for backend in CANN0 CPU; do
    "$ggml_build/bin/test-backend-ops" perf -b "$backend" -o "$op" 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g' |
      sed -n 's/^  \([A-Z_0-9]*(.*)\): *[0-9]* runs - *\([0-9.]*\) us\/run.*/\1\t\2/p' >"$logs/$op.$backend.tsv" || true
  done
  # Cases in CANN0's order; a case the CPU backend did not run shows "-".
  awk -F'\t' 'NR == FNR { cpu[$1] = $2; next }
    { c = ($1 in cpu) ? cpu[$1] : "-"; r = (c == "-" || c == 0) ? "-" : sprintf("%.2f", $2 / c)
      printf "| `%s` | %s | %s | %s |\n", $1, $2, c, r }' "$logs/$op.CPU.tsv" "$logs/$op.CANN0.tsv"
done
