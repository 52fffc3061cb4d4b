#!/usr/bin/env bash
# scripts/ci_steps.sh as run_tests.sh uses it: a step that fails without
# printing a line that names its failure, then a step after it.
set -euo pipefail
# shellcheck source=../../scripts/ci_steps.sh
source "$(dirname "$0")/../../scripts/ci_steps.sh"
step "a quiet failure" bash -c 'echo nothing named here; exit 3'
step "the step after it" true
finish_steps
