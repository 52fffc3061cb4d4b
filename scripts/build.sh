#!/usr/bin/env bash
# Configures and builds acl-cpu into build/ (or $ACLCPU_BUILD_DIR).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build_dir="${ACLCPU_BUILD_DIR:-$root/build}"
"$root/scripts/install_deps.sh"
cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE="${ACLCPU_BUILD_TYPE:-RelWithDebInfo}" "$@" >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
