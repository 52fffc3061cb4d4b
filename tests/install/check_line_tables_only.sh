#!/usr/bin/env bash
# check_line_tables_only.sh FLAGS...: each argument (a compiler flag string)
# ends its -g options with -g1, so that a RelWithDebInfo build keeps line
# tables only (the top-level CMakeLists.txt says why).
set -euo pipefail
for flags in "$@"; do
  last=$(tr ' ' '\n' <<<"$flags" | grep -E '^-g' | tail -n 1 || true)
  if [[ "$last" != -g1 ]]; then
    echo "'$flags' compiles with ${last:-no -g option}, not -g1"
    exit 1
  fi
done
echo "line tables only: $*"
