#!/usr/bin/env bash
# Compiles each of CANN's public headers in include/ on its own, as C99 and
# as C++11, with -Wall -Wextra -Wpedantic -Werror: the headers must stay
# clean for both, as CANN's users include them from either.
# Usage: check_public_headers.sh INCLUDE_DIR... (each searched; each and its
# aclnnop/ on the include path, as CANN's build instructions set them)
set -euo pipefail
include_flags=()
for dir in "$@"; do include_flags+=(-I"$dir" -I"$dir/aclnnop"); done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failed=0
for include_dir in "$@"; do
while IFS= read -r header; do
  name="${header#"$include_dir"/}"
  # acl_rt_api.h and opbase's aclnn/opdev/fp16_t.h (a C++ class) are C++ only; acl_dvpp.h asks for
  # ENABLE_DVPP_INTERFACE, as CANN's does.
  printf '#define ENABLE_DVPP_INTERFACE\n#include "%s"\nint acl_cpu_header_check;\n' "$name" >"$work/check.c"
  cp "$work/check.c" "$work/check.cpp"
  if [[ "$name" != acl/acl_rt_api.h && "$name" != aclnn/opdev/fp16_t.h ]] &&
     ! gcc -std=c99 -Wall -Wextra -Wpedantic -Werror -fsyntax-only "${include_flags[@]}" "$work/check.c"; then
    echo "not C99-clean: $name"; failed=1
  fi
  if ! g++ -std=c++11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only "${include_flags[@]}" "$work/check.cpp"; then
    echo "not C++11-clean: $name"; failed=1
  fi
done < <(find "$include_dir" -name '*.h' | sort)
done
exit "$failed"
