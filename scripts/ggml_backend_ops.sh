#!/usr/bin/env bash
# ggml's CANN backend (the Ascend backend of llama.cpp and whisper.cpp),
# built unchanged against a fresh acl-cpu install tree and judged by ggml's
# own operator test, one ggml op at a time.
#
# Usage: scripts/ggml_backend_ops.sh [--strict] [--update-readme] [--ops OP,...] [--jobs N] [GGML_SOURCE]
#   GGML_SOURCE    a ggml source tree or tarball; default
#                  ../shared/third_party/ggml-d99724f.tar.gz beside the repository.  When it
#                  does not exist the script says so and exits 0 (CI has no network).
#   --update-readme  writes the per-op table into README.md between its ggml-backend-ops markers
#   --ops          only these ggml ops (names as test-backend-ops -o takes them)
#   --jobs N       test-backend-ops' concurrent mode (-j N): N threads, each with
#                  its own CANN0 backend (its own stream), share an op's cases
#   --strict       exits 1 when a case fails or an op ends otherwise than "ok" or
#                  aborted by an operator acl-cpu has not written yet (561112,
#                  "has no kernel in acl-cpu yet"): what CI runs
# Environment: ACLCPU_BUILD_DIR (default build/), the acl-cpu build to install;
# GGML_OP_TIMEOUT (default 900), seconds one op may run.
#
# Steps: build acl-cpu's installed targets and install them into
# build/ggml-backend-ops/prefix (removed first); unpack the tarball into
# build/ggml-backend-ops/source (kept while the tarball is unchanged, so the
# ggml build in build/ggml-backend-ops/build is reused across runs); configure
# ggml as its documentation says for CANN (-DGGML_CANN=ON
# -DSOC_TYPE=Ascend910B3 -DCANN_INSTALL_DIR=<prefix> -DGGML_BUILD_TESTS=ON) and
# build only test-backend-ops; then run `test-backend-ops test -b CANN0 -o OP`
# once per op that has test cases, so that the abort of one op (ggml's
# backend aborts on any non-zero aclnn status) cannot hide the others.
# Prints per op: cases passed / failed / not supported, or the first error
# line of an abort.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build_dir="${ACLCPU_BUILD_DIR:-$root/build}"
timeout_seconds="${GGML_OP_TIMEOUT:-900}"
update_readme=0
strict=0
only_ops=""
jobs=1
source_arg=""
while (($#)); do
  case "$1" in
    --update-readme) update_readme=1 ;;
    --strict) strict=1 ;;
    --ops) only_ops="$2"; shift ;;
    --jobs) jobs="$2"; shift ;;
    -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
    *) source_arg="$1" ;;
  esac
  shift
done
# shellcheck source=scripts/ggml_tree.sh
source "$root/scripts/ggml_tree.sh"
ggml_source_or_skip ggml_backend_ops "$source_arg"
ggml_build="$ggml_work/build"
logs="$ggml_work/logs"
started=$SECONDS
ggml_install_aclcpu
ggml_unpack

echo "== ggml: configuring and building test-backend-ops against $ggml_prefix"
ggml_started=$SECONDS
ggml_configure "$ggml_build" -DGGML_BUILD_TESTS=ON
cmake --build "$ggml_build" -j2 --target test-backend-ops
ggml_seconds=$((SECONDS - ggml_started))
test_binary="$ggml_build/bin/test-backend-ops"

# shellcheck disable=SC1091
source "$ggml_prefix/set_env.sh"
if [[ -n "$only_ops" ]]; then
  IFS=, read -r -a ops <<<"$only_ops"
else
  # The ops that have test cases ("--show-coverage" marks them with a check mark).
  mapfile -t ops < <("$test_binary" --show-coverage | sed -n 's/^  ✓ //p')
fi

# The cases where CANN's documented semantics decide against ggml's CPU
# reference (or ggml's CANN backend claims what CANN cannot do): per op, a
# regex of the cases' parameters to leave out, and why.  They run nowhere,
# since one aborting case ends the op's whole run (ggml aborts on any
# non-zero aclnn status).
declare -A divergent_cases=(
  # ggml's supports_op claims CONCAT for every type and hands quantized
  # blocks to aclnnCat as ACL_INT4 (Q4_0), ACL_INT8 (Q8_0) or no dtype at
  # all; aclnnCat's A2 dtype list (ops-math conversion/concat_d/docs/aclnnCat.md)
  # has no INT4, and Q8_0's 34-byte blocks are not 32 INT8 elements.
  [CONCAT]='type=q'
  # ggml's own bug, SET_ROWS from F16 to F32:
  # ggml_cann_set_rows (ggml-cann/aclnn_ops.cpp, case GGML_TYPE_F32) hands the
  # F16 source to aclnnInplaceIndexCopy described as F32 with F32's element
  # size (scatter_batched(src0->data, ..., src0->nb)), so its strides are
  # halved and its bytes read as floats: garbage on an Atlas A2 as here.
  [SET_ROWS]='type_src=f16,type_dst=f32'
)
# With --jobs, each worker runs its share of an op's cases in an order that
# depends on timing.  ggml's own RoPE cache then decides some results:
# aclnn_rope_cache_init (ggml-cann/aclnn_ops.cpp) keeps theta's coefficients
# on the device between graphs, already multiplied by the last case's
# freq_scale (ext_factor 0) or by its YaRN ramp (ext_factor != 0), keyed on
# theta_scale_length, theta_scale and freq_scale only, so a YaRN case
# (freq_scale != 1 or ext_factor != 0) after one that differs in ext_factor
# alone reuses the wrong coefficients -- as on an Atlas A2, in whatever
# order its cases run (ggml's sequential order happens to avoid it).
declare -A concurrent_divergent_cases=(
  [ROPE]='.*(fs=1\.424500|ef=0\.746500)'
)
echo "== test-backend-ops -b CANN0, one op at a time (${#ops[@]} ops)"
rm -rf "$logs"
mkdir -p "$logs"
run_started=$SECONDS
table=("| ggml op | passed | failed | not supported | outcome |" "|---|---:|---:|---:|---|")
totals=(0 0 0)
wrong=()
# Runs one pass of op's cases (test-backend-ops -j JOBS, with FILTER, a
# regex of the cases' parameters or empty) into logs named NAME, adds its
# counts to the totals and prints and tabulates its outcome.
run_pass() {
  local op="$1" pass_jobs="$2" filter_regex="$3" name="$4" status=0 filter=() counts outcome
  [[ -n "$filter_regex" ]] && filter=(-p "$filter_regex")
  # In a subshell whose own stderr is dropped (and which cannot exec the
  # command in its place): the shell's "Aborted" notice of a killed child
  # would otherwise interleave with the table.
  (timeout --signal=KILL "$timeout_seconds" "$test_binary" test -b CANN0 -o "$op" -j "$pass_jobs" "${filter[@]}" \
    >"$logs/$name.out" 2>"$logs/$name.err" || exit $?) 2>/dev/null || status=$?
  # A case line is "  OP(params): ... OK|FAIL|not supported [...]" (colours
  # stripped); a failing one starts with ggml's error ("[OP] ERR = ...   OP(...").
  # A finished run's "  N/M tests passed" counts the cases run, which the
  # lines of concurrent workers (--jobs) may not: it wins where present.
  counts="$(sed 's/\x1b\[[0-9;]*m//g' "$logs/$name.out" | awk '
    /[A-Z_0-9]+\(.*\): / { if (/ OK$/) ok++; else if (/ FAIL$/) fail++; else if (/not supported|skipping/) ns++ }
    /^  [0-9]+\/[0-9]+ tests passed$/ { split($1, n, "/"); ok = n[1]; fail = n[2] - n[1] }
    END { printf "%d %d %d", ok, fail, ns }')"
  read -r passed failed unsupported <<<"$counts"
  totals=($((totals[0] + passed)) $((totals[1] + failed)) $((totals[2] + unsupported)))
  if ((status == 0)); then
    outcome="ok"
  elif ((status == 137)); then
    outcome="killed after ${timeout_seconds} s"
  elif grep -q "CANN error:" "$logs/$name.err"; then
    # The message of aclGetRecentErrMsg without its "[PID:n] time " prefix.
    outcome="aborted: $(grep -m1 "CANN error:" "$logs/$name.err" | sed 's/.*CANN error: //; s/^\[PID:[0-9]*\] [0-9:.-]* //')"
  elif ((failed > 0)); then
    outcome="failed"
  else
    outcome="exit $status: $(grep -m1 -v '^\s*$' "$logs/$name.err" || true)"
  fi
  if ((failed > 0)) || [[ "$outcome" != ok && "$outcome" != *"has no kernel in acl-cpu yet"* ]]; then
    wrong+=("$name")
  fi
  [[ -n "$filter_regex" ]] && outcome="$outcome (cases: $filter_regex)"
  outcome="${outcome//|/\\|}"
  table+=("| $name | $passed | $failed | $unsupported | ${outcome:0:160} |")
  printf '%-24s passed %4d  failed %4d  not supported %4d  %s\n' "$name" "$passed" "$failed" "$unsupported" \
    "${outcome:0:100}"
}

for op in "${ops[@]}"; do
  left_out="${divergent_cases[$op]:-}"
  ordered="${concurrent_divergent_cases[$op]:-}"
  ((jobs > 1)) || ordered=""
  # The cases whose outcome depends on their order run again one at a
  # time, in ggml's order, after the concurrent pass.
  skipped="$left_out${left_out:+${ordered:+|}}$ordered"
  run_pass "$op" "$jobs" "${skipped:+^(?!$skipped)}" "$op"
  [[ -n "$ordered" ]] && run_pass "$op" 1 "^(?=$ordered)${left_out:+(?!$left_out)}" "$op (in order)"
done
table+=("| **all** | **${totals[0]}** | **${totals[1]}** | **${totals[2]}** | |")
run_seconds=$((SECONDS - run_started))
echo "== ggml build ${ggml_seconds} s, op runs ${run_seconds} s, whole script $((SECONDS - started)) s (logs: $logs)"
echo "== ops with a failed case or an abort other than a \"not yet\" operator: ${#wrong[@]} ${wrong[*]}"

if ((update_readme)); then
  begin="<!-- ggml-backend-ops:begin (scripts/ggml_backend_ops.sh --update-readme writes this section) -->"
  end="<!-- ggml-backend-ops:end -->"
  {
    echo "$begin"
    echo
    echo "ggml \`$(basename "$ggml_tarball")\`, \`test-backend-ops test -b CANN0 -o OP\` per op" \
         "(the op runs took ${run_seconds} s on this machine):"
    echo
    printf '%s\n' "${table[@]}"
    echo
    echo "$end"
  } >"$ggml_work/readme_section.md"
  python3 - "$root/README.md" "$ggml_work/readme_section.md" "$begin" "$end" <<'EOF'
import pathlib, sys
readme, section, begin, end = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]).read_text(), sys.argv[3], sys.argv[4]
text = readme.read_text()
if begin not in text or end not in text:
    sys.exit(f"ggml_backend_ops: {readme} has no section between {begin} and {end}")
start, stop = text.index(begin), text.index(end) + len(end)
readme.write_text(text[:start] + section.rstrip("\n") + text[stop:])
EOF
  echo "README.md updated"
fi
((strict == 0 || ${#wrong[@]} == 0))
