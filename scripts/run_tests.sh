#!/usr/bin/env bash
# Builds acl-cpu and runs the whole test suite (unit tests, samples, install tree).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build_dir="${ACLCPU_BUILD_DIR:-$root/build}"
"$root/scripts/build.sh"
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)"
