#!/usr/bin/env bash
# The main job: builds acl-cpu and runs the sample host programs.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build_dir="${ACLCPU_BUILD_DIR:-$root/build}"
"$root/scripts/build.sh"
ctest --test-dir "$build_dir" -L sample --output-on-failure --verbose
# ggml's CANN backend running a small llama-style model on acl-cpu, beside
# ggml's CPU backend (skipped with a message without ggml's source).
ACLCPU_BUILD_DIR="$build_dir" "$root/scripts/ggml_model.sh"
