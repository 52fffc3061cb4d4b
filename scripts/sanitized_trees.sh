# The sanitized build trees of scripts/run_sanitizers.sh and run_fuzzers.sh,
# sourced (under set -euo pipefail):
#   configure_sanitized_tree DIR SANITIZERS [CMAKE_ARGS...]
#       configures DIR with ACLCPU_SANITIZE=SANITIZERS at -O1 -g1 with
#       assertions on (fast, yet stacks stay exact: line tables name inlined
#       frames with file and line, and compile a third faster than full debug
#       information), the kernels compiled for this machine's SIMD target only
#       (ACLCPU_SIMD_TARGETS=native: dispatch would run no other target here);
#   configure_asan_tree DIR
#       the AddressSanitizer + UBSan tree, built with clang so that one tree
#       serves both scripts: its tests run under the sanitizers, and its
#       libFuzzer targets (clang only) fuzz the same instrumented libraries.
#       The libraries carry libFuzzer's coverage instrumentation as well,
#       which the tests' processes never read.
configure_sanitized_tree() {
  local build_dir="$1" sanitizers="$2"
  shift 2
  cmake -S "$root" -B "$build_dir" -DACLCPU_SANITIZE="$sanitizers" -DACLCPU_BUILD_BENCH=OFF \
    -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DACLCPU_SIMD_TARGETS=native "$@" >/dev/null
}

configure_asan_tree() {
  configure_sanitized_tree "$1" address,undefined -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DACLCPU_BUILD_FUZZERS=ON "${@:2}"
}
