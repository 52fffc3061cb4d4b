#!/usr/bin/env bash
# A model's tokens through ggml's CANN backend on acl-cpu: tests/ggml/tiny_llama.cpp
# (a llama-style decoder on ggml's public API) built against ggml's libraries,
# which are built unchanged against a fresh acl-cpu install tree, and run on
# CANN0 and on ggml's CPU backend side by side in each configuration: F16 and
# Q4_0 weights, attention as MUL_MAT + SOFT_MAX and as FLASH_ATTN_EXT; then
# the same with ggml built -DUSE_ACL_GRAPH=ON (each graph captured with
# aclmdlRICapture* and replayed), whose tokens must equal the eager build's.
#
# Usage: scripts/ggml_model.sh [--bench] [--no-graph] [GGML_SOURCE]
#   GGML_SOURCE  a ggml tree or tarball (default ../shared/third_party/ggml-d99724f.tar.gz
#                beside the repository; skipped with a message when absent)
#   --bench      the speed run: prompt 256, generation 64 (default: prompt 16,
#                generation 64)
#   --no-graph   leaves out the USE_ACL_GRAPH build
# Environment: ACLCPU_BUILD_DIR (default build/).
# Exits 1 when a configuration's tokens differ between the backends or
# between eager and captured runs, or its logits differ beyond tiny_llama's
# tolerance; a configuration that stops at an operator acl-cpu has not
# written yet ("has no kernel in acl-cpu yet") is reported and not counted.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build_dir="${ACLCPU_BUILD_DIR:-$root/build}"
prompt=16
graph=1
source_arg=""
while (($#)); do
  case "$1" in
    --bench) prompt=256 ;;
    --no-graph) graph=0 ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    *) source_arg="$1" ;;
  esac
  shift
done

# shellcheck source=scripts/ggml_tree.sh
source "$root/scripts/ggml_tree.sh"
ggml_source_or_skip ggml_model "$source_arg"
ggml_install_aclcpu
ggml_unpack
logs="$ggml_work/model-logs"
rm -rf "$logs"
mkdir -p "$logs"

variants=(eager)
((graph)) && variants+=(graph)
for variant in "${variants[@]}"; do
  dir="$ggml_work/build"
  flags=(-DGGML_BUILD_TESTS=ON)
  if [[ "$variant" == graph ]]; then
    dir="$ggml_work/build-graph"
    flags=(-DUSE_ACL_GRAPH=ON)
  fi
  echo "== ggml ($variant): building its libraries in $dir"
  ggml_configure "$dir" "${flags[@]}"
  cmake --build "$dir" -j2 --target ggml ggml-base ggml-cpu ggml-cann
  libs="$dir/src:$dir/src/ggml-cann"
  "${CXX:-c++}" -O2 -std=c++17 -I"$ggml_source/include" -I"$ggml_prefix/include" "$root/tests/ggml/tiny_llama.cpp" \
    -o "$dir/tiny_llama" -L"$dir/src" -L"$dir/src/ggml-cann" -L"$ggml_prefix/lib64" -lggml -lggml-base -lggml-cpu \
    -lggml-cann -lascendcl -Wl,-rpath,"$libs"
done

# shellcheck disable=SC1091
source "$ggml_prefix/set_env.sh"
failed=()
for weights in f16 q4_0; do
  for attention in softmax flash; do
    for variant in "${variants[@]}"; do
      dir="$ggml_work/build"
      [[ "$variant" == graph ]] && dir="$ggml_work/build-graph"
      name="$weights-$attention-$variant"
      status=0
      ("$dir/tiny_llama" --weights "$weights" --attention "$attention" --prompt "$prompt" --generate 64 \
        >"$logs/$name.out" 2>"$logs/$name.err" || exit $?) 2>/dev/null || status=$?
      if ((status == 0)); then
        echo "-- $name: $(grep -E '^(tokens|speed)' "$logs/$name.out" | tr '\n' ' ')"
        sed -n 's/^\(CPU\|CANN0\): prompt/   \1: prompt/p' "$logs/$name.out"
      elif grep -q "has no kernel in acl-cpu yet" "$logs/$name.err"; then
        echo "-- $name: not yet: $(grep -m1 -o 'Op [A-Za-z0-9]* has no kernel in acl-cpu yet' "$logs/$name.err")"
        continue
      else
        echo "-- $name: FAILED (exit $status; $logs/$name.out, .err)"
        tail -3 "$logs/$name.out"
        failed+=("$name")
        continue
      fi
      # The captured build's tokens must be the eager build's.
      if [[ "$variant" == graph && -s "$logs/$weights-$attention-eager.out" ]] &&
         ! diff <(grep '^CANN0: .* tokens:' "$logs/$weights-$attention-eager.out") \
                <(grep '^CANN0: .* tokens:' "$logs/$name.out") >/dev/null; then
        echo "-- $name: captured tokens differ from the eager build's"
        failed+=("$name")
      fi
    done
  done
done
# The stream race checker over a short run: ggml's NZ conversions on the
# default stream are ordered before the products only by tiny_llama's wait.
echo "== race check: ACLCPU_CHECK=race on F16, MUL_MAT + SOFT_MAX"
if ! ACLCPU_CHECK=race "$ggml_work/build/tiny_llama" --weights f16 --attention softmax --prompt 16 --generate 4 \
     --cann-only >"$logs/race.out" 2>"$logs/race.err" || grep -q "data race" "$logs/race.err"; then
  echo "-- race check: FAILED ($logs/race.err)"
  grep -m3 -A3 "data race" "$logs/race.err" || tail -3 "$logs/race.err"
  failed+=(race-check)
fi
echo "== configurations failed: ${#failed[@]} ${failed[*]}"
((${#failed[@]} == 0))
