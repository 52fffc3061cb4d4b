#!/usr/bin/env bash
# Builds and runs acl-cpu's tests under the sanitizers, each build in its own
# directory (configured as scripts/sanitized_trees.sh says):
#   build-asan  AddressSanitizer + UndefinedBehaviorSanitizer (clang): every
#               test (unit tests, samples, install tree); the same tree builds
#               the libFuzzer targets that scripts/run_fuzzers.sh runs
#   build-tsan  ThreadSanitizer: the tests labelled `concurrency` or `stress`,
#               against a oneTBB built with ThreadSanitizer too (see
#               instrumented_tbb); only the test binaries holding them are built
# Usage: run_sanitizers.sh [asan|tsan]...   (default: both)
# Exits non-zero when a test fails or a sanitizer reports anything: every
# report aborts its process (halt_on_error, -fno-sanitize-recover=all), and the
# test logs are searched for reports as well, so none can slip through a
# process whose exit status nobody checks.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jobs="$(nproc)"
# shellcheck source=scripts/sanitized_trees.sh
source "$root/scripts/sanitized_trees.sh"

export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=1:strict_init_order=1:check_initialization_order=1"
export LSAN_OPTIONS="suppressions=$root/tests/sanitizers/lsan.supp"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$root/tests/sanitizers/tsan.supp"

readonly report_pattern='ERROR: (Address|Leak)Sanitizer|WARNING: ThreadSanitizer|ThreadSanitizer: |runtime error: '

# instrumented_tbb PREFIX: installs into PREFIX (once; later calls reuse it)
# the oneTBB that Debian ships, built from Debian's source package of the
# installed version with ThreadSanitizer.  TSan only sees the synchronisation
# of instrumented code: against Debian's uninstrumented libtbb, every handoff
# of a task to a worker looks like a race in whatever code the task runs, ours
# included, and no suppression could tell those from real ones.
instrumented_tbb() {
  local prefix="$1"
  local version work="$prefix.work"
  version="$(dpkg-query -W -f='${Version}' libtbb-dev)"
  if [[ -f "$prefix/lib/cmake/TBB/TBBConfig.cmake" && "$(cat "$prefix/VERSION" 2>/dev/null)" == "$version" ]]; then
    return
  fi
  echo "== sanitizers: building oneTBB $version with ThreadSanitizer into $prefix"
  rm -rf "$prefix" "$work"
  mkdir -p "$work/lists/partial" "$work/cache" "$work/src" "$work/parts"
  # A private apt state listing the source packages of the machine's Debian
  # archives: the machine's own apt configuration is left as it is.
  local sources
  for sources in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list; do
    [[ -f "$sources" ]] || continue
    sed -e 's/^Types:.*/Types: deb-src/' -e 's/^deb /deb-src /' "$sources" >"$work/parts/$(basename "$sources")"
  done
  local apt=(apt-get -qq -o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$work/parts"
             -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache")
  "${apt[@]}" update
  # The installed version's source, or the archive's current one if a point
  # release has replaced it.
  (cd "$work/src" && { "${apt[@]}" source --only-source "onetbb=$version" || "${apt[@]}" source --only-source onetbb; }) \
    >"$work/fetch.log" 2>&1 || true
  local source_dir
  source_dir="$(find "$work/src" -mindepth 1 -maxdepth 1 -type d -name 'onetbb-*' | head -1)"
  if [[ -z "$source_dir" ]]; then
    cat "$work/fetch.log" >&2
    echo "run_sanitizers.sh: could not fetch Debian's onetbb $version source" >&2
    return 1
  fi
  # oneTBB's own warnings are not ours to read: the log is shown on failure only.
  if ! { cmake -S "$source_dir" -B "$work/build" -DTBB_SANITIZE=thread -DTBB_TEST=OFF -DTBB_STRICT=OFF \
           -DTBBMALLOC_BUILD=OFF -DTBB_DISABLE_HWLOC_AUTOMATIC_SEARCH=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
           -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_LIBDIR=lib &&
         cmake --build "$work/build" -j "$jobs" && cmake --install "$work/build"; } >"$work/build.log" 2>&1; then
    tail -50 "$work/build.log" >&2
    return 1
  fi
  echo "$version" >"$prefix/VERSION"
  rm -rf "$work"
}

# build_and_test NAME TARGETS CONFIGURE [ARGS...] [-- CTEST_ARGS...]: configures
# build-NAME by running CONFIGURE build-NAME ARGS..., builds TARGETS
# (space-separated; empty: all) and runs ctest with CTEST_ARGS.
build_and_test() {
  local name="$1" targets=() configure=()
  [[ -n "$2" ]] && read -r -a targets <<<"$2" && targets=(--target "${targets[@]}")
  shift 2
  while [[ $# -gt 0 && "$1" != -- ]]; do configure+=("$1"); shift; done
  [[ $# -gt 0 ]] && shift
  local build_dir="$root/build-$name" start=$SECONDS
  echo "== sanitizers: $name: building $build_dir"
  # Checked one by one: this function runs on the left of ||, where set -e
  # does not stop it.
  if ! "${configure[0]}" "$build_dir" "${configure[@]:1}" || ! cmake --build "$build_dir" -j "$jobs" "${targets[@]}"; then
    echo "== sanitizers: $name: the build FAILED"
    return 1
  fi
  local built=$SECONDS status=0
  ctest --test-dir "$build_dir" --output-on-failure --no-tests=error -j "$jobs" "$@" || status=$?
  local log="$build_dir/Testing/Temporary/LastTest.log"
  if grep -Eq "$report_pattern" "$log"; then
    echo "== sanitizers: $name: reports found in $log:"
    grep -En "$report_pattern" "$log" | head -20
    status=1
  fi
  echo "== sanitizers: $name: build $((built - start)) s, tests $((SECONDS - built)) s, $([[ $status -eq 0 ]] && echo clean || echo FAILED)"
  return "$status"
}

run_tsan() {
  local tbb="$root/build-tsan/onetbb-tsan" start=$SECONDS
  instrumented_tbb "$tbb" || return 1
  echo "== sanitizers: tsan: oneTBB ready in $((SECONDS - start)) s"
  build_and_test tsan concurrency_tests configure_sanitized_tree thread -DACLCPU_BUILD_SAMPLES=OFF \
    "-DTBB_DIR=$tbb/lib/cmake/TBB" -- -L '^(concurrency|stress)$'
}

targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=(asan tsan)
failed=()
for target in "${targets[@]}"; do
  case "$target" in
    asan) build_and_test asan "" configure_asan_tree || failed+=(asan) ;;
    tsan) run_tsan || failed+=(tsan) ;;
    *) echo "run_sanitizers.sh: unknown build '$target' (asan or tsan)" >&2; exit 2 ;;
  esac
done

if [[ ${#failed[@]} -ne 0 ]]; then
  echo "== sanitizers: FAILED: ${failed[*]}"
  exit 1
fi
echo "== sanitizers: ${targets[*]}: no failures, no reports"
