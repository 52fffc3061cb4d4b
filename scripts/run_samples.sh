#!/usr/bin/env bash
# The main job: builds acl-cpu and runs the sample host programs.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build_dir="${ACLCPU_BUILD_DIR:-$root/build}"
"$root/scripts/build.sh"
ctest --test-dir "$build_dir" -L sample --output-on-failure --verbose
